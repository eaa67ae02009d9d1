"""learned's two compiled copies against each other: the plain one (no one-eyed jack checks) and the general one.

Under rules without ``one_eyed_jacks`` the registry plays ``learned_act_plain``; this registers the general
``learned_act`` under a second name and times the two alternately in one process, on the same deals, one thread,
counting the thread's own processor time, so the ratio is measured in one run even on a shared machine::

    python -m benchmarks.bench_learned_copies --deals 100000 --repeats 5 --model 1 --end immediate
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from golfsim.agents import REGISTRY, register_compiled_agent
from golfsim.agents.learned import PARAMS, learned_act
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import Table, iter_batches

GENERAL = "learned-general"


def deals_per_cpu_second(agent: str, rules: Rules, deals: int, seed: int) -> float:
    table = Table.make([agent, agent], rules)
    start = time.thread_time()
    for _ in iter_batches(table, deals, seed=seed, batch_size=deals, threads=1):
        pass
    return deals / (time.thread_time() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_learned_copies",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--model", type=int, choices=(1, 2), default=1)
    parser.add_argument("--end", choices=("immediate", "one_last_turn"), default="immediate")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeats < 1:
        parser.error("--deals and --repeats must be at least 1")
    if GENERAL not in REGISTRY:
        register_compiled_agent(GENERAL, "learned's general copy (benchmark only)", learned_act, params=PARAMS)
    rules = Rules(holes=1, end=args.end)
    agents = {"plain": f"learned:model={args.model}", "general": f"{GENERAL}:model={args.model}"}
    for agent in agents.values():
        deals_per_cpu_second(agent, rules, 200, 0)  # compile or load from the cache
    runs: dict[str, list[float]] = {k: [] for k in agents}
    for r in range(args.repeats):
        for k, agent in agents.items():
            runs[k].append(deals_per_cpu_second(agent, rules, args.deals, r))
    ratios = [p / g for p, g in zip(runs["plain"], runs["general"], strict=True)]
    print(json.dumps({"model": args.model, "end": args.end, "deals": args.deals,
                      "plain_deals_per_cpu_second": [round(x) for x in runs["plain"]],
                      "general_deals_per_cpu_second": [round(x) for x in runs["general"]],
                      "ratio_by_round": [round(x, 3) for x in ratios],
                      "ratio_median": round(statistics.median(ratios), 3)}))


if __name__ == "__main__":
    main()
