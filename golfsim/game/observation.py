"""What one seat may know, as a flat vector: the observation every adapter hands to a learner.

The vector is encoded from the engine's public state ``pub`` (which is already exactly what a player may know,
RULES.md "What a player knows") and seen from one seat: that seat first, then the players after it clockwise, so a
policy learned in one seat plays in any other. The one piece of ``pub`` that is private is the card a player has
just drawn (``HELD``): only the drawer sees it, and the engine has already taken it off the public counts of unseen
cards, so for anyone else the encoder puts it back there (or in the known stock after a recycle).

Layout for ``P`` players and ``C`` card codes (length ``14 + 3 * C + 7 * P``, ``C`` = ``Rules.n_codes``: 14 ranks, or
15 codes with ``one_eyed_jacks``, whose code 14 is a one-eyed jack; all entries are whole numbers stored as float32)
-------------------------------------------------------------------------------------------------
=================  ======================================================================================
index              entry
=================  ======================================================================================
0..3               phase one-hot: opening flips, start of a turn, holding a drawn card, flip after a throw
                   (all zero once the deal is over)
4                  the drawn card you hold (card code 0..C-1), -1 unless you drew it and must place or throw it
5                  top discard (card code)
6                  cards in the stock
7                  cards in the discard pile
8                  turn number
9                  recycles of the discard pile into a new stock so far
10                 the player to move, in seats after you (0 is you)
11                 who went out, in seats after you; -1 nobody yet
12                 final turns left in the one-last-turn circuit; -1 outside it
13                 position of the first opening flip of the player to move; -1 if none
14 .. 14+6P        every layout, you first, then the players after you: rank codes, -1 face down
                   (positions 0, 1, 2 top row, 3, 4, 5 bottom row)
next C             unseen: copies of each card code nobody has seen face up (face-down cards and the never-seen
                   stock)
next C             known stock: copies of each card code in a stock made of recycled (seen) cards
next C             discard pile: copies of each card code in it (below the top its order never matters again:
                   a card only leaves the pile from the top, or in a recycle, which shuffles)
next P             game totals before this hole, you first
=================  ======================================================================================
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot
from golfsim.core.cards import NUM_RANKS, rank_name
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    ENDER,
    FINAL_LEFT,
    HELD,
    HOLD,
    OPEN_FIRST,
    PHASE,
    R_CODES,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PLAYERS,
    RECYCLES,
    STOCK_N,
    TURN,
)

PHASES = 4
HELD_AT = 4
TOP_AT = 5
STOCK_AT = 6
DISCARD_SIZE_AT = 7
TURN_AT = 8
RECYCLES_AT = 9
TO_MOVE_AT = 10
ENDER_AT = 11
FINAL_LEFT_AT = 12
OPEN_FIRST_AT = 13
VIEWS_AT = 14


def size(players: int, codes: int = NUM_RANKS) -> int:
    """Length of the observation vector for ``players`` seats and ``codes`` card codes (``Rules.n_codes``)."""
    return VIEWS_AT + 6 * players + 3 * codes + players


def offsets(players: int, codes: int = NUM_RANKS) -> dict[str, int]:
    """Start index of each block of the vector."""
    unseen = VIEWS_AT + 6 * players
    return {"views": VIEWS_AT, "unseen": unseen, "stock_known": unseen + codes,
            "discard_counts": unseen + 2 * codes, "totals": unseen + 3 * codes}


def bounds(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest value of every entry under ``rules`` (float32 arrays), for a ``Box`` space."""
    p, c = rules.players, rules.n_codes
    n = size(p, c)
    low = np.full(n, -1.0, dtype=np.float32)
    high = np.zeros(n, dtype=np.float32)
    most_copies = float(rules.card_counts().max())
    high[:PHASES] = 1
    high[HELD_AT] = high[TOP_AT] = c - 1
    high[STOCK_AT] = high[DISCARD_SIZE_AT] = rules.n_cards
    high[TURN_AT] = high[RECYCLES_AT] = rules.turn_cap
    high[TO_MOVE_AT] = high[ENDER_AT] = high[FINAL_LEFT_AT] = p - 1
    high[OPEN_FIRST_AT] = 5
    off = offsets(p, c)
    high[off["views"]: off["unseen"]] = c - 1
    low[off["unseen"]: off["totals"]] = 0
    high[off["unseen"]: off["totals"]] = most_copies
    # a deal scores at most six cards' worth plus the bonus for two paired ranks in either direction
    per_hole = 6 * float(np.abs(rules.points()).max()) + 2 * abs(rules.four_of_a_kind_bonus)
    low[off["totals"]:] = -per_hole * rules.holes
    high[off["totals"]:] = per_hole * rules.holes
    return low, high


