"""Compact self-play kernels: greedy or random at every seat, the deal kept in four small arrays and a few scalars.

The engine ([`golfsim.core.engine`][]) keeps a deal in the public state ``pub`` that any agent may read, and moves it
on one action at a time through the phases. When greedy or random plays every seat, nobody needs ``pub``: these
kernels keep only the layouts (``layout``, true ranks), what is face up (``view``, -1 face down), the stock and the
discard pile in arrays on the kernel's stack, and the turn, the counts and the unseen totals in local variables.
A turn is then one pass through straight-line code instead of two decisions, two legality checks and two phase
dispatches through ``pub``.

They play exactly the games [`golfsim.kernels.simulate.play_games`][] plays (the same deal stream and lazy shuffle,
the same agent streams, the same decisions through the agents' own leaves, ``golfsim.agents.greedy.start_choice`` and
``hold_choice``), so results do not depend on which kernel ran; ``tests/test_self_play.py`` compares them over the
rule variants. They cover the rules [`compact_rules`][golfsim.kernels.self_play.compact_rules] accepts, the options of
[`COMPACT_OPTIONS`][golfsim.kernels.self_play.COMPACT_OPTIONS] (player and deck counts, opening flips, the end, card
values) with every other option at its default; other rules use the self-play kernels of [`golfsim.kernels.simulate`][],
which play the one compiled step of [`golfsim.kernels.game_steps`][]. Every action is still checked against the rules as
``engine.is_legal`` does for its phase, and an illegal one stops the game with the same error row.
"""

from __future__ import annotations

import dataclasses

from numba import njit

from golfsim._numba.jit import NO_NRT, leaf
from golfsim.agents.dispatch import GREEDY_ID, RANDOM_ID
from golfsim.agents.greedy import hidden_worth, hold_choice, start_choice
from golfsim.core.engine import next_seat, score_cards
from golfsim.core.rng import advance, agent_state, below, bits_below, deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    DRAW_STOCK,
    FLIP,
    HOLD,
    MAX_PLAYERS,
    OPEN,
    PLACE_DRAWN,
    R_CODES,
    R_COUNTS,
    R_DECK_POINTS,
    R_END,
    R_HOLES,
    R_NCARDS,
    R_OPENING,
    R_PLAYERS,
    R_POINTS,
    R_TURN_CAP,
    RULES_SIZE,
    START,
    STOCK_EXHAUSTED,
    THROW_DRAWN,
    TRUNCATED,
    WENT_OUT,
)
from golfsim.core.worlds import MAX_CARDS, stack_like
from golfsim.kernels.game_steps import note_illegal

LAYOUT_SIZE = 6 * MAX_PLAYERS
SEAT_MASK = 15
"""``p & SEAT_MASK == p`` for every seat; indexing with ``6 * (p & SEAT_MASK) + k`` lets the compiler see that the
index is not negative and drop Numba's wraparound for negative indices (a compare and a select per access)."""


COMPACT_OPTIONS = frozenset({"players", "decks", "holes", "turn_cap", "opening_flips", "end", "jokers", "twos_pair",
                             "four_of_a_kind_bonus"})
"""The rule options the compact kernels play, each with every value: the table (players, decks, holes, turn cap),
the opening flips and the end of a deal (written out in [`compact_game`][golfsim.kernels.self_play.compact_game]) and
the card values (through the engine's own ``score_cards``). Every other option must keep its default for
[`compact_rules`][golfsim.kernels.self_play.compact_rules] to accept the rules, so an option added to
[`Rules`][golfsim.core.rules.Rules] later is played by the general kernels until someone writes it here too: the compact
copy of the turn can never play a rule it does not know."""


def compact_rules(rules: Rules) -> bool:
    """Whether the compact kernels play ``rules``: every option outside
    [`COMPACT_OPTIONS`][golfsim.kernels.self_play.COMPACT_OPTIONS] at its default."""
    plain = Rules()
    return all(getattr(rules, f.name) == getattr(plain, f.name) for f in dataclasses.fields(Rules)
               if f.name not in COMPACT_OPTIONS)


@leaf
def _fix_top(stock, state, stock_n, cursor):
    """Fix the top card of a stock of ``stock_n`` cards: the Fisher-Yates step of ``engine._take_top`` for its slot,
    drawn from the deal stream at ``state``, unless the slot is at or above ``cursor`` (already fixed). Returns the
    new cursor and stream state. The deal stream is used for nothing else, so fixing a slot before its card is
    drawn draws the same numbers in the same order."""
    s = stock_n - 1
    if s < cursor:
        if s > 0:
            state, bits = advance(state)
            r = s - bits_below(bits, s + 1)
            t = stock[s]
            stock[s] = stock[r]
            stock[r] = t
        return s, state
    return cursor, state


@leaf
def _opening_legal(view, base, k, first, mode):
    """``engine.is_legal`` for the opening flip of position ``k`` (``first``: the player's first flip, or -1)."""
    if view[base + k] >= 0:
        return False
    if first < 0:
        return True
    if mode == 1:
        return k == (first + 3) % 6
    if mode == 2:
        return k % 3 != first % 3
    return True


