"""A person at the table: ``golfsim play``, six-card Golf against the bots in a terminal.

Built on [`golfsim.game.game.Game`][]: the bots' moves are its events, narrated as they happen; the screen before
each
of your decisions shows your layout (face-down cards as ``?``), every opponent's face-up cards, the discard top, the
stock, whose turn it is and the scorecard. Your own moves are narrated like the bots' (so the face-down card a swap
sends to the discard pile is named), and the end of each hole shows every layout face up with its score. Moves are
short keys (``d`` draw, ``t3`` take the discard to position 3, ``p5`` put the drawn card at 5, ``x`` throw it away,
``f2`` flip 2, ...); ``?`` shows every legal move valued by ``mc``'s search and by ``ev``, best first
([`golfsim.coach.hint`][]), ``h`` shows the help (keys, card values and scoring under the rules being played), ``q``
or Ctrl-C ends the game. Every game is saved as a decision log that ``golfsim replay`` shows.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table as RichTable

from golfsim.coach.hint import move_key
from golfsim.core.cards import RANK_NAMES, rank_name
from golfsim.core.rules import Rules
from golfsim.core.scoring import score_layout
from golfsim.core.spec import (
    FLIP,
    HELD,
    PLACE_DRAWN,
    REVEAL,
    STOCK_N,
)
from golfsim.game.game import CompiledAgent, Event, Game, make_agents

MIN_COLUMNS, MIN_LINES = 60, 20
HINT_MIN_ROWS, HINT_OTHER_LINES = 3, 8
YOU = "you"


class TerminalError(ValueError):
    """Not a terminal, or one too small to play in."""


def check_terminal(stdin, stdout) -> None:
    """Refuse to start without an interactive terminal big enough for the screen."""
    if not (stdin.isatty() and stdout.isatty()):
        raise TerminalError("golfsim play needs an interactive terminal (its input and output are not a terminal)")
    try:
        size = os.get_terminal_size(stdout.fileno())
    except OSError:
        raise TerminalError("golfsim play needs an interactive terminal (its size cannot be read)") from None
    if size.columns < MIN_COLUMNS or size.lines < MIN_LINES:
        raise TerminalError(f"the terminal is {size.columns}x{size.lines}; golfsim play needs at least "
                            f"{MIN_COLUMNS}x{MIN_LINES} (columns x lines)")


def keys_for(game: Game) -> dict[str, int]:
    """The keys of the moves that are legal now, mapped to their actions (positions are 1 to 6)."""
    return {move_key(a): a for a in game.legal_actions()}


def _keys_text(keys: list[str]) -> str:
    digits = [int(k[1:]) for k in keys]
    if len(digits) > 2 and digits == list(range(digits[0], digits[-1] + 1)):
        return f"{keys[0]}-{keys[-1][1:]}"
    return ",".join(keys)


def help_line(game: Game) -> str:
    """What can be typed now."""
    keys = keys_for(game)
    parts = ["d: draw"] if "d" in keys else []
    groups = (("t", f"take the {rank_name(game.top_discard)}"), ("r", "reveal"), ("p", "put the drawn card"),
              ("f", "flip"))
    for prefix, text in groups:
        found = sorted(k for k in keys if k[0] == prefix)
        if found:
            parts.append(f"{_keys_text(found)}: {text}")
    if "x" in keys:
        parts.append("x: throw it away")
    if "n" in keys:
        parts.append("n: flip nothing")
    if "k" in keys:
        parts.append("k: knock early")
    return " | ".join(parts + ["?: hint", "h: help", "q: quit"])


def card_values_line(rules: Rules) -> str:
    """Every rank's point value under ``rules``, e.g. ``"A=1 2=-2 3=3 ... K=0"`` (the joker ``X`` when in play)."""
    points = rules.points()
    first = 0 if rules.jokers != "none" else 1
    return " ".join(f"{RANK_NAMES[c]}={int(points[c])}" for c in range(first, len(RANK_NAMES)))


