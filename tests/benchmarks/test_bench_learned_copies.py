"""The benchmark of learned's two copies runs as a command and reports both (its numbers are not checked: speed is
measured by benchmarks, never by timed tests)."""

import json
import subprocess
import sys

import pytest


@pytest.mark.slow
def test_the_benchmark_command_reports_both_copies_and_their_ratio():
    run = subprocess.run([sys.executable, "-m", "benchmarks.bench_learned_copies", "--deals", "300", "--repeats", "2"],
                         capture_output=True, text=True, timeout=850)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert len(report["plain_deals_per_cpu_second"]) == len(report["general_deals_per_cpu_second"]) == 2
    assert report["ratio_median"] > 0


def test_a_bad_count_is_one_clear_line():
    run = subprocess.run([sys.executable, "-m", "benchmarks.bench_learned_copies", "--deals", "0"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert "--deals and --repeats must be at least 1" in run.stderr
