"""Speed of the framework adapters: ``python -m benchmarks.bench_interop [--steps N] [--opponent ev]``.

- Gymnasium: ``golfsim/Golf-v0`` steps per second, one learner against one bot (``ev`` by default), the learner
  choosing a uniformly random legal action; every step includes the bots' turns until the learner moves again.
- PettingZoo: agent steps per second of the AEC environment (two players), the standard loop
  ``for agent in env.agent_iter(): env.last(); env.step(...)`` with random legal actions.

Everything runs on one thread (the adapters never use more). Numbers are the best of three timed runs after a
warm-up (which also loads the compiled code).
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def gymnasium_steps_per_second(steps: int, opponent: str = "ev", seed: int = 0) -> float:
    import gymnasium

    import golfsim.interop.gymnasium  # noqa: F401 -- registers golfsim/Golf-v0

    env = gymnasium.make("golfsim/Golf-v0", opponents=[opponent]).unwrapped
    picks = np.random.default_rng(seed).integers(0, 1 << 30, size=steps)
    obs, _ = env.reset(seed=seed)
    start = time.perf_counter()
    for i in range(steps):
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, terminated, truncated, _ = env.step(int(legal[picks[i] % len(legal)]))
        if terminated or truncated:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def pettingzoo_steps_per_second(steps: int, seed: int = 0) -> float:
    from golfsim.interop.pettingzoo import env as make_env

    env = make_env(players=2)
    picks = np.random.default_rng(seed).integers(0, 1 << 30, size=steps)
    env.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[picks[done % steps] % len(legal)]))
            done += 1
            if done >= steps:
                break
        env.reset()
    return done / (time.perf_counter() - start)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_interop", description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000, help="steps per timed run (default 50000)")
    parser.add_argument("--opponent", default="ev", help="the Gymnasium env's bot (default ev)")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error("--steps must be at least 1")
    gymnasium_steps_per_second(2000, args.opponent)  # warm-up: loads the compiled code
    pettingzoo_steps_per_second(2000)
    gym = max(gymnasium_steps_per_second(args.steps, args.opponent, seed=s) for s in range(3))
    pz = max(pettingzoo_steps_per_second(args.steps, seed=s) for s in range(3))
    print(f"gymnasium golfsim/Golf-v0 vs {args.opponent}: {gym:,.0f} steps/s (one thread)")
    print(f"pettingzoo AEC, 2 players: {pz:,.0f} agent steps/s (one thread)")


if __name__ == "__main__":
    main()
