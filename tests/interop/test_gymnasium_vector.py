"""The batched Gymnasium vector env: each env plays what a GolfSoloEnv plays, under Gymnasium's vector API."""

from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import golfsim.interop.gymnasium as golf_gym

OPTIONS = [
    {"opponents": ["greedy"]},
    {"opponents": ["ev", "random"], "seat": 1, "holes": 2, "jokers": "minus2"},
    {"opponents": ["random"], "ranks": "one_hot", "turn_cap": 4},
    {"opponents": ["greedy"], "illegal_action": "penalty", "illegal_penalty": 3.5},
    {"opponents": ["random", "greedy"], "seat": 2, "illegal_action": "end"},
]


def random_actions(rng, masks, pending, illegal_share):
    """A legal action per env, or with probability ``illegal_share`` any action id (often an illegal one)."""
    out = np.zeros(len(masks), dtype=np.int64)
    for i, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        if pending[i] or rng.random() < illegal_share:
            out[i] = rng.integers(golf_gym.NUM_ACTIONS)
        else:
            out[i] = legal[rng.integers(len(legal))]
    return out


@pytest.mark.parametrize("kwargs", OPTIONS)
def test_each_env_plays_what_a_solo_env_plays_with_its_seed_and_actions(kwargs):
    n = 4
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(venv, golf_gym.GolfVectorEnv)
    singles = [golf_gym.GolfSoloEnv(**kwargs) for _ in range(n)]
    obs, info = venv.reset(seed=20)
    single = [env.reset(seed=20 + i)[0] for i, env in enumerate(singles)]
    rng = np.random.default_rng(5)
    pending = [False] * n
    illegal_share = 0.0 if kwargs.get("illegal_action", "raise") == "raise" else 0.2
    episodes = illegal_steps = 0
    for _ in range(250):
        for i in range(n):
            np.testing.assert_array_equal(obs["observation"][i], single[i]["observation"])
            np.testing.assert_array_equal(obs["action_mask"][i], single[i]["action_mask"])
        np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
        assert obs in venv.observation_space
        actions = random_actions(rng, obs["action_mask"], pending, illegal_share)
        obs, rewards, terminated, truncated, info = venv.step(actions)
        for i, env in enumerate(singles):
            if pending[i]:  # next-step autoreset: this step only starts env i's next game
                single[i], _ = env.reset()
                assert (rewards[i], terminated[i], truncated[i], info["illegal_action"][i]) == (0.0, False, False,
                                                                                               False)
                pending[i] = False
                continue
            single[i], reward, term, trunc, single_info = env.step(int(actions[i]))
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            assert info["illegal_action"][i] == single_info["illegal_action"]
            illegal_steps += single_info["illegal_action"]
            pending[i] = term or trunc
            episodes += term or trunc
    assert episodes >= n
    assert illegal_steps > 0 or illegal_share == 0.0


def trajectory(seed, steps=120, **kwargs):
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=3, opponents=["random"], **kwargs)
    out = [venv.reset(seed=seed)]
    for _ in range(steps):
        out.append(venv.step(venv.action_space.sample()))
    return out


def test_the_same_seed_gives_the_same_trajectories_and_another_seed_others():
    first, again, other = trajectory(3), trajectory(3), trajectory(4)
    assert data_equivalence(first, again, exact=True)
    assert not data_equivalence(first, other)


def test_gymnasiums_vector_api_holds():
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=5, opponents=["greedy"], holes=2)
    assert venv.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    assert venv.single_action_space == gymnasium.spaces.Discrete(golf_gym.NUM_ACTIONS)
    obs, info = venv.reset(seed=0)
    assert obs in venv.observation_space and set(info) == {"action_mask"}
    kept = [obs]
    for _ in range(60):
        actions = venv.action_space.sample()
        assert actions in venv.action_space
        obs, rewards, terminated, truncated, info = venv.step(actions)
        assert obs in venv.observation_space
        assert rewards.shape == (5,) and rewards.dtype == np.float64
        assert terminated.dtype == truncated.dtype == info["illegal_action"].dtype == np.bool_
        kept.append(obs)
    # the env never writes into arrays it returned (gymnasium's check_returned_data_not_reused)
    replay = gymnasium.make_vec("golfsim/Golf-v0", num_envs=5, opponents=["greedy"], holes=2)
    again, _ = replay.reset(seed=0)
    assert data_equivalence(kept[0], again, exact=True)
    stats = gymnasium.wrappers.vector.RecordEpisodeStatistics(venv)
    stats.reset(seed=1)
    finished = 0
    for _ in range(60):
        *_, info = stats.step(stats.action_space.sample())
        finished += int(info.get("_episode", np.zeros(5, bool)).sum())
    assert finished >= 5


