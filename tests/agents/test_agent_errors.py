"""A plain-Python agent that raises is named: which agent, which seat, what it raised."""

import pytest

from golfsim.agents import REGISTRY, register_python_agent
from golfsim.core.errors import AgentError
from golfsim.core.rules import Rules
from golfsim.game.env import play_game


def explodes(observation):
    return observation["no such key"]


def make_divides(params):
    def divides(observation):
        return int(1 / (observation["turn"] * 0)) if observation["phase"] == "start" else int(
            observation["action_mask"].nonzero()[0][0])

    return divides


def test_an_exception_in_a_callable_agent_names_it_and_its_seat():
    with pytest.raises(AgentError, match=r"agent 'explodes' \(seat 1\) raised KeyError: 'no such key'") as info:
        play_game(["random", explodes], Rules(holes=1), seed=1)
    assert isinstance(info.value.__cause__, KeyError)


def test_an_exception_in_a_registered_python_agent_names_it():
    if "divides" not in REGISTRY:
        register_python_agent("divides", "raises ZeroDivisionError at its first turn", make_divides)
    with pytest.raises(AgentError, match=r"agent 'divides' \(seat 0\) raised ZeroDivisionError"):
        play_game(["divides", "greedy"], Rules(holes=1), seed=1)
