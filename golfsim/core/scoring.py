"""The layout scorer: one six-card layout's score with a column-by-column explanation.

It calls the engine's compiled ``column_score`` and ``score_cards``, so it scores exactly as the simulator does.
"""

from __future__ import annotations

import numpy as np

from golfsim.core.cards import JOKER, NUM_CODES, check_one_eyed, format_layout, parse_layout, rank_name
from golfsim.core.engine import column_score, rank_of, score_cards
from golfsim.core.rules import Rules


def score_layout(layout, rules: Rules | None = None) -> dict:
    """Score a layout such as ``"8 K 2 / 8 Q 3"`` (or six rank codes) under ``rules``.

    Returns
    -------
    dict
        ``layout``, ``rules`` (the options that differ from the default), ``score``, ``bonus``, ``columns``: one
        entry per column with ``column`` (numbered from 1, left to right, as people and the table count them),
        ``top``, ``bottom``, ``points`` and ``why``, and ``numbering``, the sentence that says so.

    Raises
    ------
    ValueError
        For a malformed layout, or a joker when the rules have none.

    Examples
    --------
    >>> score_layout("8 K 2 / 8 Q 3")["score"]
    11
    """
    rules = Rules() if rules is None else rules
    cards = parse_layout(layout) if isinstance(layout, str) else [int(c) for c in layout]
    if len(cards) != 6 or any(not 0 <= c < NUM_CODES for c in cards):
        raise ValueError("a layout is six card codes 0..14 (or text like '8 K 2 / 8 Q 3')")
    check_one_eyed(cards, rules.one_eyed_jacks)
    if JOKER in cards and rules.jokers == "none":
        raise ValueError("the layout has a joker (X) but the rules have none; choose --jokers minus2, minus5, "
                         "minus3 or zero")
    packed = rules.pack()
    arr = np.asarray(cards, dtype=np.int16)
    points = rules.points()
    columns = []
    for c in range(3):
        top, bottom = cards[c], cards[c + 3]
        pts = int(column_score(top, bottom, packed))
        if rank_of(top) == rank_of(bottom):
            pair = rank_name(top) if top == bottom else f"jacks ({rank_name(top)} and {rank_name(bottom)})"
            why = f"pair of {pair}" + (" scores 0" if not pts else f" scores {pts} (eagle_eye)"
                                       if top == JOKER and rules.eagle_eye else " keeps its value")
        else:
            why = f"{points[top]} + {points[bottom]}".replace("+ -", "- ")
        columns.append({"column": c + 1, "top": rank_name(top), "bottom": rank_name(bottom), "points": pts, "why": why})
    total = int(score_cards(arr, 0, packed))
    changed = {k: v for k, v in rules.changed_options().items() if k != "players"}
    return {
        "layout": format_layout(cards),
        "rules": ", ".join(f"{k}={v}" for k, v in changed.items()) or "default rules",
        "score": total,
        "bonus": total - sum(c["points"] for c in columns),
        "columns": columns,
        "numbering": "columns count from 1, left to right",
    }


def win_shares(totals: np.ndarray, axis: int = 1) -> np.ndarray:
    """Each seat's share of the win: ``1/k`` to each of the ``k`` seats tied on the lowest total, else 0.

    Parameters
    ----------
    totals : array
        Scores with the seats along ``axis`` (rows of games by default; ``axis=2`` for games x holes x seats).

    Returns
    -------
    numpy.ndarray
        float64 shares of the same shape, summing to 1 along ``axis`` (an empty array gives an empty array).
    """
    totals = np.asarray(totals)
    if totals.size == 0:
        return np.zeros(totals.shape)
    winners = totals == totals.min(axis=axis, keepdims=True)
    return winners / winners.sum(axis=axis, keepdims=True)
