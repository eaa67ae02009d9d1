"""The end of a deal valued exactly: expectimax over the unseen cards from the public state, no learned estimate.

What is exact, and why only that
--------------------------------
Once no move can be followed by an unbounded game, the value of a position is a finite expectimax over the cards
chance brings, computable from the public counts (``unseen``, or ``stock_known`` for a draw after a recycle):

- *The deal's last turn* (``one_last_turn``, the last player of the final circuit; any player count). Every move
  ends the deal, so a move's value is the expected final deal-score difference of the layouts it leaves
  ([`final_value`][golfsim.agents.learned.endgame.final_value]): the mover's layout less the mean of the others', every
  face-down card in expectation over the unseen cards. A drawn card is valued with the counts after it is seen, then the
  best of throwing it and placing it at each position.
- *Going out at two players under* ``one_last_turn``: the move that turns up or covers the player's last face-down
  card is followed by the opponent's last turn only, so its value is minus the opponent's best last-turn value,
  in expectation over the covered card (which the opponent may take from the discard pile).
- *Going out under* ``immediate``: the deal ends at once; the value is that of the layouts as they stand.

Before that no finite expectimax exists: while nobody is out, either player may draw and throw for as long as the
stock lasts and recycles, so the game from a position has no bounded length whatever the number of face-down
cards, and its value is the fixed point of an infinite game over every order of the discard pile. The learned value
estimates it there.

The expectation of a layout is exact by linearity: the expected sum of its columns is the sum of their expected
scores, each exact from the counts ([`golfsim.agents.learned.value.column_expectation`][], which takes a column of
two face-down cards as two cards drawn without replacement). A covered card leaves the game face up on the discard
pile before the deal ends; averaged over what it is, the other face-down cards keep their unconditional
expectation, so the counts before the cover value them exactly. With a ``four_of_a_kind_bonus`` (a bonus over two
columns, not a column score) these values are not exact and nothing here applies
([`exact_applies`][golfsim.agents.learned.endgame.exact_applies]).

The states after a move are made by the rules engine ([`golfsim.core.engine.apply_action`][]) on scratch copies
with a hidden state that holds only the card chance brings in that branch, so nothing is assumed about the rules
here.
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.agents.common import draw_offset
from golfsim.agents.learned.policy import BIG, action_values, hold_choice, must_progress, start_choice
from golfsim.agents.learned.value import card_counts, column_expectation, jack_mate, opponents_expectation
from golfsim.core.engine import apply_action, face_down_count, is_legal, top_discard
from golfsim.core.spec import (
    CURRENT,
    DRAW_STOCK,
    ENDER,
    FINAL_LEFT,
    HELD,
    HOLD,
    NUM_ACTIONS,
    PHASE,
    PLACE_DRAWN,
    R_CODES,
    R_END,
    R_FOUR_BONUS,
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


@leaf
def exact_applies(rules):
    """Whether layouts' expectations are exact under ``rules`` (no four-of-a-kind bonus)."""
    return rules[R_FOUR_BONUS] == 0


@leaf
def is_last_turn(pub):
    """Whether the player to move takes the deal's last turn (``one_last_turn``, the final circuit's last seat)."""
    return pub[ENDER] >= 0 and pub[FINAL_LEFT] == 1


@hot
def final_value(pub, rules, player, k, card):
    """The exact expected final deal-score difference (``player``'s layout less the others' mean) if the deal ended
    with ``card`` face up at ``player``'s position ``k`` (``k`` < 0: the layout as it is), counts from ``pub``."""
    cnt = card_counts(pub, rules, jack_mate(rules))
    base = rules[R_OFF_VIEW] + 6 * player
    own = 0.0
    for c in range(3):
        a = pub[base + c]
        b = pub[base + c + 3]
        if k == c:
            a = card
        elif k == c + 3:
            b = card
        own += column_expectation(pub, rules, np.int64(a), np.int64(b), cnt)
    return own - opponents_expectation(pub, rules, player, cnt)


@hot
def _hold_last(pub, rules, player, values):
    """The exact values of throwing the held card and of placing it at each position on the deal's last turn."""
    card = pub[HELD]
    values[THROW_DRAWN] = final_value(pub, rules, player, -1, 0)  # a flip after the throw changes no expectation
    for k in range(6):
        values[PLACE_DRAWN + k] = final_value(pub, rules, player, k, card)


@leaf
def _draw_card(pub, rules, hid, held, top_slot, rng, card):
    """``held`` becomes ``pub`` after its mover draws ``card`` from the stock (put on top of the scratch stock
    ``hid`` first)."""
    for i in range(pub.shape[0]):
        held[i] = pub[i]
    hid[top_slot] = card
    rng[0] = np.uint64(1)
    apply_action(held, hid, rules, rng, DRAW_STOCK)


