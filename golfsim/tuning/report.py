"""A study's result: the trials, the winner, its re-evaluation; what ``golfsim tune`` prints, the convergence
figure and the files it writes."""

from __future__ import annotations

import json
import math
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

TRIALS_FILE = "trials.csv"
CONFIG_FILE = "config.json"
PLOT_FILE = "convergence.png"


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
