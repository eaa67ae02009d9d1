"""Player count: the deal statistics of the variant experiment, and the agents' order, from 2 to 8 players.

Default rules at every player count (``decks="auto"``: one deck for 2-4 players, two for 5-8).

- **Deal statistics** (:func:`experiments.variants.deal_statistics`): self-play of each built-in agent, every seat
  the same agent: mean deal score and spread, turns per deal, went-out share, how often the player who goes out has
  the lowest score, first-seat advantage.
- **Order of the agents**: a round robin needs at least as many agents as seats, so at every count each agent plays a
  gauntlet: one seat of the agent, every other seat ``greedy`` (the anchor), in every seat rotation, on duplicate
  deals. ``vs_anchor`` is the agent's nine-hole total minus the anchor seats' mean total on the same deals (paired,
  95% interval over deal sets; negative = better than a table of greedy players), and ``gauntlet_rank`` orders the
  agents by it (the anchor itself is 0).

Run: ``golfsim experiment players`` or ``python -m experiments.players``.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from experiments.common import ExperimentOutput, base_config
from experiments.fingerprint import behaviour_fingerprint
from experiments.ladder import agent_color, builtin_agents
from experiments.variants import CONFIDENCE, DEAL_COLUMNS, PLOTTED_SELF_PLAY, deal_statistics
from experiments.variants import summary as variants_summary
from golfsim.rules import Rules, auto_decks
from golfsim.tournament import run_tournament

NAME = "players"
PLAYER_COUNTS = tuple(range(2, 9))
ANCHOR = "greedy"
#: Full size: self-play games per (player count, agent) and gauntlet deal sets per player count.
FULL_SELF_PLAY_GAMES = 40_000
FULL_GAUNTLET_DEAL_SETS = 10_000

GAUNTLET_COLUMNS = ["gauntlet_rank", "vs_anchor", "vs_anchor_low", "vs_anchor_high", "gauntlet_win_rate",
                    "gauntlet_win_rate_low", "gauntlet_win_rate_high"]


def gauntlet(agents: list[str], rules: Rules, deal_sets: int, seed: int = 0, threads: int | None = None) -> dict:
    """Each agent in one seat against ``ANCHOR`` in every other seat: paired difference to the anchor, win rate."""
    res = run_tournament(agents, rules, deal_sets, seed, threads=threads, schedule="gauntlet", anchor=ANCHOR,
                         seating="rotations", confidence=CONFIDENCE)
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


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None) -> ExperimentOutput:
    """Measure every player count; return the table (one row per player count and agent) and the figure.

    Parameters
    ----------
    games : int, optional
        Self-play games per (player count, agent) and gauntlet deal sets per player count; default
        ``FULL_SELF_PLAY_GAMES`` and ``FULL_GAUNTLET_DEAL_SETS``.
    seed : int
        Seed of the deals, the same for every cell.
    threads : int, optional
        Numba threads (default all); results do not depend on it.
    log : callable, optional
        Called with a line of text before each player count.
    """
    agents = builtin_agents()
    n_self = FULL_SELF_PLAY_GAMES if games is None else int(games)
    n_g = FULL_GAUNTLET_DEAL_SETS if games is None else int(games)
    rows, meta = [], {}
    for players in PLAYER_COUNTS:
        rules = Rules(players=players)
        if log:
            log(f"players: {players} ({n_self:,} self-play games per agent, {n_g:,} gauntlet deal sets)")
        g = gauntlet(agents, rules, n_g, seed, threads)
        meta[players] = {"games_played": g["games_played"], "seat_orders": g["seat_orders"], "decks": rules.decks}
        for agent in agents:
            row = {"players": players, "decks": rules.decks, "agent": agent}
            row.update(deal_statistics(agent, rules, n_self, seed, threads))
            row.update(g["agents"][agent])
            rows.append(row)
    table = pd.DataFrame(rows)[["players", "decks", "agent", *DEAL_COLUMNS, *GAUNTLET_COLUMNS]]
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
    return ExperimentOutput(NAME, table, config, {"figure": plot(table, config)}, notes)


def plot(table: pd.DataFrame, config: dict):
    """Deal statistics and the gauntlet difference against the player count, with 95% intervals."""
    import matplotlib.pyplot as plt

    panels = [("mean_deal_score", "mean deal score (points per player per deal)", 1.0, PLOTTED_SELF_PLAY),
              ("deal_score_sd", "spread of deal scores (SD, points)", 1.0, PLOTTED_SELF_PLAY),
              ("turns", "deal length (turns per deal, all players)", 1.0, PLOTTED_SELF_PLAY),
              ("out_lowest", "player who goes out has the lowest\nscore (% of deals ended by going out)", 100.0,
               PLOTTED_SELF_PLAY),
              ("first_seat_advantage", "first-seat advantage (points per deal,\nfirst mover minus others; < 0 helps)",
               1.0, PLOTTED_SELF_PLAY),
              ("vs_anchor", f"9-hole total minus the {config['anchor']} seats' mean\n(points, gauntlet; < 0 = better)",
               1.0, tuple(a for a in table.agent.unique() if a != "random"))]
    fig, axes = plt.subplots(2, 3, figsize=(16, 8.5))
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
    fig.suptitle(
        "Player count from 2 to 8: default rules, each agent in every seat (self-play); last panel: one agent "
        f"among {config['anchor']} players\nerror bars: 95% intervals; {config['self_play_games']:,} self-play "
        f"games of 9 holes per point, {config['gauntlet_deal_sets']:,} gauntlet deal sets x every seat rotation "
        f"per player count; seed {config['seed']}", fontsize=10)
    fig.tight_layout()
    return fig


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints: the ev self-play row of every player count and the order."""
    return variants_summary(table, by="players", rank="gauntlet_rank", order_label="order (gauntlet)")


if __name__ == "__main__":
    run(log=print).write()
