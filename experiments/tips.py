"""Strategy tips as controlled A/B tests on duplicate deals: does following each tip lower a player's score?

Design
------
Every tip is a parameter of a built-in agent (never a separate copy of an agent). For one tip at ``P`` players:

- *off*: all ``P`` seats play the base agent with the tip switched off;
- *on, seat s* (for every seat ``s``): the same, except that seat ``s`` plays the base agent with the tip on.

All runs use the same seed, so game ``g`` is dealt identical cards in every run (``golfsim.kernels.simulate``: game
``g``
depends only on ``(seed, g)``), and the opponents are the same agents with the same random streams. For each deal set
``g`` the effect is the average over the tested seats ``s`` of ``total_on_s(g, s) - total_off(g, s)`` (rotating the
tested seat removes the advantage of any one seat), and [`golfsim.stats.paired_difference`][] gives its mean and
95% t-interval over deal sets: points per nine-hole game, **negative = the tip helps**.

So each row answers: "at a table of players who do not follow the tip, how many points per nine-hole game does one
player gain by following it?"

A player that plans
-------------------
Tips (b) and (e) hurt ev, a player that looks one move ahead. The rows with base agent ``mc-tips`` ask whether they
hurt ``mc``, which searches by playing each deal forward ([`golfsim.experiments.mc_tips`][]: mc at its defaults with
the
tip's rule laid over its moves; with the rule off it plays exactly like ``mc``). mc is about 10,000 times slower than
ev, so these rows are played at 2 players only, on far fewer deal sets (`PLANNING_GAMES`), with mc in every
seat. The other tips are parameters of greedy, pair-builder or ev that mc has no counterpart for (its baseline and
rollouts are ev at its defaults, which already watches the discard pile): they are not re-tested on mc.

The learned player
------------------
The rows with base agent ``learned-tips`` re-judge the tips on ``learned``, the strongest fair player
([`golfsim.experiments.learned_tips`][]: learned with the tip's rule laid over its moves; with the rule off it plays
exactly like ``learned``). It plays about as fast as ev, so these rows are played at 2 and 4 players on
`LEARNED_GAMES` deal sets, learned in every seat: tips (a), (b), (c), (c6), (e) and (f). Tip (d) is not a rule
there, because learned's value of a throw already includes what the card is worth to the next player.

Run: ``golfsim experiment tips`` or ``python -m golfsim.experiments.tips``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

import golfsim.experiments.learned_tips  # noqa: F401  (registers learned-tips, the learned player with the tips)
import golfsim.experiments.mc_tips  # noqa: F401  (registers mc-tips, the planning player of tips (b) and (e))
from golfsim import stats
from golfsim.core.rules import Rules
from golfsim.core.scoring import win_shares
from golfsim.experiments.common import (
    Cell,
    ExperimentOutput,
    base_config,
    mark_partial,
    piece_tasks,
    run_cells,
)
from golfsim.runs.fingerprint import behaviour_fingerprint
from golfsim.runs.tasks import Task, current_plugins, executor_workers

NAME = "tips"
PLAYER_COUNTS = (2, 4)
#: Deal sets per (tip, player count) at full size.
FULL_GAMES = 100_000
CONFIDENCE = 0.95
#: An effect whose whole interval lies within this many points per nine-hole game of zero is called negligible.
NEGLIGIBLE = 0.1
#: Deal sets per row of the planning player (mc-tips) at full size; with ``games`` given, ``max(2, games //
#: PLANNING_SCALE)``.
PLANNING_GAMES = 120
PLANNING_SCALE = 30
PLANNING_BASE = "mc-tips"
#: Deal sets per row of the learned player (learned-tips) at full size; with ``games`` given, ``max(2, games //
#: LEARNED_SCALE)``.
LEARNED_GAMES = 20_000
LEARNED_SCALE = 5
LEARNED_BASE = "learned-tips"
#: The module that registers each tip agent that is not a built-in: worker processes must import it too.
TIP_AGENT_MODULES = {PLANNING_BASE: "golfsim.experiments.mc_tips", LEARNED_BASE: "golfsim.experiments.learned_tips"}


@dataclass(frozen=True)
class Tip:
    """One strategy tip and the agent parameter that switches it."""

    key: str
    tip: str
    source: str
    base: str
    param: str
    on: float
    off: float
    comment: str = ""
    players: tuple[int, ...] = PLAYER_COUNTS

    @property
    def planning(self) -> bool:
        """True for a tip tested on the searching player (slow: fewer deal sets, 2 players)."""
        return self.base == PLANNING_BASE

    def games(self, games: int | None) -> int:
        """Deal sets per row for a run of ``games`` (``None``: the full size)."""
        if self.planning:
            return PLANNING_GAMES if games is None else max(2, int(games) // PLANNING_SCALE)
        if self.base == LEARNED_BASE:
            return LEARNED_GAMES if games is None else max(2, int(games) // LEARNED_SCALE)
        return FULL_GAMES if games is None else int(games)

    def agent(self, on: bool) -> str:
        value = self.on if on else self.off
        sep = "," if ":" in self.base else ":"
        return f"{self.base}{sep}{self.param}={value:g}"


TIPS: tuple[Tip, ...] = (
    Tip("a", "swap blind early", "Replacing a face-down card with a 3 or a King is usually a good trade, since the "
        "hidden card averages more than that.", "greedy", "blind_swap", 3, -99,
        "on: a drawn card worth 3 points or less (ace, two, three, King) replaces a face-down card while two or more "
        "are face down, even where a face-up card would gain more; off: greedy places it wherever its estimate "
        "gains most (a face-down card already counts as the mean of the unseen cards, about 5.5)"),
    Tip("b", "build pairs before you lower singles", "Build pairs before you lower singles.", "pair-builder",
        "pairs_first", 1, 0, "on: a card that completes a column pair is taken or placed before anything else"),
    Tip("c", "keep a queen above a face-down card", "A pair of Queens costs nothing, so a Queen above a face-down "
        "card is worth keeping if another Queen might come.", "pair-builder", "keep_threshold", 10, 99,
        "on: a column with one face-up 10-point card (10, J, Q) over a face-down card is kept for its pair while "
        "one can come"),
    Tip("c6", "keep a high card above a face-down card", "As (c), extended to every card worth 6 or more (the "
        "pair-builder's default)", "pair-builder", "keep_threshold", 6, 99,
        "on: the same reservation for face-up cards worth 6 points or more"),
    Tip("d", "watch the discard pile", "Do not throw away the card the next player needs to finish a pair.", "ev",
        "watch_discard", 0.25, 0,
        "on: leaving a card on the discard costs 0.25 x the points it would save the next player by pairing"),
    Tip("e", "count before you go out", "Turning your last card ends the hand for everyone. Only do it when your "
        "total is low or the others are about to beat you.", "ev", "count_out", 1, 0,
        "on: goes out only when its final score is not above the best opponent's estimate"),
    Tip("f", "a lone two beats a pair of twos", "Because a pair of twos scores 0 rather than minus 4, a lone two "
        "(minus 2) helps you more than a pair of them.", "pair-builder", "lone_two", 1, 0,
        "on: never completes a column pair of twos"),
    Tip("b-mc", "build pairs before you lower singles (planning player)", "Build pairs before you lower singles.",
        PLANNING_BASE, "pairs_first", 1, 0,
        "on: mc, except that a card completing a column pair with a positive gain (pair-builder's pairs_first rule) "
        "is taken or placed whatever the search prefers; off: plain mc (default parameters)", players=(2,)),
    Tip("e-mc", "count before you go out (planning player)", "Turning your last card ends the hand for everyone. "
        "Only do it when your total is low or the others are about to beat you.", PLANNING_BASE, "count_out", 1, 0,
        "on: mc, except that a move of the search going out above ev's limit (the best opponent's estimate) is "
        "vetoed and ev's move played; off: plain mc, whose search may go out against ev's count when it is sure "
        "(its baseline, ev at its defaults, already counts)", players=(2,)),
    Tip("a-l", "swap blind early (learned player)", "As (a).", LEARNED_BASE, "blind_swap", 3, -99,
        "on: learned, except that a drawn card worth 3 points or less goes on a face-down card (the one of best "
        "learned value) while two or more are face down; off: plain learned"),
    Tip("b-l", "build pairs before you lower singles (learned player)", "As (b).", LEARNED_BASE, "pairs_first", 1,
        0, "on: learned, except that a card completing a column pair with a positive gain (pair-builder's "
           "pairs_first rule) is taken or placed whatever learned prefers; off: plain learned"),
    Tip("c-l", "keep a queen above a face-down card (learned player)", "As (c).", LEARNED_BASE, "keep_threshold",
        10, 99, "on: learned, except that a column with one face-up 10-point card over a face-down card takes no "
                "card but its match while one can come; off: plain learned"),
    Tip("c6-l", "keep a high card above a face-down card (learned player)", "As (c6).", LEARNED_BASE,
        "keep_threshold", 6, 99, "on: the same reservation for face-up cards worth 6 points or more"),
    Tip("e-l", "count before you go out (learned player)", "As (e).", LEARNED_BASE, "count_out", 1, 0,
        "on: learned, except that a move going out above ev's limit (the best opponent's estimate) is replaced by "
        "learned's best other move; off: plain learned, which values going out by the exact deal score"),
    Tip("f-l", "a lone two beats a pair of twos (learned player)", "As (f).", LEARNED_BASE, "lone_two", 1, 0,
        "on: learned, except that it never completes a column pair of twos; off: plain learned"),
)

COLUMNS = ["tip", "name", "players", "base_agent", "parameter", "on", "off", "opponents", "games", "effect",
           "effect_low", "effect_high", "effect_sd", "mean_score_off", "mean_score_on", "win_rate_off", "win_rate_on",
           "win_rate_on_low", "win_rate_on_high", "games_changed", "verdict"]


def tip_by_key(key: str) -> Tip:
    for t in TIPS:
        if t.key == key:
            return t
    raise ValueError(f"no tip {key!r}; tips: {', '.join(t.key for t in TIPS)}")


def seatings(tip: Tip, players: int) -> list[list[str]]:
    """The runs of one A/B test: every seat off, then for each seat ``s`` seat ``s`` on."""
    off_agent, on_agent = tip.agent(False), tip.agent(True)
    runs = [[off_agent] * players]
    for s in range(players):
        seating = [off_agent] * players
        seating[s] = on_agent
        runs.append(seating)
    return runs


def ab_cell(tip: Tip, players: int, games: int, seed: int = 0, workers: int = 1) -> Cell:
    """One A/B test as a cell of tasks: the totals of every run of [`seatings`][golfsim.experiments.tips.seatings] on
    games ``0 .. games - 1`` (deals and agents seeded by ``seed``), reduced by
    [`ab_result`][golfsim.experiments.tips.ab_result]."""
    rules = Rules(players=players)
    runs = seatings(tip, players)
    plugins = current_plugins() + ((TIP_AGENT_MODULES[tip.base],) if tip.base in TIP_AGENT_MODULES else ())
    per_run = [piece_tasks(lambda first, count, seats=seats: Task(rules, tuple(seats), seed, seed, first, count,
                                                                   "golfsim.runs.tasks:summarise_totals", plugins),
                           games, len(runs), workers) for seats in runs]
    pieces = len(per_run[0])
    tasks = [t for run in per_run for t in run]
    return Cell(f"({tip.key}) {players} players", tasks, functools.partial(_reduce_ab, tip, players, games, pieces))


def _reduce_ab(tip: Tip, players: int, games: int, pieces: int, results: list) -> dict:
    totals = [np.concatenate(results[r * pieces:(r + 1) * pieces]) for r in range(1 + players)]
    return ab_result(tip, players, games, totals[0], totals[1:])


def verdict(low: float, high: float, changed: float) -> str:
    """Plain words for an interval of ``on - off`` (negative helps)."""
    if changed < 0.01:
        return "no effect: the switch changes play in under 1% of games"
    if -NEGLIGIBLE < low and high < NEGLIGIBLE:
        return f"negligible (within {NEGLIGIBLE:g} points per game)"
    if high < 0:
        return "helps"
    if low > 0:
        return "hurts"
    return "no detectable effect"


def ab_result(tip: Tip, players: int, games: int, off: np.ndarray, on_runs: list[np.ndarray]) -> dict:
    """The row of one A/B test from the totals ``[games, players]`` of the all-off run and of each seat-on run."""
    off_agent = tip.agent(False)
    on = np.zeros(games)
    win_on = np.zeros(games)
    changed = np.zeros(games, dtype=bool)
    for s, tot in enumerate(on_runs):
        on += tot[:, s]
        win_on += win_shares(tot)[:, s]
        changed |= (tot != off).any(axis=1)
    on /= players
    win_on /= players
    off_seat = off.mean(axis=1)  # the tested seat's total with the tip off, averaged over the rotated seats
    diff = stats.paired_difference(on, off_seat, CONFIDENCE)
    w_on, w_lo, w_hi = stats.share_ci(np.clip(win_on, 0, 1), CONFIDENCE)
    share = float(changed.mean())
    return {
        "tip": tip.key, "name": tip.tip, "players": players, "base_agent": tip.base, "parameter": tip.param,
        "on": tip.on, "off": tip.off, "opponents": f"{players - 1} x {off_agent}", "games": games,
        "effect": diff["mean"], "effect_low": diff["low"], "effect_high": diff["high"], "effect_sd": diff["sd"],
        "mean_score_off": float(off_seat.mean()), "mean_score_on": float(on.mean()),
        "win_rate_off": float(win_shares(off).mean(axis=1).mean()), "win_rate_on": w_on, "win_rate_on_low": w_lo,
        "win_rate_on_high": w_hi, "games_changed": share, "verdict": verdict(diff["low"], diff["high"], share),
    }


def ab_test(tip: Tip, players: int, games: int, seed: int = 0, threads: int | None = None,
            executor: Executor | None = None) -> dict:
    """One A/B test: ``tip`` at ``players`` players on ``games`` duplicate deal sets (see the module docstring)."""
    done = run_cells([ab_cell(tip, players, games, seed, executor_workers(executor, threads))], executor, threads)
    if 0 not in done.values:
        raise KeyboardInterrupt
    return done.values[0]


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None, tips: tuple[str, ...] | None = None,
        executor: Executor | None = None) -> ExperimentOutput:
    """Test every tip at 2 and 4 players; return the table (one row per tip and player count) and the figure.

    Parameters
    ----------
    games : int, optional
        Duplicate deal sets per tip and player count; default ``FULL_GAMES``.
    seed : int
        Seed of the deals; the same for every run, so all tips are tested on the same deals.
    threads : int, optional
        Threads of the default executor (default all); results do not depend on it.
    log : callable, optional
        Called with a line of text when the run starts and as each test completes.
    tips : tuple of str, optional
        Keys of the tips to test (default all of ``TIPS``).
    executor : concurrent.futures.Executor, optional
        Runs the tasks ([`golfsim.runs.tasks`][]), e.g. a Dask client's executor; results do not depend on it.

    Returns
    -------
    ExperimentOutput
        After Ctrl-C only the complete tests, and ``partial`` set (see [`golfsim.experiments.common`][]).
    """
    n = FULL_GAMES if games is None else int(games)
    chosen = TIPS if tips is None else tuple(tip_by_key(k) for k in tips)
    workers = executor_workers(executor, threads)
    cells = [ab_cell(tip, players, tip.games(games), seed, workers) for tip in chosen for players in tip.players]
    run_ = run_cells(cells, executor, threads, log, NAME)
    rows = [run_.values[c] for c in range(len(cells)) if c in run_.values]
    table = pd.DataFrame(rows, columns=COLUMNS)
    config = base_config(
        NAME, games=games, behaviour_fingerprint=behaviour_fingerprint(),
        rules={p: Rules(players=p).to_dict() for p in PLAYER_COUNTS}, seed=seed, games_per_cell=n,
        player_counts=list(PLAYER_COUNTS), confidence=CONFIDENCE,
        tips=[{**asdict(t), "agent_on": t.agent(True), "agent_off": t.agent(False), "games": t.games(games)}
              for t in chosen],
        planning_games_per_cell=max([t.games(games) for t in chosen if t.planning], default=None),
        learned_games_per_cell=max([t.games(games) for t in chosen if t.base == LEARNED_BASE], default=None),
        design="per tip and player count: one run with every seat off, and one run per seat s with seat s on; "
               "same seed, so identical deals; effect = mean over s of total_on_s(seat s) - total_off(seat s), "
               "paired t-interval over deal sets; negative = the tip helps",
        games_played_per_cell={p: (1 + p) * n for p in PLAYER_COUNTS},
    )
    notes = [
        f"Default rules (one deck, nine holes, immediate end) at {' and '.join(map(str, PLAYER_COUNTS))} players; "
        f"{n:,} duplicate deal sets per row, seed {seed} (the same deals for every tip); the planning player's rows "
        f"(mc-tips, 2 players only): {PLANNING_GAMES if games is None else max(2, n // PLANNING_SCALE):,} deal sets "
        "per row, mc in every seat; the learned player's rows (learned-tips, 2 and 4 players): "
        f"{LEARNED_GAMES if games is None else max(2, n // LEARNED_SCALE):,} deal sets per row, learned in every "
        "seat.",
        "Each row: the base agent with the tip on (parameter = on) in one seat, every other seat the same base agent "
        "with the tip off (parameter = off); the tested seat is rotated through every seat and compared with the "
        "run where every seat has the tip off, on identical deals.",
        "effect: mean change of the tested player's nine-hole total (points) from switching the tip on, with its "
        "95% paired t-interval; negative = the tip helps. win_rate_*: the tested seat's share of games won "
        "(ties shared); games_changed: share of deal sets in which the switch changed any score. verdict: helps / "
        f"hurts when the interval excludes 0, negligible when it lies within {NEGLIGIBLE:g} points of 0.",
        *[f"({t.key}) {t.tip}: base {t.base}, {t.param} on={t.on:g} / off={t.off:g}. {t.comment}." for t in chosen],
        "Tips (a), (c), (c6), (d) and (f) are not re-tested on the planning player: they are parameters of greedy, "
        "pair-builder or ev with no counterpart in mc (its baseline and rollouts are ev at its defaults, which "
        "already watches the discard pile, tip (d)); expressing them would mean changing mc's rollout policy.",
        "The rows with base learned-tips re-judge tips (a), (b), (c), (c6), (e) and (f) on the learned player, at "
        "2 and 4 players: each is a rule laid over learned's moves (golfsim.experiments.learned_tips). Tip (d) is "
        "not: learned's value of a throw already includes what the card is worth to the next player.",
    ]
    mark_partial(config, notes, run_)
    figures = {"figure": plot(table, config)} if rows else {}
    return ExperimentOutput(NAME, table, config, figures, notes, partial=run_.partial)


def plot(table: pd.DataFrame, config: dict):
    """Effect of each tip with its 95% interval, at each player count; the numbers stand in a column right of the
    plot, where they cannot cover an interval."""
    from golfsim.runs.figures import captioned, subplots

    keys = list(dict.fromkeys(table.tip))
    fig, ax = subplots(figsize=(11, 0.55 * len(keys) + 2.4))
    counts = sorted(table.players.unique())
    offsets = np.linspace(-0.18, 0.18, len(counts)) if len(counts) > 1 else [0.0]
    for players, dy, marker in zip(counts, offsets, "os^D", strict=False):
        rows = table[table.players == players].set_index("tip")
        rows = rows.loc[[k for k in keys if k in rows.index]]  # the planning player's tips are at 2 players only
        y = np.array([keys.index(k) for k in rows.index]) + dy
        err = [rows.effect - rows.effect_low, rows.effect_high - rows.effect]
        bars = ax.errorbar(rows.effect, y, xerr=err, fmt=marker, capsize=4, label=f"{players} players")
        for x, yy, lo, hi in zip(rows.effect, y, rows.effect_low, rows.effect_high, strict=True):
            ax.annotate(f"{players}p {x:+.2f} ({lo:+.2f} to {hi:+.2f})", (1.02, yy),
                        xycoords=("axes fraction", "data"), va="center", ha="left", fontsize=7,
                        color=bars[0].get_color(), annotation_clip=False)
    labels = [f"({k}) {table[table.tip == k].name.iloc[0]}\n{table[table.tip == k].base_agent.iloc[0]}: "
              f"{table[table.tip == k].parameter.iloc[0]}" for k in keys]
    ax.set_yticks(np.arange(len(keys)), labels, fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0, color="k", lw=1)
    low, high = min(table.effect_low.min(), 0.0), max(table.effect_high.max(), 0.0)
    span = max(high - low, 1e-9)
    ax.set_xlim(low - 0.05 * span, high + 0.05 * span)
    ax.set_xlabel("effect of following the tip (points per 9-hole game; negative = the tip helps)")
    ax.set_ylabel("tip (base agent: parameter)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="best", fontsize=8, title="effect, 95% interval", title_fontsize=8)
    title = ("Strategy tips, A/B tests on duplicate deals under the default rules (1 deck, 9 holes, immediate "
             "end): one player's tip on minus tip off; the opponents play the same agent with the tip off")
    caption = (f"error bars and the numbers at right: effect (95% paired t-interval); "
               f"{config['games_per_cell']:,} deal sets per point"
               + (f" ({config['planning_games_per_cell']:,} for the planning player mc-tips, 2 players)"
                  if config.get("planning_games_per_cell") else "")
               + (f" ({config['learned_games_per_cell']:,} for the learned player learned-tips)"
                  if config.get("learned_games_per_cell") else "")
               + f", tested seat rotated; seed {config['seed']}")
    return captioned(fig, [(ax, title, 10)], caption, room=0.05)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints."""
    out = table[["tip", "name", "players", "effect"]].copy()
    out["95% CI"] = [f"{lo:+.2f} to {hi:+.2f}" for lo, hi in zip(table.effect_low, table.effect_high, strict=True)]
    out["verdict"] = table.verdict
    return out


def verdicts(table: pd.DataFrame) -> list[str]:
    """One sentence per tip, with the numbers, for reports and the notebook."""
    lines = []
    for key in dict.fromkeys(table.tip):
        rows = table[table.tip == key]
        parts = [f"{r.players} players {r.effect:+.2f} ({r.effect_low:+.2f} to {r.effect_high:+.2f}): {r.verdict}"
                 for r in rows.itertuples()]
        lines.append(f"({key}) {rows.name.iloc[0]} [{rows.base_agent.iloc[0]} {rows.parameter.iloc[0]}]: "
                     + "; ".join(parts))
    return lines


if __name__ == "__main__":
    run(log=print).write()
