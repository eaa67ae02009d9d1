"""A player that learns: a value of the public state fitted by self-play, and the compiled player built on it.

- :mod:`golfsim.learning.value`: the features of a public state from one player's point of view and the linear
  value over them (compiled, from a plain weight array);
- :mod:`golfsim.learning.policy`: the one-ply expectimax decision under that value (the agent ``learned``);
- :mod:`golfsim.learning.selfplay`: compiled self-play that gathers the regression's normal equations, and duels
  against ev for the learning curve;
- :mod:`golfsim.learning.train`: the training loop of ``golfsim learn`` (checkpoints, resume, learning curve);
- :mod:`golfsim.learning.model`: reading and writing weight files (the shipped one is ``models/learned.json``).
"""

# golfsim.agents registers ``learned``, which imports this package's modules; importing it first makes every import
# order work (golfsim.learning.value needs golfsim.agents.common, whose package's __init__ imports the agent)
import golfsim.agents  # noqa: E402, F401
