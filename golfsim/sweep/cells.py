"""The sweep's directory as a cell store: claiming it for one request, one atomic file per finished cell."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from golfsim.runs.claims import check_target
from golfsim.runs.outdir import write_file
from golfsim.sweep.config import METRICS, Cell, SweepPlan

# ---------------------------------------------------------------- the directory
_TABLE_FILES = ("table.parquet", "table.csv", "config.json")


def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    write_file(path, write)


def _write_json(path: Path, obj) -> None:
    _atomic_write(path, lambda tmp: tmp.write_text(json.dumps(obj, indent=2) + "\n"))


def _describe_change(held: dict, request: dict) -> str:
    parts = []
    for section in ("sweep", "rules", "axes", "pools"):
        a, b = held.get(section, {}), request.get(section, {})
        keys = [k for k in dict.fromkeys([*a, *b]) if a.get(k) != b.get(k)]
        parts += [f"[{section}] {k}" for k in keys]
    return ", ".join(parts[:4]) + (" and more" if len(parts) > 4 else "") if parts else "[sweep] name"


def _claim(out: Path, plan: SweepPlan, overwrite: bool) -> dict:
    """Make ``out`` this request's directory ([`golfsim.runs.claims.check_target`][]): refuse another request's
    cells, or clear them with ``overwrite``.

    Returns the ``config.json`` it holds (empty when there is none)."""
    if overwrite and out.exists():
        ours = [out / f for f in _TABLE_FILES] + list(out.glob("score_vs_*.png")) + list(out.glob("cells/*.json"))
        for path in ours:
            path.unlink(missing_ok=True)
        return {}

    def sweep_request(config: dict) -> dict | None:
        request = config.get("request")
        return request if isinstance(request, dict) and "axes" in request else None

    def refusal(held: dict | None, request: dict) -> str:
        if held is None:
            edited = _not_an_object(out / "config.json")
            if edited is not None:
                return (f"{str(out / 'config.json')!r} is {edited}, not an object (edited by hand?); give another "
                        "--out, or --overwrite to replace it")
            return (f"{str(out)!r} holds a result that is not a sweep; give another --out, or --overwrite to replace "
                    "it")
        return (f"{str(out)!r} holds a sweep of a different request ({_describe_change(held, request)} differ); its "
                "cells must not mix with this one's: give another --out, or --overwrite to replace it")

    return check_target(out, plan.request, recorded=sweep_request, kind="a sweep", empty_dirs=("cells",),
                        refusal=refusal)


def _not_an_object(path: Path) -> str | None:
    """``"a JSON list"`` (or string, number, ...) when ``path`` parses as JSON that is not an object, else None."""
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return None if isinstance(document, dict) else f"a JSON {type(document).__name__}"


def _check_fingerprint(out: Path, held: dict, fingerprint: str, standings: str) -> None:
    """Refuse to add to cells that code playing differently made, or code computing standings (intervals, ratings)
    differently (``held``: the directory's ``config.json``; a folder of a version before the standings fingerprint
    has none, so its cells are refused too)."""
    if held and held.get("behaviour_fingerprint") != fingerprint:
        raise ValueError(f"{str(out)!r} holds cells made by code that plays differently (behaviour fingerprint "
                         f"{held.get('behaviour_fingerprint')}, now {fingerprint}); --overwrite to run them again")
    if held and held.get("standings_fingerprint") != standings:
        raise ValueError(f"{str(out)!r} holds cells whose standings and intervals were computed by other code "
                         f"(standings fingerprint {held.get('standings_fingerprint')}, now {standings}); "
                         "--overwrite to run them again")


def _cell_problem(record, plan: SweepPlan) -> str | None:
    """What makes a parsed cell file unusable (a hand edit: not an object, a key or a row's metric missing), or
    ``None``."""
    if not isinstance(record, dict):
        return f"a JSON {type(record).__name__}, not an object"
    for key in ("request_hash", "cell_id", "rows"):
        if key not in record:
            return f"no {key!r}"
    rows = record["rows"]
    if not isinstance(rows, list):
        return "'rows' is not a list"
    for row in rows:
        if not isinstance(row, dict):
            return "a row that is not an object"
        missing = [k for k in ("pool_entry", "agent", *METRICS) if k not in row]
        if missing:
            return f"a row without {missing[0]!r}"
    return None


def _load_cell(out: Path, plan: SweepPlan, cell: Cell) -> list[dict] | None:
    """The rows of a finished cell, or ``None`` when it is to be played (no file, an unreadable one, or no rows).

    Raises
    ------
    ValueError
        Naming the file, when it is a directory, belongs to another request or was edited into something else.
    """
    path = out / "cells" / f"{cell.cell_id}.json"
    if path.is_dir():
        raise ValueError(f"{str(path)!r} is a directory, not a cell's record; remove it to play the cell again")
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None  # not ours to trust; the cell is played again and the file replaced
    problem = _cell_problem(record, plan)
    if problem is not None:
        raise ValueError(f"{str(path)!r} is not a sweep cell's record ({problem}); delete it to play the cell "
                         "again, or --overwrite to play every cell")
    if record["request_hash"] != plan.request_hash or record["cell_id"] != cell.cell_id:
        raise ValueError(f"{str(path)!r} belongs to another request; give another --out, or --overwrite")
    if not record["rows"]:
        return None  # a cell without standings is not finished: played again, never dropped from the table
    return record["rows"]
