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
def _opponent_moves(after, player):
    """Whether the opponent starts a turn in ``after`` (not when the deal is over or a flip after a throw follows)."""
    return after[PHASE] == START and after[CURRENT] != player


@hot
def _after(pub, hid, rules, w, player, action, k, fallback, after, rng):
    """``(value, searched)``: the depth-2 value of ``action`` in ``pub`` and True, or ``(fallback, False)`` when the
    opponent does not start a turn after it. ``k`` >= 0 when the action covers or reveals the face-down position
    ``k``: then in expectation over the unseen card there (whether the opponent moves next does not depend on it)."""
    n = pub.shape[0]
    if k < 0:
        for i in range(n):
            after[i] = pub[i]
        rng[0] = np.uint64(1)
        apply_action(after, hid, rules, rng, action)
        if not _opponent_moves(after, player):
            return fallback, False
        return -opponent_best(after, rules, w, after[CURRENT]), True
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
            if not _opponent_moves(after, player):
                return fallback, False
            total += u * -opponent_best(after, rules, w, after[CURRENT])
    return total / pub[UNSEEN_CARDS], True


@leaf
def _level(pub, rules, player, values, deep, searched, first, count, leveled):
    """With ``leveled``, shift the searched depth-2 values of the actions ``first .. first + count - 1`` that leave
    the player the same number of face-down cards so that their lowest equals the lowest depth-1 value among
    them.

    Depth 1 values every afterstate of one decision in one situation (one weight row: the row depends on the
    opponents' face-down cards, which the player's move does not change), and a move that ends the deal exactly.
    Depth 2 values them with the opponent's values, whose row depends on the player's face-down cards: moves that
    cover a face-down card are valued in another row than moves that do not, and going out keeps its exact value
    while the others get minus the opponent's best of a dozen estimates (biased against the player). Compared
    unshifted, those differences between rows decide between covering, keeping and going out; shifted, depth 2
    only ranks the moves that leave the same number of face-down cards, and how many to leave is decided on depth
    1's level, as depth 1 decides it."""
    if not leveled:
        return
    base = rules[R_OFF_VIEW] + 6 * player
    h = 0
    for k in range(6):
        h += pub[base + k] < 0
    for group in range(h + 1):
        low1 = BIG
        low2 = BIG
        for a in range(first, first + count):
            if searched[a] and _face_down_after(pub, base, h, a) == group:
                low1 = min(low1, values[a])
                low2 = min(low2, deep[a])
        if low2 < BIG:
            for a in range(first, first + count):
                if searched[a] and _face_down_after(pub, base, h, a) == group:
                    deep[a] += low1 - low2


@leaf
def _face_down_after(pub, base, h, action):
    """The player's face-down cards after ``action`` (a take, place, throw or reveal), ``h`` before it."""
    if action < DRAW_STOCK:
        return h - (pub[base + action - TAKE_DISCARD] < 0)
    if action >= REVEAL and action < PLACE_DRAWN:
        return h - 1
    if action >= PLACE_DRAWN and action < THROW_DRAWN:
        return h - (pub[base + action - PLACE_DRAWN] < 0)
    return h


@hot
def _placements(pub, hid, rules, w, player, first, values, deep, searched, after, rng):
    """Depth-2 values of the six actions ``first + k`` (a card placed at position ``k``) into ``deep``."""
    base = rules[R_OFF_VIEW] + 6 * player
    for k in range(6):
        a = first + k
        deep[a], searched[a] = _after(pub, hid, rules, w, player, a, k if pub[base + k] < 0 else -1, values[a],
                                      after, rng)


@hot
def _hold_values(pub, hid, rules, w, player, values, deep, searched, after, rng, leveled):
    """The depth-2 values of throwing the held card and of placing it at each position, into ``deep``."""
    action_values(pub, rules, w, player, values)
    deep[THROW_DRAWN], searched[THROW_DRAWN] = _after(pub, hid, rules, w, player, THROW_DRAWN, -1,
                                                      values[THROW_DRAWN], after, rng)
    _placements(pub, hid, rules, w, player, PLACE_DRAWN, values, deep, searched, after, rng)
    _level(pub, rules, player, values, deep, searched, PLACE_DRAWN, THROW_DRAWN + 1 - PLACE_DRAWN, leveled)


@leaf
def hold_choice(deep):
    """``(value, action)`` of the lowest of a held card's ``values``; ties to the throw, then the lowest position."""
    best = deep[THROW_DRAWN]
    action = THROW_DRAWN
    for a in range(PLACE_DRAWN, PLACE_DRAWN + 6):
        if deep[a] < best:
            best = deep[a]
            action = a
    return best, action


