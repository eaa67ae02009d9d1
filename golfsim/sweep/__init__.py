"""Sweeps: one duplicate-deal tournament per cell of a grid, described in a TOML file, kept on disk cell by cell.

The file
--------
Four sections; only ``[sweep]`` (for ``games``) and ``[pools]`` are required::

    [sweep]
    name = "watch-discard"      # optional; default: the file name without .toml
    seed = 0                    # optional, default 0
    games = 2000                # deal sets per cell (each played at every table in every seat order)
    confidence = 0.95           # optional: level of every interval
    schedule = "auto"           # optional: auto, table, round-robin or gauntlet (see golfsim.tournament)
    seating = "auto"            # optional: auto, rotations or permutations
    anchor = "greedy"           # optional: the gauntlet's anchor
    impossible = "error"        # optional: "skip" leaves out cells that cannot be played, with a note

    [rules]                     # rule options every cell shares (any golfsim.core.rules.Rules option)
    holes = 9

    [axes]                      # every combination of these values is one cell, in the order written
    players = [2, 3]            # seats per table
    end = ["immediate", "one_last_turn"]   # any Rules option, e.g. jokers, discard_and_flip, decks
    pool = ["field"]            # names from [pools]; default: every pool
    watch = [0, 0.25]           # any other name is an agent-parameter axis: it fills {watch} in the pools

    [pools]                     # named agent pools, agents written as on the command line
    field = ["ev:watch_discard={watch}", "greedy", "pair-builder"]

Without ``players`` (in ``[rules]`` or ``[axes]``) a cell seats as many players as its pool has agents. An
agent-parameter axis applies only to the pools that use its ``{name}``; cells of the other pools have no value for
it (an empty cell in the table), so they are not repeated. A value may also be a whole agent, e.g.
``bot = ["ev", "pair-builder"]`` with ``pool = ["{bot}", "greedy"]``.

Cells and seeds
---------------
A cell is a rule set, a pool of agents and the tournament options. Its seed is derived from the sweep's ``seed`` and
the cell's rules (a hash of every rule option), never from its place in the grid: adding a value to an axis leaves
every other cell's numbers unchanged, and cells with the same rules are dealt the same cards, so comparisons across
agent parameters and pools are on identical deals.

On disk
-------
``OUT/cells/<id>.json`` holds each finished cell (written atomically: a temporary file, then a rename), so a rerun
after Ctrl-C, SIGTERM or a crash plays only the missing cells and ends with the same table as an uninterrupted run.
``OUT/config.json`` records the request (the parsed file), the resolved grid, the behaviour fingerprint of the code
([`golfsim.runs.fingerprint`][]) and which cells are complete; a run of a different request, or by code that plays
differently, is refused unless told to overwrite, so cells of two requests never mix. ``OUT/table.parquet`` and
``OUT/table.csv`` hold one row per cell and agent; ``OUT/score_vs_<axis>.png`` one figure per swept axis.

The code
--------
`golfsim.sweep.config` reads and checks the file and plans the cells, `golfsim.sweep.cells` keeps them on
disk, `golfsim.sweep.result` assembles the table and ``config.json``, `golfsim.sweep.running` plays the
missing cells ([`run_sweep`][golfsim.sweep.running.run_sweep]), and [`golfsim.sweep.plots`][] draws the figures.
[`golfsim.sweep.grid`][] gathers the public names.
"""
