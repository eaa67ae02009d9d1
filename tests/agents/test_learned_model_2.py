"""``learned:model=2`` (the n-tuple value, ``models/learned_ntuple.json``) is the model that plays wherever it is
asked for: alone, and in mc's base and rollouts; ``learned`` alone still plays model 1."""

import numpy as np

from golfsim.core.rules import Rules
from golfsim.tournament import run_tournament

RULES = Rules(players=2, holes=1)


def scores(agents, games, seed=11):
    """Each seat's total and the deal's turns, game by game (not the agents' labels, which name the model)."""
    games_table = run_tournament(agents, RULES, games=games, seed=seed, threads=1).games
    keys = ["table", "rotation", "game", "seat"]
    return games_table.sort_values(keys)[keys + ["total", "turns"]].to_numpy()


def test_model_2_plays_other_games_than_model_1_on_the_same_deals():
    one = scores(["learned", "greedy"], 200)
    two = scores(["learned:model=2", "greedy"], 200)
    assert one.shape == two.shape and not np.array_equal(one, two)


def test_model_1_written_out_is_the_default():
    assert np.array_equal(scores(["learned", "greedy"], 60), scores(["learned:model=1", "greedy"], 60))


def test_mc_rolls_out_and_builds_on_the_model_it_is_given():
    mc = "mc:samples=16,base=(learned{m}),rollout=(learned{m})"
    one = scores([mc.format(m=""), "greedy"], 12)
    two = scores([mc.format(m=":model=2"), "greedy"], 12)
    assert one.shape == two.shape and not np.array_equal(one, two)
