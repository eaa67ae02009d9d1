"""The compile modes golfsim uses.

``hot`` compiles a function without Numba's reference counting (NRT). Numba cannot prune the array
incref/decref pairs that it emits when a function has several branches that read an array
(numba issue #2350); those atomic calls cost about 20 ns per call, more than a whole legal-move check.
Functions compiled with ``hot`` must never allocate (no ``np.empty``, no slicing into new arrays that
escape); functions that allocate use plain ``njit(cache=True)``.

``leaf`` is ``hot`` plus ``forceinline``: LLVM inlines it into every caller. A call that passes three or four
arrays costs more than a small function's body (each array is a seven-field struct pushed on the stack), so the
rule functions on the hot path and the fast agents are leaves. ``forceinline`` (LLVM's ``alwaysinline``) rather
than Numba's ``inline="always"``: Numba's IR inliner re-ran its front end for every nested call site (11 s of one
kernel's compile), while LLVM compiles each leaf once and inlines the optimised code, which also ran faster
(random agents, one thread: 1.47M -> 1.66M deals per second in the same session). A leaf must only be called
from ``hot`` or ``leaf`` functions, since inlined into a function with reference counting it brings the refcount
calls back.

Every function that is not a leaf is compiled into its own library, and each caller optimises it again together
with everything it calls; fewer non-leaf levels between a kernel and its agents mean a shorter first compile.

The cache is keyed by the sources
---------------------------------
Numba checks a cached function against its own file only. A leaf is copied into every function that calls it, so a
kernel cached before an edit to ``engine.py`` would still run the old rules. So every golfsim process caches into
:data:`CACHE_DIR`, a directory named by a hash of every ``.py`` file of the ``golfsim`` and ``agents`` packages
(:func:`source_key`), inside ``NUMBA_CACHE_DIR`` when the user sets one and in the user's cache directory
otherwise. An edit to any of those files gives a new directory, hence a cold compile, never a stale kernel. It is
set here, before any golfsim function is compiled, since Numba fixes a function's cache place when it is defined.
``golfsim cache-clear`` (:func:`clear_cache`) removes every such directory.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path
from types import FunctionType

from numba import config, njit
from numba.core import errors, types
from numba.core.registry import CPUDispatcher

PACKAGES = (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent / "agents")
"""The source folders whose every ``.py`` file keys the cache: ``golfsim/`` and ``agents/``."""

CACHE_PREFIX = "golfsim-"


def source_key(folders=PACKAGES) -> str:
    """A hash of the path (relative to its package) and contents of every ``.py`` file under ``folders``."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*.py")):
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


def _writable_cache_dir(key: str) -> Path:
    for parent in (cache_parent(), Path(tempfile.gettempdir()) / f"golfsim-numba-{os.getuid()}"):
        path = parent / (CACHE_PREFIX + key)
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(path, os.W_OK):
            return path
    return path


CACHE_DIR = _writable_cache_dir(source_key())
"""This process's Numba cache directory (``<parent>/golfsim-<source_key()>``)."""


def use_keyed_cache() -> None:
    """Point Numba's cache at :data:`CACHE_DIR`; functions defined afterwards cache there (called on import, and
    again before compiling an agent lazily, in case Numba reloaded its configuration from the environment)."""
    config.CACHE_DIR = str(CACHE_DIR)


use_keyed_cache()


def clear_cache() -> int:
    """Delete every golfsim cache directory under :func:`cache_parent` (this source version's and older ones) and
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


WRAPPER_OPTIONS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
"""Target options that skip the two entry points Numba builds for every compiled function: the CPython wrapper
(the door for calls from Python) and the C wrapper (the door for calls by pointer). Compiled callers call the
function itself, so ``hot`` and ``leaf`` functions are compiled without them: building them was about a quarter of
the first compile of all built-ins (40 -> 31 s)."""


def _plain(argument_type):
    """The type a ``hot`` or ``leaf`` function is compiled for when a compiled caller passes ``argument_type``: a
    literal becomes its plain type, a signed integer narrower than 64 bits becomes ``int64``."""
    plain = types.unliteral(argument_type)
    if isinstance(plain, types.Integer) and plain.signed and plain.bitwidth < 64:
        return types.int64
    return plain


def _renamed_copy(function, suffix: str):
    """A copy of the plain-Python ``function`` under another qualified name: Numba names a function's cache files by
    its qualified name and does not key them by the compile options, so a copy compiled with other options needs
    cache files of its own."""
    copy = FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__,
                        function.__closure__)
    copy.__qualname__ = f"{function.__qualname__}{suffix}"
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    return copy


def with_entry_points(dispatcher, signature=None):
    """A cached dispatcher of ``dispatcher``'s function compiled with both entry points (callable from Python and
    by pointer), with ``dispatcher``'s other options; compiled for ``signature`` only, when given."""
    options = {k: v for k, v in dispatcher.targetoptions.items() if k not in WRAPPER_OPTIONS and k != "nopython"}
    suffix = "__entry" if signature is None else "__pointer_entry"
    copy = _renamed_copy(dispatcher.py_func, suffix)
    if signature is None:
        return njit(cache=True, **options)(copy)
    return njit(signature, cache=True, **options)(copy)


class InnerDispatcher(CPUDispatcher):
    """The dispatcher of a ``hot`` or ``leaf`` function: compiled for its compiled callers, without entry points.

    A compiled caller gets one specialisation per plain argument type (:func:`_plain`): a call ``f(pub, 0)`` compiles
    ``f`` for ``int64``, not once more for each literal. Numba otherwise compiles a separate copy for every literal
    argument (a loop over six card positions unrolled by hand gave six copies), which after inlining LLVM folds to the
    same code; one third of the compiled signatures of the built-in agents were such copies. A call whose plain types
    do not compile (a literal the function needs, say) falls back to the literal types.

    A call from Python goes to :func:`with_entry_points`'s dispatcher of the same function, compiled when first
    needed and cached apart.
    """

    _python_entry = None

    def get_call_template(self, args, kws):
        if self._can_compile:
            plain_args = tuple(_plain(a) for a in args)
            plain_kws = {k: _plain(v) for k, v in kws.items()}
            if plain_args != tuple(args) or plain_kws != kws:
                try:
                    return super().get_call_template(plain_args, plain_kws)
                except errors.TypingError:
                    pass
        return super().get_call_template(args, kws)

    def __call__(self, *args, **kwargs):
        entry = self._python_entry
        if entry is None:
            entry = self._python_entry = with_entry_points(self)
        return entry(*args, **kwargs)


def _inner(**options):
    def compile_mode(function):
        if config.DISABLE_JIT:
            return function
        dispatcher = InnerDispatcher(py_func=function, locals={},
                                     targetoptions={"nopython": True, "boundscheck": None, **WRAPPER_OPTIONS,
                                                    **options})
        dispatcher.enable_caching()
        return dispatcher
    return compile_mode


hot = _inner(_nrt=False)
leaf = _inner(_nrt=False, forceinline=True)
