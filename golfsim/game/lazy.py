"""The observation dict a plain-Python policy reads, built field by field as the policy reads it.

[`golfsim.game.game.observe`][] (``GolfEnv.observe``) is ``dict(LazyObservation(...))``; a tournament hands the
policy the [`LazyObservation`][golfsim.game.lazy.LazyObservation] itself, so a decision costs only the fields its policy
reads (most read the mask and a few more; building all of them cost more than the rest of a decision). The values are
those of the dict, computed from a copy of the state taken when the observation is made, so an observation a policy
keeps still reads the moment it was made.
"""

from __future__ import annotations

from collections.abc import MutableMapping

import numpy as np

from golfsim.core.engine import legal_mask
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DONE,
    HELD,
    HOLD,
    HOLE,
    NUM_ACTIONS,
    PHASE,
    PHASE_NAMES,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    RECYCLES,
    STOCK_N,
    TURN,
)

KEYS = ("player", "phase", "current_player", "view", "discard", "top_discard", "stock_size", "unseen",
        "stock_known", "held", "totals", "hole", "turn", "rules", "action_mask", "observation")
"""The observation's keys, in the dict's order."""

_UNREAD = object()


class LazyObservation(MutableMapping):
    """What ``player`` may know of one deal's public state ``pub``: the mapping of
    [`golfsim.game.game.observe`][], each value computed on its first read.

    Parameters
    ----------
    pub : ndarray
        The deal's public state (copied here).
    packed : ndarray
        The packed rules (``Rules.pack()``).
    rules : Rules
    player : int
    mask : ndarray, optional
        The legal-action mask (uint8, 28) when the caller has it already; used only when ``player`` is to move.

    Notes
    -----
    A mutable mapping, not a ``dict``: ``obs[key]``, ``get``, ``in``, iteration, ``dict(obs)`` and assignment
    behave as on the dict; ``isinstance(obs, dict)`` is False.
    """

    __slots__ = ("_flat", "_packed", "_rules", "_player", "_mine", "_mask", "_values")

    def __init__(self, pub, packed, rules, player: int, mask=None):
        flat = pub.copy()
        self._mine = mine = player == int(flat[CURRENT]) and int(flat[PHASE]) != DONE
        if not mine:
            held = int(flat[HELD])
            flat[HELD] = -1
            if held >= 0 and int(flat[PHASE]) == HOLD:
                # the engine counts a card drawn from the stock as seen; to everyone but the drawer it is still unseen
                flat[int(packed[R_OFF_STOCK_KNOWN if int(flat[RECYCLES]) > 0 else R_OFF_UNSEEN]) + held] += 1
        self._flat, self._packed, self._rules, self._player = flat, packed, rules, player
        self._mask = mask if mine else None
        self._values = dict.fromkeys(KEYS, _UNREAD)

    def __getitem__(self, key):
        value = self._values[key]
        if value is _UNREAD:
            value = self._values[key] = getattr(self, "_read_" + key)()
        return value

    def __setitem__(self, key, value):
        self._values[key] = value

    def __delitem__(self, key):
        del self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def __repr__(self):
        return repr(dict(self))

    # ---------------------------------------------------------------- one reader per key
    def _read_player(self):
        return self._player

    def _read_phase(self):
        return PHASE_NAMES[int(self._flat[PHASE])]

    def _read_current_player(self):
        return -1 if int(self._flat[PHASE]) == DONE else int(self._flat[CURRENT])

    def _read_view(self):
        ov, players = int(self._packed[R_OFF_VIEW]), self._rules.players
        return self._flat[ov: ov + 6 * players].reshape(players, 6).astype(np.int64)

    def _read_discard(self):
        od = int(self._packed[R_OFF_DISCARD])
        return [int(c) for c in self._flat[od: od + int(self._flat[DISCARD_N])]]

    def _read_top_discard(self):
        n = int(self._flat[DISCARD_N])
        return int(self._flat[int(self._packed[R_OFF_DISCARD]) + n - 1]) if n else None

    def _read_stock_size(self):
        return int(self._flat[STOCK_N])

    def _read_unseen(self):
        ou = int(self._packed[R_OFF_UNSEEN])
        return self._flat[ou: ou + self._rules.n_codes].astype(np.int64)

    def _read_stock_known(self):
        ok = int(self._packed[R_OFF_STOCK_KNOWN])
        return self._flat[ok: ok + self._rules.n_codes].astype(np.int64)

    def _read_held(self):
        return int(self._flat[HELD]) if self._mine and self._flat[PHASE] == HOLD else None

    def _read_totals(self):
        ot = int(self._packed[R_OFF_TOTALS])
        return self._flat[ot: ot + self._rules.players].astype(np.int64)

    def _read_hole(self):
        return int(self._flat[HOLE])

    def _read_turn(self):
        return int(self._flat[TURN])

    def _read_rules(self):
        return self._rules

    def _read_action_mask(self):
        if self._mask is not None:
            return self._mask
        mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
        if self._mine:
            legal_mask(self._flat, self._packed, mask)
        return mask

    def _read_observation(self):
        return self._flat.copy()  # the other fields are read from _flat later: the policy must not change it
