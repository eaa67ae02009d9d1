"""Player count: the deal statistics of the variant experiment, and the agents' order, from 2 to 8 players.

Default rules at every player count (``decks="auto"``: one deck for 2-4 players, two for 5-8).

- **Deal statistics** ([`golfsim.experiments.variants.deal_statistics`][]): self-play of each built-in agent, every
seat
  the same agent: mean deal score and spread, turns per deal, went-out share, how often the player who goes out has
  the lowest score, first-seat advantage.
- **Order of the agents**: a round robin needs at least as many agents as seats, so at every count each agent plays a
  gauntlet: one seat of the agent, every other seat ``greedy`` (the anchor), in every seat rotation, on duplicate
  deals. ``vs_anchor`` is the agent's nine-hole total minus the anchor seats' mean total on the same deals (paired,
  95% interval over deal sets; negative = better than a table of greedy players), and ``gauntlet_rank`` orders the
  agents by it (the anchor itself is 0).

Run: ``golfsim experiment players`` or ``python -m golfsim.experiments.players``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import Executor

import pandas as pd

from golfsim.core.rules import Rules, auto_decks
from golfsim.experiments.common import (
    TASK_GAMES,
    Cell,
    ExperimentOutput,
    base_config,
    mark_partial,
    run_cells,
    subplots,
)
from golfsim.experiments.ladder import agent_color, builtin_agents
from golfsim.experiments.variants import (
    CONFIDENCE,
    DEAL_COLUMNS,
    PLOTTED_SELF_PLAY,
    reduce_deal_statistics,
    self_play_tasks,
)
from golfsim.experiments.variants import summary as variants_summary
from golfsim.runs.figures import titled
from golfsim.runs.fingerprint import behaviour_fingerprint
from golfsim.runs.tasks import executor_workers
from golfsim.tournament import TournamentPlan, plan_tournament, reduce_tournament

NAME = "players"
PLAYER_COUNTS = tuple(range(2, 9))
ANCHOR = "greedy"
#: Full size: self-play games per (player count, agent) and gauntlet deal sets per player count.
FULL_SELF_PLAY_GAMES = 40_000
FULL_GAUNTLET_DEAL_SETS = 10_000

GAUNTLET_COLUMNS = ["gauntlet_rank", "vs_anchor", "vs_anchor_low", "vs_anchor_high", "gauntlet_win_rate",
                    "gauntlet_win_rate_low", "gauntlet_win_rate_high"]


def gauntlet_plan(agents: list[str], rules: Rules, deal_sets: int, seed: int = 0, workers: int = 1
                  ) -> TournamentPlan:
    """The tournament of each agent in one seat against ``ANCHOR`` in every other seat, every seat rotation."""
    return plan_tournament(agents, rules, deal_sets, seed, schedule="gauntlet", anchor=ANCHOR, seating="rotations",
                           confidence=CONFIDENCE, batch_size=TASK_GAMES, workers=workers)


def gauntlet_rows(agents: list[str], res) -> dict:
    """Paired difference to the anchor and win rate of every agent, from the gauntlet's result."""
    h2h = res.head_to_head
    st = res.standings.set_index("agent")
    out = {}
    for agent in agents:
        if agent == ANCHOR:
            vs = (0.0, 0.0, 0.0)
        else:
            r = h2h[(h2h.agent == agent) & (h2h.opponent == ANCHOR)].iloc[0]
            vs = (r.mean_diff, r.mean_diff_low, r.mean_diff_high)
        out[agent] = {"vs_anchor": vs[0], "vs_anchor_low": vs[1], "vs_anchor_high": vs[2],
                      "gauntlet_win_rate": st.loc[agent, "win_rate"],
                      "gauntlet_win_rate_low": st.loc[agent, "win_rate_low"],
                      "gauntlet_win_rate_high": st.loc[agent, "win_rate_high"]}
    order = sorted(agents, key=lambda a: (out[a]["vs_anchor"], a))
    for i, a in enumerate(order):
        out[a]["gauntlet_rank"] = i + 1
    return {"agents": out, "games_played": res.games_played,
            "seat_orders": sum(len(t["seat_orders"]) for t in res.config["tables"])}


def player_cell(players: int, agents: list[str], n_self: int, n_g: int, seed: int, workers: int) -> Cell:
    """One player count: the gauntlet's tasks, then every agent's self-play tasks; reduced to its table rows."""
    rules = Rules(players=players)
    plan = gauntlet_plan(agents, rules, n_g, seed, workers)
    self_play = [self_play_tasks(agent, rules, n_self, seed, workers, len(agents)) for agent in agents]
    tasks = plan.tasks + [t for group in self_play for t in group]
    return Cell(f"{players} players", tasks,
                functools.partial(_reduce_players, agents, plan, [len(g) for g in self_play], n_self))


