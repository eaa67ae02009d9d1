"""Agent ladder: the mean nine-hole score and win rate of every built-in agent at 2, 3 and 4 players.

Each player count is one [`golfsim.tournament.run_tournament`][] of all built-in agents (the same code path as
``golfsim tournament``): at 2 and 3 players a round robin of every combination of agents, at 4 players the one table
of all four; each table is played in every seat order (rotations at 2 players, every permutation at 3 and 4) on the
same duplicate deals. Intervals are 95% Student-t intervals over deal sets; win rates share ties.

The searching players are slow (``mc`` plays about 10,000 times slower than ``ev``), so they have their own section,
``with search``, on far fewer deal sets (`SEARCH_DEAL_SETS`): at 2 players a round robin of the built-ins with
``mc`` (default parameters), ``ev`` tuned by ``golfsim tune`` (`TUNED_EV`, when a tuning result exists) and
``oracle``, a reference that SEES HIDDEN CARDS (its label says so in every table, JSON entry and figure); at 4
players one table of ``mc`` with ev, pair-builder and greedy (random left out, a table seats four).

The learned player (``learned``, trained by ``golfsim learn``) plays about as fast as ev, so its section, ``with
learned``, is large (`LEARNED_DEAL_SETS`): at 2 players a round robin of the built-ins with the tuned ev and
``learned``, at 4 players one table of learned, ev, pair-builder and greedy in every seat order.

The built-ins' section is played exactly as before, so its numbers depend on neither of the other sections.

Run: ``golfsim experiment ladder`` or ``python -m golfsim.experiments.ladder``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import Executor

import pandas as pd

from golfsim.agents import parse_agent
from golfsim.core.rules import Rules
from golfsim.experiments.common import (
    TASK_GAMES,
    Cell,
    ExperimentOutput,
    base_config,
    mark_partial,
    run_cells,
    subplots,
)
from golfsim.runs.figures import titled
from golfsim.runs.fingerprint import behaviour_fingerprint
from golfsim.runs.tasks import executor_workers
from golfsim.tournament import plan_tournament, reduce_tournament

NAME = "ladder"
PLAYER_COUNTS = (2, 3, 4)
#: Deal sets per table at full size (each deal set is played in every seat order of every table).
FULL_DEAL_SETS = {2: 100_000, 3: 25_000, 4: 25_000}
CONFIDENCE = 0.95
#: The section with searching players: deal sets per table at full size (each in every seat order of every table).
SEARCH_DEAL_SETS = {2: 30, 4: 6}
#: With ``games`` given, the search section plays ``max(2, games // SEARCH_SCALE)`` deal sets per table.
SEARCH_SCALE = 30
#: ev with the parameters chosen by ``golfsim tune ev --against ev --players 2 --trials 100 --games 6000`` (the
#: ``winner`` of ``results/tuning/ev/config.json``: re-evaluated on fresh deals it beats ev by 11.0 points per
#: nine-hole game, 10.8 to 11.2); None leaves the row out.
TUNED_EV: str | None = "ev:pair_weight=1.06,horizon=1.9,count_out=0,out_margin=8,watch_discard=0.46"
TUNED_EV_SOURCE = "results/tuning/ev/config.json"
#: The section with the learned player: deal sets per table at full size; with ``games`` given, ``max(2, games //
#: LEARNED_SCALE)``.
LEARNED_DEAL_SETS = {2: 20_000, 4: 5_000}
LEARNED_SCALE = 5
SECTIONS = ("built-ins", "with search", "with learned")

COLUMNS = ["section", "players", "rank", "agent", "sees_hidden_cards", "mean_score", "mean_score_low",
           "mean_score_high", "win_rate", "win_rate_low", "win_rate_high", "rating", "rating_se", "rating_standing",
           "rating_bound", "went_out_rate",
           "out_win_rate", "mean_turns", "games", "deal_sets"]


def agent_color(agent: str) -> str:
    """One colour per agent name, the same in every figure of every experiment."""
    fixed = {"ev": "C0", "greedy": "C1", "pair-builder": "C2", "random": "C3", "mc": "C4", "oracle": "C5",
             "learned": "C8"}
    if agent.startswith("ev:"):
        return "C9"
    return fixed.get(agent.split(":")[0], f"C{4 + sum(map(ord, agent)) % 6}")


def builtin_agents() -> list[str]:
    """Names of the built-in agents, sorted."""
    from golfsim.agents import REGISTRY

    return sorted(name for name, spec in REGISTRY.items() if spec.built_in)


def search_pools() -> dict[int, list[str]]:
    """The agents of the search section at each player count (see the module docstring)."""
    two = [*builtin_agents(), "mc", *([TUNED_EV] if TUNED_EV else []), "oracle"]
    return {2: two, 4: ["ev", "greedy", "mc", "pair-builder"]}


def learned_pools() -> dict[int, list[str]]:
    """The agents of the section with the learned player at each player count (see the module docstring)."""
    two = [*builtin_agents(), *([TUNED_EV] if TUNED_EV else []), "learned"]
    return {2: two, 4: ["ev", "greedy", "learned", "pair-builder"]}


def sees_hidden(label: str) -> bool:
    """True for an agent label of a player that is given the hidden cards."""
    from golfsim.agents.base import SEES_HIDDEN_MARK

    return label.endswith(SEES_HIDDEN_MARK)


def _tournament_record(res) -> dict:
    return {
        "schedule": res.config["schedule"], "seating": res.config["seating"], "tables": len(res.config["tables"]),
        "seat_orders": sum(len(t["seat_orders"]) for t in res.config["tables"]),
        "deal_sets": res.deal_sets, "games_played": res.games_played, "truncated_deals": res.truncated_deals,
        "rating_model": res.rating_model, "command": res.config["command"],
    }


def search_deal_sets(games: int | None) -> dict[int, int]:
    """Deal sets per table of the search section for a run of ``games`` (``None``: the full size)."""
    return _section_deal_sets(SEARCH_DEAL_SETS, SEARCH_SCALE, games)


def learned_deal_sets(games: int | None) -> dict[int, int]:
    """Deal sets per table of the learned player's section for a run of ``games`` (``None``: the full size)."""
    return _section_deal_sets(LEARNED_DEAL_SETS, LEARNED_SCALE, games)


