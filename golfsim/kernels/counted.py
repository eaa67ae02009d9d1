"""The batch simulator's games with the decisions counted: how many decisions a deal takes and how many legal moves
each one had, in compiled code.

[`play_counted_games`][golfsim.kernels.counted.play_counted_games] plays the games of
[`golfsim.kernels.simulate.play_games`][] with the batch loop itself ([`golfsim.kernels.simulate.play_game`][] given a
[`DecisionCounts`][golfsim.kernels.game_steps.DecisionCounts], so the same hole scores;
``tests/kernels/test_counted.py`` checks the counts against the step API) and, for every deal, also writes

- ``decisions``: the decisions taken (every call of an agent: a turn is two or three of them, the opening flips one
  each),
- ``legal``: the legal moves summed over those decisions (``legal / decisions`` is the deal's branching factor in
  the sense of game-analytics work, e.g. Browne and Maire 2010, and Ludii's ``BranchingFactor`` metric: legal moves
  per decision),
- ``choices``: the decisions with more than one legal move (Ludii's ``DecisionMoves``: the rest were forced).

It is for measurement (the game-analytics experiment, `golfsim.experiments.luck`): counting calls ``is_legal``
for all 28 actions at every decision, which the plain kernels do not (given ``None``, Numba prunes the counting).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from golfsim._numba.jit import NO_NRT
from golfsim.core.errors import check_agent_errors
from golfsim.core.rng import check_seed
from golfsim.core.spec import RULES_SIZE
from golfsim.core.worlds import stack_like
from golfsim.kernels.batch import Batch
from golfsim.kernels.game_steps import DecisionCounts
from golfsim.kernels.simulate import ANY_AGENTS, Table, play_game, work_arrays


@njit(cache=True, **NO_NRT, nogil=True)
def play_counted_games(rules_in, agent_ids, params, agent_fns, deal_seed, agent_seed, first_game, lo, hi,
                       hole_scores, turns, enders, reasons, errors, sees, decisions, legal, choices,
                       pub, hid, deal_rng, agent_rng, totals, scores, sight):
    """Play games ``first_game + lo .. first_game + hi - 1`` into rows ``lo .. hi - 1``, counting decisions.

    The arguments are those of [`golfsim.kernels.simulate.play_games`][] plus the three count arrays
    (``[n, holes]`` int32) before the work arrays.
    """
    rules = stack_like(rules_in, RULES_SIZE)
    for j in range(RULES_SIZE):
        rules[j] = rules_in[j]
    for i in range(lo, hi):
        play_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns, deal_seed,
                  agent_seed, first_game + i, hole_scores[i], turns[i], enders[i], reasons[i], errors[i], sees, sight,
                  ANY_AGENTS, DecisionCounts(decisions[i], legal[i], choices[i]))


@dataclass
class CountedBatch(Batch):
    """A [`golfsim.kernels.simulate.Batch`][] with the decision counts of every deal (int32 ``[n, holes]``)."""

    decisions: np.ndarray = None
    legal: np.ndarray = None
    choices: np.ndarray = None


def play_counted(table: Table, games: int, seed: int = 0, *, agent_seed: int | None = None,
                 first_game: int = 0) -> CountedBatch:
    """Play ``games`` games of ``table`` on this thread with the decisions counted.

    Game ``g`` is the game ``g`` of [`golfsim.kernels.simulate.simulate`][] with the same seeds.

    Raises
    ------
    ValueError
        For a bad seed, or naming the seat whose agent returned an illegal action.
    """
    seed = check_seed(seed)
    agent_seed = seed if agent_seed is None else check_seed(agent_seed)
    rules = table.rules.pack()
    ids, params, agent_fns = table.kernel_arguments()
    sees = table.sees_hidden()
    n, holes, players = int(games), table.rules.holes, table.rules.players
    hole_scores = np.zeros((n, holes, players), dtype=np.int16)
    turns = np.zeros((n, holes), dtype=np.int16)
    enders = np.full((n, holes), -1, dtype=np.int8)
    reasons = np.zeros((n, holes), dtype=np.int8)
    errors = np.zeros((n, 4), dtype=np.int64)
    counts = {k: np.zeros((n, holes), dtype=np.int32) for k in ("decisions", "legal", "choices")}
    play_counted_games(rules, ids, params, agent_fns, np.uint64(seed), np.uint64(agent_seed), int(first_game), 0, n,
                       hole_scores, turns, enders, reasons, errors, sees, *counts.values(), *work_arrays(rules))
    check_agent_errors(errors, [a.label for a in table.agents], first_game)
    return CountedBatch(first_game, hole_scores, turns, enders, reasons, **counts)

