"""The sweep file: its TOML schema, validation, and the grid of cells it describes (see [`golfsim.sweep.grid`][])."""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from golfsim.agents.base import parse_agent, split_agents
from golfsim.core.rng import MAX_SEED, check_seed
from golfsim.core.rules import Rules

#: The sections a sweep file may have.
SECTIONS = ("sweep", "rules", "axes", "pools")
_SWEEP_KEYS = ("name", "seed", "games", "confidence", "schedule", "seating", "anchor", "impossible")
_RULE_OPTIONS = tuple(f.name for f in fields(Rules))
_IMPOSSIBLE = ("error", "skip")

#: Columns of the table, after the rule options, pool and agent-parameter axes.
METRICS = ("rank", "mean_score", "mean_score_low", "mean_score_high", "mean_hole_score", "mean_hole_score_low",
           "mean_hole_score_high", "win_rate", "win_rate_low", "win_rate_high", "games", "deal_sets")



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
        The tournament's seed ([`cell_seed`][golfsim.sweep.config.cell_seed]).
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
    settings = _read_sweep_section(raw.get("sweep", {}), games, where)
    fixed = raw.get("rules", {})
    _check_keys(fixed, _RULE_OPTIONS, where, "rules")
    for key, value in fixed.items():
        _check_rule_value(key, value, f"{where}: [rules] {key}")

    pool_entries = _read_pools(raw.get("pools"), where)
    axes, param_axes, used = _read_axes(raw.get("axes", {}), fixed, pool_entries, settings.get("anchor"), where)

    request = {
        "sweep": settings,
        "rules": dict(fixed),
        "axes": {k: list(v) for k, v in axes.items()},
        "pools": {k: list(v) for k, v in pool_entries.items()},
    }
    cells, skipped = _expand(request, axes, param_axes, pool_entries, used, where)
    if not cells:
        raise ValueError(f"{where}: every cell was impossible and skipped; nothing to run")
    return SweepPlan(name=settings["name"], request=request, where=where, text=text, cells=cells, skipped=skipped,
                     axes=axes, param_axes=tuple(param_axes))


def _read_sweep_section(sweep: dict, games: int | None, where: str) -> dict:
    """The ``[sweep]`` section checked, as the request records it (``games`` given here replaces the file's)."""
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

    return {"name": name.strip(), "seed": seed, "games": games, "confidence": float(confidence),
            "impossible": impossible, **options}


def _read_pools(pools, where: str) -> dict[str, tuple[str, ...]]:
    """The ``[pools]`` section checked: each pool's name and its agent entries."""
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

    return pool_entries


def _read_axes(axes_raw, fixed: dict, pool_entries: dict, anchor: str | None,
               where: str) -> tuple[dict[str, list], list[str], dict[str, set[str]]]:
    """The ``[axes]`` section checked against the rules, the pools and their ``{placeholders}``: the axes (``pool``
    added when not swept), the agent-parameter axes, and the placeholders each pool uses."""
    if not isinstance(axes_raw, dict):
        raise ValueError(f"{where}: [axes] must be a table of name = [values]")
    used: dict[str, set[str]] = {}
    anchor_uses = _placeholders(anchor, f"{where}: [sweep] anchor") if anchor is not None else []
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

    return axes, param_axes, used


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
