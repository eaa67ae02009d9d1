"""``golfsim tune --resume`` on a damaged, edited, locked, full or shared ``study.db``: one line and exit 2, never a
traceback, a hang or a silent wrong answer (two trials numbered 0). Real processes; the study they resume is made
once by a real run stopped with SIGTERM."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.support import REPO

STUDY = ["tune", "greedy", "--params", "take_gain", "--against", "greedy", "--games", "20", "--holes", "1",
         "--threads", "1", "--quiet"]


def finished(db: Path) -> int:
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30)) as con:
            return con.execute("select count(*) from trials where state = 'COMPLETE'").fetchone()[0]
    except sqlite3.Error:
        return 0


def start(out: Path, trials: int = 100000, *extra) -> subprocess.Popen:
    env = {**os.environ}
    env.pop("GOLFSIM_AGENT_MODULES", None)
    return subprocess.Popen([sys.executable, "-m", "golfsim", *STUDY, "--trials", str(trials), "--out", str(out),
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def stop(proc: subprocess.Popen) -> tuple[str, str]:
    try:
        return proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def wait_for(proc: subprocess.Popen, db: Path, count: int, timeout: float = 400) -> None:
    deadline = time.monotonic() + timeout
    while finished(db) < count:
        if proc.poll() is not None:
            raise AssertionError("the study ended early: " + "".join(stop(proc)))
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError("the study did not finish its trials in time")
        time.sleep(0.3)


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """A folder holding a study of three finished trials (stopped with SIGTERM: partial, no fingerprint run)."""
    out = tmp_path_factory.mktemp("study") / "out"
    proc = start(out)
    wait_for(proc, out / "study.db", 3)
    proc.send_signal(signal.SIGTERM)
    _, err = stop(proc)
    assert proc.returncode == 130, err
    return out


@pytest.fixture
def copy(study, tmp_path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(study, out)
    return out


def resume(out: Path, trials: int = 5, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "golfsim", *STUDY, "--trials", str(trials), "--out", str(out),
                           "--resume"], capture_output=True, text=True, cwd=REPO, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def one_line(done, *words):
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for word in words:
        assert word in lines[0], done.stderr


def sql(db: Path, *statements):
    with contextlib.closing(sqlite3.connect(db)) as con:
        for statement in statements:
            con.execute(statement)
        con.commit()


def truncate(db):
    db.write_bytes(db.read_bytes()[: db.stat().st_size // 3])


def garbage(db):
    db.write_bytes(os.urandom(8192))


def flip_a_page(db):
    data = bytearray(db.read_bytes())
    page = 4096  # the second page: a table's b-tree, not the header
    data[page:page + 512] = bytes(b ^ 0xFF for b in data[page:page + 512])
    db.write_bytes(bytes(data))


def a_directory(db):
    db.unlink()
    db.mkdir()
    (db / "x").write_text("x")


def index_missing(db):
    sql(db, "delete from trial_user_attributes where key = 'index' and trial_id = "
            "(select max(trial_id) from trials where state = 'COMPLETE')")


def index_null(db):
    sql(db, "update trial_user_attributes set value_json = 'null' where key = 'index'")


def agent_missing(db):
    sql(db, "delete from trial_user_attributes where key = 'agent'")


def schema_edited(db):
    sql(db, "alter table trial_values rename to trial_values_old")


def column_dropped(db):
    sql(db, "alter table trials drop column datetime_start")


def index_twice(db):
    sql(db, "update trial_user_attributes set value_json = '0' where key = 'index'")


DAMAGE = {"truncated": (truncate, "study.db"), "garbage": (garbage, "study.db"),
          "page flipped": (flip_a_page, "study.db"),
          "a directory": (a_directory, "directory"), "index missing": (index_missing, "index"),
          "index null": (index_null, "index"), "agent missing": (agent_missing, "agent"),
          "schema edited": (schema_edited, "study.db"), "column dropped": (column_dropped, "study.db"),
          "index twice": (index_twice, "two trials numbered 0")}


@pytest.mark.slow
@pytest.mark.parametrize("kind", DAMAGE)
def test_a_damaged_study_is_one_line(copy, kind):
    damage, word = DAMAGE[kind]
    damage(copy / "study.db")
    one_line(resume(copy), word)


@pytest.mark.slow
def test_a_whole_study_resumes(copy):
    # the stopped study holds at least 3 trials (a trial may finish while SIGTERM is on its way): one more is asked for
    before = finished(copy / "study.db")
    done = resume(copy, trials=before + 1)
    assert done.returncode in (0, 130) or "fingerprint" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert finished(copy / "study.db") == before + 1


@pytest.mark.slow
def test_a_study_locked_by_another_program_is_one_line_not_a_hang(copy):
    holder = subprocess.Popen([sys.executable, "-c", (
        "import sqlite3, sys, time\n"
        f"con = sqlite3.connect({str(copy / 'study.db')!r}, isolation_level=None)\n"
        "con.execute('begin exclusive')\n"
        "print('held', flush=True)\n"
        "time.sleep(90)\n")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        began = time.monotonic()
        done = resume(copy, timeout=150)
        assert time.monotonic() - began < 85  # the lock's own wait, not the holder's 90 s
        one_line(done, "locked")
    finally:
        holder.kill()
        holder.wait(timeout=30)


@pytest.mark.slow
def test_two_tunes_on_one_study_the_second_is_refused(copy):
    # a trial finished by the first tune proves it runs, and so holds the study's lock (the stopped study may hold
    # more than 3 trials already: a trial can finish while SIGTERM is on its way)
    before = finished(copy / "study.db")
    first = start(copy, 100000, "--resume")
    try:
        wait_for(first, copy / "study.db", before + 1)
        second = resume(copy, trials=before + 5)
        one_line(second, "another tune is running")
        assert first.poll() is None
    finally:
        first.send_signal(signal.SIGTERM)
        stop(first)
    assert first.returncode == 130


INJECT_FULL = """
import sqlite3, sys
import optuna.storages._rdb.storage as rdb
real = rdb.RDBStorage.set_trial_state_values
def full(self, *args, **kwargs):
    raise sqlite3.OperationalError("database or disk is full")
rdb.RDBStorage.set_trial_state_values = full
from golfsim.cli.app import app
sys.argv = ["golfsim", *sys.argv[1:]]
app()
"""


@contextlib.contextmanager
def tiny_filesystem(tmp_path: Path):
    place = tmp_path / f"tiny-{uuid.uuid4().hex[:6]}"
    place.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(place)],
                                                   capture_output=True, timeout=30).returncode == 0
    try:
        yield place if mounted else None
    finally:
        if mounted:
            subprocess.run(["umount", str(place)], capture_output=True, timeout=30)


@pytest.mark.slow
def test_a_full_disk_while_committing_a_trial_is_one_line(copy, tmp_path):
    with tiny_filesystem(tmp_path) as place:
        if place is not None:  # a real full filesystem: the study copied in, the rest filled
            out = place / "out"
            shutil.copytree(copy, out)
            with contextlib.suppress(OSError), open(place / "filler", "wb") as f:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
            done = resume(out, trials=40)
        else:  # sqlite's own error, raised where a trial is committed
            done = subprocess.run([sys.executable, "-c", INJECT_FULL, *STUDY, "--trials", "5", "--out", str(copy),
                                   "--resume"], capture_output=True, text=True, cwd=REPO, timeout=240)
    one_line(done, "ENOSPC")
