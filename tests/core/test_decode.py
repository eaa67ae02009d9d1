"""``decode``: every action id has exactly one kind and position, as the action table of golfsim.core.spec lays
them out; every describer reads actions through it."""

from __future__ import annotations

import pytest

from golfsim.coach.hint import move_key
from golfsim.core.spec import (
    DRAW_STOCK,
    FLIP,
    KNOCK,
    NUM_ACTIONS,
    PASS,
    PLACE_DRAWN,
    REVEAL,
    TAKE_DISCARD,
    THROW_DRAWN,
    Move,
    action_name,
    decode,
)

EXPECTED = {
    **{TAKE_DISCARD + k: Move("take", k) for k in range(6)},
    DRAW_STOCK: Move("draw", -1),
    **{REVEAL + k: Move("reveal", k) for k in range(6)},
    **{PLACE_DRAWN + k: Move("place", k) for k in range(6)},
    THROW_DRAWN: Move("throw", -1),
    **{FLIP + k: Move("flip", k) for k in range(6)},
    PASS: Move("pass", -1),
    KNOCK: Move("knock", -1),
}


def test_the_table_covers_every_action_once():
    assert sorted(EXPECTED) == list(range(NUM_ACTIONS))


@pytest.mark.parametrize("action", range(NUM_ACTIONS))
def test_decode_gives_the_kind_and_position_of_the_action_table(action):
    assert decode(action) == EXPECTED[action]


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 100])
def test_ids_outside_the_table_are_refused_in_one_line(action):
    with pytest.raises(ValueError, match=f"invalid action {action}"):
        decode(action)
    assert action_name(action) == f"invalid action {action}"


def test_names_and_keys_follow_the_decoded_moves():
    assert action_name(PLACE_DRAWN + 2) == "place drawn card at 2"
    assert action_name(TAKE_DISCARD + 5) == "take discard to 5"
    assert action_name(PASS) == "pass"
    assert [move_key(a) for a in (TAKE_DISCARD, DRAW_STOCK, REVEAL + 1, PLACE_DRAWN + 5, THROW_DRAWN, FLIP + 3, PASS)] \
        == ["t1", "d", "r2", "p6", "x", "f4", "n"]