def _section_deal_sets(full: dict[int, int], scale: int, games: int | None) -> dict[int, int]:
    return {p: (n if games is None else max(2, int(games) // scale)) for p, n in full.items()}


def search_section(res_by_players: dict, section: str = SECTIONS[1],
                   focus: tuple[str, ...] = ("mc", "oracle")) -> tuple[pd.DataFrame, dict]:
    """The rows and tournament records of a section after the built-ins', from its tournaments' results; the
    head-to-head records kept are those of the tuned ev and of the agents named in ``focus``."""
    frames, tournaments = [], {}
    tuned = parse_agent(TUNED_EV).label if TUNED_EV else None
    for players, res in res_by_players.items():
        st = res.standings.copy()
        st.insert(0, "players", players)
        st.insert(0, "section", section)
        st["sees_hidden_cards"] = st.agent.map(sees_hidden)
        frames.append(st[COLUMNS])
        searchers = [a for a in res.standings.agent if a.split(":")[0].split(" ")[0] in focus or a == tuned]
        h2h = res.head_to_head[res.head_to_head.agent.isin(searchers)]
        tournaments[players] = {**_tournament_record(res), "agents": list(res.standings.agent),
                                "head_to_head": h2h[["agent", "opponent", "mean_diff", "mean_diff_low",
                                                     "mean_diff_high", "win_rate", "deal_sets", "games"]]
                                .to_dict(orient="records")}
    rows = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=COLUMNS)
    return rows, tournaments


def _plans(pools: dict[int, list[str]], sizes: dict[int, int], seed: int, workers: int) -> dict:
    """One tournament plan per player count: the pool's round robin (or its one table) on ``sizes[p]`` deal sets."""
    return {p: plan_tournament(pool, Rules(players=p), sizes[p], seed, confidence=CONFIDENCE, batch_size=TASK_GAMES,
                               workers=workers) for p, pool in pools.items()}


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
        Runs the tasks ([`golfsim.runs.tasks`][]), e.g. a Dask client's executor; results do not depend on it.

    Returns
    -------
    ExperimentOutput
        After Ctrl-C only the complete player counts, and ``partial`` set (see [`golfsim.experiments.common`][]).
    """
    agents = builtin_agents()
    sizes = {p: (games if games is not None else FULL_DEAL_SETS[p]) for p in PLAYER_COUNTS}
    workers = executor_workers(executor, threads)
    plans = _plans({p: agents for p in PLAYER_COUNTS}, sizes, seed, workers)
    search_sizes, learned_sizes = search_deal_sets(games), learned_deal_sets(games)
    search_plans = _plans(search_pools(), search_sizes, seed, workers)
    learned_plans = _plans(learned_pools(), learned_sizes, seed, workers)
    cells = [Cell(f"{p} players{label}", plan.tasks, functools.partial(_reduce, plan))
             for label, section in (("", plans), (" with search", search_plans), (" with learned", learned_plans))
             for p, plan in section.items()]
    run_ = run_cells(cells, executor, threads, log, NAME)
    frames, tournaments = [], {}
    for c, players in enumerate(PLAYER_COUNTS):
        if c not in run_.values:
            continue
        res = run_.values[c]
        st = res.standings.copy()
        st.insert(0, "players", players)
        st.insert(0, "section", SECTIONS[0])
        st["sees_hidden_cards"] = st.agent.map(sees_hidden)
        frames.append(st[COLUMNS])
        tournaments[players] = _tournament_record(res)
    search_done = {p: run_.values[len(PLAYER_COUNTS) + i] for i, p in enumerate(search_plans)
                   if len(PLAYER_COUNTS) + i in run_.values}
    search_rows, search_tournaments = search_section(search_done)
    first = len(PLAYER_COUNTS) + len(search_plans)
    learned_done = {p: run_.values[first + i] for i, p in enumerate(learned_plans) if first + i in run_.values}
    learned_rows, learned_tournaments = search_section(learned_done, SECTIONS[2], ("learned",))
    parts = [f for f in (*frames, search_rows, learned_rows) if len(f)]
    table = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=COLUMNS)
    config = base_config(
        NAME, games=games, behaviour_fingerprint=behaviour_fingerprint(),
        rules={p: Rules(players=p).to_dict() for p in PLAYER_COUNTS}, agents=agents, seed=seed,
        deal_sets_per_table=sizes, confidence=CONFIDENCE, tournaments=tournaments,
        games_meaning="deal sets per table; every deal set is played at every table in every seat order",
        search={
            "agents": search_pools(), "deal_sets_per_table": search_sizes, "tournaments": search_tournaments,
            "tuned_ev": TUNED_EV, "tuned_ev_source": TUNED_EV_SOURCE if TUNED_EV else None,
            "sees_hidden_cards": sorted({a for a in search_rows.agent if sees_hidden(a)}),
            "head_to_head_meaning": "mean_diff: paired mean of total(agent) - total(opponent) on identical deals, "
                                    "negative = the agent scored lower (better); 95% interval",
            "size_rule": f"full size {SEARCH_DEAL_SETS}; with --games N, max(2, N // {SEARCH_SCALE}) per table",
        },
        learned={
            "agents": learned_pools(), "deal_sets_per_table": learned_sizes, "tournaments": learned_tournaments,
            "model": "agents/learned/models/learned.json (made by plain golfsim learn --threads 2)",
            "head_to_head_meaning": "mean_diff: paired mean of total(agent) - total(opponent) on identical deals, "
                                    "negative = the agent scored lower (better); 95% interval",
            "size_rule": f"full size {LEARNED_DEAL_SETS}; with --games N, max(2, N // {LEARNED_SCALE}) per table",
        },
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
        "Plackett-Luce (3-4 players) on the Elo-like scale, 0 = mean of the rated agents; an agent that never won "
        "(rating_standing 'never won') has no rating, and rating_bound is the 95% upper bound of its rating.",
        "went_out_rate: share of the agent's deals in which it went out; out_win_rate: share of those in which it "
        "held the lowest deal score (ties shared); mean_turns: turns per deal, all players.",
        "Section 'with search' (mc is about 10,000 times slower than ev, so far fewer deal sets; its rows are not "
        "comparable with the built-ins' section, whose pools differ): " + "; ".join(
            f"{p} players: {', '.join(search_pools()[p])}, {t['schedule']}, {t['tables']} table(s) x "
            f"{t['seat_orders'] // t['tables']} seat orders ({t['seating']}) x {t['deal_sets']:,} deal sets = "
            f"{t['games_played']:,} games" for p, t in search_tournaments.items()) + f"; seed {seed}.",
        "mc: determinized Monte-Carlo search at its defaults (64 worlds per decision, ev rollouts); "
        + (f"tuned ev: {TUNED_EV} (parameters chosen by golfsim tune ev, {TUNED_EV_SOURCE}); " if TUNED_EV else
           "tuned ev: left out (no tuning result was available when this ladder was run); ")
        + "oracle (sees hidden cards): the same search given the real face-down cards and stock order, a research "
          "reference for the value of hidden information, never a fair player.",
        "Section 'with learned' (learned: the one-ply expectimax on the value learned by self-play, golfsim learn; "
        "about as fast as ev): " + "; ".join(
            f"{p} players: {', '.join(learned_pools()[p])}, {t['schedule']}, {t['tables']} table(s) x "
            f"{t['seat_orders'] // t['tables']} seat orders ({t['seating']}) x {t['deal_sets']:,} deal sets = "
            f"{t['games_played']:,} games" for p, t in learned_tournaments.items()) + f"; seed {seed}.",
    ]
    mark_partial(config, notes, run_)
    figures = {}
    if frames:
        figures["figure"] = plot(table[table.section == SECTIONS[0]], config)
    if search_tournaments:
        figures["search"] = plot_search(table[table.section == SECTIONS[1]], config)
    if learned_tournaments:
        figures["learned"] = plot_search(table[table.section == SECTIONS[2]], config, "learned")
    return ExperimentOutput(NAME, table, config, figures, notes, partial=run_.partial)


def plot(table: pd.DataFrame, config: dict):
    """Mean nine-hole score and win rate of each agent against the player count, with 95% intervals."""
    fig, axes = subplots(1, 2, figsize=(12, 4.6))
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
    return titled(
        fig, "Agent ladder: every built-in agent, round robin on duplicate deals, default rules (1 deck, 9 holes)",
        f"error bars: 95% intervals (often smaller than the markers); seed {config['seed']}; deal sets per table "
        + ", ".join(f"{p}p {sizes[p]:,}" for p in sizes) + "; games played "
        + ", ".join(f"{p}p {games[p]:,}" for p in games))


def _short_label(agent: str) -> str:
    """An agent label that fits beside a figure: the oracle's mark in capitals, long parameter lists wrapped."""
    import textwrap

    if sees_hidden(agent):
        return agent.replace(" (sees hidden cards)", "\n(SEES HIDDEN CARDS)")
    if TUNED_EV and agent == parse_agent(TUNED_EV).label:
        return "tuned ev:\n" + "\n".join(textwrap.wrap(agent.split(":", 1)[1].replace(",", ", "), 28))
    return agent


def plot_search(table: pd.DataFrame, config: dict, section: str = "search"):
    """A section after the built-ins' (``section``: the config key, ``search`` or ``learned``): mean nine-hole score
    and win rate of each agent, 95% intervals."""
    counts = sorted(table.players.unique())
    # a row is as tall as its label's lines need (the tuned ev's parameters take five), so labels never overlap
    slots = {p: [max(1.0, 0.45 * _short_label(a).count("\n") + 0.45)
                 for a in table[table.players == p].sort_values("mean_score").agent] for p in counts}
    fig, axes = subplots(len(counts), 2, figsize=(12, 1.6 + 0.5 * sum(map(sum, slots.values()))), squeeze=False,
                         sharey="row", gridspec_kw={"height_ratios": [sum(slots[p]) for p in counts]})
    for (ax_score, ax_win), players in zip(axes, counts, strict=True):
        rows = table[table.players == players].sort_values("mean_score")
        tall = slots[players]
        y = [sum(tall[:i]) + tall[i] / 2 for i in range(len(tall))]
        colors = [agent_color(a) for a in rows.agent]
        for yy, r, color in zip(y, rows.itertuples(), colors, strict=True):
            marker = "D" if r.sees_hidden_cards else "o"
            ax_score.errorbar(r.mean_score, yy, xerr=[[r.mean_score - r.mean_score_low],
                                                      [r.mean_score_high - r.mean_score]],
                              fmt=marker, color=color, capsize=4)
            ax_win.errorbar(100 * r.win_rate, yy, xerr=[[100 * (r.win_rate - r.win_rate_low)],
                                                        [100 * (r.win_rate_high - r.win_rate)]],
                            fmt=marker, color=color, capsize=4)
        labels = [_short_label(a) for a in rows.agent]
        ax_score.set_yticks(list(y), labels, fontsize=8)
        ax_score.set_ylim(sum(tall), 0)
        ax_score.set_xscale("log")
        ticks = [t for t in (20, 30, 40, 50, 60, 80, 100, 150, 200, 300, 400)
                 if rows.mean_score_low.min() * 0.8 <= t <= rows.mean_score_high.max() * 1.25]
        ax_score.set_xticks(ticks, [str(t) for t in ticks])
        ax_score.minorticks_off()
        ax_score.set(xlabel="mean 9-hole score (points, log scale; lower is better)",
                     ylabel=f"{players} players (agent)")
        ax_win.set(xlabel="win rate (% of games, ties shared)")
        ax_win.axvline(100 / players, color="k", ls=":", lw=1)
        for ax in (ax_score, ax_win):
            ax.grid(alpha=0.3)
    search = config[section]
    games = {p: t["games_played"] for p, t in search["tournaments"].items()}
    who = ("the searching players (mc; oracle SEES HIDDEN CARDS)" if section == "search" else
           "the learned player (learned, trained by self-play)")
    return titled(
        fig, f"Agent ladder with {who}, duplicate deals, default rules (1 deck, 9 holes)",
        "2 players: round robin; 4 players: one table in every seat order; dotted line: even chances; error bars: "
        f"95% intervals; seed {config['seed']}; deal sets per table "
        + ", ".join(f"{p}p {n:,}" for p, n in search["deal_sets_per_table"].items()) + "; games played "
        + ", ".join(f"{p}p {n:,}" for p, n in games.items())
        + f"; built-ins' section: {', '.join(f'{p}p {n:,}' for p, n in config['deal_sets_per_table'].items())}",
        fontsize=9)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints."""
    out = table[["section", "players", "rank", "agent", "mean_score", "win_rate"]].copy()
    out["95% CI"] = [f"{lo:.2f} to {hi:.2f}" for lo, hi in zip(table.mean_score_low, table.mean_score_high,
                                                                 strict=True)]
    return out


if __name__ == "__main__":
    run(log=print).write()
