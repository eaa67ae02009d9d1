"""Output paths that are not regular files: a FIFO, a socket, a directory or a link to one is refused in one line and
left as it was; a character device (``/dev/null``) is written through, never renamed over; finished files get the
umask's permissions. No test here touches a real device node: the FIFOs and sockets are made in ``tmp_path`` and the
character device is a regular file that ``os.stat`` reports as one (the write must go into that very inode)."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys

import pytest

from golfsim.atomic import AtomicFile, check_writable
from golfsim.logs.trace import log_games, read_log
from golfsim.runs.outdir import write_directory, write_file
from tests.support import REPO


def golfsim(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "golfsim", *map(str, args)], capture_output=True, text=True,
                          cwd=REPO, timeout=timeout, stdin=subprocess.DEVNULL)


def fifo(tmp_path, name="out.parquet"):
    path = tmp_path / name
    os.mkfifo(path)
    return path


def unix_socket(tmp_path, name="out.parquet"):
    path = tmp_path / name
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(path))
    sock.close()
    return path


def link_to_fifo(tmp_path, name="out.parquet"):
    target = fifo(tmp_path, f"real-fifo-{name}")
    path = tmp_path / name
    path.symlink_to(target)
    return path


def directory(tmp_path, name="out.parquet"):
    path = tmp_path / name
    path.mkdir()
    return path


SPECIAL = {"FIFO": fifo, "socket": unix_socket, "link to a FIFO": link_to_fifo, "directory": directory}
KIND_WORD = {"FIFO": "FIFO", "socket": "socket", "link to a FIFO": "FIFO", "directory": "directory"}


def mode_of(path):
    return stat.S_IFMT(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def _real_dev_null_stays_a_device():
    yield
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.parametrize("kind", SPECIAL)
def test_the_atomic_file_refuses_a_special_target_and_leaves_it(tmp_path, kind):
    path = SPECIAL[kind](tmp_path)
    before = mode_of(path)
    with pytest.raises(ValueError, match=f"it is a {KIND_WORD[kind]}, not a regular file"):
        AtomicFile(path, "the decision log")
    with pytest.raises(ValueError, match=f"--save {path}: .*it is a {KIND_WORD[kind]}"):
        check_writable(path, "the game", "--save")
    assert mode_of(path) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


@pytest.mark.parametrize("kind", SPECIAL)
def test_the_result_writers_refuse_a_special_target(tmp_path, kind):
    path = SPECIAL[kind](tmp_path, "table.csv")
    before = mode_of(path)
    with pytest.raises(ValueError, match=KIND_WORD[kind]):
        write_file(path, lambda tmp: tmp.write_text("a\n"))
    from golfsim.learning.model import atomic_write_text

    with pytest.raises(ValueError, match=KIND_WORD[kind]):
        atomic_write_text(path, "{}\n")
    assert mode_of(path) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_a_result_folder_does_not_rename_over_a_fifo_inside_it(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "table.csv")

    def fill(staging):
        (staging / "table.csv").write_text("a\n")
        return [staging / "table.csv"]

    with pytest.raises(ValueError, match="FIFO"):
        write_directory(out, fill)
    assert stat.S_ISFIFO(os.stat(out / "table.csv").st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


@pytest.fixture
def fake_char_device(tmp_path, monkeypatch):
    """A regular file that ``os.stat`` calls a character device: written through, it keeps its inode."""
    path = tmp_path / "null"
    path.write_bytes(b"")
    real_stat = os.stat

    def reporting_a_device(target, *args, **kwargs):
        found = real_stat(target, *args, **kwargs)
        if os.fspath(target) == str(path):
            return os.stat_result((stat.S_IFCHR | 0o666, *tuple(found)[1:]))
        return found

    monkeypatch.setattr(os, "stat", reporting_a_device)
    return path


def test_a_character_device_is_written_through_not_replaced(tmp_path, fake_char_device, monkeypatch):
    inode = os.lstat(fake_char_device).st_ino
    check_writable(fake_char_device, "the game", "--save")
    log_games(["greedy", "random"], fake_char_device, games=2)
    assert os.lstat(fake_char_device).st_ino == inode  # the same file was written, nothing renamed over it
    assert [p.name for p in tmp_path.iterdir()] == ["null"]  # no temporary or lock file beside a device
    write_file(tmp_path / "null", lambda target: target.write_text("a,b\n"))
    assert os.lstat(fake_char_device).st_ino == inode and fake_char_device.read_text() == "a,b\n"
    monkeypatch.undo()
    assert stat.S_ISREG(os.stat(fake_char_device).st_mode)


def test_a_log_written_through_a_device_is_whole(tmp_path, fake_char_device, monkeypatch):
    log_games(["greedy", "random"], fake_char_device, games=2)
    monkeypatch.undo()
    assert read_log(fake_char_device).meta["deal_sets"] == 2


def test_a_decision_log_gets_the_umask_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        log_games(["greedy", "random"], tmp_path / "log.parquet", games=2)
        write_file(tmp_path / "t.csv", lambda tmp: tmp.write_text("a\n"))
        made = write_directory(tmp_path / "folder", lambda d: [(d / "x.txt", (d / "x.txt").write_text("x"))[0]])
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "log.parquet").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(tmp_path / "t.csv").st_mode) == 0o644
    assert stat.S_IMODE(os.stat(made[0].parent).st_mode) == 0o755


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["FIFO", "link to a FIFO", "directory"])
def test_the_cli_refuses_a_special_log_or_save_target_in_one_line(tmp_path, kind):
    log = SPECIAL[kind](tmp_path, "log.parquet")
    save = SPECIAL[kind](tmp_path, "game.parquet")
    for args, target in ((("tournament", "--agents", "greedy,random", "--games", "20", "--quiet", "--threads", "1",
                           "--log", log), log),
                         (("play", "--opponents", "greedy", "--seed", "1", "--save", save), save)):
        done = golfsim(*args)
        assert done.returncode == 2, (args, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and KIND_WORD[kind] in lines[0] and str(target) in lines[0], done.stderr
    assert mode_of(log) == mode_of(save) == (stat.S_IFDIR if kind == "directory" else stat.S_IFIFO)
