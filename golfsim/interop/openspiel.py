"""Six-card Golf as an OpenSpiel game, ``python_golf``, and a bridge that seats an OpenSpiel bot at a golfsim table.

>>> import pyspiel
>>> import golfsim.interop.openspiel  # registers python_golf
>>> game = pyspiel.load_game("python_golf(players=3,jokers=minus2,end=one_last_turn)")

Parameters
    ``players`` (2), ``holes`` (1), and the rule options of [`golfsim.core.rules.Rules`][] under their own names:
    ``jokers``, ``opening_flips``, ``end``, ``twos_pair``, ``discard_and_flip`` (strings),
    ``reveal_instead_of_draw`` (bool), ``four_of_a_kind_bonus``, ``turn_cap`` and ``decks`` (ints; ``decks=0``
    means the rules' ``"auto"``). ``recycle_seed`` (0) seeds the shuffle of a recycled stock (see Chance).
    An unknown parameter is refused by OpenSpiel; a bad value raises the ``ValueError`` of ``Rules`` naming it.
Chance
    Each hole begins with one chance node per card of the pack, dealing the deck top card first: the outcome is the
    card's rank code (0 joker, 1 ace .. 13 king) with probability proportional to the copies not dealt yet. The
    engine then deals that deck exactly as ``golfsim.game.env.GolfEnv.reset(deck=...)`` does (card ``i`` of the first
    ``6P`` to seat ``(first + i) % P``, position ``i // P``; the next card starts the discard pile; the rest is the
    stock). The one shuffle inside play, of a recycled stock (when the stock runs out), is drawn from the stream
    ``(recycle_seed, 0, hole)`` rather than a chance node: a player cannot predict it, but it is a fixed function of
    the history. [`GolfState.resample_from_infostate`][golfsim.interop.openspiel.GolfState.resample_from_infostate]
    draws it afresh.
Actions
    The 28 engine action ids, named in ``action_to_string`` (table in [`golfsim.interop.pettingzoo`][]).
Returns
    Minus each player's game total (its points summed over the holes): terminal rewards, general-sum.
Observations
    Observation tensor: the vector of [`golfsim.game.observation`][] (exactly what the player may know, seen
    from its seat); observation string: the same facts in words. Information-state string: perfect recall, one
    line per event of the game as that player saw it (every decision with the cards it showed, the player's own
    drawn cards, hole ends), then the observation string. Information-state tensor: the observation vector. It is
    not perfect recall (a fixed-size record of a game of up to ``turn_cap`` turns would be enormous); what
    card counting needs of the past, the discard pile and the unseen and known-stock counts, is in it.

The bridge: [`openspiel_policy`][golfsim.interop.openspiel.openspiel_policy] turns an OpenSpiel bot into a golfsim
plain-Python agent (an observation dict in, an action out), so it plays through ``golfsim.game.env.play_game`` against
any golfsim agent. From the public state it sees, it builds a ``python_golf`` state whose hidden cards are a random draw
consistent with what the seat knows, and asks the bot; a bot that reads hidden cards (perfect-information MCTS) would
therefore play on a guess, while information-set MCTS resamples them itself.
[`RolloutEvaluator`][golfsim.interop.openspiel.RolloutEvaluator] evaluates positions for OpenSpiel's MCTS bots by
letting compiled golfsim bots finish the hole.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

try:
    import pyspiel
except ImportError as err:  # pragma: no cover -- exercised in a subprocess by the tests
    raise ImportError("golfsim.interop.openspiel needs OpenSpiel: pip install 'golfsim[rl]'") from err

from golfsim.core.cards import rank_name
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    HELD,
    HID_DTYPE,
    HOLD,
    NUM_ACTIONS,
    PHASE,
    PLAYERS,
    PUB_DTYPE,
    R_HID_STOCK,
    R_NCARDS,
    R_OFF_STOCK_KNOWN,
    R_OFF_UNSEEN,
    R_OFF_VIEW,
    RECYCLES,
    STOCK_N,
    TURN,
    action_name,
)
from golfsim.core.worlds import determinize
from golfsim.game import observation
from golfsim.game.game import Game
from golfsim.interop.match import Match
from golfsim.kernels.bot_loop import DECK_DTYPE, ILLEGAL_BOT

GAME_NAME = "python_golf"
_RULE_PARAMETERS = {
    "decks": 0,
    "jokers": "none",
    "opening_flips": "any",
    "reveal_instead_of_draw": False,
    "discard_and_flip": "off",
    "end": "immediate",
    "twos_pair": "zero",
    "four_of_a_kind_bonus": 0,
    "turn_cap": 1000,
}
DEFAULT_PARAMETERS = {"players": 2, "holes": 1, **_RULE_PARAMETERS, "recycle_seed": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Six-card Golf (golfsim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=12,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMETERS,
)


def rules_from_parameters(params: dict) -> Rules:
    """The [`Rules`][golfsim.core.rules.Rules] of a ``python_golf`` parameter dict (``decks=0`` is ``"auto"``)."""
    values = {**DEFAULT_PARAMETERS, **params}
    options = {name: values[name] for name in _RULE_PARAMETERS}
    if options["decks"] == 0:
        options["decks"] = "auto"
    return Rules(players=values["players"], holes=values["holes"], **options)


class GolfGame(pyspiel.Game):
    """``python_golf``: see the module docstring."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.rules = rules_from_parameters(params)
        self.packed = self.rules.pack()
        self.recycle_seed = int(params.get("recycle_seed", 0))
        if self.recycle_seed < 0:
            raise ValueError(f"recycle_seed must be a whole number of at least 0, got {self.recycle_seed}")
        low, high = observation.bounds(self.rules)
        per_hole = float(high[-1]) / self.rules.holes
        decisions = 2 * self.rules.players + 3 * self.rules.turn_cap
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=self.rules.n_codes,
            num_players=self.rules.players,
            min_utility=-per_hole * self.rules.holes,
            max_utility=per_hole * self.rules.holes,
            max_game_length=self.rules.holes * (self.rules.n_cards + decisions),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self):
        return GolfState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"python_golf observers take no parameters, got {params}")
        return GolfObserver(self.rules, iig_obs_type)


