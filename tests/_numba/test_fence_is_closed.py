"""The fence is closed: outside ``golfsim/_numba/`` no module imports ``numba.core`` or hands ``njit`` an option
that Numba does not document (``_nrt``, ``forceinline``, ...), read from the sources with :mod:`ast`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("golfsim", "agents", "experiments")
FENCE = ROOT / "golfsim" / "_numba"

COMPILERS = {"njit", "jit", "cfunc", "vectorize", "guvectorize", "generated_jit"}
PUBLIC_OPTIONS = {"cache", "nogil", "parallel", "fastmath", "error_model", "boundscheck", "inline", "locals",
                  "nopython", "forceobj", "looplift", "debug", "signature_or_function", "target"}
"""The options of Numba's documented ``@jit`` family (its user manual, "Compilation options")."""
FENCE_OPTION_NAMES = {"NO_NRT"}
"""Names exported by :mod:`golfsim._numba.jit` that may be spread into ``njit(**...)``: the fence fills them."""


def _dotted(node) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def leaks(source: str) -> list[str]:
    """Every place in ``source`` that reaches past the fence, as ``"line N: what"``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if a.name == "numba.core" or a.name.startswith("numba.core.")]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "numba.core" or node.module.startswith("numba.core."):
                found.append(f"line {node.lineno}: from {node.module} import")
            elif node.module == "numba" and any(a.name == "core" for a in node.names):
                found.append(f"line {node.lineno}: from numba import core")
        elif isinstance(node, ast.Attribute) and _dotted(node) == "numba.core":
            found.append(f"line {node.lineno}: {_dotted(node)}")
        elif isinstance(node, ast.Call) and _dotted(node.func).rsplit(".", 1)[-1] in COMPILERS:
            for kw in node.keywords:
                if kw.arg is None:
                    spread = _dotted(kw.value)
                    if spread.rsplit(".", 1)[-1] not in FENCE_OPTION_NAMES:
                        found.append(f"line {node.lineno}: {_dotted(node.func)}(**{spread or '...'})")
                elif kw.arg not in PUBLIC_OPTIONS:
                    found.append(f"line {node.lineno}: {_dotted(node.func)}({kw.arg}=...)")
    return sorted(found, key=lambda leak: int(leak.split(":")[0].split()[1]))


def library_sources():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if FENCE not in path.parents:
                yield path


def test_the_checker_sees_every_kind_of_leak():
    source = (
        "import numba.core.event\n"
        "from numba.core import types\n"
        "from numba import core, njit\n"
        "import numba\n"
        "x = numba.core.errors\n"
        "@njit(cache=True, _nrt=False)\n"
        "def f(): pass\n"
        "@numba.njit(forceinline=True)\n"
        "def g(): pass\n"
        "h = njit(**{'_nrt': False})(f)\n"
    )
    assert [line.split(":")[0] for line in leaks(source)] == [f"line {n}" for n in (1, 2, 3, 5, 6, 8, 10)]


def test_public_options_and_the_fence_names_pass():
    source = (
        "from numba import njit, types\n"
        "from numba.extending import typeof_impl\n"
        "from golfsim._numba.jit import NO_NRT\n"
        "@njit(cache=True, nogil=True, **NO_NRT)\n"
        "def f(): pass\n"
        "g = njit(cache=True, inline='always')(f)\n"
    )
    assert leaks(source) == []


def test_no_module_outside_the_fence_reaches_numba_internals():
    sources = list(library_sources())
    assert len(sources) > 100  # the walk found the library
    found = [f"{path.relative_to(ROOT)} {leak}" for path in sources for leak in leaks(path.read_text())]
    assert found == []
