"""ev: exact card counting from public information; every legal action is valued by the expected score of the
layout it leaves, including the chance of completing a column pair later, and going out is checked against what
can be inferred of the opponents ("count before you go out").

Card counting
-------------
Every card nobody has seen face up is equally likely to be any of the ``unseen`` cards (``pub``), so a face-down
card -- the agent's own or an opponent's -- has rank ``r`` with probability ``u_r / U`` (``U`` cards unseen). A
stock draw has that distribution before the first recycle; after one, the stock is exactly the known recycled cards,
and a draw is rank ``r`` with probability ``k_r / S`` (``stock_known``, ``S`` cards). Let ``c_r`` be the count a
draw comes from (``u_r`` or ``k_r``). Several decks and jokers need nothing special: counts come from ``pub`` and
points from ``rules[R_POINTS + rank]``.

Column values
-------------
With ``mu`` the mean points of an unseen card and ``pair(r)`` the score of a column pair of rank ``r`` (0, or twice
a two's points with ``twos_pair=keep_negative``):

- two face-up cards ``a``, ``b``: their column score (``pair(a)`` when ``a == b``, else ``points(a) + points(b)``);
- a face-up ``a`` over or under a face-down card: the exact expectation
  ``e = points(a) + mu - (u_a / U) (2 points(a) - pair(a))``, less the *pair chance*
  ``pair_weight * q(nd * c_a) * max(0, points(a) + mu - pair(a))``;
- two face-down cards: the exact expectation ``2 mu - sum_r u_r (u_r - 1) / (U (U - 1)) (2 points(r) - pair(r))``.

Here ``q(x) = 1 - 1 / (1 + x + x**2 / 2)`` is about the chance that a card seen ``x`` times on average shows up at
least once, and ``nd = horizon * f / S`` (``S`` the cards a draw comes from) is how many times each of them is
expected to be drawn in the agent's remaining turns, estimated as ``horizon * f`` from ``f``, the fewest face-down
cards any opponent has (each needs at least ``f`` turns to go out). When a hypothetical draw of rank ``r`` is valued,
``c_r`` counts one card fewer. In the one-last-turn circuit ``nd = 0``: every value is the expected final score.
``four_of_a_kind_bonus`` counts when two face-up column pairs share a rank, and in expectation (``u_a / U`` plus the
pair chance, at most 1) for a face-up ``a`` over a face-down card beside a column pair of ``a``.

Decision rule
-------------
A layout's value is the sum of its column values: the agent's expected final score, lower is better.

- Open: position 0, then position 1 (position 3 when ``opening_flips=same_column``).
- Start of turn: the candidates are taking the top discard to each position (the value of the layout with it
  there), drawing (the expectation over the draw distribution of the best of throwing the card away and placing it
  at each position) and, with ``reveal_instead_of_draw``, revealing a face-down card (the layout's value as it is,
  which a draw always matches or beats, so only a reveal that goes out can win). The lowest value wins; ties go to
  the draw, then to the lowest position. As a draw is never worth more than throwing it away, its exact value is
  computed only when taking the discard beats that.
- Holding a stock draw: throwing it away (the layout's value as it is) or placing it at each position; the lowest
  value wins, ties to the throw, then to the lowest position.
- Going out (covering, revealing or flipping the last face-down card) is valued by the final score it locks in:
  exact when a known card covers the card, expected when it is revealed or flipped. With tip (e), ``count_out``,
  going out is allowed only when that score is at most ``O + out_margin``, ``O`` being the lowest estimated final
  score of an opponent: their face-up cards plus the expectation of their face-down ones, less, with
  ``one_last_turn``, the expected saving of their last draw. On the last hole (``pub[HOLE] == rules[R_HOLES] - 1``)
  both sides add their game totals (``pub`` at ``R_OFF_TOTALS``), so the agent goes out only if that wins the game.
  The check is lifted in the last-turn circuit and once the deal has stalled (below).
- Flip after a throw (``discard_and_flip``): with ``must``, or with two or more face-down cards, the face-down card
  next to the highest face-up card; with ``may`` and one face-down card, it is flipped only if going out is allowed
  and its expected final score is at most the layout's value (so practically never). With ``must`` and one
  face-down card, throwing a draw away is valued as going out blind.
- Tip (d), ``watch_discard``: when the next player gets a turn after this action, leaving card ``c`` on the discard
  pile costs ``watch_discard`` times the points ``c`` would save the next player by completing one of their column
  pairs (in expectation when ``c`` is the unseen card under a covered face-down position).
- A stalled deal ([`golfsim.agents.common.stalled`][]: two recycles, or half of ``turn_cap`` turns) gives every
action that
  covers or turns up a face-down card a bonus of ``STALL_HIDDEN`` (10) points, so that someone goes out.

House rules
-----------
Card values (``super_kings``, ``ten_penny``, ``eagle_eye``) come through the points table. ``wolfpack`` is valued
like ``four_of_a_kind_bonus`` ([`wolf_value`][golfsim.agents.expected_value.wolf_value]; both use the plain reference
valuation). The rules that compare the table's scores bear on going out (before anyone else has): with ``opp`` the
best opponent's estimated hole score and ``sd = sqrt((f + t) v)`` its spread (``f`` their face-down cards, ``t`` 1
with a last turn to come, ``v`` the variance of an unseen card), the best opponent's score is taken as normal, and a
going-out score ``s`` becomes ``s`` plus [`house_adjustment`][golfsim.agents.expected_value.house_adjustment]:
``blackjack`` (21 becomes 0), ``knock_penalty`` (+10 times the chance the opponent is below), ``tied_shame`` (+5
times the chance of a tie; with more than two players only, since at two a tie costs both alike). A blind reveal,
flip or knock takes that over each rank the card may be. ``knock_bonus`` (-5) counts only against the opponents (the
``count_out`` limit), not in the value: continuing usually earns it later, and valued in full it made ev go out
early and score worse; ``underdog_bonus`` is not valued, for the same reason (measured 1.3 points a hole worse).
``knock_early``: ``KNOCK`` is valued as going out by revealing every face-down card (their expected score, adjusted
as above, under the same limit) and played only when strictly better than every other move. In the last-turn
circuit the table rules are not valued. ``one_eyed_jacks``: a one-eyed jack (code 14, 0 points) pairs with any
jack, so pairs, four of a kind, wolfpack and tip (d) compare ranks, and a jack's counts (its pair chance, ``u_a``)
take both jack codes. With the rules off nothing changes.

Every action's value
--------------------
[`ev_action_values`][golfsim.agents.expected_value.ev_action_values] writes the value ev gives each legal action (the
numbers the decision rule compares), for hints; ev plays the lowest, with the tie-breaks above.

Parameters
----------
pair_weight : float, default 1
    Weight of the pair chance in column values (0: no look-ahead, only immediate expectations).
horizon : float, default 2.5
    Expected own turns per face-down card of the opponent closest to going out.
count_out : float, default 1
    Tip (e) "count before you go out": 1 goes out only when not behind (see above); 0 goes out whenever that has
    the best own expected score.
out_margin : float, default 0
    How many points behind the best opponent's estimate going out is still allowed (with ``count_out=1``).
watch_discard : float, default 0.25
    Tip (d) "watch the discard pile": weight of the next player's pair saving on a card this action leaves on the
    discard pile; 0 turns the tip off.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from golfsim._numba.jit import hot, leaf, leaf_taking_functions
from golfsim._numba.stack import stack_int16
from golfsim.agents.base import Param
from golfsim.agents.common import (
    STALL_HIDDEN,
    draw_offset,
    flip_choice,
    min_opponent_face_down,
    normal_below,
    opening_flip,
    pair_score,
    rank_count,
    rank_mate,
    stalled,
)
from golfsim.core.cards import JACK, JOKER, ONE_EYED_JACK, TWO
from golfsim.core.engine import (
    WOLFPACK_BONUS,
    column_score,
    face_down_count,
    rank_of,
    same_rank,
    score_cards,
    top_discard,
)
from golfsim.core.spec import (
    DRAW_STOCK,
    ENDER,
    FINAL_LEFT,
    FLIP,
    FLIP_PHASE,
    HELD,
    HOLD,
    HOLE,
    KNOCK,
    OPEN,
    PASS,
    PHASE,
    PLACE_DRAWN,
    R_BLACKJACK,
    R_CODES,
    R_DISCARD_FLIP,
    R_EAGLE_EYE,
    R_END,
    R_FOUR_BONUS,
    R_HOLE_RULES,
    R_HOLES,
    R_KNOCK_BONUS,
    R_KNOCK_EARLY,
    R_KNOCK_PENALTY,
    R_OFF_STOCK_KNOWN,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    R_POINTS,
    R_REVEAL,
    R_TIED_SHAME,
    R_TWOS_KEEP,
    R_WOLFPACK,
    RECYCLES,
    REVEAL,
    START,
    STOCK_N,
    TAKE_DISCARD,
    THROW_DRAWN,
)

PARAMS = (
    Param("pair_weight", 1.0, "weight of the chance to complete a column pair later (0: immediate expectation)",
          minimum=0, maximum=10),
    Param("horizon", 2.5, "expected own turns per face-down card of the opponent closest to going out",
          minimum=0, maximum=100),
    Param("count_out", 1.0, "tip (e): 1 goes out only when not behind the best opponent's estimate; 0 ignores them",
          kind="bool"),
    Param("out_margin", 0.0, "points behind the best opponent's estimate at which going out is still allowed",
          minimum=-100, maximum=100),
    Param("watch_discard", 0.25, "tip (d): weight of the next player's pair gain on a card left on the discard; 0 off",
          minimum=0, maximum=10),
)
PAIR_WEIGHT, HORIZON, COUNT_OUT, OUT_MARGIN, WATCH_DISCARD = range(5)

BIG = 1e9
STALL = STALL_HIDDEN

DecisionContext = namedtuple("DecisionContext",
                             "mu hh inv_u nd w c0 c1 c2 now stall last limit fin_rest blind_out opp sd knock")
DecisionContext.__doc__ = """What every valuation of one decision starts from
([`decision_context`][golfsim.agents.expected_value.decision_context]).

