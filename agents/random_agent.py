"""random: every legal action equally likely, decision by decision. The floor every other agent must beat."""

from __future__ import annotations

from golfsim._numba.jit import hot, leaf
from golfsim.agents.base import rand_below
from golfsim.core.engine import face_down_count, is_legal
from golfsim.core.spec import (
    FLIP,
    FLIP_PHASE,
    HOLD,
    KNOCK,
    NUM_ACTIONS,
    OPEN,
    PASS,
    PHASE,
    PLACE_DRAWN,
    R_KNOCK_EARLY,
    R_OFF_VIEW,
    R_REVEAL,
    REVEAL,
    START,
)


@hot
def nth_face_down(pub, rules, player, n):
    """Position of the ``n``-th (from 0) face-down card of ``player``."""
    base = rules[R_OFF_VIEW] + player * 6
    for k in range(6):
        if pub[base + k] < 0:
            if n == 0:
                return k
            n -= 1
    return -1


@leaf  # inlined, so that the opening call counts over constant bounds
def random_legal(pub, rules, agent_rng, player, first, stop):
    """A uniformly random legal action among ids ``first .. stop - 1``, found by counting them; with every legal
    action in that range the choice is the same as over all ``NUM_ACTIONS``."""
    count = 0
    for a in range(first, stop):
        if is_legal(pub, rules, a):
            count += 1
    pick = rand_below(agent_rng, count)
    for a in range(first, stop):
        if is_legal(pub, rules, a):
            if pick == 0:
                return a
            pick -= 1
    return -1


@leaf
def random_act(pub, rules, params, agent_rng, player):
    """Uniform over the legal actions; the common phases are counted directly for speed."""
    phase = pub[PHASE]
    if phase == START:
        hidden = face_down_count(pub, rules, player) if rules[R_REVEAL] == 1 else 0
        knock = 1 if rules[R_KNOCK_EARLY] == 1 and is_legal(pub, rules, KNOCK) else 0
        r = rand_below(agent_rng, 7 + hidden + knock)
        if r < 7:
            return r  # take the discard to position r (0..5), or 6: draw
        if r == 7 + hidden:
            return KNOCK
        return REVEAL + nth_face_down(pub, rules, player, r - 7)
    if phase == HOLD:
        return PLACE_DRAWN + rand_below(agent_rng, 7)  # place at 0..5 or throw
    if phase == FLIP_PHASE:
        hidden = face_down_count(pub, rules, player)
        r = rand_below(agent_rng, hidden + (1 if is_legal(pub, rules, PASS) else 0))
        if r == hidden:
            return PASS
        return FLIP + nth_face_down(pub, rules, player, r)
    if phase == OPEN:  # only opening flips are legal: 6 checks, not 28
        return random_legal(pub, rules, agent_rng, player, FLIP, PASS)
    return random_legal(pub, rules, agent_rng, player, 0, NUM_ACTIONS)
