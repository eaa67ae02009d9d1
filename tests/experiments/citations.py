"""Checking a results README's citations: each claim names the row and column of a committed table it rests on,
written ``[table: KEY Pp STRONG/WEAK COLUMN = NUMBER]`` or ``[analytics: KEY Pp COLUMN = NUMBER]``, where ``KEY`` is
the row's rule variant or rule set and ``NUMBER`` is the value as rounded in the text."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

CITATION = re.compile(r"\[(table|analytics):\s+(\S+)\s+(\d)p\s+(?:(\S+)/(\S+)\s+)?(\w+)\s+=\s+(-?[\d.]+|inf)\]")


def check_citations(root: Path, key: str, aliases: dict[str, str] | None = None, at_least: int = 8) -> None:
    """Assert that ``root/README.md`` cites at least ``at_least`` numbers, that every citation parses, and that each
    number is its row's value in ``root/table.csv`` or ``root/analytics.csv`` (``key`` names the column the row is
    found by; ``aliases`` maps a name written for an agent to its label in the table)."""
    text = (root / "README.md").read_text()
    tables = {"table": pd.read_csv(root / "table.csv"), "analytics": pd.read_csv(root / "analytics.csv")}
    cited = CITATION.findall(text)
    assert len(cited) >= at_least, "the findings should point to the table for each claim"
    assert len(cited) == len(re.findall(r"\[(?:table|analytics):", text)), "a citation does not parse"
    aliases = aliases or {}
    for which, row_key, players, strong, weak, column, number in cited:
        t = tables[which]
        rows = t[(t[key] == row_key) & (t.players == int(players))]
        if strong:
            rows = rows[(rows.strong == aliases.get(strong, strong)) & (rows.weak == weak)]
        assert len(rows) == 1, (which, row_key, players, strong, weak)
        value = float(rows[column].iloc[0])
        decimals = len(number.partition(".")[2])
        assert round(value, decimals) == pytest.approx(float(number)), (which, row_key, players, column, number)
