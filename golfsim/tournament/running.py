"""Running a tournament: its plan's tasks on an executor, reduced into a
[`TournamentResult`][golfsim.tournament.running.TournamentResult]."""

from __future__ import annotations

import math
import platform
import time
from collections.abc import Callable
from concurrent.futures import Executor

import numba
import numpy as np
import pandas as pd

import golfsim
from golfsim.core.rules import Rules
from golfsim.runs.limits import GAMES_KEPT_LIMIT, kept_bytes_per_game
from golfsim.runs.progress import CountBar
from golfsim.runs.tasks import executor_workers, run_tasks
from golfsim.tournament.planning import DEFAULT_BATCH, TournamentPlan, plan_tournament, rotation_agent_seed
from golfsim.tournament.result import TournamentResult
from golfsim.tournament.tally import Tally


# ---------------------------------------------------------------- progress
class _RichProgress(CountBar):
    """The tournament's bar: a warm-up message until the first batch, then games played under ``label``."""

    def __init__(self, total: int, label: str):
        super().__init__(total, "games")
        self.label = label

    def __call__(self, done: int, total: int) -> None:
        self.update(completed=done, description=self.label)


def run_tournament(agents, rules: Rules | None = None, games: int = 1000, seed: int = 0, *,
                   schedule: str = "auto", anchor: str | None = None, seating: str = "auto",
                   threads: int | None = None, batch_size: int = DEFAULT_BATCH, confidence: float = 0.95,
                   progress: bool | Callable[[int, int], None] = False, log=None,
                   executor: Executor | None = None, raise_on_interrupt: bool = False) -> TournamentResult:
    """Play a duplicate-deal tournament and return its standings, head-to-head table and ratings.

    Parameters
    ----------
    agents : str or sequence of str or AgentChoice
        The pool, e.g. ``["ev", "greedy", "pair-builder", "random"]`` or ``"greedy,random"``. The same agent may
        appear twice; repeated labels are told apart as ``name#1``, ``name#2``.
    rules : Rules, optional
        The rule set; ``rules.players`` is the number of seats per table. Default: the published game with as many
        players as agents (at most 12).
    games : int
        Deal sets per table. Each deal set is played at every table in every seat order on identical cards, so the
        number of games played is ``games`` times the number of seat orders summed over the tables (``tables x
        players x games`` with the default seating).
    seed : int
        Seeds the deals (deal set ``g`` is the simulator's game ``g`` under ``seed``) and, through
        [`rotation_agent_seed`][golfsim.tournament.planning.rotation_agent_seed], the agents' own randomness.
    schedule : {"auto", "table", "round-robin", "gauntlet"}
        See [`plan_tables`][golfsim.tournament.plan_tables].
    anchor : str, optional
        The gauntlet's anchor: an agent label from the pool.
    seating : {"auto", "rotations", "permutations"}
        ``"rotations"`` plays each table in its ``P`` cyclic seat rotations; ``"permutations"`` in every distinct
        seat order, which also balances who sits after whom (see [`seat_orders`][golfsim.tournament.seat_orders]).
        ``"auto"`` (default) is permutations for 3 and 4 seats (6 or 24 orders) and rotations otherwise: in Golf the
        next player picks up your discards, and with rotations alone each agent keeps its neighbours, which biased two
        copies of ``random`` at a 4-seat table by 24 points per 9-hole game.
    threads : int, optional
        Threads of the default executor (default: all cores). Results do not depend on it.
    batch_size : int
        Deal sets per task at most (each task plays one piece of the deal sets at one table in one seat order; the
        deal sets are cut finer when that keeps more cores busy). Results do not depend on it; smaller pieces make
        progress and Ctrl-C finer.
    confidence : float
        Level of every interval, default 0.95.
    progress : bool or callable
        ``True`` shows a rich progress bar on stderr; a callable is called as ``progress(games_done, games_total)``
        after every simulator call (raise ``KeyboardInterrupt`` from it to stop the run).
    log : str or Path, optional
        Also write every decision and deal end to this Parquet file ([`golfsim.logs.trace`][]); the games played are
        the same. A logged tournament plays its tasks one after another in this process.
    executor : concurrent.futures.Executor, optional
        Runs the tasks ([`golfsim.runs.tasks`][]): a ``ProcessPoolExecutor``, a Dask client's executor
        ([`golfsim.runs.tasks.dask_executor`][]), ... Default: a thread pool of ``threads`` threads. Results do not
        depend on it.
    raise_on_interrupt : bool
        After a ``KeyboardInterrupt``, raise [`TournamentInterrupted`][golfsim.tournament.running.TournamentInterrupted]
        (a ``KeyboardInterrupt`` carrying the partial result as ``.result``) instead of returning the partial result.

    Returns
    -------
    TournamentResult
        ``standings``, ``head_to_head``, ``ratings``, ``games`` (per game and seat), ``config``, and the methods
        ``to_json()`` and ``write(directory)``. After a ``KeyboardInterrupt`` (Ctrl-C, or raised by ``progress``)
        it holds the deal sets completed in every seat order (the longest complete run from deal set 0; pieces
        finished beyond a gap are dropped so the duplicate comparison stays balanced) and ``partial`` is True.

    Raises
    ------
    TournamentInterrupted
        Only with ``raise_on_interrupt``, after a ``KeyboardInterrupt``.
    ValueError
        For an unknown agent, bad rules, a pool that does not fit the schedule, a missing or unknown anchor, an
        unknown seating, or a non-positive ``games`` or ``batch_size``.

    Examples
    --------
    >>> res = run_tournament(["greedy", "random"], Rules(players=2, holes=1), games=200, seed=1)  # doctest: +SKIP
    >>> res.standings[["agent", "mean_score", "win_rate"]]  # doctest: +SKIP
    """
    start_time = time.perf_counter()
    workers = 1 if log is not None else executor_workers(executor, threads)
    plan = plan_tournament(agents, rules, games, seed, schedule=schedule, anchor=anchor, seating=seating,
                           batch_size=batch_size, confidence=confidence, workers=workers)
    reporter = None
    if progress is True:
        reporter = _RichProgress(plan.total_games,
                                 f"{len(plan.tables)} table(s), {len(plan.seatings)} seat orders")
    callback = reporter if reporter is not None else progress if callable(progress) else None
    try:
        if reporter is not None:
            reporter.__enter__()
        if log is None:
            played = 0

            def report(_, task):
                nonlocal played
                played += task.count
                if callback is not None:
                    callback(played, plan.total_games)

            tally = Tally(plan, keep_games=keeps_games(plan))
            run = run_tasks(plan.tasks, executor, threads=threads, progress=report, consume=tally.add)
            interrupted = run.interrupted
        else:
            tally, interrupted = _run_logged(plan, log, threads, callback)
    finally:
        if reporter is not None:
            reporter.__exit__(None, None, None)
    result = tally_result(tally, interrupted, time.perf_counter() - start_time)
    if interrupted and raise_on_interrupt:
        raise TournamentInterrupted(result)
    return result


