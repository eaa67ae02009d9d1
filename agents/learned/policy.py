"""The decision of the learned player: the move whose afterstate has the best expected learned value.

At each decision the player values, with [`golfsim.agents.learned.value`][], the state its move leaves (lower is
better: its expected deal score less the opponents' mean), and where chance comes between the move and that state
it takes the expectation over the card chance brings (one-ply expectimax):

- Start of turn: taking the top discard to each position (a covered face-down card goes to the discard pile, its
  worth to the next player taken in expectation over the unseen cards); drawing, valued as the expectation over the
  draw distribution (``unseen``, or ``stock_known`` after a recycle) of the best of throwing the card away and
  placing it at each position; with ``reveal_instead_of_draw``, revealing each face-down card (the expectation over
  the unseen card it shows). The lowest value wins; ties go to the draw, then to the lowest position.
- Holding a drawn card: throwing it away or placing it at each position; ties go to the throw. With
  ``discard_and_flip`` a throw is valued with the flip it allows (``may``: the better of the best flip and none;
  ``must``: the best flip).
- Flip after a throw: the flip (or, with ``may``, the pass) with the best expected value; ties to the pass.
- Opening flips: position 0, then position 1 (position 3 with ``opening_flips=same_column``), as ev does.
- A move that ends the deal is valued exactly ([`golfsim.agents.learned.value.terminal_value`][]), which is what
  decides going out. Once the deal has stalled (two recycles or half of ``turn_cap``), covering or turning up a
  face-down card earns ``STALL_HIDDEN`` points, as with ev, so that deals end; from half of ``turn_cap`` on, only
  moves that cover or turn up a face-down card are played
  ([`must_progress`][golfsim.agents.learned.policy.must_progress]), so that every deal ends.

House rules it was not fitted on reach it through the rules' numbers: card values and pair scores (``super_kings``,
``ten_penny``, ``eagle_eye``, ``one_eyed_jacks``, whose one-eyed jacks pair with jacks in every expectation),
``flip_mode=endgame`` (a throw counts the flip only once it is offered), and in a final own layout the rules that
compare scores ([`house_cost`][golfsim.agents.learned.policy.house_cost]): ``wolfpack`` and ``blackjack`` exactly;
when going out, ``knock_penalty`` and ``knock_bonus``; with more than two players ``tied_shame``; the comparisons
against the best opponent's score taken as normal. ``underdog_bonus`` is not valued (see ``house_cost``).
``knock_early``'s ``KNOCK`` is valued as that final layout in expectation over the cards it turns up
([`knock_value`][golfsim.agents.learned.policy.knock_value]) and played only when strictly best. Before the final
layout the learned value does not see these rules: the chance of a wolfpack to come, say, is not valued.

The weights come as an argument (a ``(NUM_ROWS, NUM_FEATURES)`` float64 array): self-play passes the weights being
trained, the agent ``learned`` the shipped ones. Nothing here allocates.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.agents.common import STALL_HIDDEN, normal_below, opening_flip, stalled
from golfsim.agents.learned.value import (
    F_GAIN,
    F_OPP,
    F_OWN,
    F_STALL,
    LAYOUT_FEATURES,
    NUM_FEATURES,
    SLOT_FINAL,
    SLOT_OUT,
    SLOTS,
    add_layout_features,
    card_counts,
    column_dot,
    column_expectation,
    hidden_dot,
    jack_mate,
    layout_expectation,
    next_gains,
    opponents_expectation,
    running_row,
    tuple_dot_opponents,
    unseen_gain,
)
from golfsim.agents.random_agent import random_legal as random_among
from golfsim.core.cards import JACK, NUM_CODES
from golfsim.core.engine import (
    WOLFPACK_BONUS,
    column_score,
    face_down_count,
    flip_after_throw,
    rank_of,
    same_rank,
    top_discard,
)
from golfsim.core.rng import uniform
from golfsim.core.spec import (
    CURRENT,
    DRAW_STOCK,
    ENDER,
    FINAL_LEFT,
    FLIP,
    FLIP_PHASE,
    HELD,
    HOLD,
    KNOCK,
    NUM_ACTIONS,
    OPEN,
    PASS,
    PHASE,
    PLACE_DRAWN,
    R_BLACKJACK,
    R_CODES,
    R_DISCARD_FLIP,
    R_END,
    R_KNOCK_BONUS,
    R_KNOCK_EARLY,
    R_KNOCK_PENALTY,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    R_POINTS,
    R_REVEAL,
    R_TIED_SHAME,
    R_TURN_CAP,
    R_WOLFPACK,
    REVEAL,
    START,
    STOCK_N,
    TAKE_DISCARD,
    THROW_DRAWN,
    TURN,
    UNSEEN_CARDS,
)
from golfsim.core.worlds import stack_float64

BIG = 1e18

Context = namedtuple("Context", "cnt base h row const c0 c1 c2 row_out const_out row_final const_final final_turn "
                                "last_turn opp_exp gain_unknown stall out_opp out_sd e0 e1 e2")
Context.__doc__ = """What every afterstate of one decision is valued from
([`context`][golfsim.agents.learned.policy.context]): the counts, the player's view offset and face-down count, the row
of a running afterstate with its constant part (bias, opponents, stall) and the weighted values of the three own
columns, the rows and constants of going out and of the last-turn circuit, whether this is the player's last turn
(``final_turn``) and the deal's last (``last_turn``), the opponents' expected final score, the next player's expected
gain from an unseen card on the discard, the stall flag, and under ``knock_penalty`` the best opponent's expected
final score and its spread (``out_opp``, ``out_sd``; 0 for the spread without the rule or once someone went out), and
the weighted own columns again as they are valued after a move that covers a face-down card (``e0 .. e2``; an n-tuple
model's tables depend on the face-down count, a linear model's do not: the same numbers as ``c0 .. c2``)."""


@leaf
def row_constant(w, row, opp, stall):
    """The part of ``W[row] . phi`` every afterstate of a decision shares: bias, opponents' features, stall."""
    v = w[row, 0] + w[row, F_STALL] * stall
    for j in range(LAYOUT_FEATURES):
        v += w[row, F_OPP + j] * opp[j]
    return v


