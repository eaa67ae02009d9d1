"""The ``golfsim`` command line: score, agents, bench, tournament, experiment, sweep, cache-clear.

Every command turns bad input into one line on stderr and exit status 2. Machine formats (``--format json|csv``)
keep stdout clean: progress and messages go to stderr.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
import itertools
import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import numpy as np
import typer
from rich.console import Console
from rich.table import Table as RichTable

from golfsim.core.errors import AgentError, IllegalActionError
from golfsim.core.rules import Rules
from golfsim.runs.interrupts import sigterm_as_ctrl_c
from golfsim.runs.keep import holds_complete_result
from golfsim.runs.outdir import check_out_dir

app = typer.Typer(
    help="golfsim: a fast, faithful research toolkit for six-card Golf.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # click's own help: option names in full, wrapped to the terminal, and no markup to eat text like golfsim[dask]
    rich_markup_mode=None,
)
out = Console()
err = Console(stderr=True)


class Format(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


class ScoreFormat(StrEnum):
    table = "table"
    json = "json"


def fail(message: str) -> None:
    """Print one clear line to stderr and exit with status 2."""
    from rich.markup import escape

    err.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    raise typer.Exit(2)


def clear_errors(fn):
    """Turn the library's ValueError (bad input) into :func:`fail`."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (ValueError, IllegalActionError, AgentError) as e:
            fail(str(e))

    return wrapper


@contextlib.contextmanager
def executor_for(dask: str | None):
    """The executor of ``--dask`` (None: the default thread pool); a missing Dask is one line and exit 2."""
    if dask is None:
        yield None
        return
    from golfsim.runs.tasks import dask_executor

    with dask_executor(dask) as executor:
        yield executor


DaskOption = Annotated[str | None, typer.Option(
    "--dask", help="Run the tasks on Dask: local (a LocalCluster, one worker process per core), local:N (N worker "
                   "processes) or a running scheduler's address tcp://HOST:PORT. Needs golfsim[dask].")]


def show_version(value: bool) -> None:
    """``golfsim --version``: print the version and stop."""
    if value:
        from golfsim import __version__

        print(f"golfsim {__version__}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[bool, typer.Option("--version", callback=show_version, is_eager=True,
                                          help="Print golfsim's version and exit.")] = False,
) -> None:
    pass


def _default_text(value) -> str:
    """A parameter's default as listed: a number, or an agent-valued parameter's agent name."""
    return f"{value:g}" if isinstance(value, (int, float)) else str(value)


# ---------------------------------------------------------------- shared rule flags
Players = Annotated[int, typer.Option(help="Players at the table (2-12).")]
Decks = Annotated[str, typer.Option(help="Decks: 'auto' (1 for 2-4 players, 2 for 5-8, 3 for 9-12) or a number.")]
Jokers = Annotated[str, typer.Option(help="none, minus2 (jokers -2, twos +2), minus5, minus3 or zero.")]
OpeningFlips = Annotated[str, typer.Option(help="Opening flips: any, same-column or different-columns.")]
Reveal = Annotated[bool, typer.Option(help="Allow a turn that only reveals a face-down card.")]
DiscardFlip = Annotated[str, typer.Option(help="After throwing a stock draw: off, may or must flip a card.")]
End = Annotated[str, typer.Option(help="immediate, or one-last-turn for the others after someone goes out.")]
TwosPair = Annotated[str, typer.Option(help="A column of two twos: zero, or keep-negative (-4).")]
FourBonus = Annotated[int, typer.Option(help="Bonus added per rank paired in two columns, e.g. -10.")]
Holes = Annotated[int, typer.Option(help="Deals per game.")]
TurnCap = Annotated[int, typer.Option(help="Turns after which a deal is scored as it stands and counted truncated.")]


RULE_FLAG_TYPES = {"decks": Decks, "jokers": Jokers, "opening_flips": OpeningFlips, "reveal_instead_of_draw": Reveal,
                   "discard_and_flip": DiscardFlip, "end": End, "twos_pair": TwosPair,
                   "four_of_a_kind_bonus": FourBonus, "holes": Holes, "turn_cap": TurnCap}
