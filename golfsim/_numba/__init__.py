"""How golfsim compiles with Numba: the compile modes and every use of Numba internals (private).

Nothing outside this package reaches into ``numba.core``. See `golfsim._numba.jit`.
"""
