"""The rules of six-card Golf as golfsim plays them: options, card codes, actions, state and observation.

This docstring is the engine's specification. ``../shared/RULES.md`` is the contract it implements.

Card codes
----------
A card is its rank (suits never matter): 0 joker ``X``, 1 ace, 2..10 pips, 11 jack, 12 queen, 13 king.
``HIDDEN`` (-1) is a face-down card in a view. Positions 0, 1, 2 are a layout's top row left to right and
3, 4, 5 its bottom row; column ``i`` holds positions ``i`` and ``i + 3``.

Points (``Rules.points()``): A 1, 2 -2, 3..10 face value, J 10, Q 10, K 0, joker by ``jokers``:
``minus2`` makes jokers -2 and twos +2; ``minus5``/``minus3``/``zero`` make jokers -5/-3/0 and keep twos at -2.
A column of two equal ranks scores 0 (with ``twos_pair="keep_negative"`` a pair of twos scores twice the two's value);
otherwise the column scores the sum of its two cards. ``four_of_a_kind_bonus`` is added once for each rank that pairs
in two or more columns.

Phases and actions
------------------
A deal is a sequence of decisions; ``PHASE`` says which kind is due and whose it is (``CURRENT``). Actions are small
integers, one flat space of ``NUM_ACTIONS`` = 27:

=======  ==================  ======  =================================================================
id       name                phase   effect
=======  ==================  ======  =================================================================
0..5     TAKE_DISCARD + k    START   take the top discard, put it face up at position k, old card on discard; turn ends
6        DRAW_STOCK          START   draw the top stock card (only the drawer sees it); go to HOLD
7..12    REVEAL + k          START   only with ``reveal_instead_of_draw``: turn face-down position k up; turn ends
13..18   PLACE_DRAWN + k     HOLD    put the drawn card face up at position k, old card on discard; turn ends
19       THROW_DRAWN         HOLD    throw the drawn card face up on the discard; turn ends (or FLIP, see below)
20..25   FLIP + k            OPEN    opening flip of face-down position k (two per player, in seat order)
                             FLIP    after a throw with ``discard_and_flip`` may/must: turn k up; turn ends
26       PASS                FLIP    only with ``discard_and_flip="may"``: flip nothing; turn ends
=======  ==================  ======  =================================================================

A face-down target of TAKE/PLACE is chosen before its card is seen. A layout never has fewer or more than six cards.

Deal procedure
--------------
Deck order (top first) is either shuffled from the deal stream or given. Card ``i`` of the first ``6P`` goes to player
``(first + i) % P`` at position ``i // P``; the next card starts the discard pile; the rest is the stock.
``first = hole % P`` (the dealer is the player before it). OPEN: each player from ``first`` clockwise makes two FLIP
actions; with ``opening_flips="same_column"`` the second must be ``(k + 3) % 6``, with ``"different_columns"`` in
another column. Opening flips are visible at once: before a player has seen any of their own cards all positions are
alike, so seeing another's flip tells nothing about one's own cards.

Each turn begins with ``begin_turn(p)``: if ``TURN == turn_cap`` the deal ends truncated (END_REASON 3); else if the
stock is empty, every discard but the top is shuffled (deal stream) into a new stock, or, if there is nothing under the
top, the deal ends (END_REASON 2); then ``TURN += 1`` and ``p`` is at START. When a turn ends: a player whose six cards
are all face up, when nobody has gone out yet, goes out (ENDER); with ``end="immediate"`` the deal ends (END_REASON 1);
with ``"one_last_turn"`` each other player takes one more turn clockwise (FINAL_LEFT counts them down), then it ends
(END_REASON 1). At the end every card is turned up and scored.

Public state (``pub``, int16) -- everything a player may know
-------------------------------------------------------------
Header fields (module constants are the indices): PHASE, CURRENT, HELD (the drawn stock card in HOLD, else -1; seen
only by the drawer, who is the only one to act in HOLD), TURN, STOCK_N, DISCARD_N, ENDER (-1), FINAL_LEFT (-1 unless
in the one-last-turn circuit), END_REASON (0 running), RECYCLES, FIRST, HOLE, PLAYERS, OPEN_FIRST (position of the
current player's first opening flip, else -1), LAST_ACTION (-1), UNSEEN_CARDS and UNSEEN_POINTS (how many cards
nobody has seen and their point sum: running totals of ``unseen`` kept so that agents need not add it up). Then, at
offsets from ``PubLayout``: ``totals[P]`` (game totals before this hole), ``view[P*6]`` (face-up ranks, HIDDEN for
face-down), ``unseen[14]`` (how many of each rank nobody has seen face up: in face-down positions or in the
never-seen part of the stock), ``stock_known[14]`` (composition of the stock cards that are known because they were
recycled), ``discard[N]`` (bottom first). After the first recycle the whole stock is known cards, so a stock draw's
distribution is ``stock_known`` then, else ``unseen``.

Hidden state (``hid``, int16): ``layout[P*6]`` (true ranks), ``stock[N]`` with the top at ``STOCK_N - 1``, and a
cursor: the stock is shuffled lazily, one Fisher-Yates step each time a card comes off the top, which draws the same
random numbers in the same order as shuffling the whole pack first (``engine.shuffled_deck``), so the deal is the
same; ``engine.stock_order`` shows the order the remaining stock will come in.
Agents are given ``pub`` only; they cannot see ``hid``.

Search support (:mod:`golfsim.worlds`)
--------------------------------------
A searching agent plays the deal forward on copies. ``worlds.determinize(pub, rules, rng, stream, hid, pool)``
fills a ``hid`` consistent with ``pub``: face-up cards as shown; face-down cards and the stock drawn from ``unseen``
before the first recycle, and after one the face-down cards from ``unseen`` and the stock from ``stock_known``
(a held card is already out of both counts); the stock comes fully ordered (cursor 0). ``worlds.copy_state`` copies
``pub`` and ``hid``; ``engine.apply_action`` then plays on the copy, ``PHASE == DONE`` ends the deal and
``engine.deal_scores`` / ``engine.score_cards`` score it. The deal stream a copy is given is used only for the
lazy shuffle after a recycle. Scratch arrays for all this come from ``worlds.stack_int16`` (``stack_float64``,
``stack_uint64``): fixed-size arrays on the agent call's own stack, so a compiled search allocates nothing per
decision and stays cacheable. An agent registered with ``sees_hidden=True`` is given, in place of ``pub``, the
*sight* array: ``pub``, then ``hid`` at offset ``R_PUB_SIZE``, then the deal stream state in four int16 words
(``worlds.fill_sight`` / ``worlds.read_sight``); every other agent gets ``pub`` alone.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from golfsim.cards import NUM_RANKS, TWO

# ---------------------------------------------------------------- actions
TAKE_DISCARD = 0
DRAW_STOCK = 6
REVEAL = 7
PLACE_DRAWN = 13
THROW_DRAWN = 19
FLIP = 20
PASS = 26
NUM_ACTIONS = 27

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
R_POINTS = 20  # 14 entries, by rank code
R_COUNTS = R_POINTS + NUM_RANKS  # 14 entries: copies of each rank in the full deck
R_DECK_POINTS = R_COUNTS + NUM_RANKS  # point sum of the full deck: UNSEEN_POINTS at the start of a deal
RULES_SIZE = R_DECK_POINTS + 1

OPENING_FLIPS = ("any", "same_column", "different_columns")
DISCARD_AND_FLIP = ("off", "may", "must")
END_MODES = ("immediate", "one_last_turn")
TWOS_PAIR = ("zero", "keep_negative")
JOKERS = ("none", "minus2", "minus5", "minus3", "zero")
_JOKER_VALUE = {"minus2": -2, "minus5": -5, "minus3": -3, "zero": 0}

MIN_PLAYERS, MAX_PLAYERS = 2, 12
MAX_DECKS = 8
MAX_HOLES = 1000
MAX_TURN_CAP = 30000


def _alias(value, names):
    """Accept ``one-last-turn`` for ``one_last_turn`` and any letter case."""
    if isinstance(value, str):
        value = value.strip().lower().replace("-", "_")
    return value


def _check_choice(name, value, choices):
    value = _alias(value, choices)
    if value not in choices:
        raise ValueError(f"{name}={value!r} is not allowed; choose one of {', '.join(choices)}")
    return value


def _check_int(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a whole number from {low} to {high}, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be from {low} to {high}, got {value}")
    return int(value)


def auto_decks(players: int) -> int:
    """Decks the published rules use: 1 for 2-4 players, 2 for 5-8, 3 for 9-12."""
    return 1 if players <= 4 else 2 if players <= 8 else 3


@dataclass(frozen=True)
class Rules:
    """One validated, immutable rule set; every field defaults to the published game (RULES.md).

    Parameters
    ----------
    players : int
        Players at the table, 2 to 12.
    decks : int or "auto"
        52-card decks shuffled together; ``"auto"`` is 1 for 2-4 players, 2 for 5-8, 3 for 9-12.
    jokers : str
        ``"none"``; ``"minus2"`` (two jokers per deck at -2, twos become +2); ``"minus5"``, ``"minus3"``,
        ``"zero"`` (two jokers per deck at -5, -3 or 0, twos stay -2).
    opening_flips : str
        Which two cards each player turns up at the start: ``"any"``, ``"same_column"``, ``"different_columns"``.
    reveal_instead_of_draw : bool
        Allow a turn that only turns one face-down card up.
    discard_and_flip : str
        After throwing away a stock draw: ``"off"`` nothing, ``"may"`` or ``"must"`` turn a face-down card up.
    end : str
        ``"immediate"``: the deal ends when a player's six cards are face up; ``"one_last_turn"``: every other
        player takes one final turn first.
    twos_pair : str
        ``"zero"``: a column of two twos scores 0; ``"keep_negative"``: it scores twice a two's value (-4).
    four_of_a_kind_bonus : int
        Added to a deal score once per rank that pairs in two columns (e.g. -10); 0 for none.
    holes : int
        Deals in a game (9 by default, 18 for a long game).
    turn_cap : int
        A deal still running after this many turns is scored as it stands and reported as truncated.
    """

    players: int = 2
    decks: int | str = "auto"
    jokers: str = "none"
    opening_flips: str = "any"
    reveal_instead_of_draw: bool = False
    discard_and_flip: str = "off"
    end: str = "immediate"
    twos_pair: str = "zero"
    four_of_a_kind_bonus: int = 0
    holes: int = 9
    turn_cap: int = 1000

    def __post_init__(self):
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731
        players = _check_int("players", self.players, MIN_PLAYERS, MAX_PLAYERS)
        set_("players", players)
        decks = _alias(self.decks, ())
        if decks == "auto":
            decks = auto_decks(players)
        decks = _check_int("decks", decks, 1, MAX_DECKS) if not isinstance(decks, str) else decks
        if isinstance(decks, str):
            raise ValueError(f"decks must be 'auto' or a whole number from 1 to {MAX_DECKS}, got {decks!r}")
        set_("decks", decks)
        set_("jokers", _check_choice("jokers", self.jokers, JOKERS))
        set_("opening_flips", _check_choice("opening_flips", self.opening_flips, OPENING_FLIPS))
        if not isinstance(self.reveal_instead_of_draw, (bool, np.bool_)):
            raise ValueError(f"reveal_instead_of_draw must be True or False, got {self.reveal_instead_of_draw!r}")
        set_("reveal_instead_of_draw", bool(self.reveal_instead_of_draw))
        set_("discard_and_flip", _check_choice("discard_and_flip", self.discard_and_flip, DISCARD_AND_FLIP))
        set_("end", _check_choice("end", self.end, END_MODES))
        set_("twos_pair", _check_choice("twos_pair", self.twos_pair, TWOS_PAIR))
        set_("four_of_a_kind_bonus", _check_int("four_of_a_kind_bonus", self.four_of_a_kind_bonus, -1000, 1000))
        set_("holes", _check_int("holes", self.holes, 1, MAX_HOLES))
        set_("turn_cap", _check_int("turn_cap", self.turn_cap, 1, MAX_TURN_CAP))
        if self.twos_pair == "keep_negative" and self.jokers == "minus2":
            raise ValueError(
                "twos_pair='keep_negative' keeps the negative value of a pair of twos, but with jokers='minus2' "
                "twos are worth +2; use twos_pair='zero' or another jokers setting"
            )
        needed = 6 * players + 1
        if self.n_cards < needed:
            raise ValueError(
                f"{players} players need at least {needed} cards (six each and one to start the discard pile), "
                f"but {decks} deck(s) with jokers={self.jokers!r} have {self.n_cards}; "
                f"use decks={-(-(needed - 0) // (52 + self.jokers_per_deck))} or more, or decks='auto'"
            )

    # ---------------------------------------------------------------- derived facts
    @property
    def jokers_per_deck(self) -> int:
        """2 when jokers are in play, else 0."""
        return 0 if self.jokers == "none" else 2

    @property
    def n_cards(self) -> int:
        """Cards in the shuffled pack."""
        return self.decks * (52 + self.jokers_per_deck)

    def points(self) -> np.ndarray:
        """Point value of each rank code (index 0 is the joker), as an int32 array of length 14."""
        pts = np.array([0, 1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0], dtype=np.int32)
        if self.jokers != "none":
            pts[0] = _JOKER_VALUE[self.jokers]
        if self.jokers == "minus2":
            pts[TWO] = 2
        return pts

    def card_counts(self) -> np.ndarray:
        """Copies of each rank code in the pack, as an int32 array of length 14."""
        counts = np.full(NUM_RANKS, 4 * self.decks, dtype=np.int32)
        counts[0] = self.jokers_per_deck * self.decks
        return counts

    def replace(self, **changes) -> Rules:
        """A copy with some options changed (validated again)."""
        values = asdict(self)
        if "players" in changes and "decks" not in changes and self._decks_was_auto():
            values["decks"] = "auto"
        values.update(changes)
        return Rules(**values)

    def _decks_was_auto(self) -> bool:
        return self.decks == auto_decks(self.players)

    def changed_options(self) -> dict:
        """The options that differ from the default game (for titles and file names)."""
        default = Rules(players=self.players)
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }

    def describe(self) -> str:
        """A short human-readable summary, e.g. ``"2 players, default rules"``."""
        changed = {k: v for k, v in self.changed_options().items() if k != "players"}
        text = ", ".join(f"{k}={v}" for k, v in changed.items()) or "default rules"
        return f"{self.players} players, {text}"

    def to_dict(self) -> dict:
        """Every option, for ``config.json``."""
        return asdict(self)

    # ---------------------------------------------------------------- packing for the kernels
    def pack(self) -> np.ndarray:
        """The rules as the int32 array every kernel takes (indices ``R_*`` in this module)."""
        p, n = self.players, self.n_cards
        r = np.zeros(RULES_SIZE, dtype=np.int32)
        r[R_PLAYERS] = p
        r[R_DECKS] = self.decks
        r[R_NCARDS] = n
        r[R_JOKERS_PER_DECK] = self.jokers_per_deck
        r[R_OPENING] = OPENING_FLIPS.index(self.opening_flips)
        r[R_REVEAL] = int(self.reveal_instead_of_draw)
        r[R_DISCARD_FLIP] = DISCARD_AND_FLIP.index(self.discard_and_flip)
        r[R_END] = END_MODES.index(self.end)
        r[R_TWOS_KEEP] = TWOS_PAIR.index(self.twos_pair)
        r[R_FOUR_BONUS] = self.four_of_a_kind_bonus
        r[R_HOLES] = self.holes
        r[R_TURN_CAP] = self.turn_cap
        r[R_OFF_TOTALS] = PUB_HEADER
        r[R_OFF_VIEW] = PUB_HEADER + p
        r[R_OFF_UNSEEN] = PUB_HEADER + p + 6 * p
        r[R_OFF_STOCK_KNOWN] = r[R_OFF_UNSEEN] + NUM_RANKS
        r[R_OFF_DISCARD] = r[R_OFF_STOCK_KNOWN] + NUM_RANKS
        r[R_PUB_SIZE] = r[R_OFF_DISCARD] + n
        r[R_HID_STOCK] = 6 * p
        r[R_HID_SIZE] = 6 * p + n + 1  # the last slot is the lazy shuffle's cursor
        r[R_POINTS : R_POINTS + NUM_RANKS] = self.points()
        r[R_COUNTS : R_COUNTS + NUM_RANKS] = self.card_counts()
        r[R_DECK_POINTS] = int(self.points() @ self.card_counts())
        return r


def action_name(action: int) -> str:
    """Human-readable name of an action id, e.g. ``action_name(15) == "place drawn card at 2"``."""
    a = int(action)
    if 0 <= a < DRAW_STOCK:
        return f"take discard to {a}"
    if a == DRAW_STOCK:
        return "draw from stock"
    if REVEAL <= a < PLACE_DRAWN:
        return f"reveal {a - REVEAL}"
    if PLACE_DRAWN <= a < THROW_DRAWN:
        return f"place drawn card at {a - PLACE_DRAWN}"
    if a == THROW_DRAWN:
        return "throw drawn card"
    if FLIP <= a < PASS:
        return f"flip {a - FLIP}"
    if a == PASS:
        return "pass"
    return f"invalid action {a}"