@hot
def context(pub, rules, w, player, gains, opp, jm):
    """The `Context` of ``player``'s decision; fills ``gains`` ([`next_gains`][golfsim.agents.learned.value.next_gains])
    and ``opp`` (the opponents' mean layout features, scratch of ``LAYOUT_FEATURES``); ``jm`` is the jack flag of
    [`card_counts`][golfsim.agents.learned.value.card_counts]."""
    cnt = card_counts(pub, rules, jm)
    base = rules[R_OFF_VIEW] + 6 * player
    players = rules[R_PLAYERS]
    for j in range(LAYOUT_FEATURES):
        opp[j] = 0.0
    for q in range(players):
        if q != player:
            add_layout_features(opp, 0, 1.0 / (players - 1), pub, rules, q, cnt)
    next_gains(pub, rules, player, cnt, gains)
    stall = 1.0 if stalled(pub, rules) else 0.0
    group = 0 if players == 2 else 1
    row = running_row(pub, rules, player)
    row_out = SLOTS * group + SLOT_OUT
    row_final = SLOTS * group + SLOT_FINAL
    h = face_down_count(pub, rules, player)
    c0 = column_dot(w, row, F_OWN, pub, rules, pub[base], pub[base + 3], cnt, h)
    c1 = column_dot(w, row, F_OWN, pub, rules, pub[base + 1], pub[base + 4], cnt, h)
    c2 = column_dot(w, row, F_OWN, pub, rules, pub[base + 2], pub[base + 5], cnt, h)
    e0, e1, e2 = c0, c1, c2
    if w.shape[1] > NUM_FEATURES:  # an n-tuple model's own tables depend on the face-down count
        e0 = column_dot(w, row, F_OWN, pub, rules, pub[base], pub[base + 3], cnt, h - 1)
        e1 = column_dot(w, row, F_OWN, pub, rules, pub[base + 1], pub[base + 4], cnt, h - 1)
        e2 = column_dot(w, row, F_OWN, pub, rules, pub[base + 2], pub[base + 5], cnt, h - 1)
    final_turn = pub[ENDER] >= 0
    out_opp, out_sd = 0.0, 0.0
    if compares_scores(rules, final_turn):
        out_opp, out_sd = best_opponent(pub, rules, player, cnt)
    const = row_constant(w, row, opp, stall)
    const_out = row_constant(w, row_out, opp, stall)
    const_final = row_constant(w, row_final, opp, stall)
    if w.shape[1] > NUM_FEATURES:  # an n-tuple model: the opponents' columns' table weights
        const += tuple_dot_opponents(w, row, pub, rules, player)
        const_out += tuple_dot_opponents(w, row_out, pub, rules, player)
        const_final += tuple_dot_opponents(w, row_final, pub, rules, player)
    return Context(cnt, base, h, row, const, c0, c1, c2,
                   row_out, const_out, row_final, const_final,
                   final_turn, final_turn and pub[FINAL_LEFT] == 1, opponents_expectation(pub, rules, player, cnt),
                   unseen_gain(pub, rules, cnt, gains), stall, out_opp, out_sd, e0, e1, e2)


