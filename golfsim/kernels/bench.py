"""Throughput measurement for the batch simulator (the numbers behind every speed claim).

``run_benchmark`` times the same kernels tournaments use: a warm-up call (compile or cache load, reported as
``compile_seconds``), then ``repeats`` timed runs of the whole workload, reporting the median. Given the tight C loop
of the same game (``vs_c``: a build of ``golf_limit.c``, the speed-of-light reference), it runs the C loop before each
timed run, on the same number of deals, and reports the ratio of the medians: on a shared machine the absolute
figures drift with the load, while a ratio measured in one interleaved run holds.
"""

from __future__ import annotations

import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numba

from golfsim.core.rules import Rules
from golfsim.kernels.simulate import Table, iter_batches, thread_count


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


THREADING = "python threads running a nogil numba kernel"
"""How a run uses several cores (reported as ``threading_layer``): [`golfsim.kernels.simulate.iter_batches`][] runs
slices of each batch on a thread pool; the compiled kernel releases the GIL. Numba's own threading layer is not
used: a ``prange`` kernel compiled seconds slower than the serial one, for no speed gain."""


C_POLICIES = ("greedy", "random")
"""The policies the C loop plays: greedy and random self-play, two players, the main game's single deals."""


def check_c_loop(path, agents, rules: Rules, deals: int | None, threads: int | None) -> tuple[Path, str]:
    """Validate a comparison with the C loop at ``path``: an executable file, and a workload the C loop also plays
    (greedy or random self-play with default parameters, two players, default rules, single deals, one thread).
    Returns the path and the C loop's policy name."""
    binary = Path(path)
    if not binary.is_file() or not os.access(binary, os.X_OK):
        raise ValueError(f"--vs-c {str(path)!r} is not an executable file (build it: gcc -O3 -march=native "
                         "-o golf_limit golf_limit.c)")
    labels = [a if isinstance(a, str) else a.label for a in agents]
    policy = labels[0].strip() if labels else ""
    if policy not in C_POLICIES or any(a.strip() != policy for a in labels) or len(labels) != 2:
        raise ValueError("the C loop plays greedy,greedy or random,random (two players, default parameters); "
                         f"got {','.join(labels)}")
    if deals is None or rules.replace(holes=1) != Rules(holes=1) or threads != 1:
        raise ValueError("compare with the C loop on single deals (--deals), default rules and --threads 1: "
                         "that is the workload it plays")
    return binary, policy


def c_loop_seconds(binary: Path, policy: str, deals: int, seed: int = 1) -> float:
    """Seconds the C loop takes for ``deals`` deals of ``policy`` (its own timer, one repeat)."""
    done = subprocess.run([str(binary), policy, str(deals), "1", "full", str(seed)], capture_output=True, text=True,
                          timeout=600)
    found = re.search(r"median deals/s: ([0-9.]+)", done.stdout)
    if done.returncode != 0 or found is None:
        raise ValueError(f"the C loop {str(binary)!r} did not report 'median deals/s' (exit {done.returncode})")
    return deals / float(found.group(1))


def run_benchmark(agents, rules: Rules | None = None, *, deals: int | None = None, games: int | None = None,
                  threads: int | None = None, repeats: int = 5, seed: int = 0,
                  batch_size: int = 1_000_000, on_start=None, vs_c=None) -> dict:
    """Time ``deals`` single deals (1-hole games) or ``games`` full games of ``agents``.

    Returns
    -------
    dict
        ``deals_per_second`` (median), ``games_per_second`` (median, when games were played), ``deals``, ``games``,
        ``threads``, ``players``, ``agents``, ``rules``, ``compile_seconds``, ``compile_cpu_seconds`` (the warm-up's
        processor time, which a loaded machine inflates less), ``seconds`` (every repeat),
        ``repeats``, ``peak_rss_mb``, ``threading_layer``, ``numba_version``, ``load_average`` (the 1-minute load
        average at the end: anything else running shows up in the figures). With ``vs_c`` (the path of a
        ``golf_limit`` build) also ``c_deals_per_second`` (median of the C loop's runs, interleaved with ours),
        ``c_seconds`` and ``c_ratio`` (our median deals per second over the C loop's).

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
    c_loop = check_c_loop(vs_c, [a.label for a in table.agents], rules, deals, threads) if vs_c is not None else None
    if on_start is not None:
        on_start()

    def play(n):
        for _ in iter_batches(table, n, seed, threads=threads, batch_size=batch_size):
            pass

    start, cpu_start = time.perf_counter(), time.process_time()
    play(64)
    compile_seconds = time.perf_counter() - start
    compile_cpu_seconds = time.process_time() - cpu_start
    seconds, c_seconds = [], []
    for _ in range(repeats):
        if c_loop is not None:
            c_seconds.append(c_loop_seconds(*c_loop, count))
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
        "compile_cpu_seconds": compile_cpu_seconds,
        "seconds": seconds,
        "repeats": repeats,
        "peak_rss_mb": peak_rss_mb(),
        "threading_layer": THREADING,
        "numba_version": numba.__version__,
        "load_average": os.getloadavg()[0],
    }
    if c_loop is not None:
        c_median = statistics.median(c_seconds)
        result.update(c_deals_per_second=count / c_median, c_seconds=c_seconds, c_ratio=c_median / median)
    if games is not None:
        result["games_per_second"] = count / median
    return result
