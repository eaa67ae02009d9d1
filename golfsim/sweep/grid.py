"""Sweeps: one duplicate-deal tournament per cell of a grid, described in a TOML file, kept on disk cell by cell.

The file
--------
Four sections; only ``[sweep]`` (for ``games``) and ``[pools]`` are required::

    [sweep]
    name = "watch-discard"      # optional; default: the file name without .toml
    seed = 0                    # optional, default 0
    games = 2000                # deal sets per cell (each played at every table in every seat order)
    confidence = 0.95           # optional: level of every interval
    schedule = "auto"           # optional: auto, table, round-robin or gauntlet (see golfsim.tournament)
    seating = "auto"            # optional: auto, rotations or permutations
    anchor = "greedy"           # optional: the gauntlet's anchor
    impossible = "error"        # optional: "skip" leaves out cells that cannot be played, with a note

    [rules]                     # rule options every cell shares (any golfsim.core.rules.Rules option)
    holes = 9

    [axes]                      # every combination of these values is one cell, in the order written
    players = [2, 3]            # seats per table
    end = ["immediate", "one_last_turn"]   # any Rules option, e.g. jokers, discard_and_flip, decks
    pool = ["field"]            # names from [pools]; default: every pool
    watch = [0, 0.25]           # any other name is an agent-parameter axis: it fills {watch} in the pools

    [pools]                     # named agent pools, agents written as on the command line
    field = ["ev:watch_discard={watch}", "greedy", "pair-builder"]

Without ``players`` (in ``[rules]`` or ``[axes]``) a cell seats as many players as its pool has agents. An
agent-parameter axis applies only to the pools that use its ``{name}``; cells of the other pools have no value for
it (an empty cell in the table), so they are not repeated. A value may also be a whole agent, e.g.
``bot = ["ev", "pair-builder"]`` with ``pool = ["{bot}", "greedy"]``.

Cells and seeds
---------------
A cell is a rule set, a pool of agents and the tournament options. Its seed is derived from the sweep's ``seed`` and
the cell's rules (a hash of every rule option), never from its place in the grid: adding a value to an axis leaves
every other cell's numbers unchanged, and cells with the same rules are dealt the same cards, so comparisons across
agent parameters and pools are on identical deals.

On disk
-------
``OUT/cells/<id>.json`` holds each finished cell (written atomically: a temporary file, then a rename), so a rerun
after Ctrl-C, SIGTERM or a crash plays only the missing cells and ends with the same table as an uninterrupted run.
``OUT/config.json`` records the request (the parsed file), the resolved grid, the behaviour fingerprint of the code
(:mod:`golfsim.runs.fingerprint`) and which cells are complete; a run of a different request, or by code that plays
differently, is refused unless told to overwrite, so cells of two requests never mix. ``OUT/table.parquet`` and
``OUT/table.csv`` hold one row per cell and agent; ``OUT/score_vs_<axis>.png`` one figure per swept axis.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import os
import platform
import signal
import string
import threading
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np
import pandas as pd

import golfsim
from golfsim.agents.base import parse_agent, split_agents
from golfsim.core.rng import MAX_SEED, check_seed
from golfsim.core.rules import Rules
from golfsim.runs.outdir import check_out_dir
from golfsim.runs.progress import CountBar

__all__ = ["SECTIONS", "Cell", "SweepPlan", "SweepResult", "cell_seed", "load_config", "plan_sweep", "run_sweep"]

#: The sections a sweep file may have.
SECTIONS = ("sweep", "rules", "axes", "pools")
_SWEEP_KEYS = ("name", "seed", "games", "confidence", "schedule", "seating", "anchor", "impossible")
_RULE_OPTIONS = tuple(f.name for f in fields(Rules))
_IMPOSSIBLE = ("error", "skip")

#: Columns of the table, after the rule options, pool and agent-parameter axes.
METRICS = ("rank", "mean_score", "mean_score_low", "mean_score_high", "mean_hole_score", "mean_hole_score_low",
           "mean_hole_score_high", "win_rate", "win_rate_low", "win_rate_high", "games", "deal_sets")

_TABLE_FILES = ("table.parquet", "table.csv", "config.json")


# ---------------------------------------------------------------- reading the file
def load_config(source) -> tuple[dict, str, str | None]:
    """Read a sweep description.

    Parameters
    ----------
    source : str, Path or mapping
        A TOML file, or the parsed description itself.

    Returns
    -------
    config : dict
        The parsed description.
    where : str
        How messages name it (the file name, or ``"sweep config"``).
    text : str or None
        The file's text, for the record.

    Raises
    ------
    ValueError
        For a missing or unreadable file or a TOML syntax error (the message names the line).
    """
    if isinstance(source, Mapping):
        return dict(source), "sweep config", None
    path = Path(source)
    if not path.exists():
        raise ValueError(f"sweep config {str(path)!r} does not exist")
    if path.is_dir():
        raise ValueError(f"sweep config {str(path)!r} is a directory; give a .toml file")
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"sweep config {str(path)!r} cannot be read: {e}") from None
    try:
        return tomllib.loads(text), path.name, text
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path.name}: TOML syntax error: {e}") from None


# ---------------------------------------------------------------- the grid
@dataclass(frozen=True)
class Cell:
    """One tournament of a sweep.

    Attributes
    ----------
    index : int
        Position in the grid (for reading; the seed does not depend on it).
    values : dict
        The value of each axis in this cell, in axis order (an agent-parameter axis the pool does not use is absent).
    rules : Rules
        The cell's rules.
    pool : str
        The pool's name.
    entries : tuple of str
        The pool's agents as written (with ``{placeholders}``).
    agents : tuple of str
        The agents with the axis values filled in.
    anchor : str or None
        The gauntlet's anchor, filled in.
    seed : int
        The tournament's seed (:func:`cell_seed`).
    cell_id : str
        16 hex digits naming the cell's content (rules, agents, schedule); its file is ``cells/<cell_id>.json``.
    """

    index: int
    values: dict
    rules: Rules
    pool: str
    entries: tuple[str, ...]
    agents: tuple[str, ...]
    anchor: str | None
    seed: int
    cell_id: str

    def describe(self) -> str:
        """The cell's axis values, e.g. ``"players=3, end=one_last_turn, watch=0.25"``."""
        return describe_values(self.values)


