"""The shared match: bots play inside one compiled call, exactly the games the batch simulator plays."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from golfsim.agents.base import AGENT_SIGNATURE, REGISTRY, register_compiled_agent
from golfsim.agents.plugins import load_module
from golfsim.core.errors import IllegalActionError
from golfsim.core.rules import Rules
from golfsim.game.game import CompiledAgent, Game
from golfsim.interop.match import Match
from golfsim.kernels.simulate import simulate

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
load_module(str(EXAMPLES / "lowball_agent.py"))  # "lowball", a user's compiled agent
load_module(str(EXAMPLES / "cautious_python_agent.py"))  # "cautious", a plain-Python agent


@njit(AGENT_SIGNATURE, cache=True)
def always_take_0(pub, rules, params, agent_rng, player):
    """Breaks the contract: action 0 whatever the phase."""
    return 0


if "always-take-0" not in REGISTRY:
    register_compiled_agent("always-take-0", "returns action 0 whatever the phase", always_take_0)


@pytest.mark.parametrize(
    ("agents", "rules"),
    [
        (["ev", "greedy"], Rules(players=2, holes=3)),
        # three different agents called by pointer: the rebuilt function tuple uses more than two slots
        (["pair-builder", "ev", "lowball", "greedy"], Rules(players=4, holes=2, jokers="minus2")),
        (["ev", "ev", "random"], Rules(players=3, holes=2, four_of_a_kind_bonus=-10, end="one_last_turn")),
    ],
)
def test_a_table_of_bots_plays_the_simulators_games(agents, rules):
    expected = simulate(agents, rules, games=12, seed=5).players
    match = Match(rules, agents)
    for game in range(12):
        match.start(seed=5, game=game)
        assert match.over
        want = expected[expected.game == game].sort_values("seat")
        np.testing.assert_array_equal(match.totals, want.total.to_numpy())


def test_a_bot_returning_an_illegal_action_is_named():
    match = Match(Rules(players=2), [None, "always-take-0"])
    match.start(seed=1)
    with pytest.raises(IllegalActionError, match=r"agent 'always-take-0' \(seat 1\) returned action 0"):
        while not match.over:
            match.play(int(np.flatnonzero(match.legal_mask())[0]))


def test_an_outside_illegal_action_changes_nothing():
    match = Match(Rules(players=2), [None, "greedy"])
    match.start(seed=1)
    before = match.pub.copy(), match.hid.copy()
    with pytest.raises(ValueError, match=r"action 6 \(draw from stock\) is not legal for player 0 in the open phase"):
        match.play(6)
    np.testing.assert_array_equal(match.pub, before[0])
    np.testing.assert_array_equal(match.hid, before[1])


def test_a_plain_python_opponent_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="'cautious' .* is a plain-Python agent"):
        Match(Rules(players=2), [None, "cautious"])


def test_an_opponent_that_sees_hidden_cards_is_refused_up_front():
    # the oracle needs the true hidden state, which a seat here never has; refusing at construction beats an
    # illegal-action error in the middle of a game
    with pytest.raises(ValueError, match="'oracle.*' \\(seat 1\\) sees the hidden cards"):
        Match(Rules(players=2), [None, "oracle"])


def test_next_game_numbers_games_under_one_seed_as_the_rl_frameworks_reset_does():
    match = Match(Rules(players=2, holes=2), ["ev", "greedy"])
    expected = simulate(["ev", "greedy"], Rules(players=2, holes=2), games=3, seed=9).players
    match.next_game(9)
    played = [match.totals.copy()]
    match.next_game()
    played.append(match.totals.copy())
    match.next_game()
    played.append(match.totals.copy())
    for game, totals in enumerate(played):
        want = expected[expected.game == game].sort_values("seat")
        np.testing.assert_array_equal(totals, want.total.to_numpy())
    assert (match.seed, match.game) == (9, 2)
    match.next_game(9)
    assert match.game == 0


def test_a_first_game_without_a_seed_gets_a_fresh_one():
    first, second = Match(Rules(players=2), ["ev", "ev"]), Match(Rules(players=2), ["ev", "ev"])
    first.next_game()
    second.next_game()
    assert first.game == second.game == 0
    assert first.seed != second.seed


def test_without_jit_the_same_loop_plays_the_same_games_in_plain_python():
    script = (
        "from golfsim.interop.match import Match\n"
        "from golfsim.core.rules import Rules\n"
        "m = Match(Rules(players=3, holes=2), [None, 'greedy', 'random'])\n"
        "m.start(seed=7)\n"
        "while not m.over:\n"
        "    m.play(int(m.legal_mask().nonzero()[0][-1]))\n"
        "print(m.totals.tolist())\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert run.returncode == 0, run.stderr
    match = Match(Rules(players=3, holes=2), [None, "greedy", "random"])
    match.start(seed=7)
    while not match.over:
        match.play(int(match.legal_mask().nonzero()[0][-1]))
    assert run.stdout.strip() == str(match.totals.tolist())


def test_the_fallback_route_passing_the_functions_plays_the_same_games():
    """Without Numba's address helpers the loop takes the agent functions as an argument: slower, same games."""
    rules = Rules(players=3, holes=2)
    totals = []
    for by_address in (True, False):
        match = Match(rules, [None, "ev", "pair-builder"])
        if not by_address:
            match.bot_table.addresses = None
        match.start(seed=4)
        while not match.over:
            match.play(int(np.flatnonzero(match.legal_mask())[0]))
        totals.append(match.totals.tolist())
    assert totals[0] == totals[1]


