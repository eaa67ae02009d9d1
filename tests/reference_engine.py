"""A slow, plain-Python reference engine for one deal of six-card Golf.

This module exists to cross-check the compiled engine: it is written independently from the rules contract
(``shared/RULES.md``) and the specification in the docstring of ``golfsim/core/rules.py``,
for clarity rather than speed.
The only thing it takes from ``golfsim`` is a ``Rules`` object, read as a plain bag of options (``players``, ``decks``,
``jokers``, ``opening_flips``, ``reveal_instead_of_draw``, ``discard_and_flip``, ``end``, ``twos_pair``,
``four_of_a_kind_bonus``, ``turn_cap`` and the house rules ``initial_flips``, ``knock_penalty``, ``knock_bonus``,
``underdog_bonus``, ``tied_shame``, ``blackjack``, ``super_kings``, ``ten_penny``, ``wolfpack``, ``eagle_eye``,
``one_eyed_jacks``, ``knock_early``); points and the pack are worked out here from those options. The house rules
are written from the web game's rules document and code (adlee-was-taken/golfgame, ``server/RULES.md``,
``server/game.py``) as docs/RULES.md "House rules" retells them, not from golfsim's engine.

Cards are rank codes: 0 joker, 1 ace, 2..10 pips, 11 jack, 12 queen, 13 king; with ``one_eyed_jacks`` the jacks of
hearts and spades are code 14 (two per deck, the other two jacks stay 11): worth 0, but a jack when ranks are
compared (a column of a 14 and an 11 is a pair of jacks). A layout is six codes; positions 0, 1, 2
are the top row and 3, 4, 5 the bottom row, so column ``i`` holds positions ``i`` and ``i + 3``.

Actions (one flat space of 28 ids):

* ``0..5``   take the top discard to position k (START)
* ``6``      draw the top stock card (START -> HOLD)
* ``7..12``  reveal face-down position k instead of drawing (START, only with ``reveal_instead_of_draw``)
* ``13..18`` place the drawn card at position k (HOLD)
* ``19``     throw the drawn card on the discard (HOLD; then FLIP with ``discard_and_flip`` may/must)
* ``20..25`` flip face-down position k (OPEN: two per player in seat order; FLIP: after a throw)
* ``26``     pass (FLIP, only with ``discard_and_flip`` "may" or "endgame")
* ``27``     knock early: turn up every face-down card (START, only with ``knock_early`` and 1 or 2 face down)

Example::

    deal = ReferenceDeal(Rules(players=2), deck, first_player=0, reshuffle=my_shuffle)
    while not deal.done:
        deal.step(choose(deal.legal_actions()))
    deal.scores()
"""

from __future__ import annotations

import operator
from collections import Counter
from dataclasses import dataclass

# ---------------------------------------------------------------- card codes, actions, phases
JOKER, ACE, TWO, JACK, QUEEN, KING = 0, 1, 2, 11, 12, 13
NUM_RANKS = 14
ONE_EYED_JACK = 14  # the jack of hearts or of spades, only with one_eyed_jacks

TAKE_DISCARD = 0  # + position
DRAW_STOCK = 6
REVEAL = 7  # + position
PLACE_DRAWN = 13  # + position
THROW_DRAWN = 19
FLIP = 20  # + position
PASS = 26
KNOCK = 27

OPEN, START, HOLD, FLIP_PHASE, DONE = 0, 1, 2, 3, 4
PHASE_NAMES = {OPEN: "open", START: "start", HOLD: "hold", FLIP_PHASE: "flip", DONE: "done"}

RUNNING, WENT_OUT, STOCK_EXHAUSTED, TRUNCATED = 0, 1, 2, 3

POSITIONS = range(6)
JOKER_POINTS = {"minus2": -2, "minus5": -5, "minus3": -3, "zero": 0}


# ---------------------------------------------------------------- points, pack, scoring
def rank(card: int) -> int:
    """The rank a card code stands for: a one-eyed jack is a jack."""
    return JACK if card == ONE_EYED_JACK else card


def card_codes(rules) -> range:
    """The card codes of the pack: 0..13, and 14 with ``one_eyed_jacks``."""
    return range(NUM_RANKS + 1 if rules.one_eyed_jacks else NUM_RANKS)


