"""Fixtures the tests share (the helpers themselves are in :mod:`tests.support`, importable by any test file).

repo
    The root of the checkout (``pyproject.toml``, ``results/``, ``docs/``).
golfsim_cli
    :func:`tests.support.run_golfsim`: ``golfsim_cli(*args, cwd=None, env=None, timeout=300)`` runs the command in a
    new process with a timeout and returns the completed process.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import REPO, run_golfsim


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def golfsim_cli():
    return run_golfsim
