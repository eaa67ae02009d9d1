"""The project's own agent checks, for plugin authors: legal under every rule variant, and no peeking.

It plays agents through the kernels and [`Game`][golfsim.game.game.Game], which are built on the agents, so it is a
module of ``golfsim`` beside them rather than part of ``golfsim.agents`` (no import points up the layers).

golfsim's test suite holds every built-in agent to these two checks; a user's agent (compiled or plain Python) can
be held to the same ones before it enters a tournament::

    from golfsim.agent_checks import check_agent
    report = check_agent("my-bot")        # raises AgentCheckError naming the agent, the rules and the deal
    print(report)

[`check_legal`][golfsim.agent_checks.check_legal]
    Plays many short games under every variant of `VARIANTS` (every rule option alone and in combinations,
    2 to 12 players), the agent in every seat and mixed with random players, whose odd layouts reach odd positions.
    An illegal action, a policy that raises or a deal cut off by the turn cap fails.
[`check_no_peeking`][golfsim.agent_checks.check_no_peeking]
    Plays a deal, stops at a decision, shuffles the cards nobody has seen yet (face-down layout cards, the stock not
    drawn) among their places in the deck, and plays the deal again from the new deck with the same agent seeds. Up
    to that decision the public state and the agent's every decision must be identical: a policy that reads a hidden
    card decides differently on some deal. This is a test of what the agent does, not of how it is written, so an
    agent that looks at hidden cards only rarely may pass a small check; raise ``deals`` to look harder.

Where each card of a deck order goes is fixed by RULES.md ("Reproducing a deal"): card ``i`` of the first ``6P``
goes to player ``(first + i) % P`` at position ``i // P``, the next card starts the discard pile, and the rest is
the stock, drawn from the top.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from golfsim.core.rules import Rules

#: Rule sets the checks play: every option of RULES.md alone, and combinations, at 2 to 12 players.
VARIANTS: dict[str, Rules] = {
    "default": Rules(holes=2),
    "5 players, 2 decks": Rules(players=5, holes=2),
    "2 players, 3 decks": Rules(decks=3, holes=2),
    "jokers minus2": Rules(jokers="minus2", holes=2),
    "jokers minus5": Rules(jokers="minus5", holes=2),
    "jokers minus3": Rules(jokers="minus3", holes=2),
    "jokers zero": Rules(jokers="zero", holes=2),
    "same_column": Rules(opening_flips="same_column", holes=2),
    "different_columns": Rules(opening_flips="different_columns", holes=2),
    "reveal_instead_of_draw": Rules(reveal_instead_of_draw=True, holes=2),
    "discard_and_flip may": Rules(discard_and_flip="may", holes=2),
    "discard_and_flip must": Rules(discard_and_flip="must", holes=2),
    "one_last_turn": Rules(end="one_last_turn", holes=2),
    "twos keep_negative": Rules(twos_pair="keep_negative", holes=2),
    "four_of_a_kind_bonus -10": Rules(four_of_a_kind_bonus=-10, holes=2),
    "four_of_a_kind_bonus +5": Rules(four_of_a_kind_bonus=5, holes=2),
    "last turn, reveal, must, jokers -5, bonus, twos -4, same column": Rules(
        players=3, end="one_last_turn", reveal_instead_of_draw=True, discard_and_flip="must", jokers="minus5",
        four_of_a_kind_bonus=-10, twos_pair="keep_negative", opening_flips="same_column", holes=2),
    "last turn, may, jokers -2, different columns, 2 decks": Rules(
        players=4, end="one_last_turn", discard_and_flip="may", jokers="minus2", opening_flips="different_columns",
        decks=2, holes=2),
    "reveal, may, 9 players": Rules(players=9, reveal_instead_of_draw=True, discard_and_flip="may", holes=2),
    "12 players, last turn, jokers zero": Rules(players=12, end="one_last_turn", jokers="zero", holes=2),
}

#: The house rules (docs/RULES.md, "House rules") in three rule sets that between them switch every one on, with
#: the turn rules (no or one opening flip, endgame flips, knocking early) beside the scoring rules.
HOUSE_VARIANTS: dict[str, Rules] = {
    "house: no opening flips, endgame flips, knock early, every scoring rule": Rules(
        initial_flips=0, discard_and_flip="endgame", knock_early=True, knock_penalty=True, knock_bonus=True,
        underdog_bonus=True, tied_shame=True, blackjack=True, super_kings=True, ten_penny=True, wolfpack=True,
        one_eyed_jacks=True, holes=2),
    "house: 4 players, last turn, one opening flip, knock early, reveal, eagle eye": Rules(
        players=4, end="one_last_turn", initial_flips=1, knock_early=True, reveal_instead_of_draw=True,
        jokers="minus2", eagle_eye=True, knock_penalty=True, holes=2),
    "house: 3 players, last turn, endgame flips, kings -2, tens 1, jokers -5 eagle eye, wolfpack and bonus": Rules(
        players=3, end="one_last_turn", discard_and_flip="endgame", super_kings=True, ten_penny=True,
        jokers="minus5", eagle_eye=True, wolfpack=True, four_of_a_kind_bonus=-20, underdog_bonus=True, holes=2),
}
VARIANTS.update(HOUSE_VARIANTS)

#: Rule sets the no-peeking check plays: few, each reaching different hidden information (a recycled stock with
#: eight players from one deck, jokers, opening flips, the last-turn end).
PEEKING_VARIANTS: dict[str, Rules] = {
    "default": Rules(holes=1),
    "3p-last-turn-reveal-may": Rules(players=3, end="one_last_turn", reveal_instead_of_draw=True,
                                     discard_and_flip="may", opening_flips="different_columns", holes=1),
    "4p-minus2-same-column-must": Rules(players=4, jokers="minus2", opening_flips="same_column",
                                        discard_and_flip="must", holes=1),
    "2p-minus5-twos-keep": Rules(jokers="minus5", twos_pair="keep_negative", holes=1),
    "8p-one-deck-bonus": Rules(players=8, decks=1, four_of_a_kind_bonus=-10, holes=1),
}


#: Rule sets of the soak ([`soak`][golfsim.agent_checks.soak], ``golfsim selfcheck``): those of `VARIANTS` but the house
#: rules, one hole each; the house rules are `HOUSE_SOAK_VARIANTS`, soaked at a twentieth of the deals (a block that
#: adds about 1% to the soak's time rather than 15%).
SOAK_VARIANTS: dict[str, Rules] = {name: rules.replace(holes=1) for name, rules in VARIANTS.items()
                                   if name not in HOUSE_VARIANTS}
HOUSE_SOAK_VARIANTS: dict[str, Rules] = {name: rules.replace(holes=1) for name, rules in HOUSE_VARIANTS.items()}
HOUSE_SOAK_SHARE = 20
"""The house rule sets are soaked at ``deals // HOUSE_SOAK_SHARE`` deals each (at least one)."""


