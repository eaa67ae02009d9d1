"""Advice on a position: the position notation ([`golfsim.coach.position`][]) and ``golfsim hint``
([`golfsim.coach.hint`][]).
"""
