"""Pictures of positions: the SVG is read back with an XML parser and the cards it shows are checked against the
position, the game or the layout it was drawn from."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from golfsim.coach.position import Position
from golfsim.core.rules import Rules
from golfsim.game.game import Game
from golfsim.view.svg import from_game, from_layout, from_position, from_pub, render
from tests.support import run_golfsim

NS = "{http://www.w3.org/2000/svg}"


def cards(svg: str) -> dict:
    """{(seat, slot): rank shown} and {pile: rank} from the picture."""
    root = ET.fromstring(svg)
    seats, piles = {}, {}
    for g in root.iter(f"{NS}g"):
        if "card" not in g.get("class", "").split():
            continue
        up = "face-up" in g.get("class").split()
        texts = [t.text for t in g.iter(f"{NS}text") if "rank" in t.get("class", "")]
        assert g.get("data-rank") == (texts[0] if up else "?")  # the rank drawn is the rank named
        if g.get("data-seat") is not None:
            seats[int(g.get("data-seat")), int(g.get("data-slot"))] = g.get("data-rank")
        else:
            piles[g.get("data-pile")] = g.get("data-rank")
    return seats, piles


def texts(svg: str) -> dict:
    return {t.get("class"): t.text for t in ET.fromstring(svg).iter(f"{NS}text") if t.get("class")}


def pairs(svg: str) -> list[tuple[int, int]]:
    return sorted((int(r.get("data-seat")), int(r.get("data-column"))) for r in ET.fromstring(svg).iter(f"{NS}rect")
                  if r.get("class") == "pair")


def test_a_hint_position_shows_its_cards_piles_drawn_card_and_pairs():
    where = Position.parse("me: 5 ? 9 / K ? 9; opp: ? 7 ? / Q ? Q; discard: 9 3; drawn: Q")
    svg = from_position(where).to_svg()
    seats, piles = cards(svg)
    assert [seats[0, k] for k in range(6)] == ["5", "?", "9", "K", "?", "9"]
    assert [seats[1, k] for k in range(6)] == ["?", "7", "?", "Q", "?", "Q"]
    assert piles == {"stock": "?", "discard": "3", "held": "Q"}
    # 52 cards, less 12 dealt, 2 in the discard pile and the Q drawn
    assert texts(svg)["stock"] == "stock 37" and texts(svg)["discard"] == "discard (2)"
    assert pairs(svg) == [(0, 2)]  # 9 over 9; the opponent's queens are in different columns
    # showing: 5 + K (0: a king) + the pair of 9s (0) for me; 7 + Q + Q for the opponent
    assert [t.text for t in ET.fromstring(svg).iter(f"{NS}text") if t.get("class") == "score"] == \
        ["showing 5   total 0", "showing 27   total 0"]
    assert where._repr_svg_() == svg


def test_a_fresh_deal_shows_every_card_face_down_and_the_turned_up_discard():
    g = Game(Rules(), seed=5)
    g.start_hole()
    svg = g._repr_svg_()
    seats, piles = cards(svg)
    assert set(seats.values()) == {"?"} and len(seats) == 12
    assert piles["discard"] == svg_rank(g.top_discard)
    assert texts(svg)["stock"] == "stock 39"  # 52 - 2 x 6 - the first discard
    assert texts(svg)["title"] == "hole 1 of 9, turn 0, open"


def svg_rank(code: int) -> str:
    return "XA2345678910JQK"[code] if code < 10 else ["10", "J", "Q", "K"][code - 10]


def test_a_game_played_on_shows_what_its_views_show():
    g = Game(Rules(players=3), seed=11)
    g.start_hole()
    while g.turn < 6:
        legal = g.legal_actions()
        g.step(legal[len(legal) // 2])
    seats, piles = cards(from_game(g, ["a", "b", "c"]).to_svg())
    for p in range(3):
        assert [seats[p, k] for k in range(6)] == ["?" if c < 0 else svg_rank(c) for c in g.view(p)]
    assert piles["discard"] == svg_rank(g.top_discard)


def test_names_are_escaped():
    g = Game(Rules(), seed=1)
    g.start_hole()
    svg = from_pub(g.pub, g.rules, ["<b>&amp", 'x"y']).to_svg()
    names = [t.text for t in ET.fromstring(svg).iter(f"{NS}text") if t.get("class") == "name"]
    assert names[0].startswith("<b>&amp") and names[1].startswith('x"y')


def test_a_scored_layout_marks_its_pairs_and_its_score():
    svg = from_layout([8, 13, 2, 8, 12, 2]).to_svg()
    seats, piles = cards(svg)
    assert [seats[0, k] for k in range(6)] == ["8", "K", "2", "8", "Q", "2"] and piles == {}
    assert pairs(svg) == [(0, 0), (0, 2)]
    assert texts(svg)["caption"] == "score 10"  # K + Q: the pairs of 8 and of 2 score 0


def test_the_replay_template_draws_both_faces_and_every_pair_ring_hidden():
    where = Position.parse("me: 5 ? 9 / K ? 9; opp: ? 7 ? / ? ? ?; discard: 9 3")
    svg = render(from_position(where), template=True)
    root = ET.fromstring(svg)
    rings = [r for r in root.iter(f"{NS}rect") if r.get("class") == "pair"]
    assert len(rings) == 6 and [r.get("style") for r in rings].count(None) == 1  # only 9/9 shows
    for g in root.iter(f"{NS}g"):
        if "card" in g.get("class", "").split() and g.get("data-pile") != "stock":
            assert {c.get("class") for c in g} == {"front", "back"}


@pytest.mark.slow
def test_score_and_hint_write_their_pictures(tmp_path):
    done = run_golfsim("score", "8 K 2 / 8 Q 2", "--svg", tmp_path / "score.svg")
    assert done.returncode == 0, done.stderr
    assert pairs((tmp_path / "score.svg").read_text()) == [(0, 0), (0, 2)]
    # a cold start compiles mc's search, minutes on a loaded machine
    done = run_golfsim("hint", "me: 5 ? 9 / K ? 9; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q", "--samples", "20",
                       "--svg", tmp_path / "hint.svg", timeout=900)
    assert done.returncode == 0, done.stderr
    svg = (tmp_path / "hint.svg").read_text()
    seats, piles = cards(svg)
    assert [seats[0, k] for k in range(6)] == ["5", "?", "9", "K", "?", "9"] and piles["held"] == "Q"
    assert texts(svg)["caption"].startswith("best: ")
    bad = run_golfsim("score", "8 K 2 / 8 Q 2", "--svg", tmp_path / "missing" / "score.svg")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "does not exist" in bad.stderr
    assert "Traceback" not in bad.stderr