- ``mu``, ``hh``, ``inv_u``, ``nd``, ``w`` ([`counting`][golfsim.agents.expected_value.counting]): mean points of an
  unseen card, expected value of a column of two face-down cards, ``1 / U``, expected draws per stock card of a rank,
  and the pair weight in force;
- ``c0``, ``c1``, ``c2``: the values of the player's three columns, and ``now``, the layout's value;
- ``stall``: the bonus for covering a face-down card (non-zero once the deal has
[`stalled`][golfsim.agents.common.stalled]);
- ``last``: the position of the one face-down card left (int, -1 when there are more or none); then ``limit``
  ([`out_limit`][golfsim.agents.expected_value.out_limit]), the highest final score allowed when going out,
  ``fin_rest``, the final score of the other two columns, and ``blind_out``, the value of exposing the last card blind
  (``BIG`` when not allowed);
- ``opp`` and ``sd``: the best opponent's estimated hole score and its spread, from which going out is given the
  house rules' expected adjustment ([`house_adjustment`][golfsim.agents.expected_value.house_adjustment]); ``sd`` is 0
  when no house rule that compares the table's scores applies (then nothing is added);
- ``knock``: the value of ``KNOCK`` with ``knock_early`` (``BIG`` when it is not legal or not allowed).
"""

NO_RANKS = (-1, -1, -1, -1, -1, -1)
NO_GAINS = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
DiscardWatch = namedtuple("DiscardWatch", "needed pen_unseen ranks gains")
DiscardWatch.__doc__ = """Tip (d), what the next player needs from the discard pile
([`discard_watch`][golfsim.agents.expected_value.discard_watch]): ``needed`` (bit ``r`` set when a card of rank ``r``
completes one of their pairs), ``pen_unseen`` (the weighted expected penalty of leaving an unseen card), ``ranks`` and
``gains`` (six each: the points a card of ``ranks[j]`` saves them); all zero (ranks -1) when the tip does not apply."""


# ---------------------------------------------------------------- column and layout values
@leaf
def pair_chance(x):
    """``1 - 1 / (1 + x + x**2 / 2)``: about the chance that at least one of ``x`` expected matches arrives."""
    return x * (1.0 + 0.5 * x) / (1.0 + x + 0.5 * x * x)


@leaf
def rank_chance(pub, rules, rank, nd, w):
    """Pair chance of ``rank``: ``q(nd * count)`` with ``count`` the cards of ``rank`` a draw may still bring (0
    when ``w`` is 0 or ``rank`` is face down); with ``one_eyed_jacks`` both jack codes count for a jack."""
    if w == 0.0 or rank < 0:
        return 0.0
    return pair_chance(nd * rank_count(pub, rules, draw_offset(pub, rules), rank))


@leaf
def match_loss(pub, rules, r, pr, pair_r, inv_u):
    """How much a face-down card under or over the face-up ``r`` (``pr`` points, pair score ``pair_r``) is expected
    to save by pairing it: ``u_r / U (2 pr - pair_r)``, plus, with ``one_eyed_jacks``, ``u_m / U (pr + points(m) -
    pair_r)`` for the other jack code ``m`` of a jack's rank."""
    ou = rules[R_OFF_UNSEEN]
    loss = pub[ou + r] * inv_u * (2 * pr - pair_r)
    m = rank_mate(rules, r)
    if m >= 0:
        loss += pub[ou + m] * inv_u * (pr + rules[R_POINTS + m] - pair_r)
    return loss


@leaf
def column_with(pub, rules, r, p, mu, inv_u, q_r, w):
    """Value of a column holding the face-up card ``r`` and the partner ``p`` (a rank, or -1 face down), where
    ``q_r`` is the pair chance of ``r`` (see the module docstring)."""
    if p >= 0:
        return float(column_score(r, p, rules))
    pr = rules[R_POINTS + r]
    pair_r = pair_score(rules, r)
    e = pr + mu - match_loss(pub, rules, r, pr, pair_r, inv_u)
    g = pr + mu - pair_r
    if g > 0.0:
        e -= w * q_r * g
    return e


