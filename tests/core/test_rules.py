"""Rules: defaults from RULES.md, every option validated, impossible combinations refused."""

import re

import pytest

from golfsim.core.rules import R_NCARDS, R_PLAYERS, R_POINTS, Rules


def test_defaults_are_the_published_game():
    r = Rules()
    assert (r.players, r.decks, r.jokers, r.holes) == (2, 1, "none", 9)
    assert (r.opening_flips, r.discard_and_flip, r.end, r.twos_pair) == ("any", "off", "immediate", "zero")
    assert r.reveal_instead_of_draw is False and r.four_of_a_kind_bonus == 0
    assert list(r.points()) == [0, 1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, 0]  # the last: a one-eyed jack


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (4, 1), (5, 2), (8, 2), (9, 3), (12, 3)])
def test_auto_decks_follow_the_published_table(players, decks):
    assert Rules(players=players).decks == decks


def test_jokers_change_points_and_pack():
    r = Rules(jokers="minus2")
    assert r.points()[0] == -2 and r.points()[2] == 2 and r.n_cards == 54
    assert Rules(jokers="minus5").points()[2] == -2
    assert Rules(jokers="minus3", decks=2).card_counts()[0] == 4


def test_option_spellings_with_dashes_are_accepted():
    assert Rules(end="one-last-turn").end == "one_last_turn"
    assert Rules(opening_flips="Same-Column").opening_flips == "same_column"


def test_pack_carries_the_options():
    packed = Rules(players=3, jokers="minus2").pack()
    assert packed[R_PLAYERS] == 3 and packed[R_NCARDS] == 54 and packed[R_POINTS + 2] == 2


def test_replace_keeps_auto_decks_when_players_change():
    assert Rules(players=2).replace(players=6).decks == 2
    assert Rules(players=2, decks=2).replace(players=3).decks == 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "players must be from 2 to 12"),
        ({"players": 13}, "players must be from 2 to 12"),
        ({"players": 2.5}, "players must be a whole number"),
        ({"players": 9, "decks": 1}, "9 players need at least 55 cards"),
        ({"decks": 0}, "decks must be from 1"),
        ({"decks": "two"}, "decks must be 'auto'"),
        ({"jokers": "wild"}, "jokers='wild' is not allowed; choose one of none, minus2"),
        ({"opening_flips": "diagonal"}, "opening_flips"),
        ({"discard_and_flip": "sometimes"}, "discard_and_flip"),
        ({"end": "never"}, "end='never'"),
        ({"twos_pair": "double"}, "twos_pair"),
        ({"reveal_instead_of_draw": "yes"}, "True or False"),
        ({"holes": 0}, "holes must be from 1"),
        ({"turn_cap": -5}, "turn_cap must be from 1"),
        ({"twos_pair": "keep_negative", "jokers": "minus2"}, "twos are worth \\+2"),
    ],
)
def test_bad_options_say_what_is_wrong_and_what_is_allowed(options, message):
    with pytest.raises(ValueError, match=message):
        Rules(**options)


def test_rules_are_immutable():
    with pytest.raises(AttributeError):
        Rules().players = 3  # type: ignore[misc]


def test_describe_names_the_changed_options():
    assert Rules().describe() == "2 players, default rules"
    assert Rules(players=3, end="one_last_turn").describe() == "3 players, end=one_last_turn"


# ---------------------------------------------------------------- house rules
@pytest.mark.parametrize(("options", "message"), [
    ({"initial_flips": 3}, "initial_flips must be from 0 to 2"),
    ({"initial_flips": "one"}, "initial_flips must be a whole number"),
    ({"super_kings": "yes"}, "super_kings must be True or False"),
    ({"eagle_eye": True}, "eagle_eye sets the jokers' value, but the rules have no jokers"),
    ({"initial_flips": 1, "opening_flips": "same_column"}, "use opening_flips='any'"),
    ({"discard_and_flip": "sometimes"}, "choose one of off, may, must, endgame"),
])
def test_a_bad_house_rule_is_refused_with_a_clear_message(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Rules(**options)


def test_house_options_at_their_default_stay_out_of_the_record_and_on_ones_round_trip():
    assert Rules().to_dict() == {"players": 2, "decks": 1, "jokers": "none", "opening_flips": "any",
                                 "reveal_instead_of_draw": False, "discard_and_flip": "off", "end": "immediate",
                                 "twos_pair": "zero", "four_of_a_kind_bonus": 0, "holes": 9, "turn_cap": 1000}
    rules = Rules(initial_flips=1, super_kings=True, discard_and_flip="endgame")
    assert rules.house_rules() == {"initial_flips": 1, "super_kings": True}
    assert Rules(**rules.to_dict()) == rules
    assert rules.describe() == "2 players, discard_and_flip=endgame, initial_flips=1, super_kings=True"


def test_house_options_parse_by_the_web_games_names():
    from golfsim.core.rules import house_options

    assert house_options("super_kings, knock_penalty,initial_flips=1") == {
        "super_kings": True, "knock_penalty": True, "initial_flips": 1}
    assert house_options("flip_mode=always") == {"discard_and_flip": "must"}
    assert house_options("flip_mode=endgame,ten_penny=off") == {"discard_and_flip": "endgame", "ten_penny": False}
    assert house_options("") == {}


def test_the_card_value_rules_change_the_packed_points():
    assert Rules(super_kings=True).points()[13] == -2
    assert Rules(ten_penny=True).points()[10] == 1
    assert Rules(jokers="minus5", eagle_eye=True).points()[0] == 2
