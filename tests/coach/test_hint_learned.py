"""golfsim hint's column of the learned player's values: one per legal move, its choice the lowest."""

import json
import os
import subprocess
import sys

import pytest

PAIR_THE_QUEENS = "me: Q J 10 / ? ? ?; opp: ? 5 ? / ? ? 3; discard: 8 4; drawn: Q"


def golfsim(*args):
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "COLUMNS": "200"})


@pytest.mark.slow
def test_every_move_has_a_learned_value_and_its_choice_is_the_lowest():
    done = golfsim("hint", PAIR_THE_QUEENS, "--format", "json", "--samples", "50")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    rows = answer["actions"]
    assert all(r["learned_value"] is not None for r in rows)
    picks = [r for r in rows if r["learned_choice"]]
    assert len(picks) == 1 and picks[0]["learned_value"] == min(r["learned_value"] for r in rows)
    assert picks[0]["key"] == "p4"  # the Queen under the Queen, as the search finds
    assert "learned" in answer["learned_unit"]


def test_the_table_shows_the_learned_column():
    done = golfsim("hint", PAIR_THE_QUEENS, "--samples", "50")
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if "deal score" in line)
    assert "learned" in header and "ev" in header
    assert "learned: the learned player's value" in done.stdout
