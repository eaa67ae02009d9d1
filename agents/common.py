"""Small compiled helpers shared by the built-in agents: card points, hidden-card statistics and the moves every
agent makes the same way (opening flips, the flip after a thrown draw).

Every function here reads only ``pub`` (the public state) and ``rules`` (``Rules.pack()``); none allocates.

Notation
--------
``view(p, k)`` is ``pub[rules[R_OFF_VIEW] + 6 * p + k]``: the rank at position ``k`` of player ``p``, or ``HIDDEN``
(-1) when face down. ``points(r)`` is ``rules[R_POINTS + r]`` (jokers and twos included, as the rules set them).
A *column pair* of rank ``r`` scores ``pair_score(r)``: 0, or twice a two's points with ``twos_pair=keep_negative``.
"""

from __future__ import annotations

import math

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.core.cards import JACK, JOKER, ONE_EYED_JACK, TWO
from golfsim.core.engine import EAGLE_EYE_PAIR, face_down_count, is_legal
from golfsim.core.spec import (
    ENDER,
    FLIP,
    FLIP_PHASE,
    OPEN,
    OPEN_FIRST,
    PASS,
    PHASE,
    R_CODES,
    R_DISCARD_FLIP,
    R_EAGLE_EYE,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_OPENING,
    R_PLAYERS,
    R_POINTS,
    R_TURN_CAP,
    R_TWOS_KEEP,
    RECYCLES,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
)


@leaf
def points(rules, rank):
    """Points of one card of ``rank`` under these rules."""
    return rules[R_POINTS + rank]


@leaf
def pair_score(rules, rank):
    """Score of a column holding two cards of ``rank``: 0, or ``2 * points(2)`` for twos with keep_negative, or -4
    for jokers with ``eagle_eye`` (``engine.column_score``'s pair rules)."""
    if rank == TWO and rules[R_TWOS_KEEP] == 1:
        return 2 * rules[R_POINTS + TWO]
    if rank == JOKER and rules[R_EAGLE_EYE] == 1:
        return EAGLE_EYE_PAIR
    return 0


@leaf
def normal_below(x, mean, sd):
    """Normal probability of a value below ``x`` (mean ``mean``, standard deviation ``sd``): how ev and learned take
    the best opponent's score when valuing the house rules that compare scores."""
    return 0.5 * (1.0 + math.erf((x - mean) / (sd * math.sqrt(2.0))))


@leaf
def rank_mate(rules, card):
    """The other card code of ``card``'s rank: with ``one_eyed_jacks`` a jack's is ``ONE_EYED_JACK`` and a one-eyed
    jack's is ``JACK``; -1 for every other card, and always without the rule (then every rank is one code)."""
    if rules[R_CODES] > ONE_EYED_JACK:
        return other_jack(card)
    return -1


@leaf
def other_jack(card):
    """``ONE_EYED_JACK`` for a jack, ``JACK`` for a one-eyed jack, -1 for every other card code (constants, which
    LLVM folds into the card indices they give)."""
    if card == JACK:
        return ONE_EYED_JACK
    if card == ONE_EYED_JACK:
        return JACK
    return -1


@leaf
def rank_count(pub, rules, off, card):
    """Cards of ``card``'s rank in the per-code counts at ``pub[off:]`` (``unseen`` or ``stock_known``): the count of
    ``card``'s code, plus, with ``one_eyed_jacks``, that of the other jack code
    ([`rank_mate`][golfsim.agents.common.rank_mate]). Without the rule it is ``pub[off + card]``."""
    n = np.int64(pub[off + card])
    m = rank_mate(rules, card)
    if m >= 0:
        n += pub[off + m]
    return n


@leaf
def better_alone(rules, rank):
    """True when two cards of ``rank`` score less apart than as a column pair (a two, or a negative joker).

    This is the rule behind "a lone two is worth more than a pair of twos": -2 + -2 apart, but 0 as a pair.
    """
    return pair_score(rules, rank) > 2 * rules[R_POINTS + rank]


@leaf
def hidden_stats(pub, rules):
    """``(count, point_sum)`` of the cards nobody has seen (``unseen``): a face-down card is uniform over them.

    The engine keeps both as running totals (``UNSEEN_CARDS``, ``UNSEEN_POINTS``), so this costs two reads.
    """
    return np.int64(pub[UNSEEN_CARDS]), np.int64(pub[UNSEEN_POINTS])


@leaf
def hidden_mean(pub, rules):
    """Mean points of a face-down card: the mean over the ``unseen`` counts (0.0 when nothing is unseen)."""
    n, s = hidden_stats(pub, rules)
    return mean_points(n, s)


