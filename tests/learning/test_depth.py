"""learned's parameters beyond its one-ply decision: depth 2 is refused with the reason, the exact endgame
(``exact=1``) plays whole deals legally and changes choices only where it applies."""

import numpy as np
import pytest

from golfsim.agents import parse_agent
from golfsim.core.rules import Rules
from golfsim.core.spec import TRUNCATED
from golfsim.kernels.simulate import Table, iter_batches


def _play(agents, rules, deals, seed):
    (batch,) = iter_batches(Table.make(agents, rules), deals, seed=seed, batch_size=deals)
    return batch


@pytest.mark.parametrize("text", ["learned:depth=2", "learned:depth=3", "mc:base=(learned:depth=2)"])
def test_depth_two_is_refused_with_the_reason(text):
    with pytest.raises(ValueError, match=r"depth 2 was removed: measured, it played worse than depth 1.*README"):
        parse_agent(text)


@pytest.mark.parametrize("text", ["learned:depth=0", "learned:depth=1.5", "learned:exact=2"])
def test_other_bad_values_are_refused(text):
    with pytest.raises(ValueError, match="depth|exact"):
        parse_agent(text)


def test_depth_one_is_still_accepted():
    assert parse_agent("learned:depth=1").param_vector()[0] == 1.0


@pytest.mark.parametrize("players", [2, 4])
def test_exact_endgame_plays_whole_deals_legally_under_one_last_turn(players):
    rules = Rules(end="one_last_turn", players=players, holes=1)
    batch = _play(["learned:exact=1", "ev"] * (players // 2), rules, 150, seed=6)
    assert batch.reasons.size == 150 and not np.any(batch.reasons == TRUNCATED)


def test_exact_endgame_changes_nothing_under_immediate_end():
    # going out is valued exactly by learned itself there, and there is no last turn
    rules = Rules(holes=1)
    exact = _play(["learned:exact=1", "ev"], rules, 200, seed=7)
    plain = _play(["learned", "ev"], rules, 200, seed=7)
    assert np.array_equal(exact.hole_scores, plain.hole_scores) and np.array_equal(exact.turns, plain.turns)


def test_exact_endgame_changes_some_choices_under_one_last_turn():
    rules = Rules(end="one_last_turn", holes=1)
    exact = _play(["learned:exact=1", "ev"], rules, 200, seed=8)
    plain = _play(["learned", "ev"], rules, 200, seed=8)
    assert not np.array_equal(exact.hole_scores, plain.hole_scores)
