"""The compile modes golfsim uses.

``hot`` compiles a function without Numba's reference counting (NRT). Numba cannot prune the array
incref/decref pairs that it emits when a function has several branches that read an array
(numba issue #2350); those atomic calls cost about 20 ns per call, more than a whole legal-move check.
Functions compiled with ``hot`` must never allocate (no ``np.empty``, no slicing into new arrays that
escape); functions that allocate use plain ``njit(cache=True)``.

``leaf`` is ``hot`` plus inlining at Numba's IR level into every caller. A call that passes three or four
arrays costs more than the small function's body (each array is a seven-field struct), so the small rule
functions on the hot path are leaves; measured on the random-agent deal loop: 2050 ns per deal with calls,
800 ns with the hot path inlined. Inline only small functions or ones with few call sites: every call site
compiles its own copy. A leaf must only be called from ``hot`` or ``leaf`` functions, since inlined into a
function with reference counting it brings the refcount calls back.
"""

from numba import njit

hot = njit(cache=True, _nrt=False)
leaf = njit(cache=True, _nrt=False, forceinline=True)
