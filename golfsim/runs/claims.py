"""Which result a directory may receive: a directory holding a result is replaced only by a run of the same request.

Every run that writes a result directory (experiments, tuning studies, sweeps) records the *request* that made it
(a JSON-able dict: what was asked, sizes, seeds) in its ``config.json`` under ``"request"``. Running the same
request again reproduces the result, so it may replace it; any other run is refused before it starts
([`check_target`][golfsim.runs.claims.check_target]) unless told to overwrite, so a small trial run cannot silently
replace a committed result. Files are then written atomically ([`golfsim.runs.outdir.write_directory`][]), a run cut
short is marked partial ([`mark_partial`][golfsim.runs.claims.mark_partial]), and Ctrl-C is handled by
[`golfsim.runs.interrupts`][].

Where results go by default: ``results/`` under the current directory
([`default_root`][golfsim.runs.claims.default_root]), never a place found from where golfsim is installed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

CONFIG_FILE = "config.json"


def default_root() -> Path:
    """Where runs write when no directory is given: ``results/`` under the current directory."""
    return Path.cwd() / "results"


def stored_request(config: dict) -> dict | None:
    """The request a ``config.json`` records, or ``None``."""
    stored = config.get("request")
    return stored if isinstance(stored, dict) else None


def describe_request(req: dict) -> str:
    """A short phrase for a request in a refusal: ``NAME, full size|--games N, seed S`` for an experiment's request,
    else its keys and values."""
    if {"experiment", "games", "seed"} <= set(req):
        size = "full size" if req.get("games") is None else f"--games {req['games']}"
        return f"{req.get('experiment')}, {size}, seed {req.get('seed')}"
    return ", ".join(f"{k} {v}" for k, v in req.items())


def check_target(directory: Path, req: dict, overwrite: bool = False, *,
                 recorded: Callable[[dict], dict | None] = stored_request,
                 describe: Callable[[dict], str] = describe_request, kind: str = "an experiment result",
                 empty_dirs: tuple[str, ...] = (),
                 refusal: Callable[[dict | None, dict], str] | None = None) -> dict:
    """Refuse to write a run of ``req`` into ``directory`` when that would replace a different result; return the
    ``config.json`` the directory holds (empty when it holds none, or with ``overwrite``).

    Allowed: a directory that does not exist or is empty, one holding a result of the same request, or anything
    with ``overwrite``.

    Parameters
    ----------
    directory : pathlib.Path
    req : dict
        This run's request.
    overwrite : bool
        Allow anything.
    recorded : callable, optional
        ``recorded(config) -> request or None``: the request a held ``config.json`` records (default
        [`stored_request`][golfsim.runs.claims.stored_request]; experiments also read results written before requests
        were stored).
    describe : callable, optional
        How a request is named in the message.
    kind : str
        What a result of this kind is called in a refusal ("a sweep").
    empty_dirs : tuple of str
        Subdirectories a directory not yet holding a result may already have, empty (a sweep's ``cells``).
    refusal : callable, optional
        ``refusal(held, req) -> message`` in place of the default refusal of a different (or unrecorded, ``None``)
        request.

    Raises
    ------
    ValueError
        Naming the directory, what it holds and how to proceed.
    """
    directory = Path(directory)
    if overwrite or not directory.exists():
        return {}
    if not directory.is_dir():
        raise ValueError(f"{str(directory)!r} is an existing file; give another --out directory")
    config_path = directory / CONFIG_FILE
    if not config_path.is_file():
        if any(not (p.name in empty_dirs and p.is_dir() and not any(p.iterdir()))
               and not (p.name.startswith(".") and p.name.endswith(".lock")) for p in directory.iterdir()):
            raise ValueError(f"{str(directory)!r} holds files that are not {kind}; give another --out directory, or "
                             "--overwrite to write into it anyway")
        return {}
    try:
        document = json.loads(config_path.read_text())
    except (OSError, ValueError):
        document = None
    held = recorded(document) if isinstance(document, dict) else None  # a hand edit (a JSON list) records nothing
    if held != req:
        if refusal is not None:
            raise ValueError(refusal(held, req))
        what = f"a result of {describe(held)}" if held else "a result whose request is not recorded"
        raise ValueError(f"{str(directory)!r} holds {what}; this run ({describe(req)}) would replace it. Give "
                         "--out DIR for a trial run, or --overwrite to replace it")
    return document


def mark_partial(config: dict, notes: list[str], partial: bool, cells: list[dict], kept: str) -> None:
    """Record in ``config`` (``partial``, and ``cells``: what each cell did) and as the first of ``notes`` that the
    run was cut short; ``kept`` says in one phrase what was kept."""
    config["partial"] = partial
    if partial:
        config["cells"] = cells
        notes.insert(0, f"PARTIAL RESULT: interrupted; {kept}. Only complete cells are in the table.")
