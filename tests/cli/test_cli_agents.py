"""``golfsim agents`` as a person reads it: in an 80-column terminal (a pseudo-terminal), piped, and for one agent."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys

import pexpect
import pytest

from tests.cli.test_cli import listed_agents


def golfsim(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "80"})


def in_terminal(*args: str, columns: int = 80) -> str:
    """The screen text of ``golfsim ARGS`` in a pseudo-terminal ``columns`` wide."""
    child = pexpect.spawn(sys.executable, ["-m", "golfsim", *args], dimensions=(50, columns), encoding="utf-8",
                          timeout=300, env={**os.environ, "COLUMNS": str(columns), "TERM": "xterm"})
    text = child.read()
    child.close()
    assert child.exitstatus == 0, text
    return text.replace("\r\n", "\n")


@pytest.mark.parametrize("columns", [80, 100])
@pytest.mark.slow
def test_every_agent_and_parameter_is_readable_in_a_terminal(columns):
    text = in_terminal("agents", columns=columns)
    assert max(len(line) for line in text.splitlines()) <= columns
    assert "…" not in text  # nothing cut short, e.g. 'gre…'
    listed = listed_agents(text)
    assert {"ev", "greedy", "pair-builder", "random", "mc", "oracle"} <= set(listed)
    assert listed["pair-builder"][1]["keep_threshold"] == 6
    assert "(0 or 1)" in text and "whole numbers 0 to 16" in text  # ranges shown (pair-builder's keep_threshold)


@pytest.mark.slow
def test_piped_output_has_no_long_lines():
    done = golfsim("agents")
    assert done.returncode == 0, done.stderr
    assert max(len(line) for line in done.stdout.splitlines()) <= 80
    assert set(listed_agents(done.stdout)) >= {"ev", "greedy", "pair-builder", "random"}


@pytest.mark.slow
def test_one_agent_by_name():
    done = golfsim("agents", "greedy")
    assert done.returncode == 0, done.stderr
    listed = listed_agents(done.stdout)
    assert list(listed) == ["greedy"]
    assert set(listed["greedy"][1]) == {"take_gain", "fixed_hidden", "hidden_value", "blind_swap"}
    doc = json.loads(golfsim("agents", "greedy", "--format", "json").stdout)
    assert [row["agent"] for row in doc] == ["greedy"]


def test_an_unknown_agent_is_one_line_and_status_2():
    done = golfsim("agents", "nobody")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: unknown agent 'nobody'; the agents are ev, greedy, learned, mc, oracle, pair-builder, random"]


@pytest.mark.slow
def test_json_and_csv_keep_their_form():
    doc = json.loads(golfsim("agents", "--format", "json").stdout)
    ev = next(row for row in doc if row["agent"] == "ev")
    assert set(ev) == {"agent", "kind", "description", "parameters"}
    assert set(ev["parameters"][0]) == {"name", "default", "doc"}
    rows = list(csv.DictReader(io.StringIO(golfsim("agents", "--format", "csv").stdout)))
    assert list(rows[0]) == ["agent", "kind", "description", "parameter", "default", "parameter_doc"]
    assert {"agent": "random", "parameter": ""}.items() <= next(r for r in rows if r["agent"] == "random").items()