@leaf
def column_value(pub, rules, a, b, mu, hh, inv_u, nd, w):
    """Value of a column with cards ``a`` over ``b`` (rank, or -1 face down); ``nd`` is the expected number of
    draws of each stock card in the agent's remaining turns and ``w`` the pair weight (0: the expected final score
    of the column)."""
    if a < 0:
        if b < 0:
            return hh
        a, b = b, a
    return column_with(pub, rules, a, b, mu, inv_u, rank_chance(pub, rules, a, nd, w), w)


@leaf
def _card(pub, base, k, over_k, over_card):
    return over_card if k == over_k else pub[base + k]


@hot
def bonus_value(pub, rules, base, over_k, over_card, inv_u, nd, w):
    """Expected ``four_of_a_kind_bonus`` of a layout (see the module docstring)."""
    bonus = rules[R_FOUR_BONUS]
    p0 = -1
    p1 = -1
    for c in range(3):
        a = _card(pub, base, c, over_k, over_card)
        b = _card(pub, base, c + 3, over_k, over_card)
        if a >= 0 and same_rank(a, b):
            r = rank_of(a)
            if r == p0:
                return float(bonus)
            if p0 < 0:
                p0 = r
            else:
                p1 = r
    if p0 < 0:
        return 0.0
    chance = 0.0
    for c in range(3):
        a = _card(pub, base, c, over_k, over_card)
        b = _card(pub, base, c + 3, over_k, over_card)
        if (a < 0) != (b < 0):
            up = a if a >= 0 else b
            if rank_of(up) == p0 or rank_of(up) == p1:
                chance += rank_count(pub, rules, rules[R_OFF_UNSEEN], up) * inv_u + w * rank_chance(pub, rules, up, nd,
                                                                                                    1.0)
    return bonus * min(chance, 1.0)


@leaf
def has_bonus(rules):
    """Whether a layout can earn a bonus (``four_of_a_kind_bonus`` or ``wolfpack``): then ev values layouts with the
    plain reference code ([`layout_value`][golfsim.agents.expected_value.layout_value])."""
    return rules[R_FOUR_BONUS] != 0 or rules[R_WOLFPACK] == 1


@hot
def wolf_value(pub, rules, base, over_k, over_card, inv_u, nd, w):
    """Expected ``wolfpack`` bonus of a layout: ``WOLFPACK_BONUS`` with two face-up column pairs of jacks; with one,
    in expectation for a face-up jack over a face-down card, as ``four_of_a_kind_bonus`` is in
    [`bonus_value`][golfsim.agents.expected_value.bonus_value] (the chance ``u_J / U`` plus the pair chance, at most
    1)."""
    pairs = 0
    for c in range(3):
        if (rank_of(_card(pub, base, c, over_k, over_card)) == JACK
                and rank_of(_card(pub, base, c + 3, over_k, over_card)) == JACK):
            pairs += 1
    if pairs >= 2:
        return float(WOLFPACK_BONUS)
    if pairs == 0:
        return 0.0
    chance = 0.0
    for c in range(3):
        a = _card(pub, base, c, over_k, over_card)
        b = _card(pub, base, c + 3, over_k, over_card)
        if (a < 0) != (b < 0) and (rank_of(a) == JACK or rank_of(b) == JACK):
            chance += rank_count(pub, rules, rules[R_OFF_UNSEEN], JACK) * inv_u + w * rank_chance(pub, rules, JACK, nd,
                                                                                                   1.0)
    return WOLFPACK_BONUS * min(chance, 1.0)


@leaf
def layout_bonus(pub, rules, base, over_k, over_card, inv_u, nd, w):
    """Expected bonuses of a layout: [`bonus_value`][golfsim.agents.expected_value.bonus_value] plus, with
    ``wolfpack``, [`wolf_value`][golfsim.agents.expected_value.wolf_value] (the two stack, as in the engine)."""
    v = bonus_value(pub, rules, base, over_k, over_card, inv_u, nd, w) if rules[R_FOUR_BONUS] != 0 else 0.0
    if rules[R_WOLFPACK] == 1:
        v += wolf_value(pub, rules, base, over_k, over_card, inv_u, nd, w)
    return v


@hot
def layout_value(pub, rules, base, over_k, over_card, mu, hh, inv_u, nd, w, drawn=False):
    """Value of the layout at ``pub[base:base + 6]`` with ``over_card`` put at ``over_k`` (-1: unchanged).

    ``drawn``: ``over_card`` is a hypothetical stock draw, so one card fewer of its rank is left to come (the pair
    chance of its new column counts one fewer).
    """
    total = 0.0
    for c in range(3):
        a = _card(pub, base, c, over_k, over_card)
        b = _card(pub, base, c + 3, over_k, over_card)
        if drawn and c == over_k % 3 and (a < 0) != (b < 0):
            left = rank_count(pub, rules, draw_offset(pub, rules), over_card) - 1
            total += column_with(pub, rules, over_card, -1, mu, inv_u, pair_chance(nd * left) if w != 0.0 else 0.0, w)
        else:
            total += column_value(pub, rules, a, b, mu, hh, inv_u, nd, w)
    if has_bonus(rules):
        total += layout_bonus(pub, rules, base, over_k, over_card, inv_u, nd, w)
    return total


@leaf
def _pick3(c0, c1, c2, i):
    if i == 0:
        return c0
    if i == 1:
        return c1
    return c2


# ---------------------------------------------------------------- the agent's view of one decision
@leaf
def counting(pub, rules, params, player):
    """``(mu, hh, inv_u, nd, w)``: mean points of an unseen card, expected value of a column of two face-down
    cards, ``1 / U``, expected draws per stock card of a rank (``n / S``) and the pair weight in force."""
    ou = rules[R_OFF_UNSEEN]
    n_unseen = 0
    sum_points = 0
    same = 0
    for r in range(rules[R_CODES]):
        u = pub[ou + r]
        pr = rules[R_POINTS + r]
        n_unseen += u
        sum_points += u * pr
        same += u * (u - 1) * pr
    if rules[R_CODES] > ONE_EYED_JACK:  # a jack over a one-eyed jack pairs too: u_J u_J0 such pairs each way
        same += pub[ou + JACK] * pub[ou + ONE_EYED_JACK] * (rules[R_POINTS + JACK] + rules[R_POINTS + ONE_EYED_JACK])
    same *= 2
    if rules[R_TWOS_KEEP] == 1:
        u = pub[ou + TWO]
        same -= u * (u - 1) * pair_score(rules, TWO)
    if rules[R_EAGLE_EYE] == 1:  # a pair of jokers scores -4, not 0
        u = pub[ou + JOKER]
        same -= u * (u - 1) * pair_score(rules, JOKER)
    inv_u = 1.0 / n_unseen if n_unseen > 0 else 0.0
    mu = sum_points * inv_u
    hh = 2.0 * mu - (same / (n_unseen * (n_unseen - 1)) if n_unseen > 1 else 0.0)
    if pub[ENDER] >= 0:
        return mu, hh, inv_u, 0.0, 0.0
    n_draw = n_unseen
    if pub[RECYCLES] > 0:
        n_draw = 0
        for r in range(rules[R_CODES]):
            n_draw += pub[rules[R_OFF_STOCK_KNOWN] + r]
    w = params[PAIR_WEIGHT]
    nd = params[HORIZON] * min_opponent_face_down(pub, rules, player) / n_draw if n_draw > 0 else 0.0
    return mu, hh, inv_u, nd if w != 0.0 else 0.0, w


