"""The N-hole game: holes, running totals, the first player of each hole, and an event for every action.

[`Game`][golfsim.game.game.Game] owns the one hole loop that everything played a decision at a time goes through: the
step API ([`golfsim.game.env.GolfEnv`][]), [`golfsim.game.env.play_game`][], terminal play
(`golfsim.cli.terminal_game`), saved game logs and the adapters of [`golfsim.interop`][] (``Match``, the
OpenSpiel state). It is the one place that deals a hole, checks a deck, keeps the totals and ends a hole and the
game. It holds one deal's arrays and calls the same compiled rule functions as the batch simulator, so hole ``h``
of game ``g`` under ``seed`` is the deal the simulator plays for those coordinates. (The batch kernel keeps its own
inlined loop; ``tests/game/test_game.py`` checks that both play identical games.)

Every action produces an [`Event`][golfsim.game.game.Event] (who, phase, action, the card that moved or was revealed);
the end of a hole produces one more, with the scores. Seats are played by
[`CompiledAgent`][golfsim.game.game.CompiledAgent] (a registered compiled bot, called directly from Python at a few
microseconds per decision) or [`PythonAgent`][golfsim.game.game.PythonAgent] (any callable on observation dicts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from golfsim.agents.base import AgentChoice, parse_agent
from golfsim.agents.dispatch import GREEDY_ID, RANDOM_ID, pointer_function
from golfsim.agents.greedy import greedy_act
from golfsim.agents.random_agent import random_act
from golfsim.core.cards import card_with_article, rank_name
from golfsim.core.engine import apply_action, deal_from_deck, deal_scores, deal_shuffled, is_legal, legal_mask
from golfsim.core.errors import AgentError, IllegalActionError
from golfsim.core.rng import agent_state, check_seed, deal_state
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    DRAW_STOCK,
    END_REASON,
    ENDER,
    FIRST,
    HELD,
    HID_DTYPE,
    HOLD,
    HOLE,
    NUM_ACTIONS,
    PHASE,
    PHASE_NAMES,
    PUB_DTYPE,
    R_HID_SIZE,
    R_OFF_DISCARD,
    R_OFF_TOTALS,
    R_OFF_VIEW,
    R_PUB_SIZE,
    START,
    THROW_DRAWN,
    TURN,
    action_name,
    decode,
)
from golfsim.core.validate import check_pub, check_seat, check_totals
from golfsim.core.worlds import fill_sight, sight_size
from golfsim.game.lazy import LazyObservation

END_REASONS = ("running", "went_out", "stock_exhausted", "truncated")
"""Names of the ``END_REASON`` codes, index = code."""

DONE_PHASE = PHASE_NAMES.index("done")


@dataclass(frozen=True)
class Event:
    """One thing that happened in a game: an action (``kind="action"``) or the end of a hole (``kind="hole_end"``).

    Attributes
    ----------
    kind : str
        ``"action"`` or ``"hole_end"``.
    hole, turn : int
        The hole (from 0) and the turn counter when it happened (0 during the opening flips).
    player : int
        Who acted (-1 for a hole end).
    phase : str
        The phase the action was taken in (``"open"``, ``"start"``, ``"hold"``, ``"flip"``).
    action : int
        The action id (-1 for a hole end); `golfsim.core.rules.action_name` names it.
    card : int
        The card that moved or was revealed: the discard taken, the card drawn (known to the drawer only until
        it is placed or thrown), the drawn card placed or thrown, or the card turned up; -1 for a pass.
    discarded : int
        The card that went onto the discard pile (the card a take or a place replaced, or a thrown card), else -1.
    position : int
        The layout position the action used, else -1.
    scores : tuple of int
        Hole end: every player's score for the hole.
    went_out : int
        Hole end: who went out, or -1.
    end_reason : str
        Hole end: ``"went_out"``, ``"stock_exhausted"`` or ``"truncated"``.
    """

    kind: str
    hole: int
    turn: int
    player: int = -1
    phase: str = ""
    action: int = -1
    card: int = -1
    discarded: int = -1
    position: int = -1
    scores: tuple[int, ...] = ()
    went_out: int = -1
    end_reason: str = ""

    def describe(self, viewer: int | None = None, names: Sequence[str] | None = None) -> str:
        """One line of narration as ``viewer`` sees it (a drawn card is shown to its drawer only).

        ``names`` names the seats (default ``"player 0"``, ...).
        """
        def who(p):
            return names[p] if names is not None else f"player {p}"

        if self.kind == "hole_end":
            how = {"went_out": f"{who(self.went_out)} went out", "stock_exhausted": "the stock ran out",
                   "truncated": "the turn cap was reached"}.get(self.end_reason, self.end_reason)
            scores = ", ".join(f"{who(p)} {s}" for p, s in enumerate(self.scores))
            return f"hole {self.hole + 1} over ({how}): {scores}"
        mover = who(self.player)
        second_person = mover == "you" or mover.startswith("you (")  # "you (seat 0) take", not "you takes"

        def verb(base):
            return base if second_person else base + ("es" if base.endswith(("sh", "ch", "s", "x")) else "s")

        card = card_with_article(self.card) if self.card >= 0 else ""
        drawn = rank_name(self.card) if self.card >= 0 else ""
        kind, k = decode(self.action)
        if kind == "take":
            text = (f"{verb('take')} the {drawn} from the discard pile to position {k + 1}, "
                    f"discarding {card_with_article(self.discarded)}")
        elif kind == "draw":
            text = f"{verb('draw')} {card}" if viewer == self.player else f"{verb('draw')} from the stock"
        elif kind == "reveal":
            text = f"{verb('reveal')} {card} at position {k + 1}"
        elif kind == "place":
            text = (f"{verb('put')} the drawn {drawn} at position {k + 1}, "
                    f"discarding {card_with_article(self.discarded)}")
        elif kind == "throw":
            text = f"{verb('throw')} the drawn {drawn} away"
        elif kind == "flip":
            text = f"{verb('turn')} up {card} at position {k + 1}"
        else:
            text = f"{verb('flip')} nothing"
        return f"{mover} {text}"


def action_position(action: int) -> int:
    """The layout position an action uses (0-5), or -1 for a draw, a throw or a pass
    ([`decode`][golfsim.core.spec.decode])."""
    return decode(action).position


class Game:
    """An N-hole game played a decision at a time.

    Parameters
    ----------
    rules : Rules, optional
        The rule set (default: the published game for two players).
    seed : int
        The deal seed: hole ``h`` is dealt from ``deal_state(seed, game, h)``, as in the batch simulator.
    game : int
        Which game of that seed.
    truncation_ends_game : bool
        Whether a hole that ends at the turn cap ends the game too (as an RL episode is cut short); by default the
        game goes on to its next hole, as in the batch simulator.

    Examples
    --------
    >>> from golfsim.core.spec import PLACE_DRAWN
    >>> g = Game(Rules(holes=2), seed=3)
    >>> g.start_hole()
    >>> while not g.over:
    ...     if g.hole_over:
    ...         g.start_hole()
    ...     legal = g.legal_actions()
    ...     events = g.step(legal[-1] if g.phase != "hold" else PLACE_DRAWN + g.face_down()[0])
    >>> len(g.hole_scores)
    2
    """

    def __init__(self, rules: Rules | None = None, seed: int = 0, *, game: int = 0,
                 truncation_ends_game: bool = False):
        self.rules = Rules() if rules is None else rules
        if not isinstance(self.rules, Rules):
            raise ValueError(f"rules must be a golfsim Rules object, got {type(self.rules).__name__}")
        self.packed = self.rules.pack()
        self.pub = np.zeros(int(self.packed[R_PUB_SIZE]), dtype=PUB_DTYPE)
        self.hid = np.zeros(int(self.packed[R_HID_SIZE]), dtype=HID_DTYPE)
        self.deal_rng = np.zeros(1, dtype=np.uint64)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.uint8)
        self._scores = np.zeros(self.rules.players, dtype=np.int32)
        self._ov = int(self.packed[R_OFF_VIEW])
        self._od = int(self.packed[R_OFF_DISCARD])
        self._ot = int(self.packed[R_OFF_TOTALS])
        self.truncation_ends_game = bool(truncation_ends_game)
        self.restart(seed, game=game)

    def restart(self, seed: int = 0, *, game: int = 0) -> None:
        """Forget every hole and start game ``game`` of ``seed`` again (no hole is dealt yet)."""
        self.seed = check_seed(seed)
        if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or game < 0:
            raise ValueError(f"game must be a whole number of at least 0, got {game!r}")
        self.game = int(game)
        self._hole_scores: list[list[int]] = []
        self._hole_numbers: list[int] = []
        self._events: list[Event] = []
        self._deal_events = 0
        self._started = False
        self._recorded = False  # whether the end of the hole being played has been recorded
        self._cut_short = False  # a hole ended at the turn cap and that ends the game
        self._first_hole = 0  # the hole the game began at: 0, or the hole join() took up
        # the running totals: those from before that hole, plus every hole recorded since
        self._totals = np.zeros(self.rules.players, dtype=np.int64)
        self._totals_before = np.zeros(self.rules.players, dtype=np.int32)

    def clone(self) -> Game:
        """An independent copy of the game as it stands (cards, streams, scores; the history is shared up to now),
        for looking ahead: playing on the copy leaves this game unchanged."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        for name in ("pub", "hid", "deal_rng", "_mask", "_scores", "_totals_before", "_totals"):
            setattr(other, name, getattr(self, name).copy())
        other._hole_scores = [list(row) for row in self._hole_scores]
        other._hole_numbers = list(self._hole_numbers)
        other._events = list(self._events)
        return other

    def __deepcopy__(self, memo) -> Game:
        # the events are frozen and the rules never change: clone() copies everything that play mutates, far
        # faster than a deep copy of the history (OpenSpiel clones a state by deep-copying it)
        return self.clone()

    # ---------------------------------------------------------------- holes
    def start_hole(self, hole: int | None = None, *, deck: Sequence | None = None,
                   totals: Sequence[int] | None = None) -> None:
        """Deal a hole: the next one by default.

        Parameters
        ----------
        hole : int, optional
            Which hole (it sets the deal stream and who moves first, ``hole % players``); default: the next.
        deck : sequence of int or str, optional
            An explicit deck order, top card first (rank codes or card names like ``"K"``), instead of a shuffle.
        totals : sequence of int, optional
            Game totals before this hole, shown to agents; default: the totals of the holes played in this game.
        """
        if self._started and not self.hole_over:
            raise RuntimeError(f"hole {self.hole + 1} is still being played; finish it before dealing another")
        if hole is None:
            if self._cut_short:
                raise RuntimeError(f"the game is over: hole {self.hole + 1} ended at the turn cap")
            hole = self.next_hole
            if hole >= self.rules.holes:
                raise RuntimeError(f"the game is over: all {self.rules.holes} holes have been played")
        if isinstance(hole, bool) or not isinstance(hole, (int, np.integer)) or not 0 <= hole < self.rules.holes:
            raise ValueError(f"hole must be a whole number from 0 to {self.rules.holes - 1} (the game has "
                             f"{self.rules.holes} holes), got {hole!r}")
        hole = int(hole)
        players = self.rules.players
        if totals is None:
            self._totals_before[:] = self._totals
        else:
            self._totals_before[:] = self._check_totals(totals)
        self.deal_rng[0] = deal_state(self.seed, self.game, hole)
        first = hole % players
        if deck is None:
            deal_shuffled(self.pub, self.hid, self.packed, self.deal_rng, hole, first, self._totals_before)
        else:
            deal_from_deck(self.pub, self.hid, self.packed, self.deal_rng, self.rules.check_deck(deck), hole, first,
                           self._totals_before)
        self._deal_events = len(self._events)
        self._started = True
        self._recorded = False

    def join(self, pub, hid, deal_rng: int) -> None:
        """Take up a hole in progress from the engine's arrays, e.g. a position rebuilt from what a seat sees.

        The game restarts at that hole (``pub``'s hole number): the holes before it count as played but are not
        recorded, and the totals it shows to agents are the totals before it (they count in
        [`totals`][golfsim.game.game.Game.totals]).

        Parameters
        ----------
        pub, hid : ndarray
            The public and hidden arrays of a deal under this game's rules, copied in.
        deal_rng : int
            The deal stream's state from here on (it shuffles a recycled stock).
        """
        pub = check_pub(pub, self.packed)
        hid = np.asarray(hid)
        if hid.shape != self.hid.shape:
            raise ValueError(f"hid must hold {self.hid.size} entries for these rules, got shape {hid.shape}")
        self.restart(self.seed, game=self.game)
        self.pub[:] = pub
        self.hid[:] = hid
        self.deal_rng[0] = np.uint64(deal_rng)
        self._first_hole = int(pub[HOLE])
        self._totals[:] = pub[self._ot: self._ot + self.rules.players]
        self._totals_before[:] = self._totals
        self._started = True

    def _check_totals(self, totals):
        return check_totals(totals, self.rules.players)

    def _need_deal(self):
        if not self._started:
            raise RuntimeError("no hole has been dealt yet: call reset() (GolfEnv) or start_hole() (Game) first")

    # ---------------------------------------------------------------- reading the state
    @property
    def started(self) -> bool:
        """Whether a hole has been dealt."""
        return self._started

    @property
    def hole(self) -> int:
        """The hole being played (from 0)."""
        self._need_deal()
        return int(self.pub[HOLE])

    @property
    def phase(self) -> str:
        """``"open"``, ``"start"``, ``"hold"``, ``"flip"`` or ``"done"`` (the hole is over)."""
        self._need_deal()
        return PHASE_NAMES[int(self.pub[PHASE])]

    @property
    def hole_over(self) -> bool:
        """Whether the hole being played has ended."""
        self._need_deal()
        return int(self.pub[PHASE]) == DONE_PHASE

    @property
    def over(self) -> bool:
        """Whether every hole of the game has been played (or, with ``truncation_ends_game``, one ended at the
        turn cap)."""
        return self._cut_short or self.next_hole >= self.rules.holes

    @property
    def next_hole(self) -> int:
        """The hole [`start_hole`][golfsim.game.game.Game.start_hole] deals by default: the one after the holes
        played."""
        return self._first_hole + len(self._hole_scores)

    @property
    def current_player(self) -> int:
        """The player whose decision is due (-1 once the hole is over)."""
        self._need_deal()
        return -1 if self.hole_over else int(self.pub[CURRENT])

    @property
    def first_player(self) -> int:
        """Who moved first in this hole (``hole % players``)."""
        self._need_deal()
        return int(self.pub[FIRST])

    @property
    def turn(self) -> int:
        """Turns begun in this hole (0 during the opening flips)."""
        self._need_deal()
        return int(self.pub[TURN])

    @property
    def end_reason(self) -> str:
        """``"running"``, ``"went_out"``, ``"stock_exhausted"`` or ``"truncated"``."""
        self._need_deal()
        return END_REASONS[int(self.pub[END_REASON])]

    @property
    def went_out(self) -> int:
        """The player who went out in this hole, or -1."""
        self._need_deal()
        return int(self.pub[ENDER])

    @property
    def truncated(self) -> bool:
        """Whether this hole ended at the turn cap."""
        return self.end_reason == "truncated"

    @property
    def scores(self) -> list[int]:
        """This hole's scores per player, once it is over."""
        self._need_deal()
        if not self.hole_over:
            raise RuntimeError("the deal is not over yet; scores exist once it is done")
        deal_scores(self.pub, self.hid, self.packed, self._scores)
        return [int(s) for s in self._scores]

    @property
    def hole_scores(self) -> np.ndarray:
        """Scores of the holes finished in this game, ``holes_played x players``."""
        return np.array(self._hole_scores, dtype=np.int64).reshape(-1, self.rules.players)

    @property
    def totals(self) -> np.ndarray:
        """Game totals over the holes finished so far (int64), with those from before a hole
        [`join`][golfsim.game.game.Game.join] took up."""
        return self._totals.copy()

    @property
    def history(self) -> tuple[Event, ...]:
        """Every event of the game so far, hole ends included."""
        return tuple(self._events)

    @property
    def deal_history(self) -> tuple[Event, ...]:
        """The events of the hole being played (or just finished)."""
        self._need_deal()
        return tuple(self._events[self._deal_events:])

    def view(self, player: int) -> list[int]:
        """``player``'s six cards as everyone sees them: rank codes, -1 face down."""
        self._need_deal()
        base = self._ov + 6 * check_seat(player, self.rules.players)
        return [int(c) for c in self.pub[base: base + 6]]

    def face_down(self, player: int | None = None) -> list[int]:
        """Positions of ``player``'s face-down cards (default: the player to move)."""
        player = self.current_player if player is None else player
        if player == -1 and self.hole_over:
            raise ValueError("the hole is over: nobody is to move; name a player")
        return [k for k, c in enumerate(self.view(player)) if c < 0]

    @property
    def top_discard(self) -> int:
        """The card on top of the discard pile."""
        self._need_deal()
        return int(self.pub[self._od + int(self.pub[DISCARD_N]) - 1])

    def action_mask(self) -> np.ndarray:
        """uint8 array of length ``NUM_ACTIONS``, 1 where the action is legal now."""
        self._need_deal()
        legal_mask(self.pub, self.packed, self._mask)
        return self._mask.copy()

    def _repr_svg_(self) -> str | None:
        """A picture of the table in Jupyter (`golfsim.view.svg`); none before the first deal."""
        if not self.started:
            return None
        from golfsim.view.svg import from_game

        return from_game(self).to_svg()

    def legal_actions(self) -> list[int]:
        """Sorted legal action ids (empty when the hole is over)."""
        return [int(a) for a in np.flatnonzero(self.action_mask())]

    # ---------------------------------------------------------------- playing
    def step(self, action: int) -> list[Event]:
        """Play ``action`` for the player to move.

        Returns
        -------
        list of Event
            The action's event, followed by the hole's end when the action ended it.

        Raises
        ------
        ValueError
            If the action is not legal now, naming it and the legal set.
        """
        self._need_deal()
        pub, hid = self.pub, self.hid
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or \
                not 0 <= action < NUM_ACTIONS or not is_legal(pub, self.packed, int(action)):
            legal = self.legal_actions()
            shown = action_name(action) if isinstance(action, (int, np.integer)) else repr(action)
            mover = f"player {int(pub[CURRENT])}" if not self.hole_over else "nobody"
            raise ValueError(
                f"action {action!r} ({shown}) is not legal for {mover} in the {self.phase} "
                f"phase; legal: {', '.join(f'{a} ({action_name(a)})' for a in legal) or 'none, the deal is over'}"
            )
        a = int(action)
        p = int(pub[CURRENT])
        phase = int(pub[PHASE])
        k = action_position(a)
        card = discarded = -1
        if phase == START:
            if a < DRAW_STOCK:
                card = int(pub[self._od + int(pub[DISCARD_N]) - 1])
                discarded = int(hid[6 * p + k])
            elif a > DRAW_STOCK:
                card = int(hid[6 * p + k])
        elif phase == HOLD:
            card = int(pub[HELD])
            discarded = card if a == THROW_DRAWN else int(hid[6 * p + k])
        elif k >= 0:  # an opening flip or a flip after a throw
            card = int(hid[6 * p + k])
        turn = int(pub[TURN])
        apply_action(pub, hid, self.packed, self.deal_rng, a)
        if a == DRAW_STOCK:
            card = int(pub[HELD])
        event = Event("action", int(pub[HOLE]), turn, p, PHASE_NAMES[phase], a, card, discarded, k)
        self._events.append(event)
        if int(pub[PHASE]) != DONE_PHASE:
            return [event]
        return [event, self.end_hole()]

    def end_hole(self) -> Event:
        """Record the end of the hole: its scores count in the game's totals, and its ``hole_end`` event is added.

        [`step`][golfsim.game.game.Game.step] calls it when an action ends the hole; call it yourself after compiled
        code played the hole's moves on this game's arrays ([`golfsim.interop.match.Match`][] does: its bots' moves,
        played in one compiled call, leave no action events).

        Returns
        -------
        Event
            The hole's end.

        Raises
        ------
        RuntimeError
            If the hole is not over yet or its end was recorded already.
        """
        self._need_deal()
        pub = self.pub
        if int(pub[PHASE]) != DONE_PHASE:
            raise RuntimeError(f"hole {self.hole + 1} is still being played; it has no end to record yet")
        if self._recorded:
            raise RuntimeError(f"the end of hole {self.hole + 1} was recorded already")
        deal_scores(self.pub, self.hid, self.packed, self._scores)
        scores = tuple(self._scores.tolist())
        end = Event("hole_end", int(pub[HOLE]), int(pub[TURN]), scores=scores, went_out=int(pub[ENDER]),
                    end_reason=END_REASONS[int(pub[END_REASON])])
        self._events.append(end)
        self._recorded = True
        if not self.over:
            self._hole_scores.append(list(scores))
            self._hole_numbers.append(int(pub[HOLE]))
            self._totals += self._scores
            self._cut_short = self.truncation_ends_game and end.end_reason == "truncated"
        return end

    def play(self, agents: Sequence, *, agent_seed: int | None = None,
             on_event: Callable[[Event], None] | None = None) -> None:
        """Play the rest of the game with one agent per seat (see [`make_agents`][golfsim.game.game.make_agents]).

        ``on_event`` is called with every event as it happens.
        """
        seats = make_agents(agents, self.rules)
        seeds = check_seed(self.seed if agent_seed is None else agent_seed)
        for p, seat in enumerate(seats):
            seat.reset(seeds, self.game, p)
        while not self.over:
            if not self._started or self.hole_over:
                self.start_hole()
            while not self.hole_over:
                p = int(self.pub[CURRENT])
                seat = seats[p]
                action = seat.act(self, p)  # a plain-Python agent that raises is named (AgentError)
                try:
                    events = self.step(action)
                except ValueError as err:
                    raise IllegalActionError(f"agent {seat.label!r} (seat {p}): {err}") from None
                if on_event is not None:
                    for e in events:
                        on_event(e)


