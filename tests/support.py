"""What many test files need: the repository's root, and the ``golfsim`` command run as a person runs it.

``run_golfsim(*args, cwd=None, env=None, timeout=300)`` runs ``python -m golfsim ARGS`` in a new process and returns
the ``subprocess.CompletedProcess`` (text output captured). The process is killed at ``timeout`` seconds, so a hung
command fails its test instead of holding the suite. ``GOLFSIM_AGENT_MODULES`` of the calling environment is dropped
(a developer's own plugins must not change what a test sees); give it in ``env`` to load plugins. The fixtures of
``tests/conftest.py`` hand the same to a test that asks for them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run_golfsim(*args, cwd=None, env=None, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python -m golfsim ARGS`` in a new process with a timeout; see the module docstring."""
    environment = {k: v for k, v in os.environ.items() if k != "GOLFSIM_AGENT_MODULES"}
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "golfsim", *map(str, args)], capture_output=True, text=True,
                          env=environment, cwd=cwd or REPO, timeout=timeout)
