"""User agents: the documented examples in docs/examples play matches against the built-ins."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

from agents import AGENT_SIGNATURE, REGISTRY, register_compiled_agent
from agents.plugins import load_module
from golfsim.engine import is_legal
from golfsim.env import play_game
from golfsim.errors import IllegalActionError
from golfsim.kernel_spec import DRAW_STOCK, NUM_ACTIONS, PHASE, START
from golfsim.rules import Rules
from golfsim.simulate import simulate
from golfsim.stats import paired_difference

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
load_module(str(EXAMPLES / "lowball_agent.py"))
load_module(str(EXAMPLES / "cautious_python_agent.py"))


def test_compiled_user_agent_plays_at_full_speed_in_the_batch_simulator():
    result = simulate(["lowball", "greedy"], Rules(), games=2000, seed=3)
    assert result.truncated_deals == 0
    by_agent = result.players.groupby("agent", observed=True)["total"].mean()
    assert set(by_agent.index) == {"lowball", "greedy"}
    # lowball beats random on identical deals (interval from the sample, fixed seed)
    vs_random = simulate(["lowball", "random"], Rules(), games=2000, seed=3).players
    low = vs_random[vs_random.seat == 0]["total"].to_numpy()
    rnd = simulate(["random", "random"], Rules(), games=2000, seed=3).players
    diff = paired_difference(low, rnd[rnd.seat == 0]["total"].to_numpy())
    assert diff["high"] < 0


def test_compiled_user_agent_parameters_change_its_play():
    strict = simulate(["lowball:margin=5", "greedy"], Rules(), games=300, seed=1).players
    loose = simulate(["lowball", "greedy"], Rules(), games=300, seed=1).players
    assert not np.array_equal(strict["total"], loose["total"])


def test_python_agent_plays_through_the_step_api_against_built_ins():
    game = play_game(["cautious", "ev"], Rules(holes=3), seed=2)
    assert game["hole_scores"].shape == (3, 2) and not any(game["truncated"])
    mixed = play_game(["cautious:keep_at_most=0", "lowball"], Rules(holes=2), seed=2)
    assert len(mixed["totals"]) == 2


def test_python_agent_cannot_enter_the_batch_simulator():
    with pytest.raises(ValueError, match="plain-Python agent; it plays through golfsim.env.play_game"):
        simulate(["cautious", "greedy"], Rules(), games=1)


@njit(AGENT_SIGNATURE, cache=True)
def _always_throws(pub, rules, params, agent_rng, player):
    return 19


def test_a_compiled_agent_returning_an_illegal_move_is_named():
    if "always-throws" not in REGISTRY:
        register_compiled_agent("always-throws", "returns 19 whatever the phase", _always_throws)
    with pytest.raises(IllegalActionError, match=r"agent 'always-throws' \(seat 0\) returned the illegal action 19 "
                                                 r"\(throw drawn card\) in the open phase"):
        simulate(["always-throws", "greedy"], Rules(), games=5)


def test_registration_refuses_a_function_compiled_for_another_signature():
    @njit("int64(int64[::1], int32[::1], float64[::1], uint64[::1], int64)")
    def loose(pub, rules, params, agent_rng, player):
        return 6

    with pytest.raises(ValueError, match="AGENT_SIGNATURE"):
        register_compiled_agent("loose", "wrong signature", loose)


@njit(cache=True)
def _draw_first(pub, rules, params, agent_rng, player):
    if pub[PHASE] == START:
        return DRAW_STOCK
    for a in range(NUM_ACTIONS):
        if is_legal(pub, rules, a):
            return a
    return -1


def test_a_function_compiled_without_a_signature_is_compiled_for_the_simulator_when_it_plays():
    if "draw-first" not in REGISTRY:
        register_compiled_agent("draw-first", "draws every turn", _draw_first)
    result = simulate(["draw-first", "random"], Rules(holes=1), games=50, seed=2)
    assert result.deals["truncated"].sum() == 0 and len(result.players) == 100
