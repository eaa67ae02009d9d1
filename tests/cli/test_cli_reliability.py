"""Nothing finished is lost: real ``golfsim`` processes stopped by real signals, with results already on disk.

A wrapper script announces on stderr when the run has finished some work (the progress bar's first count), so the
signal is sent at a point the run itself reports, not after a guessed delay.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import textwrap

import pytest

from tests.support import REPO, default_sigint, signal_when

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
    code, _, err = signal_when([sys.executable, "-c", ANNOUNCE_PROGRESS, *map(str, args)], trigger, sig, timeout)
    return code, err


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_plugin_that_prints_while_it_loads_leaves_the_json_output_one_document(tmp_path):
    done = golfsim_with_plugins(tmp_path, *TOURNAMENT_JSON, plugin="chatty_agent.py", files={
        "chatty_agent.py": "print('hello from the chatty agent')\n"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["deal_sets_completed"] == 20
    assert "hello from the chatty agent" in done.stderr


COMPILED_PRINTER = """
    from numba import njit

    from golfsim.agents import AGENT_SIGNATURE, register_compiled_agent
    from golfsim.core.engine import is_legal


    @njit(AGENT_SIGNATURE, cache=True)
    def noisy_act(pub, rules, params, agent_rng, player):
        print("noisy compiled act")
        for action in range(64):
            if is_legal(pub, rules, action):
                return action
        return 0


    register_compiled_agent("noisy", "prints from compiled code", noisy_act)
"""

PYTHON_PRINTER = """
    import os

    import numpy as np

    from golfsim.agents import register_python_agent

    os.write(1, b"noisy import on descriptor 1\\n")


    def make(params):
        def act(observation):
            print("noisy python act")
            return int(np.flatnonzero(observation["action_mask"])[0])
        return act


    register_python_agent("pynoisy", "prints from Python", make)
"""


@pytest.mark.parametrize("agent, plugin, text, said", [
    ("noisy", "noisy_agent.py", COMPILED_PRINTER, ["noisy compiled act"]),
    ("pynoisy", "pynoisy_agent.py", PYTHON_PRINTER, ["noisy import on descriptor 1", "noisy python act"]),
], ids=["Numba print in compiled act", "Python print in act and os.write(1) on import"])
@pytest.mark.slow
def test_an_agent_that_prints_while_it_plays_leaves_the_json_output_one_document(tmp_path, agent, plugin, text, said):
    done = golfsim_with_plugins(tmp_path, "tournament", "--agents", f"{agent},greedy", "--games", "5", "--holes", "1",
                                "--format", "json", "--quiet", plugin=plugin, files={plugin: text}, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["summary"]["deal_sets_completed"] == 5
    for words in said:
        assert words in done.stderr


@pytest.mark.slow
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


@pytest.mark.parametrize("kind", ["python", "batched"])
@pytest.mark.slow
def test_an_agent_that_calls_sys_exit_while_it_plays_is_one_line_naming_it(tmp_path, kind):
    plugin = f"""
        import sys

        from golfsim.agents import register_{kind}_agent


        def make(params):
            def act(observation):
                sys.exit(3)
            return act


        register_{kind}_agent("quitter", "leaves the table", make)
    """
    done = golfsim_with_plugins(tmp_path, "tournament", "--agents", "quitter,greedy", "--games", "5", "--holes", "1",
                                "--format", "json", "--quiet", plugin="quitter_agent.py",
                                files={"quitter_agent.py": plugin}, timeout=600)
    assert done.returncode == 2, (done.returncode, done.stderr[-3000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "agent 'quitter' (seat" in lines[0] and "SystemExit: 3" in lines[0], done.stderr[-3000:]
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
@pytest.mark.slow
def test_an_agent_parameter_out_of_bounds_is_one_line_on_the_command_line(agent, words):
    done = golfsim("tournament", "--agents", f"greedy,{agent}", "--games", "2", "--quiet")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr


def assert_refused_in_one_line(done, *fragments):
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


GREEDIES = [f"greedy:take_gain={k}" for k in range(30)]


@pytest.mark.parametrize("args, fragments", [
    (["--agents", "greedy,random", "--games", "9223372036854775808"],
     ["more than the limit of 9,223,372,036,854,775,807", "--games"]),
    (["--agents", "greedy,random", "--games", str(10**7), "--batch-size", str(10**9)], ["--batch-size"]),
    (["--agents", ",".join(GREEDIES[:12]), "--players", "12", "--seating", "permutations", "--games", "10"],
     ["479,001,600 seat orders", "more than the limit of 20,000"]),
    (["--agents", ",".join(GREEDIES), "--players", "12", "--games", "10"],
     ["86,493,225 tables", "more than the limit of 20,000"]),
], ids=["games 2**63", "batch 10**9", "12! seat orders", "30-agent round robin at 12 seats"])
@pytest.mark.slow
def test_a_tournament_that_cannot_fit_is_refused_before_it_starts(args, fragments):
    assert_refused_in_one_line(golfsim("tournament", *args, "--quiet", timeout=120), *fragments)


@pytest.mark.slow
def test_an_experiment_that_cannot_fit_is_refused_in_one_line(tmp_path):
    done = golfsim("experiment", "tips", "--games", str(10**12), "--out", tmp_path, timeout=120)
    assert_refused_in_one_line(done, "tasks", "more than the limit of 200,000")
    assert not (tmp_path / "tips").exists()


@pytest.mark.parametrize("games, axes, fragments", [
    (1000, "a = [" + ", ".join(str(i / 1000) for i in range(1000)) + "]\nplayers = [2, 3, 4]\n"
           "end = ['immediate', 'one_last_turn']\nb = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]\n"
           "c = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]",
     ["600,000 cells", "more than the limit of 10,000"]),
    (2**63 - 1, "a = [0, 0.5]", ["more than the limit of 1.0 GiB"]),
], ids=["600,000 cells", "games int64 max"])
@pytest.mark.slow
def test_a_sweep_that_cannot_fit_is_refused_before_it_plans(tmp_path, games, axes, fragments):
    pools = "field = ['ev:watch_discard={a}', 'greedy:take_gain={b}', 'pair-builder:take_gain={c}']" \
        if "b =" in axes else "field = ['ev:watch_discard={a}', 'greedy']"
    config = tmp_path / "big.toml"
    config.write_text(f"[sweep]\nname = 'big'\ngames = {games}\n[axes]\n{axes}\n[pools]\n{pools}\n")
    done = golfsim("sweep", config, "--out", tmp_path / "out", timeout=120)
    assert_refused_in_one_line(done, *fragments)
    assert not (tmp_path / "out").exists()


SLOW_WRITE = textwrap.dedent("""
    import sys, time
    import golfsim.experiments.common as common
    real = common.markdown_table
    def slow(*args, **kwargs):
        print("writing now", file=sys.stderr, flush=True)
        time.sleep(3)
        return real(*args, **kwargs)
    common.markdown_table = slow
    from golfsim.cli.app import main
    sys.argv = ["golfsim", *sys.argv[1:]]
    main()
