"""Variant effects: what every rule option does to the game, against the default game, with the same agents.

For the default two-player game and for each rule option changed on its own (``VARIANTS``):

- **Deal statistics** from self-play (every seat the same agent, so seats are exchangeable) of each built-in agent:
  mean deal score (points per player per deal) and its spread (standard deviation over player-deals), deal length
  (turns per deal, all players together), the share of deals that end by someone going out, how often the player
  who goes out has the lowest deal score (ties shared), and the first-seat advantage: the score of the player who
  moves first in the deal minus the mean score of the others (negative = moving first helps). The first player is
  the ``first_player`` column of [`golfsim.kernels.simulate.simulate`][]'s deals.
- **Ranking** of the agents: a two-player round-robin [`golfsim.tournament.run_tournament`][] of every built-in
  agent on duplicate deals under the variant; its mean score per deal, win rate and rank, and the rank change from
  the default game.

Intervals are 95% Student-t intervals over games (the nine deals of a game are averaged first, so the interval
respects any dependence inside a game), except the went-out-lowest share, a Wilson interval over deals (deals are
dealt independently). The spread's interval comes from the t-interval of the per-game mean squared deviation.

Run: ``golfsim experiment variants`` or ``python -m golfsim.experiments.variants``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from golfsim import stats
from golfsim.core.rules import Rules
from golfsim.core.spec import TRUNCATED
from golfsim.experiments.common import (
    TASK_GAMES,
    Cell,
    ExperimentOutput,
    base_config,
    mark_partial,
    piece_tasks,
    run_cells,
    subplots,
)
from golfsim.experiments.ladder import agent_color, builtin_agents
from golfsim.runs.figures import titled
from golfsim.runs.fingerprint import behaviour_fingerprint
from golfsim.runs.tasks import Task, current_plugins, executor_workers
from golfsim.tournament import TournamentPlan, plan_tournament, reduce_tournament

NAME = "variants"
PLAYERS = 2
#: Each rule option changed on its own from the default game: (label, option, value).
VARIANTS: tuple[tuple[str, str, object], ...] = (
    ("default", "", ""),
    ("decks=2", "decks", 2),
    ("jokers=minus2", "jokers", "minus2"),
    ("jokers=minus3", "jokers", "minus3"),
    ("jokers=minus5", "jokers", "minus5"),
    ("jokers=zero", "jokers", "zero"),
    ("opening_flips=same_column", "opening_flips", "same_column"),
    ("opening_flips=different_columns", "opening_flips", "different_columns"),
    ("reveal_instead_of_draw", "reveal_instead_of_draw", True),
    ("discard_and_flip=may", "discard_and_flip", "may"),
    ("discard_and_flip=must", "discard_and_flip", "must"),
    ("end=one_last_turn", "end", "one_last_turn"),
    ("twos_pair=keep_negative", "twos_pair", "keep_negative"),
    ("four_of_a_kind_bonus=-10", "four_of_a_kind_bonus", -10),
    ("holes=18", "holes", 18),
)
#: Full size: self-play games per (variant, agent) and round-robin deal sets per variant.
FULL_SELF_PLAY_GAMES = 50_000
FULL_ROUND_ROBIN_DEAL_SETS = 20_000
CONFIDENCE = 0.95
#: Agents whose deal statistics are plotted (random's scores are on another scale; it stays in the table).
PLOTTED_SELF_PLAY = ("ev", "greedy", "pair-builder")

DEAL_COLUMNS = ["games", "deals", "mean_deal_score", "mean_deal_score_low", "mean_deal_score_high", "deal_score_sd",
                "deal_score_sd_low", "deal_score_sd_high", "turns", "turns_low", "turns_high", "went_out_share",
                "out_lowest", "out_lowest_low", "out_lowest_high", "first_seat_advantage", "first_seat_advantage_low",
                "first_seat_advantage_high", "truncated_deals"]
RANK_COLUMNS = ["rr_rank", "rr_rank_change", "rr_mean_deal_score", "rr_mean_deal_score_low",
                "rr_mean_deal_score_high", "rr_win_rate", "rr_win_rate_low", "rr_win_rate_high", "rr_rating"]


def variant_rules(option: str, value, players: int = PLAYERS) -> Rules:
    """The default game at ``players`` players with one option changed (``option=""``: the default game)."""
    rules = Rules(players=players)
    return rules.replace(**{option: value}) if option else rules


#: Games per group whose went-out shares are summed together: the batch size the deal statistics were first
#: computed with (`golfsim.kernels.simulate.DEFAULT_BATCH`), kept so that the committed numbers stay bit for bit.
SHARE_GROUP = 20_000


@dataclass
class DealSummary:
    """Per-game deal statistics of self-play games (the result of one task), in game order."""

    score: np.ndarray  # mean deal score of each game (over its holes and seats)
    score_sq: np.ndarray  # mean squared deal score of each game
    turns: np.ndarray  # mean turns per deal of each game
    first_adv: np.ndarray  # mean over the game's deals of the first mover's score minus the others' mean
    went: np.ndarray  # deals of each game ended by someone going out (int)
    out_share: np.ndarray  # per deal ended by going out, in order: the share of the lowest score its ender held
    truncated: np.ndarray  # truncated deals of each game (int)


def summarise_deals(batch) -> DealSummary:
    """[`DealSummary`][golfsim.experiments.variants.DealSummary] of a [`golfsim.kernels.simulate.Batch`][] (a task's
    summary function)."""
    scores = batch.hole_scores.astype(np.float64)
    n, holes, players = scores.shape
    first = np.tile(np.arange(holes) % players, (n, 1))
    ender = batch.enders.astype(np.int64)
    first_score = np.take_along_axis(scores, first[:, :, None], axis=2)[:, :, 0]
    others = (scores.sum(axis=2) - first_score) / (players - 1)
    went = ender >= 0
    best = scores.min(axis=2)
    lowest = scores == best[:, :, None]
    ender_score = np.take_along_axis(scores, np.where(went, ender, 0)[:, :, None], axis=2)[:, :, 0]
    share = (ender_score == best) / lowest.sum(axis=2)
    return DealSummary(
        score=scores.mean(axis=(1, 2)), score_sq=(scores ** 2).mean(axis=(1, 2)),
        turns=batch.turns.astype(np.float64).mean(axis=1), first_adv=(first_score - others).mean(axis=1),
        went=went.sum(axis=1), out_share=share[went], truncated=(batch.reasons == TRUNCATED).sum(axis=1))


def self_play_tasks(agent: str, rules: Rules, games: int, seed: int = 0, workers: int = 1, units: int = 1
                    ) -> list[Task]:
    """Tasks of ``games`` self-play games of ``agent`` in every seat (deals and agents seeded by ``seed``)."""
    plugins = current_plugins()
    return piece_tasks(lambda first, count: Task(rules, (agent,) * rules.players, seed, seed, first, count,
                                                 "golfsim.experiments.variants:summarise_deals", plugins),
                       games, units, workers)


def reduce_deal_statistics(parts: list[DealSummary], games: int, holes: int) -> dict:
    """The deal statistics (see the module docstring) of the task summaries of games ``0 .. games - 1``."""
    g = {k: np.concatenate([getattr(p, k) for p in parts]) for k in ("score", "score_sq", "turns", "first_adv")}
    went = np.concatenate([p.went for p in parts])
    shares = np.concatenate([p.out_share for p in parts])
    ends = np.cumsum(went)
    outs = 0.0
    out_lowest = 0.0
    for lo in range(0, games, SHARE_GROUP):
        hi = min(lo + SHARE_GROUP, games)
        a = ends[lo - 1] if lo else 0
        out_lowest += shares[a:ends[hi - 1]].sum()
        outs += went[lo:hi].sum()
    truncated = sum(int(p.truncated.sum()) for p in parts)
    m, lo, hi = stats.mean_ci(g["score"], CONFIDENCE)
    # variance about the grand mean, averaged per game: E[x^2] - 2 m E[x] + m^2
    v, vlo, vhi = stats.mean_ci(g["score_sq"] - 2 * m * g["score"] + m * m, CONFIDENCE)
    t, tlo, thi = stats.mean_ci(g["turns"], CONFIDENCE)
    f, flo, fhi = stats.mean_ci(g["first_adv"], CONFIDENCE)
    deals_n = games * holes
    if outs > 0:
        o, olo, ohi = stats.proportion_ci(out_lowest, outs, CONFIDENCE)
    else:
        o = olo = ohi = math.nan
    return {
        "games": games, "deals": deals_n,
        "mean_deal_score": m, "mean_deal_score_low": lo, "mean_deal_score_high": hi,
        "deal_score_sd": math.sqrt(v), "deal_score_sd_low": math.sqrt(max(vlo, 0.0)),
        "deal_score_sd_high": math.sqrt(vhi),
        "turns": t, "turns_low": tlo, "turns_high": thi,
        "went_out_share": outs / deals_n,
        "out_lowest": o, "out_lowest_low": olo, "out_lowest_high": ohi,
        "first_seat_advantage": f, "first_seat_advantage_low": flo, "first_seat_advantage_high": fhi,
        "truncated_deals": int(truncated),
    }


def deal_statistics(agent: str, rules: Rules, games: int, seed: int = 0, threads: int | None = None,
                    executor: Executor | None = None) -> dict:
    """Deal statistics of ``games`` self-play games of ``agent`` in every seat (see the module docstring)."""
    tasks = self_play_tasks(agent, rules, games, seed, executor_workers(executor, threads))
    cell = Cell(agent, tasks, functools.partial(reduce_deal_statistics, games=games, holes=rules.holes))
    done = run_cells([cell], executor, threads)
    if 0 not in done.values:
        raise KeyboardInterrupt
    return done.values[0]


def ranking_row(standings: pd.DataFrame) -> dict:
    """``{agent: {rank, mean deal score, win rate, ...}}`` from round-robin standings."""
    out = {}
    for r in standings.itertuples():
        out[r.agent] = {
            "rr_rank": int(r.rank), "rr_mean_deal_score": r.mean_hole_score,
            "rr_mean_deal_score_low": r.mean_hole_score_low, "rr_mean_deal_score_high": r.mean_hole_score_high,
            "rr_win_rate": r.win_rate, "rr_win_rate_low": r.win_rate_low, "rr_win_rate_high": r.win_rate_high,
            "rr_rating": r.rating,
        }
    return out


def variant_cell(label: str, option: str, value, agents: list[str], n_self: int, n_rr: int, seed: int,
                 workers: int) -> Cell:
    """One variant: the round robin's tasks, then every agent's self-play tasks; reduced to its table rows."""
    rules = variant_rules(option, value)
    plan = plan_tournament(agents, rules, n_rr, seed, schedule="round-robin", confidence=CONFIDENCE,
                           batch_size=TASK_GAMES, workers=workers)
    self_play = [self_play_tasks(agent, rules, n_self, seed, workers, len(agents)) for agent in agents]
    tasks = plan.tasks + [t for group in self_play for t in group]
    return Cell(label, tasks, functools.partial(_reduce_variant, label, option, value, agents, plan,
                                                [len(g) for g in self_play], n_self))


def _reduce_variant(label, option, value, agents, plan: TournamentPlan, sizes, n_self, results) -> dict:
    res = reduce_tournament(plan, dict(enumerate(results[:len(plan.tasks)])))
    standings = ranking_row(res.standings)
    rows = []
    start = len(plan.tasks)
    for agent, size in zip(agents, sizes, strict=True):
        row = {"variant": label, "option": option or "-", "value": str(value) if option else "-",
               "agent": agent, "players": plan.rules.players}
        row.update(reduce_deal_statistics(results[start:start + size], n_self, plan.rules.holes))
        row.update(standings[agent])
        rows.append(row)
        start += size
    meta = {"games_played": res.games_played, "schedule": res.config["schedule"],
            "seat_orders": sum(len(t["seat_orders"]) for t in res.config["tables"])}
    return {"rows": rows, "meta": meta}


def with_rank_change(table: pd.DataFrame, reference_column: str, reference_value) -> pd.DataFrame:
    """Fill ``rr_rank_change``: each agent's rank minus its rank in the reference rows (negative = moved up)."""
    ref = table[table[reference_column] == reference_value].set_index("agent")["rr_rank"]
    table["rr_rank_change"] = [int(r.rr_rank - ref[r.agent]) for r in table.itertuples()]
    return table


