"""A picture of a position as SVG, written by hand (no drawing library): every seat's six cards face up or face
down, the discard top, the stock count, the card drawn, each seat's showing points and game total, pairs marked.

A picture is drawn from a `TableView`, which `from_pub` reads from the engine's public state (a
[`Game`][golfsim.game.game.Game]'s ``pub``, or a ``golfsim hint`` position's ``Position.to_pub``), and
`from_layout` from one layout (``golfsim score``). Every card is a ``<g class="card ...">`` carrying
``data-seat``, ``data-slot`` (0-5: top row then bottom row) and ``data-rank`` (``?`` face down), so a test or a
script reads the picture back with an XML parser; a marked pair is a ``<rect class="pair">`` with ``data-seat`` and
``data-column``. Text is escaped; the picture is one ``<svg>`` element with its own size, inline in HTML as is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from golfsim.core.cards import HIDDEN, JOKER, rank_name
from golfsim.core.rules import Rules
from golfsim.core.spec import (
    CURRENT,
    DISCARD_N,
    HELD,
    HOLE,
    PHASE,
    PHASE_NAMES,
    R_OFF_DISCARD,
    R_OFF_TOTALS,
    R_OFF_VIEW,
    STOCK_N,
    TURN,
)

CARD_W, CARD_H, GAP = 40, 56, 6
PANEL_W = 3 * CARD_W + 2 * GAP + 24
PANEL_H = 2 * CARD_H + GAP + 54
PANELS_PER_ROW = 4
PILES_H = CARD_H + 44


@dataclass
class TableView:
    """What a picture of the table shows.

    Attributes
    ----------
    layouts : list of list of int
        Six rank codes per seat, ``-1`` face down (slots 0-2 the top row, 3-5 the bottom row).
    names : list of str
        A name per seat.
    rules : Rules
        The rules (card points, which columns pair).
    discard_top : int
        The card on the discard pile, -1 if it is empty (or not shown).
    discard_count : int
        Cards in the discard pile.
    stock : int or None
        Cards left in the stock; None: no stock is drawn (a lone layout).
    held : int
        The card the player to move has drawn, -1 if none.
    to_move : int
        The seat to move, -1 if nobody (the deal is over, or a lone layout).
    totals : list of int, optional
        Game totals before this hole, per seat.
    title : str
        A line over the picture (hole, turn, phase).
    caption : str
        A line under it (a move, a score).
    """

    layouts: list[list[int]]
    names: list[str]
    rules: Rules
    discard_top: int = -1
    discard_count: int = 0
    stock: int | None = None
    held: int = -1
    to_move: int = -1
    totals: list[int] | None = None
    title: str = ""
    caption: str = ""
    column_points: list[list[int | None]] = field(default_factory=list)

    def __post_init__(self):
        if not self.column_points:
            self.column_points = [showing_columns(cards, self.rules) for cards in self.layouts]

    def showing(self, seat: int) -> int:
        """Points of ``seat``'s face-up cards, a face-up pair counted as the rules score it."""
        return int(sum(p for p in self.column_points[seat] if p is not None))

    def pairs(self, seat: int) -> list[int]:
        """Columns (0-2) of ``seat`` whose two cards are face up and of the same rank."""
        cards = self.layouts[seat]
        return [c for c in range(3) if cards[c] != HIDDEN and cards[c] == cards[c + 3]]

    def to_svg(self) -> str:
        """The picture (see `render`)."""
        return render(self)

    def _repr_svg_(self) -> str:
        return render(self)


def showing_columns(cards: Sequence[int], rules: Rules) -> list[int | None]:
    """Per column the points its face-up cards show: a face-up pair as the engine scores it, a lone face-up card
    its value, None for a column face down."""
    from golfsim.core.engine import column_score

    points = rules.points()
    packed = rules.pack()
    out: list[int | None] = []
    for c in range(3):
        top, bottom = int(cards[c]), int(cards[c + 3])
        if top != HIDDEN and bottom != HIDDEN:
            out.append(int(column_score(top, bottom, packed)))
        elif top != HIDDEN or bottom != HIDDEN:
            out.append(int(points[top if top != HIDDEN else bottom]))
        else:
            out.append(None)
    return out


