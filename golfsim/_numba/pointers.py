"""First-class functions passed as addresses: a compiled function rebuilt from its two entry points.

Used by [`golfsim.kernels.bot_loop`][] to call agents without Numba unboxing a tuple of functions on every call
from Python. It needs Numba's private address helpers and code generation, so `AVAILABLE` is False when
`golfsim._numba.fence` rules the internals out or the helpers are missing; the caller then passes the functions
themselves (slower per call, the same moves).
"""

from __future__ import annotations

from golfsim._numba.fence import INTERNALS

AVAILABLE = False
"""True when `entry_addresses` and `function_from_addresses` can be used."""

if INTERNALS:
    try:  # the helpers Numba's own unboxing uses
        from numba.experimental.function_type import _get_jit_address, _get_wrapper_address
    except ImportError:  # pragma: no cover -- depends on the installed Numba
        pass
    else:
        from llvmlite import ir
        from numba import types
        from numba.core import cgutils
        from numba.extending import intrinsic

        AVAILABLE = True

        def entry_addresses(function, signature) -> tuple[int, int]:
            """The C-wrapper and native entry address of the dispatcher ``function`` compiled for ``signature``."""
            return _get_wrapper_address(function, signature), _get_jit_address(function, signature)

        def function_from_addresses(signature):
            """An intrinsic ``f(c_address, jit_address)`` giving the first-class function of ``signature`` at those
            addresses (what Numba's unboxing would make)."""
            function_type = types.FunctionType(signature)

            @intrinsic
            def from_addresses(typingctx, c_address, jit_address):
                sig = function_type(types.int64, types.int64)

                def codegen(context, builder, signature, args):
                    void_ptr = context.get_value_type(types.voidptr)
                    function = cgutils.create_struct_proxy(function_type)(context, builder)
                    function.c_addr = builder.inttoptr(args[0], void_ptr)
                    function.jit_addr = builder.inttoptr(args[1], void_ptr)
                    function.py_addr = ir.Constant(void_ptr, None)
                    return function._getvalue()

                return sig, codegen

            return from_addresses
