"""ev under the house rules it values (docs/RULES.md, "House rules"): positions where one move is right only under
the rule, each checked without the rule as well."""

from golfsim.core.rules import Rules
from golfsim.core.spec import PLACE_DRAWN, THROW_DRAWN
from tests.agents.positions import position


def test_knock_penalty_keeps_ev_from_going_out_when_only_slightly_ahead():
    # covering the last card with the 5 pairs it: 3+4, 3+4 and a pair of 5s lock in 14. The opponent shows K/K (0)
    # and 2/6 (4) and has a column of two face-down cards, about 11.4 in expectation: about 15.4 in all. Without the
    # rule 14 <= 15.4, so ev goes out; with it, an opponent below 14 is about as likely as not (their score varies by
    # several points), which costs +10 that often: 14 + ~3.6 is above 15.4, so ev keeps playing
    layouts = ["3 3 5 / 4 4 ?", "K 2 ? / K 6 ?"]
    assert position(layouts, held="5").decide("ev") == PLACE_DRAWN + 5
    assert position(layouts, held="5", rules=Rules(knock_penalty=True)).decide("ev") != PLACE_DRAWN + 5


def test_blackjack_makes_ev_go_out_with_exactly_21():
    # the held King pairs the King above the last card: Q+7 = 17, 3+A = 4, K/K = 0, exactly 21. The opponent
    # (K/K and 2/2, pairs that score 0, and two face-down cards, about 12 in all) is far ahead, so without the rule
    # going out with 21 is not allowed; with blackjack 21 scores 0 and going out wins the hole
    layouts = ["Q 3 K / 7 A ?", "K 2 ? / K 2 ?"]
    assert position(layouts, held="K").decide("ev") != PLACE_DRAWN + 5
    assert position(layouts, held="K", rules=Rules(blackjack=True)).decide("ev") == PLACE_DRAWN + 5


def test_knock_bonus_makes_ev_go_out_where_it_would_play_on():
    # the 6 on the last card: 3+4, 3+4 and 5+6 end the deal at 25 against an opponent at about 21.5 (K/K, 5+6 and 4
    # over a face-down card). Without the rule that is past ev's going-out limit, and it puts the 6 over the 5
    # instead; the knock bonus takes 5 off the score it goes out with, inside the limit
    layouts = ["3 3 5 / 4 4 ?", "K 5 4 / K 6 ?"]
    assert position(layouts, held="6").decide("ev") == PLACE_DRAWN + 2
    assert position(layouts, held="6", rules=Rules(knock_bonus=True)).decide("ev") == PLACE_DRAWN + 5


def test_wolfpack_makes_ev_go_out_with_two_column_pairs_of_jacks():
    # the fourth jack on the face-down card pairs the jack above it: J/J twice and Q+10, 20 against an opponent at
    # about 13.5, so without the rule ev throws the jack and plays on; the wolfpack takes the 20 to 0
    layouts = ["J J Q / J ? 10", "K 5 2 / K 5 ?"]
    assert position(layouts, held="J").decide("ev") == THROW_DRAWN
    assert position(layouts, held="J", rules=Rules(wolfpack=True)).decide("ev") == PLACE_DRAWN + 4


def test_tied_shame_keeps_ev_from_going_out_into_a_likely_tie_at_three_players():
    # the ace on the last card ends the deal (end=immediate) at 7 + 7 + 6 = 20; the first opponent is at about 21.5
    # in expectation (K/K, 5+6 and 4 over a face-down card), the second far behind. Without the rule ev goes out;
    # with it a tie (+5) is likely enough that ev puts the ace over a 3 and plays on
    layouts = ["3 3 5 / 4 4 ?", "K 5 4 / K 6 ?", "Q Q J / 10 9 ?"]
    assert position(layouts, held="A", rules=Rules(players=3)).decide("ev") == PLACE_DRAWN + 5
    assert position(layouts, held="A", rules=Rules(players=3, tied_shame=True)).decide("ev") != PLACE_DRAWN + 5