@leaf
def _partner_score(pub, rules, base, k, now, c0, c1, c2, last, stall):
    """``now - c(k) - stall`` for a position ``k`` whose partner is face up (``BIG`` otherwise or at ``last``): the
    layout value once column ``k % 3`` is taken out, to which the new column's score is added."""
    if k == last or pub[base + (k + 3) % 6] < 0:
        return BIG
    x = now - _pick3(c0, c1, c2, k % 3)
    if pub[base + k] < 0:
        x -= stall
    return x


@leaf
def draw_value(pub, rules, base, throw, ctx):
    """Expected value of drawing for the layout at ``base`` with column values ``ctx.c0, c1, c2`` (a
    `DecisionContext`): over the draw distribution, the best of ``throw`` and placing the card at each
    position. ``ctx.last`` (-1 for none) is the last face-down position: covering it goes out with the final score
    ``fin_rest + column_score(card, partner)``, allowed up to ``limit``; ``stall`` is subtracted from every move that
    covers a face-down card.

    Placements are grouped so that each rank costs a few operations: every position whose partner is face down
    gives the same new column (only the best old column matters), and next to a face-up partner ``p`` the new
    column scores ``points(card) + points(p)`` unless the card pairs ``p``. Rules without a
    ``four_of_a_kind_bonus`` only: [`draw_value_reference`][golfsim.agents.expected_value.draw_value_reference] values
    those."""
    c0, c1, c2, mu, inv_u, nd, w = ctx.c0, ctx.c1, ctx.c2, ctx.mu, ctx.inv_u, ctx.nd, ctx.w
    last, fin_rest, stall = ctx.last, ctx.fin_rest, ctx.stall
    now = c0 + c1 + c2
    top_h = -BIG  # best old column (plus stall) among positions with a face-down partner; -BIG: none
    for k in range(6):
        if k != last and pub[base + (k + 3) % 6] < 0:
            o = _pick3(c0, c1, c2, k % 3) + (stall if pub[base + k] < 0 else 0.0)
            if o > top_h:
                top_h = o
    x = (_partner_score(pub, rules, base, 0, now, c0, c1, c2, last, stall),
         _partner_score(pub, rules, base, 1, now, c0, c1, c2, last, stall),
         _partner_score(pub, rules, base, 2, now, c0, c1, c2, last, stall),
         _partner_score(pub, rules, base, 3, now, c0, c1, c2, last, stall),
         _partner_score(pub, rules, base, 4, now, c0, c1, c2, last, stall),
         _partner_score(pub, rules, base, 5, now, c0, c1, c2, last, stall))
    # best unpaired placement next to a face-up partner: a1 (partner rank p1), and a2 among other partner ranks
    a1 = BIG
    p1 = -1
    for k in range(6):
        if x[k] < BIG:
            p = pub[base + (k + 3) % 6]
            v = x[k] + rules[R_POINTS + p]
            if v < a1:
                a1 = v
                p1 = p
    a2 = BIG
    for k in range(6):
        if x[k] < BIG:
            p = pub[base + (k + 3) % 6]
            if not same_rank(p, p1):
                v = x[k] + rules[R_POINTS + p]
                if v < a2:
                    a2 = v
    # completing a pair next to face-up partner p: (rank, value) per position, rank -1 when not possible
    o0, v0 = _pair_option(pub, rules, base, 0, x[0])
    o1, v1 = _pair_option(pub, rules, base, 1, x[1])
    o2, v2 = _pair_option(pub, rules, base, 2, x[2])
    o3, v3 = _pair_option(pub, rules, base, 3, x[3])
    o4, v4 = _pair_option(pub, rules, base, 4, x[4])
    o5, v5 = _pair_option(pub, rules, base, 5, x[5])
    # ranks, not codes, decide a pair (one_eyed_jacks): each option's rank once, outside the code loop
    o0, o1, o2, o3, o4, o5 = rank_of(o0), rank_of(o1), rank_of(o2), rank_of(o3), rank_of(o4), rank_of(o5)
    q1 = rank_of(p1)
    p_last = pub[base + (last + 3) % 6] if last >= 0 else -1
    pair2 = float(pair_score(rules, TWO))
    dof = draw_offset(pub, rules)
    total = 0.0
    n_draw = 0
    # the code loop has no data-dependent branches: absent codes weigh 0, options are chosen with min(); a pair is
    # of one rank (a one-eyed jack pairs with a jack, one_eyed_jacks), and the pair chance counts the whole rank
    for r in range(rules[R_CODES]):
        cnt = pub[dof + r]
        pr = rules[R_POINTS + r]
        pair_r = pair2 if r == TWO else 0.0
        g = pr + mu - pair_r
        left = rank_count(pub, rules, dof, r) - 1
        new_hidden = pr + mu - match_loss(pub, rules, r, pr, pair_r, inv_u) - w * pair_chance(nd * left) * max(g, 0.0)
        rr = rank_of(r)
        best = min(throw, now - top_h + new_hidden)
        best = min(best, pr + (a2 if rr == q1 else a1))
        best = min(best, v0 if o0 == rr else BIG)
        best = min(best, v1 if o1 == rr else BIG)
        best = min(best, v2 if o2 == rr else BIG)
        best = min(best, v3 if o3 == rr else BIG)
        best = min(best, v4 if o4 == rr else BIG)
        best = min(best, v5 if o5 == rr else BIG)
        if last >= 0:
            best = min(best, out_value(rules, fin_rest + column_score(r, p_last, rules), ctx) - stall)
        total += cnt * best
        n_draw += cnt
    return total / n_draw if n_draw > 0 else throw


@leaf
def _pair_option(pub, rules, base, k, x_k):
    """``(rank, value)``: drawing the rank of the face-up partner of ``k`` and putting it at ``k`` completes the
    pair, worth ``x_k + pair_score``; rank -1 when ``k`` has no face-up partner (``x_k`` is ``BIG``)."""
    if x_k >= BIG:
        return -1, BIG
    p = pub[base + (k + 3) % 6]
    return p, x_k + pair_score(rules, p)


@hot
def draw_value_reference(pub, rules, base, throw, ctx):
    """[`draw_value`][golfsim.agents.expected_value.draw_value] written plainly, every placement valued with
    [`layout_value`][golfsim.agents.expected_value.layout_value] (used with ``four_of_a_kind_bonus``, and by the tests
    as the reference for the fast version). It takes the same arguments and ignores ``ctx.c0, c1, c2`` and ``fin_rest``,
    which it recomputes."""
    mu, hh, inv_u, nd, w = ctx.mu, ctx.hh, ctx.inv_u, ctx.nd, ctx.w
    last, stall = ctx.last, ctx.stall
    dof = draw_offset(pub, rules)
    total = 0.0
    n_draw = 0
    for r in range(rules[R_CODES]):
        cnt = pub[dof + r]
        if cnt <= 0:
            continue
        n_draw += cnt
        best = throw
        for k in range(6):
            if k == last:
                v = out_value(rules, layout_value(pub, rules, base, k, r, mu, hh, inv_u, 0.0, 0.0), ctx) - stall
            else:
                v = layout_value(pub, rules, base, k, r, mu, hh, inv_u, nd, w, True)
                if pub[base + k] < 0:
                    v -= stall
            if v < best:
                best = v
        total += cnt * best
    return total / n_draw if n_draw > 0 else throw


