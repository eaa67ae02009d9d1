"""``golfsim tune`` as a person runs it: the real command in a subprocess (and, for Ctrl-C, in a terminal)."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def golfsim(*args, cwd=None, timeout=600):
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, cwd=cwd or REPO,
                          timeout=timeout)


def test_help_shows_examples():
    result = golfsim("tune", "--help")
    assert result.returncode == 0
    assert "Examples" in result.stdout
    assert "golfsim tune ev --against ev,greedy --players 2 --trials 200" in result.stdout
    assert "--params" in result.stdout and "--resume" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["nosuch"], "unknown agent 'nosuch'"),
    (["random"], "agent 'random' has no parameters to tune"),
    (["ev", "--params", "watch_discard,nosuch"], "agent 'ev' has no parameter 'nosuch'"),
    (["ev", "--games", "-5"], "--games must be a whole number of at least 1, got -5"),
    (["ev", "--against", "ev,nosuch"], "unknown agent 'nosuch'"),
])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    result = golfsim("tune", *args, "--out", str(tmp_path / "out"), "--quiet")
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr
    assert not (tmp_path / "out").exists()


def test_an_unwritable_out_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    result = golfsim("tune", "greedy", "--out", str(blocker / "sub"), "--quiet")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot be made" in lines[0], result.stderr


@pytest.mark.slow  # the complete study records the behaviour fingerprint: a minute or two of seeded games
def test_a_study_writes_its_directory_and_prints_a_string_that_plays(tmp_path):
    out = tmp_path / "tuning"
    args = ["tune", "greedy:take_gain=9", "--params", "take_gain", "--against", "greedy", "--trials", "4",
            "--games", "100", "--holes", "3", "--out", str(out), "--quiet"]
    result = golfsim(*args)
    assert result.returncode == 0, result.stderr
    winner = re.search(r"^agent string: (\S+)$", result.stdout, re.M).group(1)
    config = json.loads((out / "config.json").read_text())
    assert config["winner"] == winner and config["partial"] is False
    assert re.fullmatch(r"[0-9a-f]{16}", config["behaviour_fingerprint"])
    assert len(pd.read_csv(out / "trials.csv")) == 4 and (out / "convergence.png").is_file()
    # the printed string is what a person pastes into another command
    played = golfsim("tournament", "--agents", f"{winner},greedy", "--games", "10", "--holes", "1", "--format",
                     "json", "--quiet")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["config"]["agent_specs"][0] == winner
    # another request may not replace it; the same request with --resume extends the study
    refused = golfsim(*[a if a != "100" else "200" for a in args])
    assert refused.returncode == 2 and "would replace it" in refused.stderr
    longer = golfsim(*[a if a != "4" else "6" for a in args], "--resume")
    assert longer.returncode == 0, longer.stderr
    trials = pd.read_csv(out / "trials.csv")
    assert list(trials["trial"]) == list(range(6))


def test_ctrl_c_keeps_the_trials_run_so_far(tmp_path):
    out = tmp_path / "tuning"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "tune", "greedy", "--params", "take_gain",
                             "--trials", "100000", "--games", "200", "--holes", "3", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=REPO, env=env)
    os.close(slave)
    drawn = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        drawn += os.read(master, 65536)
        done = [int(n) for n in re.findall(r"(\d+)/100001 trials", ANSI.sub("", drawn.decode(errors="replace")))]
        if done and max(done) >= 2:
            break
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=120)
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    os.close(master)
    screen = ANSI.sub("", drawn.decode(errors="replace"))
    assert proc.returncode == 130, screen
    kept = re.findall(r"interrupted: kept the (\d+) completed of 100000 trials", screen)
    assert len(kept) == 1, screen
    trials = pd.read_csv(out / "trials.csv")
    assert len(trials) == int(kept[0]) >= 2
    assert list(trials["trial"]) == list(range(len(trials)))
    config = json.loads((out / "config.json").read_text())
    assert config["partial"] is True and config["reevaluation"] is None
    assert config["trials_completed"] == len(trials)
    assert f"best of {len(trials)} trials" in stdout.decode()
