"""Compiled dispatch from an agent id to its decision function, used inside the simulator kernels.

There are two routes, chosen for speed where it pays and for compile time where it does not:

- *Inlined*: ``random`` and ``greedy`` are called by id in ``decide``, whose branches the compiler inlines into the
  game loop. Their decisions cost a few tens of nanoseconds, so a call passing four arrays (each a
  seven-field struct) is a large share of it: inlining took random from about 1.25M to 1.47M deals per second and
  greedy from about 0.95M to 1.15M on one thread (the kernel harness of ``golfsim bench``'s numbers).
- *By pointer*: ``ev``, ``pair-builder`` and every user agent are first-class functions of ``AGENT_SIGNATURE`` in
  the ``agent_fns`` tuple, at ids from ``USER_AGENT_BASE``. The kernel holds only an indirect call, so their code
  is compiled once, only when the agent plays, and is not re-optimised inside every kernel that could call it:
  the first run of all built-ins compiles about twice as fast. An indirect call costs nothing measurable next
  to ev's 150 ns decisions (231k deals per second either way).

``decide`` is a leaf (:data:`golfsim.jit.leaf`); like every leaf it may only be called from ``hot`` or ``leaf``
functions. From Python, use :func:`act`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import typeof_impl

from agents.base import AGENT_SIGNATURE, USER_AGENT_BASE
from agents.expected_value import ev_act, ev_act_no_bonus
from agents.greedy import greedy_act
from agents.pair_builder import pair_builder_act
from agents.random_agent import random_act
from golfsim.jit import leaf
from golfsim.rules import MAX_PLAYERS, R_FOUR_BONUS

RANDOM_ID = 0
GREEDY_ID = 1
EV_ID = 2
PAIR_BUILDER_ID = 3

INLINED = (RANDOM_ID, GREEDY_ID)
"""Built-in ids that ``decide`` calls directly; the others are called by pointer."""

_entries: dict[object, object] = {}


@leaf
def decide(agent_id, agent_fns, pub, rules, params, agent_rng, player):
    """Decision of the agent with id ``agent_id``: an inlined built-in, or ``agent_fns[agent_id - USER_AGENT_BASE]``
    (-1, an illegal action, for the id of a built-in called by pointer)."""
    if agent_id == GREEDY_ID:
        return greedy_act(pub, rules, params, agent_rng, player)
    if agent_id == RANDOM_ID:
        return random_act(pub, rules, params, agent_rng, player)
    if agent_id < USER_AGENT_BASE:
        return -1
    slot = agent_id - USER_AGENT_BASE
    # constant indices for the usual slots: a tuple indexed at run time made the whole game loop about 5% slower
    if slot == 0:
        return agent_fns[0](pub, rules, params, agent_rng, player)
    if slot == 1:
        return agent_fns[1](pub, rules, params, agent_rng, player)
    return agent_fns[slot](pub, rules, params, agent_rng, player)


def _by_pointer(builtin_id: int, four_of_a_kind: bool):
    if builtin_id == EV_ID:
        # the four-of-a-kind valuation is compiled only for rules that have the bonus
        return ev_act if four_of_a_kind else ev_act_no_bonus
    if builtin_id == PAIR_BUILDER_ID:
        return pair_builder_act
    raise ValueError(f"built-in agent id {builtin_id} is not called by pointer")


def entry_point(builtin_id: int, four_of_a_kind: bool = False):
    """The decision function of a built-in called by pointer, compiled for ``AGENT_SIGNATURE`` on first use.

    ``four_of_a_kind``: whether the rules have a ``four_of_a_kind_bonus`` (ev compiles a separate valuation for it).
    A dispatcher compiled for exactly one signature types as a first-class function, so any mix of such agents
    fits the kernels' one compiled signature. It shares the Numba cache with the agent's own dispatcher.
    """
    function = _by_pointer(builtin_id, four_of_a_kind)
    if function not in _entries:
        _entries[function] = njit(AGENT_SIGNATURE, cache=True, _nrt=False)(function.py_func)
    return _entries[function]


def pointer_function(spec, four_of_a_kind: bool = False):
    """The first-class function the kernels call for ``spec`` under rules with or without a
    ``four_of_a_kind_bonus``, or ``None`` for an inlined built-in."""
    if spec.builtin_id is None:
        return spec.function
    if spec.builtin_id in INLINED:
        return None
    return entry_point(spec.builtin_id, four_of_a_kind)


def act(choice, pub, rules, agent_rng, player) -> int:
    """One decision of the compiled agent ``choice`` (an :class:`~agents.base.AgentChoice`), called from Python."""
    params = choice.param_vector()
    function = pointer_function(choice.spec, bool(rules[R_FOUR_BONUS]))
    if function is None:
        return int(decide(choice.spec.builtin_id, AgentFunctions.padded(()), pub, rules, params, agent_rng,
                          np.int64(player)))
    return int(function(pub, rules, params, agent_rng, int(player)))


POINTER_SLOTS = 2
"""Length of the pointer-agent tuple for up to two distinct agents called by pointer (ev and pair-builder, say);
more take a second kernel with ``MAX_PLAYERS`` slots. A tuple's length is part of its type, so a fixed length keeps
one compiled kernel for every such mix; each slot costs about 20 microseconds per kernel call to unbox."""


class AgentFunctions(tuple):
    """The agents a kernel calls by pointer, padded with :func:`placeholder_user_agent`.

    Its Numba type is registered below, so a kernel call does not inspect every function again (``typeof`` of twelve
    dispatchers took 240 microseconds, more than a 500-game slice of play).
    """

    @classmethod
    def padded(cls, functions) -> AgentFunctions:
        functions = tuple(functions)
        slots = POINTER_SLOTS if len(functions) <= POINTER_SLOTS else MAX_PLAYERS
        return cls(functions + (placeholder_user_agent,) * (slots - len(functions)))


@typeof_impl.register(AgentFunctions)
def _typeof_agent_functions(val, c):
    return types.UniTuple(types.FunctionType(AGENT_SIGNATURE), len(val))


@njit(AGENT_SIGNATURE, cache=True)
def placeholder_user_agent(pub, rules, params, agent_rng, player):
    """Fills ``agent_fns`` when no agent plays by pointer, so the kernels keep one compiled signature."""
    return random_act(pub, rules, params, agent_rng, player)
