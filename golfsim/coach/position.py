"""A position written the way a person at the table sees it, and the engine state it stands for.

The notation
------------
Fields separated by ``;``, each ``name: value``; the player to move is ``me``, and the opponents follow in the
order they play after you (clockwise)::

    me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q

============  =========================================================================================
field         meaning
============  =========================================================================================
``me``        your six cards, top row then bottom row (``/`` or ``|`` between the rows, optional); ``?``
              for a face-down card. Positions (slots) 1-3 are the top row left to right, 4-6 the bottom
              row, so a column is a slot and the slot three after it.
``opp``       one opponent's six cards, the same way (face-up cards as they show, ``?`` face down); one
              ``opp`` field per opponent, in playing order. Their number sets the players.
``discard``   the discard pile from the bottom up: the **last card is the top**, the one you may take.
              List every card in the pile you remember (each is a card nobody can still draw).
``stock``     cards left in the stock, when you did not list the whole pile: the pile's cards you left out
              are then counted as unseen (as likely to be anywhere as a face-down card). Default: every
              card of the pack not in a layout, the listed pile or your hand.
``drawn``     the card you have just drawn from the stock: you are deciding where it goes.
``phase``     ``start`` (draw or take the discard; the default without ``drawn``), ``hold`` (the default
              with ``drawn``) or ``flip`` (you threw a draw away and may or must turn a card up:
              ``--discard-and-flip``; the card thrown is the top of the discard).
``hole``      this deal's number in the game, from 1 (default 1; ``--holes`` sets the game's length).
``totals``    game totals before this hole, yours first, then the opponents' (default all 0).
``turn``      turns played this deal (default: the number of cards in the discard pile).
============  =========================================================================================

Cards are ranks (suits matter only to one jack rule): ``A`` (or ``1``), ``2``-``10`` (or ``T``), ``J``, ``Q``,
``K``, ``X`` for a joker, as [`golfsim.core.cards.parse_card`][] reads them; a suit letter after the rank (``5H``,
``10S``, ``QD``) is allowed and ignored, but for the house rule ``one_eyed_jacks``, under which ``JH`` and ``JS``
(``J♥``, ``J♠``, or ``J0``) are one-eyed jacks, worth 0 (without it they are jacks). With ``end=one_last_turn`` an
opponent whose six cards are all face up has gone out, and you are taking one of the last turns.

The state
---------
[`Position.to_pub`][golfsim.coach.position.Position.to_pub] builds the engine's public state ([`golfsim.core.spec`][])
with you at seat 0 to move: ``unseen`` counts every card of the pack not face up in a layout, not in the listed discard
pile and not your drawn card; the stock is the rest of the pack (the pack less the six cards of each player, the discard
pile and the drawn card), or ``stock`` cards when given, the pile's unlisted cards then being among the unseen ones (a
search deals the face-down cards and the stock from them and leaves the rest out: an approximation that forgets those
cards were discarded; after a recycle they are missing from the new stock).
A position after a recycle of the stock cannot be written.
[`Position.from_pub`][golfsim.coach.position.Position.from_pub] reads a state back, for the player to move, and
[`Position.text`][golfsim.coach.position.Position.text] writes the notation.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from golfsim.core.cards import HIDDEN, JACK, NUM_CODES, ONE_EYED_JACK, parse_card, rank_name
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    ENDER,
    FINAL_LEFT,
    FIRST,
    FLIP_PHASE,
    HELD,
    HOLD,
    HOLE,
    LAST_ACTION,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPEN,
    OPEN_FIRST,
    PHASE,
    PLAYERS,
    PUB_DTYPE,
    R_OFF_DISCARD,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PUB_SIZE,
    RECYCLES,
    START,
    STOCK_N,
    THROW_DRAWN,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
)

PHASES = {"start": START, "hold": HOLD, "flip": FLIP_PHASE}
FIELDS = ("me", "opp", "discard", "stock", "drawn", "phase", "hole", "totals", "turn")
SUITS = "CDHS\u2663\u2666\u2665\u2660"
ONE_EYED_TOKENS = ("J0", "JH", "JS", "J\u2665", "J\u2660")
"""How a one-eyed jack is written: the jacks of hearts and of spades (or ``J0``)."""


class PositionError(ValueError):
    """A position that cannot be read or cannot happen; the message says what is wrong."""


def parse_card_token(token: str, where: str) -> int:
    """One card (rank, optionally followed by a suit letter that is ignored); ``where`` names the field."""
    text = token.strip().upper()
    if text in ONE_EYED_TOKENS:
        return ONE_EYED_JACK  # a plain jack unless the rules play one_eyed_jacks (Position.to_pub)
    if len(text) >= 2 and text[-1] in SUITS:
        text = text[:-1]
    try:
        return parse_card(text)
    except ValueError:
        raise PositionError(f"{where}: {token!r} is not a card; use A, 2-10 (or T), J, Q, K, X for a joker "
                            f"(a suit letter after the rank is allowed: 5H)") from None


def _layout(text: str, where: str) -> list[int]:
    tokens = text.replace("/", " ").replace("|", " ").split()
    if len(tokens) != 6:
        raise PositionError(f"{where}: a layout has 6 cards (3 over 3, ? for face down), got {len(tokens)} in "
                            f"{text.strip()!r}")
    return [HIDDEN if t == "?" else parse_card_token(t, where) for t in tokens]


def _whole(text: str, where: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise PositionError(f"{where}: expected a whole number, got {text.strip()!r}") from None


def _layout_text(cards) -> str:
    names = [rank_name(int(c)) for c in cards]
    return f"{' '.join(names[:3])} / {' '.join(names[3:])}"


@dataclass
class Position:
    """One decision of the player to move, as the notation writes it (see the module docstring).

    Attributes
    ----------
    me, opponents : list of int, list of list of int
        Six rank codes each, ``HIDDEN`` (-1) face down; opponents in playing order after you.
    discard : list of int
        The discard pile, bottom first (the last is the top).
    drawn : int
        The card drawn from the stock, or -1.
    phase : str
        ``"start"``, ``"hold"`` or ``"flip"``.
    hole : int
        The hole, from 1.
    totals : list of int
        Game totals before this hole, yours first.
    turn : int or None
        Turns played this deal; None for the default (the size of the discard pile).
    stock : int or None
        Cards left in the stock when the pile is not listed in full; None: the rest of the pack.
    """

    me: list[int]
    opponents: list[list[int]]
    discard: list[int]
    drawn: int = -1
    phase: str = "start"
    hole: int = 1
    totals: list[int] = field(default_factory=list)
    turn: int | None = None
    stock: int | None = None

    @property
    def players(self) -> int:
        """Players at the table: you and the opponents."""
        return 1 + len(self.opponents)

    # ---------------------------------------------------------------- reading
    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the notation; raises [`PositionError`][golfsim.coach.position.PositionError] with one line saying what
        is wrong."""
        if not isinstance(text, str) or not text.strip():
            raise PositionError("the position is empty; write e.g. 'me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; "
                                "discard: 9 3'")
        seen: dict[str, str] = {}
        opponents = []
        for part in text.split(";"):
            if not part.strip():
                continue
            name, colon, value = part.partition(":")
            name = name.strip().lower()
            if not colon or name not in FIELDS:
                raise PositionError(f"{part.strip()!r} is not a field; fields are 'name: value' with name one of "
                                    f"{', '.join(FIELDS)}, separated by ';'")
            if name == "opp":
                opponents.append(_layout(value, f"opp {len(opponents) + 1}"))
                continue
            if name in seen:
                raise PositionError(f"the field {name!r} is given twice")
            seen[name] = value
        if "me" not in seen:
            raise PositionError("the position needs your layout, e.g. 'me: 5 ? ? / K ? 2'")
        if not opponents:
            raise PositionError("the position needs at least one opponent, e.g. 'opp: ? 7 ? / ? ? ?'")
        if len(opponents) + 1 > MAX_PLAYERS:
            raise PositionError(f"{len(opponents)} opponents make {len(opponents) + 1} players; the rules allow "
                                f"{MIN_PLAYERS} to {MAX_PLAYERS} (at most {MAX_PLAYERS - 1} opponents)")
        if "discard" not in seen or not seen["discard"].split():
            raise PositionError("the position needs the discard pile (bottom first, the top card last), "
                                "e.g. 'discard: 9 3'")
        discard = [parse_card_token(t, "discard") for t in seen["discard"].split()]
        drawn = -1
        if "drawn" in seen:
            tokens = seen["drawn"].split()
            if len(tokens) != 1:
                raise PositionError(f"drawn: one card, got {seen['drawn'].strip()!r}")
            drawn = parse_card_token(tokens[0], "drawn")
        phase = seen.get("phase", "hold" if drawn >= 0 else "start").strip().lower()
        if phase not in PHASES:
            raise PositionError(f"phase: {phase!r} is not a phase; use start, hold or flip")
        totals = []
        if "totals" in seen:
            totals = [_whole(t, "totals") for t in seen["totals"].replace(",", " ").split()]
        return cls(me=_layout(seen["me"], "me"), opponents=opponents, discard=discard, drawn=drawn, phase=phase,
                   hole=_whole(seen["hole"], "hole") if "hole" in seen else 1, totals=totals,
                   turn=_whole(seen["turn"], "turn") if "turn" in seen else None,
                   stock=_whole(seen["stock"], "stock") if "stock" in seen else None)

    # ---------------------------------------------------------------- checking and the engine state
    def check(self, rules: Rules) -> None:
        """Raise [`PositionError`][golfsim.coach.position.PositionError] if this position cannot happen under
        ``rules``."""
        if self.read_under(rules) is not self:
            return self.read_under(rules).check(rules)
        players = self.players
        if players != rules.players:
            raise PositionError(f"the position has {players} players but the rules {rules.players}")
        if self.phase == "hold" and self.drawn < 0:
            raise PositionError("phase hold: say which card you drew, e.g. 'drawn: Q'")
        if self.drawn >= 0 and self.phase != "hold":
            raise PositionError(f"drawn: a drawn card is decided in the hold phase, not in the {self.phase} phase "
                                "(drop 'phase' or the drawn card)")
        if self.phase == "flip" and rules.discard_and_flip == "off":
            raise PositionError("phase flip: there is no flip after a throw unless --discard-and-flip is may or must")
        if not 1 <= self.hole <= rules.holes:
            raise PositionError(f"hole: {self.hole} is not a hole of a {rules.holes}-hole game (from 1 to "
                                f"{rules.holes}; --holes sets the game's length)")
        if self.totals and len(self.totals) != players:
            raise PositionError(f"totals: {players} numbers (yours first, then each opponent's), got "
                                f"{len(self.totals)}")
        if any(not -(2**31) <= t < 2**31 for t in self.totals):
            raise PositionError(f"totals: each must be from {-(2**31)} to {2**31 - 1} (the engine keeps int32 "
                                f"totals), got {' '.join(str(t) for t in self.totals)}")
        if self.turn is not None and not 1 <= self.turn < rules.turn_cap:
            raise PositionError(f"turn: {self.turn} must be from 1 to {rules.turn_cap - 1} (the turn cap is "
                                f"{rules.turn_cap})")
        if all(c >= 0 for c in self.me):
            raise PositionError("me: your six cards are all face up, so the deal is over (you went out, or the "
                                "last turns are done); nothing to decide")
        if self.phase == "flip" and sum(c < 0 for c in self.me) == 0:
            raise PositionError("phase flip: you have no face-down card to flip")
        out = [i for i, layout in enumerate(self.opponents) if all(c >= 0 for c in layout)]
        if out and rules.end == "immediate":
            raise PositionError(f"opp {out[0] + 1}: all six cards face up: with end=immediate the deal is over "
                                "(--end one-last-turn if you are taking a last turn)")
        counts = rules.card_counts()
        used = np.zeros(NUM_CODES, dtype=np.int64)
        cards = [*self.me, *(c for layout in self.opponents for c in layout), *self.discard, self.drawn]
        for c in cards:
            if c >= 0:
                used[c] += 1
        for r in range(NUM_CODES):
            if used[r] > counts[r]:
                held = f"{rules.decks} deck(s)" + ("" if r else f" with jokers={rules.jokers}")
                raise PositionError(f"{used[r]} cards of rank {rank_name(r)} are showing, but {held} hold only "
                                    f"{counts[r]}")
        stock = self.stock_count(rules)
        if self.stock is not None and not 0 <= self.stock <= self.full_stock(rules):
            raise PositionError(f"stock: {self.stock} cards cannot be left; the pack less the layouts, the listed "
                                f"pile{' and the drawn card' if self.drawn >= 0 else ''} leaves "
                                f"{self.full_stock(rules)}")
        if stock < 0:
            raise PositionError(f"too many cards: {6 * players} in the layouts and {len(self.discard)} in the "
                                f"discard pile{' and the drawn one' if self.drawn >= 0 else ''} are more than the "
                                f"{rules.n_cards} of the pack")
        if stock == 0 and self.phase == "start":
            raise PositionError("the stock is empty at the start of a turn, so it would be recycled from the "
                                "discard pile first; positions after a recycle cannot be written")

    def full_stock(self, rules: Rules) -> int:
        """The pack less every layout, the listed discard pile and the drawn card."""
        return rules.n_cards - 6 * self.players - len(self.discard) - (1 if self.drawn >= 0 else 0)

    def stock_count(self, rules: Rules) -> int:
        """Cards left in the stock: ``stock`` when given, else
        [`full_stock`][golfsim.coach.position.Position.full_stock]."""
        return self.full_stock(rules) if self.stock is None else self.stock

    def read_under(self, rules: Rules) -> Position:
        """This position as ``rules`` read it: without ``one_eyed_jacks`` a one-eyed jack is a jack like the others."""
        cards = [*self.me, *(c for layout in self.opponents for c in layout), *self.discard, self.drawn]
        if rules.one_eyed_jacks or ONE_EYED_JACK not in cards:
            return self

        def jacks(cards):
            return [JACK if c == ONE_EYED_JACK else c for c in cards]

        return replace(self, me=jacks(self.me), opponents=[jacks(layout) for layout in self.opponents],
                       discard=jacks(self.discard), drawn=jacks([self.drawn])[0])

    def to_pub(self, rules: Rules) -> np.ndarray:
        """The engine's public state of this position (you at seat 0, to move); checks it first."""
        if self.read_under(rules) is not self:
            return self.read_under(rules).to_pub(rules)
        self.check(rules)
        packed = rules.pack()
        players = self.players
        pub = np.zeros(int(packed[R_PUB_SIZE]), dtype=PUB_DTYPE)
        hole = self.hole - 1
        pub[PHASE] = PHASES[self.phase]
        pub[CURRENT] = 0
        pub[HELD] = self.drawn
        pub[TURN] = self.turn if self.turn is not None else len(self.discard)
        pub[STOCK_N] = self.stock_count(rules)
        pub[DISCARD_N] = len(self.discard)
        pub[ENDER] = -1
        pub[FINAL_LEFT] = -1
        out = [i + 1 for i, layout in enumerate(self.opponents) if all(c >= 0 for c in layout)]
        if out:  # the first all-face-up opponent after you went out; the others played their last turn since
            pub[ENDER] = out[0]
            pub[FINAL_LEFT] = out[0]  # you and those still to play before the player who went out
        pub[FIRST] = hole % players
        pub[HOLE] = hole
        pub[PLAYERS] = players
        pub[OPEN_FIRST] = -1
        pub[LAST_ACTION] = THROW_DRAWN if self.phase == "flip" else -1
        totals = self.totals or [0] * players
        pub[packed[R_OFF_TOTALS]: packed[R_OFF_TOTALS] + players] = totals
        ov = int(packed[R_OFF_VIEW])
        pub[ov: ov + 6 * players] = [*self.me, *(c for layout in self.opponents for c in layout)]
        od = int(packed[R_OFF_DISCARD])
        pub[od: od + len(self.discard)] = self.discard
        unseen = rules.card_counts().astype(np.int64)
        for c in [*pub[ov: ov + 6 * players], *self.discard, self.drawn]:
            if c >= 0:
                unseen[c] -= 1
        ou = int(packed[R_OFF_UNSEEN])
        pub[ou: ou + rules.n_codes] = unseen[:rules.n_codes]
        pub[UNSEEN_CARDS] = int(unseen.sum())
        pub[UNSEEN_POINTS] = int(unseen @ rules.points())
        return pub

    @classmethod
    def from_pub(cls, pub: np.ndarray, rules: Rules) -> Position:
        """The position of the player to move in ``pub`` (opponents in playing order after them)."""
        phase = int(pub[PHASE])
        if phase in (OPEN, DONE):
            raise PositionError("only positions from the first turn on are written (not the opening flips or a "
                                "finished deal)")
        if int(pub[RECYCLES]) > 0:
            raise PositionError("positions after a recycle of the stock cannot be written")
        packed = rules.pack()
        players = rules.players
        me = int(pub[CURRENT])
        ov = int(packed[R_OFF_VIEW])
        seats = [(me + i) % players for i in range(players)]
        layouts = [[int(c) for c in pub[ov + 6 * s: ov + 6 * s + 6]] for s in seats]
        od = int(packed[R_OFF_DISCARD])
        ot = int(packed[R_OFF_TOTALS])
        where = cls(me=layouts[0], opponents=layouts[1:],
                    discard=[int(c) for c in pub[od: od + int(pub[DISCARD_N])]],
                    drawn=int(pub[HELD]) if phase == HOLD else -1,
                    phase={v: k for k, v in PHASES.items()}[phase], hole=int(pub[HOLE]) + 1,
                    totals=[int(pub[ot + s]) for s in seats], turn=int(pub[TURN]))
        if int(pub[STOCK_N]) != where.full_stock(rules):
            where.stock = int(pub[STOCK_N])
        return where

    # ---------------------------------------------------------------- writing
    def _repr_svg_(self) -> str:
        """A picture of the position in Jupyter, under the default rules for its players (`golfsim.view.svg`)."""
        from golfsim.view.svg import from_position

        return from_position(self).to_svg()

    def text(self) -> str:
        """The notation of this position (fields at their defaults are left out)."""
        parts = [f"me: {_layout_text(self.me)}"]
        parts += [f"opp: {_layout_text(layout)}" for layout in self.opponents]
        parts.append(f"discard: {' '.join(rank_name(c) for c in self.discard)}")
        if self.stock is not None:
            parts.append(f"stock: {self.stock}")
        if self.drawn >= 0:
            parts.append(f"drawn: {rank_name(self.drawn)}")
        if self.phase == "flip":
            parts.append("phase: flip")
        if self.hole != 1:
            parts.append(f"hole: {self.hole}")
        if self.totals and any(self.totals):
            parts.append(f"totals: {' '.join(str(t) for t in self.totals)}")
        if self.turn is not None and self.turn != len(self.discard):
            parts.append(f"turn: {self.turn}")
        return "; ".join(parts)


def parse_position(text: str, rules: Rules) -> np.ndarray:
    """The engine's public state of the position written ``text`` under ``rules`` (see the module docstring)."""
    return Position.parse(text).to_pub(rules)
