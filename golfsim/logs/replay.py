"""Showing a logged game: a deal move by move with the layouts, or a game's scorecard (``golfsim replay``)."""

from __future__ import annotations

from golfsim.core.cards import format_layout, rank_name
from golfsim.logs.trace import LogError, LogFile, check_game, replay_deal, scorecard


def _layout(cards) -> str:
    return format_layout(cards, [c >= 0 for c in cards])


def deal_lines(log: LogFile, game: int, hole: int) -> list[str]:
    """Hole ``hole`` of logged game ``game``, counted from 1 as on the scorecard (the log's ``hole`` column counts
    from 0), replayed through the engine, as text lines: one per move with the move and every layout after it, then
    the scores."""
    holes = log.rules.holes
    if not 1 <= hole <= holes:
        raise LogError(f"hole {hole} is not in game {game} of {log.path.name}: holes count from 1 (1 to {holes})")
    check_game(log, game)
    seating = seat_labels(log, game)
    try:
        moves, end = replay_deal(log, game, hole - 1)
    except LogError as err:  # its messages name the log's hole, from 0
        if "is not in game" in str(err):
            raise LogError(f"hole {hole} is not in game {game} of {log.path.name}: the run stopped before it") from None
        raise LogError(str(err).replace(f"hole {hole - 1}", f"hole {hole}", 1)) from None
    players = log.rules.players
    names = [f"{label} (seat {p})" for p, label in enumerate(seating)]
    lines = [f"game {game}, hole {hole} of {holes} ({log.rules.describe()}; deal seed {log.seed}); "
             f"{names[(hole - 1) % players]} moves first"]
    for m in moves:
        e = m.event
        when = "opening" if e.phase == "open" else f"turn {e.turn}"
        lines.append(f"{when:>8}  {e.describe(viewer=e.player, names=names)}")
        table = "   ".join(f"{p}: {_layout(cards)}" for p, cards in enumerate(m.layouts))
        lines.append(f"{'':8}  {table}   discard {rank_name(m.discard_top)}")
    scores = [int(end[f"score_{p}"]) for p in range(players)]
    went_out = int(end["went_out"])
    how = {"went_out": f"{names[went_out]} went out" if went_out >= 0 else "went out",
           "stock_exhausted": "the stock ran out", "truncated": "the turn cap was reached"}[str(end["end_reason"])]
    lines.append(f"deal over after {int(end['turn'])} turns ({how}); scores: "
                 + ", ".join(f"{names[p]} {s}" for p, s in enumerate(scores)))
    return lines


def scorecard_lines(log: LogFile, game: int) -> list[str]:
    """The scorecard of logged game ``game``: one row per hole and a total, one column per seat."""
    check_game(log, game)
    card = scorecard(log, game)
    seating = seat_labels(log, game)
    heads = [f"{label} (seat {p})" for p, label in enumerate(seating)]
    width = max(8, *(len(h) for h in heads))
    lines = [f"game {game} ({log.rules.describe()}; deal seed {log.seed})",
             f"{'hole':>6}  " + "  ".join(f"{h:>{width}}" for h in heads)]
    for hole, row in card.iterrows():
        lines.append(f"{hole!s:>6}  " + "  ".join(f"{int(v):>{width}}" for v in row))
    if len(card) - 1 < log.rules.holes:
        lines.append(f"({len(card) - 1} of {log.rules.holes} holes were played)")
    return lines


def seat_labels(log: LogFile, game: int) -> list[str]:
    """Seat labels of logged game ``game``."""
    rows = log.frame(filters=[("game", "=", int(game)), ("kind", "=", "decision")])
    if rows.empty:
        log.deal(game, 0)  # raises the right LogError
    labels = rows.groupby("seat", observed=True)["agent"].first()
    return [str(labels.get(p, "?")) for p in range(log.rules.players)]
