"""Decision logs: the logging loop plays the simulator's games, the logged actions replay to the logged scores, and
the files open in pandas, polars and duckdb."""

import json
import subprocess
import sys

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from numba import njit

import golfsim.logs.trace
from golfsim.agents.base import AGENT_SIGNATURE, REGISTRY, register_compiled_agent
from golfsim.agents.random_agent import random_act
from golfsim.core.errors import IllegalActionError
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, OPEN, PHASE, START, action_name
from golfsim.game.env import GolfEnv
from golfsim.game.game import Game
from golfsim.kernels.simulate import Table, iter_batches, simulate
from golfsim.logs.trace import DecisionLog, LogError, log_games, read_log, replay_deal, scorecard, write_game
from golfsim.tournament import run_tournament


@njit(AGENT_SIGNATURE, cache=True)
def draws_then_takes_0(pub, rules, params, agent_rng, player):
    """Breaks the contract on its first turn: draws from the stock, then answers action 0 (take the discard), which
    is not legal while holding the drawn card."""
    if pub[PHASE] == OPEN:
        return random_act(pub, rules, params, agent_rng, player)
    return DRAW_STOCK if pub[PHASE] == START else 0


if "draws-then-takes-0" not in REGISTRY:
    register_compiled_agent("draws-then-takes-0", "illegal as soon as it holds a card", draws_then_takes_0)

VARIANTS = [
    (["ev", "greedy"], Rules(holes=3)),
    (["pair-builder", "random", "ev"], Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True, holes=2)),
    (["greedy", "ev", "random", "pair-builder"], Rules(players=4, jokers="minus2", discard_and_flip="must", holes=2)),
    (["ev", "random"], Rules(four_of_a_kind_bonus=-10, decks=2, opening_flips="same_column", turn_cap=40, holes=2)),
]


