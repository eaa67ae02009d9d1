"""Folding a tournament's games as they finish: statistics in memory that does not grow with the deal sets.

A tournament's intervals treat the deal set as the unit: per agent (and per pair of agents) a value per deal set,
summed over every table and seat order. `Tally` takes each finished task's
[`golfsim.runs.tasks.GameSummary`][], adds it into its piece's per-deal-set sums and drops it; when every seat
order of a piece is in, the piece is reduced to sums and sums of squares over its deal sets (and, for the ratings,
to counts of finishing orders) and its per-deal-set arrays are dropped too. What is held is a few open pieces and
numbers per agent, pair and finishing order, whatever the number of deal sets.

Every sum is of integers (totals, goings out, win shares times the least common multiple of 1..P, half-wins times
two), in Python integers where they could overflow, so the result is exact and does not depend on how the games
were cut into tasks, in what order the tasks finished or on which executor.

Pieces are merged in order only: a partial result keeps the complete pieces from the first on (a piece finished
beyond a gap is held as its small reduced sums until the gap closes, and dropped if it never does).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from golfsim import stats
from golfsim.runs.tasks import GameSummary
from golfsim.tournament.statistics import fit_orders, fit_pairwise

__all__ = ["Tally"]


def _squares(x: np.ndarray) -> list[int]:
    """Exact per-row sums of squares of an int64 array (in Python integers when int64 could overflow)."""
    if x.size == 0:
        return [0] * x.shape[0]
    biggest = int(np.abs(x).max())
    if biggest * biggest * x.shape[1] < 2**62:
        return [int(v) for v in (x * x).sum(axis=1)]
    return [int(v) for v in (x.astype(object) ** 2).sum(axis=1)]


def _row_sums(x: np.ndarray) -> list[int]:
    return [int(v) for v in x.sum(axis=1)]


@dataclass
class _Moments:
    """Sums over deal sets of one piece (or of the merged prefix): per row, ``sum x`` and ``sum x**2``."""

    deal_sets: int = 0
    first: dict = field(default_factory=dict)  # name -> list[int] per row
    second: dict = field(default_factory=dict)
    scalars: dict = field(default_factory=dict)  # name -> list[int] per agent (sums over games)
    wins: np.ndarray | None = None  # object [k, k] of ints (Bradley-Terry, scaled)
    patterns: dict = field(default_factory=dict)  # finishing pattern -> count (Plackett-Luce)
    scores: list = field(default_factory=list)  # per agent: {total: count}
    blocks: list = field(default_factory=list)  # per seating: the piece's games (only when games are kept)

    def merge(self, other: _Moments) -> None:
        self.deal_sets += other.deal_sets
        for target, source in ((self.first, other.first), (self.second, other.second),
                               (self.scalars, other.scalars)):
            for name, values in source.items():
                old = target.get(name)
                target[name] = list(values) if old is None else [a + b for a, b in zip(old, values, strict=True)]
        if other.wins is not None:
            self.wins = other.wins.copy() if self.wins is None else self.wins + other.wins
        for key, count in other.patterns.items():
            self.patterns[key] = self.patterns.get(key, 0) + count
        if not self.scores:
            self.scores = [{} for _ in other.scores]
        for mine, theirs in zip(self.scores, other.scores, strict=True):
            for value, count in theirs.items():
                mine[value] = mine.get(value, 0) + count


class _Piece:
    """The per-deal-set sums of one piece while its seat orders come in."""

    def __init__(self, tally: Tally, count: int):
        k, pairs = tally.k, len(tally.pairs)
        self.missing = len(tally.seatings)
        self.total = np.zeros((k, count), np.int64)
        self.share = np.zeros((k, count), np.int64)  # win shares times tally.share_scale
        self.outs = np.zeros((k, count), np.int64)
        self.diff = np.zeros((pairs, count), np.int64)  # first minus second agent's total
        self.win = np.zeros((pairs, count), np.int64)  # twice the first agent's wins (ties count 1)
        self.out_wins = np.zeros(k, np.int64)  # win shares of the deals gone out, times tally.share_scale
        self.turns = np.zeros(k, np.int64)
        self.truncated = np.zeros(k, np.int64)
        self.truncated_all = np.zeros(1, np.int64)
        self.wins = np.zeros((k, k), object) if tally.pairwise else None
        self.patterns: dict = {}
        self.scores: list[dict] = [{} for _ in range(k)]
        self.blocks: dict[int, GameSummary] = {}


class Tally:
    """The running statistics of one tournament plan (see the module docstring).

    Parameters
    ----------
    plan : golfsim.tournament.planning.TournamentPlan
    keep_games : bool
        Also keep every game's summary (for [`TournamentResult.games`][golfsim.tournament.TournamentResult.games]);
        memory then grows with the games.
    """

    def __init__(self, plan, keep_games: bool = False):
        self.plan = plan
        self.seatings = plan.seatings
        self.k = len(plan.choices)
        self.players = plan.rules.players
        self.holes = plan.rules.holes
        self.keep_games = keep_games
        self.share_scale = math.lcm(*range(1, self.players + 1))
        self.plays = np.zeros(self.k, np.int64)  # plays per deal set
        pair_index: dict[tuple[int, int], int] = {}
        self.seat_pairs = []  # per seating: (s, u, pair index, sign)
        for _, _, seats in self.seatings:
            for a in seats:
                self.plays[a] += 1
            terms = []
            for s, u in itertools.combinations(range(len(seats)), 2):
                a, b = seats[s], seats[u]
                if a == b:
                    continue
                key = (min(a, b), max(a, b))
                if key not in pair_index:
                    pair_index[key] = len(pair_index)
                terms.append((s, u, pair_index[key], 1 if a < b else -1))
            self.seat_pairs.append(terms)
        self.pairs = list(pair_index)
        self.pair_count = np.zeros(len(self.pairs), np.int64)
        for terms in self.seat_pairs:
            for _, _, j, _ in terms:
                self.pair_count[j] += 1
        self.pairwise = self.players == 2 or any(len(set(seats)) < len(seats) for _, _, seats in self.seatings)
        # Bradley-Terry shares are scaled by a common denominator so their sums stay whole numbers
        self.bt_scale = 2 * math.lcm(*(len(seats) ** 2 for _, _, seats in self.seatings)) if self.seatings else 2
        self.open: dict[int, _Piece] = {}
        self.done: dict[int, _Moments] = {}  # finished pieces beyond the prefix
        self.prefix = _Moments(scores=[{} for _ in range(self.k)])
        self.pieces_merged = 0
        self.blocks: list[list[GameSummary]] = [[] for _ in self.seatings]

    # ---------------------------------------------------------------- folding
    def add(self, index: int, summary: GameSummary) -> None:
        """Fold the summary of task ``index`` (piece ``index // seatings``, seating ``index % seatings``)."""
        n = len(self.seatings)
        p, i = divmod(int(index), n)
        piece = self.open.get(p)
        if piece is None:
            piece = self.open[p] = _Piece(self, self.plan.pieces[p][1])
        self._fold(piece, i, summary)
        piece.missing -= 1
        if piece.missing == 0:
            del self.open[p]
            self.done[p] = self._reduce(piece)
            while self.pieces_merged in self.done:
                moments = self.done.pop(self.pieces_merged)
                self.prefix.merge(moments)
                if self.keep_games:
                    for s, blk in enumerate(moments.blocks):
                        self.blocks[s].append(blk)
                self.pieces_merged += 1

    def _fold(self, piece: _Piece, i: int, blk: GameSummary) -> None:
        seats = self.seatings[i][2]
        tot = blk.totals.astype(np.int64)
        winners = tot == tot.min(axis=1, keepdims=True)
        shares = winners * (self.share_scale // winners.sum(axis=1, keepdims=True))
        out_wins = np.rint(blk.out_wins.astype(np.float64) * self.share_scale).astype(np.int64)
        turns, truncated = int(blk.turns.sum(dtype=np.int64)), int(blk.truncated.sum(dtype=np.int64))
        for s, a in enumerate(seats):
            piece.total[a] += tot[:, s]
            piece.share[a] += shares[:, s]
            piece.outs[a] += blk.outs[:, s]
            piece.out_wins[a] += out_wins[:, s].sum()
            piece.turns[a] += turns
            piece.truncated[a] += truncated
            values, counts = np.unique(tot[:, s], return_counts=True)
            scores = piece.scores[a]
            for v, c in zip(values.tolist(), counts.tolist(), strict=True):
                scores[v] = scores.get(v, 0) + c
        for s, u, j, sign in self.seat_pairs[i]:
            diff = tot[:, s] - tot[:, u]
            win = 2 * (diff < 0) + (diff == 0)
            piece.diff[j] += sign * diff
            piece.win[j] += win if sign > 0 else 2 - win
        piece.truncated_all[0] += truncated
        if self.pairwise:
            self._fold_pairwise(piece, seats, tot)
        else:
            self._fold_orders(piece, seats, tot)
        if self.keep_games:
            piece.blocks[i] = blk

    def _fold_pairwise(self, piece: _Piece, seats, tot: np.ndarray) -> None:
        games = tot.shape[0]
        for a, b in itertools.combinations(sorted(set(seats)), 2):
            sa = [s for s, x in enumerate(seats) if x == a]
            sb = [s for s, x in enumerate(seats) if x == b]
            won = sum(int((2 * (tot[:, s] < tot[:, u]) + (tot[:, s] == tot[:, u])).sum()) for s in sa for u in sb)
            unit = self.bt_scale // (2 * len(sa) * len(sb))
            piece.wins[a, b] += won * unit
            piece.wins[b, a] += games * self.bt_scale - won * unit

    def _fold_orders(self, piece: _Piece, seats, tot: np.ndarray) -> None:
        order = np.argsort(tot, axis=1, kind="stable")
        ranking = np.asarray(seats, dtype=np.int64)[order]
        scores = np.take_along_axis(tot, order, axis=1)
        rows = np.concatenate([ranking, (np.diff(scores, axis=1) == 0).astype(np.int64)], axis=1)
        patterns, counts = np.unique(rows, axis=0, return_counts=True)
        for pattern, count in zip(map(tuple, patterns.tolist()), counts.tolist(), strict=True):
            piece.patterns[pattern] = piece.patterns.get(pattern, 0) + count

    def _reduce(self, piece: _Piece) -> _Moments:
        m = _Moments(deal_sets=piece.total.shape[1], wins=piece.wins, patterns=piece.patterns, scores=piece.scores)
        for name in ("total", "share", "outs", "diff", "win"):
            x = getattr(piece, name)
            m.first[name] = _row_sums(x)
            m.second[name] = _squares(x)
        for name in ("out_wins", "turns", "truncated", "truncated_all"):
            m.scalars[name] = [int(v) for v in getattr(piece, name)]
        m.blocks = [piece.blocks[i] for i in range(len(self.seatings))] if self.keep_games else []
        return m

    # ---------------------------------------------------------------- results
    @property
    def deal_sets(self) -> int:
        """Deal sets complete in every seat order from the first on."""
        return self.prefix.deal_sets

    def kept_blocks(self) -> list[GameSummary]:
        """Per seating, its kept games (only with ``keep_games``; empty summaries otherwise)."""
        return [GameSummary.concat(b, self.players) for b in self.blocks]

    def score_counts(self) -> list[dict[int, int]]:
        """Per agent, how many of its games ended on each N-hole total."""
        return [dict(sorted(c.items())) for c in self.prefix.scores] if self.prefix.scores else \
            [{} for _ in range(self.k)]

    def truncated_deals(self) -> int:
        """Deals stopped by the turn cap, over every game kept."""
        return int(self.prefix.scalars.get("truncated_all", [0])[0])

    def _unit(self, name: str, row: int, scale: int) -> tuple[float, float]:
        """Mean and variance (``ddof=1``; 0 for one deal set) over deal sets of ``sum / scale``, exactly rounded."""
        n = self.prefix.deal_sets
        s1, s2 = self.prefix.first[name][row], self.prefix.second[name][row]
        mean = Fraction(s1, n * scale)
        var = Fraction(s2 * n - s1 * s1, n * (n - 1) * scale * scale) if n > 1 else Fraction(0)
        return float(mean), float(var)

    def standings_and_pairs(self, confidence: float) -> tuple[list[dict], list[dict]]:
        """Per-agent standings and head-to-head rows: every interval over deal sets, each deal set's value summed
        over every table and seat order the agent (or pair) played in."""
        n, holes = self.prefix.deal_sets, self.holes
        rows = []
        for a in range(self.k):
            plays = int(self.plays[a])
            games = plays * n
            row = {"agent": a, "games": games, "deal_sets": n}
            if n == 0 or plays == 0:
                row.update({c: math.nan for c in (
                    "mean_score", "mean_score_low", "mean_score_high", "mean_hole_score", "mean_hole_score_low",
                    "mean_hole_score_high", "win_rate", "win_rate_low", "win_rate_high", "went_out_rate",
                    "went_out_rate_low", "went_out_rate_high", "out_win_rate", "mean_turns")})
                row["truncated_deals"] = 0
                rows.append(row)
                continue
            mean, var = self._unit("total", a, plays)
            m, lo, hi = stats.mean_ci_moments(n, mean, math.sqrt(var), confidence)
            # deal sets are the independent units (duplicate deals tie an agent's games within one); the Wilson
            # interval at their effective sample size is never zero-width, even for an agent that never won
            w, wlo, whi = stats.share_wilson_ci_moments(n, *self._unit("share", a, plays * self.share_scale), games,
                                                        confidence)
            deals = games * holes
            _, olo, ohi = stats.share_wilson_ci_moments(n, *self._unit("outs", a, plays * holes), deals, confidence)
            outs = self.prefix.first["outs"][a]
            scalars = self.prefix.scalars
            row.update({
                "mean_score": m, "mean_score_low": lo, "mean_score_high": hi,
                "mean_hole_score": m / holes, "mean_hole_score_low": lo / holes, "mean_hole_score_high": hi / holes,
                "win_rate": w, "win_rate_low": wlo, "win_rate_high": whi,
                "went_out_rate": outs / deals, "went_out_rate_low": olo, "went_out_rate_high": ohi,
                "out_win_rate": scalars["out_wins"][a] / self.share_scale / outs if outs > 0 else math.nan,
                "mean_turns": scalars["turns"][a] / deals,
                "truncated_deals": int(scalars["truncated"][a]),
            })
            rows.append(row)
        h2h = []
        for j, (a, b) in enumerate(self.pairs if n > 0 else ()):
            c = int(self.pair_count[j])
            mean, var = self._unit("diff", j, c)
            d_mean, d_low, d_high = stats.mean_ci_moments(n, mean, math.sqrt(var), confidence)
            w, wlo, whi = stats.share_wilson_ci_moments(n, *self._unit("win", j, 2 * c), c * n, confidence)
            for x, y, sign in ((a, b, 1.0), (b, a, -1.0)):
                mean_diff, low, high = sign * d_mean, d_low, d_high
                if sign < 0:
                    low, high = -d_high, -d_low
                wr, wl, wh = (w, wlo, whi) if sign > 0 else (1.0 - w, 1.0 - whi, 1.0 - wlo)
                h2h.append({"agent": x, "opponent": y, "mean_diff": mean_diff, "mean_diff_low": low,
                            "mean_diff_high": high, "win_rate": wr, "win_rate_low": wl, "win_rate_high": wh,
                            "deal_sets": n, "games": c * n})
        return rows, h2h

    def ratings(self, confidence: float):
        """The rating fit and its model's name: Bradley-Terry for two seats (or an agent in several seats of a
        table), Plackett-Luce on finishing orders otherwise."""
        if self.prefix.deal_sets == 0:
            return None, "none (no complete deal set)"
        if self.pairwise:
            wins = np.array([[Fraction(int(v), self.bt_scale) for v in row] for row in self.prefix.wins], float)
            return fit_pairwise(wins, self.players, confidence)
        keys = sorted(self.prefix.patterns)
        patterns = np.array(keys, dtype=np.int64).reshape(len(keys), 2 * self.players - 1)
        counts = np.array([self.prefix.patterns[key] for key in keys], dtype=np.int64)
        return fit_orders(patterns, counts, self.k, self.players, confidence)
