"""One N-hole game played a decision at a time, with some seats taken by compiled golfsim bots.

[`Match`][golfsim.interop.match.Match] is the state the PettingZoo and Gymnasium adapters wrap, a thin layer over
[`golfsim.game.game.Game`][], which deals the holes, keeps the totals and ends holes and the game. After each
outside decision it plays the bots' turns on the game's arrays in one compiled call
([`golfsim.kernels.bot_loop.play_bots`][]) using the same agent dispatch as the batch simulator, so a bot's turn
costs what it costs there, not a Python round trip.

Coordinates match the rest of golfsim: hole ``h`` of game ``g`` under ``seed`` is dealt from the deal stream
``(seed, g, h)`` and seat ``p``'s bot draws from the agent stream ``(seed, g, p)``, exactly as
``golfsim.game.env.play_game(agents, rules, seed, game=g)`` and ``simulate(..., seed=seed)`` do.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from golfsim.agents.base import AgentChoice, parse_agent
from golfsim.core.cards import format_layout, rank_name
from golfsim.core.engine import legal_mask
from golfsim.core.errors import IllegalActionError
from golfsim.core.rng import agent_state
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DONE,
    HELD,
    HOLD,
    HOLE,
    NUM_ACTIONS,
    PHASE,
    PHASE_NAMES,
    R_OFF_VIEW,
    STOCK_N,
    TURN,
    action_name,
)
from golfsim.game import observation
from golfsim.game.game import Game
from golfsim.kernels.bot_loop import ILLEGAL_BOT, ILLEGAL_OUTSIDE, Bots
from golfsim.kernels.simulate import Table

OUTSIDE_LABEL = "your agent"
"""How the text rendering labels a seat played from outside (by the caller's code), beside the bots' names."""


def resolve_bots(bots: Sequence, rules: Rules) -> list[AgentChoice | None]:
    """Check a per-seat list of bot names (``None`` for a seat played from outside) and parse the names.

    Raises
    ------
    ValueError
        For a list of the wrong length, an unknown agent or parameter, or a plain-Python agent (those play
        through ``golfsim.game.env.play_game``; a bot here must be compiled).
    """
    if len(bots) != rules.players:
        raise ValueError(f"{len(bots)} seats given for {rules.players} players")
    choices: list[AgentChoice | None] = []
    for seat, bot in enumerate(bots):
        if bot is None:
            choices.append(None)
            continue
        choice = parse_agent(bot)
        if not choice.spec.compiled:
            raise ValueError(
                f"opponent {choice.label!r} (seat {seat}) is a plain-Python agent; opponents here play inside "
                "compiled code, so choose a compiled agent (see `golfsim agents`)"
            )
        if choice.spec.sees_hidden:
            raise ValueError(
                f"opponent {choice.label!r} (seat {seat}) sees the hidden cards; bots here play from what their seat "
                "may know, so use it in `golfsim tournament` or `simulate` (a research reference), not as an opponent"
            )
        choices.append(choice)
    return choices


def first_seed() -> int:
    """A fresh seed for a first game without one (from the operating system's entropy)."""
    return int(np.random.SeedSequence().entropy % (2**63 - 1))


class Match:
    """An N-hole game of ``rules`` with compiled bots in some seats and outside deciders in the others.

    A thin layer over [`golfsim.game.game.Game`][] (`golf`), which deals the holes, keeps the totals and
    ends holes and the game; a hole cut short at the turn cap ends the game here (an RL episode's truncation).
    What the layer adds is the bots: their turns are played on the game's arrays in one compiled call, and since
    they leave no action events, the game's history holds the hole ends only.

    Parameters
    ----------
    rules : Rules
        The rule set, ``holes`` included.
    bots : sequence
        One entry per seat: an agent name or [`AgentChoice`][golfsim.agents.base.AgentChoice] for a bot, ``None`` for a
        seat whose decisions come from [`play`][golfsim.interop.match.Match.play].
    """

    def __init__(self, rules: Rules, bots: Sequence | None = None):
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a golfsim Rules object, got {type(rules).__name__}")
        self.rules = rules
        p = rules.players
        self.bots = resolve_bots([None] * p if bots is None else list(bots), rules)
        self.golf = Game(rules, truncation_ends_game=True)
        # the game's arrays, which it never replaces: the compiled bot loop plays on them in place
        self.packed, self.pub, self.hid, self.deal_rng = self.golf.packed, self.golf.pub, self.golf.hid, \
            self.golf.deal_rng
        self.agent_rng = np.zeros(p, dtype=np.uint64)
        is_bot = np.array([b is not None for b in self.bots], dtype=np.uint8)
        # seats without a bot get a placeholder the loop never calls
        placeholder = [b if b is not None else "random" for b in self.bots]
        self.bot_table = Bots(*Table.make(placeholder, rules).kernel_arguments(), is_bot)
        self.mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        # the game's verdicts, copied when a hole ends: the adapters read them on every step
        self.over = False
        """Whether the game is over: every hole played, or one cut short at the turn cap."""
        self.truncated = False
        """Whether the game ended by a hole cut short at the turn cap."""
        self._deck = None
        self._started = False

    # ---------------------------------------------------------------- starting
    def start(self, seed: int = 0, game: int = 0, deck: Sequence[int] | None = None) -> None:
        """Start game ``game`` under ``seed`` (hole 0), then play bot turns up to the first outside decision.

        ``deck`` (rank codes, top first) replaces the shuffle of every hole, for scripted tests.
        """
        self._started = self.over = self.truncated = False
        self.golf.restart(seed, game=game)
        self.golf.start_hole(deck=deck)  # checks the deck
        self._deck = deck
        for p in range(self.rules.players):
            self.agent_rng[p] = agent_state(self.golf.seed, self.golf.game, p)
        self._started = True
        self._run(-1)

    def next_game(self, seed: int | None = None) -> None:
        """Start the next game the way the RL frameworks' ``reset(seed=...)`` asks for one.

        A seed starts game 0 under it; no seed starts the game after the last one under the same seed, or game 0
        under a fresh seed ([`first_seed`][golfsim.interop.match.first_seed]) if no game was started yet.
        """
        if seed is not None:
            self.start(seed, 0)
        elif not self._started:
            self.start(first_seed(), 0)
        else:
            self.start(self.seed, self.game + 1)

    # ---------------------------------------------------------------- reading
    @property
    def seed(self) -> int:
        """The deal seed of the game being played."""
        return self.golf.seed

    @property
    def game(self) -> int:
        """Which game of [`seed`][golfsim.interop.match.Match.seed] is being played."""
        return self.golf.game

    @property
    def hole(self) -> int:
        """The hole being played (from 0; the last one once the game is over)."""
        return self.golf.hole if self._started else 0

    @property
    def totals(self) -> np.ndarray:
        """Game totals per seat over the holes played (int64)."""
        return self.golf.totals

    @property
    def hole_scores(self) -> np.ndarray:
        """``holes x players`` scores (int64), zero for the holes not played."""
        out = np.zeros((self.rules.holes, self.rules.players), dtype=np.int64)
        played = self.golf.hole_scores
        out[: len(played)] = played
        return out

    @property
    def current(self) -> int:
        """The seat whose decision is due (the last mover once the game is over)."""
        return int(self.pub[CURRENT])

    @property
    def phase(self) -> str:
        return PHASE_NAMES[int(self.pub[PHASE])]

    def legal_mask(self) -> np.ndarray:
        """int8 mask of the legal actions of the seat to move (a view, refreshed by each call)."""
        if self.over:
            self.mask[:] = 0
        else:
            legal_mask(self.pub, self.packed, self.mask)
        return self.mask

    def observe(self, seat: int, out: np.ndarray | None = None, private: bool = True) -> np.ndarray:
        """What ``seat`` may know now ([`golfsim.game.observation`][]), as float32."""
        if out is None:
            out = np.zeros(observation.size(self.rules.players, self.rules.n_codes), dtype=np.float32)
        observation.encode(self.pub, self.packed, seat, 1 if private else 0, out)
        return out

    def deal_scores(self) -> np.ndarray:
        """Every seat's score of the current deal once it is over (int64)."""
        return np.array(self.golf.scores, dtype=np.int64)

    # ---------------------------------------------------------------- playing
    def play(self, action) -> np.ndarray | None:
        """Play ``action`` for the seat to move, then the bots' turns (and the next holes' deals) up to the next
        outside decision or the end of the game.

        Returns
        -------
        ndarray or None
            The scores of the holes that ended during the call, summed per seat (int64), or None if none ended.

        Raises
        ------
        ValueError
            If the game is over or ``action`` is not a legal action id now (naming it and the legal ones).
        """
        if not self._started:
            raise RuntimeError("start() the match before playing")
        if self.over:
            raise ValueError("the game is over; start a new one")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
                or not 0 <= int(action) < NUM_ACTIONS:
            raise ValueError(f"an action is a whole number from 0 to {NUM_ACTIONS - 1}, got {action!r}")
        return self._run(int(action))

    def _run(self, action: int) -> np.ndarray | None:
        ended = None
        while True:
            code = self.bot_table.play(self.pub, self.hid, self.packed, self.deal_rng, self.agent_rng, action)
            if code == ILLEGAL_OUTSIDE:
                self._illegal(action)
            if code == ILLEGAL_BOT:
                seat, bad, phase = (int(x) for x in self.bot_table.error)
                raise IllegalActionError(
                    f"agent {self.bots[seat].label!r} (seat {seat}) returned action {bad} ({action_name(bad)}), "
                    f"not legal in the {PHASE_NAMES[phase]} phase"
                )
            action = -1
            if self.pub[PHASE] != DONE:
                return ended
            scores = np.array(self.golf.end_hole().scores, dtype=np.int64)
            ended = scores if ended is None else ended + scores
            if self.golf.over:
                self.over, self.truncated = True, self.golf.truncated
                return ended
            self.golf.start_hole(deck=self._deck)

    def _illegal(self, action: int):
        legal = np.flatnonzero(self.legal_mask())
        raise ValueError(
            f"action {action} ({action_name(action)}) is not legal for player {self.current} in the {self.phase} "
            f"phase; legal: {', '.join(f'{a} ({action_name(a)})' for a in legal)}"
        )

    # ---------------------------------------------------------------- text
    def render(self) -> str:
        """The table as an onlooker sees it (face-down cards as ``?``; a drawn card is not shown)."""
        labels = [b.label if b is not None else OUTSIDE_LABEL for b in self.bots]
        return render_table(self.rules, self.packed, self.pub, self.totals, labels, self.over)


def render_table(rules: Rules, packed: np.ndarray, pub: np.ndarray, totals, labels: Sequence[str], over: bool) -> str:
    """One deal's table (``pub``) as an onlooker sees it, with each seat's ``labels`` entry and game total."""
    p = rules.players
    ov = int(packed[R_OFF_VIEW])
    view = pub[ov: ov + 6 * p].reshape(p, 6)
    vec = np.zeros(observation.size(p, rules.n_codes), dtype=np.float32)
    observation.encode(pub, packed, 0, 0, vec)
    top = int(vec[observation.TOP_AT])
    current = int(pub[CURRENT])
    state = "game over" if over else f"player {current} to move ({PHASE_NAMES[int(pub[PHASE])]})"
    lines = [f"hole {int(pub[HOLE]) + 1}/{rules.holes}, turn {int(pub[TURN])}, {state}",
             f"stock {int(pub[STOCK_N])} cards, discard top {rank_name(top) if top >= 0 else '-'}"
             + (", a drawn card is held" if pub[PHASE] == HOLD and pub[HELD] >= 0 else "")]
    for seat in range(p):
        marker = "*" if seat == current and not over else " "
        lines.append(f"{marker} player {seat} ({labels[seat]}): {format_layout(view[seat], view[seat] >= 0)}"
                     f"   total {int(totals[seat])}")
    return "\n".join(lines)


def rules_from_options(players: int, holes: int, options: dict) -> Rules:
    """``Rules(players=..., holes=..., **options)`` with a clear error for an option ``Rules`` does not have."""
    known = [name for name in Rules.__dataclass_fields__ if name not in ("players", "holes")]
    for name in options:
        if name not in known:
            raise ValueError(f"unknown rule option {name!r}; rule options: {', '.join(known)}")
    return Rules(players=players, holes=holes, **options)