class TournamentInterrupted(KeyboardInterrupt):
    """A tournament stopped by Ctrl-C (or SIGTERM turned into one); ``.result`` is its partial result."""

    def __init__(self, result: TournamentResult):
        super().__init__(f"interrupted after {result.deal_sets} of {result.config['games']} deal sets")
        self.result = result


def keeps_games(plan: TournamentPlan) -> bool:
    """Whether a run of ``plan`` keeps every game for
    [`TournamentResult.games`][golfsim.tournament.result.TournamentResult.games] (up to
    [`golfsim.runs.limits.GAMES_KEPT_LIMIT`][] bytes of them; a bigger one keeps its statistics only)."""
    return plan.total_games * kept_bytes_per_game(plan.rules.players) <= GAMES_KEPT_LIMIT


def _run_logged(plan: TournamentPlan, log, threads, callback) -> tuple[Tally, bool]:
    """Play the plan's tasks in order in this process, writing the decision log ([`golfsim.logs.trace`][])."""
    from golfsim.kernels.simulate import Table
    from golfsim.logs.trace import DecisionLog
    from golfsim.runs.interrupts import CaughtStop
    from golfsim.runs.tasks import summarise_games

    labels, n_seatings = plan.labels, len(plan.seatings)
    decision_log = DecisionLog(log, plan.rules, plan.seed)
    for (t, r, seats), agent_seed in zip(plan.seatings, plan.agent_seeds, strict=True):
        decision_log.add_seating(t, r, [labels[j] for j in seats], agent_seed)
    tally = Tally(plan, keep_games=keeps_games(plan))
    played = 0
    stop = CaughtStop()
    try:
        with stop:
            for j, task in enumerate(plan.tasks):
                i = j % n_seatings
                seats = plan.seatings[i][2]
                table = Table.make([plan.choices[k] for k in seats], plan.rules)
                for batch in decision_log.play(table, task.count, agent_seed=task.agent_seed,
                                               first_game=task.first_game, batch_size=task.count, threads=threads,
                                               seating=i, game_base=i * plan.games, labels=[labels[k] for k in seats]):
                    tally.add(j, summarise_games(batch))
                played += task.count
                if callback is not None:
                    callback(played, plan.total_games)
    finally:
        decision_log.close(partial=stop.arrived)
    return tally, stop.arrived


def reduce_tournament(plan: TournamentPlan, results: dict, interrupted: bool = False,
                      seconds: float = 0.0) -> TournamentResult:
    """Put the tasks' game summaries together and compute the standings, pairs and ratings.

    ``results`` maps task index to its [`golfsim.runs.tasks.GameSummary`][]; the deal sets kept are the pieces
    complete in every seating from the first on (all of them for an uninterrupted run).
    """
    tally = Tally(plan, keep_games=keeps_games(plan))
    for j in sorted(results):
        tally.add(j, results[j])
    return tally_result(tally, interrupted, seconds)


