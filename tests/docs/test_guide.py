"""Every code block of the README and the documentation pages runs, so the documentation cannot drift from the code.

A page's blocks are run the way a reader would run them, in a fresh working directory that holds links to the
repository's ``docs/`` and ``experiments/`` (the pages name files such as ``docs/examples/lowball_agent.py``):

- ``toml``: parsed; one whose first line is ``# file: NAME`` is written to ``NAME`` first, for the commands to use.
- ``console``: every ``$ `` line is a command, run by the shell with this environment's ``golfsim``, ``python`` and
  ``dask`` first on the PATH; it must exit with status 0, and every line shown under it must appear in what it
  printed. ``golfsim play`` runs in a pseudo-terminal and is ended with ``q`` at its first prompt. A command ending
  in ``&`` is started in the background and stopped when the page is done; ``HOST`` and port 8786 become this
  machine and a free port.
- ``python``: each block runs on its own (fresh globals) in one Python process per page, after the commands. A
  block that only includes a file (``--8<-- "docs/examples/x.py"``) imports that file as a user's agent module.
- ``bash``: install and build commands only (a new environment per block is too slow for a test); every extra they
  name must exist, and the README's test command must be the one CI runs.

The API reference pages (``docs/api/``) hold no code blocks of their own: mkdocstrings fills them, and CI builds the
site with ``mkdocs build --strict``.
"""

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pexpect
import pytest

from tests.support import REPO

PAGES = sorted([REPO / "README.md", *(p for p in (REPO / "docs").rglob("*.md") if "api" not in p.parts[-2:-1])])
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$')
KINDS = {"python", "console", "toml", "bash"}
TIMEOUT = 900  # seconds for one command: a first run compiles the engine and the bots (mc's search for the hints)

# runs the python blocks of one page, each with fresh globals; a block that is only a file include imports the file
RUNNER = """
import json, sys, traceback
from golfsim.agents.plugins import load_module
for number, (code, include) in enumerate(json.load(open(sys.argv[1]))):
    try:
        if include:
            load_module(include)
        else:
            exec(compile(code, f"<python block {number + 1}>", "exec"), {"__name__": "__main__"})
    except BaseException:
        print(f"python block {number + 1} failed:\\n{code}", file=sys.stderr)
        traceback.print_exc()
        sys.exit(1)
"""


def blocks(page: Path) -> list[tuple[str, str]]:
    """(kind, text) of every fenced code block of ``page``, in order."""
    return [(m[1], m[2]) for m in FENCE.finditer(page.read_text())]


def snippet_of(text: str) -> str | None:
    """The path a block includes with ``--8<--`` when that line is the whole block, or the example file
    (``docs/examples``) the block shows in full, else None: such a block is run by importing the file, as a user
    loads it, so that its agents are registered once."""
    match = SNIPPET.match(text.strip())
    if match:
        return match[1]
    for example in sorted((REPO / "docs" / "examples").glob("*.py")):
        if text == example.read_text():
            return str(example.relative_to(REPO))
    return None


def resolved(text: str) -> str:
    path = snippet_of(text)
    return (REPO / path).read_text() if path else text


PAGES_WITH_CODE = [p for p in PAGES if blocks(p)]
#: Pages whose code takes more than about 3 s (they start golfsim or play real games); the others stay in the
#: development tier
SLOW_PAGES = {"README.md", "docs/guide/bots.md", "docs/guide/clusters.md", "docs/guide/decision-logs.md",
              "docs/guide/experiments.md", "docs/guide/hints.md", "docs/guide/learn.md", "docs/guide/play.md",
              "docs/guide/rl.md", "docs/guide/simulate.md", "docs/guide/sweeps.md", "docs/guide/tournaments.md",
              "docs/guide/tuning.md", "docs/guide/pictures.md", "docs/guide/replay-page.md", "docs/guide/serve.md"}


def page_id(page: Path) -> str:
    return str(page.relative_to(REPO))


def environment() -> dict:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "200"  # rich tables at their full width, as the pages show them
    env["MPLBACKEND"] = "Agg"
    env.pop("GOLFSIM_AGENT_MODULES", None)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert process.poll() is None, f"the background command exited with status {process.returncode}"
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError(f"nothing listened on port {port} after {seconds} s")


def commands(text: str) -> list[tuple[str, list[str]]]:
    """(command, the output lines shown under it) of a console block."""
    found = []
    for line in text.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        elif line.strip():
            assert found, f"output before any command: {line!r}"
            found[-1][1].append(line.rstrip())
    return found


