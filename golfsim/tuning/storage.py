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

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from golfsim.runs.outdir import held_signals
from golfsim.tuning.space import ParamRange

STUDY_FILE = "study.db"
STUDY_NAME = "golfsim-tune"


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
    storage = optuna.storages.RDBStorage(storage_url(path), engine_kwargs={"connect_args": {"timeout": 30}})
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


def completed_rows(study, space: tuple[ParamRange, ...]) -> list[dict]:
    """The study's finished trials as rows of ``trials.csv``, in golfsim's trial order."""
    from optuna.trial import TrialState

    rows = []
    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        attrs = t.user_attrs
        rows.append({"trial": int(attrs["index"]), **{r.name: r.value(t.params[r.name]) for r in space},
                     "objective": float(t.value), "objective_low": attrs.get("objective_low"),
                     "objective_high": attrs.get("objective_high"), "state": "COMPLETE", "agent": attrs["agent"]})
    rows.sort(key=lambda row: row["trial"])
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
