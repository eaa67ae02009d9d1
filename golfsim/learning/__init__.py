"""Training the learned player by self-play; the player itself (its value, policy and model loading) is
:mod:`golfsim.agents.learned`, which this package imports and which never imports this one.

- :mod:`golfsim.learning.selfplay`: compiled self-play that gathers the regression's normal equations, and duels
  against ev for the learning curve;
- :mod:`golfsim.learning.train`: the training loop of ``golfsim learn`` (checkpoints, resume, learning curve);
- :mod:`golfsim.learning.model`: writing weight files (the shipped one is ``agents/learned/models/learned.json``).
"""
