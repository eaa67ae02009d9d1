"""The learned value of a public state: features of ``pub`` from one player's point of view, and a linear value.

What is valued
--------------
``V(pub, p)`` estimates, for player ``p`` just after one of their turns, the final deal-score difference
``s[p] - mean(s[q], q != p)`` (lower is better for ``p``). It is the objective the tournaments measure (points
per game are the sum of the deals' points), and it decides going out: ending the deal with a middling score is good
exactly when it leaves the opponents worse off. A state whose deal is over after the turn is not estimated: it is
valued exactly from public information ([`terminal_value`][golfsim.agents.learned.value.terminal_value]: the player's
own layout, the opponents' face-down cards in expectation over the unseen cards). Game totals do not enter (the metric
is points per game, to which the game totals before the last hole make no difference).

The model, and why it is linear
-------------------------------
``V = W[row] . phi``: one weight row per *situation* (``row``, below) over ``NUM_FEATURES`` hand-made features.
A linear model over rich features was chosen over a small network over a raw encoding for three reasons:

- *Speed*: the player values every afterstate of every move, and for a stock draw every card it may bring (about
  a hundred afterstates per decision). The features decompose over the three columns of a layout, and one move
  changes one column, so an afterstate costs a dozen multiply-adds
  ([`column_dot`][golfsim.agents.learned.value.column_dot]); a network of even 32 hidden units costs a thousand. The
  player must stay near ev's speed (tens of thousands of deals per second).
- *Fitting*: a linear model is fitted exactly by least squares from self-play (the normal equations gathered in
  compiled code, solved with numpy in milliseconds): no optimiser, no learning rate, no framework, and the same
  data give the same weights to the last bit.
- *The features carry the game's arithmetic*: exact column scores, the exact expectation of a face-down card from
  the unseen counts, the chance of completing a pair from the cards still to come, the tempo (how close each side
  is to going out) and what the top discard offers the next player. What is left to learn is how much each is
  worth in each situation, which a linear model per situation expresses.

Model 2: n-tuple tables
-----------------------
A model wider than ``NUM_FEATURES`` (``NUM_FEATURES_NT``, ``learned:model=2``) adds to ``W[row] . phi`` one table
weight per column: for each own column ``W[row, T_OWN + tempo * TUPLE_STATES + state]`` (``state`` the unordered
pair of its two cards, each face down or a card code; ``tempo`` the player's face-down cards, at most 1, 2-3, 4 or
more) and for the opponents' columns ``W[row, T_OPP + state]`` averaged over the opponents. Each is one lookup per
column, so the decomposition over columns, and the speed, stay. Measured, it adds about a point per game to the
linear value (``results/learned_value/ntuple/``).

Situations (rows)
-----------------
The weights differ by situation, a piecewise-linear model: ``row = 10 * group + slot`` with ``group`` 0 for two
players and 1 for three or more, and ``slot``:

- with ``end="immediate"``: 0..3 by the fewest face-down cards of any opponent (1, 2, 3, 4 or more);
- with ``end="one_last_turn"``: 4..7 likewise while nobody has gone out, 8 just after the player went out (the
  others take their last turns), 9 after the player's own last turn while others still have theirs.

Features (``phi``)
------------------
``phi[0]`` is 1. Then the player's own layout (``F_OWN``) and the mean over the opponents of the same features of
their layouts (``F_OPP``), twelve each, summed over the three columns (``mu`` the mean points of an unseen card,
``pair(r)`` the score of a column pair of rank ``r``, ``c_r`` the cards of rank ``r`` a stock draw may bring,
``S`` the cards a draw comes from):

- two face-up cards: ``KNOWN`` their column score; when they do not pair, ``IMPROVABLE`` the higher card's points
  (what a later replacement may save) and ``UNPAIRED`` 1;
- a face-up ``x`` over or under a face-down card: ``HALF_PTS`` the points of ``x``; ``HALF_EXP`` the exact
  expectation of its partner's contribution, ``mu - (u_x / U) (2 points(x) - pair(x))``; with
  ``g = max(0, points(x) + mu - pair(x))`` what pairing would save, ``HALF_MATCH`` ``g c_x / S`` and
  ``HALF_ANY`` ``g`` when ``c_x > 0``; ``HALF_N`` 1;
- two face-down cards: ``HH`` their exact expectation, ``HH_N`` 1;
- ``H1`` and ``H2``: 1 when the layout has exactly one (two) face-down cards.

Last, ``F_GAIN``: the points the next player would save now by taking the top discard (the best of putting it at
each of their positions, columns valued by their exact expectation), and ``F_STALL``: 1 once the deal has stalled
([`golfsim.agents.common.stalled`][]).

The counts (``unseen``, the draw counts) are the state's; a player valuing an afterstate in which a face-down card
is covered values it with the counts before that card is seen (the card goes to the discard pile, where its worth
to the next player is taken in expectation over the unseen cards).

Every function here reads ``pub`` and the packed ``rules`` only (the public state; see
[`golfsim.core.spec`][]) and allocates nothing.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim.agents.common import draw_offset, other_jack, pair_score, stalled
from golfsim.core.cards import JACK, NUM_CODES, NUM_RANKS, ONE_EYED_JACK
from golfsim.core.engine import column_score, face_down_count, same_rank
from golfsim.core.spec import (
    DISCARD_N,
    ENDER,
    R_CODES,
    R_END,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    R_POINTS,
    RECYCLES,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
)

BIG_VALUE = 1e18
"""Above every value and column expectation: marks a number not computed yet."""

KNOWN, IMPROVABLE, UNPAIRED, HALF_PTS, HALF_EXP, HALF_MATCH, HALF_ANY, HALF_N, HH, HH_N, H1, H2 = range(12)
LAYOUT_FEATURES = 12
LAYOUT_NAMES = ("known", "improvable", "unpaired", "half_pts", "half_exp", "half_match", "half_any", "half_n",
                "hh", "hh_n", "h1", "h2")
F_BIAS = 0
F_OWN = 1
F_OPP = F_OWN + LAYOUT_FEATURES
F_GAIN = F_OPP + LAYOUT_FEATURES
F_STALL = F_GAIN + 1
NUM_FEATURES = F_STALL + 1
FEATURE_NAMES = (("bias",) + tuple("own_" + n for n in LAYOUT_NAMES) + tuple("opp_" + n for n in LAYOUT_NAMES)
                 + ("next_gain", "stalled"))

TUPLE_CARDS = NUM_CODES + 1
"""A column card for the n-tuple tables: face down (0) or a card code plus one."""
TUPLE_STATES = TUPLE_CARDS * (TUPLE_CARDS + 1) // 2
"""Column states of the n-tuple tables: an unordered pair of column cards (top and bottom are one state)."""
TEMPO_BUCKETS = 3
"""The own tables' tempo: the player's face-down cards after the move, at most 1, 2 or 3, 4 or more."""
T_OWN = NUM_FEATURES
T_OPP = T_OWN + TEMPO_BUCKETS * TUPLE_STATES
NUM_FEATURES_NT = T_OPP + TUPLE_STATES
"""Width of an n-tuple model (model 2): the linear features, then one table weight per tempo bucket and column
state for the own layout (``T_OWN``) and one per column state for the opponents' (``T_OPP``, averaged over the
opponents), both per row."""


def _state_name(i: int) -> str:
    cards = [(x, y) for x in range(TUPLE_CARDS) for y in range(x, TUPLE_CARDS)]
    x, y = cards[i]
    return ("d" if x == 0 else str(x - 1)) + "_" + ("d" if y == 0 else str(y - 1))


FEATURE_NAMES_NT = (FEATURE_NAMES + tuple(f"own_t{t}_col_" + _state_name(i) for t in range(TEMPO_BUCKETS)
                                           for i in range(TUPLE_STATES))
                    + tuple("opp_col_" + _state_name(i) for i in range(TUPLE_STATES)))

SLOTS = 10
GROUPS = 2
NUM_ROWS = SLOTS * GROUPS
SLOT_OUT = 8
SLOT_FINAL = 9
ROW_NAMES = tuple(
    f"{'2p' if g == 0 else '3+p'} " + (f"immediate, opponents {t + 1}{'+' if t == 3 else ''} face down" if s < 4
                                       else f"last turn, opponents {t + 1}{'+' if t == 3 else ''} face down"
                                       if s < 8 else "last turn, just went out" if s == SLOT_OUT
                                       else "last turn, own last turn taken")
    for g in range(GROUPS) for s in range(SLOTS) for t in (s % 4,)
)

Counts = namedtuple("Counts", "mu inv_u hh doff s_inv jm")
Counts.__doc__ = """What the features of one state start from
([`card_counts`][golfsim.agents.learned.value.card_counts]): ``mu`` the mean points of an unseen card, ``inv_u`` one
over their number, ``hh`` the exact expectation of a column of two face-down cards, ``doff`` the offset in ``pub`` of
the counts a stock draw comes from, ``s_inv`` one over their sum, and ``jm`` the jack flag every rank check is given
([`jack_mate`][golfsim.agents.learned.value.jack_mate])."""


def prior_weights(width: int = NUM_FEATURES) -> np.ndarray:
    """The weights before any learning, ``(NUM_ROWS, width)``: the own layout's expected score now minus
    the opponents' mean (every known and expected card counted once, nothing for pairs to come); the n-tuple
    tables of a wider model start at 0."""
    w = np.zeros((NUM_ROWS, width), dtype=np.float64)
    for j in (KNOWN, HALF_PTS, HALF_EXP, HH):
        w[:, F_OWN + j] = 1.0
        w[:, F_OPP + j] = -1.0
    return w


# ---------------------------------------------------------------- ranks, with or without one-eyed jacks
# Every rank check below takes ``jm``: ``None`` in the copy compiled for rules where each rank is one card code
# (``learned_act_plain``), where Numba drops the branches ``jm is None`` rules out at compile time, or the int64 of
# ``jack_mate`` in the general copy. The plain copy plays about a third faster (results/learned_value/ntuple/).
@leaf
def jack_mate(rules):
    """The general copy's ``jm``: 1 when ``one_eyed_jacks`` gives jacks two card codes, else -1."""
    return np.int64(1) if rules[R_CODES] > NUM_RANKS else np.int64(-1)