@leaf
def best_opponent(pub, rules, player, cnt):
    """``(mean, sd)`` of the lowest final score among ``player``'s opponents, taken as normal: the lowest exact
    expectation of an opponent's layout, spread by that opponent's face-down cards and (with ``end=one_last_turn``)
    the last turn still to come, each adding the variance of an unseen card's points."""
    ou = rules[R_OFF_UNSEEN]
    s2 = 0.0
    for r in range(rules[R_CODES]):
        s2 += pub[ou + r] * rules[R_POINTS + r] * rules[R_POINTS + r]
    var = s2 * cnt.inv_u - cnt.mu * cnt.mu
    best = BIG
    down = 0
    for q in range(rules[R_PLAYERS]):
        if q != player:
            e = layout_expectation(pub, rules, q, cnt)
            if e < best:
                best = e
                down = face_down_count(pub, rules, q)
    return best, max(math.sqrt((down + rules[R_END]) * max(var, 0.0)), 0.5)


@leaf
def compares_scores(rules, final_turn):
    """Whether a house rule valued against the best opponent's final score is on: when going out,
    ``knock_penalty``; in every final layout, ``tied_shame`` with more than two players (at two a tie costs both
    alike). ``final_turn``: the player is taking a last turn after someone went out."""
    if rules[R_KNOCK_PENALTY] == 1 and not final_turn:
        return True
    return rules[R_TIED_SHAME] == 1 and rules[R_PLAYERS] > 2


@leaf
def _card(pub, base, pos, k1, r1, k2, r2):
    """The card at the player's position ``pos``, with ``r1`` at ``k1`` and ``r2`` at ``k2`` (-1: no change)."""
    if pos == k1:
        return r1
    if pos == k2:
        return r2
    return pub[base + pos]


@leaf
def _column(pub, base, c, k1, r1, k2, r2):
    """Column ``c`` of the player's layout, top and bottom, with the changes of ``_card``."""
    return _card(pub, base, c, k1, r1, k2, r2), _card(pub, base, c + 3, k1, r1, k2, r2)


@leaf
def house_cost(pub, rules, ctx, k1, r1, k2, r2, going_out):
    """What the house rules add to a final own layout (the player's cards with ``r1`` at ``k1`` and ``r2`` at ``k2``,
    every card face up; 0 while one is face down), in the engine's order: ``wolfpack`` (two column pairs of jacks)
    -20 and ``blackjack`` (exactly 21 becomes 0) exactly; when ``going_out``, ``knock_penalty`` 10 times the chance
    that the best opponent (normal, ``ctx.out_opp`` and ``ctx.out_sd``) ends lower, and ``knock_bonus`` -5; and with
    more than two players ``tied_shame`` +5 times the chance of a tie. 0 when no such rule is on.

    ``underdog_bonus`` is not valued: its -3 to the lowest score is as open to playing on as to going out, and
    counting it for final layouts only (-3 times the chance of the lowest score, and the opponents' -3 when theirs
    is) made the learned player 2.6 points a game worse against ev at two players and 1.3 at four (experiment house,
    2,000 deal sets, the same deals), as it made ev worse."""
    if (rules[R_BLACKJACK] == 0 and rules[R_WOLFPACK] == 0 and rules[R_KNOCK_BONUS] == 0
            and ctx.out_sd == 0.0):
        return 0.0
    own = 0.0
    jack_pairs = 0
    for c in range(3):
        a, b = _column(pub, ctx.base, c, k1, r1, k2, r2)
        if a < 0 or b < 0:
            return 0.0  # a face-down card left: its score is not known yet
        own += column_score(a, b, rules)
        if same_rank(a, b) and rank_of(a) == JACK:
            jack_pairs += 1
    score = own
    if rules[R_WOLFPACK] == 1 and jack_pairs >= 2:
        score += WOLFPACK_BONUS
    if rules[R_BLACKJACK] == 1 and score == 21.0:
        score = 0.0
    cost = score - own
    if going_out:
        if rules[R_KNOCK_PENALTY] == 1 and ctx.out_sd > 0.0:
            cost += 10.0 * normal_below(score - 0.5, ctx.out_opp, ctx.out_sd)
        if rules[R_KNOCK_BONUS] == 1:
            score -= 5.0
            cost -= 5.0
    if rules[R_TIED_SHAME] == 1 and rules[R_PLAYERS] > 2 and ctx.out_sd > 0.0:
        cost += 5.0 * (normal_below(score + 0.5, ctx.out_opp, ctx.out_sd)
                       - normal_below(score - 0.5, ctx.out_opp, ctx.out_sd))
    return cost


