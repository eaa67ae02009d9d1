"""The step API: one game at a time, for humans, plain-Python agents, RL libraries and debugging.

:class:`GolfEnv` holds one deal's arrays and calls the same compiled functions as the batch simulator, so a deal
started here from ``(seed, game, hole)`` is the deal the simulator plays for those coordinates, and
:func:`play_game` with built-in agents reproduces the simulator's game ``game`` exactly.

Example
-------
>>> env = GolfEnv(Rules(players=2))
>>> env.reset(seed=7)
>>> while not env.done:
...     env.step(env.legal_actions()[0])
>>> env.scores()  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from agents.base import AgentChoice, parse_agent
from agents.dispatch import decide
from golfsim.cards import NUM_RANKS, format_layout, rank_name
from golfsim.engine import apply_action, deal_from_deck, deal_scores, deal_shuffled, legal_mask, stock_order
from golfsim.errors import AgentError
from golfsim.rng import agent_state, check_seed, deal_state
from golfsim.rules import (
    CURRENT,
    DISCARD_N,
    END_REASON,
    ENDER,
    FINAL_LEFT,
    FIRST,
    HELD,
    HOLD,
    HOLE,
    NUM_ACTIONS,
    PHASE,
    PHASE_NAMES,
    R_HID_SIZE,
    R_OFF_DISCARD,
    R_OFF_STOCK_KNOWN,
    R_OFF_TOTALS,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    R_PUB_SIZE,
    RECYCLES,
    STOCK_N,
    TRUNCATED,
    TURN,
    Rules,
    action_name,
)
from golfsim.simulate import IllegalActionError, Table, win_shares
from golfsim.worlds import fill_sight, sight_size


class GolfEnv:
    """One deal of six-card Golf, played a decision at a time.

    Parameters
    ----------
    rules : Rules, optional
        The rule set (default: the published game for two players).
    """

    def __init__(self, rules: Rules | None = None):
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a golfsim Rules object, got {type(self.rules).__name__}")
        self.packed = self.rules.pack()
        p = self.rules.players
        self.pub = np.zeros(int(self.packed[R_PUB_SIZE]), dtype=np.int32)
        self.hid = np.zeros(int(self.packed[R_HID_SIZE]), dtype=np.int16)
        self.deal_rng = np.zeros(1, dtype=np.uint64)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
        self._totals = np.zeros(p, dtype=np.int32)
        self._started = False

    # ---------------------------------------------------------------- starting a deal
    def reset(self, seed: int = 0, *, game: int = 0, hole: int = 0, deck: Sequence | None = None,
              totals: Sequence[int] | None = None) -> None:
        """Deal a new hole.

        Parameters
        ----------
        seed, game, hole : int
            The deal is the one the batch simulator plays for these coordinates; ``hole`` also sets who moves
            first (``hole % players``). The deal stream also shuffles recycled stock.
        deck : sequence of int or str, optional
            An explicit deck order, top card first (rank codes, or card names like ``"K"``), instead of a shuffle.
        totals : sequence of int, optional
            Game totals before this hole, shown to agents.
        """
        seed = check_seed(seed)
        for name, value in (("game", game), ("hole", hole)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"{name} must be a whole number of at least 0, got {value!r}")
        players = self.rules.players
        self._totals[:] = 0 if totals is None else self._check_totals(totals)
        self.deal_rng[0] = deal_state(seed, game, hole)
        first = hole % players
        if deck is None:
            deal_shuffled(self.pub, self.hid, self.packed, self.deal_rng, hole, first, self._totals)
        else:
            deal_from_deck(self.pub, self.hid, self.packed, self.deal_rng, self._check_deck(deck), hole, first,
                           self._totals)
        self._started = True

    def _check_totals(self, totals):
        arr = np.asarray(totals)
        if arr.shape != (self.rules.players,) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"totals must be {self.rules.players} whole numbers, one per player")
        return arr

    def _check_deck(self, deck) -> np.ndarray:
        from golfsim.cards import parse_card

        codes = [parse_card(c) if isinstance(c, str) else c for c in deck]
        want = self.rules.card_counts()
        if len(codes) != self.rules.n_cards:
            raise ValueError(f"the deck must have all {self.rules.n_cards} cards of the pack, got {len(codes)}")
        if any(isinstance(c, bool) or not isinstance(c, (int, np.integer)) or not 0 <= c < NUM_RANKS
               for c in codes):
            raise ValueError("deck entries must be rank codes 0..13 or card names (A, 2-10, J, Q, K, X)")
        got = np.bincount(np.asarray(codes, dtype=np.int64), minlength=NUM_RANKS)
        if not np.array_equal(got, want):
            diff = ", ".join(f"{rank_name(r)}: {got[r]} instead of {want[r]}" for r in range(NUM_RANKS)
                             if got[r] != want[r])
            raise ValueError(f"the deck is not the pack these rules use ({diff})")
        return np.asarray(codes, dtype=np.int16)

    def _need_deal(self):
        if not self._started:
            raise RuntimeError("call reset() before playing")

    # ---------------------------------------------------------------- reading the state
    @property
    def phase(self) -> str:
        """``"open"``, ``"start"``, ``"hold"``, ``"flip"`` or ``"done"``."""
        self._need_deal()
        return PHASE_NAMES[int(self.pub[PHASE])]

    @property
    def done(self) -> bool:
        return self.phase == "done"

    @property
    def current_player(self) -> int:
        """The player whose decision is due."""
        self._need_deal()
        return int(self.pub[CURRENT])

    def action_mask(self) -> np.ndarray:
        """uint8 array of length ``NUM_ACTIONS``, 1 where the action is legal now."""
        self._need_deal()
        legal_mask(self.pub, self.packed, self._mask)
        return self._mask.copy()

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids (empty when the deal is over)."""
        return [int(a) for a in np.flatnonzero(self.action_mask())]

    def _view(self) -> np.ndarray:
        ov = int(self.packed[R_OFF_VIEW])
        return self.pub[ov: ov + 6 * self.rules.players].reshape(self.rules.players, 6).astype(np.int64)

    def observe(self, player: int | None = None) -> dict:
        """What ``player`` (default: the player to move) may know, and nothing else.

        Returns
        -------
        dict
            ``player``, ``phase``, ``current_player``, ``view`` (players x 6 ranks, -1 face down), ``discard``
            (bottom first), ``top_discard``, ``stock_size``, ``unseen`` (14 counts of ranks nobody has seen),
            ``stock_known`` (14 counts of the recycled stock), ``held`` (the drawn card, for the drawer only, else
            None), ``totals``, ``hole``, ``turn``, ``action_mask`` (zeros when it is not ``player``'s decision)
            and ``observation``, the flat public int32 vector the compiled agents read (the held card is -1 for
            anyone but the drawer).
        """
        self._need_deal()
        player = self.current_player if player is None else self._check_player(player)
        packed, pub = self.packed, self.pub
        flat = pub.copy()
        mine = player == self.current_player and not self.done
        if not mine:
            flat[HELD] = -1
        od, n = int(packed[R_OFF_DISCARD]), int(pub[DISCARD_N])
        ou, ok, ot = int(packed[R_OFF_UNSEEN]), int(packed[R_OFF_STOCK_KNOWN]), int(packed[R_OFF_TOTALS])
        discard = [int(c) for c in pub[od: od + n]]
        return {
            "player": player,
            "phase": self.phase,
            "current_player": self.current_player,
            "view": self._view(),
            "discard": discard,
            "top_discard": discard[-1] if discard else None,
            "stock_size": int(pub[STOCK_N]),
            "unseen": pub[ou: ou + NUM_RANKS].astype(np.int64),
            "stock_known": pub[ok: ok + NUM_RANKS].astype(np.int64),
            "held": int(pub[HELD]) if mine and pub[PHASE] == HOLD else None,
            "totals": pub[ot: ot + self.rules.players].astype(np.int64),
            "hole": int(pub[HOLE]),
            "turn": int(pub[TURN]),
            "rules": self.rules,
            "action_mask": self.action_mask() if mine else np.zeros(NUM_ACTIONS, dtype=np.uint8),
            "observation": flat,
        }

    def _check_player(self, player):
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or \
                not 0 <= player < self.rules.players:
            raise ValueError(f"player must be 0..{self.rules.players - 1}, got {player!r}")
        return int(player)

    # ---------------------------------------------------------------- playing
    def step(self, action: int) -> None:
        """Play ``action`` for the player to move.

        Raises
        ------
        ValueError
            If the action is not legal now, naming it and the legal set.
        """
        self._need_deal()
        legal = self.legal_actions()
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or int(action) not in legal:
            shown = action_name(action) if isinstance(action, (int, np.integer)) else repr(action)
            raise ValueError(
                f"action {action!r} ({shown}) is not legal for player {self.current_player} in the {self.phase} "
                f"phase; legal: {', '.join(f'{a} ({action_name(a)})' for a in legal) or 'none, the deal is over'}"
            )
        apply_action(self.pub, self.hid, self.packed, self.deal_rng, int(action))

    def scores(self) -> list[int]:
        """Deal scores per player, once the deal is over."""
        if not self.done:
            raise RuntimeError("the deal is not over yet; scores exist once it is done")
        out = np.zeros(self.rules.players, dtype=np.int32)
        deal_scores(self.hid, self.packed, out)
        return [int(s) for s in out]

    @property
    def truncated(self) -> bool:
        return int(self.pub[END_REASON]) == TRUNCATED

    @property
    def went_out(self) -> int:
        """The player who went out, or -1."""
        return int(self.pub[ENDER])

    # ---------------------------------------------------------------- inspection
    def snapshot(self) -> dict:
        """The whole state, hidden cards included, as plain ints (the format the reference engine uses)."""
        self._need_deal()
        pub, hid, p = self.pub, self.hid, self.rules.players
        od = int(self.packed[R_OFF_DISCARD])
        ou, ok = int(self.packed[R_OFF_UNSEEN]), int(self.packed[R_OFF_STOCK_KNOWN])
        view = self._view()
        return {
            "phase": int(pub[PHASE]),
            "current": int(pub[CURRENT]),
            "held": int(pub[HELD]),
            "turn": int(pub[TURN]),
            "ender": int(pub[ENDER]),
            "final_left": int(pub[FINAL_LEFT]),
            "end_reason": int(pub[END_REASON]),
            "recycles": int(pub[RECYCLES]),
            "first": int(pub[FIRST]),
            "layouts": [[int(c) for c in hid[6 * i: 6 * i + 6]] for i in range(p)],
            "face_up": [[int(v >= 0) for v in row] for row in view],
            "stock": [int(c) for c in stock_order(hid, self.packed, self.deal_rng, int(pub[STOCK_N]))],
            "discard": [int(c) for c in pub[od: od + int(pub[DISCARD_N])]],
            "unseen": [int(c) for c in pub[ou: ou + NUM_RANKS]],
            "stock_known": [int(c) for c in pub[ok: ok + NUM_RANKS]],
        }

    def render(self) -> str:
        """A plain-text picture of the table as an onlooker sees it (face-down cards as ``?``)."""
        self._need_deal()
        view = self._view()
        lines = [f"hole {int(self.pub[HOLE]) + 1}, turn {int(self.pub[TURN])}, phase {self.phase}, "
                 f"player {self.current_player} to move"]
        top = self.observe(self.current_player)["top_discard"]
        lines.append(f"stock {int(self.pub[STOCK_N])} cards, discard top {rank_name(top)}"
                     + (f", drawn card {rank_name(int(self.pub[HELD]))}" if self.pub[PHASE] == HOLD else ""))
        for p in range(self.rules.players):
            marker = "*" if p == self.current_player and not self.done else " "
            lines.append(f"{marker} player {p}: {format_layout(view[p], view[p] >= 0)}")
        if self.done:
            lines.append("scores: " + ", ".join(str(s) for s in self.scores()))
        return "\n".join(lines)


