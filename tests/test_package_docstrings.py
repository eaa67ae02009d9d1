"""A package's docstring is its table of contents: every module of ``kernels`` and ``runs`` is named in it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("package", ["kernels", "runs"])
def test_the_package_docstring_names_every_module(package):
    modules = sorted(p.stem for p in (ROOT / "golfsim" / package).glob("*.py") if p.stem != "__init__")
    doc = importlib.import_module(f"golfsim.{package}").__doc__
    assert len(modules) >= 10
    # named as a link to its API page ([`golfsim.runs.tasks`][]) or, for a module without one, as plain code
    assert [m for m in modules if f"`golfsim.{package}.{m}`" not in doc] == []