@leaf
def afterstate_value(pub, rules, w, ctx, k, card, gain):
    """Value of the afterstate in which the player's position ``k`` holds ``card`` face up (``k`` < 0: the layout
    unchanged) and the next player's gain from the top discard is ``gain``."""
    base = ctx.base
    h = ctx.h
    ck = -1
    a_new = np.int64(0)
    b_new = np.int64(0)
    covers = False
    if k >= 0:
        ck = k % 3
        covers = pub[base + k] < 0
        if covers:
            h -= 1
        if k < 3:
            a_new = np.int64(card)
            b_new = np.int64(pub[base + k + 3])
        else:
            a_new = np.int64(pub[base + k - 3])
            b_new = np.int64(card)
    bonus = STALL_HIDDEN if covers and ctx.stall != 0.0 else 0.0
    if ctx.final_turn or h == 0 or ctx.last_turn:
        return layout_value(pub, rules, w, ctx, k, np.int64(card), -1, np.int64(0), h, gain, bonus)
    # the usual case: the deal goes on and one column changes
    row = ctx.row
    if covers:
        d0, d1, d2 = ctx.e0, ctx.e1, ctx.e2
    else:
        d0, d1, d2 = ctx.c0, ctx.c1, ctx.c2
    v = ctx.const + d0 + d1 + d2
    if ck == 0:
        v += column_dot(w, row, F_OWN, pub, rules, a_new, b_new, ctx.cnt, h) - d0
    elif ck == 1:
        v += column_dot(w, row, F_OWN, pub, rules, a_new, b_new, ctx.cnt, h) - d1
    elif ck == 2:
        v += column_dot(w, row, F_OWN, pub, rules, a_new, b_new, ctx.cnt, h) - d2
    return v + hidden_dot(w, row, F_OWN, h) + w[row, F_GAIN] * gain - bonus


@leaf
def layout_value(pub, rules, w, ctx, k1, r1, k2, r2, h, gain, bonus):
    """Value of an afterstate in which the whole own layout is valued afresh: the player's cards with ``r1`` at
    ``k1`` and ``r2`` at ``k2`` (-1: none), ``h`` of them still face down, when the deal ends with the move (valued
    exactly: face-down cards in expectation) or the player went out or took their last turn (the learned rows of
    those situations); the house rules' cost of a final layout included."""
    base = ctx.base
    if ctx.last_turn or (not ctx.final_turn and h == 0 and rules[R_END] == 0):
        own = 0.0
        for c in range(3):
            a, b = _column(pub, base, c, k1, r1, k2, r2)
            own += column_expectation(pub, rules, a, b, ctx.cnt)
        if h == 0:
            own += house_cost(pub, rules, ctx, k1, r1, k2, r2, not ctx.final_turn)
        return own - ctx.opp_exp - bonus
    row = ctx.row_final if ctx.final_turn else ctx.row_out
    v = ctx.const_final if ctx.final_turn else ctx.const_out
    for c in range(3):
        a, b = _column(pub, base, c, k1, r1, k2, r2)
        v += column_dot(w, row, F_OWN, pub, rules, a, b, ctx.cnt, h)
    if h == 0:  # a final layout: going out, or the own last turn taken
        v += house_cost(pub, rules, ctx, k1, r1, k2, r2, not ctx.final_turn)
    return v + hidden_dot(w, row, F_OWN, h) + w[row, F_GAIN] * gain - bonus


