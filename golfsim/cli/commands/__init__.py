"""The ``golfsim`` commands, one module per command family; importing a module registers its commands on
`golfsim.cli.shared.app`."""
