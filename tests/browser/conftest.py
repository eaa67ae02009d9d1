"""Headless Chromium for the browser tests (marked ``browser``), driven by Playwright.

``playwright install`` downloads its own browser, which is not possible everywhere: the tests launch the system's
Chromium (Debian: ``apt-get install chromium``) at ``/usr/bin/chromium``, or wherever ``GOLFSIM_CHROMIUM`` says.
Without Playwright or Chromium the tests are skipped with the reason; ``GOLFSIM_REQUIRE_BROWSER=1`` (CI) makes that a
failure instead. ``GOLFSIM_SCREENSHOTS=DIR`` saves the tests' screenshots there (the guide's pictures are made so).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

VIEWPORT = {"width": 1000, "height": 800}


def chromium_path() -> str:
    """Where the tests look for Chromium: ``GOLFSIM_CHROMIUM``, else ``chromium`` on the PATH, else Debian's place."""
    return os.environ.get("GOLFSIM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _missing(reason: str):
    if os.environ.get("GOLFSIM_REQUIRE_BROWSER") == "1":
        pytest.fail(f"GOLFSIM_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed: pip install -e '.[browser]'")
    path = chromium_path()
    if not Path(path).is_file():
        _missing(f"no Chromium at {path}: apt-get install chromium (or set GOLFSIM_CHROMIUM to its path)")
    with sync_playwright() as p:
        # --no-sandbox: the suite may run as root (CI containers), where Chromium's sandbox refuses to start
        launched = p.chromium.launch(executable_path=path, args=["--no-sandbox"], timeout=60_000)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    errors: list[str] = []
    opened.on("pageerror", lambda e: errors.append(str(e)))
    opened.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    opened.errors = errors
    try:
        yield opened
    finally:
        context.close()
