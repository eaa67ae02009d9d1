"""Benchmarks of the game object and the decision logs (the numbers in docs/performance.md come from here).

``python -m benchmarks.bench_game step`` times compiled bots called from the step API; ``python -m benchmarks.bench_game
log [DEAL_SETS [THREADS]]`` times a tournament with and without ``--log`` (medians of 5 alternating runs) and
measures the log's size and the run's peak memory.
"""

from __future__ import annotations

import sys
import time

from benchmarks.bench_tasks import print_result
from golfsim.core.rules import Rules
from golfsim.game.env import GolfEnv


def step_api_per_decision(agent: str = "ev", decisions: int = 20_000, seed: int = 1) -> dict:
    """Microseconds per decision of ``agent`` playing every seat through :class:`GolfEnv`: its decision plus the
    step, and the decision alone."""
    env = GolfEnv(Rules())
    bot = env.agent(agent, seat=0, seed=seed)
    env.reset(seed)
    bot.act(env, env.current_player)  # compile or load from the cache
    done, game = 0, 0
    start = time.perf_counter()
    while done < decisions:
        env.reset(seed, game=game)
        game += 1
        while not env.done:
            env.step(bot.act(env, env.current_player))
            done += 1
    both = (time.perf_counter() - start) / done
    env.reset(seed)
    start = time.perf_counter()
    for _ in range(decisions):
        bot.act(env, env.current_player)
    alone = (time.perf_counter() - start) / decisions
    return {"agent": agent, "decisions": done, "decide_and_step_us": both * 1e6, "decide_us": alone * 1e6}


def tournament_with_and_without_log(games: int = 20_000, agents: str = "ev,greedy", threads: int | None = None,
                                    path: str = "decisions.parquet", repeats: int = 5) -> dict:
    """Seconds of the same tournament unlogged and logged (medians of ``repeats`` runs after a warm-up, the two
    alternating so that a change in the machine's load touches both), their ratio, the log's bytes per decision and
    this process's peak resident memory."""
    import os
    import resource

    from benchmarks.bench_tasks import alternate_runs
    from golfsim.logs.trace import read_log
    from golfsim.tournament import run_tournament, split_agents

    pool = split_agents(agents)
    runs = alternate_runs(lambda: run_tournament(pool, Rules(), games, 0, threads=threads),
                          lambda: run_tournament(pool, Rules(), games, 0, threads=threads, log=path), repeats)
    log = read_log(path)
    decisions = log.meta["rows"] - log.meta["deal_sets"] * len(log.meta["seatings"]) * log.rules.holes
    return {"games": games * len(pool), "unlogged_s": runs["first_s"], "logged_s": runs["second_s"],
            "speed_ratio": runs["ratio"], "ratios": runs["ratios"],
            "decisions": decisions, "bytes_per_decision": os.path.getsize(path) / decisions,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "load_1min": runs["load_1min"]}


def main(argv: list[str]) -> None:
    what = argv[0] if argv else "step"
    if what == "step":
        for agent in ("random", "greedy", "pair-builder", "ev"):
            r = step_api_per_decision(agent)
            print(f"{agent:13s} decide+step {r['decide_and_step_us']:6.1f} us   decide {r['decide_us']:5.1f} us")
    elif what == "log":
        games = int(argv[1]) if len(argv) > 1 else 20_000
        threads = int(argv[2]) if len(argv) > 2 else None
        r = tournament_with_and_without_log(games, threads=threads)
        print_result(r)
    else:
        raise SystemExit(f"unknown benchmark {what!r}; choose step or log")


if __name__ == "__main__":  # pragma: no cover
    main(sys.argv[1:])
