"""Tuning an agent's parameters on duplicate deals against a chosen field (``golfsim tune``).

How a study runs
----------------
- **Search space.** By default every parameter with a declared range that the agent string does not set. Every
  parameter searched has a range: given by the caller (``"watch_discard=0:1"``), declared on the agent's
  :class:`~golfsim.agents.base.Param` (``low``, ``high``, ``kind``), or, for the agents golfsim ships, taken from
  :data:`BUILT_IN_RANGES`. Floats are searched on a grid of ``step`` (1/100 of the range, rounded down to a
  power of ten, unless given), so the winner prints as a short agent string and the study holds exactly the values
  played; whole-number parameters are searched as integers and on/off switches as 0 or 1. Parameters not searched
  keep the values of the agent string given (``"ev:count_out=0"`` fixes ``count_out``).
- **A trial** plays the candidate against every agent of the field: for each field agent, one table with the
  candidate in one seat and that agent in every other seat, played in all cyclic seat rotations on ``games``
  duplicate deal sets (:func:`golfsim.tournament.run_tournament`). The candidate's *lead* in a deal set is its mean
  nine-hole total minus the mean total of the other seats (over the rotations), averaged over the field; the
  objective is the mean lead over the deal sets, in points per game (negative: the candidate scores lower, which
  is better).
- **The same deals for every trial.** Every trial plays the deal sets of ``seed`` with the same agent streams, so
  two trials differ only in the parameters: the comparison is paired (common random numbers), and the luck of the
  cards, which is far larger than most parameter effects, does not decide which trial looks best.
- **Sampler.** optuna's TPE sampler, minimising the objective. Trial 0 plays the baseline (when its values lie in
  the space), so the winner is never worse than it on the tuning deals; the next ``startup_trials - 1`` are drawn
  at random, and TPE models the results from then on. The sampler of trial ``n`` is seeded from ``(seed, n)``, so
  a study is a function of the seed alone and a resumed study continues exactly as an uninterrupted one would
  have.
- **Re-evaluation.** The best trial was picked on the tuning deals, so its objective there is optimistic (the best
  of many noisy estimates). The winner is therefore replayed on fresh deals (a seed derived from ``seed``): against
  the field, against the *baseline* (the agent as given: its defaults, unless the agent string fixed some) at a
  table of the same shape, and the baseline against the field on the same fresh deals, with 95% t-intervals over
  deal sets (:mod:`golfsim.stats`).
- **Stopping early.** A ``KeyboardInterrupt`` (Ctrl-C, or raised by a ``progress`` callback) ends the study after
  the last complete trial; the result keeps those trials, is marked ``partial`` and has no re-evaluation.
"""

from __future__ import annotations

import json
import math
import platform
import shlex
import textwrap
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import pandas as pd

import golfsim
from golfsim import stats
from golfsim.agents.base import AgentChoice, AgentSpec, parse_agent, split_agents
from golfsim.core.rng import check_seed
from golfsim.core.rules import Rules
from golfsim.runs.progress import CountBar
from golfsim.tournament.planning import rule_flags

__all__ = [
    "BUILT_IN_RANGES",
    "ParamRange",
    "TuningResult",
    "agent_string",
    "field_lead",
    "parse_param_ranges",
    "plan_request",
    "search_space",
    "tune",
]

KINDS = ("float", "int", "bool")

TRIALS_FILE = "trials.csv"
CONFIG_FILE = "config.json"
PLOT_FILE = "convergence.png"


