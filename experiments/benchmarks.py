"""How throughput scales: deals per second against batch size, thread count and player count.

Every point is ``golfsim.kernels.bench.run_benchmark`` (median of repeats after a warm-up) on the same kernels
tournaments use. ``games`` is the number of single deals timed per point.

Run: ``golfsim experiment benchmarks`` or ``python -m golfsim.experiments.benchmarks``.
"""

from __future__ import annotations

import numba
import pandas as pd

from golfsim.core.rules import Rules
from golfsim.experiments.common import ExperimentOutput, base_config, subplots
from golfsim.kernels.bench import run_benchmark
from golfsim.runs.stops_after_work import work_done

NAME = "benchmarks"
AGENTS = ("greedy", "random")
BATCH_SIZES = (1_000, 10_000, 100_000, 1_000_000)
PLAYER_COUNTS = (2, 3, 4, 6, 8)


FULL_DEALS = 2_000_000


def run(games: int | None = None, seed: int = 0, repeats: int = 3) -> ExperimentOutput:
    """Measure the grid and return the table (one row per point) and a three-panel figure
    ([`plot`][golfsim.experiments.benchmarks.plot]).

    ``games`` is the number of single deals per point (default ``FULL_DEALS``).
    """

    requested, games = games, FULL_DEALS if games is None else games
    rows = []
    max_threads = numba.config.NUMBA_NUM_THREADS
    thread_counts = sorted({1, max_threads})
    for agent in AGENTS:
        for threads in thread_counts:
            r = run_benchmark([agent, agent], Rules(), deals=games, threads=threads, repeats=repeats, seed=seed)
            rows.append(_row("threads", agent, 2, threads, 1_000_000, r))
        for batch in BATCH_SIZES:
            r = run_benchmark([agent, agent], Rules(), deals=games, threads=max_threads, repeats=repeats,
                              seed=seed, batch_size=batch)
            rows.append(_row("batch size", agent, 2, max_threads, batch, r))
        for players in PLAYER_COUNTS:
            r = run_benchmark([agent] * players, Rules(players=players), deals=max(games // players, 1),
                              threads=max_threads, repeats=repeats, seed=seed)
            rows.append(_row("players", agent, players, max_threads, 1_000_000, r))
    work_done()  # every point is measured: a stop from here on lets the result be made and written
    table = pd.DataFrame(rows)
    one = table[(table.measure == "threads") & (table.threads == 1)].set_index("agent")["deals_per_second"]
    table["speedup_vs_1_thread"] = [
        row.deals_per_second / one[row.agent] if row.measure == "threads" else float("nan")
        for row in table.itertuples()
    ]

    config = base_config(NAME, games=requested, rules=Rules().to_dict(), agents=list(AGENTS), seed=seed,
                         deals_per_point=games, repeats=repeats, threads=thread_counts, batch_sizes=list(BATCH_SIZES),
                         player_counts=list(PLAYER_COUNTS), threading_layer=rows[-1]["threading_layer"])
    notes = [f"deals per second are medians of {repeats} timed runs after a warm-up call; "
             "speedup_vs_1_thread is measured in the same run",
             "parallelism: " + rows[-1]["threading_layer"]]
    return ExperimentOutput(NAME, table, config, {"figure": plot(table, config)}, notes)


def plot(table: pd.DataFrame, config: dict):
    """Throughput against threads, batch size and players, one line per agent (each point the median of
    ``config["repeats"]`` timed runs; the spread of the runs is not recorded, so there are no interval bars)."""
    from golfsim.runs.figures import fit_suptitle

    thread_counts = list(config["threads"])
    max_threads = max(thread_counts)
    games, repeats, seed = config["deals_per_point"], config["repeats"], config["seed"]
    fig, axes = subplots(1, 3, figsize=(15, 4.6))
    for agent, style in zip(config["agents"], ("o-", "s--"), strict=False):
        t = table[(table.agent == agent) & (table.measure == "threads")]
        axes[0].plot(t.threads, t.deals_per_second / 1e6, style, label=agent)
        b = table[(table.agent == agent) & (table.measure == "batch size")]
        axes[1].semilogx(b.batch_size, b.deals_per_second / 1e6, style, label=agent)
        p = table[(table.agent == agent) & (table.measure == "players")]
        axes[2].plot(p.players, p.deals_per_second / 1e6, style, label=agent)
    axes[0].set(xlabel="threads", ylabel="million deals per second", title="Threads (2 players)",
                xticks=thread_counts)
    axes[1].set(xlabel="games per kernel call (batch size, log scale)", ylabel="million deals per second",
                title=f"Batch size ({max_threads} threads, 2 players)")
    axes[2].set(xlabel="players at the table", ylabel="million deals per second",
                title=f"Player count ({max_threads} threads)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(title="agents (all seats)")
        ax.set_ylim(bottom=0)
    for _ in range(2):
        fit_suptitle(fig, f"golfsim throughput, default rules: agents playing themselves in every seat; median of "
                          f"{repeats} timed runs of {games:,} deals per point (players: {games:,} / players deals), "
                          f"seed {seed}; no interval: the runs' spread is not recorded", fontsize=11)
        fig.tight_layout()
    return fig


def _row(measure, agent, players, threads, batch, result) -> dict:
    return {
        "measure": measure,
        "agent": agent,
        "players": players,
        "threads": threads,
        "batch_size": batch,
        "deals": result["deals"],
        "deals_per_second": result["deals_per_second"],
        "compile_seconds": result["compile_seconds"],
        "peak_rss_mb": result["peak_rss_mb"],
        "threading_layer": result["threading_layer"],
    }


if __name__ == "__main__":
    run().write()
