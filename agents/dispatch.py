"""Compiled dispatch from an agent id to its decision function, used inside the simulator kernels.

Built-in agents are called by id (a branch the compiler can inline); user agents registered with
``register_compiled_agent`` are first-class functions in the ``user_fns`` tuple, at ids from ``USER_AGENT_BASE``.
``decide`` and ``act_builtin`` are leaves (:data:`golfsim.jit.leaf`), inlined into the simulator's game loop: that
saves two calls passing four arrays on every decision (random against random, one thread: about 860k -> 960k deals
per second). Like every leaf they may only be called from ``hot`` or ``leaf`` functions, or from Python.
"""

from __future__ import annotations

from numba import njit

from agents.base import AGENT_SIGNATURE, USER_AGENT_BASE
from agents.expected_value import ev_act
from agents.greedy import greedy_act
from agents.pair_builder import pair_builder_act
from agents.random_agent import random_act
from golfsim.jit import leaf

RANDOM_ID = 0
GREEDY_ID = 1
EV_ID = 2
PAIR_BUILDER_ID = 3


@leaf
def act_builtin(agent_id, pub, rules, params, agent_rng, player):
    """Decision of built-in agent ``agent_id``."""
    if agent_id == GREEDY_ID:
        return greedy_act(pub, rules, params, agent_rng, player)
    if agent_id == EV_ID:
        return ev_act(pub, rules, params, agent_rng, player)
    if agent_id == PAIR_BUILDER_ID:
        return pair_builder_act(pub, rules, params, agent_rng, player)
    return random_act(pub, rules, params, agent_rng, player)


@leaf
def decide(agent_id, user_fns, pub, rules, params, agent_rng, player):
    """Decision of the agent with id ``agent_id``: a built-in, or ``user_fns[agent_id - USER_AGENT_BASE]``."""
    if agent_id < USER_AGENT_BASE:
        return act_builtin(agent_id, pub, rules, params, agent_rng, player)
    return user_fns[agent_id - USER_AGENT_BASE](pub, rules, params, agent_rng, player)


@njit(AGENT_SIGNATURE, cache=True)
def placeholder_user_agent(pub, rules, params, agent_rng, player):
    """Fills ``user_fns`` when no user agent plays, so the kernels keep one compiled signature."""
    return random_act(pub, rules, params, agent_rng, player)
