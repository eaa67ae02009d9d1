"""Deals per second of one thread's processor time for a table of compiled agents (default learned vs ev).

``golfsim bench`` times the wall clock, which on a machine shared with other work measures the sharing as much as
the code. This counts the thread's own processor time (``time.thread_time``) around the same batch kernel, one
thread, after a warm-up, so that two versions of an agent can be compared on a loaded machine::

    python -m benchmarks.bench_learned_cpu --agents learned,ev --deals 200000 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from golfsim.core.rules import Rules
from golfsim.kernels.simulate import Table, iter_batches


def deals_per_cpu_second(agents: list[str], deals: int, seed: int) -> float:
    table = Table.make(agents, Rules(holes=1, players=len(agents)))
    start = time.thread_time()
    for _ in iter_batches(table, deals, seed=seed, batch_size=deals, threads=1):
        pass
    return deals / (time.thread_time() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_learned_cpu", description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default="learned,ev")
    parser.add_argument("--deals", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    agents = args.agents.split(",")
    deals_per_cpu_second(agents, 1000, args.seed)  # compile or load from the cache
    runs = [deals_per_cpu_second(agents, args.deals, args.seed) for _ in range(args.repeats)]
    print(json.dumps({"agents": agents, "deals": args.deals, "deals_per_cpu_second_median": statistics.median(runs),
                      "runs": runs, "load_average": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