@leaf
def code_mate(card, jm):
    """The other card code of ``card``'s rank (``rank_mate`` of ``golfsim.agents.common``): a jack's is
    ``ONE_EYED_JACK`` and a one-eyed jack's is ``JACK`` when ``jm`` is 1; -1 for every other card and whenever ``jm``
    is ``None`` or -1. The answers are constants, which LLVM compiles far faster than a run-time code."""
    if jm is None or jm < 0:
        return -1
    return other_jack(card)


@leaf
def paired(a, b, jm):
    """Whether card codes ``a`` and ``b`` are of one rank (``same_rank``, the code test alone when ``jm`` is
    ``None``)."""
    if jm is None:
        return a == b
    return same_rank(a, b)


@leaf
def column_points(a, b, rules, jm):
    """``column_score`` of a column ``a`` over ``b`` (both face up), its pair test by
    [`paired`][golfsim.agents.learned.value.paired]."""
    if jm is None:
        if a == b:
            return pair_score(rules, a)
        return rules[R_POINTS + a] + rules[R_POINTS + b]
    return column_score(a, b, rules)


@leaf
def draw_count(pub, off, card, jm):
    """Cards of ``card``'s rank in the per-code counts at ``pub[off:]`` (``rank_count`` of
    ``golfsim.agents.common``, the mate by [`code_mate`][golfsim.agents.learned.value.code_mate])."""
    n = np.int64(pub[off + card])
    m = code_mate(card, jm)
    if m >= 0:
        n += pub[off + m]
    return n


