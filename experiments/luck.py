"""Luck against skill, and game analytics, under every rule variant: what makes a good game of Golf.

For every rule variant of the variant experiment (`golfsim.experiments.variants.VARIANTS`) at 2 and 4
players:

**Luck against skill** (``table.csv``), for pairs of agents of different strength (`PAIRS`: ev against greedy,
the tuned ev against ev; and mc against ev at 2 players under the default rules, on fewer deal sets since mc is
slow). Duplicate deals: each deal set is played in ``P`` seatings, seating ``k`` putting the first agent of the pair
(``A``) in seat ``k`` and the second (``B``) in every other seat, so every seat's cards are played once by ``A``.

- Shares of the variance of a nine-hole result (``game_*``) and of one deal (``deal_*``) due to skill, to the cards
  and to the rest, from a *variance-components* estimate (two-way layout, deal sets by seatings; method of moments,
  `golfsim.experiments.luck_measures`). Why not only a paired difference: the seat-averaged (paired) margin
  measures the skill difference and cancels the cards, but says nothing about how much the cards weigh; the
  spread of the margins across the seatings of one deal set is what the cards add, and only the duplicate layout
  separates the two. The variance decomposed is the mean squared margin of ``A`` over the others' mean, i.e. the
  variance of a seat's margin when the agents are seated at random: ``skill`` is the squared skill difference,
  ``card`` what giving these cards to that seat does, ``rest`` the luck that duplicate deals cannot replay (cards
  drawn once the agents' choices differ, agent randomness) and skill-by-cards interaction. Luck is
  ``1 - skill share``. Intervals: 95% percentile bootstrap over deal sets (`BOOTSTRAP` resamples, seeded).
- ``margin``: ``A``'s nine-hole total minus the others' mean (negative: ``A`` is better), 95% t-interval over deal
  sets.
- ``win_H``: the probability that ``A`` wins a game of ``H`` holes (1, 3, 9, 18; ties shared; ``chance`` = 1/P is
  the coin-flip value), 95% t-interval over deal sets. Games of 1 and 3 holes are consecutive blocks of the
  nine-hole games, games of 18 holes two consecutive deal sets joined (for the 18-hole variant: blocks of 1, 3 and
  9); the agents play the nine-hole game, and ev looks at the game totals only on its last hole, so the blocks are
  games of that length up to that.
- ``holes_75``, ``holes_90``: the holes ``A`` needs to win 75% and 90% of games, from a normal model of the per-deal
  margins against each opponent (mean, variance, correlation between opponents; deals independent;
  `golfsim.experiments.luck_measures.holes_needed`), with bootstrap intervals; ``model_win_9`` is the model's
  nine-hole value, to compare with the measured ``win_9``. ``inf``: never (the agents are equal or ``A`` is worse).

**Game analytics** (``analytics.csv``) from self-play of `ANALYTICS_AGENT` in every seat, played by the
counting kernel [`golfsim.kernels.counted`][] (compiled; the simulator's games with every decision counted). The
measures follow the game-analytics literature on generated games: Browne and Maire, "Evolutionary Game Design",
IEEE Transactions on Computational Intelligence and AI in Games 2(1), 2010 (Ludi's criteria, from Browne's 2008
thesis "Automatic generation and evaluation of recombination games"), as implemented in the Ludii general game
system's metrics (``Evaluation/src/metrics`` of Ludeme/Ludii: ``BranchingFactor``, ``DecisionMoves``,
``LeadChange``, ``DecisivenessThreshold``, ``DecisivenessMoves``, ``Drama``). Those evaluate the state after every
move with a search; Golf keeps score, so the running total after each hole is the evaluation here, and "moves" are
holes:

- ``decisions_per_deal`` / ``decisions_per_game``: agent decisions (a turn is one to three: draw or take, place or
  throw, flip);
- ``branching``: legal moves per decision, averaged per game then over games (Ludii's ``BranchingFactor``);
  ``choice_share``: decisions with more than one legal move (Ludii's ``DecisionMoves``);
- ``lead_changes``: holes after which the set of leaders (lowest running total, ties included) differs from the
  hole before (Ludii's ``LeadChange`` counts the same per move; ``lead_changes_per_hole`` divides by the holes
  after the first, as it divides by the moves);
- ``decided_before_end``: decisiveness. The threshold for ``r`` holes to play is the largest lead any eventual
  non-winner held with ``r`` holes to play in the cell's games (Ludii's ``DecisivenessThreshold``: the highest
  evaluation a non-winner reached); the game is decided when the eventual winner first leads by more, and the
  measure is the holes still to play then (Ludii's ``DecisivenessMoves`` counts the moves after that point).
  The threshold is a maximum over the sample, so it grows slowly with the sample size: compare cells of equal size.
  ``led_for_good``: holes before the end from which the winner led alone to the end (no threshold);
- ``winner_trailed``: share of games whose winner was behind after some hole before the last (Browne's drama:
  the winner came back);
- ``went_out_share``, ``stock_out_share``, ``turn_cap_share``: how deals end (going out, the stock running out
  under ``end=...``, the turn cap);
- spread of final scores: ``total_sd`` (standard deviation of the players' final totals), ``winning_margin``
  (second-best total minus the best);
- seat advantage: ``first_seat_advantage`` (the first mover's deal score minus the others' mean; negative = moving
  first helps) and ``first_mover_deal_wins`` (share of deals the first mover wins, ties shared, against
  ``fair_share`` = 1/P), at 2 and 4 players for every variant and at 2 to 8 players under the default rules.

Intervals: 95% t-intervals over games (per-game values first, so dependence inside a game is respected).

Run: ``golfsim experiment luck`` or ``python -m golfsim.experiments.luck``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from concurrent.futures import Executor

import numpy as np
import pandas as pd

from golfsim import stats
from golfsim.core.rules import Rules
from golfsim.core.spec import TRUNCATED
from golfsim.experiments import luck_measures as lm
from golfsim.experiments.common import Cell, ExperimentOutput, base_config, mark_partial, piece_tasks, run_cells
from golfsim.experiments.ladder import TUNED_EV, agent_color
from golfsim.experiments.variants import VARIANTS, variant_rules
from golfsim.runs.figures import subplots, titled
from golfsim.runs.fingerprint import behaviour_fingerprint
from golfsim.runs.tasks import Task, current_plugins, executor_workers, play_in_chunks

NAME = "luck"
PLAYER_COUNTS = (2, 4)
#: Player counts of the seat-advantage rows (default rules).
SEAT_PLAYER_COUNTS = tuple(range(2, 9))
#: (stronger, weaker) pairs of every cell.
PAIRS: tuple[tuple[str, str], ...] = (("ev", "greedy"), (TUNED_EV or "ev", "ev"))
#: The slow pair, under the default rules at 2 players only, on 1/MC_FRACTION of the deal sets.
MC_PAIR = ("mc", "ev")
MC_FRACTION = 100
MIN_MC_DEAL_SETS = 4
ANALYTICS_AGENT = "ev"
FULL_DEAL_SETS = 20_000
FULL_ANALYTICS_GAMES = 20_000
HOLE_COUNTS = (1, 3, 9, 18)
TARGETS = (0.75, 0.90)
BOOTSTRAP = 1000
CONFIDENCE = 0.95
WENT_OUT, STOCK_OUT = 1, 2  # END_REASON codes (TRUNCATED is the turn cap)

SHARE_KINDS = ("skill", "card", "rest")
LUCK_COLUMNS = (["variant", "option", "value", "players", "strong", "weak", "deal_sets", "games", "margin",
                 "margin_low", "margin_high"]
                + [f"{scope}_{kind}_share{end}" for scope in ("game", "deal") for kind in SHARE_KINDS
                   for end in ("", "_low", "_high")]
                + [f"win_{h}{end}" for h in HOLE_COUNTS for end in ("", "_low", "_high")]
                + ["chance", "model_win_9"]
                + [f"holes_{round(100 * t)}{end}" for t in TARGETS for end in ("", "_low", "_high")])
_MEASURES = ("decisions_per_deal", "decisions_per_game", "branching", "choice_share", "turns_per_deal",
             "lead_changes", "lead_changes_per_hole", "decided_before_end", "led_for_good", "winner_trailed",
             "went_out_share", "stock_out_share", "turn_cap_share", "total_sd", "winning_margin",
             "first_seat_advantage", "first_mover_deal_wins")
ANALYTICS_COLUMNS = (["variant", "option", "value", "players", "decks", "agent", "games", "deals"]
                     + [f"{m}{end}" for m in _MEASURES for end in ("", "_low", "_high")] + ["fair_share"])


# ---------------------------------------------------------------- task summaries
def hole_scores(batch) -> np.ndarray:
    """A task's summary for the pairs: the hole scores ``[n, holes, players]`` (int16)."""
    return batch.hole_scores


