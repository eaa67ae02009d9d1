"""Sampled worlds: each one agrees with everything the player to move sees, and over many samples a face-down card
is distributed as the unseen counts say; scratch arrays and the sight layout round-trip."""

from collections import Counter

import numpy as np
import pytest
from numba import njit
from scipy.stats import chi2

from golfsim.core.engine import apply_action, deal_shuffled, legal_mask
from golfsim.core.rng import deal_state
from golfsim.core.rules import (
    R_HID_SIZE,
    R_HID_STOCK,
    R_NCARDS,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PUB_SIZE,
    Rules,
)
from golfsim.core.spec import (
    DISCARD_N,
    DONE,
    DRAW_STOCK,
    HELD,
    HID_DTYPE,
    HOLD,
    NUM_ACTIONS,
    PASS,
    PHASE,
    PUB_DTYPE,
    RECYCLES,
    STOCK_N,
    THROW_DRAWN,
)
from golfsim.core.worlds import (
    MAX_CARDS,
    determinize,
    fill_sight,
    has_sight,
    read_sight,
    sight_size,
    stack_float64,
    stack_like,
)

VARIANTS = [
    Rules(),
    Rules(players=3, jokers="minus2"),
    Rules(players=5, end="one_last_turn", discard_and_flip="may"),
    Rules(players=12, reveal_instead_of_draw=True, jokers="minus5"),
    Rules(players=2, decks=2, opening_flips="same_column", discard_and_flip="must"),
]


def random_positions(rules, seed, count):
    """``count`` positions ``(pub, hid)`` of deals played by random legal moves that mostly draw and throw away (so
    that deals run long and many positions are past a stock recycle), snapshotted at random moments."""
    packed = rules.pack()
    rng = np.random.default_rng(seed)
    pub = np.zeros(packed[R_PUB_SIZE], dtype=PUB_DTYPE)
    hid = np.zeros(packed[R_HID_SIZE], dtype=HID_DTYPE)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    deal_rng = np.zeros(1, dtype=np.uint64)
    out = []
    deal = 0
    while len(out) < count:
        deal_rng[0] = deal_state(seed, deal, 0)
        deal_shuffled(pub, hid, packed, deal_rng, 0, deal % rules.players, np.zeros(rules.players, np.int32))
        deal += 1
        while pub[PHASE] != DONE and len(out) < count:
            if rng.random() < 0.08:
                out.append((pub.copy(), hid.copy()))
            legal_mask(pub, packed, mask)
            stalling = [a for a in (DRAW_STOCK, THROW_DRAWN, PASS) if mask[a]]
            if stalling and rng.random() < 0.9:
                action = stalling[0]
            else:
                action = int(rng.choice(np.flatnonzero(mask)))
            apply_action(pub, hid, packed, deal_rng, action)
    return out


def sample_world(pub, packed, stream_state):
    world = np.full(packed[R_HID_SIZE], -99, dtype=HID_DTYPE)
    pool = np.zeros(MAX_CARDS, dtype=np.int16)
    rng = np.array([stream_state], dtype=np.uint64)
    determinize(pub, packed, rng, 0, world, pool)
    return world


def check_world_matches(pub, world, rules):
    """Everything the player to move sees, read off ``pub``, holds in the world."""
    packed = rules.pack()
    ov, hs = int(packed[R_OFF_VIEW]), int(packed[R_HID_STOCK])
    view = pub[ov:ov + 6 * rules.players]
    layout = world[:6 * rules.players]
    up = view >= 0
    assert np.array_equal(layout[up], view[up]), "a face-up card differs"
    stock = world[hs:hs + int(pub[STOCK_N])]
    unseen = Counter({r: int(n) for r, n in enumerate(pub[packed[R_OFF_UNSEEN]:packed[R_OFF_UNSEEN] + 14]) if n})
    face_down = Counter(int(c) for c in layout[~up])
    if pub[RECYCLES] > 0:
        known = pub[packed[R_OFF_STOCK_KNOWN]:packed[R_OFF_STOCK_KNOWN] + 14]
        assert face_down == unseen
        assert Counter(int(c) for c in stock) == Counter({r: int(n) for r, n in enumerate(known) if n})
    else:
        assert face_down + Counter(int(c) for c in stock) == unseen
    # and so the whole pack is there exactly once: layouts, stock, discard pile and a held card
    discard = pub[packed[R_OFF_DISCARD]:packed[R_OFF_DISCARD] + int(pub[DISCARD_N])]
    everything = Counter(int(c) for c in np.concatenate([layout, stock, discard]))
    if pub[PHASE] == HOLD:
        everything[int(pub[HELD])] += 1
    assert everything == Counter({r: int(n) for r, n in enumerate(rules.card_counts()) if n})
    assert world[hs + packed[R_NCARDS]] == 0  # the stock order is fixed


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
def test_every_world_agrees_with_what_the_player_sees(rules):
    positions = random_positions(rules, seed=5, count=150)
    if rules.discard_and_flip != "must":  # (with "must" every throw turns a card up: the deal ends in a few turns)
        assert any(p[RECYCLES] > 0 for p, _ in positions)
    assert any(p[PHASE] == HOLD for p, _ in positions)
    packed = rules.pack()
    for i, (pub, _) in enumerate(positions):
        for s in range(3):
            check_world_matches(pub, sample_world(pub, packed, 1000 * i + s), rules)


