"""Ctrl-C and SIGTERM for every long run (tournaments, experiments, sweeps, tuning): one place sets the handlers.

A run stops on a ``KeyboardInterrupt`` and keeps what is complete. :func:`sigterm_as_ctrl_c` makes SIGTERM raise
one too; :func:`held_signals` holds both back while files are moved into place; :class:`StopSignals` raises on the
first signal while work runs and only records signals inside its :meth:`~StopSignals.deferred` blocks. Signal
handlers can only be set from the main thread: elsewhere these change nothing, and only Ctrl-C's own
``KeyboardInterrupt`` stops a run.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def sigterm_as_ctrl_c() -> None:
    """Let SIGTERM stop a run the way Ctrl-C does (a ``KeyboardInterrupt``: keep what is complete, exit 130)."""

    def stop(signum, frame):
        raise KeyboardInterrupt

    if _main_thread():
        signal.signal(signal.SIGTERM, stop)


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Hold back SIGINT and SIGTERM inside the block; one that arrived is handled as usual right after it."""
    if not _main_thread():
        yield
        return
    arrived: list[int] = []
    previous = {s: signal.signal(s, lambda sig, frame: arrived.append(sig)) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        if arrived:
            signal.raise_signal(arrived[0])


class StopSignals:
    """Ctrl-C and SIGTERM inside the ``with`` block: ``KeyboardInterrupt`` on the first one, except inside
    :meth:`deferred`, where it is only recorded in :attr:`requested` (so no file is left half-written)."""

    def __init__(self):
        self.requested = False
        self.raising = True
        self._old = {}

    def _handle(self, signum, frame):
        first = not self.requested
        self.requested = True
        if self.raising and first:
            raise KeyboardInterrupt

    def __enter__(self):
        if _main_thread():
            for sig in STOP_SIGNALS:
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    @contextlib.contextmanager
    def deferred(self):
        """Signals that arrive inside are only recorded."""
        self.raising = False
        try:
            yield
        finally:
            self.raising = True

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)
        return False
