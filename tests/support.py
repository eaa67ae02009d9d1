"""What many test files need: the repository's root, and the ``golfsim`` command run as a person runs it.

``run_golfsim(*args, cwd=None, env=None, timeout=300)`` runs ``python -m golfsim ARGS`` in a new process and returns
the ``subprocess.CompletedProcess`` (text output captured). The process is killed at ``timeout`` seconds, so a hung
command fails its test instead of holding the suite. ``GOLFSIM_AGENT_MODULES`` of the calling environment is dropped
(a developer's own plugins must not change what a test sees); give it in ``env`` to load plugins. The fixtures of
``tests/conftest.py`` hand the same to a test that asks for them.

:func:`signal_when` starts a command and sends it a signal when its stderr shows a line, as a person presses Ctrl-C
once a run is under way; it too kills a process that does not end in time.

:func:`default_sigint` is the ``preexec_fn`` of every child a test interrupts: a suite run as a background job
(``pytest ... &``, some CI runners) ignores SIGINT, a child inherits that, and Ctrl-C would never reach it.
"""

from __future__ import annotations

import os
import signal
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


def default_sigint() -> None:
    """For ``preexec_fn``: the child starts with Ctrl-C's default handler even when this suite runs with SIGINT
    ignored (as a background job), as a person's shell would start it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signal_when(command: list[str], trigger: str, sig: int = signal.SIGINT,
                timeout: float = 300) -> tuple[int, str, str]:
    """Run ``command`` (from the repository's root, ``COLUMNS=200``); send ``sig`` as soon as a line of its stderr
    contains ``trigger``; return its exit status, stdout and stderr. The process is killed if it has not ended
    ``timeout`` seconds later, so a run that does not stop fails its test instead of being left behind."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                            env={**os.environ, "COLUMNS": "200"}, preexec_fn=default_sigint)
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if trigger in line:
                proc.send_signal(sig)
                break
        out, rest = proc.communicate(timeout=timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    return proc.returncode, out, "".join(seen) + rest
