"""Six-card Golf as a PettingZoo AEC environment: every seat is an agent, each decision a step.

>>> from golfsim.interop.pettingzoo import env
>>> e = env(players=2, jokers="minus2", holes=1)
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, termination, truncation, info = e.last()
...     action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

``env(players=2, holes=1, render_mode=None, **rule options)``: the rule options are those of
[`golfsim.core.rules.Rules`][] (``jokers``, ``opening_flips``, ``reveal_instead_of_draw``, ``discard_and_flip``,
``end``, ``twos_pair``, ``four_of_a_kind_bonus``, ``decks``, ``turn_cap``); an unknown option or a bad value is a
``ValueError`` naming it. ``env`` wraps [`raw_env`][golfsim.interop.pettingzoo.raw_env] in PettingZoo's order-enforcing
wrapper.

Agents
    ``player_0 .. player_{P-1}``, seat ``i`` = golfsim seat ``i``. Who moves is decided by the rules: hole ``h`` is
    opened by seat ``h % P``, and a turn may take two decisions (draw, then place or throw; a throw may be followed
    by a flip).
Actions
    ``Discrete(28)``, the engine's action ids ([`golfsim.core.spec`][]):

    =======  ===============================================================================
    0..5     take the top discard and put it at position k (the old card goes on the discard)
    6        draw the top stock card (only you see it)
    7..12    reveal face-down position k (only with ``reveal_instead_of_draw=True``)
    13..18   put the drawn card at position k (the old card goes on the discard)
    19       throw the drawn card on the discard
    20..25   flip face-down position k (opening flips; after a throw with ``discard_and_flip``)
    26       pass (flip nothing; only with ``discard_and_flip="may"``)
    =======  ===============================================================================

    Positions 0, 1, 2 are the top row, 3, 4, 5 the bottom row. An action the mask does not allow raises a
    ``ValueError`` naming it, the phase and the legal actions (no silent penalty).
Observations
    ``{"observation": Box(float32, 56 + 7P), "action_mask": Box(int8, 28)}``. The vector is exactly what that
    seat may know (RULES.md "What a player knows"), seen from its own place: the layout is documented in
    [`golfsim.game.observation`][]. The mask is the engine's legal actions for the agent to move and all zeros
    for everyone else.
Rewards
    When a hole ends, each agent's reward is minus the points it scored on that hole (golf: fewer is better), so
    over an episode of ``holes`` holes the rewards sum to minus the game total. All other steps reward 0.
Episode end
    Termination after the last hole. A deal that reaches the rules' ``turn_cap`` is scored as it stands (rewards as
    above) and ends the episode as a truncation for every agent.
Seeding
    ``reset(seed=s)`` plays game 0 under ``s``: hole ``h`` is the deal ``golfsim.game.env.GolfEnv().reset(s, game=0,
    hole=h)`` gives and the batch simulator plays as game 0 of ``simulate(..., seed=s)``. Each later ``reset()``
    without a seed plays the next game index under the same seed.
Rendering
    ``render_mode="ansi"``: ``render()`` returns the table as an onlooker sees it.
"""

from __future__ import annotations

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover -- exercised in a subprocess by the tests
    raise ImportError("golfsim.interop.pettingzoo needs PettingZoo: pip install 'golfsim[rl]'") from err

from golfsim.core.spec import NUM_ACTIONS
from golfsim.game import observation
from golfsim.interop.match import Match, rules_from_options

RENDER_MODES = ("ansi",)


def env(players: int = 2, holes: int = 1, render_mode: str | None = None, **rule_options) -> AECEnv:
    """The Golf AEC environment wrapped in PettingZoo's order enforcement (see the module docstring)."""
    return wrappers.OrderEnforcingWrapper(raw_env(players, holes, render_mode, **rule_options))


def check_render_mode(render_mode):
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode={render_mode!r} is not supported; use 'ansi' or None")
    return render_mode


class raw_env(AECEnv):  # noqa: N801 -- PettingZoo's naming convention
    """Six-card Golf, one agent per seat; see the module docstring for spaces, rewards and seeding."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "golfsim_golf_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, holes: int = 1, render_mode: str | None = None, **rule_options):
        super().__init__()
        self.rules = rules_from_options(players, holes, rule_options)
        self.render_mode = check_render_mode(render_mode)
        self.match = Match(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self._seat = {name: i for i, name in enumerate(self.possible_agents)}
        low, high = observation.bounds(self.rules)
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(low, high, dtype=np.float32),
                            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.match.next_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.match.current]

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if not self.match.over and seat == self.match.current:
            mask[:] = self.match.legal_mask()
        return {"observation": self.match.observe(seat), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        ended = self.match.play(action)
        for a in self.agents:
            self.rewards[a] = 0 if ended is None else -int(ended[self._seat[a]])
        if self.match.over:
            done = self.terminations if not self.match.truncated else self.truncations
            for a in self.agents:
                done[a] = True
        self.agent_selection = self.possible_agents[self.match.current]
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        return self.match.render()

    def close(self):
        pass