@leaf
def revealed_value(pub, rules, w, ctx, k, gain):
    """Expected value of turning up the face-down card at ``k`` (over the unseen cards), the discard unchanged."""
    ou = rules[R_OFF_UNSEEN]
    total = 0.0
    for r in range(rules[R_CODES]):
        u = pub[ou + r]
        if u > 0:
            total += u * afterstate_value(pub, rules, w, ctx, k, r, gain)
    return total * ctx.cnt.inv_u


@leaf
def best_flip(pub, rules, w, ctx, gain):
    """``(position, value)`` of the best face-down card to turn up after a throw (-1 and ``BIG`` with none)."""
    best = BIG
    action = -1
    for k in range(6):
        if pub[ctx.base + k] < 0:
            v = revealed_value(pub, rules, w, ctx, k, gain)
            if v < best:
                best = v
                action = k
    return action, best


@leaf
def knock_value(pub, rules, w, ctx, gain):
    """Expected value of ``knock_early``'s ``KNOCK`` (the player has one or two face-down cards): turning them up and
    having gone out (or, in the last turns after someone else went out, ending the own last turn), over the unseen
    cards those positions hold, the discard unchanged. With one, that is turning it up
    ([`revealed_value`][golfsim.agents.learned.policy.revealed_value])."""
    k1 = -1
    k2 = -1
    for k in range(6):
        if pub[ctx.base + k] < 0:
            if k1 < 0:
                k1 = k
            else:
                k2 = k
    if k2 < 0:
        return revealed_value(pub, rules, w, ctx, k1, gain)
    bonus = STALL_HIDDEN if ctx.stall != 0.0 else 0.0
    ou = rules[R_OFF_UNSEEN]
    total = 0.0
    for r1 in range(rules[R_CODES]):
        u1 = pub[ou + r1]
        for r2 in range(rules[R_CODES]):
            u2 = pub[ou + r2] - (1 if r2 == r1 else 0)
            if u1 > 0 and u2 > 0:
                total += u1 * u2 * layout_value(pub, rules, w, ctx, k1, np.int64(r1), k2, np.int64(r2), 0, gain,
                                                bonus)
    n = pub[UNSEEN_CARDS]
    return total / (n * (n - 1))


@leaf
def may_pass(rules):
    """True when the flip after a throw may be passed: ``discard_and_flip`` is ``may`` (1) or the house rule's
    ``endgame`` (3), whose flip is offered, not forced."""
    return rules[R_DISCARD_FLIP] == 1 or rules[R_DISCARD_FLIP] == 3


@leaf
def throw_value(pub, rules, w, ctx, gains, card):
    """Value of throwing a drawn ``card`` away, the flip that ``discard_and_flip`` allows included (under the house
    rule's ``endgame`` only once it is offered: some player has at most one card face down)."""
    keep = afterstate_value(pub, rules, w, ctx, -1, 0, gains[card])
    mode = rules[R_DISCARD_FLIP]
    if ctx.h == 0 or not flip_after_throw(pub, rules, pub[CURRENT]):
        return keep
    k, flip = best_flip(pub, rules, w, ctx, gains[card])
    if mode == 2:
        return flip
    return min(keep, flip)


@leaf
def place_value(pub, rules, w, ctx, gains, card, k):
    """Value of putting ``card`` face up at ``k``; the card it replaces goes to the discard pile."""
    old = pub[ctx.base + k]
    gain = gains[old] if old >= 0 else ctx.gain_unknown
    return afterstate_value(pub, rules, w, ctx, k, card, gain)


@leaf
def draw_value_reference(pub, rules, w, ctx, gains):
    """[`draw_value`][golfsim.agents.learned.policy.draw_value] the plain way, every afterstate through
    [`place_value`][golfsim.agents.learned.policy.place_value] (kept for the tests, which hold the fast one to the same
    numbers)."""
    doff = ctx.cnt.doff
    total = 0.0
    for r in range(rules[R_CODES]):
        c = pub[doff + r]
        if c > 0:
            best = throw_value(pub, rules, w, ctx, gains, r)
            for k in range(6):
                best = min(best, place_value(pub, rules, w, ctx, gains, r, k))
            total += c * best
    return total * ctx.cnt.s_inv


