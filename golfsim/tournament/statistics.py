"""Tournament statistics: standings, head-to-head pairs and ratings from the per-seating game arrays."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np

from golfsim import stats
from golfsim.core.scoring import win_shares

# Iteration cap of the rating fits (MM steps finished by Newton steps, on a handful of aggregated terms).
_MAX_ITER = 100_000




# ---------------------------------------------------------------- statistics
def _standings_and_pairs(blocks, seatings, k, holes, confidence):
    """Per-agent standings and head-to-head rows from the per-(table, seat order) arrays."""
    n = blocks[0].totals.shape[0] if blocks else 0
    plays = np.zeros(k, dtype=np.int64)  # plays per deal set
    sum_total = np.zeros((k, n))
    sum_share = np.zeros((k, n))
    sum_outs = np.zeros((k, n))  # deals gone out, per deal set
    out_wins = np.zeros(k)
    turns = np.zeros(k)
    trunc = np.zeros(k, dtype=np.int64)
    pair_diff: dict[tuple[int, int], np.ndarray] = {}
    pair_win: dict[tuple[int, int], np.ndarray] = {}
    pair_count: dict[tuple[int, int], int] = {}
    for (_, _, seats), blk in zip(seatings, blocks, strict=True):
        tot = blk.totals.astype(np.float64)
        shares = win_shares(blk.totals)
        for s, a in enumerate(seats):
            plays[a] += 1
            sum_total[a] += tot[:, s]
            sum_share[a] += shares[:, s]
            sum_outs[a] += blk.outs[:, s]
            out_wins[a] += blk.out_wins[:, s].sum()
            turns[a] += blk.turns.sum()
            trunc[a] += int(blk.truncated.sum())
        for s, u in itertools.combinations(range(len(seats)), 2):
            a, b = seats[s], seats[u]
            if a == b:
                continue
            diff = tot[:, s] - tot[:, u]
            win = (diff < 0) + 0.5 * (diff == 0)
            if a > b:
                a, b, diff, win = b, a, -diff, 1.0 - win
            key = (a, b)
            if key not in pair_diff:
                pair_diff[key] = np.zeros(n)
                pair_win[key] = np.zeros(n)
                pair_count[key] = 0
            pair_diff[key] += diff
            pair_win[key] += win
            pair_count[key] += 1

    rows = []
    for a in range(k):
        games = int(plays[a] * n)
        row = {"agent": a, "games": games, "deal_sets": n}
        if n == 0 or plays[a] == 0:
            row.update({c: math.nan for c in ("mean_score", "mean_score_low", "mean_score_high", "mean_hole_score",
                                              "mean_hole_score_low", "mean_hole_score_high", "win_rate",
                                              "win_rate_low", "win_rate_high", "went_out_rate",
                                              "went_out_rate_low", "went_out_rate_high", "out_win_rate",
                                              "mean_turns")})
            row["truncated_deals"] = 0
            rows.append(row)
            continue
        unit_score = sum_total[a] / plays[a]
        unit_share = sum_share[a] / plays[a]
        m, lo, hi = stats.mean_ci(unit_score, confidence)
        # deal sets are the independent units (duplicate deals tie an agent's games within one); the Wilson
        # interval at their effective sample size is never zero-width, even for an agent that never won
        w, wlo, whi = stats.share_wilson_ci(np.clip(unit_share, 0.0, 1.0), games, confidence)
        deals = games * holes
        _, olo, ohi = stats.share_wilson_ci(np.clip(sum_outs[a] / (plays[a] * holes), 0.0, 1.0), deals, confidence)
        outs = sum_outs[a].sum()
        row.update({
            "mean_score": m, "mean_score_low": lo, "mean_score_high": hi,
            "mean_hole_score": m / holes, "mean_hole_score_low": lo / holes, "mean_hole_score_high": hi / holes,
            "win_rate": w, "win_rate_low": wlo, "win_rate_high": whi,
            "went_out_rate": outs / deals, "went_out_rate_low": olo, "went_out_rate_high": ohi,
            "out_win_rate": out_wins[a] / outs if outs > 0 else math.nan,
            "mean_turns": turns[a] / deals,
            "truncated_deals": int(trunc[a]),
        })
        rows.append(row)

    h2h = []
    for (a, b), diff in (pair_diff.items() if n > 0 else ()):
        c = pair_count[(a, b)]
        unit_diff = diff / c
        unit_win = np.clip(pair_win[(a, b)] / c, 0.0, 1.0)
        d = stats.paired_difference(unit_diff, np.zeros(n), confidence)
        w, wlo, whi = stats.share_wilson_ci(unit_win, c * n, confidence)
        for x, y, sign in ((a, b, 1.0), (b, a, -1.0)):
            mean, low, high = sign * d["mean"], d["low"], d["high"]
            if sign < 0:
                low, high = -d["high"], -d["low"]
            wr, wl, wh = (w, wlo, whi) if sign > 0 else (1.0 - w, 1.0 - whi, 1.0 - wlo)
            h2h.append({"agent": x, "opponent": y, "mean_diff": mean, "mean_diff_low": low, "mean_diff_high": high,
                        "win_rate": wr, "win_rate_low": wl, "win_rate_high": wh, "deal_sets": n, "games": c * n})
    return rows, h2h


def _plackett_luce_counted(rankings: np.ndarray, scores: np.ndarray, k: int, prior: float = 0.0,
                           confidence: float = 0.95) -> dict:
    """:func:`golfsim.stats.plackett_luce` on full tables, each distinct finishing order counted once.

    A tournament repeats the same few finishing orders (``P!`` orders and their tie patterns per table) many
    thousands of times. This builds the same choice terms as ``stats.plackett_luce`` -- ties split over the orders
    of each tied group, ``prior`` pseudo-wins between agents that met -- but weights each distinct pattern by its
    count, and fits them with the same engine, so the estimate is the same at a tiny fraction of the cost.
    """
    tied = np.diff(scores, axis=1) == 0
    patterns, counts = np.unique(np.concatenate([rankings, tied.astype(np.int64)], axis=1), axis=0,
                                 return_counts=True)
    m = rankings.shape[1]
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


def _fit_ratings(blocks, seatings, k, players, confidence=0.95):
    """Maximum-likelihood ratings of the games: Bradley-Terry for two seats, Plackett-Luce for more."""
    games = sum(b.totals.shape[0] for b in blocks)
    if games == 0:
        return None, "none (no complete deal set)"
    repeated = any(len(set(seats)) < len(seats) for _, _, seats in seatings)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if players == 2 or repeated:
            wins = np.zeros((k, k))
            for (_, _, seats), blk in zip(seatings, blocks, strict=True):
                tot = blk.totals
                for a, b in itertools.combinations(sorted(set(seats)), 2):
                    sa = [s for s, x in enumerate(seats) if x == a]
                    sb = [s for s, x in enumerate(seats) if x == b]
                    share = np.zeros(tot.shape[0])
                    for s in sa:
                        for u in sb:
                            share += (tot[:, s] < tot[:, u]) + 0.5 * (tot[:, s] == tot[:, u])
                    share /= len(sa) * len(sb)
                    wins[a, b] += share.sum()
                    wins[b, a] += (1.0 - share).sum()
            model = "Bradley-Terry" if players == 2 else \
                "Bradley-Terry (per game, each agent against the anchor: share of the anchor's seats it beat)"
            return stats.bradley_terry(wins, max_iter=_MAX_ITER, confidence=confidence), model
        rankings, scores = [], []
        for (_, _, seats), blk in zip(seatings, blocks, strict=True):
            order = np.argsort(blk.totals, axis=1, kind="stable")
            rankings.append(np.asarray(seats, dtype=np.int64)[order])
            scores.append(np.take_along_axis(blk.totals, order, axis=1))
        fit = _plackett_luce_counted(np.concatenate(rankings), np.concatenate(scores), k, confidence=confidence)
    return fit, "Plackett-Luce (finishing order of every game, ties split)"


