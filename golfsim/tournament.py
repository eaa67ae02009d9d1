"""Tournaments: schedules, seat rotation and duplicate deals, and the statistics that compare agents.

How a tournament is played
--------------------------
- **Tables.** With as many agents as seats, all of them sit at one table (schedule ``"table"``). Otherwise
  ``"round-robin"`` plays every combination of ``players`` agents from the pool, and ``"gauntlet"`` seats every
  other agent against the ``anchor`` (with more than two seats the anchor fills the rest of the table).
- **Seat rotation.** Every table is played in all ``P`` cyclic rotations of its seats (``seating="rotations"``,
  the default): in rotation ``r`` the table's ``i``-th agent sits in seat ``(i + r) % P``. Who moves first in a
  deal depends on the seat (``hole % P``), so across the rotations nobody profits from moving first. Rotations keep
  the circular order, though: with three or more seats each agent always sits after the same neighbour, and the
  player after you picks up your discards. ``seating="permutations"`` plays every distinct seat order instead
  (``P!`` for ``P`` different agents; rotations included), which balances neighbours as well.
- **Duplicate deals.** ``games`` is the number of *deal sets*: deal set ``g`` is game index ``g`` of the batch
  simulator under ``seed`` (its hole ``h`` is dealt from ``(seed, g, h)`` only). Every seat order of every table
  replays the same deal sets, so each agent of a table holds every seat's cards of every deal, and two agents are
  compared on identical cards. Games played = (seat orders summed over tables) x ``games``.
- **Agent randomness** is a separate stream per table and seat order, derived from ``seed`` (see
  :func:`rotation_agent_seed`); the deals never depend on it.

Statistics
----------
The independent unit is the deal set: an agent's score in deal set ``g`` is the average of its N-hole totals over
every table, seat order and seat it played that deal set in, and intervals are Student-t intervals across deal sets
(:mod:`golfsim.stats`). Head-to-head differences are paired the same way: per deal set, the mean of
``total(agent) - total(opponent)`` over the games where both sat. Ratings are fitted by maximum likelihood on the
finishing orders of the games: Bradley-Terry for two seats, Plackett-Luce for more (ties split; see
:func:`golfsim.stats.plackett_luce`; identical finishing orders are counted once with their multiplicity, which
gives the same estimate far faster). A gauntlet with more than two seats seats the anchor several times per game,
which Plackett-Luce cannot express; there each game counts as one Bradley-Terry comparison of the agent with the
anchor, scored by the share of the anchor's seats the agent finished ahead of. Rating standard errors treat games
as independent; duplicate deals make the games of a deal set negatively correlated, so these standard errors are,
if anything, conservative.

Stopping early
--------------
Deal sets are played in blocks: each block (``batch_size`` deal sets) is played at every table in every seat order
before the next block starts. A ``KeyboardInterrupt`` (Ctrl-C, or raised by a ``progress`` callback) stops the
run between simulator calls; the result keeps every complete block, drops the unfinished one (so the duplicate
comparison stays balanced), and is marked ``partial``.
"""

from __future__ import annotations

import itertools
import json
import math
import platform
import shlex
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numba
import numpy as np
import pandas as pd

import golfsim
from agents.base import AgentChoice, parse_agent, split_agents
from golfsim import stats
from golfsim.rng import check_seed
from golfsim.rules import TRUNCATED, Rules
from golfsim.simulate import Batch, Table, iter_batches

__all__ = [
    "DEFAULT_BATCH",
    "SCHEDULES",
    "SEATINGS",
    "TournamentResult",
    "plan_tables",
    "rotation_agent_seed",
    "run_tournament",
    "seat_orders",
    "split_agents",
]

#: Deal sets per block: each simulator call plays one block at one table in one rotation.
DEFAULT_BATCH = 2000

#: Accepted values of ``schedule``.
SCHEDULES = ("auto", "table", "round-robin", "gauntlet")

#: Accepted values of ``seating``.
SEATINGS = ("auto", "rotations", "permutations")
MAX_AUTO_PERMUTATION_SEATS = 4

_SEED_MASK = (1 << 63) - 1

# MM iterations for the ratings. The fits run on a handful of aggregated terms, so even a very lopsided field
# (a random agent rated 2000 points below the rest converges slowly, linearly) costs only seconds.
_MAX_ITER = 1_000_000


# ---------------------------------------------------------------- schedule
def _labels(choices: Sequence[AgentChoice]) -> list[str]:
    """Display labels, unique: repeated agents become ``name#1``, ``name#2``, ..."""
    base = [c.label for c in choices]
    counts = {b: base.count(b) for b in base}
    seen: dict[str, int] = {}
    labels = []
    for b in base:
        if counts[b] > 1:
            seen[b] = seen.get(b, 0) + 1
            labels.append(f"{b}#{seen[b]}")
        else:
            labels.append(b)
    return labels


def _normalise_schedule(schedule: str) -> str:
    if not isinstance(schedule, str):
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    s = schedule.strip().lower().replace("_", "-")
    if s in ("roundrobin", "round robin", "rr"):
        s = "round-robin"
    if s not in SCHEDULES:
        raise ValueError(f"schedule {schedule!r} is not known; choose one of {', '.join(SCHEDULES)}")
    return s


def _find_anchor(anchor, labels: list[str], choices: list[AgentChoice]) -> int:
    text = anchor.label if isinstance(anchor, AgentChoice) else str(anchor).strip()
    if text in labels:
        return labels.index(text)
    try:
        wanted = parse_agent(text).label
    except ValueError:
        wanted = None
    hits = [i for i, c in enumerate(choices) if c.label == wanted]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise ValueError(f"anchor {text!r} is ambiguous: the pool holds it {len(hits)} times "
                         f"({', '.join(labels[i] for i in hits)}); name one of those")
    raise ValueError(f"anchor {text!r} is not among the agents ({', '.join(labels)}); add it to the agents")


