"""Advice on a position: the position notation (:mod:`golfsim.coach.position`) and ``golfsim hint``
(:mod:`golfsim.coach.hint`).
"""
