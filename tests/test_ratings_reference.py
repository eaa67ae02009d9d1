"""The rating fits of golfsim.stats checked against statsmodels: Bradley-Terry as a logistic regression on the
pairwise outcomes, Plackett-Luce as a conditional logit over its choice sets (one group per place of a game)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from golfsim.stats import ELO_SCALE, bradley_terry, plackett_luce

sm = pytest.importorskip("statsmodels.api", reason="statsmodels is in the test extra")
from statsmodels.discrete.conditional_models import ConditionalLogit  # noqa: E402


def pairwise_games(truth, games_per_pair, rng):
    """Simulated two-player games: rows (i, j, 1 if i won)."""
    rows = []
    for i in range(len(truth)):
        for j in range(i + 1, len(truth)):
            p = 1.0 / (1.0 + 10 ** ((truth[j] - truth[i]) / 400))
            won = rng.random(games_per_pair) < p
            rows += [(i, j, int(w)) for w in won]
    return np.array(rows)


def logit_fit(rows, items):
    """statsmodels' logistic regression of the outcome on +1 (first item) / -1 (second), items[0] the reference."""
    index = {item: c for c, item in enumerate(items[1:])}
    x = np.zeros((len(rows), len(items) - 1))
    for r, (i, j, _) in enumerate(rows):
        if i in index:
            x[r, index[i]] += 1.0
        if j in index:
            x[r, index[j]] -= 1.0
    fit = sm.Logit(rows[:, 2], x).fit(disp=0, method="newton", tol=1e-12, maxiter=200)
    return ELO_SCALE * np.asarray(fit.params), ELO_SCALE * np.asarray(fit.bse)


def to_wins(rows, k):
    wins = np.zeros((k, k))
    for i, j, w in rows:
        wins[i, j] += w
        wins[j, i] += 1 - w
    return wins


def diff_se(cov, i, j):
    return math.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])


def test_bradley_terry_matches_logistic_regression():
    rows = pairwise_games(np.array([150.0, 60.0, 0.0, -80.0]), 400, np.random.default_rng(11))
    fit = bradley_terry(to_wins(rows, 4))
    params, bse = logit_fit(rows, [0, 1, 2, 3])
    assert fit["standing"].tolist() == ["rated"] * 4
    for c, item in enumerate([1, 2, 3]):
        assert fit["rating"][item] - fit["rating"][0] == pytest.approx(params[c], abs=1e-4)
        assert diff_se(fit["cov"], item, 0) == pytest.approx(bse[c], rel=1e-4)


def test_bradley_terry_with_a_winless_item_matches_the_regression_without_it():
    # Item 3 loses every game: the logistic regression of the others' games gives the rated items' ratings.
    rows = pairwise_games(np.array([150.0, 60.0, 0.0, -5000.0]), 400, np.random.default_rng(12))
    assert rows[np.isin(rows[:, 1], [3]), 2].all()  # item 3 never won
    fit = bradley_terry(to_wins(rows, 4))
    assert fit["standing"].tolist() == ["rated", "rated", "rated", "never won"]
    among = rows[(rows[:, 0] != 3) & (rows[:, 1] != 3)]
    params, bse = logit_fit(among, [0, 1, 2])
    for c, item in enumerate([1, 2]):
        assert fit["rating"][item] - fit["rating"][0] == pytest.approx(params[c], abs=1e-4)
        assert diff_se(fit["cov"], item, 0) == pytest.approx(bse[c], rel=1e-4)
    assert np.nansum(fit["rating"]) == pytest.approx(0.0, abs=1e-8)  # anchored on the rated items' mean


def test_plackett_luce_matches_conditional_logit():
    rng = np.random.default_rng(13)
    gamma = np.array([3.0, 2.0, 1.0, 0.6, 0.4])
    rankings = []
    for _ in range(600):
        seats = rng.choice(5, size=4, replace=False)
        order = []
        left = list(seats)
        while left:
            p = gamma[left] / gamma[left].sum()
            order.append(left.pop(rng.choice(len(left), p=p)))
        rankings.append(order)
    rankings = np.array(rankings)
    fit = plackett_luce(rankings, 5)
    # one conditional-logit group per place of a game: the players left, the one placed there chosen
    groups, chosen, x = [], [], []
    g = 0
    for order in rankings:
        for place in range(len(order) - 1):
            for item in order[place:]:
                groups.append(g)
                chosen.append(int(item == order[place]))
                x.append(np.eye(5)[item][1:])
            g += 1
    model = ConditionalLogit(np.array(chosen), np.array(x), groups=np.array(groups))
    ref = model.fit(disp=0, method="newton", maxiter=100, tol=1e-12)
    params, bse = ELO_SCALE * np.asarray(ref.params), ELO_SCALE * np.asarray(ref.bse)
    for c in range(4):
        assert fit["rating"][c + 1] - fit["rating"][0] == pytest.approx(params[c], abs=1e-2)
        assert diff_se(fit["cov"], c + 1, 0) == pytest.approx(bse[c], rel=1e-3)