def _of_the_game(name: str, doc: str) -> property:
    """A read-only attribute of [`GolfState`][golfsim.interop.openspiel.GolfState] that is its game's attribute
    ``name``."""
    return property(lambda state: getattr(state.golf, name), doc=doc)


class GolfState(pyspiel.State):
    """A ``python_golf`` state: a [`golfsim.game.game.Game`][] (`golf`, which deals the holes, keeps the
    totals and ends holes and the game), the chance deal in progress and the event record."""

    def __init__(self, game: GolfGame):
        super().__init__(game)
        self.rules = game.rules
        self.packed = game.packed
        self.recycle_seed = game.recycle_seed
        # hole h is dealt with the stream (recycle_seed, 0, h): it shuffles a recycled stock (see Chance)
        self.golf = Game(self.rules, self.recycle_seed, truncation_ends_game=True)
        self.deck: list[int] = []
        self.undealt = self.rules.card_counts().astype(np.int64)
        # one entry per event: (public text, seat that saw a private card or -1, private text)
        self.events: list[tuple[str, int, str]] = []

    # read through the game: a clone (a deep copy) gets a game with arrays of its own
    pub = _of_the_game("pub", "The public array of the hole (the game's).")
    hid = _of_the_game("hid", "The hidden array of the hole (the game's).")
    deal_rng = _of_the_game("deal_rng", "The deal stream's state (the game's); it shuffles a recycled stock.")
    totals = _of_the_game("totals", "Game totals over the holes played (int64).")
    over = _of_the_game("over", "Whether the game is over (every hole played, or one cut short at the turn cap).")

    @property
    def hole(self) -> int:
        """The hole being dealt or played (from 0)."""
        return self.golf.next_hole if self.dealing else self.golf.hole

    # ---------------------------------------------------------------- OpenSpiel API
    @property
    def dealing(self) -> bool:
        return len(self.deck) < self.rules.n_cards

    def current_player(self):
        if self.over:
            return pyspiel.PlayerId.TERMINAL
        if self.dealing:
            return pyspiel.PlayerId.CHANCE
        return int(self.pub[CURRENT])

    def _legal_actions(self, player):
        return [] if self.dealing else self.golf.legal_actions()

    def chance_outcomes(self):
        total = int(self.undealt.sum())
        return [(r, c / total) for r, c in enumerate(self.undealt) if c > 0]

    def _apply_action(self, action):
        if self.dealing:
            if not 0 <= action < self.rules.n_codes or self.undealt[action] == 0:
                raise ValueError(f"chance outcome {action} is not a rank code with cards left to deal")
            self.deck.append(int(action))
            self.undealt[action] -= 1
            if not self.dealing:
                self.golf.start_hole(deck=self.deck)
                self.events.append((f"hole {self.hole + 1} dealt, discard {rank_name(self._top())}", -1, ""))
            return
        player = int(self.pub[CURRENT])
        events = self.golf.step(action)  # refuses an illegal action, naming the legal ones
        self._record(player, action)
        if len(events) == 1:
            return
        end = events[1]
        self.events.append((f"hole {end.hole + 1} over{' (turn cap)' if end.end_reason == 'truncated' else ''}: "
                            "scores " + " ".join(str(s) for s in end.scores), -1, ""))
        if not self.over:
            self.deck = []
            self.undealt = self.rules.card_counts().astype(np.int64)

    def _top(self) -> int:
        vec = np.zeros(observation.size(self.rules.players, self.rules.n_codes), dtype=np.float32)
        observation.encode(self.pub, self.packed, 0, 0, vec)
        return int(vec[observation.TOP_AT])

    def _layout_text(self, seat: int) -> str:
        ov = int(self.packed[R_OFF_VIEW]) + 6 * seat
        names = [rank_name(int(c)) if c >= 0 else "?" for c in self.pub[ov: ov + 6]]
        return f"{' '.join(names[:3])} / {' '.join(names[3:])}"

    def _record(self, player: int, action: int):
        text = f"p{player} {action_name(action)}: top {rank_name(self._top())}, p{player} {self._layout_text(player)}"
        private = rank_name(int(self.pub[HELD])) if self.pub[PHASE] == HOLD and self.pub[CURRENT] == player else ""
        self.events.append((text, player if private else -1, f"drew {private}" if private else ""))

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {rank_name(action)}"
        return action_name(action)

    def is_terminal(self):
        return self.over

    def returns(self):
        if not self.over:
            return [0.0] * self.rules.players
        return [-float(t) for t in self.totals]

    def __str__(self):
        if self.dealing:
            return f"hole {self.hole + 1}: dealing, {len(self.deck)} of {self.rules.n_cards} cards dealt"
        lines = [f"hole {self.hole + 1}, player {int(self.pub[CURRENT])} to move" if not self.over else "game over"]
        for seat in range(self.rules.players):
            cards = " ".join(rank_name(int(c)) for c in self.hid[6 * seat: 6 * seat + 6])
            lines.append(f"p{seat}: seen {self._layout_text(seat)}; cards {cards}; total {int(self.totals[seat])}")
        return "\n".join(lines)

    # ---------------------------------------------------------------- hidden cards
    def resample_from_infostate(self, player_id, probability_sampler):
        """A copy of this state with everything ``player_id`` cannot see drawn at random, consistently with what
        it can: the face-down cards and the stock (from the unseen cards, or from the known stock after a recycle),
        a drawn card held by someone else, and the recycle stream."""
        state = self.clone()
        if self.dealing or self.over:
            return state
        seed = int(probability_sampler() * 2**53)
        fill_hidden(state.pub, state.hid, state.packed, int(player_id), seed)
        state.deal_rng[0] = np.uint64(seed)
        if self.pub[PHASE] == HOLD and int(self.pub[CURRENT]) != player_id and state.events:
            text, seat, _ = state.events[-1]
            state.events[-1] = (text, seat, f"drew {rank_name(int(state.pub[HELD]))}")
        return state

    @classmethod
    def from_public(cls, game: GolfGame, pub: np.ndarray, rng: np.random.Generator) -> GolfState:
        """A state whose public part is ``pub`` (the engine's public array, as a seat to move sees it) and whose
        hidden cards are a random draw consistent with it; the game's earlier holes are not recorded."""
        state = game.new_initial_state()
        state.deck = [0] * game.rules.n_cards  # the deal is done
        state.undealt[:] = 0
        hid = np.zeros_like(state.hid)
        ov = int(game.packed[R_OFF_VIEW])
        for i in range(6 * game.rules.players):
            hid[i] = max(int(pub[ov + i]), 0)
        state.golf.join(pub, hid, 0)  # the totals shown in pub are the totals before this hole
        fill_hidden(state.pub, state.hid, state.packed, int(pub[CURRENT]), int(rng.integers(2**63)))
        state.deal_rng[0] = np.uint64(rng.integers(2**63))
        state.events.append((f"hole {state.hole + 1} joined at turn {int(pub[TURN])}", -1, ""))
        return state


