"""Six-card Golf as a single-player Gymnasium environment: you against compiled golfsim bots.

>>> import gymnasium
>>> import golfsim.interop.gymnasium  # registers golfsim/Golf-v0
>>> env = gymnasium.make("golfsim/Golf-v0", opponents=["ev"], jokers="minus2")
>>> obs, info = env.reset(seed=7)
>>> obs, reward, terminated, truncated, info = env.step(env.action_space.sample(obs["action_mask"]))

``gymnasium.make("golfsim/Golf-v0", opponents=["ev"], seat=0, holes=1, render_mode=None, illegal_action="raise",
illegal_penalty=10.0, ranks="codes", **rule options)``:
``opponents`` names one compiled agent per other seat, with parameters as anywhere in golfsim
(``"pair-builder:keep_threshold=8"``, user agents included); the table has ``len(opponents) + 1`` players and you
sit in ``seat``. The rule options are those of :class:`golfsim.core.rules.Rules`. An unknown opponent or rule option, or
a plain-Python opponent, is a ``ValueError`` naming it.

Opponents move inside ``step``: after your action the engine and the bots play, in one compiled call, every
opponent decision until it is your turn again or the game is over, so one ``step`` is one of your decisions.

Actions
    ``Discrete(27)``, the engine's action ids (table in :mod:`golfsim.interop.pettingzoo` and
    :mod:`golfsim.core.spec`). ``env.action_space.sample()`` draws among the legal actions of the current decision
    (pass ``mask`` to choose another set), which is what generic tools such as ``check_env`` expect of a random
    action. What an action the mask does not allow does is ``illegal_action``'s choice:

    - ``"raise"`` (default): a ``ValueError`` naming the legal ones;
    - ``"penalty"``: the reward is lowered by ``illegal_penalty`` and a legal action drawn at random (from the
      env's seeded ``np_random``) is played instead, so a learner that does not mask can train;
    - ``"end"``: the episode ends (``terminated``) with reward ``-illegal_penalty``.

    ``info["illegal_action"]`` is True at a step whose action was not legal.
Observations
    ``{"observation": Box(float32, ...), "action_mask": Box(int8, 27)}``: exactly what your seat may know, you
    first (layout in :mod:`golfsim.game.observation`), and the engine's legal actions. ``info["action_mask"]``
    holds the same mask. With ``ranks="codes"`` (default) cards are rank codes 0-13 (-1 face down), length
    ``56 + 7P``; with ``ranks="one_hot"`` every card entry (the card you hold, the top discard, each layout
    position) becomes 14 indicators, all zero for no card or a face-down one (:func:`one_hot_ranks`), length
    ``54 + P + 14 * (2 + 6P)``, so a king (worth 0) no longer reads as 12 to a linear layer.
Vectorised
    ``gymnasium.make_vec("golfsim/Golf-v0", num_envs=8, ...)`` makes a :class:`GolfVectorEnv`: the envs stepped in
    one loop, whose ``action_space.sample()`` draws a legal action for each env, and which resets an env at the
    step after its episode ended (Gymnasium's next-step autoreset). ``vectorization_mode="sync"`` or
    ``"async"`` give Gymnasium's own vector envs; their random actions ignore the masks, so use them with
    ``illegal_action="penalty"`` or ``"end"``.
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

from golfsim.core.cards import NUM_RANKS
from golfsim.core.spec import NUM_ACTIONS
from golfsim.game import observation
from golfsim.interop.pettingzoo import check_render_mode
from golfsim.interop.table import Match, rules_from_options

ENV_ID = "golfsim/Golf-v0"
ILLEGAL_ACTIONS = ("raise", "penalty", "end")
RANK_ENCODINGS = ("codes", "one_hot")


def card_entries(players: int) -> np.ndarray:
    """Indices of the observation vector that hold a card's rank code: the held card, the top discard, every
    layout position."""
    views = np.arange(observation.VIEWS_AT, observation.VIEWS_AT + 6 * players)
    return np.concatenate([[observation.HELD_AT, observation.TOP_AT], views])


def one_hot_size(players: int) -> int:
    """Length of the observation with one-hot ranks."""
    cards = 2 + 6 * players
    return observation.size(players) - cards + NUM_RANKS * cards


def one_hot_ranks(vector: np.ndarray, players: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation vector with every rank code replaced by 14 indicators (all zero for -1: no card, or face
    down): the other entries first, in their order, then the cards' indicators, card after card (held card, top
    discard, then the layouts as in the vector)."""
    cards = card_entries(players)
    keep = np.ones(vector.shape[0], dtype=bool)
    keep[cards] = False
    if out is None:
        out = np.zeros(one_hot_size(players), dtype=np.float32)
    rest = int(keep.sum())
    out[:rest] = vector[keep]
    codes = vector[cards].astype(np.int64)
    hot = out[rest:].reshape(len(cards), NUM_RANKS)
    hot[:] = 0
    shown = np.flatnonzero(codes >= 0)
    hot[shown, codes[shown]] = 1
    return out


