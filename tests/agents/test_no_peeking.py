"""No agent peeks: scrambling face-down cards and the stock order changes no decision of any agent.

Agents are handed only the public array, so this holds by construction; the test checks the construction: at every
decision of many games, the decision is asked twice from the same agent stream state, once as dealt and once after
every hidden card has been shuffled among the hidden places.
"""

import random

import numpy as np
import pytest

from agents import REGISTRY, parse_agent
from agents.dispatch import decide
from golfsim.env import GolfEnv
from golfsim.rng import agent_state
from golfsim.rules import R_HID_STOCK, STOCK_N, Rules
from golfsim.simulate import Table

# an agent registered sees_hidden (the oracle) is given the true state on purpose, so it is left out
COMPILED_AGENTS = sorted(name for name, spec in REGISTRY.items() if spec.compiled and not spec.sees_hidden)
VARIANTS = [
    Rules(),
    Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True, discard_and_flip="may"),
    Rules(players=4, jokers="minus2", opening_flips="same_column", discard_and_flip="must"),
]


def scramble_hidden(env: GolfEnv, rng: random.Random) -> None:
    snap = env.snapshot()
    slots = [6 * p + k for p in range(env.rules.players) for k in range(6) if not snap["face_up"][p][k]]
    hs = int(env.packed[R_HID_STOCK])
    slots += list(range(hs, hs + int(env.pub[STOCK_N])))
    cards = [int(env.hid[i]) for i in slots]
    rng.shuffle(cards)
    for slot, card in zip(slots, cards, strict=True):
        env.hid[slot] = card


@pytest.mark.parametrize("agent", COMPILED_AGENTS)
@pytest.mark.parametrize("rules", VARIANTS, ids=["default", "last-turn-reveal-may", "4p-jokers-must"])
def test_scrambling_hidden_cards_changes_no_decision(agent, rules):
    seats = [agent] + ["random"] * (rules.players - 1)
    ids, params, agent_fns = Table.make([parse_agent(a) for a in seats], rules).kernel_arguments()
    env = GolfEnv(rules)
    shuffler = random.Random(5)
    decisions = 0
    for game in range(30):
        agent_rng = np.array([agent_state(1, game, p) for p in range(rules.players)], dtype=np.uint64)
        env.reset(1, game=game)
        while not env.done:
            p = env.current_player
            saved = agent_rng.copy()
            action = decide(ids[p], agent_fns, env.pub, env.packed, params[p], agent_rng, p)
            scramble_hidden(env, shuffler)
            again = decide(ids[p], agent_fns, env.pub, env.packed, params[p], saved, p)
            assert action == again, f"{agent} changed its decision when hidden cards moved\n{env.render()}"
            env.step(int(action))
            decisions += p == 0
    assert decisions > 200
