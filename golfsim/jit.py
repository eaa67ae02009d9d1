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
"""

from numba import njit

hot = njit(cache=True, _nrt=False)
leaf = njit(cache=True, _nrt=False, forceinline=True)