def _one_hot_bounds(rules) -> tuple[np.ndarray, np.ndarray]:
    low, high = observation.bounds(rules)
    keep = np.ones(low.shape[0], dtype=bool)
    keep[card_entries(rules.players)] = False
    extra = one_hot_size(rules.players) - int(keep.sum())
    return (np.concatenate([low[keep], np.zeros(extra, np.float32)]),
            np.concatenate([high[keep], np.ones(extra, np.float32)]))


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
                 render_mode: str | None = None, illegal_action: str = "raise", illegal_penalty: float = 10.0,
                 ranks: str = "codes", **rule_options):
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_ACTIONS)}, got {illegal_action!r}")
        if ranks not in RANK_ENCODINGS:
            raise ValueError(f"ranks must be one of {', '.join(RANK_ENCODINGS)}, got {ranks!r}")
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float, np.number)) or \
                not np.isfinite(illegal_penalty):
            raise ValueError(f"illegal_penalty must be a finite number, got {illegal_penalty!r}")
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.ranks = ranks
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
        low, high = observation.bounds(self.rules) if ranks == "codes" else _one_hot_bounds(self.rules)
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
        vector = self._vector.copy() if self.ranks == "codes" else one_hot_ranks(self._vector, self.rules.players)
        return {"observation": vector, "action_mask": mask}, {"action_mask": mask}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.match.next_game(seed)
        return self._observation()

    def step(self, action):
        legal = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)) and \
            0 <= int(action) < NUM_ACTIONS and self._legal[int(action)] == 1
        reward = 0.0
        if not legal and self.illegal_action != "raise" and not self.match.over:
            if self.illegal_action == "end":
                obs, info = self._observation()
                info["illegal_action"] = True
                return obs, -self.illegal_penalty, True, False, info
            reward = -self.illegal_penalty
            action = int(self.np_random.choice(np.flatnonzero(self._legal)))
        ended = self.match.play(action)
        obs, info = self._observation()
        info["illegal_action"] = not legal
        if ended is not None:
            reward -= float(ended[self.seat])
            info["hole_scores"] = ended
        truncated = self.match.truncated
        terminated = self.match.over and not truncated
        return obs, reward, terminated, truncated, info

    def render(self):
        if self.render_mode is None:
            return None
        return self.match.render()


class LegalActionsBatch(spaces.MultiDiscrete):
    """``MultiDiscrete([27] * n)`` whose ``sample()`` without a mask draws a legal action for each env."""

    def __init__(self, envs: Sequence[GolfSoloEnv], seed=None):
        super().__init__(np.full(len(envs), NUM_ACTIONS), seed=seed)
        self.envs = list(envs)

    def sample(self, mask=None, probability=None):
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        out = np.zeros(len(self.envs), dtype=self.dtype)
        for i, env in enumerate(self.envs):
            legal = np.flatnonzero(env._legal)
            out[i] = legal[self.np_random.integers(len(legal))] if len(legal) else 0
        return out


class GolfVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` :class:`GolfSoloEnv` stepped in one loop (``gymnasium.make_vec``'s default for Golf).

    Observations are stacked (``{"observation": (n, size), "action_mask": (n, 27)}``); an env whose episode ended
    is reset at the next step, whose action for it is ignored (Gymnasium's next-step autoreset). ``reset(seed=s)``
    seeds env ``i`` with ``s + i``.
    """

    metadata = {"render_modes": ["ansi"], "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, **kwargs):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        self.envs = [GolfSoloEnv(**kwargs) for _ in range(int(num_envs))]
        self.num_envs = int(num_envs)
        self.render_mode = self.envs[0].render_mode
        self.single_observation_space = self.envs[0].observation_space
        self.single_action_space = self.envs[0].action_space
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = LegalActionsBatch(self.envs)
        width = self.single_observation_space["observation"].shape[0]
        self._obs = np.zeros((self.num_envs, width), dtype=np.float32)
        self._masks = np.zeros((self.num_envs, NUM_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(self.num_envs)
        self._terminated = np.zeros(self.num_envs, dtype=bool)
        self._truncated = np.zeros(self.num_envs, dtype=bool)
        self._needs_reset = np.zeros(self.num_envs, dtype=bool)

    def _batch(self):
        return {"observation": self._obs.copy(), "action_mask": self._masks.copy()}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        seeds = [None] * self.num_envs if seed is None else [int(seed) + i for i in range(self.num_envs)]
        for i, env in enumerate(self.envs):
            obs, _ = env.reset(seed=seeds[i])
            self._obs[i] = obs["observation"]
            self._masks[i] = obs["action_mask"]
        self._needs_reset[:] = False
        return self._batch(), {"action_mask": self._masks.copy()}

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"give one action per env: {self.num_envs} actions, got shape {actions.shape}")
        illegal = np.zeros(self.num_envs, dtype=bool)
        for i, env in enumerate(self.envs):
            if self._needs_reset[i]:
                obs, _ = env.reset()
                reward, terminated, truncated = 0.0, False, False
            else:
                obs, reward, terminated, truncated, info = env.step(int(actions[i]))
                illegal[i] = info["illegal_action"]
            self._obs[i] = obs["observation"]
            self._masks[i] = obs["action_mask"]
            self._rewards[i] = reward
            self._terminated[i] = terminated
            self._truncated[i] = truncated
        self._needs_reset[:] = self._terminated | self._truncated
        info = {"action_mask": self._masks.copy(), "illegal_action": illegal}
        return self._batch(), self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), info

    def render(self):
        if self.render_mode is None:
            return None
        return tuple(env.render() for env in self.envs)


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=GolfSoloEnv, vector_entry_point=GolfVectorEnv,
                       disable_env_checker=False)
