"""Errors a user meets on the command line are one clear line and exit status 2, never a traceback.

Every test runs the real ``golfsim`` command in a subprocess, with user agent modules named by
``GOLFSIM_AGENT_MODULES`` as a person would.
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import REPO, run_golfsim


def golfsim(*args, env_extra=None, cwd=None, timeout=300):
    return run_golfsim(*args, cwd=cwd, env=env_extra, timeout=timeout)


def assert_one_clear_line(result, *fragments):
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


BAD_MODULES = {
    "missing module": (lambda tmp: "golfsim_no_such_agent_module",
                       ["GOLFSIM_AGENT_MODULES", "no module named 'golfsim_no_such_agent_module'"]),
    "missing file": (lambda tmp: str(tmp / "nowhere" / "agent.py"), ["GOLFSIM_AGENT_MODULES", "no agent file at"]),
    "syntax error": (lambda tmp: str(write(tmp, "broken_syntax_agent.py", "def act(:\n    return 1\n")),
                     ["broken_syntax_agent.py", "syntax error", ":1"]),
    "import error inside": (
        lambda tmp: str(write(tmp, "needs_missing_lib_agent.py", "import golfsim_missing_dependency_xyz\n")),
        ["needs_missing_lib_agent.py", "ModuleNotFoundError", "golfsim_missing_dependency_xyz", ":1"]),
    "raises at import": (
        lambda tmp: str(write(tmp, "raising_agent.py", "x = 1\nraise RuntimeError('the agent table is missing')\n")),
        ["raising_agent.py", "RuntimeError: the agent table is missing", "raising_agent.py:2"]),
}


@pytest.mark.parametrize("case", sorted(BAD_MODULES))
@pytest.mark.parametrize("command", [["agents"], ["tournament", "--agents", "greedy,random", "--games", "10"]])
@pytest.mark.slow
def test_a_user_agent_module_that_cannot_load_is_one_clear_line(tmp_path, case, command):
    make_spec, fragments = BAD_MODULES[case]
    result = golfsim(*command, env_extra={"GOLFSIM_AGENT_MODULES": make_spec(tmp_path)})
    assert_one_clear_line(result, *fragments)


PLUGIN_IMPORTING_SIMULATE = '''
from golfsim.kernels.simulate import simulate

from golfsim.agents import Param, register_python_agent


def make_first_legal(params):
    def first_legal(observation):
        return int(observation["action_mask"].nonzero()[0][0])

    return first_legal


register_python_agent("first-legal", "plays the first legal action; its module imports golfsim.kernels.simulate",
                      make_first_legal, params=(Param("unused", 0.0, "no effect"),))
'''


@pytest.mark.slow
def test_a_plugin_may_import_golfsim_simulate_at_its_top(tmp_path):
    plugin = write(tmp_path, "first_legal_agent.py", PLUGIN_IMPORTING_SIMULATE)
    env = {"GOLFSIM_AGENT_MODULES": str(plugin)}
    listed = golfsim("agents", "--format", "csv", env_extra=env)
    assert listed.returncode == 0, listed.stderr
    assert "first-legal,python,plays the first legal action" in listed.stdout
    # and from Python: importing the simulator first, then asking for the agent by name
    code = ("from golfsim.kernels.simulate import simulate\nfrom golfsim.game.env import play_game\n"
            "from golfsim.core.rules import Rules\n"
            "print(len(play_game(['first-legal', 'random'], Rules(holes=1), seed=1)['totals']))")
    played = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=300,
                            env={**os.environ, **env})
    assert played.returncode == 0, played.stderr
    assert played.stdout.strip() == "2"


# ---------------------------------------------------------------- --out refused before the run
HUGE = "1000000000"  # a run this size would take hours: a refusal has to come before it


@pytest.mark.parametrize("command", [
    ["tournament", "--agents", "greedy,random", "--games", HUGE],
    ["experiment", "tips", "--games", HUGE],
])
@pytest.mark.parametrize("where", ["existing file", "inside a file", "unwritable"])
def test_out_that_cannot_be_written_is_refused_before_the_run(tmp_path, command, where):
    a_file = write(tmp_path, "notes.txt", "not a directory\n")
    out, fragment = {
        "existing file": (a_file, "is an existing file"),
        "inside a file": (a_file / "results", "is a file, not a directory"),
        "unwritable": (Path("/proc/golfsim-results"), "is not writable"),
    }[where]
    start = time.perf_counter()
    result = golfsim(*command, "--out", str(out), cwd=tmp_path, timeout=120)
    assert_one_clear_line(result, "--out", fragment)
    assert time.perf_counter() - start < 120
    assert a_file.read_text() == "not a directory\n"


@pytest.mark.parametrize("args", [
    ["tournament", "--agents", "greedy,random", "--games", "1000000000000000", "--threads", "1"],
    ["bench", "--deals", "10000000000000", "--threads", "1"],
], ids=["tournament", "bench"])
def test_a_run_that_would_take_years_is_refused_before_it_starts_with_an_estimate(args):
    done = run_golfsim(*args, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert re.search(r"at least [\d,]+ (years|days) on 1 thread", lines[0]) and "limit of 30 days" in lines[0], lines
