"""Disagreements between two agents on the same logged situations, and their price."""

import pytest

from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, FLIP, PASS, PLACE_DRAWN, REVEAL, THROW_DRAWN
from golfsim.game.game import Game
from golfsim.logs.disagree import disagreements, move_kind, summarise
from golfsim.logs.trace import log_games, read_log


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "ev_greedy.parquet"
    return read_log(log_games(["ev", "greedy"], path, Rules(holes=2), games=12, seed=3))


def test_each_disagreement_is_a_different_legal_move_in_the_logged_state(log):
    found = disagreements(log, agent="ev", other="greedy")
    assert 0 < len(found) < found.attrs["decisions"]
    frame = log.frame()
    for row in found[found["phase"] != "open"].head(25).itertuples():  # (turn, seat, phase) names the decision
        g = Game(log.rules, log.seed, game=row.game)
        decisions = frame[(frame["game"] == row.game) & (frame["kind"] == "decision")]
        for hole in range(row.hole + 1):
            g.start_hole(hole)
            for d in decisions[decisions["hole"] == hole].itertuples():
                if hole == row.hole and d.turn == row.turn and d.seat == row.seat and d.phase == row.phase:
                    break
                g.step(int(d.action))
        assert d.action == row.action and d.agent == "ev"
        assert row.other_action != row.action and row.other_action in g.legal_actions()
        assert row.cost == row.other_score - row.score


def test_an_agent_agrees_with_itself(log):
    assert disagreements(log, agent="greedy", other="greedy").empty


def test_summary_counts_every_disagreement(log):
    found = disagreements(log, agent="greedy", other="ev")
    table = summarise(found)
    assert table["count"].sum() == len(found)
    assert (table["low"] <= table["mean_cost"]).all() and (table["mean_cost"] <= table["high"]).all()


def test_move_kinds():
    kinds = [move_kind(a) for a in (0, 5, DRAW_STOCK, REVEAL, PLACE_DRAWN + 2, THROW_DRAWN, FLIP + 1, PASS)]
    assert kinds == ["take", "take", "draw", "reveal", "place", "throw", "flip", "pass"]
