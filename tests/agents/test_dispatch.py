"""How the kernels reach an agent: inlined by id (random, greedy) or through a function pointer (every other agent,
built-in or a user's, registered the same way)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit, typeof

from golfsim.agents import AGENT_SIGNATURE, REGISTRY, parse_agent, register_compiled_agent
from golfsim.agents.dispatch import (
    POINTER_SLOTS,
    AgentFunctions,
    act,
    decide,
    pointer_function,
    unused_slot,
)
from golfsim.agents.expected_value import ev_act_bonus, ev_act_no_bonus
from golfsim.core.engine import is_legal
from golfsim.core.errors import IllegalActionError
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, FLIP, MAX_PLAYERS, NUM_ACTIONS, PASS, R_FOUR_BONUS, THROW_DRAWN
from golfsim.game.env import GolfEnv
from golfsim.kernels.simulate import Table, iter_batches, simulate

PLAIN = Rules().pack()
BONUS = Rules(four_of_a_kind_bonus=-10).pack()


def test_random_and_greedy_are_inlined_and_every_other_agent_is_called_by_pointer():
    assert pointer_function(parse_agent("random").spec, PLAIN) is None
    assert pointer_function(parse_agent("greedy").spec, PLAIN) is None
    for name in ("ev", "pair-builder"):
        spec = parse_agent(name).spec
        assert spec.builtin_id is None and spec.function is not None  # registered like a user agent
        assert pointer_function(spec, PLAIN) is not None


def test_ev_picks_its_bonus_variant_through_the_registration_hook():
    spec = parse_agent("ev").spec
    assert spec.variant_for(PLAIN) is ev_act_no_bonus and spec.variant_for(BONUS) is ev_act_bonus
    plain, bonus = pointer_function(spec, PLAIN), pointer_function(spec, BONUS)
    assert plain is not bonus
    # the pointer entries compile the variants' own code (a renamed copy of the function, with its own cache files)
    assert plain.py_func.__code__ is ev_act_no_bonus.py_func.__code__
    assert bonus.py_func.__code__ is ev_act_bonus.py_func.__code__


# a user agent with two compiled variants: it draws under the default rules and takes the discard under a bonus
@njit(AGENT_SIGNATURE, cache=True)
def _draws(pub, rules, params, agent_rng, player):
    for a in (DRAW_STOCK, THROW_DRAWN):
        if is_legal(pub, rules, a):
            return a
    for a in range(FLIP, PASS):
        if is_legal(pub, rules, a):
            return a
    return -1


@njit(AGENT_SIGNATURE, cache=True)
def _takes_discard(pub, rules, params, agent_rng, player):
    for a in range(NUM_ACTIONS):
        if is_legal(pub, rules, a):
            return a
    return -1


def _pick(rules):
    return _takes_discard if rules[R_FOUR_BONUS] != 0 else _draws


def test_any_registered_agent_can_choose_a_compiled_variant_by_the_rules():
    if "two-faced" not in REGISTRY:
        register_compiled_agent("two-faced", "draws, or under a bonus takes the discard", _draws, variant_for=_pick)
    if "drawer" not in REGISTRY:
        register_compiled_agent("drawer", "always draws", _draws)
    bonus = Rules(four_of_a_kind_bonus=-10, holes=2)
    # the hook's variant plays under the bonus: not the same games as the plain drawer, the same as the taker
    hooked = simulate(["two-faced", "random"], bonus, games=20, seed=4).players["total"].to_numpy()
    drawer = simulate(["drawer", "random"], bonus, games=20, seed=4).players["total"].to_numpy()
    assert not np.array_equal(hooked, drawer)
    plain = Rules(holes=2)
    assert np.array_equal(simulate(["two-faced", "random"], plain, games=20, seed=4).players["total"],
                          simulate(["drawer", "random"], plain, games=20, seed=4).players["total"])


def test_registration_refuses_a_hook_without_a_function():
    from golfsim.agents.base import AgentSpec, register

    with pytest.raises(ValueError, match="variant_for picks among compiled functions"):
        register(AgentSpec("hook-only", "no function", builtin_id=7, variant_for=_pick))


def test_the_pointer_tuple_has_the_type_numba_itself_infers():
    functions = [pointer_function(parse_agent("ev").spec, PLAIN), pointer_function(parse_agent("pair-builder").spec,
                                                                                   PLAIN), unused_slot]
    for n in range(len(functions) + 1):
        padded = AgentFunctions.padded(functions[:n])
        assert len(padded) == (POINTER_SLOTS if n <= POINTER_SLOTS else MAX_PLAYERS)
        assert typeof(padded) == typeof(tuple(padded))


def _after_the_opening(rules):
    env = GolfEnv(rules)
    env.reset(3)
    while env.phase == "open":
        env.step(env.legal_actions()[0])
    return env


def test_an_unused_pointer_slot_answers_an_illegal_action_instead_of_playing():
    env = _after_the_opening(Rules())
    rng = np.ones(2, dtype=np.uint64)
    assert unused_slot(env.pub, env.packed, np.zeros(8), rng[:1], env.current_player) == -1
    # a seat sent to a slot nobody fills: the kernel's check names the seat's agent
    assert decide(np.int64(101), AgentFunctions.padded(()), env.pub, env.packed, np.zeros(8), rng,
                  np.int64(env.current_player)) == -1


def test_each_agent_is_given_only_its_own_random_stream():
    rng = np.array([11, 22, 33], dtype=np.uint64)
    env = _after_the_opening(Rules(players=3))
    seat = env.current_player
    act(parse_agent("random"), env.pub, env.packed, rng, seat)
    changed = np.flatnonzero(rng != np.array([11, 22, 33], dtype=np.uint64))
    assert changed.tolist() == [seat]


@njit(AGENT_SIGNATURE, cache=True)
def _needs_a_single_stream(pub, rules, params, agent_rng, player):
    if agent_rng.shape[0] != 1:
        return -1  # given every seat's streams: refuse to play
    for a in range(NUM_ACTIONS):
        if is_legal(pub, rules, a):
            return a
    return -1


def test_a_pointer_agent_in_the_simulator_receives_one_stream():
    if "one-stream" not in REGISTRY:
        register_compiled_agent("one-stream", "plays only when given exactly its own stream", _needs_a_single_stream)
    result = simulate(["one-stream", "greedy", "one-stream"], Rules(players=3, holes=2), games=3, seed=1)
    assert len(result.players) == 9


def test_an_agent_id_that_is_not_inlined_stops_the_run_with_the_agent_named(monkeypatch):
    table = Table.make(["greedy", "random"], Rules(holes=1))
    original = Table.kernel_arguments

    def with_a_stray_id(self):
        ids, params, fns = original(self)
        ids[1] = 5  # neither inlined nor a pointer slot
        return ids, params, fns

    monkeypatch.setattr(Table, "kernel_arguments", with_a_stray_id)
    with pytest.raises(IllegalActionError, match=r"agent 'random' \(seat 1\) returned the illegal action -1"):
        list(iter_batches(table, 2, seed=0, threads=1))
