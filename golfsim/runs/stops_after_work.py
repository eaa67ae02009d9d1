"""A stop that arrives after the work is done keeps the work: the result is finished and written first.

Between the last finished cell of an experiment and its result on disk lie a few seconds of reducing, tables and
figures; a Ctrl-C there used to discard every complete cell. Inside
[`finish_after_work`][golfsim.runs.stops_after_work.finish_after_work], once the work reports itself done
([`work_done`][golfsim.runs.stops_after_work.work_done], called by [`golfsim.experiments.common.run_cells`][]), SIGINT
and SIGTERM are recorded instead of raised: the result is made and written, and the caller then exits as interrupted. A
second signal abandons that (it is raised as usual), for a person who really wants out now.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@dataclass
class LateStops:
    """What [`finish_after_work`][golfsim.runs.stops_after_work.finish_after_work] saw: whether a stop arrived after the
    work was done."""

    arrived: bool = False
    deferring: bool = False
    previous: dict | None = None


_active: list[LateStops] = []


@contextlib.contextmanager
def finish_after_work() -> Iterator[LateStops]:
    """Within the block, a stop after [`work_done`][golfsim.runs.stops_after_work.work_done] is recorded in the yielded
    [`LateStops`][golfsim.runs.stops_after_work.LateStops]."""
    stops = LateStops()
    _active.append(stops)
    try:
        yield stops
    finally:
        _active.remove(stops)
        _restore(stops)


def work_done() -> None:
    """The work itself is finished: from now on in the innermost
    [`finish_after_work`][golfsim.runs.stops_after_work.finish_after_work] block, a first SIGINT or SIGTERM is recorded
    and announced, not raised. Outside such a block (library use) nothing changes."""
    if not _active or threading.current_thread() is not threading.main_thread():
        return
    stops = _active[-1]
    if stops.deferring:
        return

    def late(signum, frame):
        if stops.arrived:  # the second stop: out now
            _restore(stops)
            raise KeyboardInterrupt
        stops.arrived = True
        with contextlib.suppress(OSError, ValueError):
            print("stopping: the work is done, its result is being written first (stop again to abandon it)",
                  file=sys.stderr, flush=True)

    stops.previous = {s: signal.signal(s, late) for s in STOP_SIGNALS}
    stops.deferring = True


def _restore(stops: LateStops) -> None:
    if stops.deferring and stops.previous is not None:
        for s, handler in stops.previous.items():
            signal.signal(s, handler)
    stops.deferring = False
