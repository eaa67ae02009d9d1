"""The compiled kernels are cached on disk and reused, and an edited source can never run stale cached code.

Speed is measured by ``golfsim bench``, never by timed tests; this checks the structural half of "later runs load
from the cache" (Numba's own per-dispatcher statistics of cache hits and misses) and that the cache is keyed by the
sources: after an edit to ``engine.py`` a new process plays the edited rules.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from golfsim._numba.fence import INTERNALS
from golfsim._numba.jit import CACHE_DIR, PACKAGES, cache_parent, source_key

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import json
from golfsim.agents import parse_agent
from golfsim.agents.dispatch import pointer_function
from golfsim.core.rules import Rules
from golfsim.kernels.self_play import play_games_greedy_compact, play_games_random_compact
from golfsim.kernels.simulate import play_games, simulate

simulate(["greedy", "ev", "random", "pair-builder"], Rules(players=4, holes=2), games=3)
simulate(["greedy", "greedy"], Rules(holes=2), games=3)
simulate(["random", "random"], Rules(holes=2), games=3)
report = {}
packed = Rules(players=4).pack()
for name, dispatcher in [("kernel", play_games), ("ev", pointer_function(parse_agent("ev").spec, packed)),
                         ("pair-builder", pointer_function(parse_agent("pair-builder").spec, packed)),
                         ("greedy compact", play_games_greedy_compact),
                         ("random compact", play_games_random_compact)]:
    stats = dispatcher.stats
    report[name] = {"hits": sum(stats.cache_hits.values()), "misses": sum(stats.cache_misses.values())}
print(json.dumps(report))
"""


def run_in_new_process(program: str, cwd: Path | None = None, env: dict | None = None) -> str:
    environment = dict(os.environ) if env is None else env
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=environment,
                          timeout=600, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_a_second_process_loads_the_kernel_and_agents_from_the_cache():
    run_in_new_process(PROGRAM)  # compiles whatever this cache directory does not hold yet
    again = json.loads(run_in_new_process(PROGRAM))
    for name, counts in again.items():
        assert counts == {"hits": 1, "misses": 0}, f"{name} was compiled again instead of loaded: {counts}"


def test_the_cache_directory_is_named_by_a_hash_of_the_sources(tmp_path):
    for folder in PACKAGES:
        shutil.copytree(folder, tmp_path / folder.name, ignore=shutil.ignore_patterns("__pycache__"))
    copies = [tmp_path / folder.name for folder in PACKAGES]
    assert source_key(copies) == source_key()
    engine = tmp_path / "golfsim" / "core" / "engine.py"
    engine.write_text(engine.read_text() + "\n# an edit\n")
    assert source_key(copies) != source_key()
    public = "" if INTERNALS else "-public"  # the fallback's cache directory (golfsim._numba.jit)
    assert CACHE_DIR.parent == cache_parent() and CACHE_DIR.name == f"golfsim-{source_key()}{public}"


SCORE = """
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import simulate
print(simulate(["random", "random"], Rules(holes=1), games=20, seed=7, threads=1).players["total"].sum())
"""


@pytest.mark.slow
def test_an_edit_to_the_engine_is_played_by_the_next_process_without_clearing_the_cache(tmp_path):
    # a copy of the package, so that its engine can be edited; one cache shared by both runs
    for folder in PACKAGES:
        shutil.copytree(folder, tmp_path / folder.name, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONPATH=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    before = int(run_in_new_process(SCORE, cwd=tmp_path, env=env))
    engine = tmp_path / "golfsim" / "core" / "engine.py"
    source = engine.read_text()
    unpaired = "    return rules[R_POINTS + a] + rules[R_POINTS + b]\n"
    assert source.count(unpaired) == 1
    # every unpaired column scores 100 more: a leaf inlined into the cached kernel, the case Numba misses
    engine.write_text(source.replace(unpaired, "    return rules[R_POINTS + a] + rules[R_POINTS + b] + 100\n"))
    after = int(run_in_new_process(SCORE, cwd=tmp_path, env=env))
    assert after > before + 100 * 20
    assert len(list((tmp_path / "cache").glob("golfsim-*"))) == 2


LATER_KERNEL = """
import json
from golfsim.core.rules import Rules
from golfsim.kernels.simulate import play_game, simulate
scores = simulate(["greedy", "greedy"], Rules(discard_and_flip="may", holes=3), games=40, seed=11).players
print(json.dumps({"scores": scores["total"].tolist(), "game loop hits": sum(play_game.stats.cache_hits.values())}))
"""


@pytest.mark.slow
@pytest.mark.skipif(not INTERNALS, reason="checks the internals' inner compile linking a cached leaf in")
def test_a_kernel_compiled_later_from_cached_leaves_plays_as_one_compiled_from_scratch(tmp_path):
    # the general kernel caches the game loop (a leaf, kept as bitcode); greedy's self-play kernel for these rules
    # is compiled in a later process around the cached game loop, and must play exactly as a fresh compile does
    shared = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "shared"))
    run_in_new_process("from golfsim.kernels.simulate import simulate; "
                       "simulate(['random', 'greedy'], games=2); print('ok')",
                       env=shared)
    later = json.loads(run_in_new_process(LATER_KERNEL, env=shared))
    fresh = json.loads(run_in_new_process(LATER_KERNEL, env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "new"))))
    assert later["game loop hits"] == 1 and fresh["game loop hits"] == 0
    assert later["scores"] == fresh["scores"]


def test_cache_clear_removes_every_golfsim_cache_directory(tmp_path):
    cache = tmp_path / "cache"
    (cache / "golfsim-0123456789abcdef" / "x").mkdir(parents=True)
    (cache / "golfsim-0123456789abcdef" / "x" / "f.nbi").write_text("")
    (cache / "someone-else").mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done = subprocess.run([sys.executable, "-m", "golfsim", "cache-clear"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "removed" in done.stderr
    assert sorted(p.name for p in cache.iterdir()) == ["someone-else"]
