"""The lazily built observation that tournaments hand plain-Python policies reads as GolfEnv.observe's dict."""

import numpy as np

from golfsim.core.rules import Rules
from golfsim.core.spec import HOLD, PHASE
from golfsim.game.env import GolfEnv
from golfsim.game.lazy import KEYS, LazyObservation


def same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype
    return a == b


def positions(seed=3, steps=40):
    """(env, player) at every decision of a few deals played by the last legal action, a drawn card included."""
    env = GolfEnv(Rules(players=3))
    env.reset(seed)
    for _ in range(steps):
        yield env
        if env.done:
            env.reset(seed, hole=1)
        env.step(env.legal_actions()[-1])


def test_fields_read_one_by_one_in_any_order_equal_the_dict_read_at_once_for_every_seat():
    rng = np.random.default_rng(0)
    held = 0
    for env in positions():
        held += int(env.game.pub[PHASE]) == HOLD
        for player in range(3):
            expected = env.observe(player)
            lazy = LazyObservation(env.game.pub, env.game.packed, env.game.rules, player)
            assert list(lazy) == list(expected) == list(KEYS) and len(lazy) == len(KEYS)
            for key in rng.permutation(KEYS):
                assert same(lazy[key], expected[key]), key
                assert lazy[key] is lazy[key]  # built once
    assert held > 0  # a drawn card, hidden from the other seats, was among the positions


def test_a_kept_observation_still_reads_the_moment_it_was_made():
    env = GolfEnv(Rules(players=2))
    env.reset(1)
    before = env.observe(env.current_player)
    lazy = LazyObservation(env.game.pub, env.game.packed, env.game.rules, env.current_player)
    env.step(env.legal_actions()[0])
    env.step(env.legal_actions()[0])
    for key in KEYS:
        assert same(lazy[key], before[key]), key
    lazy["observation"][:] = 0  # what the policy does to what it was given does not reach the other fields
    assert same(lazy["view"], before["view"])


def test_it_behaves_as_a_mutable_mapping():
    env = GolfEnv(Rules(players=2))
    env.reset(2)
    lazy = LazyObservation(env.game.pub, env.game.packed, env.game.rules, 0)
    assert "action_mask" in lazy and "nonsense" not in lazy and lazy.get("nonsense") is None
    lazy["note"] = 5
    assert lazy["note"] == 5 and list(lazy)[-1] == "note"
    del lazy["note"]
    assert set(dict(lazy)) == set(KEYS) and {**lazy}.keys() == dict(lazy).keys()
    given = np.zeros(27, dtype=np.uint8)
    assert LazyObservation(env.game.pub, env.game.packed, env.game.rules, 0, given)["action_mask"] is given
