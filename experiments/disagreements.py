"""Where greedy and ev disagree, and what it costs: the table ``notebooks/decision_logs.ipynb`` opens on.

``python -m golfsim.experiments.disagreements [--deal-sets N]`` plays ``ev`` against ``greedy`` with a decision log
(``N`` duplicate deal sets, both seat orders, seed 0), prices every decision of ``ev`` where ``greedy`` would have
moved differently (:func:`golfsim.logs.disagree.disagreements`, continuation ``ev``) and writes
``results/disagreements/``: ``table.csv`` (one row per disagreement), ``standings.csv`` (the tournament's
standings) and ``decisions.csv`` (the log's decisions per agent and phase). Not a ``golfsim experiment``: it
exists so the notebook need not play 2,000 games to open.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from golfsim.experiments.common import ExperimentOutput, base_config

NAME = "disagreements"
DEAL_SETS = 1000


def run(deal_sets: int = DEAL_SETS, seed: int = 0, threads: int | None = 1) -> ExperimentOutput:
    """Play the logged tournament and price the disagreements (see the module docstring)."""
    from golfsim.core.rules import Rules
    from golfsim.logs.disagree import disagreements
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
                         continuation="ev", log_rows=rows, decisions=int(found.attrs["decisions"]))
    config["command"] = f"python -m golfsim.experiments.disagreements --deal-sets {deal_sets}"
    notes = [f"{deal_sets:,} duplicate deal sets x 2 seat orders of ev against greedy, default rules, seed {seed}; "
             f"every decision of ev replayed on its logged deal and greedy asked in the same state.",
             "cost: greedy's move minus ev's move in the mover's deal score, the rest of the deal finished by ev at "
             "every seat on the same cards and random streams (positive: greedy's move does worse)."]
    return ExperimentOutput(name=NAME, table=found.reset_index(drop=True), config=config, notes=notes,
                            extra_tables={"standings": result.standings,
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
