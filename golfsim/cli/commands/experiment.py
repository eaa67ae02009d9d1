"""``golfsim experiment``: run the experiments of :mod:`golfsim.experiments` and write their results."""


from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from golfsim.cli.document import agents_print_to_stderr
from golfsim.cli.options import Threads, out_option, overwrite_option
from golfsim.cli.shared import DaskOption, app, clear_errors, err, executor_for, out
from golfsim.runs.interrupts import sigterm_as_ctrl_c
from golfsim.runs.keep import holds_complete_result
from golfsim.runs.outdir import check_out_dir


@app.command()
@clear_errors
def experiment(
    name: Annotated[str, typer.Argument(
        help="ladder, tips, variants, players, luck, benchmarks, search, or all (ladder, tips, variants, players "
             "and luck).")],
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
    try:
        with executor_for(dask) as executor:
            for module in modules:
                if not _run_experiment(module, root, games, seed, threads, executor, dask):
                    skipped = chosen[chosen.index(module.name) + 1:]
                    if skipped:
                        err.print(f"not run: {', '.join(skipped)}", highlight=False)
                    raise typer.Exit(130)
    except KeyboardInterrupt:  # while a Dask cluster started or stopped
        err.print("[bold yellow]interrupted[/]", highlight=False)
        raise typer.Exit(130) from None


def _run_experiment(module, root: Path, games, seed, threads, executor, dask) -> bool:
    """Run one experiment, write it and print its short table; False when it was interrupted (what was kept is
    written, marked partial, and said in one line). A stop after the last cell lets the result be written first
    (:mod:`golfsim.runs.late`)."""
    from golfsim.runs.late import finish_after_work

    with finish_after_work() as stops:
        finished = _run_and_write_experiment(module, root, games, seed, threads, executor, dask)
    if finished and stops.arrived:
        err.print(f"[bold yellow]interrupted[/] after every cell of {module.name} was complete: the result was "
                  "written in full", highlight=False, soft_wrap=True)
        return False
    return finished


def _run_and_write_experiment(module, root: Path, games, seed, threads, executor, dask) -> bool:
    import time

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
    try:
        with agents_print_to_stderr():
            output = module.run(games, seed, **kwargs)
    except KeyboardInterrupt:
        err.print(f"[bold yellow]interrupted:[/] {module.name}: no cell was complete; nothing written",
                  highlight=False)
        return False
    partial = getattr(output, "partial", False)
    if partial and len(output.table) == 0:
        err.print(f"[bold yellow]interrupted:[/] {module.name}: no cell was complete; nothing written",
                  highlight=False)
        return False
    if partial and holds_complete_result(target):
        err.print(f"[bold yellow]interrupted:[/] {module.name}: kept the complete result already in {target}; "
                  "the partial one does not replace it", highlight=False, soft_wrap=True)
        return False
    try:
        written = output.write(target)
    except KeyboardInterrupt:
        err.print(f"[bold yellow]interrupted[/] while writing {target}; it was left as it was", highlight=False)
        return False
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
        err.print(f"[bold yellow]interrupted:[/] {module.name}: kept {len(done)} of {len(cells)} complete cells "
                  f"({', '.join(done)}) in {target}, marked partial in config.json and table.md", highlight=False,
                  soft_wrap=True)
        return False
    return True
