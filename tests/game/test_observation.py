"""The observation vector holds exactly what its seat may know: cards it cannot see never change it."""

import numpy as np
import pytest

from golfsim.core.engine import shuffled_deck
from golfsim.core.rng import deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, HOLD, PHASE
from golfsim.game import observation
from golfsim.interop.match import Match


def deck(rules, seed):
    return shuffled_deck(rules.pack(), np.array([deal_state(seed, 0, 0)], dtype=np.uint64))


def swap(cards, i, j):
    out = cards.copy()
    out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("rules", [Rules(players=2, holes=1), Rules(players=3, holes=1, jokers="minus2")])
def test_a_face_down_card_swapped_with_a_stock_card_changes_no_observation_until_it_shows(rules):
    """Two decks that differ in two cards nobody has seen yet: one in seat 1's layout, one deep in the stock. Every
    seat's observation is the same in both games at every decision until one of the two cards is turned up."""
    p = rules.players
    compared = 0
    for seed in range(10):
        a = deck(rules, seed)
        # deck index p * 5 + 1 is seat 1's position 5; the last deck card is the bottom of the stock
        j = len(a) - 1
        if a[p * 5 + 1] == a[j]:
            continue
        b = swap(a, p * 5 + 1, j)
        ma, mb = Match(rules), Match(rules)
        ma.start(seed, deck=a)
        mb.start(seed, deck=b)
        rng = np.random.default_rng(seed)
        while not ma.over:
            seen_a = [ma.observe(s).tolist() for s in range(p)]
            seen_b = [mb.observe(s).tolist() for s in range(p)]
            if ma.observe(0)[observation.VIEWS_AT + 6 + 5] >= 0:  # seat 1's position 5 is face up: they differ
                break
            assert seen_a == seen_b
            compared += 1
            action = int(rng.choice(np.flatnonzero(ma.legal_mask())))
            ma.play(action)
            mb.play(action)
    assert compared > 50


def test_a_drawn_card_is_seen_by_the_drawer_only_and_counts_as_unseen_for_the_others():
    rules = Rules(players=3, holes=1)
    m = Match(rules)
    m.start(seed=3)
    while DRAW_STOCK not in np.flatnonzero(m.legal_mask()):
        m.play(int(np.flatnonzero(m.legal_mask())[0]))
    drawer = m.current
    before = [m.observe(s).copy() for s in range(3)]
    m.play(DRAW_STOCK)
    assert m.pub[PHASE] == HOLD
    held = int(m.pub[2])
    unseen = observation.offsets(3)["unseen"]
    mine = m.observe(drawer)
    assert mine[observation.HELD_AT] == held
    assert mine[unseen + held] == before[drawer][unseen + held] - 1
    for other in (s for s in range(3) if s != drawer):
        theirs = m.observe(other)
        assert theirs[observation.HELD_AT] == -1
        # the only change an onlooker sees is one card fewer in the stock and the phase
        changed = np.flatnonzero(theirs != before[other])
        assert set(changed) == {1, 2, observation.STOCK_AT}


def test_the_vector_is_seen_from_the_observers_seat():
    rules = Rules(players=3, holes=1)
    m = Match(rules)
    m.start(seed=1)
    for _ in range(6):  # every opening flip
        m.play(int(np.flatnonzero(m.legal_mask())[-1]))
    views = [m.observe(s)[observation.VIEWS_AT: observation.VIEWS_AT + 18].reshape(3, 6) for s in range(3)]
    for s in range(3):
        np.testing.assert_array_equal(views[s], np.roll(views[0], -s, axis=0))
    assert [int(m.observe(s)[observation.TO_MOVE_AT]) for s in range(3)] == [0, 2, 1]


def test_every_entry_stays_within_the_declared_bounds():
    rules = Rules(players=4, holes=2, jokers="minus5", four_of_a_kind_bonus=-20, end="one_last_turn")
    low, high = observation.bounds(rules)
    m = Match(rules)
    rng = np.random.default_rng(0)
    for game in range(20):
        m.start(seed=2, game=game)
        while not m.over:
            for s in range(4):
                v = m.observe(s)
                assert np.all(v >= low) and np.all(v <= high)
            m.play(int(rng.choice(np.flatnonzero(m.legal_mask()))))
