"""A plain-Python agent that never returns cannot keep a run alive after Ctrl-C or SIGTERM.

A real ``golfsim tournament`` process at ``--threads 1`` seats an agent that announces its first decision on stderr
and then sleeps forever; the signal is sent when that line appears. The run must end with exit status 130 and its
one-line message, not hang (the process is killed at the timeout, which fails the test) and not print a traceback.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from tests.support import REPO

STUCK_AGENT = textwrap.dedent("""
    import sys
    import time

    from golfsim.agents import register_python_agent

    def make_stuck(params):
        def stuck(observation):
            print("STUCK AGENT DECIDING", file=sys.stderr, flush=True)
            while True:
                time.sleep(3600)
        return stuck

    register_python_agent("stuck", "never returns", make_stuck)
""")


def _default_sigint():
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # the suite may run with SIGINT ignored; a person's shell does not


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_ends_a_run_whose_python_agent_never_returns(tmp_path, sig):
    plugin = tmp_path / "stuck_agent.py"
    plugin.write_text(STUCK_AGENT)
    env = {**os.environ, "GOLFSIM_AGENT_MODULES": str(plugin), "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "tournament", "--agents", "stuck,greedy", "--games",
                             "20", "--threads", "1", "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=REPO, env=env, preexec_fn=_default_sigint)
    seen = []
    try:
        for line in proc.stderr:
            seen.append(line)
            if "STUCK AGENT DECIDING" in line:
                proc.send_signal(sig)
                break
        try:
            _, rest = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail("the run was still alive 30 s after the signal: " + "".join(seen))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
    err = "".join(seen) + rest
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "no deal set was complete" in err
