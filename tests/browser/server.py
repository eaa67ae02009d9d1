"""``golfsim serve`` started for a test as a person starts it: on 127.0.0.1 at a free port, waited for, and always
stopped (SIGTERM, then SIGKILL after a timeout) whatever the test does."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.support import REPO


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serving(save_dir: Path, start_timeout: float = 120, stop_timeout: float = 10):
    """Yield the base URL of a running ``golfsim serve --save-dir save_dir``."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "GOLFSIM_AGENT_MODULES"}
    proc = subprocess.Popen([sys.executable, "-m", "golfsim", "serve", "--port", str(port), "--save-dir",
                             str(save_dir)], cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"golfsim serve exited with {proc.returncode}: {proc.stderr.read()}")
            try:
                urllib.request.urlopen(url + "/", timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"golfsim serve did not answer on {url} in {start_timeout} s") from None
                time.sleep(0.2)
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(stop_timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(stop_timeout)
        proc.stdout.close()
        proc.stderr.close()
