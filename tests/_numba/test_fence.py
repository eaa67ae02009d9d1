"""The Numba fence: internals only on tested releases and without GOLFSIM_NUMBA_FALLBACK, and a fallback to public
``njit`` options that plays the same games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from golfsim._numba.fence import FALLBACK_VARIABLE, TESTED, fallback_reason, numba_release

ROOT = Path(__file__).resolve().parents[2]


def test_release_numbers_are_read_from_version_strings():
    assert numba_release("0.68.1") == (0, 68)
    assert numba_release("0.70.0rc1") == (0, 70)
    assert numba_release("1.2") == (1, 2)
    assert numba_release("garbage") is None


def test_the_internals_are_used_only_on_the_tested_releases():
    low, high = TESTED
    assert fallback_reason(f"{low[0]}.{low[1]}.0", {}) is None
    assert fallback_reason(f"{high[0]}.{high[1]}.9", {}) is None
    assert "outside the tested releases" in fallback_reason(f"{high[0]}.{high[1] + 1}.0", {})
    assert "outside the tested releases" in fallback_reason(f"{low[0]}.{low[1] - 1}.0", {})
    assert "outside the tested releases" in fallback_reason("1.0.0", {})


@pytest.mark.parametrize("value", ["1", "yes", "true"])
def test_the_variable_forces_the_fallback(value):
    assert fallback_reason("0.68.1", {FALLBACK_VARIABLE: value}) == f"{FALLBACK_VARIABLE}={value}"


@pytest.mark.parametrize("value", ["", "0", "false", "no"])
def test_the_variable_unset_or_false_keeps_the_internals(value):
    assert fallback_reason("0.68.1", {FALLBACK_VARIABLE: value}) is None


PLAY = """
import json
from golfsim._numba import fence, jit, pointers
from golfsim.agents.expected_value import ev_act
from golfsim.kernels.simulate import simulate
result = simulate(["greedy", "ev", "random"], games=12, seed=5)
print(json.dumps({
    "internals": fence.INTERNALS, "reason": fence.REASON, "no_nrt": jit.NO_NRT,
    "hot": type(ev_act).__name__, "cache": jit.CACHE_DIR.name, "pointers": pointers.AVAILABLE,
    "scores": result.deals.filter(like="score_").to_numpy().tolist() + [result.players["total"].tolist()],
}))
"""


def play(fallback: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop(FALLBACK_VARIABLE, None)
    if fallback:
        env[FALLBACK_VARIABLE] = "1"
    done = subprocess.run([sys.executable, "-c", PLAY], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_the_fallback_compiles_with_public_options_and_plays_the_same_games():
    fenced, public = play(fallback=False), play(fallback=True)
    assert fenced["internals"] and fenced["reason"] is None and fenced["no_nrt"] == {"_nrt": False}
    assert not public["internals"] and public["reason"] == f"{FALLBACK_VARIABLE}=1" and public["no_nrt"] == {}
    assert public["hot"] == "CPUDispatcher" and fenced["hot"] == "InnerDispatcher"
    assert public["cache"] == fenced["cache"] + "-public" and not public["pointers"]
    assert len(fenced["scores"]) == 12 * 9 + 1 and fenced["scores"] == public["scores"]


CACHED = """
import json

import numpy as np
from numba.core import event

compiled = []


class Compiles(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


event.register("numba:compile", Compiles())

from golfsim.agents.expected_value import PARAMS, ev_act, ev_action_values
from golfsim.coach.position import Position
from golfsim.core.rules import Rules
from golfsim.core.spec import CURRENT, NUM_ACTIONS
from golfsim.game.env import play_game
from golfsim.kernels.simulate import simulate

for bonus in (0, -10):  # ev plays a variant of its own under each
    rules = Rules(players=4, holes=1, four_of_a_kind_bonus=bonus)
    simulate(["random", "greedy", "ev", "pair-builder"], rules, games=2, seed=0, threads=1)
    play_game(["ev", "pair-builder"], Rules(holes=1, four_of_a_kind_bonus=bonus), seed=0)
    # ev called from Python, and ev's values of every action (golfsim hint)
    rules = Rules(holes=1, four_of_a_kind_bonus=bonus)
    pub = Position.parse("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q").to_pub(rules)
    packed, params, player = rules.pack(), np.array([p.default for p in PARAMS]), np.int64(pub[CURRENT])
    ev_act(pub, packed, params, np.zeros(1, dtype=np.uint64), player)
    ev_action_values(pub, packed, params, player, np.zeros(NUM_ACTIONS))
print(json.dumps(compiled))
"""


def compiled_in_new_process(cache: Path, fallback: bool) -> tuple[list[str], str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(cache))
    env.pop(FALLBACK_VARIABLE, None)
    if fallback:
        env[FALLBACK_VARIABLE] = "1"
    done = subprocess.run([sys.executable, "-c", CACHED], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("fallback", [False, True], ids=["fenced", "fallback"])
def test_every_compiled_function_is_cached_and_a_second_process_compiles_nothing(tmp_path, fallback):
    # ev hands its valuation functions to the functions it calls; a function holding a dispatcher's address cannot
    # be cached (golfsim._numba.jit.leaf_taking_functions)
    first, warnings = compiled_in_new_process(tmp_path, fallback)
    assert {"ev_act_no_bonus__pointer_entry", "ev_act_bonus__pointer_entry"} <= set(first)
    assert any(name.startswith("ev_action_values") for name in first)  # fenced: its copy with entry points
    assert "Cannot cache" not in warnings
    again, _ = compiled_in_new_process(tmp_path, fallback)
    assert again == [], f"compiled again instead of loaded from the cache: {sorted(set(again))}"