def card_points(rules) -> dict[int, int]:
    """Points of every card code (the joker's entry is 0 when the pack has no jokers)."""
    points = {ACE: 1, TWO: -2, JACK: 10, QUEEN: 10, KING: 0}
    for pips in range(3, 11):
        points[pips] = pips
    points[JOKER] = JOKER_POINTS.get(rules.jokers, 0)
    if rules.jokers == "minus2":
        points[TWO] = 2  # the Pagat variant: jokers take the negative value, twos turn positive
    if rules.eagle_eye:
        points[JOKER] = 2  # a lone joker costs; a pair of them is worth -4 (column_scores)
    if rules.super_kings:
        points[KING] = -2
    if rules.ten_penny:
        points[10] = 1
    if rules.one_eyed_jacks:
        points[ONE_EYED_JACK] = 0
    return dict(sorted(points.items()))


def deck_composition(rules) -> dict[int, int]:
    """Copies of every card code in the pack: four per deck, plus two jokers per deck when jokers are in; with
    ``one_eyed_jacks`` two of each deck's four jacks are one-eyed."""
    copies = {code: 4 * rules.decks for code in range(1, NUM_RANKS)}
    copies[JOKER] = 2 * rules.decks if rules.jokers != "none" else 0
    if rules.one_eyed_jacks:
        copies[JACK] = copies[ONE_EYED_JACK] = 2 * rules.decks
    return dict(sorted(copies.items()))


def pack_size(rules) -> int:
    """Number of cards in the pack."""
    return sum(deck_composition(rules).values())


def _check_layout(cards, rules) -> list[int]:
    cards = [operator.index(card) for card in cards]
    if len(cards) != 6:
        raise ValueError(f"a layout has six cards, got {len(cards)}: {cards}")
    for card in cards:
        if card not in card_codes(rules):
            raise ValueError(f"{card} is not a rank code (0 joker .. 13 king; 14, a one-eyed jack, only with "
                             f"one_eyed_jacks)")
    return cards


def column_scores(cards, rules) -> list[int]:
    """Score of each column (top card at position i, bottom card at i + 3); no four-of-a-kind bonus."""
    cards = _check_layout(cards, rules)
    points = card_points(rules)
    scores = []
    for column in range(3):
        top, bottom = cards[column], cards[column + 3]
        if rank(top) != rank(bottom):
            scores.append(points[top] + points[bottom])
        elif top == TWO and rules.twos_pair == "keep_negative":
            scores.append(2 * points[TWO])
        elif top == JOKER and rules.eagle_eye:
            scores.append(-4)
        else:
            scores.append(0)  # a pair of equal ranks cancels
    return scores


def score_layout(cards, rules) -> int:
    """Deal score of a fully known layout: the three columns, plus the bonus once per rank paired in 2+ columns."""
    cards = _check_layout(cards, rules)
    total = sum(column_scores(cards, rules))
    paired_columns = Counter(rank(cards[column]) for column in range(3)
                             if rank(cards[column]) == rank(cards[column + 3]))
    for columns in paired_columns.values():  # how many columns each paired rank fills
        if columns >= 2:
            total += rules.four_of_a_kind_bonus
    if rules.wolfpack and paired_columns[JACK] >= 2:  # all four jacks as two column pairs; stacks with the above
        total -= 20
    return total


def hole_scores(layout_scores, ender, rules) -> list[int]:
    """The hole's scores from each layout's score and who went out (-1 for nobody), after the house rules that compare
    the table's scores, one after another in the web game's order."""
    scores = list(layout_scores)
    if rules.blackjack:
        scores = [0 if s == 21 else s for s in scores]
    if ender >= 0 and rules.knock_penalty and scores[ender] > min(scores):
        scores[ender] += 10
    if ender >= 0 and rules.knock_bonus:
        scores[ender] -= 5
    if rules.underdog_bonus:
        lowest = min(scores)
        scores = [s - 3 if s == lowest else s for s in scores]
    if rules.tied_shame:
        how_many = Counter(scores)
        scores = [s + 5 if how_many[s] > 1 else s for s in scores]
    return scores


# ---------------------------------------------------------------- one deal
@dataclass
class Seat:
    """One player's six cards (true ranks) and which of them are face up."""

    cards: list[int]
    face_up: list[bool]

    def face_down_positions(self) -> list[int]:
        return [k for k in POSITIONS if not self.face_up[k]]

    def all_face_up(self) -> bool:
        return all(self.face_up)


