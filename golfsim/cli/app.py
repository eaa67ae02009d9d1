"""The ``golfsim`` command line: the typer app with every command registered, and the console script's entry point.

The commands live in [`golfsim.cli.commands`][] (one module per command family); what they share (errors, rule
options, executors) in [`golfsim.cli.shared`][].
"""

from __future__ import annotations

import sys

import numpy as np

from golfsim.cli.commands import (  # noqa: F401  (importing registers the commands)
    agents,
    bench,
    cache,
    experiment,
    hint,
    learn,
    play,
    replay,
    rules,
    score,
    selfcheck,
    serve,
    sweep,
    tournament,
    tune,
)
from golfsim.cli.shared import app

__all__ = ["app", "main"]


def main() -> None:
    """Entry point of the ``golfsim`` console script."""
    from golfsim.cli.oserrors import run_command
    from golfsim.runs.compile_notice import CompileLine

    np.seterr(all="ignore")
    # a terminal sees what Numba compiles, from the start; not 'play', whose screen takes the terminal's input line
    interactive = sys.argv[1:2] == ["play"]
    with CompileLine(enabled=not interactive):
        run_command(app, private_stdout=not interactive)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
