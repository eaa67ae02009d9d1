"""A fingerprint of how this code turns games into standings, beside [`golfsim.runs.fingerprint`][] (which covers
how the games are played): a sweep records both, so it never mixes cells whose intervals two versions computed
differently."""

from __future__ import annotations

import functools
import hashlib

from golfsim.core.rules import Rules
from golfsim.runs.fingerprint import GAMES, SEED

STANDINGS_TABLE = ("ev", "greedy", "random")
"""The tournament whose standings `standings_fingerprint` hashes (every interval and rating column)."""


@functools.cache
def standings_fingerprint() -> str:
    """A fingerprint of how this code turns games into standings: SHA-256 (first 16 hex digits) of the whole
    standings table (means, every interval, ratings) of a seeded tournament of `STANDINGS_TABLE`.

    [`behaviour_fingerprint`][golfsim.runs.fingerprint.behaviour_fingerprint] changes when the games change; this one
    also changes when only the statistics do (a new interval method), so a sweep never mixes cells whose intervals two
    versions computed differently.
    """
    from golfsim.tournament.running import run_tournament

    result = run_tournament(list(STANDINGS_TABLE), Rules(players=3), GAMES, SEED, threads=1)
    return hashlib.sha256(result.standings.to_csv(index=False).encode()).hexdigest()[:16]
