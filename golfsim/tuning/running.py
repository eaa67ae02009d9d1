"""Running a study ([`tune`][golfsim.tuning.running.tune]): checking the request, the optuna study trial by trial,
stopping and resuming."""

from __future__ import annotations

import platform
import shlex
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path

import numba
import numpy as np
import pandas as pd

import golfsim
from golfsim import stats
from golfsim.agents import plugins
from golfsim.agents.base import AgentChoice, parse_agent, split_agents
from golfsim.core.rng import check_seed
from golfsim.core.rules import Rules
from golfsim.runs.interrupts import CaughtStop, raise_pending_stop
from golfsim.runs.progress import CountBar
from golfsim.tournament.planning import rule_flags
from golfsim.tuning.evaluation import clean as _clean
from golfsim.tuning.evaluation import field_lead
from golfsim.tuning.evaluation import interval as _interval
from golfsim.tuning.evaluation import reevaluate as _reevaluate
from golfsim.tuning.report import CONFIG_FILE, TuningResult
from golfsim.tuning.space import ParamRange, _number, agent_string, search_space


# ---------------------------------------------------------------- progress
class _TrialProgress(CountBar):
    """A bar counting trials, with the best objective so far."""

    def __init__(self, total: int):
        super().__init__(total, "trials")

    def __call__(self, done: int, total: int, best: float | None, stage: str = "tuning") -> None:
        text = stage if best is None else f"{stage}, best {best:+.2f}"
        self.update(completed=done, total=total, description=text)


# ---------------------------------------------------------------- the study
def _derived_seed(seed: int, purpose: int, bits: int = 63) -> int:
    state = np.random.SeedSequence(entropy=int(seed), spawn_key=(purpose,)).generate_state(2, dtype=np.uint64)
    return int(state[0]) & ((1 << bits) - 1)


def _sampler_seed(seed: int, trial: int) -> int:
    ss = np.random.SeedSequence(entropy=int(seed), spawn_key=(2, int(trial)))
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def _check_count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
    return int(value)


def _request(baseline: str, against: list[str], space, rules: Rules, games: int, eval_games: int, seed: int,
             startup_trials: int) -> dict:
    return {"experiment": f"tune {baseline}", "games": games, "seed": seed, "against": against,
            "params": [r.to_dict() for r in space], "rules": rules.to_dict(), "eval_games": eval_games,
            "startup_trials": startup_trials}


def _set_in(agent, choice: AgentChoice) -> list[str]:
    """The parameters an agent string sets (``"ev:count_out=0"`` sets count_out); for an AgentChoice, those that
    differ from their defaults."""
    if isinstance(agent, str):
        return [item.partition("=")[0].strip() for item in agent.partition(":")[2].split(",") if "=" in item]
    return [p.name for p, v in zip(choice.spec.params, choice.values, strict=True) if not p.is_default(v)]


def _import_optuna():
    try:
        import optuna
    except ImportError:
        raise ValueError("tuning needs optuna, which is not installed: pip install 'golfsim[tune]'") from None
    return optuna


@dataclass(frozen=True)
class _Plan:
    base: AgentChoice
    baseline: str
    space: tuple[ParamRange, ...]
    field: list[AgentChoice]
    rules: Rules
    request: dict


def _plan(agent, against, rules, games, seed, params, eval_games, startup_trials) -> _Plan:
    base = parse_agent(agent)  # compiled, plain-Python or batched: its tournaments play any of them
    space = search_space(base.spec, params, fixed=_set_in(agent, base))
    if against is None:
        against = [agent_string(base)]
    elif isinstance(against, str):
        against = split_agents(against)
    field_choices = [parse_agent(a) for a in against]
    if not field_choices:
        raise ValueError("the field is empty; name at least one agent to play against, e.g. --against ev")
    rules = Rules(players=2) if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golfsim Rules object, got {type(rules).__name__}")
    games = _check_count("games", games)
    eval_games = games if eval_games is None else _check_count("eval_games", eval_games)
    startup_trials = _check_count("startup_trials", startup_trials)
    seed = check_seed(seed)
    baseline = agent_string(base)
    request = _request(baseline, [agent_string(c) for c in field_choices], space, rules, games, eval_games, seed,
                       startup_trials)
    return _Plan(base, baseline, space, field_choices, rules, request)


def plan_request(agent, against=None, rules: Rules | None = None, games: int = 400, seed: int = 0, *, params=None,
                 eval_games: int | None = None, startup_trials: int = 10) -> dict:
    """What [`tune`][golfsim.tuning.running.tune] would be asked (``config.json``'s ``"request"``), checked as
    [`tune`][golfsim.tuning.running.tune] checks it: the same request gives the same study, so a directory holding
    another is not silently replaced ([`golfsim.runs.claims.check_target`][]). The number of trials is not part of it: a
    longer run of the same request extends the same study.

    Raises
    ------
    ValueError
        For the bad input [`tune`][golfsim.tuning.running.tune] refuses.
    """
    return _plan(agent, against, rules, games, seed, params, eval_games, startup_trials).request