# ---------------------------------------------------------------- opponents and going out
@leaf_taking_functions
def opponent_estimate(pub, rules, q, mu, hh, inv_u, draw):
    """Player ``q``'s estimated final score this hole: face-up cards plus the expectation of face-down ones, minus the
    expected gain of one draw (valued with ``draw``, see [`ev_decide`][golfsim.agents.expected_value.ev_decide]) with
    ``one_last_turn`` before anyone went out."""
    base = rules[R_OFF_VIEW] + 6 * q
    c0 = column_value(pub, rules, pub[base], pub[base + 3], mu, hh, inv_u, 0.0, 0.0)
    c1 = column_value(pub, rules, pub[base + 1], pub[base + 4], mu, hh, inv_u, 0.0, 0.0)
    c2 = column_value(pub, rules, pub[base + 2], pub[base + 5], mu, hh, inv_u, 0.0, 0.0)
    est = c0 + c1 + c2
    if has_bonus(rules):
        est += layout_bonus(pub, rules, base, -1, 0, inv_u, 0.0, 0.0)
    if rules[R_END] == 1 and pub[ENDER] < 0:
        # their last draw: no look-ahead, no going-out limit, no stall bonus, no house rules
        est = draw(pub, rules, base, est, DecisionContext(mu, hh, inv_u, 0.0, 0.0, c0, c1, c2, est, 0.0,
                                                          np.int64(-1), BIG, 0.0, BIG, 0.0, 0.0, BIG))
    return est


@leaf_taking_functions
def opponents_estimate(pub, rules, player, mu, hh, inv_u, draw):
    """The lowest estimated final score among the opponents
    ([`opponent_estimate`][golfsim.agents.expected_value.opponent_estimate]), game totals added on the last hole."""
    last_hole = pub[HOLE] == rules[R_HOLES] - 1
    best = 1e18
    for q in range(rules[R_PLAYERS]):
        if q == player:
            continue
        est = opponent_estimate(pub, rules, q, mu, hh, inv_u, draw)
        if last_hole:
            est += pub[rules[R_OFF_TOTALS] + q]
        if est < best:
            best = est
    return best


@leaf_taking_functions
def opponents_hole(pub, rules, player, mu, hh, inv_u, draw):
    """``(opp, sd)``: the lowest estimated hole score among the opponents
    ([`opponent_estimate`][golfsim.agents.expected_value.opponent_estimate], no game totals) and its spread,
    ``sqrt((f + t) v)`` with ``f`` that opponent's face-down cards, ``t`` 1 when they still get a last turn and
    ``v`` the variance of an unseen card's points (at least 0.5)."""
    ou = rules[R_OFF_UNSEEN]
    n = 0
    s1 = 0.0
    s2 = 0.0
    for r in range(rules[R_CODES]):
        u = pub[ou + r]
        pr = rules[R_POINTS + r]
        n += u
        s1 += u * pr
        s2 += u * pr * pr
    v = s2 / n - (s1 / n) ** 2 if n > 0 else 0.0
    t = 1 if rules[R_END] == 1 and pub[ENDER] < 0 else 0
    best = 1e18
    down = 0
    for q in range(rules[R_PLAYERS]):
        if q == player:
            continue
        est = opponent_estimate(pub, rules, q, mu, hh, inv_u, draw)
        if est < best:
            best = est
            down = face_down_count(pub, rules, q)
    return best, max(math.sqrt((down + t) * v), 0.5)


@hot
def out_limit(pub, rules, params, player, opp):
    """Tip (e): the highest final score with which the agent may go out (``BIG`` when there is no limit): with
    ``count_out`` it is the best opponent's estimate ``opp`` plus ``out_margin``, less the agent's game total on
    the last hole (``opp`` then includes the opponents' totals)."""
    if params[COUNT_OUT] == 0.0 or pub[ENDER] >= 0 or stalled(pub, rules):
        return BIG
    limit = opp + params[OUT_MARGIN]
    if pub[HOLE] == rules[R_HOLES] - 1:
        limit -= pub[rules[R_OFF_TOTALS] + player]
    return limit


@leaf
def going_out_value(score, limit):
    """Value of an action that goes out with final score ``score``: the score, or ``BIG`` above ``limit``."""
    return score if score <= limit else BIG


@leaf
def house_adjustment(rules, score, opp, sd):
    """Expected change the house rules that compare the table's scores make to the hole score ``score`` (a whole
    number) of the player who goes out, against a best opponent whose hole score is about normal with mean ``opp`` and
    standard deviation ``sd`` (see the module docstring, "House rules"), in the engine's order: ``blackjack``,
    ``knock_penalty``, ``knock_bonus``, ``underdog_bonus``, ``tied_shame``."""
    b = 0.0 if rules[R_BLACKJACK] == 1 and score == 21.0 else score
    adj = b - score
    kp = rules[R_KNOCK_PENALTY] == 1
    kb = 5.0 if rules[R_KNOCK_BONUS] == 1 else 0.0
    lower = normal_below(b - 0.5, opp, sd)  # the opponent's score is below b: the knock penalty
    if kp:
        adj += 10.0 * lower
    adj -= kb
    # underdog_bonus is not valued: its -3 for being lowest is open to continuing as well, and counting it for going
    # out only made ev go out early (1.3 points a hole worse in 2,000 one-hole deals)
    # tied_shame at two players costs both players 5, which cannot change who is ahead: valued only with more
    if rules[R_TIED_SHAME] == 1 and rules[R_PLAYERS] > 2 and not (kp and kb > 0.0):
        t = b if kp else b - kb
        adj += 5.0 * (normal_below(t + 0.5, opp, sd) - normal_below(t - 0.5, opp, sd))
    return adj


@leaf
def out_value(rules, score, ctx):
    """Value of an action that goes out with the layout score ``score``: ``score`` plus, when ``ctx.sd`` is set, its
    [`house_adjustment`][golfsim.agents.expected_value.house_adjustment], or ``BIG`` above ``ctx.limit``."""
    if ctx.sd > 0.0:
        score = score + house_adjustment(rules, score, ctx.opp, ctx.sd)
        if rules[R_KNOCK_BONUS] == 1:
            # the -5 counts against the opponents (the limit) but not against continuing, which usually earns it
            # later: valued in full it made ev go out early and score worse
            return score + 5.0 if score <= ctx.limit else BIG
    return going_out_value(score, ctx.limit)


# ---------------------------------------------------------------- watching the discard pile
@leaf
def _column_needs(pub, rules, a, b, mu, inv_u):
    """``(rank_a, gain_a, rank_b, gain_b)`` for one column of the next player: the points a card of each face-up
    rank would save them by completing the column pair (rank -1 when there is nothing to complete)."""
    if same_rank(a, b):  # a pair already, or both face down
        return -1, 0.0, -1, 0.0
    if a < 0:
        a, b = b, a
    value = column_with(pub, rules, a, b, mu, inv_u, 0.0, 0.0)
    gain_a = max(value - pair_score(rules, a), 0.0)
    if b < 0:
        return a, gain_a, -1, 0.0
    return a, gain_a, b, max(value - pair_score(rules, b), 0.0)