def help_text(game: Game) -> list[str]:
    """The ``h`` key: the keys legal now, every key, the card values and a scoring reminder under the game's rules,
    in lines that fit 80 columns."""
    rules = game.rules
    keys = [("d", "draw from the stock"), ("x", "throw the drawn card away"),
            ("t1-t6", "take the discard to 1-6"), ("p1-p6", "put the drawn card at 1-6"),
            ("f1-f6", "turn a face-down card up")]
    if rules.reveal_instead_of_draw:
        keys.append(("r1-r6", "reveal a card, no draw"))
    if rules.discard_and_flip in ("may", "endgame"):
        keys.append(("n", "flip nothing"))
    if rules.knock_early:
        keys.append(("k", "knock: all cards up, go out"))
    keys += [("?", "hint: every move valued"), ("h", "this help"), ("q", "quit (the game is saved)")]
    cells = [f"{k:<6} {text:<28}" for k, text in keys]
    twos = "-4" if rules.twos_pair == "keep_negative" else "0"
    holes = f"{rules.holes} hole{'s' if rules.holes != 1 else ''}"
    lines = [f"help ({rules.describe()})", f"  now: {help_line(game)}"]
    lines += ["  " + "  ".join(cells[i:i + 2]).rstrip() for i in range(0, len(cells), 2)]
    lines += [
        "  positions: 1 2 3 top row, 4 5 6 bottom row; columns are 1/4, 2/5 and 3/6",
        f"  card values: {card_values_line(rules)}",
        "  scoring: each column counts on its own: two cards of the same rank score 0",
        f"    (a pair of twos: {twos}); otherwise the two values add up",
    ]
    if rules.four_of_a_kind_bonus:
        lines.append(f"  bonus: {rules.four_of_a_kind_bonus} for each rank that pairs in two columns")
    if rules.end == "one_last_turn":
        lines.append("  end: once someone has six cards face up, everyone else takes one last turn")
    else:
        lines.append("  end: the deal ends the moment someone has six cards face up")
    if rules.discard_and_flip == "endgame":
        lines.append("  after throwing a drawn card away, once anyone has one card face down, you may flip one")
    elif rules.discard_and_flip != "off":
        lines.append(f"  after throwing a drawn card away you {rules.discard_and_flip} turn a face-down card up")
    if rules.house_rules():
        lines.append("  house rules: " + ", ".join(rules.house_rules()) + " ('golfsim rules' says what they do)")
    lines.append(f"  lowest total after {holes} wins")
    return lines


def describe_key(key: str) -> str:
    """A move key in words."""
    what = {"t": "take the discard to position {}", "r": "reveal position {}", "p": "put the drawn card at position {}",
            "f": "flip position {}"}
    fixed = {"d": "draw from the stock", "x": "throw the drawn card away", "n": "flip nothing",
             "k": "knock early (turn up your face-down cards and go out)"}
    return fixed[key] if key in fixed else what[key[0]].format(key[1:])


def exposes_last_card(game: Game, action: int) -> bool:
    """Whether ``action`` turns up the mover's last face-down card (which ends the deal or starts the last round)."""
    down = game.face_down()
    if len(down) != 1:
        return False
    k = down[0]
    return action in (k, REVEAL + k, PLACE_DRAWN + k, FLIP + k)


