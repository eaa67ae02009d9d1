"""pair-builder: plays for vertical pairs first, keeps a high card above a face-down card while its match can still
come, and otherwise lowers single cards like greedy.

Decision rule
-------------
The agent uses greedy's estimate of its layout ([`golfsim.agents.greedy.greedy_value`][]: face-up cards at their
points,
column pairs as the rules score them, each face-down card worth ``h``, the mean points of the unseen cards, at least
``STALL_HIDDEN`` (10) once the deal has stalled, see [`golfsim.agents.common.stalled`][]). The *gain* of putting card
``c`` at position ``k`` is the estimate now minus the estimate with ``c`` at ``k``.

Card ``c`` *completes a pair* at ``k`` when the card in the other row of ``k``'s column is a face-up ``c`` and the
card at ``k`` is not a ``c`` (face down, or a different face-up rank); with ``one_eyed_jacks`` a one-eyed jack and a
jack are of one rank, and either can still come for a reserved jack.

A column is *reserved* (tip (c), ``keep_threshold``) when it holds exactly one face-up card ``a`` worth at least
``keep_threshold`` points above or below a face-down card, and a match can still come: before any recycle some ``a``
is unseen (``unseen[a] > 0``), after one the known stock holds an ``a`` (``stock_known[a] > 0``). Reservations
are lifted when an opponent has at most one face-down card (the deal may end on their next turn), during the
one-last-turn circuit and once the deal has stalled. Only a card completing its pair may go into a reserved column.

With tip (f), ``lone_two``, the agent never puts a card where it completes a pair of a rank that scores less apart
than paired (a two, or a negative joker): two lone twos are -4, a pair of twos 0.

- Open: position 0, then position 1 (position 3 when ``opening_flips=same_column``).
- For a card ``c`` (the top discard at the start of the turn, or a stock draw being held):

  1. tip (b), ``pairs_first``: if ``c`` completes a pair with a positive gain, put it there (the largest gain,
     ties lowest position) -- taking the discard or placing the draw -- before looking at anything else;
  2. otherwise find the largest gain over the positions allowed by the reservations (ties lowest position):
     take the discard when that gain is at least ``take_gain`` (else draw from the stock); place a drawn card
     when it is above 0 (else throw it away).

- It never uses ``reveal_instead_of_draw``. After a throw with ``discard_and_flip`` it flips the face-down card
  next to its highest face-up card (with ``may``, never its last face-down card). Going out is not treated
  specially.

Parameters
----------
pairs_first : float, default 1
    Tip (b) "build pairs before you lower singles": 1 takes or places a pair-completing card before any other
    move; 0 weighs pair completions like any other placement by their gain.
keep_threshold : float, default 6
    Tip (c) "keep a high card above a face-down card while another may come": the smallest points of a face-up card
    whose column is reserved; 99 turns the tip off.
lone_two : float, default 1
    Tip (f) "a lone two is worth more than a pair of twos": 1 never completes a pair of twos (or of negative
    jokers); 0 allows it.
take_gain : float, default 3
    Smallest gain (points) for which the top discard is taken to lower a single card instead of drawing.
"""

from __future__ import annotations

from golfsim._numba.jit import hot, leaf
from golfsim.agents.base import Param
from golfsim.agents.common import (
    better_alone,
    final_circuit,
    flip_move,
    hidden_mean,
    min_opponent_face_down,
    rank_count,
    stall_floor,
    stalled,
)
from golfsim.agents.greedy import column_estimate, greedy_value
from golfsim.core.engine import same_rank, top_discard
from golfsim.core.spec import (
    DRAW_STOCK,
    HELD,
    HOLD,
    PHASE,
    PLACE_DRAWN,
    R_FOUR_BONUS,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_POINTS,
    RECYCLES,
    START,
    STOCK_N,
    TAKE_DISCARD,
    THROW_DRAWN,
)

PARAMS = (
    Param("pairs_first", 1.0, "tip (b): 1 takes or places a card that completes a column pair before anything "
                              "else; 0 weighs it by its gain like any move", kind="bool"),
    Param("keep_threshold", 6.0, "tip (c): a face-up card worth >= this above/below a face-down card reserves its "
                                 "column while a match can come; 99 off", minimum=0, maximum=99),
    Param("lone_two", 1.0, "tip (f): 1 never pairs twos (or negative jokers), a lone two scores better; 0 allows it",
          kind="bool"),
    Param("take_gain", 3.0, "take the top discard to lower a single card when the gain is at least this",
          minimum=-100, maximum=100),
)
PAIRS_FIRST, KEEP_THRESHOLD, LONE_TWO, TAKE_GAIN = range(4)


