"""A fingerprint of what decides every result: how the engine deals and plays and how each built-in agent decides.

Every ``config.json`` under ``results/`` records
[`behaviour_fingerprint`][golfsim.runs.fingerprint.behaviour_fingerprint] of the code that made it. It is a hash of a
fixed set of seeded games, not of the source files: a refactor, a comment or a new command leaves it alone, while a
change to a random stream, the shuffle, a rule or an agent's decisions changes it. So ``tests/test_experiments.py`` can
demand that the committed results match the code, and when that test fails the results must be regenerated (``golfsim
experiment all``), because they no longer reproduce.

The games cover every built-in agent at its defaults and with every tip switched off, under the default rules at
2 and 4 players and under each rule option on its own at 2 players.
"""

from __future__ import annotations

import functools
import hashlib

import numpy as np

from golfsim.core.rules import Rules

#: Tables of the fingerprint: agents (comma-separated, as on the command line) and rule options.
TABLES: tuple[tuple[str, dict], ...] = (
    ("ev,pair-builder,greedy,random", {}),
    ("greedy:blind_swap=-99,pair-builder:pairs_first=0,keep_threshold=99,lone_two=0,"
     "ev:watch_discard=0,count_out=0,random", {}),
    ("ev,pair-builder", {}),
    ("greedy,random", {}),
    *((pair, option) for option in (
        {"jokers": "minus2"}, {"jokers": "minus5"}, {"jokers": "minus3"}, {"jokers": "zero"},
        {"opening_flips": "same_column"}, {"opening_flips": "different_columns"},
        {"reveal_instead_of_draw": True}, {"discard_and_flip": "may"}, {"discard_and_flip": "must"},
        {"end": "one_last_turn"}, {"twos_pair": "keep_negative"}, {"four_of_a_kind_bonus": -10},
        {"players": 5}, {"turn_cap": 20})
      for pair in ("ev,pair-builder", "greedy,random")),
)
GAMES = 40
SEED = 20261130


def _digest_table(digest, agents: str, options: dict, games: int, seed: int) -> None:
    from golfsim.agents.base import split_agents
    from golfsim.kernels.simulate import simulate

    seats = split_agents(agents)
    if "players" in options:
        seats = (seats * options["players"])[: options["players"]]
    rules = Rules(**{"players": len(seats), **options})
    result = simulate(seats, rules, games=games, seed=seed)
    hole_columns = [f"hole_{h + 1}" for h in range(rules.holes)]
    deals = result.deals
    for array in (result.players[hole_columns].to_numpy(np.int64), deals["turns"].to_numpy(np.int64),
                  deals["went_out"].to_numpy(np.int64), deals["truncated"].to_numpy(np.int64)):
        digest.update(np.ascontiguousarray(array).tobytes())


def fingerprint(tables=TABLES, games: int = GAMES, seed: int = SEED) -> str:
    """SHA-256 (first 16 hex digits) of the hole scores, deal lengths, who went out and truncations of ``games``
    seeded games at every table of ``tables``."""
    digest = hashlib.sha256()
    for agents, options in tables:
        digest.update(f"{agents}|{sorted(options.items())}".encode())
        _digest_table(digest, agents, options, games, seed)
    return digest.hexdigest()[:16]


@functools.cache
def behaviour_fingerprint() -> str:
    """The fingerprint of this code: [`fingerprint`][golfsim.runs.fingerprint.fingerprint] of `TABLES` (computed once
    per process)."""
    return fingerprint()


if __name__ == "__main__":  # pragma: no cover
    print(behaviour_fingerprint())
