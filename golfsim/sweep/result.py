"""What a sweep produced: the table of every finished cell, ``config.json`` and the figures."""

from __future__ import annotations

import platform
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

import golfsim
from golfsim.agents import plugins
from golfsim.sweep.cells import _atomic_write, _write_json
from golfsim.sweep.config import _RULE_OPTIONS, METRICS, Cell, SweepPlan, _show
from golfsim.tournament.fingerprint import standings_fingerprint


# ---------------------------------------------------------------- the result
@dataclass
class SweepResult:
    """What a sweep produced.

    Attributes
    ----------
    table : pandas.DataFrame
        One row per complete cell and agent: ``cell``, ``cell_id``, every rule option (``players`` first), ``pool``,
        one column per agent-parameter axis (empty where the pool does not use it), ``pool_entry`` (the agent as
        written in the pool), ``agent`` (with the values filled in), then ``rank`` (within the cell), ``mean_score``
        (mean N-hole game total, ``_low``/``_high``: its interval over deal sets), ``mean_hole_score`` (per hole,
        with its interval), ``win_rate`` (ties shared, with its interval), ``games`` (games the agent played),
        ``deal_sets`` and ``seed``.
    config : dict
        The ``config.json`` document: request, grid, fingerprint, complete cells.
    out : pathlib.Path
        The directory written.
    cells_total, cells_complete : int
        Cells in the grid and cells finished (now or by an earlier run).
    cells_played : int
        Cells played by this run.
    skipped : list of dict
        Impossible cells left out (``impossible = "skip"``), each with the reason.
    files : list of pathlib.Path
        The tables, figures and ``config.json`` written.
    """

    table: pd.DataFrame
    config: dict
    out: Path
    cells_total: int
    cells_complete: int
    cells_played: int
    skipped: list[dict] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    @property
    def partial(self) -> bool:
        """True when some cells are still missing (the run was interrupted)."""
        return self.cells_complete < self.cells_total


def _cell_rows(cell: Cell, result) -> list[dict]:
    """The standings of a cell's tournament, one dict per agent in pool order."""
    standings = result.standings.set_index("agent")
    rows = []
    for entry, label in zip(cell.entries, result.labels, strict=True):
        s = standings.loc[label]
        row = {"pool_entry": entry, "agent": label}
        for key in METRICS:
            value = s[key]
            row[key] = int(value) if key in ("rank", "games", "deal_sets") else float(value)
        rows.append(row)
    return rows


def _table(plan: SweepPlan, done: dict[str, list[dict]]) -> pd.DataFrame:
    records = []
    for cell in plan.cells:
        if cell.cell_id not in done:
            continue
        head = {"cell": cell.index, "cell_id": cell.cell_id, **cell.rules.to_dict(), "pool": cell.pool}
        head.update({a: cell.values.get(a) for a in plan.param_axes})
        for row in done[cell.cell_id]:
            records.append({**head, **row, "seed": cell.seed})
    columns = (["cell", "cell_id", *_RULE_OPTIONS, "pool", *plan.param_axes, "pool_entry", "agent", *METRICS,
                "seed"])
    table = pd.DataFrame.from_records(records, columns=columns)
    for axis in plan.param_axes:
        values = plan.axes[axis]
        numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
        table[axis] = (table[axis].astype("float64") if numeric
                       else table[axis].map(lambda v: None if pd.isna(v) else _show(v)).astype("object"))
    for col, dtype in (("cell", "int64"), ("seed", "uint64"), ("rank", "int64"), ("games", "int64"),
                       ("deal_sets", "int64"), ("players", "int64"), ("decks", "int64"), ("holes", "int64"),
                       ("turn_cap", "int64"), ("four_of_a_kind_bonus", "int64"),
                       ("reveal_instead_of_draw", "bool")):
        table[col] = table[col].astype(dtype)
    return table


def _grid_record(plan: SweepPlan, done) -> list[dict]:
    return [{"cell": c.index, "cell_id": c.cell_id, "values": c.values, "pool": c.pool, "agents": list(c.agents),
             "anchor": c.anchor, "rules": c.rules.to_dict(), "rules_text": c.rules.describe(), "seed": c.seed,
             "complete": c.cell_id in done} for c in plan.cells]


def _config(plan: SweepPlan, done, fingerprint: str, out: Path, status: str) -> dict:
    complete = sum(c.cell_id in done for c in plan.cells)
    source = plan.where if plan.text is not None else "CONFIG.toml"
    return {
        "sweep": plan.name,
        "request": plan.request,
        "config_file": plan.where if plan.text is not None else None,
        "config_text": plan.text,
        "command": plugins.rerun_command(f"golfsim sweep {source} --out {out}"),
        "behaviour_fingerprint": fingerprint,
        "standings_fingerprint": standings_fingerprint(),
        "status": status,
        "partial": complete < len(plan.cells),
        "cells_total": len(plan.cells),
        "cells_complete": complete,
        "games_meaning": "deal sets per cell; each deal set is played at every table in every seat order",
        "seed_rule": "golfsim.sweep.grid.cell_seed(seed, rules): SHA-256 of the sweep seed and every rule option, 63 "
                     "bits; cells with the same rules are dealt the same cards",
        "grid": _grid_record(plan, done),
        "skipped": plan.skipped,
        "golfsim_version": golfsim.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
    }


def _write_outputs(out: Path, plan: SweepPlan, done, fingerprint: str) -> tuple[pd.DataFrame, dict, list[Path]]:
    from golfsim.sweep import plots as sweep_plots

    table = _table(plan, done)
    complete = sum(c.cell_id in done for c in plan.cells)
    config = _config(plan, done, fingerprint, out, "complete" if complete == len(plan.cells) else "partial")
    files = [out / "table.parquet", out / "table.csv"]
    _atomic_write(files[0], lambda tmp: table.to_parquet(tmp, index=False))
    _atomic_write(files[1], lambda tmp: table.to_csv(tmp, index=False))
    for stale in out.glob("score_vs_*.png"):
        stale.unlink()
    files += sweep_plots.plot_sweep(table, plan, out, complete)
    _write_json(out / "config.json", config)
    files.append(out / "config.json")
    return table, config, files