def fill_hidden(pub, hid, packed, player: int, seed: int) -> None:
    """Deal everything ``player`` cannot see at random, consistently with ``pub`` (in place), drawn from the stream
    seeded by ``seed``.

    The world is drawn by the compiled [`golfsim.core.worlds.determinize`][] (face-down cards and, before any
    recycle, the stock from the unseen cards; after a recycle the stock from the known stock). A drawn card held by
    another player is hidden from ``player`` too: it goes back into its pool for the draw, and the held card is then
    the last card drawn for the stock.
    """
    ou, ok = int(packed[R_OFF_UNSEEN]), int(packed[R_OFF_STOCK_KNOWN])
    hs = int(packed[R_HID_STOCK])
    other_holds = pub[PHASE] == HOLD and int(pub[CURRENT]) != player
    counts_at = ok if pub[RECYCLES] > 0 else ou
    view = pub.copy()
    if other_holds:
        view[counts_at + int(pub[HELD])] += 1
        view[STOCK_N] += 1
    stream = np.array([np.uint64(seed)], dtype=np.uint64)
    drawn = determinize(view, packed, stream, 0, hid, np.empty(int(packed[R_NCARDS]), dtype=HID_DTYPE))
    face_down = int(np.count_nonzero(view[int(packed[R_OFF_VIEW]): int(packed[R_OFF_VIEW]) + 6 * int(pub[PLAYERS])]
                                     < 0))
    if drawn != face_down + int(view[STOCK_N]):
        raise RuntimeError(f"public state inconsistent: {drawn} cards drawn for {face_down} face-down cards and "
                           f"{int(view[STOCK_N])} stock cards")
    if other_holds:
        held = int(hid[hs + int(pub[STOCK_N])])
        old = int(pub[HELD])
        pub[HELD] = held
        pub[counts_at + old] += 1
        pub[counts_at + held] -= 1