def unchanged_play(table: pd.DataFrame) -> list[str]:
    """Notes for variants under which an agent's self-play deal statistics equal the default game's exactly:
    on the same seed that means the option never changed a single move of that agent."""
    stats_cols = ["mean_deal_score", "deal_score_sd", "turns", "first_seat_advantage"]
    default = table[table.variant == "default"].set_index("agent")[stats_cols]
    notes = []
    if default.empty:  # interrupted before the default game's cell was complete: nothing to compare with
        return notes
    for label in dict.fromkeys(table.variant):
        if label == "default":
            continue
        rows = table[table.variant == label].set_index("agent")[stats_cols]
        same = [a for a in rows.index if rows.loc[a].equals(default.loc[a])]
        if same:
            notes.append(f"{label}: the self-play statistics of {', '.join(same)} equal the default game's exactly "
                         "(same seed, same deals): the option did not change how these agents play.")
    return notes


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None, executor: Executor | None = None) -> ExperimentOutput:
    """Measure every variant; return the table (one row per variant and agent) and two figures.

    Parameters
    ----------
    games : int, optional
        Self-play games per (variant, agent) and round-robin deal sets per variant; default
        ``FULL_SELF_PLAY_GAMES`` and ``FULL_ROUND_ROBIN_DEAL_SETS``.
    seed : int
        Seed of the deals, the same for every variant and agent.
    threads : int, optional
        Threads of the default executor (default all); results do not depend on it.
    log : callable, optional
        Called with a line of text when the run starts and as each variant completes.
    executor : concurrent.futures.Executor, optional
        Runs the tasks ([`golfsim.runs.tasks`][]), e.g. a Dask client's executor; results do not depend on it.

    Returns
    -------
    ExperimentOutput
        After Ctrl-C only the complete variants (never one with a part of its games), and ``partial`` set.
    """
    agents = builtin_agents()
    n_self = FULL_SELF_PLAY_GAMES if games is None else int(games)
    n_rr = FULL_ROUND_ROBIN_DEAL_SETS if games is None else int(games)
    workers = executor_workers(executor, threads)
    cells = [variant_cell(label, option, value, agents, n_self, n_rr, seed, workers)
             for label, option, value in VARIANTS]
    run_ = run_cells(cells, executor, threads, log, NAME)
    rows, rr_meta = [], {}
    for c, (label, _, _) in enumerate(VARIANTS):
        if c in run_.values:
            rows += run_.values[c]["rows"]
            rr_meta[label] = run_.values[c]["meta"]
    if not rows:
        config = base_config(NAME, games=games, seed=seed)
        notes: list[str] = []
        mark_partial(config, notes, run_)
        return ExperimentOutput(NAME, pd.DataFrame(columns=["variant", "option", "value", "agent", "players",
                                                            *DEAL_COLUMNS, *RANK_COLUMNS]),
                                config, {}, notes, partial=run_.partial)
    table = pd.DataFrame(rows)
    if "default" in rr_meta:
        table = with_rank_change(table, "variant", "default")
    else:  # interrupted before the default game's cell was complete: no reference ranks
        table["rr_rank_change"] = np.nan
    table = table[["variant", "option", "value", "agent", "players", *DEAL_COLUMNS, *RANK_COLUMNS]]
    config = base_config(
        NAME, games=games, behaviour_fingerprint=behaviour_fingerprint(),
        rules_default=Rules(players=PLAYERS).to_dict(),
        variants=[{"label": lab, "option": opt, "value": val, "rules": variant_rules(opt, val).to_dict()}
                  for lab, opt, val in VARIANTS],
        agents=agents, seed=seed, players=PLAYERS, self_play_games=n_self, round_robin_deal_sets=n_rr,
        round_robin=rr_meta, confidence=CONFIDENCE,
    )
    notes = [
        f"{PLAYERS} players; each variant changes one option of the default game (one deck, nine holes, immediate "
        f"end, no jokers); seed {seed} for every cell.",
        f"Deal statistics: {n_self:,} self-play games ({n_self * 9:,} deals; 18-hole variant twice that) per variant "
        "and agent, every seat the same agent. mean_deal_score and deal_score_sd: points per player per deal; "
        "turns: turns per deal, all players; went_out_share: deals ended by someone going out; out_lowest: share "
        "of those in which the player who went out had the lowest score (ties shared); first_seat_advantage: first "
        "mover's deal score minus the others' mean (negative = moving first helps).",
        f"Ranking: two-player round robin of {', '.join(agents)} on {n_rr:,} duplicate deal sets x "
        f"{next(iter(rr_meta.values()))['seat_orders']} seat orders per variant; rr_mean_deal_score is the mean "
        "score per deal in that round robin, rr_rank_change the rank minus the rank in the default game.",
        "Intervals: 95% t-intervals over games (Wilson over deals for out_lowest).",
        *unchanged_play(table),
    ]
    mark_partial(config, notes, run_)
    figures = {"figure": plot(table, config), "ranking": plot_ranking(table, config)}
    return ExperimentOutput(NAME, table, config, figures, notes, partial=run_.partial)


