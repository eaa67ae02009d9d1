"""A logged game as one self-contained HTML page that steps through it decision by decision
(``golfsim replay LOG --html FILE``).

Every deal of the game is replayed through the engine on its logged deal (as [`golfsim.logs.trace.replay_deal`][]
does, checking every logged score), and the position before each decision is kept: the layouts, the piles, the
card drawn, the game totals, the move made and every legal alternative in words. A decision log records moves, not
their values, so the page lists the alternatives without values.

The page holds one SVG of the table (`golfsim.view.svg.render` with ``template=True``), the positions as JSON
and a small script that turns the cards over and rewrites the texts for the step shown: no server, no network, no
library. Buttons, a slider and the arrow keys step; a button per hole jumps to its first decision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape

import numpy as np

from golfsim.core.cards import HIDDEN
from golfsim.core.spec import PHASE, PHASE_NAMES, TURN, decode
from golfsim.game.game import Game
from golfsim.logs.replay import seat_labels
from golfsim.logs.trace import LogError, LogFile
from golfsim.view.svg import TableView, from_pub, render

CARD_CHARS = "XA23456789TJQK"


@dataclass
class Decision:
    """One logged decision with the position before it."""

    hole: int  # from 1
    seat: int
    agent: str
    action: int
    pub: np.ndarray  # the public state before the move
    legal: list[int]
    move: str  # the move in words, for the player to move
    alternatives: list[str]  # every legal move in words, in action order


def replay_hole(log: LogFile, game: int, hole: int, totals) -> tuple[list[Decision], Game]:
    """The decisions of hole ``hole`` (from 1) of logged game ``game``, with the game after the last one.

    A hole the log stops in (a game saved part-way, by ``golfsim play`` or ``golfsim serve``) gives its decisions
    so far, the game not over; a finished hole's replayed scores must equal the logged ones.

    Raises
    ------
    LogError
        When a logged action is illegal in the replay or the replayed scores differ from the logged ones.
    """
    from golfsim.coach.hint import describe_move

    rows = log.deal(game, hole - 1)
    decisions = rows[rows["kind"] == "decision"]
    ends = rows[rows["kind"] == "deal_end"]
    if len(ends) > 1:
        raise LogError(f"game {game}, hole {hole} of {log.path.name} has {len(ends)} deal ends")
    g = Game(log.rules, log.seed, game=int(rows["deal_set"].iloc[0]))
    g.start_hole(hole - 1, totals=np.asarray(totals, dtype=np.int64))
    out = []
    for action, seat, agent in zip(decisions["action"].astype(int), decisions["seat"].astype(int),
                                   decisions["agent"].astype(str), strict=True):
        pub = g.pub.copy()
        legal = g.legal_actions()
        if int(action) not in legal:
            raise LogError(f"game {game}, hole {hole}: the logged action {action} does not replay")
        opening = PHASE_NAMES[int(pub[PHASE])] == "open"
        words = [_words(describe_move, pub, log.rules, a, opening) for a in legal]
        out.append(Decision(hole, int(seat), agent, int(action), pub, legal, words[legal.index(int(action))], words))
        g.step(int(action))
    if ends.empty:
        if g.hole_over:
            raise LogError(f"game {game}, hole {hole}: the logged moves end the hole but the log has no deal end")
        return out, g
    logged = [int(ends.iloc[0][f"score_{p}"]) for p in range(log.rules.players)]
    if not g.hole_over or g.scores != logged:
        raise LogError(f"game {game}, hole {hole}: replaying the logged actions does not give the logged scores")
    return out, g


def _words(describe, pub, rules, action: int, opening: bool) -> str:
    if opening:  # describe_move words turns; an opening flip is a reveal of a slot
        return f"turn up slot {decode(action).position + 1}"
    return describe(pub, rules, action)


def decision_view(log: LogFile, game: int, hole: int, index: int) -> TableView:
    """The picture of decision ``index`` (from 0) of hole ``hole`` (from 1) of logged game ``game``: the position
    before the move, the move under it."""
    totals = np.zeros(log.rules.players, dtype=np.int64)
    for h in range(1, hole):
        _, g = replay_hole(log, game, h, totals)
        totals = totals + np.asarray(g.scores)
    decisions, _ = replay_hole(log, game, hole, totals)
    if not 0 <= index < len(decisions):
        raise LogError(f"hole {hole} of game {game} has decisions 0 to {len(decisions) - 1}, not {index}")
    d = decisions[index]
    names = [f"{label} (seat {p})" for p, label in enumerate(seat_labels(log, game))]
    return from_pub(d.pub, log.rules, names, caption=f"{names[d.seat]}: {d.move}")


def _chars(cards) -> str:
    return "".join("?" if c == HIDDEN else CARD_CHARS[c] for c in cards)


def game_steps(log: LogFile, game: int) -> tuple[list[dict], list[str], list[str]]:
    """Every step of the page: one per decision and one per deal end, as compact dicts; the moves' words (each
    step names its move and alternatives by index into this list); and the seat names."""
    names = [f"{label} (seat {p})" for p, label in enumerate(seat_labels(log, game))]
    words: dict[str, int] = {}

    def word(text: str) -> int:
        return words.setdefault(text, len(words))

    steps: list[dict] = []
    totals = np.zeros(log.rules.players, dtype=np.int64)
    for hole in range(1, log.rules.holes + 1):
        try:
            decisions, g = replay_hole(log, game, hole, totals)
        except LogError as err:
            if hole > 1 and "is not in game" in str(err):
                break  # the run stopped before this hole
            raise
        for d in decisions:
            view = from_pub(d.pub, log.rules, names)
            steps.append(_step(view, hole, int(d.pub[TURN]), PHASE_NAMES[int(d.pub[PHASE])],
                               f"{names[d.seat]}: {d.move}", [word(w) for w in d.alternatives],
                               d.legal.index(d.action), word))
        if not g.hole_over:
            break  # the log stops in this hole: the page ends on its last decision
        end = from_pub(g.pub, log.rules, names)
        scores = g.scores
        steps.append(_step(end, hole, int(g.pub[TURN]), "done",
                           "deal over: " + ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True)),
                           [], -1, word))
        totals = totals + np.asarray(scores)
    return steps, list(words), names


def _step(view: TableView, hole: int, turn: int, phase: str, move: str, alternatives: list[int], chosen: int,
          word) -> dict:
    return {"h": hole, "t": turn, "p": phase, "m": view.to_move, "L": " ".join(_chars(c) for c in view.layouts),
            "d": "" if view.discard_top < 0 else CARD_CHARS[view.discard_top], "n": view.discard_count,
            "s": view.stock, "x": "" if view.held < 0 else CARD_CHARS[view.held], "T": view.totals,
            "S": [view.showing(p) for p in range(len(view.layouts))], "mv": word(move), "a": alternatives,
            "c": chosen}


STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #222; max-width: 1000px; }
h1 { font-size: 18px; margin: 0 0 8px; }
#controls button, #holes button { font-size: 14px; margin: 2px; padding: 3px 9px; }
#holes button.here { background: #c99a00; color: white; }
#step { width: 320px; vertical-align: middle; }
#move { font-size: 15px; font-weight: bold; margin: 8px 0; }
#alts li.chosen { font-weight: bold; color: #1b6b2a; }
.note { color: #666; font-size: 12px; }
.card.face-up .back, .card.face-down .front { display: none; }
.seat.to-move > rect { fill: #fff4c2; stroke: #c99a00; stroke-width: 2; }
"""

