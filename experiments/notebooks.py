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
    """The notebook at ``path`` with every cell run in a fresh kernel (``games``: see :func:`execute`)."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    before = os.environ.get(NOTEBOOK_GAMES_ENV)
    if games is None:
        os.environ.pop(NOTEBOOK_GAMES_ENV, None)
    else:
        os.environ[NOTEBOOK_GAMES_ENV] = str(games)  # the kernel inherits this process's environment
    try:
        NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        if before is None:
            os.environ.pop(NOTEBOOK_GAMES_ENV, None)
        else:
            os.environ[NOTEBOOK_GAMES_ENV] = before
    return notebook


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