def _dot_panel(ax, table, rows_key, order, column, agents, xlabel, scale=1.0):
    """Horizontal dot plot: one row per ``order`` entry, one marker per agent, 95% error bars."""
    offsets = np.linspace(-0.25, 0.25, len(agents)) if len(agents) > 1 else [0.0]
    for agent, dy, marker in zip(agents, offsets, "osD^v<>", strict=False):
        sub = table[table.agent == agent].set_index(rows_key).loc[order]
        x = scale * sub[column]
        err = [scale * (sub[column] - sub[column + "_low"]), scale * (sub[column + "_high"] - sub[column])]
        ax.errorbar(x, np.arange(len(order)) + dy, xerr=err, fmt=marker, ms=4, capsize=2, label=agent,
                    color=agent_color(agent))
        if "default" in order:  # a partial table may lack the default game
            ax.axvline(scale * sub.loc["default", column], color=agent_color(agent), lw=0.6, ls=":")
    ax.set_xlabel(xlabel, fontsize=8)
    ax.grid(axis="x", alpha=0.3)


def plot(table: pd.DataFrame, config: dict):
    """Deal statistics of every variant (rows) for the plotted agents, with 95% intervals."""
    order = list(dict.fromkeys(table.variant))
    agents = [a for a in PLOTTED_SELF_PLAY if a in set(table.agent)]
    panels = [("mean_deal_score", "mean deal score\n(points per player per deal)", 1.0),
              ("deal_score_sd", "spread of deal scores\n(standard deviation, points)", 1.0),
              ("turns", "deal length\n(turns per deal, all players)", 1.0),
              ("out_lowest", "player who goes out has the\nlowest score (% of such deals)", 100.0),
              ("first_seat_advantage", "first-seat advantage (points per deal,\nfirst mover minus others; "
                                       "< 0 helps)", 1.0)]
    fig, axes = subplots(1, len(panels), figsize=(18, 0.42 * len(order) + 2.8), sharey=True)
    for ax, (col, label, scale) in zip(axes, panels, strict=True):
        _dot_panel(ax, table, "variant", order, col, agents, label, scale)
    axes[-1].axvline(0, color="k", lw=1)
    axes[0].set_yticks(np.arange(len(order)), order, fontsize=8)
    axes[0].set_ylabel("rule variant (one option changed from the default game)")
    axes[0].invert_yaxis()
    axes[0].legend(title="self-play agent", fontsize=7, title_fontsize=7, loc="lower left")
    return titled(
        fig, f"Variant effects on the deal: {config['players']} players, each agent in every seat (self-play), "
        "one rule option changed at a time (dotted lines: default game)",
        f"error bars: 95% intervals; {config['self_play_games']:,} games of 9 holes per point (18 for holes=18); "
        f"seed {config['seed']}")


