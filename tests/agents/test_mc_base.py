"""mc on any base policy: base and rollout as agent strings, parsed unambiguously, and played as written."""

import numpy as np
import pytest

from golfsim.agents import parse_agent
from golfsim.agents.base import split_agents
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate

TUNED_EV = "ev:pair_weight=1.06,horizon=1.9,count_out=0,out_margin=8,watch_discard=0.46"


def test_a_base_with_parameters_is_written_in_parentheses_and_reads_back():
    choice = parse_agent(f"mc:base=({TUNED_EV}),samples=16,rollout=(greedy:take_gain=2)")
    assert choice.param_dict()["base"] == parse_agent(TUNED_EV).spec_string
    assert choice.param_dict()["rollout"] == "greedy:take_gain=2"
    assert choice.param_dict()["samples"] == 16
    assert parse_agent(choice.spec_string) == choice
    assert split_agents(f"{choice.spec_string},greedy") == [choice.spec_string, "greedy"]
    assert parse_agent("mc:rollout=1").param_dict()["rollout"] == "greedy"  # the old numbers still work
    assert parse_agent("mc").spec_string == "mc"


@pytest.mark.parametrize(("text", "message"), [
    ("mc:base=ev:watch_discard=0.4", r"write base's agent with its parameters in parentheses, "
                                     r"base=\(ev:watch_discard=0.4\)"),
    ("mc:base=(pair-builder)", "base must be one of ev, greedy, random, learned, got 'pair-builder'"),
    ("mc:base=(ev:watch_discard=0.4", r"a '\(' is never closed"),
    ("mc:rollout=5", r"rollout is an agent \(ev, greedy, random, learned\), got '5'"),
    ("mc:base=(ev:nope=1)", "agent 'ev' has no parameter 'nope'"),
])
def test_a_malformed_base_is_one_clear_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_agent(text)


@pytest.mark.parametrize("role", ["base", "rollout"])
def test_learned_with_the_exact_endgame_inside_mc_is_refused(role):
    # mc compiles learned's one-ply decision into its search; exact=1 there would be silently left out
    with pytest.raises(ValueError, match=rf"learned plays its one-ply decision in mc's base and rollouts; {role}="):
        parse_agent(f"mc:{role}=(learned:exact=1)").param_vector()
    parse_agent(f"mc:{role}=(learned:depth=1)").param_vector()


def _hole_scores(agents, rules, games=12):
    result = simulate(agents, rules, games=games, seed=5, threads=1)
    return result.players.sort_values(["game", "seat"]).total.to_numpy()


@pytest.mark.parametrize("base", [TUNED_EV, "greedy:take_gain=2"])
@pytest.mark.slow
def test_mc_that_never_overrules_its_base_plays_exactly_as_the_base(base):
    # with one world and a confidence above 0 mc has no spread to be sure with, so the base's choice always stands
    rules = Rules(players=2, holes=2)
    mc = f"mc:base=({base}),samples=1,confidence=1"
    assert np.array_equal(_hole_scores([mc, "pair-builder"], rules), _hole_scores([base, "pair-builder"], rules))
    plain = _hole_scores(["mc:samples=1,confidence=1", "pair-builder"], rules)
    assert not np.array_equal(plain, _hole_scores([base, "pair-builder"], rules))  # the base did change the games
