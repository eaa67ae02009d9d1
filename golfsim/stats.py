"""Statistics for comparing Golf agents: confidence intervals and paired-comparison ratings.

Everything here takes plain numbers or numpy arrays and returns floats, tuples, small dicts or
small arrays; the tournament layer decides what the numbers mean. Golf scores are "low is
better", but nothing in this module assumes a direction except [`plackett_luce`][golfsim.stats.plackett_luce], whose
``rankings`` are ordered best (lowest score) first.

Intervals
---------
[`mean_ci`][golfsim.stats.mean_ci], [`paired_difference`][golfsim.stats.paired_difference] and
[`share_ci`][golfsim.stats.share_ci] use Student's t interval (``scipy.stats.t``);
[`proportion_ci`][golfsim.stats.proportion_ci] uses the Wilson score interval, and
[`share_wilson_ci`][golfsim.stats.share_wilson_ci] the Wilson interval at an effective sample size for shares averaged
over correlated games.

Ratings
-------
[`bradley_terry`][golfsim.stats.bradley_terry] (a K x K matrix of head-to-head wins) and
[`plackett_luce`][golfsim.stats.plackett_luce] (multi-player finishing orders) fit strengths ``gamma_i > 0`` by maximum
likelihood with the MM algorithm of Hunter (2004), "MM algorithms for generalized Bradley-Terry models", *Ann. Statist.*
32(1), finished by Newton steps. Both report them on an Elo-like scale::

    rating_i = 400 * log10(gamma_i) - mean_{k rated}(400 * log10(gamma_k))

so the rated items' ratings sum to zero and, for two players,
``P(i beats j) = 1 / (1 + 10 ** ((rating_j - rating_i) / 400))``: 400 rating points are odds of 10 to 1.

The maximum-likelihood estimate exists only for items that have beaten, and been beaten by, each
other along some chain of results (a strongly connected "beats" graph). The rated items are the
largest such group; an item that never won against it (or never lost) has an infinite estimate, so
it is not rated: it gets a one-sided bound instead (``standing``, ``bound``), and the anchoring (the
mean of the rated items) does not depend on it. A positive ``prior`` (pseudo-wins each way between
every pair that met) rates everyone at the cost of a bias that does not shrink with the data.

Standard errors come from the observed Fisher information of the log-likelihood at the estimate.
The ratings are centred, so the information matrix is singular along the all-ones direction; its
Moore-Penrose pseudo-inverse is the covariance of the centred log-strengths. ``se`` is the
standard error of each *centred* rating (its distance from the rated items' mean); for the
difference between two agents use ``cov``:
``se(r_i - r_j) = sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])``.
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
from scipy import optimize, sparse, stats
from scipy.sparse import csgraph

__all__ = [
    "ELO_SCALE",
    "bradley_terry",
    "mean_ci",
    "paired_difference",
    "plackett_luce",
    "proportion_ci",
    "share_ci",
    "share_wilson_ci",
]

#: Rating points per natural-log unit of strength: ``rating = ELO_SCALE * ln(gamma)``.
ELO_SCALE = 400.0 / math.log(10.0)


# ----------------------------------------------------------------------------------------------
# Validation helpers
# ----------------------------------------------------------------------------------------------


def _check_confidence(confidence) -> float:
    c = float(confidence)
    if not 0.0 < c < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return c


def _as_sample(x, name: str = "x") -> np.ndarray:
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty; need at least one observation")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return arr


def _as_shares(shares) -> np.ndarray:
    """`_as_sample` of win shares, each checked to lie in [0, 1]."""
    arr = _as_sample(shares, "shares")
    if np.any(arr < 0.0) or np.any(arr > 1.0):
        raise ValueError("win shares must lie in [0, 1]")
    return arr


def _check_fit_options(prior, tol, max_iter) -> tuple[float, float, int]:
    prior = float(prior)
    if not (np.isfinite(prior) and prior >= 0.0):
        raise ValueError(f"prior must be a finite number >= 0, got {prior!r}")
    tol = float(tol)
    if not (np.isfinite(tol) and tol > 0.0):
        raise ValueError(f"tol must be a positive number, got {tol!r}")
    if int(max_iter) != max_iter or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    return prior, tol, int(max_iter)


# ----------------------------------------------------------------------------------------------
# Confidence intervals
# ----------------------------------------------------------------------------------------------


def mean_ci(x, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean of a sample with a Student-t confidence interval.

    Parameters
    ----------
    x : array_like, shape (n,)
        One-dimensional sample of finite numbers, e.g. an agent's scores over many deals.
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    mean : float
        The sample mean.
    low, high : float
        ``mean -/+ t_{(1+confidence)/2, n-1} * s / sqrt(n)`` with ``s`` the sample standard deviation
        (``ddof=1``). Both are NaN when ``n < 2``; both equal the mean when every value is equal.

    Raises
    ------
    ValueError
        If ``x`` is empty, not one-dimensional or not finite, or ``confidence`` is not in (0, 1).

    Examples
    --------
    >>> mean_ci([1.0, 2.0, 3.0])  # doctest: +ELLIPSIS
    (2.0, -0.484..., 4.484...)
    """
    arr = _as_sample(x)
    n = arr.size
    return mean_ci_moments(n, float(arr.mean()), float(arr.std(ddof=1)) if n >= 2 else math.nan, confidence)


