"""The built-in agents are registered under their names, with documented parameters; random and greedy by id."""

import pytest

from golfsim.agents import REGISTRY, parse_agent
from golfsim.agents.base import MAX_PARAMS


@pytest.mark.parametrize("name, builtin_id", [("random", 0), ("greedy", 1), ("ev", None), ("pair-builder", None)])
def test_built_in_agents_are_registered_by_name_and_id(name, builtin_id):
    spec = REGISTRY[name]
    assert spec.built_in and spec.builtin_id == builtin_id
    assert spec.compiled and (spec.function is not None) == (builtin_id is None)  # ev, pair-builder: by pointer
    assert spec.description


@pytest.mark.parametrize("name", ["greedy", "ev", "pair-builder"])
def test_parameters_are_documented_with_defaults(name):
    params = REGISTRY[name].params
    assert 1 <= len(params) <= MAX_PARAMS
    assert len({p.name for p in params}) == len(params)
    for p in params:
        assert p.doc and isinstance(p.default, float)
    choice = parse_agent(name)
    assert list(choice.param_vector()[: len(params)]) == [p.default for p in params]
    assert choice.label == name


def test_a_parameter_is_set_by_name():
    choice = parse_agent("pair-builder:keep_threshold=8")
    assert choice.param_dict()["keep_threshold"] == 8.0
    assert choice.label == "pair-builder:keep_threshold=8"
    with pytest.raises(ValueError, match="keep_threshold"):
        parse_agent("pair-builder:keep=8")