@dataclass
class SweepPlan:
    """A validated sweep: its request, cells and the cells left out as impossible.

    Attributes
    ----------
    name : str
        The sweep's name (``[sweep] name``, else the file name).
    request : dict
        The description with every default filled in: what ``config.json`` records and a rerun must match.
    where : str
        How messages name the description (its file name).
    text : str or None
        The file's text.
    cells : list of Cell
        Every playable cell, in grid order.
    skipped : list of dict
        Cells left out as impossible (``impossible = "skip"``): ``cell`` (its axis values) and ``reason``.
    axes : dict
        Each axis and its values, in grid order (``pool`` included).
    param_axes : tuple of str
        The agent-parameter axes.
    """

    name: str
    request: dict
    where: str
    text: str | None
    cells: list[Cell]
    skipped: list[dict]
    axes: dict[str, list]
    param_axes: tuple[str, ...]

    @property
    def games(self) -> int:
        return self.request["sweep"]["games"]

    @property
    def seed(self) -> int:
        return self.request["sweep"]["seed"]

    @property
    def confidence(self) -> float:
        return self.request["sweep"]["confidence"]

    @property
    def request_hash(self) -> str:
        return _hash(self.request)


def cell_seed(seed: int, rules: Rules) -> int:
    """The seed of every cell with these rules: 63 bits of SHA-256 of the sweep seed and every rule option."""
    text = json.dumps(rules.to_dict(), sort_keys=True)
    digest = hashlib.sha256(f"golfsim-sweep|{int(seed)}|{text}".encode()).digest()
    return int.from_bytes(digest[:8], "little") & MAX_SEED


def describe_values(values: dict) -> str:
    """Axis values as text, e.g. ``"players=3, end=one_last_turn, watch=0.25"``."""
    return ", ".join(f"{k}={_show(v)}" for k, v in values.items()) or "the only cell"