def mean_ci_moments(n: int, mean: float, sd: float, confidence: float = 0.95) -> tuple[float, float, float]:
    """[`mean_ci`][golfsim.stats.mean_ci] from a sample's size, mean and standard deviation (``ddof=1``) instead of the
    sample.

    For results folded as they arrive (a tournament's deal sets), where the sample itself is never held.
    """
    c = _check_confidence(confidence)
    if n < 2:
        return float(mean), math.nan, math.nan
    half = float(stats.t.ppf(0.5 + c / 2.0, n - 1)) * float(sd) / math.sqrt(n)
    return float(mean), mean - half, mean + half


def paired_difference(a, b, confidence: float = 0.95) -> dict:
    """Mean paired difference ``a - b`` with a Student-t confidence interval.

    Use it for matched pairs, e.g. two agents' scores on the same duplicate deals: pairing removes
    the deal-to-deal variation that both agents share. In Golf a negative mean means ``a`` scores
    lower (better) than ``b``.

    Parameters
    ----------
    a, b : array_like, shape (n,)
        Matched one-dimensional samples of equal length; ``a[k]`` and ``b[k]`` belong together.
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    dict
        ``mean`` (float): mean of ``a - b``;
        ``low``, ``high`` (float): t interval for that mean (NaN when ``n < 2``);
        ``n`` (int): number of pairs;
        ``sd`` (float): sample standard deviation of the differences (``ddof=1``, NaN when ``n < 2``).

    Raises
    ------
    ValueError
        If the samples differ in length, are empty, not one-dimensional or not finite, or
        ``confidence`` is not in (0, 1).

    See Also
    --------
    mean_ci : the interval used on the differences.
    """
    a_arr = _as_sample(a, "a")
    b_arr = _as_sample(b, "b")
    if a_arr.shape != b_arr.shape:
        raise ValueError(f"paired samples must have equal length, got {a_arr.size} and {b_arr.size}")
    d = a_arr - b_arr
    mean, low, high = mean_ci(d, confidence)
    sd = float(d.std(ddof=1)) if d.size >= 2 else math.nan
    return {"mean": mean, "low": low, "high": high, "n": int(d.size), "sd": sd}


