"""The compiled kernels are cached on disk and reused: a second process compiles nothing.

Speed is measured by ``golfsim bench``, never by timed tests; this checks the structural half of "later runs load
from the cache": Numba's own per-dispatcher statistics of cache hits and misses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

PROGRAM = """
import json
from agents.dispatch import EV_ID, PAIR_BUILDER_ID, entry_point
from golfsim.rules import Rules
from golfsim.simulate import play_games, simulate

simulate(["greedy", "ev", "random", "pair-builder"], Rules(players=4, holes=2), games=3)
report = {}
for name, dispatcher in [("kernel", play_games), ("ev", entry_point(EV_ID)),
                         ("pair-builder", entry_point(PAIR_BUILDER_ID))]:
    stats = dispatcher.stats
    report[name] = {"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}
print(json.dumps(report))
"""


def run_in_new_process() -> dict:
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=dict(os.environ),
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_process_loads_the_kernel_and_agents_from_the_cache():
    run_in_new_process()  # compiles whatever this cache directory does not hold yet
    again = run_in_new_process()
    for name, counts in again.items():
        assert counts == {"hits": 1, "misses": 0}, f"{name} was compiled again instead of loaded: {counts}"
