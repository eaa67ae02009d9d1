"""``golfsim serve``: a person plays a game against any agents in a browser (needs ``golfsim[web]``).

Plain HTML pages and forms, no script: the table is the SVG of `golfsim.view.svg`, each legal move a button, the
scorecard under it, and on request the hint table of the position ([`golfsim.coach.hint.hint`][], the same search
as ``golfsim hint``). The new-game form has one field per rule option of the command line
([`golfsim.cli.shared.RULE_FLAG_TYPES`][]), read as the options are ([`golfsim.cli.shared.make_rules`][]).

The game is saved as a decision log ([`golfsim.logs.trace.write_game`][], atomically) after every move, so a closed
tab loses nothing already played and ``golfsim replay`` reads the file. Bad input (an unknown agent, a bad rule
value, an illegal or stale move, an unknown game) is a message in the page with status 400 or 404, never a traceback.
Games live in this process's memory while it runs; the logs are what lasts.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from golfsim.cli.shared import RULE_DEFAULTS, RULE_FLAG_TYPES, make_rules
from golfsim.core.rules import Rules
from golfsim.game.game import Game, make_agents
from golfsim.view.svg import from_game

YOU = "you"
HINT_SAMPLES = 200
MAX_GAMES = 200  # games kept in memory at once; the oldest finished ones go first


class BadInput(ValueError):
    """A request the page answers with a message (status 400, or ``status``)."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


@dataclass
class Session:
    """One game in progress: the person is seat 0."""

    id: str
    game: Game
    bots: list
    names: list[str]
    seed: int
    save: Path
    hints: bool
    lock: threading.Lock = field(default_factory=threading.Lock)
    bot_seconds: list[float] = field(default_factory=list)  # time the agents took per reply to a move

    @property
    def rules(self) -> Rules:
        return self.game.rules


def rule_options(form: dict) -> dict:
    """The rule options of a submitted form, as the command line would pass them: a field per option of
    [`RULE_FLAG_TYPES`][golfsim.cli.shared.RULE_FLAG_TYPES], left out or empty for the default."""
    options = {}
    for name in RULE_FLAG_TYPES:
        text = str(form.get(name, "")).strip()
        if not text:
            continue
        default = RULE_DEFAULTS[name]
        if isinstance(default, bool):
            if text.lower() not in ("true", "false", "on", "off", "yes", "no"):
                raise BadInput(f"{name.replace('_', '-')} is true or false, not {text!r}")
            options[name] = text.lower() in ("true", "on", "yes")
        elif isinstance(default, int) and name != "decks":
            try:
                options[name] = int(text)
            except ValueError:
                raise BadInput(f"{name.replace('_', '-')} must be a whole number, got {text!r}") from None
        else:
            options[name] = text.replace("-", "_") if name not in ("decks",) else text
    return options