def proportion_ci(successes, n, confidence: float = 0.95) -> tuple[float, float, float]:
    """Proportion with a Wilson score confidence interval.

    Parameters
    ----------
    successes : float
        Number of successes, ``0 <= successes <= n``. A fractional count (e.g. ties scored as half a
        win) is accepted and plugged into the same formula, which then is only an approximation.
    n : float
        Number of trials, ``n > 0``.
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    p : float
        ``successes / n``.
    low, high : float
        The Wilson interval ``(p + z^2/(2n) -/+ z sqrt(p(1-p)/n + z^2/(4n^2))) / (1 + z^2/n)`` with
        ``z`` the standard normal quantile at ``(1 + confidence) / 2``; always within [0, 1].

    Raises
    ------
    ValueError
        If ``n <= 0``, ``successes`` is negative or exceeds ``n``, either is not finite, or
        ``confidence`` is not in (0, 1).

    Examples
    --------
    >>> p, low, high = proportion_ci(81, 263)
    >>> round(p, 4), round(low, 4), round(high, 4)
    (0.308, 0.2553, 0.3662)
    """
    c = _check_confidence(confidence)
    s = float(successes)
    m = float(n)
    if not (np.isfinite(s) and np.isfinite(m)):
        raise ValueError(f"successes and n must be finite, got {successes!r} and {n!r}")
    if m <= 0:
        raise ValueError(f"n must be positive, got {n!r}")
    if s < 0:
        raise ValueError(f"successes must be non-negative, got {successes!r}")
    if s > m:
        raise ValueError(f"successes ({successes!r}) cannot exceed n ({n!r})")
    p = s / m
    z = float(stats.norm.ppf(0.5 + c / 2.0))
    z2 = z * z
    denom = 1.0 + z2 / m
    centre = (p + z2 / (2.0 * m)) / denom
    half = z * math.sqrt(p * (1.0 - p) / m + z2 / (4.0 * m * m)) / denom
    # p lies inside the Wilson interval; min/max only guard against rounding at p = 0 or 1.
    return p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def share_ci(shares, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean win share with a Student-t interval clipped to [0, 1].

    A win share is 1 for an outright win, ``1/k`` for a k-way tie for first place and 0 otherwise,
    one value per game, so its mean is an agent's expected share of wins. Because shares are not
    0/1 the Wilson interval does not apply; the t interval (valid for large samples) is used and
    its ends are clipped to the possible range.

    Parameters
    ----------
    shares : array_like, shape (n,)
        Win shares, each in [0, 1].
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    mean : float
        Mean share.
    low, high : float
        ``mean_ci`` interval clipped to [0, 1]; NaN when ``n < 2``.

    Raises
    ------
    ValueError
        If ``shares`` is empty, not one-dimensional, not finite or outside [0, 1], or
        ``confidence`` is not in (0, 1).
    """
    arr = _as_shares(shares)
    mean, low, high = mean_ci(arr, confidence)
    if math.isnan(low):
        return mean, low, high
    return mean, max(0.0, low), min(1.0, high)


def share_wilson_ci(shares, trials, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean win share over independent units with a Wilson score interval that is never zero-width.

    Each unit (e.g. a duplicate deal set) holds a share averaged over several games, so the games are not
    independent of each other. The Wilson interval is taken at the effective sample size
    ``n * p (1 - p) / s**2`` (``s**2`` the variance of the unit shares: the sample size at which independent games
    would give the observed variance of the mean), capped at the number of games, ``trials``. Where every unit has
    the same share -- an agent that won none or all of its games -- the interval is Wilson's over all the games, so
    0 wins in n games give ``0`` to ``z**2 / (n + z**2)`` rather than a zero-width interval.

    Parameters
    ----------
    shares : array_like, shape (n,)
        Each unit's mean win share, in [0, 1].
    trials : int
        The number of games behind the shares (at least ``n``).
    confidence : float, default 0.95
        Two-sided confidence level, strictly between 0 and 1.

    Returns
    -------
    mean : float
        The mean of the units' shares.
    low, high : float
        The Wilson interval at the effective sample size; ``low < high`` always.

    Raises
    ------
    ValueError
        If ``shares`` is empty, not one-dimensional, not finite or outside [0, 1], ``trials`` is smaller than
        the number of units, or ``confidence`` is not in (0, 1).
    """
    arr = _as_shares(shares)
    if trials < arr.size:
        raise ValueError(f"trials ({trials!r}) cannot be fewer than the {arr.size} units")
    return share_wilson_ci_moments(arr.size, float(arr.mean()), float(arr.var(ddof=1)) if arr.size > 1 else 0.0,
                                   trials, confidence)


def share_wilson_ci_moments(n: int, mean: float, var: float, trials, confidence: float = 0.95) -> tuple[float, float,
                                                                                                        float]:
    """[`share_wilson_ci`][golfsim.stats.share_wilson_ci] from the number of units, their mean share and its variance
    (``ddof=1``, 0 for one unit) instead of the shares themselves."""
    p, spread = float(mean), float(var)
    n_eff = float(trials) if spread <= 0.0 else min(float(trials), n * p * (1.0 - p) / spread)
    _, low, high = proportion_ci(p * n_eff, n_eff, confidence)
    return p, low, high


# ----------------------------------------------------------------------------------------------
# Rating models: a shared MM engine
# ----------------------------------------------------------------------------------------------
#
# Both models are sums of "choice terms". Term t has a choice set T_t (row t of the 0/1 matrix
# ``member``), a total weight w_t, and numerator weights N[t, i] >= 0 over items of T_t that sum to
# w_t. Its log-likelihood contribution is
#     sum_i N[t, i] log(gamma_i) - w_t log(sum_{j in T_t} gamma_j).
# Hunter's MM step is gamma_i <- a_i / sum_t w_t [i in T_t] / sum_{j in T_t} gamma_j with
# a_i = sum_t N[t, i]. The "beats" graph has an edge i -> j when some term gives i numerator
# weight while j is also in its choice set.


def _order_sets(beats, n_items: int, member, numer):
    """The rated set (the largest strongly connected group of the "beats" graph) and the items above and below it.

    An item above never lost a comparison to the rated set along any chain of results (it reaches the set but the
    set never reaches it); an item below never beat it. Their maximum-likelihood ratings relative to the set are
    infinite. Items neither above nor below met the set only through such items and are not comparable to it.
    """
    n_comp, labels = csgraph.connected_components(beats, directed=True, connection="strong")
    if n_comp == 1:
        everyone = np.ones(n_items, dtype=bool)
        return everyone, ~everyone, ~everyone
    sizes = np.bincount(labels, minlength=n_comp)
    # the largest group; among equals the one in the most comparisons, then the one with the most wins
    load = np.bincount(labels, weights=np.asarray(member.sum(axis=0)).ravel(), minlength=n_comp)
    won = np.bincount(labels, weights=np.asarray(numer.sum(axis=0)).ravel(), minlength=n_comp)
    main = max(range(n_comp), key=lambda c: (sizes[c], load[c], won[c]))
    rated = labels == main
    start = int(np.flatnonzero(rated)[0])
    below = np.isfinite(csgraph.shortest_path(beats, directed=True, unweighted=True, indices=start)) & ~rated
    above = np.isfinite(csgraph.shortest_path(beats.T.tocsr(), directed=True, unweighted=True, indices=start))
    above &= ~rated
    return rated, above, below


def _mm_newton(member, numer, weight, wins, n_items: int, tol: float, max_iter: int):
    """Maximise the choice-term log-likelihood: MM steps (Hunter 2004), finished by Newton steps once near.

    MM converges linearly and slowly when an item wins almost never; Newton's steps on the centred log-strengths,
    with step halving to keep the likelihood rising, finish such fits in a few iterations.
    """

    def loglik(log_g):
        return float(wins @ log_g - weight @ np.log(member @ np.exp(log_g)))

    log_g = np.zeros(n_items)
    n_iter = 0
    step = math.inf
    while n_iter < max_iter:
        n_iter += 1
        gamma = np.exp(log_g)
        new_log = np.log(wins / (member.T @ (weight / (member @ gamma))))
        new_log -= new_log.mean()
        step = float(np.max(np.abs(new_log - log_g)))
        log_g = new_log
        if step < tol:
            return log_g, n_iter, True
        if step < 1e-3 or n_iter >= 200:
            break
    centre = np.full((n_items, n_items), 1.0 / n_items)
    current = loglik(log_g)
    while n_iter < max_iter:
        n_iter += 1
        gamma = np.exp(log_g)
        probs = sparse.diags(1.0 / (member @ gamma)) @ member @ sparse.diags(gamma)
        grad = wins - np.asarray(probs.T @ weight).ravel()
        info = np.diag(np.asarray(probs.T @ weight).ravel()) - (probs.T @ sparse.diags(weight) @ probs).toarray()
        delta = np.linalg.solve(info + centre, grad)
        delta -= delta.mean()
        scale = 1.0
        while scale > 1e-8:
            trial = log_g + scale * delta
            value = loglik(trial)
            if value >= current - 1e-12 * abs(current):
                break
            scale /= 2
        step = float(np.max(np.abs(trial - log_g)))
        log_g, current = trial, value
        if step < tol:
            return log_g, n_iter, True
    return log_g, n_iter, False


def _outside_bound(member, numer, weight, x: int, rated: np.ndarray, log_g: np.ndarray, above: bool,
                   alpha: float) -> float:
    """The log-strength bound of an item above (a lower bound) or below (an upper bound) the rated set.

    The bound is the strength at which the item's record against the rated set -- never beaten by it, or never
    beating it -- would have probability ``alpha``, the rated strengths held at their estimates and every other
    item given strength 0 (which favours the item, so the bound is on the cautious side). For two items it is the
    Clopper-Pearson bound of a record of n wins (or losses) out of n.
    """
    gamma = np.zeros(member.shape[1])
    gamma[rated] = np.exp(log_g)
    rest = np.asarray(member @ gamma).ravel()  # strength of the rated items in each choice set
    in_set = np.asarray(member[:, [x]].todense()).ravel() > 0
    if above:
        count = np.asarray(numer[:, [x]].todense()).ravel()
        use = in_set & (rest > 0) & (count > 0)
    else:
        count = weight
        use = in_set & (rest > 0)
    if not np.any(use):
        return math.nan
    rest, count = rest[use], count[use]
    sign = 1.0 if above else -1.0

    def excess(r):  # log-probability of the record at log-strength r, less log(alpha)
        if above:
            return float(-(count * np.logaddexp(0.0, np.log(rest) - r)).sum()) - math.log(alpha)
        return float(-(count * np.logaddexp(0.0, r - np.log(rest))).sum()) - math.log(alpha)

    start = float(np.log(rest).mean())
    near, far = start - sign * 1.0, start + sign * 1.0  # excess(far) > 0, excess(near) < 0 once widened
    while excess(far) <= 0:
        far += sign * 10.0
    while excess(near) > 0:
        near -= sign * 10.0
    return float(optimize.brentq(excess, min(near, far), max(near, far), xtol=1e-9))


def _fit_terms(member, numer, n_items: int, tol: float, max_iter: int, model: str,
               confidence: float = 0.95) -> dict:
    member = sparse.csr_matrix(member, dtype=float)
    numer = sparse.csr_matrix(numer, dtype=float)
    weight = np.asarray(numer.sum(axis=1)).ravel()

    beats = (numer.T @ member).tocsr()
    beats.setdiag(0.0)
    beats.eliminate_zeros()
    in_play = np.asarray(member.sum(axis=0)).ravel() > 0
    if not np.all(in_play):
        missing = np.flatnonzero(~in_play).tolist()
        raise ValueError(f"{model}: item(s) {missing} took part in no comparison, so they cannot be rated")
    n_weak, _ = csgraph.connected_components(beats, directed=True, connection="weak")
    if n_weak > 1:
        raise ValueError(
            f"{model}: the items fall into {n_weak} groups that never met each other, so their "
            "relative strengths are not identified"
        )
    rated, above, below = _order_sets(beats, n_items, member, numer)
    # The rated set's own likelihood: choice sets holding an item above it are won by that item in the limit and
    # say nothing about the set; items below it drop out of the others' choice sets.
    outside = ~(rated | below)
    keep = (np.asarray(member[:, outside].sum(axis=1)).ravel() == 0) & \
           (np.asarray(member[:, rated].sum(axis=1)).ravel() >= 2)
    sub_member = member[keep][:, rated]
    sub_numer = numer[keep][:, rated]
    sub_weight = np.asarray(sub_numer.sum(axis=1)).ravel()
    sub_wins = np.asarray(sub_numer.sum(axis=0)).ravel()
    k = int(rated.sum())
    if k > 1:
        log_g, n_iter, converged = _mm_newton(sub_member, sub_numer, sub_weight, sub_wins, k, tol, max_iter)
    else:
        log_g, n_iter, converged = np.zeros(1), 0, True
    if not converged:
        warnings.warn(f"{model}: the fit did not converge in {max_iter} iterations", RuntimeWarning, stacklevel=3)
    gamma = np.exp(log_g)

    # Observed information of the log-strengths: sum_t w_t (diag(p_t) - p_t p_t^T).
    probs = sparse.diags(1.0 / (sub_member @ gamma)) @ sub_member @ sparse.diags(gamma)
    info = np.diag(np.asarray(probs.T @ sub_weight).ravel()) - \
        (probs.T @ sparse.diags(sub_weight) @ probs).toarray()
    # The rows of ``info`` sum to zero (strengths are only defined up to a common factor), so it is
    # singular along the all-ones vector u. For the centred parametrisation the covariance is its
    # pseudo-inverse, computed stably as P inv(info + u u^T / K) P with P = I - u u^T / K.
    centre = np.full((k, k), 1.0 / k)
    project = np.eye(k) - centre
    cov_log = project @ np.linalg.inv(info + centre) @ project
    cov_log = 0.5 * (cov_log + cov_log.T)

    alpha = (1.0 - confidence) / 2.0
    rating = np.full(n_items, math.nan)
    rating[rated] = ELO_SCALE * log_g
    cov = np.full((n_items, n_items), math.nan)
    cov[np.ix_(rated, rated)] = ELO_SCALE**2 * cov_log
    strength = np.full(n_items, math.nan)
    strength[rated] = gamma
    bound = np.full(n_items, math.nan)
    standing = np.array(["rated"] * n_items, dtype=object)
    for x in np.flatnonzero(~rated):
        if above[x] or below[x]:
            standing[x] = "never lost" if above[x] else "never won"
            bound[x] = ELO_SCALE * _outside_bound(member, numer, weight, int(x), rated, log_g, bool(above[x]),
                                                  alpha)
        else:
            standing[x] = "not comparable"
    return {
        "rating": rating,
        "se": np.sqrt(np.clip(np.diag(cov), 0.0, None)),
        "cov": cov,
        "strength": strength,
        "rated": rated,
        "standing": standing,
        "bound": bound,
        "n_iter": n_iter,
        "converged": converged,
    }


def bradley_terry(wins, prior: float = 0.0, tol: float = 1e-10, max_iter: int = 100_000,
                  confidence: float = 0.95) -> dict:
    """Bradley-Terry ratings from a matrix of head-to-head wins.

    The model is ``P(i beats j) = gamma_i / (gamma_i + gamma_j)``. Strengths are fitted by
    maximum likelihood with Hunter's (2004) MM algorithm and reported on the Elo-like scale
    ``rating_i = 400 * log10(gamma_i)`` centred on the mean of the rated items (see the module docstring).
    An item that never won (or never lost) against the rest has no finite estimate: it is left out of the
    rated set and given a one-sided bound instead (``standing`` and ``bound``).

    Parameters
    ----------
    wins : array_like, shape (K, K)
        ``wins[i, j]`` is the number of wins of ``i`` over ``j``; non-negative and possibly
        fractional (count a tie as half a win each way). The diagonal is ignored.
    prior : float, default 0
        Pseudo-wins added each way to every pair that played at least once (``wins[i, j] +
        wins[j, i] > 0``). A positive prior rates every item (an unbeaten or winless one at a value
        the prior sets, which does not settle with more data); ``0`` is maximum likelihood.
    tol : float, default 1e-10
        Stop when no log-strength moves by more than ``tol`` in one MM step.
    max_iter : int, default 100000
        Iteration cap; a ``RuntimeWarning`` is issued and ``converged`` is False if it is reached.

    Returns
    -------
    dict
        ``rating`` (ndarray, shape (K,)): centred Elo-like ratings, summing to 0;
        ``se`` (ndarray, shape (K,)): standard error of each centred rating;
        ``cov`` (ndarray, shape (K, K)): covariance matrix of the ratings (rating points squared),
        from the observed Fisher information of the penalised likelihood; use it for the standard
        error of a difference, ``sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])``;
        ``strength`` (ndarray, shape (K,)): ``gamma``, scaled to geometric mean 1 over the rated items;
        ``standing`` (ndarray of str): ``"rated"``, ``"never won"`` or ``"never lost"`` (against the
        rated items, along every chain of results) or ``"not comparable"``; the entries of ``rating``,
        ``se``, ``cov`` and ``strength`` are NaN for an item that is not rated;
        ``rated`` (ndarray of bool): ``standing == "rated"``;
        ``bound`` (ndarray): for a ``"never won"`` item an upper, for a ``"never lost"`` item a lower
        bound of its rating on the rated items' scale (see ``confidence``); NaN otherwise;
        ``n_iter`` (int) and ``converged`` (bool): fit diagnostics.

    Raises
    ------
    ValueError
        If ``wins`` is empty, not square, not finite or has a negative entry; if some item played
        no game; or if the items split into groups that never met.

    See Also
    --------
    plackett_luce : the same model for finishing orders of more than two players.

    confidence : float, default 0.95
        Level of the bounds of unrated items: the bound is the rating at which the item's record
        (never beaten, or never winning) has probability ``(1 - confidence) / 2`` with the rated
        items held at their estimates; for two items, the end of the Clopper-Pearson interval.

    The rated items are the largest group in which every item has beaten, and been beaten by, every
    other along some chain of results (the largest strongly connected part of the "beats" graph).

    Examples
    --------
    An item that lost 5 of 5 is not rated; its bound is the Clopper-Pearson upper end, 5 losses in a
    row being 2.5% likely at a win chance of 0.522:

    >>> fit = bradley_terry([[0, 5], [0, 0]])
    >>> fit["standing"].tolist(), round(float(fit["bound"][1]), 1)
    (['rated', 'never won'], 15.2)
    """
    prior, tol, max_iter = _check_fit_options(prior, tol, max_iter)
    w = np.asarray(wins, dtype=float)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"wins must be a square K x K matrix, got shape {w.shape}")
    if w.shape[0] == 0:
        raise ValueError("wins is empty")
    if not np.all(np.isfinite(w)):
        raise ValueError("wins contains NaN or infinite values")
    if np.any(w < 0):
        raise ValueError("wins must be non-negative")
    k = w.shape[0]
    w = w.copy()
    np.fill_diagonal(w, 0.0)

    i_idx, j_idx = np.nonzero(np.triu(w + w.T > 0, k=1))
    if i_idx.size == 0:
        raise ValueError("bradley_terry: no games were played between different items")
    n_terms = i_idx.size
    rows = np.repeat(np.arange(n_terms), 2)
    cols = np.column_stack([i_idx, j_idx]).ravel()
    member = sparse.csr_matrix((np.ones(2 * n_terms), (rows, cols)), shape=(n_terms, k))
    num_vals = np.column_stack([w[i_idx, j_idx] + prior, w[j_idx, i_idx] + prior]).ravel()
    numer = sparse.csr_matrix((num_vals, (rows, cols)), shape=(n_terms, k))
    numer.eliminate_zeros()
    return _fit_terms(member, numer, k, tol, max_iter, "bradley_terry", _check_confidence(confidence))


