"""What every experiment shares: where results go and how they are written.

Each experiment writes ``results/<name>/`` with ``table.csv``, ``table.md``, at least one ``figure*.png`` and
``config.json`` (rules, agents, seeds, sample sizes, package version, the command that reproduces it, the
behaviour fingerprint of the code).

Where results go: ``results/<name>/`` under the current directory unless a directory is given (never a place found
from where this file is installed). A directory that already holds a result is replaced only by a run of the same
request (experiment, ``games`` and ``seed``), which reproduces it; any other run is refused
([`check_target`][golfsim.experiments.common.check_target], the library's [`golfsim.runs.claims`][]) unless told to
overwrite, so a small trial run in a checkout cannot silently replace the committed results. Figures are drawn without
pyplot (`subplots`), so importing this module leaves matplotlib's backend alone.

How experiments run: each is a list of *cells* ([`Cell`][golfsim.experiments.common.Cell]: a player count of the ladder,
a tip at a player count, a variant, ...), each cell a list of independent tasks ([`golfsim.runs.tasks`][]) and a
reduction of their results. [`run_cells`][golfsim.experiments.common.run_cells] submits the tasks of every cell at once
to one executor, so every core (or every Dask worker) is busy. Ctrl-C stops the run: the cells whose every task finished
are kept and reduced, the others are dropped (never a result for an unfinished cell), and the output is marked partial
(`ExperimentOutput.partial`, ``config.json`` ``partial`` and ``cells``, and the first note of ``table.md``).
"""

from __future__ import annotations

import json
import platform
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

import golfsim
from golfsim.agents import plugins
from golfsim.runs import claims
from golfsim.runs.claims import default_root  # noqa: F401 -- re-exported for the experiments
from golfsim.runs.experiment import check_target, recorded_request, request  # noqa: F401 -- re-exported
from golfsim.runs.figures import subplots  # noqa: F401 -- re-exported for the experiments
from golfsim.runs.stops_after_work import work_done
from golfsim.runs.tasks import Task, executor_workers, run_tasks, split_counts

#: Games per task at most in an experiment (pieces are cut finer when that keeps more workers busy).
TASK_GAMES = 5000

@dataclass
class ExperimentOutput:
    """The table, figures and configuration of one experiment run."""

    name: str
    table: pd.DataFrame
    config: dict
    figures: dict[str, Figure] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    #: True when the run was interrupted: only the complete cells are in the table.
    partial: bool = False
    #: More tables, written as ``<stem>.csv`` and ``<stem>.md`` next to ``table.csv``.
    extra_tables: dict[str, pd.DataFrame] = field(default_factory=dict)

    def write(self, directory: Path | str | None = None) -> list[Path]:
        """Write ``table.csv``, ``table.md``, the figures and ``config.json``; return the paths written.

        Everything is written to a temporary directory first and moved into place at the end
        ([`golfsim.runs.outdir.write_directory`][]): an interrupted write leaves the directory as it was.
        """
        from golfsim.runs.outdir import write_directory

        out = Path(directory) if directory is not None else default_root() / self.name

        def fill(d: Path) -> list[Path]:
            written = [d / "table.csv", d / "table.md", d / "config.json"]
            self.table.to_csv(written[0], index=False)
            written[1].write_text(markdown_table(self.table, self.notes))
            written[2].write_text(json.dumps(self.config, indent=2, default=_json_default) + "\n")
            for stem, extra in self.extra_tables.items():
                extra.to_csv(d / f"{stem}.csv", index=False)
                (d / f"{stem}.md").write_text(markdown_table(extra))
                written += [d / f"{stem}.csv", d / f"{stem}.md"]
            for stem, fig in self.figures.items():
                path = d / f"{stem}.png"
                fig.savefig(path, dpi=120, bbox_inches="tight")
                written.append(path)
            return written

        return write_directory(out, fill)


# ---------------------------------------------------------------- cells of tasks
@dataclass
class Cell:
    """One unit of an experiment's result: its tasks and how their results become the cell's value.

    ``reduce`` is called with the tasks' results in task order, only when every task finished.
    """

    name: str
    tasks: list[Task]
    reduce: Callable[[list], object]

    @property
    def games(self) -> int:
        return sum(t.count for t in self.tasks)


@dataclass
class CellRun:
    """The values of the complete cells (by cell index), whether the run was interrupted, and per cell what was
    done (``cells``: name, complete, games done and planned: the record a partial ``config.json`` keeps)."""

    values: dict[int, object]
    interrupted: bool
    cells: list[dict]

    @property
    def partial(self) -> bool:
        return self.interrupted and len(self.values) < len(self.cells)

    def kept(self) -> str:
        """One line saying what was kept."""
        done = [c["cell"] for c in self.cells if c["complete"]]
        missing = [c["cell"] for c in self.cells if not c["complete"]]
        return (f"{len(done)} of {len(self.cells)} cells complete" + (f" ({', '.join(done)})" if done else "")
                + (f"; not kept: {', '.join(missing)}" if missing else ""))