SCRIPT = """
const data = JSON.parse(document.getElementById('data').textContent);
const steps = data.steps, words = data.words, names = data.names, points = data.points;
const CH = 'XA23456789TJQK';
const svg = document.querySelector('#board svg');
const slider = document.getElementById('step');
slider.max = steps.length - 1;
function setCard(g, ch) {
  if (!g) return;
  const up = ch !== '' && ch !== '?';
  g.classList.toggle('face-up', up);
  g.classList.toggle('face-down', !up);
  g.dataset.rank = up ? (ch === 'T' ? '10' : ch) : '?';
  if (!up) return;
  const value = points[CH.indexOf(ch)];
  const rank = g.querySelector('.rank');
  rank.textContent = g.dataset.rank;
  rank.setAttribute('fill', value < 0 ? '#1f4fa8' : (ch === 'X' ? '#b00020' : '#111'));
  g.querySelector('.points').textContent = value > 0 ? '+' + value : String(value);
}
function show(i) {
  i = Math.max(0, Math.min(steps.length - 1, i));
  const s = steps[i];
  slider.value = i;
  const rows = s.L.split(' ');
  rows.forEach((row, seat) => {
    for (let slot = 0; slot < 6; slot++)
      setCard(svg.querySelector(`g.card[data-seat="${seat}"][data-slot="${slot}"]`), row[slot]);
    for (let c = 0; c < 3; c++) {
      const paired = row[c] !== '?' && row[c] === row[c + 3];
      svg.querySelector(`rect.pair[data-seat="${seat}"][data-column="${c}"]`).style.display = paired ? '' : 'none';
    }
    const panel = svg.querySelector(`g.seat[data-seat="${seat}"]`);
    panel.classList.toggle('to-move', seat === s.m);
    panel.querySelector('.name').textContent = names[seat] + (seat === s.m ? ' \\u25c0' : '');
    panel.querySelector('.score').textContent = `showing ${s.S[seat]}   total ${s.T[seat]}`;
  });
  setCard(svg.querySelector('g.card[data-pile="discard"]'), s.d);
  const held = svg.querySelector('g.card[data-pile="held"]');
  setCard(held, s.x);
  held.style.display = s.x ? '' : 'none';
  svg.querySelector('text.held').textContent = s.x ? 'drawn by ' + names[s.m] : '';
  svg.querySelector('text.stock').textContent = 'stock ' + s.s;
  svg.querySelector('text.discard').textContent = `discard (${s.n})`;
  svg.querySelector('text.title').textContent =
    `hole ${s.h} of ${data.holes}, ` + (s.p === 'done' ? 'deal over' : `turn ${s.t}, ${s.p}`);
  svg.querySelector('text.caption').textContent = '';
  document.getElementById('where').textContent = `step ${i + 1} of ${steps.length}`;
  document.getElementById('move').textContent = words[s.mv];
  const list = document.getElementById('alts');
  list.replaceChildren(...s.a.map((w, k) => {
    const li = document.createElement('li');
    li.textContent = words[w] + (k === s.c ? '  (played)' : '');
    if (k === s.c) li.className = 'chosen';
    return li;
  }));
  document.getElementById('alternatives').style.display = s.a.length ? '' : 'none';
  document.querySelectorAll('#holes button').forEach(b => b.classList.toggle('here', Number(b.dataset.hole) === s.h));
  current = i;
}
let current = 0;
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(current - 1);
document.getElementById('next').onclick = () => show(current + 1);
document.getElementById('last').onclick = () => show(steps.length - 1);
slider.oninput = () => show(Number(slider.value));
document.querySelectorAll('#holes button').forEach(b => b.onclick = () => show(data.starts[b.dataset.hole]));
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') show(current + 1);
  if (e.key === 'ArrowLeft') show(current - 1);
});
show(0);
"""


