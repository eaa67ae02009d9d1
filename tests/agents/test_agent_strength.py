"""Strength on duplicate deals: the stronger agent's game totals are lower, by more than chance allows.

Each comparison plays two runs with the same seed, so game ``g`` deals the very same cards in both (the deal stream
depends only on the seed, the game and the hole). Seat 0 holds the tested agent in one run and the baseline in the
other; every other seat holds the same fixed opponent (greedy) in both. The paired differences of seat 0's 9-hole
totals, game by game, remove the luck of the deal that both runs share, and the 99% t interval of their mean must
lie below zero: the margin comes from the sample, not from a guessed threshold.
"""

import numpy as np
import pytest

from golfsim.rules import Rules
from golfsim.simulate import simulate
from golfsim.stats import paired_difference

OPPONENT = "greedy"
SEED = 2024
GAMES = 400
COMPARISONS = [("ev", "greedy"), ("greedy", "random"), ("pair-builder", "random")]


def seat_zero_totals(agent: str, players: int) -> np.ndarray:
    result = simulate([agent] + [OPPONENT] * (players - 1), Rules(players=players), games=GAMES, seed=SEED)
    seat = result.players[result.players["seat"] == 0].sort_values("game")
    assert result.truncated_deals == 0
    return seat["total"].to_numpy()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("better, worse", COMPARISONS, ids=[f"{a}<{b}" for a, b in COMPARISONS])
def test_scores_lower_on_identical_deals(better, worse, players):
    diff = paired_difference(seat_zero_totals(better, players), seat_zero_totals(worse, players), confidence=0.99)
    assert diff["n"] == GAMES
    assert diff["high"] < 0, f"{better} - {worse} at {players} players: {diff}"


def test_a_run_is_reproduced_exactly_from_its_seed():
    # with the same agents, both runs are the same games: every total matches
    assert np.array_equal(seat_zero_totals("greedy", 2), seat_zero_totals("greedy", 2))