class Tables:
    """The games this server is running, by id."""

    def __init__(self, save_dir: Path | str = "."):
        self.save_dir = Path(save_dir)
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()

    def new(self, form: dict) -> Session:
        from golfsim.agents.base import parse_agent

        opponents = [o.strip() for o in str(form.get("opponents", "ev")).split(",") if o.strip()]
        if not opponents:
            raise BadInput("give at least one opponent, e.g. ev or ev,greedy")
        if len(opponents) > 7:
            raise BadInput("at most 7 opponents (8 players)")
        for name in opponents:
            try:
                parse_agent(name)
            except ValueError as err:
                raise BadInput(str(err)) from None
        try:
            rules = make_rules(len(opponents) + 1, **rule_options(form))
        except BadInput:
            raise
        except (ValueError, TypeError) as err:
            raise BadInput(str(err)) from None
        seed_text = str(form.get("seed", "")).strip()
        try:
            seed = secrets.randbelow(2**31) if not seed_text else int(seed_text)
        except ValueError:
            raise BadInput(f"the seed must be a whole number, got {seed_text!r}") from None
        if not 0 <= seed < 2**63:
            raise BadInput("the seed must be a whole number from 0")
        names = [YOU] + [f"{o} ({i + 1})" if opponents.count(o) > 1 else o for i, o in enumerate(opponents)]
        bots = make_agents(["random", *opponents], rules)[1:]
        game = Game(rules, seed)
        for p, bot in enumerate(bots, start=1):
            bot.reset(seed, 0, p)
        key = secrets.token_urlsafe(9)
        session = Session(key, game, bots, names, seed, self.save_dir / f"golfsim-web-{seed}-{key}.parquet",
                          hints=str(form.get("hints", "")).lower() in ("on", "true", "1", "yes"))
        with session.lock:
            self._start_hole(session)
        with self.lock:
            if len(self.sessions) >= MAX_GAMES:
                done = [k for k, s in self.sessions.items() if s.game.over] or list(self.sessions)
                del self.sessions[done[0]]
            self.sessions[key] = session
        return session

    def get(self, key: str) -> Session:
        with self.lock:
            session = self.sessions.get(key)
        if session is None:
            raise BadInput(f"no game {key!r} on this server (it may have been restarted; saved games are in "
                           f"{self.save_dir})", status=404)
        return session

    def move(self, session: Session, action_text: str, turn_text: str) -> None:
        """The person's move ``action_text`` (an action id) at turn ``turn_text`` (a stale page's move is refused),
        then the agents' moves up to the person's next turn or the end of the hole; then the log is saved."""
        with session.lock:
            game = session.game
            if not game.started or game.hole_over:
                raise BadInput("the hole is over: start the next one")
            try:
                action, turn = int(action_text), int(turn_text)
            except ValueError:
                raise BadInput(f"a move is an action number, got {action_text!r}") from None
            if turn != _stamp(game):
                raise BadInput("that page was out of date (another tab moved?): here is the game as it stands")
            if game.current_player != 0 or action not in game.legal_actions():
                raise BadInput(f"move {action} is not legal now")
            game.step(action)
            start = time.perf_counter()
            self._bots_play(session)
            session.bot_seconds.append(time.perf_counter() - start)
            self._save(session)

    def next_hole(self, session: Session) -> None:
        with session.lock:
            if not session.game.hole_over:
                raise BadInput("the hole is still being played")
            if session.game.over:
                raise BadInput("the game is over")
            self._start_hole(session)

    def _start_hole(self, session: Session) -> None:
        session.game.start_hole()
        self._bots_play(session)
        self._save(session)

    def _bots_play(self, session: Session) -> None:
        game = session.game
        while not game.hole_over and game.current_player != 0:
            p = game.current_player
            game.step(int(session.bots[p - 1].act(game, p)))

    def _save(self, session: Session) -> None:
        from golfsim.logs.trace import write_game

        write_game(session.save, session.game, session.names, partial=not session.game.over)


def _stamp(game: Game) -> int:
    """Moves made in the game so far: a move form carries it, so a stale page's move is refused."""
    return len(game.history)


# ---------------------------------------------------------------- pages
STYLE = """
body { font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #222; max-width: 1100px; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin: 14px 0 6px; }
.error { background: #fde2e1; border: 1px solid #d33; padding: 8px 12px; margin: 8px 0; }
.moves button { margin: 3px; padding: 5px 10px; font-size: 14px; }
table.card { border-collapse: collapse; } table.card td, table.card th { border: 1px solid #bbb; padding: 3px 8px;
 text-align: right; }
table.hint td, table.hint th { padding: 2px 8px; text-align: left; }
label { display: inline-block; min-width: 190px; } .row { margin: 4px 0; }
.note { color: #666; font-size: 13px; }
"""


def _page(title: str, body: str, error: str = "") -> str:
    shown = f'<div class="error" id="error">{escape(error)}</div>' if error else ""
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{STYLE}</style></head><body><h1>{escape(title)}</h1>{shown}{body}</body></html>")


