"""Planning a tournament: which agents sit together, in which seat orders, with which seeds, cut into tasks.

A plan ([`plan_tournament`][golfsim.tournament.planning.plan_tournament]) is pure data: the pool's labels, the tables
and seat orders, and the [`golfsim.runs.tasks.Task`][] list that plays them; [`golfsim.tournament.running`][] runs and
reduces it.
"""

from __future__ import annotations

import itertools
import math
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from golfsim import stats
from golfsim.agents import plugins
from golfsim.agents.base import AgentChoice, parse_agent, split_agents
from golfsim.core.rng import check_seed
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import Table
from golfsim.runs.limits import (
    FASTEST_DEALS_PER_SECOND,
    MAX_PLAN_SECONDS,
    MAX_SEATINGS,
    MEMORY_LIMIT,
    block_bytes_per_game,
    check_memory,
    check_time,
    distinct_orders,
    refuse_over,
)
from golfsim.runs.tasks import Pieces, Task, current_plugins

#: Deal sets per block: each simulator call plays one block at one table in one rotation.
DEFAULT_BATCH = 2000

#: Accepted values of ``schedule``.
SCHEDULES = ("auto", "table", "round-robin", "gauntlet")

#: Accepted values of ``seating``.
SEATINGS = ("auto", "rotations", "permutations")
MAX_AUTO_PERMUTATION_SEATS = 4

_SEED_MASK = (1 << 63) - 1

#: Most deal sets per table: the simulator numbers its games in 64 bits.
MAX_GAMES = (1 << 63) - 1

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
        refuse_over(f"a round robin of {k} agents at {players} seats has {math.comb(k, players):,} tables, and "
                    "that", math.comb(k, players), MAX_SEATINGS, "use fewer agents, or a gauntlet")
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


def rule_flags(rules: Rules) -> list[str]:
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



def rerun_command(labels: Sequence[str], specs: Sequence[str], rules: Rules, games: int, seed: int, schedule: str,
                  anchor: str | None, seating: str, confidence: float) -> str:
    """The ``golfsim tournament`` command that plays the same tournament again, every option that matters spelled
    out (the seating and the confidence always, since the command line's defaults depend on the player count),
    after ``GOLFSIM_AGENT_MODULES=...`` when user agent modules were loaded through it."""
    cmd = ["golfsim", "tournament", "--agents", ",".join(specs), "--players", str(rules.players),
           "--games", str(games), "--seed", str(seed), "--schedule", schedule, "--seating", seating,
           "--confidence", repr(float(confidence))]
    if anchor is not None:
        cmd += ["--anchor", anchor]
    cmd += rule_flags(rules)
    return plugins.rerun_command(shlex.join(cmd))


class PlanTasks(Sequence):
    """A tournament's tasks, made when asked for: task ``j`` plays piece ``j // S`` of seating ``j % S``.

    Parameters
    ----------
    rules : Rules
    seats : list of tuple of str
        Per seating, the agent label in each seat.
    seed : int
    agent_seeds : list of int
        Per seating.
    pieces : sequence of (first game, count)
    summary : str
    plugins : tuple of str
        As [`golfsim.runs.tasks.Task`][].
    """

    def __init__(self, rules: Rules, seats, seed: int, agent_seeds, pieces, summary: str, plugins):
        self.rules, self.seats, self.seed, self.agent_seeds = rules, list(seats), seed, list(agent_seeds)
        self.pieces, self.summary, self.plugins = pieces, summary, tuple(plugins)
        self.labels = {label for row in self.seats for label in row}

    def __len__(self) -> int:
        return len(self.pieces) * len(self.seats)

    def __getitem__(self, j):
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self)))]
        if j < 0:
            j += len(self)
        if not 0 <= j < len(self):
            raise IndexError(f"task {j} of {len(self)}")
        p, i = divmod(j, len(self.seats))
        first, count = self.pieces[p]
        return Task(self.rules, self.seats[i], self.seed, self.agent_seeds[i], first, count, self.summary,
                    self.plugins)

    def __add__(self, other):
        return list(self) + list(other)


