"""Arrays handed from Python to compiled code are checked against the rules: a clear ValueError, never a crash.

The cases that crashed the interpreter (a write past an array) run in a subprocess, the way a user's script
meets them: the test sees the exit status and the last line of stderr, so a crash fails the test instead of
taking the test run down with it.
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

from golfsim.core.rules import Rules
from golfsim.core.spec import CURRENT, DISCARD_N, PHASE, PLAYERS, R_OFF_VIEW, STOCK_N
from golfsim.core.validate import check_pub, check_seat, check_totals
from golfsim.game.env import GolfEnv
from golfsim.game.game import CompiledAgent, Game, observe

SETUP = """
import numpy as np
from golfsim.core.rules import Rules
from golfsim.game.env import GolfEnv
from golfsim.game.game import Game, CompiledAgent
from golfsim.coach.hint import hint

def first_turn(rules):
    g = Game(rules, seed=1)
    g.start_hole()
    while g.phase == "open":
        g.step(g.legal_actions()[0])
    return g
"""

CRASHES = {
    "hint with rules for more players": "hint(first_turn(Rules(players=2)).pub, Rules(players=3), samples=4)",
    "hint with rules for fewer players": "hint(first_turn(Rules(players=4)).pub, Rules(players=2), samples=4)",
    "oracle made for 2 players on a 12-player table": textwrap.dedent("""
        small, big = GolfEnv(Rules(players=2)), GolfEnv(Rules(players=12))
        bot = small.agent("oracle", seat=0)
        big.reset(seed=3)
        bot.act(big, big.current_player)
    """),
}


@pytest.mark.parametrize("case", sorted(CRASHES))
def test_arrays_for_other_rules_are_a_value_error_not_a_crash(case):
    script = SETUP + textwrap.dedent(CRASHES[case]) + "\nprint('no error')\n"
    # on a cold Numba cache the oracle case compiles mc's search with every rollout policy first: 309 s to 463 s
    # measured in CI runs, so the subprocess gets most of pytest-timeout's 900 s and is killed before it
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=870)
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    assert done.returncode == 1, (done.returncode, done.stderr[-2000:])
    assert last.startswith("ValueError:"), done.stderr[-2000:]
    assert "players" in last


def first_turn(rules):
    g = Game(rules, seed=1)
    g.start_hole()
    while g.phase == "open":
        g.step(g.legal_actions()[0])
    return g


def test_a_float_or_truncated_pub_is_a_clear_value_error_in_hint():
    from golfsim.coach.hint import hint

    g = first_turn(Rules())
    with pytest.raises(ValueError, match="one-dimensional array of whole numbers"):
        hint(g.pub.astype(np.float64), Rules(), samples=4)
    with pytest.raises(ValueError, match="has 20 entries but the public state for these rules"):
        hint(g.pub[:20], Rules(), samples=4)
    with pytest.raises(ValueError, match="numpy array"):
        hint(list(g.pub), Rules(), samples=4)
    with pytest.raises(ValueError, match="Rules object"):
        hint(g.pub, "2 players", samples=4)


def test_check_pub_names_the_field_out_of_range():
    rules = Rules(players=3)
    pub = first_turn(rules).pub
    assert check_pub(pub, rules) is pub  # a valid int32 state passes unchanged
    assert np.array_equal(check_pub(pub.astype(np.int64), rules), pub)
    for field, value, words in [(CURRENT, 3, r"pub\[CURRENT\] is 3; it must be from 0 to 2"),
                                (PHASE, 9, r"pub\[PHASE\] is 9"),
                                (DISCARD_N, 0, r"pub\[DISCARD_N\] is 0"),
                                (STOCK_N, 10_000, r"pub\[STOCK_N\] is 10000"),
                                (PLAYERS, 2, "a state for 2 players but the rules are for 3")]:
        bad = pub.copy()
        bad[field] = value
        with pytest.raises(ValueError, match=words):
            check_pub(bad, rules)
    bad = pub.copy()
    bad[int(rules.pack()[R_OFF_VIEW])] = 99
    with pytest.raises(ValueError, match="not a rank code"):
        check_pub(bad, rules)
    wide = pub.astype(np.int64)
    wide[17] = 2**40
    with pytest.raises(ValueError, match="outside int32"):
        check_pub(wide, rules)


def test_game_view_refuses_seats_not_at_the_table():
    g = Game(Rules(players=2), seed=2)
    g.start_hole()
    assert len(g.view(1)) == 6
    for seat in (2, -1, 1.0, True):
        with pytest.raises(ValueError, match="seat from 0 to 1"):
            g.view(seat)


def test_holes_past_the_game_are_refused_by_start_hole_and_reset():
    g = Game(Rules(holes=3), seed=2)
    g.start_hole(2)  # the last hole is fine
    with pytest.raises(ValueError, match="from 0 to 2 .the game has 3 holes., got 3"):
        Game(Rules(holes=3)).start_hole(3)
    with pytest.raises(ValueError, match="from 0 to 8"):
        GolfEnv(Rules()).reset(hole=9)
    with pytest.raises(ValueError, match="from 0 to 8"):
        GolfEnv(Rules()).reset(hole=10**20)


def test_totals_beyond_int32_are_refused_not_wrapped():
    g = Game(Rules(), seed=2)
    with pytest.raises(ValueError, match="from -2147483648 to 2147483647"):
        g.start_hole(totals=[2**40 + 5, 0])
    with pytest.raises(ValueError, match="from -2147483648 to 2147483647"):
        GolfEnv(Rules()).reset(totals=[10**30, 0])
    with pytest.raises(ValueError, match="2 whole numbers"):
        g.start_hole(totals=[1.5, 0])
    g.start_hole(totals=[2**31 - 1, -(2**31)])
    assert observe(g, 0)["totals"].tolist() == [2**31 - 1, -(2**31)]
    assert check_totals(np.array([3, 4]), 2).dtype == np.int32
    assert check_seat(np.int64(1), 2) == 1


def test_a_compiled_agent_refuses_to_act_for_a_seat_not_to_move():
    rules = Rules(players=3)
    g = first_turn(rules)
    bot = CompiledAgent("greedy", rules)
    mover = g.current_player
    other = (mover + 1) % 3
    assert 0 <= bot.act(g, mover) < 27
    with pytest.raises(ValueError, match=f"act for player {other}, but the decision is player {mover}'s"):
        bot.act(g, other)
    with pytest.raises(ValueError, match="seat from 0 to 2"):
        bot.act(g, 7)
    with pytest.raises(ValueError, match="who is not to move"):
        bot(observe(g, other))
    with pytest.raises(ValueError, match="was made for 3 players, default rules, not for 2 players"):
        bot.act(first_turn(Rules(players=2)), 0)


def test_a_compiled_agent_checks_the_observation_it_is_given():
    rules = Rules()
    g = first_turn(rules)
    bot = CompiledAgent("ev", rules)
    obs = observe(g, g.current_player)
    assert 0 <= bot(obs) < 27
    with pytest.raises(ValueError, match=r"observation\['observation'\] has 10 entries"):
        bot({**obs, "observation": obs["observation"][:10]})
    with pytest.raises(ValueError, match="one-dimensional array of whole numbers"):
        bot({**obs, "observation": obs["observation"].astype(np.float32)})
    with pytest.raises(ValueError, match="the dict GolfEnv.observe"):
        bot({"player": 0})
