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
