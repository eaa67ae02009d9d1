"""The command's last line of defence: an ``OSError`` that reaches the top (a full disk, a closed or broken stdout)
is one line on stderr, never a traceback."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable

from golfsim.atomic import os_error_text
from golfsim.cli.own_stdout import own_stdout

EXIT_OS_ERROR = 1
"""Exit status when the system refused a read or write (not bad input, which exits 2)."""


def _say(text: str) -> None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"error: {text}\n")
        sys.stderr.flush()


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def run_command(app: Callable[[], object], private_stdout: bool = True) -> None:
    """Call ``app()``; a closed stdout is refused first, an ``OSError`` from anywhere is one line and exit 1.

    With ``private_stdout``, only what the command prints reaches stdout; anything else writing to descriptor 1
    goes to stderr (`golfsim.cli.own_stdout.own_stdout`).
    """
    if sys.stdout is None:
        _say("standard output is closed; give the command somewhere to write (e.g. > out.txt or > /dev/null)")
        sys.exit(2)
    try:
        with own_stdout() if private_stdout else contextlib.nullcontext():
            app()
    except BrokenPipeError:  # the reader went away (| head): nothing more to say to it
        _silence_stdout()
        sys.exit(EXIT_OS_ERROR)
    except OSError as e:
        where = f"{e.filename}: " if getattr(e, "filename", None) else "writing the output: "
        _say(f"{where}{os_error_text(e)}")
        _silence_stdout()
        sys.exit(EXIT_OS_ERROR)
