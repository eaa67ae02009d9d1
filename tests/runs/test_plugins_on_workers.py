"""User agent modules (``GOLFSIM_AGENT_MODULES``) on Dask workers: paths resolved on the client, and a module that
fails on a worker says that it failed there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from golfsim.runs.tasks import current_plugins

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_a_relative_agent_file_is_made_absolute_on_the_client(tmp_path, monkeypatch):
    (tmp_path / "mine.py").write_text("")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GOLFSIM_AGENT_MODULES", "mine.py, some.module")
    assert current_plugins() == (str(tmp_path / "mine.py"), "some.module")


def golfsim(*args, cwd, **env):
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600, env={**os.environ, **env})


@pytest.mark.slow  # starts a Dask worker process that imports golfsim and loads the kernels
def test_a_relative_agent_file_plays_on_a_dask_worker_and_a_worker_failure_says_so(tmp_path):
    (tmp_path / "lowball_agent.py").write_text((EXAMPLES / "lowball_agent.py").read_text())
    done = golfsim("tournament", "--agents", "lowball,random", "--games", "4", "--holes", "1", "--dask", "local:1",
                   "--format", "csv", cwd=tmp_path, GOLFSIM_AGENT_MODULES="lowball_agent.py")
    assert done.returncode == 0, done.stderr
    assert "lowball" in done.stdout
    # a module that imports on the client but raises on a worker
    (tmp_path / "picky.py").write_text(
        "import multiprocessing\n"
        "if multiprocessing.parent_process() is not None:  # a worker process, not the command itself\n"
        "    raise RuntimeError('no agents for workers')\n")
    done = golfsim("tournament", "--agents", "greedy,random", "--games", "4", "--holes", "1", "--dask", "local:1",
                   cwd=tmp_path, GOLFSIM_AGENT_MODULES="picky.py")
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "a worker could not load the agent modules: on Dask worker" in lines[0]
    assert "no agents for workers" in lines[0]
