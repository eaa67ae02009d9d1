"""Card codes and layout parsing.

Suits never matter in six-card Golf but for one house rule, so a card is its rank code, and one more code for the
two jacks that rule tells apart:

====  ===============  ==========================================================================================
code  card             written as
====  ===============  ==========================================================================================
0     joker            ``X``
1     ace              ``A`` (or ``1``)
2-10  pips             ``2`` .. ``10`` (``T`` for ten)
11    jack             ``J``
12    queen            ``Q``
13    king             ``K``
14    one-eyed jack    ``J0`` (or ``JH``, ``JS``, ``J♥``, ``J♠``): the jack of hearts or of spades, only with the house
                       rule ``one_eyed_jacks`` (worth 0; it is a jack for pairs, four of a kind and wolfpack)
====  ===============  ==========================================================================================

Without ``one_eyed_jacks`` every jack is code 11 and no card has code 14, so the codes are the 14 ranks.
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
ONE_EYED_JACK = 14
"""The jack of hearts or of spades under the house rule ``one_eyed_jacks``: its own code because it is worth 0, while
it pairs as a jack (``rank_of`` in [`golfsim.core.engine`][] gives its rank, 11)."""
NUM_CODES = 15
"""Card codes there can be (the 14 ranks and ``ONE_EYED_JACK``): the size of every per-code array. The codes in play
are the first ``Rules.n_codes`` of them (15 with ``one_eyed_jacks``, else 14)."""
HIDDEN = -1

RANK_NAMES = ("X", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CODE_NAMES = (*RANK_NAMES, "J0")
"""Each card code's short name, ``CODE_NAMES[code]``."""

_TOKEN_TO_RANK = {name: code for code, name in enumerate(CODE_NAMES)}
_TOKEN_TO_RANK.update({"T": 10, "1": ACE, "JH": ONE_EYED_JACK, "JS": ONE_EYED_JACK, "J♥": ONE_EYED_JACK,
                       "J♠": ONE_EYED_JACK})


def rank_name(code: int) -> str:
    """Return the short name of a card code, e.g. ``rank_name(13) == "K"``, ``rank_name(14) == "J0"``; ``"?"`` for
    hidden."""
    if code == HIDDEN:
        return "?"
    if not 0 <= code < NUM_CODES:
        raise ValueError(f"{code} is not a card code; codes are 0 (joker) to 13 (king), and 14 (a one-eyed jack)")
    return CODE_NAMES[code]


def card_with_article(code: int) -> str:
    """A card's name with its indefinite article, as a sentence says it: ``"an A"``, ``"an 8"``, ``"a 3"``."""
    name = rank_name(code)
    return f"{'an' if name in ('A', '8', 'X') else 'a'} {name}"


def parse_card(token: str) -> int:
    """Parse one card token (case-insensitive ``A 2-10 T J Q K X``, and ``J0``/``JH``/``JS``/``J♥``/``J♠`` for a
    one-eyed jack) into its card code.

    Raises
    ------
    ValueError
        If the token is not a card, with the list of accepted tokens.
    """
    code = _TOKEN_TO_RANK.get(token.strip().upper())
    if code is None:
        raise ValueError(f"{token!r} is not a card; use A, 2-10 (or T), J, Q, K, X for a joker, or J0 for a one-eyed "
                         f"jack (one_eyed_jacks)")
    return code


def check_one_eyed(cards, one_eyed_jacks: bool) -> None:
    """Refuse a one-eyed jack (code 14) when the rules do not have ``one_eyed_jacks``.

    Raises
    ------
    ValueError
        One line saying so, when ``cards`` holds code 14 and ``one_eyed_jacks`` is false.
    """
    if not one_eyed_jacks and any(int(c) == ONE_EYED_JACK for c in cards):
        raise ValueError("the cards have a one-eyed jack (J0) but the rules do not play one_eyed_jacks; write it J, "
                         "or add --house one_eyed_jacks")


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
