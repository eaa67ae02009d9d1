"""A damaged learned model (its ``weights`` key gone) stops only what uses ``learned``, with one line naming the file.

The shipped file is never touched: the package is copied to ``tmp_path`` (``golfsim`` with ``agents`` and
``experiments`` where the install puts them), the copy's model damaged, and the commands run on the copy.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.support import REPO

POSITION = "me: Q J 10 / ? ? ?; opp: ? 5 ? / ? ? 3; discard: 8 4; drawn: Q"


def package_copy(root, model_file):
    """A copy of the package under ``root``, and the path of its model file ``model_file``."""
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "golfsim", root / "golfsim", ignore=skip)
    shutil.copytree(REPO / "agents", root / "golfsim" / "agents", ignore=skip)
    shutil.copytree(REPO / "experiments", root / "golfsim" / "experiments", ignore=skip)
    return root / "golfsim" / "agents" / "learned" / "models" / model_file


@pytest.fixture(scope="module")
def damaged_copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("copy")
    model = package_copy(root, "learned.json")
    doc = json.loads(model.read_text())
    del doc["weights"]
    model.write_text(json.dumps(doc))
    return root, model


def run(root, *args):
    env = {k: v for k, v in os.environ.items() if k != "GOLFSIM_AGENT_MODULES"}
    env.update(PYTHONPATH=str(root), NUMBA_CACHE_DIR=str(root / "numba-cache"))
    done = subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, env=env,
                          cwd=root, timeout=600, stdin=subprocess.DEVNULL)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.mark.slow
def test_the_copy_runs_from_its_own_files(damaged_copy):
    root, _ = damaged_copy
    done = subprocess.run([sys.executable, "-c", "import golfsim.agents.learned as m; print(m.__file__)"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root)}, cwd=root,
                          timeout=120)
    assert done.stdout.strip().startswith(str(root)), done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args", [("agents",),
                                  ("tournament", "--agents", "greedy,random", "--games", "10", "--quiet",
                                   "--threads", "1")])
def test_commands_without_learned_run(damaged_copy, args):
    done = run(damaged_copy[0], *args)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("args", [("tournament", "--agents", "learned,greedy", "--games", "10", "--quiet",
                                   "--threads", "1"),
                                  ("tournament", "--agents", "mc:rollout=learned,greedy", "--games", "10", "--quiet",
                                   "--threads", "1"),
                                  ("hint", POSITION, "--samples", "50")])
def test_using_learned_is_one_line_naming_the_file(damaged_copy, args):
    root, model = damaged_copy
    done = run(root, *args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(model) in lines[0] and "weights" in lines[0], done.stderr


@pytest.mark.parametrize("change", [lambda d: d.pop("weights"), lambda d: d.update(weights="many"),
                                    lambda d: d.update(weights=[[1, 2], [3]]), lambda d: d.update(weights=None)])
def test_a_model_file_with_bad_weights_is_refused_in_one_line(tmp_path, change):
    from golfsim.agents.learned.model import SHIPPED, load_model

    doc = json.loads(SHIPPED.read_text())
    change(doc)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=str(path)):
        load_model(path)


@pytest.fixture(scope="module")
def damaged_model_2_copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("copy2")
    model = package_copy(root, "learned_ntuple.json")
    model.write_text(model.read_text()[:1000])  # cut short, as a broken download leaves it
    return root, model


@pytest.mark.slow
@pytest.mark.parametrize("agents,refused", [("learned,greedy", False), ("learned:model=2,greedy", True),
                                            ("mc:rollout=learned:model=2,greedy", True)])
def test_a_damaged_model_2_stops_only_what_asks_for_model_2(damaged_model_2_copy, agents, refused):
    root, model = damaged_model_2_copy
    done = run(root, "tournament", "--agents", agents, "--games", "4", "--holes", "1", "--quiet", "--threads", "1")
    if not refused:
        assert done.returncode == 0, done.stderr
        return
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(model) in lines[0] and "model 2" in lines[0], done.stderr


def test_model_2_is_refused_when_its_file_is_damaged_and_model_1_still_plays(monkeypatch):
    import golfsim.agents.learned as learned
    from golfsim.agents.base import parse_agent

    monkeypatch.setattr(learned, "MODEL_NT_ERROR", "cannot read the model file learned_ntuple.json")
    assert parse_agent("learned").values[2] == 1
    for text in ("learned:model=2", "learned:exact=1,model=2", "mc:rollout=(learned:model=2)"):
        with pytest.raises(ValueError, match="model 2 cannot be used: cannot read the model file learned_ntuple"):
            parse_agent(text)