"""The typer option of each rule option every command that plays takes (all but ``--players``, which some
commands take from the agents or the position); the defaults are :class:`~golfsim.core.rules.Rules`' own."""

RULE_DEFAULTS = {field.name: field.default for field in dataclasses.fields(Rules) if field.name in RULE_FLAG_TYPES}


def make_rules(players: int = 2, **options) -> Rules:
    """Rules from CLI flag values (``decks`` may be the text 'auto' or a number)."""
    decks = options.get("decks", "auto")
    if isinstance(decks, str) and decks.strip().lower() != "auto":
        try:
            options["decks"] = int(decks)
        except ValueError:
            raise ValueError(f"decks must be 'auto' or a whole number, got {decks!r}") from None
    return Rules(players=players, **options)


@dataclasses.dataclass(frozen=True)
class RuleFlags:
    """The rule options given on the command line (option name to value; the others keep their defaults)."""

    values: dict = dataclasses.field(default_factory=dict)

    def rules(self, players: int) -> Rules:
        """The rules for ``players`` players under these options."""
        return make_rules(players, **self.values)


def with_rule_flags(command):
    """Give ``command`` one typer option per rule option (:data:`RULE_FLAG_TYPES`) in place of its
    ``rule_flags: RuleFlags`` parameter, and call it with the options gathered into a :class:`RuleFlags`.

    Typer reads a command's options from its signature, one parameter each and no grouping, so the wrapper shows
    typer the command's signature with the rule options spelled out.
    """
    signature = inspect.signature(command, eval_str=True)
    parameters = []
    for parameter in signature.parameters.values():
        if parameter.name != "rule_flags":
            parameters.append(parameter)
            continue
        for name, annotation in RULE_FLAG_TYPES.items():
            parameters.append(inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                default=RULE_DEFAULTS[name], annotation=annotation))
    if len(parameters) == len(signature.parameters):
        raise TypeError(f"{command.__name__} has no rule_flags parameter")

    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        flags = RuleFlags({name: kwargs.pop(name) for name in RULE_FLAG_TYPES if name in kwargs})
        return command(*args, rule_flags=flags, **kwargs)

    wrapper.__signature__ = signature.replace(parameters=parameters)
    wrapper.__annotations__ = {p.name: p.annotation for p in parameters}
    return wrapper


# ---------------------------------------------------------------- score
@app.command()
@clear_errors
def score(
    layout: Annotated[str, typer.Argument(help="Six cards, top row / bottom row, e.g. '8 K 2 / 8 Q 3'.")],
    jokers: Jokers = "none",
    twos_pair: TwosPair = "zero",
    four_of_a_kind_bonus: FourBonus = 0,
    format: Annotated[ScoreFormat, typer.Option(
        "--format", help="table or json (columns numbered from 1, as in the table).")] = ScoreFormat.table,
):
    """Score one layout, column by column."""
    from golfsim.core.scoring import score_layout

    result = score_layout(layout, Rules(jokers=jokers, twos_pair=twos_pair,
                                        four_of_a_kind_bonus=four_of_a_kind_bonus))
    if format is ScoreFormat.json:
        print(json.dumps(result))
        return
    table = RichTable(title=f"{result['layout']}  ({result['rules']})")
    for col in ("column", "top", "bottom", "points", "why"):
        table.add_column(col, justify="right" if col == "points" else "left")
    for c in result["columns"]:
        table.add_row(str(c["column"]), c["top"], c["bottom"], str(c["points"]), c["why"])
    if result["bonus"]:
        table.add_row("", "", "", str(result["bonus"]), "four-of-a-kind bonus")
    table.add_row("", "", "", f"[bold]{result['score']}[/]", "[bold]score[/]")
    out.print(table)