@hot
def _start_values(pub, hid, rules, w, player, values, deep, searched, after, rng, leveled):
    """The depth-2 values of a start phase's actions into ``deep``: taking the discard to each position, drawing
    (the expectation over the card drawn of the best depth-2 value of holding it) and revealing."""
    action_values(pub, rules, w, player, values)
    _placements(pub, hid, rules, w, player, TAKE_DISCARD, values, deep, searched, after, rng)
    base = rules[R_OFF_VIEW] + 6 * player
    if rules[R_REVEAL] == 1:
        for k in range(6):
            if pub[base + k] < 0:
                a = REVEAL + k
                deep[a], searched[a] = _after(pub, hid, rules, w, player, a, k, values[a], after, rng)
    _level(pub, rules, player, values, deep, searched, TAKE_DISCARD, 6, leveled)
    _level(pub, rules, player, values, deep, searched, REVEAL, 6, leveled)
    if pub[STOCK_N] > 0 and is_legal(pub, rules, DRAW_STOCK):
        held = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
        values2 = stack_float64(NUM_ACTIONS)
        deep2 = stack_float64(NUM_ACTIONS)
        searched2 = stack_int16(NUM_ACTIONS)
        doff = draw_offset(pub, rules)
        top_slot = rules[R_HID_STOCK] + pub[STOCK_N] - 1
        total = 0.0
        count = 0
        for c in range(NUM_RANKS):
            m = pub[doff + c]
            if m > 0:
                for i in range(pub.shape[0]):
                    held[i] = pub[i]
                hid[top_slot] = c
                rng[0] = np.uint64(1)
                apply_action(held, hid, rules, rng, DRAW_STOCK)
                for a in range(NUM_ACTIONS):
                    searched2[a] = 0
                _hold_values(held, hid, rules, w, player, values2, deep2, searched2, after, rng, leveled)
                total += m * hold_choice(deep2)[0]
                count += m
        if count > 0:
            deep[DRAW_STOCK] = total / count
            searched[DRAW_STOCK] = 1


@leaf
def start_choice(deep, fallback):
    """The action of the lowest of a start phase's ``values``: taking the discard (lowest position first), then
    the draw on a tie, then revealing (the learned player's order); ``fallback`` when none is finite."""
    best = BIG
    action = fallback
    for a in range(TAKE_DISCARD, TAKE_DISCARD + 6):
        if deep[a] < best:
            best = deep[a]
            action = a
    if deep[DRAW_STOCK] <= best:
        best = deep[DRAW_STOCK]
        action = DRAW_STOCK
    for a in range(REVEAL, REVEAL + 6):
        if deep[a] < best:
            best = deep[a]
            action = a
    return action


@hot
def deep_values(pub, rules, w, player, deep, leveled):
    """The depth-2 value of every action of ``player`` in a start or hold phase at two players into ``deep``
    (``NUM_ACTIONS``, NaN where an action is illegal or not a turn's move); returns False (``deep`` all NaN)
    elsewhere. ``leveled``: shift the values the opponent's reply enters to depth 1's level (:func:`_level`)."""
    for a in range(deep.shape[0]):
        deep[a] = np.nan
    phase = pub[PHASE]
    if rules[R_PLAYERS] != 2 or (phase != START and phase != HOLD):
        return False
    hid = stack_int16(MAX_HID_SIZE)
    for i in range(MAX_HID_SIZE):
        hid[i] = 0
    hid[rules[R_HID_STOCK] + rules[R_NCARDS]] = 0  # the shuffle cursor: every stock slot already in place
    after = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
    rng = stack_uint64(1)
    values = stack_float64(NUM_ACTIONS)
    searched = stack_int16(NUM_ACTIONS)
    for a in range(NUM_ACTIONS):
        searched[a] = 0
    if phase == HOLD:
        _hold_values(pub, hid, rules, w, player, values, deep, searched, after, rng, leveled)
    else:
        _start_values(pub, hid, rules, w, player, values, deep, searched, after, rng, leveled)
    return True


@hot
def decide_deep(pub, rules, w, player, fallback, leveled, blend):
    """The depth-2 action of ``player`` in a start or hold phase at two players; ``fallback`` (the depth-1
    action) elsewhere and once the deal must progress."""
    if must_progress(pub, rules):
        return fallback
    deep = stack_float64(NUM_ACTIONS)
    if not deep_values(pub, rules, w, player, deep, leveled):
        return fallback
    if blend < 1.0:
        shallow = stack_float64(NUM_ACTIONS)
        action_values(pub, rules, w, player, shallow)
        for a in range(NUM_ACTIONS):
            deep[a] = shallow[a] + blend * (deep[a] - shallow[a])
    if pub[PHASE] == HOLD:
        return hold_choice(deep)[1]
    return start_choice(deep, fallback)
