"""The interface an experiment declares, and how ``golfsim experiment`` finds experiments.

An experiment is a research question answered by a run that writes a result directory. It declares itself with an
[`Experiment`][golfsim.runs.experiment.Experiment]: its name, the question, where its code lives, its sizes and which of
the run options ([`OPTIONS`][golfsim.runs.experiment.OPTIONS]) it takes. The library never imports an experiment
package: [`discover`][golfsim.runs.experiment.discover] reads the ``golfsim.experiments`` entry points of the installed
distributions (golfsim's own point at ``golfsim.experiments:EXPERIMENTS``), each an
[`Experiment`][golfsim.runs.experiment.Experiment] or a sequence of them, so another package adds experiments by
declaring an entry point of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module, metadata
from pathlib import Path
from typing import Any

from golfsim.runs import claims

ENTRY_POINT_GROUP = "golfsim.experiments"

OPTIONS = ("threads", "executor", "log")
"""The run options an experiment may take besides ``games`` and ``seed``: a thread count, an executor
([`golfsim.runs.tasks`][]) and a ``log(line)`` callback."""


@dataclass(frozen=True)
class Experiment:
    """One experiment: what it asks and how to run it.

    Attributes
    ----------
    name : str
        Its name on the command line and of its result directory.
    question : str
        The question it answers, in one line.
    module : str
        The module holding ``run(games=None, seed=0, **options)``, which returns an output with ``table``
        (a DataFrame), ``partial`` and ``write(directory)``, and optionally ``summary(table)``, the short table the
        command line prints. Imported only when the experiment runs.
    full_size : str
        What a run without ``games`` plays (the committed results' size), in words.
    trial_games : int
        A small ``games`` for a quick trial run.
    options : tuple of str
        Which of [`OPTIONS`][golfsim.runs.experiment.OPTIONS] its ``run`` takes.
    in_all : bool
        Whether ``golfsim experiment all`` runs it (hardware-specific measurements do not).
    """

    name: str
    question: str
    module: str
    full_size: str
    trial_games: int = 200
    options: tuple[str, ...] = ()
    in_all: bool = True

    def __post_init__(self):
        unknown = set(self.options) - set(OPTIONS)
        if unknown:
            raise ValueError(f"experiment {self.name!r}: unknown options {sorted(unknown)}; known: {OPTIONS}")

    def request(self, games: int | None, seed: int) -> dict:
        """What a run of it was asked for ([`request`][golfsim.runs.experiment.Experiment.request])."""
        return request(self.name, games, seed)

    def check_target(self, directory: Path, games: int | None, seed: int, overwrite: bool = False) -> None:
        """Refuse, before the run, to replace a result of another request in ``directory``
        ([`check_target`][golfsim.runs.experiment.Experiment.check_target])."""
        check_target(directory, self.request(games, seed), overwrite)

    def load(self):
        """The experiment's module."""
        return import_module(self.module)

    def run(self, games: int | None = None, seed: int = 0, **options: Any):
        """Run it; an option it does not take (`options`) is an error."""
        unknown = set(options) - set(self.options)
        if unknown:
            raise ValueError(f"experiment {self.name!r} does not take {', '.join(sorted(unknown))}")
        kwargs = {"seed": seed, **options}
        if games is not None:
            kwargs["games"] = games
        return self.load().run(**kwargs)

    def summary(self, table):
        """The short table the command line prints (the first rows when the module has no ``summary``)."""
        summarise: Callable | None = getattr(self.load(), "summary", None)
        return summarise(table) if summarise is not None else table.head(12)


def request(name: str, games: int | None, seed: int) -> dict:
    """What an experiment run was asked for: the experiment, ``games`` (``None``: the full size) and ``seed``; the
    same request gives the same result."""
    return {"experiment": name, "games": games, "seed": seed}


def recorded_request(config: dict) -> dict | None:
    """The request stored in a ``config.json``; for a result written before requests were stored, the one its
    recorded ``golfsim experiment`` command states; ``None`` when neither says."""
    stored = claims.stored_request(config)
    if stored is not None:
        return stored
    words = str(config.get("command", "")).split()
    if words[:2] != ["golfsim", "experiment"] or len(words) < 3:
        return None
    options = dict(zip(words[3::2], words[4::2], strict=False))
    try:
        games = int(options["--games"]) if "--games" in options else None
        seed = int(options.get("--seed", 0))
    except ValueError:
        return None
    return request(words[2], games, seed)


def check_target(directory: Path, req: dict, overwrite: bool = False) -> None:
    """[`golfsim.runs.claims.check_target`][] for an experiment's request, reading old results' requests too
    ([`recorded_request`][golfsim.runs.experiment.recorded_request])."""
    claims.check_target(directory, req, overwrite, recorded=recorded_request)


def discover(entry_points=None) -> dict[str, Experiment]:
    """Every declared experiment by name, in the order declared.

    Parameters
    ----------
    entry_points : iterable, optional
        Entry points to read (default: the installed ``golfsim.experiments`` group).

    Raises
    ------
    ValueError
        When an entry point gives something that is not an [`Experiment`][golfsim.runs.experiment.Experiment], or two
        declare one name.
    """
    found: dict[str, Experiment] = {}
    points = metadata.entry_points(group=ENTRY_POINT_GROUP) if entry_points is None else entry_points
    for point in points:
        declared = point.load()
        for experiment in (declared,) if isinstance(declared, Experiment) else tuple(declared):
            if not isinstance(experiment, Experiment):
                raise ValueError(f"entry point {point.name!r} of {ENTRY_POINT_GROUP} gave {experiment!r}, not an "
                                 "Experiment")
            if experiment.name in found:
                raise ValueError(f"two experiments are named {experiment.name!r} ({ENTRY_POINT_GROUP} entry points)")
            found[experiment.name] = experiment
    return found


def choose(name: str, experiments: dict[str, Experiment]) -> list[Experiment]:
    """The experiments ``name`` stands for: one by name, or ``all`` (every one with ``in_all``).

    Raises
    ------
    ValueError
        For an unknown name, listing the choices.
    """
    key = str(name).strip().lower()
    if key == "all":
        return [e for e in experiments.values() if e.in_all]
    if key not in experiments:
        raise ValueError(f"unknown experiment {name!r}; choose one of: {', '.join(['all', *experiments])}")
    return [experiments[key]]
