"""``golfsim cache-warm``: compile (or load from the cache) everything a first run needs, up front.

Each step plays a tiny workload under the default rules, so Numba compiles what that kind of run uses and caches it
(`golfsim._numba.jit`); later commands then start at once. Rule options that pick a compiled variant of an agent
(e.g. a four-of-a-kind bonus for ev) compile that variant on their first use.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

__all__ = ["STEPS", "warm"]


def _tournament_agents():
    from golfsim.core.rules import Rules
    from golfsim.kernels.simulate import simulate

    simulate(["ev", "pair-builder"], Rules(holes=1), games=2, seed=0, threads=1)


def _fast_kernels():
    from golfsim.core.rules import Rules
    from golfsim.kernels.simulate import simulate

    for seats in (["greedy", "greedy"], ["random", "random"], ["greedy", "random"]):
        simulate(seats, Rules(holes=1), games=2, seed=0, threads=1)


def _step_api():
    from golfsim.game.env import play_game

    play_game(["greedy", "random"], seed=0)


def _decision_log():
    from golfsim.core.rules import Rules
    from golfsim.logs.trace import log_games

    with tempfile.TemporaryDirectory() as folder:
        log_games(["ev", "greedy"], Path(folder) / "warm.parquet", Rules(holes=1), games=1, seed=0)


def _search():
    from golfsim.coach.hint import hint
    from golfsim.coach.position import Position
    from golfsim.core.rules import Rules

    rules = Rules()
    where = Position.parse("me: 5 ? ? / K ? 2; opp: ? 7 ? / ? ? ?; discard: 9 3; drawn: Q")
    hint(where.to_pub(rules), rules, samples=2, seed=0)


def _learned_and_tips():
    from golfsim.core.rules import Rules
    from golfsim.experiments.tips import TIPS
    from golfsim.kernels.simulate import simulate

    agents = ["learned"] + sorted({tip.agent(on) for tip in TIPS for on in (True, False)})
    for agent in agents:  # each tip's switch on and off: a variant of its agent compiled for it
        simulate([agent, "greedy"], Rules(holes=1), games=1, seed=0, threads=1)


STEPS = (
    ("the agents and game kernel of tournaments, experiments and sweeps (ev, pair-builder)", _tournament_agents),
    ("the greedy and random kernels (bench, self-play)", _fast_kernels),
    ("the step-by-step game (golfsim play, GolfEnv, the RL adapters)", _step_api),
    ("the decision log (tournament --log, golfsim replay)", _decision_log),
    ("the search (golfsim hint, the mc agent)", _search),
    ("the learned player and the agents of experiment tips", _learned_and_tips),
)
"""What ``golfsim cache-warm`` compiles, in order: (what a person reads, the workload)."""


def warm(say=print) -> list[dict]:
    """Run every step of `STEPS`; return one record per step: ``step``, ``seconds`` and ``compiles`` (the
    functions Numba compiled; 0 when everything came from the cache)."""
    from golfsim.runs import compile_notice

    compile_notice.watch()
    done = []
    for what, run in STEPS:
        before, start = compile_notice.compiles(), time.perf_counter()
        run()
        record = {"step": what, "seconds": time.perf_counter() - start,
                  "compiles": compile_notice.compiles() - before}
        done.append(record)
        how = f"compiled {record['compiles']} functions" if record["compiles"] else "loaded from the cache"
        say(f"{what}: {how} in {record['seconds']:.1f} s")
    return done