# ---------------------------------------------------------------- counts and column expectations
@leaf
def card_counts(pub, rules, jm):
    """The `Counts` of ``pub``, with the jack flag ``jm`` (``None`` or
    [`jack_mate`][golfsim.agents.learned.value.jack_mate])."""
    ou = rules[R_OFF_UNSEEN]
    n = pub[UNSEEN_CARDS]
    inv_u = 1.0 / n if n > 0 else 0.0
    mu = pub[UNSEEN_POINTS] * inv_u
    same = 0.0
    for r in range(rules[R_CODES]):
        u = pub[ou + r]
        same += u * (u - 1) * (2 * rules[R_POINTS + r] - pair_score(rules, r))
    if code_mate(JACK, jm) >= 0:  # a jack over a one-eyed jack is a pair too (scoring 0), in either order
        jacks_points = rules[R_POINTS + JACK] + rules[R_POINTS + ONE_EYED_JACK]
        same += 2 * pub[ou + JACK] * pub[ou + ONE_EYED_JACK] * jacks_points
    hh = 2.0 * mu - (same / (n * (n - 1)) if n > 1 else 0.0)
    doff = draw_offset(pub, rules)
    s = n
    if pub[RECYCLES] > 0:
        s = 0
        for r in range(rules[R_CODES]):
            s += pub[rules[R_OFF_STOCK_KNOWN] + r]
    return Counts(mu, inv_u, hh, np.int64(doff), 1.0 / s if s > 0 else 0.0, jm)


