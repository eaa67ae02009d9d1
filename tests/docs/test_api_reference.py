"""The API reference shows cross-references as links, never as raw Sphinx roles (issue 38).

mkdocstrings renders Markdown, not reStructuredText: a docstring's ``:func:`golfsim.stats.mean_ci``` reaches the page
as that text. Docstrings write mkdocstrings' cross-references instead (``[`golfsim.stats.mean_ci`][]``, or
``[`mean_ci`][golfsim.stats.mean_ci]``), and plain code for a name the reference has no entry for. The fast test reads
the sources; the slow one builds the site and reads the API pages.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys

import pytest

from tests.support import REPO

SOURCE_FOLDERS = ("golfsim", "agents", "experiments")
# a Sphinx cross-reference role such as :func:`x`, :py:class:`x` or :mod:`~x`
ROLE = re.compile(r"(?<![\w`]):(?:py:)?(?:func|class|mod|data|meth|attr|exc|obj|const|ref|doc):`[^`\s]")
# the roles as they look once rendered to HTML (the backticks become <code> or vanish)
RENDERED_ROLE = re.compile(r"(?<![\w`]):(?:py:)?(?:func|class|mod|data|meth|attr|exc|obj|const):(?=[`<~\w])")


def documentation_texts(source: str) -> list[tuple[int, str]]:
    """(line, text) of every docstring in a module's source, in line order: those of the module, classes and
    functions, those under an attribute (any string statement, as griffe reads them), ``X.__doc__ = "..."``, and
    every ``#:`` attribute comment."""
    texts = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            texts.append((node.lineno, node.value.value))
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) \
                and any(isinstance(t, ast.Attribute) and t.attr == "__doc__" for t in node.targets):
            texts.append((node.lineno, node.value.value))
    texts += [(n, line) for n, line in enumerate(source.splitlines(), 1) if line.lstrip().startswith("#:")]
    return sorted(texts)


def roles_in(source: str, name: str) -> list[str]:
    return [f"{name}:{line}: {m.group(0)}..."
            for line, text in documentation_texts(source) for m in ROLE.finditer(text)]


def test_the_role_finder_finds_roles_in_docstrings_comments_and_assigned_docs():
    source = '''"""See :mod:`golfsim.stats`."""

#: The default, see :data:`~golfsim.x.DEFAULT`.
X = 1
"""The X, as :attr:`A.x`."""


class A:
    """Built by :py:func:`make`."""

    def f(self):
        """See [`g`][golfsim.a.g], a ratio of 2:3 and ``:func:`` as code."""


A.__doc__ = """Now :meth:`A.f`."""
'''
    found = roles_in(source, "m.py")
    assert [f.split(": ", 1)[1] for f in found] == [":mod:`g...", ":data:`~...", ":attr:`A...", ":py:func:`m...",
                                                       ":meth:`A..."]


def test_no_docstring_of_the_package_holds_a_sphinx_role():
    found = []
    for folder in SOURCE_FOLDERS:
        for path in sorted((REPO / folder).rglob("*.py")):
            found += roles_in(path.read_text(), str(path.relative_to(REPO)))
    assert found == []


@pytest.mark.slow
def test_the_built_api_pages_show_links_and_no_raw_role(tmp_path):
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    # --strict: an unresolved cross-reference (autorefs logs a warning) fails the build
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    pages = sorted((site / "api").rglob("*.html"))
    assert len(pages) == len(list((REPO / "docs" / "api").glob("*.md")))
    raw = [f"{page.relative_to(site)}: {m.group(0)}"
           for page in pages for m in RENDERED_ROLE.finditer(page.read_text())]
    assert raw == []
    # a reference written in a docstring became a link: golfsim.stats's module docstring points at plackett_luce
    stats = (site / "api" / "stats" / "index.html").read_text()
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]*href="#golfsim\.stats\.plackett_luce"', stats)