def from_pub(pub: np.ndarray, rules: Rules, names: Sequence[str] | None = None, caption: str = "") -> TableView:
    """The table of the engine's public state ``pub`` under ``rules``.

    Parameters
    ----------
    pub : numpy.ndarray
        A public state ([`golfsim.core.spec`][]): ``Game.pub``, or ``Position.to_pub(rules)``.
    rules : Rules
        The rules it was made with.
    names : sequence of str, optional
        A name per seat (default ``seat 0``, ``seat 1``...).
    caption : str
        A line under the picture.
    """
    packed = rules.pack()
    players = rules.players
    ov, od, ot = int(packed[R_OFF_VIEW]), int(packed[R_OFF_DISCARD]), int(packed[R_OFF_TOTALS])
    layouts = [[int(c) for c in pub[ov + 6 * s: ov + 6 * s + 6]] for s in range(players)]
    count = int(pub[DISCARD_N])
    phase = PHASE_NAMES[int(pub[PHASE])]
    over = phase == "done"
    title = f"hole {int(pub[HOLE]) + 1} of {rules.holes}, " + ("deal over" if over else
                                                                 f"turn {int(pub[TURN])}, {phase}")
    return TableView(layouts=layouts, names=list(names) if names else [f"seat {s}" for s in range(players)],
                     rules=rules, discard_top=int(pub[od + count - 1]) if count else -1, discard_count=count,
                     stock=int(pub[STOCK_N]), held=int(pub[HELD]) if phase == "hold" else -1,
                     to_move=-1 if over else int(pub[CURRENT]), totals=[int(pub[ot + s]) for s in range(players)],
                     title=title, caption=caption)


def from_game(game, names: Sequence[str] | None = None) -> TableView:
    """The table of a [`Game`][golfsim.game.game.Game] as it stands (a deal must have started)."""
    if not game.started:
        raise ValueError("no hole has been dealt yet: call start_hole() first")
    view = from_pub(game.pub, game.rules, names)
    if game.hole_over:
        view.caption = "deal scores: " + ", ".join(f"{n} {s}" for n, s in zip(view.names, game.scores, strict=True))
    return view


def from_position(position, rules: Rules | None = None) -> TableView:
    """The table of a ``golfsim hint`` position ([`Position`][golfsim.coach.position.Position]), you at seat 0."""
    rules = rules or Rules(players=position.players)
    names = ["me"] + [f"opp {k}" for k in range(1, position.players)]
    return from_pub(position.to_pub(rules), rules, names)


def from_layout(cards: Sequence[int], rules: Rules | None = None, name: str = "layout") -> TableView:
    """One layout alone (``golfsim score``): no piles, its score under the caption."""
    from golfsim.core.scoring import score_layout

    rules = rules or Rules()
    cards = [int(c) for c in cards]
    caption = ""
    if HIDDEN not in cards:
        result = score_layout(cards, rules)
        caption = f"score {result['score']}" + (f" (four-of-a-kind bonus {result['bonus']})" if result["bonus"]
                                                else "")
    return TableView(layouts=[cards], names=[name], rules=rules, caption=caption)


# ---------------------------------------------------------------- drawing
def _text(x: float, y: float, text: str, size: int = 12, anchor: str = "start", css: str = "",
          weight: str = "normal") -> str:
    cls = f" class={quoteattr(css)}" if css else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}"{cls}>'
            f"{escape(text)}</text>")


def card(x: float, y: float, code: int, rules: Rules, attrs: dict[str, str] | None = None, css: str = "",
         both: bool = False) -> str:
    """One card at ``(x, y)``: face up with its rank and points, or face down (``code`` -1).

    ``both`` draws the front and the back, the class ``face-up`` or ``face-down`` of the group choosing which shows
    (a replay page turns cards over by changing the class and the texts).
    """
    data = "".join(f" data-{k}={quoteattr(str(v))}" for k, v in (attrs or {}).items())
    up = code != HIDDEN
    classes = f"card {'face-up' if up else 'face-down'}" + (f" {css}" if css else "")
    parts = [f'<g class="{classes}" data-rank={quoteattr(rank_name(code))}{data}>']
    if up or both:
        value = int(rules.points()[max(code, 0)]) if up else 0
        colour = "#1f4fa8" if value < 0 else ("#b00020" if code == JOKER else "#111")
        parts.append(f'<g class="front"><rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="5" '
                     'fill="#fffdf6" stroke="#444"/>')
        parts.append(f'<text class="rank" x="{x + CARD_W / 2:g}" y="{y + CARD_H / 2 + 6:g}" font-size="20" '
                     f'text-anchor="middle" font-weight="bold" fill="{colour}">{escape(rank_name(code)) if up else ""}'
                     "</text>")
        parts.append(f'<text class="points" x="{x + CARD_W - 4:g}" y="{y + CARD_H - 5:g}" font-size="9" '
                     f'text-anchor="end" fill="#666">{f"{value:+d}" if value else "0"}</text></g>')
    if not up or both:
        parts.append(f'<g class="back"><rect x="{x:g}" y="{y:g}" width="{CARD_W}" height="{CARD_H}" rx="5" '
                     'fill="#2e5e8c" stroke="#1b3a57"/>')
        parts.append(f'<rect x="{x + 5:g}" y="{y + 5:g}" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" '
                     'fill="none" stroke="#8fb3d9" stroke-dasharray="3 2"/></g>')
    parts.append("</g>")
    return "".join(parts)