@leaf
def draw_value(pub, rules, w, ctx, gains):
    """Expected value of drawing: over the draw distribution, the best of throwing and placing the card.

    This is most of a decision's work (fourteen cards times seven moves), so the usual afterstate (the deal goes
    on, one column changes) is computed here with everything that does not depend on the drawn card hoisted out
    of the loop over cards, and the weighted features of a column whose partner is face down computed once per
    card for every such position. The arithmetic is
    [`afterstate_value`][golfsim.agents.learned.policy.afterstate_value]'s, operation for operation, so the numbers are
    the same to the last bit ([`draw_value_reference`][golfsim.agents.learned.policy.draw_value_reference])."""
    doff = ctx.cnt.doff
    base = ctx.base
    row = ctx.row
    cnt = ctx.cnt
    best = stack_float64(NUM_CODES)
    half = stack_float64(NUM_CODES)
    half_cover = stack_float64(NUM_CODES)
    for r in range(rules[R_CODES]):
        if pub[doff + r] > 0:
            best[r] = throw_value(pub, rules, w, ctx, gains, r)
            half[r] = BIG  # not computed yet
            half_cover[r] = BIG
    v_keep = ctx.const + ctx.c0 + ctx.c1 + ctx.c2
    tables = w.shape[1] > NUM_FEATURES  # a linear model values a half column alike before and after a cover
    v_cover = ctx.const + ctx.e0 + ctx.e1 + ctx.e2
    for k in range(6):
        old = pub[base + k]
        covers = old < 0
        gain = gains[old] if old >= 0 else ctx.gain_unknown
        h_after = ctx.h - 1 if covers else ctx.h
        if ctx.final_turn or h_after == 0:  # going out or a last turn: the whole layout is valued afresh
            for r in range(rules[R_CODES]):
                if pub[doff + r] > 0:
                    best[r] = min(best[r], afterstate_value(pub, rules, w, ctx, k, r, gain))
            continue
        ck = k % 3
        if covers:
            c_old = ctx.e0 if ck == 0 else ctx.e1 if ck == 1 else ctx.e2
            v0 = v_cover
        else:
            c_old = ctx.c0 if ck == 0 else ctx.c1 if ck == 1 else ctx.c2
            v0 = v_keep
        partner = pub[base + k + 3] if k < 3 else pub[base + k - 3]
        hid = hidden_dot(w, row, F_OWN, h_after)
        wg = w[row, F_GAIN] * gain
        bonus = STALL_HIDDEN if covers and ctx.stall != 0.0 else 0.0
        for r in range(rules[R_CODES]):
            if pub[doff + r] > 0:
                if partner < 0 and covers and tables:
                    if half_cover[r] == BIG:
                        half_cover[r] = column_dot(w, row, F_OWN, pub, rules, np.int64(r), np.int64(-1), cnt, h_after)
                    dot = half_cover[r]
                elif partner < 0:
                    if half[r] == BIG:
                        half[r] = column_dot(w, row, F_OWN, pub, rules, np.int64(r), np.int64(-1), cnt, h_after)
                    dot = half[r]
                elif k < 3:
                    dot = column_dot(w, row, F_OWN, pub, rules, np.int64(r), np.int64(partner), cnt, h_after)
                else:
                    dot = column_dot(w, row, F_OWN, pub, rules, np.int64(partner), np.int64(r), cnt, h_after)
                v = v0 + (dot - c_old)
                best[r] = min(best[r], v + hid + wg - bonus)
    total = 0.0
    for r in range(rules[R_CODES]):
        c = pub[doff + r]
        if c > 0:
            total += c * best[r]
    return total * ctx.cnt.s_inv


@hot
def random_legal(pub, rules, agent_rng):
    """A uniformly random legal action (exploration in self-play): the random agent's draw over all actions."""
    return random_among(pub, rules, agent_rng, 0, 0, NUM_ACTIONS)


