"""The import picture: no circle among golfsim's modules and no subsystem importing one above it, computed from the
sources with :mod:`ast` (every import counts, those inside functions too).

The floors are those of the package docstring of :mod:`golfsim` (lowest first); a new subsystem must be placed on
one here before its imports can pass.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"golfsim": "golfsim", "agents": "golfsim.agents", "experiments": "golfsim.experiments"}

FLOORS = (
    ("golfsim", "atomic", "stats"),  # the lazy package root and the standard-library leaves
    ("_numba",),
    ("core",),
    ("view",),
    ("agents",),
    ("game",),
    ("kernels",),
    ("interop",),
    ("runs",),
    ("logs", "coach", "learning"),
    ("tournament",),
    ("sweep", "tuning"),
    ("agent_checks",),
    ("experiments",),
    ("cli", "web"),
    ("__main__",),
)
FLOOR = {name: level for level, names in enumerate(FLOORS) for name in names}


def module_files(root: Path, folders: dict[str, str]) -> dict[str, Path]:
    """Every module's dotted name and file under ``root``'s ``folders`` (folder -> dotted package name)."""
    modules = {}
    for folder, package in folders.items():
        for path in sorted((root / folder).rglob("*.py")):
            parts = package.split(".") + list(path.relative_to(root / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the golfsim modules it imports (``from package import submodule`` is an edge to the submodule)."""
    graph = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
            edges.update(t for t in targets if t in modules and t != name)
        graph[name] = edges
    return graph


def subsystem(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module on a higher floor, and every module of a subsystem on no floor."""
    found = []
    for name, edges in sorted(graph.items()):
        if subsystem(name) not in FLOOR:
            found.append(f"{name}: subsystem {subsystem(name)!r} is on no floor")
            continue
        found += [f"{name} imports {t}" for t in sorted(edges) if FLOOR.get(subsystem(t), -1) > FLOOR[subsystem(name)]]
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_the_checks_find_a_circle_and_an_upward_import(tmp_path):
    files = {
        "__init__.py": "",
        "core/__init__.py": "",
        "core/engine.py": "from golfsim.kernels import simulate\n",  # upward
        "kernels/__init__.py": "",
        "kernels/simulate.py": "def f():\n    from . import logged\n",
        "kernels/logged.py": "from golfsim.kernels.simulate import f\nfrom golfsim.core import engine\n",
        "nowhere/__init__.py": "",
    }
    for name, text in files.items():
        (tmp_path / "golfsim" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "golfsim" / name).write_text(text)
    graph = import_graph(module_files(tmp_path, {"golfsim": "golfsim"}))
    assert graph["golfsim.kernels.simulate"] == {"golfsim.kernels.logged"}
    assert upward_imports(graph) == ["golfsim.core.engine imports golfsim.kernels.simulate",
                                     "golfsim.nowhere: subsystem 'nowhere' is on no floor"]
    assert circles(graph) == [["golfsim.core.engine", "golfsim.kernels.logged", "golfsim.kernels.simulate"]]


def test_golfsim_has_no_upward_import_and_no_circle():
    graph = import_graph(module_files(ROOT, FOLDERS))
    assert len(graph) > 100 and sum(map(len, graph.values())) > 300  # the walk found the library's imports
    assert upward_imports(graph) == []
    assert circles(graph) == []