@leaf
def _random_flip(view, base, first, mode, agent_rng, p):
    """``golfsim.agents.random_agent.random_legal`` over the opening flips: the legal ones counted, one drawn
    uniformly."""
    count = 0
    for k in range(6):
        if _opening_legal(view, base, k, first, mode):
            count += 1
    pick = below(agent_rng, p, count)
    for k in range(6):
        if _opening_legal(view, base, k, first, mode):
            if pick == 0:
                return FLIP + k
            pick -= 1
    return -1


@leaf
def _all_face_up(view, base):
    return (view[base] | view[base + 1] | view[base + 2] | view[base + 3] | view[base + 4] | view[base + 5]) >= 0


@leaf
def compact_game(rules, params, deal_seed, agent_seed, game, hole_scores, turns, enders, reasons, error,
                 agent_rng, pack, layout, view, stock, discard, agent):
    """Play every hole of game ``game`` with ``agent`` (``GREEDY_ID`` or ``RANDOM_ID``, a constant) at every seat;
    the outputs as [`golfsim.kernels.simulate.play_game`][] writes them. ``pack`` is the unshuffled pack (ranks in
    ascending order, as ``engine.deal_shuffled`` lays it out); ``layout .. discard`` are work arrays."""
    players = rules[R_PLAYERS]
    n = rules[R_NCARDS]
    turn_cap = rules[R_TURN_CAP]
    mode = rules[R_OPENING]
    immediate = rules[R_END] == 0
    if agent == RANDOM_ID:  # greedy draws nothing from its stream
        for p in range(players):
            agent_rng[p] = agent_state(agent_seed, game, p)
    for hole in range(rules[R_HOLES]):
        # the deal: engine.deal_shuffled
        state = deal_state(deal_seed, game, hole)  # the deal stream's state, in a local variable
        first = hole % players
        for i in range(n):
            stock[i] = pack[i]
        top = n
        cursor = n
        for k in range(6):
            p = first
            for _ in range(players):
                cursor, state = _fix_top(stock, state, top, cursor)
                top -= 1
                layout[p * 6 + k] = stock[top]
                p = next_seat(p, players)
        cursor, state = _fix_top(stock, state, top, cursor)
        stock_n = top - 1
        card = stock[stock_n]
        if stock_n > 0:  # the top card is always fixed ahead of its draw, off the turn's critical path
            cursor, state = _fix_top(stock, state, stock_n, cursor)
        discard[0] = card
        discard_n = 1
        unseen_cards = n - 1
        unseen_points = rules[R_DECK_POINTS] - rules[R_POINTS + card]
        for i in range(6 * players):
            view[i] = -1
        # the opening flips, two per player from the first
        p = first
        for _ in range(players):
            base = 6 * (p & SEAT_MASK)
            flipped = -1
            for _ in range(2):
                if agent == RANDOM_ID:
                    action = _random_flip(view, base, flipped, mode, agent_rng, p)
                else:  # golfsim.agents.common.opening_flip on a face-down layout
                    action = FLIP + (0 if flipped < 0 else (3 if mode == 1 else 1))
                k = action - FLIP
                if not (0 <= k < 6 and _opening_legal(view, base, k, flipped, mode)):
                    note_illegal(error, hole, p, action, OPEN)
                    return
                card = layout[base + k]
                view[base + k] = card
                unseen_cards -= 1
                unseen_points -= rules[R_POINTS + card]
                flipped = k
            p = next_seat(p, players)
        # the turns: engine.begin_turn, one START and maybe one HOLD decision, engine._end_turn
        turn = 0
        recycles = 0
        ender = -1
        final_left = -1
        reason = 0
        p = first
        while True:
            if turn >= turn_cap:
                reason = TRUNCATED
                break
            if stock_n == 0:
                if discard_n == 1:
                    reason = STOCK_EXHAUSTED
                    break
                m = discard_n - 1
                for i in range(m):
                    stock[i] = discard[i]
                discard[0] = discard[m]
                discard_n = 1
                stock_n = m
                cursor, state = _fix_top(stock, state, m, m)
                recycles += 1
            turn += 1
            base = 6 * (p & SEAT_MASK)
            if agent == RANDOM_ID:
                action = below(agent_rng, p, 7)
            else:
                # the worth of a face-down card once the stock's top card is drawn, worked out now (the card is
                # fixed ahead, see _fix_top): its division then runs beside the START decision, not after the draw
                cursor, state = _fix_top(stock, state, stock_n, cursor)
                drawn = stock[stock_n - 1]
                seen = 1 if recycles == 0 else 0  # a stock card is seen when drawn, unless it was recycled
                h_drawn = hidden_worth(params[p], unseen_cards - seen, unseen_points - seen * rules[R_POINTS + drawn],
                                       recycles, turn, turn_cap)
                h = hidden_worth(params[p], unseen_cards, unseen_points, recycles, turn, turn_cap)
                action = start_choice(view, rules, base, params[p], h, discard[discard_n - 1], stock_n)
            if 0 <= action < DRAW_STOCK:
                discard_n -= 1
                card = discard[discard_n]
                k = action
            elif action == DRAW_STOCK and stock_n > 0:
                cursor, state = _fix_top(stock, state, stock_n, cursor)
                stock_n -= 1
                card = stock[stock_n]
                if stock_n > 0:
                    cursor, state = _fix_top(stock, state, stock_n, cursor)
                if recycles == 0:
                    unseen_cards -= 1
                    unseen_points -= rules[R_POINTS + card]
                if agent == RANDOM_ID:
                    action = PLACE_DRAWN + below(agent_rng, p, 7)
                else:
                    action = hold_choice(view, rules, base, params[p], h_drawn, card)
                if not PLACE_DRAWN <= action <= THROW_DRAWN:
                    note_illegal(error, hole, p, action, HOLD)
                    return
                k = action - PLACE_DRAWN
            else:
                note_illegal(error, hole, p, action, START)
                return
            if k < 6:  # card goes face up at k, the card there onto the discard pile
                old = layout[base + k]
                if view[base + k] < 0:
                    unseen_cards -= 1
                    unseen_points -= rules[R_POINTS + old]
                layout[base + k] = card
                view[base + k] = card
                discard[discard_n] = old
            else:
                discard[discard_n] = card
            discard_n += 1
            if ender < 0:
                if _all_face_up(view, base):
                    ender = p
                    if immediate:
                        reason = WENT_OUT
                        break
                    final_left = players - 1
            else:
                final_left -= 1
                if final_left == 0:
                    reason = WENT_OUT
                    break
            p = next_seat(p, players)
        for q in range(players):
            hole_scores[hole, q] = score_cards(layout, 6 * q, rules)
        turns[hole] = turn
        enders[hole] = ender
        reasons[hole] = reason


