"""Decision logs survive kills, refuse a second writer and name a full disk; ``golfsim play --save`` checks its
target before the game and saves on SIGTERM and SIGHUP. Real processes, real signals, a real full filesystem
when the test may mount one (else an injected ``OSError``)."""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pexpect
import pyarrow.parquet as pq
import pytest

from golfsim.logs.trace import log_games, read_log
from tests.support import REPO, default_sigint

ANNOUNCE_PROGRESS = textwrap.dedent("""
    import sys
    import golfsim.runs.progress as progress
    real = progress.CountBar.update
    def update(self, **fields):
        real(self, **fields)
        if fields.get("completed", 0) >= 2000:
            print("PROGRESS", fields["completed"], file=sys.stderr, flush=True)
    progress.CountBar.update = update
    from golfsim.cli.app import main
    sys.argv = ["golfsim", *sys.argv[1:]]
    main()
""")


def start_announced(*args) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", ANNOUNCE_PROGRESS, *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO, preexec_fn=default_sigint)


def wait_for(proc: subprocess.Popen, trigger: str) -> str:
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if trigger in line:
            return "".join(seen)
    raise AssertionError("the run ended before it announced progress:\n" + "".join(seen))


def golfsim(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "golfsim", *map(str, args)], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout, stdin=subprocess.DEVNULL)


BIG_LOGGED = ("tournament", "--agents", "greedy,random", "--games", "400000", "--batch-size", "500")


@pytest.mark.slow
def test_sigkill_while_logging_leaves_the_existing_log_whole(tmp_path):
    log = tmp_path / "decisions.parquet"
    done = golfsim("tournament", "--agents", "greedy,random", "--games", "30", "--quiet", "--log", log)
    assert done.returncode == 0, done.stderr
    before = log.read_bytes()
    proc = start_announced(*BIG_LOGGED, "--log", log)
    try:
        wait_for(proc, "PROGRESS")
        proc.kill()
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert log.read_bytes() == before  # the killed run never touched it
    assert read_log(log).meta["deal_sets"] == 30
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != log.name]
    assert all(name.startswith(".decisions.parquet.") for name in leftovers), leftovers


@pytest.mark.slow
def test_a_second_run_on_the_same_log_is_refused_while_the_first_writes(tmp_path):
    log = tmp_path / "decisions.parquet"
    first = start_announced(*BIG_LOGGED, "--log", log, "--format", "json")
    try:
        wait_for(first, "PROGRESS")
        second = golfsim("tournament", "--agents", "greedy,random", "--games", "20", "--quiet", "--log", log)
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=60)
    assert second.returncode == 2, second.stderr
    lines = second.stderr.strip().splitlines()
    assert len(lines) == 1 and f"another run is writing the decision log {log} now" in lines[0], second.stderr
    assert first.returncode == 130
    meta = read_log(log).meta  # the first run's log, whole, marked partial
    assert meta["partial"] is True and pq.ParquetFile(log).metadata.num_rows == meta["rows"]


def fill(place: Path) -> None:
    with contextlib.suppress(OSError), open(place / "filler", "wb") as f:
        while True:
            f.write(b"\0" * 4096)
            f.flush()


@contextlib.contextmanager
def full_filesystem(tmp_path: Path, before=None):
    """A directory on a tiny tmpfs, ``before(directory)`` run in it and then filled to the last byte, when this
    process may mount one; else None."""
    place = tmp_path / f"full-{uuid.uuid4().hex[:6]}"
    place.mkdir()
    mounted = os.geteuid() == 0 and subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(place)],
                                                   capture_output=True, timeout=30).returncode == 0
    if not mounted:
        yield None
        return
    try:
        if before is not None:
            before(place)
        fill(place)
        yield place
    finally:
        subprocess.run(["umount", str(place)], capture_output=True, timeout=30)


def old_log(place: Path) -> None:
    log_games(["greedy", "random"], place / "old.parquet", games=2)


def test_a_full_disk_while_logging_names_enospc_and_keeps_the_old_log(tmp_path, monkeypatch):
    with full_filesystem(tmp_path, before=old_log) as place:
        if place is None:  # no filesystem can be made here: the writer fails the way it does on a full disk
            place = tmp_path
            old_log(place)

            def full(self, *args, **kwargs):
                raise OSError(errno.ENOSPC, "No space left on device")

            monkeypatch.setattr(pq.ParquetWriter, "write_batch", full)
        log = place / "old.parquet"
        before = log.read_bytes()
        with pytest.raises(ValueError, match=r"cannot write the decision log .*old.parquet: .*\(ENOSPC\)"):
            log_games(["greedy", "random"], log, games=3000, batch_size=500)
        assert log.read_bytes() == before
        assert read_log(log).meta["deal_sets"] == 2
        assert not [p.name for p in place.iterdir() if p.name.startswith(".")]


def spawn_play(*args):
    return pexpect.spawn(sys.executable, ["-m", "golfsim", "play", *map(str, args)], dimensions=(40, 100),
                         encoding="utf-8", timeout=180, cwd=str(REPO), preexec_fn=default_sigint)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_play_saves_the_game_on_sigterm_and_sighup(tmp_path, sig):
    save = tmp_path / "g.parquet"
    child = spawn_play("--opponents", "greedy", "--seed", "5", "--save", save)
    child.expect("open> ")
    child.sendline("f1")
    child.expect("open> ")
    child.kill(sig)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, (child.exitstatus, child.signalstatus, child.before)
    log = read_log(save)
    assert log.meta["partial"] is True
    decisions = log.frame().query("kind == 'decision'")
    assert list(decisions["action"])[0] == 20  # the flip of slot 1 that was played


@pytest.mark.slow
def test_play_refuses_a_save_target_it_cannot_write_before_the_game(tmp_path):
    # /proc takes no new files even for root: the save would fail after the game today
    done = golfsim("play", "--opponents", "greedy", "--save", "/proc/golfsim-game.parquet")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--save /proc/golfsim-game.parquet" in lines[0], done.stderr
    with full_filesystem(tmp_path) as place:
        if place is not None:
            done = golfsim("play", "--opponents", "greedy", "--save", place / "g.parquet")
            assert done.returncode == 2 and "(ENOSPC)" in done.stderr, done.stderr
            assert len(done.stderr.strip().splitlines()) == 1
