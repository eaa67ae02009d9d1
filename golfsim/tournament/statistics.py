"""Tournament ratings: Bradley-Terry and Plackett-Luce fits of what `golfsim.tournament.tally` counted."""

from __future__ import annotations

import itertools
import warnings

import numpy as np

from golfsim import stats

# Iteration cap of the rating fits (MM steps finished by Newton steps, on a handful of aggregated terms).
_MAX_ITER = 100_000


def _plackett_luce_patterns(patterns: np.ndarray, counts: np.ndarray, k: int, prior: float = 0.0,
                            confidence: float = 0.95) -> dict:
    """[`golfsim.stats.plackett_luce`][] on full tables, each distinct finishing pattern counted once.

    A tournament repeats the same few finishing orders (``P!`` orders and their tie patterns per table) many
    thousands of times. ``patterns`` holds one row per distinct pattern: the ``P`` agents from first to last, then
    ``P - 1`` flags of a tie between neighbours; ``counts`` how often each was seen. This builds the same choice
    terms as ``stats.plackett_luce`` -- ties split over the orders of each tied group, ``prior`` pseudo-wins
    between agents that met -- weighting each pattern by its count, and fits them with the same engine, so the
    estimate is the same at a tiny fraction of the cost.
    """
    m = (patterns.shape[1] + 1) // 2
    member_rows, member_cols, numer_rows, numer_cols, numer_vals = [], [], [], [], []
    n_terms = 0
    for pattern, count in zip(patterns, counts, strict=True):
        row, ties = pattern[:m], pattern[m:].astype(bool)
        starts = np.concatenate([[0], np.flatnonzero(~ties) + 1])
        ends = np.concatenate([starts[1:], [m]])
        for a, b in zip(starts, ends, strict=True):
            for choice, chosen, each in stats._tie_terms(row[a:b], row[b:]):
                member_rows.append(np.full(choice.size, n_terms))
                member_cols.append(choice)
                numer_rows.append(np.full(chosen.size, n_terms))
                numer_cols.append(chosen)
                numer_vals.append(np.full(chosen.size, each * count))
                n_terms += 1
    if prior > 0:
        met = sorted({(min(x, y), max(x, y)) for row in patterns[:, :m] for x, y in itertools.combinations(row, 2)})
        for x, y in met:
            member_rows.append(np.full(2, n_terms))
            member_cols.append(np.array([x, y]))
            numer_rows.append(np.full(2, n_terms))
            numer_cols.append(np.array([x, y]))
            numer_vals.append(np.full(2, prior))
            n_terms += 1
    from scipy import sparse

    rows = np.concatenate(member_rows)
    member = sparse.csr_matrix((np.ones(rows.size), (rows, np.concatenate(member_cols))), shape=(n_terms, k))
    numer = sparse.csr_matrix((np.concatenate(numer_vals), (np.concatenate(numer_rows), np.concatenate(numer_cols))),
                              shape=(n_terms, k))
    return stats._fit_terms(member, numer, k, 1e-10, _MAX_ITER, "plackett_luce", confidence)


def fit_pairwise(wins: np.ndarray, players: int, confidence: float = 0.95):
    """Bradley-Terry ratings from ``wins[a, b]``, the games' shares of ``a`` beating ``b`` (two seats, or tables
    that seat one agent more than once), and the model's name."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = stats.bradley_terry(wins, max_iter=_MAX_ITER, confidence=confidence)
    model = "Bradley-Terry" if players == 2 else \
        "Bradley-Terry (per game, each agent against the anchor: share of the anchor's seats it beat)"
    return fit, model


def fit_orders(patterns: np.ndarray, counts: np.ndarray, k: int, players: int, confidence: float = 0.95):
    """Plackett-Luce ratings from counted finishing patterns (`_plackett_luce_patterns`), and the model's
    name."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fit = _plackett_luce_patterns(patterns, counts, k, confidence=confidence)
    return fit, "Plackett-Luce (finishing order of every game, ties split)"