def piece_tasks(make: Callable[[int, int], Task], games: int, units: int, workers: int) -> list[Task]:
    """Tasks ``make(first_game, count)`` covering ``games`` games in pieces of at most `TASK_GAMES`, cut
    finer for ``workers`` when an experiment has few seatings (``units``) ([`golfsim.runs.tasks.split_counts`][])."""
    return [make(first, count) for first, count in split_counts(games, TASK_GAMES, units, workers)]


def run_cells(cells: Sequence[Cell], executor: Executor | None = None, threads: int | None = None,
              log: Callable[[str], None] | None = None, label: str = "") -> CellRun:
    """Run the tasks of every cell at once and reduce each complete cell (see the module docstring).

    ``log`` gets a line when the run starts and when each cell is complete.
    """
    from golfsim.runs.limits import MAX_TASKS, check_memory, kept_bytes_per_game, refuse_over

    # an experiment keeps every task's result until its cell is reduced: bound both before anything is listed
    count = sum(len(cell.tasks) for cell in cells)
    refuse_over(f"{label or 'the experiment'}: {len(cells)} cells make {count:,} tasks, and that", count, MAX_TASKS,
                "play fewer games")
    owner: list[int] = []
    tasks: list[Task] = []
    for c, cell in enumerate(cells):
        tasks += cell.tasks
        owner += [c] * len(cell.tasks)
    check_memory(f"{label or 'the experiment'}: {sum(t.count for t in tasks):,} games",
                 sum(kept_bytes_per_game(t.rules.players) * t.count for t in tasks), "play fewer games")
    remaining = [len(cell.tasks) for cell in cells]
    done_games = [0] * len(cells)
    if log:
        log(f"{label}: {len(cells)} cells, {len(tasks):,} tasks, {sum(c.games for c in cells):,} games on "
            f"{executor_workers(executor, threads)} workers")

    def progress(i, task):
        c = owner[i]
        remaining[c] -= 1
        done_games[c] += task.count
        if remaining[c] == 0 and log:
            log(f"{label}: {cells[c].name} done ({sum(r == 0 for r in remaining)}/{len(cells)} cells)")

    run = run_tasks(tasks, executor, threads=threads, progress=progress)
    work_done()  # a stop from here on lets the result be made and written (golfsim.runs.stops_after_work)
    values = {}
    start = 0
    for c, cell in enumerate(cells):
        indices = range(start, start + len(cell.tasks))
        start += len(cell.tasks)
        if run.complete(indices):
            values[c] = cell.reduce([run.results[i] for i in indices])
    record = [{"cell": cell.name, "complete": c in values, "games_done": done_games[c], "games": cell.games}
              for c, cell in enumerate(cells)]
    return CellRun(values, run.interrupted, record)


def mark_partial(config: dict, notes: list[str], run: CellRun) -> None:
    """Record in ``config`` (``partial``, ``cells``) and the first note whether the run was cut short
    ([`golfsim.runs.claims.mark_partial`][])."""
    claims.mark_partial(config, notes, run.partial, run.cells, run.kept())


def markdown_table(table: pd.DataFrame, notes=()) -> str:
    """A GitHub-flavoured Markdown table (numbers rounded for reading), followed by notes."""

    def cell(v):
        if isinstance(v, float | np.floating):
            return f"{v:.3f}" if abs(v) < 100 else f"{v:,.1f}"
        return str(v)

    head = "| " + " | ".join(str(c) for c in table.columns) + " |"
    rule = "| " + " | ".join("---" for _ in table.columns) + " |"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    text = "\n".join([head, rule, *rows]) + "\n"
    if notes:
        text += "\n" + "\n".join(f"- {n}" for n in notes) + "\n"
    return text


def base_config(name: str, *, games: int | None = None, seed: int | None = None, **extra) -> dict:
    """Provenance shared by every experiment's ``config.json``; ``games`` and ``seed`` as passed to ``run``.

    With ``seed`` given the config records the request ([`request`][golfsim.experiments.common.request]) and the command
    that reproduces it.
    """
    recorded = {} if seed is None else {"request": request(name, games, seed)}
    command = f"golfsim experiment {name}" + (f" --games {games}" if games is not None else "") \
        + (f" --seed {seed}" if seed else "")
    return {
        "experiment": name,
        **recorded,
        "golfsim_version": golfsim.__version__,
        "numba_version": numba.__version__,
        "numpy_version": np.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "command": plugins.rerun_command(command),
        **({} if seed is None else {"seed": seed}),
        **extra,
    }


def _json_default(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    if hasattr(v, "to_dict"):
        return v.to_dict()
    return str(v)
