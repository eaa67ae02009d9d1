"""Tables with plain-Python and batched agents play the batch simulator's games, whatever the games in flight.

The reference for a compiled table is the batch kernel; for a table with Python seats it is ``Game.play`` (one game
at a time through the step API), which plays the same deals and agent streams.
"""

from pathlib import Path

import numpy as np
import pytest

from golfsim.agents import REGISTRY, register_batched_agent, register_python_agent
from golfsim.agents.plugins import load_module
from golfsim.core.errors import AgentError, IllegalActionError
from golfsim.core.rules import Rules
from golfsim.core.spec import THROW_DRAWN
from golfsim.game.env import play_game
from golfsim.kernels.python_seats import play_batch, slots_for
from golfsim.kernels.simulate import Table, iter_batches, simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
load_module(str(EXAMPLES / "cautious_python_agent.py"))
load_module(str(EXAMPLES / "batched_numpy_agents.py"))

FIELDS = ("hole_scores", "turns", "enders", "reasons")


def same(a, b) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in FIELDS)


def matches_game_play(agents, rules, batch, seed, agent_seed, first_game) -> bool:
    for i in range(batch.hole_scores.shape[0]):
        game = play_game(agents, rules, seed=seed, game=first_game + i, agent_seed=agent_seed)
        if not (np.array_equal(game["hole_scores"], batch.hole_scores[i]) and list(game["turns"]) ==
                list(batch.turns[i]) and list(game["went_out"]) == list(batch.enders[i])):
            return False
    return True


@pytest.mark.parametrize("slots", [1, 7, 40])
def test_a_compiled_table_played_in_slots_equals_the_batch_kernel(slots):
    table = Table.make(["ev", "greedy", "random"], Rules(players=3, holes=3))
    (kernel,) = iter_batches(table, 40, 7, agent_seed=11, first_game=3, batch_size=40, threads=1)
    assert same(play_batch(table, 40, 7, 11, first_game=3, slots=slots), kernel)


def test_a_plain_python_agent_plays_the_games_game_play_plays():
    agents = ["cautious", "ev", "cautious:keep_at_most=5"]
    rules = Rules(players=3, holes=2)
    table = Table.make(agents, rules)
    batch = play_batch(table, 25, 7, 11, first_game=3)
    assert matches_game_play(agents, rules, batch, 7, 11, 3)
    assert same(play_batch(table, 25, 7, 11, first_game=3, slots=3), batch)


def test_a_batched_agent_plays_the_same_games_however_many_are_in_flight():
    agents = ["linear:temperature=1", "greedy"]  # samples with the seat stream's uniform numbers
    rules = Rules(players=2, holes=2)
    table = Table.make(agents, rules)
    batch = play_batch(table, 30, 7, 11, first_game=2)
    assert same(play_batch(table, 30, 7, 11, first_game=2, slots=4), batch)
    assert matches_game_play(agents, rules, batch, 7, 11, 2)
    other_stream = play_batch(table, 30, 7, 12, first_game=2)
    assert not np.array_equal(other_stream.hole_scores, batch.hole_scores)  # the uniforms do come from the stream


class Counting:
    """A policy with a reset: it keeps state through a game, so its games are played one at a time."""

    def __init__(self):
        self.seen = []

    def reset(self, seed, game, seat):
        self.seen.append(("reset", game))

    def __call__(self, observation):
        self.seen.append(("act", observation["turn"]))
        return int(np.flatnonzero(observation["action_mask"])[-1])


def test_a_policy_with_a_reset_plays_its_games_one_at_a_time_each_after_its_reset():
    policy = Counting()
    if "counting" not in REGISTRY:
        register_python_agent("counting", "test: last legal action, records its calls", lambda params: policy)
    table = Table.make(["counting", "greedy"], Rules(players=2, holes=1))
    assert slots_for(table, 10) == 1
    play_batch(table, 4, 1, 2)
    resets = [i for i, (kind, _) in enumerate(policy.seen) if kind == "reset"]
    assert [policy.seen[i][1] for i in resets] == [0, 1, 2, 3]
    assert resets[0] == 0 and all(b - a > 1 for a, b in zip(resets[:-1], resets[1:], strict=True))


def test_simulate_takes_a_plain_python_agent():
    rules = Rules(players=2, holes=1)
    result = simulate(["cautious", "greedy"], rules, games=6, seed=4)
    totals = result.players[result.players.seat == 0].total.tolist()
    assert totals == [int(play_game(["cautious", "greedy"], rules, seed=4, game=g)["totals"][0]) for g in range(6)]


def _raises(observation):
    if observation["phase"] == "start":
        raise RuntimeError("no idea\nwhat to do")
    return int(np.flatnonzero(observation["action_mask"])[0])


def test_a_policy_that_raises_is_named_in_one_line():
    if "raiser" not in REGISTRY:
        register_python_agent("raiser", "test: raises at its first turn", lambda params: _raises)
    table = Table.make(["greedy", "raiser"], Rules(players=2, holes=1))
    with pytest.raises(AgentError, match=r"^agent 'raiser' \(seat 1\) raised RuntimeError: no idea what to do$"):
        play_batch(table, 5, 0, 0)


def test_a_policy_returning_an_illegal_move_is_named_in_one_line():
    if "thrower" not in REGISTRY:
        register_python_agent("thrower", "test: always throws", lambda params: lambda observation: THROW_DRAWN)
    table = Table.make(["thrower", "greedy"], Rules(players=2, holes=1))
    with pytest.raises(IllegalActionError, match=r"^agent 'thrower' \(seat 0\) returned the illegal action 19 "
                                                 r"\(throw drawn card\) in the open phase of game 0, hole 0$"):
        play_batch(table, 5, 0, 0)


def test_a_batched_policy_with_a_bad_answer_is_named():
    if "bad-batch" not in REGISTRY:
        register_batched_agent("bad-batch", "test: returns one action too few", lambda params: lambda b: [0] * (
            len(b) - 1))
    table = Table.make(["bad-batch", "greedy"], Rules(players=2, holes=1))
    with pytest.raises(AgentError, match=r"agent 'bad-batch' \(seat 0\) returned \(\d+,\) values .* a batched "
                                         r"policy returns \d+ whole numbers"):
        play_batch(table, 5, 0, 0)
    if "illegal-batch" not in REGISTRY:
        register_batched_agent("illegal-batch", "test: always throws", lambda params: lambda b: np.full(
            len(b), THROW_DRAWN))
    with pytest.raises(IllegalActionError, match=r"agent 'illegal-batch' \(seat 0\) returned the illegal action 19"):
        play_batch(Table.make(["illegal-batch", "greedy"], Rules(players=2, holes=1)), 5, 0, 0)
