"""Card codes and layout text."""

import pytest

from golfsim.core.cards import HIDDEN, format_layout, parse_card, parse_layout, rank_name


def test_parse_layout_positions_follow_rows():
    assert parse_layout("8 K 2 / 8 Q 3") == [8, 13, 2, 8, 12, 3]


def test_every_spelling_of_a_rank():
    assert [parse_card(t) for t in ("a", "1", "T", "10", "j", "Q", "k", "x")] == [1, 1, 10, 10, 11, 12, 13, 0]


def test_format_round_trips_and_hides_face_down_cards():
    cards = parse_layout("A 2 3 / J Q K")
    assert format_layout(cards) == "A 2 3 / J Q K"
    assert format_layout(cards, [1, 0, 1, 0, 0, 1]) == "A ? 3 / ? ? K"
    assert rank_name(HIDDEN) == "?"


@pytest.mark.parametrize("bad", ["", "11", "QQ", "-2"])
def test_bad_card(bad):
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(bad)


def test_bad_rank_code():
    with pytest.raises(ValueError, match="not a card code"):
        rank_name(15)


def test_a_one_eyed_jack_is_code_14_written_j0():
    assert rank_name(14) == "J0"
    assert [parse_card(t) for t in ("J0", "JH", "js", "J♥", "J♠", "J")] == [14, 14, 14, 14, 14, 11]


def test_layout_must_be_text():
    with pytest.raises(ValueError, match="not list"):
        parse_layout([1, 2, 3])


def test_a_bar_between_the_rows_is_read_as_a_slash_as_in_a_hint_position():
    assert parse_layout("8 K 2 | 8 Q 3") == parse_layout("8 K 2 / 8 Q 3") == [8, 13, 2, 8, 12, 3]
