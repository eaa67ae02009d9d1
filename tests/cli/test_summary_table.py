"""The table an experiment prints when it ends: one line a row at 80 columns, words for names, units shown."""

import pandas as pd
import pytest
from rich.console import Console

from golfsim.cli.summary_table import summary_table
from golfsim.experiments import ladder, tips, variants
from tests.committed import RESULTS


def printed(short: pd.DataFrame, width: int = 80) -> list[str]:
    console = Console(width=width, record=True, file=open("/dev/null", "w"))
    table, notes = summary_table(short, "experiment (1 s)", width=width)
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, markup=False)
    return console.export_text().splitlines()


@pytest.mark.parametrize("module", [ladder, tips, variants], ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_every_row_of_a_committed_summary_is_one_line_of_at_most_80_columns(module):
    name = module.__name__.rsplit(".", 1)[1]
    short = module.summary(pd.read_csv(RESULTS / name / "table.csv"))
    lines = printed(short)
    assert max(map(len, lines)) <= 80, "\n".join(lines)
    assert "…" not in "\n".join(lines), "\n".join(lines)  # no name cut short
    rule = next(i for i, line in enumerate(lines) if set(line.strip()) == {"─"})
    after = lines[rule + 1 + len(short):]
    assert not after or not after[0].strip() or after[0].startswith("[1] "), "\n".join(lines)  # no row ran over
    header = " ".join(lines[1:rule])
    assert "_" not in header, header


def test_names_in_words_win_rate_as_a_percentage_effect_with_its_unit_and_long_names_written_out():
    tuned = "ev:pair_weight=1.06,horizon=1.9,count_out=0,out_margin=8,watch_discard=0.46"
    short = pd.DataFrame({"agent": ["ev", tuned],
                          "mean_score": [40.06, 39.5], "win_rate": [0.869598, 0.5], "effect": [-2.49, 0.1]})
    text = "\n".join(printed(short))
    assert "mean score" in text and "win rate" in text and "effect (points/game)" in text
    assert "87.0%" in text and "0.87" not in text
    assert "[1] ev:pair_weight=1.06,horizon=1.9,count_out=0,out_margin=8" in text
