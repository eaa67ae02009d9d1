"""Execute the notebooks in place, with their outputs saved: ``python -m golfsim.experiments.notebooks [--games N]``.

By default every notebook runs at full size (``GOLFSIM_NOTEBOOK_GAMES=full``: the same sizes and seed as
``results/``, so the notebooks' tables equal the committed ones); ``--games N`` runs them at N games per cell instead.
The test suite executes them with nbmake at the small default size.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from golfsim.experiments import NOTEBOOK_GAMES_ENV

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def execute(path: Path | str, games: str = "full", timeout: int | None = None) -> Path:
    """Run every cell of the notebook at ``path`` in a fresh kernel and save it with its outputs."""
    import nbformat
    from nbclient import NotebookClient

    path = Path(path)
    notebook = nbformat.read(path, as_version=4)
    before = os.environ.get(NOTEBOOK_GAMES_ENV)
    os.environ[NOTEBOOK_GAMES_ENV] = str(games)  # the kernel inherits this process's environment
    try:
        NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                       resources={"metadata": {"path": str(path.parent)}}).execute()
    finally:
        if before is None:
            os.environ.pop(NOTEBOOK_GAMES_ENV, None)
        else:
            os.environ[NOTEBOOK_GAMES_ENV] = before
    nbformat.write(notebook, path)
    return path


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="full", help="games per cell, or 'full' (default)")
    parser.add_argument("paths", nargs="*", type=Path, help="notebooks (default: every notebook in notebooks/)")
    args = parser.parse_args(argv)
    for path in args.paths or sorted(NOTEBOOKS.glob("*.ipynb")):
        start = time.perf_counter()
        execute(path, args.games)
        print(f"executed {path} ({args.games}) in {time.perf_counter() - start:,.0f} s", flush=True)


if __name__ == "__main__":
    main()
