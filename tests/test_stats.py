"""Tests for golfsim.stats: intervals against scipy and textbook numbers, coverage, and ratings.

The rating tests simulate games from known strengths with fixed seeds and check that the fitted
Elo-like ratings land within a few standard errors of the truth.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from golfsim.stats import (
    ELO_SCALE,
    bradley_terry,
    mean_ci,
    paired_difference,
    plackett_luce,
    proportion_ci,
    share_ci,
    share_wilson_ci,
)

# Student's sleep data (Cushny & Peebles), extra hours of sleep under two drugs for the same ten
# patients, as shipped with R. R's ``t.test(extra ~ group, data = sleep, paired = TRUE)`` prints
# mean difference -1.58, sd of differences 1.229995, 95 percent CI -2.4598858 -0.7001142.
SLEEP_DRUG1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP_DRUG2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def coverage_margin(level: float, reps: int) -> float:
    """Three binomial standard errors of an observed coverage fraction over ``reps`` repetitions."""
    return 3.0 * math.sqrt(level * (1.0 - level) / reps)


def elo(strengths) -> np.ndarray:
    """True centred Elo-like ratings of the given strengths."""
    r = 400.0 * np.log10(np.asarray(strengths, dtype=float))
    return r - r.mean()


def diff_se(cov: np.ndarray, i: int, j: int) -> float:
    """Standard error of ``rating[i] - rating[j]`` from a rating covariance matrix."""
    return math.sqrt(cov[i, i] + cov[j, j] - 2.0 * cov[i, j])


def simulate_pl(strengths, n_games: int, seats: int, rng: np.random.Generator) -> np.ndarray:
    """Finishing orders (best first) drawn by sequential sampling proportional to strength.

    Each game seats a random subset of ``seats`` items; first place is drawn with probability
    proportional to strength among them, second place likewise among those left, and so on.
    """
    g = np.asarray(strengths, dtype=float)
    out = np.empty((n_games, seats), dtype=np.int64)
    for game in range(n_games):
        left = list(rng.choice(g.size, size=seats, replace=False))
        for place in range(seats):
            p = g[left] / g[left].sum()
            out[game, place] = left.pop(rng.choice(len(left), p=p))
    return out


def pairwise_wins(rankings: np.ndarray, scores: np.ndarray | None, n_items: int) -> np.ndarray:
    """Wins matrix of two-seat games; a tie (equal scores) is half a win each way."""
    w = np.zeros((n_items, n_items))
    for k, (a, b) in enumerate(rankings):
        if scores is not None and scores[k, 0] == scores[k, 1]:
            w[a, b] += 0.5
            w[b, a] += 0.5
        else:
            w[a, b] += 1.0
    return w


# ----------------------------------------------------------------------------------------------
# mean_ci and paired_difference
# ----------------------------------------------------------------------------------------------


def test_mean_ci_matches_scipy_t_interval():
    x = np.random.default_rng(0).normal(3.0, 2.0, size=25)
    for level in (0.8, 0.95, 0.99):
        mean, low, high = mean_ci(x, confidence=level)
        expected = stats.t.interval(level, df=x.size - 1, loc=x.mean(), scale=stats.sem(x))
        assert mean == pytest.approx(x.mean())
        assert (low, high) == pytest.approx(expected, rel=1e-12)


def test_mean_ci_textbook_sleep_differences():
    diffs = np.subtract(SLEEP_DRUG2, SLEEP_DRUG1)
    mean, low, high = mean_ci(diffs)
    assert mean == pytest.approx(1.58)
    assert low == pytest.approx(0.7001142, abs=1e-7)
    assert high == pytest.approx(2.4598858, abs=1e-7)


def test_mean_ci_small_and_constant_samples():
    mean, low, high = mean_ci([4.0])
    assert mean == 4.0 and math.isnan(low) and math.isnan(high)
    assert mean_ci([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    assert mean_ci((1, 2, 3))[0] == 2.0  # any array_like


def test_paired_difference_textbook_sleep():
    res = paired_difference(SLEEP_DRUG1, SLEEP_DRUG2)
    assert res["n"] == 10
    assert res["mean"] == pytest.approx(-1.58)
    assert res["sd"] == pytest.approx(1.229995, abs=1e-6)
    assert res["low"] == pytest.approx(-2.4598858, abs=1e-7)
    assert res["high"] == pytest.approx(-0.7001142, abs=1e-7)


def test_paired_difference_matches_scipy_ttest_rel():
    rng = np.random.default_rng(1)
    deal_effect = rng.normal(20.0, 8.0, size=40)  # shared by both agents on duplicate deals
    a = deal_effect + rng.normal(0.0, 2.0, size=40)
    b = deal_effect + 0.7 + rng.normal(0.0, 2.0, size=40)
    for level in (0.9, 0.95):
        res = paired_difference(a, b, confidence=level)
        ci = stats.ttest_rel(a, b).confidence_interval(confidence_level=level)
        assert (res["low"], res["high"]) == pytest.approx((ci.low, ci.high), rel=1e-12)
        assert res["mean"] == pytest.approx(np.mean(a - b))
        assert res["sd"] == pytest.approx(np.std(a - b, ddof=1))


def test_paired_difference_single_pair():
    res = paired_difference([3.0], [1.0])
    assert res["mean"] == 2.0 and res["n"] == 1
    assert math.isnan(res["low"]) and math.isnan(res["high"]) and math.isnan(res["sd"])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-(10**8), 10**8).map(lambda i: i / 100), min_size=2, max_size=40),
    st.floats(0.5, 0.999),
)
def test_mean_ci_property_agrees_with_scipy(values, level):
    x = np.array(values)
    mean, low, high = mean_ci(x, level)
    assert low <= mean <= high
    if np.ptp(x) > 0:
        expected = stats.t.interval(level, df=x.size - 1, loc=x.mean(), scale=stats.sem(x))
        assert (low, high) == pytest.approx(expected, rel=1e-9, abs=1e-6)


# ----------------------------------------------------------------------------------------------
# proportion_ci and share_ci
# ----------------------------------------------------------------------------------------------


def wilson_by_quadratic(k: float, n: float, level: float) -> tuple[float, float]:
    """Wilson limits as the roots in p of (k/n - p)^2 = z^2 p (1 - p) / n, solved independently."""
    z = stats.norm.ppf(0.5 + level / 2.0)
    phat = k / n
    # (1 + z^2/n) p^2 - (2 phat + z^2/n) p + phat^2 = 0
    roots = np.sort(np.roots([1.0 + z * z / n, -(2.0 * phat + z * z / n), phat * phat]).real)
    return float(roots[0]), float(roots[1])


def test_wilson_textbook_81_of_263():
    p, low, high = proportion_ci(81, 263)
    assert p == pytest.approx(81 / 263)
    assert (low, high) == pytest.approx(wilson_by_quadratic(81, 263, 0.95), rel=1e-10)
    # Rounded values as usually quoted for this example.
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)


def test_wilson_matches_scipy_binomtest():
    for k, n in [(0, 10), (1, 10), (5, 10), (10, 10), (81, 263), (3, 1000), (600, 1000)]:
        for level in (0.9, 0.95, 0.99):
            _, low, high = proportion_ci(k, n, confidence=level)
            ci = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="wilson")
            assert low == pytest.approx(ci.low, abs=1e-12)
            assert high == pytest.approx(ci.high, abs=1e-12)


@given(st.integers(1, 10_000), st.data())
def test_wilson_bounds_property(n, data):
    k = data.draw(st.integers(0, n))
    p, low, high = proportion_ci(k, n)
    assert 0.0 <= low <= p <= high <= 1.0


def test_proportion_ci_accepts_fractional_counts():
    p, low, high = proportion_ci(2.5, 10)
    assert p == 0.25
    assert (low, high) == pytest.approx(wilson_by_quadratic(2.5, 10, 0.95), rel=1e-10)


def test_share_ci_tie_shares_and_clipping():
    shares = [1.0, 0.5, 0.0, 1 / 3, 1.0, 0.0]
    mean, low, high = share_ci(shares)
    assert mean == pytest.approx(np.mean(shares))
    assert (low, high) == pytest.approx(np.clip(mean_ci(shares)[1:], 0.0, 1.0))
    assert mean_ci(shares)[1] < 0.0 and low == 0.0  # the raw lower end was negative
    # Near-certain winner: the raw t interval passes 1 and is clipped.
    mean, low, high = share_ci([1.0, 1.0, 1.0, 0.5])
    assert mean == 0.875 and high == 1.0 and 0.0 <= low < mean
    mean, low, high = share_ci([0.0, 0.0, 0.5])
    assert low == 0.0
    assert share_ci([1.0, 1.0]) == (1.0, 1.0, 1.0)
    mean, low, high = share_ci([0.5])
    assert mean == 0.5 and math.isnan(low) and math.isnan(high)


# ----------------------------------------------------------------------------------------------
# Coverage on simulated data
# ----------------------------------------------------------------------------------------------


def test_share_wilson_ci_is_wilson_over_the_games_when_every_unit_is_alike():
    for shares, wins in ((np.zeros(50), 0), (np.ones(50), 200)):
        p, low, high = share_wilson_ci(shares, trials=200)
        ref = stats.binomtest(wins, 200).proportion_ci(0.95, method="wilson")
        assert (low, high) == pytest.approx((ref.low, ref.high), abs=1e-12)
        assert low < high


def test_share_wilson_ci_matches_the_t_interval_in_the_middle():
    # 4000 units, each the mean of two games: away from 0 and 1 the interval is the t interval of the unit means
    rng = np.random.default_rng(8)
    shares = rng.integers(0, 3, size=4000) / 2
    p, low, high = share_wilson_ci(shares, trials=8000)
    _, t_low, t_high = share_ci(shares)
    assert high - low == pytest.approx(t_high - t_low, rel=0.01)
    assert low < p < high


def test_t_interval_coverage_normal_samples():
    reps, n, true_mean = 2000, 30, 5.0
    rng = np.random.default_rng(20240601)
    samples = rng.normal(true_mean, 2.0, size=(reps, n))
    hits = 0
    for x in samples:
        _, low, high = mean_ci(x, confidence=0.95)
        hits += low <= true_mean <= high
    assert abs(hits / reps - 0.95) <= coverage_margin(0.95, reps)


def test_wilson_coverage_binomial():
    reps, n, p = 2000, 200, 0.3
    rng = np.random.default_rng(20240602)
    counts = rng.binomial(n, p, size=reps)
    hits = 0
    for k in counts:
        _, low, high = proportion_ci(int(k), n, confidence=0.95)
        hits += low <= p <= high
    assert abs(hits / reps - 0.95) <= coverage_margin(0.95, reps)


# ----------------------------------------------------------------------------------------------
# Bradley-Terry
# ----------------------------------------------------------------------------------------------


def simulate_bt_wins(strengths, games_per_pair: int, rng: np.random.Generator) -> np.ndarray:
    g = np.asarray(strengths, dtype=float)
    w = np.zeros((g.size, g.size))
    for i, j in itertools.combinations(range(g.size), 2):
        won = rng.binomial(games_per_pair, g[i] / (g[i] + g[j]))
        w[i, j], w[j, i] = won, games_per_pair - won
    return w


def test_bradley_terry_recovers_known_strengths():
    strengths = [1.0, 2.0, 4.0]
    wins = simulate_bt_wins(strengths, 2000, np.random.default_rng(7))
    fit = bradley_terry(wins)
    truth = elo(strengths)
    assert fit["converged"]
    assert fit["rating"].sum() == pytest.approx(0.0, abs=1e-9)
    assert fit["rating"].shape == (3,) and fit["se"].shape == (3,) and fit["cov"].shape == (3, 3)
    for i, j in itertools.combinations(range(3), 2):
        se = diff_se(fit["cov"], i, j)
        assert 0 < se < 10  # 2000 games a pair pin a difference down to a few points
        assert abs((fit["rating"][i] - fit["rating"][j]) - (truth[i] - truth[j])) < 4 * se
    assert np.all(np.abs(fit["rating"] - truth) < 4 * fit["se"])
    assert np.allclose(fit["strength"], 10 ** (fit["rating"] / 400))


def test_bradley_terry_two_items_closed_form():
    # Without a prior the MLE of the log-odds is log(wins_ij / wins_ji), and its observed-information
    # standard error is 1 / sqrt(n p (1 - p)).
    fit = bradley_terry([[0, 30], [10, 0]], prior=0)
    diff = fit["rating"][0] - fit["rating"][1]
    assert diff == pytest.approx(400 * math.log10(3.0), abs=1e-6)
    assert fit["rating"] == pytest.approx([diff / 2, -diff / 2])
    assert diff_se(fit["cov"], 0, 1) == pytest.approx(ELO_SCALE / math.sqrt(40 * 0.75 * 0.25), rel=1e-6)
    # A prior adds pseudo-wins each way.
    fit = bradley_terry([[0, 30], [10, 0]], prior=0.5)
    assert fit["rating"][0] - fit["rating"][1] == pytest.approx(400 * math.log10(30.5 / 10.5), abs=1e-6)


def test_bradley_terry_unbeaten_item_is_finite_with_a_prior():
    fit = bradley_terry([[0, 5], [0, 0]], prior=0.5)
    assert np.all(np.isfinite(fit["rating"])) and np.all(np.isfinite(fit["se"]))
    assert fit["rating"][0] - fit["rating"][1] == pytest.approx(400 * math.log10(11.0), abs=1e-6)
    wins = np.array([[0, 4, 6], [0, 0, 3], [0, 2, 0]])
    fit = bradley_terry(wins, prior=0.5)
    assert np.all(np.isfinite(fit["rating"]))
    assert np.argmax(fit["rating"]) == 0


def test_bradley_terry_unbeaten_item_gets_a_bound_and_leaves_the_anchoring():
    # Item 0 is unbeaten against a field whose own games are a 3-2 split: 1 and 2 are rated alone, centred on
    # their mean, exactly as without item 0, and 0 gets a lower bound.
    wins = np.array([[0, 4, 6], [0, 0, 3], [0, 2, 0]])
    fit = bradley_terry(wins)
    assert fit["standing"].tolist() == ["never lost", "rated", "rated"]
    alone = bradley_terry(wins[1:, 1:])
    assert fit["rating"][1:] == pytest.approx(alone["rating"], abs=1e-8)
    assert fit["se"][1:] == pytest.approx(alone["se"], abs=1e-8)
    assert math.isnan(fit["rating"][0]) and math.isnan(fit["se"][0])
    assert fit["bound"][0] > fit["rating"][1:].min()


@pytest.mark.parametrize("n", [3, 40, 2000])
def test_bradley_terry_bound_of_two_items_is_clopper_pearson(n):
    fit = bradley_terry([[0, 0], [n, 0]])  # item 0 never won
    assert fit["standing"].tolist() == ["never won", "rated"]
    assert fit["rating"][1] == 0.0
    high = stats.binomtest(0, n).proportion_ci(0.95, method="exact").high
    assert fit["bound"][0] == pytest.approx(400 * math.log10(high / (1 - high)), abs=1e-6)


def bt_objective(theta, wins, prior):
    """Negative penalised Bradley-Terry log-likelihood, written directly from the model."""
    k = wins.shape[0]
    total = 0.0
    for i in range(k):
        for j in range(k):
            if i != j and wins[i, j] + wins[j, i] > 0:
                total += (wins[i, j] + prior) * -np.logaddexp(0.0, theta[j] - theta[i])
    return -total


def test_bradley_terry_matches_direct_optimisation():
    rng = np.random.default_rng(3)
    wins = rng.integers(0, 9, size=(5, 5)).astype(float) + rng.choice([0.0, 0.5], size=(5, 5))
    wins[1, 3] = wins[3, 1] = 0.0  # a pair that never met
    np.fill_diagonal(wins, 0.0)
    for prior in (0.0, 0.5):
        fit = bradley_terry(wins, prior=prior)
        res = optimize.minimize(bt_objective, np.zeros(5), args=(wins, prior), method="BFGS", options={"gtol": 1e-10})
        expected = ELO_SCALE * (res.x - res.x.mean())
        assert fit["rating"] == pytest.approx(expected, abs=1e-3)


@settings(max_examples=25, deadline=None)
@given(st.permutations(list(range(4))))
def test_bradley_terry_relabelling_permutes_ratings(perm):
    wins = np.array([[0, 3, 1, 0], [2, 0, 4, 1], [5, 1, 0, 2.5], [0, 2, 1.5, 0]])
    perm = np.array(perm)
    base = bradley_terry(wins)
    moved = bradley_terry(wins[np.ix_(perm, perm)])
    assert moved["rating"] == pytest.approx(base["rating"][perm], abs=1e-6)
    assert moved["se"] == pytest.approx(base["se"][perm], rel=1e-6)


@pytest.mark.parametrize(
    ("wins", "message"),
    [
        (np.zeros((0, 0)), "empty"),
        (np.ones((2, 3)), "square"),
        (np.ones(3), "square"),
        (np.array([[0, -1], [2, 0]]), "non-negative"),
        (np.array([[0, np.nan], [2, 0]]), "NaN"),
        (np.zeros((3, 3)), "no games"),
        (np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]]), r"item\(s\) \[2\]"),
        (np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 2], [0, 0, 1, 0]]), "never met"),
    ],
)
def test_bradley_terry_rejects_bad_input(wins, message):
    with pytest.raises(ValueError, match=message):
        bradley_terry(wins)


def test_bradley_terry_rejects_bad_options():
    with pytest.raises(ValueError, match="prior"):
        bradley_terry([[0, 1], [1, 0]], prior=-0.5)
    with pytest.raises(ValueError, match="tol"):
        bradley_terry([[0, 1], [1, 0]], tol=0)
    with pytest.raises(ValueError, match="max_iter"):
        bradley_terry([[0, 1], [1, 0]], max_iter=0)


def test_bradley_terry_warns_when_not_converged():
    with pytest.warns(RuntimeWarning, match="did not converge"):
        fit = bradley_terry([[0, 3, 1], [1, 0, 5], [2, 1, 0]], max_iter=2)
    assert not fit["converged"] and fit["n_iter"] == 2


# ----------------------------------------------------------------------------------------------
# Plackett-Luce
# ----------------------------------------------------------------------------------------------


def test_plackett_luce_recovers_known_strengths_four_seats():
    strengths = [1.0, 2.0, 4.0, 8.0, 1.5, 3.0]
    rankings = simulate_pl(strengths, 3000, 4, np.random.default_rng(11))
    fit = plackett_luce(rankings, n_items=6)
    truth = elo(strengths)
    assert fit["converged"]
    assert fit["rating"].sum() == pytest.approx(0.0, abs=1e-9)
    assert fit["rating"].shape == (6,) and fit["cov"].shape == (6, 6)
    for i, j in itertools.combinations(range(6), 2):
        se = diff_se(fit["cov"], i, j)
        assert 0 < se < 15
        assert abs((fit["rating"][i] - fit["rating"][j]) - (truth[i] - truth[j])) < 4 * se
    assert np.argsort(fit["rating"]).tolist() == np.argsort(strengths).tolist()


def test_plackett_luce_standard_errors_match_spread_over_replications():
    strengths = [1.0, 2.0, 4.0, 8.0]
    rng = np.random.default_rng(12)
    diffs, ses = [], []
    for _ in range(40):
        fit = plackett_luce(simulate_pl(strengths, 300, 4, rng), n_items=4)
        diffs.append(fit["rating"][3] - fit["rating"][0])
        ses.append(diff_se(fit["cov"], 3, 0))
    # 40 replications: the sample sd is within about 35% of the true sd with high probability.
    assert np.std(diffs, ddof=1) == pytest.approx(np.mean(ses), rel=0.35)
    assert abs(np.mean(diffs) - (elo(strengths)[3] - elo(strengths)[0])) < 4 * np.mean(ses) / math.sqrt(40)


def pl_objective(theta, rankings):
    """Negative Plackett-Luce log-likelihood of strict orders, written directly from the model."""
    total = 0.0
    for row in rankings:
        for k in range(len(row) - 1):
            total += theta[row[k]] - np.logaddexp.reduce(theta[row[k:]])
    return -total


def test_plackett_luce_matches_direct_optimisation():
    rankings = simulate_pl([1.0, 3.0, 2.0, 5.0, 1.0], 60, 3, np.random.default_rng(5))
    fit = plackett_luce(rankings, n_items=5, prior=0)
    res = optimize.minimize(pl_objective, np.zeros(5), args=(rankings,), method="BFGS", options={"gtol": 1e-10})
    assert fit["rating"] == pytest.approx(ELO_SCALE * (res.x - res.x.mean()), abs=1e-3)


@pytest.mark.parametrize("with_ties", [False, True])
def test_plackett_luce_two_seats_agrees_with_bradley_terry(with_ties):
    rng = np.random.default_rng(21)
    rankings = simulate_pl([1.0, 2.0, 4.0, 0.5], 400, 2, rng)
    scores = None
    if with_ties:
        scores = np.sort(rng.integers(0, 3, size=rankings.shape), axis=1)
        assert np.any(scores[:, 0] == scores[:, 1])
    wins = pairwise_wins(rankings, scores, 4)
    for prior in (0.5, 0.0):
        pl = plackett_luce(rankings, n_items=4, scores=scores, prior=prior)
        bt = bradley_terry(wins, prior=prior)
        assert pl["rating"] == pytest.approx(bt["rating"], abs=1e-6)
        assert pl["cov"] == pytest.approx(bt["cov"], abs=1e-6)


def test_plackett_luce_ties_average_over_orders():
    """A tied game counts as the average of the strict orders consistent with it."""
    rng = np.random.default_rng(8)
    rankings = simulate_pl([1.0, 2.0, 3.0, 4.0, 2.5], 40, 4, rng)
    scores = np.sort(rng.integers(0, 4, size=rankings.shape), axis=1)
    expanded = []
    for row, sc in zip(rankings, scores, strict=True):
        groups = [list(row[sc == v]) for v in np.unique(sc)]
        orders = [list(itertools.chain(*combo)) for combo in itertools.product(*map(itertools.permutations, groups))]
        # Each game gets weight 24 (= 4!): its consistent orders are repeated equally often.
        for order in orders:
            expanded.extend([order] * (24 // len(orders)))
    tied = plackett_luce(np.repeat(rankings, 24, axis=0), 5, scores=np.repeat(scores, 24, axis=0), prior=0)
    strict = plackett_luce(np.array(expanded), 5, prior=0)
    assert tied["rating"] == pytest.approx(strict["rating"], abs=1e-6)


def test_plackett_luce_tie_for_first_between_two_is_two_half_games():
    tied = plackett_luce([[0, 1, 2], [0, 1, 2]], 3, scores=[[5, 5, 9], [5, 5, 9]])
    split = plackett_luce([[0, 1, 2], [1, 0, 2]], 3)
    assert tied["rating"] == pytest.approx(split["rating"], abs=1e-8, nan_ok=True)
    assert tied["bound"] == pytest.approx(split["bound"], abs=1e-6, nan_ok=True)
    assert tied["standing"].tolist() == ["rated", "rated", "never won"]
    assert tied["rating"][0] == pytest.approx(tied["rating"][1], abs=1e-8)


def test_plackett_luce_padding_and_unequal_tables():
    full = np.array([[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2]])
    three = np.array([[2, 0, 1], [1, 2, 3], [0, 3, 2]])
    padded_three = np.column_stack([three, np.full(3, -1)])
    padded_three[1] = [1, -1, 2, 3]  # an empty seat in the middle is skipped too
    fit_padded = plackett_luce(np.vstack([full, padded_three]), 4)
    expected = plackett_luce(np.vstack([full, np.column_stack([three, np.full(3, -1)])]), 4)
    assert fit_padded["rating"] == pytest.approx(expected["rating"], abs=1e-8)
    # One-player games carry no information and are ignored.
    lone = plackett_luce(np.vstack([full, [[2, -1, -1, -1]]]), 4)
    assert lone["rating"] == pytest.approx(plackett_luce(full, 4)["rating"], abs=1e-8)


def test_plackett_luce_unbeaten_item_is_finite_with_a_prior():
    rankings = [[0, 1, 2], [0, 2, 1], [0, 1, 2]]
    fit = plackett_luce(rankings, 3, prior=0.5)
    assert np.all(np.isfinite(fit["rating"])) and np.argmax(fit["rating"]) == 0


def test_plackett_luce_winless_item_is_bounded_and_the_rest_rated_among_themselves():
    # Item 3 always finishes last: the others are rated on the orders among themselves, as if it had not played.
    rng = np.random.default_rng(5)
    orders = np.array([rng.permutation(3) for _ in range(300)])
    with_last = np.column_stack([orders, np.full(300, 3)])
    fit = plackett_luce(with_last, 4)
    alone = plackett_luce(orders, 3)
    assert fit["standing"].tolist() == ["rated", "rated", "rated", "never won"]
    assert fit["rating"][:3] == pytest.approx(alone["rating"], abs=1e-7)
    assert fit["se"][:3] == pytest.approx(alone["se"], abs=1e-7)
    assert fit["bound"][3] < fit["rating"][:3].min()


@pytest.mark.parametrize(
    ("rankings", "kwargs", "message"),
    [
        (np.zeros((0, 3), dtype=int), {}, "empty"),
        (np.array([0, 1, 2]), {}, "2-D"),
        (np.array([[0.0, 1.0]]), {}, "integer"),
        (np.array([[0, 3]]), {}, "n_items"),
        (np.array([[0, 1, 0]]), {}, "more than once"),
        (np.array([[0, -1], [1, -1]]), {}, "two or more players"),
        (np.array([[0, 1], [1, 0]]), {"n_items": 0}, "n_items"),
        (np.array([[0, 1], [1, 0]]), {"scores": [[1, 2]]}, "shape"),
        (np.array([[0, 1], [1, 0]]), {"scores": [[2, 1], [1, 2]]}, "non-decreasing"),
        (np.array([[0, 1], [1, 0]]), {"scores": [[1, np.nan], [1, 2]]}, "finite"),
        (np.array([[0, 1], [1, 0]]), {"n_items": 3}, r"item\(s\) \[2\]"),
        (np.array([[0, 1], [2, 3]]), {"n_items": 4}, "never met"),
        (np.array([[0, 1], [1, 0]]), {"prior": -1.0}, "prior"),
    ],
)
def test_plackett_luce_rejects_bad_input(rankings, kwargs, message):
    with pytest.raises(ValueError, match=message):
        plackett_luce(rankings, **{"n_items": 2, **kwargs})


# ----------------------------------------------------------------------------------------------
# Bad input for the intervals
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mean_ci([]), "empty"),
        (lambda: mean_ci(np.ones((2, 2))), "one-dimensional"),
        (lambda: mean_ci([1.0, np.nan]), "NaN"),
        (lambda: mean_ci([1.0, 2.0], confidence=1.0), "confidence"),
        (lambda: mean_ci([1.0, 2.0], confidence=0.0), "confidence"),
        (lambda: paired_difference([1.0, 2.0], [1.0]), "equal length"),
        (lambda: paired_difference([], []), "empty"),
        (lambda: proportion_ci(-1, 10), "non-negative"),
        (lambda: proportion_ci(11, 10), "exceed"),
        (lambda: proportion_ci(0, 0), "positive"),
        (lambda: proportion_ci(1, np.inf), "finite"),
        (lambda: proportion_ci(1, 10, confidence=95), "confidence"),
        (lambda: share_ci([]), "empty"),
        (lambda: share_ci([0.5, 1.5]), r"\[0, 1\]"),
        (lambda: share_ci([-0.5, 0.5]), r"\[0, 1\]"),
    ],
)
def test_intervals_reject_bad_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()
