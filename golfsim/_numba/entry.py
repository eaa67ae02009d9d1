"""A compiled function's copy with both entry points, under a name of its own (public Numba API only)."""

from __future__ import annotations

from types import FunctionType

from numba import njit

WRAPPER_OPTIONS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
"""Target options that skip the two entry points Numba builds for every compiled function: the CPython wrapper
and the C wrapper (only `golfsim._numba.inner_compile` sets them)."""


def renamed_copy(function, suffix: str):
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
    """A cached dispatcher of ``dispatcher``'s function compiled as Numba compiles any function (with both entry
    points, callable from Python and by pointer) and with ``dispatcher``'s other options; compiled for
    ``signature`` only, when given."""
    options = {k: v for k, v in dispatcher.targetoptions.items() if k not in WRAPPER_OPTIONS and k != "nopython"}
    suffix = "__entry" if signature is None else "__pointer_entry"
    copy = renamed_copy(dispatcher.py_func, suffix)
    if signature is None:
        return njit(cache=True, **options)(copy)
    return njit(signature, cache=True, **options)(copy)
