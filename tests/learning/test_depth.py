"""learned's search depth: depth 2 plays legally wherever it applies, falls back to depth 1 at three or more
players, and the parameter takes 1 or 2 only."""

import numpy as np
import pytest

from golfsim.agents import parse_agent
from golfsim.core.rules import TRUNCATED, Rules
from golfsim.kernels.simulate import Table, iter_batches


def _play(agents, rules, deals, seed):
    (batch,) = iter_batches(Table.make(agents, rules), deals, seed=seed, batch_size=deals)
    return batch


@pytest.mark.parametrize("rules", [Rules(holes=1), Rules(end="one_last_turn", holes=1),
                                   Rules(reveal_instead_of_draw=True, holes=1),
                                   Rules(discard_and_flip="may", jokers="minus2", holes=1)],
                         ids=["immediate", "one last turn", "reveal", "discard-and-flip jokers"])
def test_depth_two_plays_whole_deals_legally(rules):
    # the simulator stops with an error on an illegal action; every deal must also end before the cap
    batch = _play(["learned:depth=2", "ev"], rules, 150, seed=3)
    assert batch.reasons.size == 150 and not np.any(batch.reasons == TRUNCATED)


def test_depth_two_is_depth_one_at_three_players():
    rules = Rules(players=3, holes=1)
    deep = _play(["learned:depth=2", "ev", "learned:depth=2"], rules, 200, seed=4)
    shallow = _play(["learned", "ev", "learned"], rules, 200, seed=4)
    assert np.array_equal(deep.hole_scores, shallow.hole_scores) and np.array_equal(deep.turns, shallow.turns)


def test_depth_two_changes_some_choices_at_two_players():
    rules = Rules(holes=1)
    deep = _play(["learned:depth=2", "ev"], rules, 200, seed=5)
    shallow = _play(["learned", "ev"], rules, 200, seed=5)
    assert not np.array_equal(deep.hole_scores, shallow.hole_scores)


@pytest.mark.parametrize("text", ["learned:depth=3", "learned:depth=0", "learned:depth=1.5"])
def test_the_depth_is_one_or_two(text):
    with pytest.raises(ValueError, match="depth"):
        parse_agent(text)


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
