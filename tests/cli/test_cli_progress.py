"""The tournament progress bar, seen in a real terminal: the total number of games is always shown in full.

``golfsim tournament`` runs in a subprocess whose stderr is a pseudo-terminal 80 columns wide (the width of a
default terminal window), so rich draws the live bar exactly as a person sees it.
"""

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios

import pytest

from tests.support import REPO

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run_in_terminal(args: list[str], columns: int) -> str:
    """Run ``python -m golfsim ARGS`` with stderr on a pseudo-terminal of ``columns`` columns; return what it drew."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", *args], stdout=subprocess.DEVNULL, stderr=slave,
                            stdin=subprocess.DEVNULL, cwd=REPO, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=300) == 0
    return ANSI.sub("", b"".join(chunks).decode(errors="replace"))


@pytest.mark.slow
def test_progress_bar_shows_the_whole_total_from_the_first_frame():
    # 3 players, 20,000 deal sets, 6 seat orders: 120,000 games; blocks of 5,000 so several frames are drawn
    drawn = run_in_terminal(["tournament", "--agents", "greedy,random,pair-builder", "--players", "3",
                             "--games", "20000", "--batch-size", "5000", "--format", "json"], columns=80)
    frames = [line.strip() for line in re.split(r"[\r\n]", drawn) if " games" in line and "/" in line]
    assert frames, drawn
    for frame in frames:
        assert re.search(r"\b\d+/120000 games\b", frame), frame
        assert "…" not in frame, frame
    assert "120000/120000 games" in frames[-1]
