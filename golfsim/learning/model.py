"""Weight files of the learned value: JSON with the weights, the feature and row names, and how they were made.

A model file holds ``weights`` (``NUM_ROWS`` lists of ``NUM_FEATURES`` numbers), ``features`` and ``rows`` (the
names, checked on reading so that a file from another feature layout is refused), ``command`` (the exact command
that made it) and ``training`` (its settings and sample counts). The shipped model is
``golfsim/learning/models/learned.json`` (:data:`SHIPPED`).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

SHIPPED = Path(__file__).resolve().parent / "models" / "learned.json"
"""The model the agent ``learned`` plays with."""


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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def publish(tmp: str | Path, path: Path) -> None:
    """Give the finished temporary file ``tmp`` the usual permissions and rename it to ``path`` (atomic)."""
    os.chmod(tmp, 0o666 & ~_umask())
    os.replace(tmp, path)


def model_json(weights: np.ndarray, command: str, training: dict) -> str:
    """The text of a model file."""
    from golfsim.learning.value import FEATURE_NAMES, ROW_NAMES  # here: golfsim.agents imports this module

    doc = {
        "format": "golfsim learned value 1",
        "command": command,
        "features": list(FEATURE_NAMES),
        "rows": list(ROW_NAMES),
        "weights": [[float(x) for x in row] for row in weights],
        "training": training,
    }
    return json.dumps(doc, indent=1) + "\n"


def save_model(path: Path, weights: np.ndarray, command: str, training: dict) -> None:
    """Write a model file atomically."""
    atomic_write_text(path, model_json(weights, command, training))


def load_model(path: Path = SHIPPED) -> tuple[np.ndarray, dict]:
    """The weights ``(NUM_ROWS, NUM_FEATURES)`` of a model file and its whole document.

    Raises
    ------
    ValueError
        When the file is missing, not a model file, or made for another feature layout.
    """
    from golfsim.learning.value import FEATURE_NAMES, NUM_FEATURES, NUM_ROWS, ROW_NAMES

    path = Path(path)
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read the model file {path}: {e}") from None
    if not isinstance(doc, dict) or doc.get("features") != list(FEATURE_NAMES) or doc.get("rows") != list(ROW_NAMES):
        raise ValueError(f"{path} is not a model for this version's features (golfsim learn makes one)")
    weights = np.asarray(doc["weights"], dtype=np.float64)
    if weights.shape != (NUM_ROWS, NUM_FEATURES) or not np.all(np.isfinite(weights)):
        raise ValueError(f"{path}: weights must be {NUM_ROWS} rows of {NUM_FEATURES} finite numbers")
    return np.ascontiguousarray(weights), doc
