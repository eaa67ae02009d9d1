"""``golfsim agents`` in every format, run as a real command whose output goes to a pipe (as in a script)."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUILT_IN = {"ev", "greedy", "pair-builder", "random"}
# a few parameters with their documented defaults (README's table of tips)
KNOWN_DEFAULTS = {("greedy", "blind_swap"): -99.0, ("pair-builder", "keep_threshold"): 6.0,
                  ("ev", "watch_discard"): 0.25, ("ev", "count_out"): 1.0}


def agents_output(*args) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("GOLFSIM_AGENT_MODULES", "COLUMNS")}
    result = subprocess.run([sys.executable, "-m", "golfsim", "agents", *args], capture_output=True, text=True,
                            cwd=REPO, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_json_lists_every_agent_with_its_parameters_and_defaults():
    doc = json.loads(agents_output("--format", "json"))
    by_name = {a["agent"]: a for a in doc}
    assert BUILT_IN <= set(by_name)
    assert all(by_name[name]["kind"] == "built-in" for name in BUILT_IN)
    # shipped but named to use: the searcher, and the reference that sees hidden cards
    assert (by_name["mc"]["kind"], by_name["oracle"]["kind"]) == ("search", "reference")
    assert by_name["random"]["parameters"] == []
    for (agent, param), default in KNOWN_DEFAULTS.items():
        (entry,) = [p for p in by_name[agent]["parameters"] if p["name"] == param]
        assert entry["default"] == default and entry["doc"]


def test_csv_has_one_row_per_parameter():
    rows = list(csv.DictReader(io.StringIO(agents_output("--format", "csv"))))
    assert set(rows[0]) == {"agent", "kind", "description", "parameter", "default", "parameter_doc"}
    for (agent, param), default in KNOWN_DEFAULTS.items():
        (row,) = [r for r in rows if r["agent"] == agent and r["parameter"] == param]
        assert float(row["default"]) == default
    assert [r["parameter"] for r in rows if r["agent"] == "random"] == [""]
    assert {r["agent"] for r in rows} >= BUILT_IN


def test_piped_table_keeps_each_description_on_one_line():
    text = agents_output()
    doc = json.loads(agents_output("--format", "json"))
    lines = text.splitlines()
    for agent in doc:
        assert any(agent["description"] in line for line in lines), agent["description"]
    # one line per agent plus its wrapped parameters, not a column of words
    assert len(lines) < 60, f"{len(lines)} lines"


@pytest.mark.parametrize("fmt", ["yaml", "TABLE "])
def test_an_unknown_format_is_refused(fmt):
    result = subprocess.run([sys.executable, "-m", "golfsim", "agents", "--format", fmt], capture_output=True,
                            text=True, cwd=REPO, timeout=300)
    assert result.returncode == 2 and "Traceback" not in result.stderr
