"""learned-tips, the learned player of the tips experiment: with every rule off it is learned, move for move; each
rule changes play only by its own override, and every deal still ends legally."""

import numpy as np
import pytest

from golfsim.agents import parse_agent
from golfsim.core.rules import Rules
from golfsim.experiments import learned_tips
from golfsim.kernels.simulate import simulate
from tests.agents.positions import position

GAMES = 300
RULE_SETS = {
    "2 players": Rules(players=2),
    "4 players, one last turn": Rules(players=4, end="one_last_turn", holes=3),
    "3 players, reveal, discard-and-flip may, jokers": Rules(players=3, reveal_instead_of_draw=True,
                                                              discard_and_flip="may", jokers="minus2", holes=2),
}
SWITCHES = ("blind_swap=3", "pairs_first=1", "keep_threshold=10", "keep_threshold=6", "count_out=1", "lone_two=1")


def totals(agents, rules, seed=3):
    result = simulate(agents, rules, games=GAMES, seed=seed)
    return result.players.sort_values(["game", "seat"])["total"].to_numpy(), result.deals


def test_registered_with_five_tip_switches_all_off_by_default():
    choice = parse_agent("learned-tips")
    assert [p.name for p in choice.spec.params] == ["blind_swap", "pairs_first", "keep_threshold", "count_out",
                                                    "lone_two"]
    assert choice.param_dict() == {"blind_swap": -99, "pairs_first": 0, "keep_threshold": 99, "count_out": 0,
                                   "lone_two": 0}
    assert not choice.spec.built_in and not choice.spec.sees_hidden and learned_tips.NAME == "learned-tips"


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_with_every_rule_off_it_plays_exactly_like_learned(rules):
    seats = rules.players
    plain, _ = totals(["learned", *["ev"] * (seats - 1)], rules)
    wrapped, _ = totals(["learned-tips", *["ev"] * (seats - 1)], rules)
    assert np.array_equal(plain, wrapped)


@pytest.mark.parametrize("switch", SWITCHES)
def test_each_rule_changes_some_games_and_every_deal_ends(switch):
    rules = Rules(players=2)
    plain, _ = totals(["learned-tips", "learned-tips"], rules)
    tipped, deals = totals([f"learned-tips:{switch}", "learned-tips"], rules)
    assert not deals.truncated.any()
    assert (plain != tipped).any()


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_every_rule_on_is_legal_under_variants(rules):
    # simulate refuses an illegal action, naming the agent; every deal must also end before the turn cap
    agents = [f"learned-tips:{','.join(SWITCHES[i::3])}" for i in range(rules.players)]
    _, deals = totals(agents, rules, seed=8)
    assert not deals.truncated.any()


def test_lone_two_refuses_the_pair_of_twos_learned_takes():
    pos = position(["2 7 7 / ? 7 7", "K 4 ? / ? 3 ?"], discard="2")
    assert pos.name(pos.decide("learned")) == "take discard to 3"  # under the two: a column pair of twos, 0 points
    assert pos.name(pos.decide("learned-tips:lone_two=1")) == "draw from stock"


def test_keep_threshold_keeps_the_queens_column_for_a_queen():
    pos = position(["Q 9 9 / ? 9 9", "K 4 ? / ? 3 ?"], discard="8", held="4")
    assert pos.name(pos.decide("learned")) == "place drawn card at 0"  # the 4 replaces the Queen
    assert pos.name(pos.decide("learned-tips:keep_threshold=10")) == "throw drawn card"
    queen = position(["Q 9 9 / ? 9 9", "K 4 ? / ? 3 ?"], discard="8", held="Q")
    assert queen.name(queen.decide("learned-tips:keep_threshold=10")) == "place drawn card at 3"  # the pair


def test_blind_swap_puts_a_low_drawn_card_on_a_face_down_card():
    pos = position(["9 8 ? / 8 4 ?", "K 4 ? / ? 3 ?"], discard="9", held="3")
    assert pos.name(pos.decide("learned")) == "place drawn card at 0"  # over the face-up 9
    swapped = pos.decide("learned-tips:blind_swap=3")
    assert pos.name(swapped) in ("place drawn card at 2", "place drawn card at 5")  # the face-down ones
    assert pos.name(pos.decide("learned-tips:blind_swap=2")) == "place drawn card at 0"  # a 3 is above 2 points
