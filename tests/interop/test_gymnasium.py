"""The Gymnasium environment: Gymnasium's checker, bots moving inside step, seeding and bad input."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import golfsim.interop.gymnasium  # noqa: F401 -- registers golfsim/Golf-v0
from golfsim.core.rules import Rules
from golfsim.game.env import play_game


@pytest.mark.parametrize(
    "kwargs",
    [{"opponents": ["ev"]},
     {"opponents": ["ev", "greedy"], "seat": 1, "holes": 2, "jokers": "minus2", "discard_and_flip": "must"}],
)
def test_passes_gymnasiums_env_checker(kwargs):
    check_env(gymnasium.make("golfsim/Golf-v0", **kwargs).unwrapped)


def recorded_policy(seed):
    """A plain-Python policy choosing legal actions at random, remembering what it played."""
    rng = np.random.default_rng(seed)
    played = []

    def policy(observation):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        played.append(action)
        return action

    return policy, played


@pytest.mark.parametrize(("opponents", "seat"), [(["ev"], 0), (["greedy", "pair-builder"], 2)])
def test_bots_inside_step_play_as_they_do_in_play_game(opponents, seat):
    rules = Rules(players=len(opponents) + 1, holes=3)
    policy, played = recorded_policy(3)
    seats = opponents[:seat] + [policy] + opponents[seat:]
    expected = play_game(seats, rules, seed=21)
    env = gymnasium.make("golfsim/Golf-v0", opponents=opponents, seat=seat, holes=3)
    obs, info = env.reset(seed=21)
    rewards, done, steps = 0.0, False, 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(played[steps])
        rewards += reward
        steps += 1
        done = terminated or truncated
    assert steps == len(played)
    assert rewards == -expected["totals"][seat]
    np.testing.assert_array_equal(env.unwrapped.match.hole_scores, expected["hole_scores"])


def test_reset_without_a_seed_plays_the_next_game():
    env = gymnasium.make("golfsim/Golf-v0", opponents=["greedy"])
    first, _ = env.reset(seed=5)
    second, _ = env.reset()
    again, _ = env.reset(seed=5)
    assert env.unwrapped.match.game == 0
    np.testing.assert_array_equal(first["observation"], again["observation"])
    assert not np.array_equal(first["observation"], second["observation"])


def test_sampling_the_action_space_gives_a_legal_action():
    env = gymnasium.make("golfsim/Golf-v0", opponents=["greedy"])
    obs, _ = env.reset(seed=1)
    env.action_space.seed(0)
    for _ in range(30):
        action = env.action_space.sample()
        assert obs["action_mask"][action] == 1
        obs, _, terminated, truncated, info = env.step(action)
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        if terminated or truncated:
            obs, _ = env.reset()


def test_the_turn_cap_truncates():
    env = gymnasium.make("golfsim/Golf-v0", opponents=["random"], turn_cap=3)
    obs, _ = env.reset(seed=0)
    truncated = terminated = False
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = env.step(env.action_space.sample())
    assert truncated and not terminated
    assert reward == -info["hole_scores"][0]


def test_bad_input_is_one_clear_error():
    with pytest.raises(ValueError, match="unknown agent 'evv'; available agents: "):
        gymnasium.make("golfsim/Golf-v0", opponents=["evv"])
    with pytest.raises(ValueError, match="agent 'ev' has no parameter 'depth'"):
        gymnasium.make("golfsim/Golf-v0", opponents=["ev:depth=3"])
    with pytest.raises(ValueError, match="unknown rule option 'player'"):
        gymnasium.make("golfsim/Golf-v0", opponents=["ev"], player=3)
    with pytest.raises(ValueError, match="end='sudden' is not allowed; choose one of immediate, one_last_turn"):
        gymnasium.make("golfsim/Golf-v0", opponents=["ev"], end="sudden")
    with pytest.raises(ValueError, match="seat must be 0..1 for 1 opponent"):
        gymnasium.make("golfsim/Golf-v0", opponents=["ev"], seat=2)
    env = gymnasium.make("golfsim/Golf-v0", opponents=["ev"])
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 6 \(draw from stock\) is not legal for player 0 in the open phase"):
        env.step(6)
