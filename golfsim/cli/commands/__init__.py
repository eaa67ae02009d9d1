"""The ``golfsim`` commands, one module per command family; importing a module registers its commands on
:data:`golfsim.cli.shared.app`."""