# ---------------------------------------------------------------- the search space
@dataclass(frozen=True)
class ParamRange:
    """The values of one parameter a study searches.

    Attributes
    ----------
    name : str
        The agent's parameter.
    kind : {"float", "int", "bool"}
        ``"float"``: ``low, low + step, ..., high``; ``"int"``: the whole numbers from ``low`` to ``high``;
        ``"bool"``: 0 or 1.
    low, high : float
        The range (0 and 1 for ``"bool"``).
    step : float
        Grid spacing of a ``"float"`` range (1 for ``"int"`` and ``"bool"``).
    """

    name: str
    kind: str
    low: float
    high: float
    step: float = 1.0

    @classmethod
    def make(cls, name: str, kind: str, low: float | None = None, high: float | None = None,
             step: float | None = None) -> ParamRange:
        """A checked range; a float range without ``step`` gets 1/100 of its width rounded down to a power of 10."""
        if kind not in KINDS:
            raise ValueError(f"parameter {name}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
        if kind == "bool":
            return cls(name, "bool", 0.0, 1.0, 1.0)
        if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)) or not low < high:
            raise ValueError(f"parameter {name}: a range needs finite LOW < HIGH, got {low!r}:{high!r}")
        if kind == "int":
            if low != int(low) or high != int(high):
                raise ValueError(f"parameter {name} takes whole numbers; give a range like 0:6, got {low:g}:{high:g}")
            return cls(name, "int", float(low), float(high), 1.0)
        if step is None:
            step = 10.0 ** math.floor(math.log10((high - low) / 100))
        if not (math.isfinite(step) and step > 0) or step > high - low:
            raise ValueError(f"parameter {name}: the step must be positive and at most the range, got {step!r}")
        return cls(name, "float", float(low), float(high), float(step))

    @property
    def points(self) -> int:
        """How many values the grid holds."""
        return int(math.floor((self.high - self.low) / self.step + 1e-9)) + 1

    def distribution(self):
        """The optuna distribution searched: the grid index of a float, the value of an int, 0/1 of a bool."""
        from optuna.distributions import CategoricalDistribution, IntDistribution

        if self.kind == "bool":
            return CategoricalDistribution((0, 1))
        if self.kind == "int":
            return IntDistribution(int(self.low), int(self.high))
        return IntDistribution(0, self.points - 1)

    def value(self, raw) -> float:
        """The parameter value of the optuna value ``raw``, rounded to the grid's decimals."""
        if self.kind != "float":
            return float(raw)
        return round(self.low + int(raw) * self.step, _decimals(self.step) + _decimals(self.low))

    def raw(self, value: float) -> int:
        """The optuna value that plays ``value`` (inverse of :meth:`value`)."""
        if self.kind != "float":
            return int(round(value))
        return int(round((value - self.low) / self.step))

    def describe(self) -> str:
        if self.kind == "bool":
            return f"{self.name}: 0 or 1"
        if self.kind == "int":
            return f"{self.name}: whole numbers {self.low:g} to {self.high:g}"
        return f"{self.name}: {self.low:g} to {self.high:g} in steps of {self.step:g}"

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "low": self.low, "high": self.high, "step": self.step}


def _decimals(x: float) -> int:
    text = repr(float(x))
    if "e" in text:
        return 12
    return len(text.partition(".")[2].rstrip("0"))


BUILT_IN_RANGES: dict[str, dict[str, ParamRange]] = {
    agent: {r.name: r for r in ranges} for agent, ranges in {
        "ev": (
            ParamRange.make("pair_weight", "float", 0, 2),
            ParamRange.make("horizon", "float", 0, 8, 0.05),
            ParamRange.make("count_out", "bool"),
            ParamRange.make("out_margin", "float", -10, 10),
            ParamRange.make("watch_discard", "float", 0, 1.5),
        ),
        "greedy": (
            ParamRange.make("take_gain", "float", 0, 10, 0.1),
            ParamRange.make("fixed_hidden", "bool"),
            ParamRange.make("hidden_value", "float", 0, 10, 0.1),
            # -6 is below every card of every joker option: the tip is off
            ParamRange.make("blind_swap", "int", -6, 6),
        ),
        "pair-builder": (
            ParamRange.make("pairs_first", "bool"),
            # 16 is more than any two cards differ by: the tip is off
            ParamRange.make("keep_threshold", "int", 0, 16),
            ParamRange.make("lone_two", "bool"),
            ParamRange.make("take_gain", "float", 0, 10, 0.1),
        ),
        "mc": (
            ParamRange.make("samples", "int", 8, 512),
            ParamRange.make("rollout", "int", 0, 2),
            ParamRange.make("objective", "int", 0, 2),
            ParamRange.make("horizon", "int", 0, 30),
            ParamRange.make("confidence", "float", 0, 4, 0.05),
            ParamRange.make("halving", "int", 0, 4),
        ),
    }.items()
}
"""Search ranges of the shipped agents' parameters (kept here, not on their :class:`~golfsim.agents.base.Param`
declarations, so that tuning does not touch the agents' modules); a user agent declares its own on its ``Param``."""


def parse_param_ranges(text: str | None) -> dict[str, tuple[float, float, float | None] | None]:
    """Parse ``--params``: ``"watch_discard,take_gain=0:5,horizon=1:4:0.5"``.

    Returns
    -------
    dict
        Parameter name -> ``(low, high, step)`` (``step`` ``None`` when not given), or ``None`` to use the declared
        range, in the order given.
    """
    out: dict[str, tuple[float, float, float | None] | None] = {}
    for piece in (p.strip() for p in (text or "").split(",")):
        if not piece:
            continue
        name, eq, rng = piece.partition("=")
        name = name.strip()
        if not eq:
            out[name] = None
            continue
        parts = [p.strip() for p in rng.split(":")]
        try:
            numbers = [float(p) for p in parts]
        except ValueError:
            numbers = []
        if len(numbers) not in (2, 3):
            raise ValueError(f"parameter {name}: write a range as name=LOW:HIGH or name=LOW:HIGH:STEP, got {piece!r}")
        out[name] = (numbers[0], numbers[1], numbers[2] if len(numbers) == 3 else None)
    return out


