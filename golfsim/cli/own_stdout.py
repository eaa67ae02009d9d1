"""Standard output belongs to the command's own output: anything else that writes to file descriptor 1 goes to stderr.

A plugin agent may print, and not only through ``sys.stdout``: Numba's ``print`` in compiled code, C extensions and
child processes write to file descriptor 1 itself, which would break a ``--format json`` document. While a command
runs, `own_stdout` keeps a private copy of descriptor 1 for ``sys.stdout`` (what the command prints) and
points descriptor 1 at stderr, so every other writer lands there. `agents_print_to_stderr` does the same for
Python-level prints while agents play.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys


@contextlib.contextmanager
def own_stdout():
    """Give ``sys.stdout`` a private copy of descriptor 1 and point descriptor 1 at stderr, until the block ends.

    Does nothing when stdout or stderr has no descriptor (an embedding that replaced them).
    """
    try:
        sys.stdout.flush()
        fd = sys.stdout.fileno()
        err_fd = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
        yield
        return
    private = os.dup(fd)
    real = sys.stdout
    sys.stdout = io.TextIOWrapper(io.FileIO(private, "w", closefd=False), encoding=real.encoding,
                                  errors=real.errors, write_through=True)  # a full disk fails the write
    os.dup2(err_fd, fd)
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.dup2(private, fd)
        with contextlib.suppress(OSError):
            os.close(private)
        sys.stdout = real


@contextlib.contextmanager
def agents_print_to_stderr():
    """Send what Python code prints while the block runs (agents playing) to stderr, not into the command's output."""
    with contextlib.redirect_stdout(sys.stderr):
        yield
