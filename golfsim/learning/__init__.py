"""Training the learned player by self-play; the player itself (its value, policy and model loading) is
[`golfsim.agents.learned`][], which this package imports and which never imports this one.

- [`golfsim.learning.selfplay`][]: compiled self-play that gathers the regression's normal equations, and duels
  against ev for the learning curve;
- [`golfsim.learning.train`][]: the training loop of ``golfsim learn`` (checkpoints, resume, learning curve);
- [`golfsim.learning.model`][]: writing weight files (the shipped one is ``agents/learned/models/learned.json``).
"""
