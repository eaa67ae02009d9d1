"""Hand-built positions for agent tests: a valid ``(pub, hid)`` pair written as a few lines of text, and the
decision an agent takes in it.

A layout is written like ``"Q 4 ? / ?K 4 2"``: top row, then bottom row (position ``i + 3`` is below ``i``). A
plain card is face up, ``?`` is a face-down card filled from the rest of the pack, and ``?K`` is a face-down card
whose true rank (unknown to every agent) is a King. For example::

    pos = position(["Q 4 ? / ? 3 ?", "K K ? / ? ? ?"], discard="Q")
    pos.decide("pair-builder")          # -> TAKE_DISCARD + 3: the Queen goes under the Queen
    pos.name(pos.decide("greedy"))      # -> "take discard to 3"

The deal itself is made by the engine (:func:`golfsim.core.engine.deal_from_deck` from a deck order built from the
text), the face-up cards and the discard pile are then written into the public fields as :mod:`golfsim.core.rules`
describes them (with ``unseen`` reduced for every card that is now seen), and a held card or a flip after a throw
is reached by playing the draw (and the throw) through :func:`golfsim.core.engine.apply_action`. So every position
satisfies the engine's own bookkeeping: each card of the pack is in exactly one place, and ``unseen`` counts exactly
the face-down and never-drawn cards.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

import numpy as np

from golfsim.agents import parse_agent
from golfsim.agents.dispatch import act
from golfsim.core.cards import parse_card
from golfsim.core.engine import apply_action, deal_from_deck, is_legal
from golfsim.core.rules import (
    R_CODES,
    R_HID_SIZE,
    R_HID_STOCK,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_POINTS,
    R_PUB_SIZE,
    Rules,
)
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DRAW_STOCK,
    ENDER,
    FINAL_LEFT,
    OPEN,
    PHASE,
    RECYCLES,
    START,
    STOCK_N,
    THROW_DRAWN,
    TURN,
    UNSEEN_CARDS,
    UNSEEN_POINTS,
    action_name,
)

HIDDEN_TOKEN = "?"


@dataclass
class Position:
    """A public state ``pub`` and the hidden state ``hid`` behind it, under ``rules``."""

    rules: Rules
    pub: np.ndarray
    hid: np.ndarray

    @property
    def packed(self) -> np.ndarray:
        return self.rules.pack()

    @property
    def player(self) -> int:
        return int(self.pub[CURRENT])

    def decide(self, agent: str) -> int:
        """The action ``agent`` (e.g. ``"ev"`` or ``"pair-builder:keep_threshold=8"``) takes here; it is checked
        to be legal."""
        choice = parse_agent(agent)
        agent_rng = np.arange(1, self.rules.players + 1, dtype=np.uint64)
        pub = self.pub.copy()
        action = act(choice, pub, self.packed, agent_rng, self.player)
        assert np.array_equal(pub, self.pub), f"{agent} wrote into the public state"
        assert is_legal(self.pub, self.packed, action), f"{agent} chose the illegal {action_name(action)}"
        return action

    def name(self, action: int) -> str:
        return action_name(action)

    def view(self, player: int) -> list[int]:
        """Ranks at the six positions of ``player`` (-1 face down)."""
        base = int(self.packed[R_OFF_VIEW]) + 6 * player
        return [int(x) for x in self.pub[base:base + 6]]

    def play(self, action: int) -> Position:
        """The position after ``action`` (played by the engine on copies)."""
        assert is_legal(self.pub, self.packed, action), action_name(action)
        after = replace(self, pub=self.pub.copy(), hid=self.hid.copy())
        apply_action(after.pub, after.hid, after.packed, np.ones(1, dtype=np.uint64), action)
        return after


def _parse_slot(token: str) -> tuple[bool, int | None]:
    """``(face_up, rank)``: rank ``None`` for a plain ``?``."""
    if token.startswith(HIDDEN_TOKEN):
        rest = token[len(HIDDEN_TOKEN):]
        return False, (parse_card(rest) if rest else None)
    return True, parse_card(token)


def _parse_layout(text: str) -> list[tuple[bool, int | None]]:
    rows = text.split("/")
    assert len(rows) == 2, f"a layout is 'top row / bottom row', got {text!r}"
    slots = [_parse_slot(t) for row in rows for t in row.split()]
    assert len(slots) == 6, f"a layout has six cards, got {text!r}"
    return slots


def position(layouts, *, rules: Rules | None = None, discard="5", pile=(), current=0, held=None, thrown=None,
             stock=(), stock_only=False, recycled=False, totals=None, hole=0, turn=10, ender=None,
             final_left=None) -> Position:
    """Build a position.

    Parameters
    ----------
    layouts : list of str
        One layout per player, in seat order (see the module docstring).
    rules : Rules, optional
        Default: the published game for ``len(layouts)`` players.
    discard : str
        The top discard.
    pile : sequence of str
        Cards under the top discard, bottom first (they are seen, so they leave ``unseen``).
    current : int
        The player to move.
    held : str, optional
        A stock card the current player has just drawn (phase HOLD).
    thrown : str, optional
        A stock card the current player has just drawn and thrown away, so that the flip of ``discard_and_flip``
        is due (phase FLIP); ``discard`` is then the card under it.
    stock : sequence of str
        The top cards of the stock, top first; the rest of the pack follows in rank order.
    stock_only : bool
        The stock is exactly ``stock``: the rest of the pack lies in the discard pile, under ``pile``.
    recycled : bool
        The stock is a recycled one: its composition is known (``stock_known``), and ``RECYCLES`` is 1.
    totals : sequence of int, optional
        Game totals before this hole.
    hole, turn : int
        ``HOLE`` and ``TURN``.
    ender, final_left : int, optional
        For the one-last-turn circuit: who went out, and how many final turns are left (this one included).
    """
    rules = Rules(players=len(layouts)) if rules is None else rules
    players = rules.players
    assert len(layouts) == players, f"{len(layouts)} layouts for {players} players"
    packed = rules.pack()
    slots = [_parse_layout(text) for text in layouts]
    top_cards = [parse_card(c) for c in stock]
    if held is not None:
        top_cards = [parse_card(held)] + top_cards
    if thrown is not None:
        assert held is None, "a position has a held card or a thrown one, not both"
        top_cards = [parse_card(thrown)] + top_cards
    pile_cards = [parse_card(c) for c in pile]

    # the pack, less every card the text names
    pack = Counter({rank: int(n) for rank, n in enumerate(rules.card_counts())})
    named = [rank for layout in slots for _, rank in layout if rank is not None]
    named += [parse_card(discard)] + top_cards + pile_cards
    pack.subtract(named)
    short = {rank: -n for rank, n in pack.items() if n < 0}
    assert not short, f"more copies than the pack holds of ranks {short}"
    rest = sorted(pack.elements())
    filler = iter(rest)
    for layout in slots:
        for k, (up, rank) in enumerate(layout):
            if rank is None:
                layout[k] = (up, next(filler))
    remaining = list(filler)
    if stock_only:
        pile_cards = remaining + pile_cards
        remaining = []

    # deal the layouts, the top discard and the stock from an explicit deck order
    first = hole % players
    dealt = [slots[(first + i) % players][i // players][1] for i in range(6 * players)]
    deck = np.array(dealt + [parse_card(discard)] + top_cards + remaining + pile_cards, dtype=np.int16)
    assert deck.size == rules.n_cards
    pub = np.zeros(packed[R_PUB_SIZE], dtype=np.int32)
    hid = np.zeros(packed[R_HID_SIZE], dtype=np.int16)
    totals_arr = np.asarray(totals if totals is not None else [0] * players, dtype=np.int32)
    deal_from_deck(pub, hid, packed, np.ones(1, dtype=np.uint64), deck, hole, first, totals_arr)

    # the pile cards sit at the bottom of the stock: move them onto the discard pile, under the top discard
    hs, od, ou = int(packed[R_HID_STOCK]), int(packed[R_OFF_DISCARD]), int(packed[R_OFF_UNSEEN])
    m = len(pile_cards)
    if m:
        n_stock = int(pub[STOCK_N]) - m
        hid[hs:hs + n_stock] = hid[hs + m:hs + m + n_stock].copy()
        pub[STOCK_N] = n_stock
        top = int(pub[od])
        for i, card in enumerate(pile_cards):
            pub[od + i] = card
            pub[ou + card] -= 1
        pub[od + m] = top
        pub[DISCARD_N] = m + 1

    # turn the face-up cards up
    ov = int(packed[R_OFF_VIEW])
    for p, layout in enumerate(slots):
        for k, (up, rank) in enumerate(layout):
            if up:
                pub[ov + 6 * p + k] = rank
                pub[ou + rank] -= 1

    if recycled:
        ok = int(packed[R_OFF_STOCK_KNOWN])
        for card in hid[hs:hs + int(pub[STOCK_N])]:
            pub[ok + card] += 1
            pub[ou + card] -= 1
        pub[RECYCLES] = 1

    # the running totals of the unseen cards follow the counts (the engine keeps them so; ev and learned read them)
    n_codes = rules.n_codes  # 15 with one_eyed_jacks (code 14), else 14
    pub[UNSEEN_CARDS] = int(pub[ou:ou + n_codes].sum())
    pub[UNSEEN_POINTS] = int(np.dot(pub[ou:ou + n_codes], packed[R_POINTS:R_POINTS + n_codes]))
    pub[PHASE] = START
    pub[CURRENT] = current
    pub[TURN] = turn
    if ender is not None:
        pub[ENDER] = ender
        pub[FINAL_LEFT] = final_left if final_left is not None else 1
    pos = Position(rules, pub, hid)
    if held is not None:
        pos = pos.play(DRAW_STOCK)
    if thrown is not None:
        pos = pos.play(DRAW_STOCK).play(THROW_DRAWN)
    check(pos)
    return pos


def opening(rules: Rules, first_flip: int | None = None) -> Position:
    """The opening phase of a fresh deal: player 0 turns up two cards (``first_flip`` already turned up, if given)."""
    packed = rules.pack()
    pub = np.zeros(packed[R_PUB_SIZE], dtype=np.int32)
    hid = np.zeros(packed[R_HID_SIZE], dtype=np.int16)
    deck = np.array(sorted(Counter({r: int(n) for r, n in enumerate(rules.card_counts())}).elements()),
                    dtype=np.int16)
    deal_from_deck(pub, hid, packed, np.ones(1, dtype=np.uint64), deck, 0, 0, np.zeros(rules.players, np.int32))
    pos = Position(rules, pub, hid)
    assert pub[PHASE] == OPEN
    if first_flip is not None:
        pos = pos.play(20 + first_flip)
    return pos


def check(pos: Position) -> None:
    """The bookkeeping every position must satisfy: each card of the pack in one place, ``unseen`` exact."""
    packed, pub, hid = pos.packed, pos.pub, pos.hid
    players = pos.rules.players
    ov, ou, ok, od = (int(packed[i]) for i in (R_OFF_VIEW, R_OFF_UNSEEN, R_OFF_STOCK_KNOWN, R_OFF_DISCARD))
    hs = int(packed[R_HID_STOCK])
    stock = [int(c) for c in hid[hs:hs + int(pub[STOCK_N])]]
    layouts = [int(c) for c in hid[:6 * players]]
    discard = [int(c) for c in pub[od:od + int(pub[DISCARD_N])]]
    held = [int(pub[2])] if pub[2] >= 0 else []
    everything = Counter(stock + layouts + discard + held)
    assert everything == Counter({r: int(n) for r, n in enumerate(pos.rules.card_counts()) if n})
    face_down = [layouts[i] for i in range(6 * players) if pub[ov + i] < 0]
    for i in range(6 * players):
        if pub[ov + i] >= 0:
            assert pub[ov + i] == layouts[i]
    never_seen = Counter(face_down + ([] if pub[RECYCLES] else stock))
    codes = int(packed[R_CODES])
    assert [int(pub[ou + r]) for r in range(codes)] == [never_seen[r] for r in range(codes)]
    assert pub[UNSEEN_CARDS] == sum(never_seen.values())
    assert pub[UNSEEN_POINTS] == sum(int(packed[R_POINTS + r]) * n for r, n in never_seen.items())
    known = Counter(stock if pub[RECYCLES] else [])
    assert [int(pub[ok + r]) for r in range(codes)] == [known[r] for r in range(codes)]
