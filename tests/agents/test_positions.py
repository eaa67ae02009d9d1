"""The hand-built positions of the agent tests are valid states the engine can play on."""

from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, FLIP, HOLD, PHASE, PLACE_DRAWN, START, TAKE_DISCARD
from tests.agents.positions import check, opening, position


def test_a_position_is_written_as_text():
    pos = position(["Q 4 ?K / ? 3 ?", "K K ? / ? ? ?"], discard="Q", pile=["7", "J"])
    assert pos.view(0) == [12, 4, -1, -1, 3, -1]
    assert pos.view(1) == [13, 13, -1, -1, -1, -1]
    assert pos.hid[2] == 13  # the face-down King at position 2
    assert pos.pub[PHASE] == START
    after = pos.play(TAKE_DISCARD + 3)  # the engine plays on it
    check(after)
    assert after.view(0)[3] == 12


def test_a_held_card_is_drawn_by_the_engine():
    pos = position(["Q 4 ? / ? 3 ?", "K K ? / ? ? ?"], held="9", recycled=True)
    assert pos.pub[PHASE] == HOLD and pos.pub[2] == 9
    check(pos.play(PLACE_DRAWN + 2))


def test_every_variant_builds():
    for rules in (Rules(players=3, jokers="minus2"), Rules(players=6), Rules(discard_and_flip="may")):
        layouts = ["? ? ? / ? ? ?"] * rules.players
        if rules.jokers != "none":
            layouts[0] = "X ? ? / ? ? ?"
        pos = position(layouts, rules=rules)
        check(pos.play(DRAW_STOCK))


def test_the_opening_phase():
    pos = opening(Rules(opening_flips="same_column"), first_flip=1)
    assert pos.decide("ev") == FLIP + 4
