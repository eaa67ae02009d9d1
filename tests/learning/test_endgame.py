"""The exact end of a deal (golfsim.agents.learned.endgame) against a plain enumeration written here, and against
the mean deal-score difference of many deals played out from sampled hidden cards."""

from __future__ import annotations

import numpy as np
import pytest

from golfsim.agents.learned.endgame import exact_values
from golfsim.core.engine import apply_action
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DRAW_STOCK,
    HELD,
    NUM_ACTIONS,
    PHASE,
    PLACE_DRAWN,
    R_HID_SIZE,
    R_HID_STOCK,
    R_NCARDS,
    R_OFF_DISCARD,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_POINTS,
    START,
    STOCK_N,
    TAKE_DISCARD,
    THROW_DRAWN,
)
from tests.agents.positions import position

LAST_TURN = Rules(end="one_last_turn")


# ---------------------------------------------------------------- a plain enumeration (the reference)
def _points(packed):
    return [int(packed[R_POINTS + r]) for r in range(14)]


def _column(a, b, pts):
    return 0 if a == b else pts[a] + pts[b]


def _layout(view, counts, pts):
    """Expected score of a layout (-1 face down) whose face-down cards come from ``counts`` without replacement."""
    n = sum(counts)
    total = 0.0
    for c in range(3):
        a, b = view[c], view[c + 3]
        if a >= 0 and b >= 0:
            total += _column(a, b, pts)
        elif a < 0 and b < 0:
            total += sum(counts[r] * (counts[s] - (r == s)) * _column(r, s, pts)
                         for r in range(14) for s in range(14)) / (n * (n - 1))
        else:
            x = a if a >= 0 else b
            total += sum(counts[r] * _column(x, r, pts) for r in range(14)) / n
    return total


def _views(pub, packed):
    ov = int(packed[R_OFF_VIEW])
    return [[int(x) for x in pub[ov + 6 * p:ov + 6 * p + 6]] for p in range(2)]


def _counts(pub, packed):
    ou = int(packed[R_OFF_UNSEEN])
    return [int(x) for x in pub[ou:ou + 14]]


def _final(views, me, counts, pts):
    return _layout(views[me], counts, pts) - _layout(views[1 - me], counts, pts)


def _hold_values(pub, packed):
    """Reference values of a held card's moves on the last turn (two players): throw, then place at 0..5."""
    pts, views, counts, me = _points(packed), _views(pub, packed), _counts(pub, packed), int(pub[CURRENT])
    card = int(pub[HELD])
    values = {THROW_DRAWN: _final(views, me, counts, pts)}
    for k in range(6):
        placed = [list(v) for v in views]
        placed[me][k] = card
        values[PLACE_DRAWN + k] = _final(placed, me, counts, pts)
    return values


def _drawn(pub, packed, card):
    """The held state after drawing ``card`` (made by the engine)."""
    held = pub.copy()
    hid = np.zeros(int(packed[R_HID_SIZE]), dtype=np.int16)
    hid[int(packed[R_HID_STOCK]) + int(held[STOCK_N]) - 1] = card
    apply_action(held, hid, packed, np.ones(1, dtype=np.uint64), DRAW_STOCK)
    return held


def _start_values(pub, packed):
    """Reference values of the last turn's start: taking the discard to each position, and drawing."""
    pts, views, counts, me = _points(packed), _views(pub, packed), _counts(pub, packed), int(pub[CURRENT])
    top = int(pub[int(packed[R_OFF_DISCARD]) + int(pub[DISCARD_N]) - 1])
    values = {}
    for k in range(6):
        placed = [list(v) for v in views]
        placed[me][k] = top
        values[TAKE_DISCARD + k] = _final(placed, me, counts, pts)
    values[DRAW_STOCK] = sum(counts[c] * min(_hold_values(_drawn(pub, packed, c), packed).values())
                             for c in range(14) if counts[c]) / sum(counts)
    return values


def _going_out_value(pub, packed, action, k):
    """Reference value of going out at two players under one_last_turn: over the covered card, minus the
    opponent's best last turn."""
    counts = _counts(pub, packed)
    total = 0.0
    for r in range(14):
        if counts[r]:
            after = pub.copy()
            hid = np.zeros(int(packed[R_HID_SIZE]), dtype=np.int16)
            hid[6 * int(pub[CURRENT]) + k] = r
            apply_action(after, hid, packed, np.ones(1, dtype=np.uint64), action)
            assert after[PHASE] == START and after[CURRENT] != pub[CURRENT]
            total += counts[r] * -min(_start_values(after, packed).values())
    return total / sum(counts)


def _exact(pos):
    values = np.zeros(NUM_ACTIONS)
    exact_values(pos.pub, pos.packed, np.int64(pos.player), values)
    return values


# ---------------------------------------------------------------- positions
LAST_START = dict(layouts=["K 2 K / K 2 ?", "6 6 7 / 6 ? 9"], rules=LAST_TURN, ender=1, final_left=1, discard="7")
LAST_HELD = dict(layouts=["K ? K / 5 2 ?", "6 6 7 / 6 6 9"], rules=LAST_TURN, ender=1, final_left=1, held="5")
GO_OUT = dict(layouts=["K 2 A / K 2 ?", "Q J ? / 10 ? 9"], rules=LAST_TURN, discard="A")


def test_the_last_turns_start_matches_the_enumeration():
    pos = position(**LAST_START)
    values = _exact(pos)
    reference = _start_values(pos.pub, pos.packed)
    assert set(np.flatnonzero(~np.isnan(values))) == set(reference)
    for a, v in reference.items():
        assert values[a] == pytest.approx(v, abs=1e-9), a


