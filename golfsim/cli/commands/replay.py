"""``golfsim replay``: the scorecard and the deals of a decision log."""


from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfsim.cli.shared import app, clear_errors


@app.command()
@clear_errors
def replay(
    log: Annotated[Path, typer.Argument(help="A decision log (tournament --log) or a game saved by 'golfsim play'.")],
    game: Annotated[int, typer.Option(help="The game's number in the log (column 'game').")] = 0,
    hole: Annotated[int | None, typer.Option(
        help="A hole, from 1 as on the scorecard: show its deal move by move. Without it: the game's "
             "scorecard.")] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", help="Write the game as one self-contained HTML page that steps through it decision by decision "
                       "(open it in a browser; no server needed).")] = None,
):
    """Show a logged game: its scorecard, or one deal move by move with every layout."""
    from golfsim.logs.replay import deal_lines, scorecard_lines
    from golfsim.logs.trace import read_log

    opened = read_log(log)
    if html is not None:
        from golfsim.logs.replay_html import write_page

        write_page(html, opened, game)
        print(f"wrote {html}: game {game} of {log.name}, step through it in a browser")
        return
    lines = scorecard_lines(opened, game) if hole is None else deal_lines(opened, game, hole)
    print("\n".join(lines))
