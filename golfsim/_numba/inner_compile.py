"""How ``hot`` and ``leaf`` functions are compiled: only for the compiled code that calls them.

Numba compiles every function into a code library of its own. A caller's library links in a copy of each callee's
module, optimises the whole module again (LLVM's full pipeline, twice: a "cheap" pass then the full one) and emits
machine code for it. So a function that only compiled code calls, as golfsim's ``hot`` and ``leaf`` functions are,
has work done for it that nothing uses:

- **its entry points**: a CPython wrapper (the door for calls from Python) and a C wrapper (for calls by pointer);
- **its own optimisation and machine code**: a caller links in the callee's code and optimises it again with its
  own, and a leaf is inlined into every caller anyway;
- **a copy per literal argument**: Numba compiles ``f(pub, 0)`` and ``f(pub, 1)`` as two specialisations (one third
  of the built-in agents' compiled signatures were such copies), which LLVM folds to the same code once inlined.

`InnerDispatcher` skips all three. It compiles for the plain argument types (`plain_type`), without
entry points, into an `InlineOnlyLibrary`, which keeps the LLVM IR as Numba's per-function passes left it and
hands it to the callers to optimise once, with everything else, where the code runs (a library holding a
dispatcher's address is the exception: Numba would not cache it unoptimised). The Numba cache keeps that IR
as bitcode (`InlineOnlyCache`), so a kernel compiled in a later process still links in cached callees. A call
from Python goes to `with_entry_points`'s copy of the function, compiled normally when first needed.

Skipping that work more than halves the cold compile of the built-in agents: the entry points and literal copies
and the inline-only libraries each account for a large share of it, the time their libraries had spent optimising
and emitting code nobody ran (docs/performance.md has the measurements).

This relies on Numba internals (the code-library and compile-result classes of numba 0.60 to 0.68), so it is only
imported through `golfsim._numba.fence`, which falls back to plain ``njit`` on other releases, when this module
fails to import, or under ``GOLFSIM_NUMBA_FALLBACK=1``; ``tests/_numba/test_inner_compile.py`` pins the behaviour.
"""

from __future__ import annotations

from llvmlite import binding as llvm
from llvmlite import ir as llvm_ir
from numba import config
from numba.core import cgutils, compiler, errors, types
from numba.core.caching import CompileResultCacheImpl, FunctionCache
from numba.core.codegen import JITCodeLibrary
from numba.core.registry import CPUDispatcher

from golfsim._numba import cache_room
from golfsim._numba.entry import WRAPPER_OPTIONS, with_entry_points

INLINE_ONLY = "golfsim-inline-only-bitcode"
"""The cache kind of an `InlineOnlyLibrary`: its bitcode, unoptimised, without machine code."""


def plain_type(argument_type):
    """The type an inner function is compiled for when a compiled caller passes ``argument_type``: a literal
    becomes its plain type, a signed integer narrower than 64 bits becomes ``int64``."""
    plain = types.unliteral(argument_type)
    if isinstance(plain, types.Integer) and plain.signed and plain.bitwidth < 64:
        return types.int64
    return plain


class InlineOnlyLibrary(JITCodeLibrary):
    """A code library whose code is only linked into its callers' libraries: never turned into machine code, and
    not optimised on its own unless it holds a dispatcher's address (`_optimize_final_module`). Asked for a
    function's address, it answers 0 (no such symbol), as Numba's own libraries do for a function compiled without
    a CPython wrapper."""

    def _optimize_final_module(self):
        """Nothing, unless the module holds a dynamic global: then Numba's full optimisation.

        Each caller optimises this code with its own. But Numba lowers a dispatcher passed as an argument (ev hands
        its valuation functions to ``ev_decide``) as its address, a "dynamic global", and refuses to cache a library
        that holds one; it is gone once the callee is inlined and the argument found unused.
        """
        if any(g.name.startswith("numba.dynamic.globals") for g in self._final_module.global_variables):
            super()._optimize_final_module()

    def _finalize_final_module(self):
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._add_environments()
        self._finalized = True

    def _add_environments(self):
        """Give the execution engine the module's environment pointers, without its code.

        Numba fills a function's environment pointer (a global of the module) when it compiles or loads the
        function, through the engine. They are common symbols, so the callers' copies of the code resolve to the
        ones defined here.
        """
        names = [g.name for g in self._final_module.global_variables if "NumbaEnv" in g.name]
        if not names:
            return
        module = self._codegen._create_empty_module(f"{self.name}.environments")
        for name in names:
            pointer = llvm_ir.GlobalVariable(module, cgutils.voidptr_t, name=name)
            pointer.linkage = "common"
            pointer.initializer = cgutils.get_null_value(cgutils.voidptr_t)
        self._codegen._add_module(llvm.parse_assembly(str(module)))
        self._codegen._engine.finalize_object()

    def get_pointer_to_function(self, name):
        self._ensure_finalized()
        return 0

    def serialize_using_object_code(self):
        """What the Numba cache stores: the bitcode (there is no object code)."""
        self._ensure_finalized()
        return (self.name, INLINE_ONLY, self._final_module.as_bitcode())

    @classmethod
    def from_bitcode(cls, codegen, name: str, bitcode: bytes) -> InlineOnlyLibrary:
        library = cls(codegen, name)
        library._final_module = llvm.parse_bitcode(bitcode)
        library._finalize_final_module()
        return library


