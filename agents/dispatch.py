"""Compiled dispatch from an agent id to its decision function, used inside the simulator kernels.

Built-in agents are called by id (a branch the compiler can inline); user agents registered with
``register_compiled_agent`` are first-class functions in the ``user_fns`` tuple, at ids from ``USER_AGENT_BASE``.
"""

from __future__ import annotations

from numba import njit

from agents.base import AGENT_SIGNATURE, USER_AGENT_BASE
from agents.random_agent import random_act
from golfsim.jit import hot

RANDOM_ID = 0


@hot
def act_builtin(agent_id, pub, rules, params, agent_rng, player):
    """Decision of built-in agent ``agent_id``."""
    return random_act(pub, rules, params, agent_rng, player)


@hot
def decide(agent_id, user_fns, pub, rules, params, agent_rng, player):
    """Decision of the agent with id ``agent_id``: a built-in, or ``user_fns[agent_id - USER_AGENT_BASE]``."""
    if agent_id < USER_AGENT_BASE:
        return act_builtin(agent_id, pub, rules, params, agent_rng, player)
    return user_fns[agent_id - USER_AGENT_BASE](pub, rules, params, agent_rng, player)


@njit(AGENT_SIGNATURE, cache=True)
def placeholder_user_agent(pub, rules, params, agent_rng, player):
    """Fills ``user_fns`` when no user agent plays, so the kernels keep one compiled signature."""
    return random_act(pub, rules, params, agent_rng, player)