def test_a_held_card_on_the_last_turn_matches_the_enumeration():
    pos = position(**LAST_HELD)
    values = _exact(pos)
    reference = _hold_values(pos.pub, pos.packed)
    assert set(np.flatnonzero(~np.isnan(values))) == set(reference)
    for a, v in reference.items():
        assert values[a] == pytest.approx(v, abs=1e-9), a


def test_going_out_under_one_last_turn_matches_the_enumeration_and_nothing_else_is_exact():
    pos = position(**GO_OUT)
    values = _exact(pos)
    assert list(np.flatnonzero(~np.isnan(values))) == [TAKE_DISCARD + 5]
    assert values[TAKE_DISCARD + 5] == pytest.approx(_going_out_value(pos.pub, pos.packed, TAKE_DISCARD + 5, 5),
                                                     abs=1e-9)


def test_going_out_under_immediate_end_is_the_layouts_as_they_stand():
    pos = position(layouts=GO_OUT["layouts"], held="A")
    values = _exact(pos)
    views, counts, pts = _views(pos.pub, pos.packed), _counts(pos.pub, pos.packed), _points(pos.packed)
    views[0][5] = int(pos.pub[HELD])
    assert list(np.flatnonzero(~np.isnan(values))) == [PLACE_DRAWN + 5]
    assert values[PLACE_DRAWN + 5] == pytest.approx(_final(views, 0, counts, pts), abs=1e-9)


def test_nothing_is_exact_before_anyone_can_go_out_or_with_a_four_of_a_kind_bonus():
    assert np.all(np.isnan(_exact(position(["K 2 A / K ? ?", "Q J ? / 10 ? 9"], rules=LAST_TURN))))
    bonus = Rules(end="one_last_turn", four_of_a_kind_bonus=-10)
    assert np.all(np.isnan(_exact(position(**{**LAST_START, "rules": bonus}))))


# ---------------------------------------------------------------- against play from sampled hidden cards
def _sample_world(pos, rng):
    """A hidden state drawn uniformly from what the public state allows: the unseen cards shuffled over every
    face-down position and the stock."""
    pub, packed = pos.pub, pos.packed
    ov, hs = int(packed[R_OFF_VIEW]), int(packed[R_HID_STOCK])
    cards = [r for r, n in enumerate(_counts(pub, packed)) for _ in range(n)]
    rng.shuffle(cards)
    hid = pos.hid.copy()
    slots = [i for i in range(12) if pub[ov + i] < 0] + [hs + i for i in range(int(pub[STOCK_N]))]
    assert len(slots) == len(cards)
    for slot, card in zip(slots, cards, strict=True):
        hid[slot] = card
    hid[hs + int(packed[R_NCARDS])] = 0  # every stock slot in place: no shuffle on a draw
    return hid


def _difference(hid, packed, me):
    pts = _points(packed)
    scores = [sum(_column(int(hid[6 * p + c]), int(hid[6 * p + c + 3]), pts) for c in range(3)) for p in range(2)]
    return scores[me] - scores[1 - me]


@pytest.mark.slow
def test_going_out_exactly_equals_the_mean_of_deals_played_out_from_sampled_cards():
    # 4,000 sampled worlds: the mean deal-score difference after going out, the opponent's last turn played by
    # the best public choice, must lie within four standard errors of the exact value
    pos = position(**GO_OUT)
    exact = _exact(pos)[TAKE_DISCARD + 5]
    rng = np.random.default_rng(40)
    cache = {}
    outcomes = []
    for _ in range(4000):
        pub, hid = pos.pub.copy(), _sample_world(pos, rng)
        apply_action(pub, hid, pos.packed, np.ones(1, dtype=np.uint64), TAKE_DISCARD + 5)
        key = int(pub[int(pos.packed[R_OFF_DISCARD]) + int(pub[DISCARD_N]) - 1])  # the covered card decides
        if key not in cache:
            start = _start_values(pub, pos.packed)
            cache[key] = min(start, key=lambda a: (start[a], a))
        action = cache[key]
        apply_action(pub, hid, pos.packed, np.ones(1, dtype=np.uint64), action)
        if action == DRAW_STOCK:
            held = _hold_values(pub, pos.packed)
            apply_action(pub, hid, pos.packed, np.ones(1, dtype=np.uint64), min(held, key=lambda a: (held[a], a)))
        outcomes.append(_difference(hid, pos.packed, 0))
    outcomes = np.asarray(outcomes, dtype=float)
    margin = 4 * outcomes.std(ddof=1) / np.sqrt(outcomes.size)
    assert abs(outcomes.mean() - exact) < margin, (outcomes.mean(), exact, margin)


@pytest.mark.slow
def test_the_last_turns_draw_exactly_equals_the_mean_of_deals_played_out_from_sampled_cards():
    pos = position(**LAST_START)
    exact = _exact(pos)[DRAW_STOCK]
    rng = np.random.default_rng(41)
    outcomes = []
    for _ in range(4000):
        pub, hid = pos.pub.copy(), _sample_world(pos, rng)
        apply_action(pub, hid, pos.packed, np.ones(1, dtype=np.uint64), DRAW_STOCK)
        held = _hold_values(pub, pos.packed)
        apply_action(pub, hid, pos.packed, np.ones(1, dtype=np.uint64), min(held, key=lambda a: (held[a], a)))
        outcomes.append(_difference(hid, pos.packed, 0))
    outcomes = np.asarray(outcomes, dtype=float)
    margin = 4 * outcomes.std(ddof=1) / np.sqrt(outcomes.size)
    assert abs(outcomes.mean() - exact) < margin, (outcomes.mean(), exact, margin)
