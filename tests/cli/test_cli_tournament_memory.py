"""A tournament of any number of deal sets starts playing at once and holds the same memory while it plays."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from tests.support import REPO, default_sigint

# Announces every progress update (the first one says games are being played), then runs the command line.
ANNOUNCE = textwrap.dedent("""
    import sys
    import golfsim.runs.progress as progress
    real = progress.CountBar.update
    def update(self, **fields):
        real(self, **fields)
        if fields.get("completed", 0) > 0:
            print("PLAYED", fields["completed"], file=sys.stderr, flush=True)
    progress.CountBar.update = update
    from golfsim.cli.app import main
    sys.argv = ["golfsim", *sys.argv[1:]]
    main()
""")

MIB = 1 << 20


def rss(pid: int) -> int:
    """Resident memory of ``pid`` in bytes (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for {pid}")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads resident memory from /proc")
@pytest.mark.slow
def test_a_round_robin_of_10_to_the_12_deal_sets_plays_in_constant_memory(tmp_path):
    games = 10**12  # about as many as the time limit lets one thread start (runs.limits.check_time refuses 10**15)
    proc = subprocess.Popen([sys.executable, "-c", ANNOUNCE, "tournament", "--agents", "greedy,random,pair-builder",
                             "--players", "2", "--games", str(games), "--holes", "1", "--threads", "1",
                             "--batch-size", "500", "--out", str(tmp_path / "out")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "COLUMNS": "200"}, preexec_fn=default_sigint)
    lines: list[str] = []
    started = threading.Event()

    def read():
        for line in proc.stderr:
            lines.append(line)
            if line.startswith("PLAYED"):
                started.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        # generous: the first run compiles the agents; a refusal or a crash ends the process instead
        deadline = time.monotonic() + 300
        while not started.is_set() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert started.is_set(), f"never started playing (exit {proc.poll()}): {''.join(lines)[-2000:]}"
        first = rss(proc.pid)
        played_first = int(lines[-1].split()[1]) if lines[-1].startswith("PLAYED") else 0
        samples = [first]
        for _ in range(40):  # 20 s of play, hundreds of pieces
            time.sleep(0.5)
            assert proc.poll() is None, "".join(lines)[-2000:]
            samples.append(rss(proc.pid))
        played = max(int(x.split()[1]) for x in lines if x.startswith("PLAYED"))
        assert played > played_first, "no game finished while memory was watched"
        assert max(samples) < 1 << 30, [s // MIB for s in samples]
        # what it holds does not grow with the games played: a few open pieces and per-agent sums
        assert samples[-1] - first < 64 * MIB, [s // MIB for s in samples]
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=120)
        reader.join(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    out = proc.stdout.read()
    kept = re.search(r"interrupted: keeping ([\d,]+) of 1,000,000,000,000 complete deal sets", out + "".join(lines))
    assert kept is not None and int(kept.group(1).replace(",", "")) > 0, (out + "".join(lines))[-2000:]
