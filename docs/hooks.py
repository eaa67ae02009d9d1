"""MkDocs hooks for golfsim's site (named in mkdocs.yml; not a page of the site).

- The API reference: ``golfsim.agents`` and ``golfsim.experiments`` live in the repository's folders ``agents/`` and
  ``experiments/`` (setuptools maps them into the package), which a reader of the sources cannot find under
  ``golfsim/``. :func:`on_startup` lays out ``build/api-source/golfsim`` as the installed package looks: links to
  every entry of ``golfsim/`` plus ``agents`` and ``experiments``. mkdocs.yml points mkdocstrings there.
- The committed results and notebooks: the guide links to ``results/<name>/README.md`` and ``notebooks/*.ipynb`` as
  they sit in the repository (``../../results/...`` from ``docs/guide/``), so the links work when the Markdown is read
  on its own. :func:`on_files` adds those files to the site under ``results/`` and ``notebooks/``, and
  :func:`on_page_markdown` rewrites such links to where the site holds them, so ``mkdocs build --strict`` checks them.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from mkdocs.structure.files import File

REPO = Path(__file__).resolve().parent.parent
API_SOURCE = REPO / "build" / "api-source"
FOLDERS = ("results", "notebooks")  # repository folders the site includes
SUFFIXES = {".md", ".png", ".ipynb"}


def on_startup(command, dirty):
    package = API_SOURCE / "golfsim"
    if API_SOURCE.exists():
        shutil.rmtree(API_SOURCE)
    package.mkdir(parents=True)
    for entry in (REPO / "golfsim").iterdir():
        if entry.name != "__pycache__":
            os.symlink(entry, package / entry.name)
    os.symlink(REPO / "agents", package / "agents")
    os.symlink(REPO / "experiments", package / "experiments")


def on_files(files, config):
    for folder in FOLDERS:
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and path.suffix in SUFFIXES:
                files.append(File(path.relative_to(REPO).as_posix(), str(REPO), config["site_dir"],
                                  config["use_directory_urls"]))
    return files


def on_page_markdown(markdown, page, config, files):
    # a page in docs/ at depth d reaches the repository's folders with d + 1 "../", the site's copy with d
    depth = page.file.src_uri.count("/")
    if page.file.src_uri.startswith(FOLDERS):
        return markdown
    pattern = re.compile(r"\]\(" + re.escape("../" * (depth + 1)) + "(" + "|".join(FOLDERS) + ")/")
    return pattern.sub(lambda m: "](" + "../" * depth + m.group(1) + "/", markdown)
