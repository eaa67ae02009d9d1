"""Every built-in agent plays every rule option, alone and in combinations, without an illegal action or a
truncated deal: in every seat, and mixed with random players (whose odd layouts reach odd positions).

The check is the public :func:`golfsim.agent_checks.check_legal` that plugin authors run on their own agents.
"""

import numpy as np
import pytest

from golfsim.agent_checks import VARIANTS, AgentCheckError, check_legal
from golfsim.core.rules import Rules

AGENTS = ["greedy", "ev", "pair-builder", "learned"]
GAMES = 1500  # two-hole games, so the dealer moves and game totals are in play


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("agent", AGENTS)
def test_plays_every_variant_legally(agent, variant):
    rules = VARIANTS[variant]
    report = check_legal(agent, {variant: rules}, games=GAMES, seed=17)
    assert report.counts == {variant: 2 * GAMES * rules.holes}  # two seatings: alone, and mixed with random


class RandomLegal:
    """A plain-Python policy: a random legal action, from the seed golfsim hands it at each game."""

    def reset(self, seed, game, seat):
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation):
        return int(self.rng.choice(np.flatnonzero(observation["action_mask"])))


def test_a_plain_python_agent_is_checked_too():
    report = check_legal(RandomLegal(), {"default": Rules(holes=1), "4 players": Rules(players=4, holes=1)},
                         games=3)
    assert report.counts == {"default": 6, "4 players": 6}


def test_an_agent_that_never_ends_a_deal_fails_the_check():
    def first_legal(observation):
        return int(np.flatnonzero(observation["action_mask"])[0])  # always the lowest action id

    with pytest.raises(AgentCheckError, match="hit the turn cap"):
        check_legal(first_legal, {"default": Rules(holes=1)}, games=2)


def test_an_illegal_move_fails_the_check_naming_the_agent():
    def reveal_always(observation):
        return 10  # reveal position 3: offered only with reveal_instead_of_draw

    with pytest.raises(AgentCheckError, match="reveal_always under 'default'"):
        check_legal(reveal_always, {"default": Rules(holes=1)}, games=1)
