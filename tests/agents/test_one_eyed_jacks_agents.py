"""ev, greedy and pair-builder under ``one_eyed_jacks`` (a one-eyed jack, J♥ or J♠, written ``JH``, is worth 0
and pairs with any jack): positions where one move is right only because a one-eyed jack pairs with a jack or is
among the cards still to come, each checked against a card worth the same 0 points that pairs with nothing (a King),
and without the rule."""

import numpy as np
import pytest

from golfsim.agents.expected_value import PARAMS, ev_action_values
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, NUM_ACTIONS, TAKE_DISCARD
from tests.agents.positions import position

OEJ = Rules(one_eyed_jacks=True)
# player 0: a jack over a face-down card, a Queen over a 3 and two face-down cards; the opponent needs none of it
LAYOUTS = ["J Q ? / ? 3 ?", "5 6 ? / 7 8 ?"]


@pytest.mark.parametrize("agent", ["ev", "pair-builder"])
def test_a_discarded_one_eyed_jack_is_taken_under_the_jack(agent):
    # the one-eyed jack under the jack pairs it: column 0 goes from a jack over a face-down card (about 15) to 0,
    # more than the 10 points replacing the Queen saves. A King is worth 0 as well but pairs nothing: it replaces
    # the Queen, with or without the rule
    assert position(LAYOUTS, rules=OEJ, discard="JH").decide(agent) == TAKE_DISCARD + 3
    assert position(LAYOUTS, rules=OEJ, discard="K").decide(agent) == TAKE_DISCARD + 1
    assert position(LAYOUTS, discard="K").decide(agent) == TAKE_DISCARD + 1


def test_ev_counts_one_eyed_jacks_in_the_stock():
    # a recycled stock of the two one-eyed jacks: a draw is sure to pair the jack over the 9 (column 19 -> 0, a
    # saving of 19), which beats taking the 2 to the jack or the Queen (a saving of 12). The same stock of two Kings
    # (0 points, pairing nothing) saves at most 10, so ev takes the 2, with or without the rule
    layouts = ["J Q ? / 9 3 ?", "5 6 ? / 7 8 ?"]
    assert position(layouts, rules=OEJ, discard="2", stock=("JH", "JS"), stock_only=True,
                    recycled=True).decide("ev") == DRAW_STOCK
    assert position(layouts, rules=OEJ, discard="2", stock=("K", "K"), stock_only=True,
                    recycled=True).decide("ev") == TAKE_DISCARD
    assert position(layouts, discard="2", stock=("K", "K"), stock_only=True, recycled=True).decide("ev") == TAKE_DISCARD


def ev_values(pos):
    """ev's value of every action in ``pos``."""
    values = np.zeros(NUM_ACTIONS)
    ev_action_values(pos.pub, pos.packed, np.array([p.default for p in PARAMS]), pos.player, values)
    return values


@pytest.mark.parametrize(("bonus", "worth"), [(dict(four_of_a_kind_bonus=-5), -5), (dict(wolfpack=True), -20)],
                         ids=["four_of_a_kind_bonus", "wolfpack"])
def test_ev_values_a_one_eyed_jack_pair_in_the_jack_bonuses(bonus, worth):
    # a jack over a one-eyed jack (a pair of jacks) in column 0 and a jack over a face-down card in column 1: the
    # discarded one-eyed jack under it makes a second pair of jacks, so the bonus (four of a kind, or wolfpack) is
    # certain and ev's value of that move is lower by all of it than without the bonus rule; a King there pairs
    # nothing and gets no bonus. Without one_eyed_jacks two plain jacks and a jack do the same
    for layouts, rules, card in ((["J J ? / JS ? ?", "5 6 ? / 7 8 ?"], dict(one_eyed_jacks=True), "JH"),
                                 (["J J ? / J ? ?", "5 6 ? / 7 8 ?"], {}, "J")):
        for discard, gets in ((card, worth), ("K", 0)):
            with_bonus = ev_values(position(layouts, rules=Rules(**rules, **bonus), discard=discard))
            without = ev_values(position(layouts, rules=Rules(**rules), discard=discard))
            assert with_bonus[TAKE_DISCARD + 4] - without[TAKE_DISCARD + 4] == pytest.approx(gets), (discard, rules)


def test_greedy_makes_four_of_a_kind_with_a_one_eyed_jack():
    agent = "greedy:take_gain=20"
    # a jack over a one-eyed jack in column 0 (a pair of jacks) and a jack over a face-down card in column 1: the
    # one-eyed jack under it is a second pair of jacks, the four of a kind bonus (-10) on top of the pair (about
    # 15 + 10 saved; greedy takes a discard only for a saving of 20). A King (0 points) under the jack saves only
    # about the face-down card's worth, with the rule or without it (then column 0 is two plain jacks): greedy draws
    oej = Rules(one_eyed_jacks=True, four_of_a_kind_bonus=-10)
    layouts = ["J J ? / JS ? ?", "5 6 ? / 7 8 ?"]
    assert position(layouts, rules=oej, discard="JH").decide(agent) == TAKE_DISCARD + 4
    assert position(layouts, rules=oej, discard="K").decide(agent) == DRAW_STOCK
    plain = ["J J ? / J ? ?", "5 6 ? / 7 8 ?"]
    assert position(plain, rules=Rules(four_of_a_kind_bonus=-10), discard="K").decide(agent) == DRAW_STOCK
