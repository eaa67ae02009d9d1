"""``golfsim score``: the score of a layout under the rules, worked column by column."""


from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table as RichTable

from golfsim.cli.shared import FourBonus, House, Jokers, ScoreFormat, TwosPair, app, clear_errors, out
from golfsim.core.rules import Rules, house_options


@app.command()
@clear_errors
def score(
    layout: Annotated[str, typer.Argument(help="Six cards, top row / bottom row, e.g. '8 K 2 / 8 Q 3'.")],
    jokers: Jokers = "none",
    twos_pair: TwosPair = "zero",
    four_of_a_kind_bonus: FourBonus = 0,
    house: House = "",
    format: Annotated[ScoreFormat, typer.Option(
        "--format", help="table or json (columns numbered from 1, as in the table).")] = ScoreFormat.table,
    svg: Annotated[Path | None, typer.Option(
        "--svg", help="Also write a picture of the layout (pairs ringed, score under it) to this SVG file.")] = None,
):
    """Score one layout, column by column."""
    from golfsim.core.cards import parse_layout
    from golfsim.core.scoring import score_layout

    rules = Rules(jokers=jokers, twos_pair=twos_pair, four_of_a_kind_bonus=four_of_a_kind_bonus,
                  **house_options(house))
    result = score_layout(layout, rules)
    if svg is not None:
        from golfsim.view.files import write_text
        from golfsim.view.svg import from_layout

        write_text(svg, from_layout(parse_layout(layout), rules).to_svg())
    if format is ScoreFormat.json:
        print(json.dumps(result))
        return
    table = RichTable(title=f"{result['layout']}  ({result['rules']})")
    for col in ("column", "top", "bottom", "points", "why"):
        table.add_column(col, justify="right" if col == "points" else "left")
    for c in result["columns"]:
        table.add_row(str(c["column"]), c["top"], c["bottom"], str(c["points"]), c["why"])
    if result["bonus"]:
        table.add_row("", "", "", str(result["bonus"]),
                      "bonus (four of a kind, wolfpack)" if house_options(house).get("wolfpack") else
                      "four-of-a-kind bonus")
    table.add_row("", "", "", f"[bold]{result['score']}[/]", "[bold]score[/]")
    out.print(table)
