"""The public names of tuning ([`tune`][golfsim.tuning.study.tune], [`plan_request`][golfsim.tuning.study.plan_request],
...), gathered from the modules that hold them; [`golfsim.tuning`][] describes how a study runs."""

from __future__ import annotations

from golfsim.tuning.evaluation import field_lead
from golfsim.tuning.report import CONFIG_FILE, PLOT_FILE, TRIALS_FILE, TuningResult
from golfsim.tuning.running import plan_request, tune
from golfsim.tuning.space import BUILT_IN_RANGES, KINDS, ParamRange, agent_string, parse_param_ranges, search_space

__all__ = [
    "BUILT_IN_RANGES",
    "CONFIG_FILE",
    "KINDS",
    "PLOT_FILE",
    "TRIALS_FILE",
    "ParamRange",
    "TuningResult",
    "agent_string",
    "field_lead",
    "parse_param_ranges",
    "plan_request",
    "search_space",
    "tune",
]
