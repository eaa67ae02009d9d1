"""``golfsim hint``: the value of every move in a position (`golfsim.coach`)."""


from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from golfsim.cli.shared import RuleFlags, ScoreFormat, app, clear_errors, out, with_rule_flags
from golfsim.runs.interrupts import stop_means

HINT_HELP = "\n\n".join((
    "Ask the search what to do in a position: every legal move with its expected deal score, best first.",
    "The position is one argument (quote it): fields 'name: value' separated by ';'. 'me' is your layout (top row "
    "/ bottom row, ? face down; slots 1-3 on top, 4-6 below), one 'opp' per opponent in playing order after you, "
    "'discard' the pile bottom first (the LAST card is the top), 'drawn' the card you drew from the stock (you "
    "decide where it goes). Optional: 'phase: flip' (after a throw with --discard-and-flip), 'hole: 7', "
    "'totals: 12 30' (yours first), 'turn: 9', 'stock: 20' (if the pile is not listed in full). Cards are "
    "A 2-10 J Q K, X a joker; a suit letter after the rank is "
    "ignored (5H). With --end one-last-turn an opponent with six cards face up has gone out.",
    "\b\nExamples:\n"
    '  golfsim hint "me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q"\n'
    '  golfsim hint "me: K ? 4 / K ? ?; opp: 8 8 ? / 3 ? 9; opp: 6 2 J / A 2 5; \\\n'
    '    discard: 6 J 7" --end one-last-turn\n'
    '  golfsim hint "me: 9 ? Q / 9 4 ?; opp: 3 3 ? / A 5 ?; discard: 7 2 8; \\\n'
    '    hole: 9; totals: 31 27" --objective 2',
    "mc (the determinized Monte-Carlo searcher) plays every move in the same SAMPLES sampled worlds to the end of the "
    "deal, ev in every seat; the table shows the mean of your deal score and of mc's objective with standard "
    "errors, and ev's own value of each move (the layout it leaves: its expected score less the chance of pairs to "
    "come), and the learned player's (--learned-model 2: the n-tuple model, learned:model=2). Lower is better.",
))


@app.command(help=HINT_HELP)
@clear_errors
@with_rule_flags
def hint(
    position: Annotated[str, typer.Argument(help="The position, e.g. 'me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; "
                                                 "discard: 9 3; drawn: Q'.")],
    samples: Annotated[int, typer.Option(help="Sampled worlds per move (every move meets the same worlds).")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the sampled worlds.")] = 0,
    objective: Annotated[int, typer.Option(
        help="0 your deal score; 1 your deal score minus the opponents' mean (mc's default); 2 as 1, but on the "
             "last hole of the game the chance of losing the game on totals.")] = 1,
    learned_model: Annotated[int, typer.Option(
        min=1, max=2, help="The learned model whose values fill the learned column: 1 (learned) or 2 "
                           "(learned:model=2, the n-tuple tables).")] = 1,
    rule_flags: RuleFlags = RuleFlags(),
    format: Annotated[ScoreFormat, typer.Option("--format", help="table or json.")] = ScoreFormat.table,
    svg: Annotated[Path | None, typer.Option(
        "--svg", help="Also write a picture of the position to this SVG file (best move under it).")] = None,
):
    from golfsim.coach.hint import hint as ask
    from golfsim.coach.hint import print_hint
    from golfsim.coach.position import Position

    where = Position.parse(position)
    rules = rule_flags.rules(where.players)
    pub = where.to_pub(rules)
    with stop_means("[bold yellow]interrupted:[/] the search was stopped before it finished; no hint"):
        answer = ask(pub, rules, samples=samples, seed=seed, objective=objective, learned_model=learned_model)
    if svg is not None:
        from golfsim.view.svg import write_position

        write_position(svg, where, rules, answer)
    if format is ScoreFormat.json:
        print(json.dumps({"position": where.text(), "rules": rules.to_dict(), **answer.to_dict()}))
        return
    piped_width = os.environ.get("COLUMNS", "")  # a pipe is as wide as COLUMNS says, or wide enough for the table
    wide = out.is_terminal or (piped_width.isdigit() and int(piped_width) > 0)
    print_hint(answer, where.text(), rules, out if wide else Console(width=140))