def run_play(command: str, cwd: Path, env: dict) -> None:
    child = pexpect.spawn("bash", ["-c", command], cwd=str(cwd), env=env, dimensions=(40, 120), encoding="utf-8",
                          timeout=TIMEOUT)
    child.expect(r"\w+> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, f"{command!r} exited with {child.exitstatus}:\n{child.before[-2000:]}"


def run_console(text: str, cwd: Path, env: dict, background: list) -> None:
    port = str(free_port())
    for command, shown in commands(text):
        if "HOST" in text:
            command = command.replace("HOST", "127.0.0.1").replace("8786", port)
        if command.rstrip().endswith("&"):
            process = subprocess.Popen(command.rstrip().rstrip("&"), shell=True, cwd=cwd, env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
            background.append(process)
            if "--port" in command:
                wait_for_port(int(port), process)
            continue
        if shlex.split(command, comments=True)[0] == "golfsim" and "play" in shlex.split(command, comments=True)[1:2]:
            run_play(command, cwd, env)
            continue
        done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=TIMEOUT)
        assert done.returncode == 0, f"{command!r} exited with {done.returncode}:\n{done.stdout}\n{done.stderr}"
        printed = {line.rstrip() for line in done.stdout.splitlines()}
        missing = [line for line in shown if line not in printed]
        assert not missing, f"{command!r} no longer prints what the page shows:\n" + "\n".join(missing) + \
            f"\n--- it printed:\n{done.stdout}"


def check_bash(text: str) -> None:
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for line in text.strip().splitlines():
        assert re.match(r"(python3 -m venv \.venv && )?\.venv/bin/pip install -e ", line), \
            f"a bash block is for install commands only: {line!r}"
        for named in re.findall(r"'\.\[([\w,]+)\]'", line):
            assert set(named.split(",")) <= set(extras), f"{line!r} names an extra pyproject.toml lacks"


def stop(background: list) -> None:
    for process in background:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in background:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def test_the_pages_hold_only_blocks_this_test_can_run():
    for page in PAGES:
        for kind, text in blocks(page):
            assert kind in KINDS, f"{page_id(page)}: a code block of kind {kind!r} that no test runs:\n{text}"
    assert SLOW_PAGES <= {page_id(p) for p in PAGES_WITH_CODE}
    # the guide pages show how to use each feature: every one of them has code that runs
    for page in (REPO / "docs" / "guide").glob("*.md"):
        assert any(kind in ("python", "console") for kind, _ in blocks(page)), page_id(page)


def test_the_readme_test_command_is_the_one_ci_runs():
    command = ("python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && "
               '.venv/bin/python -m pytest -n auto -m "not slow"')
    assert ("bash", command + "\n") in blocks(REPO / "README.md")
    ci = (REPO / ".ci" / "run").read_text()
    assert re.search(r"^python3 -m venv \.venv && \.venv/bin/pip install -q -e '\.\[test[\],]", ci, re.M)
    assert re.search(r'^\.venv/bin/python -m pytest -n auto -m "not slow"$', ci, re.M)
    # CI runs everything: the README's tier, then the rest
    assert re.search(r"^\.venv/bin/python -m pytest -n auto -m slow$", ci, re.M)


def test_the_readme_is_short():
    assert len((REPO / "README.md").read_text().splitlines()) < 200


@pytest.mark.parametrize("page", [pytest.param(p, marks=[pytest.mark.slow] if page_id(p) in SLOW_PAGES else [])
                                  for p in PAGES_WITH_CODE], ids=page_id)
def test_every_code_block_of_the_page_runs(page, tmp_path):
    for folder in ("docs", "experiments"):
        (tmp_path / folder).symlink_to(REPO / folder)
    env = environment()
    background: list[subprocess.Popen] = []
    python_blocks = []
    try:
        for kind, text in blocks(page):
            if kind == "toml":
                content = resolved(text)
                tomllib.loads(content)
                first = content.splitlines()[0]
                if first.startswith("# file: "):
                    (tmp_path / first.removeprefix("# file: ").strip()).write_text(content)
            elif kind == "console":
                run_console(text, tmp_path, env, background)
            elif kind == "python":
                python_blocks.append((text, snippet_of(text)))
            elif kind == "bash":
                check_bash(text)
        if python_blocks:
            (tmp_path / "blocks.json").write_text(json.dumps(python_blocks))
            done = subprocess.run([sys.executable, "-c", RUNNER, "blocks.json"], cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=TIMEOUT)
            assert done.returncode == 0, f"{done.stdout}\n{done.stderr}"
    finally:
        stop(background)
