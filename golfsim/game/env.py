"""The step API: one deal at a time, for humans, plain-Python agents, RL libraries and debugging.

[`GolfEnv`][golfsim.game.env.GolfEnv] is a thin layer over [`golfsim.game.game.Game`][]: a deal started here from
``(seed, game, hole)`` is the deal the batch simulator plays for those coordinates, and
[`play_game`][golfsim.game.env.play_game] with built-in agents reproduces the simulator's game ``game`` exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from golfsim.core.cards import format_layout, rank_name
from golfsim.core.engine import stock_order
from golfsim.core.rules import Rules
from golfsim.core.scoring import win_shares
from golfsim.core.spec import (
    CURRENT,
    END_REASON,
    ENDER,
    FINAL_LEFT,
    HELD,
    HOLD,
    PHASE,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    RECYCLES,
    STOCK_N,
)
from golfsim.game.game import CompiledAgent, Event, Game, make_agents, observe


class Scores(list):
    """A deal's scores: a list of ints. Calling it (``env.scores()``, the old method form) returns it unchanged."""

    def __call__(self) -> Scores:
        return self


class GolfEnv:
    """One deal of six-card Golf, played a decision at a time.

    Everything that reads the state without arguments is a property (``phase``, ``done``, ``current_player``,
    ``turn``, ``first_player``, ``hole``, ``end_reason``, ``went_out``, ``truncated``, ``scores``, ``history``);
    everything that takes an argument or builds something is a method (``reset``, ``step``, ``legal_actions``,
    ``action_mask``, ``observe``, ``face_down``, ``render``, ``snapshot``). Reading the state before ``reset()`` raises
    ``RuntimeError``.

    Parameters
    ----------
    rules : Rules, optional
        The rule set (default: the published game for two players).

    Examples
    --------
    A player who draws every turn and puts the card on a face-down one turns a card up each turn, so the deal ends:

    >>> from golfsim.core.spec import DRAW_STOCK, PLACE_DRAWN
    >>> env = GolfEnv(Rules(players=2))
    >>> env.reset(seed=7)
    >>> while not env.done:
    ...     if env.phase == "hold":
    ...         env.step(PLACE_DRAWN + env.face_down()[0])
    ...     elif env.phase == "start":
    ...         env.step(DRAW_STOCK)
    ...     else:
    ...         env.step(env.legal_actions()[0])
    >>> env.end_reason
    'went_out'
    >>> len(env.scores)
    2

    A compiled bot can play every seat from the step API, at a few microseconds per decision:

    >>> bot = env.agent("ev", seat=1)
    >>> env.reset(seed=7)
    >>> while not env.done:
    ...     env.step(bot.act(env, env.current_player))
    >>> env.done
    True
    """

    def __init__(self, rules: Rules | None = None):
        self.game = Game(rules)
        self.rules = self.game.rules
        self.packed = self.game.packed
        self.pub = self.game.pub
        self.hid = self.game.hid
        self.deal_rng = self.game.deal_rng

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
            Game totals before this hole, shown to agents (default: zeros).
        """
        self.game.restart(seed, game=game)
        totals = np.zeros(self.rules.players, dtype=np.int64) if totals is None else totals
        self.game.start_hole(hole, deck=deck, totals=totals)

    def agent(self, agent, seat: int, *, seed: int = 0, game: int = 0) -> CompiledAgent:
        """A compiled bot for ``seat`` (``"ev"``, ``"greedy:take_gain=2"``, ...) whose stream is seeded like the
        simulator's seat ``seat`` of game ``game`` under ``seed``; call ``bot.act(env, env.current_player)``."""
        bot = CompiledAgent(agent, self.rules)
        bot.reset(seed, game, self._check_player(seat))
        return bot

    # ---------------------------------------------------------------- reading the state
    @property
    def phase(self) -> str:
        """``"open"``, ``"start"``, ``"hold"``, ``"flip"`` or ``"done"``."""
        return self.game.phase

    @property
    def done(self) -> bool:
        """Whether the deal is over."""
        return self.game.hole_over

    @property
    def current_player(self) -> int:
        """The player whose decision is due (-1 once the deal is over)."""
        return self.game.current_player

    @property
    def hole(self) -> int:
        """The hole this deal is (from 0)."""
        return self.game.hole

    @property
    def first_player(self) -> int:
        """Who moved first (``hole % players``)."""
        return self.game.first_player

    @property
    def turn(self) -> int:
        """Turns begun (0 during the opening flips)."""
        return self.game.turn

    @property
    def end_reason(self) -> str:
        """``"running"``, ``"went_out"``, ``"stock_exhausted"`` or ``"truncated"``."""
        return self.game.end_reason

    @property
    def truncated(self) -> bool:
        """Whether the deal ended at the turn cap."""
        return self.game.truncated

    @property
    def went_out(self) -> int:
        """The player who went out, or -1."""
        return self.game.went_out

    @property
    def scores(self) -> Scores:
        """Deal scores per player, once the deal is over (``RuntimeError`` before)."""
        return Scores(self.game.scores)

    @property
    def history(self) -> tuple[Event, ...]:
        """Every action of this deal as an [`Event`][golfsim.game.game.Event] (and the deal's end, once over)."""
        return self.game.deal_history

    def action_mask(self) -> np.ndarray:
        """uint8 array of length ``NUM_ACTIONS``, 1 where the action is legal now."""
        return self.game.action_mask()

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids (empty when the deal is over)."""
        return self.game.legal_actions()

    def face_down(self, player: int | None = None) -> list[int]:
        """Positions of ``player``'s face-down cards (default: the player to move)."""
        return self.game.face_down(None if player is None else self._check_player(player))

    def _view(self) -> np.ndarray:
        return np.array([self.game.view(p) for p in range(self.rules.players)], dtype=np.int64)

    def observe(self, player: int | None = None) -> dict:
        """What ``player`` (default: the player to move) may know, and nothing else.

        Returns
        -------
        dict
            ``player``, ``phase``, ``current_player``, ``view`` (players x 6 ranks, -1 face down), ``discard``
            (bottom first), ``top_discard``, ``stock_size``, ``unseen`` (a count per card code of the cards nobody
            has seen: 14 ranks, 15 codes with ``one_eyed_jacks``), ``stock_known`` (those counts of the recycled
            stock), ``held`` (the drawn card, for the drawer only, else
            None), ``totals``, ``hole``, ``turn``, ``action_mask`` (zeros when it is not ``player``'s decision)
            and ``observation``, the flat public int32 vector the compiled agents read (the held card is -1 for
            anyone but the drawer).
        """
        self.game._need_deal()
        if player is None:
            player = int(self.pub[CURRENT])
        return observe(self.game, self._check_player(player))

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
        self.game.step(action)

    # ---------------------------------------------------------------- inspection
    def snapshot(self) -> dict:
        """The whole state, hidden cards included, as plain ints (the format the reference engine uses)."""
        self.game._need_deal()
        pub, hid, p = self.pub, self.hid, self.rules.players
        view = self._view()
        ou, ok = int(self.packed[R_OFF_UNSEEN]), int(self.packed[R_OFF_STOCK_KNOWN])
        return {
            "phase": int(pub[PHASE]),
            "current": int(pub[CURRENT]),
            "held": int(pub[HELD]),
            "turn": self.turn,
            "ender": int(pub[ENDER]),
            "final_left": int(pub[FINAL_LEFT]),
            "end_reason": int(pub[END_REASON]),
            "recycles": int(pub[RECYCLES]),
            "first": self.first_player,
            "layouts": [[int(c) for c in hid[6 * i: 6 * i + 6]] for i in range(p)],
            "face_up": [[int(v >= 0) for v in row] for row in view],
            "stock": [int(c) for c in stock_order(hid, self.packed, self.deal_rng, int(pub[STOCK_N]))],
            "discard": self.observe(0)["discard"],
            "unseen": [int(c) for c in pub[ou: ou + self.rules.n_codes]],
            "stock_known": [int(c) for c in pub[ok: ok + self.rules.n_codes]],
        }

    def render(self, player: int | None = None) -> str:
        """A plain-text picture of the table as ``player`` sees it (default: an onlooker).

        Face-down cards show as ``?``; a drawn card is shown only to its drawer.
        """
        self.game._need_deal()
        viewer = None if player is None else self._check_player(player)
        view = self._view()
        head = f"hole {self.hole + 1}, turn {self.turn}, "
        if self.done:
            lines = [head + f"deal over ({self.end_reason.replace('_', ' ')})"]
        else:
            lines = [head + f"phase {self.phase}, player {self.current_player} to move"]
        stock = f"stock {int(self.pub[STOCK_N])} cards, discard top {rank_name(self.game.top_discard)}"
        if int(self.pub[PHASE]) == HOLD:
            drawer = int(self.pub[CURRENT])
            stock += (f", drawn card {rank_name(int(self.pub[HELD]))}" if viewer == drawer
                      else f", player {drawer} holds a drawn card")
        lines.append(stock)
        for p in range(self.rules.players):
            marker = "*" if p == self.current_player else " "
            lines.append(f"{marker} player {p}: {format_layout(view[p], view[p] >= 0)}")
        if self.done:
            lines.append("scores: " + ", ".join(str(s) for s in self.scores))
        return "\n".join(lines)