@leaf
def unseen_pair_saving(pub, rules, x, inv_u, jm):
    """What an unseen card under a face-up ``x`` is expected to save by pairing it: over the unseen cards of
    ``x``'s rank, the points of the two cards less the pair's score."""
    px = rules[R_POINTS + x]
    ou = rules[R_OFF_UNSEEN]
    saving = pub[ou + x] * inv_u * (2 * px - pair_score(rules, x))
    y = code_mate(x, jm)
    if y >= 0:
        saving += pub[ou + y] * inv_u * (px + rules[R_POINTS + y])  # a pair of jacks scores 0
    return saving


@leaf
def column_expectation(pub, rules, a, b, cnt):
    """Exact expected final score of a column ``a`` over ``b`` (ranks, -1 face down) from the unseen counts."""
    if a >= 0 and b >= 0:
        return float(column_points(a, b, rules, cnt.jm))
    if a < 0 and b < 0:
        return cnt.hh
    x = a if a >= 0 else b
    px = rules[R_POINTS + x]
    return px + cnt.mu - unseen_pair_saving(pub, rules, x, cnt.inv_u, cnt.jm)


@leaf
def layout_expectation(pub, rules, q, cnt):
    """Exact expected final score of player ``q``'s layout (no bonus)."""
    base = rules[R_OFF_VIEW] + 6 * q
    total = 0.0
    for c in range(3):
        total += column_expectation(pub, rules, pub[base + c], pub[base + c + 3], cnt)
    return total


# ---------------------------------------------------------------- features of one column
@leaf
def column_dot(w, row, off, pub, rules, a, b, cnt, h):
    """``W[row, off:off + 12] . psi(a, b)``: the weighted features of one column (``H1``/``H2`` excepted), the
    same numbers [`add_column_features`][golfsim.agents.learned.value.add_column_features] writes; with an n-tuple
    model (``w`` wider than ``NUM_FEATURES``) the own table's weight of the column state at the layout's ``h``
    face-down cards is added."""
    v = column_dot_linear(w, row, off, pub, rules, a, b, cnt)
    if w.shape[1] > NUM_FEATURES:
        v += w[row, tuple_index(h, a, b)]
    return v


@leaf
def tuple_index(h, a, b):
    """The own table's index of a column ``a`` over ``b`` in a layout with ``h`` face-down cards."""
    t = 0 if h <= 1 else 1 if h <= 3 else 2
    return T_OWN + t * TUPLE_STATES + column_state(a, b)


@leaf
def column_state(a, b):
    """The n-tuple state of a column ``a`` over ``b`` (card codes, -1 face down), the same for ``b`` over ``a``:
    from 0 to ``TUPLE_STATES - 1``."""
    x = a + 1
    y = b + 1
    if x > y:
        x, y = y, x
    return x * TUPLE_CARDS - (x * (x - 1)) // 2 + (y - x)


@hot
def tuple_dot_opponents(w, row, pub, rules, player):
    """The opponents' n-tuple part of ``W[row]``: their columns' table weights averaged over the opponents (0 for
    a model without tables)."""
    if w.shape[1] <= NUM_FEATURES:
        return 0.0
    players = rules[R_PLAYERS]
    v = 0.0
    for q in range(players):
        if q != player:
            base = rules[R_OFF_VIEW] + 6 * q
            for c in range(3):
                v += w[row, T_OPP + column_state(pub[base + c], pub[base + c + 3])]
    return v / (players - 1)


@hot
def tuple_entries(pub, rules, player, idx, val):
    """The nonzero n-tuple features of ``pub`` from ``player``'s point of view into ``idx`` (indices into a model
    of width ``NUM_FEATURES_NT``) and ``val``; returns their number (an index may come more than once)."""
    n = 0
    base = rules[R_OFF_VIEW] + 6 * player
    h = face_down_count(pub, rules, player)
    for c in range(3):
        idx[n] = tuple_index(h, pub[base + c], pub[base + c + 3])
        val[n] = 1.0
        n += 1
    players = rules[R_PLAYERS]
    for q in range(players):
        if q != player:
            base = rules[R_OFF_VIEW] + 6 * q
            for c in range(3):
                idx[n] = T_OPP + column_state(pub[base + c], pub[base + c + 3])
                val[n] = 1.0 / (players - 1)
                n += 1
    return n


