"""Options that several ``golfsim`` commands take, declared once: the same flag, type and default everywhere, and
the same help where it means the same (``--threads``, ``--quiet``); ``--out`` and ``--overwrite`` take each
command's own help, since what they write differs. The rule options are [`golfsim.cli.shared.RuleFlags`][]."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

Threads = Annotated[int | None, typer.Option(help="Threads (default: all; NUMBA_NUM_THREADS caps it).")]
"""``--threads``, as every command that plays takes it (default ``None``: all)."""
Quiet = Annotated[bool, typer.Option(help="No progress bar.")]
"""``--quiet`` (default ``False``)."""


def out_option(help: str):
    """The ``--out DIR`` option (a path, default ``None``), with the command's own ``help``."""
    return Annotated[Path | None, typer.Option("--out", help=help)]


def overwrite_option(help: str):
    """The ``--overwrite`` flag (default ``False``), with the command's own ``help``."""
    return Annotated[bool, typer.Option("--overwrite", help=help)]
