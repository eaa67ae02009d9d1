"""The tournament layer: schedules, seat orders, duplicate deals, statistics, interruption and output files.

Statistical checks use fixed seeds and margins derived from the sample size (or 99.9% intervals), so a pass is not
a lucky draw that a small change of seed would undo.
"""

from __future__ import annotations

import itertools
import json
import math
import shlex
from collections import Counter

import numba
import numpy as np
import pandas as pd
import pytest

import golfsim.tournament as tournament
from golfsim import stats
from golfsim.core.rules import Rules
from golfsim.game.env import GolfEnv
from golfsim.kernels.simulate import simulate
from golfsim.tournament import (
    plan_tables,
    rotation_agent_seed,
    run_tournament,
    seat_orders,
    split_agents,
)

SHORT = Rules(players=2, holes=3)


def h2h_row(result, agent, opponent):
    head = result.head_to_head
    rows = head[(head["agent"] == agent) & (head["opponent"] == opponent)]
    assert len(rows) == 1, head
    return rows.iloc[0]


# ---------------------------------------------------------------- schedules and seat orders
def test_plan_tables_schedules():
    labels = ["a", "b", "c", "d"]
    assert plan_tables(labels, 4) == ("table", [(0, 1, 2, 3)])
    schedule, tables = plan_tables(labels, 2)
    assert schedule == "round-robin" and tables == list(itertools.combinations(range(4), 2))
    assert len(plan_tables(labels, 3, "round-robin")[1]) == 4
    assert plan_tables(labels, 2, "gauntlet", "c") == ("gauntlet", [(0, 2), (1, 2), (3, 2)])
    # With more seats the anchor fills the rest of the table.
    assert plan_tables(labels, 4, "gauntlet", "a")[1] == [(1, 0, 0, 0), (2, 0, 0, 0), (3, 0, 0, 0)]
    assert plan_tables(labels, 3, anchor="b")[0] == "gauntlet"


@pytest.mark.parametrize(
    ("labels", "players", "schedule", "anchor", "message"),
    [
        (["a", "b"], 3, "table", None, "2 agents were given for 3 seats"),
        (["a", "b", "c"], 2, "table", None, "3 agents were given for 2 seats"),
        (["a", "b"], 3, "auto", None, "2 agents cannot fill a table of 3 seats"),
        (["a", "b", "c"], 2, "gauntlet", None, "needs an anchor"),
        (["a", "b", "c"], 2, "gauntlet", "z", "anchor 'z' is not among the agents"),
        (["a", "b", "c"], 2, "round-robin", "a", "only used by the gauntlet"),
        (["a", "b"], 2, "swiss", None, "schedule 'swiss' is not known"),
        (["a"], 2, "auto", None, "at least two agents"),
    ],
)
def test_plan_tables_rejects_bad_pools(labels, players, schedule, anchor, message):
    with pytest.raises(ValueError, match=message):
        plan_tables(labels, players, schedule, anchor)


def test_rotations_put_every_agent_in_every_seat_once():
    orders = seat_orders((4, 7, 9))
    assert orders == [(4, 7, 9), (9, 4, 7), (7, 9, 4)]
    for seat in range(3):
        assert sorted(o[seat] for o in orders) == [4, 7, 9]


def test_permutations_balance_who_sits_after_whom():
    orders = seat_orders((0, 1, 2, 3), "permutations")
    assert len(orders) == 24 == len(set(orders))
    assert orders[:4] == seat_orders((0, 1, 2, 3))  # the rotations come first
    after = Counter((o[s], o[(s + 1) % 4]) for o in orders for s in range(4))
    assert set(after.values()) == {8}  # every ordered neighbour pair equally often
    seats = Counter((o[s], s) for o in orders for s in range(4))
    assert set(seats.values()) == {6}
    # A gauntlet table with the anchor in several seats has only its distinct orders.
    assert sorted(seat_orders((5, 0, 0), "permutations")) == sorted(seat_orders((5, 0, 0)))


def test_split_agents_keeps_parameter_lists_together():
    assert split_agents("pair-builder:a=1,b=2, random,ev:c=3") == ["pair-builder:a=1,b=2", "random", "ev:c=3"]