def search_space(spec: AgentSpec, params=None, fixed=()) -> tuple[ParamRange, ...]:
    """The ranges searched for agent ``spec``.

    Parameters
    ----------
    spec : AgentSpec
        The agent.
    params : str or dict, optional
        Which parameters to search (``"watch_discard,take_gain=0:5"``, or the dict of
        :func:`parse_param_ranges`); default: every parameter that has a declared range and is not in ``fixed``.
    fixed : sequence of str
        Parameters left out of the default space (those set in the agent string).

    Raises
    ------
    ValueError
        For an agent without parameters, an unknown parameter, or a named parameter with no declared range and
        none given.
    """
    if not spec.params:
        raise ValueError(f"agent {spec.name!r} has no parameters to tune")
    wanted = parse_param_ranges(params) if isinstance(params, str) or params is None else dict(params)
    by_name = {p.name: p for p in spec.params}
    for name in wanted:
        if name not in by_name:
            raise ValueError(f"agent {spec.name!r} has no parameter {name!r}; its parameters: {', '.join(by_name)}")
    declared = {}
    for p in spec.params:
        if p.kind == "bool" or (p.low is not None and p.high is not None):
            declared[p.name] = ParamRange.make(p.name, p.kind, p.low, p.high)
        elif p.name in BUILT_IN_RANGES.get(spec.name, {}):
            declared[p.name] = BUILT_IN_RANGES[spec.name][p.name]
    if not wanted:
        declared = {name: r for name, r in declared.items() if name not in set(fixed)}
        if not declared:
            left = "is left to search once the agent string fixes some" if fixed else "declares a range"
            raise ValueError(f"agent {spec.name!r}: no parameter {left}; name the parameters to tune with ranges, "
                             f"e.g. --params {spec.params[0].name}=LOW:HIGH")
        return tuple(declared[p.name] for p in spec.params if p.name in declared)
    space = []
    for name, given in wanted.items():
        if given is not None:
            kind = declared[name].kind if name in declared else "float"
            if kind == "bool":
                kind = "int"
            space.append(ParamRange.make(name, kind, given[0], given[1], given[2] if kind == "float" else None))
        elif name in declared:
            space.append(declared[name])
        else:
            raise ValueError(f"agent {spec.name!r}: parameter {name!r} declares no range; give one, e.g. "
                             f"--params {name}=LOW:HIGH")
    return tuple(space)


def agent_string(choice: AgentChoice) -> str:
    """The agent as a command-line string: its name and every parameter that differs from the default
    (``"ev:watch_discard=0.31,horizon=3"``); :func:`golfsim.agents.base.parse_agent` reads it back."""
    changed = [f"{p.name}={_number(v)}" for p, v in zip(choice.spec.params, choice.values, strict=True)
               if v != p.default]
    return choice.spec.name + (":" + ",".join(changed) if changed else "")


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


