"""Invariants of the compiled engine over more than a million random deals across the variants.

After every action: every card of the pack is in exactly one place (layouts, stock, discard pile, the drawn card);
the public ``unseen`` counts equal the face-down cards plus the never-seen stock, and their running totals
``UNSEEN_CARDS``/``UNSEEN_POINTS`` agree; only legal actions were played.
Every deal ends: at once when a player is fully face up (``immediate``), or after exactly one more turn for every
other player (``one_last_turn``); truncation happens only at the cap, and is counted.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from golfsim.agents.random_agent import random_act
from golfsim.core.engine import apply_action, deal_shuffled, face_down_count, is_legal
from golfsim.core.rng import agent_state, deal_state
from golfsim.core.rules import (
    R_COUNTS,
    R_END,
    R_HID_SIZE,
    R_HID_STOCK,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    R_POINTS,
    R_PUB_SIZE,
    R_TURN_CAP,
    Rules,
)
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    DRAW_STOCK,
    END_REASON,
    ENDER,
    HELD,
    PHASE,
    PLACE_DRAWN,
    RECYCLES,
    STOCK_N,
    TRUNCATED,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
    WENT_OUT,
)

OK = 0
ILLEGAL, CARDS_LOST, UNSEEN_WRONG, FACE_UP_BUT_RUNNING, BAD_END, BAD_LAST_CIRCUIT, BAD_TRUNCATION = range(1, 8)
PROBLEMS = ["ok", "illegal action", "a card is missing or doubled", "unseen counts wrong",
            "a layout is fully face up but the deal runs on", "deal ended without a reason",
            "one-last-turn circuit was not exactly one turn per other player", "truncated away from the cap"]


@njit
def _check_cards(pub, hid, rules, counts):
    """Every card in exactly one place, and ``unseen`` = face-down cards + never-seen stock."""
    players = rules[R_PLAYERS]
    counts[:] = 0
    for i in range(6 * players):
        counts[hid[i]] += 1
    hs = rules[R_HID_STOCK]
    for i in range(pub[STOCK_N]):
        counts[hid[hs + i]] += 1
    od = rules[R_OFF_DISCARD]
    for i in range(pub[DISCARD_N]):
        counts[pub[od + i]] += 1
    if pub[HELD] >= 0:
        counts[pub[HELD]] += 1
    for r in range(14):
        if counts[r] != rules[R_COUNTS + r]:
            return CARDS_LOST
    counts[:] = 0
    ov = rules[R_OFF_VIEW]
    for i in range(6 * players):
        if pub[ov + i] < 0:
            counts[hid[i]] += 1
    if pub[RECYCLES] == 0:
        for i in range(pub[STOCK_N]):
            counts[hid[hs + i]] += 1
    else:
        known = np.zeros(14, dtype=np.int64)
        for i in range(pub[STOCK_N]):
            known[hid[hs + i]] += 1
        for r in range(14):
            if known[r] != pub[rules[R_OFF_STOCK_KNOWN] + r]:
                return UNSEEN_WRONG
    n = 0
    points = 0
    for r in range(14):
        if counts[r] != pub[rules[R_OFF_UNSEEN] + r]:
            return UNSEEN_WRONG
        n += counts[r]
        points += counts[r] * rules[R_POINTS + r]
    if pub[UNSEEN_CARDS] != n or pub[UNSEEN_POINTS] != points:
        return UNSEEN_WRONG
    return OK


@njit
def play_checked(rules, seed, n_deals, hoard, tallies):
    """Play ``n_deals`` random (or hoarding) deals checking every invariant; return (problem, deal) or (0, -1).

    ``tallies`` gets: deals, actions, went out, truncated, recycles.
    """
    players = rules[R_PLAYERS]
    pub = np.zeros(rules[R_PUB_SIZE], dtype=np.int32)
    hid = np.zeros(rules[R_HID_SIZE], dtype=np.int16)
    deal_rng = np.zeros(1, dtype=np.uint64)
    agent_rng = np.zeros(players, dtype=np.uint64)
    totals = np.zeros(players, dtype=np.int32)
    params = np.zeros(8)
    counts = np.zeros(14, dtype=np.int64)
    for g in range(n_deals):
        deal_rng[0] = deal_state(seed, g, 0)
        for p in range(players):
            agent_rng[p] = agent_state(seed, g, p)
        deal_shuffled(pub, hid, rules, deal_rng, g % 9, (g % 9) % players, totals)
        problem = _check_cards(pub, hid, rules, counts)
        if problem != OK:
            return problem, g
        turns_after_out = 0
        while pub[PHASE] != DONE:
            p = pub[CURRENT]
            a = random_act(pub, rules, params, agent_rng[p:p + 1], p)
            if hoard and agent_rng[p] % np.uint64(10) != 0:
                if is_legal(pub, rules, DRAW_STOCK):
                    a = DRAW_STOCK
                else:
                    for k in range(6):
                        if pub[rules[R_OFF_VIEW] + p * 6 + k] >= 0:
                            a = PLACE_DRAWN + k if is_legal(pub, rules, PLACE_DRAWN + k) else a
            if not is_legal(pub, rules, a):
                return ILLEGAL, g
            ender_before = pub[ENDER]
            apply_action(pub, hid, rules, deal_rng, a)
            tallies[1] += 1
            if ender_before >= 0 and (pub[PHASE] == DONE or pub[CURRENT] != p):
                turns_after_out += 1  # a turn played after someone went out has ended
            problem = _check_cards(pub, hid, rules, counts)
            if problem != OK:
                return problem, g
            if pub[PHASE] != DONE and pub[ENDER] < 0:
                for q in range(players):
                    if face_down_count(pub, rules, q) == 0:
                        return FACE_UP_BUT_RUNNING, g
        reason = pub[END_REASON]
        if reason == WENT_OUT:
            tallies[2] += 1
            if rules[R_END] == 1 and turns_after_out != players - 1:
                return BAD_LAST_CIRCUIT, g
            if rules[R_END] == 0 and turns_after_out != 0:
                return BAD_LAST_CIRCUIT, g
        elif reason == TRUNCATED:
            tallies[3] += 1
            if pub[TURN] != rules[R_TURN_CAP]:
                return BAD_TRUNCATION, g
        elif reason == 0:
            return BAD_END, g
        tallies[0] += 1
        tallies[4] += pub[RECYCLES]
    return OK, -1


VARIANTS = {
    "default": Rules(),
    "3 players": Rules(players=3),
    "4 players": Rules(players=4),
    "5 players": Rules(players=5),
    "8 players": Rules(players=8),
    "12 players": Rules(players=12),
    "same_column": Rules(opening_flips="same_column"),
    "different_columns": Rules(opening_flips="different_columns"),
    "reveal": Rules(reveal_instead_of_draw=True),
    "discard_flip_may": Rules(discard_and_flip="may"),
    "discard_flip_must": Rules(discard_and_flip="must"),
    "one_last_turn": Rules(end="one_last_turn"),
    "one_last_turn 4p": Rules(players=4, end="one_last_turn"),
    "jokers_minus2": Rules(jokers="minus2"),
    "jokers_minus3 2 decks": Rules(jokers="minus3", decks=2),
    "twos_keep_negative": Rules(twos_pair="keep_negative"),
    "combined": Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True, discard_and_flip="may",
                      jokers="zero", opening_flips="different_columns", four_of_a_kind_bonus=-10),
}
DEALS_PER_VARIANT = 60_000  # 17 variants: more than a million deals in all


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.slow
def test_random_deals_keep_every_invariant(name):
    rules = VARIANTS[name].pack()
    tallies = np.zeros(5, dtype=np.int64)
    problem, deal = play_checked(rules, 2024, DEALS_PER_VARIANT, False, tallies)
    assert problem == OK, f"{PROBLEMS[problem]} in deal {deal} under {name}"
    assert tallies[0] == DEALS_PER_VARIANT
    assert tallies[2] + tallies[3] == DEALS_PER_VARIANT  # every deal ended by going out or at the cap
    assert tallies[3] == 0  # random players always finish long before the default cap of 1000 turns


@pytest.mark.parametrize("name", ["default", "one_last_turn 4p", "discard_flip_must", "combined"])
def test_hoarding_deals_recycle_and_truncate_only_at_the_cap(name):
    rules = VARIANTS[name].replace(turn_cap=150).pack()
    tallies = np.zeros(5, dtype=np.int64)
    problem, deal = play_checked(rules, 7, 20_000, True, tallies)
    assert problem == OK, f"{PROBLEMS[problem]} in deal {deal} under {name}"
    assert tallies[4] > 0, "no stock was recycled"
    assert tallies[3] > 0, "no deal reached the cap"
    assert tallies[2] + tallies[3] == 20_000