@pytest.mark.parametrize(("agents", "rules"), VARIANTS)
def test_the_logging_loop_plays_the_batch_kernels_games(agents, rules, tmp_path, monkeypatch):
    monkeypatch.setattr(golfsim.logs.trace, "RECORD_ROWS", 500)  # small buffers: the loop resumes between games
    table = Table.make(agents, rules)
    plain = list(iter_batches(table, 60, seed=5, batch_size=25, threads=2))
    with DecisionLog(tmp_path / "log.parquet", rules, 5) as log:
        logged = list(log.play(table, 60, batch_size=25, threads=2))
    for a, b in zip(plain, logged, strict=True):
        assert a.first_game == b.first_game
        for name in ("hole_scores", "turns", "enders", "reasons"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize(("agents", "rules"), VARIANTS)
def test_replaying_the_logged_actions_reproduces_the_logged_scores(agents, rules, tmp_path):
    path = log_games(agents, tmp_path / "log.parquet", rules, games=40, seed=11, batch_size=16)
    frame = read_log(path).frame()
    env = GolfEnv(rules)
    replayed = 0
    for (_game, hole), rows in frame.groupby(["game", "hole"], sort=True):
        env.reset(11, game=int(rows["deal_set"].iloc[0]), hole=int(hole))
        decisions = rows[rows["kind"] == "decision"]
        for action, seat, view in zip(decisions["action"], decisions["seat"],
                                      decisions[[f"view_{k}" for k in range(6)]].to_numpy(), strict=True):
            assert env.current_player == seat
            assert env.observe(int(seat))["view"][int(seat)].tolist() == view.tolist()
            env.step(int(action))
        end = rows[rows["kind"] == "deal_end"].iloc[0]
        assert env.done and env.scores == [int(end[f"score_{p}"]) for p in range(rules.players)]
        assert env.went_out == end["went_out"] and env.end_reason == end["end_reason"]
        replayed += 1
    assert replayed == 40 * rules.holes
    # and the logged deal ends are the simulator's
    sim = simulate(agents, rules, games=40, seed=11)
    ends = frame[frame["kind"] == "deal_end"].reset_index(drop=True)
    for p in range(rules.players):
        assert ends[f"score_{p}"].astype(int).tolist() == sim.deals[f"score_{p}"].tolist()


def test_every_decision_has_its_row(tmp_path):
    rules = Rules(holes=1)
    path = log_games(["greedy", "random"], tmp_path / "log.parquet", rules, games=3, seed=2)
    frame = read_log(path).frame()
    for game in range(3):
        g = Game(rules, 2, game=game)
        g.play(["greedy", "random"])
        rows = frame[(frame["game"] == game) & (frame["kind"] == "decision")]
        events = [e for e in g.history if e.kind == "action"]
        assert rows["action"].tolist() == [e.action for e in events]
        assert rows["card"].tolist() == [e.card for e in events]
        assert rows["phase"].astype(str).tolist() == [e.phase for e in events]
        assert rows["agent"].astype(str).tolist() == [["greedy", "random"][e.player] for e in events]


DECISION_COLUMNS = ["seat", "agent", "phase", "action", "card", "discard_top"] + [f"view_{k}" for k in range(6)]
DEAL_END_COLUMNS = ["went_out", "end_reason", "score_0", "score_1", "score_2"]


def test_decision_columns_hold_minus_one_on_a_deal_end_and_deal_end_columns_are_null_on_decisions(tmp_path):
    rules = Rules(players=3, holes=2, reveal_instead_of_draw=True, discard_and_flip="may")  # passes happen
    frame = read_log(log_games(["random", "ev", "greedy"], tmp_path / "log.parquet", rules, games=30, seed=3)).frame()
    decisions, ends = frame[frame["kind"] == "decision"], frame[frame["kind"] == "deal_end"]
    assert len(ends) == 30 * 2
    assert not decisions[DECISION_COLUMNS].isna().any().any()
    assert decisions[DEAL_END_COLUMNS].isna().all().all()
    assert not ends[DEAL_END_COLUMNS].isna().any().any()
    assert (ends[["seat", "action", "card"] + [f"view_{k}" for k in range(6)]] == -1).all().all()
    assert set(ends["phase"].astype(str)) == {"done"} and ends["agent"].isna().all()
    passes = decisions[decisions["action"].map(lambda a: action_name(int(a)) == "pass")]
    assert len(passes) > 0 and (passes["card"] == -1).all()


def test_a_version_1_log_with_nulls_in_the_decision_columns_still_replays(tmp_path):
    rules = Rules(holes=1)
    g = Game(rules, seed=6, game=2)
    g.play(["greedy", "random"])
    frame = read_log(write_game(tmp_path / "v2.parquet", g, ["greedy", "random"])).frame()
    end = frame["kind"] == "deal_end"
    for name in ["seat", "action", "card", "phase"] + [f"view_{k}" for k in range(6)]:
        frame[name] = frame[name].mask(end)  # how version 1 wrote a deal end
    meta = read_log(tmp_path / "v2.parquet").meta | {"version": 1}
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.replace_schema_metadata({golfsim.logs.trace.META_KEY: json.dumps(meta)})
    pq.write_table(table, tmp_path / "v1.parquet")
    log = read_log(tmp_path / "v1.parquet")
    moves, end_row = replay_deal(log, 2, 0)
    assert [m.event.action for m in moves] == [e.action for e in g.history if e.kind == "action"]
    assert scorecard(log, 2).loc["total"].tolist() == g.totals.tolist()


def test_logs_open_in_pandas_polars_and_duckdb_without_conversion(tmp_path):
    path = log_games(["ev", "greedy"], tmp_path / "log.parquet", Rules(holes=2), games=30, seed=1)
    by_pandas = pd.read_parquet(path)
    decisions = by_pandas[by_pandas["kind"] == "decision"]
    expected = decisions.groupby("agent", observed=True).size().to_dict()
    query = f"select agent, count(*) from '{path}' where kind = 'decision' group by agent"
    by_duckdb = dict(duckdb.sql(query).fetchall())
    assert by_duckdb == expected
    by_polars = pl.read_parquet(path).filter(pl.col("kind") == "deal_end")
    assert by_polars.height == 60 and by_polars["score_0"].sum() == by_pandas["score_0"].sum()


def test_a_logged_tournament_is_the_tournament(tmp_path):
    path = tmp_path / "t.parquet"
    result = run_tournament(["greedy", "random"], Rules(holes=2), games=25, seed=4, log=path)
    log = read_log(path)
    assert [s["agents"] for s in log.meta["seatings"]] == [["greedy", "random"], ["random", "greedy"]]
    ends = log.frame(filters=[("kind", "=", "deal_end")])
    totals = ends.groupby(["seat_order", "deal_set"])[["score_0", "score_1"]].sum()
    games = result.games.set_index(["rotation", "game", "seat"])["total"]
    for (order, deal_set), row in totals.iterrows():
        assert [games[(order, deal_set, 0)], games[(order, deal_set, 1)]] == [row["score_0"], row["score_1"]]


def test_a_game_played_a_decision_at_a_time_is_saved_and_replays(tmp_path):
    g = Game(Rules(players=3, holes=2), seed=9, game=4)
    g.play(["ev", "pair-builder", "greedy"])
    path = write_game(tmp_path / "game.parquet", g, ["ev", "pair-builder", "greedy"])
    log = read_log(path)
    card = scorecard(log, 4)
    assert card.loc["total"].tolist() == g.totals.tolist()
    for hole in range(2):
        moves, end = replay_deal(log, 4, hole)
        assert [m.event.action for m in moves] == [e.action for e in g.history if e.kind == "action"
                                                   and e.hole == hole]


def test_foreign_and_broken_files_and_missing_deals_are_refused(tmp_path):
    foreign = tmp_path / "foreign.parquet"
    pd.DataFrame({"x": [1, 2]}).to_parquet(foreign)
    with pytest.raises(LogError, match="not a golfsim decision log"):
        read_log(foreign)
    text = tmp_path / "notes.parquet"
    text.write_text("hello")
    with pytest.raises(LogError, match="not a readable Parquet file"):
        read_log(text)
    with pytest.raises(LogError, match="does not exist"):
        read_log(tmp_path / "missing.parquet")
    log = read_log(log_games(["random", "random"], tmp_path / "log.parquet", Rules(holes=2), games=3, seed=1))
    with pytest.raises(LogError, match=r"game 7 is not in log.parquet \(games 0 to 2\)"):
        replay_deal(log, 7, 0)
    with pytest.raises(LogError, match="hole 5 is not in game 1"):
        replay_deal(log, 1, 5)


@pytest.mark.slow
def test_tournament_log_from_the_command_line(tmp_path):
    path = tmp_path / "d.parquet"
    done = subprocess.run([sys.executable, "-m", "golfsim", "tournament", "--agents", "greedy,random", "--games", "10",
                           "--holes", "1", "--quiet", "--format", "csv", "--log", str(path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    frame = read_log(path).frame()
    assert (frame["kind"] == "deal_end").sum() == 20
    bad = subprocess.run([sys.executable, "-m", "golfsim", "tournament", "--agents", "greedy,random", "--games", "2",
                          "--quiet", "--log", str(tmp_path / "no" / "such" / "dir.parquet")],
                         capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "cannot write the decision log" in bad.stderr


def test_an_interrupted_logged_tournament_leaves_a_readable_log_marked_partial(tmp_path):
    path = tmp_path / "t.parquet"
    calls = []

    def stop_after_the_first_block(done, total):
        calls.append(done)
        if len(calls) == 3:  # both seat orders of the first block and one of the second played
            raise KeyboardInterrupt

    result = run_tournament(["greedy", "random"], Rules(holes=1), games=40, seed=1, batch_size=10,
                            progress=stop_after_the_first_block, log=path)
    assert result.partial and result.deal_sets == 10
    log = read_log(path)
    assert log.meta["partial"] is True
    ends = log.frame(filters=[("kind", "=", "deal_end")])
    played = ends.groupby("seat_order")["deal_set"].apply(sorted).to_dict()
    assert played == {0: list(range(20)), 1: list(range(10))}  # everything played is logged


def test_the_logging_loop_gives_the_oracle_the_true_state_as_the_simulator_does(tmp_path):
    # the oracle returns an illegal action when handed only the public state, so a loop that forgot it would fail
    table = Table.make(["oracle", "mc:samples=4", "greedy"], Rules(players=3, holes=1))
    plain = list(iter_batches(table, 6, seed=3, batch_size=3, threads=1))
    with DecisionLog(tmp_path / "log.parquet", table.rules, 3) as log:
        logged = list(log.play(table, 6, batch_size=3, threads=1))
    for a, b in zip(plain, logged, strict=True):
        np.testing.assert_array_equal(a.hole_scores, b.hole_scores)


def test_an_agent_returning_an_illegal_action_stops_the_log_with_the_simulators_message(tmp_path):
    agents = ["greedy", "draws-then-takes-0"]
    with pytest.raises(IllegalActionError) as plain:
        simulate(agents, Rules(), games=30, seed=3)
    with pytest.raises(IllegalActionError) as logged:
        log_games(agents, tmp_path / "log.parquet", Rules(), games=30, seed=3)
    assert "agent 'draws-then-takes-0' (seat 1) returned the illegal action 0" in str(logged.value)
    assert str(logged.value) == str(plain.value)
