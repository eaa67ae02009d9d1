"""Counter-based random streams that do not depend on thread count or batch size.

Every stream is a single ``uint64`` state advanced by splitmix64 (Steele, Lea and Flood 2014: a 64-bit
golden-ratio counter passed through a bijective mixer; it passes BigCrush). A stream's starting state is
derived from ``(seed, a, b)`` by hashing, so the deal stream of game ``g``, hole ``h`` is
``stream_state(deal_seed, g, h)`` and the agent stream of seat ``p`` in game ``g`` is
``stream_state(agent_seed, g, p)``: each depends only on its own coordinates, never on which thread
or which batch played it, and deal randomness never mixes with agent randomness.
"""

from __future__ import annotations

import numpy as np

from golfsim._numba.jit import hot, leaf

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_DEAL_PURPOSE = np.uint64(0xD1B54A32D192ED03)
_AGENT_PURPOSE = np.uint64(0x8CB92BA72F3D8DD7)

MAX_SEED = 2**63 - 1


@leaf
def mix64(z):
    """The splitmix64 finaliser: a bijection on uint64 that scatters nearby inputs."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@hot
def stream_state(seed, a, b):
    """Starting state of the stream at coordinates ``(a, b)`` under ``seed``."""
    s = mix64(np.uint64(seed) + GOLDEN)
    s = mix64(s ^ (np.uint64(a) * _M1 + GOLDEN))
    return mix64(s ^ (np.uint64(b) * _M2 + GOLDEN))


@hot
def deal_state(deal_seed, game, hole):
    """Starting state of the deal stream (shuffle and recycles) of one hole of one game."""
    return stream_state(np.uint64(deal_seed) ^ _DEAL_PURPOSE, game, hole)


@hot
def agent_state(agent_seed, game, seat):
    """Starting state of the agent stream of one seat in one game (it runs on through the holes)."""
    return stream_state(np.uint64(agent_seed) ^ _AGENT_PURPOSE, game, seat)


@leaf
def advance(state):
    """``(next state, 64 random bits)`` of a stream whose state is ``state``: what
    [`next_u64`][golfsim.core.rng.next_u64] does to a state held in an array, for a state kept in a local variable (a
    register rather than memory)."""
    s = np.uint64(state) + GOLDEN
    return s, mix64(s)


@leaf
def bits_below(bits, n):
    """A uniform integer in ``[0, n)`` from 64 random bits (Lemire's multiply-shift on the high 32; n < 2**32)."""
    return np.int64(((bits >> _S32) * np.uint64(n)) >> _S32)


@leaf
def next_u64(rng, i):
    """Advance stream ``rng[i]`` and return its next 64 random bits."""
    s, bits = advance(rng[i])
    rng[i] = s
    return bits


@leaf
def below(rng, i, n):
    """A uniform integer in ``[0, n)`` from stream ``rng[i]`` (Lemire's multiply-shift; n < 2**32)."""
    return bits_below(next_u64(rng, i), n)


@leaf
def uniform(rng, i):
    """A uniform float in ``[0, 1)`` from stream ``rng[i]`` (53 random bits)."""
    return np.float64(next_u64(rng, i) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def check_seed(seed) -> int:
    """Validate a user seed: a whole number from 0 to 2**63 - 1."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be a whole number from 0 to {MAX_SEED}, got {seed!r}")
    return int(seed)