class ReferenceDeal:
    """One deal played action by action, from a given deck order and a given reshuffle function."""

    def __init__(self, rules, deck, first_player, reshuffle):
        """Deal ``deck`` (the whole pack, top card first) and start the opening flips.

        Card i of the first 6P goes to player (first_player + i) % P at position i // P, the next card starts the
        discard pile, the rest is the stock (top first). ``reshuffle(cards_bottom_first)`` is called whenever the
        stock has to be rebuilt from the discards under the top one; it must return the same cards as the new stock,
        top card first.
        """
        self.rules = rules
        self.players = rules.players
        self.reshuffle = reshuffle
        deck = [operator.index(card) for card in deck]
        composition = deck_composition(rules)
        if len(deck) != pack_size(rules):
            raise ValueError(f"the deck must have {pack_size(rules)} cards for these rules, got {len(deck)}")
        counts = Counter(deck)
        for code in sorted(counts.keys() | composition.keys()):
            if counts.get(code, 0) != composition.get(code, 0):
                raise ValueError(f"the deck is not a permutation of the pack: it has {counts.get(code, 0)} "
                                 f"card(s) of card code {code}, the pack has {composition.get(code, 0)}")
        first_player = operator.index(first_player)
        if not 0 <= first_player < self.players:
            raise ValueError(f"first_player must be 0..{self.players - 1}, got {first_player}")

        n_dealt = 6 * self.players
        self.seats = [Seat(cards=[-1] * 6, face_up=[False] * 6) for _ in range(self.players)]
        for i in range(n_dealt):
            self.seats[(first_player + i) % self.players].cards[i // self.players] = deck[i]
        self.discard = [deck[n_dealt]]  # bottom first
        self.stock = deck[n_dealt + 1:]  # top first

        self.first = first_player
        self.phase = OPEN
        self.current = first_player
        self.opening_flips_made = 0  # by the current player
        self.held = -1
        self.turn = 0
        self.ender = -1
        self.final_left = -1
        self.end_reason = RUNNING
        self.recycles = 0
        self.unseen = [composition[code] for code in card_codes(rules)]
        self.stock_known = [0] * len(card_codes(rules))
        self.opening_first_flip = -1  # the current player's first opening flip, while they make their second
        self._see(self.discard[-1])
        if rules.initial_flips == 0:
            self._begin_turn(first_player)

    # ------------------------------------------------------------ queries
    @property
    def done(self) -> bool:
        return self.phase == DONE

    def legal_actions(self) -> list[int]:
        """Sorted ids of the actions the current player may take now; empty when the deal is over."""
        seat = self.seats[self.current]
        face_down = seat.face_down_positions()
        if self.phase == OPEN:
            first = self.opening_first_flip
            if first < 0:
                allowed = face_down
            elif self.rules.opening_flips == "same_column":
                allowed = [(first + 3) % 6]
            elif self.rules.opening_flips == "different_columns":
                allowed = [k for k in face_down if k % 3 != first % 3]
            else:
                allowed = face_down
            return [FLIP + k for k in allowed]
        if self.phase == START:
            actions = [TAKE_DISCARD + k for k in POSITIONS] + [DRAW_STOCK]
            if self.rules.reveal_instead_of_draw:
                actions += [REVEAL + k for k in face_down]
            if self.rules.knock_early and 1 <= len(face_down) <= 2:
                actions.append(KNOCK)
            return actions
        if self.phase == HOLD:
            return [PLACE_DRAWN + k for k in POSITIONS] + [THROW_DRAWN]
        if self.phase == FLIP_PHASE:
            actions = [FLIP + k for k in face_down]
            if self.rules.discard_and_flip in ("may", "endgame"):
                actions.append(PASS)
            return actions
        return []

    def scores(self) -> list[int]:
        """Each player's deal score; only once the deal is over."""
        if not self.done:
            raise ValueError("the deal is not over yet; scores are only known when it is done")
        return hole_scores([score_layout(seat.cards, self.rules) for seat in self.seats], self.ender, self.rules)

    def snapshot(self) -> dict:
        """The whole state as ints and lists of ints (stock top first, discard bottom first)."""
        return {
            "phase": self.phase,
            "current": self.current,
            "held": self.held,
            "turn": self.turn,
            "ender": self.ender,
            "final_left": self.final_left,
            "end_reason": self.end_reason,
            "recycles": self.recycles,
            "first": self.first,
            "layouts": [list(seat.cards) for seat in self.seats],
            "face_up": [[int(up) for up in seat.face_up] for seat in self.seats],
            "stock": list(self.stock),
            "discard": list(self.discard),
            "unseen": list(self.unseen),
            "stock_known": list(self.stock_known),
        }

    # ------------------------------------------------------------ acting
    def step(self, action) -> None:
        """Apply one action of the current player; ValueError (state unchanged) if it is not legal now."""
        legal = self.legal_actions()
        try:
            action = operator.index(action)
        except TypeError:
            raise ValueError(f"action {action!r} is not an action id; legal now: {legal}") from None
        if action not in legal:
            raise ValueError(f"action {action} is not legal in phase {PHASE_NAMES[self.phase]} for player "
                             f"{self.current}; legal actions: {legal}")
        seat = self.seats[self.current]

        if self.phase == OPEN:
            self._turn_up(seat, action - FLIP)
            self.opening_flips_made += 1
            if self.opening_flips_made < self.rules.initial_flips:
                self.opening_first_flip = action - FLIP
                return
            self.opening_first_flip = -1
            self.opening_flips_made = 0
            following = (self.current + 1) % self.players
            if following == self.first:
                self._begin_turn(self.first)
            else:
                self.current = following
        elif self.phase == START:
            if action < DRAW_STOCK:  # take the top discard; it must be placed
                taken = self.discard.pop()
                self._put(seat, action - TAKE_DISCARD, taken)
                self._end_turn()
            elif action == DRAW_STOCK:
                drawn = self.stock.pop(0)
                if self.recycles == 0:
                    self._see(drawn)
                else:
                    self.stock_known[drawn] -= 1
                self.held = drawn
                self.phase = HOLD
            elif action == KNOCK:  # knock early: all face-down cards up at once, which ends the turn out
                for position in seat.face_down_positions():
                    self._turn_up(seat, position)
                self._end_turn()
            else:  # reveal instead of drawing
                self._turn_up(seat, action - REVEAL)
                self._end_turn()
        elif self.phase == HOLD:
            drawn, self.held = self.held, -1
            if action == THROW_DRAWN:
                self.discard.append(drawn)
                if self._flip_follows_throw(seat):
                    self.phase = FLIP_PHASE
                else:
                    self._end_turn()
            else:
                self._put(seat, action - PLACE_DRAWN, drawn)
                self._end_turn()
        elif self.phase == FLIP_PHASE:
            if action != PASS:
                self._turn_up(seat, action - FLIP)
            self._end_turn()

    # ------------------------------------------------------------ helpers
    def _flip_follows_throw(self, seat: Seat) -> bool:
        """After a thrown stock card: a flip is due with may/must, and with endgame only when someone at the table
        (the thrower too) is down to one face-down card or none; never when the thrower has nothing to flip."""
        mode = self.rules.discard_and_flip
        if mode == "off" or not seat.face_down_positions():
            return False
        if mode == "endgame":
            return any(len(other.face_down_positions()) <= 1 for other in self.seats)
        return True

    def _see(self, card: int) -> None:
        """A card nobody had seen is now seen face up."""
        self.unseen[card] -= 1

    def _turn_up(self, seat: Seat, position: int) -> None:
        seat.face_up[position] = True
        self._see(seat.cards[position])

    def _put(self, seat: Seat, position: int, card: int) -> None:
        """Place ``card`` face up at ``position``; the old card goes face up on the discard pile."""
        old = seat.cards[position]
        if not seat.face_up[position]:
            self._see(old)
        seat.cards[position] = card
        seat.face_up[position] = True
        self.discard.append(old)

    def _end_turn(self) -> None:
        player = self.current
        following = (player + 1) % self.players
        if self.ender == -1 and self.seats[player].all_face_up():
            self.ender = player
            if self.rules.end == "immediate":
                self._finish(WENT_OUT)
            else:  # one last turn for each other player, clockwise
                self.final_left = self.players - 1
                self._begin_turn(following)
        elif self.ender >= 0:  # a final turn of the one-last-turn circuit
            self.final_left -= 1
            if self.final_left == 0:
                self._finish(WENT_OUT)
            else:
                self._begin_turn(following)
        else:
            self._begin_turn(following)

    def _begin_turn(self, player: int) -> None:
        self.current = player
        if self.turn == self.rules.turn_cap:
            self._finish(TRUNCATED)
            return
        if not self.stock:
            if len(self.discard) > 1:
                self._recycle()
            else:
                self._finish(STOCK_EXHAUSTED)
                return
        self.turn += 1
        self.phase = START

    def _recycle(self) -> None:
        """Keep the top discard; every card under it becomes the new stock, in the order reshuffle returns."""
        under = self.discard[:-1]
        new_stock = [operator.index(card) for card in self.reshuffle(list(under))]
        if Counter(new_stock) != Counter(under):
            raise ValueError(f"reshuffle must return a permutation of its {len(under)} cards {under}, got {new_stock}")
        self.stock = new_stock
        self.discard = self.discard[-1:]
        self.recycles += 1
        for card in under:
            self.stock_known[card] += 1

    def _finish(self, reason: int) -> None:
        """End the deal: every face-down card is turned up for scoring."""
        self.phase = DONE
        self.end_reason = reason
        self.held = -1
        for seat in self.seats:
            for position in seat.face_down_positions():
                self._turn_up(seat, position)
