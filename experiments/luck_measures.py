"""The estimators of the luck experiment (`golfsim.experiments.luck`), on plain arrays of scores.

Duplicate layout: deal set ``d`` is played in ``P`` seatings, seating ``k`` putting the agent under study (``A``) in
seat ``k`` and the other agent (``B``) in every other seat, so each seat's cards are played once by ``A``. The
margin ``Y[d, k]`` is ``A``'s score minus the mean of the others' (negative: ``A`` scored less, which wins).

Variance components (`component_moments`, `components`): the model is
``Y[d, k] = delta + c[d, k] + e[d, k]`` with ``delta`` the skill difference (fixed), ``c`` the cards: what seat
``k``'s deal is worth against the others' (it sums to zero over ``k``, since every seat's cards are compared with
the rest, and duplicate deals give the same cards to every seating), and ``e`` the rest (the play of the cards
once the agents' choices differ, agent randomness, skill by cards interaction), independent with equal variance.
The method-of-moments (ANOVA) estimates are

- ``sigma2_rest = P * s2(mean over k of Y[d, k])`` (the seat-averaged margin, a paired difference, has no card
  component),
- ``sigma2_cards = (P - 1) / P * (mean within-deal-set variance of Y - sigma2_rest)``,
- ``skill2 = mean(Y) ** 2 - var(mean(Y))`` (unbiased for ``delta ** 2``; it may dip below zero when the agents are
  equal).

They sum to the mean squared margin ``E[Y ** 2]``: the variance of a seat's margin when the two agents are
assigned to the seats at random. The skill share is ``skill2`` over that sum, the card share and the rest share the
others; luck is one minus the skill share. The same estimates on the deals of a game (units ``(d, hole)``,
clusters ``d``) give the shares of one deal.

Win probability over ``H`` holes from per-deal margins against each opponent (`win_probability`): the
``H``-hole margins are sums of ``H`` independent deals, so approximately normal with mean ``H * mu``, variance
``H * v`` and, between two opponents, covariance ``H * c``; ``A`` wins when every margin is negative.
`holes_needed` inverts it.

Game analytics per game from hole-by-hole scores (`lead_changes`, `led_for_good`,
`decided_before_end`): see the experiment's module docstring for the definitions and their sources.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from scipy.special import ndtr

#: Moments per cluster that the variance components need (the columns of `component_moments`).
MOMENT_COLUMNS = 4
#: Gauss-Hermite nodes for the one-factor normal integral of `win_probability`.
_NODES, _WEIGHTS = hermegauss(48)
_WEIGHTS = _WEIGHTS / math.sqrt(2 * math.pi)
#: Largest number of holes `holes_needed` searches; beyond it the answer is ``inf``.
MAX_HOLES = 1_000_000


# ---------------------------------------------------------------- margins
def margins(scores: np.ndarray) -> np.ndarray:
    """``Y[d, k, h]``: seat ``k``'s score minus the mean of the other seats' in seating ``k``.

    Parameters
    ----------
    scores : ndarray, shape (n, P, H, P)
        ``scores[d, k, h, s]``: seat ``s``'s score on hole ``h`` of deal set ``d`` in seating ``k`` (``A`` in seat
        ``k``).
    """
    s = scores.astype(np.float64)
    p = s.shape[1]
    own = np.stack([s[:, k, :, k] for k in range(p)], axis=1)
    return own - (s.sum(axis=3) - own) / (p - 1)


def opponent_margins(scores: np.ndarray) -> np.ndarray:
    """``m[d, k, h, j]``: ``A``'s score minus its ``j``-th opponent's (``j`` over the seats other than ``k``)."""
    s = scores.astype(np.float64)
    p = s.shape[1]
    out = []
    for k in range(p):
        others = [q for q in range(p) if q != k]
        out.append(s[:, k, :, k][:, :, None] - s[:, k][..., others])
    return np.stack(out, axis=1)


# ---------------------------------------------------------------- variance components
def component_moments(y: np.ndarray) -> np.ndarray:
    """Per cluster, the moments the variance components are made of.

    Parameters
    ----------
    y : ndarray, shape (n, u, P)
        Margins of ``u`` units (one game, or the deals of one game) of each of ``n`` clusters in ``P`` seatings.

    Returns
    -------
    ndarray, shape (n, 4)
        Per cluster the mean over its units of: the seat-averaged margin, its square, the within-unit variance over
        seatings (``ddof=1``); and the square of the first column.
    """
    ybar = y.mean(axis=2)
    within = y.var(axis=2, ddof=1)
    a = ybar.mean(axis=1)
    return np.stack([a, (ybar ** 2).mean(axis=1), within.mean(axis=1), a ** 2], axis=1)


def components(means: np.ndarray, n: int, units: int, players: int) -> dict[str, np.ndarray]:
    """Variance components from the means over clusters of `component_moments` (any leading axes).

    Parameters
    ----------
    means : ndarray, shape (..., 4)
        Column means over the ``n`` clusters (or a bootstrap resample's weighted means).
    n, units, players : int
        Clusters, units per cluster, seatings (= players).

    Returns
    -------
    dict
        ``delta`` (mean margin), ``skill2``, ``cards``, ``rest``, ``total`` and the shares ``skill_share``,
        ``card_share``, ``rest_share``.
    """
    a, b, w, a2 = (means[..., i] for i in range(MOMENT_COLUMNS))
    big_n = n * units
    var_delta = (a2 - a ** 2) / max(n - 1, 1)
    skill2 = a ** 2 - var_delta
    rest = players * (b - a ** 2) * big_n / max(big_n - 1, 1)
    cards = (players - 1) / players * (w - rest)
    total = skill2 + cards + rest
    with np.errstate(invalid="ignore", divide="ignore"):
        return {"delta": a, "skill2": skill2, "cards": cards, "rest": rest, "total": total,
                "skill_share": skill2 / total, "card_share": cards / total, "rest_share": rest / total}


# ---------------------------------------------------------------- bootstrap
def bootstrap_means(x: np.ndarray, resamples: int, rng: np.random.Generator, chunk: int = 64) -> np.ndarray:
    """Column means of ``resamples`` bootstrap resamples of the rows of ``x`` (shape ``(resamples, columns)``).

    Rows are the independent units (deal sets); the resample indices come from ``rng`` in a fixed order, so the
    same generator state gives the same result.
    """
    n = x.shape[0]
    out = np.empty((resamples, x.shape[1]))
    for lo in range(0, resamples, chunk):
        hi = min(lo + chunk, resamples)
        idx = rng.integers(0, n, size=(hi - lo, n))
        counts = np.stack([np.bincount(row, minlength=n) for row in idx])
        out[lo:hi] = counts @ x / n
    return out


def percentile_interval(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    """Percentile bootstrap interval (``nan`` when every sample is ``nan``; ``inf`` kept as a bound)."""
    tail = (1 - confidence) / 2
    finite = samples[~np.isnan(samples)]
    if finite.size == 0:
        return math.nan, math.nan
    lo, hi = np.quantile(finite, [tail, 1 - tail], method="inverted_cdf")  # no interpolation: inf stays a bound
    return float(lo), float(hi)


# ---------------------------------------------------------------- win probability
def margin_moments(m: np.ndarray) -> np.ndarray:
    """Per deal set the sums the per-deal margin model needs.

    Parameters
    ----------
    m : ndarray, shape (n, P, H, J)
        `opponent_margins` (``J = P - 1`` opponents).

    Returns
    -------
    ndarray, shape (n, 3)
        Per deal set the mean over seatings, holes and opponents of ``m`` and of ``m ** 2``, and the mean over
        seatings, holes and pairs of distinct opponents of ``m_j * m_j'`` (0 when there is one opponent).
    """
    first = m.mean(axis=(1, 2, 3))
    second = (m ** 2).mean(axis=(1, 2, 3))
    j = m.shape[3]
    if j < 2:
        cross = np.zeros_like(first)
    else:
        s = m.sum(axis=3)
        cross = ((s ** 2 - (m ** 2).sum(axis=3)) / (j * (j - 1))).mean(axis=(1, 2))
    return np.stack([first, second, cross], axis=1)


def model_parameters(means: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``mu, v, rho`` (per-deal mean, variance and correlation between opponents) from `margin_moments`
    means (any leading axes)."""
    mu, second, cross = means[..., 0], means[..., 1], means[..., 2]
    v = second - mu ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        rho = np.clip((cross - mu ** 2) / v, 0.0, 0.999)
    return mu, v, rho


def win_probability(holes, mu, v, rho, opponents: int) -> np.ndarray:
    """Probability that every ``holes``-hole margin is below zero when per-deal margins are normal with mean ``mu``,
    variance ``v`` and correlation ``rho`` between opponents (broadcast over arrays).

    One factor: ``margin_j = H mu + sqrt(H v) (sqrt(rho) U + sqrt(1 - rho) V_j)``, integrated over ``U`` by
    Gauss-Hermite quadrature; with one opponent it is ``Phi(-mu sqrt(H / v))``.
    """
    holes, mu, v, rho = (np.asarray(x, dtype=np.float64) for x in (holes, mu, v, rho))
    x = -mu * np.sqrt(holes / v)
    if opponents == 1:
        return ndtr(x)
    u = _NODES.reshape((1,) * np.broadcast(x, rho).ndim + (-1,))
    inner = (x[..., None] - np.sqrt(rho)[..., None] * u) / np.sqrt(1 - rho)[..., None]
    return (ndtr(inner) ** opponents * _WEIGHTS).sum(axis=-1)


def holes_needed(target: float, mu, v, rho, opponents: int) -> np.ndarray:
    """The fewest holes with `win_probability` at least ``target`` (``inf`` when ``mu >= 0`` or more than
    `MAX_HOLES` would be needed); a bisection over whole numbers, vectorised over the parameters."""
    mu, v, rho = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (mu, v, rho)))
    ok = (mu < 0) & (v > 0) & (win_probability(MAX_HOLES, mu, np.where(v > 0, v, 1), rho, opponents) >= target)
    lo = np.zeros(mu.shape)  # p(lo) < target (or lo = 0)
    hi = np.full(mu.shape, float(MAX_HOLES))  # p(hi) >= target where ok
    vv = np.where(v > 0, v, 1.0)
    while np.any(ok & (hi - lo > 1)):
        mid = np.floor((lo + hi) / 2)
        p = win_probability(np.maximum(mid, 1), mu, vv, rho, opponents)
        up = (p >= target) & (mid >= 1)
        hi = np.where(ok & up & (hi - lo > 1), mid, hi)
        lo = np.where(ok & ~up & (hi - lo > 1), mid, lo)
    return np.where(ok, hi, np.inf)


