"""Compiling without a cache when the cache cannot be written, with one warning line instead of a failed command.

Numba saves every compiled function into its cache directory and raises when it cannot: on a full disk every
command that compiles failed with ``ENOSPC``, and with no writable place at all (a read-only or full cache
directory and temporary directory) Numba either failed at import or cached beside the sources, where an edit to
another module would not be noticed (`golfsim._numba.jit`). Compiled code does not need the cache, only a later
run's start-up does, so golfsim compiles on without it:

- `compile_uncached` (called at import when no cache directory has room) makes every function decorated
  afterwards compile without a cache;
- a save that fails later (the disk fills during a run) turns that function's cache off and the run goes on.

Either way one line on stderr says so, once per process. Both reach into Numba's dispatcher and cache classes; when
a Numba release renames them, nothing is changed and a failed save is the command's one ``OSError`` line
([`golfsim.cli.oserrors`][]) as before.
"""

from __future__ import annotations

import contextlib
import sys

_warned = False
UNCACHED = False
"""True when this process compiles without a cache (`compile_uncached` was called)."""


def warn_once(text: str) -> None:
    """Write ``warning: TEXT`` on stderr, the first time only."""
    global _warned
    if _warned:
        return
    _warned = True
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.write(f"warning: {text}\n")
        sys.stderr.flush()


def _os_error_text(err: OSError) -> str:
    from golfsim.atomic import os_error_text

    return os_error_text(err)


def _guard_saves() -> None:
    """Make a failed cache save turn that function's cache off with one warning, not fail the compile."""
    try:
        from numba.core.caching import Cache
    except ImportError:  # pragma: no cover - depends on the installed Numba
        return
    save = getattr(Cache, "save_overload", None)
    if save is None or getattr(save, "_golfsim_guarded", False) or not hasattr(Cache, "disable"):
        return

    def save_overload(self, sig, data):
        try:
            save(self, sig, data)
        except OSError as err:
            self.disable()
            where = getattr(self, "_cache_path", None)
            warn_once(f"cannot save compiled code in Numba's cache{f' {where}' if where else ''}: "
                      f"{_os_error_text(err)}; compiling without a cache (later runs compile again)")

    save_overload._golfsim_guarded = True
    Cache.save_overload = save_overload


def compile_uncached(reason: str) -> None:
    """Compile every function defined from now on without a cache, and say why (``reason``) in one warning line."""
    global UNCACHED
    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # pragma: no cover - depends on the installed Numba
        return
    if not hasattr(Dispatcher, "enable_caching"):  # pragma: no cover - depends on the installed Numba
        return
    UNCACHED = True
    Dispatcher.enable_caching = lambda self: None  # the dispatcher keeps its null cache
    warn_once(f"{reason}; compiling without a cache (every run compiles again: free some room or set "
              "NUMBA_CACHE_DIR to a writable directory)")


_guard_saves()