def analytics_summary(batch) -> dict:
    """A task's summary for the analytics: hole scores, decision counts and how each deal ended."""
    return {"hole_scores": batch.hole_scores, "decisions": batch.decisions, "legal": batch.legal,
            "choices": batch.choices, "turns": batch.turns, "reasons": batch.reasons}


def seating_seed(seed: int, seating: int) -> int:
    """The agents' seed of seating ``seating``: a stream of its own, so agent randomness differs between the
    seatings of a deal set (the deals do not)."""
    return (seed + (seating + 1) * 0x9E3779B97F4A7C15) % (1 << 63)


def pair_tasks(strong: str, weak: str, rules: Rules, deal_sets: int, seed: int, workers: int, units: int
               ) -> list[Task]:
    """Tasks of ``deal_sets`` deal sets in every seating of ``strong`` against ``weak`` (seating by seating)."""
    plugins = current_plugins()
    tasks = []
    for k in range(rules.players):
        seats = tuple(strong if s == k else weak for s in range(rules.players))
        tasks += piece_tasks(lambda first, count, seats=seats, k=k: Task(
            rules, seats, seed, seating_seed(seed, k), first, count, "golfsim.experiments.luck:hole_scores",
            plugins), deal_sets, units, workers)
    return tasks


def play_counted_task(table, task):
    """The counting kernel ([`golfsim.kernels.counted.play_counted`][]) as a task's ``play`` hook: ``task``'s
    games of ``table`` in chunks that stop with the run ([`golfsim.runs.tasks.play_in_chunks`][])."""
    from golfsim.kernels.counted import play_counted

    return play_in_chunks(task, lambda first, n: play_counted(table, n, task.seed, agent_seed=task.agent_seed,
                                                               first_game=first))