def new_game_page(error: str = "", form: dict | None = None) -> str:
    """The form that starts a game: opponents, a field per rule option, the seed, hints."""
    form = form or {}
    rows = [f'<div class="row"><label for="opponents">opponents (comma-separated)</label>'
            f'<input id="opponents" name="opponents" value="{escape(str(form.get("opponents", "ev")))}"></div>']
    for name in RULE_FLAG_TYPES:
        default = RULE_DEFAULTS[name]
        shown = str(default).lower() if isinstance(default, bool) else str(default)
        value = escape(str(form.get(name, "")))
        rows.append(f'<div class="row"><label for="{name}">--{name.replace("_", "-")}</label>'
                    f'<input id="{name}" name="{name}" value="{value}" placeholder="{escape(shown)}"></div>')
    rows.append(f'<div class="row"><label for="seed">seed (empty: a new one)</label>'
                f'<input id="seed" name="seed" value="{escape(str(form.get("seed", "")))}"></div>')
    rows.append('<div class="row"><label for="hints">hint panel</label>'
                '<input type="checkbox" id="hints" name="hints" checked></div>')
    body = ('<form method="post" action="/new">' + "".join(rows)
            + '<div class="row"><button id="start" type="submit">start the game</button></div></form>'
            '<p class="note">Rule options as on the command line (golfsim play --help); empty fields keep the '
            "default shown.</p>")
    return _page("golfsim: a new game", body, error)


def _scorecard(session: Session) -> str:
    game = session.game
    scores = game.hole_scores
    head = "".join(f"<th>{escape(n)}</th>" for n in session.names)
    rows = "".join(f"<tr><td>{h + 1}</td>" + "".join(f"<td>{int(v)}</td>" for v in row) + "</tr>"
                   for h, row in enumerate(scores))
    total = "".join(f"<td><b>{int(v)}</b></td>" for v in game.totals)
    return (f'<table class="card" id="scorecard"><tr><th>hole</th>{head}</tr>{rows}'
            f"<tr><td><b>total</b></td>{total}</tr></table>")


def _hint_panel(session: Session) -> str:
    from golfsim.coach.hint import hint

    game = session.game
    if game.phase not in ("start", "hold", "flip"):
        return '<div id="hint"><p class="note">No hint for the opening flips.</p></div>'
    answer = hint(game.pub, game.rules, samples=HINT_SAMPLES, seed=session.seed)
    rows = "".join(f"<tr><td>{escape(r.move)}</td><td>{r.deal_score:.2f}</td><td>{r.deal_score_se:.2f}</td>"
                   f"<td>{'' if r.ev_value is None else f'{r.ev_value:.2f}'}</td></tr>" for r in answer.rows)
    return (f'<div id="hint"><h2>hint: every move, best first</h2><table class="hint"><tr><th>move</th>'
            f"<th>your deal score</th><th>&plusmn;</th><th>ev's value</th></tr>{rows}</table>"
            f'<p class="note">mc: {answer.samples} sampled worlds per move (as golfsim hint --samples '
            f"{answer.samples}); lower is better.</p></div>")


