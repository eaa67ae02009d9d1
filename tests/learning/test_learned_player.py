"""The learned player in hand-built positions where one move is clearly best, and its registration."""

from __future__ import annotations

from golfsim.agents import parse_agent
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, PLACE_DRAWN, TAKE_DISCARD, THROW_DRAWN
from tests.agents.positions import position


def test_it_takes_the_discard_that_completes_a_pair_of_queens():
    # a Queen over a face-down card and a Queen on the discard: under the Queen it makes a column of 0 from one of
    # about 16 expected points; every other move leaves that column as it is
    pos = position(["Q 4 ? / ? 3 ?", "K K ? / ? ? ?"], discard="Q")
    assert pos.decide("learned") == TAKE_DISCARD + 3


def test_it_goes_out_with_a_score_of_zero_when_the_opponent_is_far_behind():
    # the drawn ace completes a layout of three pairs (0 points) and ends the deal; the opponent shows 39 points
    # and has four cards face down
    pos = position(["K 2 A / K 2 ?", "Q J ? / 10 ? 9"], held="A", turn=12)
    assert pos.decide("learned") == PLACE_DRAWN + 5


def test_it_throws_away_a_card_that_only_makes_things_worse():
    # the last turn of the deal (the opponent went out): two pairs and a King over a face-down card; a Jack costs
    # eight points or more over a face-up card and about four more than the face-down card's expectation under the King
    pos = position(["K 2 K / K 2 ?", "6 6 7 / 6 6 9"], held="J", rules=Rules(end="one_last_turn"), ender=1,
                   final_left=1)
    assert pos.decide("learned") == THROW_DRAWN


def test_it_draws_rather_than_take_a_queen_it_cannot_use():
    # the top discard is a Queen and nothing pairs with it: any place for it costs points against a draw
    pos = position(["K 3 ? / K ? ?", "? ? ? / ? ? ?"], discard="Q", pile=["Q", "Q"])
    assert pos.decide("learned") == DRAW_STOCK


def test_it_is_registered_as_a_learned_agent_whose_parameters_are_the_depth_the_exact_endgame_and_the_model():
    choice = parse_agent("learned")
    assert choice.spec.kind == "learned" and choice.spec.compiled and not choice.spec.built_in
    assert [(p.name, p.default, p.kind, p.low, p.high) for p in choice.spec.params] == [
        ("depth", 1.0, "int", None, None), ("exact", 0.0, "bool", None, None), ("model", 1.0, "int", None, None)]