def analytics_tasks(rules: Rules, games: int, seed: int, workers: int, units: int) -> list[Task]:
    """Tasks of ``games`` self-play games of `ANALYTICS_AGENT`, played by the counting kernel."""
    plugins = current_plugins()
    return piece_tasks(lambda first, count: Task(
        rules, (ANALYTICS_AGENT,) * rules.players, seed, seed, first, count,
        "golfsim.experiments.luck:analytics_summary", plugins, play="golfsim.experiments.luck:play_counted_task"),
        games, units, workers)


# ---------------------------------------------------------------- reductions
def _ci(x) -> tuple[float, float, float]:
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return math.nan, math.nan, math.nan
    return stats.mean_ci(x, CONFIDENCE)


def _put(row: dict, name: str, triple) -> None:
    row[name], row[f"{name}_low"], row[f"{name}_high"] = (float(v) for v in triple)


def seating_scores(parts: list[np.ndarray], players: int) -> np.ndarray:
    """``scores[d, k, h, s]`` from the task results of `pair_tasks` (seating by seating, in game order)."""
    per = len(parts) // players
    return np.stack([np.concatenate(parts[k * per:(k + 1) * per]) for k in range(players)], axis=1)


def luck_row(scores: np.ndarray, rng: np.random.Generator, resamples: int = BOOTSTRAP) -> dict:
    """The luck-against-skill columns (see the module docstring) of one pair's ``scores[d, k, h, s]``."""
    n, players, holes, _ = scores.shape
    y = lm.margins(scores)  # [n, P(seating), H]
    game = lm.component_moments(y.sum(axis=2)[:, None, :])
    deal = lm.component_moments(y.transpose(0, 2, 1))
    model = lm.margin_moments(lm.opponent_margins(scores))
    x = np.concatenate([game, deal, model], axis=1)
    boot = lm.bootstrap_means(x, resamples, rng)
    row = {"deal_sets": n, "games": n * players}
    _put(row, "margin", _ci(y.sum(axis=2).mean(axis=1)))
    for scope, cols, units in (("game", slice(0, 4), 1), ("deal", slice(4, 8), holes)):
        point = lm.components(x[:, cols].mean(axis=0), n, units, players)
        sample = lm.components(boot[:, cols], n, units, players)
        for kind in SHARE_KINDS:
            key = f"{kind}_share"
            row[f"{scope}_{key}"] = float(point[key])
            row[f"{scope}_{key}_low"], row[f"{scope}_{key}_high"] = lm.percentile_interval(sample[key], CONFIDENCE)
    for h in HOLE_COUNTS:
        usable = h <= holes and holes % h == 0 or h > holes and h % holes == 0 and n >= h // holes
        # a t-interval of a share can leave [0, 1] on few deal sets: clipped there
        _put(row, f"win_{h}", np.clip(_ci(lm.block_wins(scores, h)), 0, 1) if usable else (math.nan,) * 3)
    row["chance"] = 1.0 / players
    mu, v, rho = lm.model_parameters(x[:, 8:].mean(axis=0))
    row["model_win_9"] = float(lm.win_probability(9, mu, v, rho, players - 1))
    bmu, bv, brho = lm.model_parameters(boot[:, 8:])
    for t in TARGETS:
        name = f"holes_{round(100 * t)}"
        row[name] = float(lm.holes_needed(t, mu, v, rho, players - 1))
        row[f"{name}_low"], row[f"{name}_high"] = lm.percentile_interval(
            lm.holes_needed(t, bmu, bv, brho, players - 1), CONFIDENCE)
    return row