@leaf
def needs(pub, rules, player, mu, inv_u):
    """What ``player`` needs from the discard pile: ``(mask, expected, ranks, gains)``. Bit ``r`` of ``mask`` is
    set when a card of rank ``r`` would complete one of their column pairs, saving ``gains[j]`` points for each
    ``ranks[j] == r``; ``expected`` is the expected saving of an unseen card."""
    base = rules[R_OFF_VIEW] + 6 * player
    r0, g0, r1, g1 = _column_needs(pub, rules, pub[base], pub[base + 3], mu, inv_u)
    r2, g2, r3, g3 = _column_needs(pub, rules, pub[base + 1], pub[base + 4], mu, inv_u)
    r4, g4, r5, g5 = _column_needs(pub, rules, pub[base + 2], pub[base + 5], mu, inv_u)
    ranks = (r0, r1, r2, r3, r4, r5)
    gains = (g0, g1, g2, g3, g4, g5)
    ou = rules[R_OFF_UNSEEN]
    mask = 0
    expected = 0.0
    for j in range(6):
        r = ranks[j]
        if r >= 0:
            mask |= 1 << r
            m = rank_mate(rules, r)
            if m >= 0:  # one_eyed_jacks: either jack code completes a jack's pair
                mask |= 1 << m
            expected += rank_count(pub, rules, ou, r) * inv_u * gains[j]
    return mask, expected, ranks, gains


@leaf
def need_gain(ranks, gains, card):
    """Points ``card`` saves the next player (from [`needs`][golfsim.agents.expected_value.needs]); 0 when it completes
    none of their pairs."""
    best = 0.0
    for j in range(6):
        if same_rank(ranks[j], card) and gains[j] > best:
            best = gains[j]
    return best


@leaf
def watch_applies(pub, rules, params, goes_out):
    """Whether the next player gets a turn after this action, so that tip (d) applies."""
    if params[WATCH_DISCARD] == 0.0:
        return False
    if pub[ENDER] >= 0:
        return pub[FINAL_LEFT] > 1
    return not (goes_out and rules[R_END] == 0)


@hot
def discard_penalty(pub, rules, params, player, card, goes_out, mu, hh, inv_u):
    """Tip (d): cost of leaving ``card`` (-1: an unseen card) on the discard pile for the next player."""
    if not watch_applies(pub, rules, params, goes_out):
        return 0.0
    nxt = (player + 1) % rules[R_PLAYERS]
    mask, expected, ranks, gains = needs(pub, rules, nxt, mu, inv_u)
    if card < 0:
        return params[WATCH_DISCARD] * expected
    return params[WATCH_DISCARD] * need_gain(ranks, gains, card)


# ---------------------------------------------------------------- the agent
@hot
def place_value_reference(pub, rules, base, k, card, ctx):
    """Value of putting ``card`` at position ``k`` of the agent's layout before tip (d), the whole layout valued
    again with [`layout_value`][golfsim.agents.expected_value.layout_value] (used with a bonus and as the tests'
    reference); of the `DecisionContext` ``ctx`` it reads the counting, ``last``, ``stall`` and the going-out
    fields."""
    mu, hh, inv_u = ctx.mu, ctx.hh, ctx.inv_u
    if k == ctx.last:
        return out_value(rules, layout_value(pub, rules, base, k, card, mu, hh, inv_u, 0.0, 0.0), ctx) - ctx.stall
    v = layout_value(pub, rules, base, k, card, mu, hh, inv_u, ctx.nd, ctx.w)
    if pub[base + k] < 0:
        v -= ctx.stall
    return v


@hot
def best_placement_reference(pub, rules, params, player, base, card, best, ctx, watch):
    """[`best_placement`][golfsim.agents.expected_value.best_placement] written plainly with
    [`place_value_reference`][golfsim.agents.expected_value.place_value_reference] (with ``four_of_a_kind_bonus``, and
    the tests' reference). It takes the same arguments and recomputes what ``ctx`` and ``watch`` summarise."""
    mu, hh, inv_u = ctx.mu, ctx.hh, ctx.inv_u
    action = -1
    for k in range(6):
        v = place_value_reference(pub, rules, base, k, card, ctx)
        v += discard_penalty(pub, rules, params, player, pub[base + k], k == ctx.last, mu, hh, inv_u)
        if v < best:
            best = v
            action = k
    return action, best


@leaf
def best_placement(pub, rules, params, player, base, card, best, ctx, watch):
    """``(position, value)`` of the best placement of ``card`` if its value is below ``best`` (else position -1),
    given the decision's `DecisionContext` ``ctx``, tip (d) included (``watch``, a `DiscardWatch`); ties
    go to the lowest position. Written with few
    branches: the positions' outcomes are hard to predict, and mispredicted branches cost more than the
    arithmetic. Rules without a ``four_of_a_kind_bonus`` only:
    [`best_placement_reference`][golfsim.agents.expected_value.best_placement_reference] values those."""
    c0, c1, c2, mu, inv_u, nd, w = ctx.c0, ctx.c1, ctx.c2, ctx.mu, ctx.inv_u, ctx.nd, ctx.w
    last, fin_rest, stall = ctx.last, ctx.fin_rest, ctx.stall
    needed, pen_unseen, ranks, gains = watch.needed, watch.pen_unseen, watch.ranks, watch.gains
    weight = params[WATCH_DISCARD]
    pr = rules[R_POINTS + card]
    pair_c = float(pair_score(rules, card))
    new_hidden = column_with(pub, rules, card, -1, mu, inv_u, rank_chance(pub, rules, card, nd, w), w)
    total = c0 + c1 + c2
    action = -1
    for k in range(6):
        p = pub[base + (k + 3) % 6]
        x = pub[base + k]
        new_known = pair_c if same_rank(p, card) else float(pr + rules[R_POINTS + (p if p > 0 else 0)])
        v = total - _pick3(c0, c1, c2, k % 3) + (new_known if p >= 0 else new_hidden)
        v += pen_unseen - stall if x < 0 else 0.0
        if x >= 0 and (needed >> x) & 1:
            v += weight * need_gain(ranks, gains, x)
        if k == last:
            v = out_value(rules, fin_rest + column_score(card, p, rules), ctx) - stall
            if watch_applies(pub, rules, params, True):
                v += pen_unseen
        if v < best:
            best = v
            action = k
    return action, best


