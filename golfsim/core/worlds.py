"""Search support: sampled worlds, scratch arrays that cost no allocation, and the true state for an oracle.

A searching agent plays the deal forward many times from the position it is in. It needs three things the
plain agent contract ([`golfsim.agents.base`][]) does not give it, and this module provides them:

Worlds (``determinize``)
    A *world* is a hidden state ``hid`` consistent with everything the player to move knows (``pub``): every
    face-up card where ``pub`` shows it, and the face-down cards of every player and the stock drawn at random from
    the cards nobody has seen. Before the first recycle those are the ``unseen`` counts (face-down cards and stock
    together). After a recycle, ``unseen`` counts exactly the face-down cards and the stock is exactly the
    ``stock_known`` cards, so each part is drawn from its own counts. A drawn card in HOLD is in ``pub[HELD]``,
    already out of both counts, so it is respected without anything special. The world's stock is fully ordered
    (cursor 0): the engine then draws it top first without touching the deal stream, which is used again only for
    the lazy shuffle after a recycle. Running [`golfsim.core.engine.apply_action`][] on a copy of ``pub`` and the
    world plays the deal forward exactly as the simulator would.

Scratch arrays (``stack_like``, ``stack_int16``, ``stack_float64``, ``stack_uint64``)
    A fixed-size array on the calling function's stack frame, sized by a compile-time constant (``MAX_PUB_SIZE``,
    ``MAX_HID_SIZE``, ``MAX_CARDS`` fit every rule set). It costs no heap allocation and no reference counting,
    so a search agent compiled with `golfsim._numba.jit.hot` allocates nothing per decision and stays cacheable,
    with the agent contract unchanged (built in `golfsim._numba.stack`; heap arrays under its fallback). Each
    call gets its own arrays, so concurrent threads never share scratch. Call them in the agent's own function body
    and never return them: the memory lives as long as that call.

The true state (``sight``)
    An agent registered with ``sees_hidden=True`` (the ``oracle``) is called by the batch simulator with a longer
    ``pub``: the public state, then ``hid`` from offset ``rules[R_PUB_SIZE]``, then the deal stream's 64-bit
    state as four int16 words (low first). [`sight_size`][golfsim.core.worlds.sight_size] is its length and
    [`fill_sight`][golfsim.core.worlds.fill_sight] writes it; [`has_sight`][golfsim.core.worlds.has_sight] tells an
    agent whether it was given one. Every other agent gets the plain ``pub``.
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot, leaf
from golfsim._numba.stack import stack_float64, stack_int16, stack_like, stack_uint64  # noqa: F401 -- re-exported
from golfsim.core.cards import NUM_CODES
from golfsim.core.rng import below
from golfsim.core.rules import (
    MAX_DECKS,
    MAX_PLAYERS,
    PUB_HEADER,
    R_CODES,
    R_HID_SIZE,
    R_HID_STOCK,
    R_NCARDS,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    R_PUB_SIZE,
)
from golfsim.core.spec import RECYCLES, STOCK_N

MAX_CARDS = MAX_DECKS * 54
"""Most cards a pack can hold (eight decks with jokers)."""
MAX_PUB_SIZE = PUB_HEADER + MAX_PLAYERS * 7 + 2 * NUM_CODES + MAX_CARDS
"""Length of the largest ``pub`` (``rules[R_PUB_SIZE]`` is never more)."""
MAX_HID_SIZE = 6 * MAX_PLAYERS + MAX_CARDS + 1
"""Length of the largest ``hid``."""
RNG_WORDS = 4


# ---------------------------------------------------------------- worlds
@leaf
def _take_random(pool, m, rng, stream):
    """Remove a uniformly chosen card from the first ``m`` of ``pool`` and return it."""
    j = below(rng, stream, m)
    card = pool[j]
    pool[j] = pool[m - 1]
    return card


@leaf
def _fill_pool(pub, rules, offset, pool):
    """Write the card codes counted at ``pub[offset:offset + rules[R_CODES]]`` into ``pool``; return how many."""
    m = 0
    for r in range(rules[R_CODES]):
        for _ in range(pub[offset + r]):
            pool[m] = r
            m += 1
    return m


@hot
def determinize(pub, rules, rng, stream, hid, pool):
    """Fill ``hid`` with a world consistent with ``pub``, drawn with stream ``rng[stream]``.

    Parameters
    ----------
    pub, rules : arrays
        The public state and ``Rules.pack()``.
    rng : uint64 array
        Random streams; ``rng[stream]`` is advanced (an agent passes its own ``agent_rng, player``).
    hid : int16 array
        At least ``rules[R_HID_SIZE]`` long; every slot a deal reads is written.
    pool : int16 array
        Scratch of at least ``rules[R_NCARDS]`` items.

    Returns
    -------
    int
        The number of cards that were drawn at random (face-down cards plus stock).
    """
    players = rules[R_PLAYERS]
    ov = rules[R_OFF_VIEW]
    hs = rules[R_HID_STOCK]
    m = _fill_pool(pub, rules, rules[R_OFF_UNSEEN], pool)
    drawn = 0
    for i in range(6 * players):
        card = pub[ov + i]
        if card < 0:
            card = _take_random(pool, m, rng, stream)
            m -= 1
            drawn += 1
        hid[i] = card
    if pub[RECYCLES] > 0:
        m = _fill_pool(pub, rules, rules[R_OFF_STOCK_KNOWN], pool)
    stock_n = pub[STOCK_N]
    for s in range(stock_n):
        hid[hs + s] = _take_random(pool, m, rng, stream)
        m -= 1
        drawn += 1
    hid[hs + rules[R_NCARDS]] = 0  # the stock order is fixed: nothing left to shuffle lazily
    return drawn


@leaf
def copy_state(pub, hid, rules, pub_out, hid_out):
    """Copy a deal's ``pub`` and ``hid`` into ``pub_out`` and ``hid_out`` (each at least as long)."""
    for i in range(rules[R_PUB_SIZE]):
        pub_out[i] = pub[i]
    for i in range(rules[R_HID_SIZE]):
        hid_out[i] = hid[i]