def tune(agent, against=None, rules: Rules | None = None, trials: int = 100, games: int = 400, seed: int = 0, *,
         params=None, eval_games: int | None = None, startup_trials: int = 10, threads: int | None = None,
         confidence: float = 0.95, progress: bool | Callable[[int, int, float | None], None] = False,
         resume=None, directory=None) -> TuningResult:
    """Tune an agent's parameters with optuna's TPE sampler on duplicate deals against a field.

    Parameters
    ----------
    agent : str or AgentChoice
        The agent to tune; parameters set in the string (``"ev:count_out=0"``) are the baseline's and stay fixed
        unless searched.
    against : str or sequence of str, optional
        The field (``"ev,greedy"``); default: the agent as given.
    rules : Rules, optional
        The rules; ``rules.players`` seats per table. Default: the published game at 2 players.
    trials : int
        Trials of the study (including resumed ones).
    games : int
        Duplicate deal sets per trial (per field agent, each played in all seat rotations).
    seed : int
        Seeds the deals of every trial, the sampler, and (derived from it) the fresh deals of the re-evaluation.
    params : str or dict, optional
        The parameters searched, with optional ranges: ``"watch_discard,take_gain=0:5,horizon=1:4:0.5"``.
        Default: every parameter with a declared range ([`search_space`][golfsim.tuning.space.search_space]).
    eval_games : int, optional
        Deal sets of the re-evaluation (default ``games``).
    startup_trials : int
        Trials drawn at random before TPE models the results.
    threads : int, optional
        Simulator threads; results do not depend on it.
    confidence : float
        Level of the intervals (default 0.95).
    progress : bool or callable
        ``True`` shows a rich progress bar on stderr; a callable is called as ``progress(trials_done,
        trials_total, best_objective)`` after each trial (raise ``KeyboardInterrupt`` from it to stop).
    resume : bool, str or Path, optional
        Continue the study of the same request held in ``directory`` (a path here is taken as ``directory``): its
        finished trials are taken as they are and the study runs on to ``trials``. A directory written before
        studies had a ``study.db`` is resumed from its ``trials.csv``.
    directory : str or Path, optional
        Keep the study in optuna's SQLite storage ``directory/study.db`` (`golfsim.tuning.storage`): every
        trial is committed as it ends, so no stop loses a finished trial. A ``config.json`` marked partial is
        written there first when the directory holds none. Without it the study lives in memory.

    Returns
    -------
    TuningResult
        The trials, the winner, its re-evaluation and the recommendation; ``write(directory)`` saves them.

    Raises
    ------
    ValueError
        For an unknown agent or parameter, an agent with no parameters, an empty or unknown
        field, a bad range, a non-positive ``trials``, ``games`` or ``eval_games``, a ``resume`` without a
        directory, or a directory that holds another request.

    Examples
    --------
    >>> res = tune("ev", against="ev,greedy", rules=Rules(players=2), trials=50, games=400,
    ...            params="watch_discard,horizon")  # doctest: +SKIP
    >>> res.recommended, res.reevaluation["improvement"]  # doctest: +SKIP
    """
    optuna = _import_optuna()
    from golfsim.tuning import storage

    start = time.perf_counter()
    plan = _plan(agent, against, rules, games, seed, params, eval_games, startup_trials)
    base, space, field_choices, rules, request = plan.base, plan.space, plan.field, plan.rules, plan.request
    eval_games, baseline = request["eval_games"], plan.baseline
    trials = _check_count("trials", trials)
    stats._check_confidence(confidence)
    fresh_seed = _derived_seed(seed, 1)
    if isinstance(resume, (str, Path)):
        directory, resume = resume, True
    resume = bool(resume)
    if resume and directory is None:
        raise ValueError("resume needs the directory that holds the study")
    directory = None if directory is None else Path(directory)

    start_raw = _baseline_raw(base, space)
    config = _config(plan, trials, start_raw is not None, fresh_seed, confidence, optuna.__version__)
    if directory is not None:
        directory.mkdir(parents=True, exist_ok=True)
        legacy = resume and not (directory / storage.STUDY_FILE).exists()
        if legacy:
            legacy_rows = storage.read_trials_csv(directory, request, space).to_dict("records")
        if not (directory / CONFIG_FILE).exists():
            TuningResult(agent=baseline, baseline=baseline, best=None, trials=pd.DataFrame(), reevaluation=None,
                         config=config, partial=True, seconds=0.0).write_config(directory)

    optuna.logging.set_verbosity(optuna.logging.CRITICAL)  # a storage fault is one line of ours, not its log
    distributions = {r.name: r.distribution() for r in space}
    db = None if directory is None else directory / storage.STUDY_FILE
    guarded = storage.guarded(db)
    row_keys = ("trial", *(r.name for r in space), "objective", "objective_low", "objective_high", "state", "agent")
    with guarded:
        study = storage.open_study(optuna, db, request, resume)
        if directory is not None and resume and legacy:
            for row in legacy_rows:
                storage.add_row(study, {k: _clean(row[k]) for k in row_keys}, space)
        running = _RunningStudy(study, storage.completed_rows(study, space, str(db or "the study"))[:trials])
    running.db = db
    rows = running.rows

    reporter = _TrialProgress(trials) if progress is True else None
    callback = reporter if reporter is not None else progress if callable(progress) else None
    reevaluation = None
    best_value = min((r["objective"] for r in rows), default=None)
    stop = CaughtStop()
    try:
        with stop:
            if reporter is not None:
                reporter.__enter__()
                if rows:
                    reporter(len(rows), trials, best_value)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
                for n in range(len(rows), trials):
                    objective = _play_trial(running, n, plan, start_raw, distributions, threads, confidence, optuna,
                                            storage)
                    best_value = objective if best_value is None else min(best_value, objective)
                    if callback is not None:
                        callback(len(rows), trials, best_value)
                    raise_pending_stop()  # a SIGTERM lost in SQLAlchemy's garbage-collection callback ends it here
            if rows:
                if reporter is not None:
                    reporter(len(rows), trials, best_value, "re-evaluating on fresh deals")
                best_row = min(rows, key=lambda r: (r["objective"], r["trial"]))
                winner = _choice_for(base, {r.name: best_row[r.name] for r in space})
                reevaluation = _reevaluate(winner, base, field_choices, rules, eval_games, fresh_seed, threads,
                                           confidence)
                if reporter is not None:
                    reporter(trials, trials, best_value, "done")
    finally:
        if reporter is not None:
            reporter.__exit__(None, None, None)
    for asked in running.untold:  # stopped while it played: optuna records it failed, and a resumed study asks again
        study.tell(asked, state=optuna.trial.TrialState.FAIL)
    return _result(rows, row_keys, space, baseline, None if stop.arrived else reevaluation, config, stop.arrived,
                   time.perf_counter() - start)


