"""Loading user agents: installed packages and local files register themselves on import.

Two sources, read the first time an agent is looked up by name
([`ensure_loaded`][golfsim.agents.plugins.ensure_loaded]), not when [`agents`][golfsim.agents] is imported, so a user
module may itself import [`golfsim.kernels.simulate`][] or anything else from golfsim:

- a package declares an entry point in the group ``golfsim.agents`` (its module registers agents on import);
- the environment variable ``GOLFSIM_AGENT_MODULES`` lists module names or ``.py`` file paths, comma-separated.

A module that cannot be loaded (missing, a syntax error, an exception while importing) raises
[`PluginError`][golfsim.agents.plugins.PluginError], a ``ValueError`` whose message is one line naming the module and
the cause.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import shlex
import sys
import traceback
from importlib.metadata import entry_points
from pathlib import Path

ENV_VAR = "GOLFSIM_AGENT_MODULES"
ENTRY_POINT_GROUP = "golfsim.agents"

_loaded: set[str] = set()
_loading = False


class PluginError(ValueError):
    """A user agent module could not be loaded; the message is one line."""


def _where(exc: BaseException, path: Path | None) -> str:
    """``file:line`` of the innermost traceback frame in the user's file (or the innermost frame at all)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if path is not None:
        mine = [f for f in frames if Path(f.filename).resolve() == path]
        frames = mine or frames
    if not frames:
        return ""
    return f" (at {frames[-1].filename}:{frames[-1].lineno})"


def load_module(spec: str):
    """Import a module by name, or a ``.py`` file by path; importing twice returns the same module.

    A file's folder joins the *end* of ``sys.path`` (so Numba's cache can import it again by name in a later run),
    never the front: a file next to it that has a library's name (``pyarrow.py``) cannot take that library's
    place. While the module imports, what it prints goes to stderr, so a command's ``--format json`` output on
    stdout stays one document; a ``sys.exit`` in it is a [`PluginError`][golfsim.agents.plugins.PluginError] like any
    other failure.

    Raises
    ------
    PluginError
        When the file or module does not exist, its name is taken by another module, or importing it fails; the
        message names the module and the cause.
    """
    spec = spec.strip()
    path = None
    name = spec
    if spec.endswith(".py"):
        path = Path(spec).resolve()
        if not path.is_file():
            raise PluginError(f"{ENV_VAR}: no agent file at {spec!r}")
        if str(path.parent) not in sys.path:
            sys.path.append(str(path.parent))
        name = path.stem
        _check_not_shadowed(spec, name, path)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            return importlib.import_module(name)
    except SystemExit as e:
        sys.modules.pop(name, None)
        raise PluginError(f"{ENV_VAR}: importing {spec!r} called sys.exit({e.code!r}); an agent module must not "
                          f"exit{_where(e, path)}") from None
    except SyntaxError as e:
        raise PluginError(f"{ENV_VAR}: {spec!r} has a syntax error at {e.filename}:{e.lineno}: {e.msg}") from None
    except ModuleNotFoundError as e:
        if e.name is not None and (name == e.name or name.startswith(e.name + ".")):
            raise PluginError(f"{ENV_VAR}: no module named {name!r} (give an importable module name or the "
                              "path of a .py file)") from None
        raise PluginError(f"{ENV_VAR}: importing {spec!r} failed: {type(e).__name__}: {e}{_where(e, path)}") \
            from None
    except Exception as e:  # anything the user's module raises while it registers its agents
        sys.modules.pop(name, None)
        message = " ".join(str(e).split()) or "(no message)"
        raise PluginError(f"{ENV_VAR}: importing {spec!r} failed: {type(e).__name__}: {message}{_where(e, path)}") \
            from None


def _check_not_shadowed(spec: str, name: str, path: Path) -> None:
    """Refuse an agent file whose name is another module's (that module would be imported in its place)."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        origin = getattr(loaded, "__file__", None)
        if origin is not None and Path(origin).resolve() == path:
            return
    else:
        try:
            found = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            found = None
        if found is None or found.origin is None or Path(found.origin).resolve() == path:
            return
    raise PluginError(f"{ENV_VAR}: the agent file {spec!r} has the name of the module {name!r} that is imported "
                      "instead of it; rename the file")


def _load_entry_point(ep) -> None:
    try:
        with contextlib.redirect_stdout(sys.stderr):
            ep.load()
    except SystemExit as e:
        raise PluginError(f"entry point {ep.name!r} ({ep.value}) in group {ENTRY_POINT_GROUP!r} called "
                          f"sys.exit({e.code!r}) while loading") from None
    except Exception as e:
        message = " ".join(str(e).split()) or "(no message)"
        raise PluginError(f"entry point {ep.name!r} ({ep.value}) in group {ENTRY_POINT_GROUP!r} failed to load: "
                          f"{type(e).__name__}: {message}") from None


def ensure_loaded() -> None:
    """Import every agent module named by entry points and by ``GOLFSIM_AGENT_MODULES`` not imported yet.

    Called before an agent is looked up by name; cheap when everything is loaded. A module that fails is tried
    again on the next call (and fails again with the same message).
    """
    global _loading
    if _loading:  # a user module looking up an agent while it is being imported
        return
    _loading = True
    try:
        if ENTRY_POINT_GROUP not in _loaded:  # installed packages do not change while a process runs
            for ep in entry_points(group=ENTRY_POINT_GROUP):
                _load_entry_point(ep)
            _loaded.add(ENTRY_POINT_GROUP)
        for spec in os.environ.get(ENV_VAR, "").split(","):
            spec = spec.strip()
            if spec and spec not in _loaded:
                load_module(spec)
                _loaded.add(spec)
    finally:
        _loading = False


def loaded_from_environment() -> tuple[str, ...]:
    """The modules named by ``GOLFSIM_AGENT_MODULES`` now that this process has loaded, ``.py`` paths made
    absolute (a rerun may start in another folder)."""
    specs = (s.strip() for s in os.environ.get(ENV_VAR, "").split(","))
    return tuple(str(Path(s).resolve()) if s.endswith(".py") else s for s in specs if s and s in _loaded)


def rerun_command(command: str) -> str:
    """``command`` as a shell line that reruns as written: prefixed with ``GOLFSIM_AGENT_MODULES=...`` when agent
    modules were loaded through that variable
    ([`loaded_from_environment`][golfsim.agents.plugins.loaded_from_environment]), unchanged otherwise.

    Parameters
    ----------
    command : str
        A shell command line, e.g. ``"golfsim tournament --agents cautious,greedy ..."``.

    Returns
    -------
    str
    """
    modules = loaded_from_environment()
    if not modules:
        return command
    return f"{ENV_VAR}={shlex.quote(','.join(modules))} {command}"