class GolfObserver:
    """Observation and information-state strings and tensors of ``python_golf`` (see the module docstring)."""

    def __init__(self, rules: Rules, iig_obs_type=None):
        self.rules = rules
        self.perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        self.private = iig_obs_type is None or \
            iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(observation.size(rules.players, rules.n_codes), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: GolfState, player: int):
        if state.dealing:
            self.tensor[:] = 0
            return
        observation.encode(state.pub, state.packed, player, 1 if self.private else 0, self.tensor)

    def string_from(self, state: GolfState, player: int) -> str:
        if state.dealing:
            now = (f"hole {state.hole + 1}: dealing, {len(state.deck)} of {state.rules.n_cards} cards dealt; "
                   "totals " + " ".join(str(int(t)) for t in np.roll(state.totals, -player)))
        else:
            self.set_from(state, player)
            now = observation.describe(self.tensor, self.rules.players, self.rules.n_codes)
        if not self.perfect_recall:
            return now
        lines = [f"player {player}"]
        for text, seat, private in state.events:
            lines.append(text + (f" ({private})" if private and seat == player and self.private else ""))
        lines.append(now)
        return "\n".join(lines)


pyspiel.register_game(GAME_TYPE, GolfGame)


# ---------------------------------------------------------------- bots at golfsim tables
class RolloutEvaluator:
    """Evaluates ``python_golf`` states for OpenSpiel's MCTS bots by letting a compiled golfsim bot play every seat
    to the end of the current hole (``n_rollouts`` times): the value is minus each player's game total then.

    Later holes are not played out (they are dealt afresh and score alike for everyone on average).

    Parameters
    ----------
    bot : str
        A compiled golfsim agent, e.g. ``"greedy"``.
    """

    def __init__(self, rules: Rules, bot: str = "greedy", n_rollouts: int = 1, seed: int = 0):
        self.match = Match(rules, [bot] * rules.players)
        self.n_rollouts = n_rollouts
        self.rng = np.random.default_rng(seed)

    def evaluate(self, state: GolfState):
        if state.over:
            return np.array(state.returns())
        m = self.match
        values = np.zeros(state.rules.players)
        for _ in range(self.n_rollouts):
            if state.dealing:
                rest = self.rng.permutation(np.repeat(np.arange(len(state.undealt)), state.undealt))
                deck = np.concatenate([state.deck, rest]).astype(DECK_DTYPE)
                m.golf.restart()
                m.golf.start_hole(state.hole, deck=deck, totals=state.totals)
                # a deal from a given deck draws nothing from the stream: it shuffles a recycled stock only
                m.deal_rng[0] = np.uint64(self.rng.integers(2**63))
            else:
                m.golf.join(state.pub, state.hid, self.rng.integers(2**63))
            m.agent_rng[:] = self.rng.integers(2**63, size=state.rules.players).astype(np.uint64)
            code = m.bot_table.play(m.pub, m.hid, m.packed, m.deal_rng, m.agent_rng, -1)
            if code == ILLEGAL_BOT:
                raise RuntimeError("the rollout bot returned an illegal action")
            values -= state.totals + m.deal_scores()
        return values / self.n_rollouts

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def seeded_resampler(seed: int) -> Callable:
    """A resampler for OpenSpiel's ``ISMCTSBot.set_resampler`` drawing from a seeded stream, so the bot's search is
    reproducible (by default ISMCTS resamples with ``pyspiel.UniformProbabilitySampler``, which is not seeded)."""
    rng = np.random.default_rng(seed)
    return lambda state, player: state.resample_from_infostate(player, rng.random)


