"""Execute the notebooks in place, with their outputs saved: ``python -m golfsim.experiments.notebooks [--games N]``.

By default every notebook reads the committed ``results/`` (``GOLFSIM_NOTEBOOK_GAMES`` unset; seconds), which is how
the committed notebooks are executed: they open on GitHub with their figures and tables. ``--games N`` (or
``--games full``, the size of ``results/``) plays the experiments again at that size instead. The test suite executes
every notebook again and compares its outputs with the committed ones (tests/notebooks/test_outputs.py).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from golfsim.experiments import NOTEBOOK_GAMES_ENV

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def run(path: Path | str, games: str | None = None, timeout: int | None = None):
    """The notebook at ``path`` with every cell run in a fresh kernel (``games``: see `execute`)."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    # the kernel inherits this process's environment: the size, and matplotlib's inline backend (MPLBACKEND=Agg, as
    # CI sets it, would make plt.show() draw nothing into the notebook)
    kernel_env = {NOTEBOOK_GAMES_ENV: None if games is None else str(games),
                  "MPLBACKEND": "module://matplotlib_inline.backend_inline"}
    before = {name: os.environ.get(name) for name in kernel_env}
    try:
        for name, value in kernel_env.items():
            _set(name, value)
        NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        for name, value in before.items():
            _set(name, value)
    return notebook


def _set(name: str, value: str | None) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = value


def execute(path: Path | str, games: str | None = None, timeout: int | None = None) -> Path:
    """Run every cell of the notebook at ``path`` in a fresh kernel and save it with its outputs.

    ``games``: ``None`` reads the committed ``results/``; a number or ``full`` plays the experiments again.
    """
    import nbformat

    nbformat.write(run(path, games, timeout), path)
    return path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=None,
                        help="play the experiments again at N games per cell, or 'full' (default: read results/)")
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks (default: every notebook in notebooks/)")
    args = parser.parse_args(argv)
    for path in args.paths or sorted(NOTEBOOKS.glob("*.ipynb")):
        start = time.perf_counter()
        execute(path, args.games)
        print(f"executed {path} ({args.games or 'results/'}) in {time.perf_counter() - start:,.0f} s", flush=True)


if __name__ == "__main__":
    main()
