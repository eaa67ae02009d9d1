"""The learning example really learns: a short REINFORCE run against greedy beats the untrained policy."""

import subprocess
import sys

import numpy as np
import pytest

from golfsim.core.rules import Rules
from golfsim.experiments.learning import FEATURES, Features, Settings, train
from golfsim.interop.gymnasium import GolfSoloEnv


def test_a_short_training_run_lowers_the_score_against_greedy_beyond_the_noise():
    settings = Settings(updates=20, batch=32, eval_every=20, eval_deals=150, seed=3)
    _, curve = train(settings, Rules(players=2, holes=1), log=lambda _: None)
    untrained, trained = curve.iloc[0], curve.iloc[-1]
    assert untrained.episodes == 0 and trained.episodes == 640
    # 95% intervals over the same 150 evaluation deal sets (x 2 seats) do not overlap
    assert trained.high < untrained.low


def test_features_come_from_the_observation_and_cover_every_legal_action():
    env = GolfSoloEnv(opponents=["greedy"])
    features = Features(env.rules)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        phi = features(obs["observation"], legal)
        assert phi.shape == (len(legal), len(FEATURES))
        assert np.all(phi[:, :7].sum(axis=1) == 1)  # exactly one action kind per row
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        done = terminated or truncated


@pytest.mark.slow
def test_a_quick_trial_must_name_its_own_output_folder():
    run = subprocess.run([sys.executable, "-m", "golfsim.experiments.learning", "--quick"], capture_output=True,
                         text=True)
    assert run.returncode == 2
    assert "--quick needs --out" in run.stderr
