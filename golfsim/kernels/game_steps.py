"""The steps every game loop of the kernels takes alike: starting a game's seats, reporting an illegal action and
scoring a deal that ended.

They are leaves (:data:`golfsim._numba.jit.leaf`), inlined into each loop that calls them, so the kernels that keep
their own copy of the game loop for speed (:mod:`golfsim.kernels.simulate`, :mod:`~golfsim.kernels.counted`,
:mod:`~golfsim.kernels.logged`, :mod:`~golfsim.kernels.in_flight`, :mod:`~golfsim.kernels.self_play`) share these
steps at no cost.
"""

from __future__ import annotations

from golfsim._numba.jit import leaf
from golfsim.core.engine import deal_scores
from golfsim.core.rng import agent_state
from golfsim.core.spec import END_REASON, ENDER, R_PLAYERS, TURN


@leaf
def start_seats(agent_rng, totals, agent_seed, game, players):
    """Give every seat ``p`` its agent stream of game ``game`` (``agent_state(agent_seed, game, p)``) and a zero
    total."""
    for p in range(players):
        agent_rng[p] = agent_state(agent_seed, game, p)
        totals[p] = 0


@leaf
def note_illegal(error, hole, seat, action, phase):
    """Write ``(hole + 1, seat, action, phase)`` to ``error``: what the kernels report of an illegal action."""
    error[0] = hole + 1
    error[1] = seat
    error[2] = action
    error[3] = phase


@leaf
def score_deal(pub, hid, rules, h, scores, totals, hole_scores, turns, enders, reasons):
    """Score the deal that ended into ``scores`` and add them to ``totals``; write them, the deal's turns, who went
    out and why it ended to row ``h`` of a game's outputs."""
    deal_scores(pub, hid, rules, scores)
    for p in range(rules[R_PLAYERS]):
        hole_scores[h, p] = scores[p]
        totals[p] += scores[p]
    turns[h] = pub[TURN]
    enders[h] = pub[ENDER]
    reasons[h] = pub[END_REASON]
