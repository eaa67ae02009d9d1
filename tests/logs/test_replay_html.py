"""The replay page of a logged game: its steps are the logged decisions, each showing the mover's logged view,
and a 1,000-decision game stays under 1 MB."""

from __future__ import annotations

import json
import re

import pytest

from golfsim.core.rules import Rules
from golfsim.logs.replay_html import CARD_CHARS, decision_view, page
from golfsim.logs.trace import log_games, read_log
from tests.support import run_golfsim


def steps_of(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', html, re.S).group(1))


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    path = tmp_path_factory.mktemp("replay") / "log.parquet"
    return read_log(log_games(["ev", "greedy"], path, Rules(holes=2), games=2, seed=3))


def test_every_logged_decision_is_a_step_showing_the_movers_logged_view(log):
    data = steps_of(page(log, game=1))
    rows = log.frame(filters=[("game", "=", 1)])
    decisions = rows[rows["kind"] == "decision"]
    ends = rows[rows["kind"] == "deal_end"]
    steps = [s for s in data["steps"] if s["p"] != "done"]
    assert len(steps) == len(decisions) and len(data["steps"]) == len(decisions) + len(ends) == len(steps) + 2
    for step, row in zip(steps, decisions.itertuples(), strict=True):
        assert step["h"] == row.hole + 1 and step["m"] == row.seat
        view = "".join("?" if getattr(row, f"view_{k}") < 0 else CARD_CHARS[getattr(row, f"view_{k}")]
                       for k in range(6))
        assert step["L"].split(" ")[row.seat] == view
        assert step["d"] == CARD_CHARS[row.discard_top]
        assert data["words"][step["mv"]].startswith(f"{row.agent} (seat {row.seat}): ")
        assert data["words"][step["mv"]].endswith(data["words"][step["a"][step["c"]]])
    done = [s for s in data["steps"] if s["p"] == "done"]
    for step, end in zip(done, ends.itertuples(), strict=True):
        text = data["words"][step["mv"]]
        assert text == f"deal over: ev (seat 0) {end.score_0}, greedy (seat 1) {end.score_1}"
        assert "?" not in step["L"]  # every card turned up at the end of the deal
    assert done[1]["T"] == [int(ends.iloc[0].score_0), int(ends.iloc[0].score_1)]  # totals before hole 2
    assert data["starts"] == {"1": 0, "2": data["steps"].index(done[0]) + 1}


def test_a_logged_decision_has_a_picture_with_its_move(log):
    view = decision_view(log, game=0, hole=2, index=4)
    rows = log.frame(filters=[("game", "=", 0), ("hole", "=", 1), ("kind", "=", "decision")])
    row = rows.iloc[4]
    assert view.to_move == row.seat and view.layouts[row.seat] == [int(row[f"view_{k}"]) for k in range(6)]
    assert view.caption.startswith(f"{row.agent} (seat {row.seat}): ")
    assert "<svg" in view.to_svg()


def test_a_game_saved_part_way_steps_to_its_last_decision(tmp_path):
    from golfsim.game.game import Game
    from golfsim.logs.trace import write_game

    game = Game(Rules(holes=3), seed=4)
    game.start_hole()
    while not game.hole_over:
        game.step(game.legal_actions()[0])
    game.start_hole()
    for _ in range(7):  # into the second hole, then the tab is closed
        game.step(game.legal_actions()[-1])
    data = steps_of(page(read_log(write_game(tmp_path / "part.parquet", game, ["you", "ev"], partial=True)), 0))
    decisions = [e for e in game.history if e.kind != "hole_end"]
    assert len(data["steps"]) == len(decisions) + 1  # one deal end: the second hole has none yet
    assert [s["p"] for s in data["steps"]].count("done") == 1 and data["steps"][-1]["h"] == 2


def test_text_in_a_page_cannot_end_its_script(log):
    html = page(log, 0)
    assert html.count("</script>") == 2  # the data and the script, nothing inside the JSON closes a tag


@pytest.mark.slow
def test_a_thousand_decision_game_is_one_page_under_a_megabyte(tmp_path):
    path = log_games(["ev", "greedy", "pair-builder", "random", "ev", "greedy"], tmp_path / "six.parquet",
                     Rules(players=6, decks=2, holes=18), games=1, seed=2)
    opened = read_log(path)
    decisions = int((opened.frame(filters=[("game", "=", 0)])["kind"] == "decision").sum())
    assert decisions >= 1000
    done = run_golfsim("replay", path, "--html", tmp_path / "game.html")
    assert done.returncode == 0, done.stderr
    size = (tmp_path / "game.html").stat().st_size
    assert size < 1_000_000, f"{decisions} decisions: {size:,} bytes"
    assert len([s for s in steps_of((tmp_path / "game.html").read_text())["steps"] if s["p"] != "done"]) == decisions
    assert not re.search(r"(src|href)=\"(https?:)?//", (tmp_path / "game.html").read_text())  # nothing fetched
    bad = run_golfsim("replay", path, "--game", "7", "--html", tmp_path / "x.html")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and not (tmp_path / "x.html").exists()