@leaf
def column_dot_linear(w, row, off, pub, rules, a, b, cnt):
    """The linear part of [`column_dot`][golfsim.agents.learned.value.column_dot]."""
    if a >= 0 and b >= 0:
        v = w[row, off + KNOWN] * column_points(a, b, rules, cnt.jm)
        if not paired(a, b, cnt.jm):
            v += w[row, off + IMPROVABLE] * max(rules[R_POINTS + a], rules[R_POINTS + b]) + w[row, off + UNPAIRED]
        return v
    if a < 0 and b < 0:
        return w[row, off + HH] * cnt.hh + w[row, off + HH_N]
    x = a if a >= 0 else b
    px = rules[R_POINTS + x]
    pair = pair_score(rules, x)
    g = max(0.0, px + cnt.mu - pair)
    c = draw_count(pub, cnt.doff, x, cnt.jm)
    v = (w[row, off + HALF_PTS] * px
         + w[row, off + HALF_EXP] * (cnt.mu - unseen_pair_saving(pub, rules, x, cnt.inv_u, cnt.jm))
         + w[row, off + HALF_MATCH] * g * c * cnt.s_inv + w[row, off + HALF_N])
    if c > 0:
        v += w[row, off + HALF_ANY] * g
    return v


@leaf
def add_column_features(out, off, scale, pub, rules, a, b, cnt):
    """Add ``scale`` times the features of one column ``a`` over ``b`` to ``out[off:off + 12]``."""
    if a >= 0 and b >= 0:
        out[off + KNOWN] += scale * column_points(a, b, rules, cnt.jm)
        if not paired(a, b, cnt.jm):
            out[off + IMPROVABLE] += scale * max(rules[R_POINTS + a], rules[R_POINTS + b])
            out[off + UNPAIRED] += scale
        return
    if a < 0 and b < 0:
        out[off + HH] += scale * cnt.hh
        out[off + HH_N] += scale
        return
    x = a if a >= 0 else b
    px = rules[R_POINTS + x]
    pair = pair_score(rules, x)
    g = max(0.0, px + cnt.mu - pair)
    c = draw_count(pub, cnt.doff, x, cnt.jm)
    out[off + HALF_PTS] += scale * px
    out[off + HALF_EXP] += scale * (cnt.mu - unseen_pair_saving(pub, rules, x, cnt.inv_u, cnt.jm))
    out[off + HALF_MATCH] += scale * g * c * cnt.s_inv
    out[off + HALF_N] += scale
    if c > 0:
        out[off + HALF_ANY] += scale * g


@leaf
def hidden_dot(w, row, off, h):
    """The weighted ``H1``/``H2`` features of a layout with ``h`` face-down cards."""
    if h == 1:
        return w[row, off + H1]
    if h == 2:
        return w[row, off + H2]
    return 0.0


@hot
def add_layout_features(out, off, scale, pub, rules, q, cnt):
    """Add ``scale`` times the features of player ``q``'s layout to ``out[off:off + 12]``."""
    base = rules[R_OFF_VIEW] + 6 * q
    h = 0
    for c in range(3):
        a = pub[base + c]
        b = pub[base + c + 3]
        h += (a < 0) + (b < 0)
        add_column_features(out, off, scale, pub, rules, a, b, cnt)
    if h == 1:
        out[off + H1] += scale
    elif h == 2:
        out[off + H2] += scale


# ---------------------------------------------------------------- the next player and the situation
@hot
def next_gains(pub, rules, player, cnt, gains):
    """``gains[r]``: the points the player after ``player`` would save now by putting a card of rank ``r`` at the
    best of their positions (0 when none helps), columns valued by
    [`column_expectation`][golfsim.agents.learned.value.column_expectation]."""
    nxt = player + 1 if player + 1 < rules[R_PLAYERS] else 0
    base = rules[R_OFF_VIEW] + 6 * nxt
    e0 = column_expectation(pub, rules, pub[base], pub[base + 3], cnt)
    e1 = column_expectation(pub, rules, pub[base + 1], pub[base + 4], cnt)
    e2 = column_expectation(pub, rules, pub[base + 2], pub[base + 5], cnt)
    for r in range(rules[R_CODES]):
        best = 0.0
        half = BIG_VALUE  # r over a face-down partner: the same number at every such position, computed once
        for k in range(6):
            old = e0 if k % 3 == 0 else e1 if k % 3 == 1 else e2
            partner = pub[base + (k + 3) % 6]
            if partner < 0:
                if half == BIG_VALUE:
                    half = column_expectation(pub, rules, r, partner, cnt)
                saved = old - half
            else:
                saved = old - column_expectation(pub, rules, r, partner, cnt)
            if saved > best:
                best = saved
        gains[r] = best


