"""What to do here, and by how much: every legal action valued by mc's search and by ev.

[`hint`][golfsim.coach.hint.hint] takes an engine state (``pub``, from [`golfsim.coach.position`][] or a running
[`golfsim.game.game.Game`][])
and evaluates every legal action of the player to move with the full sample budget (no successive halving, so every
row has a value): ``samples`` worlds consistent with what the player knows ([`golfsim.core.worlds.determinize`][]),
each played to the end of the deal with ev in every seat, the same worlds and rollout streams for every action
(common random numbers, [`golfsim.agents.search.rollout_values`][]). For each action it reports

- the mean own deal score over the worlds and its standard error (over worlds);
- the mean of mc's objective (default: own deal score minus the opponents' mean; lower is better) and its standard
  error, and the standard error of its paired difference from the best action (common random numbers make this
  smaller than either action's own error when the actions' futures stay alike: it says whether the ranking can be
  trusted);
- the learned player's value of the action ([`golfsim.agents.learned.policy.action_values`][]: its expected deal
  score less the opponents' mean after the move, under the shipped weights), and whether it would play it;
- ev's own value of the action ([`golfsim.agents.expected_value.ev_action_values`][]: the value of the layout the move
  leaves, its expected score from what is known less the chance of pairs to come, with ev's tips), and whether ev
  would play it. This is ev's own unit, not a deal score: ev's look-ahead stops at the pairs it may still make.

The rows come best first by the objective. How game totals enter: with ``objective=2``, on the last hole of the
game the objective is the chance of losing the game on totals (the point margin breaks ties); before the last hole,
and with objectives 0 and 1, the totals do not enter (see [`golfsim.agents.search`][]).
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from golfsim.core.cards import rank_name
from golfsim.core.rng import check_seed, stream_state
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    ENDER,
    HELD,
    HOLE,
    NUM_ACTIONS,
    OPEN,
    PHASE,
    R_OFF_DISCARD,
    R_OFF_VIEW,
    decode,
)
from golfsim.core.validate import check_pub, packed_rules

DEFAULT_SAMPLES = 1000
"""Worlds per action for ``golfsim hint``: well under a second for a turn once compiled (docs/performance.md)."""
PLAY_SAMPLES = 500
"""Worlds per action for the ``?`` key of ``golfsim play`` (half of ``golfsim hint``'s, for a quick answer)."""
WORLDS_PER_CALL = 2000
"""Worlds searched per call of the compiled search: between calls Python sees a Ctrl-C (a long search of many
players stops at once instead of at its end)."""
OBJECTIVES = {0: "your deal score", 1: "your deal score minus the opponents' mean",
              2: "your deal score minus the opponents' mean; on the last hole the chance of losing the game"}
EV_UNIT = ("ev's value of the layout the move leaves: its expected score from what is known, less the chance of "
           "pairs to come (points, lower is better; ev plays the lowest)")
LEARNED_UNIT = ("the learned player's value of the state the move leaves: its expected deal score less the "
                "opponents' mean, from the weights trained by self-play (points, lower is better; it plays the lowest)")
LEARNED_MODELS = {1: "model 1, the linear value (models/learned.json)",
                  2: "model 2, the linear value plus n-tuple tables (models/learned_ntuple.json)"}
"""The learned models a hint can show (``learned:model=``'s values)."""
NOT_ALLOWED = 1e8
"""ev values a going-out move that tip (e) forbids at 1e9; anything above this is shown as not allowed."""


@dataclass
class ActionValue:
    """One row of a hint. Scores and objectives are means over the sampled worlds; lower is better."""

    action: int
    key: str
    move: str
    short_move: str
    deal_score: float
    deal_score_se: float
    objective: float
    objective_se: float
    gap_se: float
    ev_value: float | None
    ev_choice: bool
    learned_value: float | None = None
    learned_choice: bool = False
    exact_value: float | None = None
    """The move's exact value where the end of the deal is solved ([`golfsim.agents.learned.endgame`][]), in the
    learned value's unit; None elsewhere."""


@dataclass
class Hint:
    """Every legal action of the player to move, best first by the objective."""

    rows: list[ActionValue]
    samples: int
    seed: int
    objective: int
    seconds: float
    learned_model: int = 1
    """Which learned model valued the moves (`LEARNED_MODELS`)."""

    def to_dict(self) -> dict:
        return {"searcher": "mc", "samples": self.samples, "seed": self.seed, "objective": self.objective,
                "objective_means": OBJECTIVES[self.objective], "ev_unit": EV_UNIT, "learned_unit": LEARNED_UNIT,
                "learned_model": self.learned_model, "seconds": self.seconds,
                "actions": [asdict(r) for r in self.rows]}


_KEYS = {"take": "t", "draw": "d", "reveal": "r", "place": "p", "throw": "x", "flip": "f", "pass": "n",
         "knock": "k"}


def move_key(action: int) -> str:
    """The key ``golfsim play`` uses for an action (slots 1 to 6)."""
    kind, k = decode(action)
    return _KEYS[kind] + (str(k + 1) if k >= 0 else "")


def describe_move(pub: np.ndarray, rules: Rules, action: int, short: bool = False) -> str:
    """An action in words for the player to move, e.g. ``"swap the drawn Q into slot 4 (a face-down card)"``;
    ``short`` for a narrow table: ``"drawn Q into slot 4 (face down)"``."""
    pub = check_pub(pub, _check_rules(rules))
    packed = rules.pack()
    player = int(pub[CURRENT])
    base = int(packed[R_OFF_VIEW]) + 6 * player
    down = [k for k in range(6) if pub[base + k] < 0]

    def slot(k):
        if pub[base + k] < 0:
            there = "face down" if short else "a face-down card"
        else:
            there = f"your {rank_name(int(pub[base + k]))}"
        out = "" if down != [k] else ", goes out" if pub[ENDER] < 0 else ", your last card"
        return f"slot {k + 1} ({there}{out})"

    kind, k = decode(action)
    top = rank_name(int(pub[int(packed[R_OFF_DISCARD]) + int(pub[DISCARD_N]) - 1]))
    if kind == "take":
        return f"take the {'' if short else 'discard '}{top} into {slot(k)}"
    if kind == "draw":
        return "draw from the stock"
    if kind == "reveal":
        return f"reveal {slot(k)}"
    if kind == "place":
        return f"{'' if short else 'swap the '}drawn {rank_name(int(pub[HELD]))} into {slot(k)}"
    if kind == "throw":
        then = "" if rules.discard_and_flip in ("off", "endgame") or not down else ", then flip"
        return f"throw the drawn {rank_name(int(pub[HELD]))} away{then}"
    if kind == "flip":
        return f"flip {slot(k)}"
    if kind == "knock":
        return "knock early: turn up " + " and ".join(slot(j) for j in down)
    return "flip nothing"


def _check_rules(rules) -> Rules:
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golfsim Rules object, got {type(rules).__name__}")
    return rules


def legal_actions(pub: np.ndarray, packed: np.ndarray) -> np.ndarray:
    """The legal actions now, as an int16 array."""
    from golfsim.core.engine import legal_mask

    packed = packed_rules(packed)
    pub = check_pub(pub, packed)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    legal_mask(pub, packed, mask)
    return np.flatnonzero(mask).astype(np.int16)


def hint(pub: np.ndarray, rules: Rules, *, samples: int = DEFAULT_SAMPLES, seed: int = 0, objective: int = 1,
         rollout: int = 0, horizon: int = 0, learned_model: int = 1) -> Hint:
    """Value every legal action of the player to move in ``pub`` (see the module docstring).

    Parameters
    ----------
    pub : int32 array
        The public state (the player to move is ``pub[CURRENT]``), not in the opening flips or a finished deal.
    rules : Rules
    samples : int
        Worlds per action (every action meets the same worlds).
    seed : int
        Seed of the worlds: the same seed gives the same numbers.
    objective, rollout, horizon : int
        mc's parameters of the same names ([`golfsim.agents.search`][]).
    learned_model : int
        The learned model whose values fill the learned column: 1 (the default player) or 2 (``learned:model=2``).
    """
    from golfsim.agents.learned import require_model

    if learned_model not in LEARNED_MODELS:
        raise ValueError(f"learned_model must be 1 or 2, got {learned_model!r}")
    require_model(f"learned:model={learned_model}")  # before the search: its values are a column of every hint
    from golfsim.agents.expected_value import PARAMS as EV_PARAMS
    from golfsim.agents.expected_value import ev_act, ev_action_values
    from golfsim.agents.search import HORIZON, MC_PARAMS, OBJECTIVE, ROLLOUT, rollout_values

    pub = check_pub(pub, _check_rules(rules))
    if int(pub[PHASE]) in (OPEN, DONE):
        raise ValueError("a hint is for a decision from the first turn on (not the opening flips or a finished deal)")
    if not isinstance(samples, (int, np.integer)) or not 2 <= samples <= 1_000_000:
        raise ValueError(f"samples must be a whole number from 2 to 1000000, got {samples!r}")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be 0, 1 or 2, got {objective!r}")
    for index, value in ((ROLLOUT, rollout), (HORIZON, horizon)):
        MC_PARAMS[index].check(value)
    seed = check_seed(seed)
    packed = rules.pack()
    player = int(pub[CURRENT])
    actions = legal_actions(pub, packed)
    n = len(actions)
    params = np.array([p.default for p in MC_PARAMS], dtype=np.float64)
    params[OBJECTIVE], params[ROLLOUT], params[HORIZON] = objective, rollout, horizon
    ev_params = np.array([p.default for p in EV_PARAMS], dtype=np.float64)
    rng = np.array([stream_state(seed, int(pub[HOLE]), player)], dtype=np.uint64)
    obj = np.zeros((samples, n), dtype=np.float64)
    score = np.zeros((samples, n), dtype=np.float64)
    ev_values = np.zeros(NUM_ACTIONS, dtype=np.float64)
    ev_action_values(pub, packed, ev_params, player, ev_values)
    warm = np.zeros((1, n), dtype=np.float64)  # compiles or loads the search first, so that the timing is the search's
    rollout_values(pub, packed, params, rng.copy(), player, actions, n, warm, warm.copy())
    start = time.perf_counter()
    for lo in range(0, samples, WORLDS_PER_CALL):  # world j's seed is the stream's j-th draw: the same in pieces
        hi = min(samples, lo + WORLDS_PER_CALL)
        rollout_values(pub, packed, params, rng, player, actions, n, obj[lo:hi], score[lo:hi])
    seconds = time.perf_counter() - start
    ev_pick = int(ev_act(pub, packed, ev_params, np.zeros(1, dtype=np.uint64), player))
    learned_values, learned_pick = _learned_values(pub, packed, player, learned_model)
    exact = exact_values(pub, packed, player)
    root = np.sqrt(samples)
    means = obj.mean(axis=0)
    best = int(np.argmin(means))
    rows = []
    for i, a in enumerate(actions):
        ev = float(ev_values[a])
        rows.append(ActionValue(
            action=int(a), key=move_key(a), move=describe_move(pub, rules, a),
            short_move=describe_move(pub, rules, a, short=True),
            deal_score=float(score[:, i].mean()), deal_score_se=float(score[:, i].std(ddof=1) / root),
            objective=float(means[i]), objective_se=float(obj[:, i].std(ddof=1) / root),
            gap_se=float((obj[:, i] - obj[:, best]).std(ddof=1) / root),
            ev_value=None if np.isnan(ev) else ev, ev_choice=int(a) == ev_pick,
            learned_value=None if np.isnan(learned_values[a]) else float(learned_values[a]),
            learned_choice=int(a) == learned_pick, exact_value=None if np.isnan(exact[a]) else float(exact[a])))
    rows.sort(key=lambda r: (r.objective, r.action))
    return Hint(rows=rows, samples=samples, seed=seed, objective=objective, seconds=seconds,
                learned_model=learned_model)


def _learned_values(pub: np.ndarray, packed: np.ndarray, player: int, model: int) -> tuple[np.ndarray, int]:
    """The learned player's value of every action ([`golfsim.agents.learned.policy.action_values`][]) with the
    weights of ``model`` (1 or 2), and its choice."""
    from golfsim.agents.learned import WEIGHTS, WEIGHTS_NT
    from golfsim.agents.learned.policy import action_values, decide

    weights = WEIGHTS_NT if model == 2 else WEIGHTS
    values = np.zeros(NUM_ACTIONS, dtype=np.float64)
    action_values(pub, packed, weights, np.int64(player), values)
    pick = int(decide(pub, packed, weights, np.int64(player), np.zeros(1, dtype=np.uint64), 0.0))
    return values, pick


def exact_values(pub: np.ndarray, packed: np.ndarray, player: int) -> np.ndarray:
    """The exact value of every action that has one ([`golfsim.agents.learned.endgame.exact_values`][]: the
    deal's last turn, going out), NaN for the others."""
    from golfsim.agents.learned.endgame import exact_values as solve

    values = np.zeros(NUM_ACTIONS, dtype=np.float64)
    solve(pub, packed, np.int64(player), values)
    return values


def learned_text(row: ActionValue) -> str:
    """The learned column's cell: its value, ``*`` on its choice, and ``(=x)`` the exact value where there is one."""
    text = "-" if row.learned_value is None else f"{row.learned_value:.2f}"
    if row.exact_value is not None:
        text += f" (={row.exact_value:.2f})"
    return text + (" *" if row.learned_choice else "")


EXACT_NOTE = ("(=x): the move's exact value, in the learned player's unit: the end of the deal solved over the "
              "unseen cards (the last turn; going out)")


def ev_text(value: float | None) -> str:
    """ev's value for a table cell."""
    if value is None:
        return "-"
    if value >= NOT_ALLOWED:
        return "not allowed"
    return f"{value:.2f}"


def totals_note(pub: np.ndarray, rules: Rules, objective: int) -> str:
    """How the game totals enter the objective in this position (one sentence)."""
    last = int(pub[HOLE]) == rules.holes - 1
    if objective == 2 and last:
        return ("last hole: the objective is the chance of losing the game on totals (this hole's score added to "
                "the totals; the point margin breaks ties)")
    if objective == 2:
        return "game totals enter only on the last hole (objective 2); before it the point difference decides"
    return "game totals do not enter the objective (use --objective 2 to play to win the game on the last hole)"


def hint_table(answer: Hint, limit: int | None = None, title: str | None = None, compact: bool = False):
    """The hint as a rich table, best first (the first ``limit`` rows); ``compact`` leaves out the row number and
    the gap to the best move (for ``golfsim play``)."""
    from rich.table import Table as RichTable

    table = RichTable(title=title, title_justify="left")
    if not compact:
        table.add_column("#", justify="right")
    table.add_column("key")
    table.add_column("move")
    table.add_column("deal score", justify="right")
    table.add_column("objective" if answer.objective == 2 else "vs opp" if compact else "vs opponents",
                     justify="right")
    if not compact:
        table.add_column("gap to best", justify="right")
    table.add_column("ev", justify="right")
    if not compact:
        table.add_column("learned", justify="right")
    best = answer.rows[0].objective
    for i, r in enumerate(answer.rows[:limit]):
        cells = [r.key, r.move, f"{r.deal_score:.2f} ± {r.deal_score_se:.2f}",
                 f"{r.objective:.2f} ± {r.objective_se:.2f}"]
        if not compact:
            cells = [str(i + 1), *cells, "best" if i == 0 else f"+{r.objective - best:.2f} ± {r.gap_se:.2f}"]
        cells.append(ev_text(r.ev_value) + (" *" if r.ev_choice else ""))
        if not compact:
            cells.append(learned_text(r))
        table.add_row(*cells)
    return table


def narrow_hint_table(answer: Hint, title: str, width: int):
    """The hint as a table ``width`` columns wide, for a terminal narrower than
    [`hint_table`][golfsim.coach.hint.hint_table]'s: the same columns without rules between them, short move words and
    two-line headers, the move's words wrapped in the room the numbers leave (one line, two at most, at 80 columns)."""
    from rich import box
    from rich.table import Table as RichTable

    best = answer.rows[0].objective
    rows = [[str(i + 1), r.key, r.short_move, f"{r.deal_score:.2f} ± {r.deal_score_se:.2f}",
             f"{r.objective:.2f} ± {r.objective_se:.2f}",
             "best" if i == 0 else f"+{r.objective - best:.2f} ± {r.gap_se:.2f}",
             ev_text(r.ev_value) + (" *" if r.ev_choice else ""),
             learned_text(r)]
            for i, r in enumerate(answer.rows)]
    headers = ["#", "key", "move", "deal\nscore", "objective" if answer.objective == 2 else "vs\nopponents",
               "gap to\nbest", "ev", "learned"]
    widths = [max(len(part) for cell in [header, *(row[c] for row in rows)] for part in cell.split("\n"))
              for c, header in enumerate(headers)]
    widths[2] = max(12, width - sum(widths) + widths[2] - (len(headers) - 1))  # a space between columns
    table = RichTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_edge=False, padding=0)
    for c, header in enumerate(headers):
        table.add_column(header, justify="left" if c in (1, 2) else "right", width=widths[c])
    for row in rows:
        table.add_row(*row)
    return table


