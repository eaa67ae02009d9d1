"""pair-builder in hand-built positions: pairs first, high cards kept for their match, singles lowered otherwise."""

from golfsim.core.spec import DRAW_STOCK, PLACE_DRAWN, TAKE_DISCARD, THROW_DRAWN
from tests.agents.positions import position


def test_takes_a_queen_that_pairs_a_queen():
    pos = position(["Q 4 ? / ? 3 ?", "K K ? / ? ? ?"], discard="Q")
    assert pos.decide("pair-builder") == TAKE_DISCARD + 3


def test_completes_a_pair_of_face_up_cards_by_replacing_the_odd_one():
    # 8 over 5 is 13: an 8 replacing the 5 makes a pair
    pos = position(["8 K ? / 5 K ?", "9 9 ? / ? ? ?"], held="8")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 3


def test_keeps_a_queen_over_a_face_down_card_while_another_may_come():
    # the King does not replace the Queen (column 0 waits for a Queen); it covers a face-down card elsewhere
    pos = position(["Q 3 ? / ? 3 ?", "9 9 ? / ? ? ?"], held="K")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 2


def test_lets_the_queen_go_when_no_queen_can_come():
    pos = position(["Q 3 ? / ? 3 ?", "Q Q ? / ? ? ?"], pile=["Q"], held="K")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 0


def test_lets_the_queen_go_when_an_opponent_may_go_out_next_turn():
    pos = position(["Q 3 ? / ? 3 ?", "9 9 8 / 8 7 ?"], held="K")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 0


def test_lowers_singles_like_greedy_otherwise():
    pos = position(["7 3 ? / 5 K ?", "9 9 ? / ? ? ?"], held="A")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 0  # 7 over 5 is 12: an Ace there saves 6
    pos = position(["7 3 ? / 5 K ?", "9 9 ? / ? ? ?"], held="J")
    assert pos.decide("pair-builder") == THROW_DRAWN


def test_draws_when_the_discard_neither_pairs_nor_lowers_enough():
    pos = position(["7 3 ? / 5 K ?", "9 9 ? / ? ? ?"], discard="6")
    assert pos.decide("pair-builder") == DRAW_STOCK
