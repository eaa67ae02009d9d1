"""Whether golfsim uses Numba internals in this process, decided once, at import.

golfsim compiles faster and runs its search agents without heap allocation by reaching into Numba's private classes
(`golfsim._numba.inner_compile`, `golfsim._numba.stack`, `golfsim._numba.pointers`). Those are only
used on the Numba releases they were tested with (`TESTED`), when they import, and when the environment
variable `FALLBACK_VARIABLE` is not set to a true value. Otherwise every function is compiled with public
``njit`` options only: a slower first compile, the same results, and every function cached. That fallback is what
a Numba release newer than the tested ones gets, so pyproject.toml has no upper bound on Numba.
"""

from __future__ import annotations

import os

import numba

TESTED = ((0, 60), (0, 68))
"""The oldest and newest ``(major, minor)`` Numba releases the internals were tested with, both included."""

FALLBACK_VARIABLE = "GOLFSIM_NUMBA_FALLBACK"
"""Set it to ``1`` to compile with public ``njit`` options only, whatever Numba is installed."""


def numba_release(version: str) -> tuple[int, int] | None:
    """``(major, minor)`` of a Numba version string such as ``"0.68.1"`` or ``"0.70.0rc1"``; ``None`` if unreadable."""
    parts = version.split(".")
    try:
        return int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or "x")
    except (IndexError, ValueError):
        return None


def fallback_reason(version: str, environ) -> str | None:
    """Why the internals are not used with Numba ``version`` under the environment ``environ``; ``None`` if they
    are (the import check is separate: `INTERNALS`)."""
    flag = environ.get(FALLBACK_VARIABLE, "").strip().lower()
    if flag not in ("", "0", "false", "no"):
        return f"{FALLBACK_VARIABLE}={environ[FALLBACK_VARIABLE]}"
    release = numba_release(version)
    if release is None or not TESTED[0] <= release <= TESTED[1]:
        low, high = (".".join(map(str, r)) for r in TESTED)
        return f"numba {version} is outside the tested releases {low} to {high}"
    return None


REASON = fallback_reason(numba.__version__, os.environ)
"""Why this process compiles with public options only, or ``None`` when it uses the internals."""

if REASON is None:
    try:
        from golfsim._numba import inner_compile as _inner_compile  # noqa: F401 -- the import is the check
    except (ImportError, AttributeError) as error:  # a release that renamed a class: fall back, never fail
        REASON = f"Numba internals did not import: {error}"

INTERNALS = REASON is None
"""True when golfsim uses the Numba internals in this process."""

try:  # where Numba's documentation imports its warning classes from; looked up here in case a release moves it
    from numba.core.errors import NumbaExperimentalFeatureWarning as EXPERIMENTAL_WARNING
except ImportError:  # pragma: no cover -- depends on the installed Numba
    EXPERIMENTAL_WARNING = None
"""Numba's warning class for experimental features (first-class functions), or ``None`` if it cannot be found."""