def plan_tables(labels: Sequence[str], players: int, schedule: str = "auto",
                anchor: str | int | None = None) -> tuple[str, list[tuple[int, ...]]]:
    """Which agents sit together: the tables of a tournament, before seat rotation.

    Parameters
    ----------
    labels : sequence of str
        The pool's agent labels (unique).
    players : int
        Seats per table.
    schedule : {"auto", "table", "round-robin", "gauntlet"}
        ``"auto"`` is ``"table"`` when the pool fills exactly one table, ``"gauntlet"`` when ``anchor`` is given,
        else ``"round-robin"``.
    anchor : str or int, optional
        Label (or pool index) of the gauntlet's anchor; required by (and only allowed with) the gauntlet.

    Returns
    -------
    schedule : str
        The schedule actually used.
    tables : list of tuple of int
        Per table, the pool index of the agent in each seat of rotation 0.

    Raises
    ------
    ValueError
        For a pool that cannot fill the schedule's tables, a gauntlet without an anchor or an anchor that is not
        in the pool.
    """
    labels = list(labels)
    k = len(labels)
    schedule = _normalise_schedule(schedule)
    if k < 2:
        raise ValueError(f"a tournament needs at least two agents, got {k}")
    if schedule == "auto":
        schedule = "gauntlet" if anchor is not None else "table" if k == players else "round-robin"
    if anchor is not None and schedule != "gauntlet":
        raise ValueError(f"an anchor is only used by the gauntlet schedule, not by {schedule!r}; "
                         "use --schedule gauntlet or drop the anchor")
    if schedule == "table":
        if k != players:
            other = "round-robin" if k > players else "a gauntlet (the anchor fills the other seats)"
            raise ValueError(f"schedule 'table' seats every agent at one table, but {k} agents were given for "
                             f"{players} seats; give {players} agents, set players to {k}, or use {other}")
        return schedule, [tuple(range(k))]
    if schedule == "round-robin":
        if k < players:
            raise ValueError(f"{k} agents cannot fill a table of {players} seats; give at least {players} agents, "
                             f"set players to {k}, or use a gauntlet (the anchor fills the other seats)")
        return schedule, list(itertools.combinations(range(k), players))
    if anchor is None:
        raise ValueError(f"the gauntlet schedule needs an anchor (--anchor NAME), one of: {', '.join(labels)}")
    a = anchor if isinstance(anchor, int) else _find_anchor(anchor, labels, [])
    return schedule, [(i,) + (a,) * (players - 1) for i in range(k) if i != a]


def seat_orders(table: Sequence[int], seating: str = "rotations") -> list[tuple[int, ...]]:
    """The seat orders one table is played in.

    Parameters
    ----------
    table : sequence of int
        Pool index of the agent in each seat of the table's first order.
    seating : {"rotations", "permutations"}
        ``"rotations"``: the ``P`` cyclic rotations, order ``r`` seating the table's ``i``-th agent in seat
        ``(i + r) % P``. ``"permutations"``: every distinct order of the table's agents (rotations first),
        ``P!`` of them when all differ.

    Returns
    -------
    list of tuple of int
        Per seat order, the pool index of the agent in each seat.
    """
    seating = _normalise_seating(seating)
    p = len(table)
    if seating == "auto":
        seating = "permutations" if 2 < p <= MAX_AUTO_PERMUTATION_SEATS else "rotations"
    rotations = [tuple(table[(s - r) % p] for s in range(p)) for r in range(p)]
    if seating == "rotations":
        return rotations
    cyclic = dict.fromkeys((table[0],) + rest for rest in itertools.permutations(table[1:]))
    orders: dict[tuple[int, ...], None] = {}
    for first in cyclic:
        for r in range(p):
            orders[tuple(first[(s - r) % p] for s in range(p))] = None
    return list(orders)


def _normalise_seating(seating: str) -> str:
    s = str(seating).strip().lower()
    if s not in SEATINGS:
        raise ValueError(f"seating {seating!r} is not known; choose rotations or permutations")
    return s


def rotation_agent_seed(seed: int, table: int, rotation: int) -> int:
    """The agent-stream seed of seat order ``rotation`` of table ``table`` (63 bits derived from ``seed``).

    The deals never depend on it; it gives each table and seat order its own agent randomness, so two copies of a
    random agent do not simply replay each other's moves when the seats rotate.
    """
    ss = np.random.SeedSequence(entropy=int(seed), spawn_key=(int(table), int(rotation)))
    return int(ss.generate_state(1, dtype=np.uint64)[0]) & _SEED_MASK


# ---------------------------------------------------------------- per-block summaries
@dataclass
class _Block:
    """What one simulator call produced, reduced to per-game arrays (seat order)."""

    totals: np.ndarray  # int32 [n, P]
    outs: np.ndarray  # int16 [n, P]: deals in which the seat went out
    out_wins: np.ndarray  # float32 [n, P]: sum over those deals of the seat's deal win share
    turns: np.ndarray  # int32 [n]: turns summed over the game's deals
    truncated: np.ndarray  # int16 [n]: truncated deals of the game


