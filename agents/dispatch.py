"""Compiled dispatch from an agent id to its decision function, used inside the simulator kernels.

There are two routes, chosen for speed where it pays and for compile time where it does not:

- *Inlined*: ``random`` and ``greedy`` are called by id in ``decide``, whose branches the compiler inlines into the
  game loop. Their decisions cost a few tens of nanoseconds, so a call passing four arrays (each a
  seven-field struct) is a large share of it, so inlining makes both clearly faster (docs/performance.md). When one of
  them plays every seat, [`golfsim.kernels.simulate.kernel_for`][] picks a kernel that passes its id to ``decide`` as
  a constant, so the dispatch folds away ([`golfsim.kernels.simulate.play_games_greedy`][], ``play_games_random``).
  Under rules without ``reveal_instead_of_draw`` or ``discard_and_flip`` the compact kernels of
  [`golfsim.kernels.self_play`][] play those tables instead, calling greedy's own ``start_choice`` and ``hold_choice``.
- *By pointer*: every agent registered with [`register_compiled_agent`][golfsim.agents.base.register_compiled_agent] --
  ``ev``, ``pair-builder`` and every user agent alike -- is a first-class function of ``AGENT_SIGNATURE`` in the
  ``agent_fns`` tuple, at ids from ``USER_AGENT_BASE``. The kernel holds only an indirect call, so an agent's code
  is compiled once, only when it plays, and is not re-optimised inside every kernel that could call it: the first
  run of all built-ins compiles about twice as fast. An indirect call costs nothing measurable next to ev's
  decisions, which take far longer. Which compiled function plays is
  [`pointer_function`][golfsim.agents.dispatch.pointer_function]'s answer: the registered function, or the variant its
  ``variant_for`` hook picks for the rules.

Each agent is handed only its own random stream: ``decide`` passes ``agent_rng[player:player + 1]``, the one-element
view of the seat's stream, so an agent cannot draw from (or advance) another seat's.

``decide`` is a leaf (`golfsim._numba.jit.leaf`); like every leaf it may only be called from ``hot`` or ``leaf``
functions. From Python, use [`act`][golfsim.agents.dispatch.act].
"""

from __future__ import annotations

import numpy as np
from numba import config, njit, types
from numba.extending import typeof_impl

from golfsim._numba.entry import with_entry_points
from golfsim._numba.jit import NO_NRT, leaf, use_keyed_cache
from golfsim.agents.base import AGENT_SIGNATURE, USER_AGENT_BASE
from golfsim.agents.greedy import greedy_act
from golfsim.agents.random_agent import random_act
from golfsim.core.spec import MAX_PLAYERS

RANDOM_ID = 0
GREEDY_ID = 1

INLINED = (RANDOM_ID, GREEDY_ID)
"""The built-in ids ``decide`` calls directly; every other agent is called by pointer."""

_entries: dict[object, object] = {}


@leaf
def decide(agent_id, agent_fns, pub, rules, params, agent_rng, player):
    """Decision of the agent with id ``agent_id``: an inlined built-in, or ``agent_fns[agent_id - USER_AGENT_BASE]``
    (-1, an illegal action, for any other id below ``USER_AGENT_BASE``).

    ``agent_rng`` holds every seat's stream; the agent is given only its own, ``agent_rng[player:player + 1]``.
    """
    own_rng = agent_rng[player:player + 1]
    if agent_id == GREEDY_ID:
        return greedy_act(pub, rules, params, own_rng, player)
    if agent_id == RANDOM_ID:
        return random_act(pub, rules, params, own_rng, player)
    if agent_id < USER_AGENT_BASE:
        return -1
    slot = agent_id - USER_AGENT_BASE
    # constant indices for the usual slots: a tuple indexed at run time made the whole game loop about 5% slower
    if slot == 0:
        return agent_fns[0](pub, rules, params, own_rng, player)
    if slot == 1:
        return agent_fns[1](pub, rules, params, own_rng, player)
    return agent_fns[slot](pub, rules, params, own_rng, player)


def compiled_for_signature(function):
    """``function`` as a dispatcher compiled for exactly ``AGENT_SIGNATURE``, the type a slot of ``agent_fns`` has.

    A dispatcher already compiled for that one signature is returned as it is; any other (such as ev's, compiled
    without a signature) is compiled for it on first use, once per process, sharing the Numba cache with the
    function's own dispatcher. With ``NUMBA_DISABLE_JIT=1`` functions are plain Python and are returned unchanged.
    """
    if config.DISABLE_JIT or not hasattr(function, "py_func"):
        return function
    signatures = function.signatures
    compiles_more = getattr(function, "_can_compile", True)  # False once compiled for explicit signatures only
    if len(signatures) == 1 and tuple(signatures[0]) == tuple(AGENT_SIGNATURE.args) and not compiles_more:
        return function
    if function not in _entries:
        use_keyed_cache()
        _entries[function] = with_entry_points(function, AGENT_SIGNATURE)
    return _entries[function]


def pointer_function(spec, rules: np.ndarray):
    """The first-class function the kernels call for ``spec`` under the packed ``rules``, or ``None`` for an
    inlined built-in (random, greedy)."""
    if spec.function is None:
        if spec.builtin_id in INLINED:
            return None
        raise ValueError(f"agent {spec.name!r} has no compiled decision function")
    function = spec.function if spec.variant_for is None else spec.variant_for(rules)
    return compiled_for_signature(function)


def act(choice, pub, rules, agent_rng, player) -> int:
    """One decision of the compiled agent ``choice`` (an [`AgentChoice`][golfsim.agents.base.AgentChoice]), called from
    Python.

    ``agent_rng`` holds one stream per seat (as in the kernels); only ``agent_rng[player]`` is given to the agent
    and advanced.
    """
    params = choice.param_vector()
    player = np.int64(player)
    function = pointer_function(choice.spec, rules)
    if function is None:
        return int(decide(choice.spec.builtin_id, AgentFunctions.padded(()), pub, rules, params, agent_rng, player))
    return int(function(pub, rules, params, agent_rng[player:player + 1], player))


POINTER_SLOTS = 2
"""Length of the pointer-agent tuple for up to two distinct agents called by pointer (ev and pair-builder, say);
more take a second kernel with ``MAX_PLAYERS`` slots. A tuple's length is part of its type, so a fixed length keeps
one compiled kernel for every such mix; each slot has to be unboxed at every kernel call, so there are few."""


class AgentFunctions(tuple):
    """The agents a kernel calls by pointer, padded with [`unused_slot`][golfsim.agents.dispatch.unused_slot].

    Its Numba type is registered below, so a kernel call does not inspect every function again (``typeof`` of every
    dispatcher took longer than a slice of play).
    """

    @classmethod
    def padded(cls, functions) -> AgentFunctions:
        functions = tuple(functions)
        slots = POINTER_SLOTS if len(functions) <= POINTER_SLOTS else MAX_PLAYERS
        return cls(functions + (unused_slot,) * (slots - len(functions)))


@typeof_impl.register(AgentFunctions)
def _typeof_agent_functions(val, c):
    return types.UniTuple(types.FunctionType(AGENT_SIGNATURE), len(val))


@njit(AGENT_SIGNATURE, cache=True, **NO_NRT)
def unused_slot(pub, rules, params, agent_rng, player):
    """Fills the slots of ``agent_fns`` no agent uses, so the kernels keep one compiled signature. No seat is ever
    given one; if a bug sent a decision here, it answers -1, an illegal action, and the run stops with an error
    naming the seat's agent rather than play on with a move nobody chose."""
    return -1
