"""Training by self-play at a tiny size: reproducible weights, resuming, Ctrl-C, bad settings and model files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from golfsim.agents.learned.model import SHIPPED, load_model
from golfsim.agents.learned.value import NUM_FEATURES, NUM_ROWS, prior_weights
from golfsim.learning.model import save_model
from golfsim.learning.train import LearnConfig, load_checkpoint, train
from tests.support import REPO, default_sigint

TINY = LearnConfig(seed=5, generations=2, games=400, eval_deals=4)  # enough states for some rows to be fitted


def quiet(*_):
    pass


@pytest.mark.slow
def test_the_same_seed_gives_the_same_weights_whatever_the_thread_count(tmp_path):
    one = train(TINY, tmp_path / "one", threads=1, log=quiet).weights
    two = train(TINY, tmp_path / "two", threads=2, log=quiet).weights
    other = train(LearnConfig(**{**TINY.__dict__, "seed": 6}), tmp_path / "other", threads=1, log=quiet).weights
    assert np.array_equal(one, two)
    assert not np.array_equal(one, prior_weights()), "nothing was learned"
    assert not np.array_equal(one, other), "the seed did not matter"
    saved, doc = load_model(tmp_path / "one" / "model.json")
    assert np.array_equal(saved, one)  # the model file keeps the weights to the last bit
    assert doc["training"]["generations_done"] == 2


def test_a_run_resumes_from_its_checkpoint_to_the_same_weights(tmp_path):
    straight = train(TINY, tmp_path / "straight", threads=1, log=quiet)
    train(LearnConfig(**{**TINY.__dict__, "generations": 1}), tmp_path / "resumed", threads=1, log=quiet)
    messages = []
    resumed = train(TINY, tmp_path / "resumed", threads=1, log=messages.append)
    assert messages == [f"resuming from generation 1 ({tmp_path / 'resumed' / 'checkpoint.npz'})"]
    assert np.array_equal(straight.weights, resumed.weights)
    assert [r["generation"] for r in resumed.curve] == [0, 1, 2]


def test_a_checkpoint_made_with_other_settings_is_refused(tmp_path):
    train(LearnConfig(**{**TINY.__dict__, "generations": 1}), tmp_path, threads=1, log=quiet)
    with pytest.raises(ValueError, match="other settings"):
        load_checkpoint(tmp_path / "checkpoint.npz", LearnConfig(**{**TINY.__dict__, "lam": 0.5}))


@pytest.mark.parametrize("change", [{"games": 0}, {"lam": 1.5}, {"generations": 0}, {"memory": -1.0}])
def test_bad_settings_are_one_value_error(change, tmp_path):
    with pytest.raises(ValueError):
        train(LearnConfig(**{**TINY.__dict__, **change}), tmp_path, log=quiet)


def _golfsim(*args, **kwargs):
    return [sys.executable, "-m", "golfsim", *args]


def test_the_command_refuses_bad_input_with_one_line(tmp_path):
    done = subprocess.run(_golfsim("learn", "--out", str(tmp_path), "--games", "0"), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "games" in done.stderr


@pytest.mark.slow
def test_ctrl_c_keeps_the_last_generation_and_the_same_command_resumes(tmp_path):
    out = tmp_path / "run"
    command = _golfsim("learn", "--out", str(out), "--seed", "3", "--generations", "500", "--games", "400",
                       "--eval-deals", "4")
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=default_sigint)
    try:
        deadline = time.monotonic() + 400
        while not (out / "checkpoint.npz").exists():
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, "no checkpoint was written"
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "resume" in stderr
    kept = np.load(out / "checkpoint.npz")
    generation = int(kept["generation"])
    assert 1 <= generation < 500
    assert not any(p.name.startswith(".") for p in out.iterdir()), "a temporary file was left behind"
    command[command.index("--generations") + 1] = str(generation + 1)
    done = subprocess.run(command, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stderr
    assert f"resuming from generation {generation}" in done.stderr
    assert json.loads((out / "model.json").read_text())["training"]["generations_done"] == generation + 1


def test_model_files_are_checked_on_reading(tmp_path):
    with pytest.raises(ValueError, match="cannot read"):
        load_model(tmp_path / "missing.json")
    (tmp_path / "other.json").write_text(json.dumps({"features": ["a"], "rows": [], "weights": []}))
    with pytest.raises(ValueError, match="not a model"):
        load_model(tmp_path / "other.json")
    bad = np.full((NUM_ROWS, NUM_FEATURES), np.nan)
    save_model(tmp_path / "nan.json", bad, "test", {})
    with pytest.raises(ValueError, match="finite"):
        load_model(tmp_path / "nan.json")


def test_the_shipped_model_records_the_command_that_made_it():
    weights, doc = load_model(SHIPPED)
    assert weights.shape == (NUM_ROWS, NUM_FEATURES)
    assert doc["command"].startswith("golfsim learn ")
    assert doc["training"]["generations_done"] == doc["training"]["config"]["generations"]
    assert os.path.relpath(SHIPPED, Path(__file__).resolve().parents[2]) == "agents/learned/models/learned.json"


def test_the_margins_printed_at_the_end_read_like_every_other_head_to_head():
    import csv

    from golfsim.cli.learn_body import margin_line

    rows = list(csv.DictReader(open(REPO / "results/learned_value/curve.csv")))
    untrained = {k: float(v) for k, v in rows[0].items() if k.startswith(("ev_", "tuned_ev_"))}
    assert untrained["ev_immediate"] < 0  # curve.csv: ev's total less the untrained player's, which loses
    line = margin_line(untrained)
    # like the tournament's head-to-head: agent minus opponent, negative = the agent lower
    assert "learned minus opponent" in line and "negative = learned lower" in line
    assert f"vs ev immediate +{-untrained['ev_immediate']:.1f} " in line
    lo, hi = -untrained["ev_immediate_hi"], -untrained["ev_immediate_lo"]
    assert f"[{lo:+.1f}, {hi:+.1f}]" in line and lo < hi


TINY_NT = LearnConfig(**{**TINY.__dict__, "ntuple": True, "tuple_ridge": 20.0})


@pytest.mark.slow
def test_the_ntuple_model_is_the_same_whatever_the_thread_count_and_learns_its_tables(tmp_path):
    from golfsim.agents.learned.value import NUM_FEATURES_NT

    one = train(TINY_NT, tmp_path / "one", threads=1, log=quiet).weights
    two = train(TINY_NT, tmp_path / "two", threads=2, log=quiet).weights
    assert one.shape == (NUM_ROWS, NUM_FEATURES_NT) and np.array_equal(one, two)
    assert np.any(one[:, NUM_FEATURES:] != 0), "no table weight was learned"
    saved, doc = load_model(tmp_path / "one" / "model.json", NUM_FEATURES_NT)
    assert np.array_equal(saved, one) and doc["format"].startswith("golfsim learned value 2")


def test_an_ntuple_run_resumes_from_its_checkpoint_to_the_same_weights(tmp_path):
    straight = train(TINY_NT, tmp_path / "straight", threads=1, log=quiet)
    train(LearnConfig(**{**TINY_NT.__dict__, "generations": 1}), tmp_path / "resumed", threads=1, log=quiet)
    resumed = train(TINY_NT, tmp_path / "resumed", threads=1, log=quiet)
    assert np.array_equal(straight.weights, resumed.weights)


def test_the_shipped_ntuple_model_records_the_command_that_made_it():
    from golfsim.agents.learned.model import SHIPPED_NT
    from golfsim.agents.learned.value import NUM_FEATURES_NT

    weights, doc = load_model(SHIPPED_NT, NUM_FEATURES_NT)
    assert doc["command"].startswith("golfsim learn ") and "--ntuple --tuple-ridge 100" in doc["command"]
    assert doc["training"]["generations_done"] == doc["training"]["config"]["generations"] == 24
