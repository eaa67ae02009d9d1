"""The four ways into a game agree: GolfEnv, the PettingZoo env, the Gymnasium env and the OpenSpiel game deal the
same cards from the same seed and score a scripted sequence of actions the same.

In the Gymnasium env only one seat is scripted (bots play the others); its scripted games are checked against
``golfsim.game.env.play_game``, which plays through GolfEnv, in ``test_gymnasium.py``.
"""

import gymnasium
import numpy as np
import pyspiel
import pytest

import golfsim.interop.gymnasium  # noqa: F401 -- registers golfsim/Golf-v0
import golfsim.interop.openspiel  # noqa: F401 -- registers python_golf
from golfsim.core.engine import shuffled_deck, stock_order
from golfsim.core.rng import deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import DISCARD_N, R_OFF_DISCARD, STOCK_N
from golfsim.game.env import GolfEnv
from golfsim.interop.pettingzoo import raw_env

CASES = [
    ({"players": 2}, 3),
    ({"players": 3, "jokers": "minus2", "end": "one_last_turn", "discard_and_flip": "may"}, 17),
    ({"players": 5, "reveal_instead_of_draw": True, "four_of_a_kind_bonus": -10}, 40),
]


def openspiel_game(options):
    params = ",".join(f"{k}={v}" for k, v in options.items())
    return pyspiel.load_game(f"python_golf({params})")


def deck_of_seed(rules, seed):
    """The deck order GolfEnv deals for ``seed`` (game 0, hole 0), top card first."""
    return shuffled_deck(rules.pack(), np.array([deal_state(seed, 0, 0)], dtype=np.uint64))


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_the_same_seed_deals_the_same_cards_everywhere(options, seed):
    rules = Rules(holes=1, **options)
    golf = GolfEnv(rules)
    golf.reset(seed)
    want = golf.snapshot()
    want_deal = (want["layouts"], want["discard"], want["stock"])

    pz = raw_env(**options)
    pz.reset(seed=seed)
    gym = gymnasium.make("golfsim/Golf-v0", opponents=["greedy"] * (rules.players - 1),
                         **{k: v for k, v in options.items() if k != "players"})
    gym.reset(seed=seed)
    state = openspiel_game(options).new_initial_state()
    for card in deck_of_seed(rules, seed):
        state.apply_action(int(card))

    for m in (pz.match, gym.unwrapped.match, state):
        layouts = [m.hid[6 * i: 6 * i + 6].tolist() for i in range(rules.players)]
        od = int(m.packed[R_OFF_DISCARD])
        discard = [int(c) for c in m.pub[od: od + int(m.pub[DISCARD_N])]]
        stock = stock_order(m.hid, m.packed, m.deal_rng, int(m.pub[STOCK_N])).tolist()
        assert (layouts, discard, stock) == want_deal


def scripted_actions(rules, seed, rng_seed):
    """A sequence of legal actions for the whole deal, chosen at random in GolfEnv, and the scores it gives."""
    golf = GolfEnv(rules)
    golf.reset(seed)
    rng = np.random.default_rng(rng_seed)
    actions = []
    while not golf.done:
        actions.append(int(rng.choice(golf.legal_actions())))
        golf.step(actions[-1])
    return actions, golf.scores()


@pytest.mark.parametrize(("options", "seed"), CASES)
def test_a_scripted_sequence_scores_the_same_everywhere(options, seed):
    rules = Rules(holes=1, **options)
    for rng_seed in range(3):
        actions, scores = scripted_actions(rules, seed, rng_seed)
        assert len(actions) > 2 * rules.players

        pz = raw_env(**options)
        pz.reset(seed=seed)
        got = dict.fromkeys(pz.possible_agents, 0.0)
        for action in actions:
            pz.step(action)
            for agent, reward in pz.rewards.items():
                got[agent] += reward
        assert all(pz.terminations.values())
        assert [-got[a] for a in pz.possible_agents] == scores

        state = openspiel_game(options).new_initial_state()
        for card in deck_of_seed(rules, seed):
            state.apply_action(int(card))
        for action in actions:
            state.apply_action(action)
        assert state.is_terminal()
        assert state.returns() == [-float(s) for s in scores]