def test_agent_seeds_differ_by_table_and_order_and_are_stable():
    seeds = {rotation_agent_seed(1, t, r) for t in range(3) for r in range(3)}
    assert len(seeds) == 9 and all(0 <= s < 2**63 for s in seeds)
    assert rotation_agent_seed(1, 2, 1) == rotation_agent_seed(1, 2, 1) != rotation_agent_seed(2, 2, 1)


# ---------------------------------------------------------------- reproducibility and duplicate deals
def test_same_seed_same_tables_whatever_threads_and_batch_size():
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    a = run_tournament("greedy,random,pair-builder", SHORT, games=300, seed=11, threads=1, batch_size=64)
    b = run_tournament("greedy,random,pair-builder", SHORT, games=300, seed=11, threads=threads, batch_size=1000)
    pd.testing.assert_frame_equal(a.standings, b.standings)
    pd.testing.assert_frame_equal(a.head_to_head, b.head_to_head)
    pd.testing.assert_frame_equal(a.ratings, b.ratings)
    pd.testing.assert_frame_equal(a.games, b.games)
    c = run_tournament("greedy,random,pair-builder", SHORT, games=300, seed=12, threads=1, batch_size=64)
    assert not a.games["total"].equals(c.games["total"])  # the seed matters


def test_auto_seating_plays_every_seat_order_at_three_and_four_seats():
    three = run_tournament("greedy,random,ev", Rules(players=3, holes=1), games=20, seed=1)
    assert three.config["seating"] == "permutations"
    assert len(three.config["tables"][0]["seat_orders"]) == 6
    two = run_tournament("greedy,random", Rules(holes=1), games=20, seed=1)
    assert len(two.config["tables"][0]["seat_orders"]) == 2


def test_every_seat_order_replays_the_same_deal_coordinates():
    plan = tournament.plan_tournament("greedy,random,ev", Rules(players=3, holes=2), games=250, seed=5,
                                      batch_size=100, seating="rotations")
    assert len(plan.tasks) == 3 * 3  # 3 pieces x 3 rotations of one table
    by_order: dict = {}
    for task in plan.tasks:
        by_order.setdefault(task.seats, []).append((task.seed, task.first_game, task.count))
        assert task.agent_seed in [rotation_agent_seed(5, 0, r) for r in range(3)]
    assert len(by_order) == 3
    assert all(v == [(5, 0, 100), (5, 100, 100), (5, 200, 50)] for v in by_order.values())
    res = run_tournament("greedy,random,ev", Rules(players=3, holes=2), games=250, seed=5, batch_size=100,
                         seating="rotations")
    games = res.games
    per_rotation = games.groupby("rotation")["game"].apply(lambda g: sorted(set(g)))
    assert all(v == list(range(250)) for v in per_rotation)


def test_recorded_games_are_the_deals_of_seed_and_game_index():
    rules = Rules(players=2, holes=2)
    res = run_tournament("greedy,pair-builder", rules, games=40, seed=9)
    games = res.games
    table = res.config["tables"][0]
    # The deal behind game g, hole h is fixed by (seed, g, h) alone, so every rotation holds the same cards; the
    # step API deals it from those coordinates, and another game index is another deal.
    for g in (0, 17, 39):
        for h in range(rules.holes):
            envs = [GolfEnv(rules) for _ in range(3)]
            envs[0].reset(9, game=g, hole=h)
            envs[1].reset(9, game=g, hole=h)
            envs[2].reset(9, game=g + 1, hole=h)
            assert np.array_equal(envs[0].hid, envs[1].hid) and np.array_equal(envs[0].pub, envs[1].pub)
            assert not np.array_equal(envs[0].hid, envs[2].hid)
    # Each rotation's records are the simulator's games 0..39 under the tournament seed, with that rotation's
    # agents in its seats and its agent seed.
    for r, (seats, agent_seed) in enumerate(zip(table["seat_orders"], table["agent_seeds"], strict=True)):
        rec = games[games["rotation"] == r].sort_values(["game", "seat"])
        assert list(rec["agent"][:2]) == seats
        sim = simulate(seats, rules, games=40, seed=9, agent_seed=agent_seed).players.sort_values(["game", "seat"])
        assert rec["game"].tolist() == sim["game"].tolist() == np.repeat(np.arange(40), 2).tolist()
        assert rec["total"].tolist() == sim["total"].tolist()
        other = simulate(seats, rules, games=40, seed=10, agent_seed=agent_seed).players.sort_values(["game", "seat"])
        assert rec["total"].tolist() != other["total"].tolist()
    # The two rotations seat the agents the other way round: each holds both seats' cards of every deal.
    assert table["seat_orders"] == [["greedy", "pair-builder"], ["pair-builder", "greedy"]]


