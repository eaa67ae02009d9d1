"""Playing a sweep: every missing cell in turn, kept as it finishes, stopped cleanly by Ctrl-C or SIGTERM."""

from __future__ import annotations

import time
from pathlib import Path

from golfsim.runs.interrupts import CaughtStop, StopSignals
from golfsim.runs.outdir import check_out_dir
from golfsim.runs.progress import CountBar
from golfsim.sweep.cells import _check_fingerprint, _claim, _load_cell, _write_json
from golfsim.sweep.config import Cell, plan_sweep
from golfsim.sweep.result import SweepResult, _cell_rows, _config, _write_outputs


# ---------------------------------------------------------------- progress
class _CellProgress(CountBar):
    """A bar over the cells of a sweep, naming the cell being played."""

    def __init__(self, total: int, done: int):
        super().__init__(total, "cells", completed=done, remaining=False)

    def show(self, cell: Cell, games_done: int | None = None, games_total: int | None = None) -> None:
        text = cell.describe()
        text = text if len(text) <= 32 else text[:31] + "…"
        if games_done is not None and games_total:
            text += f" {100 * games_done // games_total:3d}%"
        self.update(description=text)



# ---------------------------------------------------------------- the run
def run_sweep(config_or_path, out=None, *, overwrite: bool = False, threads: int | None = None,
              progress: bool = False, games: int | None = None) -> SweepResult:
    """Play every missing cell of a sweep and write its table, figures and ``config.json``.

    Parameters
    ----------
    config_or_path : str, Path or mapping
        The sweep's TOML file, or the parsed description (sections ``sweep``, ``rules``, ``axes``, ``pools``; see
        the module docstring).
    out : str or Path, optional
        The sweep's directory (default: ``results/sweeps/<name>`` under the current directory). Cells already
        finished there by a run of the same request are kept, not played again.
    overwrite : bool
        Replace a directory holding another request's sweep (its cells, tables and figures are deleted).
    threads : int, optional
        Threads of each tournament (default: all). Results do not depend on it.
    progress : bool
        Show a progress bar over the cells on stderr.
    games : int, optional
        Deal sets per cell in place of the file's ``[sweep] games`` (see
        [`plan_sweep`][golfsim.sweep.config.plan_sweep]).

    Returns
    -------
    SweepResult
        The table of every complete cell and the files written. After Ctrl-C or SIGTERM the unfinished cell is
        dropped, the finished ones are kept and written, and ``partial`` is True; a rerun plays only the rest.

    Raises
    ------
    ValueError
        For a bad description (see [`plan_sweep`][golfsim.sweep.config.plan_sweep]), an ``out`` that is a file or cannot
        be written, or a directory holding another request's cells or cells made by code that plays differently.

    Examples
    --------
    >>> res = run_sweep("experiments/sweeps/example.toml", out="/tmp/sweep")  # doctest: +SKIP
    >>> res.table[["players", "end", "watch", "agent", "mean_score", "win_rate"]]  # doctest: +SKIP
    """
    from golfsim.runs.fingerprint import behaviour_fingerprint
    from golfsim.tournament.fingerprint import standings_fingerprint

    plan = plan_sweep(config_or_path, games=games)
    out = Path(out) if out is not None else Path.cwd() / "results" / "sweeps" / plan.name
    check_out_dir(out)
    with StopSignals() as stop:
        held = _claim(out, plan, overwrite)
        fingerprint = behaviour_fingerprint()
        _check_fingerprint(out, held, fingerprint, standings_fingerprint())
        (out / "cells").mkdir(parents=True, exist_ok=True)
        for tmp in list(out.glob(".*.tmp")) + list(out.glob("cells/.*.tmp")):
            tmp.unlink()  # a write that a crash cut short: never read
        done: dict[str, list[dict]] = {}
        for cell in plan.cells:
            rows = _load_cell(out, plan, cell)
            if rows is not None:
                done[cell.cell_id] = rows
        with stop.deferred():
            _write_json(out / "config.json", _config(plan, done, fingerprint, out, "running"))
        todo = [c for c in plan.cells if c.cell_id not in done]
        kept = len(done)
        bar = _CellProgress(len(plan.cells), len(done)) if progress else None
        caught = CaughtStop()  # Ctrl-C or SIGTERM between cells or inside one: what is on disk stays
        try:
            if bar is not None:
                bar.__enter__()
            with caught:
                _play_cells(todo, plan, out, done, stop, bar, threads)
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        if caught.arrived:
            stop.requested = True
        with stop.deferred():
            table, config, files = _write_outputs(out, plan, done, fingerprint)
    return SweepResult(table=table, config=config, out=out, cells_total=len(plan.cells),
                       cells_complete=len(done), cells_played=len(done) - kept, skipped=plan.skipped, files=files)


def _play_cells(todo, plan, out: Path, done: dict, stop: StopSignals, bar, threads) -> None:
    """Play the cells of ``todo`` in order, writing each finished one to ``out/cells`` and into ``done``. A stop
    ends it between cells or inside one (the unfinished cell is never written)."""
    from golfsim.tournament import run_tournament

    sweep = plan.request["sweep"]
    for cell in todo:
        if stop.requested:
            break

        def report(games_done, games_total, cell=cell):
            if stop.requested:
                raise KeyboardInterrupt
            if bar is not None:
                bar.show(cell, games_done, games_total)

        if bar is not None:
            bar.show(cell)
        start = time.perf_counter()
        try:
            result = run_tournament(list(cell.agents), cell.rules, plan.games, cell.seed,
                                    schedule=sweep.get("schedule", "auto"), anchor=cell.anchor,
                                    seating=sweep.get("seating", "auto"), threads=threads,
                                    confidence=plan.confidence, progress=report)
        except ValueError as e:
            raise ValueError(f"cell ({cell.describe()}): {e}") from None
        if result.deal_sets < plan.games:  # interrupted inside: the unfinished cell is never written
            stop.requested = True
            break
        with stop.deferred():
            rows = _cell_rows(cell, result)
            _write_json(out / "cells" / f"{cell.cell_id}.json", {
                "cell_id": cell.cell_id, "request_hash": plan.request_hash, "cell": cell.describe(),
                "agents": list(cell.agents), "rules": cell.rules.to_dict(), "seed": cell.seed,
                "games": plan.games, "seconds": round(time.perf_counter() - start, 3), "rows": rows})
            done[cell.cell_id] = rows
            if bar is not None:
                bar.advance()
