"""``golfsim tune``: tune an agent's parameters with optuna (the body is `golfsim.cli.tune_body`)."""


from __future__ import annotations

from typing import Annotated

import typer

from golfsim.cli.options import Quiet, Threads, out_option, overwrite_option
from golfsim.cli.shared import Players, RuleFlags, app, clear_errors, err, with_rule_flags

TUNE_EXAMPLES = """\b
Examples:
  golfsim tune ev --against ev,greedy --players 2 --trials 200 --games 400
  golfsim tune ev --params watch_discard,horizon=1:5 --trials 50 --out /tmp/ev
  golfsim tune greedy:fixed_hidden=1 --params hidden_value=0:10:0.5
  golfsim tune ev --against ev,greedy --trials 300 --resume
  (the last continues an interrupted or shorter study)
"""


@app.command(epilog=TUNE_EXAMPLES)
@clear_errors
@with_rule_flags
def tune(
    agent: Annotated[str, typer.Argument(
        help="The agent to tune, e.g. ev; parameters set here (ev:count_out=0) stay fixed unless --params names "
             "them.")],
    against: Annotated[str | None, typer.Option(
        help="The field, comma-separated (default: the agent as given). Each trial plays every field agent on "
             "the same duplicate deals.")] = None,
    params: Annotated[str | None, typer.Option(
        help="Parameters to search, comma-separated, each optionally with a range: name, name=LOW:HIGH or "
             "name=LOW:HIGH:STEP (default: every parameter with a declared range; see golfsim.tuning.study).")] = None,
    trials: Annotated[int, typer.Option(help="Trials of the study (TPE sampler of optuna).")] = 100,
    games: Annotated[int, typer.Option(
        help="Duplicate deal sets per trial and field agent, each played in every seat rotation. Every trial plays "
             "the same deals, so trials differ only by their parameters.")] = 400,
    eval_games: Annotated[int | None, typer.Option(
        help="Deal sets of the re-evaluation of the winner on fresh deals (default: --games).")] = None,
    seed: Annotated[int, typer.Option(
        help="Seeds the deals, the sampler and (derived from it) the fresh deals; the same seed gives the same "
             "study.")] = 0,
    startup_trials: Annotated[int, typer.Option(help="Trials before TPE models the results (the first plays the "
                                                     "agent as given, the rest are random).")] = 10,
    players: Players = 2,
    rule_flags: RuleFlags = RuleFlags(),
    threads: Threads = None,
    out_dir: out_option(
        "Directory for study.db (optuna storage), trials.csv, convergence.png and config.json (default: "
        "./results/tuning/AGENT).") = None,
    overwrite: overwrite_option("Replace a directory holding a study of another request.") = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the study in the output directory (same request): its trials are kept and "
                         "the study runs on to --trials.")] = False,
    quiet: Quiet = False,
):
    """Tune an agent's parameters on duplicate deals against a field; recommend an agent string only when it
    beats the agent as given on fresh deals.

    The objective of a trial is the agent's mean score relative to the field on identical deals (points per game;
    negative means fewer points than the field, which is better). The winner is replayed on fresh deals against the
    field and against the agent as given, with 95% intervals; its agent string is printed only when its difference
    from the agent as given has an interval below zero, else "no parameters beat the defaults". Every finished
    trial is kept in optuna's SQLite storage (study.db, readable by optuna-dashboard); Ctrl-C or SIGTERM keeps the
    trials run so far and --resume continues. Writes study.db, trials.csv, convergence.png and config.json.
    """
    from golfsim.cli import tune_body as tune_command

    tune_command.run(agent, against, params, trials, games, eval_games, seed, startup_trials,
                     rule_flags.rules(players), threads, out_dir, overwrite, resume, quiet, err)