def print_hint(answer: Hint, position: str, rules: Rules, console) -> None:
    """Print a hint for ``golfsim hint``: the table and what its columns mean, wrapped at words to the console's
    width (a narrower table and shorter notes below [`hint_table`][golfsim.coach.hint.hint_table]'s width)."""
    from golfsim.coach.position import Position

    pub = Position.parse(position).to_pub(rules)
    console.print(f"position: {position}", highlight=False)
    console.print(f"rules: {rules.describe()}", highlight=False)
    wide = hint_table(answer, title=f"mc's search: {answer.samples} sampled worlds per move, the same "
                                    f"worlds for every move, ev in every seat (seed {answer.seed})")
    objective = "objective" if answer.objective == 2 else "vs opponents"
    from rich.measure import Measurement

    if Measurement.get(console, console.options.update_width(10_000), wide).maximum <= console.width:
        console.print(wide)
        notes = [
            "deal score: your score this deal, mean over the worlds ± standard error; lower is better",
            f"{objective} (sorted by this, mc's objective {answer.objective}): {OBJECTIVES[answer.objective]} "
            "± standard error",
            "gap to best: how much worse than the best move, ± the standard error of the paired difference (same "
            "worlds)",
            f"ev: {EV_UNIT}; * marks ev's own choice; 'not allowed': going out behind (ev's tip e)",
            f"learned: {LEARNED_UNIT}; {LEARNED_MODELS[answer.learned_model]}; * marks its choice",
        ]
    else:
        console.print(narrow_hint_table(answer, title=f"mc's search, seed {answer.seed}: {answer.samples} worlds "
                                                      "per move, the same for each, ev in every seat",
                                        width=console.width))
        notes = [
            "lower is better; ± standard error over the worlds; deal score: yours this deal",
            f"{objective} (sorted by this, mc's objective {answer.objective}): {OBJECTIVES[answer.objective]}",
            "gap to best: how much worse than the best move (paired: the same worlds)",
            "ev, learned: each player's value of what the move leaves (points; * its choice; 'not allowed': "
            "going out behind)" + (f"; learned: model {answer.learned_model}" if answer.learned_model != 1 else "")
            + "; golfsim hint --help says more",  # model 1 unnamed: the default hint fits 30 rows of 80 columns
        ]
    notes += [totals_note(pub, rules, answer.objective), f"searched in {answer.seconds:.2f} s"]
    notes += [EXACT_NOTE] if any(r.exact_value is not None for r in answer.rows) else []
    for line in notes:
        console.print(f"[dim]{line}[/]", highlight=False)
