"""The compiled rules: deal, legal actions, apply an action, end of deal, score.

Every function works on one deal's plain integer arrays as described in [`golfsim.core.spec`][]:
``pub`` (int32, the public state), ``hid`` (int16, face-down layout cards and the stock), ``rules``
(int32, ``Rules.pack()``) and ``deal_rng`` (uint64 array whose element 0 is the deal stream).
They are plain ``@njit`` functions, so the batch simulator, the step API and compiled agents that
roll out the rest of a deal all call the same code.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from golfsim._numba.jit import hot, leaf
from golfsim.core.cards import JACK, JOKER, ONE_EYED_JACK, TWO
from golfsim.core.rng import below
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    DRAW_STOCK,
    END_REASON,
    ENDER,
    FINAL_LEFT,
    FIRST,
    FLIP,
    FLIP_PHASE,
    HELD,
    HOLD,
    HOLE,
    KNOCK,
    LAST_ACTION,
    NUM_ACTIONS,
    OPEN,
    OPEN_FIRST,
    PASS,
    PHASE,
    PLACE_DRAWN,
    PLAYERS,
    R_BLACKJACK,
    R_CODES,
    R_COUNTS,
    R_DECK_POINTS,
    R_DISCARD_FLIP,
    R_EAGLE_EYE,
    R_END,
    R_FOUR_BONUS,
    R_HID_STOCK,
    R_HOLE_RULES,
    R_INITIAL_FLIPS,
    R_KNOCK_BONUS,
    R_KNOCK_EARLY,
    R_KNOCK_PENALTY,
    R_NCARDS,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_OPENING,
    R_PLAYERS,
    R_POINTS,
    R_REVEAL,
    R_TIED_SHAME,
    R_TURN_CAP,
    R_TWOS_KEEP,
    R_UNDERDOG,
    R_WOLFPACK,
    RECYCLES,
    REVEAL,
    START,
    STOCK_EXHAUSTED,
    STOCK_N,
    THROW_DRAWN,
    TRUNCATED,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
    WENT_OUT,
)

WOLFPACK_BONUS = -20  # the web game's value (its constants.py); its GameOptions docstring still says -5
EAGLE_EYE_PAIR = -4


# ---------------------------------------------------------------- dealing
@hot
def _reset_public(pub, rules, hole, first, totals):
    pub[:] = 0
    players = rules[R_PLAYERS]
    pub[PHASE] = OPEN
    pub[CURRENT] = first
    pub[HELD] = -1
    pub[ENDER] = -1
    pub[FINAL_LEFT] = -1
    pub[FIRST] = first
    pub[HOLE] = hole
    pub[PLAYERS] = players
    pub[OPEN_FIRST] = -1
    pub[LAST_ACTION] = -1
    ot = rules[R_OFF_TOTALS]
    for p in range(players):
        pub[ot + p] = totals[p]
    ov = rules[R_OFF_VIEW]
    for i in range(6 * players):
        pub[ov + i] = -1
    ou = rules[R_OFF_UNSEEN]
    for r in range(rules[R_CODES]):
        pub[ou + r] = rules[R_COUNTS + r]
    pub[UNSEEN_CARDS] = rules[R_NCARDS]
    pub[UNSEEN_POINTS] = rules[R_DECK_POINTS]


@leaf
def _see(pub, rules, card):
    """``card`` has now been seen: one fewer unseen card of its rank, and the running totals follow."""
    pub[rules[R_OFF_UNSEEN] + card] -= 1
    pub[UNSEEN_CARDS] -= 1
    pub[UNSEEN_POINTS] -= rules[R_POINTS + card]


@leaf
def next_seat(p, players):
    """The seat after ``p`` (0 <= p < players), clockwise: ``(p + 1) % players`` without the division, which cost
    about 2% of a deal's time (at most twelve seats, so the run-time divisor was never cheap to divide by)."""
    q = p + 1
    return q if q < players else q - players


