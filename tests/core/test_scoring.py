"""The layout scorer reproduces every worked example of RULES.md, through the Python API."""

import pytest

from golfsim.core.rules import Rules
from golfsim.core.scoring import score_layout
from tests.worked_examples import WORKED_EXAMPLES, rules_for


@pytest.mark.parametrize(("layout", "options", "expected"), WORKED_EXAMPLES)
def test_worked_examples(layout, options, expected):
    assert score_layout(layout, rules_for(options))["score"] == expected


def test_columns_explain_the_score():
    result = score_layout("8 K 2 / 8 Q 3")
    assert [c["points"] for c in result["columns"]] == [0, 10, 1]
    assert result["columns"][0]["why"] == "pair of 8 scores 0"


def test_lowercase_and_ten_spellings():
    assert score_layout("t 10 k / q j a")["score"] == score_layout("10 T K / Q J A")["score"] == 20 + 20 + 1


def test_jokers_at_other_values():
    # a joker at -5 over a 4 is -1; twos stay -2 with joker values other than minus2
    assert score_layout("X 2 5 / 4 3 9", Rules(jokers="minus5"))["score"] == -1 + 1 + 14
    assert score_layout("X 2 5 / X 3 9", Rules(jokers="zero"))["score"] == 0 + 1 + 14


def test_bonus_is_counted_once_per_rank():
    result = score_layout("7 7 7 / 7 7 7", Rules(decks=2, four_of_a_kind_bonus=-10))
    assert result["score"] == -10
    assert result["bonus"] == -10


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ("8 K 2 8 Q 3", "two rows"),
        ("8 K / 8 Q 3", "top row must have 3 cards"),
        ("8 K 2 / 8 Q Z", "'Z' is not a card"),
        ("8 K 11 / 8 Q 3", "'11' is not a card"),
        ("X K 2 / 8 Q 3", "joker"),
    ],
)
def test_malformed_layouts_say_what_is_wrong(layout, message):
    with pytest.raises(ValueError, match=message):
        score_layout(layout)
