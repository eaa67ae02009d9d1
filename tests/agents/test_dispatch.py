"""How the kernels reach an agent: inlined by id (random, greedy) or through a function pointer (the rest)."""

from __future__ import annotations

import numpy as np
from numba import typeof

from agents import parse_agent
from agents.dispatch import (
    EV_ID,
    POINTER_SLOTS,
    AgentFunctions,
    act,
    entry_point,
    placeholder_user_agent,
    pointer_function,
)
from golfsim.env import GolfEnv
from golfsim.rules import MAX_PLAYERS, Rules


def test_fast_agents_are_inlined_and_the_others_called_by_pointer():
    assert pointer_function(parse_agent("random").spec) is None
    assert pointer_function(parse_agent("greedy").spec) is None
    plain = pointer_function(parse_agent("ev").spec, four_of_a_kind=False)
    bonus = pointer_function(parse_agent("ev").spec, four_of_a_kind=True)
    assert plain is entry_point(EV_ID) and bonus is not plain  # the bonus valuation is compiled apart
    assert pointer_function(parse_agent("pair-builder").spec) is not None


def test_the_pointer_tuple_has_the_type_numba_itself_infers():
    functions = [entry_point(EV_ID), pointer_function(parse_agent("pair-builder").spec), placeholder_user_agent]
    for n in range(len(functions) + 1):
        padded = AgentFunctions.padded(functions[:n])
        assert len(padded) == (POINTER_SLOTS if n <= POINTER_SLOTS else MAX_PLAYERS)
        assert typeof(padded) == typeof(tuple(padded))


def test_ev_refuses_rules_its_compiled_valuation_was_not_built_for():
    env = GolfEnv(Rules(four_of_a_kind_bonus=-10, decks=2))
    env.reset(3)
    while env.phase == "open":
        env.step(env.legal_actions()[0])
    rng = np.ones(2, dtype=np.uint64)
    # the simulator picks the bonus-aware entry for these rules; the plain one answers with an illegal action
    assert entry_point(EV_ID)(env.pub, env.packed, parse_agent("ev").param_vector(), rng, env.current_player) == -1
    assert act(parse_agent("ev"), env.pub, env.packed, rng, env.current_player) in env.legal_actions()