# ---------------------------------------------------------------- the true state, for an oracle
def sight_size(rules: np.ndarray) -> int:
    """Length of the array an agent that sees hidden cards is given as ``pub``."""
    return int(rules[R_PUB_SIZE] + rules[R_HID_SIZE] + RNG_WORDS)


@leaf
def fill_sight(sight, pub, hid, rules, deal_rng):
    """Write ``pub``, then ``hid``, then the deal stream's state ``deal_rng[0]`` (four int16 words) into ``sight``."""
    n_pub = rules[R_PUB_SIZE]
    n_hid = rules[R_HID_SIZE]
    for i in range(n_pub):
        sight[i] = pub[i]
    for i in range(n_hid):
        sight[n_pub + i] = hid[i]
    state = deal_rng[0]
    for w in range(RNG_WORDS):
        sight[n_pub + n_hid + w] = np.int16(np.int64((state >> np.uint64(16 * w)) & np.uint64(0xFFFF)) - 32768)


@leaf
def has_sight(pub, rules):
    """True when ``pub`` was given with the true state behind it ([`fill_sight`][golfsim.core.worlds.fill_sight])."""
    return pub.shape[0] >= rules[R_PUB_SIZE] + rules[R_HID_SIZE] + RNG_WORDS


@leaf
def read_sight(sight, rules, hid_out, deal_rng_out):
    """Copy the true ``hid`` and deal stream state out of a sight array (into ``deal_rng_out[0]``)."""
    n_pub = rules[R_PUB_SIZE]
    n_hid = rules[R_HID_SIZE]
    for i in range(n_hid):
        hid_out[i] = sight[n_pub + i]
    state = np.uint64(0)
    for w in range(RNG_WORDS):
        word = np.uint64(np.int64(sight[n_pub + n_hid + w]) + 32768)
        state |= word << np.uint64(16 * w)
    deal_rng_out[0] = state