# ---------------------------------------------------------------- agents at the table
class CompiledAgent:
    """A registered compiled bot, called directly from Python on the game's arrays.

    Everything that is per agent (its parameter vector, its compiled entry point) is resolved once here, so a
    decision costs one compiled call, far less than going through the batch dispatcher from Python, which unboxes
    the tuple of agents called by pointer on every call.

    Parameters
    ----------
    choice : AgentChoice or str
        The agent, e.g. ``"ev"`` or ``"pair-builder:keep_threshold=8"``.
    rules : Rules
        The rules it plays (ev compiles a separate valuation for a four-of-a-kind bonus).
    """

    def __init__(self, choice, rules: Rules):
        self.choice = parse_agent(choice)
        if not self.choice.spec.compiled:
            raise ValueError(f"agent {self.choice.label!r} is a plain-Python agent, not a compiled one")
        self.label = self.choice.label
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a golfsim Rules object, got {type(rules).__name__}")
        self.rules = rules
        self._packed = rules.pack()
        self._checked = None
        self.params = self.choice.param_vector()
        self.rng = np.zeros(rules.players, dtype=np.uint64)
        # an agent is given only its own stream, a one-element view (as golfsim.agents.dispatch.decide does)
        self._own_rng = [self.rng[p:p + 1] for p in range(rules.players)]
        function = pointer_function(self.choice.spec, rules.pack())
        if function is None:
            function = {GREEDY_ID: greedy_act, RANDOM_ID: random_act}[self.choice.spec.builtin_id]
        self._function = function
        # an agent that sees hidden cards (the oracle) reads the true state after the public one, as in the simulator
        self._sight = (np.zeros(sight_size(rules.pack()), dtype=PUB_DTYPE) if self.choice.spec.sees_hidden
                       else None)

    def reset(self, seed: int, game: int, seat: int) -> None:
        """Start the agent stream of ``seat`` in game ``game`` of ``seed`` (as the batch simulator does)."""
        self.rng[seat] = agent_state(check_seed(seed), game, seat)

    def act(self, game, player: int) -> int:
        """The decision for ``player`` on ``game`` (a [`Game`][golfsim.game.game.Game] or a ``GolfEnv``), read from its
        public array."""
        self._check_table(game.packed, game.rules)
        player = check_seat(player, self.rules.players)
        if int(game.pub[PHASE]) == DONE_PHASE or int(game.pub[CURRENT]) != player:
            mover = "nobody, the hole is over" if int(game.pub[PHASE]) == DONE_PHASE else \
                f"player {int(game.pub[CURRENT])}"
            raise ValueError(f"agent {self.label!r} was asked to act for player {player}, but the decision is "
                             f"{mover}'s")
        view = game.pub
        if self._sight is not None:
            fill_sight(self._sight, game.pub, game.hid, game.packed, game.deal_rng)
            view = self._sight
        return self._function(view, game.packed, self.params, self._own_rng[player], player)

    def __call__(self, observation: dict) -> int:
        """The decision from an observation dict, so the agent also works wherever a plain policy does."""
        if not isinstance(observation, dict) or not {"rules", "player", "observation"} <= observation.keys():
            raise ValueError("an observation is the dict GolfEnv.observe() returns (with rules, player and "
                             "observation)")
        rules = observation["rules"]
        if not isinstance(rules, Rules):
            raise ValueError(f"observation['rules'] must be a golfsim Rules object, got {type(rules).__name__}")
        packed = rules.pack()
        self._check_table(packed, rules)
        if self._sight is not None:
            raise ValueError(f"agent {self.label!r} sees hidden cards, which an observation does not hold; "
                             "call its act(game, player) instead")
        pub = check_pub(observation["observation"], packed, name="observation['observation']")
        player = check_seat(observation["player"], self.rules.players, name="observation['player']")
        if int(pub[PHASE]) == DONE_PHASE or int(pub[CURRENT]) != player:
            raise ValueError(f"agent {self.label!r} was asked to act for player {player}, who is not to move")
        return int(self._function(pub, packed, self.params, self._own_rng[player], player))

    def _check_table(self, packed, rules) -> None:
        """Refuse a game under other rules than the agent was made for (its arrays are sized for those)."""
        if packed is self._checked:  # the same game's array as last time: checked already
            return
        if not np.array_equal(packed, self._packed):
            raise ValueError(f"agent {self.label!r} was made for {self.rules.describe()}, not for "
                             f"{rules.describe()}; make one for these rules")
        self._checked = packed


