"""Scratch arrays on the calling function's stack frame: ``stack_int16(n)``, ``stack_float64(n)``,
``stack_uint64(n)`` and ``stack_like(a, n)`` (``a``'s dtype), ``n`` a compile-time constant.

They cost no heap allocation and no reference counting, so a function compiled without reference counting
(`golfsim._numba.jit.NO_NRT`) can use them. Built with Numba's code-generation helpers (``numba.core.cgutils``,
internal), so only when `golfsim._numba.fence` allows; otherwise, and under ``NUMBA_DISABLE_JIT=1``, they are
ordinary ``np.empty`` arrays (the fallback keeps reference counting, so those compile). Either way, call them in the
function's own body and never return them.
"""

from __future__ import annotations

import numpy as np
from numba import config, njit

from golfsim._numba.fence import INTERNALS

if config.DISABLE_JIT or not INTERNALS:
    def stack_int16(n):
        return np.empty(n, np.int16)

    def stack_float64(n):
        return np.empty(n, np.float64)

    def stack_uint64(n):
        return np.empty(n, np.uint64)

    def stack_like(like, n):
        return np.empty(n, like.dtype)

    if not config.DISABLE_JIT:
        stack_int16, stack_float64, stack_uint64, stack_like = (
            njit(cache=True)(f) for f in (stack_int16, stack_float64, stack_uint64, stack_like))
else:
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    def _stack_codegen(dtype, n):
        """Code for an uninitialised 1-d C array of ``n`` items of ``dtype`` in the caller's stack frame."""
        arrty = types.Array(dtype, 1, "C")

        def codegen(context, builder, signature, args):
            item = context.get_data_type(dtype)
            data = cgutils.alloca_once(builder, item, size=n)  # in the entry block: one frame slot, no loop growth
            ary = context.make_array(arrty)(context, builder)
            intp = context.get_value_type(types.intp)
            itemsize = context.get_abi_sizeof(item)
            context.populate_array(ary, data=data, shape=[intp(n)], strides=[intp(itemsize)],
                                   itemsize=intp(itemsize), meminfo=None)
            return ary._getvalue()

        return arrty, codegen

    def _stack_array(dtype):
        """An intrinsic ``f(n)`` returning a stack array of ``n`` items of ``dtype``."""

        @intrinsic
        def stack_array(typingctx, size):
            if not isinstance(size, types.IntegerLiteral):
                return None
            arrty, codegen = _stack_codegen(dtype, size.literal_value)
            return arrty(size), codegen

        return stack_array

    stack_int16 = _stack_array(types.int16)
    stack_float64 = _stack_array(types.float64)
    stack_uint64 = _stack_array(types.uint64)

    @intrinsic
    def stack_like(typingctx, like, size):
        """``stack_like(a, n)``: a stack array of ``n`` items of ``a``'s dtype."""
        if not isinstance(size, types.IntegerLiteral) or not isinstance(like, types.Array):
            return None
        arrty, codegen = _stack_codegen(like.dtype, size.literal_value)
        return arrty(like, size), codegen
