"""Every built-in agent, and learned, plays a million deals under every variant with no illegal action and no
truncated deal."""

import pytest

from golfsim.agents import REGISTRY
from golfsim.core.rules import TRUNCATED, Rules
from golfsim.kernels.simulate import Table, iter_batches

BUILT_IN = sorted(name for name, spec in REGISTRY.items() if spec.built_in or spec.kind == "learned")
DEALS = 1_000_000
pytestmark = pytest.mark.slow  # a soak: sixty million deals
VARIANTS = {
    "default": Rules(holes=1),
    "4 players": Rules(players=4, holes=1),
    "same_column": Rules(opening_flips="same_column", holes=1),
    "different_columns": Rules(opening_flips="different_columns", holes=1),
    "reveal": Rules(reveal_instead_of_draw=True, holes=1),
    "discard_flip_may": Rules(discard_and_flip="may", holes=1),
    "discard_flip_must": Rules(discard_and_flip="must", holes=1),
    "one_last_turn": Rules(end="one_last_turn", holes=1),
    "jokers_minus2": Rules(jokers="minus2", holes=1),
    "jokers_minus5": Rules(jokers="minus5", holes=1),
    "twos_keep_negative": Rules(twos_pair="keep_negative", holes=1),
    "four_kind_bonus": Rules(four_of_a_kind_bonus=-10, holes=1),
    "6 players 2 decks": Rules(players=6, holes=1),
    "combined": Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True, discard_and_flip="must",
                      jokers="minus2", opening_flips="same_column", four_of_a_kind_bonus=-10, holes=1),
    "combined 12 players": Rules(players=12, end="one_last_turn", discard_and_flip="may", jokers="zero", holes=1),
}


@pytest.mark.parametrize("agent", BUILT_IN)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_million_deals_without_illegal_or_truncated_deals(agent, variant):
    rules = VARIANTS[variant]
    # the agent in every seat, so every seat's view of every variant is exercised
    table = Table.make([agent] * rules.players, rules)
    deals = truncated = 0
    for batch in iter_batches(table, DEALS, seed=31, batch_size=250_000):
        deals += batch.reasons.size
        truncated += int((batch.reasons == TRUNCATED).sum())
    assert deals == DEALS
    assert truncated == 0
