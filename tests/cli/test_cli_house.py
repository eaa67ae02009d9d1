"""``--house`` and ``golfsim rules`` as a person types them: the real command in a subprocess."""

from __future__ import annotations

import json

import pytest

from golfsim.core.rules import HOUSE_MEANINGS
from tests.support import run_golfsim


def test_rules_lists_every_option_and_house_rule_with_its_default_within_80_columns():
    result = run_golfsim("rules")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    for flag in ("--players", "--decks", "--jokers", "--opening-flips", "--reveal-instead-of-draw",
                 "--discard-and-flip", "--end", "--twos-pair", "--four-of-a-kind-bonus", "--holes", "--turn-cap"):
        assert any(line.startswith(f"{flag} (default ") for line in lines), flag
    for name in HOUSE_MEANINGS:
        assert any(line.startswith(f"{name} (default ") for line in lines), name
    assert "initial_flips (default 2)" in lines and "flip_mode (default never)" in lines
    assert "super_kings (default off)" in lines


def test_a_tournament_plays_the_house_rules_it_is_given_and_records_them():
    result = run_golfsim("tournament", "--agents", "greedy,random", "--games", "6", "--holes", "2", "--threads", "1",
                         "--quiet", "--format", "json",
                         "--house", "super_kings,knock_penalty,initial_flips=1,flip_mode=endgame")
    assert result.returncode == 0, result.stderr
    rules = json.loads(result.stdout)["config"]["rules"]
    assert rules["super_kings"] is True and rules["knock_penalty"] is True
    assert rules["initial_flips"] == 1 and rules["discard_and_flip"] == "endgame"
    assert "ten_penny" not in rules  # house options at their default stay out of the record


@pytest.mark.parametrize(("house", "fragment"), [
    ("nonsense", "unknown house rule 'nonsense'"),
    ("initial_flips=5", "initial_flips needs a value 0, 1 or 2"),
    ("initial_flips", "initial_flips needs a value 0, 1 or 2"),
    ("flip_mode=sometimes", "flip_mode must be one of never, always, endgame"),
    ("super_kings=maybe", "super_kings is on or off"),
    ("blackjack,blackjack", "given twice"),
    ("eagle_eye", "eagle_eye sets the jokers' value, but the rules have no jokers"),
])
def test_an_unknown_or_bad_house_rule_is_one_line_and_exit_2(house, fragment):
    result = run_golfsim("tournament", "--agents", "greedy,random", "--games", "2", "--house", house)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and fragment in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_flip_mode_and_discard_and_flip_together_are_refused():
    result = run_golfsim("tournament", "--agents", "greedy,random", "--games", "2", "--discard-and-flip", "may",
                         "--house", "flip_mode=endgame")
    assert result.returncode == 2
    assert "give one" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_initial_flips_below_two_with_a_column_rule_for_the_second_flip_is_refused():
    result = run_golfsim("tournament", "--agents", "greedy,random", "--games", "2", "--opening-flips",
                         "same-column", "--house", "initial_flips=1")
    assert result.returncode == 2 and "use opening_flips='any'" in result.stderr


def test_score_takes_the_house_rules_that_score_a_layout():
    result = run_golfsim("score", "J J 4 / J J 5", "--house", "wolfpack", "--format", "json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["score"] == -11 and answer["bonus"] == -20  # docs/RULES.md's worked example
    result = run_golfsim("score", "K 5 K / 3 5 K", "--house", "super_kings", "--format", "json")
    assert json.loads(result.stdout)["score"] == 1
