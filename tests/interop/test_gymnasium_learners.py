"""Gymnasium for the usual learners: make_vec, what an illegal action does, one-hot ranks; checked with check_env."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import golfsim.interop.gymnasium as golf_gym
from golfsim.core.spec import THROW_DRAWN


@pytest.mark.parametrize("kwargs", [{"ranks": "one_hot"}, {"illegal_action": "penalty"},
                                    {"illegal_action": "end", "ranks": "one_hot", "opponents": ["ev", "greedy"]}])
def test_the_options_pass_gymnasiums_env_checker(kwargs):
    check_env(gymnasium.make("golfsim/Golf-v0", **kwargs).unwrapped)


def test_one_hot_ranks_hold_the_same_cards_as_the_codes():
    codes = golf_gym.GolfSoloEnv(opponents=["greedy"], holes=2)
    hot = golf_gym.GolfSoloEnv(opponents=["greedy"], holes=2, ranks="one_hot")
    a, _ = codes.reset(seed=4)
    b, _ = hot.reset(seed=4)
    cards = golf_gym.card_entries(2)
    rest = np.setdiff1d(np.arange(a["observation"].shape[0]), cards)
    steps = 0
    done = False
    while not done:
        vec, onehot = a["observation"], b["observation"]
        assert onehot.shape == (golf_gym.one_hot_size(2),)
        assert np.array_equal(onehot[:len(rest)], vec[rest])
        indicators = onehot[len(rest):].reshape(len(cards), 14)
        decoded = np.where(indicators.any(axis=1), indicators.argmax(axis=1), -1)
        assert np.array_equal(decoded, vec[cards].astype(int))
        assert set(np.unique(indicators)) <= {0.0, 1.0} and (indicators.sum(axis=1) <= 1).all()
        action = int(np.flatnonzero(a["action_mask"])[-1])
        a, _, term, trunc, _ = codes.step(action)
        b, _, _, _, _ = hot.step(action)
        done = term or trunc
        steps += 1
    assert steps > 10


def first_illegal(mask) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def test_penalty_lowers_the_reward_and_plays_a_legal_action_instead():
    env = golf_gym.GolfSoloEnv(opponents=["greedy"], illegal_action="penalty", illegal_penalty=7.5)
    obs, _ = env.reset(seed=2)
    turn_before = env.match.pub.copy()
    obs2, reward, terminated, truncated, info = env.step(first_illegal(obs["action_mask"]))
    assert info["illegal_action"] is True
    assert reward == -7.5  # no hole ends on the first opening flip
    assert not np.array_equal(env.match.pub, turn_before)  # a legal action was played
    _, reward, _, _, info = env.step(int(np.flatnonzero(obs2["action_mask"])[0]))
    assert info["illegal_action"] is False and reward == 0.0


def test_end_finishes_the_episode_with_the_penalty_and_raise_is_the_default():
    env = golf_gym.GolfSoloEnv(opponents=["greedy"], illegal_action="end")
    obs, _ = env.reset(seed=2)
    _, reward, terminated, truncated, info = env.step(first_illegal(obs["action_mask"]))
    assert (reward, terminated, truncated, info["illegal_action"]) == (-10.0, True, False, True)
    strict = golf_gym.GolfSoloEnv(opponents=["greedy"])
    strict.reset(seed=2)
    with pytest.raises(ValueError, match=f"action {THROW_DRAWN} .* is not legal"):
        strict.step(THROW_DRAWN)
    with pytest.raises(ValueError, match="illegal_action must be one of raise, penalty, end"):
        golf_gym.GolfSoloEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="ranks must be one of codes, one_hot"):
        golf_gym.GolfSoloEnv(ranks="onehot")


@pytest.mark.slow
def test_make_vec_samples_legal_actions_and_each_env_plays_its_own_seeded_games():
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=3, opponents=["greedy"])
    assert isinstance(venv, golf_gym.GolfVectorEnv)
    obs, _ = venv.reset(seed=10)
    singles = [golf_gym.GolfSoloEnv(opponents=["greedy"]) for _ in range(3)]
    single_obs = [env.reset(seed=10 + i)[0] for i, env in enumerate(singles)]
    pending = [False] * 3
    episodes = 0
    for _ in range(150):
        actions = venv.action_space.sample()
        for i in range(3):
            assert pending[i] or obs["action_mask"][i][actions[i]] == 1  # a finished episode has no legal action
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
        obs, rewards, terminated, truncated, info = venv.step(actions)
        assert not info["illegal_action"].any()
        for i, env in enumerate(singles):
            if pending[i]:  # next-step autoreset: this step only reset env i
                single_obs[i], _ = env.reset()
                assert rewards[i] == 0.0
                pending[i] = False
                continue
            single_obs[i], reward, term, trunc, _ = env.step(int(actions[i]))
            assert rewards[i] == reward and terminated[i] == term and truncated[i] == trunc
            pending[i] = term or trunc
            episodes += term or trunc
    assert episodes >= 3


def test_gymnasiums_own_sync_vector_env_trains_with_penalties():
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=4, vectorization_mode="sync", opponents=["greedy"],
                              illegal_action="penalty")
    venv.reset(seed=1)
    illegal = 0
    for _ in range(50):
        _, rewards, _, _, info = venv.step(venv.action_space.sample())  # ignores the masks
        illegal += int(info["illegal_action"].sum())
    assert illegal > 0
