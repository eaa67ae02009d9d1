"""The library never chooses matplotlib's backend: no ``matplotlib.use`` and no pyplot in golfsim/, agents/ or
experiments/ (figures are drawn with :func:`golfsim.runs.figures.subplots`), so a notebook keeps its own."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def backend_switches(source: str) -> list[int]:
    """Lines of ``source`` that call ``matplotlib.use`` or import ``matplotlib.pyplot``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(a.name == "matplotlib.pyplot" for a in node.names):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and (node.module == "matplotlib.pyplot" or (
                node.module == "matplotlib" and any(a.name in ("pyplot", "use") for a in node.names))):
            lines.append(node.lineno)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "use"
              and isinstance(node.func.value, ast.Name) and node.func.value.id in ("matplotlib", "mpl")):
            lines.append(node.lineno)
    return sorted(lines)


def test_the_check_finds_a_backend_switch():
    source = "import matplotlib\nmatplotlib.use('Agg', force=True)\nimport matplotlib.pyplot as plt\n" \
             "from matplotlib import pyplot\nfrom matplotlib.figure import Figure\n"
    assert backend_switches(source) == [2, 3, 4]


def test_no_library_module_switches_the_backend():
    found = [f"{path.relative_to(ROOT)}:{line}" for folder in ("golfsim", "agents", "experiments")
             for path in sorted((ROOT / folder).rglob("*.py")) for line in backend_switches(path.read_text())]
    assert found == []