@dataclass
class TournamentPlan:
    """Everything decided before a tournament plays: the pool, the tables, the seat orders and the tasks.

    Attributes
    ----------
    choices, labels : list
        The pool (parsed agents) and their unique display labels.
    rules : Rules
    games, seed, batch_size : int
    confidence : float
    schedule, seating : str
        As used (``"auto"`` resolved).
    anchor_index : int or None
    tables : list of tuple of int
        Pool indices per table (first seat order).
    orders_per_table : list of list of tuple of int
        Every seat order of every table.
    seatings : list of (table, order index, seats)
        Every seat order of every table, in the order their games are reduced.
    agent_seeds : list of int
        Per seating, its agent seed ([`rotation_agent_seed`][golfsim.tournament.planning.rotation_agent_seed]).
    pieces : sequence of (first game, count)
        The cut of the deal sets, the same for every seating ([`golfsim.runs.tasks.Pieces`][], computed on
        demand).
    tasks : sequence of Task
        Piece-major: every seating of the first piece, then of the second, ...; task ``j`` plays piece
        ``j // len(seatings)`` of seating ``j % len(seatings)`` ([`PlanTasks`][golfsim.tournament.planning.PlanTasks],
        computed on demand: a plan of any number of deal sets takes the same memory).
    """

    choices: list
    labels: list[str]
    rules: Rules
    games: int
    seed: int
    batch_size: int
    confidence: float
    schedule: str
    seating: str
    anchor_index: int | None
    tables: list
    orders_per_table: list
    seatings: list
    agent_seeds: list[int]
    pieces: Sequence[tuple[int, int]]
    tasks: Sequence[Task]

    @property
    def total_games(self) -> int:
        return len(self.seatings) * self.games

    def command(self) -> str:
        """The command line that reruns this tournament
        ([`rerun_command`][golfsim.tournament.planning.rerun_command])."""
        anchor = self.labels[self.anchor_index] if self.anchor_index is not None else None
        return rerun_command(self.labels, [c.spec_string for c in self.choices], self.rules, self.games, self.seed,
                             self.schedule, anchor, self.seating, self.confidence)


def check_plan_size(games: int, batch_size: int, workers: int, rules: Rules, tables, seating: str) -> None:
    """Refuse, before anything is listed or played, a tournament too big to fit ([`golfsim.runs.limits`][]): too
    many seat orders, blocks too big to play at once, or more deals than [`golfsim.runs.limits.MAX_PLAN_SECONDS`][]
    could play at the fastest speed (the message gives the estimate). Memory does not limit the number of deal sets:
    the results are folded as they come (`golfsim.tournament.tally`)."""
    players = rules.players
    refuse_over("deal sets are numbered in 64 bits, and the number asked for", games, MAX_GAMES,
                f"use --games {MAX_GAMES:,} or fewer")
    orders = sum(distinct_orders(t, seating) for t in tables)
    refuse_over(f"{len(tables):,} table(s) in {seating} make {orders:,} seat orders, and that", orders, MAX_SEATINGS,
                "use --seating rotations (P orders per table), fewer players or fewer agents")
    per_order = rules.holes * orders
    check_time(f"{games:,} deal sets x {orders:,} seat orders x {rules.holes} holes", games * per_order, workers,
               f"use --games {max(1, MAX_PLAN_SECONDS * FASTEST_DEALS_PER_SECOND * max(1, workers) // per_order):,} "
               "or fewer")
    per_game, running = block_bytes_per_game(players, rules.holes), max(1, workers)
    block = min(batch_size, games) * per_game * running
    check_memory(f"blocks of {min(batch_size, games):,} deal sets on {running} worker(s)", block,
                 f"use --batch-size {max(1, MEMORY_LIMIT // per_game // running):,} or less")


def plan_tournament(agents, rules: Rules | None = None, games: int = 1000, seed: int = 0, *,
                    schedule: str = "auto", anchor: str | None = None, seating: str = "auto",
                    batch_size: int = DEFAULT_BATCH, confidence: float = 0.95, workers: int = 1,
                    summary: str = "golfsim.runs.tasks:summarise_games") -> TournamentPlan:
    """Check a tournament's request and plan it (see [`golfsim.tournament.run_tournament`][] for the
    parameters); ``workers`` is how many tasks can run at once: the deal sets are cut so that the plan has at
    least `golfsim.runs.tasks.TASKS_PER_WORKER` tasks per worker ([`golfsim.runs.tasks.split_counts`][]).

    Raises
    ------
    ValueError
        For bad input, as [`golfsim.tournament.run_tournament`][].
    """
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
    # Reject compiled agents that cannot play these rules before anything runs (Python agents play any rules).
    for c in choices:
        if c.spec.compiled:
            Table.make([c] * players, rules).kernel_arguments()

    check_plan_size(games, batch_size, workers, rules, tables, seating)
    seatings, agent_seeds, orders_per_table = [], [], []
    for t, tab in enumerate(tables):
        orders = seat_orders(tab, seating)
        orders_per_table.append(orders)
        for r, seats in enumerate(orders):
            seatings.append((t, r, seats))
            agent_seeds.append(rotation_agent_seed(seed, t, r))
    pieces = Pieces(games, batch_size, len(seatings), workers)
    tasks = PlanTasks(rules, [tuple(choices[i].label for i in seats) for _, _, seats in seatings], seed,
                      agent_seeds, pieces, summary, current_plugins())
    return TournamentPlan(choices, labels, rules, games, seed, batch_size, float(confidence), schedule, seating,
                          anchor_index, tables, orders_per_table, seatings, agent_seeds, pieces, tasks)
