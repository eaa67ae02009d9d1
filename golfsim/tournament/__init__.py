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
  [`rotation_agent_seed`][golfsim.tournament.rotation_agent_seed]); the deals never depend on it.

Statistics
----------
The independent unit is the deal set: an agent's score in deal set ``g`` is the average of its N-hole totals over
every table, seat order and seat it played that deal set in, and intervals are Student-t intervals across deal sets
([`golfsim.stats`][]). Head-to-head differences are paired the same way: per deal set, the mean of
``total(agent) - total(opponent)`` over the games where both sat. Ratings are fitted by maximum likelihood on the
finishing orders of the games: Bradley-Terry for two seats, Plackett-Luce for more (ties split; see
[`golfsim.stats.plackett_luce`][]; identical finishing orders are counted once with their multiplicity, which
gives the same estimate far faster). A gauntlet with more than two seats seats the anchor several times per game,
which Plackett-Luce cannot express; there each game counts as one Bradley-Terry comparison of the agent with the
anchor, scored by the share of the anchor's seats the agent finished ahead of. Rating standard errors treat games
as independent; duplicate deals make the games of a deal set negatively correlated, so these standard errors are,
if anything, conservative.

How it runs
-----------
A tournament is a plan of independent tasks ([`golfsim.runs.tasks`][]): each plays one piece of the deal sets (at most
``batch_size``, cut finer when that keeps more cores busy) at one table in one seat order. Every task is submitted
at once to an executor (a thread pool by default; processes or a Dask cluster on request), and their small per-game
arrays are put back together in game order, so the numbers never depend on the executor, the thread count or the
split.

Stopping early
--------------
A ``KeyboardInterrupt`` (Ctrl-C, or raised by a ``progress`` callback) stops the run; the result keeps the deal
sets complete in every seat order from deal set 0 on, drops the rest (so the duplicate comparison stays balanced),
and is marked ``partial``.

The package's modules: [`planning`][golfsim.tournament.planning] (schedules, seat orders, seeds, the plan and the rerun
command), [`running`][golfsim.tournament.running] (running and reducing a plan),
[`statistics`][golfsim.tournament.statistics] (standings, pairs, ratings) and [`result`][golfsim.tournament.result] (the
result, its JSON and files).
"""

from golfsim.agents.base import split_agents
from golfsim.tournament.planning import (
    DEFAULT_BATCH,
    MAX_AUTO_PERMUTATION_SEATS,
    SCHEDULES,
    SEATINGS,
    TournamentPlan,
    plan_tables,
    plan_tournament,
    rerun_command,
    rotation_agent_seed,
    seat_orders,
)
from golfsim.tournament.result import TournamentResult
from golfsim.tournament.running import TournamentInterrupted, reduce_tournament, run_tournament

__all__ = [
    "DEFAULT_BATCH",
    "MAX_AUTO_PERMUTATION_SEATS",
    "SCHEDULES",
    "SEATINGS",
    "TournamentInterrupted",
    "TournamentPlan",
    "TournamentResult",
    "plan_tables",
    "plan_tournament",
    "reduce_tournament",
    "rerun_command",
    "rotation_agent_seed",
    "run_tournament",
    "seat_orders",
    "split_agents",
]

