"""``golfsim play``: play against bots in the terminal (the game is `golfsim.cli.terminal_game`)."""


from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from golfsim.cli.shared import RuleFlags, app, clear_errors, with_rule_flags


@app.command()
@clear_errors
@with_rule_flags
def play(
    opponents: Annotated[str, typer.Option(help="The bots at the table with you, comma-separated.")] = "ev",
    seed: Annotated[int | None, typer.Option(help="Seed of the deals (default: a new one, printed).")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Where to save the game log (default: golfsim-game-SEED.parquet here).")] = None,
    rule_flags: RuleFlags = RuleFlags(),
):
    """Play six-card Golf against the bots in this terminal; the game is saved for 'golfsim replay'."""
    import secrets

    from golfsim.agents.base import parse_agent
    from golfsim.cli import terminal_game as table

    names = [o.strip() for o in opponents.split(",") if o.strip()]
    if not names:
        raise ValueError("give at least one opponent, e.g. --opponents ev,greedy")
    for name in names:
        parse_agent(name)
    rules = rule_flags.rules(len(names) + 1)
    seed = secrets.randbelow(2**31) if seed is None else seed
    path = save if save is not None else Path(f"golfsim-game-{seed}.parquet")
    if not path.parent.is_dir():
        raise ValueError(f"cannot save the game to {path}: the directory {path.parent} does not exist")
    from golfsim.atomic import check_writable

    check_writable(path, "the game", "--save")  # before the game, not after it is played
    raise typer.Exit(table.main(names, rules, seed, path))
