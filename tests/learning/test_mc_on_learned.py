"""mc with the learned player as its base choice and rollout policy (``mc:rollout=3``)."""

from golfsim.core.rules import Rules
from golfsim.core.spec import PLACE_DRAWN, TAKE_DISCARD
from golfsim.kernels.simulate import simulate
from tests.agents.positions import position


def test_it_plays_legally_under_the_variants_the_learned_value_was_not_trained_for():
    for rules in (Rules(holes=1, end="one_last_turn"), Rules(players=3, holes=1, discard_and_flip="may",
                                                              reveal_instead_of_draw=True, jokers="minus2")):
        seats = ["mc:rollout=3,samples=4"] + ["learned"] * (rules.players - 1)
        result = simulate(seats, rules, games=20, seed=9)  # raises IllegalActionError on an illegal move
        assert result.truncated_deals == 0 and len(result.deals) == 20


def test_it_keeps_the_clearly_best_move_of_its_base():
    pos = position(["Q 4 ? / ? 3 ?", "K K ? / ? ? ?"], discard="Q")
    assert pos.decide("learned") == TAKE_DISCARD + 3
    assert pos.decide("mc:rollout=3,samples=16") == TAKE_DISCARD + 3
    out = position(["K 2 A / K 2 ?", "Q J ? / 10 ? 9"], held="A", turn=12)
    assert out.decide("mc:rollout=3,samples=16") == PLACE_DRAWN + 5