def test_masked_sampling_gives_legal_actions_only():
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=6, opponents=["greedy"])
    obs, info = venv.reset(seed=2)
    venv.action_space.seed(9)
    for _ in range(80):
        for actions in (venv.action_space.sample(), venv.action_space.sample(mask=info["action_mask"]),
                        venv.action_space.sample(mask=tuple(info["action_mask"]))):
            waiting = ~info["action_mask"].any(axis=1)  # an env whose episode ended waits for its reset
            chosen = info["action_mask"][np.arange(6), actions]
            assert np.all(chosen[~waiting] == 1)
        obs, _, _, _, info = venv.step(venv.action_space.sample(mask=info["action_mask"]))
        assert not info["illegal_action"].any()


def test_an_illegal_action_raises_by_default_and_changes_nothing():
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=2, opponents=["greedy"])
    obs, _ = venv.reset(seed=0)
    legal = venv.action_space.sample()
    bad = legal.copy()
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    with pytest.raises(ValueError, match=rf"env 1: action {bad[1]} \(.*\) is not legal for player 0; legal: "):
        venv.step(bad)
    with pytest.raises(ValueError, match="give one action per env: 2 actions"):
        venv.step(legal[:1])
    with pytest.raises(ValueError, match="actions are whole numbers"):
        venv.step(legal.astype(float))
    obs_after, *_ = venv.step(legal)
    solo = [golf_gym.GolfSoloEnv(opponents=["greedy"]) for _ in range(2)]
    for i, env in enumerate(solo):
        env.reset(seed=i)
        expected, *_ = env.step(int(legal[i]))
        np.testing.assert_array_equal(obs_after["observation"][i], expected["observation"])


def test_render_shows_every_env():
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=2, opponents=["greedy"], render_mode="ansi")
    venv.reset(seed=0)
    solo = golf_gym.GolfSoloEnv(opponents=["greedy"], render_mode="ansi")
    solo.reset(seed=1)
    frames = venv.render()
    assert len(frames) == 2 and frames[1] == solo.render()


def rewards_of_a_run(make):
    venv = make()
    venv.reset(seed=4)
    total = np.zeros(2)
    for _ in range(40):
        total += venv.step(venv.action_space.sample())[1]
    return total.tolist()


@pytest.mark.slow
def test_without_jit_and_on_the_fallback_route_the_same_games_are_played():
    import os
    import subprocess
    import sys

    make = lambda: gymnasium.make_vec("golfsim/Golf-v0", num_envs=2, opponents=["greedy", "random"])  # noqa: E731
    expected = rewards_of_a_run(make)
    script = ("import gymnasium, golfsim.interop.gymnasium\n"
              "from tests.interop.test_gymnasium_vector import rewards_of_a_run\n"
              "print(rewards_of_a_run(lambda: gymnasium.make_vec('golfsim/Golf-v0', num_envs=2, "
              "opponents=['greedy', 'random'])))\n")
    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=root,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(expected)

    from golfsim.kernels.in_flight_env import step_envs_passing_functions

    def passing_functions():
        venv = make()
        venv._kernel.kernel, venv._kernel.agents = step_envs_passing_functions, venv._kernel.bots.agent_fns
        return venv

    assert rewards_of_a_run(passing_functions) == expected


def test_a_list_of_seeds_seeds_each_env_and_none_plays_its_next_game():
    venv = gymnasium.make_vec("golfsim/Golf-v0", num_envs=2, opponents=["greedy"])
    venv.reset(seed=5)
    obs, _ = venv.reset(seed=[8, None])
    first, second = golf_gym.GolfSoloEnv(opponents=["greedy"]), golf_gym.GolfSoloEnv(opponents=["greedy"])
    first_obs, _ = first.reset(seed=8)
    second.reset(seed=6)
    second_obs, _ = second.reset()  # game 1 under seed 6
    np.testing.assert_array_equal(obs["observation"][0], first_obs["observation"])
    np.testing.assert_array_equal(obs["observation"][1], second_obs["observation"])
    with pytest.raises(ValueError, match="give one seed per env: 2 seeds, got 3"):
        venv.reset(seed=[1, 2, 3])


def test_step_before_reset_is_refused():
    env = golf_gym.GolfVectorEnv(num_envs=2)
    with pytest.raises(gymnasium.error.ResetNeeded, match="reset"):
        env.step(np.zeros(2, dtype=np.int64))
    obs, info = env.reset(seed=3)
    assert info["action_mask"].any(axis=1).all()  # after reset every env has a legal action
