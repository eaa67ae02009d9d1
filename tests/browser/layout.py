"""Helpers of the browser tests: element boxes, overlap, screenshots."""

from __future__ import annotations

import os
from pathlib import Path


def screenshot(page, name: str, tmp_path: Path) -> Path:
    """Save a screenshot as ``name`` in ``GOLFSIM_SCREENSHOTS`` (the guide's pictures) or under ``tmp_path``."""
    folder = Path(os.environ.get("GOLFSIM_SCREENSHOTS") or tmp_path)
    path = folder / name
    page.screenshot(path=str(path))
    return path


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not shown"
    return found


def overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])
