"""Python agents on worker processes: an agent's error is its one line with no Dask worker traceback before it, and
a worker process that dies (the agent calls ``os._exit``) is one line too, not ``KilledWorker`` or
``BrokenProcessPool`` tracebacks. Real commands in new processes."""

from __future__ import annotations

import pytest

from tests.support import run_golfsim

AGENTS = """
import os
from golfsim.agents.base import register_python_agent


def raising(params):
    def policy(obs):
        raise ZeroDivisionError("my bot divided by zero")
    return policy


def exiting(params):
    def policy(obs):
        os._exit(3)
    return policy


register_python_agent("raiser", "raises", raising)
register_python_agent("exiter", "ends its process", exiting)
"""


@pytest.mark.slow
@pytest.mark.parametrize(("agent", "where", "words"), [
    ("raiser", ("--dask", "local:2"), ("agent 'raiser' (seat", "raised ZeroDivisionError: my bot divided by zero")),
    ("exiter", ("--dask", "local:2"), ("a worker process ended", "KilledWorker")),
    ("exiter", ("--threads", "2"), ("a worker process ended",)),
])
def test_a_worker_error_is_one_line(tmp_path, agent, where, words):
    module = tmp_path / "agents_for_workers.py"
    module.write_text(AGENTS)
    done = run_golfsim("tournament", "--agents", f"{agent},random", "--games", "4", "--holes", "1", "--quiet",
                       *where, env={"GOLFSIM_AGENT_MODULES": str(module)}, timeout=400)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], done.stderr
