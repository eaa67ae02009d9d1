"""The kernel interface: card codes, actions, phases, the public state's fields and the packed rules' indices.

This docstring is the engine's specification; the user-facing rule options are [`golfsim.core.rules.Rules`][], whose
variants it describes below. ``docs/RULES.md`` is the rules document it implements.

Card codes
----------
A card is its rank (suits never matter): 0 joker ``X``, 1 ace, 2..10 pips, 11 jack, 12 queen, 13 king; with the
house rule ``one_eyed_jacks`` the jacks of hearts and spades are code 14 (``ONE_EYED_JACK``, ``J0``), a jack in every
comparison of ranks (pairs, four of a kind, wolfpack: ``engine.rank_of``) but with its own points. The codes in play
are ``0 .. rules[R_CODES] - 1`` (``R_CODES`` is 15 with ``one_eyed_jacks``, else 14); with the rule each deck has two
code-11 and two code-14 jacks. ``HIDDEN`` (-1) is a face-down card in a view. Positions 0, 1, 2 are a layout's top
row left to right and 3, 4, 5 its bottom row; column ``i`` holds positions ``i`` and ``i + 3``.

Points (``Rules.points()``): A 1, 2 -2, 3..10 face value, J 10, Q 10, K 0, one-eyed jack 0, joker by ``jokers``:
``minus2`` makes jokers -2 and twos +2; ``minus5``/``minus3``/``zero`` make jokers -5/-3/0 and keep twos at -2.
A column of two equal ranks (a one-eyed jack and a jack are equal ranks) scores 0 (with
``twos_pair="keep_negative"`` a pair of twos scores twice the two's value); otherwise the column scores the sum of
its two cards. ``four_of_a_kind_bonus`` is added once for each rank that pairs
in two or more columns.

Phases and actions
------------------
A deal is a sequence of decisions; ``PHASE`` says which kind is due and whose it is (``CURRENT``). Actions are small
integers, one flat space of ``NUM_ACTIONS`` = 28:

=======  ==================  ======  =================================================================
id       name                phase   effect
=======  ==================  ======  =================================================================
0..5     TAKE_DISCARD + k    START   take the top discard, put it face up at position k, old card on discard; turn ends
6        DRAW_STOCK          START   draw the top stock card (only the drawer sees it); go to HOLD
7..12    REVEAL + k          START   only with ``reveal_instead_of_draw``: turn face-down position k up; turn ends
13..18   PLACE_DRAWN + k     HOLD    put the drawn card face up at position k, old card on discard; turn ends
19       THROW_DRAWN         HOLD    throw the drawn card face up on the discard; turn ends (or FLIP, see below)
20..25   FLIP + k            OPEN    opening flip of face-down position k (``initial_flips`` per player, in seat order)
                             FLIP    after a throw with ``discard_and_flip`` may/must/endgame: turn k up; turn ends
26       PASS                FLIP    only with ``discard_and_flip`` "may" or "endgame": flip nothing; turn ends
27       KNOCK               START   only with ``knock_early`` and one or two face-down cards: turn them all up; turn
                                     ends (so the player goes out, or has gone out already in the last circuit)
=======  ==================  ======  =================================================================

A face-down target of TAKE/PLACE is chosen before its card is seen. A layout never has fewer or more than six cards.

Deal procedure
--------------
Deck order (top first) is either shuffled from the deal stream or given. Card ``i`` of the first ``6P`` goes to player
``(first + i) % P`` at position ``i // P``; the next card starts the discard pile; the rest is the stock.
``first = hole % P`` (the dealer is the player before it). OPEN: each player from ``first`` clockwise makes
``initial_flips`` (two unless a house rule says one or none; with none there is no OPEN phase) FLIP actions;
with ``opening_flips="same_column"`` the second must be ``(k + 3) % 6``, with ``"different_columns"`` in another
column. Opening flips are visible at once: before a player has seen any of their own cards all positions are
alike, so seeing another's flip tells nothing about one's own cards.

Each turn begins with ``begin_turn(p)``: if ``TURN == turn_cap`` the deal ends truncated (END_REASON 3); else if the
stock is empty, every discard but the top is shuffled (deal stream) into a new stock, or, if there is nothing under the
top, the deal ends (END_REASON 2); then ``TURN += 1`` and ``p`` is at START. When a turn ends: a player whose six cards
are all face up, when nobody has gone out yet, goes out (ENDER); with ``end="immediate"`` the deal ends (END_REASON 1);
with ``"one_last_turn"`` each other player takes one more turn clockwise (FINAL_LEFT counts them down), then it ends
(END_REASON 1). At the end every card is turned up and scored (``engine.deal_scores``: each layout, then the
house rules that compare the table's scores, docs/RULES.md "House rules"). With ``discard_and_flip="endgame"`` a
throw leads to an optional FLIP only while some player (the thrower included) has at most one face-down card.

Public state (``pub``, int32) -- everything a player may know
-------------------------------------------------------------
Header fields (module constants are the indices): PHASE, CURRENT, HELD (the drawn stock card in HOLD, else -1; seen
only by the drawer, who is the only one to act in HOLD), TURN, STOCK_N, DISCARD_N, ENDER (-1), FINAL_LEFT (-1 unless
in the one-last-turn circuit), END_REASON (0 running), RECYCLES, FIRST, HOLE, PLAYERS, OPEN_FIRST (position of the
current player's first opening flip, else -1), LAST_ACTION (-1), UNSEEN_CARDS and UNSEEN_POINTS (how many cards
nobody has seen and their point sum: running totals of ``unseen`` kept so that agents need not add it up). Then, at
offsets stored in the packed rules (``rules[R_OFF_TOTALS]``, ``rules[R_OFF_VIEW]``, ...): ``totals[P]`` (game totals
before this hole), ``view[P*6]`` (face-up card codes, HIDDEN for face-down; player ``p``'s position ``k`` is at
``rules[R_OFF_VIEW] + 6 * p + k``), ``unseen[C]`` (how many of each card code nobody has seen face up: in face-down
positions or in the never-seen part of the stock; ``C = rules[R_CODES]``, 14, or 15 with ``one_eyed_jacks``),
``stock_known[C]`` (composition of the stock cards that are known
because they were recycled), ``discard[N]`` (bottom first). After the first recycle the whole stock is known cards,
so a stock draw's distribution is ``stock_known`` then, else ``unseen``. ``rules[R_PUB_SIZE]`` is the array's length.

Packed rules (``rules``, int32, ``Rules.pack()``): the options at ``R_PLAYERS`` .. ``R_TURN_CAP`` (string options as
the index of their name in ``OPENING_FLIPS``, ``DISCARD_AND_FLIP``, ``END_MODES``, ``TWOS_PAIR``), the ``pub`` and
``hid`` offsets and sizes, each card code's points at ``R_POINTS + code``, its copies in the pack at
``R_COUNTS + code`` (``NUM_CODES`` entries each, 0 copies of a code not in play), the pack's point sum at
``R_DECK_POINTS`` and the number of codes in play at ``R_CODES``.

Hidden state (``hid``, int16): ``layout[P*6]`` (true ranks), ``stock[N]`` with the top at ``STOCK_N - 1``, and a
cursor: the stock is shuffled lazily, one Fisher-Yates step each time a card comes off the top, which draws the same
random numbers in the same order as shuffling the whole pack first (``engine.shuffled_deck``), so the deal is the
same; ``engine.stock_order`` shows the order the remaining stock will come in.
Agents are given ``pub`` only; they cannot see ``hid``.

Search support ([`golfsim.core.worlds`][])
--------------------------------------
A searching agent plays the deal forward on copies. ``worlds.determinize(pub, rules, rng, stream, hid, pool)``
fills a ``hid`` consistent with ``pub``: face-up cards as shown; face-down cards and the stock drawn from ``unseen``
before the first recycle, and after one the face-down cards from ``unseen`` and the stock from ``stock_known``
(a held card is already out of both counts); the stock comes fully ordered (cursor 0). ``worlds.copy_state`` copies
``pub`` and ``hid``; ``engine.apply_action`` then plays on the copy, ``PHASE == DONE`` ends the deal and
``engine.deal_scores`` / ``engine.score_cards`` score it. The deal stream a copy is given is used only for the
lazy shuffle after a recycle. Scratch arrays for all this come from ``worlds.stack_like`` (``stack_int16``,
``stack_float64``, ``stack_uint64``): fixed-size arrays on the agent call's own stack, so a compiled search
allocates nothing per decision and stays cacheable. An agent registered with ``sees_hidden=True`` is given, in place
of ``pub``, the *sight* array: ``pub``, then ``hid`` at offset ``R_PUB_SIZE``, then the deal stream state in four
16-bit words (``worlds.fill_sight`` / ``worlds.read_sight``); every other agent gets ``pub`` alone.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from golfsim.core.cards import NUM_CODES

# ---------------------------------------------------------------- actions
TAKE_DISCARD = 0
DRAW_STOCK = 6
REVEAL = 7
PLACE_DRAWN = 13
THROW_DRAWN = 19
FLIP = 20
PASS = 26
KNOCK = 27
NUM_ACTIONS = 28

# ---------------------------------------------------------------- phases
OPEN, START, HOLD, FLIP_PHASE, DONE = 0, 1, 2, 3, 4
PHASE_NAMES = ("open", "start", "hold", "flip", "done")

# ---------------------------------------------------------------- end reasons
RUNNING, WENT_OUT, STOCK_EXHAUSTED, TRUNCATED = 0, 1, 2, 3

# ---------------------------------------------------------------- pub header indices
PHASE = 0
CURRENT = 1
HELD = 2
TURN = 3
STOCK_N = 4
DISCARD_N = 5
ENDER = 6
FINAL_LEFT = 7
END_REASON = 8
RECYCLES = 9
FIRST = 10
HOLE = 11
PLAYERS = 12
OPEN_FIRST = 13
LAST_ACTION = 14
UNSEEN_CARDS = 15
UNSEEN_POINTS = 16
PUB_HEADER = 18

# ---------------------------------------------------------------- packed rules indices (int32 array)
R_PLAYERS = 0
R_DECKS = 1
R_NCARDS = 2
R_JOKERS_PER_DECK = 3
R_OPENING = 4  # 0 any, 1 same column, 2 different columns
R_REVEAL = 5  # 0/1
R_DISCARD_FLIP = 6  # 0 off, 1 may, 2 must
R_END = 7  # 0 immediate, 1 one last turn
R_TWOS_KEEP = 8  # 0 zero, 1 keep negative
R_FOUR_BONUS = 9
R_HOLES = 10
R_TURN_CAP = 11
R_OFF_TOTALS = 12
R_OFF_VIEW = 13
R_OFF_UNSEEN = 14
R_OFF_STOCK_KNOWN = 15
R_OFF_DISCARD = 16
R_PUB_SIZE = 17
R_HID_STOCK = 18
R_HID_SIZE = 19
R_POINTS = 20  # NUM_CODES entries, by card code
R_COUNTS = R_POINTS + NUM_CODES  # NUM_CODES entries: copies of each card code in the full deck
R_DECK_POINTS = R_COUNTS + NUM_CODES  # point sum of the full deck: UNSEEN_POINTS at the start of a deal
# the house rules (docs/RULES.md, "House rules"): 0 off, 1 on, except R_INITIAL_FLIPS (0, 1 or 2)
R_INITIAL_FLIPS = R_DECK_POINTS + 1
R_KNOCK_PENALTY = R_INITIAL_FLIPS + 1
R_KNOCK_BONUS = R_KNOCK_PENALTY + 1
R_UNDERDOG = R_KNOCK_BONUS + 1
R_TIED_SHAME = R_UNDERDOG + 1
R_BLACKJACK = R_TIED_SHAME + 1
R_WOLFPACK = R_BLACKJACK + 1
R_EAGLE_EYE = R_WOLFPACK + 1
R_KNOCK_EARLY = R_EAGLE_EYE + 1
R_HOLE_RULES = R_KNOCK_EARLY + 1  # 1 when any rule that looks at the whole table's scores is on (a fast skip)
R_CODES = R_HOLE_RULES + 1  # card codes in play: 15 with one_eyed_jacks (its code 14), else 14
RULES_SIZE = R_CODES + 1

MIN_PLAYERS, MAX_PLAYERS = 2, 12
"""Seats at a table; ``MAX_PLAYERS`` also sizes the kernels' per-seat arrays."""

