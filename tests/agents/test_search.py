"""mc and oracle: they leave the real state alone, play every variant legally, find a clearly best move, and give the
same decisions for the same seed whatever the thread count; the oracle is marked wherever it is shown."""

import os
import subprocess
import sys

import numpy as np
import pytest

from golfsim.agents import REGISTRY, parse_agent
from golfsim.agents.search import MARGIN_TIE_BREAK, mc_act, oracle_act, outcome
from golfsim.core.engine import apply_action, deal_shuffled, is_legal, legal_mask
from golfsim.core.rng import deal_state
from golfsim.core.rules import R_HID_SIZE, R_PUB_SIZE, Rules
from golfsim.core.spec import DONE, HID_DTYPE, NUM_ACTIONS, PHASE, PLACE_DRAWN, PUB_DTYPE
from golfsim.core.worlds import fill_sight, sight_size
from golfsim.game.env import play_game
from golfsim.kernels.simulate import simulate
from golfsim.tournament import run_tournament
from tests.agents.positions import position

FAST_MC = "mc:samples=6"


def positions_of(rules, seed, count):
    """Positions ``(pub, hid, deal_rng)`` from deals played by random legal moves."""
    packed = rules.pack()
    rng = np.random.default_rng(seed)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    pub = np.zeros(packed[R_PUB_SIZE], dtype=PUB_DTYPE)
    hid = np.zeros(packed[R_HID_SIZE], dtype=HID_DTYPE)
    deal_rng = np.zeros(1, dtype=np.uint64)
    out = []
    deal = 0
    while len(out) < count:
        deal_rng[0] = deal_state(seed, deal, 0)
        deal_shuffled(pub, hid, packed, deal_rng, 0, 0, np.zeros(rules.players, np.int32))
        deal += 1
        while pub[PHASE] != DONE and len(out) < count:
            if rng.random() < 0.15:
                out.append((pub.copy(), hid.copy(), deal_rng.copy()))
            legal_mask(pub, packed, mask)
            apply_action(pub, hid, packed, deal_rng, int(rng.choice(np.flatnonzero(mask))))
    return out


@pytest.mark.parametrize("rules", [Rules(), Rules(players=4, end="one_last_turn", discard_and_flip="may")],
                         ids=["default", "4p-last-turn-may"])
@pytest.mark.slow
def test_searching_never_changes_the_real_state(rules):
    packed = rules.pack()
    mc = parse_agent(FAST_MC).param_vector()
    oracle = parse_agent("oracle").param_vector()
    for pub, hid, deal_rng in positions_of(rules, seed=4, count=40):
        player = int(pub[1])
        agent_rng = np.arange(1, rules.players + 1, dtype=np.uint64)
        before = pub.copy()
        action = mc_act(pub, packed, mc, agent_rng, player)
        assert is_legal(pub, packed, action)
        assert np.array_equal(pub, before)
        others = np.delete(agent_rng, player)
        assert np.array_equal(others, np.delete(np.arange(1, rules.players + 1, dtype=np.uint64), player))

        sight = np.zeros(sight_size(packed), dtype=PUB_DTYPE)
        fill_sight(sight, pub, hid, packed, deal_rng)
        sight_before, hid_before, rng_before = sight.copy(), hid.copy(), deal_rng.copy()
        action = oracle_act(sight, packed, oracle, agent_rng, player)
        assert is_legal(pub, packed, action)
        assert np.array_equal(sight, sight_before)
        assert np.array_equal(hid, hid_before) and np.array_equal(deal_rng, rng_before)


SOAK = {
    "default": Rules(holes=2),
    "jokers minus2, reveal, must": Rules(players=3, jokers="minus2", reveal_instead_of_draw=True,
                                         discard_and_flip="must", holes=2),
    "last turn, may, same column, bonus -10": Rules(players=4, end="one_last_turn", discard_and_flip="may",
                                                   opening_flips="same_column", four_of_a_kind_bonus=-10, holes=2),
    "jokers minus5, twos keep, different columns": Rules(players=2, jokers="minus5", twos_pair="keep_negative",
                                                         opening_flips="different_columns", holes=2),
    "5 players, 3 decks, bonus +5": Rules(players=5, decks=3, four_of_a_kind_bonus=5, holes=2),
}


@pytest.mark.parametrize("variant", list(SOAK))
@pytest.mark.slow
def test_mc_and_oracle_play_every_variant_legally(variant):
    rules = SOAK[variant]
    seats = [FAST_MC, "oracle"] + ["random", "ev", "greedy"][: rules.players - 2]
    result = simulate(seats, rules, games=30, seed=8)
    assert len(result.players) == 30 * rules.players
    assert result.truncated_deals == 0