@leaf
def _take_top(hid, rules, deal_rng, stock_n):
    """The card at the top of a stock of ``stock_n`` cards, fixing its place first if the shuffle has not yet.

    Slots at or above the cursor are shuffled; taking slot ``s`` below it does the Fisher-Yates step for ``s``
    (swap with a uniform slot in ``0..s``), exactly the step ``shuffled_deck`` does for that deck position.
    """
    hs = rules[R_HID_STOCK]
    cursor = hs + rules[R_NCARDS]
    s = stock_n - 1
    if s < hid[cursor]:
        if s > 0:
            r = hs + s - below(deal_rng, 0, s + 1)
            t = hid[hs + s]
            hid[hs + s] = hid[r]
            hid[r] = t
        hid[cursor] = s
    return hid[hs + s]


@hot
def _deal_from_stock_region(pub, hid, rules, deal_rng):
    """Deal from a full pack held in the stock region with the top card at the highest slot."""
    players = rules[R_PLAYERS]
    n = rules[R_NCARDS]
    top = n
    first = pub[FIRST]
    for k in range(6):  # card i = 6 * k + j goes to player (first + i) % players at position k: no divisions
        p = first
        for _ in range(players):
            hid[p * 6 + k] = _take_top(hid, rules, deal_rng, top)
            top -= 1
            p = next_seat(p, players)
    card = _take_top(hid, rules, deal_rng, top)
    top -= 1
    pub[rules[R_OFF_DISCARD]] = card
    pub[DISCARD_N] = 1
    _see(pub, rules, card)
    pub[STOCK_N] = top
    if rules[R_INITIAL_FLIPS] == 0:  # no opening flips: the first player's turn starts now
        begin_turn(pub, hid, rules, deal_rng, first)


@hot
def deal_shuffled(pub, hid, rules, deal_rng, hole, first, totals):
    """Start a deal from a pack shuffled with ``deal_rng[0]`` (Fisher-Yates, top card first, done lazily).

    The deck order is ``shuffled_deck`` for the same stream state, so a deal can be replayed from it.
    """
    _reset_public(pub, rules, hole, first, totals)
    n = rules[R_NCARDS]
    hs = rules[R_HID_STOCK]
    i = 0
    for r in range(rules[R_CODES]):  # code 14 (one_eyed_jacks) last, so the pack without it is as it always was
        for _ in range(rules[R_COUNTS + r]):
            hid[hs + i] = r
            i += 1
    hid[hs + n] = n  # nothing shuffled yet
    _deal_from_stock_region(pub, hid, rules, deal_rng)


@hot
def deal_from_deck(pub, hid, rules, deal_rng, deck, hole, first, totals):
    """Start a deal from an explicit deck order, ``deck[0]`` being the top card (RULES.md, "Reproducing a deal")."""
    _reset_public(pub, rules, hole, first, totals)
    n = rules[R_NCARDS]
    hs = rules[R_HID_STOCK]
    for d in range(n):
        hid[hs + n - 1 - d] = deck[d]
    hid[hs + n] = 0  # the order is given: nothing left to shuffle
    _deal_from_stock_region(pub, hid, rules, deal_rng)


@njit(cache=True)
def shuffled_deck(rules, deal_rng):
    """The deck order (top first) that ``deal_shuffled`` deals from the same stream state."""
    n = rules[R_NCARDS]
    deck = np.empty(n, dtype=np.int16)
    i = 0
    for r in range(rules[R_CODES]):
        for _ in range(rules[R_COUNTS + r]):
            deck[n - 1 - i] = r
            i += 1
    for d in range(n - 1):
        j = d + below(deal_rng, 0, n - d)
        t = deck[d]
        deck[d] = deck[j]
        deck[j] = t
    return deck


@njit(cache=True)
def stock_order(hid, rules, deal_rng, stock_n):
    """The remaining stock, top card first, in the order it will be drawn (finishing the lazy shuffle on copies)."""
    h = hid.copy()
    rng = deal_rng.copy()
    order = np.empty(stock_n, dtype=np.int16)
    for i in range(stock_n):
        order[i] = _take_top(h, rules, rng, stock_n - i)
    return order


# ---------------------------------------------------------------- small queries on pub
@leaf
def face_down_count(pub, rules, player):
    """How many of ``player``'s six cards are face down."""
    base = rules[R_OFF_VIEW] + player * 6
    c = 0
    for k in range(6):
        if pub[base + k] < 0:
            c += 1
    return c


