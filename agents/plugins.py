"""Loading user agents: installed packages and local files register themselves on import.

Two ways, both read when :mod:`agents` is imported:

- a package declares an entry point in the group ``golfsim.agents`` (its module registers agents on import);
- the environment variable ``GOLFSIM_AGENT_MODULES`` lists module names or ``.py`` file paths, comma-separated.
"""

from __future__ import annotations

import importlib
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path

ENV_VAR = "GOLFSIM_AGENT_MODULES"


def load_module(spec: str):
    """Import a module by name, or a ``.py`` file by path (its folder joins ``sys.path``, so Numba's cache can
    import it again by name in a later run); importing twice returns the same module."""
    spec = spec.strip()
    if spec.endswith(".py"):
        path = Path(spec).resolve()
        if not path.is_file():
            raise ValueError(f"{ENV_VAR}: no agent file at {spec!r}")
        if str(path.parent) not in sys.path:
            sys.path.insert(0, str(path.parent))
        spec = path.stem
    return importlib.import_module(spec)


def load_plugins() -> None:
    """Import every agent module named by entry points and by ``GOLFSIM_AGENT_MODULES``."""
    for ep in entry_points(group="golfsim.agents"):
        ep.load()
    for spec in filter(None, os.environ.get(ENV_VAR, "").split(",")):
        load_module(spec)
