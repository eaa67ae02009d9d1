"""Writing weight files of the learned value (the format is read by [`golfsim.agents.learned.model`][]).

A model file holds ``weights`` (``NUM_ROWS`` lists of ``NUM_FEATURES`` numbers), ``features`` and ``rows`` (the
names), ``command`` (the exact command that made it) and ``training`` (its settings and sample counts). The
shipped model is ``agents/learned/models/learned.json`` (installed as ``golfsim/agents/learned/models/``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

from golfsim.agents.learned.model import MODEL_FORMAT, MODEL_FORMAT_NT
from golfsim.agents.learned.value import FEATURE_NAMES, FEATURE_NAMES_NT, NUM_FEATURES_NT, ROW_NAMES
from golfsim.atomic import replace_file


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        publish(tmp, path)  # mkstemp made it private; a result file gets the usual permissions
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def publish(tmp: str | Path, path: Path) -> None:
    """Give the finished temporary file ``tmp`` the usual permissions and rename it to ``path`` (atomic; only over a
    regular file or a missing path, [`golfsim.atomic.replace_file`][])."""
    replace_file(tmp, path, "the file")


def model_json(weights: np.ndarray, command: str, training: dict) -> str:
    """The text of a model file."""
    wide = weights.shape[1] == NUM_FEATURES_NT
    doc = {
        "format": MODEL_FORMAT_NT if wide else MODEL_FORMAT,
        "command": command,
        "features": list(FEATURE_NAMES_NT if wide else FEATURE_NAMES),
        "rows": list(ROW_NAMES),
        "weights": [[float(x) for x in row] for row in weights],
        "training": training,
    }
    return json.dumps(doc, indent=1) + "\n"


def save_model(path: Path, weights: np.ndarray, command: str, training: dict) -> None:
    """Write a model file atomically."""
    atomic_write_text(path, model_json(weights, command, training))
