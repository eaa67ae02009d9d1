"""The serve app's game logic without a browser: the new-game form reads the command line's rule options, moves are
checked, and the saved log holds every move made so far (a closed tab loses nothing)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="golfsim serve needs the web extra: pip install -e '.[web]'")

from golfsim.cli.shared import RULE_FLAG_TYPES  # noqa: E402
from golfsim.core.rules import Rules  # noqa: E402
from golfsim.logs.trace import read_log, scorecard  # noqa: E402
from golfsim.web.app import BadInput, Tables, _stamp, game_page, new_game_page, rule_options  # noqa: E402


def test_the_form_has_a_field_per_command_line_rule_option_read_as_the_command_line_reads_it():
    page = new_game_page()
    for name in RULE_FLAG_TYPES:  # an option added to the command line appears in the form
        assert f'name="{name}"' in page
    options = rule_options({"jokers": "minus2", "holes": "3", "reveal_instead_of_draw": "true", "end": "one-last-turn",
                            "decks": "", "twos_pair": " "})
    assert options == {"jokers": "minus2", "holes": 3, "reveal_instead_of_draw": True, "end": "one_last_turn"}
    assert Rules(players=2, **options).end == "one_last_turn"
    with pytest.raises(BadInput, match="holes must be a whole number"):
        rule_options({"holes": "nine"})
    with pytest.raises(BadInput, match="true or false"):
        rule_options({"reveal_instead_of_draw": "maybe"})


def test_bad_new_games_are_refused_with_a_message(tmp_path):
    tables = Tables(tmp_path)
    for form, message in (({"opponents": ""}, "at least one opponent"), ({"opponents": "ev", "seed": "x"}, "seed"),
                          ({"opponents": "ev", "jokers": "lots"}, "lots"), ({"opponents": "nobody"}, "nobody")):
        with pytest.raises(BadInput, match=message):
            tables.new(form)
    assert not list(tmp_path.iterdir())  # nothing saved for a game that did not start
    with pytest.raises(BadInput, match="no game") as err:
        tables.get("nope")
    assert err.value.status == 404


@pytest.mark.slow
def test_a_game_is_saved_after_every_move_and_its_moves_are_checked(tmp_path):
    tables = Tables(tmp_path)
    session = tables.new({"opponents": "ev,greedy", "seed": "9", "holes": "2", "hints": "on"})
    game = session.game
    with pytest.raises(BadInput, match="out of date"):
        tables.move(session, str(game.legal_actions()[0]), str(_stamp(game) - 1))
    with pytest.raises(BadInput, match="not legal"):
        tables.move(session, "99", str(_stamp(game)))
    mine = 0
    while not game.over:
        if game.hole_over:
            tables.next_hole(session)
            continue
        tables.move(session, str(game.legal_actions()[-1]), str(_stamp(game)))
        mine += 1
        log = read_log(session.save)  # after every move: the file holds every decision so far
        decisions = log.frame(filters=[("kind", "=", "decision")])
        assert (decisions["seat"] == 0).sum() == mine and len(decisions) == sum(
            1 for e in game.history if e.kind != "hole_end")
    card = scorecard(read_log(session.save), 0)
    assert card.loc[[1, 2]].to_numpy().tolist() == game.hole_scores.tolist()
    assert "the game is over" in game_page(session)
    with pytest.raises(BadInput, match="game is over|hole is over"):
        tables.next_hole(session)
