"""How big a plan may be: a run that cannot fit is refused before it starts, in one line saying size and limit.

Tournaments, experiments and sweeps keep a few numbers for every game they play (the per-deal-set statistics need
them) and cut their games into tasks that are all planned up front. A request for 10**15 games, 12! seat orders or a
million-cell grid used to grow for minutes (or until memory ran out) before anything played. The checks here run on
counts computed arithmetically, before any list is made.
"""

from __future__ import annotations

import math

MEMORY_LIMIT = 1 << 30
"""Bytes a run may plan to hold at once (1 GiB): the per-game results it keeps plus the blocks being played."""

MAX_TASKS = 200_000
"""Most tasks one run plans (each is a small object and, while it runs, a future)."""

MAX_SEATINGS = 20_000
"""Most table-and-seat-order combinations a tournament plays (every one is a simulator call per piece)."""

MAX_CELLS = 10_000
"""Most cells a sweep grid may have."""

FASTEST_DEALS_PER_SECOND = 5_000_000
"""Deals a second one thread plays at best: random self-play, the fastest agents, measured 1.7 to 3.1 million
(docs/performance.md). A plan's time at this speed is less than its real time, whatever the agents."""

MAX_PLAN_SECONDS = 30 * 86_400
"""Longest a run may plan to take at [`FASTEST_DEALS_PER_SECOND`][golfsim.runs.limits.FASTEST_DEALS_PER_SECOND] (30
days): beyond it a typo, not a plan."""

GAMES_KEPT_LIMIT = 1 << 26
"""Bytes of per-game results a tournament keeps for its ``games`` table (64 MiB); a bigger one keeps only its
statistics, whose memory does not grow with the games (`golfsim.tournament.tally`)."""


def kept_bytes_per_game(players: int) -> int:
    """Bytes a tournament keeps for each game it played ([`golfsim.runs.tasks.GameSummary`][]: totals, goings
    out and their win shares per seat, turns and truncations)."""
    return 10 * int(players) + 6


def block_bytes_per_game(players: int, holes: int) -> int:
    """Bytes a game takes while its block is played and summarised (the per-hole arrays of the simulator and the
    float arrays of the summary)."""
    return int(holes) * (30 * int(players) + 8) + 48


def gib(n: float) -> str:
    """``n`` bytes in GiB (or MiB below 1 GiB), for messages."""
    return f"{n / 2**30:,.1f} GiB" if n >= 2**30 else f"{n / 2**20:,.0f} MiB"


def refuse_over(what: str, size: int, limit: int, advice: str) -> None:
    """Raise one ``ValueError`` line when ``size`` exceeds ``limit``: what it is, how big, the limit, what to do."""
    if size > limit:
        raise ValueError(f"{what}: {size:,} is more than the limit of {limit:,}; {advice}")


def check_memory(what: str, needed: int, advice: str) -> None:
    """Raise one ``ValueError`` line when a plan would hold more than [`MEMORY_LIMIT`][golfsim.runs.limits.MEMORY_LIMIT]
    bytes."""
    if needed > MEMORY_LIMIT:
        raise ValueError(f"{what} would hold {gib(needed)} of results, more than the limit of {gib(MEMORY_LIMIT)}; "
                         f"{advice}")


def distinct_orders(table, seating: str) -> int:
    """How many seat orders [`golfsim.tournament.planning.seat_orders`][] makes for ``table``, without making
    them: ``P`` rotations, or the distinct permutations of the table's agents (``P!`` when all differ)."""
    p = len(table)
    if seating == "rotations":
        return p
    counts: dict = {}
    for a in table:
        counts[a] = counts.get(a, 0) + 1
    n = math.factorial(p)
    for c in counts.values():
        n //= math.factorial(c)
    return n


def duration(seconds: float) -> str:
    """``seconds`` in the largest unit that keeps the number readable, for messages (``"114 years"``)."""
    for unit, size in (("years", 365.25 * 86_400), ("days", 86_400), ("hours", 3_600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


def check_time(what: str, deals: int, threads: int, advice: str) -> None:
    """Raise one ``ValueError`` line when ``deals`` would take longer than
    [`MAX_PLAN_SECONDS`][golfsim.runs.limits.MAX_PLAN_SECONDS] even at
    [`FASTEST_DEALS_PER_SECOND`][golfsim.runs.limits.FASTEST_DEALS_PER_SECOND] a thread on ``threads`` threads, with
    that estimate."""
    fastest = FASTEST_DEALS_PER_SECOND * max(1, int(threads))
    if deals > MAX_PLAN_SECONDS * fastest:
        raise ValueError(f"{what}: {deals:,} deals would take at least {duration(deals / fastest)} on "
                         f"{max(1, int(threads))} thread(s) even at {FASTEST_DEALS_PER_SECOND:,} deals a second a "
                         f"thread, more than the limit of {duration(MAX_PLAN_SECONDS)}; {advice}")