# ---------------------------------------------------------------- one evaluation
def field_lead(candidate, against, rules: Rules, games: int, seed: int, *, threads: int | None = None,
               progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The candidate's lead over the field in every deal set, in points per ``rules.holes``-hole game.

    For each agent of ``against``, the candidate sits at a table with that agent in every other seat, played in
    all cyclic seat rotations on the deal sets of ``seed`` (duplicate deals). Per deal set, the lead is the
    candidate's mean total minus the mean total of the other seats; the leads against the field agents are
    averaged. Negative leads mean the candidate scored lower (better).

    Parameters
    ----------
    candidate : str or AgentChoice
        The agent evaluated.
    against : sequence of str or AgentChoice
        The field.
    rules : Rules
        The rules; ``rules.players`` seats per table.
    games : int
        Deal sets.
    seed : int
        Seed of the deals (and, derived from it, of the agents' own streams).
    threads : int, optional
        Threads of the simulator; results do not depend on it.
    progress : callable, optional
        Called as ``progress(games_done, games_total)`` after each simulator call of each table.

    Returns
    -------
    numpy.ndarray
        ``float64[games]``, the lead in each deal set.

    Raises
    ------
    KeyboardInterrupt
        When interrupted before every deal set was played (nothing partial is returned).
    """
    from golfsim.tournament import run_tournament

    candidate = parse_agent(candidate)
    field_choices = [parse_agent(a) for a in against]
    players = rules.players
    leads = np.zeros(games)
    per_table = players * games
    for i, opponent in enumerate(field_choices):
        def report(done, total, base=i * per_table):
            if progress is not None:
                progress(base + done, len(field_choices) * per_table)

        res = run_tournament([candidate] + [opponent] * (players - 1), rules, games, seed, schedule="table",
                             seating="rotations", threads=threads, progress=report)
        if res.partial or res.deal_sets < games:
            raise KeyboardInterrupt
        played = res.games
        mine = (played["agent"] == res.labels[0]).to_numpy()
        own = played.loc[mine].groupby("game")["total"].mean()
        others = played.loc[~mine].groupby("game")["total"].mean()
        leads += (own - others).reindex(np.arange(games)).to_numpy(np.float64)
    return leads / len(field_choices)


def _interval(sample: np.ndarray, confidence: float) -> dict:
    mean, low, high = stats.mean_ci(sample, confidence)
    return {"mean": mean, "low": low, "high": high, "deal_sets": int(sample.size)}


# ---------------------------------------------------------------- the result
@dataclass
class TuningResult:
    """A study: its trials, the winner, and the winner replayed on fresh deals.

    Attributes
    ----------
    agent : str
        The winning agent string, ready to paste (``"ev:watch_discard=0.31"``); the baseline's when no trial ran.
    baseline : str
        The agent as given (its defaults unless the agent string fixed some).
    best : dict or None
        The best trial: ``trial``, ``params`` (the searched values), ``objective`` (mean lead over the field on the
        tuning deals, points per game) with ``objective_low``/``objective_high``.
    trials : pandas.DataFrame
        One row per completed trial: ``trial``, one column per searched parameter, ``objective``,
        ``objective_low``, ``objective_high`` (the interval over the tuning deal sets), ``state`` and ``agent``.
    reevaluation : dict or None
        On fresh deals (``seed``, ``games``): ``winner_vs_field``, ``baseline_vs_field``, ``improvement``
        (winner minus baseline, paired by deal set) and ``winner_vs_baseline`` (the winner in one seat, the
        baseline in every other), each ``mean, low, high, deal_sets``; ``None`` when the study was interrupted.
    config : dict
        The request, rules, field, search space, seeds and versions (``config.json`` without the fingerprint).
    partial : bool
        True when interrupted: only the completed trials are kept.
    seconds : float
        Wall time, compile included.
    """

    agent: str
    baseline: str
    best: dict | None
    trials: pd.DataFrame
    reevaluation: dict | None
    config: dict
    partial: bool
    seconds: float

    @classmethod
    def read(cls, directory) -> TuningResult:
        """The study written by :meth:`write` into ``directory``."""
        d = Path(directory)
        doc = json.loads((d / CONFIG_FILE).read_text())
        added = ("partial", "trials_completed", "winner", "baseline", "best_trial", "reevaluation", "seconds",
                 "behaviour_fingerprint")
        return cls(agent=doc["winner"], baseline=doc["baseline"], best=doc["best_trial"],
                   trials=pd.read_csv(d / TRIALS_FILE), reevaluation=doc["reevaluation"],
                   config={k: v for k, v in doc.items() if k not in added}, partial=doc["partial"],
                   seconds=doc["seconds"])

    def to_dict(self) -> dict:
        """``config.json``'s content: the config with the winner, the best trial and the re-evaluation."""
        return {**self.config, "partial": self.partial, "trials_completed": int(len(self.trials)),
                "winner": self.agent, "baseline": self.baseline, "best_trial": self.best,
                "reevaluation": self.reevaluation, "seconds": round(self.seconds, 3)}

    def lines(self) -> list[str]:
        """What ``golfsim tune`` prints: the winner, its objective and the re-evaluation."""
        cfg = self.config
        unit = f"points per {cfg['rules']['holes']}-hole game"
        field_text = ",".join(cfg["against"])
        out = []
        if self.best is None:
            return [f"no trial completed; nothing to report for {self.baseline}"]
        b = self.best
        out.append(f"best of {len(self.trials)} trials: trial {b['trial']}, {self.agent}")
        out.append(f"  lead over the field ({field_text}) on the tuning deals (seed {cfg['seed']}, "
                   f"{cfg['games']:,} deal sets): {_ci_text(b['objective'], b['objective_low'], b['objective_high'])}"
                   f" {unit}; optimistic: the best of {len(self.trials)} noisy estimates")
        if self.reevaluation is not None:
            r = self.reevaluation
            out.append(f"re-evaluated on fresh deals (seed {r['seed']}, {r['games']:,} deal sets; lower is better; "
                       f"{round(100 * cfg['confidence'])}% intervals, {unit}):")
            for key, text in (("winner_vs_field", f"winner's lead over the field ({field_text})"),
                              ("baseline_vs_field", f"baseline {self.baseline}'s lead over the field"),
                              ("improvement", "winner minus baseline against the field"),
                              ("winner_vs_baseline", f"winner's lead over the baseline {self.baseline}")):
                v = r[key]
                out.append(f"  {text}: {_ci_text(v['mean'], v['low'], v['high'])}")
        out.append(f"agent string: {self.agent}")
        return out

    def plot(self):
        """The convergence figure: each trial's objective and the best so far, against the trial number."""
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator

        cfg = self.config
        fig, ax = plt.subplots(figsize=(8, 5.4))
        t = self.trials
        if len(t):
            ax.scatter(t["trial"], t["objective"], s=12, color="0.6", label="trial")
            ax.step(t["trial"], t["objective"].cummin(), where="post", color="C0", lw=2, label="best so far")
            ax.legend(loc="upper right")
            # A few disastrous settings would squash the best-so-far line: cut the axis above most trials.
            low = float(t["objective"].min())
            top = max(0.0, float(t["objective"].quantile(0.8)))
            span = max(top - low, 1e-9)
            above = t["objective"] > top + span
            if above.any():
                ax.set_ylim(low - 0.1 * span, top + span)
                ax.annotate(f"{int(above.sum())} trial(s) above the plot (worst {t['objective'].max():+.1f})",
                            xy=(0.01, 0.97), xycoords="axes fraction", va="top", fontsize=8)
        ax.axhline(0.0, color="0.3", lw=0.8, ls=":")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("trial")
        ax.set_ylabel(f"lead over the field\n(points per {cfg['rules']['holes']}-hole game; lower is better)")
        ax.set_title(f"golfsim tune {cfg['agent']} against {','.join(cfg['against'])}\n{cfg['rules_text']}",
                     fontsize=10)
        caption = (f"TPE (optuna), seed {cfg['seed']}; {len(t)} trials{' (partial)' if self.partial else ''}, each "
                   f"{cfg['games']:,} duplicate deal sets x {cfg['rules']['players']} seat rotations per field agent, "
                   "the same deals in every trial")
        if self.best is not None and self.reevaluation is not None:
            r = self.reevaluation
            v = r["winner_vs_baseline"]
            caption += (f"\nwinner (trial {self.best['trial']}): {self.agent}; on {r['games']:,} fresh deal sets its "
                        f"lead over {self.baseline} is {_ci_text(v['mean'], v['low'], v['high'])} "
                        f"({round(100 * cfg['confidence'])}% interval)")
        caption = "\n".join(textwrap.fill(part, 135) for part in caption.split("\n"))
        fig.text(0.01, 0.005, caption, fontsize=8, ha="left", va="bottom")
        fig.tight_layout(rect=(0, 0.01 + 0.03 * (1 + caption.count("\n")), 1, 1))
        return fig

    def write(self, directory, fingerprint: bool = True) -> list[Path]:
        """Write ``trials.csv``, ``convergence.png`` and ``config.json`` into ``directory`` (created if needed).

        ``config.json`` also records the behaviour fingerprint (:mod:`golfsim.runs.fingerprint`) of a complete
        study unless ``fingerprint`` is False; a partial one records ``null`` rather than make an interrupted run
        wait the minute or two the fingerprint's games take. Returns the paths written.
        """
        import matplotlib.pyplot as plt

        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        paths = [d / TRIALS_FILE, d / PLOT_FILE, d / CONFIG_FILE]
        self.trials.to_csv(paths[0], index=False)
        fig = self.plot()
        fig.savefig(paths[1], dpi=120)
        plt.close(fig)
        doc = self.to_dict()
        if fingerprint:
            from golfsim.runs.fingerprint import behaviour_fingerprint

            doc["behaviour_fingerprint"] = None if self.partial else behaviour_fingerprint()
        paths[2].write_text(json.dumps(doc, indent=2, allow_nan=False) + "\n")
        return paths


def _ci_text(mean, low, high) -> str:
    if low is None or not math.isfinite(low):
        return f"{mean:+.2f}"
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"


def _clean(v):
    return None if isinstance(v, float) and not math.isfinite(v) else v


# ---------------------------------------------------------------- progress
class _TrialProgress(CountBar):
    """A bar counting trials, with the best objective so far."""

    def __init__(self, total: int):
        super().__init__(total, "trials")

    def __call__(self, done: int, total: int, best: float | None, stage: str = "tuning") -> None:
        text = stage if best is None else f"{stage}, best {best:+.2f}"
        self.update(completed=done, total=total, description=text)


# ---------------------------------------------------------------- the study
def _derived_seed(seed: int, purpose: int, bits: int = 63) -> int:
    state = np.random.SeedSequence(entropy=int(seed), spawn_key=(purpose,)).generate_state(2, dtype=np.uint64)
    return int(state[0]) & ((1 << bits) - 1)


def _sampler_seed(seed: int, trial: int) -> int:
    ss = np.random.SeedSequence(entropy=int(seed), spawn_key=(2, int(trial)))
    return int(ss.generate_state(1, dtype=np.uint32)[0])


def _check_count(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise ValueError(f"{name} must be a whole number of at least 1, got {value!r}")
    return int(value)


def _compiled(choice: AgentChoice, role: str) -> AgentChoice:
    if not choice.spec.compiled:
        raise ValueError(f"{role} {choice.name!r} is a plain-Python agent; tuning plays compiled agents only")
    return choice


def _request(baseline: str, against: list[str], space, rules: Rules, games: int, eval_games: int, seed: int,
             startup_trials: int) -> dict:
    return {"experiment": f"tune {baseline}", "games": games, "seed": seed, "against": against,
            "params": [r.to_dict() for r in space], "rules": rules.to_dict(), "eval_games": eval_games,
            "startup_trials": startup_trials}


def _load_trials(directory: Path, request: dict, space) -> pd.DataFrame:
    """The completed trials of an earlier run of ``request`` in ``directory`` (for resuming)."""
    config_path = directory / CONFIG_FILE
    trials_path = directory / TRIALS_FILE
    if not config_path.is_file() or not trials_path.is_file():
        raise ValueError(f"nothing to resume in {str(directory)!r}: it holds no {CONFIG_FILE} and {TRIALS_FILE}")
    try:
        held = json.loads(config_path.read_text()).get("request")
    except (OSError, ValueError):
        held = None
    if held != request:
        raise ValueError(f"cannot resume from {str(directory)!r}: it holds a study of another request "
                         f"({(held or {}).get('experiment', 'unrecorded')}); give the same agent, field, parameters, "
                         "rules, games and seed, or another --out")
    table = pd.read_csv(trials_path)
    missing = [c for c in ["trial", "objective", *(r.name for r in space)] if c not in table.columns]
    if missing:
        raise ValueError(f"cannot resume from {str(trials_path)!r}: it has no column {missing[0]!r}")
    return table[table["state"] == "COMPLETE"].reset_index(drop=True)


def _set_in(agent, choice: AgentChoice) -> list[str]:
    """The parameters an agent string sets (``"ev:count_out=0"`` sets count_out); for an AgentChoice, those that
    differ from their defaults."""
    if isinstance(agent, str):
        return [item.partition("=")[0].strip() for item in agent.partition(":")[2].split(",") if "=" in item]
    return [p.name for p, v in zip(choice.spec.params, choice.values, strict=True) if v != p.default]


def _import_optuna():
    try:
        import optuna
    except ImportError:
        raise ValueError("tuning needs optuna, which is not installed: pip install 'golfsim[tune]'") from None
    return optuna


@dataclass(frozen=True)
class _Plan:
    base: AgentChoice
    baseline: str
    space: tuple[ParamRange, ...]
    field: list[AgentChoice]
    rules: Rules
    request: dict


def _plan(agent, against, rules, games, seed, params, eval_games, startup_trials) -> _Plan:
    base = _compiled(parse_agent(agent), "agent")
    space = search_space(base.spec, params, fixed=_set_in(agent, base))
    if against is None:
        against = [agent_string(base)]
    elif isinstance(against, str):
        against = split_agents(against)
    field_choices = [_compiled(parse_agent(a), "field agent") for a in against]
    if not field_choices:
        raise ValueError("the field is empty; name at least one agent to play against, e.g. --against ev")
    rules = Rules(players=2) if rules is None else rules
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golfsim Rules object, got {type(rules).__name__}")
    games = _check_count("games", games)
    eval_games = games if eval_games is None else _check_count("eval_games", eval_games)
    startup_trials = _check_count("startup_trials", startup_trials)
    seed = check_seed(seed)
    baseline = agent_string(base)
    request = _request(baseline, [agent_string(c) for c in field_choices], space, rules, games, eval_games, seed,
                       startup_trials)
    return _Plan(base, baseline, space, field_choices, rules, request)


def plan_request(agent, against=None, rules: Rules | None = None, games: int = 400, seed: int = 0, *, params=None,
                 eval_games: int | None = None, startup_trials: int = 10) -> dict:
    """What :func:`tune` would be asked (``config.json``'s ``"request"``), checked as :func:`tune` checks it: the
    same request gives the same study, so a directory holding another is not silently replaced
    (:func:`golfsim.runs.claims.check_target`). The number of trials is not part of it: a longer run of the same
    request extends the same study.

    Raises
    ------
    ValueError
        For the bad input :func:`tune` refuses.
    """
    return _plan(agent, against, rules, games, seed, params, eval_games, startup_trials).request


def tune(agent, against=None, rules: Rules | None = None, trials: int = 100, games: int = 400, seed: int = 0, *,
         params=None, eval_games: int | None = None, startup_trials: int = 10, threads: int | None = None,
         confidence: float = 0.95, progress: bool | Callable[[int, int, float | None], None] = False,
         resume=None) -> TuningResult:
    """Tune an agent's parameters with optuna's TPE sampler on duplicate deals against a field.

    Parameters
    ----------
    agent : str or AgentChoice
        The agent to tune; parameters set in the string (``"ev:count_out=0"``) are the baseline's and stay fixed
        unless searched.
    against : str or sequence of str, optional
        The field (``"ev,greedy"``); default: the agent as given.
    rules : Rules, optional
        The rules; ``rules.players`` seats per table. Default: the published game at 2 players.
    trials : int
        Trials of the study (including resumed ones).
    games : int
        Duplicate deal sets per trial (per field agent, each played in all seat rotations).
    seed : int
        Seeds the deals of every trial, the sampler, and (derived from it) the fresh deals of the re-evaluation.
    params : str or dict, optional
        The parameters searched, with optional ranges: ``"watch_discard,take_gain=0:5,horizon=1:4:0.5"``.
        Default: every parameter with a declared range (:func:`search_space`).
    eval_games : int, optional
        Deal sets of the re-evaluation (default ``games``).
    startup_trials : int
        Trials drawn at random before TPE models the results.
    threads : int, optional
        Simulator threads; results do not depend on it.
    confidence : float
        Level of the intervals (default 0.95).
    progress : bool or callable
        ``True`` shows a rich progress bar on stderr; a callable is called as ``progress(trials_done,
        trials_total, best_objective)`` after each trial (raise ``KeyboardInterrupt`` from it to stop).
    resume : str or Path, optional
        A directory written by an earlier, interrupted or shorter run of the same request: its completed trials
        are taken as they are and the study continues from there.

    Returns
    -------
    TuningResult
        The trials, the winner and its re-evaluation; ``write(directory)`` saves them.

    Raises
    ------
    ValueError
        For an unknown agent or parameter, an agent with no parameters, a plain-Python agent, an empty or unknown
        field, a bad range, a non-positive ``trials``, ``games`` or ``eval_games``, or a ``resume`` directory that
        holds another request.

    Examples
    --------
    >>> res = tune("ev", against="ev,greedy", rules=Rules(players=2), trials=50, games=400,
    ...            params="watch_discard,horizon")  # doctest: +SKIP
    >>> res.agent, res.reevaluation["winner_vs_baseline"]  # doctest: +SKIP
    """
    optuna = _import_optuna()
    from optuna.trial import TrialState, create_trial

    start = time.perf_counter()
    plan = _plan(agent, against, rules, games, seed, params, eval_games, startup_trials)
    base, space, field_choices, rules, request = plan.base, plan.space, plan.field, plan.rules, plan.request
    eval_games, field_strings, baseline = request["eval_games"], request["against"], plan.baseline
    trials = _check_count("trials", trials)
    stats._check_confidence(confidence)
    fresh_seed = _derived_seed(seed, 1)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    distributions = {r.name: r.distribution() for r in space}
    study = optuna.create_study(direction="minimize")
    rows: list[dict] = []
    if resume is not None:
        for row in _load_trials(Path(resume), request, space).to_dict("records")[:trials]:
            raw = {r.name: r.raw(float(row[r.name])) for r in space}
            study.add_trial(create_trial(params=raw, distributions=distributions, value=float(row["objective"])))
            rows.append({k: _clean(row[k]) for k in ("trial", *(r.name for r in space), "objective",
                                                     "objective_low", "objective_high", "state", "agent")})

    # Trial 0 plays the baseline when its values lie in the space, so the winner is never worse than it on the
    # tuning deals.
    start_raw = {r.name: r.raw(v) for r, v in ((r, base.param_dict()[r.name]) for r in space)}
    if any(not r.low <= base.param_dict()[r.name] <= r.high or r.value(start_raw[r.name]) != base.param_dict()[r.name]
           for r in space):
        start_raw = None

    def choice_for(values: dict) -> AgentChoice:
        merged = dict(zip((p.name for p in base.spec.params), base.values, strict=True)) | values
        return AgentChoice(base.spec, tuple(float(merged[p.name]) for p in base.spec.params))

    reporter = _TrialProgress(trials + 1) if progress is True else None
    callback = reporter if reporter is not None else progress if callable(progress) else None
    interrupted = False
    reevaluation = None
    best_value = min((r["objective"] for r in rows), default=None)
    try:
        if reporter is not None:
            reporter.__enter__()
            if rows:
                reporter(len(rows), trials + 1, best_value)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            for n in range(len(rows), trials):
                study.sampler = optuna.samplers.TPESampler(seed=_sampler_seed(seed, n),
                                                           n_startup_trials=startup_trials)
                if n == 0 and start_raw is not None:
                    study.enqueue_trial(start_raw)
                trial = study.ask(distributions)
                values = {r.name: r.value(trial.params[r.name]) for r in space}
                candidate = choice_for(values)
                try:
                    leads = field_lead(candidate, field_choices, rules, games, seed, threads=threads)
                except KeyboardInterrupt:
                    study.tell(trial, state=TrialState.FAIL)
                    raise
                ci = _interval(leads, confidence)
                study.tell(trial, ci["mean"])
                rows.append({"trial": n, **values, "objective": ci["mean"], "objective_low": _clean(ci["low"]),
                             "objective_high": _clean(ci["high"]), "state": "COMPLETE",
                             "agent": agent_string(candidate)})
                best_value = ci["mean"] if best_value is None else min(best_value, ci["mean"])
                if callback is not None:
                    callback(len(rows), trials + 1 if reporter is not None else trials, best_value)
        if rows:
            if reporter is not None:
                reporter(len(rows), trials + 1, best_value, "re-evaluating")
            best_row = min(rows, key=lambda r: (r["objective"], r["trial"]))
            winner = choice_for({r.name: best_row[r.name] for r in space})
            reevaluation = _reevaluate(winner, base, field_choices, rules, eval_games, fresh_seed, threads,
                                       confidence)
            if reporter is not None:
                reporter(trials + 1, trials + 1, best_value, "done")
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if reporter is not None:
            reporter.__exit__(None, None, None)

    columns = ["trial", *(r.name for r in space), "objective", "objective_low", "objective_high", "state", "agent"]
    table = pd.DataFrame(rows, columns=columns)
    best = None
    winner_string = baseline
    if rows:
        best_row = min(rows, key=lambda r: (r["objective"], r["trial"]))
        best = {"trial": int(best_row["trial"]), "params": {r.name: best_row[r.name] for r in space},
                "objective": best_row["objective"], "objective_low": best_row["objective_low"],
                "objective_high": best_row["objective_high"]}
        winner_string = best_row["agent"]
    config = {
        "golfsim_version": golfsim.__version__,
        "request": request,
        "agent": baseline,
        "against": field_strings,
        "search_space": [r.to_dict() for r in space],
        "fixed": {p.name: v for p, v in zip(base.spec.params, base.values, strict=True)
                  if p.name not in {r.name for r in space}},
        "players": rules.players,
        "rules": rules.to_dict(),
        "rules_text": rules.describe(),
        "trials": trials,
        "games": games,
        "games_meaning": "duplicate deal sets per trial and field agent; each is played in all cyclic seat "
                         "rotations of a table with the candidate in one seat and the field agent in the others",
        "objective": "mean over deal sets of the candidate's total minus the mean total of the other seats, "
                     "averaged over the field; points per game, lower is better",
        "seed": seed,
        "deal_rule": "every trial plays the deal sets of `seed` (golfsim.tournament.run_tournament, schedule "
                     "table, seating rotations), so trials are compared on identical deals",
        "sampler": f"optuna {optuna.__version__} TPESampler, n_startup_trials={startup_trials}; trial n's sampler "
                   "seeded from numpy SeedSequence(entropy=seed, spawn_key=(2, n))",
        "trial_0": "the baseline" if start_raw is not None else "sampled (the baseline lies outside the space)",
        "eval_games": eval_games,
        "eval_seed": fresh_seed,
        "eval_seed_rule": "numpy SeedSequence(entropy=seed, spawn_key=(1,)), 63 bits: fresh deals",
        "confidence": confidence,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "command": _command(baseline, field_strings, space, rules, trials, games, eval_games, seed,
                            startup_trials),
    }
    return TuningResult(agent=winner_string, baseline=baseline, best=best, trials=table,
                        reevaluation=None if interrupted else reevaluation, config=config, partial=interrupted,
                        seconds=time.perf_counter() - start)


def _reevaluate(winner: AgentChoice, base: AgentChoice, field_choices: Sequence[AgentChoice], rules: Rules,
                games: int, seed: int, threads, confidence: float) -> dict:
    win = field_lead(winner, field_choices, rules, games, seed, threads=threads)
    held = field_lead(base, field_choices, rules, games, seed, threads=threads)
    direct = field_lead(winner, [base], rules, games, seed, threads=threads)
    out = {"seed": seed, "games": games, "winner": agent_string(winner), "baseline": agent_string(base),
           "winner_vs_field": _interval(win, confidence), "baseline_vs_field": _interval(held, confidence),
           "improvement": _interval(win - held, confidence), "winner_vs_baseline": _interval(direct, confidence)}
    for key in ("winner_vs_field", "baseline_vs_field", "improvement", "winner_vs_baseline"):
        out[key] = {k: _clean(v) for k, v in out[key].items()}
    return out


def _command(baseline, field_strings, space, rules: Rules, trials, games, eval_games, seed, startup_trials) -> str:
    ranges = ",".join(f"{r.name}" if r.kind == "bool" else
                      f"{r.name}={_number(r.low)}:{_number(r.high)}" + (f":{_number(r.step)}" if r.kind == "float"
                                                                        else "") for r in space)
    cmd = ["golfsim", "tune", baseline, "--against", ",".join(field_strings), "--params", ranges,
           "--players", str(rules.players), "--trials", str(trials), "--games", str(games), "--eval-games",
           str(eval_games), "--seed", str(seed)]
    if startup_trials != 10:
        cmd += ["--startup-trials", str(startup_trials)]
    return shlex.join(cmd + rule_flags(rules))

