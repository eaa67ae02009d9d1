"""An OpenSpiel bot at a golfsim table: information-set MCTS as a plain-Python agent (needs ``golfsim[rl]``).

Importing this file registers the agent ``ismcts`` (parameters ``simulations``, ``uct_c``, ``rollouts``): OpenSpiel's
``ISMCTSBot`` searching the game ``python_golf``, its leaves valued by compiled ``greedy`` bots finishing the hole
(:class:`golfsim.interop.openspiel.RolloutEvaluator`). It plays through the step API like any plain-Python agent
(the batch simulator and ``golfsim tournament`` take compiled agents only)::

    from golfsim.agents.plugins import load_module
    from golfsim.game.env import play_game
    from golfsim.core.rules import Rules

    load_module("docs/examples/openspiel_ismcts_agent.py")
    play_game(["ismcts:simulations=50", "greedy"], Rules(players=2, holes=1), seed=1)

Run it as a script for a small duplicate-deal match against a built-in: every deal set is played twice, the bot in
each seat, and the table shows mean points per hole with a 95% interval over the deal sets::

    python docs/examples/openspiel_ismcts_agent.py --opponent greedy --deals 20 --simulations 50
"""

from __future__ import annotations

import argparse

import numpy as np
from open_spiel.python.algorithms import ismcts

from golfsim import stats
from golfsim.agents import Param, register_python_agent
from golfsim.core.rules import Rules
from golfsim.game.env import play_game
from golfsim.interop.openspiel import RolloutEvaluator, openspiel_policy, seeded_resampler


def make_ismcts(params: dict):
    """The plain-Python agent factory: ``params`` holds the parameters with the user's values."""
    policies = {}  # one bot per rule set, built when the agent first sits at such a table

    def ismcts_agent(observation: dict) -> int:
        rules = observation["rules"]
        if rules not in policies:
            def make_bot(game):
                evaluator = RolloutEvaluator(rules, "greedy", n_rollouts=int(params["rollouts"]), seed=0)
                bot = ismcts.ISMCTSBot(game, evaluator, uct_c=params["uct_c"],
                                       max_simulations=int(params["simulations"]),
                                       random_state=np.random.RandomState(0))
                bot.set_resampler(seeded_resampler(0))  # reproducible: the same seed, the same decisions
                return bot

            policies[rules] = openspiel_policy(make_bot, rules, seed=0)
        return policies[rules](observation)

    return ismcts_agent


if "ismcts" not in __import__("golfsim.agents", fromlist=["REGISTRY"]).REGISTRY:
    register_python_agent(
        "ismcts", "OpenSpiel's information-set MCTS, leaves valued by greedy rollouts (needs golfsim[rl])",
        make_ismcts,
        params=(Param("simulations", 100.0, "searches per decision"),
                Param("uct_c", 10.0, "exploration constant (returns are minus points, tens per hole)"),
                Param("rollouts", 1.0, "greedy rollouts per leaf")),
    )


def duplicate_match(opponent: str, deals: int, simulations: int, seed: int = 0) -> dict:
    """``ismcts`` against ``opponent`` on ``deals`` deal sets, each played from both seats (one hole each)."""
    rules = Rules(players=2, holes=1)
    bot = f"ismcts:simulations={simulations}"
    mine, theirs = np.zeros((deals, 2)), np.zeros((deals, 2))
    for g in range(deals):
        for seat in range(2):
            table = [opponent, opponent]
            table[seat] = bot
            result = play_game(table, rules, seed=seed, game=g)
            mine[g, seat] = result["totals"][seat]
            theirs[g, seat] = result["totals"][1 - seat]
    return {"ismcts": stats.mean_ci(mine.mean(axis=1)), opponent: stats.mean_ci(theirs.mean(axis=1)),
            "margin": stats.mean_ci((mine - theirs).mean(axis=1))}


def main(argv=None):
    parser = argparse.ArgumentParser(description="ISMCTS (OpenSpiel) against a golfsim bot on duplicate deals")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    result = duplicate_match(args.opponent, args.deals, args.simulations, args.seed)
    print(f"{args.deals} deal sets x 2 seats, seed {args.seed}, {args.simulations} simulations per decision")
    for name, (mean, low, high) in result.items():
        label = f"{name} (ismcts minus {args.opponent})" if name == "margin" else name
        print(f"  {label}: {mean:.2f} points per hole (95% interval {low:.2f} to {high:.2f})")


if __name__ == "__main__":
    main()
