"""The adapter benchmark runs as a command and reports both figures (its numbers are not checked: speed is measured
by benchmarks, never by timed tests)."""

import subprocess
import sys

import pytest


@pytest.mark.slow
def test_the_benchmark_command_reports_gymnasium_and_pettingzoo_steps_per_second():
    run = subprocess.run([sys.executable, "-m", "benchmarks.bench_interop", "--steps", "300"], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "gymnasium golfsim/Golf-v0 vs ev:" in run.stdout and "steps/s (one thread)" in run.stdout
    assert "pettingzoo AEC, 2 players:" in run.stdout


def test_a_bad_step_count_is_one_clear_line():
    run = subprocess.run([sys.executable, "-m", "benchmarks.bench_interop", "--steps", "0"], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 2
    assert "--steps must be at least 1" in run.stderr
