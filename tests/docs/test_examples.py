"""The two user agents in docs/examples play legally under every rule variant: what a newcomer copies must work.

The plain-Python example plays every seat through the step API (``play_game`` stops with an error naming the agent
at its first illegal action); the compiled example fills every seat but one in the batch simulator (which does the
same).
"""

from pathlib import Path

import pytest

from golfsim.agents.plugins import load_module
from golfsim.core.rules import Rules
from golfsim.game.env import play_game
from golfsim.kernels.simulate import simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
load_module(str(EXAMPLES / "lowball_agent.py"))
load_module(str(EXAMPLES / "cautious_python_agent.py"))

VARIANTS = {
    "default": {},
    "3 players": {"players": 3},
    "6 players, 2 decks": {"players": 6},
    "opening_flips=same_column": {"opening_flips": "same_column"},
    "opening_flips=different_columns": {"opening_flips": "different_columns"},
    "reveal_instead_of_draw": {"reveal_instead_of_draw": True},
    "discard_and_flip=may": {"discard_and_flip": "may"},
    "discard_and_flip=must": {"discard_and_flip": "must"},
    "end=one_last_turn": {"end": "one_last_turn"},
    "jokers=minus2": {"jokers": "minus2"},
    "jokers=minus5": {"jokers": "minus5"},
    "jokers=minus3": {"jokers": "minus3"},
    "jokers=zero": {"jokers": "zero"},
    "twos_pair=keep_negative": {"twos_pair": "keep_negative"},
    "four_of_a_kind_bonus=-10": {"four_of_a_kind_bonus": -10},
    "everything at once": {"players": 3, "opening_flips": "same_column", "reveal_instead_of_draw": True,
                           "discard_and_flip": "must", "end": "one_last_turn", "jokers": "minus2",
                           "twos_pair": "zero", "four_of_a_kind_bonus": -10},
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_plain_python_example_plays_legally_under_every_variant(variant):
    options = VARIANTS[variant]
    rules = Rules(**{"players": 2, **options, "holes": 9})
    for seed in range(3):
        # the example in every seat, so it meets every decision the variant has (opening, flip, one last turn)
        game = play_game(["cautious"] * rules.players, rules, seed=seed)
        assert not any(game["truncated"])
    mixed = play_game(["cautious", *["lowball"] * (rules.players - 1)], rules, seed=5)
    assert len(mixed["totals"]) == rules.players


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_compiled_example_plays_legally_under_every_variant(variant):
    rules = Rules(**{"players": 2, **VARIANTS[variant]})
    # lowball never turns a face-down card after the opening, so it cannot go out itself: greedy in the last seat
    # ends the deals; every other seat is lowball
    result = simulate(["lowball"] * (rules.players - 1) + ["greedy"], rules, games=300, seed=9)
    assert result.truncated_deals == 0


def test_the_bots_guide_shows_each_example_file_as_it_is():
    """GitHub shows no snippet includes: the guide holds the example code itself, and it must be the file's."""
    import re

    repo = EXAMPLES.parents[1]
    guide = (repo / "docs/guide/bots.md").read_text()
    assert "--8<--" not in guide
    shown = dict(re.findall(r"This is `(docs/examples/\w+\.py)`[^\n]*:\n\n```python\n(.*?)```", guide, re.S))
    assert set(shown) == {"docs/examples/lowball_agent.py", "docs/examples/cautious_python_agent.py",
                          "docs/examples/batched_numpy_agents.py"}
    for name, code in shown.items():
        assert code == (repo / name).read_text(), f"docs/guide/bots.md shows an old copy of {name}"


def test_the_compiled_example_takes_a_low_top_discard_and_leaves_a_high_one():
    import numpy as np

    from golfsim.agents import REGISTRY
    from golfsim.coach.position import parse_position
    from golfsim.core.spec import DRAW_STOCK, TAKE_DISCARD

    act = REGISTRY["lowball"].function
    rules = Rules()
    params, rng = np.zeros(1), np.zeros(1, dtype=np.uint64)
    low = parse_position("me: 9 ? ? / ? 4 ?; opp: ? 7 ? / ? ? ?; discard: Q 3", rules)  # a 3 on top, a 9 up
    high = parse_position("me: 9 ? ? / ? 4 ?; opp: ? 7 ? / ? ? ?; discard: 3 Q", rules)  # a queen on top
    assert act(low, rules.pack(), params, rng, 0) == TAKE_DISCARD + 0  # over its worst face-up card, the 9
    assert act(high, rules.pack(), params, rng, 0) == DRAW_STOCK
