"""Where greedy and ev disagree, and what it costs: the table ``notebooks/decision_logs.ipynb`` opens on.

``python -m golfsim.experiments.disagreements [--deal-sets N]`` plays ``ev`` against ``greedy`` with a decision log
(``N`` duplicate deal sets, both seat orders, seed 0), prices every decision of ``ev`` where ``greedy`` would have
moved differently ([`golfsim.logs.disagree.disagreements`][], continuation ``ev``) and writes
``results/disagreements/``: ``table.csv`` (the disagreements by phase and kind of move,
[`golfsim.logs.disagree.summarise`][]), ``takes_by_rank.csv`` and ``middling.csv`` (the costliest kind, greedy taking
the discard where ev draws, by the rank taken; and for a 3 to 7), ``standings.csv`` (the tournament's standings) and
``decisions.csv`` (the log's decisions per agent and phase). The tables are what the notebook shows; the 47,000
single disagreements are not kept (2.6 MB). Not a ``golfsim experiment``: it exists so the notebook need not play
2,000 games to open.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from golfsim.experiments.common import ExperimentOutput, base_config

NAME = "disagreements"
DEAL_SETS = 1000
Z = 1.96  # 95% normal-approximation intervals


def takes(found: pd.DataFrame) -> pd.DataFrame:
    """The disagreements where ev draws from the stock at the start of a turn and greedy takes the discard."""
    return found[(found["phase"] == "start") & (found["kind"] == "draw") & (found["other_kind"] == "take")]


def takes_by_rank(found: pd.DataFrame, least: int = 5) -> pd.DataFrame:
    """Greedy's take of the discard where ev draws, by the rank taken (ranks seen at least ``least`` times): count,
    mean cost and its 95% interval."""
    by_rank = takes(found).groupby("discard_top")["cost"].agg(["size", "mean", "std"]).reset_index()
    by_rank = by_rank[by_rank["size"] >= least].reset_index(drop=True)
    half = Z * by_rank["std"].fillna(0) / np.sqrt(by_rank["size"])
    return pd.DataFrame({"discard_top": by_rank["discard_top"], "count": by_rank["size"], "mean_cost": by_rank["mean"],
                         "mean_cost_low": by_rank["mean"] - half, "mean_cost_high": by_rank["mean"] + half})


def middling(found: pd.DataFrame) -> pd.DataFrame:
    """One row on greedy taking a 3 to 7 where ev draws: how often, the share in which it replaces a face-up card,
    the median rank gap between the card replaced and the discard, and the mean cost with its 95% interval."""
    mid = takes(found)
    mid = mid[mid["discard_top"].between(3, 7)]
    face_up = mid[~mid["other_on_face_down"].astype(bool)]
    gap = (face_up["other_replaces"] - face_up["discard_top"]).median() if len(face_up) else float("nan")
    half = Z * mid["cost"].std() / np.sqrt(len(mid)) if len(mid) > 1 else float("nan")
    mean = mid["cost"].mean()
    return pd.DataFrame({"situations": [len(mid)], "face_up_share": [len(face_up) / max(len(mid), 1)],
                         "median_gap": [gap], "mean_cost": [mean], "mean_cost_low": [mean - half],
                         "mean_cost_high": [mean + half]})


def run(deal_sets: int = DEAL_SETS, seed: int = 0, threads: int | None = 1) -> ExperimentOutput:
    """Play the logged tournament and price the disagreements (see the module docstring)."""
    from golfsim.core.rules import Rules
    from golfsim.logs.disagree import disagreements, summarise
    from golfsim.logs.trace import read_log
    from golfsim.tournament import run_tournament

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ev_vs_greedy.parquet"
        result = run_tournament(["ev", "greedy"], Rules(), games=deal_sets, seed=seed, log=path, threads=threads)
        log = read_log(path)
        rows = log.meta["rows"]
        decisions = log.frame(filters=[("kind", "=", "decision")]).groupby(["agent", "phase"]).size()
        found = disagreements(log, agent="ev", other="greedy", continuation="ev")
    config = base_config(NAME, seed=seed, deal_sets=deal_sets, agents=["ev", "greedy"], other="greedy",
                         continuation="ev", log_rows=rows, decisions=int(found.attrs["decisions"]),
                         disagreements=len(found))
    config["command"] = f"python -m golfsim.experiments.disagreements --deal-sets {deal_sets}"
    notes = [f"{deal_sets:,} duplicate deal sets x 2 seat orders of ev against greedy, default rules, seed {seed}; "
             f"every decision of ev replayed on its logged deal and greedy asked in the same state.",
             "cost: greedy's move minus ev's move in the mover's deal score, the rest of the deal finished by ev at "
             "every seat on the same cards and random streams (positive: greedy's move does worse)."]
    return ExperimentOutput(name=NAME, table=summarise(found, Z), config=config, notes=notes,
                            extra_tables={"takes_by_rank": takes_by_rank(found), "middling": middling(found),
                                          "standings": result.standings,
                                          "decisions": decisions.rename("decisions").reset_index()})


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal-sets", type=int, default=DEAL_SETS)
    parser.add_argument("--out", type=Path, default=None, help="default: results/disagreements")
    args = parser.parse_args(argv)
    for path in run(args.deal_sets).write(args.out):
        print(path)


if __name__ == "__main__":
    main()