def game_page(session: Session, error: str = "", show_hint: bool = False) -> str:
    """The table, the person's moves as buttons, the scorecard, and the hint table when asked."""
    from golfsim.coach.hint import describe_move
    from golfsim.core.spec import decode

    game = session.game
    view = from_game(game, session.names)
    parts = [f'<div id="board">{view.to_svg()}</div>']
    if game.hole_over:
        what = "the game is over" if game.over else "the hole is over"
        scores = ", ".join(f"{n} {s}" for n, s in zip(session.names, game.scores, strict=True))
        parts.append(f'<p id="status">{what}: {escape(scores)}</p>')
        if not game.over:
            parts.append(f'<form method="post" action="/game/{session.id}/next">'
                         '<button id="next-hole" type="submit">next hole</button></form>')
    else:
        opening = game.phase == "open"
        buttons = []
        for action in game.legal_actions():
            label = (f"turn up slot {decode(action).position + 1}" if opening
                     else describe_move(game.pub, game.rules, action))
            buttons.append(f'<button type="submit" name="action" value="{action}" data-action="{action}">'
                           f"{escape(label)}</button>")
        parts.append(f'<h2 id="status">your move (hole {game.hole + 1} of {game.rules.holes})</h2>'
                     f'<form class="moves" method="post" action="/game/{session.id}/move">'
                     f'<input type="hidden" name="turn" value="{_stamp(game)}">{"".join(buttons)}</form>')
        if session.hints and not show_hint:
            parts.append(f'<p><a id="show-hint" href="/game/{session.id}?hint=1">show the hint table</a></p>')
        if session.hints and show_hint:
            parts.append(_hint_panel(session))
    parts.append("<h2>scorecard</h2>" + _scorecard(session))
    parts.append(f'<p class="note" id="saved">Saved after every move to {escape(str(session.save))} (show it with: '
                 f"golfsim replay {escape(str(session.save))}). <a href=\"/\">new game</a></p>")
    title = f"golfsim: you against {', '.join(session.names[1:])}"
    return _page(title, "".join(parts), error)


def create_app(save_dir: Path | str = "."):
    """The Starlette application (``golfsim serve`` runs it with uvicorn)."""
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, RedirectResponse, Response
    from starlette.routing import Route

    tables = Tables(save_dir)

    async def form_of(request: Request) -> dict:
        try:
            return dict(await request.form())
        except Exception as err:  # a malformed body: a message, not a traceback
            raise BadInput(f"the form could not be read ({type(err).__name__})") from None

    async def home(request: Request):
        return HTMLResponse(new_game_page())

    async def new(request: Request):
        form = await form_of(request)
        try:
            session = await run_in_threadpool(tables.new, form)
        except BadInput as err:
            return HTMLResponse(new_game_page(str(err), form), status_code=err.status)
        return RedirectResponse(f"/game/{session.id}", status_code=303)

    async def show(request: Request):
        session = tables.get(request.path_params["key"])
        page = await run_in_threadpool(game_page, session, "", request.query_params.get("hint") == "1")
        return HTMLResponse(page)

    async def move(request: Request):
        session = tables.get(request.path_params["key"])
        form = await form_of(request)
        try:
            await run_in_threadpool(tables.move, session, str(form.get("action", "")), str(form.get("turn", "")))
        except BadInput as err:
            return HTMLResponse(game_page(session, str(err)), status_code=err.status)
        return RedirectResponse(f"/game/{session.id}", status_code=303)

    async def next_hole(request: Request):
        session = tables.get(request.path_params["key"])
        try:
            await run_in_threadpool(tables.next_hole, session)
        except BadInput as err:
            return HTMLResponse(game_page(session, str(err)), status_code=err.status)
        return RedirectResponse(f"/game/{session.id}", status_code=303)

    async def bad_input(request: Request, err: BadInput):
        return HTMLResponse(_page("golfsim", '<p><a href="/">new game</a></p>', str(err)), status_code=err.status)

    async def not_found(request: Request, err: Exception):
        return HTMLResponse(_page("golfsim", '<p><a href="/">new game</a></p>', "no such page"), status_code=404)

    async def failed(request: Request, err: Exception):
        # never a traceback in the page: the cause in one line
        return HTMLResponse(_page("golfsim", '<p><a href="/">new game</a></p>',
                                  f"something went wrong: {type(err).__name__}: {err}"), status_code=500)

    async def no_icon(request: Request):
        return Response(status_code=204)

    routes = [Route("/", home), Route("/favicon.ico", no_icon), Route("/new", new, methods=["POST"]),
              Route("/game/{key}", show),
              Route("/game/{key}/move", move, methods=["POST"]),
              Route("/game/{key}/next", next_hole, methods=["POST"])]
    app = Starlette(routes=routes, exception_handlers={BadInput: bad_input, 404: not_found, 405: not_found,
                                                       Exception: failed})
    app.state.tables = tables
    return app

