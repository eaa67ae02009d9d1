"""What a batch of games leaves behind: [`Batch`][golfsim.kernels.batch.Batch], the per-deal arrays that every game loop
writes (the batch simulator [`golfsim.kernels.simulate`][], the loop of plain-Python seats
[`golfsim.kernels.python_seats`][], the counted and logged loops) and every summary reads."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass
class Batch:
    """Raw results of games ``first_game ..`` (arrays indexed by game, hole, seat)."""

    first_game: int
    hole_scores: np.ndarray  # int16 [n, holes, players]
    turns: np.ndarray  # int16 [n, holes]
    enders: np.ndarray  # int8 [n, holes], -1 when nobody went out
    reasons: np.ndarray  # int8 [n, holes], END_REASON codes
    #: Wall and CPU seconds of the thread that played the games, when it measured them
    #: ([`golfsim.runs.tasks.play_in_chunks`][]); 0 otherwise.
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def totals(self) -> np.ndarray:
        return self.hole_scores.sum(axis=1, dtype=np.int32)

    @classmethod
    def concat(cls, parts: Sequence[Batch]) -> Batch:
        """Consecutive batches (in game order) as one: their arrays one after another, their seconds added (a
        subclass's array fields too)."""
        values = {}
        for f in dataclasses.fields(cls):
            if f.name == "first_game":
                values[f.name] = parts[0].first_game
            elif f.name in ("seconds", "cpu_seconds"):
                values[f.name] = sum(getattr(b, f.name) for b in parts)
            else:
                values[f.name] = np.concatenate([getattr(b, f.name) for b in parts])
        return cls(**values)
