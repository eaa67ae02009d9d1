"""golfsim installed from its wheel works in a folder that has packages of its own named ``agents`` and
``experiments``: every import name lives under ``golfsim.``, so a user's folders (or PyPI's ``openai-agents``, which
is imported as ``agents``) cannot shadow golfsim's registry or experiments.

The wheel goes into a new virtual environment with no other golfsim on its path. Its dependencies come from the
environment running the tests, added as a plain path (a ``.pth`` line): that environment's own editable install of
golfsim is not activated there, since only site directories run their ``.pth`` files.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

USER_SCRIPT = """
import json
from golfsim import Rules, parse_agent, simulate
from golfsim.runs.experiment import discover
import golfsim.agents, golfsim.experiments
import agents, experiments   # the user's own packages, in this folder
result = simulate(["ev", "greedy"], Rules(), games=3, seed=1)
print(json.dumps({
    "user agents": agents.MARK, "user experiments": experiments.MARK,
    "golfsim agents": golfsim.agents.__file__, "golfsim experiments": golfsim.experiments.__file__,
    "ev": parse_agent("ev").label, "experiment names": ["all", *discover()],
    "games": int(result.players["game"].nunique()),
}))
"""


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, **kwargs)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.mark.slow
def test_the_wheel_works_beside_a_users_own_agents_and_experiments_packages(tmp_path):
    wheels = tmp_path / "wheels"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)])
    (wheel,) = wheels.glob("golfsim-*.whl")
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)])
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    (Path(purelib) / "golfsim_test_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")

    user = tmp_path / "user_project"
    for name in ("agents", "experiments"):
        (user / name).mkdir(parents=True)
        (user / name / "__init__.py").write_text(f"MARK = 'user {name}'\n")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    done = run([str(python), "-c", USER_SCRIPT], cwd=user, env=env)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["user agents"] == "user agents" and report["user experiments"] == "user experiments"
    for key in ("golfsim agents", "golfsim experiments"):
        assert Path(report[key]).is_relative_to(purelib), report[key]
    assert report["ev"] == "ev" and "ladder" in report["experiment names"] and report["games"] == 3

    listing = run([str(env_dir / "bin" / "golfsim"), "agents", "--format", "json"], cwd=user, env=env)
    names = {agent["agent"] for agent in json.loads(listing.stdout)}
    assert {"random", "greedy", "ev", "pair-builder", "mc"} <= names


@pytest.mark.parametrize("path", ["site/index.html", "golfsim-game-1234.parquet"])
def test_what_the_docs_build_and_golfsim_play_leave_behind_is_ignored_by_git(path):
    done = subprocess.run(["git", "check-ignore", "--no-index", "-q", path], cwd=REPO, timeout=60)
    assert done.returncode == 0, f"{path} is not in .gitignore"
