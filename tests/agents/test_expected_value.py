"""ev in hand-built positions, and its fast valuation against the plain reference on positions from real games."""

import numpy as np
import pytest

from golfsim.agents import parse_agent
from golfsim.agents.dispatch import act
from golfsim.agents.expected_value import (
    best_placement,
    best_placement_reference,
    decision_context,
    discard_watch,
    draw_value,
    draw_value_reference,
)
from golfsim.core.engine import apply_action, deal_shuffled, top_discard
from golfsim.core.rng import deal_state
from golfsim.core.rules import R_HID_SIZE, R_OFF_VIEW, R_PUB_SIZE, Rules
from golfsim.core.spec import (
    CURRENT,
    DONE,
    DRAW_STOCK,
    HELD,
    HOLD,
    PHASE,
    PLACE_DRAWN,
    START,
    TAKE_DISCARD,
    THROW_DRAWN,
)
from tests.agents.positions import position


def test_takes_a_discarded_king_over_a_face_down_card():
    pos = position(["A 2 ? / 3 A ?", "9 9 ? / ? ? ?"], discard="K")
    assert pos.decide("ev") == TAKE_DISCARD + 2


def test_draws_rather_than_take_a_useless_discard():
    pos = position(["A 2 ? / 3 A ?", "9 9 ? / ? ? ?"], discard="J")
    assert pos.decide("ev") == DRAW_STOCK


def test_completes_a_pair_with_a_drawn_card():
    pos = position(["9 K ? / ? 2 ?", "5 5 ? / ? ? ?"], held="9")
    assert pos.decide("ev") == PLACE_DRAWN + 3


def test_does_not_go_out_when_clearly_behind():
    # covering the last card with the 5 pairs it and locks in 14; the opponent shows two pairs (0) and has a column
    # of two face-down cards, about 11 in expectation: going out would lose the hole
    pos = position(["3 3 5 / 4 4 ?", "K 2 ? / K 2 ?"], held="5")
    assert pos.decide("ev") != PLACE_DRAWN + 5
    # the same 14 against an opponent showing 36 points: out it goes
    pos = position(["3 3 5 / 4 4 ?", "Q J ? / 9 8 ?"], held="5")
    assert pos.decide("ev") == PLACE_DRAWN + 5


def test_on_the_last_hole_going_out_is_judged_on_game_totals():
    rules = Rules(holes=9)
    ahead = position(["3 3 5 / 4 4 ?", "K 2 ? / K 2 ?"], rules=rules, held="5", hole=8, totals=[10, 40])
    assert ahead.decide("ev") == PLACE_DRAWN + 5  # 24 against about 51: going out wins the game
    behind = position(["3 3 5 / 4 4 ?", "Q J ? / 9 8 ?"], rules=rules, held="5", hole=8, totals=[60, 10])
    assert behind.decide("ev") != PLACE_DRAWN + 5  # 74 against about 57


def test_in_the_last_turn_circuit_going_out_is_free():
    rules = Rules(end="one_last_turn")
    pos = position(["3 3 5 / 4 4 ?", "K 2 K / K 2 K"], rules=rules, held="5", current=0, ender=1, final_left=1)
    assert pos.decide("ev") == PLACE_DRAWN + 5


def test_a_recycled_stock_is_counted_from_its_known_cards():
    # after a recycle the stock is known to hold only high cards: the 4 on the discard beats any draw
    layouts = ["K 2 ?Q / 2 K ?J", "9 9 9 / 9 ?10 ?8"]
    high = ["J", "Q", "10"]
    pos = position(layouts, discard="4", recycled=True, stock=high, stock_only=True)
    assert pos.decide("ev") == TAKE_DISCARD + 2
    # a recycled stock known to hold only Kings and twos: any draw beats the 4
    pos = position(layouts, discard="4", recycled=True, stock=["K", "K", "2"], stock_only=True)
    assert pos.decide("ev") == DRAW_STOCK


# ---------------------------------------------------------------- fast valuation == reference
def positions_from_games(rules: Rules, agent: str, deals: int, seed: int):
    """START and HOLD states met by ``agent`` in every seat of ``deals`` deals."""
    packed = rules.pack()
    choice = parse_agent(agent)
    pub = np.zeros(packed[R_PUB_SIZE], dtype=np.int32)
    hid = np.zeros(packed[R_HID_SIZE], dtype=np.int16)
    deal_rng = np.zeros(1, dtype=np.uint64)
    agent_rng = np.arange(rules.players, dtype=np.uint64)
    out = []
    for g in range(deals):
        deal_rng[0] = deal_state(seed, g, 0)
        deal_shuffled(pub, hid, packed, deal_rng, 0, 0, np.zeros(rules.players, dtype=np.int32))
        while pub[PHASE] != DONE:
            if pub[PHASE] in (START, HOLD):
                out.append(pub.copy())
            action = act(choice, pub, packed, agent_rng, pub[CURRENT])
            apply_action(pub, hid, packed, deal_rng, action)
    return out


FAST_VS_REFERENCE = [
    Rules(),
    Rules(players=3, end="one_last_turn", jokers="minus5", twos_pair="keep_negative"),
    Rules(players=4, jokers="minus2", turn_cap=60),  # a low cap makes the deals stall: the stall bonus is exercised
    Rules(players=3, one_eyed_jacks=True),  # a one-eyed jack pairs with a jack: pairs by rank, two jack codes
]


@pytest.mark.parametrize("rules", FAST_VS_REFERENCE,
                         ids=["default", "3p-last-turn-jokers", "4p-stalled", "3p-one-eyed-jacks"])
@pytest.mark.slow
def test_the_fast_valuation_agrees_with_the_reference(rules):
    packed = rules.pack()
    params = parse_agent("ev").param_vector()
    checked = 0
    for pub in positions_from_games(rules, "ev", deals=40, seed=3):
        player = int(pub[CURRENT])
        base = int(packed[R_OFF_VIEW]) + 6 * player
        ctx = decision_context(pub, packed, params, player, draw_value)
        fast = draw_value(pub, packed, base, ctx.now, ctx)
        slow = draw_value_reference(pub, packed, base, ctx.now, ctx)
        assert fast == pytest.approx(slow, abs=1e-9)
        card = int(pub[HELD]) if pub[PHASE] == HOLD else int(top_discard(pub, packed))
        watch = discard_watch(pub, packed, params, player, ctx)
        k_fast, v_fast = best_placement(pub, packed, params, player, base, card, 1e12, ctx, watch)
        k_slow, v_slow = best_placement_reference(pub, packed, params, player, base, card, 1e12, ctx, watch)
        assert v_fast == pytest.approx(v_slow, abs=1e-9)
        assert k_fast == k_slow or v_fast == pytest.approx(v_slow, abs=1e-9)
        checked += 1
    assert checked > 300


def test_keeps_a_high_card_over_a_face_down_card_only_while_its_match_can_come():
    # a Jack over a face-down card may become a pair of Jacks while two more can come ...
    pos = position(["K 2 ? / K 2 ?", "9 4 ? / ? ? ?"], held="J")
    assert pos.decide("ev") == PLACE_DRAWN + 2
    # ... but with every other Jack seen it is just 10 points: thrown away
    pos = position(["K 2 ? / K 2 ?", "J J ? / ? ? ?"], pile=["J"], held="J")
    assert pos.decide("ev") == THROW_DRAWN