def _hash(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def _show(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _placeholders(text: str, where: str) -> list[str]:
    """The ``{name}`` placeholders of an agent text; each must be a plain name, filled in as written."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as e:
        raise ValueError(f"{where}: {text!r} has a broken {{placeholder}}: {e}") from None
    names = []
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise ValueError(f"{where}: {text!r}: a placeholder is a plain axis name such as {{watch}} "
                             "(letters, digits and _; no format)")
        names.append(name)
    return names


def _fill(text: str, values: dict) -> str:
    return text.format(**{k: _show(v) for k, v in values.items()})


def _check_keys(table, allowed, where: str, section: str) -> None:
    if not isinstance(table, dict):
        raise ValueError(f"{where}: [{section}] must be a table of key = value lines")
    for key in table:
        if key not in allowed:
            raise ValueError(f"{where}: unknown key {key!r} in [{section}]; allowed: {', '.join(allowed)}")


def _check_rule_value(name: str, value, where: str) -> None:
    """One rule option's value on its own (combinations are checked per cell)."""
    try:
        Rules(**{name: value})
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    except TypeError:
        raise ValueError(f"{where}: {name}={value!r} is not a valid value") from None


def plan_sweep(source, games: int | None = None) -> SweepPlan:
    """Read and validate a sweep description and expand its grid into cells.

    Parameters
    ----------
    source : str, Path or mapping
        A TOML file (see the module docstring for its sections) or the parsed description.
    games : int, optional
        Deal sets per cell in place of the file's ``[sweep] games`` (e.g. to try a sweep small first); the
        request records the number played.

    Returns
    -------
    SweepPlan
        The normalised request, the cells in grid order and the impossible cells left out (with
        ``impossible = "skip"``).

    Raises
    ------
    ValueError
        One line naming the problem: a missing file, a TOML syntax error, an unknown section, key, rule option,
        value, agent or parameter, a placeholder with no axis, a non-positive ``games``, or (unless
        ``impossible = "skip"``) a cell that cannot be played, named with its axis values.
    """
    raw, where, text = load_config(source)
    for section in raw:
        if section not in SECTIONS:
            raise ValueError(f"{where}: unknown section [{section}]; a sweep has "
                             f"{', '.join(f'[{s}]' for s in SECTIONS)}")
    sweep = raw.get("sweep", {})
    _check_keys(sweep, _SWEEP_KEYS, where, "sweep")
    if games is not None:
        if isinstance(games, bool) or not isinstance(games, int) or games < 1:
            raise ValueError(f"--games must be a whole number of at least 1, got {games!r}")
    elif "games" not in sweep:
        raise ValueError(f"{where}: [sweep] needs games = N (deal sets per cell), e.g. games = 1000")
    else:
        games = sweep["games"]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"{where}: games in [sweep] must be a whole number of at least 1, got {games!r}")
    try:
        seed = check_seed(sweep.get("seed", 0))
    except ValueError as e:
        raise ValueError(f"{where}: [sweep] {e}") from None
    confidence = sweep.get("confidence", 0.95)
    if isinstance(confidence, bool) or not isinstance(confidence, int | float) or not 0 < confidence < 1:
        raise ValueError(f"{where}: confidence in [sweep] must be a number between 0 and 1, got {confidence!r}")
    impossible = sweep.get("impossible", "error")
    if impossible not in _IMPOSSIBLE:
        raise ValueError(f"{where}: impossible in [sweep] must be \"error\" or \"skip\", got {impossible!r}")
    name = sweep.get("name", Path(where).stem if where.endswith(".toml") else "sweep")
    if not isinstance(name, str) or not name.strip() or "/" in name or name.strip() in (".", ".."):
        raise ValueError(f"{where}: name in [sweep] must be a short text usable as a directory name, got {name!r}")
    options = {}
    for key in ("schedule", "seating", "anchor"):
        if key in sweep:
            if not isinstance(sweep[key], str):
                raise ValueError(f"{where}: {key} in [sweep] must be a text, got {sweep[key]!r}")
            options[key] = sweep[key]

    fixed = raw.get("rules", {})
    _check_keys(fixed, _RULE_OPTIONS, where, "rules")
    for key, value in fixed.items():
        _check_rule_value(key, value, f"{where}: [rules] {key}")

    pools = raw.get("pools")
    if not pools:
        raise ValueError(f'{where}: give at least one pool in [pools], e.g. field = ["ev", "greedy"]')
    if not isinstance(pools, dict):
        raise ValueError(f"{where}: [pools] must be a table of name = [agents]")
    pool_entries: dict[str, tuple[str, ...]] = {}
    for pool_name, entries in pools.items():
        if isinstance(entries, str):
            entries = split_agents(entries)
        if not isinstance(entries, list) or not all(isinstance(e, str) and e.strip() for e in entries):
            raise ValueError(f"{where}: pool {pool_name!r} must be a list of agents, e.g. [\"ev\", \"greedy\"]")
        if len(entries) < 2:
            raise ValueError(f"{where}: pool {pool_name!r} needs at least two agents, got {len(entries)}")
        pool_entries[pool_name] = tuple(e.strip() for e in entries)

    axes_raw = raw.get("axes", {})
    if not isinstance(axes_raw, dict):
        raise ValueError(f"{where}: [axes] must be a table of name = [values]")
    used: dict[str, set[str]] = {}
    anchor_uses = _placeholders(options["anchor"], f"{where}: [sweep] anchor") if "anchor" in options else []
    for pool_name, entries in pool_entries.items():
        names = set(anchor_uses)
        for entry in entries:
            names.update(_placeholders(entry, f"{where}: pool {pool_name!r}"))
        used[pool_name] = names
    axes: dict[str, list] = {}
    param_axes = []
    for axis, values in axes_raw.items():
        if not isinstance(values, list) or not values:
            raise ValueError(f"{where}: axis {axis!r} in [axes] must be a non-empty list of values, got {values!r}")
        if not all(isinstance(v, str | int | float) for v in values):
            raise ValueError(f"{where}: axis {axis!r} in [axes] must list plain values (numbers, texts, true/false)")
        if len({json.dumps(v) for v in values}) < len(values):
            raise ValueError(f"{where}: axis {axis!r} in [axes] repeats a value: {values!r}")
        if axis in fixed:
            raise ValueError(f"{where}: {axis!r} is both fixed in [rules] and swept in [axes]; keep one")
        if axis == "pool":
            for v in values:
                if v not in pool_entries:
                    raise ValueError(f"{where}: axis pool names {v!r}, which is not in [pools] "
                                     f"({', '.join(pool_entries)})")
        elif axis in _RULE_OPTIONS:
            for v in values:
                _check_rule_value(axis, v, f"{where}: [axes] {axis}")
        elif any(axis in names for names in used.values()):
            param_axes.append(axis)
        else:
            raise ValueError(f"{where}: unknown axis {axis!r} in [axes]: not a rule option "
                             f"({', '.join(_RULE_OPTIONS)}), not pool, and no pool uses {{{axis}}}")
        axes[axis] = list(values)
    for pool_name, names in used.items():
        for ph in sorted(names):
            if ph not in param_axes:
                if ph in _RULE_OPTIONS or ph == "pool":
                    raise ValueError(f"{where}: pool {pool_name!r} uses {{{ph}}}, a rule option or the pool; "
                                     "give the agent-parameter axis another name")
                raise ValueError(f"{where}: pool {pool_name!r} uses {{{ph}}}, but [axes] has no {ph} = [values]")
    if "pool" not in axes:
        axes["pool"] = list(pool_entries)

    request = {
        "sweep": {"name": name.strip(), "seed": seed, "games": games, "confidence": float(confidence),
                  "impossible": impossible, **options},
        "rules": dict(fixed),
        "axes": {k: list(v) for k, v in axes.items()},
        "pools": {k: list(v) for k, v in pool_entries.items()},
    }
    cells, skipped = _expand(request, axes, param_axes, pool_entries, used, where)
    if not cells:
        raise ValueError(f"{where}: every cell was impossible and skipped; nothing to run")
    return SweepPlan(name=name.strip(), request=request, where=where, text=text, cells=cells, skipped=skipped,
                     axes=axes, param_axes=tuple(param_axes))


def _check_grid_size(axes, outer, param_axes, used, games, where):
    """Refuse a grid of more than MAX_CELLS cells, counted before one is made, and a games count no cell can keep."""
    from golfsim.runs.limits import MAX_CELLS, MEMORY_LIMIT, check_memory, kept_bytes_per_game, refuse_over

    rest = math.prod(len(axes[a]) for a in outer if a != "pool")
    per_pool = sum(math.prod(len(axes[a]) for a in param_axes if a in used[pool]) for pool in axes["pool"])
    refuse_over(f"{where}: the grid has {rest * per_pool:,} cells, and that", rest * per_pool, MAX_CELLS,
                "use fewer values on the axes, or split the sweep")
    # the smallest cell, two agents at two seats in two seat orders, keeps this much per deal set
    least = 2 * kept_bytes_per_game(2)
    check_memory(f"{where}: games = {games:,} deal sets per cell", games * least,
                 f"use games = {MEMORY_LIMIT // least:,} or fewer")


def _expand(request, axes, param_axes, pool_entries, used, where):
    """Every cell of the grid, in axis order; agent-parameter axes only for the pools that use them."""
    sweep = request["sweep"]
    outer = [a for a in axes if a not in param_axes]
    _check_grid_size(axes, outer, param_axes, used, sweep["games"], where)
    cells: list[Cell] = []
    skipped: list[dict] = []
    seen: dict[str, str] = {}
    parsed: dict[str, str] = {}
    for combo in itertools.product(*(axes[a] for a in outer)):
        base = dict(zip(outer, combo, strict=True))
        pool_name = base["pool"]
        inner = [a for a in param_axes if a in used[pool_name]]
        for inner_combo in itertools.product(*(axes[a] for a in inner)):
            params = dict(zip(inner, inner_combo, strict=True))
            values = {a: (base[a] if a in base else params[a]) for a in axes if a in base or a in params}
            description = describe_values(values)
            agents = []
            for entry in pool_entries[pool_name]:
                text = _fill(entry, params)
                if text not in parsed:
                    try:
                        choice = parse_agent(text)
                    except ValueError as e:
                        raise ValueError(f"{where}: pool {pool_name!r}, agent {text!r}: {e}") from None
                    parsed[text] = choice.label
                agents.append(parsed[text])
            anchor = _fill(sweep["anchor"], params) if "anchor" in sweep else None
            rule_values = {**request["rules"], **{k: v for k, v in base.items() if k in _RULE_OPTIONS}}
            try:
                rules = Rules(**{"players": len(agents), **rule_values})
                _check_tables(agents, rules.players, sweep, anchor)
            except ValueError as e:
                if sweep["impossible"] == "skip":
                    skipped.append({"cell": description, "reason": str(e)})
                    continue
                raise ValueError(f"{where}: cell ({description}) cannot be played: {e}; fix the grid, or set "
                                 "impossible = \"skip\" in [sweep] to leave such cells out") from None
            identity = {"rules": rules.to_dict(), "agents": agents, "schedule": sweep.get("schedule", "auto"),
                        "seating": sweep.get("seating", "auto"), "anchor": anchor}
            cell_id = _hash(identity)
            if cell_id in seen:
                raise ValueError(f"{where}: cells ({seen[cell_id]}) and ({description}) are the same tournament; "
                                 "drop one of the values that make them equal")
            seen[cell_id] = description
            cells.append(Cell(index=len(cells), values=values, rules=rules, pool=pool_name,
                              entries=pool_entries[pool_name], agents=tuple(agents), anchor=anchor,
                              seed=cell_seed(sweep["seed"], rules), cell_id=cell_id))
    return cells, skipped


def _check_tables(agents, players, sweep, anchor) -> None:
    """Whether the pool fills the schedule's tables (the tournament's own check, run before anything plays)."""
    from golfsim.tournament import plan_tables

    labels = [f"{a}#{i + 1}" if agents.count(a) > 1 else a for i, a in enumerate(agents)]
    anchor_index = None
    if anchor is not None:
        wanted = parse_agent(anchor).label
        hits = [i for i, a in enumerate(agents) if a == wanted]
        if len(hits) != 1:
            problem = "is not among" if not hits else "appears more than once among"
            raise ValueError(f"anchor {anchor!r} {problem} the agents ({', '.join(agents)})")
        anchor_index = hits[0]
    plan_tables(labels, players, sweep.get("schedule", "auto"), anchor_index)


# ---------------------------------------------------------------- the directory
def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    write(tmp)
    os.replace(tmp, path)


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
    """Make ``out`` this request's directory: refuse another request's cells, or clear them with ``overwrite``.

    Returns the ``config.json`` it holds (empty when there is none)."""
    config_path = out / "config.json"
    if not out.exists():
        return {}
    if overwrite:
        ours = [out / f for f in _TABLE_FILES] + list(out.glob("score_vs_*.png")) + list(out.glob("cells/*.json"))
        for path in ours:
            path.unlink(missing_ok=True)
        return {}
    if not config_path.exists():
        others = [p for p in out.iterdir() if p.name != "cells"] + list(out.glob("cells/*"))
        if others:
            raise ValueError(f"{str(out)!r} holds files that are not a sweep; give another --out, or --overwrite "
                             "to write into it anyway")
        return {}
    try:
        held = json.loads(config_path.read_text())
    except (OSError, ValueError):
        held = {}
    if not isinstance(held.get("request"), dict) or "axes" not in held["request"]:
        raise ValueError(f"{str(out)!r} holds a result that is not a sweep; give another --out, or --overwrite to "
                         "replace it")
    if held["request"] != plan.request:
        changed = _describe_change(held["request"], plan.request)
        raise ValueError(f"{str(out)!r} holds a sweep of a different request ({changed} differ); its cells must not "
                         "mix with this one's: give another --out, or --overwrite to replace it")
    return held


def _check_fingerprint(out: Path, held: dict, fingerprint: str) -> None:
    """Refuse to add to cells that code playing differently made (``held``: the directory's ``config.json``)."""
    if held and held.get("behaviour_fingerprint") != fingerprint:
        raise ValueError(f"{str(out)!r} holds cells made by code that plays differently (behaviour fingerprint "
                         f"{held.get('behaviour_fingerprint')}, now {fingerprint}); --overwrite to run them again")


def _load_cell(out: Path, plan: SweepPlan, cell: Cell) -> list[dict] | None:
    path = out / "cells" / f"{cell.cell_id}.json"
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return None  # not ours to trust; the cell is played again and the file replaced
    if record.get("request_hash") != plan.request_hash or record.get("cell_id") != cell.cell_id:
        raise ValueError(f"{str(path)!r} belongs to another request; give another --out, or --overwrite")
    return record["rows"]


# ---------------------------------------------------------------- stopping
class _StopSignals:
    """Ctrl-C and SIGTERM: raise ``KeyboardInterrupt`` while cells play, only record them while files are written.

    Signal handlers can only be set from the main thread; elsewhere only Ctrl-C's own ``KeyboardInterrupt`` stops.
    """

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
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    @contextlib.contextmanager
    def deferred(self):
        """Signals that arrive inside are only recorded (so no file is left half-written)."""
        self.raising = False
        try:
            yield
        finally:
            self.raising = True

    def __exit__(self, *exc):
        for sig, old in self._old.items():
            signal.signal(sig, old)
        return False


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
        "command": f"golfsim sweep {source} --out {out}",
        "behaviour_fingerprint": fingerprint,
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
        Deal sets per cell in place of the file's ``[sweep] games`` (see :func:`plan_sweep`).

    Returns
    -------
    SweepResult
        The table of every complete cell and the files written. After Ctrl-C or SIGTERM the unfinished cell is
        dropped, the finished ones are kept and written, and ``partial`` is True; a rerun plays only the rest.

    Raises
    ------
    ValueError
        For a bad description (see :func:`plan_sweep`), an ``out`` that is a file or cannot be written, or a
        directory holding another request's cells or cells made by code that plays differently.

    Examples
    --------
    >>> res = run_sweep("experiments/sweeps/example.toml", out="/tmp/sweep")  # doctest: +SKIP
    >>> res.table[["players", "end", "watch", "agent", "mean_score", "win_rate"]]  # doctest: +SKIP
    """
    from golfsim.runs.fingerprint import behaviour_fingerprint
    from golfsim.tournament import run_tournament

    plan = plan_sweep(config_or_path, games=games)
    out = Path(out) if out is not None else Path.cwd() / "results" / "sweeps" / plan.name
    check_out_dir(out)
    sweep = plan.request["sweep"]
    with _StopSignals() as stop:
        held = _claim(out, plan, overwrite)
        fingerprint = behaviour_fingerprint()
        _check_fingerprint(out, held, fingerprint)
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
        played = 0
        bar = _CellProgress(len(plan.cells), len(done)) if progress else None
        try:
            if bar is not None:
                bar.__enter__()
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
                    played += 1
                    if bar is not None:
                        bar.advance()
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM between cells or inside one: what is on disk stays
            stop.requested = True
        finally:
            if bar is not None:
                bar.__exit__(None, None, None)
        with stop.deferred():
            table, config, files = _write_outputs(out, plan, done, fingerprint)
    return SweepResult(table=table, config=config, out=out, cells_total=len(plan.cells),
                       cells_complete=len(done), cells_played=played, skipped=plan.skipped, files=files)
