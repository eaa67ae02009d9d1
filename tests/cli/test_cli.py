"""The command line: scorer, agent list, benchmark and cache, through typer's CliRunner."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from golfsim.cli.app import app
from tests.support import run_golfsim
from tests.worked_examples import WORKED_EXAMPLES

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

FLAG = {"twos_pair": "--twos-pair", "four_of_a_kind_bonus": "--four-of-a-kind-bonus", "jokers": "--jokers"}


def flags(options: dict) -> list[str]:
    return [part for key, value in options.items() for part in (FLAG[key], str(value))]


# RULES.md's worked examples with the column-by-column reasons its "why" column gives: (column points, bonus)
WORKED_COLUMNS = {
    "8 K 2 / 8 Q 3": ([0, 10, 1], 0),  # 8/8 pair 0, K/Q 10, 2/3 1
    "2 2 2 / K K K": ([-2, -2, -2], 0),  # three unmatched twos over kings
    "2 5 7 / 2 5 7": ([0, 0, 0], 0),  # three pairs, the twos pair is 0
    "5 K 2 / 5 9 2": ([0, 9, 0], 0),  # fives pair 0, K+9 = 9, twos pair 0
    "Q J A / 3 7 Q": ([13, 17, 11], 0),  # no pairs
    "J 4 4 / Q 6 9": ([20, 10, 13], 0),  # J/Q do not cancel; the fours in a row do not cancel
    "2 K 9 / K 2 9": ([-2, -2, 0], 0),  # 2+K, K+2, 9/9 pair 0
    "2 2 6 / 2 3 6": ([-4, 1, 0], 0),  # twos_pair=keep_negative: twos pair -4, 2+3 = 1, sixes 0
    "7 7 A / 7 7 A": ([0, 0, 0], -10),  # two columns of sevens: the bonus once
    "X 2 5 / X 3 5": ([0, 5, 0], 0),  # jokers=minus2: jokers pair 0, twos are +2
    "X 2 5 / 4 3 9": ([2, 5, 14], 0),  # jokers=minus2: joker -2 + 4, 2+3, 5+9
}


@pytest.mark.parametrize(("layout", "options", "expected"), WORKED_EXAMPLES)
def test_score_reproduces_worked_examples_column_by_column_as_json(layout, options, expected):
    result = runner.invoke(app, ["score", layout, *flags(options), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    columns, bonus = WORKED_COLUMNS[layout]
    assert doc["score"] == expected == sum(columns) + bonus
    assert [c["points"] for c in doc["columns"]] == columns
    assert doc["bonus"] == bonus
    top, bottom = layout.split(" / ")
    assert [(c["column"], c["top"], c["bottom"]) for c in doc["columns"]] == list(
        zip(range(1, 4), top.split(), bottom.split(), strict=True))
    assert doc["numbering"] == "columns count from 1, left to right"


def table_rows(text: str) -> list[list[str]]:
    """The cells of each body line of a rich table (lines drawn with the light vertical bar)."""
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in text.splitlines()
            if line.startswith("│")]


def run_cli(*args: str, **env: str) -> subprocess.CompletedProcess:
    """``golfsim ARGS`` as a person runs it, in a wide terminal so that table rows stay on one line."""
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, check=False,
                          env={**os.environ, "COLUMNS": "250", **env})


def test_score_table_shows_each_column_and_the_total():
    done = run_cli("score", "7 7 A / 7 7 A", "--four-of-a-kind-bonus", "-10")
    assert done.returncode == 0, done.stderr
    assert table_rows(done.stdout) == [
        ["1", "7", "7", "0", "pair of 7 scores 0"],
        ["2", "7", "7", "0", "pair of 7 scores 0"],
        ["3", "A", "A", "0", "pair of A scores 0"],
        ["", "", "", "-10", "four-of-a-kind bonus"],
        ["", "", "", "-10", "score"],
    ]


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


FAKE_C_LOOP = """#!{python}
import sys
with open({log!r}, "a") as f:
    f.write(" ".join(sys.argv[1:]) + "\\n")
