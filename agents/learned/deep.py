"""Depth 2 of the learned player: its move, the cards chance brings, and the opponent's reply (two players).

The learned value ``V(s, p)`` is the expected deal-score difference of ``p`` just after one of ``p``'s turns; at
two players the opponent's difference is minus the player's own, so the value of the state the player's move
leaves, seen one turn deeper, is minus the opponent's best start-of-turn value there (the numbers the opponent's
one-ply decision compares: taking the discard to each position, and the expectation over its draw). Depth 2 is
that, with the expectation over every card chance brings before the opponent moves: the player's own stock draw
(then its best placement, searched the same way) and the card under a covered or revealed face-down card.

The states are made by the rules engine itself (:func:`golfsim.core.engine.apply_action`) on scratch copies of
``pub``, with a hidden state that holds only the one card chance brings in that branch (a face-down card's rank,
or the stock's top card), so nothing is assumed about the rules here. A move after which the deal is over, the
opponent does not start a turn next (a flip after a throw), or the deal has stalled keeps its depth-1 value.
With three or more players (where the opponents' difference is not minus the player's own) the player stays at
depth 1.
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.agents.common import draw_offset
from golfsim.agents.learned.policy import (
    BIG,
    action_values,
    context,
    draw_value,
    must_progress,
    place_value,
    revealed_value,
)
from golfsim.agents.learned.value import LAYOUT_FEATURES, NUM_RANKS
from golfsim.core.engine import apply_action, is_legal, top_discard
from golfsim.core.spec import (
    CURRENT,
    DRAW_STOCK,
    HOLD,
    NUM_ACTIONS,
    PHASE,
    PLACE_DRAWN,
    R_HID_STOCK,
    R_NCARDS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    R_REVEAL,
    REVEAL,
    START,
    STOCK_N,
    TAKE_DISCARD,
    THROW_DRAWN,
    UNSEEN_CARDS,
)
from golfsim.core.worlds import MAX_HID_SIZE, MAX_PUB_SIZE, stack_float64, stack_int16, stack_like, stack_uint64


@hot
def opponent_best(pub, rules, w, opp):
    """The opponent's best start-of-turn value in ``pub`` (its one-ply numbers; lower is better for it)."""
    gains = stack_float64(NUM_RANKS)
    scratch = stack_float64(LAYOUT_FEATURES)
    ctx = context(pub, rules, w, opp, gains, scratch)
    top = top_discard(pub, rules)
    best = BIG
    for k in range(6):
        best = min(best, place_value(pub, rules, w, ctx, gains, top, k))
    if pub[STOCK_N] > 0:
        best = min(best, draw_value(pub, rules, w, ctx, gains))
    if rules[R_REVEAL] == 1:
        for k in range(6):
            if pub[ctx.base + k] < 0:
                best = min(best, revealed_value(pub, rules, w, ctx, k, gains[top]))
    return best


@leaf
def _reply(after, rules, w, player, fallback):
    """Minus the opponent's best value in ``after``, or ``fallback`` when the opponent does not start a turn."""
    if after[PHASE] != START or after[CURRENT] == player:
        return fallback
    return -opponent_best(after, rules, w, after[CURRENT])


@hot
def _after(pub, hid, rules, w, player, action, k, fallback, after, rng):
    """Depth-2 value of ``action`` in ``pub``; ``k`` >= 0 when it covers or reveals the face-down position ``k``
    (then in expectation over the unseen card there)."""
    n = pub.shape[0]
    if k < 0:
        for i in range(n):
            after[i] = pub[i]
        rng[0] = np.uint64(1)
        apply_action(after, hid, rules, rng, action)
        return _reply(after, rules, w, player, fallback)
    ou = rules[R_OFF_UNSEEN]
    total = 0.0
    for r in range(NUM_RANKS):
        u = pub[ou + r]
        if u > 0:
            for i in range(n):
                after[i] = pub[i]
            hid[6 * player + k] = r
            rng[0] = np.uint64(1)
            apply_action(after, hid, rules, rng, action)
            total += u * _reply(after, rules, w, player, fallback)
    return total / pub[UNSEEN_CARDS]


@leaf
def _best_placement(pub, hid, rules, w, player, first, values, after, rng, best, action):
    """``(best, action)``, or the first of the six actions ``first + k`` (a card placed at position ``k``) whose
    depth-2 value is lower than ``best`` and every one before it, with that value."""
    base = rules[R_OFF_VIEW] + 6 * player
    for k in range(6):
        a = first + k
        v = _after(pub, hid, rules, w, player, a, k if pub[base + k] < 0 else -1, values[a], after, rng)
        if v < best:
            best = v
            action = a
    return best, action


@hot
def _hold_best(pub, hid, rules, w, player, values, after, rng):
    """The best depth-2 value of the player holding ``pub[HELD]``, and the action that has it."""
    action_values(pub, rules, w, player, values)
    best = _after(pub, hid, rules, w, player, THROW_DRAWN, -1, values[THROW_DRAWN], after, rng)
    return _best_placement(pub, hid, rules, w, player, PLACE_DRAWN, values, after, rng, best, THROW_DRAWN)


@hot
def decide_deep(pub, rules, w, player, fallback):
    """The depth-2 action of ``player`` in a start or hold phase at two players; ``fallback`` (the depth-1
    action) elsewhere and once the deal must progress."""
    phase = pub[PHASE]
    if rules[R_PLAYERS] != 2 or (phase != START and phase != HOLD) or must_progress(pub, rules):
        return fallback
    hid = stack_int16(MAX_HID_SIZE)
    for i in range(MAX_HID_SIZE):
        hid[i] = 0
    hid[rules[R_HID_STOCK] + rules[R_NCARDS]] = 0  # the shuffle cursor: every stock slot already in place
    after = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
    after2 = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
    rng = stack_uint64(1)
    values = stack_float64(NUM_ACTIONS)
    values2 = stack_float64(NUM_ACTIONS)
    base = rules[R_OFF_VIEW] + 6 * player
    if phase == HOLD:
        return _hold_best(pub, hid, rules, w, player, values, after, rng)[1]
    action_values(pub, rules, w, player, values)
    best, action = _best_placement(pub, hid, rules, w, player, TAKE_DISCARD, values, after, rng, BIG, fallback)
    if pub[STOCK_N] > 0 and is_legal(pub, rules, DRAW_STOCK):
        doff = draw_offset(pub, rules)
        top_slot = rules[R_HID_STOCK] + pub[STOCK_N] - 1
        total = 0.0
        count = 0
        for c in range(NUM_RANKS):
            m = pub[doff + c]
            if m > 0:
                for i in range(pub.shape[0]):
                    after2[i] = pub[i]
                hid[top_slot] = c
                rng[0] = np.uint64(1)
                apply_action(after2, hid, rules, rng, DRAW_STOCK)
                total += m * _hold_best(after2, hid, rules, w, player, values2, after, rng)[0]
                count += m
        if count > 0 and total / count <= best:
            best = total / count
            action = DRAW_STOCK
    if rules[R_REVEAL] == 1:
        for k in range(6):
            if pub[base + k] < 0:
                a = REVEAL + k
                v = _after(pub, hid, rules, w, player, a, k, values[a], after, rng)
                if v < best:
                    best = v
                    action = a
    return action