class AgentCheckError(AssertionError):
    """An agent failed a check; the message names the agent, the check, the rules and where it failed."""


@dataclass
class CheckReport:
    """What a check played: per variant, the deals (legality) or decisions compared (no peeking)."""

    agent: str
    check: str
    counts: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        what = "decisions compared" if self.check == "no-peeking" else "deals"
        lines = [f"{self.agent}: {self.check} check passed under {len(self.counts)} rule sets"]
        lines += [f"  {name}: {n} {what}" for name, n in self.counts.items()]
        return "\n".join(lines)


def _check_count(what: str, n) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"{what} must be a whole number of at least 1, got {n!r}")


def _label(agent) -> str:
    from golfsim.agents.base import parse_agent

    if callable(agent) and not isinstance(agent, str) and not hasattr(agent, "spec"):
        return getattr(agent, "__name__", type(agent).__name__)
    return parse_agent(agent).label


def _is_compiled(agent) -> bool:
    from golfsim.agents.base import AgentChoice, parse_agent

    if not isinstance(agent, (str, AgentChoice)):
        return False
    return parse_agent(agent).spec.compiled


def check_legal(agent, variants: Mapping[str, Rules] | None = None, *, games: int | None = None,
                seed: int = 17) -> CheckReport:
    """Play ``agent`` under every rule set of ``variants`` and fail on an illegal action or a truncated deal.

    Parameters
    ----------
    agent : str, AgentChoice or callable
        A registered agent (``"ev"``, ``"my-bot:depth=2"``) or a plain-Python policy ``policy(observation) ->
        action``.
    variants : mapping of str to Rules, optional
        The rule sets to play (default `VARIANTS`).
    games : int, optional
        Games per rule set and seating (default 1,500 for a compiled agent, 20 for a plain-Python one).
    seed : int
        The deal and agent seed.

    Returns
    -------
    CheckReport
        The deals played per rule set.

    Raises
    ------
    AgentCheckError
        Naming the agent, the rule set, the seats and what went wrong.
    """
    from golfsim.core.errors import AgentError, IllegalActionError

    variants = VARIANTS if variants is None else variants
    compiled = _is_compiled(agent)
    games = (1500 if compiled else 20) if games is None else games
    _check_count("games", games)
    label = _label(agent)
    report = CheckReport(label, "legal")
    for name, rules in variants.items():
        mixed = [agent if seat % 2 == 0 else "random" for seat in range(rules.players)]
        deals = 0
        for seats in ([agent] * rules.players, mixed):
            where = f"{label} under {name!r} with seats {[_label(s) for s in seats]}"
            try:
                if compiled:
                    from golfsim.kernels.simulate import simulate

                    result = simulate(seats, rules, games=games, seed=seed)
                    truncated = result.truncated_deals
                    deals += len(result.deals)
                else:
                    truncated = _play_python(seats, rules, games, seed)
                    deals += games * rules.holes
            except (IllegalActionError, AgentError) as err:
                raise AgentCheckError(f"{where}: {err}") from None
            if truncated:
                raise AgentCheckError(f"{where}: {truncated} deals hit the turn cap (the agent never ends a deal)")
        report.counts[name] = deals
    return report


