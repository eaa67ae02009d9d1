"""Checks at the border between Python and compiled code: arrays a caller hands in, checked against the rules.

Compiled functions trust their arrays: a ``pub`` of the wrong length or with an index field out of range makes them
read or write outside the array, which can crash the interpreter. Every Python function that passes a caller's
array to compiled code runs it through `check_pub` first; `check_totals` keeps game totals inside the
int32 fields that carry them, and `check_seat` refuses a seat that is not at the table.
"""

from __future__ import annotations

import numpy as np

from golfsim.core.cards import NUM_CODES
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    ENDER,
    FINAL_LEFT,
    FIRST,
    HELD,
    HOLD,
    HOLE,
    LAST_ACTION,
    NUM_ACTIONS,
    OPEN_FIRST,
    PHASE,
    PLAYERS,
    PUB_DTYPE,
    R_CODES,
    R_COUNTS,
    R_NCARDS,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    R_PUB_SIZE,
    RECYCLES,
    RULES_SIZE,
    STOCK_N,
    TURN,
)

INT32_MIN, INT32_MAX = int(np.iinfo(np.int32).min), int(np.iinfo(np.int32).max)

_HEADER_RANGES = (
    # field, name, low, high (as functions of players P and cards N)
    (PHASE, "PHASE", lambda p, n: 0, lambda p, n: DONE),
    (CURRENT, "CURRENT", lambda p, n: 0, lambda p, n: p - 1),
    (FIRST, "FIRST", lambda p, n: 0, lambda p, n: p - 1),
    (HELD, "HELD", lambda p, n: -1, lambda p, n: NUM_CODES - 1),
    (TURN, "TURN", lambda p, n: 0, lambda p, n: INT32_MAX),
    (STOCK_N, "STOCK_N", lambda p, n: 0, lambda p, n: n - 6 * p - 1),
    (DISCARD_N, "DISCARD_N", lambda p, n: 1, lambda p, n: n - 6 * p),
    (ENDER, "ENDER", lambda p, n: -1, lambda p, n: p - 1),
    (FINAL_LEFT, "FINAL_LEFT", lambda p, n: -1, lambda p, n: p),
    (RECYCLES, "RECYCLES", lambda p, n: 0, lambda p, n: INT32_MAX),
    (HOLE, "HOLE", lambda p, n: 0, lambda p, n: INT32_MAX),
    (OPEN_FIRST, "OPEN_FIRST", lambda p, n: -1, lambda p, n: 5),
    (LAST_ACTION, "LAST_ACTION", lambda p, n: -1, lambda p, n: NUM_ACTIONS - 1),
)


def packed_rules(rules) -> np.ndarray:
    """The packed int32 rules of a [`Rules`][golfsim.core.rules.Rules] (or an already packed array, checked).

    Raises
    ------
    ValueError
        When ``rules`` is neither a ``Rules`` nor an int32 array of ``RULES_SIZE`` made by ``Rules.pack()``.
    """
    from golfsim.core.rules import Rules

    if isinstance(rules, Rules):
        return rules.pack()
    if not isinstance(rules, np.ndarray) or rules.dtype != np.int32 or rules.shape != (RULES_SIZE,):
        raise ValueError(f"rules must be a golfsim Rules object (or Rules.pack()), got {_describe(rules)}")
    if not 2 <= int(rules[R_PLAYERS]) <= 12 or int(rules[R_PUB_SIZE]) <= int(rules[R_OFF_DISCARD]):
        raise ValueError("the packed rules are not ones Rules.pack() makes; pass the Rules object instead")
    return np.ascontiguousarray(rules)


def _describe(value) -> str:
    if isinstance(value, np.ndarray):
        return f"a {value.dtype} array of shape {value.shape}"
    return type(value).__name__