def _tie_terms(group: np.ndarray, rest: np.ndarray):
    """Yield ``(choice set, items that may be chosen, weight of each)`` for one tied group.

    The group's internal order is unknown, so the log-likelihood is averaged over all of its
    orders. After any k of the d tied items have been placed (each k-subset equally likely) the
    next pick is uniform over the other d - k tied items from the set still in play.
    """
    d = group.size
    for k in range(d):
        set_weight = 1.0 / math.comb(d, k)
        for placed in itertools.combinations(range(d), k):
            mask = np.ones(d, dtype=bool)
            mask[list(placed)] = False
            left = group[mask]
            choice = np.concatenate([left, rest])
            if choice.size < 2:
                continue
            yield choice, left, set_weight / (d - k)


def plackett_luce(
    rankings,
    n_items: int,
    scores=None,
    prior: float = 0.0,
    tol: float = 1e-10,
    max_iter: int = 100_000,
    confidence: float = 0.95,
) -> dict:
    """Plackett-Luce ratings from multi-player finishing orders.

    In the Plackett-Luce model a game's order is built from the top: the winner is drawn from
    the players with probability proportional to strength ``gamma``, second place likewise from
    those left, and so on. With two players it is the Bradley-Terry model, and it gives the same
    ratings as [`bradley_terry`][golfsim.stats.bradley_terry] on the same results (ties included). Strengths are fitted
    by maximum likelihood with Hunter's (2004) MM algorithm and reported on the same centred Elo-like
    scale.

    Parameters
    ----------
    rankings : array_like of int, shape (games, seats)
        Item ids ``0 .. n_items - 1`` of each game's players, best (lowest Golf score) first. A
        negative id marks an empty seat and is skipped, so games of different sizes can share one
        array (``-1`` padding). An id may appear at most once per game. Games with fewer than two
        players carry no information and are ignored.
    n_items : int
        Number of items K; every item must take part in some game.
    scores : array_like, shape (games, seats), optional
        Each player's score (or rank), lower is better, used only to detect ties: players of one
        game with equal scores are tied. Along each game it must be non-decreasing in the order of
        ``rankings``; values at empty seats are ignored. Without ``scores`` there are no ties.
    prior : float, default 0
        Pseudo-wins added each way, as two-player games, to every pair of items that met in at
        least one game; see [`bradley_terry`][golfsim.stats.bradley_terry]. ``0`` is maximum likelihood.
    tol : float, default 1e-10
        Stop when no log-strength moves by more than ``tol`` in one MM step.
    max_iter : int, default 100000
        Iteration cap; a ``RuntimeWarning`` is issued and ``converged`` is False if it is reached.
    confidence : float, default 0.95
        Level of the bounds of unrated items; see [`bradley_terry`][golfsim.stats.bradley_terry].

    Returns
    -------
    dict
        Same keys and shapes as [`bradley_terry`][golfsim.stats.bradley_terry]: ``rating``, ``se`` (shape (K,)), ``cov``
        (shape (K, K)), ``strength``, ``standing``, ``rated``, ``bound`` (shape (K,)), ``n_iter``,
        ``converged``. An item that never finished ahead of (or behind) the rated items is not rated
        and gets a bound, as in [`bradley_terry`][golfsim.stats.bradley_terry].

    Raises
    ------
    ValueError
        If ``rankings`` is not a 2-D integer array, is empty, has an id ``>= n_items`` or a repeated
        id in a game, if ``scores`` has another shape, is not finite at an occupied seat or is not
        sorted like ``rankings``, if no game has two players, if some item played no game, or if the
        items split into groups that never met.

    Notes
    -----
    **Ties are handled by splitting**: a game with tied players contributes the *average* of the
    Plackett-Luce log-likelihoods of all the strict orders consistent with it (every order of each
    tied group equally weighted). A two-way tie between two players is therefore half a win each
    way, exactly the convention of [`bradley_terry`][golfsim.stats.bradley_terry], and a k-way tie for first place gives
    each tied player the ``1/k`` win share of [`share_ci`][golfsim.stats.share_ci]. The averaged terms keep the MM
    algorithm valid; a tie of ``d`` players costs ``2**d`` terms, negligible for table-sized games. The
    standard errors then come from the information of this averaged (composite) likelihood and are
    approximate when ties are frequent.

    Examples
    --------
    Three four-player games among items 0-3 (item 2 won twice):

    >>> fit = plackett_luce([[2, 0, 1, 3], [2, 1, 3, 0], [0, 2, 3, 1]], n_items=4)
    >>> int(np.argmax(fit["rating"]))
    2
    """
    prior, tol, max_iter = _check_fit_options(prior, tol, max_iter)
    if int(n_items) != n_items or n_items < 1:
        raise ValueError(f"n_items must be a positive integer, got {n_items!r}")
    n_items = int(n_items)
    ids, occupied, counts, tied_next = _finishing_orders(rankings, n_items, scores)
    member, numer = _plackett_luce_terms(ids, occupied, counts, tied_next, n_items, prior)
    return _fit_terms(member, numer, n_items, tol, max_iter, "plackett_luce", _check_confidence(confidence))