def _play_python(seats: Sequence, rules: Rules, games: int, seed: int) -> int:
    from golfsim.game.game import Game

    truncated = 0
    for g in range(games):
        game = Game(rules, seed, game=g)
        game.play(list(seats))
        truncated += int(game.truncated)
    return truncated


def check_no_peeking(agent, variants: Mapping[str, Rules] | None = None, *, deals: int = 10,
                     decisions_per_deal: int = 3, seed: int = 41) -> CheckReport:
    """Fail if ``agent`` decides differently on two deals that differ only in cards nobody has seen yet.

    Parameters
    ----------
    agent : str, AgentChoice or callable
        As for [`check_legal`][golfsim.agent_checks.check_legal]. An agent registered as seeing hidden cards (the
        oracle) fails, as it should.
    variants : mapping of str to Rules, optional
        Rule sets (default `PEEKING_VARIANTS`); one hole of each is played per deal.
    deals : int
        Deals per rule set.
    decisions_per_deal : int
        Decisions of each deal at which the unseen cards are shuffled and the deal replayed.
    seed : int
        The deal and agent seed.

    Returns
    -------
    CheckReport
        The decisions compared per rule set.

    Raises
    ------
    AgentCheckError
        Naming the agent, the rule set, the deal and the first step where the two deals looked different to it.
    """
    from golfsim.core.engine import shuffled_deck
    from golfsim.core.rng import deal_state

    variants = PEEKING_VARIANTS if variants is None else variants
    _check_count("deals", deals)
    _check_count("decisions_per_deal", decisions_per_deal)
    label = _label(agent)
    report = CheckReport(label, "no-peeking")
    for name, rules in variants.items():
        # one hole is played, but which hole it is sets who moves first, so the game has a hole per seat
        single = rules.replace(holes=rules.players)
        chooser = random.Random(seed)
        checked = 0
        for game in range(deals):
            hole = game % rules.players  # who moves first changes where each dealt card lands
            state = np.array([deal_state(seed, game, hole)], np.uint64)
            deck = [int(c) for c in shuffled_deck(single.pack(), state)]
            steps = _play_deal(agent, single, deck, hole, game, seed)
            for stop in chooser.sample(range(len(steps)), min(decisions_per_deal, len(steps))):
                other = permute_at(deck, _unseen_in(steps[stop][0], single), chooser)
                if other is None:
                    continue
                replay = _play_deal(agent, single, other, hole, game, seed, stop)
                difference = _first_difference(steps[: stop + 1], replay)
                if difference is not None:
                    raise AgentCheckError(f"{label} under {name!r}, deal {game}, decision {stop}: {difference}; "
                                          f"the agent reads a card nobody has seen")
                checked += 1
        report.counts[name] = checked
    return report


