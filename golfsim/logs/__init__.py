"""Decision logs: writing ([`golfsim.logs.trace`][]), replaying ([`golfsim.logs.replay`][]) and comparing two
agents on the same logged situations ([`golfsim.logs.disagree`][]).
"""