def _panel(view: TableView, seat: int, x: float, y: float, template: bool = False) -> list[str]:
    moving = seat == view.to_move
    out = [f'<g class="seat{" to-move" if moving else ""}" data-seat="{seat}">',
           f'<rect x="{x:g}" y="{y:g}" width="{PANEL_W - 8}" height="{PANEL_H - 8}" rx="8" '
           f'fill="{"#fff4c2" if moving else "#eef3ee"}" stroke="{"#c99a00" if moving else "#b7c4b7"}" '
           f'stroke-width="{2 if moving else 1}"/>']
    name = view.names[seat] + (" \u25c0" if moving else "")
    out.append(_text(x + 10, y + 18, name, 13, weight="bold", css="name"))
    left, top = x + 10, y + 26
    paired = view.pairs(seat)
    for c in range(3) if template else paired:
        hidden = ' style="display:none"' if c not in paired else ""
        out.append(f'<rect class="pair" data-seat="{seat}" data-column="{c}" x="{left + c * (CARD_W + GAP) - 3:g}" '
                   f'y="{top - 3:g}" width="{CARD_W + 6}" height="{2 * CARD_H + GAP + 6}" rx="7" fill="none" '
                   f'stroke="#2a9d3a" stroke-width="3"{hidden}/>')
    for slot, code in enumerate(view.layouts[seat]):
        cx = left + (slot % 3) * (CARD_W + GAP)
        cy = top + (slot // 3) * (CARD_H + GAP)
        out.append(card(cx, cy, code, view.rules, {"seat": seat, "slot": slot}, both=template))
    line = f"showing {view.showing(seat)}"
    if view.totals is not None:
        line += f"   total {view.totals[seat]}"
    out.append(_text(x + 10, top + 2 * CARD_H + GAP + 16, line, 11, css="score"))
    out.append("</g>")
    return out


def render(view: TableView, template: bool = False) -> str:
    """The SVG text of ``view``: piles on top (stock, discard, the drawn card), then a panel per seat, up to four
    in a row, the seat to move highlighted, pairs ringed in green.

    ``template`` draws every card front and back, every pair ring (hidden unless a pair) and the drawn card's place,
    for a page that shows other positions by changing classes and texts (`golfsim.logs.replay_html`).
    """
    seats = len(view.layouts)
    per_row = min(seats, PANELS_PER_ROW)
    rows = -(-seats // per_row)
    has_piles = template or view.stock is not None or view.discard_top >= 0 or view.held >= 0
    head = 24 if view.title or template else 4
    piles = PILES_H if has_piles else 0
    width = max(per_row * PANEL_W + 8, 360)
    height = head + piles + rows * PANEL_H + (22 if view.caption or template else 6)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="golfsim-table" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">',
           f'<rect width="{width}" height="{height}" fill="#f8faf8"/>']
    if view.title or template:
        out.append(_text(8, 17, view.title, 13, css="title"))
    if has_piles:
        y = head + 16
        x = 12
        if view.stock is not None:
            out.append(_text(x, y - 4, f"stock {view.stock}", 11, css="stock"))
            out.append(card(x, y, HIDDEN, view.rules, {"pile": "stock", "count": view.stock}))
            x += CARD_W + 40
        out.append(_text(x, y - 4, f"discard ({view.discard_count})", 11, css="discard"))
        if view.discard_top >= 0 or template:
            out.append(card(x, y, view.discard_top, view.rules, {"pile": "discard"}, both=template))
        else:
            out.append(f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="5" fill="none" '
                       'stroke="#999" stroke-dasharray="4 3"/>')
        x += CARD_W + 40
        if view.held >= 0 or template:
            who = view.names[view.to_move] if view.to_move >= 0 else ""
            out.append(_text(x, y - 4, f"drawn by {who}".strip(), 11, css="held"))
            out.append(card(x, y, view.held, view.rules, {"pile": "held"}, css="held", both=template))
    for seat in range(seats):
        px = 4 + (seat % per_row) * PANEL_W
        py = head + piles + (seat // per_row) * PANEL_H
        out.extend(_panel(view, seat, px, py, template))
    if view.caption or template:
        out.append(_text(8, height - 8, view.caption, 12, css="caption"))
    out.append("</svg>")
    return "\n".join(out)


def write_position(path, position, rules: Rules, answer=None) -> None:
    """Write the picture of a ``golfsim hint`` position to ``path`` (atomically), with the best move of ``answer``
    (a [`Hint`][golfsim.coach.hint.Hint]) under it."""
    from golfsim.view.files import write_text

    view = from_position(position, rules)
    if answer is not None and answer.rows:
        best = answer.rows[0]
        view.caption = f"best: {best.move} (deal score {best.deal_score:.2f} over {answer.samples:,} worlds)"
    write_text(path, view.to_svg())