# ---------------------------------------------------------------- whole games with mixed agents
PythonPolicy = Callable[[dict], int]


def _policy_name(agent) -> str:
    if isinstance(agent, AgentChoice):
        return agent.label
    return getattr(agent, "__name__", type(agent).__name__)


def play_game(agents: Sequence, rules: Rules | None = None, seed: int = 0, *, game: int = 0,
              agent_seed: int | None = None) -> dict:
    """Play one N-hole game through the step API; agents may be compiled (names) or plain-Python callables.

    With only compiled agents the result equals game ``game`` of ``simulate(agents, rules, seed=seed)``.

    Parameters
    ----------
    agents : sequence
        Per seat: an agent name (``"ev"``, ``"pair-builder:keep_threshold=8"``), an ``AgentChoice``, or a callable
        ``policy(observation: dict) -> action`` (see :meth:`GolfEnv.observe`).

    Returns
    -------
    dict
        ``hole_scores`` (holes x players), ``totals``, ``win_share``, ``turns``, ``went_out``, ``truncated``.
    """
    rules = Rules(players=len(agents)) if rules is None else rules
    if len(agents) != rules.players:
        raise ValueError(f"{len(agents)} agents given for {rules.players} seats; give one agent per seat")
    seed = check_seed(seed)
    agent_seed = seed if agent_seed is None else check_seed(agent_seed)
    seats = []
    for a in agents:
        if callable(a) and not isinstance(a, (str, AgentChoice)):
            seats.append(a)
        else:
            choice = parse_agent(a)
            seats.append(_python_policy(choice) if choice.spec.python is not None else choice)
    compiled = [s if isinstance(s, AgentChoice) else "random" for s in seats]
    ids, params, agent_fns = Table.make(compiled, rules).kernel_arguments()
    agent_rng = np.array([agent_state(agent_seed, game, p) for p in range(rules.players)], dtype=np.uint64)
    env = GolfEnv(rules)
    hole_scores = np.zeros((rules.holes, rules.players), dtype=np.int64)
    turns, went_out, truncated = [], [], []
    for h in range(rules.holes):
        env.reset(seed, game=game, hole=h, totals=hole_scores[:h].sum(axis=0))
        while not env.done:
            p = env.current_player
            agent = seats[p]
            if isinstance(agent, AgentChoice):
                view = env.pub
                if agent.spec.sees_hidden:  # as the simulator does: the true state follows the public one
                    view = np.zeros(sight_size(env.packed), dtype=env.pub.dtype)
                    fill_sight(view, env.pub, env.hid, env.packed, env.deal_rng)
                action = int(decide(ids[p], agent_fns, view, env.packed, params[p], agent_rng, p))
            else:
                try:
                    action = agent(env.observe(p))
                except Exception as e:
                    raise AgentError(f"agent {_policy_name(agent)!r} (seat {p}) raised {type(e).__name__}: "
                                     f"{' '.join(str(e).split())}") from e
            try:
                env.step(action)
            except ValueError as err:
                raise IllegalActionError(f"agent {_policy_name(agent)!r} (seat {p}): {err}") from None
        hole_scores[h] = env.scores()
        turns.append(int(env.pub[TURN]))
        went_out.append(env.went_out)
        truncated.append(env.truncated)
    totals = hole_scores.sum(axis=0)
    return {
        "hole_scores": hole_scores,
        "totals": totals,
        "win_share": win_shares(totals[None, :])[0],
        "turns": turns,
        "went_out": went_out,
        "truncated": truncated,
    }


def _python_policy(choice: AgentChoice) -> PythonPolicy:
    policy = choice.spec.python(choice.param_dict())

    def named(observation):
        return policy(observation)

    named.__name__ = choice.label
    return named