@leaf
def _pack_of(rules, pack):
    """The unshuffled pack: each card code's copies in ascending code order."""
    i = 0
    for r in range(rules[R_CODES]):
        for _ in range(rules[R_COUNTS + r]):
            pack[i] = r
            i += 1


# Why these kernels earn their keep (docs/performance.md, "One compiled step"): greedy self-play at 0.78x of the C
# loop against 0.55x for simulate.play_games_greedy, random at 0.77x against 0.40x (1M deals, one thread, same run).
# As in golfsim.kernels.simulate, the packed rules are copied into the kernel's stack frame, and the few lines that set
# up the work arrays are repeated in each kernel rather than shared: the stack arrays live in the kernel's own frame.
# The greedy and the random kernel are two copies on purpose, as simulate's play_games_greedy / play_games_random:
# each passes its agent's id as a constant to the inlined compact_game, so LLVM optimises the loop for that agent.
@njit(cache=True, **NO_NRT, nogil=True)
def play_games_greedy_compact(rules_in, agent_ids, params, agent_fns, deal_seed, agent_seed, first_game, lo, hi,
                              hole_scores, turns, enders, reasons, errors, sees, pub, hid, deal_rng, agent_rng,
                              totals, scores, sight):
    """[`golfsim.kernels.simulate.play_games`][] for a table where greedy plays every seat, under rules that
    [`compact_rules`][golfsim.kernels.self_play.compact_rules] accepts."""
    rules = stack_like(rules_in, RULES_SIZE)
    for j in range(RULES_SIZE):
        rules[j] = rules_in[j]
    pack = stack_like(pub, MAX_CARDS)
    stock = stack_like(pub, MAX_CARDS)
    discard = stack_like(pub, MAX_CARDS)
    layout = stack_like(pub, LAYOUT_SIZE)
    view = stack_like(pub, LAYOUT_SIZE)
    _pack_of(rules, pack)
    for i in range(lo, hi):
        compact_game(rules, params, deal_seed, agent_seed, first_game + i, hole_scores[i], turns[i], enders[i],
                     reasons[i], errors[i], agent_rng, pack, layout, view, stock, discard, GREEDY_ID)


@njit(cache=True, **NO_NRT, nogil=True)
def play_games_random_compact(rules_in, agent_ids, params, agent_fns, deal_seed, agent_seed, first_game, lo, hi,
                              hole_scores, turns, enders, reasons, errors, sees, pub, hid, deal_rng, agent_rng,
                              totals, scores, sight):
    """[`golfsim.kernels.simulate.play_games`][] for a table where random plays every seat, under rules that
    [`compact_rules`][golfsim.kernels.self_play.compact_rules] accepts."""
    rules = stack_like(rules_in, RULES_SIZE)
    for j in range(RULES_SIZE):
        rules[j] = rules_in[j]
    pack = stack_like(pub, MAX_CARDS)
    stock = stack_like(pub, MAX_CARDS)
    discard = stack_like(pub, MAX_CARDS)
    layout = stack_like(pub, LAYOUT_SIZE)
    view = stack_like(pub, LAYOUT_SIZE)
    _pack_of(rules, pack)
    for i in range(lo, hi):
        compact_game(rules, params, deal_seed, agent_seed, first_game + i, hole_scores[i], turns[i], enders[i],
                     reasons[i], errors[i], agent_rng, pack, layout, view, stock, discard, RANDOM_ID)
