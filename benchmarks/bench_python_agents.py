"""Speed of plain-Python and batched agents at golfsim tables, and of the Gymnasium vector env.

Run: ``python benchmarks/bench_python_agents.py [--runs 3] [--only scaling,overhead,batched,vector] [--workers 2]``.
Every figure is the median of ``--runs`` runs; on a shared machine they move with its load.

- ``scaling``: a tournament of the plain-Python example ``cautious`` against ``greedy`` on 1 and on ``--workers``
  worker processes (default 2; the pool is started by a warm-up run first, as a study or a sweep keeps it), and the
  ratio. Wall time: run it on a quiet machine.
- ``overhead``: a trivial plain-Python policy (the first legal action) against ``greedy``: the CPU time per Python
  decision beyond the policy's own (measured inside it) and beyond the same games' compiled turns (the same
  table with greedy in the Python seat, run by the batch kernel). CPU time rather than wall time, since on a shared
  machine the wall time of a few microseconds is mostly other processes' turns.
- ``batched``: the ``linear`` numpy policy (docs/examples/batched_numpy_agents.py) against ``ev``, one core:
  its decisions per CPU second, and the share of the CPU time spent in the policy.
- ``vector``: ``gymnasium.make_vec("golfsim/Golf-v0", num_envs=8)`` with masked random actions: steps per second
  and per CPU second (all envs together).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

# numpy's BLAS threads spin against the game loop and the other worker on a busy machine (measured here: the linear
# policy took 23 us per decision with its default threads, 0.25 us with one); one worker per core needs one each
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
os.environ.setdefault("GOLFSIM_AGENT_MODULES",
                      f"{EXAMPLES / 'cautious_python_agent.py'},{EXAMPLES / 'batched_numpy_agents.py'}")


def median_of(runs, fn):
    values = [fn() for _ in range(runs)]
    return statistics.median(values), values


def scaling(runs: int, workers: int = 2) -> None:
    from golfsim.core.rules import Rules
    from golfsim.tournament import run_tournament

    rules = Rules(players=2, holes=9)

    def timed(threads):
        start = time.perf_counter()
        run_tournament(["cautious", "greedy"], rules, games=1000, seed=1, threads=threads, batch_size=250)
        return time.perf_counter() - start

    timed(workers)  # starts the kept pool of worker processes
    one, ones = median_of(runs, lambda: timed(1))
    many, manys = median_of(runs, lambda: timed(workers))
    print(f"scaling: 2000 nine-hole games cautious vs greedy: 1 process {one:.2f} s, {workers} processes {many:.2f} "
          f"s (median of {runs}: {[round(v, 2) for v in ones]}, {[round(v, 2) for v in manys]}); speed-up "
          f"{one / many:.2f}x")


def overhead(runs: int) -> None:
    import numpy as np

    from golfsim.agents import REGISTRY, register_python_agent
    from golfsim.core.rules import Rules
    from golfsim.kernels.python_seats import play_batch
    from golfsim.kernels.simulate import Table, iter_batches

    inside = [0.0, 0]

    def first_legal(observation):
        t0 = time.thread_time()
        action = int(np.flatnonzero(observation["action_mask"])[0])
        inside[0] += time.thread_time() - t0
        inside[1] += 1
        return action

    if "first-legal" not in REGISTRY:
        register_python_agent("first-legal", "benchmark: the first legal action", lambda params: first_legal)
    rules = Rules(players=2, holes=9)
    games = 1000
    table = Table.make(["first-legal", "greedy"], rules)
    compiled = Table.make(["greedy", "greedy"], rules)

    def one_run():
        inside[:] = [0.0, 0]
        start = time.process_time()
        batch = play_batch(table, games, 3, 4)
        total = time.process_time() - start
        start = time.process_time()
        list(iter_batches(compiled, games, 3, agent_seed=4, batch_size=games, threads=1))
        kernel = time.process_time() - start
        assert batch.hole_scores.shape[0] == games
        return (total - inside[0] - kernel) / inside[1] * 1e6, inside[0] / inside[1] * 1e6, inside[1]

    # warm-up: loads (or compiles) both tables' kernels, whose first load would count as overhead
    play_batch(table, 10, 3, 4)
    list(iter_batches(compiled, 10, 3, agent_seed=4, batch_size=10, threads=1))
    results = [one_run() for _ in range(runs)]
    over = statistics.median(r[0] for r in results)
    own = statistics.median(r[1] for r in results)
    print(f"overhead: {results[0][2]:,} Python decisions in {games} nine-hole games: {over:.1f} us CPU per decision "
          f"beyond the policy's own {own:.1f} us and the compiled turns (median of {runs}: "
          f"{[round(r[0], 1) for r in results]})")


def batched(runs: int) -> None:
    from golfsim.agents import parse_agent
    from golfsim.core.rules import Rules
    from golfsim.kernels.python_seats import play_batch
    from golfsim.kernels.simulate import Table

    rules = Rules(players=2, holes=9)
    table = Table.make(["linear", "ev"], rules)
    spec = parse_agent("linear").spec
    policy_time = [0.0, 0]
    original = spec.python

    def counting_factory(params):
        policy = original(params)

        def counted(batch):
            t0 = time.thread_time()
            out = policy(batch)
            policy_time[0] += time.thread_time() - t0
            policy_time[1] += len(batch)
            return out

        return counted

    object.__setattr__(spec, "python", counting_factory)
    play_batch(table, 50, 0, 0)

    def one_run():
        policy_time[:] = [0.0, 0]
        start = time.process_time()
        play_batch(table, 2000, 1, 2)
        total = time.process_time() - start
        return policy_time[1] / total, policy_time[0] / total, policy_time[1]

    results = [one_run() for _ in range(runs)]
    rate = statistics.median(r[0] for r in results)
    share = statistics.median(r[1] for r in results)
    print(f"batched: linear vs ev, 2000 nine-hole games on one core: {rate:,.0f} linear decisions per CPU second "
          f"({results[0][2]:,} decisions; {share:.0%} of the time in the policy; median of {runs}: "
          f"{[round(r[0]) for r in results]})")


def vector(runs: int) -> None:
    import gymnasium

    import golfsim.interop.gymnasium  # noqa: F401 -- registers golfsim/Golf-v0

    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=8, opponents=["greedy"])
    venv.reset(seed=0)

    def one_run():
        steps = 0
        start, cpu = time.perf_counter(), time.process_time()
        while steps < 80_000:
            venv.step(venv.action_space.sample())
            steps += 8
        return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)

    results = [one_run() for _ in range(runs)]
    rate = statistics.median(r[0] for r in results)
    cpu_rate = statistics.median(r[1] for r in results)
    print(f"vector: make_vec, 8 envs against greedy, masked random actions: {rate:,.0f} steps per second, "
          f"{cpu_rate:,.0f} per CPU second (median of {runs}: {[round(r[0]) for r in results]}, "
          f"{[round(r[1]) for r in results]})")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="scaling,overhead,batched,vector")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of scaling's second run (default 2)")
    args = parser.parse_args(argv)
    if args.workers < 2:
        parser.error("--workers must be at least 2")
    for name in args.only.split(","):
        name = name.strip()
        if name == "scaling":
            scaling(args.runs, args.workers)
        else:
            {"overhead": overhead, "batched": batched, "vector": vector}[name](args.runs)
        sys.stdout.flush()


if __name__ == "__main__":
    main()
