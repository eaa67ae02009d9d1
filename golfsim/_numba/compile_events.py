"""Numba's compile events, for code outside `golfsim._numba` that wants to know when a function compiles.

Numba announces every compile as a ``numba:compile`` event from its private ``numba.core.event`` module;
`on_compile` is the one place golfsim listens to it (`golfsim.runs.compile_notice` draws the line that
says what is compiling).
"""

from __future__ import annotations


def on_compile(started, ended) -> bool:
    """Call ``started(dispatcher)`` when a function starts compiling and ``ended()`` when it is done, in the
    compiling thread; ``dispatcher`` is the compiled function's dispatcher, or ``None`` when Numba does not say.

    Returns False (and listens to nothing) when the installed Numba has no compile events.
    """
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - depends on the installed Numba
        return False

    class Listener(event.Listener):
        def on_start(self, ev):
            data = ev.data if isinstance(ev.data, dict) else {}
            started(data.get("dispatcher"))

        def on_end(self, ev):
            ended()

    event.register("numba:compile", Listener())
    return True
