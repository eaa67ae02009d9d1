"""Every parameter of every shipped agent declares its kind and bounds, and the agent parser enforces them."""

import pytest

from golfsim.agents.base import BUILT_IN_AGENTS, OPT_IN_AGENTS, REGISTRY, AgentSpec, Param, parse_agent, register


@pytest.mark.parametrize("name", BUILT_IN_AGENTS + OPT_IN_AGENTS)
def test_every_shipped_parameter_declares_its_kind_and_bounds(name):
    spec = REGISTRY[name]
    for p in spec.params:
        assert p.kind in ("float", "int", "bool", "agent"), p
        if p.kind == "agent":  # another agent (mc's base and rollout): its default is one it accepts
            assert p.default in p.agents, p
        elif p.kind != "bool":
            assert p.minimum is not None and p.maximum is not None, p
            assert p.minimum <= p.default <= p.maximum, p
    choice = parse_agent(name)
    assert all(p.is_default(v) for p, v in zip(spec.params, choice.values, strict=True))


@pytest.mark.parametrize("text, words", [
    ("mc:samples=0", "samples must be a whole number from 1 to 100000, got 0"),
    ("mc:samples=-1", "samples must be a whole number from 1 to 100000, got -1"),
    ("mc:samples=2.5", "samples takes whole numbers from 1 to 100000, got 2.5"),
    ("mc:samples=1e9", "samples must be a whole number from 1 to 100000, got 1000000000"),
    ("mc:objective=7", "objective must be a whole number from 0 to 2, got 7"),
    ("mc:rollout=4", r"rollout is an agent \(ev, greedy, random, learned\), got '4'"),
    ("oracle:rollout=4", "rollout must be a whole number from 0 to 3, got 4"),
    ("oracle:halving=-1", "halving must be a whole number from 0 to 20"),
    ("ev:count_out=0.5", r"count_out is a switch: 0 \(off\) or 1 \(on\), got 0.5"),
    ("ev:pair_weight=-1", "pair_weight must be a number from 0 to 10, got -1"),
    ("pair-builder:lone_two=2", "lone_two is a switch"),
    ("greedy:hidden_value=1e6", "hidden_value must be a number from -10 to 20"),
])
def test_values_outside_a_parameters_kind_or_bounds_are_refused_in_one_line(text, words):
    with pytest.raises(ValueError, match=words) as caught:
        parse_agent(text)
    assert "\n" not in str(caught.value)


def test_values_inside_the_bounds_parse():
    assert parse_agent("mc:samples=100000,objective=2").param_dict()["samples"] == 100000
    assert parse_agent("ev:count_out=0,out_margin=-8").param_dict()["count_out"] == 0
    assert parse_agent("greedy:blind_swap=-99").param_dict()["blind_swap"] == -99


@pytest.mark.parametrize("name", ["My-Agent", "two words", "a:b", "a,b", "a=b", "x#1", "", "-lead", "a" * 65])
def test_a_name_the_command_line_cannot_reach_is_refused_at_registration(name):
    with pytest.raises(ValueError, match="cannot be named on the command line"):
        register(AgentSpec(name, "unreachable", python=lambda params: None))
    assert name not in REGISTRY


def test_a_parameter_whose_default_breaks_its_own_bounds_is_refused_at_registration():
    with pytest.raises(ValueError, match=r"depth must be a whole number from 1 to 4, got 0 \(its own default"):
        register(AgentSpec("bad-default", "x", (Param("depth", 0.0, "d", kind="int", minimum=1, maximum=4),),
                           python=lambda params: None))
    with pytest.raises(ValueError, match="kind 'text'"):
        register(AgentSpec("bad-kind", "x", (Param("depth", 0.0, "d", kind="text"),), python=lambda params: None))
    assert "bad-default" not in REGISTRY and "bad-kind" not in REGISTRY
