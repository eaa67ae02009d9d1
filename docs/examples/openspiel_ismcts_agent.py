"""An OpenSpiel bot at a golfsim table: information-set MCTS as a plain-Python agent (needs ``golfsim[rl]``).

Importing this file registers the agent ``ismcts`` (parameters ``simulations``, ``uct_c``, ``rollouts``): OpenSpiel's
``ISMCTSBot`` searching the game ``python_golf``, its leaves valued by compiled ``greedy`` bots finishing the hole
(:class:`golfsim.interop.openspiel.RolloutEvaluator`). A tournament seats it like any agent, with the statistics,
seat rotations, progress bar, Ctrl-C safety and worker processes of compiled ones::

    GOLFSIM_AGENT_MODULES=docs/examples/openspiel_ismcts_agent.py \
        golfsim tournament --agents ismcts:simulations=50,greedy --holes 1 --games 20

Every game starts from a seed of its own (the seat's agent stream, through the policy's ``reset``), so the same
seed gives the same tournament on one worker or many. From Python::

    from golfsim.agents.plugins import load_module
    from golfsim.core.rules import Rules
    from golfsim.tournament import run_tournament

    load_module("docs/examples/openspiel_ismcts_agent.py")
    run_tournament(["ismcts:simulations=50", "greedy"], Rules(players=2, holes=1), games=20)

Run it as a script for the same duplicate-deal match against a built-in: every deal set is played twice, the bot in
each seat, and the table shows mean points per hole with a 95% interval over the deal sets::

    python docs/examples/openspiel_ismcts_agent.py --opponent greedy --deals 20 --simulations 50
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from open_spiel.python.algorithms import ismcts

from golfsim.agents import Param, register_python_agent
from golfsim.agents.plugins import ENV_VAR
from golfsim.core.rules import Rules
from golfsim.interop.openspiel import RolloutEvaluator, openspiel_policy, seeded_resampler
from golfsim.tournament import run_tournament


class IsmctsAgent:
    """The policy: an ``ISMCTSBot`` for the rules of the table, made afresh with the game's own seed by ``reset``."""

    def __init__(self, params: dict):
        self.params = params
        self.seed = 0
        self.policies: dict = {}

    def reset(self, seed: int, game: int, seat: int) -> None:
        """A new game: the bot's search, resampling and rollouts all start from ``seed`` (the seat's stream)."""
        self.seed = int(seed) % 2**32
        self.policies.clear()

    def _bot_maker(self, rules: Rules):
        params, seed = self.params, self.seed

        def make_bot(game):
            evaluator = RolloutEvaluator(rules, "greedy", n_rollouts=int(params["rollouts"]), seed=seed)
            bot = ismcts.ISMCTSBot(game, evaluator, uct_c=params["uct_c"], max_simulations=int(params["simulations"]),
                                   random_state=np.random.RandomState(seed))
            bot.set_resampler(seeded_resampler(seed))  # reproducible: the same seed, the same decisions
            return bot

        return make_bot

    def __call__(self, observation: dict) -> int:
        rules = observation["rules"]
        if rules not in self.policies:
            self.policies[rules] = openspiel_policy(self._bot_maker(rules), rules, seed=self.seed)
        return self.policies[rules](observation)


def make_ismcts(params: dict) -> IsmctsAgent:
    """The plain-Python agent factory: ``params`` holds the parameters with the user's values."""
    return IsmctsAgent(params)


if "ismcts" not in __import__("golfsim.agents", fromlist=["REGISTRY"]).REGISTRY:
    register_python_agent(
        "ismcts", "OpenSpiel's information-set MCTS, leaves valued by greedy rollouts (needs golfsim[rl])",
        make_ismcts,
        params=(Param("simulations", 100.0, "searches per decision", 10, 400, "int"),
                Param("uct_c", 10.0, "exploration constant (returns are minus points, tens per hole)", 1, 40),
                Param("rollouts", 1.0, "greedy rollouts per leaf", 1, 8, "int")),
    )


def duplicate_match(opponent: str, deals: int, simulations: int, seed: int = 0, threads: int | None = None) -> dict:
    """``ismcts`` against ``opponent`` on ``deals`` deal sets, each played from both seats (one hole each): a
    golfsim tournament. Returns ``(mean, low, high)`` per player and for the margin, in points per hole."""
    bot = f"ismcts:simulations={simulations}"
    result = run_tournament([bot, opponent], Rules(players=2, holes=1), games=deals, seed=seed, threads=threads)
    rows = result.standings.set_index("agent")
    pair = result.head_to_head.set_index(["agent", "opponent"]).loc[(bot, opponent)]

    def interval(agent):
        return rows.loc[agent, "mean_score"], rows.loc[agent, "mean_score_low"], rows.loc[agent, "mean_score_high"]

    return {"ismcts": interval(bot), opponent: interval(opponent),
            "margin": (pair["mean_diff"], pair["mean_diff_low"], pair["mean_diff_high"])}


def main(argv=None):
    parser = argparse.ArgumentParser(description="ISMCTS (OpenSpiel) against a golfsim bot on duplicate deals")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None, help="worker processes (default: every core)")
    args = parser.parse_args(argv)
    # worker processes load the agent modules GOLFSIM_AGENT_MODULES names: this file among them
    known = os.environ.get(ENV_VAR, "")
    os.environ[ENV_VAR] = ",".join(filter(None, [known, os.path.abspath(__file__)]))
    result = duplicate_match(args.opponent, args.deals, args.simulations, args.seed, args.threads)
    print(f"{args.deals} deal sets x 2 seats, seed {args.seed}, {args.simulations} simulations per decision")
    for name, (mean, low, high) in result.items():
        label = f"{name} (ismcts minus {args.opponent})" if name == "margin" else name
        print(f"  {label}: {mean:.2f} points per hole (95% interval {low:.2f} to {high:.2f})")


if __name__ == "__main__":
    main()