def _reduce_players(agents, plan: TournamentPlan, sizes, n_self, results) -> dict:
    rules = plan.rules
    g = gauntlet_rows(agents, reduce_tournament(plan, dict(enumerate(results[:len(plan.tasks)]))))
    rows = []
    start = len(plan.tasks)
    for agent, size in zip(agents, sizes, strict=True):
        row = {"players": rules.players, "decks": rules.decks, "agent": agent}
        row.update(reduce_deal_statistics(results[start:start + size], n_self, rules.holes))
        row.update(g["agents"][agent])
        rows.append(row)
        start += size
    meta = {"games_played": g["games_played"], "seat_orders": g["seat_orders"], "decks": rules.decks}
    return {"rows": rows, "meta": meta}


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None, executor: Executor | None = None) -> ExperimentOutput:
    """Measure every player count; return the table (one row per player count and agent) and the figure.

    Parameters
    ----------
    games : int, optional
        Self-play games per (player count, agent) and gauntlet deal sets per player count; default
        ``FULL_SELF_PLAY_GAMES`` and ``FULL_GAUNTLET_DEAL_SETS``.
    seed : int
        Seed of the deals, the same for every cell.
    threads : int, optional
        Threads of the default executor (default all); results do not depend on it.
    log : callable, optional
        Called with a line of text when the run starts and as each player count completes.
    executor : concurrent.futures.Executor, optional
        Runs the tasks ([`golfsim.runs.tasks`][]), e.g. a Dask client's executor; results do not depend on it.

    Returns
    -------
    ExperimentOutput
        After Ctrl-C only the complete player counts, and ``partial`` set (see [`golfsim.experiments.common`][]).
    """
    agents = builtin_agents()
    n_self = FULL_SELF_PLAY_GAMES if games is None else int(games)
    n_g = FULL_GAUNTLET_DEAL_SETS if games is None else int(games)
    workers = executor_workers(executor, threads)
    cells = [player_cell(p, agents, n_self, n_g, seed, workers) for p in PLAYER_COUNTS]
    run_ = run_cells(cells, executor, threads, log, NAME)
    rows, meta = [], {}
    for c, players in enumerate(PLAYER_COUNTS):
        if c in run_.values:
            rows += run_.values[c]["rows"]
            meta[players] = run_.values[c]["meta"]
    table = pd.DataFrame(rows, columns=["players", "decks", "agent", *DEAL_COLUMNS, *GAUNTLET_COLUMNS])
    config = base_config(
        NAME, games=games, behaviour_fingerprint=behaviour_fingerprint(),
        rules={p: Rules(players=p).to_dict() for p in PLAYER_COUNTS}, agents=agents, anchor=ANCHOR, seed=seed,
        player_counts=list(PLAYER_COUNTS), self_play_games=n_self, gauntlet_deal_sets=n_g, gauntlet=meta,
        confidence=CONFIDENCE,
    )
    notes = [
        f"Default rules at {PLAYER_COUNTS[0]}-{PLAYER_COUNTS[-1]} players, decks auto ("
        + ", ".join(f"{p}p: {auto_decks(p)}" for p in PLAYER_COUNTS) + f"); seed {seed} for every cell.",
        f"Deal statistics: {n_self:,} self-play games of nine holes per player count and agent (every seat the "
        "same agent); columns as in results/variants.",
        f"Gauntlet: each agent in one seat, {ANCHOR} in the others, every seat rotation, {n_g:,} duplicate deal "
        f"sets per player count; vs_anchor = agent's nine-hole total minus the {ANCHOR} seats' mean (points, "
        "negative = better), gauntlet_rank orders the agents by it.",
        "Intervals: 95% t-intervals over games or deal sets (Wilson over deals for out_lowest).",
    ]
    mark_partial(config, notes, run_)
    figures = {"figure": plot(table, config)} if rows else {}
    return ExperimentOutput(NAME, table, config, figures, notes, partial=run_.partial)


def plot(table: pd.DataFrame, config: dict):
    """Deal statistics and the gauntlet difference against the player count, with 95% intervals."""
    panels = [("mean_deal_score", "mean deal score (points per player per deal)", 1.0, PLOTTED_SELF_PLAY),
              ("deal_score_sd", "spread of deal scores (SD, points)", 1.0, PLOTTED_SELF_PLAY),
              ("turns", "deal length (turns per deal, all players)", 1.0, PLOTTED_SELF_PLAY),
              ("out_lowest", "player who goes out has the lowest\nscore (% of deals ended by going out)", 100.0,
               PLOTTED_SELF_PLAY),
              ("first_seat_advantage", "first-seat advantage (points per deal,\nfirst mover minus others; < 0 helps)",
               1.0, PLOTTED_SELF_PLAY),
              ("vs_anchor", f"9-hole total minus the {config['anchor']} seats' mean\n(points, gauntlet; < 0 = better)",
               1.0, tuple(a for a in table.agent.unique() if a != "random"))]
    fig, axes = subplots(2, 3, figsize=(16, 8.5))
    counts = sorted(table.players.unique())
    for ax, (col, label, scale, agents) in zip(axes.flat, panels, strict=True):
        for agent in agents:
            rows = table[table.agent == agent].sort_values("players")
            if rows.empty:
                continue
            err = [scale * (rows[col] - rows[col + "_low"]), scale * (rows[col + "_high"] - rows[col])]
            ax.errorbar(rows.players, scale * rows[col], yerr=err, marker="o", ms=4, capsize=3, label=agent,
                        color=agent_color(agent))
        ax.set(xlabel="players at the table (decks: 1 up to 4 players, 2 from 5)", ylabel=label, xticks=counts)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, title="self-play agent" if col != "vs_anchor" else "agent", title_fontsize=7)
    axes.flat[4].axhline(0, color="k", lw=1)
    axes.flat[5].axhline(0, color="k", lw=1)
    return titled(
        fig, "Player count from 2 to 8: default rules, each agent in every seat (self-play); last panel: one agent "
        f"among {config['anchor']} players",
        f"error bars: 95% intervals; {config['self_play_games']:,} self-play games of 9 holes per point, "
        f"{config['gauntlet_deal_sets']:,} gauntlet deal sets x every seat rotation per player count; "
        f"seed {config['seed']}")


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints: the ev self-play row of every player count and the order."""
    return variants_summary(table, by="players", rank="gauntlet_rank", order_label="order (gauntlet)")


if __name__ == "__main__":
    run(log=print).write()