def _finishing_orders(rankings, n_items: int, scores):
    """[`plackett_luce`][golfsim.stats.plackett_luce]'s games checked and laid out: ``(ids, occupied, counts,
    tied_next)``, the item ids with every game's empty seats moved to its end, which seats are occupied, the players per
    game, and ``tied_next[g, k]``: seats ``k`` and ``k + 1`` of game ``g`` are tied (see there for what is refused)."""
    ids = np.asarray(rankings)
    if ids.ndim != 2:
        raise ValueError(f"rankings must be a 2-D (games x seats) array, got shape {ids.shape}")
    if ids.size == 0:
        raise ValueError("rankings is empty")
    if not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"rankings must hold integer item ids, got dtype {ids.dtype}")
    ids = ids.astype(np.int64)
    if np.any(ids >= n_items):
        raise ValueError(f"rankings has item id {int(ids.max())}, but n_items is {n_items}")

    occupied = ids >= 0
    # Move empty seats to the end of each row, keeping the order of the occupied ones.
    order = np.argsort(~occupied, axis=1, kind="stable")
    ids = np.take_along_axis(ids, order, axis=1)
    counts = occupied.sum(axis=1)
    seat = np.arange(ids.shape[1])
    occupied = seat[None, :] < counts[:, None]

    srt = np.sort(np.where(occupied, ids, -1), axis=1)
    if np.any((srt[:, 1:] == srt[:, :-1]) & (srt[:, 1:] >= 0)):
        raise ValueError("an item appears more than once in the same game")

    if scores is not None:
        sc = np.asarray(scores, dtype=float)
        if sc.shape != np.shape(rankings):
            raise ValueError(f"scores must have the shape of rankings {np.shape(rankings)}, got {sc.shape}")
        sc = np.take_along_axis(sc, order, axis=1)
        if not np.all(np.isfinite(sc[occupied])):
            raise ValueError("scores must be finite at every occupied seat")
        both = occupied[:, 1:]
        step = sc[:, 1:] - sc[:, :-1]
        if np.any(both & (step < 0)):
            raise ValueError("scores must be non-decreasing along each game (rankings are best first)")
        tied_next = both & (step == 0)  # tied_next[g, k]: seats k and k + 1 of game g are tied
    else:
        tied_next = np.zeros((ids.shape[0], max(ids.shape[1] - 1, 0)), dtype=bool)
    return ids, occupied, counts, tied_next


