"""The rules of six-card Golf as a user sets them: [`Rules`][golfsim.core.rules.Rules], one validated rule set.

The engine's specification -- card codes, actions, phases, the public state an agent sees and how each variant
plays -- is the docstring of [`golfsim.core.spec`][], which also holds the kernel interface (action ids, phases,
end reasons, ``pub`` header and packed-rule indices). Those names are still importable from here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from golfsim.core.cards import JACK, JOKER, KING, NUM_CODES, NUM_RANKS, ONE_EYED_JACK, TWO, parse_card, rank_name
from golfsim.core.spec import (
    DISCARD_AND_FLIP,
    END_MODES,
    HID_DTYPE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPENING_FLIPS,
    PUB_HEADER,
    R_BLACKJACK,
    R_CODES,
    R_COUNTS,
    R_DECK_POINTS,
    R_DECKS,
    R_DISCARD_FLIP,
    R_EAGLE_EYE,
    R_END,
    R_FOUR_BONUS,
    R_HID_SIZE,
    R_HID_STOCK,
    R_HOLE_RULES,
    R_HOLES,
    R_INITIAL_FLIPS,
    R_JOKERS_PER_DECK,
    R_KNOCK_BONUS,
    R_KNOCK_EARLY,
    R_KNOCK_PENALTY,
    R_NCARDS,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_OPENING,
    R_PLAYERS,
    R_POINTS,
    R_PUB_SIZE,
    R_REVEAL,
    R_TIED_SHAME,
    R_TURN_CAP,
    R_TWOS_KEEP,
    R_UNDERDOG,
    R_WOLFPACK,
    RULES_SIZE,
    TWOS_PAIR,
)

JOKERS = ("none", "minus2", "minus5", "minus3", "zero")
_JOKER_VALUE = {"minus2": -2, "minus5": -5, "minus3": -3, "zero": 0}

HOUSE_FLAGS = ("knock_penalty", "knock_bonus", "underdog_bonus", "tied_shame", "blackjack", "super_kings",
               "ten_penny", "wolfpack", "eagle_eye", "one_eyed_jacks", "knock_early")
"""The on/off house rules of the web game (docs/RULES.md, "House rules"), by that game's option names."""
HOUSE_OPTIONS = ("initial_flips", *HOUSE_FLAGS)
"""Every house-rule field of [`Rules`][golfsim.core.rules.Rules] (``flip_mode`` is not one: it is
``discard_and_flip``)."""
FLIP_MODES = {"never": "off", "always": "must", "endgame": "endgame"}
"""The web game's ``flip_mode`` values and the ``discard_and_flip`` value each one is."""

HOUSE_MEANINGS = {
    "initial_flips": "cards each player turns up at the start: 0, 1 or 2",
    "flip_mode": "after throwing a stock card: never, always (must flip) or endgame (may flip once any player "
                 "has at most one face-down card); it sets discard_and_flip (off, must, endgame)",
    "knock_penalty": "+10 to the player who went out, unless no score is lower",
    "knock_bonus": "-5 to the player who went out (first to reveal all)",
    "underdog_bonus": "-3 to the lowest hole score (each, if tied)",
    "tied_shame": "+5 to each player whose hole score another player has too",
    "blackjack": "a hole score of exactly 21 becomes 0",
    "super_kings": "kings are worth -2 (a pair of kings still scores 0)",
    "ten_penny": "tens are worth 1",
    "wolfpack": "all four jacks as two column pairs: -20 (adds to four_of_a_kind_bonus)",
    "eagle_eye": "jokers +2 alone, -4 as a column pair (needs jokers)",
    "one_eyed_jacks": "the jacks of hearts and spades (J0) are worth 0; they still pair with any jack",
    "knock_early": "with one or two cards face down, a turn may turn them all up and go out",
}
"""The ``--house`` names (the web game's option names) and what each does, for ``golfsim rules``."""