@pytest.mark.parametrize("players", range(2, 13))
def test_mc_and_oracle_play_at_every_table_size(players):
    rules = Rules(players=players, holes=1, end="one_last_turn" if players % 2 else "immediate")
    seats = ["mc:samples=3,horizon=6", "oracle:horizon=6"] + ["random"] * (players - 2)
    result = simulate(seats, rules, games=6, seed=players)
    assert result.truncated_deals == 0


def test_the_largest_state_fits_the_scratch_arrays():
    # 12 players and 8 decks with jokers: the longest pub and hid any rules make
    rules = Rules(players=12, decks=8, jokers="minus2", holes=1)
    result = simulate(["mc:samples=3,horizon=6", "oracle:horizon=6"] + ["random"] * 10, rules, games=3, seed=1)
    assert result.truncated_deals == 0


def test_mc_goes_out_when_it_locks_in_a_win():
    # covering the last card with the 5 pairs it and locks in 14 against an opponent showing 36 points
    pos = position(["3 3 5 / 4 4 ?", "Q J ? / 9 8 ?"], held="5")
    assert pos.decide("mc:samples=256,confidence=0") == PLACE_DRAWN + 5


def test_mc_keeps_a_drawn_card_that_completes_a_pair():
    # a drawn Queen under the face-up Queen turns a 20-point column into 0; nothing else comes close
    pos = position(["Q 4 3 / ? 4 ?", "5 5 ? / ? ? ?"], held="Q")
    assert pos.decide("mc:samples=128,confidence=0") == PLACE_DRAWN + 3


def test_same_seed_same_decisions_whatever_the_threads():
    seats = ["mc:samples=8", "ev"]
    one = simulate(seats, Rules(holes=2), games=16, seed=3, threads=1, batch_size=16)
    two = simulate(seats, Rules(holes=2), games=16, seed=3, threads=2, batch_size=5)
    assert one.players.equals(two.players)
    assert one.deals.equals(two.deals)


def test_mc_and_oracle_are_registered_and_the_oracle_is_marked():
    assert {"mc", "oracle"} <= set(REGISTRY)
    assert [p.name for p in REGISTRY["mc"].params][:3] == ["samples", "rollout", "objective"]
    label = parse_agent("oracle:samples=2").label
    assert label == "oracle:samples=2 (sees hidden cards)"
    assert parse_agent(label).label == label  # a label read back is the same agent
    assert not parse_agent("mc").label.endswith("(sees hidden cards)")


def test_a_tournament_marks_the_oracle_as_seeing_hidden_cards():
    result = run_tournament(["oracle", "ev"], Rules(holes=1), games=4, seed=1)
    assert "oracle (sees hidden cards)" in result.labels
    assert "oracle (sees hidden cards)" in result.to_json()


@pytest.mark.parametrize("totals, game_outcome", [([20, 5], 0.0), ([29, 6], 0.5), ([40, 5], 1.0)])
def test_the_objectives_of_a_finished_last_hole(totals, game_outcome):
    # player 0 covers the last card with the 5: 3+4, 3+4 and a pair of fives, 14; player 1 has Q+9, J+8 and a pair
    # of nines, 37. On the last hole (8 of 9) objective 2 asks who wins the game on totals.
    pos = position(["3 3 5 / 4 4 ?", "Q J ?9 / 9 8 ?9"], held="5", hole=8, totals=totals)
    done = pos.play(PLACE_DRAWN + 5)
    ev_params = parse_agent("ev").param_vector()
    assert outcome(done.pub, done.hid, done.packed, ev_params, 0, 0) == 14
    assert outcome(done.pub, done.hid, done.packed, ev_params, 0, 1) == 14 - 37
    margin = (totals[0] + 14) - (totals[1] + 37)
    assert outcome(done.pub, done.hid, done.packed, ev_params, 0, 2) == pytest.approx(
        game_outcome + MARGIN_TIE_BREAK * margin)
    not_last = position(["3 3 5 / 4 4 ?", "Q J ?9 / 9 8 ?9"], held="5", hole=7, totals=totals).play(PLACE_DRAWN + 5)
    assert outcome(not_last.pub, not_last.hid, not_last.packed, ev_params, 0, 2) == 14 - 37


@pytest.mark.slow
def test_golfsim_agents_lists_mc_and_oracle_with_their_parameters():
    def describe(name):
        done = subprocess.run([sys.executable, "-m", "golfsim", "agents", name], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "COLUMNS": "80"})
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert "samples=64" in describe("mc")
    assert "SEES HIDDEN CARDS" in describe("oracle")


def test_the_step_api_plays_mc_and_oracle_as_the_simulator_does():
    rules = Rules(players=3, holes=2)
    seats = ["mc:samples=4", "oracle", "ev"]
    batch = simulate(seats, rules, games=3, seed=6)
    for game in range(3):
        stepped = play_game(seats, rules, seed=6, game=game)
        assert list(stepped["totals"]) == list(batch.players[batch.players.game == game].total)