def plot_ranking(table: pd.DataFrame, config: dict):
    """Round-robin mean deal score of every agent under every variant, with 95% intervals and ranks."""
    order = list(dict.fromkeys(table.variant))
    agents = list(dict.fromkeys(table.agent))
    strong = [a for a in agents if a != "random"]
    fig, axes = subplots(1, 2 if "random" in agents else 1, figsize=(14, 0.42 * len(order) + 2.6),
                             sharey=True, gridspec_kw={"width_ratios": [3, 1]} if "random" in agents else None)
    axes = np.atleast_1d(axes)
    rr = table[["variant", "agent", *RANK_COLUMNS]].rename(columns={c: c.replace("rr_", "") for c in RANK_COLUMNS})
    _dot_panel(axes[0], rr, "variant", order, "mean_deal_score", strong,
               "mean score per deal in the round robin (points per player per deal)")
    if "random" in agents:
        _dot_panel(axes[1], rr, "variant", order, "mean_deal_score", ["random"], "random's mean score per deal\n"
                   "(points, another scale)")
        axes[1].legend(fontsize=7, loc="lower left")
    for i, label in enumerate(order):
        sub = table[table.variant == label].sort_values("rr_rank")
        axes[0].annotate(" > ".join(sub.agent), (1.0, i), xycoords=("axes fraction", "data"), fontsize=7,
                         xytext=(4, 0), textcoords="offset points", va="center", annotation_clip=False)
    axes[0].set_yticks(np.arange(len(order)), order, fontsize=8)
    axes[0].set_ylabel("rule variant (one option changed from the default game)")
    axes[0].invert_yaxis()
    axes[0].legend(title="agent (ranking at right)", fontsize=7, title_fontsize=7, loc="lower left")
    some = next(iter(config["round_robin"].values()))
    return titled(
        fig, f"Agent ranking under each rule variant (one option changed from the default rules): "
        f"{config['players']}-player round robin of every built-in agent on duplicate deals (dotted lines: default "
        "game)",
        f"error bars: 95% intervals; {config['round_robin_deal_sets']:,} deal sets x {some['seat_orders']} seat "
        f"orders = {some['games_played']:,} games of 9 holes per variant; seed {config['seed']}")


