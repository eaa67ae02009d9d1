"""The counting kernel plays the batch simulator's games and counts decisions and legal moves correctly."""

import numpy as np
import pytest

from golfsim.core.rules import Rules
from golfsim.game.game import Game, make_agents
from golfsim.kernels.counted import play_counted
from golfsim.kernels.simulate import Table, simulate


@pytest.mark.parametrize(("seats", "rules"), [
    (("ev", "greedy"), Rules(players=2)),
    (("random", "greedy", "ev"), Rules(players=3, discard_and_flip="may", reveal_instead_of_draw=True)),
])
def test_the_counted_games_are_the_simulators_games(seats, rules):
    table = Table.make(list(seats), rules)
    counted = play_counted(table, 40, seed=7, first_game=3)
    plain = simulate(list(seats), rules, games=40, seed=7, first_game=3, threads=1)
    n, holes, players = counted.hole_scores.shape
    expect = np.stack([plain.deals[f"score_{p}"].to_numpy().reshape(n, holes) for p in range(players)], axis=2)
    np.testing.assert_array_equal(counted.hole_scores, expect)
    np.testing.assert_array_equal(counted.turns, plain.deals["turns"].to_numpy().reshape(n, holes))
    assert (counted.choices <= counted.decisions).all() and (counted.decisions <= counted.legal).all()
    # every turn is at least one decision (taking the discard names the position at once)
    assert (counted.decisions >= counted.turns).all()


def _counted_by_the_step_api(seats, rules, seed, game):
    """Decisions, legal moves and choices of every deal of one game, counted in Python with :class:`Game`."""
    g = Game(rules, seed, game=game)
    agents = make_agents(list(seats), rules)
    for p, seat in enumerate(agents):
        seat.reset(seed, game, p)
    out = []
    while not g.over:
        g.start_hole()
        decisions = legal = choices = 0
        while not g.hole_over:
            k = len(g.legal_actions())
            decisions, legal, choices = decisions + 1, legal + k, choices + (k > 1)
            p = g.current_player
            g.step(agents[p].act(g, p))
        out.append((decisions, legal, choices))
    return np.array(out)


def test_the_counts_match_a_count_made_with_the_step_api():
    seats, rules = ("ev", "random"), Rules(players=2, holes=3, discard_and_flip="may")
    counted = play_counted(Table.make(list(seats), rules), 5, seed=11)
    for game in range(5):
        expect = _counted_by_the_step_api(seats, rules, 11, game)
        got = np.stack([counted.decisions[game], counted.legal[game], counted.choices[game]], axis=1)
        np.testing.assert_array_equal(got, expect)
