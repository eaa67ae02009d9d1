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

from tests.support import REPO, default_sigint

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


@pytest.mark.slow
def test_ctrl_c_keeps_the_trials_run_so_far(tmp_path):
    out = tmp_path / "tuning"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "tune", "greedy", "--params", "take_gain",
                             "--trials", "100000", "--games", "200", "--holes", "3", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=REPO, env=env,
                            preexec_fn=default_sigint)
    os.close(slave)
    drawn = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        drawn += os.read(master, 65536)
        done = [int(n) for n in re.findall(r"(\d+)/100000 trials", ANSI.sub("", drawn.decode(errors="replace")))]
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


STUDY = ["tune", "greedy", "--params", "take_gain", "--against", "greedy", "--games", "60", "--holes", "3"]


def finished_trials(db: Path) -> list[tuple[int, float]]:
    """(trial number, objective) of the finished trials in optuna's SQLite storage, read as any reader would."""
    import sqlite3

    if not db.exists():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as con:
            return con.execute("select t.number, v.value from trials t join trial_values v on v.trial_id = t.trial_id "
                               "where t.state = 'COMPLETE' order by t.number").fetchall()
    except sqlite3.OperationalError:  # the schema is still being created
        return []


def start_study(out: Path, *extra) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "golfsim", *STUDY, "--trials", "100000", "--out", str(out),
                             "--quiet", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            preexec_fn=default_sigint)


def wait_for_trials(proc, db: Path, count: int, timeout: float = 400) -> None:
    deadline = time.monotonic() + timeout
    while len(finished_trials(db)) < count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the study did not finish its trials in time"
        time.sleep(0.5)


@pytest.mark.slow
def test_sigterm_stops_the_study_and_keeps_every_finished_trial(tmp_path):
    out = tmp_path / "tuning"
    proc = start_study(out)
    wait_for_trials(proc, out / "study.db", 2)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted: kept the" in stderr
    kept = finished_trials(out / "study.db")
    trials = pd.read_csv(out / "trials.csv")
    assert len(trials) == len(kept) >= 2 and list(trials["trial"]) == list(range(len(trials)))
    assert list(trials["objective"]) == pytest.approx([v for _, v in kept])
    config = json.loads((out / "config.json").read_text())
    assert config["partial"] is True and config["trials_completed"] == len(trials)
    assert "agent string:" not in stdout and "nothing is recommended yet" in stdout


@pytest.mark.slow
def test_after_sigkill_resume_continues_from_the_trials_the_storage_kept(tmp_path):
    out = tmp_path / "tuning"
    proc = start_study(out)
    wait_for_trials(proc, out / "study.db", 2)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    before = finished_trials(out / "study.db")
    assert len(before) >= 2
    again = start_study(out, "--resume")
    wait_for_trials(again, out / "study.db", len(before) + 2)
    again.send_signal(signal.SIGTERM)
    stdout, stderr = again.communicate(timeout=120)
    assert again.returncode == 130, stderr
    trials = pd.read_csv(out / "trials.csv")
    assert list(trials["trial"]) == list(range(len(trials))) and len(trials) >= len(before) + 2
    # the trials finished before the kill are kept exactly, and the study went on from them
    assert list(trials["objective"][:len(before)]) == pytest.approx([v for _, v in before])
    assert f"best of {len(trials)} trials" in stdout


INJECT_FULL_DISK = """
import errno, sys
import golfsim.tuning.report as report

def full(doc, path):
    raise OSError(errno.ENOSPC, "No space left on device", str(path))

report._write_config = full  # the disk fills after trials.csv and the figure, before config.json
from golfsim.cli.app import app
sys.argv = ["golfsim", *sys.argv[1:]]
app()
"""


@pytest.mark.slow
def test_a_full_disk_between_files_is_one_line_and_resume_finds_every_trial(tmp_path):
    out = tmp_path / "tuning"
    args = [*STUDY, "--trials", "3", "--out", str(out), "--quiet"]
    full = subprocess.run([sys.executable, "-c", INJECT_FULL_DISK, *args], capture_output=True, text=True, cwd=REPO,
                          timeout=600)
    lines = full.stderr.strip().splitlines()
    assert full.returncode == 2 and len(lines) == 1, full.stderr
    assert "No space left on device" in lines[0] and "--resume" in lines[0]
    assert len(finished_trials(out / "study.db")) == 3
    assert not (out / "trials.csv").exists()  # nothing half-written: the files move into place together
    resumed = golfsim(*args, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert "best of 3 trials" in resumed.stdout
    assert len(finished_trials(out / "study.db")) == 3  # none was played again
    assert len(pd.read_csv(out / "trials.csv")) == 3
    assert json.loads((out / "config.json").read_text())["partial"] is False


@pytest.mark.slow
def test_the_bar_counts_the_trials_asked_for_and_defaults_that_win_are_not_dressed_up(tmp_path):
    out = tmp_path / "tuning"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "COLUMNS": "80", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", *STUDY, "--trials", "3", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=REPO, env=env,
                            preexec_fn=default_sigint)
    os.close(slave)
    drawn = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        drawn += chunk
    os.close(master)
    stdout, _ = proc.communicate(timeout=600)
    screen = ANSI.sub("", drawn.decode(errors="replace"))
    assert proc.returncode == 0, screen
    counts = set(re.findall(r"(\d+)/(\d+) trials", screen))
    assert ("3", "3") in counts and all(total == "3" for _, total in counts), counts
    text = stdout.decode()
    # greedy's default take_gain wins its own trial 0: nothing beats the defaults, and no string is offered
    assert "no parameters beat the defaults" in text and "agent string:" not in text, text
    assert "lower is better" not in text and "lead" not in text
    assert json.loads((out / "config.json").read_text())["recommended"] is None
