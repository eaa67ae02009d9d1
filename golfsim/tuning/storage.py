"""A study's trials on disk, in optuna's own storage: a SQLite file that every finished trial is committed to.

``study.db`` in a study's directory is an ordinary optuna RDB storage (``sqlite:///DIR/study.db``, study name
`STUDY_NAME`), so ``optuna-dashboard sqlite:///DIR/study.db`` shows it and ``optuna.load_study`` reads it.
A trial is committed the moment it ends, so whatever stops the run (Ctrl-C, SIGTERM, SIGKILL, a full disk while
the other files are written) keeps every finished trial, and ``--resume`` continues from them. A trial cut short
is left ``RUNNING`` by a SIGKILL; resuming marks it ``FAIL`` (optuna's samplers ignore failed trials).

Each trial records, besides optuna's parameters (the grid index of a float) and value (the objective), the user
attributes ``index`` (the trial's number in the study as golfsim counts it: completed trials only),
``objective_low``, ``objective_high`` and ``agent``. The study records the request it answers (user attribute
``request``, JSON), so a resume of another request is refused.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd

from golfsim.runs.outdir import held_signals
from golfsim.tuning.space import ParamRange

STUDY_FILE = "study.db"
STUDY_NAME = "golfsim-tune"


LOCK_FILE = ".study.lock"
LOCK_WAIT_SECONDS = 30
"""How long a trial's commit waits for a study file that another program holds locked."""


@contextlib.contextmanager
def study_lock(directory: Path):
    """Hold ``directory``'s study for this run: a second tune on the same folder is refused at once (an advisory
    ``flock`` the system drops when the process ends, so a killed run leaves no stale lock).

    Raises
    ------
    ValueError
        When another run holds it, or the folder cannot be made.
    """
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no advisory lock
        yield
        return
    directory = Path(directory)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(directory / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as err:
        from golfsim.atomic import os_error_text

        raise ValueError(f"cannot use the study folder {str(directory)!r}: {os_error_text(err)}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ValueError(f"another tune is running on {str(directory)!r} now; wait for it to end, or give "
                             "another --out") from None
        try:
            yield
        finally:
            with contextlib.suppress(OSError):
                (directory / LOCK_FILE).unlink()
    finally:
        os.close(fd)


def _storage_error(err: BaseException) -> bool:
    """True for what a damaged, locked or full study file raises inside optuna, SQLAlchemy or sqlite."""
    if isinstance(err, (sqlite3.Error, KeyError, TypeError, RuntimeError)):
        return True
    modules = {type(e).__module__.split(".")[0] for e in (err, err.__cause__, err.__context__) if e is not None}
    return bool(modules & {"sqlalchemy", "optuna", "sqlite3"})


def _storage_message(path, err: BaseException) -> str:
    cause = err
    while cause.__cause__ is not None or cause.__context__ is not None:  # sqlite's own words, under the wrappers
        cause = cause.__cause__ or cause.__context__
    err = cause if isinstance(cause, sqlite3.Error) else err
    text = " ".join(str(err).split("\n")[0].split()) or type(err).__name__
    low = text.lower()
    if "database is locked" in low:
        return (f"the study file {path} is locked by another program (waited {LOCK_WAIT_SECONDS} s); let it finish, "
                "or give another --out")
    if "disk is full" in low or "no space left" in low:
        return f"cannot write the study file {path}: No space left on device (ENOSPC); free some room and --resume"
    if len(text) > 160:
        text = text[:157] + "..."
    return (f"the study file {path} is damaged or not a golfsim study ({type(err).__name__}: {text}); remove it or "
            "give another --out")


@contextlib.contextmanager
def guarded(path):
    """Turn what a damaged, locked or full study file raises (optuna, SQLAlchemy, sqlite errors, missing keys) into
    one ``ValueError`` line naming ``path``."""
    try:
        yield
    except ValueError:
        raise
    except Exception as err:
        if not _storage_error(err):
            raise
        raise ValueError(_storage_message(path, err)) from None


def storage_url(path: Path | str) -> str:
    """The SQLAlchemy URL of a study file, as optuna and optuna-dashboard take it."""
    return f"sqlite:///{Path(path).resolve()}"


def _request_text(request: dict) -> str:
    return json.dumps(request, sort_keys=True)


def open_study(optuna, path: Path | None, request: dict, resume: bool):
    """The optuna study of ``request``: in memory (``path`` None), a new one in ``path`` (replacing what is there
    unless ``resume``), or the one ``path`` holds.

    Raises
    ------
    ValueError
        When ``path`` holds a study of another request.
    """
    if path is None:
        return optuna.create_study(direction="minimize", study_name=STUDY_NAME)
    path = Path(path)
    if path.exists() and not resume:
        path.unlink()
    if path.is_dir():
        raise ValueError(f"the study file {path} is a directory; remove it or give another --out")
    storage = optuna.storages.RDBStorage(storage_url(path),
                                         engine_kwargs={"connect_args": {"timeout": LOCK_WAIT_SECONDS}})
    names = [s.study_name for s in optuna.get_all_study_summaries(storage)]
    if STUDY_NAME not in names:
        study = optuna.create_study(direction="minimize", study_name=STUDY_NAME, storage=storage)
        study.set_user_attr("request", _request_text(request))
        return study
    study = optuna.load_study(study_name=STUDY_NAME, storage=storage)
    held = study.user_attrs.get("request")
    if held != _request_text(request):
        what = json.loads(held).get("experiment", "unrecorded") if held else "unrecorded"
        raise ValueError(f"cannot resume from {str(path.parent)!r}: it holds a study of another request ({what}); "
                         "give the same agent, field, parameters, rules, games and seed, or another --out")
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING, TrialState.WAITING)):
        study.tell(t.number, state=TrialState.FAIL)  # cut short by a kill: nothing of it is kept
    return study


