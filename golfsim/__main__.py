"""``python -m golfsim`` runs the command line."""

from golfsim.cli.app import main

if __name__ == "__main__":  # not when a worker process (multiprocessing spawn, Dask) imports this module again
    main()