# ---------------------------------------------------------------- statistics
def test_two_copies_of_random_are_indistinguishable():
    res = run_tournament("random,random", SHORT, games=3000, seed=5, confidence=0.999)
    assert res.labels == ["random#1", "random#2"]
    n = res.deal_sets
    d = h2h_row(res, "random#1", "random#2")
    assert d["mean_diff_low"] <= 0 <= d["mean_diff_high"]
    assert d["deal_sets"] == n == 3000 and d["games"] == 2 * n
    # A win share averaged over a deal set's rotations has variance <= 1/4: four standard errors from n.
    margin = 4 * 0.5 / math.sqrt(n)
    for row in res.standings.itertuples():
        assert abs(row.win_rate - 0.5) < margin
        assert row.win_rate_low <= 0.5 <= row.win_rate_high
    s = res.standings.set_index("agent")
    # Ratings of identical agents: their difference is within three of its standard errors.
    cov = res.rating_cov
    se_diff = math.sqrt(cov.loc["random#1", "random#1"] + cov.loc["random#2", "random#2"]
                        - 2 * cov.loc["random#1", "random#2"])
    assert abs(s.loc["random#1", "rating"] - s.loc["random#2", "rating"]) < 3 * se_diff
    assert res.rating_model == "Bradley-Terry"


def test_a_real_difference_is_detected():
    res = run_tournament("random,greedy", SHORT, games=500, seed=2)
    d = h2h_row(res, "greedy", "random")
    assert d["mean_diff_high"] < 0  # greedy scores lower on the same deals
    assert d["win_rate_low"] > 0.9
    assert list(res.standings["agent"]) == ["greedy", "random"]
    assert list(res.ratings["agent"]) == ["greedy", "random"]
    g = res.standings.set_index("agent")
    assert g.loc["greedy", "mean_score_high"] < g.loc["random", "mean_score_low"]


def test_standings_agree_with_the_per_game_records():
    res = run_tournament("greedy,random,pair-builder", SHORT, games=200, seed=4)
    games = res.games
    holes = SHORT.holes
    assert len(games) == 3 * 2 * 200 * 2 and res.games_played == 3 * 2 * 200
    s = res.standings.set_index("agent")
    for agent, rows in games.groupby("agent", observed=True):
        assert s.loc[agent, "games"] == len(rows)
        assert s.loc[agent, "mean_score"] == pytest.approx(rows["total"].mean())
        assert s.loc[agent, "mean_hole_score"] == pytest.approx(rows["total"].mean() / holes)
        assert s.loc[agent, "win_rate"] == pytest.approx(rows["win_share"].mean())
        assert s.loc[agent, "went_out_rate"] == pytest.approx(rows["went_out"].sum() / (len(rows) * holes))
        assert s.loc[agent, "out_win_rate"] == pytest.approx(rows["out_wins"].sum() / rows["went_out"].sum())
        assert s.loc[agent, "mean_turns"] == pytest.approx(rows["turns"].sum() / (len(rows) * holes))
        # The interval is a t-interval over deal sets of the agent's mean over its games in that deal set.
        per_set = rows.groupby("game")["total"].mean()
        m, lo, hi = stats.mean_ci(per_set.to_numpy())
        assert (s.loc[agent, "mean_score_low"], s.loc[agent, "mean_score_high"]) == pytest.approx((lo, hi))
        # the went-out interval is a Wilson interval over deal sets (at their effective sample size, at most the
        # agent's deals) of the share of the agent's deals in each deal set
        out_share = rows.groupby("game")["went_out"].sum() / (rows.groupby("game").size() * holes)
        _, lo, hi = stats.share_wilson_ci(out_share.to_numpy(), len(rows) * holes)
        assert (s.loc[agent, "went_out_rate_low"], s.loc[agent, "went_out_rate_high"]) == pytest.approx((lo, hi))
        assert s.loc[agent, "went_out_rate_low"] < s.loc[agent, "went_out_rate"] < s.loc[agent, "went_out_rate_high"]
    # Head to head: paired per deal set over the games where both sat.
    wide = games.pivot_table(index=["table", "rotation", "game"], columns="agent", values="total", observed=True)
    pair = wide[["greedy", "random"]].dropna()
    per_set = (pair["greedy"] - pair["random"]).groupby(level="game").mean()
    d = h2h_row(res, "greedy", "random")
    assert d["mean_diff"] == pytest.approx(per_set.mean())
    assert d["games"] == len(pair)
    back = h2h_row(res, "random", "greedy")
    assert back["mean_diff"] == pytest.approx(-d["mean_diff"])
    assert (back["mean_diff_low"], back["mean_diff_high"]) == pytest.approx((-d["mean_diff_high"],
                                                                             -d["mean_diff_low"]))
    assert res.truncated_deals == 0 and games["truncated"].sum() == 0