def _choice_for(base: AgentChoice, values: dict) -> AgentChoice:
    """The agent as given with ``values`` in place of the parameters they name."""
    merged = dict(zip((p.name for p in base.spec.params), base.values, strict=True)) | values
    return AgentChoice(base.spec, tuple(merged[p.name] if p.kind == "agent" else float(merged[p.name])
                                        for p in base.spec.params))


def _baseline_raw(base: AgentChoice, space) -> dict | None:
    """The agent as given in the sampler's raw values, when they lie in the space, else ``None``. Trial 0 plays it
    then, so the winner is never worse than it on the tuning deals."""
    given = base.param_dict()
    raw = {r.name: r.raw(given[r.name]) for r in space}
    if any(not r.low <= given[r.name] <= r.high or r.value(raw[r.name]) != given[r.name] for r in space):
        return None
    return raw


@dataclass
class _RunningStudy:
    """A study as it runs: optuna's study, the rows of its finished trials, and the trial asked of optuna and not yet
    told its end (a stop while it plays leaves it there, to be told it failed)."""

    study: object
    rows: list[dict]
    untold: list = dataclass_field(default_factory=list)
    db: object = None  # the study file, named in a storage fault's line


def _play_trial(running: _RunningStudy, n: int, plan: _Plan, start_raw: dict | None, distributions: dict,
                threads: int | None, confidence: float, optuna, storage) -> float:
    """Ask the sampler for trial ``n`` (trial 0 plays the agent as given when ``start_raw``), play it against the
    field on the study's deals, keep its row and commit it to the storage; return its objective."""
    request, study = plan.request, running.study
    study.sampler = optuna.samplers.TPESampler(seed=_sampler_seed(request["seed"], n),
                                               n_startup_trials=request["startup_trials"])
    asked = None
    if n == 0 and start_raw is not None:
        raw = start_raw
    else:
        with storage.guarded(running.db):
            asked = study.ask(distributions)
        raw = asked.params
    values = {r.name: r.value(raw[r.name]) for r in plan.space}
    candidate = _choice_for(plan.base, values)
    running.untold = [asked] if asked is not None else []
    leads = field_lead(candidate, plan.field, plan.rules, request["games"], request["seed"], threads=threads)
    running.untold = []
    ci = _interval(leads, confidence)
    row = {"trial": n, **values, "objective": ci["mean"], "objective_low": _clean(ci["low"]),
           "objective_high": _clean(ci["high"]), "state": "COMPLETE", "agent": agent_string(candidate)}
    # kept before it is committed: a stop held back during the commit is raised as the commit ends, and the trial it
    # committed must be in the files written after the stop too
    running.rows.append(row)
    with storage.guarded(running.db):
        if asked is None:
            storage.add_row(study, row, plan.space)
        else:
            storage.finish(study, asked, row)
    return ci["mean"]