def analytics_row(parts: list[dict], players: int) -> dict:
    """The game-analytics columns (see the module docstring) of the counting kernel's self-play games."""
    d = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    hs = d["hole_scores"].astype(np.float64)
    n, holes, _ = hs.shape
    row = {"games": n, "deals": n * holes}
    dec = d["decisions"].astype(np.float64)
    _put(row, "decisions_per_deal", _ci(dec.mean(axis=1)))
    _put(row, "decisions_per_game", _ci(dec.sum(axis=1)))
    _put(row, "branching", _ci(d["legal"].sum(axis=1) / dec.sum(axis=1)))
    _put(row, "choice_share", _ci(d["choices"].sum(axis=1) / dec.sum(axis=1)))
    _put(row, "turns_per_deal", _ci(d["turns"].astype(np.float64).mean(axis=1)))
    changes = lm.lead_changes(d["hole_scores"]).astype(np.float64)
    _put(row, "lead_changes", _ci(changes))
    _put(row, "lead_changes_per_hole", _ci(changes / max(holes - 1, 1)))
    thresholds = lm.decisiveness_thresholds(d["hole_scores"])
    _put(row, "decided_before_end", _ci(lm.decided_before_end(d["hole_scores"], thresholds)))
    _put(row, "led_for_good", _ci(lm.led_for_good(d["hole_scores"])))
    _put(row, "winner_trailed", _ci(lm.winner_trailed(d["hole_scores"]).astype(np.float64)))
    reasons = d["reasons"]
    _put(row, "went_out_share", _ci((reasons == WENT_OUT).mean(axis=1)))
    _put(row, "stock_out_share", _ci((reasons == STOCK_OUT).mean(axis=1)))
    _put(row, "turn_cap_share", _ci((reasons == TRUNCATED).mean(axis=1)))
    totals = hs.sum(axis=1)
    grand = totals.mean()
    v = _ci(((totals - grand) ** 2).mean(axis=1))
    row["total_sd"] = math.sqrt(v[0])
    row["total_sd_low"], row["total_sd_high"] = math.sqrt(max(v[1], 0.0)), math.sqrt(max(v[2], 0.0))
    ordered = np.sort(totals, axis=1)
    _put(row, "winning_margin", _ci(ordered[:, 1] - ordered[:, 0]))
    first = np.tile(np.arange(holes) % players, (n, 1))
    first_score = np.take_along_axis(hs, first[:, :, None], axis=2)[:, :, 0]
    others = (hs.sum(axis=2) - first_score) / (players - 1)
    _put(row, "first_seat_advantage", _ci((first_score - others).mean(axis=1)))
    best = hs.min(axis=2)
    share = (first_score == best) / (hs == best[:, :, None]).sum(axis=2)
    _put(row, "first_mover_deal_wins", _ci(share.mean(axis=1)))
    row["fair_share"] = 1.0 / players
    return row


# ---------------------------------------------------------------- cells
def _labels(label: str, option: str, value, rules: Rules, players: int) -> dict:
    return {"variant": label, "option": option or "-", "value": str(value) if option else "-", "players": players}