def openspiel_policy(make_bot: Callable, rules: Rules, seed: int = 0) -> Callable[[dict], int]:
    """A golfsim plain-Python agent that asks an OpenSpiel bot for every decision.

    Parameters
    ----------
    make_bot : callable
        ``make_bot(game) -> pyspiel.Bot`` for the ``python_golf`` game of ``rules``.
    rules : Rules
        The rules of the table the agent sits at.
    seed : int
        Seeds the draw of the hidden cards handed to the bot.

    Returns
    -------
    callable
        ``policy(observation) -> action`` for ``golfsim.game.env.play_game``; it reads only
        ``observation["observation"]``,
        the public state as the seat to move sees it.
    """
    game = load_game(rules)
    bot = make_bot(game)
    rng = np.random.default_rng(seed)

    def policy(obs: dict) -> int:
        state = GolfState.from_public(game, np.asarray(obs["observation"], dtype=PUB_DTYPE), rng)
        return int(bot.step(state))

    return policy


def load_game(rules: Rules) -> GolfGame:
    """The ``python_golf`` game of ``rules``."""
    params = {"players": rules.players, "holes": rules.holes, "turn_cap": rules.turn_cap,
              "decks": rules.decks, **{k: getattr(rules, k) for k in _RULE_PARAMETERS if k not in ("decks",
                                                                                                  "turn_cap")}}
    return pyspiel.load_game(GAME_NAME, params)