def _summarise(batch: Batch) -> _Block:
    hs = batch.hole_scores.astype(np.int32)
    players = hs.shape[2]
    best = hs.min(axis=2, keepdims=True)
    winners = hs == best
    deal_share = winners / winners.sum(axis=2, keepdims=True)
    seat = np.arange(players)
    out_mask = batch.enders[:, :, None] == seat[None, None, :]
    return _Block(
        totals=hs.sum(axis=1, dtype=np.int32),
        outs=out_mask.sum(axis=1).astype(np.int16),
        out_wins=(deal_share * out_mask).sum(axis=1).astype(np.float32),
        turns=batch.turns.sum(axis=1, dtype=np.int32),
        truncated=(batch.reasons == TRUNCATED).sum(axis=1).astype(np.int16),
    )


def _concat(blocks: list[_Block], players: int) -> _Block:
    if not blocks:
        return _Block(np.zeros((0, players), np.int32), np.zeros((0, players), np.int16),
                      np.zeros((0, players), np.float32), np.zeros(0, np.int32), np.zeros(0, np.int16))
    return _Block(*(np.concatenate([getattr(b, f) for b in blocks]) for f in
                    ("totals", "outs", "out_wins", "turns", "truncated")))


# ---------------------------------------------------------------- progress
class _RichProgress:
    """A rich progress bar on stderr: a warm-up message until the first batch, then games played.

    The description stays short and the bar takes only the width left over, so the count of games (``done/total``)
    and the times are never cut off on an 80-column terminal.
    """

    def __init__(self, total: int, label: str):
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(TextColumn("{task.description}"), BarColumn(bar_width=None), MofNCompleteColumn(),
                                 TextColumn("games"), TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=False)
        self.label = label
        self.task = self.progress.add_task("compiling/loading", total=total)

    def __enter__(self):
        self.progress.start()
        return self

    def __call__(self, done: int, total: int) -> None:
        self.progress.update(self.task, completed=done, description=self.label)

    def __exit__(self, *exc):
        self.progress.stop()
        return False


