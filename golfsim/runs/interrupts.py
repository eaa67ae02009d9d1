"""The end of a run stopped by Ctrl-C or SIGTERM, for every command (tournaments, experiments, sweeps, tuning,
learning, the soak): the one place that sets the signal handlers and catches the stop.

A run stops on a ``KeyboardInterrupt`` and keeps what is complete:

- the library ends the stopped part of its work with [`CaughtStop`][golfsim.runs.interrupts.CaughtStop] (``with
  CaughtStop() as stop:``; after the block ``stop.arrived`` says whether a stop ended it) and returns what was complete,
  marked partial ([`golfsim.runs.claims.mark_partial`][]);
- a command ends the run with [`RunStopped`][golfsim.runs.interrupts.RunStopped], whose message says in one line what
  was kept: raised directly after writing a partial result, or by [`stop_means`][golfsim.runs.interrupts.stop_means] for
  a stop inside a block. The command line prints it and exits with `EXIT_STATUS` (130, as a shell reports a process
  ended by Ctrl-C), in one place ([`golfsim.cli.shared.clear_errors`][]).

[`sigterm_as_ctrl_c`][golfsim.runs.interrupts.sigterm_as_ctrl_c] makes SIGTERM raise a ``KeyboardInterrupt`` too;
[`held_signals`][golfsim.runs.interrupts.held_signals] holds both back while files are moved into place;
[`StopSignals`][golfsim.runs.interrupts.StopSignals] raises on the first signal while work runs and only records signals
inside its [`deferred`][golfsim.runs.interrupts.StopSignals.deferred] blocks; [`golfsim.runs.stops_after_work`][] lets a
result whose work is done be written first.

A signal handler's exception can be lost: when the signal arrives while Python runs a garbage-collection or weakref
callback (SQLAlchemy, under optuna's storage, registers one), the ``KeyboardInterrupt`` is printed as "Exception
ignored" and the run goes on. So every stop these handlers raise is also recorded until a catcher here takes it, and a
loop calls [`raise_pending_stop`][golfsim.runs.interrupts.raise_pending_stop] between its steps to raise a stop that
was lost. Signal handlers can only be set from the main thread: elsewhere these change
nothing, and only Ctrl-C's own ``KeyboardInterrupt`` stops a run.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: The exit status of a command whose run was stopped (a shell's status for a process ended by SIGINT).
EXIT_STATUS = 130


_pending = False  # a stop signal raised its KeyboardInterrupt and no catcher here has taken it yet


def _stop_arrived() -> None:
    global _pending
    _pending = True


def _stop_taken() -> None:
    global _pending
    _pending = False


def stop_pending() -> bool:
    """Whether a stop signal raised its ``KeyboardInterrupt`` and no catcher here has taken it (it may have been lost
    in a garbage-collection callback)."""
    return _pending


def raise_pending_stop() -> None:
    """Raise ``KeyboardInterrupt`` again for a stop signal whose first one was lost; call it between a loop's steps.

    Raises
    ------
    KeyboardInterrupt
        When [`stop_pending`][golfsim.runs.interrupts.stop_pending].
    """
    if _pending:
        raise KeyboardInterrupt


class RunStopped(Exception):
    """A run ended by Ctrl-C or SIGTERM. ``str(error)`` says in one line what was kept (it may be empty: the
    command said it already); the command line prints it and exits with `EXIT_STATUS`."""


class CaughtStop:
    """``with CaughtStop() as stop:`` a stop (``KeyboardInterrupt``) inside the block ends the block, not the run;
    afterwards `arrived` says whether one did, and the caller keeps what was complete."""

    def __init__(self):
        self.arrived = False

    def __enter__(self) -> CaughtStop:
        return self

    def __exit__(self, kind, error, trace) -> bool:
        if kind is not None and issubclass(kind, KeyboardInterrupt):
            _stop_taken()
            self.arrived = True
            return True
        return False


@contextlib.contextmanager
def stop_means(message: str) -> Iterator[None]:
    """A stop inside the block ends the run: [`RunStopped`][golfsim.runs.interrupts.RunStopped] with ``message`` (what
    was kept, in one line)."""
    try:
        yield
    except KeyboardInterrupt:
        _stop_taken()
        raise RunStopped(message) from None


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def sigterm_as_ctrl_c() -> None:
    """Let SIGTERM stop a run the way Ctrl-C does (a ``KeyboardInterrupt``: keep what is complete, exit 130); both
    record the stop, so [`raise_pending_stop`][golfsim.runs.interrupts.raise_pending_stop] raises one that was lost."""

    def stop(signum, frame):
        _stop_arrived()
        raise KeyboardInterrupt

    if _main_thread():
        for sig in STOP_SIGNALS:
            signal.signal(sig, stop)


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
    [`deferred`][golfsim.runs.interrupts.StopSignals.deferred], where it is only recorded in `requested` (so no file is
    left half-written)."""

    def __init__(self):
        self.requested = False
        self.raising = True
        self._old = {}

    def _handle(self, signum, frame):
        first = not self.requested
        self.requested = True
        if self.raising and first:
            _stop_arrived()
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
