"""One game at a time: :class:`~golfsim.game.game.Game` (the stateful N-hole game: deals, totals, first players,
events), the step API :class:`~golfsim.game.env.GolfEnv`, and the observation encoders that every adapter shares.
"""
