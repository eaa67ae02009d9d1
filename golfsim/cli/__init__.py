"""The ``golfsim`` command line: the app ([`golfsim.cli.app`][]), what every command shares
([`golfsim.cli.shared`][]), the commands ([`golfsim.cli.commands`][], one module per command family), and the
bodies of the larger ones (the terminal game `golfsim.cli.terminal_game`, `golfsim.cli.tune_body`,
`golfsim.cli.learn_body`)."""

from golfsim.cli.app import app, main

__all__ = ["app", "main"]