def house_options(text: str) -> dict:
    """The [`Rules`][golfsim.core.rules.Rules] options a ``--house`` list names, e.g. ``"super_kings,initial_flips=1"``
    -> ``{"super_kings": True, "initial_flips": 1}``; ``flip_mode=endgame`` becomes ``discard_and_flip="endgame"``.

    Raises
    ------
    ValueError
        One line naming the unknown rule or bad value and what is allowed.
    """
    options: dict = {}
    for item in (part.strip() for part in str(text).split(",")):
        if not item:
            continue
        name, has_value, value = (x.strip() for x in item.partition("="))
        name = name.lower().replace("-", "_")
        if name not in HOUSE_MEANINGS:
            raise ValueError(f"unknown house rule {name!r}; the house rules are {', '.join(HOUSE_MEANINGS)}")
        if name in options or (name == "flip_mode" and "discard_and_flip" in options):
            raise ValueError(f"house rule {name!r} is given twice")
        if name == "initial_flips":
            if not has_value or value not in ("0", "1", "2"):
                raise ValueError(f"initial_flips needs a value 0, 1 or 2 (initial_flips=1), got {item!r}")
            options[name] = int(value)
        elif name == "flip_mode":
            mode = value.lower()
            if mode not in FLIP_MODES:
                raise ValueError(f"flip_mode must be one of {', '.join(FLIP_MODES)} (flip_mode=endgame), "
                                 f"got {item!r}")
            options["discard_and_flip"] = FLIP_MODES[mode]
        else:
            flag = value.lower()
            if has_value and flag not in ("on", "off", "true", "false", "1", "0"):
                raise ValueError(f"{name} is on or off ({name}, {name}=on or {name}=off), got {item!r}")
            options[name] = not has_value or flag in ("on", "true", "1")
    return options


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
    """One validated, immutable rule set; every field defaults to the published game (docs/RULES.md).

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
    initial_flips : int
        House rule: cards each player turns up at the start, 0, 1 or 2 (the default); fewer than two needs
        ``opening_flips="any"``.
    knock_penalty, knock_bonus, underdog_bonus, tied_shame, blackjack, super_kings, ten_penny, wolfpack, eagle_eye, \
one_eyed_jacks, knock_early : bool
        House rules of the web game, by its option names, all off by default (docs/RULES.md, "House rules").
        ``discard_and_flip="endgame"`` is its ``flip_mode=endgame``.
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
    initial_flips: int = 2
    knock_penalty: bool = False
    knock_bonus: bool = False
    underdog_bonus: bool = False
    tied_shame: bool = False
    blackjack: bool = False
    super_kings: bool = False
    ten_penny: bool = False
    wolfpack: bool = False
    eagle_eye: bool = False
    one_eyed_jacks: bool = False
    knock_early: bool = False

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
        set_("initial_flips", _check_int("initial_flips", self.initial_flips, 0, 2))
        for name in HOUSE_FLAGS:
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False, got {value!r}")
            set_(name, bool(value))
        if self.initial_flips < 2 and self.opening_flips != "any":
            raise ValueError(
                f"opening_flips={self.opening_flips!r} says where the second opening card goes, but "
                f"initial_flips={self.initial_flips} turns up fewer than two; use opening_flips='any'"
            )
        if self.eagle_eye and self.jokers == "none":
            raise ValueError("eagle_eye sets the jokers' value, but the rules have no jokers; choose jokers "
                             "minus2, minus5, minus3 or zero (eagle_eye then makes a joker +2, a pair of them -4)")
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

    @property
    def n_codes(self) -> int:
        """Card codes in play: 15 with ``one_eyed_jacks`` (code 14 is a one-eyed jack), else the 14 ranks."""
        return NUM_CODES if self.one_eyed_jacks else NUM_RANKS

    def points(self) -> np.ndarray:
        """Point value of each card code (index 0 is the joker, 14 a one-eyed jack: 0), as an int32 array of length
        ``NUM_CODES`` (15)."""
        pts = np.array([0, 1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, 0], dtype=np.int32)
        if self.jokers != "none":
            pts[JOKER] = 2 if self.eagle_eye else _JOKER_VALUE[self.jokers]
        if self.jokers == "minus2":
            pts[TWO] = 2
        if self.super_kings:
            pts[KING] = -2
        if self.ten_penny:
            pts[10] = 1
        return pts

    def card_counts(self) -> np.ndarray:
        """Copies of each card code in the pack, as an int32 array of length ``NUM_CODES`` (15): four of each rank
        per deck, the jokers, and with ``one_eyed_jacks`` two of a deck's jacks as code 14 (none without it)."""
        counts = np.full(NUM_CODES, 4 * self.decks, dtype=np.int32)
        counts[0] = self.jokers_per_deck * self.decks
        counts[ONE_EYED_JACK] = 2 * self.decks if self.one_eyed_jacks else 0
        counts[JACK] -= counts[ONE_EYED_JACK]
        return counts

    def check_deck(self, deck) -> np.ndarray:
        """An explicit deck order (rank codes or card names such as ``"K"``, top card first) checked against the
        pack of these rules: the deck check of [`golfsim.game.game.Game`][], the one dealer that everything
        played a decision at a time goes through (the adapters of [`golfsim.interop`][] included).

        Returns
        -------
        numpy.ndarray
            The rank codes in the kernels' card type (``HID_DTYPE``).

        Raises
        ------
        ValueError
            Saying what is wrong: the number of cards, an entry that is not a card, or which ranks are off.
        """
        what = f"the deck must be the {self.n_cards} rank codes of the pack these rules use, top card first"
        codes = [parse_card(c) if isinstance(c, str) else c for c in np.asarray(deck, dtype=object).reshape(-1)]
        if np.ndim(deck) != 1 or len(codes) != self.n_cards:
            raise ValueError(f"{what}; got {len(codes)} cards, not all {self.n_cards} cards")
        if any(isinstance(c, (bool, np.bool_)) or not isinstance(c, (int, np.integer)) or not 0 <= c < self.n_codes
               for c in codes):
            raise ValueError(f"{what}; entries are rank codes 0..13 or card names (A, 2-10, J, Q, K, X), and with "
                             f"one_eyed_jacks 14 or J0 for a one-eyed jack")
        got = np.bincount(np.asarray(codes, dtype=np.int64), minlength=NUM_CODES)
        want = self.card_counts()
        if not np.array_equal(got, want):
            diff = ", ".join(f"{rank_name(r)}: {got[r]} instead of {want[r]}" for r in range(NUM_CODES)
                             if got[r] != want[r])
            raise ValueError(f"{what}: not the pack these rules use ({diff})")
        return np.asarray(codes, dtype=HID_DTYPE)

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

    def house_rules(self) -> dict:
        """The house options that are on (not at their default), e.g. ``{"super_kings": True}``."""
        default = Rules.__dataclass_fields__
        return {name: getattr(self, name) for name in HOUSE_OPTIONS if getattr(self, name) != default[name].default}

    def to_dict(self) -> dict:
        """Every option, for ``config.json``; house options only when on, so that the records (and the identities
        hashed from them) of rules without house rules are what they were before house rules existed."""
        values = asdict(self)
        for name in HOUSE_OPTIONS:
            del values[name]
        values.update(self.house_rules())
        return values

    # ---------------------------------------------------------------- packing for the kernels
    def pack(self) -> np.ndarray:
        """The rules as the int32 array every kernel takes (indices ``R_*`` in [`golfsim.core.spec`][])."""
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
        r[R_OFF_STOCK_KNOWN] = r[R_OFF_UNSEEN] + self.n_codes
        r[R_OFF_DISCARD] = r[R_OFF_STOCK_KNOWN] + self.n_codes
        r[R_PUB_SIZE] = r[R_OFF_DISCARD] + n
        r[R_HID_STOCK] = 6 * p
        r[R_HID_SIZE] = 6 * p + n + 1  # the last slot is the lazy shuffle's cursor
        r[R_POINTS : R_POINTS + NUM_CODES] = self.points()
        r[R_COUNTS : R_COUNTS + NUM_CODES] = self.card_counts()
        r[R_DECK_POINTS] = int(self.points() @ self.card_counts())
        r[R_INITIAL_FLIPS] = self.initial_flips
        r[R_KNOCK_PENALTY] = int(self.knock_penalty)
        r[R_KNOCK_BONUS] = int(self.knock_bonus)
        r[R_UNDERDOG] = int(self.underdog_bonus)
        r[R_TIED_SHAME] = int(self.tied_shame)
        r[R_BLACKJACK] = int(self.blackjack)
        r[R_WOLFPACK] = int(self.wolfpack)
        r[R_EAGLE_EYE] = int(self.eagle_eye)
        r[R_KNOCK_EARLY] = int(self.knock_early)
        r[R_CODES] = self.n_codes
        r[R_HOLE_RULES] = int(self.knock_penalty or self.knock_bonus or self.underdog_bonus or self.tied_shame
                              or self.blackjack)
        return r
