"""The result of a tournament: its tables, per-game records, text notes, JSON document and written files."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

import golfsim
from golfsim.core.scoring import win_shares


# ---------------------------------------------------------------- result
@dataclass
class TournamentResult:
    """Everything a tournament produced: tables for people, raw per-game arrays for further analysis.

    Attributes
    ----------
    standings : pandas.DataFrame
        One row per agent, best (lowest mean score) first: ``rank, agent, games, deal_sets, mean_score,
        mean_score_low, mean_score_high`` (mean N-hole total and its interval over deal sets), ``mean_hole_score``
        (``_low``, ``_high``; per hole), ``win_rate`` (``_low``, ``_high``; shared ties count ``1/k``),
        ``went_out_rate`` (share of its deals in which it went out; ``_low``, ``_high`` over deal sets),
        ``out_win_rate`` (share of those deals whose lowest deal score it held, ties shared), ``mean_turns`` (turns
        per deal, all players), ``truncated_deals``, ``rating``, ``rating_se``, ``rating_standing`` and
        ``rating_bound`` (as ``standing`` and ``bound`` of ``ratings``). Win and went-out rates have Wilson
        intervals at the effective sample size of the deal sets ([`golfsim.stats.share_wilson_ci`][]).
    head_to_head : pandas.DataFrame
        One row per ordered pair of agents that met: ``agent, opponent, mean_diff, mean_diff_low, mean_diff_high``
        (paired mean of ``total(agent) - total(opponent)`` on identical deals; negative means the agent scored
        lower, i.e. better), ``win_rate`` (``_low``, ``_high``; share of their games the agent finished ahead of the
        opponent, ties half), ``deal_sets`` and ``games``.
    ratings : pandas.DataFrame
        ``rank, agent, rating, rating_se, standing, bound``, strongest first, on the Elo-like scale of
        [`golfsim.stats`][] (the rated agents' ratings sum to 0; 400 points are odds of 10 to 1). ``standing`` is
        ``rated``, or ``never won`` / ``never lost`` for an agent without a finite estimate, whose ``rating`` and
        ``rating_se`` are NaN and whose ``bound`` is an upper / lower bound at the run's confidence level.
        ``rating_model`` names the model.
    rating_cov : pandas.DataFrame
        Covariance of the ratings (agent x agent); ``se(r_i - r_j) = sqrt(c_ii + c_jj - 2 c_ij)``.
    config : dict
        Everything needed to rerun the tournament exactly (see [`run_tournament`][golfsim.tournament.run_tournament]).
    partial : bool
        True when the run was interrupted; only complete deal sets are kept.
    deal_sets : int
        Deal sets completed (each played at every table in every seat order).
    games_played : int
        Games kept: seat orders (summed over tables) x ``deal_sets``.
    truncated_deals : int
        Deals stopped by the turn cap, over all games kept.
    rating_model : str
        ``"Bradley-Terry"`` or ``"Plackett-Luce"`` (with how games were turned into comparisons).
    seconds : float
        Wall time of the run, compile included.
    """

    standings: pd.DataFrame
    head_to_head: pd.DataFrame
    ratings: pd.DataFrame
    rating_cov: pd.DataFrame
    config: dict
    partial: bool
    deal_sets: int
    games_played: int
    truncated_deals: int
    rating_model: str
    seconds: float
    _seatings: list = field(repr=False, default_factory=list)
    _blocks: list | None = field(repr=False, default_factory=list)  # None: too many games to keep
    _score_counts: dict = field(repr=False, default_factory=dict)  # agent -> {N-hole total: games}

    def _kept_blocks(self) -> list:
        if self._blocks is None:
            from golfsim.runs.limits import GAMES_KEPT_LIMIT, gib

            raise ValueError(f"this tournament played {self.games_played:,} games, and only a tournament of "
                             f"{gib(GAMES_KEPT_LIMIT)} of per-game results or less keeps them; its statistics and "
                             "score_counts() are complete")
        return self._blocks

    @property
    def labels(self) -> list[str]:
        """Agent labels in pool order."""
        return list(self.config["agents"])

    @property
    def games(self) -> pd.DataFrame:
        """One row per game and seat.

        Columns: ``table``, ``rotation`` (index of the seat order, see ``config["tables"][t]["seat_orders"]``),
        ``game`` (deal-set index: the simulator's game index, so the same deals in every seat order),
        ``seat, agent, total, win_share, place`` (1 = best, tied seats share the best place),
        ``went_out`` (deals in which this seat went out), ``out_wins`` (win shares of those deals), ``turns`` and
        ``truncated`` (the game's turns and truncated deals, summed over its holes).

        Raises ``ValueError`` for a tournament too big to keep its games
        ([`golfsim.runs.limits.GAMES_KEPT_LIMIT`][]): its statistics are folded as the games finish instead.
        """
        frames = []
        labels = self.labels
        for (t, r, seats), blk in zip(self._seatings, self._kept_blocks(), strict=True):
            n, p = blk.totals.shape
            place = 1 + (blk.totals[:, None, :] < blk.totals[:, :, None]).sum(axis=2)
            frames.append(pd.DataFrame({
                "table": np.full(n * p, t, dtype=np.int32),
                "rotation": np.full(n * p, r, dtype=np.int16),
                "game": np.repeat(np.arange(n, dtype=np.int64), p),
                "seat": np.tile(np.arange(p, dtype=np.int16), n),
                "agent": np.tile(np.asarray([labels[i] for i in seats], dtype=object), n),
                "total": blk.totals.reshape(-1),
                "win_share": win_shares(blk.totals).reshape(-1),
                "place": place.reshape(-1).astype(np.int16),
                "went_out": blk.outs.reshape(-1),
                "out_wins": blk.out_wins.reshape(-1),
                "turns": np.repeat(blk.turns, p),
                "truncated": np.repeat(blk.truncated, p),
            }))
        if not frames:
            return pd.DataFrame(columns=["table", "rotation", "game", "seat", "agent", "total", "win_share", "place",
                                         "went_out", "out_wins", "turns", "truncated"])
        games = pd.concat(frames, ignore_index=True)
        games["agent"] = pd.Categorical(games["agent"], categories=labels)
        return games

    def score_counts(self) -> dict[str, dict[int, int]]:
        """Per agent, how many of its games ended on each N-hole total (kept whatever the tournament's size)."""
        return {label: dict(counts) for label, counts in self._score_counts.items()}

    def totals_by_agent(self) -> dict[str, np.ndarray]:
        """Every N-hole total each agent scored (all tables, seat orders and seats), for distributions."""
        out: dict[str, list] = {label: [] for label in self.labels}
        labels = self.labels
        for (_, _, seats), blk in zip(self._seatings, self._kept_blocks(), strict=True):
            for s, i in enumerate(seats):
                out[labels[i]].append(blk.totals[:, s])
        return {k: np.concatenate(v) if v else np.zeros(0, np.int32) for k, v in out.items()}

    # ---------------------------------------------------------------- text
    def summary(self) -> dict:
        """The run's headline numbers (also under ``"summary"`` in
        [`to_dict`][golfsim.tournament.result.TournamentResult.to_dict])."""
        cfg = self.config
        return {
            "partial": self.partial,
            "deal_sets_completed": self.deal_sets,
            "deal_sets_requested": cfg["games"],
            "games_played": self.games_played,
            "deals_played": self.games_played * cfg["rules"]["holes"],
            "truncated_deals": self.truncated_deals,
            "duplicate_deals": True,
            "rating_model": self.rating_model,
            "confidence": cfg["confidence"],
            "seconds": round(self.seconds, 3),
        }

    def notes(self) -> list[str]:
        """Plain-text lines explaining how the numbers were made (printed under the tables)."""
        cfg = self.config
        s = self.summary()
        tables = len(cfg["tables"])
        orders = sorted({len(t["seat_orders"]) for t in cfg["tables"]})
        per_table = "/".join(str(o) for o in orders)
        kind = "cyclic rotations" if cfg["seating"] == "rotations" else "every permutation"
        lines = []
        if self.partial:
            lines.append(f"PARTIAL RESULT: interrupted after {self.deal_sets:,} of {cfg['games']:,} deal sets "
                         f"({self.games_played:,} games); the unfinished block was dropped.")
        lines += [
            f"Duplicate deals: each of {self.deal_sets:,} deal sets (seed {cfg['seed']}) was played at every table "
            f"in all {per_table} seat orders ({kind}), so agents are compared on identical cards.",
            f"Games played: {tables:,} table(s) x {per_table} seat orders x {self.deal_sets:,} deal sets = "
            f"{self.games_played:,} games of {cfg['rules']['holes']} holes ({s['deals_played']:,} deals); "
            f"truncated deals (turn cap {cfg['rules']['turn_cap']}): {self.truncated_deals:,}.",
            f"Scores: {cfg['rules']['holes']}-hole totals, lower is better; {round(100 * cfg['confidence'])}% "
            "t-intervals over deal sets; win rate shares ties; head-to-head = paired mean difference on the same "
            "deals.",
            f"Rating: {self.rating_model}, maximum likelihood, Elo-like scale (400 points = 10:1 odds), anchored "
            "at 0 = the mean of the rated agents. An agent that never won (or never lost) against them has no "
            f"finite estimate: it is not rated and shows the {round(100 * cfg['confidence'])}% bound of its "
            "rating (Clopper-Pearson-style, given the others' ratings) and leaves the others' ratings unchanged"
            + ("" if self.config.get("rating_converged", True) else "; WARNING: the fit did not converge") + ".",
        ]
        if cfg["seating"] == "rotations" and cfg["players"] > 2 and any(len(set(t["agents"])) > 2
                                                                       for t in cfg["tables"]):
            lines.append("Seat rotations keep each agent's neighbours (who discards to whom); "
                         "use seating 'permutations' (--seating permutations) to balance them too.")
        return lines

    # ---------------------------------------------------------------- machine formats
    def to_dict(self) -> dict:
        """One JSON-ready document: ``config``, ``summary``, ``standings``, ``head_to_head``, ``ratings``.

        Every ``<x>_low``/``<x>_high`` pair of the DataFrames becomes a list ``<x>_ci = [low, high]``; NaN (an
        interval from a single deal set) becomes ``null``.
        """
        return {
            "golfsim_version": golfsim.__version__,
            "config": self.config,
            "summary": self.summary(),
            "standings": _records(self.standings),
            "head_to_head": _records(self.head_to_head),
            "ratings": _records(self.ratings),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """[`to_dict`][golfsim.tournament.result.TournamentResult.to_dict] as a JSON string (strict JSON: no NaN)."""
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)

    FILES = ("standings.csv", "head_to_head.csv", "ratings.csv", "tournament.json", "config.json",
             "score_distribution.png", "head_to_head.png")
    """The names [`write`][golfsim.tournament.result.TournamentResult.write] gives its files."""

    def write(self, directory) -> list[Path]:
        """Write tables, plots and ``config.json`` into ``directory`` (created if needed).

        Files: ``standings.csv``, ``head_to_head.csv``, ``ratings.csv``, ``tournament.json`` (the
        [`to_json`][golfsim.tournament.result.TournamentResult.to_json] document), ``config.json`` (rules, agents, seed,
        sample size, schedule, tables, package version and the command that reruns it), ``score_distribution.png`` and
        ``head_to_head.png``. The files are written to a temporary directory first and moved into place together
        ([`golfsim.runs.outdir`][]), so an interrupted write leaves ``directory`` as it was.

        Returns
        -------
        list of pathlib.Path
            The files written.
        """
        from golfsim.runs.outdir import write_directory
        from golfsim.tournament import report

        def fill(d: Path) -> list[Path]:
            written = []
            for name, frame in (("standings", self.standings), ("head_to_head", self.head_to_head),
                                ("ratings", self.ratings)):
                path = d / f"{name}.csv"
                frame.to_csv(path, index=False)
                written.append(path)
            path = d / "tournament.json"
            path.write_text(self.to_json() + "\n")
            written.append(path)
            path = d / "config.json"
            path.write_text(json.dumps(self.config, indent=2, allow_nan=False) + "\n")
            written.append(path)
            written.append(report.plot_score_distribution(self, d / "score_distribution.png"))
            written.append(report.plot_head_to_head(self, d / "head_to_head.png"))
            return written

        return write_directory(directory, fill)


def _clean(v):
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating, float)):
        return None if not math.isfinite(float(v)) else float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    return v


def _records(frame: pd.DataFrame) -> list[dict]:
    cols = list(frame.columns)
    out = []
    for row in frame.itertuples(index=False):
        rec = dict(zip(cols, row, strict=True))
        clean: dict = {}
        for c in cols:
            if c.endswith("_low") and c[:-4] + "_high" in rec:
                clean[c[:-4] + "_ci"] = [_clean(rec[c]), _clean(rec[c[:-4] + "_high"])]
            elif c.endswith("_high") and c[:-5] + "_low" in rec:
                continue
            else:
                clean[c] = _clean(rec[c])
        out.append(clean)
    return out