@leaf
def top_discard(pub, rules):
    """Rank of the top discard."""
    return pub[rules[R_OFF_DISCARD] + pub[DISCARD_N] - 1]


# ---------------------------------------------------------------- legality
@leaf
def is_legal(pub, rules, action):
    """Whether ``action`` is legal now for the player to move; it reads only public state."""
    phase = pub[PHASE]
    p = pub[CURRENT]
    base = rules[R_OFF_VIEW] + p * 6
    if phase == START:
        if 0 <= action < DRAW_STOCK:
            return True
        if action == DRAW_STOCK:
            return pub[STOCK_N] > 0
        if REVEAL <= action < PLACE_DRAWN:
            return rules[R_REVEAL] == 1 and pub[base + action - REVEAL] < 0
        if action == KNOCK and rules[R_KNOCK_EARLY] == 1:
            down = face_down_count(pub, rules, p)
            return 1 <= down <= 2
        return False
    if phase == HOLD:
        return PLACE_DRAWN <= action <= THROW_DRAWN
    if phase == FLIP_PHASE:
        if FLIP <= action < PASS:
            return pub[base + action - FLIP] < 0
        return action == PASS and (rules[R_DISCARD_FLIP] == 1 or rules[R_DISCARD_FLIP] == 3)
    if phase == OPEN:
        if not (FLIP <= action < PASS):
            return False
        k = action - FLIP
        if pub[base + k] >= 0:
            return False
        first = pub[OPEN_FIRST]
        if first < 0:
            return True
        mode = rules[R_OPENING]
        if mode == 1:
            return k == (first + 3) % 6
        if mode == 2:
            return k % 3 != first % 3
        return True
    return False


@hot
def legal_mask(pub, rules, mask):
    """Fill ``mask`` (length ``NUM_ACTIONS``, any integer or bool dtype) with 1 for legal actions; return the count."""
    c = 0
    for a in range(NUM_ACTIONS):
        ok = is_legal(pub, rules, a)
        mask[a] = 1 if ok else 0
        if ok:
            c += 1
    return c


# ---------------------------------------------------------------- state changes
@leaf
def _turn_up(pub, hid, rules, p, k):
    idx = p * 6 + k
    card = hid[idx]
    pub[rules[R_OFF_VIEW] + idx] = card
    _see(pub, rules, card)


@leaf
def _push_discard(pub, rules, card):
    pub[rules[R_OFF_DISCARD] + pub[DISCARD_N]] = card
    pub[DISCARD_N] += 1


@leaf
def _pop_discard(pub, rules):
    pub[DISCARD_N] -= 1
    return pub[rules[R_OFF_DISCARD] + pub[DISCARD_N]]


@leaf
def _replace(pub, hid, rules, p, k, card):
    """Put ``card`` face up at ``k``; the old card goes face up on the discard pile."""
    idx = p * 6 + k
    vi = rules[R_OFF_VIEW] + idx
    old = hid[idx]
    if pub[vi] < 0:
        _see(pub, rules, old)
    hid[idx] = card
    pub[vi] = card
    _push_discard(pub, rules, old)


@hot
def _finish(pub, hid, rules, reason):
    pub[PHASE] = DONE
    pub[END_REASON] = reason
    pub[HELD] = -1
    ov = rules[R_OFF_VIEW]
    for i in range(6 * rules[R_PLAYERS]):
        if pub[ov + i] < 0:
            card = hid[i]
            pub[ov + i] = card
            _see(pub, rules, card)


@hot
def _recycle(pub, hid, rules, deal_rng):
    """Every discard under the top becomes the stock, to be shuffled as it is drawn; the top discard stays."""
    od = rules[R_OFF_DISCARD]
    hs = rules[R_HID_STOCK]
    ok = rules[R_OFF_STOCK_KNOWN]
    m = pub[DISCARD_N] - 1
    for i in range(m):
        card = pub[od + i]
        hid[hs + i] = card
        pub[ok + card] += 1
    hid[hs + rules[R_NCARDS]] = m
    pub[od] = pub[od + m]
    pub[DISCARD_N] = 1
    pub[STOCK_N] = m
    pub[RECYCLES] += 1


