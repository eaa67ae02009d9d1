"""greedy: every card goes where it lowers the layout's estimated score the most, right now.

Decision rule
-------------
The agent scores its own layout column by column, as if the deal ended now, with each face-down card worth ``h``
points:

- ``h`` is the mean points of the cards nobody has seen (the ``unseen`` counts in ``pub``), so it follows the deal:
  about 5.5 at the start with one standard deck, lower once many high cards are out. With ``fixed_hidden=1`` it is
  the parameter ``hidden_value`` instead. Once the deal has stalled ([`golfsim.agents.common.stalled`][]: two
  recycles of
  the stock, or half of ``turn_cap`` turns) ``h`` is at least ``STALL_HIDDEN`` (10), so that face-down cards get
  covered and someone goes out.
- A column of two face-up cards scores as the rules say (pairs 0, or -4 for twos with ``twos_pair=keep_negative``);
  a column with a face-down card scores ``points(face-up card) + h``, or ``2h`` when both are face down. A face-down
  card never counts as a pair. ``four_of_a_kind_bonus`` counts when two face-up column pairs share a rank.

The *gain* of putting card ``c`` at position ``k`` is the layout value now minus the value with ``c`` at ``k``.

- Open: position 0, then position 1 (position 3 when ``opening_flips=same_column``).
- Start of turn: with ``d`` the top discard, let ``k*`` be the position of largest gain for ``d`` (ties: lowest
  position). Take ``d`` to ``k*`` when that gain is at least ``take_gain``; otherwise draw. It never uses
  ``reveal_instead_of_draw`` (a draw can be thrown away, so it is never worse than a reveal).
- Holding a stock draw ``c``: with tip (a), ``blind_swap``, a card worth at most ``blind_swap`` points replaces a
  face-down card (the one of largest gain, ties lowest position) while two or more are face down, whatever else it
  could do. Otherwise it goes to the position of largest gain (ties: lowest position) when that gain is above 0,
  and is thrown away when not.
- Flip after a throw (``discard_and_flip``): the face-down card below or above the face-up card with the most points
  (ties: lowest position); with ``may`` the last face-down card is never flipped (that would go out blind), with
  ``must`` it has to be.
- Going out is not treated specially: if the greedy move exposes the last card, the agent goes out.

Parameters
----------
take_gain : float, default 3
    Smallest gain (points) for which the top discard is taken instead of drawing.
fixed_hidden : float, default 0
    0: a face-down card is worth the mean of the unseen cards; 1: it is worth ``hidden_value``.
hidden_value : float, default 5
    Points of a face-down card when ``fixed_hidden=1``.
blind_swap : float, default -99
    Tip (a) "swap blind early": a drawn card worth at most this many points replaces a face-down card (while two or
    more are face down) instead of a face-up card or the discard pile. -99 (below every card) turns the tip off;
    3 means "a 3 or better". With the default estimate greedy already covers a face-down card with any card worth
    less than the unseen mean unless a face-up card gains more, so the switch changes exactly those choices.
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.agents.base import Param
from golfsim.agents.common import flip_move, mean_points, points, stall_floor_at
from golfsim.core.engine import column_score, rank_of, same_rank, top_discard
from golfsim.core.spec import (
    DRAW_STOCK,
    HELD,
    HOLD,
    PHASE,
    PLACE_DRAWN,
    R_FOUR_BONUS,
    R_OFF_VIEW,
    R_POINTS,
    R_TURN_CAP,
    RECYCLES,
    START,
    STOCK_N,
    TAKE_DISCARD,
    THROW_DRAWN,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
)

PARAMS = (
    Param("take_gain", 3.0, "take the top discard when its best placement lowers the estimate by at least this",
          minimum=-100, maximum=100),
    Param("fixed_hidden", 0.0, "0: a face-down card is worth the mean of the unseen cards; 1: worth hidden_value",
          kind="bool"),
    Param("hidden_value", 5.0, "points of a face-down card when fixed_hidden=1", minimum=-10, maximum=20),
    Param("blind_swap", -99.0, "tip (a): a drawn card worth <= this always replaces a face-down card (while two "
                               "or more are face down); -99 off", minimum=-99, maximum=20),
)
TAKE_GAIN, FIXED_HIDDEN, HIDDEN_VALUE, BLIND_SWAP = range(4)


@leaf
def _card(pub, base, k, over_k, over_card):
    return over_card if k == over_k else pub[base + k]


@hot
def greedy_value(pub, rules, base, h, over_k, over_card):
    """Greedy estimate of the layout at ``pub[base:base + 6]`` with ``over_card`` put at ``over_k`` (-1: none)."""
    total = 0.0
    pair0 = -1
    pair1 = -1
    bonus_hit = False
    for c in range(3):
        a = _card(pub, base, c, over_k, over_card)
        b = _card(pub, base, c + 3, over_k, over_card)
        if a >= 0 and b >= 0:
            total += column_score(a, b, rules)
            if same_rank(a, b):  # a one-eyed jack pairs with a jack (one_eyed_jacks)
                r = rank_of(a)
                if r == pair0 or r == pair1:
                    bonus_hit = True
                if pair0 < 0:
                    pair0 = r
                else:
                    pair1 = r
        elif a >= 0:
            total += points(rules, a) + h
        elif b >= 0:
            total += points(rules, b) + h
        else:
            total += 2.0 * h
    if bonus_hit:
        total += rules[R_FOUR_BONUS]
    return total


@leaf
def column_estimate(rules, a, b, h):
    """Greedy estimate of one column holding ``a`` over ``b`` (ranks, -1 face down), face-down cards worth ``h``."""
    if a < 0:
        if b < 0:
            return 2.0 * h
        return rules[R_POINTS + b] + h
    if b < 0:
        return rules[R_POINTS + a] + h
    return float(column_score(a, b, rules))


@leaf
def best_placement(pub, rules, base, h, card, face_down_only):
    """``(position, gain)`` of the largest gain for ``card`` (ties: lowest position); ``face_down_only`` limits the
    targets to face-down positions (position -1 when there is none)."""
    best_k = -1
    best_gain = -1e18
    if rules[R_FOUR_BONUS] != 0:
        now = greedy_value(pub, rules, base, h, -1, 0)
        for k in range(6):
            if face_down_only and pub[base + k] >= 0:
                continue
            gain = now - greedy_value(pub, rules, base, h, k, card)
            if gain > best_gain:
                best_gain = gain
                best_k = k
        return best_k, best_gain
    g0 = column_estimate(rules, pub[base], pub[base + 3], h)
    g1 = column_estimate(rules, pub[base + 1], pub[base + 4], h)
    g2 = column_estimate(rules, pub[base + 2], pub[base + 5], h)
    x0 = _target_gain(pub, rules, base, h, card, face_down_only, 0, g0)
    x1 = _target_gain(pub, rules, base, h, card, face_down_only, 1, g1)
    x2 = _target_gain(pub, rules, base, h, card, face_down_only, 2, g2)
    x3 = _target_gain(pub, rules, base, h, card, face_down_only, 3, g0)
    x4 = _target_gain(pub, rules, base, h, card, face_down_only, 4, g1)
    x5 = _target_gain(pub, rules, base, h, card, face_down_only, 5, g2)
    # the first largest gain, found as a tree of pairs (three comparisons deep instead of six in a row): in each
    # comparison the later positions win only when strictly larger, as in a scan from position 0
    k01, b01 = _first_max(0, x0, 1, x1)
    k23, b23 = _first_max(2, x2, 3, x3)
    k45, b45 = _first_max(4, x4, 5, x5)
    k03, b03 = _first_max(k01, b01, k23, b23)
    best_k, best_gain = _first_max(k03, b03, k45, b45)
    if best_gain <= -1e18:  # no target (face_down_only with every card face up)
        return -1, -1e18
    return best_k, best_gain


@leaf
def _target_gain(pub, rules, base, h, card, face_down_only, k, old):
    """Gain of ``card`` at position ``k`` whose column is now worth ``old``; -inf for a face-up ``k`` when only
    face-down targets count."""
    if face_down_only and pub[base + k] >= 0:
        return -np.inf
    return old - column_estimate(rules, card, pub[base + (k + 3) % 6], h)


@leaf
def _first_max(ka, a, kb, b):
    """``(kb, b)`` when ``b > a``, else ``(ka, a)``: the earlier of two candidates keeps a tie."""
    if b > a:
        return kb, b
    return ka, a


@leaf
def hidden_worth(params, unseen_cards, unseen_points, recycles, turn, turn_cap):
    """``h``, the worth of a face-down card: ``hidden_value`` or the mean of the unseen cards, raised once the deal
    has stalled ([`golfsim.agents.common.stall_floor_at`][])."""
    h = params[HIDDEN_VALUE] if params[FIXED_HIDDEN] != 0.0 else mean_points(unseen_cards, unseen_points)
    return stall_floor_at(recycles, turn, turn_cap, h)


@leaf
def start_choice(view, rules, base, params, h, top, stock_n):
    """The START action for the layout ``view[base:base + 6]`` (ranks, -1 face down): take the top discard ``top``
    to its best position, or draw. ``view`` is ``pub``, or the compact self-play kernel's own array
    ([`golfsim.kernels.self_play`][])."""
    k, gain = best_placement(view, rules, base, h, top, False)
    if gain >= params[TAKE_GAIN] or stock_n == 0:
        return TAKE_DISCARD + k
    return DRAW_STOCK


@leaf
def hold_choice(view, rules, base, params, h, card):
    """The HOLD action for the drawn ``card`` and the layout ``view[base:base + 6]``: place it or throw it."""
    if points(rules, card) <= params[BLIND_SWAP] and _face_down_at(view, base) >= 2:
        k, gain = best_placement(view, rules, base, h, card, True)
        return PLACE_DRAWN + k
    k, gain = best_placement(view, rules, base, h, card, False)
    if gain > 0.0:
        return PLACE_DRAWN + k
    return THROW_DRAWN


@leaf
def _face_down_at(view, base):
    c = 0
    for k in range(6):
        if view[base + k] < 0:
            c += 1
    return c


@leaf
def greedy_act(pub, rules, params, agent_rng, player):
    """Decision of the greedy agent (see the module docstring)."""
    move = flip_move(pub, rules, player)
    if move >= 0:
        return move
    phase = pub[PHASE]
    base = rules[R_OFF_VIEW] + 6 * player
    h = hidden_worth(params, pub[UNSEEN_CARDS], pub[UNSEEN_POINTS], pub[RECYCLES], pub[TURN], rules[R_TURN_CAP])
    if phase == START:
        return start_choice(pub, rules, base, params, h, top_discard(pub, rules), pub[STOCK_N])
    if phase == HOLD:
        return hold_choice(pub, rules, base, params, h, pub[HELD])
    return THROW_DRAWN
