"""A damaged cache entry is dropped and its function compiled again, with one warning line, not a failed command.

Numba reads a function's cache index (``.nbi``) and data files (``.nbc``) with ``pickle``. A truncated data file or
a garbage index (a disk that filled or a machine that stopped while another process saved, a copy that went wrong)
raised ``UnpicklingError`` (or ``EOFError``, ``ValueError``...) from every command that used that function, until
``golfsim cache-clear``. Here a read that fails for any reason but an interrupt removes that function's index and
data files, says so once on stderr, and answers "not cached", so Numba compiles the function and saves it afresh.

Like `golfsim._numba.cache_room` this reaches into Numba's ``IndexDataCacheFile``; when a Numba release renames
it nothing is changed and a damaged entry fails as before.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from golfsim._numba.cache_room import warn_once


def _drop(cache_file, err: Exception) -> None:
    """Remove the index and every data file of ``cache_file``'s function and say so once."""
    folder = Path(cache_file._cache_path)
    index = Path(cache_file._index_path)
    base = index.name[: -len(".nbi")]
    for path in [index, *folder.glob(f"{base}.*.nbc")]:
        with contextlib.suppress(OSError):
            os.unlink(path)
    warn_once(f"Numba's cache entry {index.name} in {folder} was damaged ({type(err).__name__}); removed it and "
              "compiling that function again")


def install() -> None:
    """Make reading a damaged cache entry drop it and compile again (idempotent)."""
    try:
        from numba.core.caching import IndexDataCacheFile
    except ImportError:  # pragma: no cover - depends on the installed Numba
        return
    load_index = getattr(IndexDataCacheFile, "_load_index", None)
    load = getattr(IndexDataCacheFile, "load", None)
    if load_index is None or load is None or getattr(load, "_golfsim_repairs", False):
        return

    def _load_index(self):
        try:
            return load_index(self)
        except Exception as err:  # anything unpickling garbage raises; never KeyboardInterrupt
            _drop(self, err)
            return {}

    def guarded_load(self, key):
        try:
            return load(self, key)
        except Exception as err:
            _drop(self, err)
            return None

    guarded_load._golfsim_repairs = True
    IndexDataCacheFile._load_index = _load_index
    IndexDataCacheFile.load = guarded_load
