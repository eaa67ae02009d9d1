"""The batch simulator: reproducible from a seed, parity with the step API, clear errors."""

import warnings

import numpy as np
import pandas as pd
import pytest

from golfsim.core.rules import Rules
from golfsim.game.env import GolfEnv, play_game
from golfsim.kernels.simulate import Table, iter_batches, simulate, win_shares
from tests.kernel_outputs import kernel_outputs


def test_results_are_dataframes_a_researcher_can_use():
    result = simulate(["random", "random"], Rules(), games=50, seed=3)
    assert list(result.players.columns[:5]) == ["game", "seat", "agent", "total", "win_share"]
    assert len(result.players) == 100 and len(result.deals) == 450
    holes = result.players[[f"hole_{h}" for h in range(1, 10)]].sum(axis=1)
    assert (holes == result.players["total"]).all()
    assert np.allclose(result.players.groupby("game")["win_share"].sum(), 1.0)
    assert set(result.deals["end_reason"]) <= {"went_out", "stock_exhausted", "truncated"}
    assert result.truncated_deals == 0


def test_same_seed_same_dataframes_whatever_threads_and_batches():
    runs = [
        simulate(["random", "random", "random"], Rules(players=3), games=3000, seed=9, threads=1),
        simulate(["random", "random", "random"], Rules(players=3), games=3000, seed=9, threads=2),
        simulate(["random", "random", "random"], Rules(players=3), games=3000, seed=9, threads=2, batch_size=777),
    ]
    for other in runs[1:]:
        pd.testing.assert_frame_equal(runs[0].players, other.players)
        pd.testing.assert_frame_equal(runs[0].deals, other.deals)


def test_a_later_slice_of_games_is_the_same_games():
    whole = simulate(["random", "random"], games=100, seed=4)
    part = simulate(["random", "random"], games=40, seed=4, first_game=60)
    tail = whole.players[whole.players["game"] >= 60].reset_index(drop=True)
    pd.testing.assert_frame_equal(tail, part.players)


def test_different_seeds_differ_and_deal_and_agent_streams_are_separate():
    a = simulate(["random", "random"], games=200, seed=1)
    b = simulate(["random", "random"], games=200, seed=2)
    assert not a.players["total"].equals(b.players["total"])
    # the agents draw from their own stream: changing it alone changes play
    c = simulate(["random", "random"], games=200, seed=1, agent_seed=99)
    assert not a.players["total"].equals(c.players["total"])


def test_batch_simulator_and_step_api_play_identical_games():
    rules = Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True)
    batch = simulate(["random"] * 3, rules, games=30, seed=12)
    for g in range(30):
        game = play_game(["random"] * 3, rules, seed=12, game=g)
        rows = batch.players[batch.players["game"] == g]
        assert list(rows["total"]) == list(game["totals"])
        deals = batch.deals[batch.deals["game"] == g]
        assert list(deals["turns"]) == game["turns"]
        assert list(deals["went_out"]) == game["went_out"]


def test_step_api_deal_is_the_simulator_deal():
    env = GolfEnv(Rules())
    env.reset(5, game=7, hole=2)
    first = env.snapshot()
    env.reset(5, game=7, hole=2)
    assert env.snapshot() == first
    env.reset(5, game=7, hole=3)
    assert env.snapshot()["layouts"] != first["layouts"]
    assert env.current_player == 1  # hole 3 of 2 players: player 1 moves first


def test_win_shares_split_ties():
    shares = win_shares(np.array([[10, 10, 20], [5, 7, 9]]))
    assert shares.tolist() == [[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]]


def test_iter_batches_streams_in_constant_memory():
    table = Table.make(["random", "random"], Rules(holes=1))
    sizes = [len(b.turns) for b in iter_batches(table, 25_000, seed=1, batch_size=10_000)]
    assert sizes == [10_000, 10_000, 5_000]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agents": ["random", "nobody"]}, "unknown agent 'nobody'; available agents: .*random"),
        ({"agents": ["random"] * 3}, "3 agents given for 2 seats"),
        ({"games": -1}, "games must be a whole number of at least 0"),
        ({"seed": -5}, "seed must be a whole number"),
        ({"threads": 0}, "threads must be a whole number of at least 1"),
        ({"threads": 64}, "at most"),
        ({"batch_size": 0}, "batch_size must be"),
        ({"rules": "default"}, "rules must be a golfsim Rules"),
        ({"agents": ["random:speed=3", "random"]}, "has no parameter 'speed'"),
    ],
)
def test_bad_input_gets_a_clear_error(kwargs, message):
    args = {"agents": ["random", "random"], "rules": Rules(), "games": 10, "seed": 0} | kwargs
    with pytest.raises(ValueError, match=message):
        simulate(**args)


def test_a_table_can_be_given_as_one_comma_separated_string():
    table = Table.make("greedy, random")
    assert [a.label for a in table.agents] == ["greedy", "random"]
    assert table.rules.players == 2


def test_one_compiled_kernel_serves_every_mix_of_agents():
    from golfsim.kernels.simulate import play_games

    simulate(["greedy", "random"], games=2)
    before = len(play_games.signatures)
    for agents in (["ev", "pair-builder"], ["pair-builder", "greedy", "ev"], ["random", "ev"]):
        simulate(agents, games=2)
    assert len(play_games.signatures) == before  # ev and pair-builder are called by pointer: no recompile


def test_a_long_game_builds_its_tables_without_a_pandas_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.PerformanceWarning)  # raised from about 100 holes, one per column
        result = simulate(["random", "random"], Rules(holes=150), games=3, seed=1)
    assert list(result.players.columns[-2:]) == ["hole_149", "hole_150"]
    holes = result.players.filter(like="hole_").to_numpy()
    assert (holes.sum(axis=1) == result.players["total"].to_numpy()).all()


@pytest.mark.parametrize("agents, rules", [
    ("greedy,greedy", Rules(holes=3)),
    ("greedy:take_gain=1,greedy:blind_swap=3,greedy:fixed_hidden=1", Rules(players=3, discard_and_flip="may",
                                                                          four_of_a_kind_bonus=-10)),
    ("random,random", Rules(holes=3)),
    ("random,random,random,random", Rules(players=4, reveal_instead_of_draw=True, end="one_last_turn",
                                          opening_flips="same_column", decks=1)),
])
def test_the_self_play_kernels_play_exactly_what_the_general_kernel_plays(agents, rules):
    from golfsim.kernels.simulate import kernel_for, play_games

    table = Table.make(agents, rules)
    ids, _, _ = table.kernel_arguments()
    self_play = kernel_for(ids, table.sees_hidden())
    assert self_play is not play_games
    general = kernel_outputs(play_games, table, 400, seed=5)
    special = kernel_outputs(self_play, table, 400, seed=5)
    assert general[0].any()  # games were played
    for a, b in zip(general, special, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("agents", ["greedy,random", "random,greedy,greedy", "ev,ev", "pair-builder,greedy"])
def test_mixed_tables_and_pointer_agents_play_in_the_general_kernel(agents):
    from golfsim.kernels.simulate import kernel_for, play_games

    table = Table.make(agents)
    ids, _, _ = table.kernel_arguments()
    assert kernel_for(ids, table.sees_hidden()) is play_games
