"""``python -m golfsim`` runs the command line."""

from golfsim.cli import main

main()