# ---------------------------------------------------------------- whole games with mixed agents
PythonPolicy = Callable[[dict], int]


def play_game(agents: Sequence, rules: Rules | None = None, seed: int = 0, *, game: int = 0,
              agent_seed: int | None = None) -> dict:
    """Play one N-hole game a decision at a time; agents may be compiled (names) or plain-Python callables.

    With only compiled agents the result equals game ``game`` of ``simulate(agents, rules, seed=seed)``.

    Parameters
    ----------
    agents : sequence
        Per seat: an agent name (``"ev"``, ``"pair-builder:keep_threshold=8"``), an ``AgentChoice``, or a callable
        ``policy(observation: dict) -> action`` (see [`GolfEnv.observe`][golfsim.game.env.GolfEnv.observe]). A policy
        with a ``reset(seed, game, seat)`` method gets a seed of its own before the game starts.

    Returns
    -------
    dict
        ``hole_scores`` (holes x players), ``totals``, ``win_share``, ``turns``, ``went_out``, ``truncated``,
        ``end_reason`` (names) and ``events`` (every [`Event`][golfsim.game.game.Event] of the game).
    """
    rules = Rules(players=len(agents)) if rules is None else rules
    seats = make_agents(agents, rules)
    play = Game(rules, seed, game=game)
    play.play(seats, agent_seed=agent_seed)
    ends = [e for e in play.history if e.kind == "hole_end"]
    hole_scores = play.hole_scores
    totals = hole_scores.sum(axis=0)
    return {
        "hole_scores": hole_scores,
        "totals": totals,
        "win_share": win_shares(totals[None, :])[0],
        "turns": [e.turn for e in ends],
        "went_out": [e.went_out for e in ends],
        "truncated": [e.end_reason == "truncated" for e in ends],
        "end_reason": [e.end_reason for e in ends],
        "events": play.history,
    }
