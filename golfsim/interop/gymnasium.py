"""Six-card Golf as a single-player Gymnasium environment: you against compiled golfsim bots.

>>> import gymnasium
>>> import golfsim.interop.gymnasium  # registers golfsim/Golf-v0
>>> env = gymnasium.make("golfsim/Golf-v0", opponents=["ev"], jokers="minus2")
>>> obs, info = env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample(obs["action_mask"]))

``gymnasium.make("golfsim/Golf-v0", opponents=["ev"], seat=0, holes=1, render_mode=None, **rule options)``:
``opponents`` names one compiled agent per other seat, with parameters as anywhere in golfsim
(``"pair-builder:keep_threshold=8"``, user agents included); the table has ``len(opponents) + 1`` players and you
sit in ``seat``. The rule options are those of :class:`golfsim.core.rules.Rules`. An unknown opponent or rule option, or
a plain-Python opponent, is a ``ValueError`` naming it.

Opponents move inside ``step``: after your action the engine and the bots play, in one compiled call, every
opponent decision until it is your turn again or the game is over, so one ``step`` is one of your decisions.

Actions
    ``Discrete(27)``, the engine's action ids (table in :mod:`golfsim.interop.pettingzoo` and
    :mod:`golfsim.core.spec`). An action the mask does not allow raises a ``ValueError`` naming the legal ones, so
    ``env.action_space.sample()`` draws among the legal actions of the current decision (pass ``mask`` to choose
    another set), which is what generic tools such as ``check_env`` expect of a random action.
Observations
    ``{"observation": Box(float32, 56 + 7P), "action_mask": Box(int8, 27)}``: exactly what your seat may know, you
    first (layout in :mod:`golfsim.game.observation`), and the engine's legal actions. ``info["action_mask"]``
    holds the same mask.
Rewards
    Minus the points you scored on a hole, given at the step that ends it, 0 at every other step: an episode's
    rewards sum to minus your game total. ``info`` at a hole end also holds ``hole_scores`` (every seat).
Episode end
    ``terminated`` after the last hole; ``truncated`` when a deal reaches the rules' ``turn_cap`` (scored as it
    stands and rewarded as above).
Seeding
    ``reset(seed=s)`` plays game 0 under ``s``: the deals of ``GolfEnv().reset(s, game=0, hole=h)`` and the bots'
    random streams of ``golfsim.game.env.play_game(..., seed=s, game=0)``; each later ``reset()`` without a seed plays
    the next game index.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as err:  # pragma: no cover -- exercised in a subprocess by the tests
    raise ImportError("golfsim.interop.gymnasium needs Gymnasium: pip install 'golfsim[rl]'") from err

from golfsim.core.spec import NUM_ACTIONS
from golfsim.game import observation
from golfsim.interop.pettingzoo import check_render_mode
from golfsim.interop.table import Match, rules_from_options

ENV_ID = "golfsim/Golf-v0"


class LegalActions(spaces.Discrete):
    """``Discrete(27)`` whose ``sample()`` without a mask draws a legal action of the current decision."""

    def __init__(self, legal: np.ndarray, seed=None):
        super().__init__(NUM_ACTIONS, seed=seed)
        self.legal = legal

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None and self.legal.any():
            mask = self.legal
        return super().sample(mask=mask, probability=probability)


class GolfSoloEnv(gymnasium.Env):
    """One seat of six-card Golf against compiled bots; see the module docstring."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, opponents: Sequence = ("greedy",), seat: int = 0, holes: int = 1,
                 render_mode: str | None = None, **rule_options):
        if isinstance(opponents, str):
            opponents = [opponents]
        opponents = list(opponents)
        if not opponents:
            raise ValueError("give at least one opponent, e.g. opponents=['ev']")
        players = len(opponents) + 1
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1} for {len(opponents)} opponent(s), got {seat!r}")
        self.rules = rules_from_options(players, holes, rule_options)
        self.render_mode = check_render_mode(render_mode)
        self.seat = int(seat)
        bots = opponents[:self.seat] + [None] + opponents[self.seat:]
        self.match = Match(self.rules, bots)
        low, high = observation.bounds(self.rules)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8),
        })
        self._legal = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self.action_space = LegalActions(self._legal)
        self._vector = np.zeros(observation.size(players), dtype=np.float32)

    def _observation(self):
        mask = self.match.legal_mask().copy()
        self._legal[:] = mask
        self.match.observe(self.seat, self._vector)
        return {"observation": self._vector.copy(), "action_mask": mask}, {"action_mask": mask}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.match.next_game(seed)
        return self._observation()

    def step(self, action):
        ended = self.match.play(action)
        obs, info = self._observation()
        reward = 0.0
        if ended is not None:
            reward = -float(ended[self.seat])
            info["hole_scores"] = ended
        truncated = self.match.truncated
        terminated = self.match.over and not truncated
        return obs, reward, terminated, truncated, info

    def render(self):
        if self.render_mode is None:
            return None
        return self.match.render()


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=GolfSoloEnv, disable_env_checker=False)
