"""Decision logs: writing (:mod:`golfsim.logs.trace`), replaying (:mod:`golfsim.logs.replay`) and comparing two
agents on the same logged situations (:mod:`golfsim.logs.disagree`).
"""
