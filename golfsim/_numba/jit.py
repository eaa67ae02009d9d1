"""The compile modes golfsim uses.

``hot`` compiles a function without Numba's reference counting (NRT). Numba cannot prune the array
incref/decref pairs that it emits when a function has several branches that read an array
(numba issue #2350); those atomic calls cost about 20 ns per call, more than a whole legal-move check.
Functions compiled with ``hot`` must never allocate (no ``np.empty``, no slicing into new arrays that
escape); functions that allocate use plain ``njit(cache=True)``.

``leaf`` is ``hot`` plus ``forceinline``: LLVM inlines it into every caller. A call that passes three or four
arrays costs more than a small function's body (each array is a seven-field struct pushed on the stack), so the
rule functions on the hot path and the fast agents are leaves. ``forceinline`` (LLVM's ``alwaysinline``) rather
than Numba's ``inline="always"``: Numba's IR inliner re-ran its front end for every nested call site, which made
kernels slow to compile, while LLVM compiles each leaf once and inlines the optimised code, which also runs faster
(docs/performance.md has the measurements). A leaf must only be called
from ``hot`` or ``leaf`` functions, since inlined into a function with reference counting it brings the refcount
calls back.

Both are compiled only for the compiled code that calls them (`golfsim._numba.inner_compile`): without entry
points, once per plain argument type, and never optimised or turned into machine code on their own, since every caller
optimises their code again with its own. Called from Python, such a function runs a copy of itself compiled with
entry points. The kernels, the agents called by pointer and every function that allocates are plain
``njit(cache=True)`` functions: each of those is optimised on its own with everything it calls, so fewer of them
between a kernel and its agents mean a shorter first compile.

The cache is keyed by the sources
---------------------------------
Numba checks a cached function against its own file only. A leaf is copied into every function that calls it, so a
kernel cached before an edit to ``engine.py`` would still run the old rules. So every golfsim process caches into
`CACHE_DIR`, a directory named by a hash of every ``.py`` file of the ``golfsim`` and ``agents`` packages
(`source_key`), inside ``NUMBA_CACHE_DIR`` when the user sets one and in the user's cache directory
otherwise. An edit to any of those files gives a new directory, hence a cold compile, never a stale kernel. It is
set here, before any golfsim function is compiled, since Numba fixes a function's cache place when it is defined.
``golfsim cache-clear`` (`clear_cache`) removes every such directory.

The fallback: public options only
---------------------------------
``_nrt=False``, ``forceinline`` and the inner dispatcher are Numba internals. When `golfsim._numba.fence` rules
them out (an untested Numba, or ``GOLFSIM_NUMBA_FALLBACK=1``), ``hot`` and ``leaf`` are plain ``njit(cache=True)``,
`NO_NRT` is empty (so functions keep reference counting, and the search agents' scratch arrays come from the
heap, `golfsim._numba.stack`), and the cache directory gets its own name (``-public``), since Numba does not key
its cache files by compile options. The first compile is slower; the results are the same
(``tests/_numba/test_fence.py``, and CI runs the golden and parity tests under the fallback).

A leaf that takes compiled functions as arguments (ev's valuations) is a `leaf_taking_functions`. Numba
lowers a dispatcher passed as an argument as its address in this process (a "dynamic global") and refuses to cache
any function whose code keeps one, and every function that links that code in. Inlined into its caller, the
argument is a direct call and the address is dropped as unused. Under the internals every leaf is inlined by LLVM;
under the fallback such a leaf is inlined by Numba's own IR inliner (the public ``inline="always"``), so that
everything still caches.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

from numba import config, njit

from golfsim._numba import cache_repair
from golfsim._numba.cache_room import compile_uncached
from golfsim._numba.fence import INTERNALS


def _package_folders() -> tuple[Path, ...]:
    # golfsim.agents lives in the repository's agents/ folder in a checkout and inside golfsim/ in a wheel
    golfsim_folder = Path(__file__).resolve().parent.parent
    agents = importlib.util.find_spec("golfsim.agents")
    folders = [golfsim_folder]
    for location in (agents.submodule_search_locations or []) if agents else []:
        folder = Path(location).resolve()
        if golfsim_folder not in folder.parents:
            folders.append(folder)
    return tuple(folders)


PACKAGES = _package_folders()
"""The source folders whose every ``.py`` file keys the cache: ``golfsim/`` and the folder of ``golfsim.agents``."""

CACHE_PREFIX = "golfsim-"


KEYED_DATA = ("learned/models/*.json", "agents/learned/models/*.json")
"""Data files compiled into agents as constants (the learned player's weights), keyed like the sources."""


def source_key(folders=PACKAGES) -> str:
    """A hash of the path (relative to its package) and contents of every ``.py`` file under ``folders``, and of
    the data files of `KEYED_DATA`."""
    digest = hashlib.sha256()
    for folder in folders:
        keyed = set(Path(folder).rglob("*.py"))
        for pattern in KEYED_DATA:
            keyed.update(Path(folder).glob(pattern))
        for path in sorted(keyed):
            digest.update(f"{folder.name}/{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()[:16]


def cache_parent() -> Path:
    """Where the keyed cache directories live: ``NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/golfsim`` (by
    default ``~/.cache/golfsim``)."""
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user:
        return Path(user)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "golfsim"


CACHE_PROBE_BYTES = 1 << 16
"""Bytes written (and removed) to check that a cache directory has room: a full disk passes ``mkdir`` and
``os.access`` but fails every cached function's save, which failed every command at import."""


def _room_error(path: Path) -> OSError | None:
    """Why ``path`` cannot take cache files (``None`` when a probe of `CACHE_PROBE_BYTES` fits)."""
    try:
        with tempfile.TemporaryFile(dir=path) as f:
            f.write(b"\0" * CACHE_PROBE_BYTES)
            f.flush()
            os.fsync(f.fileno())
    except OSError as err:
        return err
    return None


def _has_room(path: Path) -> bool:
    return _room_error(path) is None


def _writable_cache_dir(key: str) -> tuple[Path, str | None]:
    """The first of ``cache_parent()`` and the temporary directory that can take the cache, and ``None``; or,
    when neither can, the first and why not."""
    first, why = None, None
    parents = [cache_parent()]
    try:
        parents.append(Path(tempfile.gettempdir()) / f"golfsim-numba-{os.getuid()}")
    except OSError:  # every temporary directory is full or read-only
        pass
    for parent in parents:
        path = parent / (CACHE_PREFIX + key)
        first = first or path
        try:
            path.mkdir(parents=True, exist_ok=True)
            err = _room_error(path)
        except OSError as mkdir_error:
            err = mkdir_error
        if err is None:
            return path, None
        if why is None:
            from golfsim.atomic import os_error_text

            why = f"no room for Numba's cache in {path}: {os_error_text(err)}"
    return first, why


CACHE_DIR, NO_CACHE_REASON = _writable_cache_dir(source_key() + ("" if INTERNALS else "-public"))
"""This process's Numba cache directory (``<parent>/golfsim-<source_key()>``, with ``-public`` under the fallback);
``NO_CACHE_REASON``: why nothing is cached in this process, or ``None`` (`golfsim._numba.cache_room`)."""


def use_keyed_cache() -> None:
    """Point Numba's cache at `CACHE_DIR`; functions defined afterwards cache there (called on import, and
    again before compiling an agent lazily, in case Numba reloaded its configuration from the environment)."""
    config.CACHE_DIR = str(CACHE_DIR)


use_keyed_cache()
cache_repair.install()  # a damaged cache entry is compiled again, not an UnpicklingError
if NO_CACHE_REASON is not None:
    compile_uncached(NO_CACHE_REASON)


def clear_cache() -> int:
    """Delete every golfsim cache directory under `cache_parent` (this source version's and older ones) and
    cache files left next to the sources by earlier versions; return how many files were removed."""
    removed = 0
    parent = cache_parent()
    if parent.is_dir():
        for path in parent.glob(CACHE_PREFIX + "*"):
            if path.is_dir():
                removed += sum(1 for f in path.rglob("*") if f.is_file())
                shutil.rmtree(path, ignore_errors=True)
    for folder in PACKAGES:
        for pattern in ("*.nbi", "*.nbc"):
            for f in folder.rglob(pattern):
                f.unlink()
                removed += 1
    return removed


if INTERNALS:
    from golfsim._numba.inner_compile import inner

    hot = inner(_nrt=False)
    leaf = inner(_nrt=False, forceinline=True)
    leaf_taking_functions = leaf
    NO_NRT = {"_nrt": False}
else:
    hot = leaf = njit(cache=True)
    leaf_taking_functions = njit(cache=True, inline="always")
    NO_NRT = {}
"""``NO_NRT``: the options a kernel adds to ``njit`` to compile without reference counting (none under the
fallback)."""