class TableScreen:
    """Draws the table for the person at seat 0."""

    def __init__(self, console: Console, game: Game, names: Sequence[str]):
        self.console = console
        self.game = game
        self.names = list(names)

    def layout(self, cards: Sequence[int]) -> str:
        return "  ".join(f"{rank_name(c) if c >= 0 else '?':>2}" for c in cards[:3]) + "   /   " + \
            "  ".join(f"{rank_name(c) if c >= 0 else '?':>2}" for c in cards[3:])

    def scorecard(self, compact: bool = False) -> RichTable:
        """Every hole's scores so far and the totals; during a hole its column shows ``·``. Holes that do not fit
        the terminal's width are summed into the total but not shown (the title says which are shown). ``compact``
        draws it without borders, for the screen before each move."""
        g = self.game
        holes = g.hole_scores
        playing = g.started and not g.hole_over
        numbers = list(range(1, len(holes) + 1)) + ([len(holes) + 1] if playing else [])
        name_width = max(len(n) for n in self.names)
        room = max(1, (self.console.size.width - name_width - 16) // 5)
        shown = numbers[-room:]
        title = "scorecard" if len(shown) == len(numbers) else f"scorecard (holes {shown[0]}-{shown[-1]} shown)"
        if compact:
            card = RichTable(box=None, padding=(0, 1), header_style="dim")
            card.add_column(title)
        else:
            card = RichTable(title=title, title_justify="left", padding=(0, 1))
            card.add_column("")
        for h in shown:
            card.add_column(str(h), justify="right")
        card.add_column("total", justify="right")
        for p, name in enumerate(self.names):
            cells = [str(int(holes[h - 1, p])) if h <= len(holes) else "·" for h in shown]
            card.add_row(name, *cells, str(int(holes[:, p].sum())))
        return card

    def hole_end(self) -> None:
        """Every layout face up with its score and how its columns add up, so the scores can be checked."""
        g, c = self.game, self.console
        for p, name in enumerate(self.names):
            cards = [int(x) for x in g.hid[6 * p: 6 * p + 6]]
            scored = score_layout(cards, g.rules)
            why = "; ".join(f"{col['why']}" for col in scored["columns"])
            bonus = f"; bonus {scored['bonus']}" if scored["bonus"] else ""
            c.print(f"  {name:<16} {self.layout(cards)}   = {scored['score']}", highlight=False)
            c.print(f"  [dim]{'':<16} columns: {why}{bonus}[/]", highlight=False)

    def show(self) -> None:
        g, c = self.game, self.console
        c.rule(f"hole {g.hole + 1} of {g.rules.holes} | turn {g.turn} | your move ({g.phase})", style="bold")
        for p in range(1, g.rules.players):
            c.print(f"  {self.names[p]:<16} {self.layout(g.view(p))}", highlight=False)
        c.print(f"  discard top: [bold]{rank_name(g.top_discard)}[/]   stock: {int(g.pub[STOCK_N])} cards",
                highlight=False)
        c.print("  positions:        1   2   3   /    4   5   6", highlight=False)
        c.print(f"  [bold]{'you':<16} {self.layout(g.view(0))}[/]", highlight=False)
        if g.phase == "hold":
            c.print(f"  you drew: [bold]{rank_name(int(g.pub[HELD]))}[/]", highlight=False)
        c.print(self.scorecard(compact=True))
        c.print(f"[dim]{help_line(g)}[/]", highlight=False)


def hint(game: Game, advisor: CompiledAgent) -> str:
    """What ``ev`` would do now, on a copy of its random stream (ev's choice does not use it)."""
    saved = advisor.rng.copy()
    action = int(advisor.act(game, 0))
    advisor.rng[:] = saved
    key = next(k for k, a in keys_for(game).items() if a == action)
    return f"hint: ev would play {key} ({describe_key(key)})"


def show_hint(console: Console, game: Game, advisor: CompiledAgent, seed: int) -> None:
    """The ``?`` key: every legal move valued by mc's search (± standard errors) and by ev, best first, as many
    rows as the terminal has room for. The opening flips have nothing to search: ev's flip is shown."""
    if game.phase == "open":
        console.print(hint(game, advisor), highlight=False)
        return
    from golfsim.coach.hint import PLAY_SAMPLES, hint_table
    from golfsim.coach.hint import hint as search_hint

    answer = search_hint(game.pub, game.rules, samples=PLAY_SAMPLES, seed=(seed * 7919 + game.turn) % 2**62)
    lines_per_row = 1 if console.size.width >= 110 else 2  # a narrow terminal wraps the move's words
    room = max(HINT_MIN_ROWS, (console.size.height - HINT_OTHER_LINES) // lines_per_row)
    console.print(hint_table(answer, limit=room, compact=True,
                             title=f"hint: mc's search, {answer.samples} sampled worlds per move (lower is better)"))
    shown = min(room, len(answer.rows))
    more = f"; {len(answer.rows) - shown} worse moves not shown" if shown < len(answer.rows) else ""
    console.print(f"[dim]deal score: your score this deal; vs opp: minus the opponents' mean; ev: ev's value, "
                  f"* its choice{more}[/]", highlight=False)


def play(opponents: Sequence[str], rules: Rules, seed: int, save: Path, console: Console,
         ask: Callable[[str], str]) -> int:
    """Play a game of a person (seat 0) against ``opponents``; save it to ``save``. Returns the exit status."""
    names = [YOU] + [f"{o} ({i + 1})" if list(opponents).count(o) > 1 else o for i, o in enumerate(opponents)]
    bots = make_agents(["random", *opponents], rules)[1:]
    game = Game(rules, seed)
    for p, bot in enumerate(bots, start=1):
        bot.reset(seed, 0, p)
    advisor = CompiledAgent("ev", rules)
    screen = TableScreen(console, game, names)
    status = 0
    console.print(f"golfsim: you against {', '.join(names[1:])} ({rules.describe()}); deal seed {seed}",
                  highlight=False, soft_wrap=True)
    try:
        while not game.over:
            game.start_hole()
            first = names[game.first_player]
            console.print(f"[bold]hole {game.hole + 1} of {rules.holes}[/]: {first} "
                          f"{'move' if first == YOU else 'moves'} first", highlight=False)
            while not game.hole_over:
                p = game.current_player
                action = _ask_person(game, screen, advisor, ask, seed) if p == 0 else bots[p - 1].act(game, p)
                if action is None:
                    status = 0
                    raise _Quit
                for event in game.step(action):
                    _narrate(console, event, names)
            screen.hole_end()
            console.print(screen.scorecard())
        console.print(f"game over: {_winner(game, names)}", highlight=False)
    except _Quit:
        console.print("you left the game", highlight=False)
    except (KeyboardInterrupt, EOFError):
        status = 130
        _say(console, "\ninterrupted: the game ends here")
    from golfsim.logs.trace import write_game

    write_game(save, game, names, partial=not game.over)
    _say(console, f"saved the game to {save} (show it with: golfsim replay {save})")
    return status


def _say(console: Console, text: str) -> None:
    """Print, unless the terminal is gone (after SIGHUP): the game is saved either way."""
    with contextlib.suppress(OSError):
        console.print(text, highlight=False, soft_wrap=True)


def _stop_as_ctrl_c(signum, frame):
    raise KeyboardInterrupt


class _Quit(Exception):
    pass


def _ask_person(game: Game, screen: TableScreen, advisor: CompiledAgent, ask, seed: int) -> int | None:
    screen.show()
    while True:
        text = ask(f"{game.phase}> ").strip().lower()
        keys = keys_for(game)
        if text == "q":
            return None
        if text in ("h", "help"):
            for line in help_text(game):
                screen.console.print(line, highlight=False)
            continue
        if text == "?":
            show_hint(screen.console, game, advisor, seed)
            continue
        if text in keys:
            action = keys[text]
            if exposes_last_card(game, action):
                sure = ask("that turns up your last face-down card and ends the deal; sure? (y/n)> ")
                if sure.strip().lower() not in ("y", "yes"):
                    continue
            return action
        screen.console.print(_why_not(game, text), highlight=False)


def _why_not(game: Game, text: str) -> str:
    if not text:
        return "type a move (h shows the keys)"
    if text[0] in "tprf" and text[1:].isdigit() and not 1 <= int(text[1:]) <= 6:
        return f"{text!r}: positions are 1 to 6 (1-3 top row, 4-6 bottom row)"
    if text[0] in "tprfdxn":
        return f"{text!r} is not a move you can make in the {game.phase} phase; now: {help_line(game)}"
    return f"{text!r} is not a key; now: {help_line(game)}"


def _narrate(console: Console, event: Event, names: Sequence[str]) -> None:
    text = event.describe(viewer=0, names=names)
    console.print(f"[bold]{text}[/]" if event.kind == "hole_end" else f"[cyan]{text}[/]", highlight=False)


def _winner(game: Game, names: Sequence[str]) -> str:
    totals = game.totals
    best = np.flatnonzero(totals == totals.min())
    scores = ", ".join(f"{names[p]} {int(t)}" for p, t in enumerate(totals))
    who = " and ".join(names[p] for p in best)
    return f"{who} {'win' if YOU in who or len(best) > 1 else 'wins'} ({scores})"


def main(opponents: Sequence[str], rules: Rules, seed: int, save: Path) -> int:
    """Check the terminal and play (the ``golfsim play`` command)."""
    check_terminal(sys.stdin, sys.stdout)
    console = Console(highlight=False)
    # closing the terminal (SIGHUP) or a kill (SIGTERM) ends the game as Ctrl-C does: it is saved
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _stop_as_ctrl_c)
    return play(opponents, rules, seed, save, console, console.input)
