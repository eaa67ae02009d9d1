"""mc-tips, the planning player of the tips experiment: with both tip rules off it is mc, move for move; each rule
changes play only by its own override and stays legal."""

import numpy as np
import pytest

from golfsim.core.rules import Rules
from golfsim.experiments import mc_tips
from golfsim.kernels.simulate import simulate

RULES = Rules(players=2, holes=1)
GAMES = 40


def holes(agents, seed=3):
    result = simulate(agents, RULES, games=GAMES, seed=seed)
    return result.players.sort_values(["game", "seat"])[["hole_1"]].to_numpy(), result.deals


def test_registered_with_mcs_parameters_and_two_tip_switches_off_by_default():
    from golfsim.agents import parse_agent

    choice = parse_agent("mc-tips")
    names = [p.name for p in choice.spec.params]
    assert names[:6] == ["samples", "rollout", "objective", "horizon", "confidence", "halving"]
    assert names[6:] == ["pairs_first", "count_out"]
    assert choice.param_dict()["pairs_first"] == 0 and choice.param_dict()["count_out"] == 0
    assert not choice.spec.built_in and not choice.spec.sees_hidden and mc_tips.NAME == "mc-tips"


@pytest.mark.slow  # compiles the search (tens of seconds cold)
def test_with_both_rules_off_it_plays_exactly_like_mc():
    plain, _ = holes(["mc:samples=8", "mc:samples=8"])
    wrapped, _ = holes(["mc-tips:samples=8", "mc-tips:samples=8"])
    assert np.array_equal(plain, wrapped)


@pytest.mark.slow
def test_pairs_first_changes_some_deals_and_every_deal_finishes():
    plain, _ = holes(["mc-tips:samples=8", "mc-tips:samples=8"])
    paired, deals = holes(["mc-tips:samples=8,pairs_first=1", "mc-tips:samples=8"])
    assert not deals.truncated.any()
    assert (plain != paired).any()
