"""One game at a time: [`Game`][golfsim.game.game.Game] (the stateful N-hole game: deals, totals, first players,
events), the step API [`GolfEnv`][golfsim.game.env.GolfEnv], and the observation encoders that every adapter shares.
"""
