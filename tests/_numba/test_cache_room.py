"""A Numba cache that cannot be written makes a command compile without it, with one warning line, not fail.

Real filesystems: a tiny tmpfs that fills while the first compile saves its functions, and a private mount namespace
in which every temporary directory and the cache directory are full. Both need root (``mount``, ``unshare``); without
it the tests skip, and the probe's half is checked in-process by ``test_cli_reliability``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import REPO

pytestmark = pytest.mark.slow  # each run compiles the kernel cold: a minute or more

COMMAND = ["-m", "golfsim", "tournament", "--agents", "greedy,random", "--games", "20", "--holes", "1", "--quiet",
           "--format", "json"]


def can_mount(tmp_path: Path) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    place = tmp_path / "probe"
    place.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(place)], capture_output=True,
                          timeout=30)
    if done.returncode == 0:
        subprocess.run(["umount", str(place)], capture_output=True, timeout=30)
    return done.returncode == 0


def assert_played_with_one_warning(done, words: str) -> None:
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and words in warnings[0] and "(ENOSPC)" in warnings[0], done.stderr[-3000:]
    assert "compiling without a cache" in warnings[0]
    assert json.loads(done.stdout)["summary"]["deal_sets_completed"] == 20


def test_a_cache_directory_that_fills_during_the_first_compile_is_one_warning(tmp_path):
    if not can_mount(tmp_path):
        pytest.skip("needs root to mount a tmpfs")
    place = tmp_path / "small"
    place.mkdir()
    # room for the up-front probe (64 KiB) but not for every compiled function
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", str(place)], check=True, timeout=30)
    try:
        done = subprocess.run([sys.executable, *COMMAND], capture_output=True, text=True, cwd=REPO, timeout=900,
                              env={**os.environ, "NUMBA_CACHE_DIR": str(place)})
        assert_played_with_one_warning(done, "cannot save compiled code in Numba's cache")
    finally:
        subprocess.run(["umount", str(place)], capture_output=True, timeout=30)


FILL_EVERY_TEMPORARY_DIRECTORY = """
set -e
for d in /tmp /var/tmp; do
    mount -t tmpfs -o size=256k tmpfs "$d"
    dd if=/dev/zero of="$d/filler" bs=4k 2>/dev/null || true
done
mkdir -p /tmp/cache 2>/dev/null || true
cd /tmp
exec "$@"
"""


def test_no_writable_place_for_the_cache_at_all_is_one_warning_not_a_failed_import(tmp_path):
    if not can_mount(tmp_path) or shutil.which("unshare") is None:
        pytest.skip("needs root, mount and unshare for a private mount namespace")
    inside = [str(p) for p in (REPO, Path(sys.executable)) if str(p.resolve()).startswith(("/tmp/", "/var/tmp/"))]
    if inside:  # the full tmpfs mounted over /tmp would hide them from the child
        pytest.skip(f"the checkout or interpreter lives under the directories this test fills: {inside[0]}")
    script = tmp_path / "full.sh"
    script.write_text(FILL_EVERY_TEMPORARY_DIRECTORY)
    # the mounts over /tmp and /var/tmp live only in the child's own mount namespace
    env = {**os.environ, "NUMBA_CACHE_DIR": "/tmp/cache", "PYTHONPATH": str(REPO)}
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", str(script), sys.executable, *COMMAND],
                          capture_output=True, text=True, env=env, timeout=900)
    if "unshare failed" in done.stderr or "Operation not permitted" in done.stderr:
        pytest.skip(f"no private mount namespace here: {done.stderr.strip()[:200]}")
    assert_played_with_one_warning(done, "no room for Numba's cache in /tmp/cache")
