"""The OpenSpiel game python_golf: OpenSpiel's random simulation test, chance, observations, resampling, the bridge."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts

import golfsim.interop.openspiel  # noqa: F401 -- registers python_golf
from golfsim.core.cards import rank_name
from golfsim.core.engine import shuffled_deck
from golfsim.core.rng import deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import DRAW_STOCK, HELD, STOCK_N
from golfsim.game.env import GolfEnv, play_game
from golfsim.game.game import Game
from golfsim.interop.openspiel import RolloutEvaluator, openspiel_policy, seeded_resampler


@pytest.mark.parametrize(
    "spec",
    ["python_golf(players=2)",
     "python_golf(players=3,holes=2,jokers=minus2,discard_and_flip=may,end=one_last_turn)",
     "python_golf(players=2,reveal_instead_of_draw=True,opening_flips=different_columns,twos_pair=keep_negative)"],
)
def test_passes_openspiels_random_simulation_test(spec):
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=3, serialize=True, verbose=False)


def dealt(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def test_the_deal_is_one_chance_node_per_card_weighted_by_the_copies_left():
    game = pyspiel.load_game("python_golf(jokers=minus2)")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 2 / 54)] + [(r, 4 / 54) for r in range(1, 14)]
    state.apply_action(0)
    state.apply_action(0)
    assert state.chance_outcomes() == [(r, 4 / 52) for r in range(1, 14)]
    nodes = 2
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
        nodes += 1
    assert nodes == 54
    assert state.current_player() == 0
    assert state.legal_actions() == list(range(20, 26))


def test_rule_parameters_reach_the_rules():
    game = pyspiel.load_game("python_golf(players=5,jokers=minus5,turn_cap=50,holes=3)")
    assert game.num_players() == 5
    assert game.rules == Rules(players=5, jokers="minus5", turn_cap=50, holes=3)
    assert game.rules.decks == 2  # decks=0 is "auto"


def test_observations_hide_the_drawn_card_from_everyone_but_the_drawer():
    game = pyspiel.load_game("python_golf")
    state = dealt(game, np.random.default_rng(3))
    while DRAW_STOCK not in state.legal_actions():  # the four opening flips
        state.apply_action(state.legal_actions()[0])
    drawer = state.current_player()
    state.apply_action(DRAW_STOCK)
    held = int(state.pub[HELD])
    assert f"you hold {rank_name(held)}" in state.observation_string(drawer)
    assert "you hold" not in state.observation_string(1 - drawer)
    assert state.observation_tensor(drawer)[4] == held
    assert state.observation_tensor(1 - drawer)[4] == -1
    assert f"(drew {rank_name(held)})" in state.information_state_string(drawer)
    assert "(drew" not in state.information_state_string(1 - drawer)


def test_resampling_keeps_the_information_state_and_redraws_the_hidden_cards():
    game = pyspiel.load_game("python_golf(players=3)")
    state = dealt(game, np.random.default_rng(8))
    rng = np.random.default_rng(9)
    for _ in range(20):
        state.apply_action(int(rng.choice(state.legal_actions())))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    layouts = set()
    for _ in range(20):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        np.testing.assert_array_equal(sample.pub, state.pub)
        # layouts (3 x 6 cards) then the stock: the multiset of cards is unchanged, where the hidden ones lie is
        # drawn again
        stock_end = 18 + int(state.pub[STOCK_N])
        assert sorted(sample.hid[:stock_end].tolist()) == sorted(state.hid[:stock_end].tolist())
        layouts.add(tuple(sample.hid[:18]))
    assert len(layouts) > 1


def small_ismcts(rules, resampler_seed=3):
    def make_bot(game):
        bot = ismcts.ISMCTSBot(game, RolloutEvaluator(rules, "greedy", seed=1), uct_c=10.0, max_simulations=8,
                               random_state=np.random.RandomState(1))
        bot.set_resampler(seeded_resampler(resampler_seed))
        return bot

    return make_bot


def test_an_ismcts_bot_sits_at_a_golfsim_table():
    rules = Rules(players=2, holes=1)
    result = play_game([openspiel_policy(small_ismcts(rules), rules, seed=1), "greedy"], rules, seed=4)
    assert result["hole_scores"].shape == (1, 2)
    assert result["turns"][0] > 0


def bridge_decisions(rules, decks, resampler_seeds):
    """Play one deal per deck, seat 0 the ISMCTS bridge and seat 1 the first legal action, until seat 1's position
    5 (deck card 11) shows or the stock reaches the swapped card; return seat 0's decisions in each."""
    envs = [GolfEnv(rules) for _ in decks]
    for env, deck in zip(envs, decks, strict=True):
        env.reset(6, deck=deck)
    bots = [openspiel_policy(small_ismcts(rules, s), rules, seed=2) for s in resampler_seeds]
    decisions = [[] for _ in envs]
    while not envs[0].done and envs[0].observe(0)["view"][1][5] < 0 and envs[0].observe(0)["stock_size"] > 20:
        obs = [env.observe() for env in envs]
        for o in obs[1:]:
            np.testing.assert_array_equal(o["observation"], obs[0]["observation"])
        if obs[0]["player"] == 0:
            actions = [bot(o) for bot, o in zip(bots, obs, strict=True)]
        else:
            actions = [int(np.flatnonzero(obs[0]["action_mask"])[0])] * len(envs)
        for env, action, record in zip(envs, actions, decisions, strict=True):
            if obs[0]["player"] == 0:
                record.append(action)
            env.step(action)
    return decisions


