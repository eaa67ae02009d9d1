"""Never replace a complete result with a partial one: what an interrupted run may write over.

A run stopped by Ctrl-C or SIGTERM keeps what it finished and writes it, marked partial. Written into a directory
that already holds a complete result (``config.json`` without ``"partial": true``), it would replace that result
with less; [`holds_complete_result`][golfsim.runs.complete_result.holds_complete_result] tells the commands to keep the
complete one and say so instead.
"""

from __future__ import annotations

import json
from pathlib import Path


def holds_complete_result(directory: Path | str) -> bool:
    """Whether ``directory`` holds a result written by a run that finished (its ``config.json`` is not partial).

    A missing, unreadable or malformed ``config.json`` is not a complete result.
    """
    path = Path(directory) / "config.json"
    try:
        config = json.loads(path.read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    if not isinstance(config, dict) or not config:
        return False
    return config.get("partial", False) is False  # results written before runs recorded it were complete
