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
sit in ``seat``. The rule options are those of [`golfsim.core.rules.Rules`][]. An unknown opponent or rule option, or
a plain-Python opponent, is a ``ValueError`` naming it.

Opponents move inside ``step``: after your action the engine and the bots play, in one compiled call, every
opponent decision until it is your turn again or the game is over, so one ``step`` is one of your decisions.

Actions
    ``Discrete(28)``, the engine's action ids (table in [`golfsim.interop.pettingzoo`][] and
    [`golfsim.core.spec`][]). ``env.action_space.sample()`` draws among the legal actions of the current decision
    (pass ``mask`` to choose another set), which is what generic tools such as ``check_env`` expect of a random
    action. What an action the mask does not allow does is ``illegal_action``'s choice:

    - ``"raise"`` (default): a ``ValueError`` naming the legal ones;
    - ``"penalty"``: the reward is lowered by ``illegal_penalty`` and a legal action drawn at random (from the
      env's seeded ``np_random``) is played instead, so a learner that does not mask can train;
    - ``"end"``: the episode ends (``terminated``) with reward ``-illegal_penalty``.

    ``info["illegal_action"]`` is True at a step whose action was not legal.
Observations
    ``{"observation": Box(float32, ...), "action_mask": Box(int8, 28)}``: exactly what your seat may know, you
    first (layout in [`golfsim.game.observation`][]), and the engine's legal actions. ``info["action_mask"]``
    holds the same mask. With ``ranks="codes"`` (default) cards are rank codes 0-13 (-1 face down), length
    ``56 + 7P``; with ``ranks="one_hot"`` every card entry (the card you hold, the top discard, each layout
    position) becomes 14 indicators, all zero for no card or a face-down one
    ([`one_hot_ranks`][golfsim.interop.gymnasium.one_hot_ranks]), length ``54 + P + 14 * (2 + 6P)``, so a king (worth 0)
    no longer reads as 12 to a linear layer.
Vectorised
    ``gymnasium.make_vec("golfsim/Golf-v0", num_envs=8, ...)`` makes a
    [`GolfVectorEnv`][golfsim.interop.gymnasium.GolfVectorEnv]: the envs' games kept in batch arrays and stepped by one
    compiled call, each env playing what a [`GolfSoloEnv`][golfsim.interop.gymnasium.GolfSoloEnv] plays; its
    ``action_space.sample()`` draws a legal action for each env (``mask=`` also takes the ``(n, 28)`` ``action_mask``
    array), and it resets an env at the step after its episode ended (Gymnasium's next-step autoreset).
    ``vectorization_mode="sync"`` or ``"async"`` give Gymnasium's own vector envs; their random actions ignore the
    masks, so use them with ``illegal_action="penalty"`` or ``"end"``.
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

from gymnasium.utils import seeding

from golfsim.core.cards import NUM_RANKS
from golfsim.core.errors import IllegalActionError
from golfsim.core.rng import check_seed
from golfsim.core.spec import NUM_ACTIONS, PHASE_NAMES, action_name
from golfsim.game import observation
from golfsim.interop.match import OUTSIDE_LABEL, Match, first_seed, render_table, rules_from_options
from golfsim.interop.pettingzoo import check_render_mode
from golfsim.kernels.in_flight_env import ILLEGAL_OUTSIDE, NEXT, OK, SKIP, START, pick_legal

ENV_ID = "golfsim/Golf-v0"
ILLEGAL_ACTIONS = ("raise", "penalty", "end")
RANK_ENCODINGS = ("codes", "one_hot")


def card_entries(players: int) -> np.ndarray:
    """Indices of the observation vector that hold a card's rank code: the held card, the top discard, every
    layout position."""
    views = np.arange(observation.VIEWS_AT, observation.VIEWS_AT + 6 * players)
    return np.concatenate([[observation.HELD_AT, observation.TOP_AT], views])


def one_hot_size(players: int, codes: int = NUM_RANKS) -> int:
    """Length of the observation with one-hot ranks (``codes``: ``Rules.n_codes``, 15 with ``one_eyed_jacks``)."""
    cards = 2 + 6 * players
    return observation.size(players, codes) - cards + codes * cards


def one_hot_ranks(vector: np.ndarray, players: int, out: np.ndarray | None = None,
                  codes: int = NUM_RANKS) -> np.ndarray:
    """The observation vector with every card code replaced by ``codes`` indicators (14, or 15 with
    ``one_eyed_jacks``; all zero for -1: no card, or face down): the other entries first, in their order, then the
    cards' indicators, card after card (held card, top discard, then the layouts as in the vector)."""
    width = codes
    cards = card_entries(players)
    keep = np.ones(vector.shape[0], dtype=bool)
    keep[cards] = False
    if out is None:
        out = np.zeros(one_hot_size(players, width), dtype=np.float32)
    rest = int(keep.sum())
    out[:rest] = vector[keep]
    codes = vector[cards].astype(np.int64)
    hot = out[rest:].reshape(len(cards), width)
    hot[:] = 0
    shown = np.flatnonzero(codes >= 0)
    hot[shown, codes[shown]] = 1
    return out


def _one_hot_bounds(rules) -> tuple[np.ndarray, np.ndarray]:
    low, high = observation.bounds(rules)
    keep = np.ones(low.shape[0], dtype=bool)
    keep[card_entries(rules.players)] = False
    extra = one_hot_size(rules.players, rules.n_codes) - int(keep.sum())
    return (np.concatenate([low[keep], np.zeros(extra, np.float32)]),
            np.concatenate([high[keep], np.ones(extra, np.float32)]))


class LegalActions(spaces.Discrete):
    """``Discrete(28)`` whose ``sample()`` without a mask draws a legal action of the current decision."""

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
        self._vector = np.zeros(observation.size(players, self.rules.n_codes), dtype=np.float32)

    def _observation(self):
        mask = self.match.legal_mask().copy()
        self._legal[:] = mask
        self.match.observe(self.seat, self._vector)
        vector = self._vector.copy() if self.ranks == "codes" else one_hot_ranks(self._vector, self.rules.players,
                                                                                codes=self.rules.n_codes)
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
    """``MultiDiscrete([28] * n)`` whose ``sample()`` without a mask draws a legal action for each env (0 for an env
    waiting for its reset); ``mask`` may also be the ``(n, 28)`` mask array of the observation or the info."""

    def __init__(self, masks: np.ndarray, seed=None):
        super().__init__(np.full(masks.shape[0], NUM_ACTIONS), seed=seed)
        self.masks = masks

    def sample(self, mask=None, probability=None):
        if isinstance(mask, np.ndarray) and mask.ndim == 2:
            mask = tuple(mask.astype(np.int8, copy=False))
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        out = np.zeros(self.masks.shape[0], dtype=np.int64)
        pick_legal(self.masks, self.np_random.random(self.masks.shape[0]), out)
        return out.astype(self.dtype, copy=False)


class GolfVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of [`GolfSoloEnv`][golfsim.interop.gymnasium.GolfSoloEnv] kept in batch arrays and stepped
    together by one compiled call ([`golfsim.kernels.in_flight_env.step_envs`][]); ``gymnasium.make_vec``'s default for
    Golf.

    Takes [`GolfSoloEnv`][golfsim.interop.gymnasium.GolfSoloEnv]'s options. Env ``i`` plays what a
    [`GolfSoloEnv`][golfsim.interop.gymnasium.GolfSoloEnv] plays given the same seed and actions (its illegal-action
    substitutes drawn from a generator seeded as that env's ``np_random``). Observations are stacked (``{"observation":
    (n, size), "action_mask": (n, 28)}``); an env whose episode ended is reset at the next step, whose action for it is
    ignored (Gymnasium's next-step autoreset). ``reset(seed=s)`` seeds env ``i`` with ``s + i``; ``reset()`` and an
    autoreset play each env's next game.
    """

    metadata = {"render_modes": ["ansi"], "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, **kwargs):
        from golfsim.core.spec import HID_DTYPE, PUB_DTYPE, R_HID_SIZE, R_PUB_SIZE

        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number of at least 1, got {num_envs!r}")
        n = self.num_envs = int(num_envs)
        self.solo = GolfSoloEnv(**kwargs)  # checks the options and holds the bots, rules and spaces
        self.rules, self.seat = self.solo.rules, self.solo.seat
        self.illegal_action, self.illegal_penalty = self.solo.illegal_action, self.solo.illegal_penalty
        self.render_mode = self.solo.render_mode
        self.single_observation_space = self.solo.observation_space
        self.single_action_space = self.solo.action_space
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, n)
        self._masks = np.zeros((n, NUM_ACTIONS), dtype=np.int8)
        self.action_space = LegalActionsBatch(self._masks)
        self._packed = self.solo.match.packed
        players = self.rules.players
        self._pubs = np.zeros((n, int(self._packed[R_PUB_SIZE])), dtype=PUB_DTYPE)
        self._hids = np.zeros((n, int(self._packed[R_HID_SIZE])), dtype=HID_DTYPE)
        self._deal_rngs = np.zeros((n, 1), dtype=np.uint64)
        self._agent_rngs = np.zeros((n, players), dtype=np.uint64)
        self._totals = np.zeros((n, players), dtype=np.int32)
        self._scores = np.zeros(players, dtype=np.int32)
        self._vectors = np.zeros((n, observation.size(players, self.solo.rules.n_codes)), dtype=np.float32)
        self._rewards = np.zeros(n)
        self._terminated = np.zeros(n, dtype=bool)
        self._truncated = np.zeros(n, dtype=bool)
        self._illegal = np.zeros(n, dtype=bool)
        self._mode = np.zeros(n, dtype=np.int64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._seeds = np.zeros(n, dtype=np.uint64)
        self._games = np.full(n, -1, dtype=np.int64)
        self._error = np.zeros(7, dtype=np.int64)
        self._env_rngs: list = [None] * n
        self._kernel = _EnvKernel(self.solo.match.bot_table, self.seat)
        if self.solo.ranks == "one_hot":
            cards = card_entries(players)
            keep = np.ones(observation.size(players, self.solo.rules.n_codes), dtype=bool)
            keep[cards] = False
            self._keep, self._cards = np.flatnonzero(keep), cards

    def _advance(self) -> bool:
        """One kernel call; True if it refused the learner's actions (marked in ``self._illegal``)."""
        code = self._kernel(self._packed, self._mode, self._seeds, self._games, self._actions, self._pubs,
                            self._hids, self._deal_rngs, self._agent_rngs, self._totals, self._scores, self._rewards,
                            self._terminated, self._truncated, self._illegal, self._vectors, self._masks,
                            self._error)
        if code == ILLEGAL_OUTSIDE:
            return True
        if code != OK:
            env, seat, bad, phase = (int(x) for x in self._error[:4])
            raise IllegalActionError(
                f"agent {self.solo.match.bots[seat].label!r} (seat {seat}) of env {env} returned action {bad} "
                f"({action_name(bad)}), not legal in the {PHASE_NAMES[phase]} phase")
        return False

    def _batch(self):
        if self.solo.ranks == "codes":
            vectors = self._vectors.copy()
        else:
            codes = self._vectors[:, self._cards].astype(np.int64)
            hot = (codes[:, :, None] == np.arange(self.solo.rules.n_codes)).reshape(self.num_envs, -1)
            vectors = np.concatenate([self._vectors[:, self._keep], hot.astype(np.float32)], axis=1)
        return {"observation": vectors, "action_mask": self._masks.copy()}, self._masks.copy()

    def reset(self, *, seed=None, options=None):
        """Start every env's next game: with ``seed`` an int, env ``i``'s game 0 under ``seed + i``; with a list of
        ``num_envs`` seeds (``None`` entries allowed), each env's own; without, each env's next game."""
        if isinstance(seed, (list, tuple)):
            if len(seed) != self.num_envs:
                raise ValueError(f"give one seed per env: {self.num_envs} seeds, got {len(seed)}")
            seeds = list(seed)
            super().reset(seed=None)
        else:
            seeds = [None if seed is None else int(seed) + i for i in range(self.num_envs)]
            super().reset(seed=seed)
            if seed is not None:
                self.action_space.seed(seed)
        for i, env_seed in enumerate(seeds):  # as Match.next_game: game 0 under a seed, else the env's next game
            if env_seed is not None:
                self._seeds[i] = check_seed(env_seed)
                self._games[i] = 0
                self._env_rngs[i], _ = seeding.np_random(int(env_seed))
            elif self._games[i] < 0:
                self._seeds[i] = first_seed()
                self._games[i] = 0
            else:
                self._games[i] += 1
        self._mode[:] = START
        self._advance()
        self._illegal[:] = False
        obs, masks = self._batch()
        return obs, {"action_mask": masks}

    def step(self, actions):
        if (self._games < 0).any():
            raise gymnasium.error.ResetNeeded("call reset() before step(): no game has started (the action masks "
                                              "are all zero until then)")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"give one action per env: {self.num_envs} actions, got shape {actions.shape}")
        if actions.dtype.kind not in "iu":
            raise ValueError(f"actions are whole numbers from 0 to {NUM_ACTIONS - 1}, got dtype {actions.dtype}")
        self._actions[:] = actions
        if self._advance():
            self._illegal_step(actions)
        obs, masks = self._batch()
        info = {"action_mask": masks, "illegal_action": self._illegal.copy()}
        return obs, self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), info

    def _illegal_step(self, actions) -> None:
        """The step whose actions the kernel found illegal in the envs ``self._illegal`` marks, per
        ``illegal_action`` (nothing has been played yet)."""
        illegal = np.flatnonzero(self._illegal)
        if self.illegal_action == "raise":
            i = int(illegal[0])
            a = int(actions[i])
            shown = action_name(a) if 0 <= a < NUM_ACTIONS else "no action"
            choices = ", ".join(f"{c} ({action_name(c)})" for c in np.flatnonzero(self._masks[i]))
            raise ValueError(f"env {i}: action {a} ({shown}) is not legal for player {self.seat}; legal: {choices}")
        for i in illegal:
            if self.illegal_action == "end":
                self._mode[i] = SKIP
                continue
            if self._env_rngs[i] is None:
                self._env_rngs[i], _ = seeding.np_random()
            self._actions[i] = int(self._env_rngs[i].choice(np.flatnonzero(self._masks[i])))
        self._advance()
        if self.illegal_action == "end":  # the kernel left these envs (and their last reward) as they were
            self._rewards[illegal] = -self.illegal_penalty
            self._terminated[illegal] = True
            self._truncated[illegal] = False
            self._mode[illegal] = NEXT
        else:
            self._rewards[illegal] -= self.illegal_penalty
        self._illegal[illegal] = True

    def render(self):
        if self.render_mode is None:
            return None
        labels = [b.label if b is not None else OUTSIDE_LABEL for b in self.solo.match.bots]
        return tuple(render_table(self.rules, self._packed, self._pubs[i], self._totals[i], labels,
                                  bool(self._mode[i] == NEXT)) for i in range(self.num_envs))


class _EnvKernel:
    """The compiled [`step_envs`][golfsim.kernels.in_flight_env.step_envs] bound to one table's bots (by address, or in
    plain Python under ``NUMBA_DISABLE_JIT=1``)."""

    def __init__(self, bots, seat: int):
        import numba

        from golfsim._numba import pointers
        from golfsim.kernels import in_flight_env

        self.bots, self.seat = bots, np.int64(seat)
        if numba.config.DISABLE_JIT:
            self.kernel, self.agents = in_flight_env.step_in, bots.agent_fns
        elif pointers.AVAILABLE:
            self.kernel, self.agents = in_flight_env.step_envs, bots.addresses
        else:  # pragma: no cover -- depends on the installed Numba (golfsim._numba.pointers)
            self.kernel, self.agents = in_flight_env.step_envs_passing_functions, bots.agent_fns

    def __call__(self, packed, *arrays) -> int:
        b = self.bots
        return int(self.kernel(packed, b.bot_ids, b.params, self.agents, b.is_bot, self.seat, *arrays))


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=GolfSoloEnv, vector_entry_point=GolfVectorEnv,
                       disable_env_checker=False)