@pytest.mark.parametrize("rules", VARIANTS[:3], ids=lambda r: r.describe())
def test_a_world_plays_on_to_the_end_of_the_deal(rules):
    packed = rules.pack()
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    rng = np.random.default_rng(3)
    for i, (pub, _) in enumerate(random_positions(rules, seed=9, count=40)):
        world = sample_world(pub, packed, i)
        pub = pub.copy()
        for _ in range(5000):
            if pub[PHASE] == DONE:
                break
            legal_mask(pub, packed, mask)
            apply_action(pub, world, packed, np.array([i], dtype=np.uint64), int(rng.choice(np.flatnonzero(mask))))
        assert pub[PHASE] == DONE
        ov = int(packed[R_OFF_VIEW])
        assert np.array_equal(pub[ov:ov + 6 * rules.players], world[:6 * rules.players])


def chi_square_matches(observed: Counter, counts, samples):
    """True when ``observed`` rank frequencies fit ``counts / counts.sum()`` at the 0.1% level."""
    ranks = [r for r in range(14) if counts[r] > 0]
    assert set(observed) <= set(ranks), "a rank with no unseen copy was drawn"
    expected = np.array([counts[r] for r in ranks], dtype=float) / counts.sum() * samples
    seen = np.array([observed[r] for r in ranks], dtype=float)
    stat = ((seen - expected) ** 2 / expected).sum()
    return stat < chi2.ppf(0.999, len(ranks) - 1)


def _position_with(rules, seed, predicate):
    for pub, hid in random_positions(rules, seed, 400):
        if predicate(pub):
            return pub, hid
    raise AssertionError("no such position in 400 samples")


@pytest.mark.parametrize("recycled", [False, True])
def test_a_face_down_card_is_distributed_as_the_unseen_counts(recycled):
    rules = Rules(players=3)
    packed = rules.pack()
    ov, ou = int(packed[R_OFF_VIEW]), int(packed[R_OFF_UNSEEN])
    pub, _ = _position_with(rules, 21, lambda p: (p[RECYCLES] > 0) == recycled and (p[ov:ov + 18] < 0).any()
                            and (p[PHASE] == HOLD) == recycled)
    k = int(np.flatnonzero(pub[ov:ov + 18] < 0)[-1])
    samples = 20_000
    observed = Counter(int(sample_world(pub, packed, 77 + s)[k]) for s in range(samples))
    counts = pub[ou:ou + 14].astype(int)
    assert chi_square_matches(observed, counts, samples)
    if recycled:  # the top of the stock comes from the known recycled cards
        hs = int(packed[R_HID_STOCK])
        top = Counter(int(sample_world(pub, packed, 5 + s)[hs + pub[STOCK_N] - 1]) for s in range(samples))
        known = pub[packed[R_OFF_STOCK_KNOWN]:packed[R_OFF_STOCK_KNOWN] + 14].astype(int)
        assert chi_square_matches(top, known, samples)


def test_the_chi_square_check_rejects_a_wrong_distribution():
    counts = np.array([0] + [4] * 13)
    biased = Counter({r: 1538 for r in range(1, 14)})
    biased[13] += 600  # kings drawn 40% too often
    assert not chi_square_matches(biased, counts, sum(biased.values()))


def test_sight_carries_the_true_state_and_is_recognised():
    rules = Rules(players=4)
    packed = rules.pack()
    pub, hid = random_positions(rules, seed=2, count=1)[0]
    sight = np.zeros(sight_size(packed), dtype=PUB_DTYPE)
    deal_rng = np.array([0xFEDCBA9876543210], dtype=np.uint64)
    fill_sight(sight, pub, hid, packed, deal_rng)
    assert np.array_equal(sight[:packed[R_PUB_SIZE]], pub)
    hid_back = np.zeros_like(hid)
    rng_back = np.zeros(1, dtype=np.uint64)
    read_sight(sight, packed, hid_back, rng_back)
    assert np.array_equal(hid_back, hid)
    assert rng_back[0] == deal_rng[0]
    assert has_sight(sight, packed)
    assert not has_sight(pub, packed)


@njit(cache=True, _nrt=False)  # without reference counting: allocating on the heap would not compile
def _reverse_on_the_stack(values):
    scratch = stack_like(values, 8)
    weights = stack_float64(8)
    n = values.shape[0]
    for i in range(n):
        scratch[i] = values[n - 1 - i]
        weights[i] = 0.5 * i
    total = 0.0
    for i in range(n):
        total += scratch[i] * weights[i]
    return total


def test_stack_scratch_arrays_hold_what_is_written():
    values = np.array([3, -1, 4, 1, 5], dtype=np.int32)
    assert _reverse_on_the_stack(values) == 0.5 * (0 * 5 + 1 * 1 + 2 * 4 + 3 * -1 + 4 * 3)
