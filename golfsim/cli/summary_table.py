"""The short table an experiment prints when it ends, made to read at 80 columns.

Every row stays on one line: column names in words (``win rate``, ``effect (points/game)``), shares as
percentages, numbers with the decimals they need, and a text cell too long for the row (a tuned agent's parameter
list) replaced by a numbered mark whose full text is printed under the table, wrapped at words.
"""

from __future__ import annotations

import pandas as pd
from rich import box
from rich.table import Table as RichTable

HEADERS = {
    "mean_score": "mean score",
    "win_rate": "win rate",
    "effect": "effect (points/game)",
    "players": "players",
}
"""Column names in words; any other name has its underscores made spaces."""

RATES = {"win_rate"}
"""Columns of shares (0 to 1), shown as percentages."""



def header(column) -> str:
    name = str(column)
    return HEADERS.get(name, name.replace("_", " "))


def cell(column, value) -> str:
    if str(column) in RATES and isinstance(value, float):
        return f"{100 * value:.1f}%"
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 100 else f"{value:,.1f}"
    return str(value)


def summary_table(short: pd.DataFrame, title: str, width: int = 80) -> tuple[RichTable, list[str]]:
    """``short`` as a rich table whose rows stay on one line of ``width`` columns, and the notes that write out the
    text cells taken out of the rows (the longest ones of the widest text column first, as few as fit)."""
    columns = list(short.columns)
    rows = [[cell(c, v) for c, v in zip(columns, row, strict=True)] for row in short.itertuples(index=False)]
    text_columns = [i for i, c in enumerate(columns) if short[c].dtype.kind not in "fiu"]
    marks: dict[str, int] = {}

    def widths():
        return [max([len(header(c)), *(len(r[i]) for r in rows)]) for i, c in enumerate(columns)]

    while sum(widths()) + len(columns) - 1 > width:
        now = widths()
        longest = max(text_columns, key=lambda i: now[i], default=None)
        if longest is None or now[longest] <= max(len(header(columns[longest])), 5):
            break
        limit = max(len(header(columns[longest])), 5, now[longest] - (sum(now) + len(columns) - 1 - width))
        for r in rows:
            if len(r[longest]) > limit:
                r[longest] = f"[{marks.setdefault(r[longest], len(marks) + 1)}]"
    table = RichTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, padding=0)
    for column in columns:
        table.add_column(header(column), justify="right" if short[column].dtype.kind in "fiu" else "left",
                         no_wrap=True)
    for r in rows:
        table.add_row(*r)
    return table, [f"[{n}] {text}" for text, n in marks.items()]