def check_pub(pub, rules, *, name: str = "pub", extra: int = 0) -> np.ndarray:
    """``pub`` as the int32 C-contiguous array compiled code reads, after checking it fits ``rules``.

    Parameters
    ----------
    pub : array of whole numbers
        A public state ([`golfsim.core.spec`][]), e.g. ``Game.pub`` or an observation's ``"observation"``.
    rules : Rules or packed rules
        The rules the state is meant to be played under.
    name : str
        What to call the array in the error message.
    extra : int
        Entries allowed after the public state (an oracle's sight array carries the hidden state there).

    Returns
    -------
    numpy.ndarray
        ``pub`` itself when it is already int32 and contiguous, else an int32 copy.

    Raises
    ------
    ValueError
        One line saying what is wrong: not an integer array, the wrong length for these rules (a state of
        another table size), or a header field, card or count out of range.
    """
    packed = packed_rules(rules)
    players, cards = int(packed[R_PLAYERS]), int(packed[R_NCARDS])
    size = int(packed[R_PUB_SIZE])
    if not isinstance(pub, np.ndarray):
        raise ValueError(f"{name} must be a numpy array of whole numbers (the int32 public state), "
                         f"got {type(pub).__name__}")
    if pub.ndim != 1 or not np.issubdtype(pub.dtype, np.integer):
        raise ValueError(f"{name} must be a one-dimensional array of whole numbers (int32), got {_describe(pub)}")
    if pub.shape[0] != size + extra:
        found = int(pub[PLAYERS]) if pub.shape[0] > PLAYERS else None
        seats = f" (it says {found} players)" if found is not None and found != players else ""
        raise ValueError(f"{name} has {pub.shape[0]} entries but the public state for these rules "
                         f"({players} players, {cards} cards) has {size + extra}{seats}")
    if pub.dtype != PUB_DTYPE:
        if pub.size and (int(pub.min()) < INT32_MIN or int(pub.max()) > INT32_MAX):
            raise ValueError(f"{name} holds values outside int32")
        pub = pub.astype(PUB_DTYPE)
    pub = np.ascontiguousarray(pub)
    if int(pub[PLAYERS]) != players:
        raise ValueError(f"{name} is a state for {int(pub[PLAYERS])} players but the rules are for {players}")
    for field, label, low, high in _HEADER_RANGES:
        lo, hi = low(players, cards), high(players, cards)
        if not lo <= int(pub[field]) <= hi:
            raise ValueError(f"{name}[{label}] is {int(pub[field])}; it must be from {lo} to {hi} for these rules")
    if int(pub[PHASE]) == HOLD and int(pub[HELD]) < 0:
        raise ValueError(f"{name} is in the hold phase but holds no drawn card (HELD is -1)")
    if int(pub[STOCK_N]) + int(pub[DISCARD_N]) + 6 * players > cards:
        raise ValueError(f"{name} counts {int(pub[STOCK_N])} stock and {int(pub[DISCARD_N])} discards, more than "
                         f"the {cards} cards of the pack leave after the layouts")
    ov, ou, ok, od = (int(packed[i]) for i in (R_OFF_VIEW, R_OFF_UNSEEN, R_OFF_STOCK_KNOWN, R_OFF_DISCARD))
    codes = int(packed[R_CODES])
    view = pub[ov: ov + 6 * players]
    if view.min() < -1 or view.max() >= codes:
        raise ValueError(f"{name} shows a card that is not a rank code (-1 face down, 0..{codes - 1}; 14 is a "
                         f"one-eyed jack, with one_eyed_jacks) in a layout")
    if int(pub[HELD]) >= codes:
        raise ValueError(f"{name} holds a card that is not a card code 0..{codes - 1} of these rules")
    counts = packed[R_COUNTS: R_COUNTS + codes]
    for label, offset in (("unseen", ou), ("stock_known", ok)):
        part = pub[offset: offset + codes]
        if (part < 0).any() or (part > counts).any():
            raise ValueError(f"{name}'s {label} counts must be from 0 to the copies of each rank in the pack")
    pile = pub[od: od + int(pub[DISCARD_N])]
    if pile.min() < 0 or pile.max() >= codes:
        raise ValueError(f"{name}'s discard pile holds a card that is not a card code 0..{codes - 1}")
    return pub


def check_seat(player, players: int, *, name: str = "player") -> int:
    """``player`` as an int after checking it is a seat ``0..players-1``."""
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < players:
        raise ValueError(f"{name} must be a seat from 0 to {players - 1}, got {player!r}")
    return int(player)


def check_totals(totals, players: int) -> np.ndarray:
    """Game totals as an int32 array of one whole number per player, refusing values int32 cannot hold."""
    try:
        arr = np.asarray(totals)
    except (TypeError, ValueError, OverflowError):
        arr = np.asarray([], dtype=np.float64)
    if arr.dtype == object:  # Python ints beyond int64
        if arr.shape == (players,) and all(isinstance(v, int) and not isinstance(v, bool) for v in arr):
            raise ValueError(f"totals must each be from {INT32_MIN} to {INT32_MAX}, got {list(arr)}")
        arr = np.asarray([], dtype=np.float64)
    if arr.shape != (players,) or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"totals must be {players} whole numbers, one per player")
    if int(arr.min()) < INT32_MIN or int(arr.max()) > INT32_MAX:
        raise ValueError(f"totals must each be from {INT32_MIN} to {INT32_MAX}, got {[int(v) for v in arr]}")
    return arr.astype(np.int32)