# ---------------------------------------------------------------- result
@dataclass
class TournamentResult:
    """Everything a tournament produced: tables for people, raw per-game arrays for further analysis.

    Attributes
    ----------
    standings : pandas.DataFrame
        One row per agent, best (lowest mean score) first: ``rank, agent, games, deal_sets, mean_score,
        mean_score_low, mean_score_high`` (mean N-hole total and its interval over deal sets), ``mean_hole_score``
        (``_low``, ``_high``; per hole), ``win_rate`` (``_low``, ``_high``; shared ties count ``1/k``),
        ``went_out_rate`` (share of its deals in which it went out; ``_low``, ``_high`` over deal sets),
        ``out_win_rate`` (share of those deals whose lowest deal score it held, ties shared), ``mean_turns`` (turns
        per deal, all players), ``truncated_deals``, ``rating`` and ``rating_se``.
    head_to_head : pandas.DataFrame
        One row per ordered pair of agents that met: ``agent, opponent, mean_diff, mean_diff_low, mean_diff_high``
        (paired mean of ``total(agent) - total(opponent)`` on identical deals; negative means the agent scored
        lower, i.e. better), ``win_rate`` (``_low``, ``_high``; share of their games the agent finished ahead of the
        opponent, ties half), ``deal_sets`` and ``games``.
    ratings : pandas.DataFrame
        ``rank, agent, rating, rating_se``, strongest first, on the Elo-like scale of :mod:`golfsim.stats`
        (ratings sum to 0; 400 points are odds of 10 to 1). ``rating_model`` names the model.
    rating_cov : pandas.DataFrame
        Covariance of the ratings (agent x agent); ``se(r_i - r_j) = sqrt(c_ii + c_jj - 2 c_ij)``.
    config : dict
        Everything needed to rerun the tournament exactly (see :func:`run_tournament`).
    partial : bool
        True when the run was interrupted; only complete deal sets are kept.
    deal_sets : int
        Deal sets completed (each played at every table in every seat order).
    games_played : int
        Games kept: seat orders (summed over tables) x ``deal_sets``.
    truncated_deals : int
        Deals stopped by the turn cap, over all games kept.
    rating_model : str
        ``"Bradley-Terry"`` or ``"Plackett-Luce"`` (with how games were turned into comparisons).
    seconds : float
        Wall time of the run, compile included.
    """

    standings: pd.DataFrame
    head_to_head: pd.DataFrame
    ratings: pd.DataFrame
    rating_cov: pd.DataFrame
    config: dict
    partial: bool
    deal_sets: int
    games_played: int
    truncated_deals: int
    rating_model: str
    seconds: float
    _seatings: list = field(repr=False, default_factory=list)
    _blocks: list = field(repr=False, default_factory=list)

    @property
    def labels(self) -> list[str]:
        """Agent labels in pool order."""
        return list(self.config["agents"])

    @property
    def games(self) -> pd.DataFrame:
        """One row per game and seat.

        Columns: ``table``, ``rotation`` (index of the seat order, see ``config["tables"][t]["seat_orders"]``),
        ``game`` (deal-set index: the simulator's game index, so the same deals in every seat order),
        ``seat, agent, total, win_share, place`` (1 = best, tied seats share the best place),
        ``went_out`` (deals in which this seat went out), ``out_wins`` (win shares of those deals), ``turns`` and
        ``truncated`` (the game's turns and truncated deals, summed over its holes).
        """
        frames = []
        labels = self.labels
        for (t, r, seats), blk in zip(self._seatings, self._blocks, strict=True):
            n, p = blk.totals.shape
            place = 1 + (blk.totals[:, None, :] < blk.totals[:, :, None]).sum(axis=2)
            frames.append(pd.DataFrame({
                "table": np.full(n * p, t, dtype=np.int32),
                "rotation": np.full(n * p, r, dtype=np.int16),
                "game": np.repeat(np.arange(n, dtype=np.int64), p),
                "seat": np.tile(np.arange(p, dtype=np.int16), n),
                "agent": np.tile(np.asarray([labels[i] for i in seats], dtype=object), n),
                "total": blk.totals.reshape(-1),
                "win_share": _win_shares(blk.totals).reshape(-1),
                "place": place.reshape(-1).astype(np.int16),
                "went_out": blk.outs.reshape(-1),
                "out_wins": blk.out_wins.reshape(-1),
                "turns": np.repeat(blk.turns, p),
                "truncated": np.repeat(blk.truncated, p),
            }))
        if not frames:
            return pd.DataFrame(columns=["table", "rotation", "game", "seat", "agent", "total", "win_share", "place",
                                         "went_out", "out_wins", "turns", "truncated"])
        games = pd.concat(frames, ignore_index=True)
        games["agent"] = pd.Categorical(games["agent"], categories=labels)
        return games

    def totals_by_agent(self) -> dict[str, np.ndarray]:
        """Every N-hole total each agent scored (all tables, seat orders and seats), for distributions."""
        out: dict[str, list] = {label: [] for label in self.labels}
        labels = self.labels
        for (_, _, seats), blk in zip(self._seatings, self._blocks, strict=True):
            for s, i in enumerate(seats):
                out[labels[i]].append(blk.totals[:, s])
        return {k: np.concatenate(v) if v else np.zeros(0, np.int32) for k, v in out.items()}

    # ---------------------------------------------------------------- text
    def summary(self) -> dict:
        """The run's headline numbers (also under ``"summary"`` in :meth:`to_dict`)."""
        cfg = self.config
        return {
            "partial": self.partial,
            "deal_sets_completed": self.deal_sets,
            "deal_sets_requested": cfg["games"],
            "games_played": self.games_played,
            "deals_played": self.games_played * cfg["rules"]["holes"],
            "truncated_deals": self.truncated_deals,
            "duplicate_deals": True,
            "rating_model": self.rating_model,
            "confidence": cfg["confidence"],
            "seconds": round(self.seconds, 3),
        }

    def notes(self) -> list[str]:
        """Plain-text lines explaining how the numbers were made (printed under the tables)."""
        cfg = self.config
        s = self.summary()
        tables = len(cfg["tables"])
        orders = sorted({len(t["seat_orders"]) for t in cfg["tables"]})
        per_table = "/".join(str(o) for o in orders)
        kind = "cyclic seat rotations" if cfg["seating"] == "rotations" else "seat orders (every permutation)"
        lines = []
        if self.partial:
            lines.append(f"PARTIAL RESULT: interrupted after {self.deal_sets:,} of {cfg['games']:,} deal sets "
                         f"({self.games_played:,} games); the unfinished block was dropped.")
        lines += [
            f"Duplicate deals: each of {self.deal_sets:,} deal sets (seed {cfg['seed']}) was played at every table "
            f"in all {per_table} {kind}, so agents are compared on identical cards.",
            f"Games played: {tables:,} table(s) x {per_table} seat orders x {self.deal_sets:,} deal sets = "
            f"{self.games_played:,} games of {cfg['rules']['holes']} holes ({s['deals_played']:,} deals); "
            f"truncated deals (turn cap {cfg['rules']['turn_cap']}): {self.truncated_deals:,}.",
            f"Scores: {cfg['rules']['holes']}-hole totals, lower is better; {round(100 * cfg['confidence'])}% "
            "t-intervals over deal sets; win rate shares ties; head-to-head = paired mean difference on the same "
            "deals.",
            f"Rating: {self.rating_model}, maximum likelihood, Elo-like scale (400 points = 10:1 odds), mean 0"
            + ("" if self.config.get("rating_converged", True) else "; WARNING: the fit did not converge") + ".",
        ]
        if cfg["seating"] == "rotations" and cfg["players"] > 2 and any(len(set(t["agents"])) > 2
                                                                       for t in cfg["tables"]):
            lines.append("Seat rotations keep each agent's neighbours (who discards to whom); "
                         "use seating 'permutations' (--seating permutations) to balance them too.")
        return lines

    # ---------------------------------------------------------------- machine formats
    def to_dict(self) -> dict:
        """One JSON-ready document: ``config``, ``summary``, ``standings``, ``head_to_head``, ``ratings``.

        Every ``<x>_low``/``<x>_high`` pair of the DataFrames becomes a list ``<x>_ci = [low, high]``; NaN (an
        interval from a single deal set) becomes ``null``.
        """
        return {
            "golfsim_version": golfsim.__version__,
            "config": self.config,
            "summary": self.summary(),
            "standings": _records(self.standings),
            "head_to_head": _records(self.head_to_head),
            "ratings": _records(self.ratings),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as a JSON string (strict JSON: no NaN)."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    def write(self, directory) -> list[Path]:
        """Write tables, plots and ``config.json`` into ``directory`` (created if needed).

        Files: ``standings.csv``, ``head_to_head.csv``, ``ratings.csv``, ``tournament.json`` (the
        :meth:`to_json` document), ``config.json`` (rules, agents, seed, sample size, schedule, tables, package
        version and the command that reruns it), ``score_distribution.png`` and ``head_to_head.png``.

        Returns
        -------
        list of pathlib.Path
            The files written.
        """
        from golfsim import report

        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        written = []
        for name, frame in (("standings", self.standings), ("head_to_head", self.head_to_head),
                            ("ratings", self.ratings)):
            path = d / f"{name}.csv"
            frame.to_csv(path, index=False)
            written.append(path)
        path = d / "tournament.json"
        path.write_text(self.to_json() + "\n")
        written.append(path)
        path = d / "config.json"
        path.write_text(json.dumps(self.config, indent=2, allow_nan=False) + "\n")
        written.append(path)
        written.append(report.plot_score_distribution(self, d / "score_distribution.png"))
        written.append(report.plot_head_to_head(self, d / "head_to_head.png"))
        return written


def _win_shares(totals: np.ndarray) -> np.ndarray:
    if totals.shape[0] == 0:
        return np.zeros(totals.shape)
    best = totals.min(axis=1, keepdims=True)
    winners = totals == best
    return winners / winners.sum(axis=1, keepdims=True)


def _clean(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if not math.isfinite(float(v)) else float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


def _records(frame: pd.DataFrame) -> list[dict]:
    cols = list(frame.columns)
    out = []
    for row in frame.itertuples(index=False):
        rec = dict(zip(cols, row, strict=True))
        clean: dict = {}
        for c in cols:
            if c.endswith("_low") and c[:-4] + "_high" in rec:
                clean[c[:-4] + "_ci"] = [_clean(rec[c]), _clean(rec[c[:-4] + "_high"])]
            elif c.endswith("_high") and c[:-5] + "_low" in rec:
                continue
            else:
                clean[c] = _clean(rec[c])
        out.append(clean)
    return out


# ---------------------------------------------------------------- statistics
def _standings_and_pairs(blocks, seatings, k, holes, confidence):
    """Per-agent standings and head-to-head rows from the per-(table, seat order) arrays."""
    n = blocks[0].totals.shape[0] if blocks else 0
    plays = np.zeros(k, dtype=np.int64)  # plays per deal set
    sum_total = np.zeros((k, n))
    sum_share = np.zeros((k, n))
    sum_outs = np.zeros((k, n))  # deals gone out, per deal set
    out_wins = np.zeros(k)
    turns = np.zeros(k)
    trunc = np.zeros(k, dtype=np.int64)
    pair_diff: dict[tuple[int, int], np.ndarray] = {}
    pair_win: dict[tuple[int, int], np.ndarray] = {}
    pair_count: dict[tuple[int, int], int] = {}
    for (_, _, seats), blk in zip(seatings, blocks, strict=True):
        tot = blk.totals.astype(np.float64)
        shares = _win_shares(blk.totals)
        for s, a in enumerate(seats):
            plays[a] += 1
            sum_total[a] += tot[:, s]
            sum_share[a] += shares[:, s]
            sum_outs[a] += blk.outs[:, s]
            out_wins[a] += blk.out_wins[:, s].sum()
            turns[a] += blk.turns.sum()
            trunc[a] += int(blk.truncated.sum())
        for s, u in itertools.combinations(range(len(seats)), 2):
            a, b = seats[s], seats[u]
            if a == b:
                continue
            diff = tot[:, s] - tot[:, u]
            win = (diff < 0) + 0.5 * (diff == 0)
            if a > b:
                a, b, diff, win = b, a, -diff, 1.0 - win
            key = (a, b)
            if key not in pair_diff:
                pair_diff[key] = np.zeros(n)
                pair_win[key] = np.zeros(n)
                pair_count[key] = 0
            pair_diff[key] += diff
            pair_win[key] += win
            pair_count[key] += 1

    rows = []
    for a in range(k):
        games = int(plays[a] * n)
        row = {"agent": a, "games": games, "deal_sets": n}
        if n == 0 or plays[a] == 0:
            row.update({c: math.nan for c in ("mean_score", "mean_score_low", "mean_score_high", "mean_hole_score",
                                              "mean_hole_score_low", "mean_hole_score_high", "win_rate",
                                              "win_rate_low", "win_rate_high", "went_out_rate",
                                              "went_out_rate_low", "went_out_rate_high", "out_win_rate",
                                              "mean_turns")})
            row["truncated_deals"] = 0
            rows.append(row)
            continue
        unit_score = sum_total[a] / plays[a]
        unit_share = sum_share[a] / plays[a]
        m, lo, hi = stats.mean_ci(unit_score, confidence)
        w, wlo, whi = stats.share_ci(np.clip(unit_share, 0.0, 1.0), confidence)
        # deal sets are the independent units (duplicate deals tie an agent's games within one), as for win rates
        _, olo, ohi = stats.share_ci(np.clip(sum_outs[a] / (plays[a] * holes), 0.0, 1.0), confidence)
        deals = games * holes
        outs = sum_outs[a].sum()
        row.update({
            "mean_score": m, "mean_score_low": lo, "mean_score_high": hi,
            "mean_hole_score": m / holes, "mean_hole_score_low": lo / holes, "mean_hole_score_high": hi / holes,
            "win_rate": w, "win_rate_low": wlo, "win_rate_high": whi,
            "went_out_rate": outs / deals, "went_out_rate_low": olo, "went_out_rate_high": ohi,
            "out_win_rate": out_wins[a] / outs if outs > 0 else math.nan,
            "mean_turns": turns[a] / deals,
            "truncated_deals": int(trunc[a]),
        })
        rows.append(row)

    h2h = []
    for (a, b), diff in (pair_diff.items() if n > 0 else ()):
        c = pair_count[(a, b)]
        unit_diff = diff / c
        unit_win = np.clip(pair_win[(a, b)] / c, 0.0, 1.0)
        d = stats.paired_difference(unit_diff, np.zeros(n), confidence)
        w, wlo, whi = stats.share_ci(unit_win, confidence)
        for x, y, sign in ((a, b, 1.0), (b, a, -1.0)):
            mean, low, high = sign * d["mean"], d["low"], d["high"]
            if sign < 0:
                low, high = -d["high"], -d["low"]
            wr, wl, wh = (w, wlo, whi) if sign > 0 else (1.0 - w, 1.0 - whi, 1.0 - wlo)
            h2h.append({"agent": x, "opponent": y, "mean_diff": mean, "mean_diff_low": low, "mean_diff_high": high,
                        "win_rate": wr, "win_rate_low": wl, "win_rate_high": wh, "deal_sets": n, "games": c * n})
    return rows, h2h


def _plackett_luce_counted(rankings: np.ndarray, scores: np.ndarray, k: int, prior: float = 0.5) -> dict:
    """:func:`golfsim.stats.plackett_luce` on full tables, each distinct finishing order counted once.

    A tournament repeats the same few finishing orders (``P!`` orders and their tie patterns per table) many
    thousands of times. This builds the same choice terms as ``stats.plackett_luce`` -- ties split over the orders
    of each tied group, ``prior`` pseudo-wins between agents that met -- but weights each distinct pattern by its
    count, and fits them with the same MM engine, so the estimate is the same at a tiny fraction of the cost.
    """
    tied = np.diff(scores, axis=1) == 0
    patterns, counts = np.unique(np.concatenate([rankings, tied.astype(np.int64)], axis=1), axis=0,
                                 return_counts=True)
    m = rankings.shape[1]
    member_rows, member_cols, numer_rows, numer_cols, numer_vals = [], [], [], [], []
    n_terms = 0
    for pattern, count in zip(patterns, counts, strict=True):
        row, ties = pattern[:m], pattern[m:].astype(bool)
        starts = np.concatenate([[0], np.flatnonzero(~ties) + 1])
        ends = np.concatenate([starts[1:], [m]])
        for a, b in zip(starts, ends, strict=True):
            for choice, chosen, each in stats._tie_terms(row[a:b], row[b:]):
                member_rows.append(np.full(choice.size, n_terms))
                member_cols.append(choice)
                numer_rows.append(np.full(chosen.size, n_terms))
                numer_cols.append(chosen)
                numer_vals.append(np.full(chosen.size, each * count))
                n_terms += 1
    if prior > 0:
        met = sorted({(min(x, y), max(x, y)) for row in patterns[:, :m] for x, y in itertools.combinations(row, 2)})
        for x, y in met:
            member_rows.append(np.full(2, n_terms))
            member_cols.append(np.array([x, y]))
            numer_rows.append(np.full(2, n_terms))
            numer_cols.append(np.array([x, y]))
            numer_vals.append(np.full(2, prior))
            n_terms += 1
    from scipy import sparse

    rows = np.concatenate(member_rows)
    member = sparse.csr_matrix((np.ones(rows.size), (rows, np.concatenate(member_cols))), shape=(n_terms, k))
    numer = sparse.csr_matrix((np.concatenate(numer_vals), (np.concatenate(numer_rows), np.concatenate(numer_cols))),
                              shape=(n_terms, k))
    return stats._fit_terms(member, numer, k, 1e-10, _MAX_ITER, "plackett_luce")


def _fit_ratings(blocks, seatings, k, players):
    """Maximum-likelihood ratings of the games: Bradley-Terry for two seats, Plackett-Luce for more."""
    games = sum(b.totals.shape[0] for b in blocks)
    if games == 0:
        return None, "none (no complete deal set)"
    repeated = any(len(set(seats)) < len(seats) for _, _, seats in seatings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if players == 2 or repeated:
            wins = np.zeros((k, k))
            for (_, _, seats), blk in zip(seatings, blocks, strict=True):
                tot = blk.totals
                for a, b in itertools.combinations(sorted(set(seats)), 2):
                    sa = [s for s, x in enumerate(seats) if x == a]
                    sb = [s for s, x in enumerate(seats) if x == b]
                    share = np.zeros(tot.shape[0])
                    for s in sa:
                        for u in sb:
                            share += (tot[:, s] < tot[:, u]) + 0.5 * (tot[:, s] == tot[:, u])
                    share /= len(sa) * len(sb)
                    wins[a, b] += share.sum()
                    wins[b, a] += (1.0 - share).sum()
            model = "Bradley-Terry" if players == 2 else \
                "Bradley-Terry (per game, each agent against the anchor: share of the anchor's seats it beat)"
            return stats.bradley_terry(wins, max_iter=_MAX_ITER), model
        rankings, scores = [], []
        for (_, _, seats), blk in zip(seatings, blocks, strict=True):
            order = np.argsort(blk.totals, axis=1, kind="stable")
            rankings.append(np.asarray(seats, dtype=np.int64)[order])
            scores.append(np.take_along_axis(blk.totals, order, axis=1))
        fit = _plackett_luce_counted(np.concatenate(rankings), np.concatenate(scores), k)
    return fit, "Plackett-Luce (finishing order of every game, ties split)"


# ---------------------------------------------------------------- the run
def _resolve_pool(agents) -> list[AgentChoice]:
    if isinstance(agents, str):
        agents = split_agents(agents)
    if isinstance(agents, AgentChoice):
        agents = [agents]
    agents = list(agents)
    if not agents:
        raise ValueError("no agents given; name at least two, e.g. 'greedy,random'")
    return [parse_agent(a) for a in agents]


def _check_positive(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
    return int(value)


def _rule_flags(rules: Rules) -> list[str]:
    """Command-line flags that recreate ``rules`` (only those that differ from the CLI defaults)."""
    flags = []
    default = Rules(players=rules.players)
    for key, value in rules.to_dict().items():
        if key == "players" or value == getattr(default, key):
            continue
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            flags.append(flag if value else "--no-" + key.replace("_", "-"))
        else:
            flags += [flag, str(value).replace("_", "-")]
    return flags


def run_tournament(agents, rules: Rules | None = None, games: int = 1000, seed: int = 0, *,
                   schedule: str = "auto", anchor: str | None = None, seating: str = "auto",
                   threads: int | None = None, batch_size: int = DEFAULT_BATCH, confidence: float = 0.95,
                   progress: bool | Callable[[int, int], None] = False, log=None) -> TournamentResult:
    """Play a duplicate-deal tournament and return its standings, head-to-head table and ratings.

    Parameters
    ----------
    agents : str or sequence of str or AgentChoice
        The pool, e.g. ``["ev", "greedy", "pair-builder", "random"]`` or ``"greedy,random"``. The same agent may
        appear twice; repeated labels are told apart as ``name#1``, ``name#2``.
    rules : Rules, optional
        The rule set; ``rules.players`` is the number of seats per table. Default: the published game with as many
        players as agents (at most 12).
    games : int
        Deal sets per table. Each deal set is played at every table in every seat order on identical cards, so the
        number of games played is ``games`` times the number of seat orders summed over the tables (``tables x
        players x games`` with the default seating).
    seed : int
        Seeds the deals (deal set ``g`` is the simulator's game ``g`` under ``seed``) and, through
        :func:`rotation_agent_seed`, the agents' own randomness.
    schedule : {"auto", "table", "round-robin", "gauntlet"}
        See :func:`plan_tables`.
    anchor : str, optional
        The gauntlet's anchor: an agent label from the pool.
    seating : {"auto", "rotations", "permutations"}
        ``"rotations"`` plays each table in its ``P`` cyclic seat rotations; ``"permutations"`` in every distinct
        seat order, which also balances who sits after whom (see :func:`seat_orders`). ``"auto"`` (default) is
        permutations for 3 and 4 seats (6 or 24 orders) and rotations otherwise: in Golf the next player picks up
        your discards, and with rotations alone each agent keeps its neighbours, which biased two copies of
        ``random`` at a 4-seat table by 24 points per 9-hole game.
    threads : int, optional
        Threads (default: all). Results do not depend on it.
    batch_size : int
        Deal sets per block (each simulator call plays one block at one table in one seat order). Results do not
        depend on it; smaller blocks make progress and Ctrl-C finer.
    confidence : float
        Level of every interval, default 0.95.
    progress : bool or callable
        ``True`` shows a rich progress bar on stderr; a callable is called as ``progress(games_done, games_total)``
        after every simulator call (raise ``KeyboardInterrupt`` from it to stop the run).
    log : str or Path, optional
        Also write every decision and deal end to this Parquet file (:mod:`golfsim.trace`); the games played are
        the same.

    Returns
    -------
    TournamentResult
        ``standings``, ``head_to_head``, ``ratings``, ``games`` (per game and seat), ``config``, and the methods
        ``to_json()`` and ``write(directory)``. After a ``KeyboardInterrupt`` it holds the complete deal sets and
        ``partial`` is True.

    Raises
    ------
    ValueError
        For an unknown agent, bad rules, a pool that does not fit the schedule, a missing or unknown anchor, an
        unknown seating, or a non-positive ``games`` or ``batch_size``.

    Examples
    --------
    >>> res = run_tournament(["greedy", "random"], Rules(players=2, holes=1), games=200, seed=1)  # doctest: +SKIP
    >>> res.standings[["agent", "mean_score", "win_rate"]]  # doctest: +SKIP
    """
    start_time = time.perf_counter()
    choices = _resolve_pool(agents)
    labels = _labels(choices)
    if rules is None:
        rules = Rules(players=min(max(len(choices), 2), 12))
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golfsim Rules object, got {type(rules).__name__}")
    games = _check_positive("games", games)
    batch_size = _check_positive("batch_size", batch_size)
    seed = check_seed(seed)
    stats._check_confidence(confidence)
    seating = _normalise_seating(seating)
    players = rules.players
    if seating == "auto":
        seating = "permutations" if 2 < players <= MAX_AUTO_PERMUTATION_SEATS else "rotations"
    anchor_index = None
    if anchor is not None and str(anchor).strip():
        anchor_index = _find_anchor(anchor, labels, choices)
    schedule, tables = plan_tables(labels, players, schedule, anchor_index)
    # Reject agents the batch simulator cannot play before anything runs.
    for c in choices:
        Table.make([c] * players, rules).kernel_arguments()

    seatings = []  # (table, seat-order index, pool index per seat)
    sim_tables = []
    orders_per_table = []
    for t, tab in enumerate(tables):
        orders = seat_orders(tab, seating)
        orders_per_table.append(orders)
        for r, seats in enumerate(orders):
            seatings.append((t, r, seats))
            sim_tables.append((Table.make([choices[i] for i in seats], rules), rotation_agent_seed(seed, t, r)))
    total_games = len(seatings) * games
    stored: list[list[_Block]] = [[] for _ in seatings]
    completed = 0
    played = 0
    interrupted = False

    reporter = None
    if progress is True:
        reporter = _RichProgress(total_games, f"{len(tables)} table(s), {len(seatings)} seat orders")
    callback = reporter if reporter is not None else progress if callable(progress) else None
    decision_log = None
    if log is not None:
        from golfsim.trace import DecisionLog

        decision_log = DecisionLog(log, rules, seed)
        for (t, r, seats), (_, agent_seed) in zip(seatings, sim_tables, strict=True):
            decision_log.add_seating(t, r, [labels[j] for j in seats], agent_seed)
    try:
        if reporter is not None:
            reporter.__enter__()
        for lo in range(0, games, batch_size):
            n = min(batch_size, games - lo)
            for i, (table, agent_seed) in enumerate(sim_tables):
                if decision_log is None:
                    batches = iter_batches(table, n, seed, agent_seed=agent_seed, first_game=lo, batch_size=n,
                                           threads=threads)
                else:
                    batches = decision_log.play(table, n, agent_seed=agent_seed, first_game=lo, batch_size=n,
                                                threads=threads, seating=i, game_base=i * games,
                                                labels=[labels[j] for j in seatings[i][2]])
                for batch in batches:
                    stored[i].append(_summarise(batch))
                    played += batch.hole_scores.shape[0]
                if callback is not None:
                    callback(played, total_games)
            completed += 1
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if reporter is not None:
            reporter.__exit__(None, None, None)
        if decision_log is not None:
            decision_log.close(partial=interrupted)
    blocks = [_concat(s[:completed], players) for s in stored]
    deal_sets = blocks[0].totals.shape[0]
    partial = interrupted and deal_sets < games
    games_played = len(seatings) * deal_sets

    rows, h2h = _standings_and_pairs(blocks, seatings, len(choices), rules.holes, confidence)
    fit, model = _fit_ratings(blocks, seatings, len(choices), players)
    standings = pd.DataFrame(rows)
    standings["agent"] = [labels[i] for i in standings["agent"]]
    if fit is not None:
        standings["rating"] = fit["rating"]
        standings["rating_se"] = fit["se"]
        ratings = pd.DataFrame({"agent": labels, "rating": fit["rating"], "rating_se": fit["se"]})
        ratings = ratings.sort_values("rating", ascending=False, kind="stable").reset_index(drop=True)
        cov = pd.DataFrame(fit["cov"], index=labels, columns=labels)
    else:
        standings["rating"] = math.nan
        standings["rating_se"] = math.nan
        ratings = pd.DataFrame({"agent": labels, "rating": math.nan, "rating_se": math.nan})
        cov = pd.DataFrame(np.full((len(labels), len(labels)), math.nan), index=labels, columns=labels)
    ratings.insert(0, "rank", np.arange(1, len(ratings) + 1))
    ratings["model"] = model.split(" (")[0]
    standings = standings.sort_values(["mean_score", "agent"], kind="stable", na_position="last")
    standings = standings.reset_index(drop=True)
    standings.insert(0, "rank", np.arange(1, len(standings) + 1))
    h2h_cols = ["agent", "opponent", "mean_diff", "mean_diff_low", "mean_diff_high", "win_rate", "win_rate_low",
                "win_rate_high", "deal_sets", "games"]
    head = pd.DataFrame(h2h, columns=h2h_cols)
    if len(head):
        head = head.sort_values(["agent", "opponent"], kind="stable").reset_index(drop=True)
        head["agent"] = [labels[i] for i in head["agent"]]
        head["opponent"] = [labels[i] for i in head["opponent"]]

    config = {
        "golfsim_version": golfsim.__version__,
        "agents": labels,
        "agent_specs": [c.label for c in choices],
        "agent_params": [c.param_dict() for c in choices],
        "players": players,
        "rules": rules.to_dict(),
        "rules_text": rules.describe(),
        "seed": seed,
        "games": games,
        "games_meaning": "deal sets per table; each deal set is played at every table in every seat order",
        "schedule": schedule,
        "anchor": labels[anchor_index] if anchor_index is not None else None,
        "seating": seating,
        "duplicate_deals": True,
        "tables": [
            {"table": t, "agents": [labels[i] for i in tab],
             "seat_orders": [[labels[i] for i in seats] for seats in orders_per_table[t]],
             "agent_seeds": [rotation_agent_seed(seed, t, r) for r in range(len(orders_per_table[t]))]}
            for t, tab in enumerate(tables)
        ],
        "games_total": total_games,
        "games_played": games_played,
        "deal_sets_completed": deal_sets,
        "partial": partial,
        "confidence": confidence,
        "rating_model": model,
        "rating_converged": bool(fit["converged"]) if fit is not None else None,
        "batch_size": batch_size,
        "deal_rule": "hole h of deal set g is dealt from golfsim.rng.deal_state(seed, g, h) in every seat order",
        "agent_seed_rule": "golfsim.tournament.rotation_agent_seed(seed, table, seat order): numpy "
                           "SeedSequence(entropy=seed, spawn_key=(table, seat order)), 63 bits",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
    }
    cmd = ["golfsim", "tournament", "--agents", ",".join(c.label for c in choices), "--players", str(players),
           "--games", str(games), "--seed", str(seed), "--schedule", schedule]
    if anchor_index is not None:
        cmd += ["--anchor", labels[anchor_index]]
    if seating != "rotations":
        cmd += ["--seating", seating]
    cmd += _rule_flags(rules)
    config["command"] = shlex.join(cmd)

    return TournamentResult(
        standings=standings, head_to_head=head, ratings=ratings, rating_cov=cov, config=config, partial=partial,
        deal_sets=deal_sets, games_played=games_played,
        truncated_deals=int(sum(int(b.truncated.sum()) for b in blocks)), rating_model=model,
        seconds=time.perf_counter() - start_time, _seatings=seatings, _blocks=blocks,
    )