def soak(agent, variants: Mapping[str, Rules] | None = None, *, deals: int = 1_000_000, seed: int = 31,
         batch_size: int = 250_000, threads: int | None = None, on_batch=None) -> CheckReport:
    """Play ``deals`` single deals of each rule set with a compiled ``agent`` in every seat, and fail on an illegal
    action or a deal cut off by the turn cap: the long run behind ``golfsim selfcheck``.

    [`check_legal`][golfsim.agent_checks.check_legal] plays a few thousand deals of each rule set; a rare position (one
    deal in a million where an agent loops until the turn cap) needs this many.

    Parameters
    ----------
    agent : str or AgentChoice
        A registered compiled agent.
    variants : mapping of str to Rules, optional
        The rule sets (default `SOAK_VARIANTS`); only one hole of each is played.
    deals : int
        Deals per rule set.
    seed : int
        The deal and agent seed.
    batch_size, threads
        As for [`golfsim.kernels.simulate.iter_batches`][] (memory is that of one batch).
    on_batch : callable, optional
        Called with the number of deals of each finished batch (a progress bar's advance).

    Returns
    -------
    CheckReport
        The deals played per rule set.

    Raises
    ------
    AgentCheckError
        Naming the agent, the rule set and how many deals hit the turn cap (or the illegal action).
    """
    from golfsim.core.errors import AgentError, IllegalActionError
    from golfsim.core.spec import TRUNCATED
    from golfsim.kernels.simulate import Table, iter_batches

    variants = SOAK_VARIANTS if variants is None else variants
    _check_count("deals", deals)
    if not _is_compiled(agent):
        raise ValueError(f"the soak plays compiled agents only; {_label(agent)!r} is plain Python "
                         "(check_legal plays it)")
    label = _label(agent)
    report = CheckReport(label, "soak")
    for name, rules in variants.items():
        rules = rules.replace(holes=1)
        table = Table.make([agent] * rules.players, rules)
        played = truncated = 0
        try:
            for batch in iter_batches(table, deals, seed=seed, batch_size=batch_size, threads=threads):
                played += batch.reasons.size
                truncated += int((batch.reasons == TRUNCATED).sum())
                if on_batch is not None:
                    on_batch(batch.reasons.size)
        except (IllegalActionError, AgentError) as err:
            raise AgentCheckError(f"{label} under {name!r}: {err}") from None
        if truncated:
            raise AgentCheckError(f"{label} under {name!r}: {truncated} of {played:,} deals hit the turn cap "
                                  f"(seed {seed}; the agent never ends those deals)")
        report.counts[name] = played
    return report


def check_agent(agent, *, games: int | None = None, deals: int = 10, seed: int | None = None) -> list[CheckReport]:
    """Run [`check_legal`][golfsim.agent_checks.check_legal] (``games`` per rule set) and
    [`check_no_peeking`][golfsim.agent_checks.check_no_peeking] (``deals`` per rule set) on ``agent``, each under its
    default rule sets; ``seed`` (if given) seeds both.

    Returns
    -------
    list of CheckReport
        One report per check, in that order.
    """
    seeds = {} if seed is None else {"seed": seed}
    return [check_legal(agent, games=games, **seeds), check_no_peeking(agent, deals=deals, **seeds)]


