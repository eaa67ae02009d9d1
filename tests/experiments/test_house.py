"""The house-rule experiment: every house rule measured alone over the web game's table, with luck's measures."""

import json
from pathlib import Path

import numpy as np
import pytest

from golfsim.core.rules import HOUSE_MEANINGS, Rules
from golfsim.experiments import house
from tests.experiments.citations import check_citations

TINY = 40
SEED = 3


@pytest.fixture(scope="module")
def tiny():
    return house.run(games=TINY, seed=SEED, threads=2)


def test_every_house_rule_is_measured_alone_over_the_web_games_table():
    sets = dict(house.rule_sets(2))
    assert sets["none"] == {"players": 2, "end": "one_last_turn"}
    for name in HOUSE_MEANINGS:
        assert any(label.partition("=")[0] == name for label in sets), name
    assert sets["flip_mode=always"]["discard_and_flip"] == "must"
    assert sets["eagle_eye"] == {**sets["jokers=minus2"], "eagle_eye": True}
    for label, options in sets.items():
        changed = {k: v for k, v in Rules(**options).to_dict().items() if Rules(**house.BASE).to_dict().get(k) != v}
        assert len(changed) <= 2, (label, changed)  # the rule, and jokers for eagle_eye


def test_tables_have_a_row_per_rule_set_and_none_is_the_reference(tiny):
    labels = [label for p in house.PLAYER_COUNTS for label, _ in house.rule_sets(p)]
    for strong, weak in house.PAIRS:
        rows = tiny.table[(tiny.table.strong == strong) & (tiny.table.weak == weak)]
        assert list(rows.rule_set) == labels and (rows.deal_sets == TINY).all()
    extra = tiny.extra_tables["analytics"]
    assert list(extra.rule_set) == labels and (extra.games == TINY).all()
    for players, rows in extra.groupby("players"):
        none = rows.set_index("rule_set").loc["none"]
        assert none.score_change == 0 and none.score_change_low == 0
        assert np.allclose(rows.score_change, rows.mean_hole_score - none.mean_hole_score), players
    shares = tiny.table[[f"game_{k}_share" for k in ("skill", "card", "rest")]].sum(axis=1)
    np.testing.assert_allclose(shares, 1.0)


def test_tied_shame_at_two_players_leaves_every_margin_alone(tiny):
    # at two players a tie costs both players 5, so the margin between them never changes: the luck rows, built
    # from margins, equal the plain table's; the scores themselves rise
    t = tiny.table.query("players == 2 and strong == 'ev'").set_index("rule_set")
    for column in ("margin", "game_skill_share", "win_9", "holes_90"):
        assert t.loc["tied_shame", column] == t.loc["none", column], column
    extra = tiny.extra_tables["analytics"].query("players == 2").set_index("rule_set")
    assert extra.loc["tied_shame", "mean_hole_score"] > extra.loc["none", "mean_hole_score"]


def test_a_bonus_for_going_out_lowers_scores(tiny):
    # knock_bonus takes 5 from whoever goes out in (nearly) every deal: about -5/2 a player-hole at two players.
    # (knock_penalty need not raise them: ev, which values it, goes out only when likely lowest)
    for players, rows in tiny.extra_tables["analytics"].groupby("players"):
        rows = rows.set_index("rule_set")
        assert rows.loc["knock_bonus", "score_change_high"] < 0, players


def test_the_figure_states_rules_seed_size_and_intervals(tiny):
    title = tiny.figures["figure"]._suptitle.get_text()
    assert f"seed {SEED}" in title and f"{TINY:,}" in title and "95%" in title


def test_the_committed_result_was_made_by_code_that_plays_the_house_rules_like_this_code():
    config = json.loads((Path(house.__file__).resolve().parent.parent / "results" / "house" /
                         "config.json").read_text())
    assert config["house_fingerprint"] == house.house_fingerprint(), (
        "results/house was made by code that plays a house rule differently: regenerate it with "
        "'golfsim experiment house --overwrite'")
    labels = [label for p in house.PLAYER_COUNTS for label, _ in house.rule_sets(p)]
    assert [s["label"] for s in config["rule_sets"]] == labels



def test_every_number_the_committed_readme_cites_is_in_the_committed_tables():
    check_citations(Path(house.__file__).resolve().parent.parent / "results" / "house", "rule_set")
