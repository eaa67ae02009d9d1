"""The learned value over reachable states: finite and deterministic under every variant, and the player's
afterstate values are the value of the state its move leaves (the incremental arithmetic against the full one)."""

from __future__ import annotations

import numpy as np
import pytest

from golfsim._numba.jit import hot
from golfsim.agents import parse_agent
from golfsim.agents.dispatch import act
from golfsim.agents.learned import WEIGHTS
from golfsim.agents.learned.policy import (
    action_values,
    context,
    decide,
    decide_plain,
    draw_value,
    draw_value_reference,
)
from golfsim.agents.learned.value import (
    LAYOUT_FEATURES,
    NUM_FEATURES,
    NUM_FEATURES_NT,
    NUM_RANKS,
    NUM_ROWS,
    jack_mate,
    value,
)
from golfsim.core.engine import apply_action, deal_shuffled, is_legal
from golfsim.core.rng import agent_state, deal_state
from golfsim.core.rules import R_DISCARD_FLIP, R_OFF_VIEW, Rules
from golfsim.core.spec import (
    CURRENT,
    DONE,
    FLIP_PHASE,
    HOLD,
    NUM_ACTIONS,
    OPEN,
    PHASE,
    PLACE_DRAWN,
    RECYCLES,
    START,
    STOCK_N,
    TAKE_DISCARD,
    THROW_DRAWN,
)
from golfsim.core.worlds import stack_float64
from golfsim.kernels.simulate import work_arrays
from tests.agents.test_agent_legality import VARIANTS

SEED = 23
DEALS = 20
WIDE = np.ascontiguousarray(np.hstack([WEIGHTS, np.random.default_rng(5).normal(
    0.0, 1.0, (NUM_ROWS, NUM_FEATURES_NT - NUM_FEATURES))]))
"""An n-tuple model (learned:model=2) with random tables: its incremental arithmetic must match the full value."""
MODELS = {"linear": WEIGHTS, "ntuple": WIDE}


def reachable(rules: Rules, deals: int, seed: int):
    """Every state of ``deals`` deals after each move, played by learned in even seats and random in odd ones
    (random reaches odd layouts): ``(pub, hid, mover)`` copies, mover the player who just moved."""
    packed = rules.pack()
    choices = [parse_agent("learned" if p % 2 == 0 else "random") for p in range(rules.players)]
    pub, hid, deal_rng, agent_rng, totals = work_arrays(packed)[:5]
    for game in range(deals):
        deal_rng[0] = deal_state(seed, game, 0)
        agent_rng[:] = [agent_state(seed, game, p) for p in range(rules.players)]
        deal_shuffled(pub, hid, packed, deal_rng, 0, game % rules.players, totals)
        while pub[PHASE] != DONE:
            p = int(pub[CURRENT])
            a = act(choices[p], pub, packed, agent_rng, p)
            assert is_legal(pub, packed, a)
            apply_action(pub, hid, packed, deal_rng, a)
            yield pub.copy(), hid.copy(), p


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_value_is_finite_and_deterministic_in_every_reachable_state(variant):
    rules = VARIANTS[variant]
    packed = rules.pack()
    out, gains = np.zeros(NUM_FEATURES), np.zeros(NUM_RANKS)
    values = np.zeros(NUM_ACTIONS)
    states = 0
    for pub, _, _ in reachable(rules, DEALS, SEED):
        if pub[PHASE] == DONE:
            continue
        before = pub.copy()
        for q in range(rules.players):
            v1 = value(pub, packed, WEIGHTS, np.int64(q), out, gains)
            v2 = value(pub, packed, WEIGHTS, np.int64(q), out, gains)
            assert np.isfinite(v1) and v1 == v2, f"{variant}: value {v1} then {v2} for player {q}"
        if pub[PHASE] != OPEN:
            action_values(pub, packed, WEIGHTS, np.int64(pub[CURRENT]), values)
            legal = [a for a in range(NUM_ACTIONS) if is_legal(pub, packed, a)]
            valued = [a for a in legal if not np.isnan(values[a])]
            assert valued == legal, f"{variant}: legal {legal}, valued {valued}"
            assert np.all(np.isfinite(values[legal]))
        assert np.array_equal(pub, before), "valuing wrote into the public state"
        states += 1
    assert states > 10 * DEALS


