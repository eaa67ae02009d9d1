"""``golfsim learn``: train the learned value by self-play ([`golfsim.learning.train`][]).

Registered by [`golfsim.cli.commands.learn`][]; the command's body lives here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

LEARN_HELP = (
    "Train the learned player's value by self-play (fitted TD(lambda)), writing checkpoint.npz, model.json and the "
    "learning curve (curve.csv, curve.png: margin per nine-hole game over ev and the tuned ev, 2 players, both end "
    "rules) into OUT. Ctrl-C keeps the last complete generation; the same command resumes it. The same seed gives "
    "the same weights whatever the thread count."
)


def learn(
    out: Annotated[Path, typer.Option(help="Folder for the checkpoint, model and learning curve.")] = Path(
        "results/learned_value"),
    seed: Annotated[int, typer.Option(help="Seed of the self-play deals and the held-out evaluation deals.")] = 0,
    generations: Annotated[int, typer.Option(help="Generations (play, then refit).")] = 24,
    games: Annotated[int, typer.Option(help="Self-play deals per generation, over 2- and 4-player tables.")] = 400_000,
    lam: Annotated[float, typer.Option(help="TD(lambda)'s lambda: 1 fits to deal outcomes only.")] = 1.0,
    explore: Annotated[float, typer.Option(help="Chance that a self-play turn is a random legal move.")] = 0.0,
    memory: Annotated[float, typer.Option(help="Weight kept on each earlier generation's equations.")] = 0.5,
    ridge: Annotated[float, typer.Option(help="Ridge strength, relative to the features' scale.")] = 1e-3,
    eval_deals: Annotated[int, typer.Option(help="Duplicate deal sets per point of the learning curve.")] = 5000,
    eval_every: Annotated[int, typer.Option(help="Generations between points of the learning curve.")] = 1,
    ntuple: Annotated[bool, typer.Option(help="Train the n-tuple model (learned:model=2): column-state tables "
                                              "on top of the linear value, from the shipped linear weights.")] = False,
    tuple_ridge: Annotated[float, typer.Option(help="With --ntuple: the tables' ridge toward 0 (a pseudo-count).")
                           ] = 20.0,
    threads: Annotated[int, typer.Option(help="Worker threads (the weights do not depend on it).")] = 1,
    fresh: Annotated[bool, typer.Option(help="Start over even if OUT holds a checkpoint.")] = False,
) -> None:
    """Body of ``golfsim learn`` (see `LEARN_HELP`)."""
    from rich.console import Console

    from golfsim.learning.train import LearnConfig, load_checkpoint, train
    from golfsim.runs.interrupts import stop_means
    from golfsim.runs.progress import CountBar

    err = Console(stderr=True)
    config = LearnConfig(seed=seed, generations=generations, games=games, lam=lam, explore=explore, memory=memory,
                         ridge=ridge, eval_deals=eval_deals, eval_every=eval_every, ntuple=ntuple,
                         tuple_ridge=tuple_ridge)
    config.check()
    if (out / "checkpoint.npz").exists() and not fresh:
        load_checkpoint(out / "checkpoint.npz", config)  # a damaged one is one line before the progress bar shows
    command = (f"golfsim learn --seed {seed} --generations {generations} --games {games} --lam {lam} "
               f"--explore {explore} --memory {memory} --ridge {ridge} --eval-deals {eval_deals} "
               f"--eval-every {eval_every}" + (f" --ntuple --tuple-ridge {tuple_ridge}" if ntuple else ""))
    with stop_means(f"[bold yellow]interrupted:[/] the last complete generation is kept in "
                    f"{out / 'checkpoint.npz'}; run the same command to resume"), \
            CountBar(total=1, unit="deals") as bar:
        state = train(config, out, threads=threads, fresh=fresh, command=command, progress=bar,
                      log=lambda m: err.print(m, highlight=False))
    last = state.curve[-1]
    err.print(f"{state.generation} generations, {state.deals:,} self-play deals; weights in {out / 'model.json'}",
              highlight=False)
    if "ev_immediate" in last:
        err.print(margin_line(last), highlight=False)


def margin_line(row: dict) -> str:
    """The learning curve's last point as the other commands put a head-to-head: the learned player's 9-hole total
    minus the opponent's (negative = the learned player lower, ahead), with its 95% interval. ``curve.csv`` keeps
    the opposite difference (the opponent's total less the learned player's)."""
    keys = ("ev_immediate", "tuned_ev_immediate", "ev_one_last_turn", "tuned_ev_one_last_turn")
    parts = [f"vs {k.replace('_', ' ')} {-row[k]:+.1f} [{-row[k + '_hi']:+.1f}, {-row[k + '_lo']:+.1f}]"
             for k in keys]
    return ("learned minus opponent, 9-hole totals, 2 players (95% CI; negative = learned lower, ahead): "
            + "; ".join(parts))
