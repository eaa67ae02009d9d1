"""Benchmarks of the task runner (the numbers in docs/performance.md come from here).

``python -m benchmarks.bench_tasks threads [DEAL_SETS]`` times the default tournament (the demo pool, round-robin at two
seats) on one thread and on every thread; ``python -m benchmarks.bench_tasks dask [DEAL_SETS [WORKERS]]`` times it on
a Dask ``LocalCluster`` of worker processes against the local run. Runs alternate, after a warm-up of each, and the
medians are reported with every run's ratio and the load average, since only a quiet machine gives the figures the
targets are about.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

from golfsim.core.rules import Rules

DEMO_POOL = "ev,greedy,pair-builder,random"


def alternate_runs(first: Callable[[], object], second: Callable[[], object], repeats: int) -> dict:
    """Medians of ``repeats`` alternating runs of two workloads (each warmed up once) and their ratio."""
    first()
    second()
    a, b = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        first()
        a.append(time.perf_counter() - start)
        start = time.perf_counter()
        second()
        b.append(time.perf_counter() - start)
    return {"first_s": statistics.median(a), "second_s": statistics.median(b),
            "ratio": statistics.median(a) / statistics.median(b),
            "ratios": "/".join(f"{x / y:.2f}" for x, y in zip(a, b, strict=True)), "load_1min": os.getloadavg()[0]}


def threads_scaling(games: int = 5000, threads: int | None = None, repeats: int = 5) -> dict:
    """Seconds of the default tournament on one thread and on ``threads`` (default: all), and the speed-up."""
    from golfsim.kernels.simulate import thread_count
    from golfsim.tournament import run_tournament

    n = thread_count(threads)
    r = alternate_runs(lambda: run_tournament(DEMO_POOL, Rules(players=2), games, 0, threads=1),
                   lambda: run_tournament(DEMO_POOL, Rules(players=2), games, 0, threads=n), repeats)
    return {"deal_sets": games, "threads": n, "one_thread_s": r["first_s"], "all_threads_s": r["second_s"],
            "speedup": r["ratio"], "speedups": r["ratios"], "load_1min": r["load_1min"]}


def dask_against_local(games: int = 5000, workers: int = 2, repeats: int = 5) -> dict:
    """Seconds of the default tournament locally (every thread) and on a ``LocalCluster`` of ``workers`` processes,
    after a warm-up of each; ``dask_over_local`` above 1 means the cluster is slower. Also checks the two results
    are the same standings."""
    from golfsim.runs.tasks import dask_executor
    from golfsim.tournament import run_tournament

    with dask_executor(f"local:{workers}") as ex:
        local = run_tournament(DEMO_POOL, Rules(players=2), games, 0)
        remote = run_tournament(DEMO_POOL, Rules(players=2), games, 0, executor=ex)
        if not local.standings.equals(remote.standings):
            raise AssertionError("the LocalCluster's standings differ from the local run's")
        r = alternate_runs(lambda: run_tournament(DEMO_POOL, Rules(players=2), games, 0),
                       lambda: run_tournament(DEMO_POOL, Rules(players=2), games, 0, executor=ex), repeats)
    return {"deal_sets": games, "workers": workers, "local_s": r["first_s"], "dask_s": r["second_s"],
            "dask_over_local": r["second_s"] / r["first_s"],
            "runs_local_over_dask": r["ratios"], "load_1min": r["load_1min"]}


def print_result(result: dict) -> None:
    print(", ".join(f"{k} {v:,.3f}" if isinstance(v, float) else f"{k} {v:,}" if isinstance(v, int)
                    else f"{k} {v}" for k, v in result.items()))


def main(argv: list[str]) -> None:
    what = argv[0] if argv else "threads"
    games = int(argv[1]) if len(argv) > 1 else 5000
    if what == "threads":
        print_result(threads_scaling(games))
    elif what == "dask":
        print_result(dask_against_local(games, int(argv[2]) if len(argv) > 2 else 2))
    else:
        raise SystemExit(f"unknown benchmark {what!r}; choose threads or dask")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
