"""The notebooks as a researcher reads them: plots drawn from the result DataFrames in their own cells (never a
picture saved by an experiment module), tables rounded to what their intervals support. test_notebook_outputs.py
executes them."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pandas as pd
import pytest

from golfsim.experiments import interval_decimals, rounded
from tests.committed import RESULTS

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_a_notebook_draws_its_plots_in_its_own_cells_and_rounds_its_tables(path):
    code = [c.source for c in nbformat.read(path, 4).cells if c.cell_type == "code"]
    assert not any("figure_png" in s or ".figures[" in s for s in code), "displays a figure an experiment saved"
    assert any("plt.subplots" in s and "errorbar" in s or "plt.subplots" in s and "xerr=" in s for s in code)
    shows_table = ("output.table[[", ".summary(", "summarise(", "standings[[")  # the cells that end on a table
    tables = [s for s in code if any(mark in s for mark in shows_table)]
    assert tables and all("rounded(" in s for s in tables), tables


def test_interval_decimals_keep_the_first_significant_digit_of_the_half_width_and_one_more():
    assert [interval_decimals(h) for h in (0.0578, 0.5, 2.3, 140.0)] == [3, 2, 1, 0]


def test_rounded_keeps_each_value_within_half_a_unit_and_leaves_the_table_alone():
    table = pd.read_csv(RESULTS / "tips" / "table.csv")
    shown = rounded(table)
    half = ((table.effect_high - table.effect_low) / 2).median()
    decimals = interval_decimals(half)
    for column in ("effect", "effect_low", "effect_high", "win_rate_on", "win_rate_on_low", "win_rate_on_high"):
        digits = shown[column].map(lambda v: len(f"{v:.10f}".rstrip("0").partition(".")[2]))
        assert (digits <= 6).all()
    assert (shown.effect.map(lambda v: len(f"{v:.10f}".rstrip("0").partition(".")[2])) <= decimals).all()
    assert ((shown.effect - table.effect).abs() <= 0.5 * 10 ** -decimals + 1e-12).all()
    # a float column without an interval of its own: no finer than the best-measured value of the table
    finest = max(interval_decimals(((table[f"{c}_high"] - table[f"{c}_low"]) / 2).median())
                 for c in ("effect", "win_rate_on"))
    for column in ("effect_sd", "mean_score_off", "games_changed"):
        assert shown[column].equals(table[column].round(finest)), column
    assert shown.effect_sd.iloc[0] != table.effect_sd.iloc[0]  # 9.324847557216131 in the table
    assert rounded(table).equals(shown) and not table.equals(shown)


def test_rounded_rounds_a_summary_by_the_intervals_it_carries():
    from golfsim.experiments import variants

    table = pd.read_csv(RESULTS / "variants" / "table.csv", keep_default_na=False, na_values=[""])
    summary = variants.summary(table)
    shown = rounded(summary)
    half = ((table.mean_deal_score_high - table.mean_deal_score_low) / 2)[table.agent == "ev"].median()
    assert summary["ev deal score"].iloc[0] == table.mean_deal_score.iloc[0]  # 5.992307777777778
    assert shown["ev deal score"].iloc[0] == round(table.mean_deal_score.iloc[0], interval_decimals(half))
    text = shown.to_string()
    assert "5.992307" not in text and "5.992" in text
