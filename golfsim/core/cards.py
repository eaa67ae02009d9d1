"""Card codes and layout parsing.

Suits never matter in six-card Golf, so a card is just its rank code:

====  =====  ======================================
code  rank   written as
====  =====  ======================================
0     joker  ``X``
1     ace    ``A`` (or ``1``)
2-10  pips   ``2`` .. ``10`` (``T`` for ten)
11    jack   ``J``
12    queen  ``Q``
13    king   ``K``
====  =====  ======================================

``HIDDEN`` (-1) marks a face-down card in a player's view of a layout.
"""

from __future__ import annotations

JOKER = 0
ACE = 1
TWO = 2
JACK = 11
QUEEN = 12
KING = 13
NUM_RANKS = 14
HIDDEN = -1

RANK_NAMES = ("X", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

_TOKEN_TO_RANK = {name: code for code, name in enumerate(RANK_NAMES)}
_TOKEN_TO_RANK.update({"T": 10, "1": ACE})


def rank_name(code: int) -> str:
    """Return the short name of a rank code, e.g. ``rank_name(13) == "K"``; ``"?"`` for hidden."""
    if code == HIDDEN:
        return "?"
    if not 0 <= code < NUM_RANKS:
        raise ValueError(f"{code} is not a card code; codes are 0 (joker) to 13 (king)")
    return RANK_NAMES[code]


def card_with_article(code: int) -> str:
    """A card's name with its indefinite article, as a sentence says it: ``"an A"``, ``"an 8"``, ``"a 3"``."""
    name = rank_name(code)
    return f"{'an' if name in ('A', '8', 'X') else 'a'} {name}"


def parse_card(token: str) -> int:
    """Parse one card token (case-insensitive ``A 2-10 T J Q K X``) into its rank code.

    Raises
    ------
    ValueError
        If the token is not a card, with the list of accepted tokens.
    """
    code = _TOKEN_TO_RANK.get(token.strip().upper())
    if code is None:
        raise ValueError(f"{token!r} is not a card; use A, 2-10 (or T), J, Q, K, or X for a joker")
    return code


def parse_layout(text: str) -> list[int]:
    """Parse a layout written ``"top row / bottom row"``, e.g. ``"8 K 2 / 8 Q 3"`` (a bar ``|`` between the rows is
    read as the slash, as in a ``golfsim hint`` position).

    Returns
    -------
    list of int
        Six rank codes in position order: 0, 1, 2 the top row left to right, 3, 4, 5 the
        bottom row, so column ``i`` holds positions ``i`` and ``i + 3``.

    Raises
    ------
    ValueError
        If the text does not have two rows of three cards, or a token is not a card.
    """
    if not isinstance(text, str):
        raise ValueError(f"a layout is text like '8 K 2 / 8 Q 3', not {type(text).__name__}")
    rows = text.replace("|", "/").split("/")
    if len(rows) != 2:
        raise ValueError(
            f"a layout is two rows of three cards separated by '/', like '8 K 2 / 8 Q 3'; got {text!r}"
        )
    cards: list[int] = []
    for name, row in zip(("top", "bottom"), rows, strict=True):
        tokens = row.split()
        if len(tokens) != 3:
            raise ValueError(f"the {name} row must have 3 cards, got {len(tokens)} in {row.strip()!r}")
        cards.extend(parse_card(token) for token in tokens)
    return cards


def format_layout(cards, face_up=None) -> str:
    """Write six rank codes back as ``"top / bottom"``; face-down cards (if ``face_up`` given) as ``?``."""
    names = [
        rank_name(int(c)) if face_up is None or face_up[i] else "?" for i, c in enumerate(cards)
    ]
    return f"{' '.join(names[:3])} / {' '.join(names[3:])}"
