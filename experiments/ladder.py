"""Agent ladder: the mean nine-hole score and win rate of every built-in agent at 2, 3 and 4 players.

Each player count is one :func:`golfsim.tournament.run_tournament` of all built-in agents (the same code path as
``golfsim tournament``): at 2 and 3 players a round robin of every combination of agents, at 4 players the one table
of all four; each table is played in every seat order (rotations at 2 players, every permutation at 3 and 4) on the
same duplicate deals. Intervals are 95% Student-t intervals over deal sets; win rates share ties.

Run: ``golfsim experiment ladder`` or ``python -m experiments.ladder``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import Executor

import pandas as pd

from experiments.common import TASK_GAMES, Cell, ExperimentOutput, base_config, mark_partial, run_cells
from experiments.fingerprint import behaviour_fingerprint
from golfsim.rules import Rules
from golfsim.tasks import executor_workers
from golfsim.tournament import plan_tournament, reduce_tournament

NAME = "ladder"
PLAYER_COUNTS = (2, 3, 4)
#: Deal sets per table at full size (each deal set is played in every seat order of every table).
FULL_DEAL_SETS = {2: 100_000, 3: 25_000, 4: 25_000}
CONFIDENCE = 0.95

COLUMNS = ["players", "rank", "agent", "mean_score", "mean_score_low", "mean_score_high", "win_rate", "win_rate_low",
           "win_rate_high", "rating", "rating_se", "went_out_rate", "out_win_rate", "mean_turns", "games",
           "deal_sets"]


def agent_color(agent: str) -> str:
    """One colour per agent name, the same in every figure of every experiment."""
    fixed = {"ev": "C0", "greedy": "C1", "pair-builder": "C2", "random": "C3"}
    return fixed.get(agent.split(":")[0], f"C{4 + sum(map(ord, agent)) % 6}")


def builtin_agents() -> list[str]:
    """Names of the built-in agents, sorted."""
    from agents import REGISTRY

    return sorted(name for name, spec in REGISTRY.items() if spec.built_in)


def _reduce(plan, results: list):
    return reduce_tournament(plan, dict(enumerate(results)))


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None, executor: Executor | None = None) -> ExperimentOutput:
    """Play the ladder and return its table (one row per player count and agent) and figure.

    Parameters
    ----------
    games : int, optional
        Deal sets per table at every player count; default ``FULL_DEAL_SETS`` (the committed run).
    seed : int
        Seed of the deals (and, derived from it, of the agents).
    threads : int, optional
        Threads of the default executor (default all); results do not depend on it.
    log : callable, optional
        Called with a line of text when the run starts and as each player count completes.
    executor : concurrent.futures.Executor, optional
        Runs the tasks (:mod:`golfsim.tasks`), e.g. a Dask client's executor; results do not depend on it.

    Returns
    -------
    ExperimentOutput
        After Ctrl-C only the complete player counts, and ``partial`` set (see :mod:`experiments.common`).
    """
    agents = builtin_agents()
    sizes = {p: (games if games is not None else FULL_DEAL_SETS[p]) for p in PLAYER_COUNTS}
    workers = executor_workers(executor, threads)
    plans = {p: plan_tournament(agents, Rules(players=p), sizes[p], seed, confidence=CONFIDENCE,
                                batch_size=TASK_GAMES, workers=workers) for p in PLAYER_COUNTS}
    cells = [Cell(f"{p} players", plan.tasks, functools.partial(_reduce, plan)) for p, plan in plans.items()]
    run_ = run_cells(cells, executor, threads, log, NAME)
    frames, tournaments = [], {}
    for c, players in enumerate(PLAYER_COUNTS):
        if c not in run_.values:
            continue
        res = run_.values[c]
        st = res.standings.copy()
        st.insert(0, "players", players)
        frames.append(st[COLUMNS])
        tournaments[players] = {
            "schedule": res.config["schedule"], "seating": res.config["seating"], "tables": len(res.config["tables"]),
            "seat_orders": sum(len(t["seat_orders"]) for t in res.config["tables"]),
            "deal_sets": res.deal_sets, "games_played": res.games_played, "truncated_deals": res.truncated_deals,
            "rating_model": res.rating_model, "command": res.config["command"],
        }
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    config = base_config(
        NAME, games=games, behaviour_fingerprint=behaviour_fingerprint(),
        rules={p: Rules(players=p).to_dict() for p in PLAYER_COUNTS}, agents=agents, seed=seed,
        deal_sets_per_table=sizes, confidence=CONFIDENCE, tournaments=tournaments,
        games_meaning="deal sets per table; every deal set is played at every table in every seat order",
    )
    notes = [
        f"Agents: {', '.join(agents)} (every built-in, default parameters); default rules (one deck, nine holes, "
        "immediate end).",
        "Per player count: " + "; ".join(
            f"{p} players: {t['schedule']}, {t['tables']} table(s) x {t['seat_orders'] // t['tables']} seat orders "
            f"({t['seating']}) x {t['deal_sets']:,} deal sets = {t['games_played']:,} games"
            for p, t in tournaments.items()) + f"; seed {seed}.",
        "mean_score: mean nine-hole total (points, lower is better) with its 95% t-interval over deal sets; "
        "win_rate: share of games won, ties shared, 95% interval; rating: Bradley-Terry (2 players) or "
        "Plackett-Luce (3-4 players) on the Elo-like scale, mean 0.",
        "went_out_rate: share of the agent's deals in which it went out; out_win_rate: share of those in which it "
        "held the lowest deal score (ties shared); mean_turns: turns per deal, all players.",
    ]
    mark_partial(config, notes, run_)
    figures = {"figure": plot(table, config)} if frames else {}
    return ExperimentOutput(NAME, table, config, figures, notes, partial=run_.partial)


def plot(table: pd.DataFrame, config: dict):
    """Mean nine-hole score and win rate of each agent against the player count, with 95% intervals."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.6))
    for agent, rows in table.groupby("agent", sort=True):
        rows = rows.sort_values("players")
        err = [rows.mean_score - rows.mean_score_low, rows.mean_score_high - rows.mean_score]
        axes[0].errorbar(rows.players, rows.mean_score, yerr=err, marker="o", capsize=4, label=agent,
                         color=agent_color(agent))
        err = [100 * (rows.win_rate - rows.win_rate_low), 100 * (rows.win_rate_high - rows.win_rate)]
        axes[1].errorbar(rows.players, 100 * rows.win_rate, yerr=err, marker="o", capsize=4, label=agent,
                         color=agent_color(agent))
    counts = sorted(table.players.unique())
    axes[0].set_yscale("log")
    ticks = [t for t in (30, 40, 50, 60, 80, 100, 150, 200, 300, 400) if
             table.mean_score_low.min() * 0.8 <= t <= table.mean_score_high.max() * 1.25]
    axes[0].set_yticks(ticks, [str(t) for t in ticks])
    axes[0].minorticks_off()
    axes[1].plot(counts, [100 / p for p in counts], "k:", label="1 / players (even chances)")
    axes[0].set(xlabel="players at the table", ylabel="mean 9-hole score (points, log scale; lower is better)",
                title="Mean nine-hole score", xticks=counts)
    axes[1].set(xlabel="players at the table", ylabel="win rate (% of games, ties shared)",
                title="Win rate", xticks=counts)
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    sizes = config["deal_sets_per_table"]
    games = {p: t["games_played"] for p, t in config["tournaments"].items()}
    fig.suptitle(
        "Agent ladder: every built-in agent, round robin on duplicate deals, default rules (1 deck, 9 holes)\n"
        f"error bars: 95% intervals (often smaller than the markers); seed {config['seed']}; deal sets per table "
        + ", ".join(f"{p}p {sizes[p]:,}" for p in sizes) + "; games played "
        + ", ".join(f"{p}p {games[p]:,}" for p in games), fontsize=10)
    fig.tight_layout()
    return fig


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints."""
    out = table[["players", "rank", "agent", "mean_score", "win_rate"]].copy()
    out["95% CI"] = [f"{lo:.2f} to {hi:.2f}" for lo, hi in zip(table.mean_score_low, table.mean_score_high,
                                                                 strict=True)]
    return out


if __name__ == "__main__":
    run(log=print).write()
