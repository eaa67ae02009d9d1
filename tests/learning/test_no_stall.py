"""The learned player in every seat under one_last_turn used to cycle until the turn cap in 15 of a million deals
(the million-deal soak, now `golfsim selfcheck`, rule set one_last_turn, seed 31): both seats' last face-down cards
were known to pair their face-up partners, so every move that ends the deal broke a sure pair. These are those
deals, replayed with the shipped model: the deals of that million that pass half of `turn_cap`, where the forced
progress ends them (the model shipped since, made by the same command after the fix, meets the same position in 14
of those 15 deals and in one other, 438241; 914186 now ends early)."""

import pytest

from golfsim.core.rules import Rules
from golfsim.core.spec import TRUNCATED
from golfsim.kernels.simulate import Table, iter_batches

# found with Table.make(["learned"] * 2, Rules(end="one_last_turn", holes=1)) and iter_batches(table, 1_000_000,
# seed=31): the games with more than turn_cap // 2 turns (none of the million was TRUNCATED)
STALLED_GAMES = (39465, 54818, 103187, 176792, 206865, 281299, 436537, 438241, 479264, 692694, 698555, 739700,
                 761565, 856511, 893711)
RULES = Rules(end="one_last_turn", holes=1)


@pytest.mark.parametrize("game", STALLED_GAMES)
def test_a_deal_that_stalled_to_the_turn_cap_now_ends(game):
    table = Table.make(["learned", "learned"], RULES)
    (batch,) = iter_batches(table, 1, seed=31, first_game=game)
    assert batch.reasons[0, 0] != TRUNCATED
    # the forced progress starts at half the cap and each seat has at most one face-down card then
    assert RULES.turn_cap // 2 < batch.turns[0, 0] <= RULES.turn_cap // 2 + 2 * RULES.players


def test_with_a_small_turn_cap_the_same_deal_ends_soon_after_half_of_it():
    rules = Rules(end="one_last_turn", holes=1, turn_cap=200)
    (batch,) = iter_batches(Table.make(["learned", "learned"], rules), 1, seed=31, first_game=STALLED_GAMES[0])
    assert batch.reasons[0, 0] != TRUNCATED and batch.turns[0, 0] <= 100 + 2 * rules.players