def variant_cell(index: int, label: str, option: str, value, players: int, pairs, sizes: dict, seed: int,
                 workers: int, with_analytics: bool = True) -> Cell:
    """One variant at one player count: every pair's duplicate tasks, then the analytics' self-play tasks."""
    rules = variant_rules(option, value, players)
    groups = [pair_tasks(a, b, rules, n, seed, workers, len(pairs) * players + 1) for (a, b), n in pairs]
    if with_analytics:
        groups.append(analytics_tasks(rules, sizes["analytics"], seed, workers, len(pairs) * players + 1))
    tasks = [t for g in groups for t in g]
    return Cell(f"{label} {players}p" if pairs else f"seats {players}p", tasks, functools.partial(
        _reduce_cell, index, label, option, value, rules, [p for p, _ in pairs], [len(g) for g in groups], seed))


def _reduce_cell(index, label, option, value, rules: Rules, pairs, sizes, seed, results) -> dict:
    base = _labels(label, option, value, rules, rules.players)
    out = {"luck": [], "analytics": None}
    start = 0
    for p, ((strong, weak), size) in enumerate(zip(pairs, sizes, strict=False)):
        scores = seating_scores(results[start:start + size], rules.players)
        rng = np.random.default_rng([seed, index, rules.players, p])
        out["luck"].append({**base, "strong": strong, "weak": weak, **luck_row(scores, rng)})
        start += size
    if len(sizes) > len(pairs):
        out["analytics"] = {**base, "decks": rules.decks, "agent": ANALYTICS_AGENT,
                            **analytics_row(results[start:], rules.players)}
    return out


