"""The public names of sweeps ([`run_sweep`][golfsim.sweep.grid.run_sweep],
[`plan_sweep`][golfsim.sweep.grid.plan_sweep], ...), gathered from the modules that hold them; [`golfsim.sweep`][]
describes the file, the cells and what is kept on disk."""

from golfsim.sweep.config import SECTIONS, Cell, SweepPlan, cell_seed, describe_values, load_config, plan_sweep
from golfsim.sweep.result import SweepResult
from golfsim.sweep.running import run_sweep

__all__ = ["SECTIONS", "Cell", "SweepPlan", "SweepResult", "cell_seed", "describe_values", "load_config", "plan_sweep",
           "run_sweep"]