@leaf
def must_progress(pub, rules):
    """True once half of ``turn_cap`` turns are gone with nobody out: from then on every move covers or turns up a
    face-down card ([`progress_move`][golfsim.agents.learned.policy.progress_move]).

    Why no bonus suffices: a deal can reach a position where every seat's last face-down card is known to pair its
    face-up partner (the unseen cards are all of that rank), so each seat's only ways to end the deal -- covering
    that card -- break a sure pair, while the turn cap's outcome (the deal scored as it stands, the pairs
    completed) is better for every seat than any move that ends it. Valuing that outcome honestly makes the
    cycle rational, and breaking the pair can cost more (up to twenty points) than the ``STALL_HIDDEN`` bonus
    gives: in 15 of a million deals under ``one_last_turn`` (the soak's seed 31) both seats drew and threw until
    the cap. The cap is a safeguard of the simulator, not a rule of the game, and a truncated deal is a failure;
    so once half of it is gone, progress comes first and the value only ranks the moves that make progress."""
    return pub[ENDER] < 0 and 2 * pub[TURN] >= rules[R_TURN_CAP]


@hot
def progress_move(pub, rules, w, ctx, gains, top):
    """The best move (by value) among those that cover or turn up one of the mover's face-down cards; -1 when the
    player has none face down. Every deal therefore ends within six turns of each seat once they are forced."""
    if ctx.h == 0:
        return -1
    phase = pub[PHASE]
    best = BIG
    action = -1
    if phase == HOLD:
        card = pub[HELD]
        if flip_after_throw(pub, rules, pub[CURRENT]):  # a throw is followed by a flip, which the flip phase forces
            k, flip = best_flip(pub, rules, w, ctx, gains[card])
            best = flip
            action = THROW_DRAWN
        for k in range(6):
            if pub[ctx.base + k] < 0:
                v = place_value(pub, rules, w, ctx, gains, card, k)
                if v < best:
                    best = v
                    action = PLACE_DRAWN + k
        return action
    if phase == FLIP_PHASE:
        k, flip = best_flip(pub, rules, w, ctx, gains[top])
        return FLIP + k
    if phase == START:
        for k in range(6):
            if pub[ctx.base + k] < 0:
                v = place_value(pub, rules, w, ctx, gains, top, k)
                if v < best:
                    best = v
                    action = TAKE_DISCARD + k
                if rules[R_REVEAL] == 1:
                    v = revealed_value(pub, rules, w, ctx, k, gains[top])
                    if v < best:
                        best = v
                        action = REVEAL + k
        return action
    return -1


@hot
def turn_values(pub, rules, w, ctx, gains, top, values):
    """The values of a start or hold phase's actions into ``values``: for a held card, throwing it and placing it
    at each position; at the start of a turn, taking the top discard to each position, drawing (when the stock has
    cards) and, with ``reveal_instead_of_draw``, revealing each face-down card. The other entries are not
    written; [`decide`][golfsim.agents.learned.policy.decide] picks among these,
    [`action_values`][golfsim.agents.learned.policy.action_values] returns them."""
    if pub[PHASE] == HOLD:
        card = pub[HELD]
        values[THROW_DRAWN] = throw_value(pub, rules, w, ctx, gains, card)
        for k in range(6):
            values[PLACE_DRAWN + k] = place_value(pub, rules, w, ctx, gains, card, k)
        return
    for k in range(6):
        values[TAKE_DISCARD + k] = place_value(pub, rules, w, ctx, gains, top, k)
    if pub[STOCK_N] > 0:
        values[DRAW_STOCK] = draw_value(pub, rules, w, ctx, gains)
    if rules[R_REVEAL] == 1:
        for k in range(6):
            if pub[ctx.base + k] < 0:
                values[REVEAL + k] = revealed_value(pub, rules, w, ctx, k, gains[top])
    if rules[R_KNOCK_EARLY] == 1 and 1 <= ctx.h <= 2:
        values[KNOCK] = knock_value(pub, rules, w, ctx, gains[top])


@leaf
def lowest_of_six(values, first, best, action):
    """``(best, action)``, or the first of ``values[first .. first + 5]`` that is lower than ``best`` and every one
    before it, with its action (a NaN is never lower)."""
    for a in range(first, first + 6):
        if values[a] < best:
            best = values[a]
            action = a
    return best, action


