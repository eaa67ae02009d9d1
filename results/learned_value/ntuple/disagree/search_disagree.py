"""Where mc on model 2 disagrees with model 2 alone, and what its move wins with model 2 playing on.

Plays learned:model=2 against ev (duplicate deal sets, both seat orders, seed 4040) with a decision log, asks mc
(model 2 as base and rollout player) in every state where learned decided, and prices each move mc would change
with golfsim.logs.disagree.disagreements (both moves played out by model 2 at every seat, same cards and streams).
From this folder (END immediate or one_last_turn; the tables go to the folder named END)::

    python search_disagree.py 1000 END END
"""
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from golfsim.core.rules import Rules
from golfsim.logs.disagree import disagreements, summarise
from golfsim.logs.trace import read_log
from golfsim.tournament import run_tournament

deal_sets, end, out = int(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
BASE = "learned:model=2"
MC = "mc:base=(learned:model=2),rollout=(learned:model=2)"
SEED = 4040
rules = Rules(end=end)
out.mkdir(parents=True, exist_ok=True)
start = time.time()
with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "log.parquet"
    run_tournament([BASE, "ev"], rules, games=deal_sets, seed=SEED, log=path, threads=1)
    log = read_log(path)
    found = disagreements(log, agent=BASE, other=MC, continuation=BASE)
    deal_set_of = log.frame().groupby("game")["deal_set"].first()
decisions = int(found.attrs["decisions"])
games = 2 * deal_sets
costs = found["cost"].to_numpy(dtype=float)
per_game = costs.sum() / games
# the two games of a deal set share their cards, so the interval is over deal sets (a set's cost summed over its
# two games, halved: per game), not over moves or games
found["deal_set"] = found["game"].map(deal_set_of).astype(int)
by_set = found.groupby("deal_set")["cost"].sum().reindex(range(deal_sets), fill_value=0.0).to_numpy(dtype=float) / 2
half = 1.96 * by_set.std(ddof=1) / np.sqrt(deal_sets)
summary = {"deal_sets": deal_sets, "games": games, "end": end, "seed": SEED, "base": BASE, "asked": MC,
           "opponent": "ev", "decisions": decisions, "disagreements": len(found),
           "disagreement_share": len(found) / max(decisions, 1),
           "mean_cost_per_disagreement": float(costs.mean()) if len(costs) else None,
           "cost_per_game": per_game, "cost_per_game_95": [per_game - half, per_game + half],
           "seconds": round(time.time() - start)}
summarise(found).to_csv(out / "table.csv", index=False)
found.to_csv(out / "disagreements.csv", index=False)
(out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
print(json.dumps(summary, indent=2))
print(summarise(found).head(12).to_string())
