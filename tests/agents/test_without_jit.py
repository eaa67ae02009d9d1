"""Every agent plays with ``NUMBA_DISABLE_JIT=1`` (to step through it in a debugger), and plays the same games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

PROGRAM = """
import json
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate

tables = [
    (["ev", "pair-builder"], Rules(holes=2)),
    (["lowball", "ev", "greedy"], Rules(players=3, holes=1, four_of_a_kind_bonus=-10)),
    (["random", "pair-builder:keep_threshold=8", "lowball:margin=2"], Rules(players=3, holes=1, end="one_last_turn")),
]
print(json.dumps([simulate(agents, rules, games=3, seed=5, threads=1).players["total"].tolist()
                  for agents, rules in tables]))
"""


def play(disable_jit: bool) -> list:
    env = dict(os.environ, GOLFSIM_AGENT_MODULES=str(EXAMPLES / "lowball_agent.py"))
    env.pop("NUMBA_DISABLE_JIT", None)
    if disable_jit:
        env["NUMBA_DISABLE_JIT"] = "1"
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", PROGRAM], capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_every_agent_plays_as_plain_python_and_matches_the_compiled_games():
    interpreted = play(disable_jit=True)
    assert interpreted == play(disable_jit=False)
    assert [len(totals) for totals in interpreted] == [6, 9, 9]
