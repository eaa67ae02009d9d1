"""Feedback while Numba compiles: what is compiling and for how long, on stderr, from a command's start.

A cold first run compiles the agents and the game kernel for a minute or more before any game is played (later
runs load the cache, see `golfsim._numba.jit`). `watch` listens to Numba's ``numba:compile`` events, so
`current` knows the outermost function being compiled in any thread. `CompileLine` shows it on stderr
while a command runs: in a terminal, a line drawn the moment a compile starts (a compile shorter than the
half-second redraw is seen too) and cleared when it ends, its elapsed time redrawn every half second. A pipe or a file
gets nothing, so machine formats and one-line errors stay as they are. The progress bar
([`golfsim.runs.progress.CountBar`][]) pauses the line and shows the same in its description column.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time

__all__ = ["CompileLine", "active_line", "current", "describe", "short", "watch"]

_lock = threading.Lock()
_state = {"depth": 0, "label": None, "since": 0.0, "count": 0}
_installed = False
_line: CompileLine | None = None


def _label(dispatcher) -> str:
    """A compiled function's name as a person reads it: ``the expected value agent`` (an agent by its module, not
    its compiled variant's name), ``play_games (kernels.simulate)``."""
    func = getattr(dispatcher, "py_func", None)
    name = getattr(func, "__name__", None) or str(dispatcher)
    name = name.removesuffix("__pointer_entry")
    module = getattr(func, "__module__", "") or ""
    if module.startswith("golfsim.agents."):
        return f"the {module.split('.')[2].replace('_', ' ')} agent"
    if module.startswith("golfsim."):
        return f"{name} ({module.removeprefix('golfsim.')})"
    return f"{name} ({module})" if module else name


def watch() -> None:
    """Listen to Numba's compile events (once per process)."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    from golfsim._numba.compile_events import on_compile

    def started(dispatcher):
        with _lock:
            _state["depth"] += 1
            first = _state["depth"] == 1
            if first:
                _state["label"] = _label(dispatcher)
                _state["since"] = time.monotonic()
                _state["count"] += 1
        if first:
            _redraw_now()

    def ended():
        with _lock:
            _state["depth"] = max(0, _state["depth"] - 1)
            over = _state["depth"] == 0
            if over:
                _state["label"] = None
        if over:
            _redraw_now()

    on_compile(started, ended)


def _redraw_now() -> None:
    # in the compiling thread, outside _lock: the half-second redraw alone missed compiles that fell between two
    line = _line
    if line is not None:
        line._redraw()


def current() -> tuple[str, float] | None:
    """``(label, seconds so far)`` of the compile in progress, or None."""
    with _lock:
        if _state["label"] is None:
            return None
        return _state["label"], time.monotonic() - _state["since"]


def compiles() -> int:
    """How many outermost compiles this process has started since `watch`."""
    with _lock:
        return _state["count"]


def short(now: tuple[str, float] | None = None) -> str:
    """The compile in progress in a few words for the progress bar, e.g. ``compiling play_games 12 s``."""
    now = current() if now is None else now
    if now is None:
        return ""
    return f"compiling {now[0].split(' (')[0]} {now[1]:.0f} s"


def describe(now: tuple[str, float] | None = None) -> str:
    """The line shown while compiling, e.g. ``compiling play_games (kernels.simulate): 12 s (once; cached for later
    runs)``; '' when idle."""
    now = current() if now is None else now
    if now is None:
        return ""
    label, seconds = now
    return f"compiling {label}: {seconds:.0f} s (once; cached for later runs)"


class CompileLine:
    """Show the compile in progress on stderr while the ``with`` block runs (see the module docstring).

    Parameters
    ----------
    enabled : bool
        False shows nothing (``--quiet``, machine formats stay quiet on stdout either way).
    stream : file, optional
        Where to write (default ``sys.stderr``).
    """

    def __init__(self, enabled: bool = True, stream=None):
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = bool(getattr(self.stream, "isatty", lambda: False)())
        self.paused = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._shown = ""
        # the redraw thread and a compiling thread (at a compile's start and end) both write the line
        self._writing = threading.RLock()

    def __enter__(self):
        global _line
        if not self.enabled:
            return self
        if self.terminal:
            watch()
            _line = self
            self._thread = threading.Thread(target=self._draw, name="golfsim-compile-line", daemon=True)
            self._thread.start()
        return self

    def pause(self) -> None:
        """Stop drawing (a progress bar takes over the bottom line) and clear the line."""
        self.paused = True
        self._clear()

    def resume(self) -> None:
        self.paused = False

    def _clear(self) -> None:
        with self._writing:
            if self.terminal and self._shown:
                self.stream.write("\r\x1b[2K")
                self.stream.flush()
                self._shown = ""

    def _redraw(self) -> None:
        """Show `describe` now if it changed (nothing while paused or not a terminal)."""
        if self.paused or not self.terminal:
            return
        with self._writing:  # read under the lock too: a compile's end must not be overwritten by its older text
            text = describe()
            room = max(20, shutil.get_terminal_size().columns - 1)
            if len(text) > room:  # the reminder goes before the words are cut
                text = text.removesuffix(" (once; cached for later runs)")[:room]
            if self.paused or text == self._shown:
                return
            if text:
                self.stream.write("\r\x1b[2K" + text)
                self.stream.flush()
                self._shown = text
            else:
                self._clear()

    def _draw(self) -> None:
        while not self._stop.wait(0.5):
            self._redraw()

    def __exit__(self, *exc):
        global _line
        if not self.enabled:
            return False
        if _line is self:  # first, so a compile starting in another thread draws nothing after the clear below
            _line = None
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._clear()
        return False


def active_line() -> CompileLine | None:
    """The `CompileLine` of this process's running command, if any."""
    return _line
