"""``golfsim learn`` on damaged checkpoints, non-finite settings and plans too big: one line and exit 2, before any
game is played, never a traceback, a silent resume of wrong weights or a model of NaNs."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from golfsim.agents.learned.value import NUM_FEATURES, NUM_ROWS
from golfsim.learning.train import LearnConfig, State, load_checkpoint, save_checkpoint
from tests.support import REPO

ARGS = ("--generations", "1", "--games", "8", "--eval-deals", "2", "--threads", "1")
CONFIG = LearnConfig(generations=1, games=8, eval_deals=2)


def learn(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "golfsim", "learn", *map(str, args)], capture_output=True,
                          text=True, cwd=REPO, timeout=timeout, stdin=subprocess.DEVNULL)


def one_line(done, *words):
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], done.stderr


def good_state():
    return State(1, np.zeros((NUM_ROWS, NUM_FEATURES)), np.zeros((NUM_ROWS, NUM_FEATURES, NUM_FEATURES)),
                 np.zeros((NUM_ROWS, NUM_FEATURES)), np.zeros(NUM_ROWS), [], 8)


def write_raw(path, **fields):
    doc = {"generation": 1, "weights": np.zeros((NUM_ROWS, NUM_FEATURES)),
           "a_sums": np.zeros((NUM_ROWS, NUM_FEATURES, NUM_FEATURES)), "b_sums": np.zeros((NUM_ROWS, NUM_FEATURES)),
           "counts": np.zeros(NUM_ROWS), "deals": 8, "curve": "[]", "config": json.dumps(CONFIG.__dict__)}
    doc.update(fields)
    np.savez(path, **doc)


def damage(kind, path):
    if kind == "empty":
        path.write_bytes(b"")
        return
    save_checkpoint(path, CONFIG, good_state())
    data = path.read_bytes()
    if kind == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif kind == "garbage":
        path.write_bytes(bytes(range(256)) * 40)
    elif kind == "flipped":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes(b ^ 0xFF for b in data[middle:middle + 64]) + data[middle + 64:])
    elif kind == "huge generation":
        write_raw(path, generation=np.inf)
    elif kind == "string generation":
        write_raw(path, generation="many")
    elif kind == "wrong shape":
        write_raw(path, weights=np.zeros((3, 3)))
    elif kind == "nan weights":
        write_raw(path, weights=np.full((NUM_ROWS, NUM_FEATURES), np.nan))
    elif kind == "inf sums":
        write_raw(path, a_sums=np.full((NUM_ROWS, NUM_FEATURES, NUM_FEATURES), np.inf))
    elif kind == "negative deals":
        write_raw(path, deals=-5)
    elif kind == "curve not a list":
        write_raw(path, curve="7")
    elif kind == "config not an object":
        write_raw(path, config="[1, 2]")
    elif kind == "missing field":
        doc = dict(np.load(path))
        del doc["counts"]
        np.savez(path, **doc)
    else:
        raise AssertionError(kind)


KINDS = ["empty", "truncated", "garbage", "flipped", "huge generation", "string generation", "wrong shape",
         "nan weights", "inf sums", "negative deals", "curve not a list", "config not an object", "missing field"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_checkpoint_is_one_value_error(tmp_path, kind):
    path = tmp_path / "checkpoint.npz"
    damage(kind, path)
    with pytest.raises(ValueError, match="checkpoint"):
        load_checkpoint(path, CONFIG)


def test_a_whole_checkpoint_still_loads(tmp_path):
    save_checkpoint(tmp_path / "checkpoint.npz", CONFIG, good_state())
    assert load_checkpoint(tmp_path / "checkpoint.npz", CONFIG).deals == 8


@pytest.mark.parametrize("kind", ["empty", "truncated", "flipped", "wrong shape", "nan weights"])
def test_the_command_refuses_a_damaged_checkpoint_in_one_line(tmp_path, kind):
    damage(kind, tmp_path / "checkpoint.npz")
    one_line(learn("--out", tmp_path, *ARGS), str(tmp_path / "checkpoint.npz"))
    assert not (tmp_path / "model.json").exists()


@pytest.mark.parametrize("ridge", ["inf", "1e400", "nan", "-inf"])
def test_a_ridge_that_is_not_finite_is_refused(tmp_path, ridge):
    with pytest.raises(ValueError, match="ridge"):
        LearnConfig(ridge=float(ridge)).check()
    one_line(learn("--out", tmp_path, *ARGS, "--ridge", ridge), "ridge")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("option", "value"), [("--games", 10**12), ("--games", 10**10), ("--eval-deals", 10**12),
                                               ("--eval-deals", 10**9)])
def test_a_plan_too_big_is_refused_before_it_starts(tmp_path, option, value):
    args = dict(zip(ARGS[::2], ARGS[1::2], strict=True))
    args[option] = str(value)
    flat = [x for pair in args.items() for x in pair]
    done = learn("--out", tmp_path, *flat, timeout=60)
    one_line(done, "limit", option)
    assert list(tmp_path.iterdir()) == []


def test_a_normal_plan_passes_the_limits():
    LearnConfig().check()  # the defaults: 400,000 games, 5,000 evaluation deals
    LearnConfig(games=10**7, eval_deals=10**6).check()
