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