@hot
def begin_turn(pub, hid, rules, deal_rng, p):
    """Give the turn to ``p``: end a deal at the turn cap, recycle an empty stock or end the deal without one."""
    pub[CURRENT] = p
    if pub[TURN] >= rules[R_TURN_CAP]:
        _finish(pub, hid, rules, TRUNCATED)
        return
    if pub[STOCK_N] == 0:
        if pub[DISCARD_N] > 1:
            _recycle(pub, hid, rules, deal_rng)
        else:
            _finish(pub, hid, rules, STOCK_EXHAUSTED)
            return
    pub[TURN] += 1
    pub[PHASE] = START


@leaf
def _end_turn(pub, hid, rules, deal_rng):
    p = pub[CURRENT]
    players = rules[R_PLAYERS]
    if pub[ENDER] < 0:
        if face_down_count(pub, rules, p) == 0:
            pub[ENDER] = p
            if rules[R_END] == 0:
                _finish(pub, hid, rules, WENT_OUT)
                return
            pub[FINAL_LEFT] = players - 1
    else:
        pub[FINAL_LEFT] -= 1
        if pub[FINAL_LEFT] == 0:
            _finish(pub, hid, rules, WENT_OUT)
            return
    begin_turn(pub, hid, rules, deal_rng, next_seat(p, players))


@leaf
def flip_after_throw(pub, rules, p):
    """Whether a stock card thrown by ``p`` leads to a FLIP decision: never with ``discard_and_flip="off"`` or
    when ``p`` has nothing face down; with ``"endgame"`` only while some player (``p`` too) has at most one
    face-down card."""
    mode = rules[R_DISCARD_FLIP]
    if mode == 0 or face_down_count(pub, rules, p) == 0:
        return False
    if mode != 3:
        return True
    for q in range(rules[R_PLAYERS]):
        if face_down_count(pub, rules, q) <= 1:
            return True
    return False


@leaf
def apply_action(pub, hid, rules, deal_rng, action):
    """Play ``action`` for the player to move. The caller has checked it with ``is_legal``."""
    p = pub[CURRENT]
    pub[LAST_ACTION] = action
    phase = pub[PHASE]
    turn_ends = True  # one call site for _end_turn, so inlining it costs one copy
    if phase == START:
        if action < DRAW_STOCK:
            _replace(pub, hid, rules, p, action, _pop_discard(pub, rules))
        elif action == DRAW_STOCK:
            card = _take_top(hid, rules, deal_rng, pub[STOCK_N])
            pub[STOCK_N] -= 1
            pub[HELD] = card
            if pub[RECYCLES] > 0:
                pub[rules[R_OFF_STOCK_KNOWN] + card] -= 1
            else:
                _see(pub, rules, card)
            pub[PHASE] = HOLD
            turn_ends = False
        elif action < PLACE_DRAWN:
            _turn_up(pub, hid, rules, p, action - REVEAL)
        else:  # KNOCK: every face-down card up, so the turn ends with the player out
            for k in range(6):
                if pub[rules[R_OFF_VIEW] + p * 6 + k] < 0:
                    _turn_up(pub, hid, rules, p, k)
    elif phase == HOLD:
        card = pub[HELD]
        pub[HELD] = -1
        if action < THROW_DRAWN:
            _replace(pub, hid, rules, p, action - PLACE_DRAWN, card)
        else:
            _push_discard(pub, rules, card)
            if flip_after_throw(pub, rules, p):
                pub[PHASE] = FLIP_PHASE
                turn_ends = False
    elif phase == FLIP_PHASE:
        if action != PASS:
            _turn_up(pub, hid, rules, p, action - FLIP)
    elif phase == OPEN:
        turn_ends = False
        _turn_up(pub, hid, rules, p, action - FLIP)
        if pub[OPEN_FIRST] < 0 and rules[R_INITIAL_FLIPS] == 2:
            pub[OPEN_FIRST] = action - FLIP
        else:
            pub[OPEN_FIRST] = -1
            nxt = next_seat(p, rules[R_PLAYERS])
            if nxt == pub[FIRST]:
                begin_turn(pub, hid, rules, deal_rng, nxt)
            else:
                pub[CURRENT] = nxt
    if turn_ends:
        _end_turn(pub, hid, rules, deal_rng)


