"""``golfsim tournament`` through typer's CliRunner: table, json and csv output, --out, bad input, Ctrl-C."""

from __future__ import annotations

import io
import json
import re
import shlex
import subprocess
import sys

import pandas as pd
import pytest
from typer.testing import CliRunner

import golfsim.runs.tasks as tasks
from golfsim.cli.app import app

runner = CliRunner()

SMALL = ["tournament", "--agents", "greedy,random,pair-builder", "--games", "40", "--holes", "2", "--seed", "3",
         "--quiet"]


def test_no_arguments_runs_the_demo_of_the_built_in_agents():
    result = runner.invoke(app, ["tournament", "--quiet"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for agent in ("ev", "greedy", "pair-builder", "random"):
        assert agent in out
    assert "Duplicate deals" in out and "identical cards" in out
    assert "60,000 games" in out  # 6 tables x 2 rotations x 5,000 deal sets
    assert "2 players, default rules" in out
    assert "Bradley-Terry" in out


def test_table_output_names_duplicate_deals_games_and_rules():
    result = runner.invoke(app, [*SMALL, "--jokers", "minus2", "--end", "one-last-turn"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "head to head on identical deals" in out
    assert "Duplicate deals: each of 40 deal sets (seed 3)" in out
    assert "3 table(s) x 2 seat orders x 40 deal sets = 240 games" in out
    assert "jokers=minus2" in out and "end=one_last_turn" in out
    assert "Traceback" not in result.output


def test_json_output_is_one_clean_document():
    result = runner.invoke(app, [*SMALL, "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)  # nothing else on stdout
    assert {"config", "summary", "standings", "head_to_head", "ratings"} <= set(doc)
    assert [r["agent"] for r in doc["standings"]][0] != "random"
    for rec in doc["standings"]:
        assert {"agent", "mean_score", "mean_score_ci", "win_rate", "win_rate_ci"} <= set(rec)
        low, high = rec["mean_score_ci"]
        assert low <= rec["mean_score"] <= high
    assert doc["summary"]["games_played"] == 240 and doc["summary"]["duplicate_deals"] is True
    assert doc["config"]["seed"] == 3 and doc["config"]["rules"]["holes"] == 2


def test_csv_output_is_the_standings():
    result = runner.invoke(app, [*SMALL, "--format", "csv"])
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(io.StringIO(result.stdout))
    assert sorted(frame["agent"]) == ["greedy", "pair-builder", "random"]
    assert {"mean_score", "mean_score_low", "mean_score_high", "win_rate", "rating"} <= set(frame.columns)
    assert (frame["games"] == 160).all()


def test_out_writes_every_promised_file(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(app, [*SMALL, "--format", "json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)
    names = {"standings.csv", "head_to_head.csv", "ratings.csv", "tournament.json", "config.json",
             "score_distribution.png", "head_to_head.png"}
    assert {p.name for p in out.iterdir()} == names
    assert all((out / n).stat().st_size > 0 for n in names)
    cfg = json.loads((out / "config.json").read_text())
    for key in ("rules", "agents", "seed", "games", "games_played", "schedule", "seating", "golfsim_version",
                "command", "tables"):
        assert key in cfg
    doc = json.loads((out / "tournament.json").read_text())
    assert doc["config"] == cfg and doc["standings"][0]["mean_score_ci"]
    assert "wrote 7 files" in result.stderr


def test_every_rule_option_is_a_flag_and_the_recorded_command_reruns_it(tmp_path):
    flags = ["--decks", "2", "--jokers", "minus5", "--opening-flips", "same-column", "--reveal-instead-of-draw",
             "--discard-and-flip", "may", "--end", "one-last-turn", "--twos-pair", "keep-negative",
             "--four-of-a-kind-bonus", "-10", "--turn-cap", "500"]
    result = runner.invoke(app, [*SMALL, *flags, "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["config"]["rules"] == {
        "players": 2, "decks": 2, "jokers": "minus5", "opening_flips": "same_column", "reveal_instead_of_draw": True,
        "discard_and_flip": "may", "end": "one_last_turn", "twos_pair": "keep_negative",
        "four_of_a_kind_bonus": -10, "holes": 2, "turn_cap": 500,
    }
    again = runner.invoke(app, [*shlex.split(doc["config"]["command"])[1:], "--format", "json", "--quiet"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["standings"] == doc["standings"]


def test_gauntlet_from_the_command_line():
    result = runner.invoke(app, ["tournament", "--agents", "greedy,random,pair-builder", "--players", "3",
                                 "--schedule", "gauntlet", "--anchor", "random", "--games", "20", "--holes", "1",
                                 "--format", "json", "--quiet"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["config"]["schedule"] == "gauntlet" and doc["config"]["anchor"] == "random"
    assert doc["summary"]["games_played"] == 2 * 3 * 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "greedy,nobody"], "unknown agent 'nobody'"),
        (["--players", "1"], "players must be from 2 to 12"),
        (["--players", "13"], "players must be from 2 to 12"),
        (["--agents", "greedy,random", "--players", "9", "--decks", "1"], "9 players need at least 55 cards"),
        (["--games", "0"], "games must be a whole number of at least 1"),
        (["--games", "-3"], "games must be a whole number of at least 1"),
        (["--schedule", "gauntlet"], "the gauntlet schedule needs an anchor"),
        (["--schedule", "gauntlet", "--anchor", "ev"], "anchor 'ev' is not among the agents"),
        (["--agents", "greedy,random", "--players", "3", "--schedule", "table"], "2 agents were given for 3 seats"),
        (["--agents", "greedy,random", "--players", "3"], "2 agents cannot fill a table of 3 seats"),
        (["--schedule", "swiss"], "schedule 'swiss' is not known"),
        (["--seating", "shuffle"], "seating 'shuffle' is not known"),
        (["--seed", "-1"], "seed must be"),
        (["--jokers", "wild"], "jokers='wild' is not allowed"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_status_2(args, message):
    base = ["tournament", "--agents", "greedy,random,pair-builder", "--games", "5", "--holes", "1"]
    result = runner.invoke(app, [*base, *args])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_ctrl_c_prints_and_writes_the_completed_part(monkeypatch, tmp_path):
    real = tasks.run_task
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:  # tasks of 10 deal sets x 2 rotations: the second block's second rotation
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tasks, "run_task", interrupted)  # tasks run on one thread, in order
    out = tmp_path / "partial"
    result = runner.invoke(app, ["tournament", "--agents", "greedy,random", "--games", "100", "--batch-size", "10",
                                 "--threads", "1", "--holes", "1", "--out", str(out)])
    assert result.exit_code == 130, result.output
    assert "PARTIAL RESULT: interrupted after 10 of 100 deal sets (20 games)" in result.stdout
    assert "interrupted" in result.stderr
    cfg = json.loads((out / "config.json").read_text())
    assert cfg["partial"] is True and cfg["deal_sets_completed"] == 10 and cfg["games_played"] == 20
    assert (out / "score_distribution.png").stat().st_size > 0


def test_ctrl_c_in_json_mode_prints_a_partial_document(monkeypatch):
    real = tasks.run_task
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(tasks, "run_task", interrupted)  # tasks run on one thread, in order
    result = runner.invoke(app, ["tournament", "--agents", "greedy,random", "--games", "100", "--batch-size", "10",
                                 "--threads", "1", "--holes", "1", "--format", "json"])
    assert result.exit_code == 130
    doc = json.loads(result.stdout)
    assert doc["summary"]["partial"] is True and doc["summary"]["deal_sets_completed"] == 10


@pytest.mark.slow  # four golfsim processes: about 60 s here
@pytest.mark.parametrize("args", [
    # rotations at three seats (the command line's default there is permutations), another confidence, parameters
    ["--agents", "pair-builder:keep_threshold=8,lone_two=1,greedy,random", "--players", "3", "--seating",
     "rotations", "--confidence", "0.9", "--jokers", "minus2", "--holes", "2", "--games", "30", "--seed", "4"],
    # a gauntlet of a repeated agent at four seats, every rule flag away from its default
    ["--agents", "greedy,greedy,random", "--players", "4", "--schedule", "gauntlet", "--anchor", "greedy#2",
     "--decks", "2", "--opening-flips", "same-column", "--reveal-instead-of-draw", "--discard-and-flip", "must",
     "--end", "one-last-turn", "--twos-pair", "keep-negative", "--four-of-a-kind-bonus", "-10", "--turn-cap", "300",
     "--holes", "1", "--games", "12", "--seed", "9", "--confidence", "0.99"],
])
def test_running_the_recorded_command_reproduces_the_result(args):
    def golfsim(argv):
        done = subprocess.run([sys.executable, "-m", "golfsim", *argv, "--format", "json", "--quiet"],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    first = golfsim(["tournament", *args])
    command = shlex.split(first["config"]["command"])
    assert command[:2] == ["golfsim", "tournament"]
    again = golfsim(command[1:])
    assert again["config"]["command"] == first["config"]["command"]
    for key in ("standings", "head_to_head", "ratings"):
        assert again[key] == first[key]
    assert {k: v for k, v in again["config"].items() if k != "python"} == \
        {k: v for k, v in first["config"].items() if k != "python"}


def test_dask_missing_is_one_line_saying_how_to_install_it_and_exit_2():
    # the interpreter is told that distributed cannot be imported, as on an install without the 'dask' extra
    script = ("import sys; sys.modules['distributed'] = None; from golfsim.cli.app import main; "
              "sys.argv = ['golfsim', *sys.argv[1:]]; main()")
    done = subprocess.run([sys.executable, "-c", script, "tournament", "--agents", "greedy,random", "--games", "5",
                           "--dask", "local:2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'golfsim[dask]'" in lines[0], done.stderr


@pytest.mark.parametrize("args,message", [
    (["--dask", "somewhere"], "--dask takes local, local:N or a scheduler address"),
])
def test_a_bad_dask_spec_is_refused_before_the_run(args, message):
    result = runner.invoke(app, ["tournament", "--agents", "greedy,random", "--games", "1000000000", *args])
    assert result.exit_code == 2 and message in result.stderr


@pytest.mark.slow
def test_every_table_fits_an_80_column_terminal():
    import os

    import pexpect

    child = pexpect.spawn(sys.executable, ["-m", "golfsim", "tournament", "--games", "5", "--quiet"],
                          dimensions=(50, 80), encoding="utf-8", timeout=300,
                          env={**os.environ, "COLUMNS": "80", "TERM": "xterm"})
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.read()).replace("\r\n", "\n")  # the screen's text
    child.close()
    assert child.exitstatus == 0, text
    assert "how they played" in text and "head to head" in text
    assert max(len(line) for line in text.splitlines()) <= 80, text
    assert "…" not in text  # no heading or value cut short
