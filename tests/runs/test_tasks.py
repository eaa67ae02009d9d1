"""Plan -> tasks -> reduce: the same seed gives the same numbers whatever the executor, thread count or split, and a
plan keeps every worker busy."""

from __future__ import annotations

import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

import golfsim.experiments.common as common
import golfsim.kernels.simulate as simulate_module
import golfsim.runs.tasks as tasks_module
from golfsim.core.rules import Rules
from golfsim.experiments import tips as tips_module
from golfsim.experiments import variants as variants_module
from golfsim.kernels.simulate import simulate
from golfsim.runs.tasks import (
    Task,
    TaskStopped,
    dask_executor,
    executor_workers,
    run_task,
    run_tasks,
    split_counts,
)
from golfsim.tournament import plan_tournament, run_tournament

RULES = Rules(players=3, holes=2)
POOL = "greedy,random,pair-builder,ev"


def assert_same_tournament(a, b):
    pd.testing.assert_frame_equal(a.games, b.games)
    pd.testing.assert_frame_equal(a.standings, b.standings)
    pd.testing.assert_frame_equal(a.head_to_head, b.head_to_head)
    pd.testing.assert_frame_equal(a.ratings, b.ratings)


class Reversed(Executor):
    """Runs the tasks submitted so far only when the run waits for results, last submitted first: the worst order
    for a reduction that assumed tasks finish in order (run_tasks submits a window at a time, so each window is
    run backwards)."""

    def __init__(self):
        self.pool = ThreadPoolExecutor(1)
        self.pending = []
        self.lock = threading.Lock()

    def submit(self, fn, *args):
        from concurrent.futures import Future

        future = Future()
        with self.lock:
            self.pending.append((future, fn, args))
            if len(self.pending) == 1:
                self.pool.submit(self._drain_later)
        return future

    def _drain_later(self):
        import time

        time.sleep(0.2)  # let the window be submitted first
        with self.lock:
            batch, self.pending = self.pending, []
        for future, fn, args in reversed(batch):
            future.set_result(fn(*args))


@pytest.mark.parametrize("pieces,workers", [(7, 1), (3, 16), (1, 64), (250, 4)])
def test_split_counts_covers_every_game_once_in_order(pieces, workers):
    games = 250
    block = -(-games // pieces)
    cut = split_counts(games, block, units=2, workers=workers)
    assert cut[0][0] == 0 and sum(n for _, n in cut) == games
    assert all(a + n == b for (a, n), (b, _) in zip(cut, cut[1:], strict=False))
    assert all(1 <= n <= block for _, n in cut)
    assert 2 * len(cut) >= min(games, 2 * workers)  # two seatings: at least two tasks per worker in all


@pytest.mark.parametrize("cores", [2, 8, 64])
def test_a_plan_has_at_least_one_task_per_core_even_for_one_small_table(cores):
    plan = plan_tournament("greedy,random", Rules(players=2, holes=1), games=500, seed=1, workers=cores)
    assert len(plan.tasks) >= cores


def test_every_task_is_in_flight_at_once_so_c_workers_run_together():
    # C workers: the first C tasks wait for each other at a barrier, which only opens if C run at the same time.
    cores = 4
    barrier = threading.Barrier(cores)
    started = []
    lock = threading.Lock()

    def gated(task, *rest):
        with lock:
            started.append(task)
            first = len(started) <= cores
        if first:
            barrier.wait(timeout=120)
        return run_task(task, *rest)

    class Gated(ThreadPoolExecutor):
        def submit(self, fn, *args):
            return super().submit(gated, *args)

    plan = plan_tournament("greedy,random", Rules(players=2, holes=1), games=400, seed=2, workers=cores)
    with Gated(cores) as executor:
        run = run_tasks(plan.tasks, executor)
    assert not run.interrupted and len(run.results) == len(plan.tasks) >= cores


def assert_task_plays_games_30_to_49_of_the_simulator():
    rules = Rules(players=2, holes=2)
    task = Task(rules, ("greedy", "random"), 7, 8, 30, 20, "golfsim.runs.tasks:summarise_totals")
    whole = simulate(["greedy", "random"], rules, games=50, seed=7, agent_seed=8)
    totals = whole.players.pivot(index="game", columns="seat", values="total").to_numpy()
    np.testing.assert_array_equal(run_task(task), totals[30:50])


def test_a_task_plays_the_simulators_games_first_game_on():
    assert_task_plays_games_30_to_49_of_the_simulator()


def test_a_task_played_one_game_a_chunk_plays_the_same_games(monkeypatch):
    monkeypatch.setattr(tasks_module, "FIRST_CHUNK", 1)
    monkeypatch.setattr(tasks_module, "CHUNK_SECONDS", 0.0)  # chunks never grow
    assert_task_plays_games_30_to_49_of_the_simulator()


def test_a_task_whose_run_was_stopped_gives_up_at_its_next_chunk(monkeypatch):
    stop = threading.Event()
    chunks = []
    real = simulate_module.iter_batches

    def stopped_after_this_chunk(table, games, *args, **kwargs):
        chunks.append(games)
        stop.set()  # as run_tasks does on Ctrl-C, while the task plays
        yield from real(table, games, *args, **kwargs)

    monkeypatch.setattr(simulate_module, "iter_batches", stopped_after_this_chunk)
    task = Task(Rules(players=2), ("greedy", "random"), 1, 1, 0, 100_000)
    with pytest.raises(TaskStopped, match="after 8 of 100,000 games"):
        run_task(task, stop=stop)
    assert chunks == [tasks_module.FIRST_CHUNK]


def test_the_threads_of_an_interrupted_run_end_at_their_next_chunk():
    # one short task reports first and the progress callback stops the run (as Ctrl-C does); the long task,
    # far from done, must give up rather than play on in the background
    rules = Rules(players=2, holes=1)
    tasks = [Task(rules, ("greedy", "random"), 1, 1, 0, 10), Task(rules, ("greedy", "random"), 1, 1, 0, 10**9)]

    def stop_at_first(index, task):
        raise KeyboardInterrupt

    before = {t for t in threading.enumerate() if t.name.startswith("golfsim-task")}
    run = run_tasks(tasks, threads=2, progress=stop_at_first)
    assert run.interrupted and list(run.results) == [0]
    for thread in {t for t in threading.enumerate() if t.name.startswith("golfsim-task")} - before:
        thread.join(timeout=60)  # 10**9 games would take hours
        assert not thread.is_alive()


@pytest.mark.slow
def test_same_tournament_on_one_thread_many_threads_processes_and_any_order():
    base = run_tournament(POOL, RULES, games=120, seed=4, threads=1, batch_size=1000)
    assert_same_tournament(base, run_tournament(POOL, RULES, games=120, seed=4, threads=2, batch_size=7))
    with ProcessPoolExecutor(2) as pool:
        assert_same_tournament(base, run_tournament(POOL, RULES, games=120, seed=4, batch_size=50, executor=pool))
    assert_same_tournament(base, run_tournament(POOL, RULES, games=120, seed=4, batch_size=13, executor=Reversed()))


def test_tips_and_deal_statistics_do_not_depend_on_the_split(monkeypatch):
    tip = tips_module.tip_by_key("a")
    rules = Rules(players=3, holes=3)
    base_tip = tips_module.ab_test(tip, 2, 90, seed=5, threads=1)
    base_stats = variants_module.deal_statistics("greedy", rules, 90, seed=5, threads=1)
    monkeypatch.setattr(common, "TASK_GAMES", 11)  # pieces of 11 games instead of one piece
    with ProcessPoolExecutor(2) as pool:
        assert tips_module.ab_test(tip, 2, 90, seed=5, executor=pool) == base_tip
        assert variants_module.deal_statistics("greedy", rules, 90, seed=5, executor=pool) == base_stats
    assert tips_module.ab_test(tip, 2, 90, seed=5, threads=2) == base_tip


def test_an_interrupted_run_keeps_only_the_tasks_reported_before_the_interrupt():
    plan = plan_tournament("greedy,random", Rules(players=2, holes=1), games=100, seed=3, batch_size=10)
    seen = []

    def progress(i, task):
        seen.append(i)
        if len(seen) == 5:
            raise KeyboardInterrupt

    run = run_tasks(plan.tasks, threads=1, progress=progress)
    assert run.interrupted and sorted(run.results) == [0, 1, 2, 3, 4]


def test_a_stop_whose_interrupt_was_lost_ends_the_run_after_the_tasks_that_finished(monkeypatch):
    """A stop signal's KeyboardInterrupt swallowed by a garbage-collection callback (golfsim.runs.interrupts) is
    raised again between tasks: the run stops there and keeps what finished."""
    from golfsim.runs import interrupts

    plan = plan_tournament("greedy,random", Rules(players=2, holes=1), games=100, seed=3, batch_size=10)
    seen = []

    def progress(i, task):
        seen.append(i)
        if len(seen) == 3:
            monkeypatch.setattr(interrupts, "_pending", True)  # as a handler whose exception was dropped leaves it

    run = run_tasks(plan.tasks, threads=1, progress=progress)
    # the tasks that finished together with the third are kept too; the rest never start
    assert run.interrupted and sorted(run.results) == sorted(seen) and 3 <= len(seen) < len(plan.tasks)
    assert not interrupts.stop_pending()


# ---------------------------------------------------------------- Dask
@pytest.mark.slow  # starting two worker processes that import and load the compiled kernels: about 30 s here
def test_a_tournament_on_a_local_dask_cluster_of_two_processes_equals_the_local_run():
    base = run_tournament(POOL, RULES, games=60, seed=6, threads=1)
    with dask_executor("local:2") as executor:
        assert executor_workers(executor) == 2
        on_dask = run_tournament(POOL, RULES, games=60, seed=6, batch_size=25, executor=executor)
    assert_same_tournament(base, on_dask)


@pytest.mark.parametrize("spec,message", [("locl", "--dask takes local, local:N or a scheduler address"),
                                          ("local:0", "local:N needs a whole number of workers")])
def test_a_bad_dask_spec_is_one_clear_error(spec, message):
    with pytest.raises(ValueError, match=message), dask_executor(spec):
        pass