class PythonAgent:
    """A plain-Python policy ``policy(observation: dict) -> action`` at a seat.

    If the policy has a ``reset(seed, game, seat)`` method, it is called at the start of every game with a seed of
    its own (the seat's agent stream, 64 bits; independent of the deals), so a randomised policy is reproducible.
    """

    def __init__(self, policy, label: str | None = None):
        self.policy = policy
        self.label = label or getattr(policy, "__name__", type(policy).__name__)

    def reset(self, seed: int, game: int, seat: int) -> None:
        reset = getattr(self.policy, "reset", None)
        if callable(reset):
            reset(seed=int(agent_state(check_seed(seed), game, seat)), game=game, seat=seat)

    def act(self, game, player: int) -> int:
        """The policy's action for ``player``; an exception it raises becomes an ``AgentError`` naming it."""
        try:
            return self.policy(observe(game, player))
        except (Exception, SystemExit) as e:  # a policy's sys.exit must not end the program that plays it
            raise AgentError(f"agent {self.label!r} (seat {player}) raised {type(e).__name__}: "
                             f"{' '.join(str(e).split())}") from e


class BatchedAgent:
    """A batched policy ([`golfsim.agents.base.register_batched_agent`][]) at a seat, asked one decision at a time
    with a batch of one row.

    ``batch.random`` comes from the seat's agent stream of the game, as in the batch simulator's tables, so a game
    played here equals the same game of a tournament.
    """

    def __init__(self, policy, label: str, rules: Rules):
        self.policy = policy
        self.label = label
        self.rules = rules
        self.rng = np.zeros(rules.players, dtype=np.uint64)
        self._game = 0

    def reset(self, seed: int, game: int, seat: int) -> None:
        self.rng[seat] = agent_state(check_seed(seed), game, seat)
        self._game = int(game)

    def act(self, game, player: int) -> int:
        """The policy's action for ``player``; an exception it raises becomes an ``AgentError`` naming it."""
        from golfsim.agents.base import DecisionBatch
        from golfsim.core.rng import uniform
        from golfsim.game.observation import encode, size

        obs = np.zeros((1, size(self.rules.players, self.rules.n_codes)), dtype=np.float32)
        encode(game.pub, game.packed, player, 1, obs[0])
        mask = np.zeros((1, NUM_ACTIONS), dtype=np.uint8)
        legal_mask(game.pub, game.packed, mask[0])
        random = np.array([uniform(self.rng, player)])
        batch = DecisionBatch(obs, mask, player, np.array([self._game]), random, self.rules)
        try:
            chosen = np.asarray(self.policy(batch)).reshape(-1)
        except (Exception, SystemExit) as e:
            raise AgentError(f"agent {self.label!r} (seat {player}) raised {type(e).__name__}: "
                             f"{' '.join(str(e).split())}") from e
        if chosen.shape != (1,) or not np.issubdtype(chosen.dtype, np.integer):
            raise AgentError(f"agent {self.label!r} (seat {player}) returned {chosen!r} for a batch of 1 decision; "
                             "a batched policy returns one whole number per decision")
        return int(chosen[0])


