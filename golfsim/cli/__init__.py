"""The ``golfsim`` command line: the app (:mod:`golfsim.cli.app`), what every command shares
(:mod:`golfsim.cli.shared`), the commands (:mod:`golfsim.cli.commands`, one module per command family), and the
bodies of the larger ones (the terminal game :mod:`golfsim.cli.terminal_game`, :mod:`golfsim.cli.tune_body`,
:mod:`golfsim.cli.learn_body`)."""

from golfsim.cli.app import app, main

__all__ = ["app", "main"]
