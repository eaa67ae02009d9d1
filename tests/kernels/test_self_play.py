"""The compact self-play kernels play exactly the games the general kernel plays, under every rule set they accept."""

import dataclasses

import numpy as np
import pytest

from golfsim.core.rules import Rules
from golfsim.kernels.self_play import (
    COMPACT_OPTIONS,
    compact_rules,
    play_games_greedy_compact,
    play_games_random_compact,
)
from golfsim.kernels.simulate import Table, kernel_for, play_games, play_games_greedy, play_games_random, work_arrays
from tests.kernel_outputs import kernel_outputs

CASES = [
    ("greedy,greedy", Rules(holes=3)),
    ("random,random", Rules(holes=3)),
    ("greedy:take_gain=1,greedy:blind_swap=3,greedy:fixed_hidden=1",
     Rules(players=3, four_of_a_kind_bonus=-10, end="one_last_turn")),
    ("random,random,random,random", Rules(players=4, end="one_last_turn", opening_flips="same_column", decks=1)),
    ("random,random,random", Rules(players=3, opening_flips="different_columns", jokers="minus2")),
    ("greedy,greedy,greedy", Rules(players=3, opening_flips="same_column", twos_pair="keep_negative",
                                   jokers="minus5")),
    (",".join(["greedy"] * 8), Rules(players=8, decks=1, holes=2)),  # the stock is recycled again and again
    (",".join(["random"] * 12), Rules(players=12, holes=2)),
    ("greedy,greedy", Rules(turn_cap=6, holes=2)),  # every deal truncated
    ("random,random", Rules(turn_cap=5, holes=2)),
]


@pytest.mark.parametrize("agents, rules", CASES, ids=[f"{a[:30]}-{i}" for i, (a, _) in enumerate(CASES)])
def test_the_compact_kernels_play_exactly_what_the_general_kernel_plays(agents, rules):
    table = Table.make(agents, rules)
    ids, _, _ = table.kernel_arguments()
    compact = kernel_for(ids, table.sees_hidden(), rules)
    assert compact in (play_games_greedy_compact, play_games_random_compact)
    general = kernel_outputs(play_games, table, 1500, seed=5)
    assert general[0].any() and not general[4].any()  # games were played, without an error
    for a, b in zip(general, kernel_outputs(compact, table, 1500, seed=5), strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_cases_reach_every_way_a_deal_ends_that_the_rules_allow():
    reasons = set()
    for agents, rules in CASES:
        table = Table.make(agents, rules)
        reasons |= set(np.unique(kernel_outputs(play_games, table, 300, seed=5)[3]).tolist())
    assert reasons == {1, 3}  # went out, truncated (a pack never leaves an empty stock and one discard)


@pytest.mark.parametrize("agents, rules, expected", [
    ("greedy,greedy", Rules(reveal_instead_of_draw=True), play_games_greedy),
    ("greedy,greedy", Rules(discard_and_flip="may"), play_games_greedy),
    ("random,random", Rules(discard_and_flip="must"), play_games_random),
    ("random,random", Rules(end="one_last_turn", four_of_a_kind_bonus=-5), play_games_random_compact),
    ("greedy,random", Rules(), play_games),
])
def test_rules_the_compact_kernels_do_not_play_go_to_the_other_kernels(agents, rules, expected):
    table = Table.make(agents, rules)
    ids, _, _ = table.kernel_arguments()
    assert kernel_for(ids, table.sees_hidden(), rules) is expected


@pytest.mark.parametrize("opening", ["any", "same_column", "different_columns"])
def test_the_compact_opening_check_allows_exactly_what_the_engine_allows(opening):
    from golfsim.core.engine import deal_shuffled, is_legal
    from golfsim.core.rules import R_OFF_VIEW, R_OPENING
    from golfsim.core.spec import CURRENT, FLIP, OPEN, OPEN_FIRST, PHASE
    from golfsim.kernels.self_play import _opening_legal

    rules = Rules(opening_flips=opening)
    packed = rules.pack()
    pub, hid, deal_rng, _, totals, _, _ = work_arrays(packed)
    deal_rng[0] = 11
    deal_shuffled(pub, hid, packed, deal_rng, 0, 0, totals)
    assert pub[PHASE] == OPEN and pub[CURRENT] == 0  # the opening, seat 0 to flip
    base = packed[R_OFF_VIEW]
    view = np.full(6, -1, dtype=np.int32)
    for face_up in range(64):  # every pattern of face-up positions, every first flip
        for k in range(6):
            view[k] = 5 if face_up >> k & 1 else -1
            pub[base + k] = view[k]
        for first in range(-1, 6):
            pub[OPEN_FIRST] = first
            for k in range(6):
                assert _opening_legal(view, 0, k, first, packed[R_OPENING]) == is_legal(pub, packed, FLIP + k)


def test_the_compact_kernels_refuse_every_option_they_do_not_name():
    # set each option outside COMPACT_OPTIONS to a value no rule has: an option added to Rules later is refused
    # without anyone editing the compact kernels (they would play it as if it were off)
    names = {f.name for f in dataclasses.fields(Rules)}
    assert COMPACT_OPTIONS < names and {"reveal_instead_of_draw", "discard_and_flip"} <= names - COMPACT_OPTIONS
    assert compact_rules(Rules()) and compact_rules(Rules(players=5, end="one_last_turn", jokers="minus2"))
    for name in names - COMPACT_OPTIONS:
        rules = Rules()
        object.__setattr__(rules, name, object())
        assert not compact_rules(rules), name


def test_the_compact_kernels_refuse_every_house_rule():
    from golfsim.core.rules import HOUSE_FLAGS

    refused = [Rules(initial_flips=1), Rules(initial_flips=0), Rules(discard_and_flip="endgame"),
               *(Rules(jokers="minus2", **{name: True}) for name in HOUSE_FLAGS)]
    assert not any(compact_rules(rules) for rules in refused)