@leaf
def hold_choice(values):
    """``(value, action)`` of the lowest of a held card's ``values``; ties to the throw, then the lowest position."""
    return lowest_of_six(values, PLACE_DRAWN, values[THROW_DRAWN], THROW_DRAWN)


@leaf
def start_choice(values, fallback):
    """The action of the lowest of a start phase's ``values``: taking the discard (lowest position first), then
    the draw on a tie, then revealing, then ``knock_early``'s ``KNOCK`` only when strictly lower (the learned
    player's order); ``fallback`` when none is finite."""
    best, action = lowest_of_six(values, TAKE_DISCARD, BIG, fallback)
    if values[DRAW_STOCK] <= best:
        best = values[DRAW_STOCK]
        action = DRAW_STOCK
    best, action = lowest_of_six(values, REVEAL, best, action)
    if values[KNOCK] < best:
        action = KNOCK
    return action


@hot
def decide(pub, rules, w, player, agent_rng, explore):
    """The learned player's action for ``player`` under the weights ``w`` (see the module docstring); with
    ``explore`` > 0 a move of a turn is, with that chance, a uniformly random legal one instead (self-play only).
    For any rules."""
    return decide_with(pub, rules, w, player, agent_rng, explore, jack_mate(rules))


@hot
def decide_plain(pub, rules, w, player, agent_rng, explore):
    """[`decide`][golfsim.agents.learned.policy.decide] compiled for rules where every rank is one card code (no
    ``one_eyed_jacks``): the same moves, about a third faster, as the one-eyed jack checks are gone at compile time."""
    return decide_with(pub, rules, w, player, agent_rng, explore, None)


@hot
def decide_with(pub, rules, w, player, agent_rng, explore, jm):
    """[`decide`][golfsim.agents.learned.policy.decide] with the jack flag ``jm`` (``None`` or
    [`jack_mate`][golfsim.agents.learned.value.jack_mate])."""
    phase = pub[PHASE]
    if phase == OPEN:
        return opening_flip(pub, rules, player)
    if explore > 0.0 and uniform(agent_rng, 0) < explore:
        return random_legal(pub, rules, agent_rng)
    gains = stack_float64(NUM_CODES)
    opp = stack_float64(LAYOUT_FEATURES)
    ctx = context(pub, rules, w, player, gains, opp, jm)
    top = top_discard(pub, rules)
    if must_progress(pub, rules):
        forced = progress_move(pub, rules, w, ctx, gains, top)
        if forced >= 0:
            return forced
    if phase == FLIP_PHASE:
        k, flip = best_flip(pub, rules, w, ctx, gains[top])
        if may_pass(rules) and not flip < afterstate_value(pub, rules, w, ctx, -1, 0, gains[top]):
            return PASS
        return FLIP + k
    if phase != HOLD and phase != START:
        return -1
    values = stack_float64(NUM_ACTIONS)
    for a in range(NUM_ACTIONS):
        values[a] = np.nan  # the actions turn_values leaves out are never lower
    turn_values(pub, rules, w, ctx, gains, top, values)
    if phase == HOLD:
        return hold_choice(values)[1]
    return start_choice(values, TAKE_DISCARD)


@hot
def action_values(pub, rules, w, player, values):
    """The learned player's value of every action of ``player`` now, written to ``values`` (``NUM_ACTIONS``; NaN
    for illegal actions and the opening flips): the numbers
    [`decide`][golfsim.agents.learned.policy.decide] compares, in its unit (expected deal score less the opponents'
    mean, lower is better)."""
    for a in range(values.shape[0]):
        values[a] = np.nan
    phase = pub[PHASE]
    if phase != START and phase != HOLD and phase != FLIP_PHASE:
        return
    gains = stack_float64(NUM_CODES)
    opp = stack_float64(LAYOUT_FEATURES)
    ctx = context(pub, rules, w, player, gains, opp, jack_mate(rules))
    top = top_discard(pub, rules)
    if phase == FLIP_PHASE:
        for k in range(6):
            if pub[ctx.base + k] < 0:
                values[FLIP + k] = revealed_value(pub, rules, w, ctx, k, gains[top])
        if may_pass(rules):
            values[PASS] = afterstate_value(pub, rules, w, ctx, -1, 0, gains[top])
        return
    turn_values(pub, rules, w, ctx, gains, top, values)
