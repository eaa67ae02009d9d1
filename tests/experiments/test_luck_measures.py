"""The luck experiment's estimators against cases with a known answer: synthetic score tables with known variance
components, a closed-form and a simulated win probability, and hand-made games for the analytics."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from golfsim.experiments import luck_measures as lm


def synthetic_margins(n, players, delta, card_sd, rest_sd, seed, units=1):
    """``Y[d, u, k] = delta + c[d, u, k] + e[d, u, k]``: ``c`` a seat's hand worth ``h_k`` minus the others' mean
    (so it sums to zero over the seats, as the duplicate layout makes it), ``e`` independent noise."""
    rng = np.random.default_rng(seed)
    h = rng.normal(0, card_sd, size=(n, units, players))
    c = h - (h.sum(axis=2, keepdims=True) - h) / (players - 1)
    e = rng.normal(0, rest_sd, size=(n, units, players))
    truth = {"skill2": delta ** 2, "cards": card_sd ** 2 * players / (players - 1), "rest": rest_sd ** 2}
    return delta + c + e, truth


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("units", [1, 9])
def test_variance_components_recover_a_synthetic_table(players, units):
    n, delta, card_sd, rest_sd = 20_000, -3.0, 4.0, 6.0
    y, truth = synthetic_margins(n, players, delta, card_sd, rest_sd, seed=players * 10 + units, units=units)
    est = lm.components(lm.component_moments(y).mean(axis=0), n, units, players)
    big_n = n * units
    # standard errors under normality: s2 of the seat-averaged margins has 2 sigma^4 / (N - 1); the mean
    # within-deal-set variance W has Var(W) <= 2 E[W]^2 per unit; delta^2 has 2 |delta| se(delta)
    se_rest = truth["rest"] * math.sqrt(2 / (big_n - 1))
    mean_w = truth["cards"] * players / (players - 1) + truth["rest"]
    se_cards = (players - 1) / players * (mean_w * math.sqrt(2 / big_n) + se_rest)
    se_skill = 2 * abs(delta) * math.sqrt(truth["rest"] / players / big_n)
    assert est["rest"] == pytest.approx(truth["rest"], abs=5 * se_rest)
    assert est["cards"] == pytest.approx(truth["cards"], abs=5 * se_cards)
    assert est["skill2"] == pytest.approx(truth["skill2"], abs=5 * se_skill)
    assert est["skill_share"] + est["card_share"] + est["rest_share"] == pytest.approx(1.0)


def test_equal_agents_have_a_skill_share_whose_interval_covers_zero():
    n = 5000
    y, _ = synthetic_margins(n, 2, 0.0, 4.0, 6.0, seed=3)
    x = lm.component_moments(y)
    point = lm.components(x.mean(axis=0), n, 1, 2)
    boot = lm.components(lm.bootstrap_means(x, 400, np.random.default_rng(0)), n, 1, 2)
    lo, hi = lm.percentile_interval(boot["skill_share"], 0.95)
    assert lo <= 0 <= hi and abs(point["skill_share"]) < hi - lo


def test_the_bootstrap_is_the_same_from_the_same_generator_state():
    x = np.arange(30.0).reshape(10, 3)
    a = lm.bootstrap_means(x, 50, np.random.default_rng(4), chunk=7)
    b = lm.bootstrap_means(x, 50, np.random.default_rng(4), chunk=50)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (50, 3)
    # each resample's means lie within the rows' range, and the resamples vary
    assert (a >= x.min(axis=0)).all() and (a <= x.max(axis=0)).all() and a[:, 0].std() > 0


def test_two_player_holes_needed_is_the_closed_form():
    mu, v = -0.8, 100.0
    for target in (0.75, 0.9):
        expect = math.ceil((norm.ppf(target) * math.sqrt(v) / -mu) ** 2)
        assert lm.holes_needed(target, mu, v, 0.0, 1) == expect
        assert lm.win_probability(expect, mu, v, 0.0, 1) >= target > lm.win_probability(expect - 1, mu, v, 0.0, 1)
    assert lm.holes_needed(0.75, 0.0, v, 0.0, 1) == np.inf
    assert lm.holes_needed(0.75, 0.5, v, 0.0, 1) == np.inf


def test_win_probability_against_three_opponents_matches_a_simulation():
    mu, v, rho, holes, draws = -1.0, 60.0, 0.5, 9, 200_000
    rng = np.random.default_rng(8)
    common = rng.normal(size=(draws, 1))
    own = rng.normal(size=(draws, 3))
    margin = holes * mu + math.sqrt(holes * v) * (math.sqrt(rho) * common + math.sqrt(1 - rho) * own)
    simulated = (margin < 0).all(axis=1).mean()
    expect = lm.win_probability(holes, mu, v, rho, 3)
    assert expect == pytest.approx(simulated, abs=4 * math.sqrt(simulated * (1 - simulated) / draws))


def test_model_parameters_recover_mean_variance_and_correlation():
    rng = np.random.default_rng(2)
    n, holes = 4000, 9
    common = rng.normal(size=(n, 4, holes, 1))
    m = -0.5 + 3.0 * (math.sqrt(0.4) * common + math.sqrt(0.6) * rng.normal(size=(n, 4, holes, 3)))
    mu, v, rho = lm.model_parameters(lm.margin_moments(m).mean(axis=0))
    total = n * 4 * holes
    assert mu == pytest.approx(-0.5, abs=5 * 3.0 / math.sqrt(total))
    assert v == pytest.approx(9.0, abs=5 * 9.0 * math.sqrt(2 / total))
    assert rho == pytest.approx(0.4, abs=0.03)


def test_margins_and_block_wins_of_a_hand_made_table():
    # one deal set, two seatings, three holes: scores[d, k, h, s]
    scores = np.array([[[[1, 5], [4, 2], [3, 3]],   # seating 0: A in seat 0
                        [[6, 2], [2, 2], [0, 9]]]])  # seating 1: A in seat 1
    y = lm.margins(scores)
    np.testing.assert_array_equal(y[0, 0], [-4, 2, 0])
    np.testing.assert_array_equal(y[0, 1], [-4, 0, 9])
    # one-hole games: seating 0 wins 1, loses 1, ties 1 (1.5 of 3); seating 1 wins 1, ties 1, loses 1 (1.5)
    assert lm.block_wins(scores, 1)[0] == pytest.approx(0.5)
    # three-hole game: seating 0 totals 8 vs 10 (A wins), seating 1 totals A 13 vs 8 (A loses)
    assert lm.block_wins(scores, 3)[0] == pytest.approx(0.5)
    two = np.concatenate([scores, scores])
    assert lm.block_wins(two, 6).shape == (1,)
    with pytest.raises(ValueError, match="blocks"):
        lm.block_wins(scores, 2)


# ---------------------------------------------------------------- analytics on hand-made games
# three games, two players, four holes each (running totals in the comments)
GAMES = np.array([
    [[2, 5], [5, 1], [3, 3], [1, 4]],  # 2-5, 7-6, 10-9, 11-13: leaders 0, 1, 1, 0 -> player 0 wins
    [[0, 4], [1, 1], [2, 2], [3, 3]],  # 0-4, 1-5, 3-7, 6-10: player 0 leads throughout
    [[3, 3], [2, 2], [1, 4], [4, 1]],  # 3-3, 5-5, 6-9, 10-10: a tie for the win
])


def test_lead_changes_count_new_leader_sets_after_the_first_hole():
    # game 0: 0 -> 1 -> 1 -> 0 (two changes); game 1: none; game 2: {0,1} -> {0,1} -> {0} -> {0,1} (two)
    np.testing.assert_array_equal(lm.lead_changes(GAMES), [2, 0, 2])


def test_led_for_good_counts_holes_before_the_end_of_the_winners_last_unbroken_lead():
    # game 0: the winner leads alone only after the last hole; game 1: from the first hole (3 holes before the
    # end); game 2: a tie
    np.testing.assert_array_equal(lm.led_for_good(GAMES), [0, 3, 0])


def test_winner_trailed_marks_comebacks():
    np.testing.assert_array_equal(lm.winner_trailed(GAMES), [True, False, True])


def test_decisiveness_threshold_is_the_largest_lead_a_non_winner_held():
    thresholds = lm.decisiveness_thresholds(GAMES)
    # non-winners: player 1 in games 0 and 1 (game 2 has no non-winner). Leads of player 1 by holes to play:
    # r=3: game 0: 2-5 -> -3, game 1: -4; r=2: game 0: +1, game 1: -4; r=1: game 0: +1, game 1: -4
    np.testing.assert_array_equal(thresholds[1:], [1, 1, -3])
    decided = lm.decided_before_end(GAMES, thresholds)
    # game 1: player 0 leads by 4 > -3 after hole 1 (3 holes to play); game 0: after hole 1 leads by 3 > -3
    np.testing.assert_array_equal(decided, [3, 3, 0])
