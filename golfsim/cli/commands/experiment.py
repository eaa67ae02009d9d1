"""``golfsim experiment``: run the experiments of [`golfsim.experiments`][] and write their results."""


from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from golfsim.cli.options import Threads, out_option, overwrite_option
from golfsim.cli.own_stdout import agents_print_to_stderr
from golfsim.cli.shared import DaskOption, app, clear_errors, err, executor_for, out
from golfsim.runs.complete_result import holds_complete_result
from golfsim.runs.interrupts import CaughtStop, RunStopped, sigterm_as_ctrl_c
from golfsim.runs.outdir import check_out_dir


@app.command()
@clear_errors
def experiment(
    name: Annotated[str, typer.Argument(
        help="ladder, tips, variants, players, luck, house, benchmarks, search, headroom, or all (ladder, tips, "
             "variants, players, luck and house).")],
    games: Annotated[int | None, typer.Option(
        help="Games (deal sets) per cell of every experiment; default: each experiment's full size, as in "
             "results/.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals; the same seed reproduces every table exactly.")] = 0,
    out_dir: out_option(
        "Root directory: each experiment writes OUT/NAME/ (default: ./results, under the current "
        "directory).") = None,
    threads: Threads = None,
    overwrite: overwrite_option("Replace OUT/NAME even when it holds a result of another size or seed.") = False,
    dask: DaskOption = None,
):
    """Run an experiment and write table.csv, table.md, figure PNGs and config.json to ./results/NAME/.

    'golfsim experiment all' regenerates every committed result (not benchmarks, which depend on the hardware).
    A directory holding a result is replaced only by the same request (experiment, --games, --seed), which
    reproduces it; another size or seed is refused before the run unless --overwrite, so a trial run with
    --games cannot silently replace the committed results.
    """
    from golfsim.runs.claims import default_root
    from golfsim.runs.experiment import choose, discover

    modules = choose(name, discover())
    chosen = [module.name for module in modules]
    if games is not None and games < 1:
        raise ValueError(f"games must be a whole number of at least 1, got {games}")
    root = Path(out_dir) if out_dir is not None else default_root()
    check_out_dir(root)
    for module in modules:
        module.check_target(root / module.name, games, seed, overwrite)
    sigterm_as_ctrl_c()
    with executor_for(dask) as executor:  # a stop while a Dask cluster starts or stops is "interrupted"
        for module in modules:
            stopped = _run_experiment(module, root, games, seed, threads, executor, dask)
            if stopped is not None:
                skipped = chosen[chosen.index(module.name) + 1:]
                not_run = f"\nnot run: {', '.join(skipped)}" if skipped else ""
                raise RunStopped(stopped + not_run)


def _run_experiment(module, root: Path, games, seed, threads, executor, dask) -> str | None:
    """Run one experiment, write it and print its short table; when it was interrupted (what was kept is written,
    marked partial), the line that says so (empty when it was printed). A stop after the last cell lets the result
    be written first ([`golfsim.runs.stops_after_work`][])."""
    from golfsim.runs.stops_after_work import finish_after_work

    with finish_after_work() as stops:
        stopped = _run_and_write_experiment(module, root, games, seed, threads, executor, dask)
    if stopped is None and stops.arrived:
        return (f"[bold yellow]interrupted[/] after every cell of {module.name} was complete: the result was "
                "written in full")
    return stopped


def _run_and_write_experiment(module, root: Path, games, seed, threads, executor, dask) -> str | None:
    import time

    from golfsim.runs.stops_after_work import work_done

    kwargs = {}
    if "threads" in module.options:
        kwargs["threads"] = threads
    elif threads is not None:
        err.print(f"{module.name}: --threads is ignored (the experiment sets its own thread counts)",
                  highlight=False)
    if "executor" in module.options:
        kwargs["executor"] = executor
    elif dask is not None:
        err.print(f"{module.name}: --dask is ignored (the experiment measures this machine)", highlight=False)
    if "log" in module.options:
        kwargs["log"] = lambda line: err.print(line, highlight=False, soft_wrap=True)
    start = time.perf_counter()
    target = root / module.name
    nothing = f"[bold yellow]interrupted:[/] {module.name}: no cell was complete; nothing written"
    with CaughtStop() as stop, agents_print_to_stderr():
        output = module.run(games, seed, **kwargs)
    if stop.arrived:
        return nothing
    work_done()  # for every experiment, not only those whose cells report it: the result is made, write it
    partial = getattr(output, "partial", False)
    if partial and len(output.table) == 0:
        return nothing
    if partial and holds_complete_result(target):
        return (f"[bold yellow]interrupted:[/] {module.name}: kept the complete result already in {target}; the "
                "partial one does not replace it")
    with CaughtStop() as stop:
        written = output.write(target)
    if stop.arrived:
        return f"[bold yellow]interrupted[/] while writing {target}; it was left as it was"
    seconds = time.perf_counter() - start
    from golfsim.cli.summary_table import summary_table

    console = out if out.is_terminal or os.environ.get("COLUMNS", "").isdigit() else Console(width=160)
    table, notes = summary_table(module.summary(output.table),
                                 f"{module.name} ({seconds:,.0f} s)" + (" PARTIAL" if partial else ""),
                                 width=console.width)
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, markup=False)
    console.print(f"wrote {target}: {', '.join(p.name for p in written)}", highlight=False, soft_wrap=True)
    if partial:
        cells = output.config.get("cells", [])
        done = [c["cell"] for c in cells if c["complete"]]
        return (f"[bold yellow]interrupted:[/] {module.name}: kept {len(done)} of {len(cells)} complete cells "
                f"({', '.join(done)}) in {target}, marked partial in config.json and table.md")
    return None
