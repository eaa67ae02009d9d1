"""A plain-Python agent: any callable from observation to action. It plays wherever a compiled agent does::

    GOLFSIM_AGENT_MODULES=docs/examples/cautious_python_agent.py golfsim tournament --agents cautious,greedy,ev

(tournaments, experiments, sweeps and ``golfsim tune``, on worker processes or Dask), and through the step API
(``play_game``).

``observation`` is the dict of ``GolfEnv.observe``: ``view`` (players x 6 ranks, -1 face down), ``top_discard``,
``held`` (the card you drew, in the hold phase), ``unseen`` counts, ``rules`` and ``action_mask``.
"""

import numpy as np

from golfsim.agents import Param, register_python_agent
from golfsim.core.spec import DRAW_STOCK, FLIP, PASS, PLACE_DRAWN, TAKE_DISCARD, THROW_DRAWN


def make_cautious(params: dict):
    """Build the policy; ``params`` holds the parameters with the user's values."""
    keep_at_most = params["keep_at_most"]

    def cautious(observation: dict) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        points = observation["rules"].points()
        mine = observation["view"][observation["player"]]
        face_down = [k for k in range(6) if mine[k] < 0]
        # a deal that runs long (few low cards left) ends all the same: after 200 turns any card covers a face-down
        # one, since a deal that hits the turn cap is a failure of the agent, not a result
        keep_at_most_now = keep_at_most if observation["turn"] < 200 else float("inf")
        if observation["phase"] in ("open", "flip"):
            # the first face-down card the rules let us flip (opening_flips may restrict the second one);
            # PASS only where it is legal: declining the optional flip of discard_and_flip=may
            flips = [FLIP + k for k in face_down if FLIP + k in legal]
            return int(flips[0]) if flips else int(PASS)
        if observation["phase"] == "start":
            top = observation["top_discard"]
            if points[top] <= keep_at_most_now and face_down:
                return int(TAKE_DISCARD + face_down[0])
            return DRAW_STOCK
        if points[observation["held"]] <= keep_at_most_now and face_down:
            return int(PLACE_DRAWN + face_down[0])
        return THROW_DRAWN

    return cautious


register_python_agent("cautious", "plain Python: keeps cards worth at most keep_at_most over face-down ones",
                      make_cautious, params=(Param("keep_at_most", 3.0, "highest points of a card worth keeping"),))
