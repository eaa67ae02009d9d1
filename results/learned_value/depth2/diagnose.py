"""Diagnosis of learned's depth 2: every decision of seat 0 in self-play deals of learned against learned (seed 777,
one hole each), depth 1's choice against depth 2's, and both values of depth 1's choice against the deal's outcome.

It needs agents/learned/deep.py, removed after it ran: run it at commit 7548bfb, from the repository's root:
``python results/learned_value/depth2/diagnose.py immediate 400 0`` (0: raw depth-2 values; 1: leveled by the
player's face-down cards after the move). It is a tidied copy of the script whose output README.md quotes (same
decisions, same arithmetic).
"""

import sys

import numpy as np

from golfsim.agents.learned import WEIGHTS
from golfsim.agents.learned.deep import deep_values
from golfsim.agents.learned.policy import action_values
from golfsim.core.rules import Rules
from golfsim.core.spec import HOLD, NUM_ACTIONS, PHASE, START
from golfsim.game.game import CompiledAgent, Game


def ends(game, action):
    trial = game.clone()
    trial.step(action)
    return trial.hole_over


def main(end, deals, leveled):
    rules = Rules(holes=1, end=end)
    agent = CompiledAgent("learned", rules)
    v1 = np.zeros(NUM_ACTIONS)
    v2 = np.zeros(NUM_ACTIONS)
    rows = []  # per decision: both choices, whether each ends the deal, V1 and V2 of depth 1's choice, outcome
    for g in range(deals):
        game = Game(rules, seed=777, game=g)
        game.start_hole()
        agent.reset(777, g, 0)
        agent.reset(777, g, 1)
        decisions = []
        while not game.hole_over:
            p = game.current_player
            a = agent.act(game, p)
            if p == 0 and int(game.pub[PHASE]) in (START, HOLD):
                action_values(game.pub, game.packed, WEIGHTS, p, v1)
                deep_values(game.pub, game.packed, WEIGHTS, p, v2, leveled)
                a2 = int(np.argmin(np.where(np.isnan(v2), np.inf, v2)))
                decisions.append([a, a2, ends(game, a), ends(game, a2), v1[a], v2[a]])
            game.step(a)
        s = game.scores
        rows += [d + [s[0] - s[1]] for d in decisions]
    arr = np.array(rows, dtype=float)
    print("decisions", len(arr), "disagree share", (arr[:, 0] != arr[:, 1]).mean())
    print("d2 ends where d1 does not", ((arr[:, 3] == 1) & (arr[:, 2] == 0)).sum(),
          " d1 ends where d2 does not", ((arr[:, 2] == 1) & (arr[:, 3] == 0)).sum())
    nt = arr[:, 2] == 0

    def ci(x):
        return f"{x.mean():+.3f} +- {1.96 * x.std(ddof=1) / np.sqrt(len(x)):.3f} (n={len(x)})"

    print("d1's non-ending choice: V1 - outcome", ci(arr[nt, 4] - arr[nt, 6]),
          " V2 - outcome", ci(arr[nt, 5] - arr[nt, 6]))
    print("V2 - V1 on d1's non-ending choice", ci(arr[nt, 5] - arr[nt, 4]))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1")