def summary(table: pd.DataFrame, by: str = "variant", rank: str = "rr_rank", order_label: str = "ranking"
            ) -> pd.DataFrame:
    """The short table the command line prints: the ev self-play row of every ``by`` value and the rank order."""
    agent = "ev" if "ev" in set(table.agent) else table.agent.iloc[0]
    rows = table[table.agent == agent]
    order = {v: " > ".join(table[table[by] == v].sort_values(rank).agent) for v in rows[by]}
    out = pd.DataFrame({
        by: rows[by], f"{agent} deal score": rows.mean_deal_score, "sd": rows.deal_score_sd,
        "turns": rows.turns, "out lowest %": 100 * rows.out_lowest, "first seat": rows.first_seat_advantage,
        order_label: [order[v] for v in rows[by]],
    })
    # the intervals of the columns, for golfsim.experiments.rounded
    out.attrs["half_widths"] = {
        shown: (scale * (rows[f"{column}_high"] - rows[f"{column}_low"]) / 2).tolist()
        for shown, column, scale in ((f"{agent} deal score", "mean_deal_score", 1), ("sd", "deal_score_sd", 1),
                                     ("turns", "turns", 1), ("out lowest %", "out_lowest", 100),
                                     ("first seat", "first_seat_advantage", 1))}
    return out


if __name__ == "__main__":
    run(log=print).write()