@leaf
def mean_points(count, point_sum):
    """``point_sum / count``, or 0.0 for no cards: the mean points of ``count`` cards worth ``point_sum`` together."""
    return point_sum / count if count > 0 else 0.0


@leaf
def draw_offset(pub, rules):
    """Offset in ``pub`` of the counts a stock draw comes from: ``stock_known`` after a recycle, else ``unseen``."""
    return rules[R_OFF_STOCK_KNOWN] if pub[RECYCLES] > 0 else rules[R_OFF_UNSEEN]


@leaf
def min_opponent_face_down(pub, rules, player):
    """The fewest face-down cards any other player has (6 with no opponents)."""
    best = 6
    for q in range(rules[R_PLAYERS]):
        if q != player:
            c = face_down_count(pub, rules, q)
            if c < best:
                best = c
    return best


@hot
def opening_flip(pub, rules, player):
    """Opening flips: position 0 first, then the nearest legal position in another column (position 1), or the card
    below (position 3) when the rules require the same column. Flipping two columns gives two pair seeds."""
    first = pub[OPEN_FIRST]
    base = rules[R_OFF_VIEW] + 6 * player
    if first < 0:
        for k in range(6):
            if pub[base + k] < 0:
                return FLIP + k
    if rules[R_OPENING] == 1:
        return FLIP + (first + 3) % 6
    for k in range(6):
        if pub[base + k] < 0 and k % 3 != first % 3:
            return FLIP + k
    for k in range(6):
        if is_legal(pub, rules, FLIP + k):
            return FLIP + k
    return PASS


@hot
def flip_choice(pub, rules, player, flip_last):
    """The flip after a thrown stock draw (``discard_and_flip`` may/must).

    Flips the face-down card whose column partner is the face-up card with the most points (a face-down partner
    counts as below every card), ties to the lowest position. With ``discard_and_flip=may`` the last face-down
    card is flipped only when ``flip_last`` is true (flipping it goes out); otherwise the agent passes.
    """
    base = rules[R_OFF_VIEW] + 6 * player
    best_k = -1
    best_v = -1000
    hidden = 0
    for k in range(6):
        if pub[base + k] < 0:
            hidden += 1
            partner = pub[base + (k + 3) % 6]
            v = rules[R_POINTS + partner] if partner >= 0 else -999
            if v > best_v:
                best_v = v
                best_k = k
    if best_k < 0:
        return PASS
    if hidden == 1 and (rules[R_DISCARD_FLIP] == 1 or rules[R_DISCARD_FLIP] == 3) and not flip_last:
        return PASS
    return FLIP + best_k


@leaf
def flip_move(pub, rules, player):
    """The move greedy and pair-builder make alike when the phase is about flips:
    [`opening_flip`][golfsim.agents.common.opening_flip] in OPEN, [`flip_choice`][golfsim.agents.common.flip_choice]
    (never going out) in FLIP; -1 in START and HOLD, where each decides for itself."""
    phase = pub[PHASE]
    if phase == OPEN:
        return opening_flip(pub, rules, player)
    if phase == FLIP_PHASE:
        return flip_choice(pub, rules, player, False)
    return -1


@leaf
def stalled(pub, rules):
    """True once the stock has been recycled twice or half of ``turn_cap`` turns are gone: a deal that long has
    stalled (nobody wants to cover their last face-down cards), and the agents then cover face-down cards
    eagerly so that the deal ends."""
    return stalled_at(pub[RECYCLES], pub[TURN], rules[R_TURN_CAP])


@leaf
def stalled_at(recycles, turn, turn_cap):
    """[`stalled`][golfsim.agents.common.stalled] from the recycle count, the turn number and ``turn_cap``."""
    return recycles >= 2 or 2 * turn >= turn_cap


STALL_HIDDEN = 10.0
"""Points a face-down card is worth to greedy and pair-builder in a stalled deal (more than any card but a 10,
J or Q), and the bonus ev gives an action that covers a face-down card then."""


@leaf
def stall_floor(pub, rules, h):
    """The worth ``h`` of a face-down card, raised to ``STALL_HIDDEN`` once the deal has
    [`stalled`][golfsim.agents.common.stalled]."""
    return stall_floor_at(pub[RECYCLES], pub[TURN], rules[R_TURN_CAP], h)


@leaf
def stall_floor_at(recycles, turn, turn_cap, h):
    """[`stall_floor`][golfsim.agents.common.stall_floor] from the recycle count, the turn number and ``turn_cap``."""
    if stalled_at(recycles, turn, turn_cap) and h < STALL_HIDDEN:
        return STALL_HIDDEN
    return h


@leaf
def final_circuit(pub):
    """True when someone has gone out under ``one_last_turn`` and this is the mover's last turn."""
    return pub[ENDER] >= 0