def test_truncated_deals_are_counted():
    res = run_tournament("random,random", Rules(players=2, holes=2, turn_cap=4), games=50, seed=1)
    assert res.truncated_deals == 2 * 50 * 2  # every deal stops at the cap
    assert res.standings["truncated_deals"].tolist() == [200, 200]
    assert "truncated deals (turn cap 4): 200" in " ".join(res.notes())


def test_rotations_keep_neighbours_and_permutations_balance_them():
    # Two copies of random at a 3-seat table with greedy: rotations always seat random#2 after random#1 (it picks
    # up random discards, random#1 picks up greedy's), which shows as a large difference; every seat order
    # removes it.
    rules = Rules(players=3, holes=3)
    rot = run_tournament("greedy,random,random", rules, games=1000, seed=8, confidence=0.999,
                         seating="rotations")
    perm = run_tournament("greedy,random,random", rules, games=1000, seed=8, confidence=0.999, seating="permutations")
    d_rot, d_perm = h2h_row(rot, "random#1", "random#2"), h2h_row(perm, "random#1", "random#2")
    assert d_rot["mean_diff_low"] > 0
    assert d_perm["mean_diff_low"] <= 0 <= d_perm["mean_diff_high"]
    assert perm.games_played == 6 * 1000 and rot.games_played == 3 * 1000
    assert any("--seating permutations" in line for line in rot.notes())
    assert not any("--seating permutations" in line for line in perm.notes())


def test_more_seats_use_plackett_luce_and_match_the_stats_module():
    res = run_tournament("greedy,random,pair-builder,ev", Rules(players=3, holes=2), games=150, seed=3)
    assert res.rating_model.startswith("Plackett-Luce") and res.config["rating_converged"]
    assert len(res.config["tables"]) == 4 and len(res.head_to_head) == 12
    games = res.games
    # The counted fit equals stats.plackett_luce on the raw finishing orders.
    ids = {a: i for i, a in enumerate(res.labels)}
    rankings, scores = [], []
    for _, g in games.groupby(["table", "rotation", "game"], sort=True):
        g = g.sort_values(["total", "seat"], kind="stable")
        rankings.append([ids[a] for a in g["agent"]])
        scores.append(list(g["total"]))
    fit = stats.plackett_luce(np.array(rankings), len(ids), scores=np.array(scores))
    mine = res.ratings.set_index("agent")
    for agent, i in ids.items():
        assert mine.loc[agent, "rating"] == pytest.approx(fit["rating"][i], abs=1e-4)
        assert mine.loc[agent, "rating_se"] == pytest.approx(fit["se"][i], rel=1e-6)


