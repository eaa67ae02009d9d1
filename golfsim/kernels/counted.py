"""The batch simulator's games with the decisions counted: how many decisions a deal takes and how many legal moves
each one had, in compiled code.

:func:`play_counted_games` plays exactly the games of :func:`golfsim.kernels.simulate.play_games` (the same engine
calls and the same deal and agent streams, so the same hole scores; ``tests/kernels/test_counted.py`` checks that)
and, for every deal, also writes

- ``decisions``: the decisions taken (every call of an agent: a turn is two or three of them, the opening flips one
  each),
- ``legal``: the legal moves summed over those decisions (``legal / decisions`` is the deal's branching factor in
  the sense of game-analytics work, e.g. Browne and Maire 2010, and Ludii's ``BranchingFactor`` metric: legal moves
  per decision),
- ``choices``: the decisions with more than one legal move (Ludii's ``DecisionMoves``: the rest were forced).

It is for measurement (the game-analytics experiment, :mod:`golfsim.experiments.luck`): counting calls ``is_legal``
for all 27 actions at every decision, which the plain kernels do not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from golfsim._numba.jit import NO_NRT, leaf
from golfsim.agents.dispatch import decide
from golfsim.core.engine import is_legal
from golfsim.core.errors import check_agent_errors
from golfsim.core.rng import check_seed
from golfsim.core.spec import (
    CURRENT,
    DONE,
    NUM_ACTIONS,
    PHASE,
    R_HOLES,
    R_PLAYERS,
    RULES_SIZE,
)
from golfsim.core.worlds import stack_like
from golfsim.kernels.batch import Batch
from golfsim.kernels.game_steps import (
    Deal,
    HoleRows,
    advance,
    end_hole,
    note_illegal,
    seat_view,
    start_hole,
    start_seats,
    write_hole,
)
from golfsim.kernels.simulate import Table, work_arrays


@leaf
def _legal_count(pub, rules):
    c = 0
    for a in range(NUM_ACTIONS):
        if is_legal(pub, rules, a):
            c += 1
    return c


# simulate.play_game's loop (the steps of golfsim.kernels.game_steps) with the counters added, as play_logged_game
# adds the recording: a separate loop keeps the batch simulator's hot loop free of the counting; test_counted checks
# that both play the same games.
@leaf
def _play_counted_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
                       deal_seed, agent_seed, game, hole_scores, turns, enders, reasons, error, sees, sight,
                       decisions, legal, choices):
    """One game as :func:`golfsim.kernels.simulate.play_game` plays it with any agents, counting decisions."""
    deal = Deal(pub, hid, rules, deal_rng)
    rows = HoleRows(hole_scores, turns, enders, reasons)
    start_seats(agent_rng, totals, agent_seed, game, rules[R_PLAYERS])
    for h in range(rules[R_HOLES]):
        start_hole(deal, deal_seed, game, h, totals)
        n_dec = 0
        n_legal = 0
        n_choice = 0
        while pub[PHASE] != DONE:
            p = np.int64(pub[CURRENT])
            view = seat_view(pub, deal, sees, p, sight)
            k = _legal_count(pub, rules)
            n_dec += 1
            n_legal += k
            if k > 1:
                n_choice += 1
            a = decide(agent_ids[p], agent_fns, view, rules, params[p], agent_rng, p)
            if not advance(deal, a):
                note_illegal(error, h, p, a, pub[PHASE])
                return
        end_hole(deal, scores, totals)
        write_hole(deal, h, scores, rows)
        decisions[h] = n_dec
        legal[h] = n_legal
        choices[h] = n_choice


@njit(cache=True, **NO_NRT, nogil=True)
def play_counted_games(rules_in, agent_ids, params, agent_fns, deal_seed, agent_seed, first_game, lo, hi,
                       hole_scores, turns, enders, reasons, errors, sees, decisions, legal, choices,
                       pub, hid, deal_rng, agent_rng, totals, scores, sight):
    """Play games ``first_game + lo .. first_game + hi - 1`` into rows ``lo .. hi - 1``, counting decisions.

    The arguments are those of :func:`golfsim.kernels.simulate.play_games` plus the three count arrays
    (``[n, holes]`` int32) before the work arrays.
    """
    rules = stack_like(rules_in, RULES_SIZE)
    for j in range(RULES_SIZE):
        rules[j] = rules_in[j]
    for i in range(lo, hi):
        _play_counted_game(pub, hid, rules, deal_rng, agent_rng, totals, scores, agent_ids, params, agent_fns,
                           deal_seed, agent_seed, first_game + i, hole_scores[i], turns[i], enders[i], reasons[i],
                           errors[i], sees, sight, decisions[i], legal[i], choices[i])


@dataclass
class CountedBatch(Batch):
    """A :class:`golfsim.kernels.simulate.Batch` with the decision counts of every deal (int32 ``[n, holes]``)."""

    decisions: np.ndarray = None
    legal: np.ndarray = None
    choices: np.ndarray = None


def play_counted(table: Table, games: int, seed: int = 0, *, agent_seed: int | None = None,
                 first_game: int = 0) -> CountedBatch:
    """Play ``games`` games of ``table`` on this thread with the decisions counted.

    Game ``g`` is the game ``g`` of :func:`golfsim.kernels.simulate.simulate` with the same seeds.

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

