"""Reading the learned value's weight files; the shipped one is ``models/learned.json``
([`SHIPPED`][golfsim.agents.learned.model.SHIPPED]).

A model file is JSON with ``weights`` (``NUM_ROWS`` lists of ``NUM_FEATURES`` numbers), ``features`` and ``rows``
(the names, checked on reading so that a file from another feature layout is refused), ``command`` (the exact
command that made it) and ``training`` (its settings and sample counts). Training writes them
([`golfsim.learning.model`][]); the player only reads them, so it lives here with the player.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from golfsim.agents.learned.value import (
    FEATURE_NAMES,
    FEATURE_NAMES_NT,
    NUM_FEATURES,
    NUM_FEATURES_NT,
    NUM_ROWS,
    ROW_NAMES,
)

SHIPPED = Path(__file__).resolve().parent / "models" / "learned.json"
"""The model the agent ``learned`` plays with."""
SHIPPED_NT = Path(__file__).resolve().parent / "models" / "learned_ntuple.json"
"""The n-tuple model (model 2) ``learned:model=2`` plays with: the linear features plus column-state tables."""

MODEL_FORMAT = "golfsim learned value 1"
MODEL_FORMAT_NT = "golfsim learned value 2 (n-tuple)"


def load_model(path: Path = SHIPPED, width: int = NUM_FEATURES) -> tuple[np.ndarray, dict]:
    """The weights ``(NUM_ROWS, width)`` of a model file and its whole document (``width`` ``NUM_FEATURES`` for
    the linear model, ``NUM_FEATURES_NT`` for the n-tuple one).

    Raises
    ------
    ValueError
        When the file is missing, not a model file, or made for another feature layout.
    """
    path = Path(path)
    try:
        doc = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read the model file {path}: {e}") from None
    names = FEATURE_NAMES_NT if width == NUM_FEATURES_NT else FEATURE_NAMES
    if not isinstance(doc, dict) or doc.get("features") != list(names) or doc.get("rows") != list(ROW_NAMES):
        raise ValueError(f"{path} is not a model for this version's features (golfsim learn makes one)")
    try:
        weights = np.asarray(doc["weights"], dtype=np.float64)
    except KeyError:
        raise ValueError(f"{path} is not a model file: it has no 'weights'") from None
    except (TypeError, ValueError):
        weights = np.zeros(0)
    if weights.shape != (NUM_ROWS, len(names)) or not np.all(np.isfinite(weights)):
        raise ValueError(f"{path}: weights must be {NUM_ROWS} rows of {len(names)} finite numbers")
    return np.ascontiguousarray(weights), doc
