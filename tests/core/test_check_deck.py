"""``Rules.check_deck``: the one deck check every dealer (Game, Match) uses."""

from __future__ import annotations

import re

import numpy as np
import pytest

from golfsim.core.rules import Rules
from golfsim.core.spec import HID_DTYPE

TWO = Rules(players=2)
PACK = [rank for rank in range(1, 14) for _ in range(4)]  # one 52-card deck without jokers, written out by hand


def test_the_pack_in_any_order_is_accepted_as_codes_or_names():
    shuffled = np.random.default_rng(3).permutation(PACK)
    assert TWO.check_deck(shuffled).tolist() == shuffled.tolist()
    assert TWO.check_deck(shuffled).dtype == HID_DTYPE
    names = {1: "A", 11: "J", 12: "Q", 13: "K"}
    assert TWO.check_deck([names.get(r, str(r)) for r in PACK]).tolist() == PACK


def test_jokers_are_part_of_the_pack_when_the_rules_use_them():
    jokers = Rules(players=2, jokers="minus2")
    assert jokers.check_deck([0, 0, *PACK]).tolist() == [0, 0, *PACK]
    with pytest.raises(ValueError, match="54 rank codes"):
        jokers.check_deck(PACK)


@pytest.mark.parametrize(("deck", "says"), [
    (PACK[:-1], "got 51 cards"),
    ([1] * 52, r"A: 52 instead of 4, 2: 0 instead of 4"),
    ([0, *PACK[1:]], r"X: 1 instead of 0, A: 3 instead of 4"),
    ([True] * 52, "entries are rank codes 0..13 or card names"),
    ([14, *PACK[1:]], "entries are rank codes 0..13 or card names"),
])
def test_a_deck_that_is_not_the_pack_is_refused_saying_why(deck, says):
    with pytest.raises(ValueError, match="deck must be the 52 rank codes of the pack these rules use") as info:
        TWO.check_deck(deck)
    assert re.search(says, str(info.value))


def test_a_card_name_that_is_no_card_is_named():
    with pytest.raises(ValueError, match="'Z' is not a card"):
        TWO.check_deck(["Z"] * 52)