def page(log: LogFile, game: int = 0) -> str:
    """The HTML page of logged game ``game`` (see the module docstring).

    Raises
    ------
    LogError
        When the game is not in the log, or its moves do not replay.
    """
    steps, words, names = game_steps(log, game)
    if not steps:
        raise LogError(f"game {game} of {log.path.name} has no decision yet: nothing to step through")
    players = log.rules.players
    template = TableView(layouts=[[HIDDEN] * 6 for _ in range(players)], names=names, rules=log.rules,
                         stock=0, totals=[0] * players)
    starts: dict[int, int] = {}
    for i, s in enumerate(steps):
        starts.setdefault(s["h"], i)
    data = {"steps": steps, "words": words, "names": names, "points": [int(p) for p in log.rules.points()],
            "holes": log.rules.holes, "starts": starts}
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    holes = "".join(f'<button data-hole="{h}">{h}</button>' for h in starts)
    title = f"{log.path.name}, game {game}"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>golfsim replay: {escape(title)}</title>
<style>{STYLE}</style></head>
<body>
<h1>golfsim replay: {escape(title)} ({escape(log.rules.describe())}; deal seed {log.seed})</h1>
<div id="controls"><button id="first" title="first step">|&lt;</button><button id="prev">&lt; prev</button>
<input type="range" id="step" min="0" value="0" aria-label="step"><button id="next">next &gt;</button><button id="last"
title="last step">&gt;|</button> <span id="where"></span></div>
<div id="holes">holes: {holes}</div>
<div id="board">{render(template, template=True)}</div>
<div id="move"></div>
<div id="alternatives"><div>every legal move in this position:</div><ol id="alts"></ol>
<p class="note">A decision log records the moves, not their values: the alternatives are listed without values.</p>
</div>
<script type="application/json" id="data">{payload}</script>
<script>{SCRIPT}</script>
</body></html>
"""


def write_page(path, log: LogFile, game: int = 0) -> None:
    """Write `page` to ``path`` atomically."""
    from golfsim.view.files import write_text

    write_text(path, page(log, game), "the replay page")