class InlineOnlyCompiler(compiler.Compiler):
    """Numba's nopython pipeline, lowering into an `InlineOnlyLibrary`."""

    def compile_extra(self, func):
        if self.state.library is None:
            self.state.library = InlineOnlyLibrary(self.state.targetctx.codegen(), func.__qualname__)
        return super().compile_extra(func)


class InlineOnlyCacheImpl(CompileResultCacheImpl):
    """Rebuilds a cached compile result around an `InlineOnlyLibrary` (Numba's own rebuild would emit the
    machine code)."""

    def rebuild(self, target_context, payload):
        (name, kind, bitcode), *rest = payload  # InlineOnlyLibrary.serialize_using_object_code's triple
        fndesc, environment, signature, objectmode, lifted, typeann, reload_init, referenced_envs = rest
        for reload in reload_init:
            reload()
        library = InlineOnlyLibrary.from_bitcode(target_context.codegen(), name, bitcode)
        result = compiler.CompileResult(
            target_context=target_context, typing_context=target_context.typing_context, library=library,
            environment=environment, entry_point=target_context.get_executable(library, fndesc, environment),
            fndesc=fndesc, type_annotation=typeann, signature=signature, objectmode=objectmode, lifted=lifted,
            typing_error=None, call_helper=None, metadata=None, reload_init=reload_init,
            referenced_envs=referenced_envs)
        for referenced in referenced_envs:
            library.codegen.set_env(referenced.env_name, referenced)
        return result


class InlineOnlyCache(FunctionCache):
    """Numba's function cache for inner functions (`InlineOnlyCacheImpl`)."""

    _impl_class = InlineOnlyCacheImpl


class InnerDispatcher(CPUDispatcher):
    """The dispatcher of a function that only compiled code calls (see the module docstring).

    A compiled caller gets one specialisation per plain argument type (`plain_type`); a call whose plain
    types do not compile (a literal the function needs, say) falls back to the literal types. A call from Python
    goes to `with_entry_points`'s dispatcher of the same function, compiled when first needed and cached
    apart.
    """

    _python_entry = None

    def get_call_template(self, args, kws):
        if self._can_compile:
            plain_args = tuple(plain_type(a) for a in args)
            plain_kws = {k: plain_type(v) for k, v in kws.items()}
            if plain_args != tuple(args) or plain_kws != kws:
                try:
                    return super().get_call_template(plain_args, plain_kws)
                except errors.TypingError:
                    pass
        return super().get_call_template(args, kws)

    def enable_caching(self):
        if not cache_room.UNCACHED:
            self._cache = InlineOnlyCache(self.py_func)

    def __call__(self, *args, **kwargs):
        entry = self._python_entry
        if entry is None:
            entry = self._python_entry = with_entry_points(self)
        return entry(*args, **kwargs)


def inner(**options):
    """A decorator compiling a function with `InnerDispatcher`, cached, with the extra Numba target
    ``options``; under ``NUMBA_DISABLE_JIT=1`` it returns the function unchanged."""
    def compile_mode(function):
        if config.DISABLE_JIT:
            return function
        dispatcher = InnerDispatcher(py_func=function, locals={}, pipeline_class=InlineOnlyCompiler,
                                     targetoptions={"nopython": True, "boundscheck": None, **WRAPPER_OPTIONS,
                                                    **options})
        dispatcher.enable_caching()
        return dispatcher
    return compile_mode