@leaf_taking_functions
def decision_context(pub, rules, params, player, draw):
    """The `DecisionContext` a decision of ``player`` starts from (``draw`` values the opponents' draws, see
    [`ev_decide`][golfsim.agents.expected_value.ev_decide])."""
    base = rules[R_OFF_VIEW] + 6 * player
    mu, hh, inv_u, nd, w = counting(pub, rules, params, player)
    c0 = column_value(pub, rules, pub[base], pub[base + 3], mu, hh, inv_u, nd, w)
    c1 = column_value(pub, rules, pub[base + 1], pub[base + 4], mu, hh, inv_u, nd, w)
    c2 = column_value(pub, rules, pub[base + 2], pub[base + 5], mu, hh, inv_u, nd, w)
    now = c0 + c1 + c2
    if has_bonus(rules):
        now += layout_bonus(pub, rules, base, -1, 0, inv_u, nd, w)
    stall = STALL if stalled(pub, rules) else 0.0
    last = np.int64(-1)
    limit = BIG
    fin_rest = 0.0
    blind_out = BIG
    opp = 0.0
    sd = 0.0
    knock = BIG
    down = face_down_count(pub, rules, player)
    knocks = rules[R_KNOCK_EARLY] == 1 and pub[PHASE] == START and 1 <= down <= 2
    if down == 1 or knocks:
        if params[COUNT_OUT] != 0.0:
            limit = out_limit(pub, rules, params, player, opponents_estimate(pub, rules, player, mu, hh, inv_u, draw))
        if rules[R_HOLE_RULES] != 0 and pub[ENDER] < 0:
            opp, sd = opponents_hole(pub, rules, player, mu, hh, inv_u, draw)
    if down == 1:
        for k in range(6):
            if pub[base + k] < 0:
                last = k
        f0 = column_value(pub, rules, pub[base], pub[base + 3], mu, hh, inv_u, 0.0, 0.0)
        f1 = column_value(pub, rules, pub[base + 1], pub[base + 4], mu, hh, inv_u, 0.0, 0.0)
        f2 = column_value(pub, rules, pub[base + 2], pub[base + 5], mu, hh, inv_u, 0.0, 0.0)
        final_now = f0 + f1 + f2
        fin_rest = final_now - _pick3(f0, f1, f2, last % 3)
        if has_bonus(rules):
            final_now += layout_bonus(pub, rules, base, -1, 0, inv_u, 0.0, 0.0)
        if sd > 0.0:  # the house adjustment is not linear: taken over each rank the card may be
            final_now = reveal_all_value(pub, rules, base, opp, sd)
        blind_out = going_out_value(final_now, limit) - stall
        if knocks:
            knock = blind_out
    elif knocks:
        knock = going_out_value(reveal_all_value(pub, rules, base, opp, sd), limit) - stall
    return DecisionContext(mu, hh, inv_u, nd, w, c0, c1, c2, now, stall, last, limit, fin_rest, blind_out, opp, sd,
                           knock)


@hot
def reveal_all_value(pub, rules, base, opp, sd):
    """Expected hole score of the layout at ``base`` once its one or two face-down cards are turned up, each rank
    weighed by its count in ``unseen`` (two cards: drawn without replacement), the house adjustment
    ([`house_adjustment`][golfsim.agents.expected_value.house_adjustment]) included when ``sd`` is non-zero."""
    cards = stack_int16(6)
    i = -1
    j = -1
    for k in range(6):
        cards[k] = pub[base + k]
        if cards[k] < 0:
            if i < 0:
                i = k
            else:
                j = k
    ou = rules[R_OFF_UNSEEN]
    n = 0
    for r in range(rules[R_CODES]):
        n += pub[ou + r]
    total = 0.0
    for r in range(rules[R_CODES]):
        u = pub[ou + r]
        if u <= 0:
            continue
        cards[i] = r
        if j < 0:
            total += u * _final_score(rules, cards, opp, sd)
            continue
        for r2 in range(rules[R_CODES]):
            u2 = pub[ou + r2] - (1 if r2 == r else 0)
            if u2 > 0:
                cards[j] = r2
                total += u * u2 * _final_score(rules, cards, opp, sd)
    ways = n if j < 0 else n * (n - 1)
    return total / ways if ways > 0 else 0.0


@leaf
def _final_score(rules, cards, opp, sd):
    """The engine's score of the six known ``cards``, plus the house adjustment when ``sd`` is non-zero."""
    score = float(score_cards(cards, 0, rules))
    if sd > 0.0:
        score += house_adjustment(rules, score, opp, sd)
    return score


@leaf
def discard_watch(pub, rules, params, player, ctx):
    """The `DiscardWatch` of tip (d) for a decision of ``player``: what the next player needs."""
    if watch_applies(pub, rules, params, False):
        needed, pen_unseen, ranks, gains = needs(pub, rules, (player + 1) % rules[R_PLAYERS], ctx.mu, ctx.inv_u)
        return DiscardWatch(needed, pen_unseen * params[WATCH_DISCARD], ranks, gains)
    return DiscardWatch(np.int64(0), 0.0, NO_RANKS, NO_GAINS)


@leaf_taking_functions
def ev_decide(pub, rules, params, player, draw, place):
    """Decision of the expected-value agent (see the module docstring), valuing draws with ``draw`` and placements
    with ``place``: [`draw_value`][golfsim.agents.expected_value.draw_value] and
    [`best_placement`][golfsim.agents.expected_value.best_placement], or with a ``four_of_a_kind_bonus`` their plain
    references. Passing them as arguments compiles each pair on its own, so the common rules never compile the reference
    code (about a third of ev's compile time)."""
    phase = pub[PHASE]
    if phase == OPEN:
        return opening_flip(pub, rules, player)
    base = rules[R_OFF_VIEW] + 6 * player
    ctx = decision_context(pub, rules, params, player, draw)
    now, last, blind_out = ctx.now, ctx.last, ctx.blind_out
    must_flip_last = last >= 0 and rules[R_DISCARD_FLIP] == 2
    keep = blind_out if must_flip_last else now  # value of the layout after throwing a draw away

    if phase == FLIP_PHASE:
        if last >= 0:
            if rules[R_DISCARD_FLIP] == 2 or blind_out <= now:
                return FLIP + last
            return PASS
        return flip_choice(pub, rules, player, True)

    watch = discard_watch(pub, rules, params, player, ctx)  # tip (d): what the next player needs

    if phase == HOLD:
        card = pub[HELD]
        best = keep
        if (watch.needed >> card) & 1 and watch_applies(pub, rules, params, must_flip_last):
            best += params[WATCH_DISCARD] * need_gain(watch.ranks, watch.gains, card)
        k, best = place(pub, rules, params, player, base, card, best, ctx, watch)
        return THROW_DRAWN if k < 0 else PLACE_DRAWN + k

    if phase == START:
        k, best = place(pub, rules, params, player, base, top_discard(pub, rules), BIG * 10.0, ctx, watch)
        action = TAKE_DISCARD + k if k >= 0 else -1
        # a draw is never worse than throwing it away (``keep``), so its exact value is needed only when the
        # discard beats ``keep`` or a reveal or a knock competes; ties go to the draw
        if pub[STOCK_N] > 0:
            if best >= keep and rules[R_REVEAL] == 0 and ctx.knock >= keep:
                best = keep
                action = DRAW_STOCK
            else:
                v = draw(pub, rules, base, keep, ctx)
                if v <= best:
                    best = v
                    action = DRAW_STOCK
        if rules[R_REVEAL] == 1:
            for k in range(6):
                if pub[base + k] < 0:
                    v = blind_out if k == last else now + 1e-9 - ctx.stall
                    if v < best:
                        best = v
                        action = REVEAL + k
        if ctx.knock + 1e-9 < best:  # knock_early: only a strict gain, so an equal expectation keeps the draw
            best = ctx.knock
            action = KNOCK
        if action < 0:  # no stock and going out not allowed: the discard must still be used
            for k in range(6):
                if k != last:
                    return TAKE_DISCARD + k
        return action
    return THROW_DRAWN


