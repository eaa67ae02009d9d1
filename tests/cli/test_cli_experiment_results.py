"""Where ``golfsim experiment`` writes: under the current directory, and never over a different result.

Each test runs the real command in a subprocess from a scratch directory, as a person trying a small run would.
"""

import json
import shutil
from pathlib import Path

import pytest

from tests.support import REPO, run_golfsim

TRIAL = ["experiment", "tips", "--games", "20"]


def golfsim(*args, cwd):
    return run_golfsim(*args, cwd=cwd, timeout=600)


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


@pytest.mark.slow
def test_without_out_an_experiment_writes_results_under_the_current_directory(tmp_path):
    committed = snapshot(REPO / "results" / "tips")
    result = golfsim(*TRIAL, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = tmp_path / "results" / "tips"
    assert {"table.csv", "table.md", "config.json", "figure.png"} <= set(snapshot(written))
    config = json.loads((written / "config.json").read_text())
    assert config["request"] == {"experiment": "tips", "games": 20, "seed": 0}
    assert config["command"] == "golfsim experiment tips --games 20"
    assert snapshot(REPO / "results" / "tips") == committed, "the checkout's results/ must not change"


@pytest.mark.slow
def test_a_trial_run_is_refused_over_the_committed_full_size_results_unless_told_to_overwrite(tmp_path):
    shutil.copytree(REPO / "results" / "tips", tmp_path / "results" / "tips")
    before = snapshot(tmp_path / "results" / "tips")
    refused = golfsim(*TRIAL, cwd=tmp_path)
    assert refused.returncode == 2
    assert len(refused.stderr.strip().splitlines()) == 1 and "Traceback" not in refused.stderr
    assert "would replace it" in refused.stderr and "--overwrite" in refused.stderr and "--out" in refused.stderr
    assert snapshot(tmp_path / "results" / "tips") == before

    replaced = golfsim(*TRIAL, "--overwrite", cwd=tmp_path)
    assert replaced.returncode == 0, replaced.stderr
    config = json.loads((tmp_path / "results" / "tips" / "config.json").read_text())
    assert config["request"]["games"] == 20


@pytest.mark.slow
def test_the_same_request_reproduces_its_result_in_place_and_another_seed_is_refused(tmp_path):
    first = golfsim(*TRIAL, "--out", "trial", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    table = (tmp_path / "trial" / "tips" / "table.csv").read_bytes()
    again = golfsim(*TRIAL, "--out", "trial", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "trial" / "tips" / "table.csv").read_bytes() == table
    other_seed = golfsim(*TRIAL, "--seed", "7", "--out", "trial", cwd=tmp_path)
    assert other_seed.returncode == 2 and "seed 0" in other_seed.stderr and "seed 7" in other_seed.stderr