@leaf
def unseen_gain(pub, rules, cnt, gains):
    """The expectation of ``gains`` over an unseen card (the card under a covered face-down position)."""
    ou = rules[R_OFF_UNSEEN]
    total = 0.0
    for r in range(rules[R_CODES]):
        total += pub[ou + r] * gains[r]
    return total * cnt.inv_u


@leaf
def fewest_opponent_face_down(pub, rules, player):
    """The fewest face-down cards of any opponent."""
    best = 6
    for q in range(rules[R_PLAYERS]):
        if q != player:
            best = min(best, face_down_count(pub, rules, q))
    return best


@leaf
def running_row(pub, rules, player):
    """The row of ``player``'s afterstates while nobody has gone out: by group, end rule and tempo."""
    group = 0 if rules[R_PLAYERS] == 2 else 1
    tempo = min(max(fewest_opponent_face_down(pub, rules, player), 1), 4) - 1
    return SLOTS * group + 4 * rules[R_END] + tempo


@leaf
def state_row(pub, rules, player):
    """The row of the state ``pub`` seen by ``player`` just after one of their turns (the deal still running)."""
    ender = pub[ENDER]
    if ender < 0:
        return running_row(pub, rules, player)
    group = 0 if rules[R_PLAYERS] == 2 else 1
    return SLOTS * group + (SLOT_OUT if ender == player else SLOT_FINAL)


@hot
def features(pub, rules, player, out, gains):
    """Write the features of ``pub`` from ``player``'s point of view into ``out`` (``NUM_FEATURES``) and return
    the row that values them; ``gains`` is scratch of ``NUM_CODES``. For a state just after ``player``'s turn
    with the deal still running."""
    for i in range(NUM_FEATURES):
        out[i] = 0.0
    cnt = card_counts(pub, rules, jack_mate(rules))
    out[F_BIAS] = 1.0
    add_layout_features(out, F_OWN, 1.0, pub, rules, player, cnt)
    players = rules[R_PLAYERS]
    for q in range(players):
        if q != player:
            add_layout_features(out, F_OPP, 1.0 / (players - 1), pub, rules, q, cnt)
    next_gains(pub, rules, player, cnt, gains)
    out[F_GAIN] = gains[pub[rules[R_OFF_DISCARD] + pub[DISCARD_N] - 1]]
    out[F_STALL] = 1.0 if stalled(pub, rules) else 0.0
    return state_row(pub, rules, player)


@hot
def opponents_expectation(pub, rules, player, cnt):
    """The mean over ``player``'s opponents of their layouts' exact expected final scores."""
    players = rules[R_PLAYERS]
    total = 0.0
    for q in range(players):
        if q != player:
            total += layout_expectation(pub, rules, q, cnt)
    return total / (players - 1)


@hot
def terminal_value(pub, rules, player, cnt):
    """The exact expected deal-score difference of a finished deal: ``player``'s layout less the opponents' mean,
    face-down cards in expectation."""
    return layout_expectation(pub, rules, player, cnt) - opponents_expectation(pub, rules, player, cnt)


@hot
def value(pub, rules, w, player, out, gains):
    """``W[row] . phi``: the learned value of ``pub`` for ``player`` just after their turn (``out`` and ``gains``
    are scratch, see [`features`][golfsim.agents.learned.value.features])."""
    row = features(pub, rules, player, out, gains)
    v = 0.0
    for i in range(NUM_FEATURES):
        v += w[row, i] * out[i]
    if w.shape[1] > NUM_FEATURES:  # an n-tuple model: the own columns' and the opponents' table weights
        base = rules[R_OFF_VIEW] + 6 * player
        h = face_down_count(pub, rules, player)
        for c in range(3):
            v += w[row, tuple_index(h, pub[base + c], pub[base + c + 3])]
        v += tuple_dot_opponents(w, row, pub, rules, player)
    return v