# ---------------------------------------------------------------- agents
@app.command("agents")
@clear_errors
def list_agents(
    name: Annotated[str | None, typer.Argument(help="Show only this agent (default: every agent).")] = None,
    format: Annotated[Format, typer.Option(
        "--format", help="table (default), json (one document) or csv (one row per agent parameter).")] = Format.table,
):
    """List the registered agents, their parameters, defaults and ranges (user agents included)."""
    from golfsim.agents.base import REGISTRY, available
    from golfsim.cli.agents import agent_blocks

    available()  # loads the user agents named by GOLFSIM_AGENT_MODULES and entry points
    names = sorted(REGISTRY)
    if name is not None:
        if name.strip().lower() not in REGISTRY:
            raise ValueError(f"unknown agent {name!r}; the agents are {', '.join(names)}")
        names = [name.strip().lower()]
    rows = []
    for agent in names:
        spec = REGISTRY[agent]
        rows.append({"agent": agent, "kind": spec.kind, "description": spec.description,
                     "parameters": [{"name": p.name, "default": p.default, "doc": p.doc} for p in spec.params]})
    if format is Format.json:
        print(json.dumps(rows))
        return
    if format is Format.csv:
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["agent", "kind", "description", "parameter", "default", "parameter_doc"])
        for row in rows:
            for p in row["parameters"] or [{"name": "", "default": "", "doc": ""}]:
                writer.writerow([row["agent"], row["kind"], row["description"], p["name"],
                                 _default_text(p["default"]) if p["name"] else "", p["doc"]])
        return
    sys.stdout.write(agent_blocks([REGISTRY[agent] for agent in names], out.width if out.is_terminal else 80))


# ---------------------------------------------------------------- bench
@app.command()
@clear_errors
@with_rule_flags
def bench(
    agents: Annotated[str, typer.Option(help="One agent per seat, comma-separated.")] = "random,random",
    deals: Annotated[int | None, typer.Option(help="Single deals to time (default 1,000,000 unless --games).")] = None,
    games: Annotated[int | None, typer.Option(help="Time full N-hole games instead of single deals.")] = None,
    threads: Annotated[int | None, typer.Option(help="Threads (default: all; NUMBA_NUM_THREADS caps it).")] = None,
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

    def announce():
        if format is ScoreFormat.table:
            err.print(f"warming up and timing {repeats} runs...", highlight=False)

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


# ---------------------------------------------------------------- tournament
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
    threads: Annotated[int | None, typer.Option(help="Threads (default: all; NUMBA_NUM_THREADS caps it).")] = None,
    batch_size: Annotated[int, typer.Option(
        help="Deal sets per block; smaller blocks move the progress bar and stop on Ctrl-C sooner.")] = 1000,
    confidence: Annotated[float, typer.Option(help="Level of every interval.")] = 0.95,
    rule_flags: RuleFlags = RuleFlags(),
    format: Annotated[Format, typer.Option(
        "--format", help="table (rich, default), json (one document) or csv (the standings).")] = Format.table,
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="Directory for the tables (CSV, JSON), plots and config.json.")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
    log: Annotated[Path | None, typer.Option(
        "--log", help="Also write every decision and deal end to this Parquet file (see 'golfsim replay').")] = None,
    dask: DaskOption = None,
):
    """Play a duplicate-deal tournament: rotated seats, identical cards, standings with intervals and ratings.

    With no arguments: a short demo of the built-in agents (ev, greedy, pair-builder, random) at two players.

    Lower scores win.
    """
    from golfsim.tournament import report, run_tournament, split_agents

    rules = rule_flags.rules(players)
    if out_dir is not None:
        check_out_dir(out_dir)
    if dask is not None and log is not None:
        raise ValueError("--log plays the games in this process; drop --dask (or --log)")
    if log is not None and out_dir is not None and log.resolve() == out_dir.resolve():
        raise ValueError(f"--log and --out are the same path {str(log)!r}; give the log a file name of its own "
                         "(e.g. --log decisions.parquet)")
    sigterm_as_ctrl_c()
    try:
        with executor_for(dask) as executor:
            result = run_tournament(split_agents(agents), rules, games, seed, schedule=schedule, anchor=anchor,
                                    seating=seating, threads=threads, batch_size=batch_size, confidence=confidence,
                                    progress=not quiet, log=log, executor=executor)
    except KeyboardInterrupt:
        err.print("[bold yellow]interrupted[/] before any deal set was complete; nothing kept", highlight=False)
        raise typer.Exit(130) from None
    if log is not None:
        err.print(f"wrote the decision log {log}", highlight=False)
    if result.partial:
        err.print(f"[bold yellow]interrupted:[/] keeping {result.deal_sets:,} of {games:,} complete deal sets "
                  f"({result.games_played:,} games); the result is marked partial", highlight=False)
        if result.deal_sets == 0:
            err.print("nothing to report: no deal set was complete", highlight=False)
            raise typer.Exit(130)
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
        try:
            written = result.write(out_dir)
        except KeyboardInterrupt:
            err.print(f"[bold yellow]interrupted[/] while writing; {out_dir} was left as it was", highlight=False)
            raise typer.Exit(130) from None
        err.print(f"wrote {len(written)} files to {out_dir}" + (" (marked partial)" if result.partial else ""),
                  highlight=False)
    if result.partial:
        raise typer.Exit(130)