def test_gauntlet_fills_seats_with_the_anchor():
    res = run_tournament("greedy,random,pair-builder", Rules(players=3, holes=2), games=100, seed=1,
                         schedule="gauntlet", anchor="random")
    assert res.config["schedule"] == "gauntlet" and res.config["anchor"] == "random"
    assert [t["agents"] for t in res.config["tables"]] == [["greedy", "random", "random"],
                                                           ["pair-builder", "random", "random"]]
    pairs = {(r.agent, r.opponent) for r in res.head_to_head.itertuples()}
    assert pairs == {("greedy", "random"), ("random", "greedy"), ("pair-builder", "random"),
                     ("random", "pair-builder")}
    assert res.rating_model.startswith("Bradley-Terry (per game")
    s = res.standings.set_index("agent")
    assert s.loc["random", "games"] == 2 * 3 * 100 * 2  # two seats at each of two tables, three rotations
    assert s.loc["greedy", "games"] == 3 * 100


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agents": "greedy,nobody"}, "unknown agent 'nobody'"),
        ({"games": 0}, "games must be a whole number of at least 1"),
        ({"games": -5}, "games must be a whole number of at least 1"),
        ({"rules": Rules(players=3)}, "2 agents cannot fill a table of 3 seats"),
        ({"schedule": "gauntlet"}, "needs an anchor"),
        ({"schedule": "gauntlet", "anchor": "ev"}, "anchor 'ev' is not among the agents"),
        ({"seating": "shuffle"}, "seating 'shuffle' is not known"),
        ({"seed": -1}, "seed must be"),
        ({"batch_size": 0}, "batch_size must be"),
    ],
)
def test_bad_input_raises_value_error(kwargs, message):
    args = {"agents": "greedy,random", "rules": SHORT, "games": 10, "seed": 0} | kwargs
    with pytest.raises(ValueError, match=message):
        run_tournament(**args)


def test_repeated_anchor_must_be_named_exactly():
    with pytest.raises(ValueError, match="ambiguous"):
        run_tournament("random,random,greedy", SHORT, games=10, schedule="gauntlet", anchor="random")
    res = run_tournament("random,random,greedy", SHORT, games=10, schedule="gauntlet", anchor="random#2")
    assert res.config["anchor"] == "random#2"


# ---------------------------------------------------------------- interruption
def interrupt_after(calls: int):
    seen = []

    def progress(done, total):
        seen.append((done, total))
        if len(seen) == calls:
            raise KeyboardInterrupt

    return progress, seen


def test_interrupt_keeps_the_complete_deal_sets(tmp_path):
    # One block = 100 deal sets at each of the 2 rotations: stop after the first block plus one more call.
    progress, seen = interrupt_after(3)
    res = run_tournament("greedy,random", SHORT, games=1000, seed=3, batch_size=100, progress=progress, threads=1)
    assert seen == [(100, 2000), (200, 2000), (300, 2000)]
    assert res.partial and res.deal_sets == 100 and res.games_played == 200
    assert sorted(set(res.games["game"])) == list(range(100))
    assert (res.standings["games"] == 200).all()
    assert any(line.startswith("PARTIAL RESULT") and "100 of 1,000 deal sets" in line for line in res.notes())
    # The complete blocks equal the same deal sets of an uninterrupted run.
    full = run_tournament("greedy,random", SHORT, games=100, seed=3, batch_size=100)
    pd.testing.assert_frame_equal(res.games, full.games)
    files = res.write(tmp_path)
    assert all(f.stat().st_size > 0 for f in files)
    doc = json.loads((tmp_path / "tournament.json").read_text())
    assert doc["summary"]["partial"] is True and doc["summary"]["games_played"] == 200
    assert json.loads((tmp_path / "config.json").read_text())["partial"] is True


def test_interrupt_before_any_complete_deal_set_returns_an_empty_partial_result(tmp_path):
    progress, _ = interrupt_after(1)
    res = run_tournament("greedy,random", SHORT, games=1000, seed=3, batch_size=100, progress=progress)
    assert res.partial and res.deal_sets == 0 and res.games_played == 0
    assert res.standings["mean_score"].isna().all() and len(res.head_to_head) == 0
    assert json.loads(res.to_json())["standings"][0]["mean_score"] is None
    assert all(f.stat().st_size > 0 for f in res.write(tmp_path))


