"""greedy in hand-built positions: every card goes where it lowers the estimated score most, right now.

With one deck and few cards seen, a face-down card is worth about 5.5 points to greedy (the mean of the unseen
cards), so a card below that is worth putting over a face-down card, and a Queen is worth nothing.
"""

from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, FLIP, PASS, PLACE_DRAWN, TAKE_DISCARD, THROW_DRAWN
from tests.agents.positions import opening, position


def test_throws_a_drawn_queen_when_it_has_nothing_worse():
    pos = position(["K 3 ? / 2 A ?", "Q J ? / ? ? ?"], held="Q")
    assert pos.decide("greedy") == THROW_DRAWN


def test_a_drawn_king_replaces_the_highest_card():
    # Q over 4 is 14 points; a King there makes 4: a gain of 10, more than a face-down card's 5.5
    pos = position(["Q 3 ? / 4 2 ?", "9 9 ? / ? ? ?"], held="K")
    assert pos.decide("greedy") == PLACE_DRAWN + 0


def test_ties_go_to_the_lowest_position():
    pos = position(["Q Q ? / 4 4 ?", "9 9 ? / ? ? ?"], held="K")
    assert pos.decide("greedy") == PLACE_DRAWN + 0


def test_takes_a_discard_that_completes_a_pair():
    pos = position(["9 5 ? / ? 5 2", "K K ? / ? ? ?"], discard="9")
    assert pos.decide("greedy") == TAKE_DISCARD + 3


def test_draws_when_the_discard_gains_less_than_take_gain():
    # a 5 over a face-down card (worth about 5.5) gains half a point
    pos = position(["K A ? / 2 A ?", "Q J ? / ? ? ?"], discard="5")
    assert pos.decide("greedy") == DRAW_STOCK
    assert pos.decide("greedy:take_gain=0") == TAKE_DISCARD + 2


def test_a_fixed_hidden_value_changes_what_a_card_is_worth():
    pos = position(["K A ? / 2 A ?", "Q J ? / ? ? ?"], held="4")
    assert pos.decide("greedy") == PLACE_DRAWN + 2
    assert pos.decide("greedy:fixed_hidden=1,hidden_value=3") == THROW_DRAWN


def test_goes_out_when_that_is_the_greedy_move():
    pos = position(["K K 7 / 2 2 ?", "Q J ? / ? ? ?"], held="7")
    assert pos.decide("greedy") == PLACE_DRAWN + 5


def test_opening_flips_take_two_columns_or_one_when_required():
    assert opening(Rules()).decide("greedy") == FLIP + 0
    assert opening(Rules(), first_flip=0).decide("greedy") == FLIP + 1
    assert opening(Rules(opening_flips="same_column"), first_flip=0).decide("greedy") == FLIP + 3


def test_flip_after_a_throw_turns_the_card_beside_the_highest_face_up_card():
    rules = Rules(discard_and_flip="must")
    pos = position(["3 Q ? / ? ? 4", "9 9 ? / ? ? ?"], rules=rules, thrown="J")
    assert pos.decide("greedy") == FLIP + 4


def test_never_flips_its_last_card_when_the_flip_is_optional():
    may = Rules(discard_and_flip="may")
    pos = position(["3 Q K / 4 ? 4", "9 9 ? / ? ? ?"], rules=may, thrown="J")
    assert pos.decide("greedy") == PASS
    must = Rules(discard_and_flip="must")
    pos = position(["3 Q K / 4 ? 4", "9 9 ? / ? ? ?"], rules=must, thrown="J")
    assert pos.decide("greedy") == FLIP + 4
