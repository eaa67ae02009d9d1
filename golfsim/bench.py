"""Throughput measurement for the batch simulator (the numbers behind every speed claim).

``run_benchmark`` times the same kernels tournaments use: a warm-up call (compile or cache load, reported as
``compile_seconds``), then ``repeats`` timed runs of the whole workload, reporting the median.
"""

from __future__ import annotations

import resource
import statistics
import sys
import time

import numba

from golfsim.rules import Rules
from golfsim.simulate import Table, iter_batches, thread_count


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


THREADING = "python threads running a nogil numba kernel"
"""How a run uses several cores (reported as ``threading_layer``): :func:`golfsim.simulate.iter_batches` runs
slices of each batch on a thread pool; the compiled kernel releases the GIL. Numba's own threading layer is not
used: a ``prange`` kernel compiled about 4 s slower than the serial one, for no speed gain."""


def run_benchmark(agents, rules: Rules | None = None, *, deals: int | None = None, games: int | None = None,
                  threads: int | None = None, repeats: int = 5, seed: int = 0,
                  batch_size: int = 1_000_000, on_start=None) -> dict:
    """Time ``deals`` single deals (1-hole games) or ``games`` full games of ``agents``.

    Returns
    -------
    dict
        ``deals_per_second`` (median), ``games_per_second`` (median, when games were played), ``deals``, ``games``,
        ``threads``, ``players``, ``agents``, ``rules``, ``compile_seconds``, ``seconds`` (every repeat),
        ``repeats``, ``peak_rss_mb``, ``threading_layer``, ``numba_version``.

    ``on_start`` is called once the arguments are validated, just before the warm-up.
    """
    if (deals is None) == (games is None):
        raise ValueError("give exactly one of deals (single deals) or games (full games)")
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        raise ValueError(f"repeats must be a whole number of at least 1, got {repeats!r}")
    count = deals if deals is not None else games
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"{'deals' if deals is not None else 'games'} must be a whole number of at least 1, "
                         f"got {count!r}")
    rules = Rules(players=len(agents) if not isinstance(agents, str) else len(agents.split(","))) \
        if rules is None else rules
    if deals is not None:
        rules = rules.replace(holes=1)
    table = Table.make(agents, rules)
    nthreads = thread_count(threads)
    if on_start is not None:
        on_start()

    def play(n):
        for _ in iter_batches(table, n, seed, threads=threads, batch_size=batch_size):
            pass

    start = time.perf_counter()
    play(64)
    compile_seconds = time.perf_counter() - start
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        play(count)
        seconds.append(time.perf_counter() - start)
    median = statistics.median(seconds)
    holes = rules.holes
    result = {
        "agents": [a.label for a in table.agents],
        "players": rules.players,
        "rules": rules.describe(),
        "threads": nthreads,
        "deals": count * holes,
        "games": count if games is not None else 0,
        "deals_per_second": count * holes / median,
        "compile_seconds": compile_seconds,
        "seconds": seconds,
        "repeats": repeats,
        "peak_rss_mb": peak_rss_mb(),
        "threading_layer": THREADING,
        "numba_version": numba.__version__,
    }
    if games is not None:
        result["games_per_second"] = count / median
    return result
