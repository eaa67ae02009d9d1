"""What every experiment shares: where results go and how they are written.

Each experiment writes ``results/<name>/`` with ``table.csv``, ``table.md``, at least one ``figure*.png`` and
``config.json`` (rules, agents, seeds, sample sizes, package version, the command that reproduces it).
"""

from __future__ import annotations

import json
import platform
import sys
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numba  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import golfsim  # noqa: E402

RESULTS = Path(__file__).resolve().parent.parent / "results"


@dataclass
class ExperimentOutput:
    """The table, figures and configuration of one experiment run."""

    name: str
    table: pd.DataFrame
    config: dict
    figures: dict[str, plt.Figure] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def write(self, directory: Path | str | None = None) -> list[Path]:
        """Write ``table.csv``, ``table.md``, the figures and ``config.json``; return the paths written."""
        out = Path(directory) if directory is not None else RESULTS / self.name
        out.mkdir(parents=True, exist_ok=True)
        written = [out / "table.csv", out / "table.md", out / "config.json"]
        self.table.to_csv(written[0], index=False)
        written[1].write_text(markdown_table(self.table, self.notes))
        written[2].write_text(json.dumps(self.config, indent=2, default=_json_default) + "\n")
        for stem, fig in self.figures.items():
            path = out / f"{stem}.png"
            fig.savefig(path, dpi=120, bbox_inches="tight")
            plt.close(fig)
            written.append(path)
        return written


def markdown_table(table: pd.DataFrame, notes=()) -> str:
    """A GitHub-flavoured Markdown table (numbers rounded for reading), followed by notes."""

    def cell(v):
        if isinstance(v, float | np.floating):
            return f"{v:.3f}" if abs(v) < 100 else f"{v:,.1f}"
        return str(v)

    head = "| " + " | ".join(str(c) for c in table.columns) + " |"
    rule = "| " + " | ".join("---" for _ in table.columns) + " |"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in table.itertuples(index=False)]
    text = "\n".join([head, rule, *rows]) + "\n"
    if notes:
        text += "\n" + "\n".join(f"- {n}" for n in notes) + "\n"
    return text


def base_config(name: str, **extra) -> dict:
    """Provenance shared by every experiment's ``config.json``."""
    return {
        "experiment": name,
        "golfsim_version": golfsim.__version__,
        "numba_version": numba.__version__,
        "numpy_version": np.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "command": " ".join(["golfsim", "experiment", name] + sys.argv[3:]) if sys.argv[1:2] == ["experiment"]
        else f"golfsim experiment {name}",
        **extra,
    }


def _json_default(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    if hasattr(v, "to_dict"):
        return v.to_dict()
    return str(v)
