"""``golfsim sweep``: a TOML grid of tournaments, kept cell by cell (:mod:`golfsim.sweep.grid`), and its
figures (:mod:`golfsim.sweep.plots`).
"""
