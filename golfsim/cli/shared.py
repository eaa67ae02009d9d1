"""What every ``golfsim`` command shares: the typer app, bad input as one line, a stopped run's end, executors and
the rule options, declared once ([`RuleFlags`][golfsim.cli.shared.RuleFlags],
[`with_rule_flags`][golfsim.cli.shared.with_rule_flags]).

Every command turns bad input into one line on stderr and exit status 2. Machine formats (``--format json|csv``)
keep stdout clean: progress and messages go to stderr. The commands themselves live in
[`golfsim.cli.commands`][], one module per command family.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import inspect
from enum import StrEnum
from typing import Annotated

import typer
from rich.console import Console

from golfsim.core.errors import AgentError, IllegalActionError
from golfsim.core.rules import Rules, house_options

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
    """Turn the library's ValueError (bad input) into [`fail`][golfsim.cli.shared.fail], and end a stopped run (Ctrl-C
    or SIGTERM): its [`RunStopped`][golfsim.runs.interrupts.RunStopped] message, or ``interrupted`` for a stop no step
    of the command caught, then exit status 130 (the one place a command ends as interrupted)."""
    from golfsim.runs.interrupts import EXIT_STATUS, RunStopped, stop_means

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            with stop_means("[bold yellow]interrupted[/]"):
                return fn(*args, **kwargs)
        except (ValueError, IllegalActionError, AgentError) as e:
            fail(str(e))
        except RunStopped as stopped:
            if str(stopped):
                with contextlib.suppress(OSError):  # the terminal may be gone (SIGHUP): the exit status stays
                    err.print(str(stopped), highlight=False, soft_wrap=True)
            raise typer.Exit(EXIT_STATUS) from None

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
DiscardFlip = Annotated[str, typer.Option(
    help="After throwing a stock draw: off, may or must flip a card, or endgame (may, once anyone has one down).")]
End = Annotated[str, typer.Option(help="immediate, or one-last-turn for the others after someone goes out.")]
TwosPair = Annotated[str, typer.Option(help="A column of two twos: zero, or keep-negative (-4).")]
FourBonus = Annotated[int, typer.Option(help="Bonus added per rank paired in two columns, e.g. -10.")]
Holes = Annotated[int, typer.Option(help="Deals per game.")]
TurnCap = Annotated[int, typer.Option(help="Turns after which a deal is scored as it stands and counted truncated.")]
House = Annotated[str, typer.Option(
    help="House rules by the web game's names, comma-separated, e.g. super_kings,knock_penalty,initial_flips=1 "
         "(list them with 'golfsim rules').")]


RULE_FLAG_TYPES = {"decks": Decks, "jokers": Jokers, "opening_flips": OpeningFlips, "reveal_instead_of_draw": Reveal,
                   "discard_and_flip": DiscardFlip, "end": End, "twos_pair": TwosPair,
                   "four_of_a_kind_bonus": FourBonus, "holes": Holes, "turn_cap": TurnCap, "house": House}
"""The typer option of each rule option every command that plays takes (all but ``--players``, which some
commands take from the agents or the position); the defaults are [`Rules`][golfsim.core.rules.Rules]' own."""

RULE_DEFAULTS = {field.name: field.default for field in dataclasses.fields(Rules) if field.name in RULE_FLAG_TYPES}
RULE_DEFAULTS["house"] = ""


def make_rules(players: int = 2, **options) -> Rules:
    """Rules from CLI flag values (``decks`` may be the text 'auto' or a number; ``house`` is the ``--house`` list,
    [`house_options`][golfsim.core.rules.house_options])."""
    house = house_options(options.pop("house", "") or "")
    if "discard_and_flip" in house and options.get("discard_and_flip", "off") != "off":
        raise ValueError("flip_mode in --house and --discard-and-flip both set the flip after a throw; give one")
    options.update(house)
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
    """Give ``command`` one typer option per rule option ([`RULE_FLAG_TYPES`][golfsim.cli.shared.RULE_FLAG_TYPES]) in
    place of its ``rule_flags: RuleFlags`` parameter, and call it with the options gathered into a
    [`RuleFlags`][golfsim.cli.shared.RuleFlags].

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