def tally_result(tally: Tally, interrupted: bool = False, seconds: float = 0.0) -> TournamentResult:
    """The [`TournamentResult`][golfsim.tournament.running.TournamentResult] of what ``tally`` folded (the complete
    pieces from the first on)."""
    plan = tally.plan
    choices, labels, rules, seatings = plan.choices, plan.labels, plan.rules, plan.seatings
    players, confidence, seed, games = rules.players, plan.confidence, plan.seed, plan.games
    deal_sets = tally.deal_sets
    partial = deal_sets < games
    games_played = len(seatings) * deal_sets
    anchor_index, schedule, seating = plan.anchor_index, plan.schedule, plan.seating
    tables, orders_per_table, total_games = plan.tables, plan.orders_per_table, plan.total_games

    rows, h2h = tally.standings_and_pairs(confidence)
    fit, model = tally.ratings(confidence)
    standings = pd.DataFrame(rows)
    standings["agent"] = [labels[i] for i in standings["agent"]]
    if fit is not None:
        standings["rating"] = fit["rating"]
        standings["rating_se"] = fit["se"]
        standings["rating_standing"] = list(fit["standing"])
        standings["rating_bound"] = fit["bound"]
        ratings = pd.DataFrame({"agent": labels, "rating": fit["rating"], "rating_se": fit["se"],
                                "standing": list(fit["standing"]), "bound": fit["bound"]})
        # rated agents by rating, those that never lost above them and those that never won below
        order = np.where(fit["rated"], fit["rating"], np.select(
            [fit["standing"] == "never lost", fit["standing"] == "never won"], [math.inf, -math.inf], math.nan))
        ratings = ratings.assign(_order=order).sort_values("_order", ascending=False, kind="stable",
                                                           na_position="last")
        ratings = ratings.drop(columns="_order").reset_index(drop=True)
        cov = pd.DataFrame(fit["cov"], index=labels, columns=labels)
    else:
        standings["rating"] = math.nan
        standings["rating_se"] = math.nan
        standings["rating_standing"] = "none"
        standings["rating_bound"] = math.nan
        ratings = pd.DataFrame({"agent": labels, "rating": math.nan, "rating_se": math.nan, "standing": "none",
                                "bound": math.nan})
        cov = pd.DataFrame(np.full((len(labels), len(labels)), math.nan), index=labels, columns=labels)
    ratings.insert(0, "rank", np.arange(1, len(ratings) + 1))
    ratings["model"] = model.split(" (")[0]
    standings = standings.sort_values(["mean_score", "agent"], kind="stable", na_position="last")
    standings = standings.reset_index(drop=True)
    standings.insert(0, "rank", np.arange(1, len(standings) + 1))
    h2h_cols = ["agent", "opponent", "mean_diff", "mean_diff_low", "mean_diff_high", "win_rate", "win_rate_low",
                "win_rate_high", "deal_sets", "games"]
    head = pd.DataFrame(h2h, columns=h2h_cols)
    if len(head):
        head = head.sort_values(["agent", "opponent"], kind="stable").reset_index(drop=True)
        head["agent"] = [labels[i] for i in head["agent"]]
        head["opponent"] = [labels[i] for i in head["opponent"]]

    config = {
        "golfsim_version": golfsim.__version__,
        "agents": labels,
        "agent_specs": [c.spec_string for c in choices],
        "agent_params": [c.param_dict() for c in choices],
        "players": players,
        "rules": rules.to_dict(),
        "rules_text": rules.describe(),
        "seed": seed,
        "games": games,
        "games_meaning": "deal sets per table; each deal set is played at every table in every seat order",
        "schedule": schedule,
        "anchor": labels[anchor_index] if anchor_index is not None else None,
        "seating": seating,
        "duplicate_deals": True,
        "tables": [
            {"table": t, "agents": [labels[i] for i in tab],
             "seat_orders": [[labels[i] for i in seats] for seats in orders_per_table[t]],
             "agent_seeds": [rotation_agent_seed(seed, t, r) for r in range(len(orders_per_table[t]))]}
            for t, tab in enumerate(tables)
        ],
        "games_total": total_games,
        "games_played": games_played,
        "deal_sets_completed": deal_sets,
        "partial": partial,
        "confidence": confidence,
        "rating_model": model,
        "rating_converged": bool(fit["converged"]) if fit is not None else None,
        "batch_size": plan.batch_size,
        "deal_rule": "hole h of deal set g is dealt from golfsim.core.rng.deal_state(seed, g, h) in every seat order",
        "agent_seed_rule": "golfsim.tournament.rotation_agent_seed(seed, table, seat order): numpy "
                           "SeedSequence(entropy=seed, spawn_key=(table, seat order)), 63 bits",
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
    }
    config["command"] = plan.command()

    return TournamentResult(
        standings=standings, head_to_head=head, ratings=ratings, rating_cov=cov, config=config, partial=partial,
        deal_sets=deal_sets, games_played=games_played,
        truncated_deals=tally.truncated_deals(), rating_model=model, seconds=seconds, _seatings=seatings,
        _blocks=tally.kept_blocks() if tally.keep_games else None,
        _score_counts=dict(zip(labels, tally.score_counts(), strict=True)),
    )