def _plackett_luce_terms(ids, occupied, counts, tied_next, n_items: int, prior: float):
    """The MM algorithm's terms of [`plackett_luce`][golfsim.stats.plackett_luce] as two sparse ``(terms, n_items)``
    matrices: which items each term's choice is among (``member``) and the weight of the item(s) chosen (``numer``). A
    game without ties gives one term per place but the last; a game with ties the average over the orders of each tied
    group; the ``prior`` a two-player game each way for every pair that met."""
    member_rows: list[np.ndarray] = []
    member_cols: list[np.ndarray] = []
    numer_rows: list[np.ndarray] = []
    numer_cols: list[np.ndarray] = []
    numer_vals: list[np.ndarray] = []
    n_terms = 0

    usable = counts >= 2
    has_tie = tied_next.any(axis=1)

    # Games without ties, vectorised by table size: one term per place except the last.
    for m in np.unique(counts[usable & ~has_tie]):
        block = ids[usable & ~has_tie & (counts == m)][:, :m]
        g = block.shape[0]
        for k in range(m - 1):
            t = n_terms + np.arange(g)
            member_rows.append(np.repeat(t, m - k))
            member_cols.append(block[:, k:].ravel())
            numer_rows.append(t)
            numer_cols.append(block[:, k])
            numer_vals.append(np.ones(g))
            n_terms += g

    # Games with ties: average over the orders of each tied group.
    for r in np.flatnonzero(usable & has_tie):
        m = counts[r]
        row = ids[r, :m]
        starts = np.concatenate([[0], np.flatnonzero(~tied_next[r, : m - 1]) + 1])
        ends = np.concatenate([starts[1:], [m]])
        for s, e in zip(starts, ends, strict=True):
            for choice, chosen, each in _tie_terms(row[s:e], row[e:]):
                member_rows.append(np.full(choice.size, n_terms))
                member_cols.append(choice)
                numer_rows.append(np.full(chosen.size, n_terms))
                numer_cols.append(chosen)
                numer_vals.append(np.full(chosen.size, each))
                n_terms += 1

    if n_terms == 0:
        raise ValueError("plackett_luce: no game has two or more players")

    if prior > 0:
        keep = (occupied & usable[:, None]).ravel()
        g_idx = np.repeat(np.arange(ids.shape[0]), ids.shape[1])[keep]
        items = ids.ravel()[keep]
        incidence = sparse.csr_matrix((np.ones(items.size), (g_idx, items)), shape=(ids.shape[0], n_items))
        met = sparse.triu(incidence.T @ incidence, k=1).tocoo()
        pi, pj = met.row, met.col
        n_pairs = pi.size
        t = n_terms + np.arange(n_pairs)
        both_rows = np.repeat(t, 2)
        both_cols = np.column_stack([pi, pj]).ravel()
        member_rows.append(both_rows)
        member_cols.append(both_cols)
        numer_rows.append(both_rows)
        numer_cols.append(both_cols)
        numer_vals.append(np.full(2 * n_pairs, prior))
        n_terms += n_pairs

    mr = np.concatenate(member_rows)
    member = sparse.csr_matrix((np.ones(mr.size), (mr, np.concatenate(member_cols))), shape=(n_terms, n_items))
    numer = sparse.csr_matrix(
        (np.concatenate(numer_vals), (np.concatenate(numer_rows), np.concatenate(numer_cols))),
        shape=(n_terms, n_items),
    )
    return member, numer
