"""``golfsim tournament``: duplicate-deal tournaments between agents, with paired intervals and ratings."""


from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from golfsim.cli.options import Quiet, Threads, out_option
from golfsim.cli.own_stdout import agents_print_to_stderr
from golfsim.cli.shared import (
    DaskOption,
    Format,
    Players,
    RuleFlags,
    app,
    clear_errors,
    err,
    executor_for,
    out,
    with_rule_flags,
)
from golfsim.runs.complete_result import holds_complete_result
from golfsim.runs.interrupts import RunStopped, sigterm_as_ctrl_c, stop_means
from golfsim.runs.outdir import check_out_dir

DEMO_AGENTS = "ev,greedy,pair-builder,random"
DEMO_GAMES = 5000


@app.command()
@clear_errors
@with_rule_flags
def tournament(
    agents: Annotated[str, typer.Option(
        help="The pool, comma-separated: names, or name:param=value,... (see 'golfsim agents').")] = DEMO_AGENTS,
    players: Players = 2,
    games: Annotated[int, typer.Option(
        help="Deal sets per table. Each deal set is played at every table in every seat order on identical cards "
             "(duplicate deals), so games played = tables x players x games with rotations.")] = DEMO_GAMES,
    seed: Annotated[int, typer.Option(help="Seed of the deals (and, derived from it, of the agents).")] = 0,
    schedule: Annotated[str, typer.Option(
        help="auto (one table if the agents fill it, else round-robin), table, round-robin (every combination of "
             "PLAYERS agents) or gauntlet (everyone against --anchor).")] = "auto",
    anchor: Annotated[str | None, typer.Option(
        help="The gauntlet's anchor; with more than two players it fills the other seats.")] = None,
    seating: Annotated[str, typer.Option(
        help="auto (permutations for 3-4 seats, else rotations), rotations (each table in its P cyclic seat "
             "rotations) or permutations (every seat order: also balances who sits after whom, P! orders).")] = "auto",
    threads: Threads = None,
    batch_size: Annotated[int, typer.Option(
        help="Deal sets per block; smaller blocks move the progress bar and stop on Ctrl-C sooner.")] = 1000,
    confidence: Annotated[float, typer.Option(help="Level of every interval.")] = 0.95,
    rule_flags: RuleFlags = RuleFlags(),
    format: Annotated[Format, typer.Option(
        "--format", help="table (rich, default), json (one document) or csv (the standings).")] = Format.table,
    out_dir: out_option("Directory for the tables (CSV, JSON), plots and config.json.") = None,
    quiet: Quiet = False,
    log: Annotated[Path | None, typer.Option(
        "--log", help="Also write every decision and deal end to this Parquet file (see 'golfsim replay').")] = None,
    dask: DaskOption = None,
):
    """Play a duplicate-deal tournament: rotated seats, identical cards, standings with intervals and ratings.

    With no arguments: a short demo of the built-in agents (ev, greedy, pair-builder, random) at two players.

    Lower scores win.
    """
    from golfsim.tournament import report, run_tournament, split_agents
    from golfsim.tournament.result import TournamentResult

    rules = rule_flags.rules(players)
    if out_dir is not None:
        check_out_dir(out_dir)
    if dask is not None and log is not None:
        raise ValueError("--log plays the games in this process; drop --dask (or --log)")
    if log is not None and out_dir is not None and log.resolve() == out_dir.resolve():
        raise ValueError(f"--log and --out are the same path {str(log)!r}; give the log a file name of its own "
                         "(e.g. --log decisions.parquet)")
    if log is not None and out_dir is not None and log.resolve().parent == out_dir.resolve() \
            and log.name in TournamentResult.FILES:
        raise ValueError(f"--log {str(log)!r} is a file --out writes, which would replace the log; give the log a "
                         "file name of its own (e.g. --log decisions.parquet)")
    sigterm_as_ctrl_c()
    with stop_means("[bold yellow]interrupted[/] before any deal set was complete; nothing kept"), \
            executor_for(dask) as executor, agents_print_to_stderr():
        result = run_tournament(split_agents(agents), rules, games, seed, schedule=schedule, anchor=anchor,
                                seating=seating, threads=threads, batch_size=batch_size, confidence=confidence,
                                progress=not quiet, log=log, executor=executor)
    if log is not None:
        err.print(f"wrote the decision log {log}", highlight=False)
    if result.partial:
        err.print(f"[bold yellow]interrupted:[/] keeping {result.deal_sets:,} of {games:,} complete deal sets "
                  f"({result.games_played:,} games); the result is marked partial", highlight=False)
        if result.deal_sets == 0:
            raise RunStopped("nothing to report: no deal set was complete")
    if format is not Format.table:
        for line in result.notes()[:2]:  # duplicate deals and games played; the document holds the rest
            err.print(line, highlight=False, soft_wrap=True)
    if format is Format.json:
        print(result.to_json())
    elif format is Format.csv:
        sys.stdout.write(report.standings_csv(result))
    else:
        # A pipe or file gets wide lines; a terminal keeps its own width.
        report.print_report(result, out if out.is_terminal else Console(width=120))
    if out_dir is not None and result.partial and holds_complete_result(out_dir):
        err.print(f"kept the complete result already in {out_dir}: a partial one does not replace it (give "
                  "another --out to keep this one)", highlight=False)
        out_dir = None
    if out_dir is not None:
        with stop_means(f"[bold yellow]interrupted[/] while writing; {out_dir} was left as it was"):
            written = result.write(out_dir)
        err.print(f"wrote {len(written)} files to {out_dir}" + (" (marked partial)" if result.partial else ""),
                  highlight=False)
    if result.partial:
        raise RunStopped("")  # what was kept is said above
