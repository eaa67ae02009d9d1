"""Every built-in agent plays every rule option, alone and in combinations, without an illegal action or a
truncated deal: in every seat, and mixed with random players (whose odd layouts reach odd positions)."""

import pytest

from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate

AGENTS = ["greedy", "ev", "pair-builder", "learned"]
GAMES = 1500  # two-hole games, so the dealer moves and game totals are in play
VARIANTS = {
    "default": Rules(holes=2),
    "5 players, 2 decks": Rules(players=5, holes=2),
    "2 players, 3 decks": Rules(decks=3, holes=2),
    "jokers minus2": Rules(jokers="minus2", holes=2),
    "jokers minus5": Rules(jokers="minus5", holes=2),
    "jokers minus3": Rules(jokers="minus3", holes=2),
    "jokers zero": Rules(jokers="zero", holes=2),
    "same_column": Rules(opening_flips="same_column", holes=2),
    "different_columns": Rules(opening_flips="different_columns", holes=2),
    "reveal_instead_of_draw": Rules(reveal_instead_of_draw=True, holes=2),
    "discard_and_flip may": Rules(discard_and_flip="may", holes=2),
    "discard_and_flip must": Rules(discard_and_flip="must", holes=2),
    "one_last_turn": Rules(end="one_last_turn", holes=2),
    "twos keep_negative": Rules(twos_pair="keep_negative", holes=2),
    "four_of_a_kind_bonus -10": Rules(four_of_a_kind_bonus=-10, holes=2),
    "four_of_a_kind_bonus +5": Rules(four_of_a_kind_bonus=5, holes=2),
    "last turn, reveal, must, jokers -5, bonus, twos -4, same column": Rules(
        players=3, end="one_last_turn", reveal_instead_of_draw=True, discard_and_flip="must", jokers="minus5",
        four_of_a_kind_bonus=-10, twos_pair="keep_negative", opening_flips="same_column", holes=2),
    "last turn, may, jokers -2, different columns, 2 decks": Rules(
        players=4, end="one_last_turn", discard_and_flip="may", jokers="minus2", opening_flips="different_columns",
        decks=2, holes=2),
    "reveal, may, 9 players": Rules(players=9, reveal_instead_of_draw=True, discard_and_flip="may", holes=2),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("agent", AGENTS)
def test_plays_every_variant_legally(agent, variant):
    rules = VARIANTS[variant]
    mixed = [agent if seat % 2 == 0 else "random" for seat in range(rules.players)]
    for seats in ([agent] * rules.players, mixed):
        result = simulate(seats, rules, games=GAMES, seed=17)  # raises IllegalActionError on an illegal action
        assert result.truncated_deals == 0, f"{seats} under {variant}"
        assert len(result.deals) == GAMES * rules.holes
