"""``golfsim sweep``: a grid of tournaments from a TOML file ([`golfsim.sweep`][])."""


from __future__ import annotations

import itertools
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as RichTable

from golfsim.cli.options import Quiet, Threads, out_option, overwrite_option
from golfsim.cli.own_stdout import agents_print_to_stderr
from golfsim.cli.shared import app, clear_errors, err, fail, out
from golfsim.runs.interrupts import RunStopped, stop_means
from golfsim.runs.outdir import check_out_dir

SWEEP_EXAMPLE = """Example (experiments/sweeps/example.toml):

\b
    [sweep]
    seed = 0
    games = 1000          # deal sets per cell
    [rules]               # the same in every cell
    holes = 9
    [axes]                # every combination is one cell
    players = [2, 3]
    end = ["immediate", "one_last_turn"]
    watch = [0, 0.25, 0.5]   # fills {watch} in the pools
    [pools]
    field = ["ev:watch_discard={watch}", "greedy", "pair-builder"]

\b
    golfsim sweep experiments/sweeps/example.toml --out results/sweeps/example
"""


@app.command(epilog=SWEEP_EXAMPLE)
@clear_errors
def sweep(
    config: Annotated[Path, typer.Argument(
        help="The sweep's TOML file: [sweep] games and seed, [rules] shared options, [axes] swept "
             "values, [pools] agents.")],
    out_dir: out_option(
        "The sweep's directory (default: results/sweeps/NAME under the current directory); "
        "finished cells there are kept and not played again.") = None,
    overwrite: overwrite_option("Replace a directory that holds another sweep's cells.") = False,
    threads: Threads = None,
    quiet: Quiet = False,
    games: Annotated[int | None, typer.Option(
        help="Deal sets per cell in place of the file's [sweep] games, e.g. a small first try (a sweep of "
             "another size needs its own --out).")] = None,
):
    """Run a grid of duplicate-deal tournaments (rule options x players x pools x agent parameters) from a TOML
    file: one tidy table (Parquet and CSV) with intervals, a figure per swept axis and config.json.

    Resumable: each finished cell is kept on disk; after Ctrl-C (exit 130) the same command plays only
    the missing cells and gives the same table. A changed file into the same --out is refused unless --overwrite.
    """
    from rich.markup import escape

    from golfsim.sweep.grid import run_sweep

    if out_dir is not None:
        check_out_dir(out_dir)
    try:
        with stop_means("[bold yellow]interrupted:[/] every finished cell is kept on disk; run the same command "
                        "again to play the rest"), agents_print_to_stderr():
            result = run_sweep(config, out_dir, overwrite=overwrite, threads=threads, progress=not quiet,
                               games=games)
    except ValueError as e:
        fail(str(e))  # fail escapes markup: the message names [sections] of the file
    for skipped in result.skipped:
        err.print(f"skipped cell ({skipped['cell']}): {skipped['reason']}", markup=False, highlight=False,
                  soft_wrap=True)
    if result.partial:
        raise RunStopped(f"[bold yellow]interrupted:[/] kept {result.cells_complete} of {result.cells_total} cells "
                         f"in {escape(str(result.out))} (table and config.json marked partial); run the same command "
                         f"again to play the other {result.cells_total - result.cells_complete}")
    _print_sweep_table(result)
    kept = result.cells_complete - result.cells_played
    err.print(f"{result.cells_total} cells ({result.cells_played} played now, {kept} kept from an earlier run); "
              f"wrote {', '.join(p.name for p in result.files)} to {result.out}", markup=False, highlight=False,
              soft_wrap=True)


def _print_sweep_table(result, limit: int = 40) -> None:
    """One row per cell (the swept values), one column per agent of the pools: mean score, interval, win rate."""
    from golfsim.sweep.grid import describe_values

    request = result.config["request"]
    swept = [axis for axis, values in request["axes"].items() if len(values) > 1]
    cells = {c["cell"]: describe_values({k: v for k, v in c["values"].items() if k in swept}) or f"cell {c['cell']}"
             for c in result.config["grid"]}
    table = result.table
    entries = list(dict.fromkeys(table["pool_entry"]))
    game = "game" if "holes" in request["axes"] else f"{request['rules'].get('holes', 9)}-hole"
    level = round(100 * request["sweep"]["confidence"])
    shown = RichTable(title=f"golfsim sweep {request['sweep']['name']}: mean {game} score ± half its {level}% "
                            "interval, win rate; lower is better", title_justify="left")
    shown.add_column("cell")
    for entry in entries:
        shown.add_column(entry, justify="right")

    def numbers(row) -> str:
        half = (row.mean_score_high - row.mean_score_low) / 2
        return f"{row.mean_score:.2f}±{half:.2f} {100 * row.win_rate:.0f}%"

    for number, rows in itertools.islice(table.groupby("cell", sort=False), limit):
        by_entry = {row.pool_entry: numbers(row) for row in rows.itertuples(index=False)}
        shown.add_row(cells[number], *(by_entry.get(entry, "-") for entry in entries))
    console = out if out.is_terminal else Console(width=160)
    console.print(shown)
    cell_count = table["cell"].nunique()
    if cell_count > limit:
        console.print(f"... and {cell_count - limit} more cells in table.csv", highlight=False)