def test_a_deck_that_is_not_the_pack_is_refused():
    match = Match(Rules(players=2))
    with pytest.raises(ValueError, match="deck must be the 52 rank codes of the pack these rules use"):
        match.start(seed=0, deck=[1] * 52)


def advance_to_outside_seat(game, bots):
    """Play ``game`` (a Game) on with the CompiledAgent of each bot seat in ``bots`` until a seat without one must
    decide or the game is over, dealing the next holes; return the scores of the holes that ended on the way (the
    one the last outside action ended included), summed, or None."""
    ended = None
    while True:
        if game.hole_over:
            scores = np.array(game.scores)
            ended = scores if ended is None else ended + scores
            if game.over:
                return ended
            game.start_hole()
        p = game.current_player
        if p not in bots:
            return ended
        game.step(bots[p].act(game, p))


@pytest.mark.parametrize(
    ("bots", "rules", "seed", "game"),
    [
        ([None, None], Rules(players=2, holes=3), 11, 0),
        ([None, "ev", "greedy"], Rules(players=3, holes=2, jokers="minus2"), 3, 4),
        (["pair-builder", None, "ev", None], Rules(players=4, holes=2, end="one_last_turn"), 8, 1),
    ],
)
def test_a_match_plays_the_games_game_move_for_move(bots, rules, seed, game):
    """At every outside decision a Match and a Game of the same seed (its bot seats played by CompiledAgent, the
    step API's bots) hold the same deal, the same hole and the same totals; each call's ended holes score alike."""
    match = Match(rules, bots)
    match.start(seed=seed, game=game)
    g = Game(rules, seed, game=game)
    agents = {p: CompiledAgent(b, rules) for p, b in enumerate(bots) if b is not None}
    for p, agent in agents.items():
        agent.reset(seed, game, p)
    g.start_hole()
    assert advance_to_outside_seat(g, agents) is None  # no hole ends before the first outside decision
    rng = np.random.default_rng(seed)
    decisions = holes_ended = 0
    while True:
        assert match.over == g.over
        if match.over:
            break
        np.testing.assert_array_equal(match.pub, g.pub)
        np.testing.assert_array_equal(match.hid, g.hid)
        assert (match.hole, match.current) == (g.hole, g.current_player)
        np.testing.assert_array_equal(match.totals, g.totals)
        np.testing.assert_array_equal(np.flatnonzero(match.legal_mask()), g.legal_actions())
        action = int(rng.choice(g.legal_actions()))
        got = match.play(action)
        g.step(action)
        want = advance_to_outside_seat(g, agents)
        decisions += 1
        if want is None:
            assert got is None
        else:
            holes_ended += 1
            np.testing.assert_array_equal(got, want)
    assert not g.truncated and not match.truncated
    np.testing.assert_array_equal(match.totals, g.totals)
    np.testing.assert_array_equal(match.hole_scores, g.hole_scores)
    assert len(g.hole_scores) == rules.holes and holes_ended > 0 and decisions > 4 * rules.holes


def test_a_match_ends_at_a_hole_cut_short_where_a_game_plays_on():
    rules = Rules(players=2, holes=3, turn_cap=2)
    match = Match(rules, ["greedy", "ev"])
    match.start(seed=2)
    g = Game(rules, 2)
    g.play(["greedy", "ev"])
    assert g.history[-1].kind == "hole_end"
    first = next(e for e in g.history if e.kind == "hole_end")
    assert first.end_reason == "truncated"
    assert match.over and match.truncated and match.hole == 0
    np.testing.assert_array_equal(match.hole_scores, [first.scores, [0, 0], [0, 0]])
    np.testing.assert_array_equal(match.totals, first.scores)
    assert len(g.hole_scores) == 3  # the game itself goes on to its last hole