@leaf
def reserved_columns(pub, rules, player, keep_threshold, lone_two):
    """Bit ``c`` is set when column ``c`` of ``player`` is reserved for a pair (see the module docstring)."""
    if final_circuit(pub) or stalled(pub, rules) or min_opponent_face_down(pub, rules, player) <= 1:
        return 0
    base = rules[R_OFF_VIEW] + 6 * player
    avail = rules[R_OFF_STOCK_KNOWN] if pub[RECYCLES] > 0 else rules[R_OFF_UNSEEN]
    mask = 0
    for c in range(3):
        a = pub[base + c]
        b = pub[base + c + 3]
        if (a < 0) == (b < 0):
            continue
        up = a if a >= 0 else b
        if rules[R_POINTS + up] < keep_threshold or rank_count(pub, rules, avail, up) <= 0:
            continue
        if lone_two and better_alone(rules, up):
            continue
        mask |= 1 << c
    return mask


@leaf
def pair_builder_choice(pub, rules, base, h, card, reserved, lone_two):
    """``(pair_position, pair_gain, position, gain)`` for ``card``: the pair-completing position of largest gain and
    the allowed position of largest gain (ties lowest; position -1 when there is none)."""
    bonus = rules[R_FOUR_BONUS] != 0
    now = greedy_value(pub, rules, base, h, -1, 0) if bonus else 0.0
    g0 = column_estimate(rules, pub[base], pub[base + 3], h)
    g1 = column_estimate(rules, pub[base + 1], pub[base + 4], h)
    g2 = column_estimate(rules, pub[base + 2], pub[base + 5], h)
    alone = lone_two and better_alone(rules, card)
    pair_k = -1
    pair_gain = -1e18
    best_k = -1
    best_gain = -1e18
    for k in range(6):
        partner = pub[base + (k + 3) % 6]
        makes_pair = same_rank(partner, card) and not same_rank(pub[base + k], card)  # face down (-1): no rank
        if makes_pair and alone:
            continue
        if (reserved >> (k % 3)) & 1 and not makes_pair:
            continue
        c = k % 3
        if bonus:
            gain = now - greedy_value(pub, rules, base, h, k, card)
        else:
            gain = (g0 if c == 0 else (g1 if c == 1 else g2)) - column_estimate(rules, card, partner, h)
        if makes_pair and gain > pair_gain:
            pair_gain = gain
            pair_k = k
        if gain > best_gain:
            best_gain = gain
            best_k = k
    return pair_k, pair_gain, best_k, best_gain


@hot
def pair_builder_act(pub, rules, params, agent_rng, player):
    """Decision of the pair-builder agent (see the module docstring)."""
    move = flip_move(pub, rules, player)
    if move >= 0:
        return move
    phase = pub[PHASE]
    base = rules[R_OFF_VIEW] + 6 * player
    h = stall_floor(pub, rules, hidden_mean(pub, rules))
    lone_two = params[LONE_TWO] != 0.0
    reserved = reserved_columns(pub, rules, player, params[KEEP_THRESHOLD], lone_two)
    pairs_first = params[PAIRS_FIRST] != 0.0
    if phase == START:
        pair_k, pair_gain, k, gain = pair_builder_choice(pub, rules, base, h, top_discard(pub, rules), reserved,
                                                         lone_two)
        if pairs_first and pair_k >= 0 and pair_gain > 0.0:
            return TAKE_DISCARD + pair_k
        if pub[STOCK_N] == 0:  # cannot happen at the start of a turn; the discard must then be used
            if k < 0:
                k = 0
            return TAKE_DISCARD + k
        if k >= 0 and gain >= params[TAKE_GAIN]:
            return TAKE_DISCARD + k
        return DRAW_STOCK
    if phase == HOLD:
        pair_k, pair_gain, k, gain = pair_builder_choice(pub, rules, base, h, pub[HELD], reserved, lone_two)
        if pairs_first and pair_k >= 0 and pair_gain > 0.0:
            return PLACE_DRAWN + pair_k
        if k >= 0 and gain > 0.0:
            return PLACE_DRAWN + k
        return THROW_DRAWN
    return THROW_DRAWN
