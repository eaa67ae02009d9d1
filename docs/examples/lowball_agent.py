"""A compiled user agent in one file: "lowball" keeps a card lower than its worst face-up card.

Load it with ``GOLFSIM_AGENT_MODULES=docs/examples/lowball_agent.py golfsim tournament --agents lowball,greedy``
(or import this module before calling ``simulate``). It then plays at full speed in the batch simulator.
"""

from numba import njit

from golfsim.agents import AGENT_SIGNATURE, Param, register_compiled_agent
from golfsim.core.engine import is_legal, top_discard
from golfsim.core.rules import R_OFF_VIEW, R_POINTS
from golfsim.core.spec import (
    DRAW_STOCK,
    FLIP,
    FLIP_PHASE,
    HELD,
    HOLD,
    OPEN,
    PHASE,
    PLACE_DRAWN,
    START,
    TAKE_DISCARD,
    THROW_DRAWN,
)


@njit(AGENT_SIGNATURE, cache=True)
def lowball_act(pub, rules, params, agent_rng, player):
    view = rules[R_OFF_VIEW] + player * 6
    phase = pub[PHASE]
    if phase == OPEN or phase == FLIP_PHASE:  # flip the first face-down card the rules allow
        for k in range(6):
            if is_legal(pub, rules, FLIP + k):
                return FLIP + k
    worst, worst_k = -100, -1  # its worst face-up card
    for k in range(6):
        card = pub[view + k]
        if card >= 0 and rules[R_POINTS + card] > worst:
            worst, worst_k = rules[R_POINTS + card], k
    if phase == START:  # take the top discard over the worst card if it is low enough, else draw
        if worst_k >= 0 and rules[R_POINTS + top_discard(pub, rules)] < worst - params[0]:
            return TAKE_DISCARD + worst_k
        return DRAW_STOCK
    if phase != HOLD:
        return DRAW_STOCK
    if worst_k >= 0 and rules[R_POINTS + pub[HELD]] < worst - params[0]:
        return PLACE_DRAWN + worst_k
    return THROW_DRAWN


register_compiled_agent(
    "lowball",
    "takes the top discard, or keeps a drawn card, lower than its worst face-up card by more than margin",
    lowball_act,
    params=(Param("margin", 0.0, "how much lower (points) a card must be to be kept"),),
)