def make_agents(agents: Sequence, rules: Rules) -> list:
    """One seat object per agent: names and ``AgentChoice`` of compiled agents become
    [`CompiledAgent`][golfsim.game.game.CompiledAgent], registered plain-Python agents and callables become
    [`PythonAgent`][golfsim.game.game.PythonAgent], batched agents [`BatchedAgent`][golfsim.game.game.BatchedAgent];
    seat objects pass through."""
    if len(agents) != rules.players:
        raise ValueError(f"{len(agents)} agents given for {rules.players} seats; give one agent per seat")
    seats = []
    for a in agents:
        if isinstance(a, (CompiledAgent, PythonAgent, BatchedAgent)):
            seats.append(a)
        elif callable(a) and not isinstance(a, (str, AgentChoice)):
            seats.append(PythonAgent(a))
        else:
            choice = parse_agent(a)
            if choice.spec.batched:
                seats.append(BatchedAgent(choice.spec.python(choice.param_dict()), choice.label, rules))
            elif choice.spec.python is not None:
                seats.append(PythonAgent(choice.spec.python(choice.param_dict()), choice.label))
            else:
                seats.append(CompiledAgent(choice, rules))
    return seats


def observe(game, player: int) -> dict:
    """What ``player`` may know about ``game`` (a [`Game`][golfsim.game.game.Game]), and nothing else; see
    ``GolfEnv.observe``."""
    return dict(LazyObservation(game.pub, game.packed, game.rules, player))


__all__ = ["END_REASONS", "action_position", "BatchedAgent", "CompiledAgent",
           "Event", "Game", "PythonAgent", "make_agents", "observe"]
