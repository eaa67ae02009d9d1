"""Plain-Python and batched agents in tournaments, sweeps and tuning: the same results on one worker, on worker
processes and on a Dask LocalCluster, and through the command line as a user runs it."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from golfsim.agents.plugins import ENV_VAR
from golfsim.core.rules import Rules
from golfsim.runs.tasks import dask_executor
from golfsim.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
MODULES = f"{EXAMPLES / 'cautious_python_agent.py'},{EXAMPLES / 'batched_numpy_agents.py'}"
POOL = ["cautious", "linear:temperature=1", "ev"]
RULES = Rules(players=2, holes=2)


@pytest.fixture(autouse=True)
def example_agents(monkeypatch):
    monkeypatch.setenv(ENV_VAR, MODULES)  # the tasks carry it to every worker, as on the command line


def same_results(a, b) -> bool:
    keep = ("standings", "head_to_head", "ratings")
    da, db = json.loads(a.to_json()), json.loads(b.to_json())
    return all(da[k] == db[k] for k in keep) and da["config"]["command"] == db["config"]["command"]


@pytest.mark.slow  # starts two worker processes and a two-worker LocalCluster
def test_python_agents_mixed_with_a_compiled_one_give_the_same_tournament_on_1_and_2_processes_and_dask():
    one = run_tournament(POOL, RULES, games=40, seed=9, threads=1, batch_size=10)
    two = run_tournament(POOL, RULES, games=40, seed=9, threads=2, batch_size=10)  # worker processes
    with dask_executor("local:2") as executor:
        dask = run_tournament(POOL, RULES, games=40, seed=9, executor=executor, batch_size=10)
    assert one.games_played == 3 * 2 * 40
    assert same_results(one, two) and same_results(one, dask)
    assert set(one.standings.agent) == {"cautious", "linear:temperature=1", "ev"}


def test_a_python_agent_keeps_the_duplicate_deals_of_a_compiled_one():
    # cautious and greedy at one table: each deal set's two seat orders deal the same cards, so the sum over both
    # orders of the two totals is what play_game gives for the same games
    from golfsim.game.env import play_game
    from golfsim.tournament import rotation_agent_seed

    res = run_tournament(["cautious", "greedy"], RULES, games=6, seed=3, threads=1)
    frame = json.loads(res.to_json())
    by_agent = {r["agent"]: r["mean_score"] for r in frame["standings"]}
    expected = {"cautious": [], "greedy": []}
    for order, seats in enumerate((["cautious", "greedy"], ["greedy", "cautious"])):
        for g in range(6):
            game = play_game(seats, RULES, seed=3, game=g, agent_seed=rotation_agent_seed(3, 0, order))
            for seat, name in enumerate(seats):
                expected[name].append(game["totals"][seat])
    for name, totals in expected.items():
        assert by_agent[name] == pytest.approx(np.mean(totals))


def cli(*args, timeout=600):
    env = {**os.environ, ENV_VAR: MODULES}
    return subprocess.run([sys.executable, "-m", "golfsim", *args], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=ROOT)


@pytest.mark.slow
def test_the_command_line_tournament_seats_python_and_batched_agents(tmp_path):
    run = cli("tournament", "--agents", "cautious,linear,greedy", "--games", "20", "--holes", "1", "--seed", "2",
              "--quiet", "--format", "json", "--threads", "1")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert {r["agent"] for r in doc["standings"]} == {"cautious", "linear", "greedy"}
    assert doc["summary"]["games_played"] == 3 * 2 * 20
    command = doc["config"]["command"]
    assert command.startswith(f"{ENV_VAR}={shlex.quote(MODULES)} golfsim tournament --agents cautious,linear,greedy ")
    # the recorded command (asked for JSON) reruns as written, in a shell without the variable set and in another folder
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    again = subprocess.run(["bash", "-c", command + " --format json --quiet"], capture_output=True, text=True,
                           env=env, timeout=600, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["standings"] == doc["standings"]


@pytest.mark.slow
def test_a_raising_python_agent_is_one_line_on_the_command_line(tmp_path):
    module = tmp_path / "grumpy_agent.py"
    module.write_text("from golfsim.agents import register_python_agent\n"
                      "def make(params):\n"
                      "    def grumpy(observation):\n"
                      "        raise RuntimeError('will not play')\n"
                      "    return grumpy\n"
                      "register_python_agent('grumpy', 'raises', make)\n")
    env = {**os.environ, ENV_VAR: str(module)}
    run = subprocess.run([sys.executable, "-m", "golfsim", "tournament", "--agents", "grumpy,greedy", "--games", "4",
                          "--holes", "1", "--quiet"], capture_output=True, text=True, env=env, timeout=600)
    assert run.returncode == 2
    assert re.fullmatch(r"error: agent 'grumpy' \(seat [01]\) raised RuntimeError: will not play\n", run.stderr), \
        run.stderr


def test_a_sweep_and_a_tuning_study_take_a_python_agent(tmp_path):
    from golfsim.sweep.grid import run_sweep
    from golfsim.tuning.study import tune

    grid = tmp_path / "grid.toml"
    grid.write_text('[sweep]\nseed = 3\ngames = 8\n[rules]\nholes = 1\n[axes]\nplayers = [2]\nkeep = [0, 5]\n'
                    '[pools]\nfield = ["cautious:keep_at_most={keep}", "greedy"]\n')
    table = run_sweep(grid, out=tmp_path / "out", threads=1).table
    for keep in (0, 5):  # each cell's rows are its own tournament's standings
        rows = table[table.keep == keep].set_index("agent")
        alone = run_tournament([f"cautious:keep_at_most={keep}", "greedy"], Rules(players=2, holes=1), 8,
                               int(rows["seed"].iloc[0]), threads=1).standings.set_index("agent")
        assert rows.loc[f"cautious:keep_at_most={keep}", "mean_score"] == pytest.approx(
            alone.loc[f"cautious:keep_at_most={keep}", "mean_score"])
        assert rows.loc["greedy", "mean_score"] == pytest.approx(alone.loc["greedy", "mean_score"])
    study = tune("cautious", against="greedy", rules=Rules(players=2, holes=1), trials=3, games=10, seed=1,
                 params="keep_at_most=0:8", threads=1)
    assert len(study.trials) == 3 and study.agent.startswith("cautious")