""")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
@pytest.mark.slow
def test_a_stop_after_the_last_cell_writes_every_complete_cell(tmp_path, sig):
    proc = subprocess.Popen([sys.executable, "-c", SLOW_WRITE, "experiment", "ladder", "--games", "30", "--out",
                             tmp_path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            preexec_fn=default_sigint)
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if "writing now" in line:
                proc.send_signal(sig)
                break
        _, rest = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    err = " ".join(("".join(seen) + rest).split())
    assert proc.returncode == 130, err
    assert "interrupted after every cell of ladder was complete: the result was written in full" in err
    config = json.loads((tmp_path / "ladder" / "config.json").read_text())
    assert config["partial"] is False
    assert (tmp_path / "ladder" / "table.md").is_file() and (tmp_path / "ladder" / "table.csv").is_file()


def test_a_closed_stdout_is_one_line_not_silence():
    done = subprocess.run(f"exec {shlex.quote(sys.executable)} -m golfsim agents --format json >&-", shell=True,
                          capture_output=False, stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "standard output is closed" in lines[0], done.stderr


def test_a_full_disk_under_stdout_is_one_line_naming_enospc():
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "golfsim", *TOURNAMENT_JSON], stdout=full,
                              stderr=subprocess.PIPE, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == "error: writing the output: No space left on device (ENOSPC)"


def test_log_and_out_on_the_same_path_is_refused_before_the_run(tmp_path):
    same = tmp_path / "same"
    done = golfsim("tournament", "--agents", "greedy,random", "--games", "20", "--quiet", "--log", same,
                   "--out", same)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--log and --out are the same path" in lines[0], done.stderr
    assert not same.exists()


@pytest.mark.slow
def test_replay_of_a_hole_or_game_beyond_any_log_is_one_line(tmp_path):
    log = tmp_path / "l.parquet"
    assert golfsim("tournament", "--agents", "greedy,random", "--games", "3", "--quiet", "--log", log).returncode == 0
    for args, words in [(["--hole", str(10**20)], "hole 100000000000000000000 is not in game 0 of l.parquet"),
                        (["--game", str(10**20)], "game 100000000000000000000 is not in l.parquet")]:
        done = golfsim("replay", log, *args)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], done.stderr


def test_hint_totals_beyond_int32_are_one_line():
    done = golfsim("hint", "me: Q J 10 / ? ? ?; opp: ? 5 ? / ? ? 3; discard: 8 4; drawn: Q; totals: 10000000000000 3",
                   "--samples", "10")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "totals: each must be from -2147483648 to 2147483647" in lines[0], done.stderr


def test_a_numba_cache_dir_on_a_full_disk_falls_back_instead_of_failing(tmp_path, monkeypatch):
    place = tmp_path / "full"
    place.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(place)],
                                                   capture_output=True, timeout=30).returncode == 0
    if not mounted:  # no filesystem can be made here: the probe meets the error a full disk gives
        import errno

        import golfsim._numba.jit as jit

        def full(fd):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(jit.os, "fsync", full)
        assert jit._has_room(tmp_path) is False
        return
    try:
        with contextlib.suppress(OSError), open(place / "filler", "wb") as f:
            while True:
                f.write(b"\0" * 4096)
                f.flush()
        (tmp_path / "tmp").mkdir()
        env = {**os.environ, "NUMBA_CACHE_DIR": str(place / "cache"), "TMPDIR": str(tmp_path / "tmp")}
        done = subprocess.run([sys.executable, "-m", "golfsim", "agents", "--format", "json"], capture_output=True,
                              text=True, cwd=REPO, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        assert any(a["agent"] == "ev" for a in json.loads(done.stdout))
        assert list((tmp_path / "tmp").glob("golfsim-numba-*/golfsim-*"))  # the cache went to the fallback
    finally:
        subprocess.run(["umount", str(place)], capture_output=True, timeout=30)