def block_wins(scores: np.ndarray, length: int) -> np.ndarray:
    """``A``'s win share (ties shared) in games of ``length`` holes, per deal set (or group of deal sets).

    Holes of a game are cut into consecutive blocks of ``length`` when ``length`` divides the game's holes; for
    longer games ``length / holes`` consecutive deal sets are joined (the last incomplete group is dropped).

    Returns
    -------
    ndarray
        Per unit (deal set, or group) the mean over its blocks and seatings of ``A``'s win share.
    """
    n, p, holes, _ = scores.shape
    s = scores.astype(np.int64)
    if length <= holes:
        if holes % length:
            raise ValueError(f"a game of {holes} holes does not cut into blocks of {length}")
        blocks = s.reshape(n, p, holes // length, length, p).sum(axis=3)
    else:
        if length % holes:
            raise ValueError(f"games of {length} holes are not made of whole games of {holes}")
        group = length // holes
        n = n // group * group
        blocks = s[:n].reshape(n // group, group, p, holes, p).sum(axis=(1, 3))[:, :, None, :]
    best = blocks.min(axis=3, keepdims=True)
    winners = blocks == best
    share = winners / winners.sum(axis=3, keepdims=True)
    own = np.stack([share[:, k, :, k] for k in range(p)], axis=1)
    return own.mean(axis=(1, 2))


# ---------------------------------------------------------------- game analytics
def _leaders(cum: np.ndarray) -> np.ndarray:
    """Bool ``[n, H, P]``: the players holding the lowest running total after each hole."""
    return cum == cum.min(axis=2, keepdims=True)


def lead_changes(hole_scores: np.ndarray) -> np.ndarray:
    """Per game, the holes after which the set of leaders (lowest running total, ties included) differs from the
    set after the hole before; the first hole sets the lead and is not counted (Ludii's ``LeadChange`` counts the
    same on move-by-move evaluations)."""
    lead = _leaders(np.cumsum(hole_scores.astype(np.int64), axis=1))
    return (lead[:, 1:] != lead[:, :-1]).any(axis=2).sum(axis=1)


def _sole_winner(cum: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    final = cum[:, -1]
    best = final.min(axis=1, keepdims=True)
    alone = (final == best).sum(axis=1) == 1
    return alone, final.argmin(axis=1)


def led_for_good(hole_scores: np.ndarray) -> np.ndarray:
    """Per game, how many holes before the end the eventual winner took the sole lead and kept it to the end (0:
    only on the last hole, or a tie for the win)."""
    cum = np.cumsum(hole_scores.astype(np.int64), axis=1)
    n, holes, _ = cum.shape
    alone, winner = _sole_winner(cum)
    lead = _leaders(cum)
    sole = lead.sum(axis=2) == 1
    winner_leads = np.take_along_axis(lead, winner[:, None, None], axis=2)[:, :, 0] & sole
    # run of holes at the end in which the winner leads alone
    run = np.cumprod(winner_leads[:, ::-1], axis=1).sum(axis=1)
    return np.where(alone, np.maximum(run - 1, 0), 0)


def leads(hole_scores: np.ndarray) -> np.ndarray:
    """``[n, H, P]``: each player's lead after each hole, the lowest of the others' running totals minus its own
    (positive: ahead by that many points)."""
    cum = np.cumsum(hole_scores.astype(np.int64), axis=1)
    p = cum.shape[2]
    others = np.stack([np.delete(cum, q, axis=2).min(axis=2) for q in range(p)], axis=2)
    return others - cum


def decisiveness_thresholds(hole_scores: np.ndarray) -> np.ndarray:
    """Per number of holes still to play (index ``r = 1 .. H - 1``; index 0 unused), the largest lead held with
    ``r`` holes to play by a player who did not win, over every game given (Ludii's ``DecisivenessThreshold``: the
    highest evaluation a non-winner reached, here per holes remaining)."""
    cum = np.cumsum(hole_scores.astype(np.int64), axis=1)
    final = cum[:, -1]
    losers = final != final.min(axis=1, keepdims=True)
    lead = leads(hole_scores)
    holes = cum.shape[1]
    out = np.full(holes, -np.inf)
    for t in range(holes - 1):
        held = lead[:, t][losers]
        if held.size:
            out[holes - 1 - t] = held.max()
    return out


def decided_before_end(hole_scores: np.ndarray, thresholds: np.ndarray) -> np.ndarray:
    """Per game, how many holes before the end the eventual (sole) winner first led by more than the threshold for
    the holes still to play (`decisiveness_thresholds`); 0 if never before the last hole or a tie."""
    cum = np.cumsum(hole_scores.astype(np.int64), axis=1)
    holes = cum.shape[1]
    alone, winner = _sole_winner(cum)
    lead = np.take_along_axis(leads(hole_scores), winner[:, None, None], axis=2)[:, :, 0]
    remaining = holes - 1 - np.arange(holes - 1)
    above = lead[:, :holes - 1] > thresholds[remaining][None, :]
    first = np.where(above.any(axis=1), above.argmax(axis=1), holes - 1)
    return np.where(alone, holes - 1 - first, 0)


def winner_trailed(hole_scores: np.ndarray) -> np.ndarray:
    """Per game, whether the eventual winner (any of tied winners) was not among the leaders after some hole
    before the last (Browne's drama: the winner came from behind)."""
    cum = np.cumsum(hole_scores.astype(np.int64), axis=1)
    final = cum[:, -1]
    winners = final == final.min(axis=1, keepdims=True)
    lead = _leaders(cum)[:, :-1]
    behind = winners[:, None, :] & ~lead
    return behind.any(axis=(1, 2))