def test_the_bridge_decides_from_what_its_seat_may_know_only():
    """Two deals whose decks differ only in a card of the opponent's that stays face down and the bottom stock card:
    the bot makes the same decisions in both as long as neither card has shown (and with a different search seed it
    would not, so the comparison can fail)."""
    rules = Rules(players=2, holes=1)
    deck = list(shuffled_deck(rules.pack(), np.array([deal_state(6, 0, 0)], dtype=np.uint64)))
    other = next(i for i in range(len(deck) - 1, 12, -1) if deck[i] != deck[11])
    assert other > 40  # near the bottom of the stock: it stays there while the comparison runs
    swapped = deck.copy()
    swapped[11], swapped[other] = swapped[other], swapped[11]  # deck card 11 is seat 1's position 5
    same_cards, other_cards = bridge_decisions(rules, [deck, swapped], [3, 3])
    assert len(same_cards) >= 3
    assert same_cards == other_cards
    reseeded, _ = bridge_decisions(rules, [deck, deck], [4, 4])
    assert reseeded != same_cards


def test_bad_input_is_one_clear_error():
    with pytest.raises(ValueError, match="jokers='lots' is not allowed"):
        pyspiel.load_game("python_golf(jokers=lots)")
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'jokerz'"):
        pyspiel.load_game("python_golf(jokerz=minus2)")
    state = pyspiel.load_game("python_golf").new_initial_state()
    with pytest.raises(ValueError, match="chance outcome 14 is not a rank code with cards left to deal"):
        state.apply_action(14)
    state = dealt(pyspiel.load_game("python_golf"), np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"action 0 \(take discard to 0\) is not legal for player 0"):
        state.apply_action(0)


def test_the_ismcts_example_plays_a_duplicate_match_from_the_command_line():
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "openspiel_ismcts_agent.py"
    run = subprocess.run([sys.executable, str(example), "--opponent", "greedy", "--deals", "1", "--simulations", "4",
                          "--threads", "1"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "1 deal sets x 2 seats, seed 0, 4 simulations per decision" in run.stdout
    assert "margin (ismcts minus greedy):" in run.stdout


@pytest.mark.slow  # two command-line tournaments, one on two worker processes that each import OpenSpiel
def test_a_tournament_seats_the_ismcts_example_from_the_command_line():
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "GOLFSIM_AGENT_MODULES": str(root / "docs" / "examples" / "openspiel_ismcts_agent.py")}
    args = [sys.executable, "-m", "golfsim", "tournament", "--agents", "ismcts:simulations=4,greedy", "--games", "2",
            "--holes", "1", "--seed", "1", "--quiet", "--format", "json"]
    runs = [subprocess.run([*args, "--threads", str(t)], capture_output=True, text=True, env=env, timeout=600)
            for t in (1, 2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    docs = [json.loads(run.stdout) for run in runs]
    assert docs[0]["summary"]["games_played"] == 4
    assert {r["agent"] for r in docs[0]["standings"]} == {"ismcts:simulations=4", "greedy"}
    assert docs[0]["standings"] == docs[1]["standings"]  # each game seeded by its own stream: 1 or 2 workers


@pytest.mark.parametrize(
    ("spec", "seed"),
    [("python_golf(players=2,holes=3,recycle_seed=5)", 5),
     ("python_golf(players=3,holes=2,jokers=minus2,end=one_last_turn,recycle_seed=12)", 12)],
)
def test_the_state_plays_the_games_game_move_for_move(spec, seed):
    """Driven through pyspiel's API (the chance deal card by card, decisions, clones along the way), python_golf
    holds at every decision the deal, hole and totals of a Game dealt the same decks, and its returns are minus
    the game's totals."""
    game = pyspiel.load_game(spec)
    rules = game.rules
    g = Game(rules, seed)
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    decisions = 0
    for hole in range(rules.holes):
        deck = [int(c) for c in shuffled_deck(rules.pack(), np.array([deal_state(seed, 0, hole)], dtype=np.uint64))]
        for card in deck:
            assert state.is_chance_node()
            assert card in dict(state.chance_outcomes())
            state.apply_action(card)
        g.start_hole(deck=deck)
        while not g.hole_over:
            assert state.current_player() == g.current_player
            assert state.legal_actions() == g.legal_actions()
            np.testing.assert_array_equal(state.pub, g.pub)
            np.testing.assert_array_equal(state.hid, g.hid)
            assert state.hole == g.hole
            np.testing.assert_array_equal(state.totals, g.totals)
            action = int(rng.choice(g.legal_actions()))
            state.apply_action(action)
            g.step(action)
            decisions += 1
            if decisions % 7 == 0:
                state = state.clone()  # a clone plays on as the original would
        np.testing.assert_array_equal(state.totals, g.totals)
        assert state.is_terminal() == g.over
    assert state.is_terminal()
    assert state.returns() == [-float(t) for t in g.totals]
    assert decisions > 20 * rules.holes


def test_a_hole_cut_short_ends_the_state_where_a_game_plays_on():
    game = pyspiel.load_game("python_golf(players=2,holes=3,turn_cap=2)")
    deck = [int(c) for c in shuffled_deck(game.rules.pack(), np.array([deal_state(1, 0, 0)], dtype=np.uint64))]
    state = game.new_initial_state()
    for card in deck:
        state.apply_action(card)
    g = Game(game.rules, 0)
    g.start_hole(deck=deck)
    while not g.hole_over:
        action = g.legal_actions()[0]
        state.apply_action(action)
        g.step(action)
    assert g.truncated and not g.over  # the game goes on to its next hole
    assert state.is_terminal()
    assert state.returns() == [-float(s) for s in g.scores]
