"""A study's result: the trials, the winner, its re-evaluation; what ``golfsim tune`` prints, the convergence
figure and the files it writes."""

from __future__ import annotations

import json
import math
import os
import tempfile
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from golfsim.atomic import replace_file

TRIALS_FILE = "trials.csv"
CONFIG_FILE = "config.json"
PLOT_FILE = "convergence.png"


@dataclass
class TuningResult:
    """A study: its trials, the winner, and the winner replayed on fresh deals.

    Attributes
    ----------
    agent : str
        The best trial's agent string (``"ev:watch_discard=0.31"``); the baseline's when no trial ran. It is only
        recommended when it beats the baseline on fresh deals
        ([`recommended`][golfsim.tuning.report.TuningResult.recommended]).
    baseline : str
        The agent as given (its defaults unless the agent string fixed some).
    best : dict or None
        The best trial: ``trial``, ``params`` (the searched values), ``objective`` (mean score relative to the
        field on the tuning deals, points per game; negative is better) with ``objective_low``/``objective_high``.
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
        """The study written by [`write`][golfsim.tuning.report.TuningResult.write] into ``directory``."""
        d = Path(directory)
        doc = json.loads((d / CONFIG_FILE).read_text())
        added = ("partial", "trials_completed", "winner", "baseline", "best_trial", "reevaluation", "seconds",
                 "behaviour_fingerprint", "recommended")
        return cls(agent=doc["winner"], baseline=doc["baseline"], best=doc["best_trial"],
                   trials=pd.read_csv(d / TRIALS_FILE), reevaluation=doc["reevaluation"],
                   config={k: v for k, v in doc.items() if k not in added}, partial=doc["partial"],
                   seconds=doc["seconds"])

    @property
    def recommended(self) -> str | None:
        """The winner's agent string when the re-evaluation on fresh deals shows it beats the baseline: its score
        relative to the field minus the baseline's, paired by deal set, has an interval entirely below zero. Else
        ``None`` (no parameters beat the defaults, or the study was interrupted before its re-evaluation)."""
        if self.reevaluation is None or self.best is None:
            return None
        high = self.reevaluation["improvement"]["high"]
        return self.agent if high is not None and math.isfinite(high) and high < 0 else None

    def to_dict(self) -> dict:
        """``config.json``'s content: the config with the winner, the best trial, the re-evaluation and the
        recommendation."""
        return {**self.config, "partial": self.partial, "trials_completed": int(len(self.trials)),
                "winner": self.agent, "baseline": self.baseline, "best_trial": self.best,
                "reevaluation": self.reevaluation, "recommended": self.recommended,
                "seconds": round(self.seconds, 3)}

    def lines(self) -> list[str]:
        """What ``golfsim tune`` prints: the winner, its objective, the re-evaluation and the recommendation (an
        agent string only when it beats the baseline on fresh deals)."""
        cfg = self.config
        unit = f"points per {cfg['rules']['holes']}-hole game"
        field_text = ",".join(cfg["against"])
        out = []
        if self.best is None:
            return [f"no trial completed; nothing to report for {self.baseline}"]
        b = self.best
        out.append(f"best of {len(self.trials)} trials: trial {b['trial']}, {self.agent}")
        out.append(f"  score relative to the field ({field_text}) on the tuning deals (seed {cfg['seed']}, "
                   f"{cfg['games']:,} deal sets): {_ci_text(b['objective'], b['objective_low'], b['objective_high'])}"
                   f" {unit}; optimistic: the best of {len(self.trials)} noisy estimates")
        if self.reevaluation is None:
            out.append("not re-evaluated (the study was interrupted), so nothing is recommended yet; --resume "
                       "finishes it")
            return out
        r = self.reevaluation
        out.append(f"re-evaluated on fresh deals (seed {r['seed']}, {r['games']:,} deal sets; "
                   f"{round(100 * cfg['confidence'])}% intervals, {unit}; negative = fewer points, which is better):")
        for key, text in (("winner_vs_field", f"winner relative to the field ({field_text})"),
                          ("baseline_vs_field", f"baseline {self.baseline} relative to the field"),
                          ("improvement", "winner minus baseline, against the field"),
                          ("winner_vs_baseline", f"winner relative to the baseline {self.baseline} at one table")):
            v = r[key]
            out.append(f"  {text}: {_ci_text(v['mean'], v['low'], v['high'])}")
        v = r["improvement"]
        gain = _ci_text(v["mean"], v["low"], v["high"])
        if self.recommended is not None:
            out.append(f"recommended: it scores {gain} {unit} against the field compared with {self.baseline}, "
                       "an interval below zero")
            out.append(f"agent string: {self.recommended}")
        else:
            out.append(f"no parameters beat the defaults: the winner minus {self.baseline} on fresh deals is {gain} "
                       f"{unit}, an interval that does not lie below zero; keep {self.baseline}")
        return out

    def plot(self):
        """The convergence figure: each trial's objective and the best so far, against the trial number."""
        from matplotlib.ticker import MaxNLocator

        from golfsim.runs.figures import subplots

        cfg = self.config
        fig, ax = subplots(figsize=(8, 5.4))
        t = self.trials
        cut = ""
        if len(t):
            low = t["objective_low"].astype(float).fillna(t["objective"])
            high = t["objective_high"].astype(float).fillna(t["objective"])
            ax.errorbar(t["trial"], t["objective"], yerr=[t["objective"] - low, high - t["objective"]], fmt="o",
                        markersize=3, color="0.6", ecolor="0.8", elinewidth=0.8,
                        label=f"trial ({round(100 * cfg['confidence'])}% interval over its deal sets)")
            ax.step(t["trial"], t["objective"].cummin(), where="post", color="C0", lw=2, label="best so far")
            ax.legend(loc="upper right")
            # A few disastrous settings would squash the best-so-far line: cut the axis above most trials.
            low = float(t["objective"].min())
            top = max(0.0, float(t["objective"].quantile(0.8)))
            span = max(top - low, 1e-9)
            above = t["objective"] > top + span
            if above.any():
                ax.set_ylim(low - 0.1 * span, top + span)
                cut = f"; {int(above.sum())} trial(s) above the plot (worst {t['objective'].max():+.1f})"
        ax.axhline(0.0, color="0.3", lw=0.8, ls=":")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("trial")
        ax.set_ylabel(f"score relative to the field\n(points per {cfg['rules']['holes']}-hole game; "
                      "negative = fewer, better)")
        title = (f"golfsim tune {cfg['agent']}: each trial's parameters against {','.join(cfg['against'])}\n"
                 f"{cfg['rules_text']}, duplicate deals")
        caption = (f"TPE (optuna), seed {cfg['seed']}; {len(t)} trials{' (partial)' if self.partial else ''}, each "
                   f"{cfg['games']:,} duplicate deal sets x {cfg['rules']['players']} seat rotations per field agent, "
                   f"the same deals in every trial{cut}")
        if self.best is not None and self.reevaluation is not None:
            r = self.reevaluation
            v = r["winner_vs_baseline"]
            caption += (f"\nwinner (trial {self.best['trial']}): {self.agent}; on {r['games']:,} fresh deal sets its "
                        f"score relative to {self.baseline} is {_ci_text(v['mean'], v['low'], v['high'])} "
                        f"({round(100 * cfg['confidence'])}% interval); "
                        + ("recommended" if self.recommended else "not recommended: no parameters beat the defaults"))
        caption = "\n".join(textwrap.fill(part, 135) for part in caption.split("\n"))
        fig.text(0.01, 0.005, caption, fontsize=8, ha="left", va="bottom")
        from golfsim.runs.figures import fit_title

        for _ in range(2):
            fit_title(ax, title, fontsize=10)
            fig.tight_layout(rect=(0, 0.01 + 0.03 * (1 + caption.count("\n")), 1, 1))
        return fig

    def write(self, directory, fingerprint: bool = True) -> list[Path]:
        """Write ``trials.csv``, ``convergence.png`` and ``config.json`` into ``directory`` (created if needed).

        The three are written to a temporary directory beside it and then renamed into place, so a stop or a full
        disk part-way leaves the earlier files whole (and the study's ``study.db``, which this does not touch).
        ``config.json`` also records the behaviour fingerprint ([`golfsim.runs.fingerprint`][]) of a complete
        study unless ``fingerprint`` is False; a partial one records ``null`` rather than make an interrupted run
        wait the minute or two the fingerprint's games take. Returns the paths written.
        """
        from golfsim.runs.outdir import write_directory

        doc = self.to_dict()
        if fingerprint:
            from golfsim.runs.fingerprint import behaviour_fingerprint

            doc["behaviour_fingerprint"] = None if self.partial else behaviour_fingerprint()

        def fill(staging: Path) -> list[Path]:
            return [_write_trials(self.trials, staging / TRIALS_FILE), _write_figure(self, staging / PLOT_FILE),
                    _write_config(doc, staging / CONFIG_FILE)]

        return write_directory(directory, fill)

    def write_config(self, directory) -> Path:
        """Write ``config.json`` alone (atomically): the marker a study writes before its first trial."""
        Path(directory).mkdir(parents=True, exist_ok=True)
        return _atomic_text(Path(directory) / CONFIG_FILE, _config_text(self.to_dict()))


def _config_text(doc: dict) -> str:
    return json.dumps(doc, indent=2, allow_nan=False) + "\n"


def _atomic_text(path: Path, text: str) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        replace_file(tmp, path, "the study's file")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def _write_trials(trials: pd.DataFrame, path: Path) -> Path:
    trials.to_csv(path, index=False)
    return path


def _write_figure(result: TuningResult, path: Path) -> Path:
    result.plot().savefig(path, dpi=120)
    return path


def _write_config(doc: dict, path: Path) -> Path:
    path.write_text(_config_text(doc))
    return path


def _ci_text(mean, low, high) -> str:
    if low is None or not math.isfinite(low):
        return f"{mean:+.2f}"
    return f"{mean:+.2f} [{low:+.2f}, {high:+.2f}]"