@hot
def _draw_last(pub, rules, player, hid, held, scratch):
    """The exact value of drawing on the deal's last turn: over the card drawn, the best of its moves, valued with
    the counts after the card is seen."""
    doff = draw_offset(pub, rules)
    top_slot = rules[R_HID_STOCK] + pub[STOCK_N] - 1
    rng = stack_uint64(1)
    total = 0.0
    count = 0
    for c in range(rules[R_CODES]):
        m = pub[doff + c]
        if m > 0:
            _draw_card(pub, rules, hid, held, top_slot, rng, c)
            _hold_last(held, rules, player, scratch)
            total += m * hold_choice(scratch)[0]
            count += m
    return total / count if count > 0 else np.nan


@leaf
def _clear_hid(hid, rules):
    """A scratch hidden state whose stock slots are all in place (no shuffle is done on a draw)."""
    for i in range(MAX_HID_SIZE):
        hid[i] = 0
    hid[rules[R_HID_STOCK] + rules[R_NCARDS]] = 0


@hot
def last_turn_values(pub, rules, player, values):
    """The exact value of each of ``player``'s moves on the deal's last turn into ``values`` (``NUM_ACTIONS``;
    NaN for other actions); False (nothing written) when this is not the last turn's start or hold phase."""
    phase = pub[PHASE]
    if not exact_applies(rules) or not is_last_turn(pub) or (phase != START and phase != HOLD):
        return False
    for a in range(NUM_ACTIONS):
        values[a] = np.nan
    if phase == HOLD:
        _hold_last(pub, rules, player, values)
        return True
    top = top_discard(pub, rules)
    for k in range(6):
        values[TAKE_DISCARD + k] = final_value(pub, rules, player, k, top)
    if pub[STOCK_N] > 0 and is_legal(pub, rules, DRAW_STOCK):
        hid = stack_int16(MAX_HID_SIZE)
        _clear_hid(hid, rules)
        held = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
        scratch = stack_float64(NUM_ACTIONS)
        values[DRAW_STOCK] = _draw_last(pub, rules, player, hid, held, scratch)
    if rules[R_REVEAL] == 1:
        base = rules[R_OFF_VIEW] + 6 * player
        for k in range(6):
            if pub[base + k] < 0:
                values[REVEAL + k] = final_value(pub, rules, player, -1, 0)
    return True


@hot
def last_turn_best(pub, rules):
    """The exact value of the best start of the deal's last turn, for the player to move."""
    values = stack_float64(NUM_ACTIONS)
    last_turn_values(pub, rules, pub[CURRENT], values)
    best = BIG
    for a in range(NUM_ACTIONS):
        if values[a] < best:
            best = values[a]
    return best


@leaf
def _covers(pub, rules, player, action):
    """The position of ``player``'s face-down card that ``action`` covers or turns up, else -1."""
    base = rules[R_OFF_VIEW] + 6 * player
    k = -1
    if action < DRAW_STOCK:
        k = action - TAKE_DISCARD
    elif action >= REVEAL and action < PLACE_DRAWN:
        k = action - REVEAL
    elif action >= PLACE_DRAWN and action < THROW_DRAWN:
        k = action - PLACE_DRAWN
    if k >= 0 and pub[base + k] < 0:
        return k
    return -1


@leaf
def goes_out(pub, rules, player, action):
    """Whether ``action`` (a take, reveal or place) turns up or covers ``player``'s last face-down card while
    nobody has gone out."""
    return pub[ENDER] < 0 and face_down_count(pub, rules, player) == 1 and _covers(pub, rules, player, action) >= 0


@hot
def out_value(pub, rules, player, action, hid, after):
    """The exact value of a going-out ``action`` (see [`goes_out`][golfsim.agents.learned.endgame.goes_out]): under
    ``immediate`` the layouts as they stand; under ``one_last_turn`` at two players minus the opponent's best last turn,
    over the covered card. NaN where it is not exact (three or more players under ``one_last_turn``)."""
    k = _covers(pub, rules, player, action)
    if rules[R_END] == 0:
        card = pub[HELD] if pub[PHASE] == HOLD else top_discard(pub, rules)
        if action >= REVEAL and action < PLACE_DRAWN:
            return final_value(pub, rules, player, -1, 0)
        return final_value(pub, rules, player, k, card)
    if rules[R_PLAYERS] != 2:
        return np.nan
    rng = stack_uint64(1)
    ou = rules[R_OFF_UNSEEN]
    total = 0.0
    for r in range(rules[R_CODES]):
        u = pub[ou + r]
        if u > 0:
            for i in range(pub.shape[0]):
                after[i] = pub[i]
            hid[6 * player + k] = r
            rng[0] = np.uint64(1)
            apply_action(after, hid, rules, rng, action)
            total += u * -last_turn_best(after, rules)
    return total / pub[UNSEEN_CARDS]