print("rep 0: 0.001 s  2000 deals/s")
print("median deals/s: 2000  (min 2000, max 2000)")
"""


def test_bench_vs_c_runs_the_c_loop_before_each_timed_run_and_reports_the_ratio(tmp_path):
    # a stand-in for golf_limit that logs how it was called and always reports 2000 deals/s
    log = tmp_path / "calls.txt"
    fake = tmp_path / "golf_limit"
    fake.write_text(FAKE_C_LOOP.format(python=sys.executable, log=str(log)))
    fake.chmod(0o755)
    result = runner.invoke(app, ["bench", "--agents", "greedy,greedy", "--deals", "3000", "--threads", "1",
                                 "--repeats", "3", "--vs-c", str(fake), "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert log.read_text().splitlines() == ["greedy 3000 1 full 1"] * 3
    assert doc["c_deals_per_second"] == pytest.approx(2000)
    assert doc["c_ratio"] == pytest.approx(doc["deals_per_second"] / 2000)
    assert doc["load_average"] >= 0 and doc["compile_cpu_seconds"] >= 0


@pytest.mark.parametrize("args, message", [
    (["--agents", "greedy,random"], "the C loop plays greedy,greedy or random,random"),
    (["--agents", "greedy:take_gain=1,greedy"], "the C loop plays greedy,greedy or random,random"),
    (["--agents", "random,random", "--jokers", "minus2"], "default rules and --threads 1"),
])
def test_bench_vs_c_refuses_a_workload_the_c_loop_does_not_play(tmp_path, args, message):
    fake = tmp_path / "golf_limit"
    fake.write_text(FAKE_C_LOOP.format(python=sys.executable, log=str(tmp_path / "calls.txt")))
    fake.chmod(0o755)
    result = runner.invoke(app, ["bench", "--deals", "100", "--threads", "1", *args, "--vs-c", str(fake)])
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "calls.txt").exists()


def test_bench_vs_c_names_a_missing_binary(tmp_path):
    result = runner.invoke(app, ["bench", "--agents", "greedy,greedy", "--deals", "100", "--threads", "1",
                                 "--vs-c", str(tmp_path / "golf_limit")])
    assert result.exit_code == 2 and "is not an executable file" in result.stderr


def listed_agents(text: str) -> dict[str, tuple[str, dict[str, float]]]:
    """``golfsim agents``' blocks as {agent: (kind, {parameter: default})}: a block starts with ``name (kind)`` at
    the margin, and each parameter line is ``name=default  (range)`` indented by two."""
    listed: dict[str, tuple[str, dict[str, float]]] = {}
    for line in text.splitlines():
        head = re.fullmatch(r"([a-z][\w-]*) \(([\w-]+)\)", line)
        if head:
            name = head.group(1)
            listed[name] = (head.group(2), {})
            continue
        param = re.fullmatch(r"  (\w+)=(-?[\d.]+)  \(.*\)", line)
        if param:
            listed[name][1][param.group(1)] = float(param.group(2))
    return listed


@pytest.mark.slow
def test_agents_lists_the_built_ins_with_the_parameters_the_readme_documents():
    done = run_cli("agents")
    assert done.returncode == 0, done.stderr
    listed = listed_agents(done.stdout)
    assert sorted(listed) == ["ev", "greedy", "learned", "mc", "oracle", "pair-builder", "random"]
    # trained by golfsim learn, not in the pools; model 1 the linear value, model=2 the n-tuple one
    assert listed["learned"] == ("learned", {"depth": 1.0, "exact": 0.0, "model": 1.0})
    # the searchers ship with golfsim but stay out of the default pools (they play about 100 deals per second)
    assert {name for name, (kind, _) in listed.items() if kind == "built-in"} == {"ev", "greedy", "pair-builder",
                                                                                "random"}
    assert {"samples", "objective"} <= set(listed["mc"][1]) and {"samples"} <= set(listed["oracle"][1])
    # README, "Bots": each strategy tip is a parameter of a built-in agent
    assert {"count_out", "watch_discard"} <= set(listed["ev"][1])
    assert {"blind_swap", "take_gain"} <= set(listed["greedy"][1])
    assert {"pairs_first", "keep_threshold", "lone_two"} <= set(listed["pair-builder"][1])
    assert listed["pair-builder"][1]["keep_threshold"] == 6  # "6 by default"
    assert listed["random"][1] == {}


@pytest.mark.slow
def test_agents_lists_a_user_agent_loaded_from_a_file():
    done = run_cli("agents", GOLFSIM_AGENT_MODULES=str(EXAMPLES / "lowball_agent.py"))
    assert done.returncode == 0, done.stderr
    listed = listed_agents(done.stdout)
    assert listed["lowball"] == ("compiled", {"margin": 0.0})
    assert listed["greedy"][0] == "built-in"


def test_python_dash_m_golfsim_runs_the_cli():
    done = subprocess.run([sys.executable, "-m", "golfsim", "score", "2 K 9 / K 2 9", "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == -4


RULE_OPTIONS = ["--decks", "--jokers", "--opening-flips", "--reveal-instead-of-draw", "--discard-and-flip", "--end",
                "--twos-pair", "--four-of-a-kind-bonus", "--holes", "--turn-cap"]


@pytest.mark.parametrize("command", ["bench", "tournament", "tune", "play", "hint"])
def test_every_command_that_plays_takes_every_rule_option(command):
    done = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    listed = set(re.findall(r"--[a-z-]+", done.output))
    assert set(RULE_OPTIONS) <= listed, sorted(set(RULE_OPTIONS) - listed)


def test_the_rule_options_reach_the_rules_a_command_plays():
    done = runner.invoke(app, ["bench", "--agents", "random,random", "--deals", "200", "--repeats", "1",
                               "--jokers", "minus2", "--turn-cap", "7", "--end", "one-last-turn", "--format", "json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["rules"] == "2 players, jokers=minus2, end=one_last_turn, holes=1, turn_cap=7"


def test_score_accepts_a_bar_between_the_rows_like_hint():
    done = run_golfsim("score", "8 K 2 | 8 Q 3", "--format", "json", timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 11  # the rules doc's worked example, written with a slash there