# ---------------------------------------------------------------- experiment
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
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="Root directory: each experiment writes OUT/NAME/ (default: ./results, under the current "
                      "directory).")] = None,
    threads: Annotated[int | None, typer.Option(help="Threads (default: all; NUMBA_NUM_THREADS caps it).")] = None,
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", help="Replace OUT/NAME even when it holds a result of another size or seed.")] = False,
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
    short = module.summary(output.table)
    table = RichTable(title=f"{module.name} ({seconds:,.0f} s)" + (" PARTIAL" if partial else ""),
                      title_justify="left")
    for col in short.columns:
        table.add_column(str(col), justify="right" if short[col].dtype.kind in "fiu" else "left")
    for row in short.itertuples(index=False):
        table.add_row(*(f"{v:,.3f}" if isinstance(v, float) else str(v) for v in row))
    console = out if out.is_terminal else Console(width=160)
    console.print(table)
    console.print(f"wrote {target}: {', '.join(p.name for p in written)}", highlight=False, soft_wrap=True)
    if partial:
        cells = output.config.get("cells", [])
        done = [c["cell"] for c in cells if c["complete"]]
        err.print(f"[bold yellow]interrupted:[/] {module.name}: kept {len(done)} of {len(cells)} complete cells "
                  f"({', '.join(done)}) in {target}, marked partial in config.json and table.md", highlight=False,
                  soft_wrap=True)
        return False
    return True


# ---------------------------------------------------------------- sweep
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
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="The sweep's directory (default: results/sweeps/NAME under the current directory); "
                      "finished cells there are kept and not played again.")] = None,
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", help="Replace a directory that holds another sweep's cells.")] = False,
    threads: Annotated[int | None, typer.Option(help="Threads (default: all; NUMBA_NUM_THREADS caps it).")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
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
        result = run_sweep(config, out_dir, overwrite=overwrite, threads=threads, progress=not quiet, games=games)
    except ValueError as e:
        fail(str(e))  # fail escapes markup: the message names [sections] of the file
    except KeyboardInterrupt:
        err.print("[bold yellow]interrupted:[/] every finished cell is kept on disk; run the same command again to "
                  "play the rest", highlight=False)
        raise typer.Exit(130) from None
    for skipped in result.skipped:
        err.print(f"skipped cell ({skipped['cell']}): {skipped['reason']}", markup=False, highlight=False,
                  soft_wrap=True)
    if result.partial:
        err.print(f"[bold yellow]interrupted:[/] kept {result.cells_complete} of {result.cells_total} cells in "
                  f"{escape(str(result.out))} (table and config.json marked partial); run the same command again "
                  f"to play the other {result.cells_total - result.cells_complete}", highlight=False, soft_wrap=True)
        raise typer.Exit(130)
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


# ---------------------------------------------------------------- tune
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
    threads: Annotated[int | None, typer.Option(help="Threads (default: all; NUMBA_NUM_THREADS caps it).")] = None,
    out_dir: Annotated[Path | None, typer.Option(
        "--out", help="Directory for study.db (optuna storage), trials.csv, convergence.png and config.json (default: "
                      "./results/tuning/AGENT).")] = None,
    overwrite: Annotated[bool, typer.Option(
        "--overwrite", help="Replace a directory holding a study of another request.")] = False,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Continue the study in the output directory (same request): its trials are kept and "
                         "the study runs on to --trials.")] = False,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
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
    from golfsim.cli import tune as tune_command

    status = tune_command.run(agent, against, params, trials, games, eval_games, seed, startup_trials,
                              rule_flags.rules(players), threads, out_dir, overwrite, resume, quiet, err)
    if status:
        raise typer.Exit(status)