def _result(rows: list[dict], row_keys, space, baseline: str, reevaluation, config: dict, partial: bool,
            seconds: float) -> TuningResult:
    """The study's result: its trials as a table, the best one and its agent string (the baseline's when no trial
    finished)."""
    table = pd.DataFrame(rows, columns=list(row_keys))
    best = None
    winner_string = baseline
    if rows:
        best_row = min(rows, key=lambda r: (r["objective"], r["trial"]))
        best = {"trial": int(best_row["trial"]), "params": {r.name: best_row[r.name] for r in space},
                "objective": best_row["objective"], "objective_low": best_row["objective_low"],
                "objective_high": best_row["objective_high"]}
        winner_string = best_row["agent"]
    return TuningResult(agent=winner_string, baseline=baseline, best=best, trials=table, reevaluation=reevaluation,
                        config=config, partial=partial, seconds=seconds)


def _config(plan: _Plan, trials: int, baseline_first: bool, fresh_seed: int, confidence: float,
            optuna_version: str) -> dict:
    """``config.json`` without the results: the request, rules, field, space, seeds and versions."""
    base, space, rules, request = plan.base, plan.space, plan.rules, plan.request
    startup_trials, games, eval_games, seed = (request["startup_trials"], request["games"], request["eval_games"],
                                               request["seed"])
    return {
        "golfsim_version": golfsim.__version__,
        "request": request,
        "agent": plan.baseline,
        "against": request["against"],
        "search_space": [r.to_dict() for r in space],
        "fixed": {p.name: v for p, v in zip(base.spec.params, base.values, strict=True)
                  if p.name not in {r.name for r in space}},
        "players": rules.players,
        "rules": rules.to_dict(),
        "rules_text": rules.describe(),
        "trials": trials,
        "games": games,
        "games_meaning": "duplicate deal sets per trial and field agent; each is played in all cyclic seat "
                         "rotations of a table with the candidate in one seat and the field agent in the others",
        "objective": "mean over deal sets of the candidate's total minus the mean total of the other seats, "
                     "averaged over the field; points per game; negative: the candidate scores fewer points than "
                     "the field (better, in Golf)",
        "seed": seed,
        "deal_rule": "every trial plays the deal sets of `seed` (golfsim.tournament.run_tournament, schedule "
                     "table, seating rotations), so trials are compared on identical deals",
        "sampler": f"optuna {optuna_version} TPESampler, n_startup_trials={startup_trials}; trial n's sampler "
                   "seeded from numpy SeedSequence(entropy=seed, spawn_key=(2, n))",
        "storage": "optuna RDB storage in study.db next to this file (sqlite:///study.db, study 'golfsim-tune'), "
                   "when the study was run with a directory",
        "trial_0": "the baseline" if baseline_first else "sampled (the baseline lies outside the space)",
        "eval_games": eval_games,
        "eval_seed": fresh_seed,
        "eval_seed_rule": "numpy SeedSequence(entropy=seed, spawn_key=(1,)), 63 bits: fresh deals",
        "confidence": confidence,
        "recommendation_rule": "the winner is recommended only when, on the fresh deals, its score relative to the "
                               "field minus the baseline's (paired by deal set) has an interval entirely below 0",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "command": _command(plan.baseline, request["against"], space, rules, trials, games, eval_games, seed,
                            startup_trials),
    }


def _command(baseline, field_strings, space, rules: Rules, trials, games, eval_games, seed, startup_trials) -> str:
    ranges = ",".join(f"{r.name}" if r.kind == "bool" else
                      f"{r.name}={_number(r.low)}:{_number(r.high)}" + (f":{_number(r.step)}" if r.kind == "float"
                                                                        else "") for r in space)
    cmd = ["golfsim", "tune", baseline, "--against", ",".join(field_strings), "--params", ranges,
           "--players", str(rules.players), "--trials", str(trials), "--games", str(games), "--eval-games",
           str(eval_games), "--seed", str(seed)]
    if startup_trials != 10:
        cmd += ["--startup-trials", str(startup_trials)]
    return plugins.rerun_command(shlex.join(cmd + rule_flags(rules)))
