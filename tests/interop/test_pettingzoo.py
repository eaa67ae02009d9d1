"""The PettingZoo AEC environment: PettingZoo's own conformance tests, rewards, truncation and bad input."""

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from golfsim.interop.pettingzoo import env, raw_env

VARIANTS = [
    {"players": 2},
    {"players": 3, "holes": 2, "jokers": "minus2", "discard_and_flip": "may", "end": "one_last_turn"},
    {"players": 4, "reveal_instead_of_draw": True, "opening_flips": "same_column", "four_of_a_kind_bonus": -10},
]


@pytest.mark.parametrize("options", VARIANTS)
def test_passes_pettingzoos_api_test(options):
    api_test(env(**options), num_cycles=300)


@pytest.mark.parametrize("options", VARIANTS[:2])
def test_passes_pettingzoos_seed_test(options):
    seed_test(lambda **kw: env(**options, **kw), num_cycles=300)


def play_out(e, rng):
    """Play random legal moves to the end; return each agent's summed rewards and the last flags."""
    rewards = {a: 0.0 for a in e.possible_agents}
    flags = {}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        rewards[agent] += reward
        flags[agent] = (termination, truncation)
        e.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return rewards, flags


def test_rewards_sum_to_minus_each_game_total():
    e = raw_env(players=3, holes=3)
    e.reset(seed=11)
    rewards, flags = play_out(e, np.random.default_rng(0))
    totals = e.match.hole_scores.sum(axis=0)
    assert [rewards[f"player_{i}"] for i in range(3)] == [-float(t) for t in totals]
    assert all(f == (True, False) for f in flags.values())
    assert e.match.hole == 2  # all three holes were played


def test_the_turn_cap_ends_the_episode_as_a_truncation():
    e = raw_env(players=2, holes=3, turn_cap=4)
    e.reset(seed=2)
    rewards, flags = play_out(e, np.random.default_rng(1))
    assert all(f == (False, True) for f in flags.values())
    assert e.match.hole == 0  # the first, truncated, hole ended the episode
    assert [rewards["player_0"], rewards["player_1"]] == [-float(s) for s in e.match.hole_scores[0]]


def test_only_the_agent_to_move_gets_a_mask_and_masks_are_the_legal_actions():
    e = raw_env(players=2)
    e.reset(seed=4)
    mover = e.agent_selection
    other = next(a for a in e.agents if a != mover)
    assert e.observe(mover)["action_mask"].tolist() == [0] * 20 + [1] * 6 + [0, 0]  # six opening flips
    assert not e.observe(other)["action_mask"].any()


def test_renders_the_table_as_text():
    e = raw_env(players=2, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert "player 0 (your agent): ? ? ? / ? ? ?" in text
    assert "hole 1/1, turn 0, player 0 to move (open)" in text


def test_bad_input_is_one_clear_error():
    with pytest.raises(ValueError, match="unknown rule option 'jokerz'; rule options: decks, jokers"):
        env(jokerz="minus2")
    with pytest.raises(ValueError, match="jokers='lots' is not allowed; choose one of none, minus2"):
        env(jokers="lots")
    with pytest.raises(ValueError, match="render_mode='human' is not supported"):
        env(render_mode="human")
    e = env(players=2)
    e.reset(seed=0)
    with pytest.raises(ValueError, match=r"action 19 \(throw drawn card\) is not legal for player 0 in the open"):
        e.step(19)
    with pytest.raises(ValueError, match="an action is a whole number from 0 to 27, got 28"):
        e.step(28)


def test_the_rl_guides_first_loop_ends_its_deal_before_the_turn_cap(capsys):
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs/guide/rl.md").read_text()
    first = re.search(r"```python\n(.*?)```", guide, re.S)[1]
    assert "pettingzoo" in first
    namespace = {}
    exec(compile(first, "docs/guide/rl.md", "exec"), namespace)
    assert namespace["termination"] and not namespace["truncation"]
    printed = capsys.readouterr().out
    assert "(outside)" not in printed and "player 0 (your agent)" in printed
