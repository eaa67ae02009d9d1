"""ev's value of every action (the ev column of a hint) agrees with the action ev plays."""

import numpy as np
import pytest

from golfsim.agents.expected_value import PARAMS, ev_act, ev_action_values
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, FLIP, NUM_ACTIONS, OPEN, PASS, PHASE, THROW_DRAWN
from golfsim.game.game import Game

VARIANTS = {
    "default": Rules(),
    "one-last-turn-3p": Rules(players=3, end="one_last_turn"),
    "bonus-jokers": Rules(jokers="minus2", four_of_a_kind_bonus=-10),
    "reveal-may-flip": Rules(reveal_instead_of_draw=True, discard_and_flip="may"),
    "must-flip-keep-twos": Rules(players=4, discard_and_flip="must", twos_pair="keep_negative", jokers="minus5"),
}


def tie_order(action):
    """ev's tie-breaks: the draw before taking the discard, the throw before placing, a flip before a pass; then the
    lowest position (lowest id within each kind)."""
    return (0 if action in (DRAW_STOCK, THROW_DRAWN) else 2 if action == PASS else 1, action)


@pytest.mark.parametrize("rules", VARIANTS.values(), ids=VARIANTS.keys())
@pytest.mark.slow
def test_ev_plays_the_action_it_values_best(rules):
    packed = rules.pack()
    params = np.array([p.default for p in PARAMS])
    values = np.zeros(NUM_ACTIONS)
    compared = 0
    for seed in range(8):
        game = Game(rules, seed)
        game.start_hole()
        rng = np.random.default_rng(seed)
        while not game.hole_over:
            p = game.current_player
            choice = int(ev_act(game.pub, packed, params, np.zeros(1, np.uint64), p))
            if game.pub[PHASE] != OPEN:
                ev_action_values(game.pub, packed, params, p, values)
                legal = game.legal_actions()
                assert all(np.isnan(values[a]) for a in range(NUM_ACTIONS) if a not in legal)
                valued = [a for a in legal if not np.isnan(values[a])]
                if valued:
                    assert choice in valued
                    best = min(valued, key=lambda a: (values[a], tie_order(a)))
                    assert values[choice] == values[best], (choice, best, values[valued])
                    compared += 1
                else:  # only the flips after a throw with two or more cards face down are not valued
                    assert all(FLIP <= a <= PASS for a in legal)
            # ev plays seat 0, the others play at random, so that the positions vary
            game.step(choice if p == 0 else int(rng.choice(game.legal_actions())))
    assert compared > 100
