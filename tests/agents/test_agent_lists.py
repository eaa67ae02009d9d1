"""An agent list written as one string, parameters included, means the same in Python as on the command line."""

import pandas as pd
import pytest

from golfsim.agents.base import split_agents
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate


def test_split_keeps_each_agents_parameters_together():
    assert split_agents("greedy:blind_swap=1,take_gain=2,random") == ["greedy:blind_swap=1,take_gain=2", "random"]
    assert split_agents(" ev , pair-builder:keep_threshold=8 ,") == ["ev", "pair-builder:keep_threshold=8"]


def test_simulate_accepts_the_command_line_agent_list_with_parameters():
    text = simulate("greedy:blind_swap=1,take_gain=2,random", Rules(), games=200, seed=4)
    listed = simulate(["greedy:blind_swap=1,take_gain=2", "random"], Rules(), games=200, seed=4)
    # labels list the changed parameters in the order the agent declares them
    assert list(text.players["agent"].cat.categories) == ["greedy:take_gain=2,blind_swap=1", "random"]
    pd.testing.assert_frame_equal(text.players, listed.players)
    pd.testing.assert_frame_equal(text.deals, listed.deals)


def test_simulate_with_a_string_and_no_rules_seats_one_player_per_agent():
    assert simulate("greedy:take_gain=1,ev,random", games=5, seed=1).table.rules.players == 3


def test_a_parameter_of_the_wrong_agent_is_still_refused():
    with pytest.raises(ValueError, match="agent 'greedy' has no parameter 'keep_threshold'"):
        simulate("greedy:blind_swap=1,keep_threshold=2,random", Rules(), games=1)