PUB_DTYPE = np.int32
"""Element type of ``pub``: int32, so that game totals cannot wrap (an int16 total wrapped after about 550 holes
of high scores)."""
HID_DTYPE = np.int16
"""Element type of ``hid`` (ranks, the stock and its shuffle cursor)."""

OPENING_FLIPS = ("any", "same_column", "different_columns")
DISCARD_AND_FLIP = ("off", "may", "must", "endgame")
END_MODES = ("immediate", "one_last_turn")
TWOS_PAIR = ("zero", "keep_negative")
"""Names of the rule options packed as small integers (``R_OPENING``, ``R_DISCARD_FLIP``, ``R_END``,
``R_TWOS_KEEP``): the packed value is the index of the name."""


ACTION_KINDS = ("take", "draw", "reveal", "place", "throw", "flip", "pass", "knock")
"""What an action does, without its position, in action-id order: the ``kind`` of
[`decode`][golfsim.core.spec.decode]."""

_KIND_STARTS = (TAKE_DISCARD, DRAW_STOCK, REVEAL, PLACE_DRAWN, THROW_DRAWN, FLIP, PASS, KNOCK)
_POSITIONED = ("take", "reveal", "place", "flip")


class Move(NamedTuple):
    """An action id decoded: ``kind`` (one of [`ACTION_KINDS`][golfsim.core.spec.ACTION_KINDS]) and the layout
    ``position`` it uses (0-5, or -1 for a draw, a throw or a pass)."""

    kind: str
    position: int


def decode(action: int) -> Move:
    """The kind and layout position of an action id, e.g. ``decode(15) == Move("place", 2)``; every describer of
    actions (names, keys, events, hints) reads actions through this one function.

    Raises
    ------
    ValueError
        For an id outside ``0 .. NUM_ACTIONS - 1``.
    """
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"invalid action {a}: action ids are 0 to {NUM_ACTIONS - 1}")
    kind = next(i for i in range(len(_KIND_STARTS) - 1, -1, -1) if a >= _KIND_STARTS[i])
    name = ACTION_KINDS[kind]
    return Move(name, a - _KIND_STARTS[kind] if name in _POSITIONED else -1)


_NAMES = {"take": "take discard to {}", "draw": "draw from stock", "reveal": "reveal {}",
          "place": "place drawn card at {}", "throw": "throw drawn card", "flip": "flip {}", "pass": "pass",
          "knock": "knock early (turn up every face-down card and go out)"}


def action_name(action: int) -> str:
    """Human-readable name of an action id, e.g. ``action_name(15) == "place drawn card at 2"``."""
    try:
        kind, position = decode(action)
    except ValueError:
        return f"invalid action {int(action)}"
    return _NAMES[kind].format(position)