# ---------------------------------------------------------------- scoring
@leaf
def rank_of(card):
    """The rank of a card code: a one-eyed jack (code 14, ``one_eyed_jacks``) is a jack (11), every other code is its
    own rank. Pairs, four of a kind and wolfpack compare ranks; points are by code."""
    return JACK if card == ONE_EYED_JACK else card


@leaf
def same_rank(a, b):
    """Whether card codes ``a`` and ``b`` are of one rank (a column of them is a pair)."""
    return a == b or a * b == JACK * ONE_EYED_JACK  # the only product of two different codes 0..14 that is 154


@leaf
def column_score(a, b, rules):
    """Score of one column with top card ``a`` and bottom card ``b`` (no bonus): a pair of one rank scores 0 (a
    one-eyed jack pairs with any jack), but for the pair rules of twos and eagle_eye jokers."""
    if same_rank(a, b):
        if a == TWO and rules[R_TWOS_KEEP] == 1:
            return 2 * rules[R_POINTS + TWO]
        if a == JOKER and rules[R_EAGLE_EYE] == 1:
            return EAGLE_EYE_PAIR
        return 0
    return rules[R_POINTS + a] + rules[R_POINTS + b]


@hot
def score_cards(cards, base, rules):
    """Score the six cards ``cards[base:base + 6]`` (true ranks) under ``rules``, bonuses included (four of a kind,
    wolfpack); the house rules that compare players' scores are added by
    [`deal_scores`][golfsim.core.engine.deal_scores]."""
    total = 0
    pairs = 0  # rank + 1 of each paired column, 5 bits per column
    jack_pairs = 0
    for c in range(3):
        a = cards[base + c]
        b = cards[base + c + 3]
        total += column_score(a, b, rules)
        if same_rank(a, b):
            r = rank_of(a)
            pairs |= (r + 1) << (5 * c)
            if r == JACK:
                jack_pairs += 1
    if jack_pairs >= 2 and rules[R_WOLFPACK] == 1:
        total += WOLFPACK_BONUS
    bonus = rules[R_FOUR_BONUS]
    if bonus != 0 and pairs != 0:
        p0 = pairs & 31
        p1 = (pairs >> 5) & 31
        p2 = pairs >> 10
        if (p0 != 0 and (p0 == p1 or p0 == p2)) or (p1 != 0 and p1 == p2):
            total += bonus
    return total


@hot
def deal_scores(pub, hid, rules, out):
    """Write every player's score of the deal that ended into ``out``: the one place a hole is scored.

    Each layout is scored ([`score_cards`][golfsim.core.engine.score_cards]); then the house rules that compare the
    table's scores, in the web game's order (docs/RULES.md, "House rules"): ``blackjack`` (21 becomes 0),
    ``knock_penalty`` (+10 to the player who went out, ``ENDER``, unless no score is lower), ``knock_bonus`` (-5 to that
    player), ``underdog_bonus`` (-3 to every lowest score), ``tied_shame`` (+5 to every score another player has too).
    """
    players = rules[R_PLAYERS]
    for p in range(players):
        out[p] = score_cards(hid, p * 6, rules)
    if rules[R_HOLE_RULES] == 0:
        return
    if rules[R_BLACKJACK] == 1:
        for p in range(players):
            if out[p] == 21:
                out[p] = 0
    ender = pub[ENDER]
    if ender >= 0:
        if rules[R_KNOCK_PENALTY] == 1 and out[ender] > _lowest(out, players):
            out[ender] += 10
        if rules[R_KNOCK_BONUS] == 1:
            out[ender] -= 5
    if rules[R_UNDERDOG] == 1:
        low = _lowest(out, players)
        for p in range(players):
            if out[p] == low:
                out[p] -= 3
    if rules[R_TIED_SHAME] == 1:
        shamed = 0  # bit p: p's score equals another's (marked first, so the +5s do not make new ties)
        for p in range(players):
            for q in range(players):
                if q != p and out[q] == out[p]:
                    shamed |= 1 << p
        for p in range(players):
            if shamed & (1 << p):
                out[p] += 5


@leaf
def _lowest(out, players):
    low = out[0]
    for p in range(1, players):
        if out[p] < low:
            low = out[p]
    return low