def _deterministic_moves(pub, packed, player):
    """Moves whose afterstate involves no chance and no stall bonus: a card onto a face-up position (not the last
    face-down one), and a throw without discard_and_flip."""
    phase = int(pub[PHASE])
    base = int(packed[R_OFF_VIEW]) + 6 * player
    up = [k for k in range(6) if pub[base + k] >= 0]
    if phase == START:
        return [TAKE_DISCARD + k for k in up]
    if phase == HOLD:
        return [PLACE_DRAWN + k for k in up] + ([THROW_DRAWN] if packed[R_DISCARD_FLIP] == 0 else [])
    return []


@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("rules", [Rules(), Rules(end="one_last_turn"), Rules(players=4),
                                   Rules(players=3, end="one_last_turn", jokers="minus2")],
                         ids=["2p", "2p last turn", "4p", "3p last turn jokers"])
def test_an_afterstate_value_is_the_value_of_the_state_the_move_leaves(rules, model):
    # the player values afterstates incrementally (one column changes); the full feature vector of the state the
    # engine reaches must give the same number, for every move that involves no chance
    packed = rules.pack()
    out, gains = np.zeros(NUM_FEATURES), np.zeros(NUM_RANKS)
    values = np.zeros(NUM_ACTIONS)
    checked = 0
    for pub, hid, _ in reachable(rules, 30, SEED + 1):
        if pub[PHASE] not in (START, HOLD) or pub[RECYCLES] >= 2:  # stalled (two recycles): a bonus applies
            continue
        p = int(pub[CURRENT])
        w = MODELS[model]
        action_values(pub, packed, w, np.int64(p), values)
        for a in _deterministic_moves(pub, packed, p):
            after_pub, after_hid = pub.copy(), hid.copy()
            apply_action(after_pub, after_hid, packed, np.ones(1, dtype=np.uint64), a)
            if after_pub[PHASE] in (DONE, FLIP_PHASE) or after_pub[CURRENT] == p:
                continue
            expected = value(after_pub, packed, w, np.int64(p), out, gains)
            assert values[a] == pytest.approx(expected, abs=1e-9), f"action {a}"
            checked += 1
    assert checked > 500


@hot
def _both_draw_values(pub, rules, w, player):
    gains = stack_float64(NUM_RANKS)
    opp = stack_float64(LAYOUT_FEATURES)
    ctx = context(pub, rules, w, player, gains, opp, jack_mate(rules))
    return draw_value(pub, rules, w, ctx, gains), draw_value_reference(pub, rules, w, ctx, gains)


@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_fast_draw_value_is_the_plain_one_to_the_last_bit(variant, model):
    # the fast expectation over the drawn card hoists and shares terms; its choices must stay the plain one's
    rules = VARIANTS[variant]
    packed = rules.pack()
    checked = 0
    for pub, _, _ in reachable(rules, DEALS, SEED + 2):
        if pub[PHASE] != START or pub[STOCK_N] == 0:
            continue
        fast, plain = _both_draw_values(pub, packed, MODELS[model], np.int64(pub[CURRENT]))
        assert fast == plain, f"{variant}: {fast!r} != {plain!r}"
        checked += 1
    assert checked > 5 * DEALS


@hot
def _both_decisions(pub, rules, w, player, agent_rng):
    return decide(pub, rules, w, player, agent_rng, 0.0), decide_plain(pub, rules, w, player, agent_rng, 0.0)


PLAIN_VARIANTS = [name for name, rules in VARIANTS.items() if not rules.one_eyed_jacks]


@pytest.mark.parametrize("model", list(MODELS))
@pytest.mark.parametrize("variant", PLAIN_VARIANTS)
def test_the_plain_copy_chooses_the_general_copys_moves(variant, model):
    # learned plays decide_plain wherever each rank is one card code; it must be decide with the checks compiled out
    rules = VARIANTS[variant]
    packed = rules.pack()
    checked = 0
    for pub, _, _ in reachable(rules, DEALS, SEED + 4):
        if pub[PHASE] in (DONE, OPEN):
            continue
        general, plain = _both_decisions(pub, packed, MODELS[model], np.int64(pub[CURRENT]), np.zeros(1, np.uint64))
        assert general == plain, f"{variant}: decide {general}, decide_plain {plain}"
        checked += 1
    assert checked > 10 * DEALS


def test_learned_plays_the_plain_copy_unless_one_eyed_jacks_are_in():
    from golfsim.agents.learned import learned_act, learned_act_plain, learned_variant

    assert learned_variant(Rules().pack()) is learned_act_plain
    assert learned_variant(Rules(super_kings=True, players=4).pack()) is learned_act_plain
    assert learned_variant(Rules(one_eyed_jacks=True).pack()) is learned_act
