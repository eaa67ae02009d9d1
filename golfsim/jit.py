"""The two compile modes golfsim uses.

``hot`` compiles a function without Numba's reference counting (NRT). Numba cannot prune the array
incref/decref pairs that it emits when a function has several branches that read an array
(numba issue #2350); those atomic calls cost about 20 ns per call, more than a whole legal-move check.
Functions compiled with ``hot`` must never allocate (no ``np.empty``, no slicing into new arrays that
escape); functions that allocate use plain ``njit(cache=True)``.
"""

from numba import njit

hot = njit(cache=True, _nrt=False)
