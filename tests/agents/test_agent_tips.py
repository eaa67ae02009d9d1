"""Each strategy tip of the seed guide (seeds/004) is a switch on one agent, so an experiment can A/B test it.

==========================================================  ================================================
tip                                                         agent and parameter (off value)
==========================================================  ================================================
(a) swap blind early: a 3 or a King over a face-down card   ``greedy:blind_swap`` (threshold; -99 off)
(b) build pairs before you lower singles                    ``pair-builder:pairs_first`` (1 on, 0 off)
(c) keep a Queen above a face-down card while one may come  ``pair-builder:keep_threshold`` (points; 99 off)
(d) watch the discard pile                                  ``ev:watch_discard`` (weight; 0 off)
(e) count before you go out                                 ``ev:count_out`` (1 on, 0 off)
(f) a lone two is worth more than a pair of twos            ``pair-builder:lone_two`` (1 on, 0 off)
==========================================================  ================================================

Each test shows a position where the switch changes the decision the way the tip says it should.
"""

from golfsim.agents import REGISTRY
from golfsim.core.spec import PLACE_DRAWN, THROW_DRAWN
from tests.agents.positions import position

TIPS = {
    "a": ("greedy", "blind_swap"),
    "b": ("pair-builder", "pairs_first"),
    "c": ("pair-builder", "keep_threshold"),
    "d": ("ev", "watch_discard"),
    "e": ("ev", "count_out"),
    "f": ("pair-builder", "lone_two"),
}


def test_every_tip_is_a_documented_parameter():
    for agent, param in TIPS.values():
        assert param in {p.name for p in REGISTRY[agent].params}


def test_a_swap_blind_early():
    # a drawn King saves most by replacing the Queen; with the tip it goes over a face-down card
    pos = position(["Q 3 ? / 4 2 ?", "9 9 ? / ? ? ?"], held="K")
    assert pos.decide("greedy") == PLACE_DRAWN + 0
    assert pos.decide("greedy:blind_swap=3") == PLACE_DRAWN + 2
    # greedy told that face-down cards are worth 3 throws a 3 away; with the tip it swaps blind
    pos = position(["K A ? / 2 A ?", "Q J ? / ? ? ?"], held="3")
    assert pos.decide("greedy:fixed_hidden=1,hidden_value=3") == THROW_DRAWN
    assert pos.decide("greedy:fixed_hidden=1,hidden_value=3,blind_swap=3") == PLACE_DRAWN + 2
    # a card above the threshold is unaffected
    pos = position(["K A ? / 2 A ?", "Q J ? / ? ? ?"], held="5")
    assert pos.decide("greedy:fixed_hidden=1,hidden_value=3,blind_swap=3") == THROW_DRAWN


def test_b_build_pairs_before_lowering_singles():
    # an Ace pairs the Ace (saving the Ace and a face-down card, about 6.5) or replaces the Queen over the Jack
    # (saving 9): pairs first takes the pair, without the tip the bigger saving wins
    pos = position(["A Q ? / ? J ?", "9 9 ? / ? ? ?"], held="A")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 3
    assert pos.decide("pair-builder:pairs_first=0") == PLACE_DRAWN + 1


def test_c_keep_a_high_card_over_a_face_down_card():
    pos = position(["Q 3 ? / ? 3 ?", "9 9 ? / ? ? ?"], held="K")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 2  # the Queen waits for its match
    assert pos.decide("pair-builder:keep_threshold=99") == PLACE_DRAWN + 0  # the King replaces the Queen
    assert pos.decide("pair-builder:keep_threshold=11") == PLACE_DRAWN + 0  # a threshold above a Queen's 10


def test_d_watch_the_discard_pile():
    # nothing useful to do with a drawn Queen; the next player has a Queen over a face-down card. With the tip, ev
    # swaps the Queen for its own Jack (same points) and leaves the Jack on the pile instead
    pos = position(["J 4 ? / 4 ? ?", "Q 3 ? / ? 6 ?"], held="Q")
    assert pos.decide("ev:watch_discard=0") == THROW_DRAWN
    assert pos.decide("ev") == PLACE_DRAWN + 0


def test_e_count_before_you_go_out():
    # going out locks in 14 while the opponent is at about 11: not with the tip, at once without it
    pos = position(["3 3 5 / 4 4 ?", "K 2 ? / K 2 ?"], held="5")
    assert pos.decide("ev") != PLACE_DRAWN + 5
    assert pos.decide("ev:count_out=0") == PLACE_DRAWN + 5
    # a margin lets it go out a few points behind
    assert pos.decide("ev:out_margin=5") == PLACE_DRAWN + 5


def test_f_a_lone_two_beats_a_pair_of_twos():
    pos = position(["2 Q ? / ? J ?", "9 9 ? / ? ? ?"], held="2")
    assert pos.decide("pair-builder") == PLACE_DRAWN + 1  # the two replaces the Queen and stays alone
    assert pos.decide("pair-builder:lone_two=0") == PLACE_DRAWN + 3  # pairs first: two over two, 0 points