def cells_for(n: int, n_analytics: int, n_mc: int, seed: int, workers: int) -> list[Cell]:
    """Every cell: each variant at `PLAYER_COUNTS`, then the default rules at the other seat counts."""
    cells = []
    sizes = {"analytics": n_analytics}
    for index, (label, option, value) in enumerate(VARIANTS):
        for players in PLAYER_COUNTS:
            pairs = [(pair, n) for pair in PAIRS]
            if label == "default" and players == 2:
                pairs.append((MC_PAIR, n_mc))
            cells.append(variant_cell(index, label, option, value, players, pairs, sizes, seed, workers))
    for players in SEAT_PLAYER_COUNTS:
        if players not in PLAYER_COUNTS:
            cells.append(variant_cell(0, "default", "", "", players, [], sizes, seed, workers))
    return cells


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None, executor: Executor | None = None) -> ExperimentOutput:
    """Measure luck against skill and the game analytics of every variant; return the tables and figures.

    Parameters
    ----------
    games : int, optional
        Deal sets per pair and cell and analytics games per cell (mc: that over ``MC_FRACTION``, at least
        ``MIN_MC_DEAL_SETS``); default ``FULL_DEAL_SETS`` and ``FULL_ANALYTICS_GAMES``.
    seed : int
        Seed of the deals (the same in every cell) and of the bootstrap.
    threads : int, optional
        Threads of the default executor (default all); results do not depend on it.
    log : callable, optional
        Called with a line of text when the run starts and as each cell completes.
    executor : concurrent.futures.Executor, optional
        Runs the tasks ([`golfsim.runs.tasks`][]); results do not depend on it.

    Returns
    -------
    ExperimentOutput
        ``table`` is luck against skill, ``extra_tables["analytics"]`` the game analytics. After Ctrl-C only the
        complete cells, and ``partial`` set.
    """
    n = FULL_DEAL_SETS if games is None else int(games)
    n_analytics = FULL_ANALYTICS_GAMES if games is None else int(games)
    n_mc = max(MIN_MC_DEAL_SETS, n // MC_FRACTION)
    workers = executor_workers(executor, threads)
    cells = cells_for(n, n_analytics, n_mc, seed, workers)
    done = run_cells(cells, executor, threads, log, NAME)
    luck, analytics = [], []
    for c in range(len(cells)):
        if c in done.values:
            luck += done.values[c]["luck"]
            if done.values[c]["analytics"] is not None:
                analytics.append(done.values[c]["analytics"])
    table = pd.DataFrame(luck, columns=LUCK_COLUMNS)
    extra = pd.DataFrame(analytics, columns=ANALYTICS_COLUMNS)
    config = base_config(
        NAME, games=games, seed=seed, behaviour_fingerprint=behaviour_fingerprint(),
        rules_default=Rules().to_dict(), player_counts=list(PLAYER_COUNTS),
        seat_player_counts=list(SEAT_PLAYER_COUNTS),
        variants=[{"label": lab, "option": opt, "value": val} for lab, opt, val in VARIANTS],
        agents=sorted({a for pair in (*PAIRS, MC_PAIR) for a in pair}), pairs=[list(p) for p in PAIRS],
        mc_pair=list(MC_PAIR), analytics_agent=ANALYTICS_AGENT, deal_sets=n, mc_deal_sets=n_mc,
        analytics_games=n_analytics, bootstrap_resamples=BOOTSTRAP, confidence=CONFIDENCE,
        seatings="seating k: the pair's first agent in seat k, the second in every other seat; agent seed "
                 "seating_seed(seed, k)",
    )
    notes = [
        f"Luck against skill: {n:,} duplicate deal sets per pair, variant and player count ({MC_PAIR[0]} against "
        f"{MC_PAIR[1]}: {n_mc:,}, default rules, 2 players), each in P seatings (the first agent of the pair in one "
        f"seat, the second in the others); seed {seed}.",
        "margin: the first agent's nine-hole total minus the others' mean (negative: it is better). *_share: shares "
        "of the mean squared margin due to skill, to the cards and to the rest (variance components; luck = 1 - "
        "skill share), of a nine-hole game (game_) and of one deal (deal_). win_H: probability the first agent wins "
        "a game of H holes (ties shared; chance = 1/P). holes_75 / holes_90: holes it needs to win 75% / 90% of "
        "games (normal model of per-deal margins; inf = never); model_win_9 checks the model against win_9.",
        f"Intervals: 95% (percentile bootstrap over deal sets, {BOOTSTRAP} resamples, for shares and holes; "
        "t-intervals over deal sets otherwise). Game analytics: analytics.csv.",
    ]
    notes += [
        f"Game analytics (analytics.csv): {n_analytics:,} games of {ANALYTICS_AGENT} in every seat per variant and "
        "player count, counted by the compiled kernel golfsim.kernels.counted. branching: legal moves per decision; "
        "choice_share: decisions with more than one legal move; lead_changes: holes after which the set of leaders "
        "changed; decided_before_end: holes still to play when the winner first led by more than any non-winner "
        "ever led with that many holes to play in the cell's games; led_for_good: holes before the end from which "
        "the winner led alone; winner_trailed: share of games whose winner was behind after some hole before the "
        "last; first_seat_advantage: first mover's deal score minus the others' mean (negative = moving first "
        "helps); first_mover_deal_wins against fair_share = 1/P. 95% t-intervals over games.",
        *unchanged_play(table, extra),
    ]
    mark_partial(config, notes, done)
    figures = {}
    if len(table):
        figures["figure"] = plot_luck(table, config)
        if (table.variant == "default").any():
            figures["win_curve"] = plot_win_curve(table, config)
    if len(extra):
        figures["analytics"] = plot_analytics(extra, config)
        figures["seats"] = plot_seats(extra, config)
    return ExperimentOutput(NAME, table, config, figures, notes, partial=done.partial,
                            extra_tables={"analytics": extra})


def unchanged_play(table: pd.DataFrame, extra: pd.DataFrame) -> list[str]:
    """Notes for variants whose numbers equal the default game's exactly at a player count: on the same seeds that
    means the option never changed a move of these agents."""
    notes = []
    for name, frame, cols in (("luck rows", table, ["margin", "game_skill_share", "win_9"]),
                              ("analytics", extra, ["decisions_per_game", "lead_changes", "winning_margin"])):
        key = ["players", "strong", "weak"] if "strong" in frame else ["players"]
        default = frame[frame.variant == "default"].set_index(key)[cols]
        for (label, players), rows in frame[frame.variant != "default"].groupby(["variant", "players"], sort=False):
            rows = rows.set_index(key)[cols]
            ref = default.reindex(rows.index)
            if len(rows) and not ref.isna().any().any() and rows.equals(ref):
                notes.append(f"{label}, {players} players: the {name} equal the default game's exactly (same seeds): "
                             "the option did not change how these agents play.")
    return notes


# ---------------------------------------------------------------- figures
_MARKERS = {2: "o", 3: "^", 4: "s", 5: "v", 6: "D", 7: "<", 8: ">"}


def _pair_label(strong: str, weak: str) -> str:
    short = "tuned ev" if strong.startswith("ev:") else strong
    return f"{short} vs {weak}"


def _dots(ax, sub: pd.DataFrame, order: list[str], column: str, dy: float, color: str, marker: str, label: str,
          scale: float = 1.0) -> None:
    sub = sub.set_index("variant").reindex(order)
    x = scale * sub[column]
    lo = scale * sub[f"{column}_low"]
    hi = scale * sub[f"{column}_high"]
    err = np.array([np.clip(x - lo, 0, None).fillna(0), np.clip(hi - x, 0, None).fillna(0)])
    err[~np.isfinite(err)] = 0
    ax.errorbar(x, np.arange(len(order)) + dy, xerr=err, fmt=marker, ms=4, capsize=2, color=color, label=label)


def plot_luck(table: pd.DataFrame, config: dict):
    """Skill shares, nine-hole win probability and holes to 90% of every variant, per pair and player count."""
    order = list(dict.fromkeys(table.variant))
    panels = [("game_skill_share", "skill share of a nine-hole result\n(% of the mean squared margin)", 100.0),
              ("deal_skill_share", "skill share of one deal\n(% of the mean squared margin)", 100.0),
              ("win_9", "stronger agent wins a nine-hole game\n(% of games, ties shared)", 100.0),
              ("holes_90", "holes the stronger agent needs\nto win 90% of games (holes, log scale)", 1.0)]
    groups = [(pair, players) for pair in dict.fromkeys(zip(table.strong, table.weak, strict=True))
              for players in sorted(set(table.players))]
    offsets = np.linspace(-0.3, 0.3, len(groups)) if len(groups) > 1 else [0.0]
    fig, axes = subplots(1, len(panels), figsize=(18, 0.45 * len(order) + 3), sharey=True)
    for (pair, players), dy in zip(groups, offsets, strict=True):
        sub = table[(table.strong == pair[0]) & (table.weak == pair[1]) & (table.players == players)]
        if sub.empty:
            continue
        for ax, (col, _, scale) in zip(axes, panels, strict=True):
            _dots(ax, sub, order, col, dy, agent_color(pair[0]), _MARKERS[players],
                  f"{_pair_label(*pair)}, {players} players", scale)
    for ax, (_col, label, _) in zip(axes, panels, strict=True):
        ax.set_xlabel(label, fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    axes[3].set_xscale("log")
    axes[2].axvline(50, color="k", lw=0.6, ls=":")
    axes[0].set_yticks(np.arange(len(order)), order, fontsize=8)
    axes[0].set_ylabel("rule variant (one option changed from the default rules)")
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=7, loc="lower right")
    return titled(
        fig, "Luck against skill under each rule variant: duplicate deals, the stronger agent in each seat in turn "
        "(variance components; chance level at 4 players is 25%)",
        f"error bars: 95% intervals (bootstrap over deal sets for shares and holes); {config['deal_sets']:,} deal "
        f"sets per point ({config['mc_deal_sets']:,} for mc); seed {config['seed']}")


def plot_win_curve(table: pd.DataFrame, config: dict):
    """Under the default rules: the probability that the stronger agent wins a game of 1 to 18 holes."""
    default = table[table.variant == "default"]
    counts = sorted(set(default.players))
    fig, axes = subplots(1, len(counts), figsize=(6 * len(counts), 4.2), squeeze=False)
    for ax, players in zip(axes[0], counts, strict=True):
        for r in default[default.players == players].itertuples():
            color = agent_color(r.strong)
            h = np.array(HOLE_COUNTS, dtype=float)
            y = np.array([getattr(r, f"win_{k}") for k in HOLE_COUNTS]) * 100
            lo = np.array([getattr(r, f"win_{k}_low") for k in HOLE_COUNTS]) * 100
            hi = np.array([getattr(r, f"win_{k}_high") for k in HOLE_COUNTS]) * 100
            err = np.nan_to_num(np.array([y - lo, hi - y]))
            ax.errorbar(h, y, yerr=err, fmt="o-", ms=4, capsize=2, color=color,
                        label=f"{_pair_label(r.strong, r.weak)} (holes to 90%: {r.holes_90:g})")
        ax.axhline(100 / players, color="k", lw=0.6, ls=":")
        ax.set_ylim(0, 101)
        ax.set_xscale("log")
        ax.set_xticks(list(HOLE_COUNTS), [str(k) for k in HOLE_COUNTS])
        ax.set_xlabel("holes in the game (holes, log scale)")
        ax.set_ylabel("stronger agent wins (% of games)")
        ax.set_title(f"{players} players (dotted: chance)", fontsize=9)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    return titled(
        fig, "Default rules: how many holes skill needs; blocks of nine-hole duplicate games (18 holes: two games "
        "joined)",
        f"error bars: 95% t-intervals over deal sets; {config['deal_sets']:,} deal sets per pair "
        f"({config['mc_deal_sets']:,} for mc); seed {config['seed']}")


def plot_analytics(extra: pd.DataFrame, config: dict):
    """Branching, decisions, lead changes, decisiveness, going out and spread of every variant at 2 and 4
    players."""
    rows = extra[extra.players.isin(PLAYER_COUNTS)]
    order = list(dict.fromkeys(rows.variant))
    panels = [("branching", "legal moves per decision\n(branching factor, moves)", 1.0),
              ("decisions_per_deal", "decisions per deal\n(decisions, all players)", 1.0),
              ("lead_changes", "lead changes in a game\n(holes with a new leader)", 1.0),
              ("decided_before_end", "winner decided before the end\n(holes still to play)", 1.0),
              ("winner_trailed", "winner was behind after some hole\n(% of games, a comeback)", 100.0),
              ("winning_margin", "winning margin\n(points, second best minus best)", 1.0)]
    fig, axes = subplots(1, len(panels), figsize=(20, 0.45 * len(order) + 3), sharey=True)
    for players, dy in zip(PLAYER_COUNTS, (-0.15, 0.15), strict=True):
        sub = rows[rows.players == players]
        if sub.empty:
            continue
        for ax, (col, _, scale) in zip(axes, panels, strict=True):
            _dots(ax, sub, order, col, dy, "C0" if players == 2 else "C3", _MARKERS[players],
                  f"{players} players", scale)
    for ax, (_col, label, _) in zip(axes, panels, strict=True):
        ax.set_xlabel(label, fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(np.arange(len(order)), order, fontsize=8)
    axes[0].set_ylabel("rule variant (one option changed from the default rules)")
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=7, loc="lower right")
    return titled(
        fig, f"Game analytics of each rule variant: {config['analytics_agent']} in every seat, counted by the "
        "compiled kernel (measures after Browne and Maire 2010 / Ludii)",
        f"error bars: 95% t-intervals over games; {config['analytics_games']:,} games per point; "
        f"seed {config['seed']}")


def plot_seats(extra: pd.DataFrame, config: dict):
    """Seat advantage under the default rules from 2 to 8 players."""
    rows = extra[extra.variant == "default"].sort_values("players")
    fig, axes = subplots(1, 2, figsize=(12, 4.2))
    p = rows.players.to_numpy()
    for ax, col, scale, label in ((axes[0], "first_seat_advantage", 1.0,
                                   "first mover's deal score minus the others' mean\n(points per deal; < 0 helps)"),
                                  (axes[1], "first_mover_deal_wins", 100.0, "deals won by the first mover\n"
                                                                           "(% of deals, ties shared)")):
        y = scale * rows[col].to_numpy()
        err = scale * np.nan_to_num(np.array([rows[col] - rows[f"{col}_low"], rows[f"{col}_high"] - rows[col]]))
        ax.errorbar(p, y, yerr=err, fmt="o", capsize=3, color="C0", label=config["analytics_agent"])
        ax.set_xlabel("players at the table (players)")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    axes[0].axhline(0, color="k", lw=0.8)
    axes[1].plot(p, 100 / p, "k:", lw=1, label="fair share (1/players)")
    axes[1].legend(fontsize=8)
    return titled(
        fig, f"Seat advantage under the default rules (decks auto), {config['analytics_agent']} in every seat",
        f"error bars: 95% t-intervals over games; {config['analytics_games']:,} games per point; "
        f"seed {config['seed']}")


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints."""
    out = pd.DataFrame({
        "variant": table.variant, "players": table.players,
        "pair": [_pair_label(a, b) for a, b in zip(table.strong, table.weak, strict=True)],
        "skill % (game)": 100 * table.game_skill_share, "skill % (deal)": 100 * table.deal_skill_share,
        "wins 9 holes %": 100 * table.win_9, "holes to 90%": table.holes_90,
    })
    # the intervals of the columns, for golfsim.experiments.rounded
    out.attrs["half_widths"] = {
        shown: (100 * (table[f"{column}_high"] - table[f"{column}_low"]) / 2).tolist()
        for shown, column in (("skill % (game)", "game_skill_share"), ("skill % (deal)", "deal_skill_share"),
                              ("wins 9 holes %", "win_9")) if f"{column}_low" in table}
    return out


if __name__ == "__main__":
    run(log=print).write()