# ---------------------------------------------------------------- the no-peeking machinery
def _play_deal(agent, rules: Rules, deck, hole: int, game: int, seed: int,
               stop: int | None = None) -> list[tuple[np.ndarray, int]]:
    """Play one deal from ``deck`` with ``agent`` in every seat; ``(pub, decision)`` at each step up to ``stop``."""
    from golfsim.core.spec import CURRENT
    from golfsim.game.game import Game, make_agents

    table = Game(rules, seed, game=game)
    table.start_hole(hole, deck=deck)
    seats = make_agents([agent] * rules.players, rules)
    for p, seat in enumerate(seats):
        seat.reset(seed, game, p)
    steps = []
    while not table.hole_over and (stop is None or len(steps) <= stop):
        p = int(table.pub[CURRENT])
        action = int(seats[p].act(table, p))
        steps.append((table.pub.copy(), action))
        table.step(action)
    return steps


def _first_difference(a, b) -> str | None:
    for t, ((pub_a, act_a), (pub_b, act_b)) in enumerate(zip(a, b, strict=False)):
        if not np.array_equal(pub_a, pub_b):
            where = np.flatnonzero(pub_a != pub_b).tolist()
            return f"the public state differs at step {t} (indices {where})"
        if act_a != act_b:
            return f"it chose action {act_a} on one deal and {act_b} on the other at step {t}"
    if len(a) != len(b):
        return f"one deal ended after {min(len(a), len(b))} steps and the other did not"
    return None


def deck_index(player: int, position: int, first: int, players: int) -> int:
    """Place in the deck (top first) of the card dealt to ``position`` of ``player`` when ``first`` is dealt first."""
    return position * players + (player - first) % players


def unseen_deck_indices(view, first: int, stock_size: int, stock_known_total: int, n_cards: int) -> list[int]:
    """Places in the deck of every card nobody has seen: face-down layout cards and the never-drawn stock.

    ``view`` is players x 6 public ranks (negative when face down) and ``first`` the seat dealt first.
    ``stock_known_total`` is how many stock cards are known from a recycle: while it is 0 the stock is still the
    bottom ``stock_size`` cards of the deck; after a recycle every stock card is a known discard.
    """
    players = len(view)
    indices = [deck_index(p, k, first, players) for p in range(players) for k in range(6) if view[p][k] < 0]
    if stock_known_total == 0:
        indices += range(n_cards - stock_size, n_cards)
    return sorted(indices)


def _unseen_in(pub: np.ndarray, rules: Rules) -> list[int]:
    from golfsim.core.spec import FIRST, R_OFF_STOCK_KNOWN, R_OFF_VIEW, STOCK_N

    packed = rules.pack()
    ov, ok = int(packed[R_OFF_VIEW]), int(packed[R_OFF_STOCK_KNOWN])
    view = pub[ov: ov + 6 * rules.players].reshape(rules.players, 6)
    return unseen_deck_indices(view, int(pub[FIRST]), int(pub[STOCK_N]), int(pub[ok: ok + rules.n_codes].sum()),
                               rules.n_cards)


def permute_at(deck: Sequence[int], indices: Sequence[int], rng: random.Random) -> list[int] | None:
    """A copy of ``deck`` with the cards at ``indices`` shuffled among those places so that some place changes rank;
    ``None`` when every card there has the same rank (no such copy exists)."""
    cards = [deck[i] for i in indices]
    if len(set(cards)) < 2:
        return None
    while True:
        shuffled = cards[:]
        rng.shuffle(shuffled)
        if shuffled != cards:
            break
    other = list(deck)
    for i, card in zip(indices, shuffled, strict=True):
        other[i] = card
    return other
