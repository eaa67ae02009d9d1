"""House rules: which of the web game's house rules make the best game, and which change scores most.

Every house rule that golfsim plays (`golfsim.core.rules.HOUSE_MEANINGS`, the web game's option names; the
settings of ``initial_flips`` and ``flip_mode`` each on their own) is switched on alone over the web game's base
table (`BASE`: two players, ``end=one_last_turn``, its only ending), beside that table with no house rule
(``none``). ``eagle_eye`` needs jokers, so it is measured with ``jokers=minus2``, and that table is measured too.

Each rule set is a cell of the luck experiment (`golfsim.experiments.luck`), with the same measures and seeds:

- **Luck against skill** (``table.csv``): ev against greedy on duplicate deal sets, each played with ev in each
  seat in turn: the skill share of a nine-hole result and of a deal, ev's nine-hole margin and win rate, and the
  holes ev needs to win 90% of games (``luck.luck_row``). The same for learned against ev: its margin says how
  well learned, whose value was fitted without house rules, plays each rule.
- **Scores and game analytics** (``analytics.csv``): self-play games of ev in every seat, counted by the compiled
  kernel: the mean hole score and its change from ``none`` (``score_change``: how much the rule moves scores),
  lead changes, seat advantage (``first_seat_advantage``, ``first_mover_deal_wins``), how deals end and the
  winning margin (``luck.analytics_row``).

Intervals are 95%: percentile bootstrap over deal sets for shares and holes, t-intervals over deal sets or games
otherwise; ``score_change``'s interval adds the two independent standard errors (the rule sets deal from the same
seed, but a rule changes play and so the cards drawn: the samples are treated as independent, which is
conservative).

The agents are the built-in ones at their defaults, so a rule an agent does not value is measured as that agent
plays it (``table.md``'s notes say which rules ev values). Run: ``golfsim experiment house``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from concurrent.futures import Executor

import numpy as np
import pandas as pd
from scipy.stats import norm

from golfsim import stats
from golfsim.core.rules import HOUSE_MEANINGS, Rules, house_options
from golfsim.experiments import luck
from golfsim.experiments.common import Cell, ExperimentOutput, base_config, mark_partial, run_cells, subplots
from golfsim.runs.figures import titled
from golfsim.runs.fingerprint import behaviour_fingerprint, fingerprint
from golfsim.runs.tasks import executor_workers

NAME = "house"
#: The web game's table every house rule is added to (at each of `PLAYER_COUNTS`).
BASE = {"players": 2, "end": "one_last_turn"}
PLAYER_COUNTS = (2, 4)
#: Settings of the valued house options measured, besides each on/off rule switched on.
SETTINGS = {"initial_flips": ("initial_flips=1", "initial_flips=0"),
            "flip_mode": ("flip_mode=always", "flip_mode=endgame")}
#: Options a house rule needs on top of `BASE` (``eagle_eye`` changes what jokers are worth, so it needs them).
NEEDS = {"eagle_eye": {"jokers": "minus2"}}
#: (stronger, weaker) pairs: ev against greedy (the luck experiment's skill gap) and learned against ev (how well
#: learned, whose value was fitted without house rules, plays each rule).
PAIRS = (("ev", "greedy"), ("learned", "ev"))
ANALYTICS_AGENT = luck.ANALYTICS_AGENT
FULL_DEAL_SETS = 20_000
FULL_GAMES = 20_000
CONFIDENCE = 0.95

SCORE_COLUMNS = ["mean_hole_score", "mean_hole_score_low", "mean_hole_score_high", "score_change",
                 "score_change_low", "score_change_high"]


def rule_sets(players: int = BASE["players"]) -> list[tuple[str, dict]]:
    """Every measured table at ``players`` players: ``(label, rule options)``, ``none`` first, then each house rule
    (and each of `NEEDS`' tables just before the rule that needs it), in `HOUSE_MEANINGS` order."""
    base = {**BASE, "players": players}
    sets = [("none", base)]
    for name in HOUSE_MEANINGS:
        needs = NEEDS.get(name, {})
        if needs:
            sets.append((",".join(f"{k}={v}" for k, v in needs.items()), {**base, **needs}))
        for text in SETTINGS.get(name, (name,)):
            sets.append((text, {**base, **needs, **house_options(text)}))
    return sets


def house_fingerprint(games: int = 20) -> str:
    """[`golfsim.runs.fingerprint.fingerprint`][] of the agents' play under every rule set: the committed result
    records it, so a change to how an agent plays a house rule shows as a stale result (the behaviour fingerprint
    covers the rules without house rules only)."""
    return fingerprint(tuple((",".join(pair * (players // 2)), options) for pair in PAIRS for players in PLAYER_COUNTS
                             for _, options in rule_sets(players)), games=games)


def house_cell(index: int, name: str, options: dict, deal_sets: int, games: int, seed: int, workers: int) -> Cell:
    """One rule set (cell ``name``, e.g. ``"knock_bonus 2p"``): each pair's duplicate deal sets, then ev's self-play
    games."""
    rules = Rules(**options)
    units = len(PAIRS) * rules.players + 1
    groups = [luck.pair_tasks(*pair, rules, deal_sets, seed, workers, units) for pair in PAIRS]
    groups.append(luck.analytics_tasks(rules, games, seed, workers, units))
    return Cell(name, [t for g in groups for t in g], functools.partial(
        _reduce, index, name.rpartition(" ")[0], rules, [len(g) for g in groups], seed))


def _reduce(index: int, label: str, rules: Rules, sizes: list[int], seed: int, results) -> dict:
    base = {"rule_set": label, "rules": _changes(rules), "players": rules.players}
    rows, start = [], 0
    for p, (pair, size) in enumerate(zip(PAIRS, sizes, strict=False)):
        scores = luck.seating_scores(results[start:start + size], rules.players)
        rng = np.random.default_rng([seed, index, rules.players, p])
        rows.append({**base, "strong": pair[0], "weak": pair[1], **luck.luck_row(scores, rng)})
        start += size
    own = results[start:]
    holes = np.concatenate([p["hole_scores"] for p in own]).astype(np.float64)
    per_game = holes.mean(axis=(1, 2))
    mean, low, high = stats.mean_ci(per_game, CONFIDENCE)
    se = float(per_game.std(ddof=1) / math.sqrt(per_game.size)) if per_game.size > 1 else math.nan
    return {"luck": rows,
            "analytics": {**base, "agent": ANALYTICS_AGENT, "mean_hole_score": mean, "mean_hole_score_low": low,
                          "mean_hole_score_high": high, "_se": se, **luck.analytics_row(own, rules.players)}}


def _changes(rules: Rules) -> str:
    default = Rules(players=rules.players).to_dict()
    return ", ".join(f"{k}={v}" for k, v in rules.to_dict().items() if default.get(k) != v) or "default"


def with_score_change(extra: pd.DataFrame) -> pd.DataFrame:
    """``score_change`` (and its interval) of every row: its mean hole score minus ``none``'s at its player
    count."""
    extra = extra.copy()
    ref = extra[extra.rule_set == "none"]
    if ref.empty:
        extra[["score_change", "score_change_low", "score_change_high"]] = math.nan
        return extra.drop(columns="_se")
    by_players = ref.set_index("players")
    m0 = extra.players.map(by_players.mean_hole_score)
    s0 = extra.players.map(by_players._se)
    z = float(norm.ppf(0.5 + CONFIDENCE / 2))
    change = extra.mean_hole_score - m0
    half = z * np.sqrt(extra._se ** 2 + s0 ** 2)
    half[extra.rule_set == "none"] = 0.0
    extra["score_change"], extra["score_change_low"], extra["score_change_high"] = change, change - half, change + half
    return extra.drop(columns="_se")


def run(games: int | None = None, seed: int = 0, threads: int | None = None,
        log: Callable[[str], None] | None = None, executor: Executor | None = None) -> ExperimentOutput:
    """Measure every house rule (see the module docstring); return the tables and figures.

    Parameters
    ----------
    games : int, optional
        Deal sets of the pair and self-play games per rule set; default `FULL_DEAL_SETS` and `FULL_GAMES`.
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
        ``table`` is luck against skill per rule set, ``extra_tables["analytics"]`` the scores and game analytics.
        After Ctrl-C only the complete cells, and ``partial`` set.
    """
    n = FULL_DEAL_SETS if games is None else int(games)
    n_games = FULL_GAMES if games is None else int(games)
    workers = executor_workers(executor, threads)
    sets = [(label, options) for players in PLAYER_COUNTS for label, options in rule_sets(players)]
    cells = [house_cell(i, f"{label} {options['players']}p", options, n, n_games, seed, workers)
             for i, (label, options) in enumerate(sets)]
    done = run_cells(cells, executor, threads, log, NAME)
    rows = [done.values[c] for c in range(len(cells)) if c in done.values]
    table = pd.DataFrame([row for r in rows for row in r["luck"]],
                         columns=["rule_set", "rules", "players", "strong", "weak", *luck.LUCK_COLUMNS[6:]])
    extra = pd.DataFrame([r["analytics"] for r in rows])
    if len(extra):
        extra = with_score_change(extra)
        extra = extra[["rule_set", "rules", "players", "agent", *SCORE_COLUMNS,
                       *[c for c in luck.ANALYTICS_COLUMNS if c not in ("variant", "option", "value", "players",
                                                                         "decks", "agent")]]]
    config = base_config(
        NAME, games=games, seed=seed, behaviour_fingerprint=behaviour_fingerprint(),
        house_fingerprint=house_fingerprint(), base=BASE, rules_default=Rules(**BASE).to_dict(),
        agents=sorted({a for pair in PAIRS for a in pair} | {ANALYTICS_AGENT}),
        player_counts=list(PLAYER_COUNTS),
        rule_sets=[{"label": label, "rules": Rules(**options).to_dict()} for label, options in sets],
        pairs=[list(p) for p in PAIRS], analytics_agent=ANALYTICS_AGENT, deal_sets=n, analytics_games=n_games,
        bootstrap_resamples=luck.BOOTSTRAP, confidence=CONFIDENCE,
        seatings="seating k: the pair's first agent in seat k, the second in every other seat; agent seed "
                 "luck.seating_seed(seed, k)")
    notes = [
        f"Each house rule alone over the web game's table (end=one_last_turn) at "
        f"{' and '.join(map(str, PLAYER_COUNTS))} players; 'none' is that table with no house rule. Luck against "
        f"skill: {n:,} duplicate deal sets of each pair ({', '.join(f'{a} against {b}' for a, b in PAIRS)}, "
        "the second in every other seat) per rule set and player count, each in one seating per seat; scores and "
        "analytics "
        f"(analytics.csv): {n_games:,} games of {ANALYTICS_AGENT} in every seat; seed {seed} in every cell.",
        "Columns as in results/luck (golfsim/experiments/luck.py): *_skill_share: share of the mean squared margin "
        "due to skill; holes_90: holes ev needs to win 90% of games (inf: never). analytics.csv: mean_hole_score "
        "(points per player per hole) and score_change (against none), lead_changes, first_seat_advantage "
        "(negative: moving first helps), first_mover_deal_wins against fair_share.",
        f"Intervals: 95% (percentile bootstrap over deal sets, {luck.BOOTSTRAP} resamples, for shares and holes; "
        "t-intervals otherwise; score_change: the two rows' standard errors combined).",
    ]
    notes += unchanged_play(extra)
    mark_partial(config, notes, done)
    figures = {}
    if len(table) and len(extra):
        figures["figure"] = plot(table, extra, config)
    return ExperimentOutput(NAME, table, config, figures, notes, partial=done.partial,
                            extra_tables={"analytics": extra})


def unchanged_play(extra: pd.DataFrame) -> list[str]:
    """Notes for rule sets under which ev's self-play games equal ``none``'s exactly: on the same seed that means
    the rule never changed a move or a score of those games."""
    cols = ["mean_hole_score", "decisions_per_game", "lead_changes", "winning_margin"]
    if not len(extra) or not (extra.rule_set == "none").any():
        return []
    ref = extra[extra.rule_set == "none"].set_index("players")[cols]
    notes = []
    for r in extra[extra.rule_set != "none"].itertuples():
        if r.players in ref.index and np.array_equal([getattr(r, c) for c in cols], ref.loc[r.players].to_numpy()):
            notes.append(f"{r.rule_set}, {r.players} players: ev's self-play games equal none's exactly (same seed): "
                         "in these games the rule never changed a move or a score.")
    return notes


def plot(table: pd.DataFrame, extra: pd.DataFrame, config: dict):
    """Skill share, holes to 90%, score change, seat advantage and lead changes of every rule set."""
    order = list(dict.fromkeys(table.rule_set))
    skill = table[(table.strong == PAIRS[0][0]) & (table.weak == PAIRS[0][1])]
    learned = table[(table.strong == PAIRS[1][0]) & (table.weak == PAIRS[1][1])]
    panels = [(skill, "game_skill_share", "skill share of a nine-hole result\n(% of the mean squared margin)", 100.0),
              (skill, "holes_90", "holes ev needs to beat greedy\nin 90% of games (holes, log scale)", 1.0),
              (learned, "margin", "learned's nine-hole total minus ev's\n(points per game; < 0: learned is better)",
               1.0),
              (extra, "score_change", "change in ev's mean hole score\nagainst none (points per hole)", 1.0),
              (extra, "first_seat_advantage",
               "first mover's deal score minus\nthe others' mean (points; < 0 helps)", 1.0),
              (extra, "lead_changes", "lead changes in a nine-hole game\n(holes with a new leader)", 1.0)]
    fig, axes = subplots(1, len(panels), figsize=(23, 0.42 * len(order) + 3), sharey=True)
    counts = sorted(set(table.players))
    offsets = np.linspace(-0.15, 0.15, len(counts)) if len(counts) > 1 else [0.0]
    for ax, (frame, column, label, scale) in zip(axes, panels, strict=True):
        for players, dy, color in zip(counts, offsets, ("C0", "C3", "C2"), strict=False):
            sub = frame[frame.players == players].rename(columns={"rule_set": "variant"})
            luck._dots(ax, sub, order, column, dy, color, luck._MARKERS[players], f"{players} players", scale)
            ref = sub[sub.variant == "none"]
            if len(ref):
                ax.axvline(scale * float(ref[column].iloc[0]), color=color, lw=0.6, ls=":")
        ax.set_xlabel(label, fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    axes[1].set_xscale("log")
    axes[0].set_yticks(np.arange(len(order)), order, fontsize=8)
    axes[0].set_ylabel("house rule (alone, over end=one_last_turn)")
    axes[0].invert_yaxis()
    axes[0].legend(fontsize=7, loc="lower right")
    return titled(
        fig, "The web game's house rules, each alone: luck against skill (ev against greedy, duplicate deals), "
        "learned against ev, and ev's own games (dotted: no house rule, at each player count)",
        f"error bars: 95% intervals; {config['deal_sets']:,} deal sets and {config['analytics_games']:,} self-play "
        f"games per rule set; seed {config['seed']}")


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """The short table the command line prints."""
    return pd.DataFrame({
        "house rule": table.rule_set, "players": table.players, "skill % (game)": 100 * table.game_skill_share,
        "ev's margin": table.margin, "ev wins 9 holes %": 100 * table.win_9, "holes to 90%": table.holes_90})


if __name__ == "__main__":
    run(log=print).write()
