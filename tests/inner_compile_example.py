"""Inner functions and their callers for tests/test_inner_compile.py, in a module of their own so that Numba can
cache them (it caches functions defined in a file)."""

from numba import njit

from golfsim._numba.jit import hot, leaf


@leaf
def twice(x):
    return 2 * x


@hot
def add_twice(a, x):
    return a + twice(x)


@njit(cache=True)
def sum_of_twice(n):
    """The sum of ``2 * i + 2 * 3`` for ``i < n``: ``twice`` called with a variable and with a literal."""
    total = 0
    for i in range(n):
        total += twice(i) + twice(3)
    return total


@njit(cache=True)
def add_twice_to_itself(n):
    """``n + 2 * n``, through the hot function ``add_twice`` (compiled after ``sum_of_twice``)."""
    return add_twice(n, n)


@leaf
def apply(function, x):
    return function(x)


@hot
def twice_by_value(x):
    """``twice`` handed to ``apply`` as a value: Numba lowers the dispatcher as its address (a dynamic global)."""
    return apply(twice, x)


@njit(cache=True)
def call_twice_by_value(n):
    return twice_by_value(n)