@hot
def encode(pub, rules, seat, private, out):
    """Write what ``seat`` may know into ``out`` (float32, length ``size(players, codes)``); see the module
    docstring.

    ``private`` (0/1): whether ``seat``'s own private card (the drawn card it holds) is shown; 0 gives what an
    onlooker sees from that seat's place.
    """
    players = rules[R_PLAYERS]
    for i in range(out.shape[0]):
        out[i] = 0.0
    phase = pub[PHASE]
    if phase < PHASES:
        out[phase] = 1.0
    cur = pub[CURRENT]
    od = rules[R_OFF_DISCARD]
    n_discard = pub[DISCARD_N]
    mine = private == 1 and cur == seat
    held = pub[HELD] if phase == HOLD else -1
    out[HELD_AT] = held if mine else -1
    out[TOP_AT] = pub[od + n_discard - 1] if n_discard > 0 else -1
    out[STOCK_AT] = pub[STOCK_N]
    out[DISCARD_SIZE_AT] = n_discard
    out[TURN_AT] = pub[TURN]
    out[RECYCLES_AT] = pub[RECYCLES]
    out[TO_MOVE_AT] = (cur - seat + players) % players
    out[ENDER_AT] = (pub[ENDER] - seat + players) % players if pub[ENDER] >= 0 else -1
    out[FINAL_LEFT_AT] = pub[FINAL_LEFT]
    out[OPEN_FIRST_AT] = pub[OPEN_FIRST]
    ov = rules[R_OFF_VIEW]
    for j in range(players):
        src = ov + 6 * ((seat + j) % players)
        for k in range(6):
            out[VIEWS_AT + 6 * j + k] = pub[src + k]
    at = VIEWS_AT + 6 * players
    ou = rules[R_OFF_UNSEEN]
    ok = rules[R_OFF_STOCK_KNOWN]
    codes = rules[R_CODES]
    for r in range(codes):
        out[at + r] = pub[ou + r]
        out[at + codes + r] = pub[ok + r]
    if held >= 0 and not mine:
        # the engine counts a drawn card as seen; to everyone but the drawer it is still an unseen stock card
        if pub[RECYCLES] > 0:
            out[at + codes + held] += 1
        else:
            out[at + held] += 1
    for i in range(n_discard):
        out[at + 2 * codes + pub[od + i]] += 1
    ot = rules[R_OFF_TOTALS]
    for j in range(players):
        out[at + 3 * codes + j] = pub[ot + (seat + j) % players]


_PHASE_WORDS = ("opening flips", "start of turn", "holding a drawn card", "flip after a throw")


def describe(vector: np.ndarray, players: int, codes: int = NUM_RANKS) -> str:
    """The observation as one line of text (the OpenSpiel observation string): the same facts as the vector."""
    v = [int(x) for x in vector]
    off = offsets(players, codes)
    phase = next((_PHASE_WORDS[i] for i in range(PHASES) if v[i]), "deal over")
    parts = [f"{phase}; player +{v[TO_MOVE_AT]} to move; turn {v[TURN_AT]}"]
    if v[HELD_AT] >= 0:
        parts.append(f"you hold {rank_name(v[HELD_AT])}")
    parts.append(f"discard top {rank_name(v[TOP_AT]) if v[TOP_AT] >= 0 else '-'} of {v[DISCARD_SIZE_AT]}")
    parts.append(f"stock {v[STOCK_AT]}, recycles {v[RECYCLES_AT]}")
    if v[ENDER_AT] >= 0:
        parts.append(f"player +{v[ENDER_AT]} went out, {v[FINAL_LEFT_AT]} final turns left")
    if v[OPEN_FIRST_AT] >= 0:
        parts.append(f"first opening flip at {v[OPEN_FIRST_AT]}")
    for j in range(players):
        row = v[off["views"] + 6 * j: off["views"] + 6 * j + 6]
        names = [rank_name(c) if c >= 0 else "?" for c in row]
        who = "you" if j == 0 else f"player +{j}"
        parts.append(f"{who}: {' '.join(names[:3])} / {' '.join(names[3:])}")

    def counts(name):
        block = v[off[name]: off[name] + codes]
        return " ".join(f"{rank_name(r)}x{c}" for r, c in enumerate(block) if c) or "none"

    parts.append(f"unseen {counts('unseen')}")
    parts.append(f"known stock {counts('stock_known')}")
    parts.append(f"discard pile {counts('discard_counts')}")
    parts.append("totals " + " ".join(str(t) for t in v[off["totals"]: off["totals"] + players]))
    return "; ".join(parts)
