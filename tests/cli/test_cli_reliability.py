"""Nothing finished is lost: real ``golfsim`` processes stopped by real signals, with results already on disk.

A wrapper script announces on stderr when the run has finished some work (the progress bar's first count), so the
signal is sent at a point the run itself reports, not after a guessed delay.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

ANNOUNCE_PROGRESS = textwrap.dedent("""
    import sys
    import golfsim.runs.progress as progress
    real = progress.CountBar.update
    def update(self, **fields):
        real(self, **fields)
        if fields.get("completed", 0) >= 4000:
            print("PROGRESS", fields["completed"], file=sys.stderr, flush=True)
    progress.CountBar.update = update
    from golfsim.cli.app import main
    sys.argv = ["golfsim", *sys.argv[1:]]
    main()
""")


def golfsim(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "golfsim", *map(str, args)], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout)


def run_until(args, trigger: str, sig=signal.SIGINT, timeout: float = 300) -> tuple[int, str]:
    """Run golfsim (progress announced) with ``args``; send ``sig`` when a stderr line contains ``trigger``."""
    proc = subprocess.Popen([sys.executable, "-c", ANNOUNCE_PROGRESS, *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO, env={**os.environ, "COLUMNS": "200"})
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if trigger in line:
                proc.send_signal(sig)
                break
        _, rest = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    return proc.returncode, "".join(seen) + rest


def test_an_interrupted_tournament_keeps_the_complete_result_already_in_out(tmp_path):
    out = tmp_path / "standings"
    done = golfsim("tournament", "--agents", "greedy,random", "--games", "300", "--quiet", "--out", out)
    assert done.returncode == 0, done.stderr
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert json.loads(before["config.json"])["partial"] is False
    code, err = run_until(["tournament", "--agents", "greedy,random", "--games", "200000", "--batch-size", "200",
                           "--format", "json", "--out", out], "PROGRESS")
    assert code == 130, err
    assert f"kept the complete result already in {out}" in " ".join(err.split())
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # not one file replaced


def golfsim_with_plugins(tmp_path, *args, files: dict[str, str], plugin: str, timeout=300):
    for name, text in files.items():
        (tmp_path / name).write_text(textwrap.dedent(text))
    env = {**os.environ, "GOLFSIM_AGENT_MODULES": str(tmp_path / plugin)}
    return subprocess.run([sys.executable, "-m", "golfsim", *map(str, args)], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=timeout)


TOURNAMENT_JSON = ("tournament", "--agents", "greedy,random", "--games", "20", "--format", "json", "--quiet")


def test_a_plugin_that_prints_while_it_loads_leaves_the_json_output_one_document(tmp_path):
    done = golfsim_with_plugins(tmp_path, *TOURNAMENT_JSON, plugin="chatty_agent.py", files={
        "chatty_agent.py": "print('hello from the chatty agent')\n"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["deal_sets_completed"] == 20
    assert "hello from the chatty agent" in done.stderr


def test_a_plugin_next_to_a_file_named_like_a_library_does_not_replace_the_library(tmp_path):
    # matplotlib is imported after the agent modules load (for the plots written to --out); the file beside the
    # plugin must not be the matplotlib that is imported
    done = golfsim_with_plugins(tmp_path, *TOURNAMENT_JSON, "--out", tmp_path / "out", plugin="my_agent.py", files={
        "my_agent.py": "x = 1\n",
        "matplotlib.py": "raise RuntimeError('the matplotlib beside the plugin was imported')\n"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["deal_sets_completed"] == 20
    assert (tmp_path / "out" / "head_to_head.png").is_file()


def test_a_plugin_that_calls_sys_exit_is_one_line_naming_it(tmp_path):
    done = golfsim_with_plugins(tmp_path, *TOURNAMENT_JSON, plugin="exiting_agent.py", files={
        "exiting_agent.py": "import sys\nsys.exit(0)\n"})
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "exiting_agent.py" in lines[0] and "sys.exit(0)" in lines[0], done.stderr
    assert done.stdout == ""


def test_a_plugin_whose_agent_name_the_command_line_cannot_name_is_one_line(tmp_path):
    done = golfsim_with_plugins(tmp_path, "agents", plugin="named_agent.py", files={"named_agent.py": """
        from golfsim.agents.base import register_python_agent
        register_python_agent("My Agent", "spaces and capitals", lambda params: (lambda obs: 0))
    """})
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "'My Agent' cannot be named on the command line" in lines[0], done.stderr


@pytest.mark.parametrize("agent, words", [("mc:samples=0", "samples must be a whole number from 1 to 100000"),
                                          ("mc:objective=7", "objective must be a whole number from 0 to 2")])
def test_an_agent_parameter_out_of_bounds_is_one_line_on_the_command_line(agent, words):
    done = golfsim("tournament", "--agents", f"greedy,{agent}", "--games", "2", "--quiet")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr
