"""Plan -> independent tasks -> reduce: how tournaments and experiments use every core, or many machines.

A run is cut into [`Task`][golfsim.runs.tasks.Task] objects: the rules, one agent *label* per seat, the deal seed, the
agent seed, the first game and a count. A task plays games ``first_game .. first_game + count - 1`` (game ``g`` depends
only on ``(seed, g)`` and ``(agent_seed, g)``, see [`golfsim.kernels.simulate`][])
and returns a small summary of them (per-game
arrays), made by a *summary function* that the task names as ``"module:function"``. A reduction puts the summaries
back together in game order, so the numbers never depend on how the games were split, which executor ran them, in
what order the tasks finished or on how many threads.

Tasks carry labels, never compiled objects: a worker thread, a worker process or a Dask worker parses the labels,
loads the user's agent modules (``GOLFSIM_AGENT_MODULES`` as it was when the task was planned, and entry points)
and compiles what it needs once per process.

[`run_tasks`][golfsim.runs.tasks.run_tasks] submits the tasks to a `concurrent.futures.Executor` a window at a time (a
few per worker, the next as each finishes, so a plan may be a lazy sequence of any length and is never listed): by
default a pool of daemon threads ([`golfsim.runs.task_threads.TaskThreads`][]), one per core, each task running
the single-threaded compiled kernel (it releases the GIL), so a plan of at least as many tasks as cores keeps every
core busy; [`Pieces`][golfsim.runs.tasks.Pieces] cuts plans that size.
A plan with a plain-Python or batched agent holds the GIL, so by default it runs on a pool of worker processes instead
([`python_process_pool`][golfsim.runs.tasks.python_process_pool]). Any other executor works too: a
``ProcessPoolExecutor``, or a Dask client's executor ([`dask_executor`][golfsim.runs.tasks.dask_executor]).

Stopping early: a ``KeyboardInterrupt`` (Ctrl-C, or raised by the progress callback) while the tasks run cancels the
ones not started and returns what had been reported complete, marked ``interrupted``; the caller decides which
complete parts to keep. Tasks already running in threads of this process stop too: a task plays its games in chunks
of about `CHUNK_SECONDS` ([`play_task_games`][golfsim.runs.tasks.play_task_games]) and gives up between chunks once its
run was stopped, so a stopped run's process can exit within seconds even when one task holds hours of searching (the
games of a chunk do not depend on how the task was cut). Worker processes of the Python pool are ended; a Dask worker
finishes its task.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import logging
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from golfsim.core.errors import AgentError
from golfsim.core.rules import Rules
from golfsim.core.scoring import win_shares
from golfsim.core.spec import TRUNCATED
from golfsim.runs.interrupts import CaughtStop, raise_pending_stop

__all__ = [
    "GameSummary",
    "Task",
    "TaskStopped",
    "TaskRun",
    "dask_executor",
    "executor_workers",
    "needs_python",
    "python_process_pool",
    "play_in_chunks",
    "play_task_games",
    "run_task",
    "Pieces",
    "run_tasks",
    "split_counts",
    "stop_requested",
    "summarise_games",
    "summarise_totals",
]

#: Tasks planned per worker: more than one, so that workers finish together when tasks take unequal times.
TASKS_PER_WORKER = 2


@dataclass(frozen=True)
class Task:
    """One independent piece of a run: ``count`` games of one seating, from game ``first_game``.

    Attributes
    ----------
    rules : Rules
    seats : tuple of str
        One agent label per seat (``"pair-builder:keep_threshold=8"``), parsed where the task runs.
    seed : int
        Seed of the deals.
    agent_seed : int
        Seed of the agents' own randomness.
    first_game, count : int
        The games played: ``first_game .. first_game + count - 1``.
    summary : str
        ``"module:function"`` turning the [`golfsim.kernels.simulate.Batch`][] of those games into the small result
        returned (default [`summarise_games`][golfsim.runs.tasks.summarise_games]).
    plugins : tuple of str
        User agent modules to load before parsing the labels (``GOLFSIM_AGENT_MODULES`` when the task was made).
    play : str
        ``"module:function"`` called as ``function(table, task)`` to play the games instead of the batch simulator,
        returning what ``summary`` is given (e.g. `golfsim.experiments.luck.play_counted_task`, the same games
        with their decisions counted); empty: [`golfsim.kernels.simulate.iter_batches`][].
    """

    rules: Rules
    seats: tuple[str, ...]
    seed: int
    agent_seed: int
    first_game: int
    count: int
    summary: str = "golfsim.runs.tasks:summarise_games"
    plugins: tuple[str, ...] = ()
    play: str = ""


def current_plugins() -> tuple[str, ...]:
    """The user agent modules named by ``GOLFSIM_AGENT_MODULES`` now, for `Task.plugins`.

    A ``.py`` path is made absolute here, on the client: a worker process or machine may run in another folder.
    """
    from pathlib import Path

    from golfsim.agents.plugins import ENV_VAR

    specs = (s.strip() for s in os.environ.get(ENV_VAR, "").split(","))
    return tuple(str(Path(s).resolve()) if s.endswith(".py") else s for s in specs if s)


# ---------------------------------------------------------------- summaries
@dataclass
class GameSummary:
    """Per-game arrays of one seating's games, in game order (what a tournament keeps of a task)."""

    totals: np.ndarray  # int32 [n, P]
    outs: np.ndarray  # int16 [n, P]: deals in which the seat went out
    out_wins: np.ndarray  # float32 [n, P]: sum over those deals of the seat's deal win share
    turns: np.ndarray  # int32 [n]: turns summed over the game's deals
    truncated: np.ndarray  # int16 [n]: truncated deals of the game

    @classmethod
    def empty(cls, players: int) -> GameSummary:
        return cls(np.zeros((0, players), np.int32), np.zeros((0, players), np.int16),
                   np.zeros((0, players), np.float32), np.zeros(0, np.int32), np.zeros(0, np.int16))

    @classmethod
    def concat(cls, parts: Sequence[GameSummary], players: int) -> GameSummary:
        """The parts one after another (they must be consecutive runs of games, in order)."""
        if not parts:
            return cls.empty(players)
        return cls(*(np.concatenate([getattr(p, f) for p in parts]) for f in
                     ("totals", "outs", "out_wins", "turns", "truncated")))

    def head(self, n: int) -> GameSummary:
        """The first ``n`` games."""
        return GameSummary(self.totals[:n], self.outs[:n], self.out_wins[:n], self.turns[:n], self.truncated[:n])


def summarise_games(batch) -> GameSummary:
    """Totals, going out, turns and truncations of every game of ``batch`` (a
    [`golfsim.kernels.simulate.Batch`][])."""
    hs = batch.hole_scores.astype(np.int32)
    players = hs.shape[2]
    deal_share = win_shares(hs, axis=2)
    seat = np.arange(players)
    out_mask = batch.enders[:, :, None] == seat[None, None, :]
    return GameSummary(
        totals=hs.sum(axis=1, dtype=np.int32),
        outs=out_mask.sum(axis=1).astype(np.int16),
        out_wins=(deal_share * out_mask).sum(axis=1).astype(np.float32),
        turns=batch.turns.sum(axis=1, dtype=np.int32),
        truncated=(batch.reasons == TRUNCATED).sum(axis=1).astype(np.int16),
    )


def summarise_totals(batch) -> np.ndarray:
    """Only the N-hole totals ``[n, players]`` (int32) of every game of ``batch``."""
    return batch.totals


# ---------------------------------------------------------------- running one task
_summaries: dict[str, Callable] = {}
_plugins_loaded: set[str] = set()


def _summary_function(name: str) -> Callable:
    if name not in _summaries:
        module, _, attr = name.partition(":")
        _summaries[name] = getattr(importlib.import_module(module), attr)
    return _summaries[name]


def _load_plugins(specs: Sequence[str]) -> None:
    """Load the user agent modules a task names (once per process)."""
    missing = [s for s in specs if s not in _plugins_loaded]
    if not missing:
        return
    from golfsim.agents.plugins import load_module

    for spec in missing:
        load_module(spec)
        _plugins_loaded.add(spec)


class TaskStopped(Exception):
    """Raised inside a task given up between two chunks of its games because its run was stopped."""


#: A task plays its games in chunks that grow from FIRST_CHUNK games until one takes about CHUNK_SECONDS, and checks
#: between chunks whether its run was stopped: a stop is seen within about that time (or one game, if longer).
FIRST_CHUNK = 8
CHUNK_SECONDS = 0.5

_running = threading.local()  # .stop: the threading.Event of the run the current thread's task belongs to


def stop_requested() -> bool:
    """Whether the run of the task playing in this thread was stopped (for a `Task.play` function that plays
    in pieces of its own)."""
    stop = getattr(_running, "stop", None)
    return stop is not None and stop.is_set()


def play_in_chunks(task: Task, play_chunk: Callable[[int, int], object]):
    """Play ``task``'s games as ``play_chunk(first_game, count)`` calls on growing chunks, checking between chunks
    whether the run was stopped; return the chunks' [`golfsim.kernels.simulate.Batch`][] (or subclass) as one,
    with the wall and CPU seconds of this thread (for a `Task.play` function too).

    Raises
    ------
    TaskStopped
        When the run was stopped before the last chunk.
    """
    parts, done, size = [], 0, FIRST_CHUNK
    while done < task.count:
        if stop_requested():
            raise TaskStopped(f"stopped after {done:,} of {task.count:,} games")
        n = min(size, task.count - done)
        start, cpu_start = time.perf_counter(), time.thread_time()
        batch = play_chunk(task.first_game + done, n)
        batch.seconds, batch.cpu_seconds = time.perf_counter() - start, time.thread_time() - cpu_start
        parts.append(batch)
        done += n
        if batch.seconds < CHUNK_SECONDS / 2:
            size *= 2
    return parts[0] if len(parts) == 1 else type(parts[0]).concat(parts)


def play_task_games(table, task: Task, threads: int = 1):
    """Play ``task``'s games on ``table`` with the batch simulator, in chunks
    ([`play_in_chunks`][golfsim.runs.tasks.play_in_chunks])."""
    from golfsim.kernels.simulate import iter_batches

    def play_chunk(first: int, n: int):
        (batch,) = iter_batches(table, n, task.seed, agent_seed=task.agent_seed, first_game=first, batch_size=n,
                                threads=threads)
        return batch

    return play_in_chunks(task, play_chunk)


def run_task(task: Task, threads: int = 1, stop: threading.Event | None = None):
    """Play ``task``'s games and return its summary (runs in whatever thread, process or machine executes it).

    ``stop``, when given, is checked between chunks of the games
    ([`play_task_games`][golfsim.runs.tasks.play_task_games]): once it is set the task raises
    [`TaskStopped`][golfsim.runs.tasks.TaskStopped].
    """
    from golfsim.kernels.simulate import Table

    _load_plugins(task.plugins)
    table = Table.make(list(task.seats), task.rules)
    summarise = _summary_function(task.summary)
    _running.stop = stop
    try:
        if task.play:
            return summarise(_summary_function(task.play)(table, task))
        return summarise(play_task_games(table, task, threads))
    finally:
        _running.stop = None


# ---------------------------------------------------------------- planning helpers
def executor_workers(executor: Executor | None, threads: int | None = None) -> int:
    """How many tasks ``executor`` runs at once (its workers; for a Dask executor, the cluster's threads).

    ``None`` is the default thread pool of [`run_tasks`][golfsim.runs.tasks.run_tasks]: ``threads``, or every core Numba
    may use.
    """
    if executor is None:
        from golfsim.kernels.simulate import thread_count

        return thread_count(threads)
    client = getattr(executor, "_client", None)
    if client is not None:  # a Dask client's executor
        with contextlib.suppress(Exception):
            return max(1, sum(client.nthreads().values()))
    return max(1, int(getattr(executor, "_max_workers", None) or os.cpu_count() or 1))


class Pieces(Sequence):
    """The consecutive ``(first, count)`` pieces of ``games`` games, computed on demand (never listed).

    Pieces are at most ``block`` games; when that gives fewer than ``TASKS_PER_WORKER x workers`` tasks over all
    ``units`` seatings, the games are cut finer (never below one game), so a plan keeps every worker busy. The cut
    is the same for every seating, so a prefix of complete pieces is a set of complete deal sets everywhere.
    """

    def __init__(self, games: int, block: int, units: int, workers: int):
        self.games, self.block = int(games), int(block)
        wanted = math.ceil(TASKS_PER_WORKER * workers / max(units, 1))
        self.even = math.ceil(self.games / self.block) < wanted  # cut finer: into equal pieces
        self.count = min(self.games, wanted) if self.even else math.ceil(self.games / self.block)

    def __len__(self) -> int:
        return self.count

    def _cut(self, i: int) -> int:
        # cut i of count near-equal pieces, rounded half up, in exact integers (games may exceed 2**53)
        return (2 * i * self.games + self.count) // (2 * self.count)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.count))]
        if i < 0:
            i += self.count
        if not 0 <= i < self.count:
            raise IndexError(f"piece {i} of {self.count}")
        if self.even:
            lo = self._cut(i)
            return lo, self._cut(i + 1) - lo
        lo = i * self.block
        return lo, min(self.block, self.games - lo)


def split_counts(games: int, block: int, units: int, workers: int) -> list[tuple[int, int]]:
    """The [`Pieces`][golfsim.runs.tasks.Pieces] of ``games`` games as a list, refused in one line when they would be
    more than [`golfsim.runs.limits.MAX_TASKS`][] tasks over ``units`` seatings (for plans that list their tasks)."""
    from golfsim.runs.limits import MAX_TASKS, refuse_over

    pieces = math.ceil(games / block)
    refuse_over(f"{games:,} games in pieces of {block:,} at {units:,} seating(s) make {pieces * max(units, 1):,} "
                "tasks, and that", pieces * max(units, 1), MAX_TASKS, "play fewer games or larger pieces")
    return list(Pieces(games, block, units, workers))


# ---------------------------------------------------------------- running many
@dataclass
class TaskRun:
    """What [`run_tasks`][golfsim.runs.tasks.run_tasks] returns: each finished task's summary by its index, and whether
    it was stopped."""

    results: dict[int, object] = field(default_factory=dict)
    interrupted: bool = False

    def complete(self, indices) -> bool:
        """Whether every task of ``indices`` finished."""
        return all(i in self.results for i in indices)


#: Tasks submitted ahead per worker: the executor always has work queued, and a plan of any length holds only
#: this many futures (and unreported results) at once.
WINDOW_PER_WORKER = 4


def run_tasks(tasks: Sequence[Task], executor: Executor | None = None, *, threads: int | None = None,
              progress: Callable[[int, Task], None] | None = None,
              consume: Callable[[int, object], None] | None = None) -> TaskRun:
    """Run the tasks, a window at a time, and collect their summaries as they finish.

    Parameters
    ----------
    tasks : sequence of Task
        In the order they should start (an executor starts them first come, first served). Only a window of them
        (`WINDOW_PER_WORKER` per worker) is submitted at a time, so the sequence may be computed on demand
        ([`golfsim.tournament.planning.PlanTasks`][]) and as long as it likes; such a sequence names its
        agent labels as a ``labels`` set ([`needs_python`][golfsim.runs.tasks.needs_python] would otherwise read every
        task).
    executor : concurrent.futures.Executor, optional
        Where they run; default a thread pool of ``threads`` threads (default: every core) made for this call.
        Results do not depend on it.
    threads : int, optional
        Size of the default thread pool.
    progress : callable, optional
        Called as ``progress(index, task)`` in the calling thread after each task finishes (in the order they
        finish); raise ``KeyboardInterrupt`` from it to stop the run.
    consume : callable, optional
        Called as ``consume(index, summary)`` in the calling thread with each finished task's summary (before
        ``progress``), which is then not kept in ``results``: for runs that fold their results as they come.

    Returns
    -------
    TaskRun
        After a ``KeyboardInterrupt`` only the tasks reported finished before it are in ``results`` (tasks still
        running are left to finish on their own and ignored), and ``interrupted`` is True.
    """
    own = shared = executor is None
    workers = executor_workers(executor, threads)
    if own:
        if workers > 1 and needs_python(tasks):
            executor = python_process_pool(workers, tasks)
        else:
            from golfsim.runs.task_threads import TaskThreads

            executor = TaskThreads(workers)  # daemon threads: a task that never returns cannot outlive a stop
            shared = False
    run = TaskRun()
    futures: dict = {}
    window = WINDOW_PER_WORKER * max(1, workers)
    # tasks in this process's threads see the run's stop between chunks of their games; other executors pickle
    # their calls, and an Event cannot travel
    stop = threading.Event()
    from golfsim.runs.task_threads import TaskThreads

    extra = (1, stop) if isinstance(executor, (ThreadPoolExecutor, TaskThreads)) else ()

    def submit(task):
        return executor.submit(run_task, task, *extra)
    stopped = CaughtStop()
    try:
        with stopped:
            _run_window(tasks, futures, window, submit, run, consume, progress)
    finally:
        run.interrupted = stopped.arrived
        stop.set()  # tasks still running give up at their next chunk (their results would be ignored)
        for future in futures:
            future.cancel()
        if shared:
            if run.interrupted or getattr(executor, "_broken", False):
                _discard_pool(executor)
        elif own:
            executor.shutdown(wait=False, cancel_futures=True)
    return run


def _run_window(tasks, futures: dict, window: int, submit, run: TaskRun, consume, progress) -> None:
    """Keep ``window`` tasks submitted and hand each finished one's summary on, until every task finished."""
    queued = iter(enumerate(tasks))
    for i, task in itertools.islice(queued, window):
        futures[submit(task)] = i, task
    while futures:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        failed = None
        # in task order, and every finished task kept before a failed one's exception is raised: a set's order
        # would otherwise sometimes raise first and lose tasks that had finished
        for future in sorted(done, key=lambda f: futures[f][0]):
            i, task = futures.pop(future)
            if future.exception() is not None:
                failed = failed or future
                continue
            value = future.result()
            if consume is None:
                run.results[i] = value
            else:
                consume(i, value)
            if progress is not None:
                progress(i, task)
            for j, nxt in itertools.islice(queued, 1):
                futures[submit(nxt)] = j, nxt
        if failed is not None:
            _raise_failure(failed)
        raise_pending_stop()  # a stop whose KeyboardInterrupt a garbage-collection callback swallowed, once the
        # tasks that finished are kept


# ---------------------------------------------------------------- Python agents: worker processes
def needs_python(tasks: Sequence[Task]) -> bool:
    """Whether any task seats a plain-Python or batched agent (which holds the GIL while it decides)."""
    from golfsim.agents.base import parse_agent

    labels = getattr(tasks, "labels", None)  # a lazy plan names its labels without listing its tasks
    if labels is None:
        labels = {label for task in tasks for label in task.seats}
    if not labels:
        return False
    _load_plugins(tasks[0].plugins)
    return any(not parse_agent(label).spec.compiled for label in labels)


def _worker_start(plugins: tuple[str, ...]) -> None:
    """Run in each worker process once: Ctrl-C is the parent's to handle, and the user's agents are loaded."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _load_plugins(plugins)


_pools: dict[tuple, ProcessPoolExecutor] = {}


def python_process_pool(workers: int, tasks: Sequence[Task] = ()) -> ProcessPoolExecutor:
    """The pool of ``workers`` worker processes that runs tasks seating Python agents, made on first use and kept
    for the next run in this process (a tuning study or a sweep runs many tournaments; starting a worker costs
    seconds). The workers are started with ``spawn`` (nothing of this process's threads is inherited), ignore
    Ctrl-C, and have loaded the tasks' user agent modules.

    Results do not depend on it: every task plays its own games from its own seeds.
    """
    plugins = tasks[0].plugins if tasks else current_plugins()
    key = (int(workers), tuple(plugins))
    if key not in _pools:
        _pools[key] = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                          initializer=_worker_start, initargs=(plugins,))
    return _pools[key]


def _discard_pool(executor: ProcessPoolExecutor) -> None:
    """End a kept pool's worker processes (after Ctrl-C, rather than wait for the tasks they are playing, or after
    a worker died) and forget the pool."""
    for key, pool in list(_pools.items()):
        if pool is executor:
            del _pools[key]
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        with contextlib.suppress(Exception):
            process.terminate()
    executor.shutdown(wait=False, cancel_futures=True)


class WorkerLost(AgentError):
    """A worker process running a task ended without an answer (Dask's ``KilledWorker``, a broken process pool)."""


def _raise_failure(future) -> None:
    """Raise a failed task's exception; a worker process that died is one [`WorkerLost`][golfsim.runs.tasks.WorkerLost]
    line, not the executor's traceback."""
    err = future.exception()
    if isinstance(err, BrokenExecutor) or type(err).__name__ == "KilledWorker":
        raise WorkerLost(f"a worker process ended while playing games ({type(err).__name__}): an agent that exits "
                         "or crashes its process, or a worker out of memory; the run stopped") from None
    future.result()


# ---------------------------------------------------------------- Dask
DASK_MISSING = ("--dask needs the optional dependency dask[distributed]; install it with "
                "pip install 'golfsim[dask]'")


def _check_dask_spec(spec: str) -> tuple[str, int | None]:
    text = str(spec).strip()
    if text == "local" or text.startswith("local:"):
        count = text.partition(":")[2]
        if not count:
            return "local", None
        if not count.isdigit() or int(count) < 1:
            raise ValueError(f"--dask local:N needs a whole number of workers of at least 1, got {count!r}")
        return "local", int(count)
    if "://" in text:
        return text, None
    raise ValueError(f"--dask takes local, local:N or a scheduler address such as tcp://HOST:8786, got {spec!r}")


def _warm_worker(plugins: tuple[str, ...]) -> None:
    """Run on each Dask worker once: load the user's agent modules there (the client's list, with its paths made
    absolute, in place of whatever the worker's own environment says)."""
    from golfsim.agents.plugins import ENV_VAR, PluginError, ensure_loaded

    os.environ[ENV_VAR] = ",".join(plugins)
    try:
        _load_plugins(plugins)
        ensure_loaded()
    except PluginError as e:
        import socket

        raise PluginError(f"on Dask worker {socket.gethostname()} (pid {os.getpid()}): {e}") from None


@contextlib.contextmanager
def dask_executor(spec: str) -> Iterator[Executor]:
    """A Dask client's executor for ``spec``, closed (and a local cluster stopped) on exit.

    Parameters
    ----------
    spec : str
        ``"local"`` (a ``distributed.LocalCluster`` of worker processes, one per core), ``"local:N"`` (``N``
        worker processes of one thread each) or a running scheduler's address, e.g. ``"tcp://10.0.0.5:8786"``.

    Raises
    ------
    ValueError
        For a malformed spec, or when ``dask[distributed]`` is not installed (one line saying how to install it).
    """
    address, workers = _check_dask_spec(spec)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ValueError(DASK_MISSING) from None
    cluster = None
    if address == "local":
        n = workers or os.cpu_count() or 1
        import dask

        # a task whose worker dies is tried on one more before KilledWorker: the default three retries restart
        # worker processes (each importing golfsim and the agents again) for minutes before the run stops
        with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=logging.CRITICAL)  # a task's error is our one line
        client = Client(cluster)
    else:
        try:
            client = Client(address, timeout="20s")
        except (OSError, TimeoutError) as e:
            raise ValueError(f"--dask: cannot reach the scheduler at {address}: {e}") from None
    try:
        try:
            client.run(_warm_worker, current_plugins())
        except ValueError as e:  # a PluginError raised on a worker, re-raised here
            raise ValueError(f"--dask: a worker could not load the agent modules: {e}") from None
        yield client.get_executor(pure=False)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
