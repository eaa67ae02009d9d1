"""``golfsim bench``: deals per second and compile time of the batch kernel."""


from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table as RichTable

from golfsim.cli.options import Threads
from golfsim.cli.own_stdout import agents_print_to_stderr
from golfsim.cli.shared import RuleFlags, ScoreFormat, app, clear_errors, err, out, with_rule_flags
from golfsim.runs.limits import check_time


@app.command()
@clear_errors
@with_rule_flags
def bench(
    agents: Annotated[str, typer.Option(help="One agent per seat, comma-separated.")] = "random,random",
    deals: Annotated[int | None, typer.Option(help="Single deals to time (default 1,000,000 unless --games).")] = None,
    games: Annotated[int | None, typer.Option(help="Time full N-hole games instead of single deals.")] = None,
    threads: Threads = None,
    repeats: Annotated[int, typer.Option(help="Timed repeats after the warm-up; the median is reported.")] = 5,
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 0,
    rule_flags: RuleFlags = RuleFlags(),
    format: Annotated[ScoreFormat, typer.Option("--format", help="table or json.")] = ScoreFormat.table,
    vs_c: Annotated[Path | None, typer.Option(
        "--vs-c", help="A build of the tight C loop (golf_limit.c): run it before each timed run on the same deals "
                       "and report our speed as a share of its, measured in the same run.")] = None,
):
    """Measure deals (or games) per second and compile time of the batch simulator."""
    from golfsim.kernels.bench import run_benchmark

    names = [a.strip() for a in agents.split(",") if a.strip()]
    if deals is None and games is None:
        deals = 1_000_000
    if deals is not None and games is not None:
        raise ValueError("give --deals or --games, not both")
    rules = rule_flags.rules(len(names))
    planned = (deals if deals is not None else games * rules.holes) * (repeats + 1)  # the warm-up is a run too
    check_time(f"a warm-up and {repeats} timed run(s) of {deals if deals is not None else games:,} "
               f"{'deals' if deals is not None else 'games'}", planned, threads or os.cpu_count() or 1,
               "use fewer --deals, --games or --repeats")

    def announce():
        if format is ScoreFormat.table:
            err.print(f"warming up and timing {repeats} runs...", highlight=False)

    with agents_print_to_stderr():
        result = run_benchmark(names, rules, deals=deals, games=games, threads=threads, repeats=repeats, seed=seed,
                               on_start=announce, vs_c=vs_c)
    if format is ScoreFormat.json:
        print(json.dumps(result))
        return
    table = RichTable(title=f"golfsim bench: {', '.join(result['agents'])} ({result['rules']})")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("deals per second (median)", f"{result['deals_per_second']:,.0f}")
    if "games_per_second" in result:
        table.add_row("games per second (median)", f"{result['games_per_second']:,.0f}")
    for key in ("deals", "threads", "repeats"):
        table.add_row(key, f"{result[key]:,}")
    table.add_row("runs (s)", ", ".join(f"{s:.3f}" for s in result["seconds"]))
    table.add_row("compile or cache load (s)", f"{result['compile_seconds']:.2f} "
                  f"({result['compile_cpu_seconds']:.2f} s of processor time)")
    table.add_row("peak memory (MiB)", f"{result['peak_rss_mb']:.0f}")
    table.add_row("threading layer", result["threading_layer"])
    if "c_ratio" in result:
        table.add_row("C loop deals per second (median)", f"{result['c_deals_per_second']:,.0f}")
        table.add_row("golfsim / C loop (same run)", f"{result['c_ratio']:.3f}")
    table.add_row("load average (1 min)", f"{result['load_average']:.2f}")
    out.print(table)
