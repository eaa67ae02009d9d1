"""The ``golfsim`` command line (:mod:`golfsim.cli.app`) and the terminal game (:mod:`golfsim.cli.play`)."""

from golfsim.cli.app import app, main

__all__ = ["app", "main"]