@hot
def ev_act(pub, rules, params, agent_rng, player):
    """Decision of the expected-value agent under any rules (both valuations compiled in)."""
    if has_bonus(rules):
        return ev_decide(pub, rules, params, player, draw_value_reference, best_placement_reference)
    return ev_decide(pub, rules, params, player, draw_value, best_placement)


@hot
def ev_act_no_bonus(pub, rules, params, agent_rng, player):
    """[`ev_act`][golfsim.agents.expected_value.ev_act] compiled for rules without a bonus (``four_of_a_kind_bonus``,
    ``wolfpack``) only; under a bonus it returns -1, an illegal action, rather than play with the wrong valuation."""
    if has_bonus(rules):
        return -1
    return ev_decide(pub, rules, params, player, draw_value, best_placement)


@hot
def ev_act_bonus(pub, rules, params, agent_rng, player):
    """[`ev_act`][golfsim.agents.expected_value.ev_act] compiled for rules with a bonus (``four_of_a_kind_bonus``,
    ``wolfpack``) only (-1 without one)."""
    if not has_bonus(rules):
        return -1
    return ev_decide(pub, rules, params, player, draw_value_reference, best_placement_reference)


def ev_variant(rules):
    """ev's ``variant_for`` hook ([`golfsim.agents.base.register_compiled_agent`][]): the variant compiled for the
    packed ``rules``, so the common rules never compile the bonus valuation (about a third of ev's compile time) and the
    bonus rules never compile the fast one."""
    return ev_act_bonus if rules[R_FOUR_BONUS] != 0 or rules[R_WOLFPACK] == 1 else ev_act_no_bonus


# ---------------------------------------------------------------- every action's value (for hints)
@leaf
def place_value_at(pub, rules, params, player, base, card, k, ctx, watch):
    """ev's value of putting ``card`` at position ``k``, tip (d) included: one position of
    [`best_placement`][golfsim.agents.expected_value.best_placement] (rules without a ``four_of_a_kind_bonus``), the
    same arithmetic in the same order."""
    c0, c1, c2, mu, inv_u, nd, w = ctx.c0, ctx.c1, ctx.c2, ctx.mu, ctx.inv_u, ctx.nd, ctx.w
    last, fin_rest, stall = ctx.last, ctx.fin_rest, ctx.stall
    pr = rules[R_POINTS + card]
    total = c0 + c1 + c2
    p = pub[base + (k + 3) % 6]
    x = pub[base + k]
    if k == last:
        v = out_value(rules, fin_rest + column_score(card, p, rules), ctx) - stall
        if watch_applies(pub, rules, params, True):
            v += watch.pen_unseen
        return v
    if p >= 0:
        pairs = same_rank(p, card)
        new = float(pair_score(rules, card)) if pairs else float(pr + rules[R_POINTS + (p if p > 0 else 0)])
    else:
        new = column_with(pub, rules, card, -1, mu, inv_u, rank_chance(pub, rules, card, nd, w), w)
    v = total - _pick3(c0, c1, c2, k % 3) + new
    v += watch.pen_unseen - stall if x < 0 else 0.0
    if x >= 0 and (watch.needed >> x) & 1:
        v += params[WATCH_DISCARD] * need_gain(watch.ranks, watch.gains, x)
    return v


@leaf
def place_value_at_reference(pub, rules, params, player, base, card, k, ctx, watch):
    """[`place_value_at`][golfsim.agents.expected_value.place_value_at] for rules with a ``four_of_a_kind_bonus``: one
    position of [`best_placement_reference`][golfsim.agents.expected_value.best_placement_reference]."""
    v = place_value_reference(pub, rules, base, k, card, ctx)
    return v + discard_penalty(pub, rules, params, player, pub[base + k], k == ctx.last, ctx.mu, ctx.hh, ctx.inv_u)


@leaf_taking_functions
def _ev_values(pub, rules, params, player, values, draw, place_at):
    for a in range(values.shape[0]):
        values[a] = np.nan
    phase = pub[PHASE]
    if phase != START and phase != HOLD and phase != FLIP_PHASE:
        return
    base = rules[R_OFF_VIEW] + 6 * player
    ctx = decision_context(pub, rules, params, player, draw)
    now, last, blind_out = ctx.now, ctx.last, ctx.blind_out
    must_flip_last = last >= 0 and rules[R_DISCARD_FLIP] == 2
    keep = blind_out if must_flip_last else now
    if phase == FLIP_PHASE:
        if last >= 0:  # otherwise ev flips by a rule of thumb (golfsim.agents.common.flip_choice), valuing nothing
            values[FLIP + last] = blind_out
            if rules[R_DISCARD_FLIP] == 1 or rules[R_DISCARD_FLIP] == 3:  # may, endgame: passing is legal
                values[PASS] = now
        return
    watch = discard_watch(pub, rules, params, player, ctx)
    if phase == HOLD:
        card = pub[HELD]
        throw = keep
        if (watch.needed >> card) & 1 and watch_applies(pub, rules, params, must_flip_last):
            throw += params[WATCH_DISCARD] * need_gain(watch.ranks, watch.gains, card)
        values[THROW_DRAWN] = throw
        for k in range(6):
            values[PLACE_DRAWN + k] = place_at(pub, rules, params, player, base, card, k, ctx, watch)
        return
    card = top_discard(pub, rules)
    for k in range(6):
        values[TAKE_DISCARD + k] = place_at(pub, rules, params, player, base, card, k, ctx, watch)
    if pub[STOCK_N] > 0:
        values[DRAW_STOCK] = draw(pub, rules, base, keep, ctx)
    if rules[R_REVEAL] == 1:
        for k in range(6):
            if pub[base + k] < 0:
                values[REVEAL + k] = blind_out if k == last else now + 1e-9 - ctx.stall
    if rules[R_KNOCK_EARLY] == 1 and 1 <= face_down_count(pub, rules, player) <= 2:
        values[KNOCK] = ctx.knock


@hot
def ev_action_values(pub, rules, params, player, values):
    """ev's own value of every action of ``player`` now, written to ``values`` (length ``NUM_ACTIONS``).

    The unit is ev's: the expected final score of the player's layout this deal (lower is better) with its
    look-ahead (the chance of pairs to come), tip (d)'s discard penalty and the stall bonus, exactly the numbers
    [`ev_decide`][golfsim.agents.expected_value.ev_decide] compares. A going-out move that tip (e) forbids is worth
    ``BIG``. Actions ev does not value are NaN: illegal ones, the opening flips and, after a thrown draw with two or
    more face-down cards, the flips (ev picks one by a rule of thumb). ev plays the lowest value; ties go to the draw
    (START) or the throw (HOLD), then to the lowest position, and a flip of the last card beats a pass.
    """
    if has_bonus(rules):
        _ev_values(pub, rules, params, player, values, draw_value_reference, place_value_at_reference)
    else:
        _ev_values(pub, rules, params, player, values, draw_value, place_value_at)
