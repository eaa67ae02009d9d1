"""The command line: scorer, agent list, benchmark and cache, through typer's CliRunner."""

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner
from worked_examples import WORKED_EXAMPLES

from golfsim.cli import app

runner = CliRunner()

FLAG = {"twos_pair": "--twos-pair", "four_of_a_kind_bonus": "--four-of-a-kind-bonus", "jokers": "--jokers"}


def flags(options: dict) -> list[str]:
    return [part for key, value in options.items() for part in (FLAG[key], str(value))]


@pytest.mark.parametrize(("layout", "options", "expected"), WORKED_EXAMPLES)
def test_score_reproduces_worked_examples_as_json(layout, options, expected):
    result = runner.invoke(app, ["score", layout, *flags(options), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["score"] == expected
    assert [c["column"] for c in doc["columns"]] == [0, 1, 2]


def test_score_table_shows_columns_and_total():
    result = runner.invoke(app, ["score", "8 K 2 / 8 Q 3"])
    assert result.exit_code == 0
    assert "pair of 8 scores 0" in result.stdout and "11" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "8 K 2 / 8 Q"], "the bottom row must have 3 cards"),
        (["score", "8 K 2 / 8 Q Z"], "'Z' is not a card"),
        (["score", "X K 2 / 8 Q 3"], "has a joker"),
        (["score", "8 K 2 / 8 Q 3", "--jokers", "wild"], "jokers='wild' is not allowed"),
        (["score", "2 2 6 / 2 3 6", "--twos-pair", "keep-negative", "--jokers", "minus2"], "twos are worth"),
        (["bench", "--agents", "random,nobody", "--deals", "10"], "unknown agent 'nobody'"),
        (["bench", "--deals", "-3"], "deals must be a whole number of at least 1"),
        (["bench", "--deals", "10", "--games", "10"], "not both"),
        (["bench", "--deals", "10", "--threads", "0"], "threads must be"),
        (["bench", "--agents", "random,random,random,random,random,random,random,random,random", "--decks", "1",
          "--deals", "10"], "9 players need at least 55 cards"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_status_2(args, message):
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_bench_json_has_the_promised_fields():
    result = runner.invoke(app, ["bench", "--agents", "random,random", "--deals", "2000", "--threads", "1",
                                 "--repeats", "2", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    for key in ("deals_per_second", "deals", "threads", "players", "agents", "compile_seconds", "peak_rss_mb",
                "threading_layer"):
        assert key in doc
    assert doc["deals"] == 2000 and doc["threads"] == 1 and doc["players"] == 2
    assert doc["agents"] == ["random", "random"] and doc["deals_per_second"] > 0


def test_bench_games_reports_games_per_second():
    result = runner.invoke(app, ["bench", "--games", "200", "--repeats", "1", "--format", "json"])
    doc = json.loads(result.stdout)
    assert doc["games"] == 200 and doc["deals"] == 1800 and doc["games_per_second"] > 0


def test_agents_lists_the_registry():
    result = runner.invoke(app, ["agents"])
    assert result.exit_code == 0 and "random" in result.stdout


def test_python_dash_m_golfsim_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "golfsim", "score", "2 K 9 / K 2 9", "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == -4