@hot
def exact_values(pub, rules, player, values):
    """The exact value of each of ``player``'s moves that has one ([this module's][golfsim.agents.learned.endgame]
    cases) into ``values`` (``NUM_ACTIONS``), NaN for the others; the number of exact values written."""
    for a in range(NUM_ACTIONS):
        values[a] = np.nan
    if not exact_applies(rules):
        return 0
    if last_turn_values(pub, rules, player, values):
        n = 0
        for a in range(NUM_ACTIONS):
            n += 0 if np.isnan(values[a]) else 1
        return n
    phase = pub[PHASE]
    if (phase != START and phase != HOLD) or pub[ENDER] >= 0 or face_down_count(pub, rules, player) != 1:
        return 0
    hid = stack_int16(MAX_HID_SIZE)
    _clear_hid(hid, rules)
    after = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
    first = PLACE_DRAWN if phase == HOLD else TAKE_DISCARD
    n = 0
    for a in range(first, first + 6):
        if goes_out(pub, rules, player, a):
            values[a] = out_value(pub, rules, player, a, hid, after)
            n += 0 if np.isnan(values[a]) else 1
    if phase == START and rules[R_REVEAL] == 1:
        for a in range(REVEAL, REVEAL + 6):
            if goes_out(pub, rules, player, a):
                values[a] = out_value(pub, rules, player, a, hid, after)
                n += 0 if np.isnan(values[a]) else 1
    return n


@hot
def _exact_draw_correction(pub, rules, w, player, hid, held, after):
    """How much drawing gains when going out with the drawn card is valued exactly: over the card drawn, the best
    of its moves with going out exact, less the best with going out learned (both from the held state's values)."""
    doff = draw_offset(pub, rules)
    top_slot = rules[R_HID_STOCK] + pub[STOCK_N] - 1
    rng = stack_uint64(1)
    v1 = stack_float64(NUM_ACTIONS)
    total = 0.0
    count = 0
    for c in range(rules[R_CODES]):
        m = pub[doff + c]
        if m > 0:
            _draw_card(pub, rules, hid, held, top_slot, rng, c)
            action_values(held, rules, w, player, v1)
            learned_best = hold_choice(v1)[0]
            for a in range(PLACE_DRAWN, PLACE_DRAWN + 6):
                if goes_out(held, rules, player, a):
                    v = out_value(held, rules, player, a, hid, after)
                    if not np.isnan(v):
                        v1[a] = v
            total += m * (hold_choice(v1)[0] - learned_best)
            count += m
    return total / count if count > 0 else 0.0


@hot
def decide_exact(pub, rules, w, player, fallback):
    """The learned player's action with the exact values where they exist: on the deal's last turn every move by
    its exact value; at two players under ``one_last_turn``, going out by its exact value (and drawing by the
    chance of going out with the card drawn, valued so) against the learned values of the other moves.
    ``fallback`` (the learned action) everywhere else; under ``immediate`` the learned player already values
    going out exactly, so nothing changes."""
    phase = pub[PHASE]
    if not exact_applies(rules) or (phase != START and phase != HOLD) or must_progress(pub, rules):
        return fallback
    values = stack_float64(NUM_ACTIONS)
    if last_turn_values(pub, rules, player, values):
        if phase == HOLD:
            return hold_choice(values)[1]
        return start_choice(values, fallback)
    if (rules[R_END] != 1 or rules[R_PLAYERS] != 2 or pub[ENDER] >= 0
            or face_down_count(pub, rules, player) != 1):
        return fallback
    hid = stack_int16(MAX_HID_SIZE)
    _clear_hid(hid, rules)
    after = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
    action_values(pub, rules, w, player, values)
    first = PLACE_DRAWN if phase == HOLD else TAKE_DISCARD
    for a in range(first, first + 6):
        if goes_out(pub, rules, player, a):
            values[a] = out_value(pub, rules, player, a, hid, after)
    if phase == HOLD:
        return hold_choice(values)[1]
    if rules[R_REVEAL] == 1:
        for a in range(REVEAL, REVEAL + 6):
            if goes_out(pub, rules, player, a):
                values[a] = out_value(pub, rules, player, a, hid, after)
    if not np.isnan(values[DRAW_STOCK]):
        held = stack_like(pub, MAX_PUB_SIZE)[:pub.shape[0]]
        values[DRAW_STOCK] += _exact_draw_correction(pub, rules, w, player, hid, held, after)
    return start_choice(values, fallback)
