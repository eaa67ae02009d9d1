"""Batched agents: numpy policies that decide for hundreds of games in one call.

Importing this file registers two batched agents (:func:`golfsim.agents.register_batched_agent`):

- ``linear``: one linear layer over the observation vector (:mod:`golfsim.game.observation`), the arg-max over the
  legal actions. Its weights are drawn from ``seed`` (a stand-in for weights you trained); ``temperature > 0``
  samples from the softmax instead, with the uniform number each decision gets from its seat's own stream, so the
  same seed gives the same games however the games are batched.
- ``reinforce``: the linear softmax policy that ``experiments/learning.py`` trains with REINFORCE, evaluated
  through the batch interface with the weights it saved in ``results/learning/config.json`` (its arg-max, as the
  experiment's final tournament plays it).

A batched policy is ``policy(batch) -> actions``: ``batch.observations`` (float32, one row per game waiting for the
seat), ``batch.masks`` (1 where legal), ``batch.random`` and ``batch.rules``. Seat them like any agent::

    GOLFSIM_AGENT_MODULES=docs/examples/batched_numpy_agents.py golfsim tournament --agents linear,ev
    GOLFSIM_AGENT_MODULES=docs/examples/batched_numpy_agents.py golfsim tournament --agents reinforce,greedy \\
        --holes 1 --games 2000
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from golfsim.agents import REGISTRY, Param, register_batched_agent
from golfsim.core.spec import NUM_ACTIONS

LEARNED = Path(__file__).resolve().parents[2] / "results" / "learning" / "config.json"


def make_linear(params: dict):
    """A linear layer ``observation @ weights`` scoring every action; illegal actions are masked out."""
    rng = np.random.default_rng(int(params["seed"]))
    temperature = float(params["temperature"])
    layers: dict[int, np.ndarray] = {}  # one weight matrix per observation width (the player count)

    def linear(batch) -> np.ndarray:
        width = batch.observations.shape[1]
        if width not in layers:
            layers[width] = rng.normal(0.0, 1.0 / np.sqrt(width), size=(width, NUM_ACTIONS)).astype(np.float32)
        logits = batch.observations @ layers[width]
        logits[batch.masks == 0] = -np.inf
        if temperature <= 0:
            return np.argmax(logits, axis=1)
        z = logits / temperature
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        cdf = np.cumsum(p, axis=1)
        cdf /= cdf[:, -1:]
        return (cdf < batch.random[:, None]).sum(axis=1)  # the first action whose cumulative share passes u

    return linear


def make_reinforce(params: dict):
    """The REINFORCE learner's arg-max policy: ``theta . phi(s, a)`` over the legal actions of every row."""
    from golfsim.experiments.learning import Features

    theta = np.asarray(json.loads(LEARNED.read_text())["theta"], dtype=np.float64)
    features: dict = {}

    def reinforce(batch) -> np.ndarray:
        if batch.rules not in features:
            features[batch.rules] = Features(batch.rules)
        phi_of = features[batch.rules]
        out = np.empty(len(batch), dtype=np.int64)
        for i in range(len(batch)):
            legal = np.flatnonzero(batch.masks[i])
            out[i] = legal[int(np.argmax(phi_of(batch.observations[i], legal) @ theta))]
        return out

    return reinforce


if "linear" not in REGISTRY:
    register_batched_agent(
        "linear", "batched numpy: a linear layer over the observation vector, arg-max (or softmax) over legal actions",
        make_linear,
        params=(Param("seed", 0.0, "seed of the weights", 0, 1000, "int"),
                Param("temperature", 0.0, "0: arg-max; above 0: sample from softmax(logits / temperature)", 0, 5)),
    )
if "reinforce" not in REGISTRY:
    register_batched_agent(
        "reinforce", "batched numpy: the linear softmax policy experiments/learning.py trained (arg-max)",
        make_reinforce)
