"""A committed result read back as an [`ExperimentOutput`][golfsim.experiments.common.ExperimentOutput]: the notebooks
open on ``results/<name>/`` in seconds instead of playing the experiment again (hours at full size).

``load("tips")`` reads ``results/tips/table.csv`` (the table), ``config.json`` (sizes, seed, rules), the notes
under the table in ``table.md`` and every other ``<stem>.csv`` beside them (``extra_tables``). No figure is read:
a notebook draws its own from the table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from golfsim.experiments.common import ExperimentOutput

#: The checkout's committed results (the experiments live in ``experiments/`` beside ``results/``).
RESULTS = Path(__file__).resolve().parent.parent / "results"


def read_table(path: Path | str) -> pd.DataFrame:
    """A committed table: an empty cell is missing, a text such as ``-`` or ``none`` stays text."""
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def notes(markdown: str) -> list[str]:
    """The bullet notes written under the table of a ``table.md`` (``markdown_table(table, notes)``)."""
    lines = markdown.splitlines()
    last_row = max((i for i, line in enumerate(lines) if line.startswith("|")), default=-1)
    return [line[2:] for line in lines[last_row + 1:] if line.startswith("- ")]


def load(name: str, results: Path | str | None = None) -> ExperimentOutput:
    """The committed result of experiment ``name``.

    Parameters
    ----------
    name : str
        The folder under ``results`` (``tips``, ``variants``, ``players``, ``luck``...).
    results : path, optional
        The results folder (default: the checkout's ``results/``).

    Returns
    -------
    ExperimentOutput
        Its ``table``, ``config``, ``notes`` and ``extra_tables``; no figures.

    Raises
    ------
    FileNotFoundError
        When ``results/<name>`` holds no ``table.csv`` or ``config.json``.
    """
    folder = Path(results or RESULTS) / name
    for needed in ("table.csv", "config.json"):
        if not (folder / needed).is_file():
            raise FileNotFoundError(f"{folder / needed} not found: is this a checkout with its committed results?")
    markdown = folder / "table.md"
    extra = {p.stem: read_table(p) for p in sorted(folder.glob("*.csv")) if p.name != "table.csv"}
    return ExperimentOutput(name=name, table=read_table(folder / "table.csv"),
                            config=json.loads((folder / "config.json").read_text()),
                            notes=notes(markdown.read_text()) if markdown.is_file() else [], extra_tables=extra)
