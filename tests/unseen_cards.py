"""Deals that differ only in cards nobody has seen: the tool of the no-peeking tests.

RULES.md ("Reproducing a deal") fixes where each card of a given deck order goes: card ``i`` of the first ``6P``
goes to player ``(first + i) % P`` at position ``i // P``, the next card starts the discard pile, and the rest is
the stock, drawn from the top in deck order. So from public facts alone (which positions are still face down, how
many cards the stock holds, whether it was rebuilt from the discards) we know which places in the deck hold cards
that nobody has seen yet. Two decks that differ only in those places must look the same to every player so far.
"""

from __future__ import annotations

import random
from collections.abc import Sequence


def deck_index(player: int, position: int, first: int, players: int) -> int:
    """Place in the deck (top first) of the card dealt to ``position`` of ``player`` when ``first`` is dealt first."""
    return position * players + (player - first) % players


def unseen_deck_indices(view, first: int, stock_size: int, stock_known_total: int, n_cards: int) -> list[int]:
    """Places in the deck of every card nobody has seen: face-down layout cards and the never-drawn stock.

    ``view`` is players x 6 public ranks (negative when face down). ``stock_known_total`` is how many stock cards are
    known from a recycle: while it is 0 the stock is still the bottom ``stock_size`` cards of the deck; after a
    recycle every stock card is a known discard.
    """
    players = len(view)
    indices = [deck_index(p, k, first, players) for p in range(players) for k in range(6) if view[p][k] < 0]
    if stock_known_total == 0:
        indices += range(n_cards - stock_size, n_cards)
    return sorted(indices)


def permute_at(deck: Sequence[int], indices: Sequence[int], rng: random.Random) -> list[int] | None:
    """A copy of ``deck`` with the cards at ``indices`` shuffled among those places, so that some place changes rank;
    ``None`` when every card there has the same rank (no such copy exists)."""
    cards = [deck[i] for i in indices]
    if len(set(cards)) < 2:
        return None
    while True:
        shuffled = cards[:]
        rng.shuffle(shuffled)
        if shuffled != cards:
            break
    other = list(deck)
    for i, card in zip(indices, shuffled, strict=True):
        other[i] = card
    return other
