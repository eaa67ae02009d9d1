"""A damaged Numba cache entry (a truncated ``.nbc``, a garbage ``.nbi``) is dropped and compiled again with one
warning line, in a real new process each time; Ctrl-C during ``cache-warm`` is one line and exit 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from tests.support import REPO

PROGRAM = """
import numpy as np
from golfsim.core.engine import shuffled_deck
from golfsim.core.rules import Rules
print(shuffled_deck(Rules().pack(), np.array([12345], dtype=np.uint64)).tolist())
"""


def run(cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=300)


def files(cache, pattern):
    return sorted(p for p in cache.rglob(pattern) if "shuffled_deck" in p.name)


def truncate_data(cache):
    for path in files(cache, "*.nbc"):
        path.write_bytes(path.read_bytes()[:100])


def garbage_index(cache):
    for path in files(cache, "*.nbi"):
        path.write_bytes(os.urandom(200))


def empty_data(cache):
    for path in files(cache, "*.nbc"):
        path.write_bytes(b"")


def index_of_garbage_after_the_version(cache):
    for path in files(cache, "*.nbi"):
        data = path.read_bytes()
        path.write_bytes(data[:20] + os.urandom(100))


@pytest.mark.parametrize("damage", [truncate_data, garbage_index, empty_data, index_of_garbage_after_the_version])
def test_a_damaged_entry_is_compiled_again_with_one_line(tmp_path, damage):
    cache = tmp_path / "cache"
    first = run(cache)
    assert first.returncode == 0 and first.stderr == "", first.stderr
    assert files(cache, "*.nbc") and files(cache, "*.nbi")
    damage(cache)
    again = run(cache)
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout  # the same deck: compiled again, not read from the damaged file
    lines = again.stderr.strip().splitlines()
    assert len(lines) == 1 and "damaged" in lines[0] and "shuffled_deck" in lines[0], again.stderr
    third = run(cache)  # the entry was saved afresh: read without a word
    assert third.returncode == 0 and third.stderr == "" and third.stdout == first.stdout, third.stderr


@pytest.mark.slow
def test_ctrl_c_during_cache_warm_is_one_line_and_exit_130(tmp_path):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), COLUMNS="200")
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "cache-warm"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        first = proc.stderr.readline()  # "compiling into ..." : the first step is under way
        assert "compiling into" in first, first
        proc.send_signal(signal.SIGINT)
        _, rest = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    assert proc.returncode == 130, rest
    assert "Traceback" not in rest
    lines = [line for line in rest.strip().splitlines() if not line.startswith("compiling into")]
    assert len(lines) == 1 and "interrupted" in lines[0], rest