# ---------------------------------------------------------------- play
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
    from golfsim.cli import play as table

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
    from golfsim.runs.atomic import check_writable

    check_writable(path, "the game", "--save")  # before the game, not after it is played
    raise typer.Exit(table.main(names, rules, seed, path))


# ---------------------------------------------------------------- hint
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
    "come). Lower is better.",
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
    rule_flags: RuleFlags = RuleFlags(),
    format: Annotated[ScoreFormat, typer.Option("--format", help="table or json.")] = ScoreFormat.table,
):
    from golfsim.coach.hint import hint as ask
    from golfsim.coach.hint import print_hint
    from golfsim.coach.position import Position

    where = Position.parse(position)
    rules = rule_flags.rules(where.players)
    pub = where.to_pub(rules)
    answer = ask(pub, rules, samples=samples, seed=seed, objective=objective)
    if format is ScoreFormat.json:
        print(json.dumps({"position": where.text(), "rules": rules.to_dict(), **answer.to_dict()}))
        return
    print_hint(answer, where.text(), rules, out if out.is_terminal else Console(width=140))


# ---------------------------------------------------------------- replay
@app.command()
@clear_errors
def replay(
    log: Annotated[Path, typer.Argument(help="A decision log (tournament --log) or a game saved by 'golfsim play'.")],
    game: Annotated[int, typer.Option(help="The game's number in the log (column 'game').")] = 0,
    hole: Annotated[int | None, typer.Option(
        help="A hole, from 1 as on the scorecard: show its deal move by move. Without it: the game's "
             "scorecard.")] = None,
):
    """Show a logged game: its scorecard, or one deal move by move with every layout."""
    from golfsim.logs.replay import deal_lines, scorecard_lines
    from golfsim.logs.trace import read_log

    opened = read_log(log)
    lines = scorecard_lines(opened, game) if hole is None else deal_lines(opened, game, hole)
    print("\n".join(lines))


# ---------------------------------------------------------------- cache
@app.command("cache-clear")
def cache_clear():
    """Delete golfsim's compiled-function cache (every source version's; see golfsim._numba.jit)."""
    from golfsim._numba.jit import clear_cache

    removed = clear_cache()
    err.print(f"removed {removed} cached files", highlight=False)


@app.command("cache-warm")
def cache_warm():
    """Compile everything a first run needs now (a minute or two once per golfsim version), so that later commands
    start at once."""
    from golfsim._numba.jit import CACHE_DIR
    from golfsim.cli.cache_warm import warm

    err.print(f"compiling into {CACHE_DIR} ...", markup=False, highlight=False, soft_wrap=True)
    records = warm(say=lambda line: err.print(line, markup=False, highlight=False, soft_wrap=True))
    total = sum(r["seconds"] for r in records)
    err.print(f"cache warm: {sum(r['compiles'] for r in records)} functions compiled in {total:.0f} s",
              highlight=False)


# ---------------------------------------------------------------- learn (body in golfsim.cli.learn)
from golfsim.cli.learn import LEARN_HELP  # noqa: E402
from golfsim.cli.learn import learn as _learn  # noqa: E402

app.command("learn", help=LEARN_HELP)(clear_errors(_learn))


def main() -> None:
    """Entry point of the ``golfsim`` console script."""
    from golfsim.cli.oserrors import run_command
    from golfsim.runs.compile_notice import CompileLine

    np.seterr(all="ignore")
    # a terminal sees what Numba compiles, from the start; not 'play', whose screen takes the terminal's input line
    with CompileLine(enabled=sys.argv[1:2] != ["play"]):
        run_command(app)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
