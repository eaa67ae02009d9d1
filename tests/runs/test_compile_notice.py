"""What a person sees while Numba compiles: a live line in the terminal, and ``golfsim cache-warm``."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pexpect
import pytest
from numba import njit
from numba.core import event

from golfsim.runs import compile_notice

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_a_compile_is_seen_and_counted():
    compile_notice.watch()
    @njit
    def slow_to_compile(x):
        return np.sum(x * 2.0)

    before = compile_notice.compiles()
    assert compile_notice.current() is None and compile_notice.describe() == ""
    assert slow_to_compile(np.ones(3)) == 6.0
    assert compile_notice.compiles() == before + 1
    assert compile_notice.current() is None  # over


def test_the_compile_text_names_the_function_and_its_seconds():
    text = compile_notice.describe(("play_games (kernels.simulate)", 12.4))
    assert text == "compiling play_games (kernels.simulate): 12 s (once; cached for later runs)"
    assert compile_notice.short(("play_games (kernels.simulate)", 3.0)) == "compiling play_games 3 s"


class _Terminal(io.StringIO):
    """A stream that says it is a terminal, so :class:`CompileLine` draws on it."""

    def isatty(self):
        return True


def test_a_compile_shorter_than_a_redraw_is_shown_from_its_start():
    # a compile that starts and ends between two half-second redraws (a small plugin agent when the rest is
    # cached) was never drawn; Numba's own start and end events, back to back, are such a compile
    @njit
    def brief(x):
        return x + 1

    terminal = _Terminal()
    with compile_notice.CompileLine(stream=terminal):
        event.start_event("numba:compile", data={"dispatcher": brief})
        event.end_event("numba:compile", data={"dispatcher": brief})
        shown = terminal.getvalue()
    assert re.search(r"compiling brief \([\w.]+\): 0 s \(once; cached for later runs\)", shown)
    assert terminal.getvalue().endswith("\r\x1b[2K")  # and cleared when it ended, before the command's own output
    assert compile_notice.current() is None


@pytest.mark.slow
def test_a_cold_agent_shows_a_compiling_line_in_the_terminal(tmp_path):
    agent = tmp_path / "lowball_agent.py"
    shutil.copy(EXAMPLES / "lowball_agent.py", agent)  # a new file: its agent compiles, nothing cached
    env = {**os.environ, "COLUMNS": "80", "TERM": "xterm", "GOLFSIM_AGENT_MODULES": str(agent)}
    child = pexpect.spawn(sys.executable, ["-m", "golfsim", "tournament", "--agents", "lowball,random", "--games", "2",
                                           "--holes", "1"], dimensions=(30, 80), encoding="utf-8", timeout=600,
                          env=env)
    child.expect(r"compiling lowball_act \([\w.]+\): \d+ s \(once; cached for later runs\)")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.slow
def test_piped_output_gets_no_compile_lines(tmp_path):
    agent = tmp_path / "lowball_agent.py"
    shutil.copy(EXAMPLES / "lowball_agent.py", agent)
    done = subprocess.run([sys.executable, "-m", "golfsim", "agents", "lowball"], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "GOLFSIM_AGENT_MODULES": str(agent)})
    assert done.returncode == 0, done.stderr
    assert "compiling" not in done.stderr


@pytest.mark.slow
def test_cache_warm_compiles_once_and_then_loads(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-m", "golfsim", "cache-warm"], capture_output=True, text=True,
                           timeout=1200, env=env) for _ in range(2)]
    for done in runs:
        assert done.returncode == 0, done.stderr
    first, second = (re.search(r"cache warm: (\d+) functions compiled", d.stderr) for d in runs)
    assert int(first.group(1)) > 0
    assert int(second.group(1)) == 0
    assert runs[1].stderr.count("loaded from the cache") == 5
