"""The one rich progress bar the long commands show on stderr (tournaments count games, tuning trials, sweeps
cells).

The description stays short and the bar takes only the width left over, so the count (``done/total``) and the times
are never cut off on an 80-column terminal.
"""

from __future__ import annotations


class CountBar:
    """A progress bar counting ``unit`` up to ``total``, showing "compiling/loading" until the first update and
    what Numba compiles, with its seconds, while it compiles (`golfsim.runs.compile_notice`).

    Parameters
    ----------
    total : int
        The count at which the work is done.
    unit : str
        What is counted, shown after the count ("games", "trials", "cells").
    completed : int
        Already done when the bar starts (a resumed run).
    remaining : bool
        Show an estimate of the time left.
    """

    def __init__(self, total: int, unit: str, completed: int = 0, remaining: bool = True):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.text import Text

        from golfsim.runs import compile_notice

        compile_notice.watch()

        class Description(TextColumn):
            """The task's description, or what Numba is compiling while it compiles (redrawn with the bar)."""

            def render(self, task):
                text = compile_notice.short()
                return Text(text) if text else super().render(task)

        columns = [Description("{task.description}"), BarColumn(bar_width=None), MofNCompleteColumn(),
                   TextColumn(unit), TimeElapsedColumn()]
        if remaining:
            columns.append(TimeRemainingColumn())
        self.progress = Progress(*columns, console=Console(stderr=True), transient=False)
        self.task = self.progress.add_task("compiling/loading", total=total, completed=completed)

    def __enter__(self):
        from golfsim.runs.compile_notice import active_line

        self._line = active_line()
        if self._line is not None:
            self._line.pause()
        self.progress.start()
        return self

    def update(self, **fields) -> None:
        """Pass ``completed``, ``total`` or ``description`` on to the bar."""
        self.progress.update(self.task, **fields)

    def advance(self) -> None:
        self.progress.advance(self.task)

    def __exit__(self, *exc):
        self.progress.stop()
        if self._line is not None:
            self._line.resume()
        return False