# ---------------------------------------------------------------- machine output
def test_json_document_and_written_files(tmp_path):
    res = run_tournament("greedy,random,pair-builder", Rules(players=2, holes=2, jokers="minus2"), games=60, seed=7)
    doc = json.loads(res.to_json())
    assert set(doc) >= {"config", "summary", "standings", "head_to_head", "ratings"}
    rec = doc["standings"][0]
    for key in ("agent", "mean_score", "mean_score_ci", "win_rate", "win_rate_ci", "mean_hole_score_ci",
                "went_out_rate", "went_out_rate_ci", "out_win_rate", "mean_turns", "rating", "rating_se",
                "truncated_deals"):
        assert key in rec
    assert len(rec["mean_score_ci"]) == 2 and rec["mean_score_ci"][0] <= rec["mean_score"] <= rec["mean_score_ci"][1]
    assert {"mean_diff_ci", "win_rate_ci"} <= set(doc["head_to_head"][0])
    cfg = doc["config"]
    assert cfg["rules"]["jokers"] == "minus2" and cfg["seed"] == 7 and cfg["games"] == 60
    assert cfg["schedule"] == "round-robin" and cfg["duplicate_deals"] is True and cfg["golfsim_version"]
    assert "--jokers minus2" in cfg["command"] and "--holes 2" in cfg["command"]
    assert doc["summary"]["games_played"] == 3 * 2 * 60
    files = {f.name: f for f in res.write(tmp_path / "out")}
    assert set(files) == {"standings.csv", "head_to_head.csv", "ratings.csv", "tournament.json", "config.json",
                          "score_distribution.png", "head_to_head.png"}
    assert all(f.stat().st_size > 0 for f in files.values())
    assert pd.read_csv(files["standings.csv"])["agent"].tolist() == res.standings["agent"].tolist()
    assert files["score_distribution.png"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads(files["config.json"].read_text()) == cfg


def test_config_reruns_the_same_tournament():
    res = run_tournament("pair-builder,greedy", Rules(players=2, holes=2, end="one_last_turn"), games=50, seed=21)
    cfg = res.config
    again = run_tournament(cfg["agent_specs"], Rules(**cfg["rules"]), cfg["games"], cfg["seed"],
                           schedule=cfg["schedule"], anchor=cfg["anchor"], seating=cfg["seating"])
    pd.testing.assert_frame_equal(res.standings, again.standings)


def test_the_rerun_command_names_an_agent_that_sees_hidden_cards_by_its_spec_not_its_marked_label():
    res = run_tournament("greedy,oracle:samples=2", Rules(players=2, holes=1), games=4, seed=3)
    assert "oracle:samples=2 (sees hidden cards)" in res.standings["agent"].tolist()
    argv = shlex.split(res.config["command"])
    agents = argv[argv.index("--agents") + 1]
    assert agents == "greedy,oracle:samples=2" and res.config["agent_specs"] == ["greedy", "oracle:samples=2"]
    again = run_tournament(agents, Rules(players=2, holes=1), games=4, seed=3)
    pd.testing.assert_frame_equal(res.standings, again.standings)


def report_text(result) -> str:
    from rich.console import Console

    from golfsim.tournament.report import print_report

    console = Console(width=400, record=True, file=open("/dev/null", "w"))
    print_report(result, console)
    return console.export_text()


def test_every_plus_minus_of_the_standings_is_the_same_interval_and_says_so():
    result = tournament.run_tournament(["greedy", "pair-builder", "greedy:take_gain=5"], Rules(holes=2), games=40,
                                       seed=2, threads=1)
    text = report_text(result)
    assert "every ±: 95% CI half-width" in text
    rated = result.standings[result.standings["rating_standing"] == "rated"]
    assert len(rated) >= 2
    lines = text.splitlines()
    for row in rated.itertuples():
        line = next(x for x in lines if f" {row.agent} " in x and "%" in x)
        # the rating's ± is 1.96 standard errors, as the score's ± is the 95% t half-width
        assert line.rstrip().endswith(f"{row.rating:+.0f} ± {1.959964 * row.rating_se:.0f}"), line


def test_a_two_agent_table_shows_no_empty_rating_and_names_seat_orders_alike():
    result = tournament.run_tournament(["greedy", "random"], Rules(holes=2), games=20, seed=0, threads=1)
    text = " ".join(report_text(result).split())
    assert "+0 ± 0" not in text
    assert "the only rated agent" in text
    assert "20 duplicate deal sets x 2 seat orders" in text
    assert "in all 2 seat orders (cyclic rotations)" in text