def completed_rows(study, space: tuple[ParamRange, ...], where: str = "the study") -> list[dict]:
    """The study's finished trials as rows of ``trials.csv``, in golfsim's trial order.

    Raises
    ------
    ValueError
        When a finished trial lacks golfsim's record (its ``index`` or ``agent``, a parameter, a finite value), or
        the trials are not numbered 0, 1, 2, ... once each (an edited or merged study).
    """
    from optuna.trial import TrialState

    rows = []
    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        attrs = t.user_attrs
        index, agent = attrs.get("index"), attrs.get("agent")
        missing = [name for name, ok in (("index", isinstance(index, int) and not isinstance(index, bool)),
                                         ("agent", isinstance(agent, str)),
                                         ("value", isinstance(t.value, float) and math.isfinite(t.value)),
                                         *((r.name, isinstance(t.params.get(r.name), (int, float))) for r in space))
                   if not ok]
        if missing:
            raise ValueError(f"{where}: finished trial {t.number} has no usable {missing[0]!r} (an edited or damaged "
                             "study); remove the study or give another --out")
        rows.append({"trial": index, **{r.name: r.value(t.params[r.name]) for r in space},
                     "objective": float(t.value), "objective_low": attrs.get("objective_low"),
                     "objective_high": attrs.get("objective_high"), "state": "COMPLETE", "agent": agent})
    rows.sort(key=lambda row: row["trial"])
    numbers = [row["trial"] for row in rows]
    if numbers != list(range(len(rows))):
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        what = f"two trials numbered {twice[0]}" if twice else f"trials numbered {numbers[:6]}, not 0, 1, 2, ..."
        raise ValueError(f"{where}: {what} (an edited or merged study); remove the study or give another --out")
    return rows


def _attrs(row: dict) -> dict:
    return {"index": int(row["trial"]), "agent": row["agent"],
            "objective_low": _finite(row["objective_low"]), "objective_high": _finite(row["objective_high"])}


def _finite(v):
    return None if v is None or (isinstance(v, float) and not math.isfinite(v)) else float(v)


def add_row(study, row: dict, space: tuple[ParamRange, ...]) -> None:
    """Record a trial played outside ``study.ask`` (the baseline's trial 0, or one read from an older
    ``trials.csv``) as a finished trial."""
    from optuna.trial import create_trial

    distributions = {r.name: r.distribution() for r in space}
    raw = {r.name: r.raw(float(row[r.name])) for r in space}
    with held_signals():
        study.add_trial(create_trial(params=raw, distributions=distributions, value=float(row["objective"]),
                                     user_attrs=_attrs(row)))


def finish(study, trial, row: dict) -> None:
    """Commit an asked trial's result (signals are held back so the record is whole)."""
    with held_signals():
        for key, value in _attrs(row).items():
            trial.set_user_attr(key, value)
        study.tell(trial, float(row["objective"]))


def read_trials_csv(directory: Path, request: dict, space: tuple[ParamRange, ...]) -> pd.DataFrame:
    """The completed trials of a study written before studies had a ``study.db`` (``config.json`` and
    ``trials.csv``), for resuming it."""
    from golfsim.tuning.report import CONFIG_FILE, TRIALS_FILE

    config_path = directory / CONFIG_FILE
    trials_path = directory / TRIALS_FILE
    if not config_path.is_file() or not trials_path.is_file():
        raise ValueError(f"nothing to resume in {str(directory)!r}: it holds no {STUDY_FILE}, and no {CONFIG_FILE} "
                         f"and {TRIALS_FILE}")
    try:
        held = json.loads(config_path.read_text()).get("request")
    except (OSError, ValueError, AttributeError):
        held = None
    if held != request:
        raise ValueError(f"cannot resume from {str(directory)!r}: it holds a study of another request "
                         f"({(held or {}).get('experiment', 'unrecorded')}); give the same agent, field, parameters, "
                         "rules, games and seed, or another --out")
    try:
        table = pd.read_csv(trials_path)
    except (OSError, ValueError, UnicodeDecodeError) as err:  # pandas' parser errors are ValueErrors
        raise ValueError(f"cannot resume from {str(trials_path)!r}: it is not a readable trials table "
                         f"({' '.join(str(err).split())})") from None
    missing = [c for c in ["trial", "state", "objective", *(r.name for r in space)] if c not in table.columns]
    if missing:
        raise ValueError(f"cannot resume from {str(trials_path)!r}: it has no column {missing[0]!r}")
    table = table[table["state"] == "COMPLETE"].reset_index(drop=True)
    for column in ["trial", "objective", *(r.name for r in space)]:
        if not pd.api.types.is_numeric_dtype(table[column]) or not np.isfinite(table[column]).all():
            raise ValueError(f"cannot resume from {str(trials_path)!r}: its column {column!r} holds values that are "
                             "not finite numbers")
    return table
