"""Decision logs: every decision of a run, and every deal's end, streamed to a Parquet file.

Write one with ``golfsim tournament ... --log decisions.parquet``, ``run_tournament(..., log=path)`` or
[`log_games`][golfsim.logs.trace.log_games]; read it with pandas, polars or duckdb as it is, or with
[`read_log`][golfsim.logs.trace.read_log]. The games are played by the compiled logging loop
([`golfsim.kernels.logged`][]), so logging keeps most of the simulator's speed, and rows are written in row groups as
the run goes, so memory stays that of one batch however long the run.

Schema (one row per decision, plus one per deal end; ``kind`` tells them apart)
------------------------------------------------------------------------------
=============  ================  =====================================================================
column         type              meaning
=============  ================  =====================================================================
game           int32             the game's number in this log (unique; a tournament numbers the games
                                 of seat order ``i`` from ``i * games``)
deal_set       int32             the simulator game that was dealt: hole ``h`` is the deal of
                                 ``(seed, deal_set, h)``, the same cards at every table and seat order
table          int16             tournament table (0 outside tournaments)
seat_order     int16             seat order of that table (0 outside tournaments)
hole           int16             hole, from 0
turn           int16             the turn counter (0 during the opening flips)
kind           dictionary        ``"decision"`` or ``"deal_end"``
seat           int8              who decided (-1 on a deal end)
agent          dictionary        the label of the agent in that seat (null on a deal end)
phase          dictionary        ``"open"``, ``"start"``, ``"hold"`` or ``"flip"`` (``"done"`` on a deal end)
action         int8              the action id (``golfsim.core.rules.action_name`` names it; -1 on a deal end)
card           int8              the card that moved or was revealed: the discard taken, the card drawn,
                                 the drawn card placed or thrown, the card turned up; -1 for a pass and
                                 on a deal end
discard_top    int8              the top of the discard pile before the move (after the last move on a
                                 deal end)
view_0..5      int8              the acting player's six cards before the move as they were visible
                                 (rank codes, -1 face down; all -1 on a deal end)
went_out       int8              deal end: who went out, -1 for nobody (null on decisions)
end_reason     dictionary        deal end: ``"went_out"``, ``"stock_exhausted"``, ``"truncated"``
                                 (null on decisions)
score_0..P-1   int16             deal end: each seat's score for the deal (null on decisions)
=============  ================  =====================================================================

The decision columns are never null (a deal end holds -1 or ``"done"`` there), because validity masks on the dense
columns cost a quarter of the writing time, which is what limits a logged run; filter on ``kind`` before using
them. The deal-end columns are null on decisions. Version 1 logs (null in the decision columns on a deal end and
in ``card`` for a pass) are still read.

Cards are rank codes: 0 joker, 1 ace, 2..10, 11 jack, 12 queen, 13 king. The file's key-value metadata
``golfsim.decision_log`` holds JSON: format version, the rules, the deal seed, the number of deal sets and, per
seat order, the table, the seat labels and the agent seed; ``partial`` is true for a run stopped early (the log then
holds every game that was played, including deal sets that not every seat order completed).
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from golfsim.atomic import AtomicFile, os_error_text
from golfsim.core.errors import check_agent_errors
from golfsim.core.rng import check_seed
from golfsim.core.rules import Rules
from golfsim.core.spec import PHASE_NAMES
from golfsim.game.game import END_REASONS, Event, Game
from golfsim.kernels.logged import (
    ACTION,
    CARD,
    DEAL_END,
    DISCARD_TOP,
    HOLE_COL,
    KIND,
    PHASE_COL,
    REASON_COL,
    RECORD_FIELDS,
    SEAT,
    TURN_COL,
    VIEW0,
    WENT_OUT_COL,
    most_records_per_game,
    play_logged_games,
)
from golfsim.kernels.simulate import Batch, Table, _check_count, thread_count, work_arrays

FORMAT_VERSION = 2
META_KEY = "golfsim.decision_log"
KINDS = ("decision", "deal_end")
RECORD_ROWS = 1 << 18
"""Records per work buffer (and so the largest row group a thread hands over at once)."""
MAX_PENDING = 4
"""Record chunks that may wait for the writer thread."""
WRITER_OPTIONS = {
    "compression": "lz4",
    "use_dictionary": ["kind", "agent", "phase", "end_reason"],
    "write_statistics": ["game", "deal_set", "hole", "kind"],
    "write_batch_size": 1 << 16,
    "write_page_checksum": True,  # a damaged page is refused on reading, never read as other moves
}
"""Parquet settings, chosen for writing speed (the writer thread is what limits a logged run): dictionary pages
only for the string columns, LZ4 (which pandas, polars and duckdb all read), statistics only on the columns readers
filter on, and large write batches. zstd makes smaller files but writes them more slowly (docs/performance.md)."""


class LogError(ValueError):
    """A file that is not a readable golfsim decision log, or a game or hole that is not in it."""


def schema(players: int) -> pa.Schema:
    """The Arrow schema of a log of ``players``-seat games (see the module docstring)."""
    small = pa.dictionary(pa.int8(), pa.string())

    def required(name, type_):
        return pa.field(name, type_, nullable=False)

    fields = [required("game", pa.int32()), required("deal_set", pa.int32()), required("table", pa.int16()),
              required("seat_order", pa.int16()), required("hole", pa.int16()), required("turn", pa.int16()),
              required("kind", small), required("seat", pa.int8()), pa.field("agent", small),
              required("phase", small), required("action", pa.int8()), required("card", pa.int8()),
              required("discard_top", pa.int8())]
    fields += [required(f"view_{k}", pa.int8()) for k in range(6)]
    fields += [pa.field("went_out", pa.int8()), pa.field("end_reason", small)]
    fields += [pa.field(f"score_{p}", pa.int16()) for p in range(players)]
    return pa.schema(fields)


def _dictionary(indices: np.ndarray, values: Sequence[str], mask: np.ndarray | None = None) -> pa.Array:
    idx = pa.array(np.asarray(indices, dtype=np.int8), mask=mask, type=pa.int8())
    return pa.DictionaryArray.from_arrays(idx, pa.array(list(values), type=pa.string()))


@dataclass
class Records:
    """Record arrays filled by [`golfsim.kernels.logged.play_logged_games`][] (its docstring gives the layout)."""

    rec: np.ndarray  # RECORD_FIELDS x rows, int8
    hole_turn: np.ndarray  # 2 x rows, int16
    game: np.ndarray  # rows, int32: the batch row of each record's game
    scores: np.ndarray  # players x rows, int16

    @classmethod
    def empty(cls, rows: int, players: int) -> Records:
        return cls(np.empty((RECORD_FIELDS, rows), np.int8), np.empty((2, rows), np.int16),
                   np.empty(rows, np.int32), np.empty((players, rows), np.int16))

    def head(self, rows: int) -> Records:
        """The first ``rows`` records (views, not copies)."""
        return Records(self.rec[:, :rows], self.hole_turn[:, :rows], self.game[:rows], self.scores[:, :rows])


def records_to_batch(records: Records, first_game: int, first_deal_set: int, *, table: int, seat_order: int,
                     labels: Sequence[str], players: int) -> pa.RecordBatch:
    """Arrow columns from record arrays; the game of a record is ``first_game`` plus its batch row (and its deal set
    ``first_deal_set`` plus that row).

    The int8 and int16 record rows are already in the log's types and are wrapped without conversion; only the
    deal-end columns carry a validity mask (null on decisions).
    """
    rec = records.rec
    n = rec.shape[1]
    dec = rec[KIND] != DEAL_END
    end = ~dec
    columns = [
        pa.array(records.game + np.int32(first_game)), pa.array(records.game + np.int32(first_deal_set)),
        pa.array(np.full(n, table, np.int16)), pa.array(np.full(n, seat_order, np.int16)),
        pa.array(records.hole_turn[HOLE_COL]), pa.array(records.hole_turn[TURN_COL]),
        _dictionary(rec[KIND], KINDS),
        pa.array(rec[SEAT]),
        _dictionary(np.maximum(rec[SEAT], 0), labels, end),
        _dictionary(rec[PHASE_COL], PHASE_NAMES),
        pa.array(rec[ACTION]), pa.array(rec[CARD]), pa.array(rec[DISCARD_TOP]),
    ]
    columns += [pa.array(rec[VIEW0 + k]) for k in range(6)]
    columns += [pa.array(rec[WENT_OUT_COL], mask=dec), _dictionary(rec[REASON_COL], END_REASONS, dec)]
    columns += [pa.array(records.scores[p], mask=dec) for p in range(players)]
    return pa.RecordBatch.from_arrays(columns, schema=schema(players))


class DecisionLog:
    """A decision log being written: play games through it ([`play`][golfsim.logs.trace.DecisionLog.play]), then
    [`close`][golfsim.logs.trace.DecisionLog.close] it.

    Parameters
    ----------
    path : str or Path
        The Parquet file to write. It is written under a hidden temporary name beside it and renamed into place by
        [`close`][golfsim.logs.trace.DecisionLog.close], so an existing file is replaced only by a complete log; another
        run writing the same path at the same time is refused (``ValueError``).
    rules : Rules
        The rules every game of the log is played under.
    seed : int
        The deal seed of every game.
    """

    def __init__(self, path, rules: Rules, seed: int):
        self.path = Path(path)
        self.rules = rules
        self.seed = check_seed(seed)
        self.seatings: list[dict] = []
        self.deal_sets = 0
        self.rows = 0
        # written beside the target and renamed on close: a killed run leaves the previous log whole, and a second
        # run on the same path is refused while this one writes (golfsim.atomic)
        self._file = AtomicFile(self.path, "the decision log")
        try:
            self._writer = pq.ParquetWriter(self._file.temp, schema(rules.players), **WRITER_OPTIONS)
        except OSError as err:
            self._file.abandon()
            raise ValueError(f"cannot write the decision log {self.path}: {os_error_text(err)}") from None
        self._closed = False
        self._failed = False
        # Writing (Arrow conversion, encoding, zstd) runs on its own thread while the kernels play the next batch;
        # at most MAX_PENDING batches wait, so memory stays bounded.
        self._writer_thread = ThreadPoolExecutor(1, thread_name_prefix="golfsim-log-writer")
        self._pending: list = []

    def __enter__(self) -> DecisionLog:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close(partial=exc_type is not None)

    def add_seating(self, table: int, seat_order: int, labels: Sequence[str], agent_seed: int) -> int:
        """Describe a seat order in the metadata; returns its index (the game numbering's block)."""
        self.seatings.append({"table": int(table), "seat_order": int(seat_order), "agents": list(labels),
                              "agent_seed": int(agent_seed)})
        return len(self.seatings) - 1

    def write(self, batch: pa.RecordBatch) -> None:
        """Write one record batch as a row group."""
        self._writer.write_batch(batch)
        self.rows += batch.num_rows

    def _write_later(self, make_batch) -> None:
        """Queue ``make_batch()`` (returning a record batch) for the writer thread."""
        while len(self._pending) >= MAX_PENDING:
            try:
                self._pending.pop(0).result()
            except OSError as err:
                self._failed = True  # a row group is missing: close() must not put this file in place
                raise ValueError(f"cannot write the decision log {self.path}: {os_error_text(err)}") from None
        self._pending.append(self._writer_thread.submit(lambda: self.write(make_batch())))

    def _drain(self) -> None:
        while self._pending:
            self._pending.pop(0).result()

    def play(self, table: Table, games: int, *, agent_seed: int | None = None, first_game: int = 0,
             batch_size: int = 1000, threads: int | None = None, seating: int | None = None,
             game_base: int = 0, labels: Sequence[str] | None = None) -> Iterator[Batch]:
        """Play and log ``games`` games of ``table`` (deal sets ``first_game ..``), yielding each batch's results
        like [`golfsim.kernels.simulate.iter_batches`][].

        ``seating`` is the index from [`add_seating`][golfsim.logs.trace.DecisionLog.add_seating] (one is added when
        omitted); ``game_base`` is added to the deal set to number the games in the log; ``labels`` name the seats
        (default: the agents' labels).
        """
        if table.rules != self.rules:
            raise ValueError("the table's rules differ from the log's")
        games = _check_count("games", games, allow_zero=True)
        batch_size = _check_count("batch_size", batch_size)
        agent_seed = self.seed if agent_seed is None else check_seed(agent_seed)
        labels = [a.label for a in table.agents] if labels is None else list(labels)
        if seating is None:
            seating = self.add_seating(0, len(self.seatings), labels, agent_seed)
        info = self.seatings[seating]
        rules = table.rules.pack()
        ids, params, agent_fns = table.kernel_arguments()
        players, holes = table.rules.players, table.rules.holes
        per_game = most_records_per_game(players, holes, table.rules.turn_cap)
        capacity = max(RECORD_ROWS, per_game)
        nthreads = thread_count(threads)
        head = (rules, ids, params, agent_fns, table.sees_hidden(), np.uint64(self.seed), np.uint64(agent_seed))

        def run_slice(start, lo, hi, outputs, work):
            """Play rows lo..hi of a batch, returning the record chunks in order (each in its own arrays, which the
            writer thread takes over)."""
            chunks = []
            i = lo
            while i < hi:
                records = Records.empty(capacity, players)
                i, rows = play_logged_games(*head, start, i, hi, *outputs, *work, records.rec, records.hole_turn,
                                            records.game, records.scores, per_game)
                chunks.append(records.head(rows))
                if outputs[4][i - 1, 0] != 0:
                    break
            return chunks

        pool = ThreadPoolExecutor(nthreads, thread_name_prefix="golfsim-log") if nthreads > 1 else None
        slots = [work_arrays(rules) for _ in range(nthreads)]
        try:
            done = 0
            while done < games:
                n = min(batch_size, games - done)
                start = first_game + done
                hole_scores = np.zeros((n, holes, players), dtype=np.int16)
                turns = np.zeros((n, holes), dtype=np.int16)
                enders = np.full((n, holes), -1, dtype=np.int8)
                reasons = np.zeros((n, holes), dtype=np.int8)
                errors = np.zeros((n, 4), dtype=np.int64)
                outputs = (hole_scores, turns, enders, reasons, errors)
                cuts = np.linspace(0, n, min(nthreads, n) + 1).astype(np.int64)
                pieces = list(zip(cuts[:-1], cuts[1:], strict=True))
                if pool is None or len(pieces) == 1:
                    results = [run_slice(start, int(lo), int(hi), outputs, slots[0]) for lo, hi in pieces]
                else:
                    futures = [pool.submit(run_slice, start, int(lo), int(hi), outputs, slots[j])
                               for j, (lo, hi) in enumerate(pieces)]
                    results = [f.result() for f in futures]
                check_agent_errors(errors, [a.label for a in table.agents], start)
                for chunks in results:
                    for records in chunks:
                        self._write_later(functools.partial(
                            records_to_batch, records, game_base + start, start,
                            table=info["table"], seat_order=info["seat_order"], labels=labels, players=players))
                done += n
                self.deal_sets = max(self.deal_sets, first_game + done)
                yield Batch(start, hole_scores, turns, enders, reasons)
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

    def close(self, partial: bool = False) -> None:
        """Write the metadata and close the file."""
        if self._closed:
            return
        self._closed = True
        try:
            self._drain()
            meta = {"format": "golfsim decision log", "version": FORMAT_VERSION, "rules": self.rules.to_dict(),
                    "seed": self.seed, "deal_sets": self.deal_sets, "seatings": self.seatings, "partial": partial,
                    "rows": self.rows}
            self._writer.add_key_value_metadata({META_KEY: json.dumps(meta)})
            self._writer.close()
        except OSError as err:
            with contextlib.suppress(OSError):
                self._writer.close()
            self._file.abandon()
            raise ValueError(f"cannot write the decision log {self.path}: {os_error_text(err)}") from None
        except BaseException:
            self._file.abandon()
            raise
        finally:
            self._writer_thread.shutdown(wait=True)
        if self._failed:
            self._file.abandon()
            return
        self._file.commit()


def log_games(agents: Sequence, path, rules: Rules | None = None, games: int = 1000, seed: int = 0, *,
              agent_seed: int | None = None, batch_size: int = 1000, threads: int | None = None) -> Path:
    """Play ``games`` games of ``agents`` (as [`golfsim.kernels.simulate.simulate`][] would) and log every decision to
    the Parquet file ``path``; returns the path."""
    table = Table.make(agents, rules)
    with DecisionLog(path, table.rules, seed) as log:
        for _ in log.play(table, games, agent_seed=agent_seed, batch_size=batch_size, threads=threads):
            pass
    return Path(path)


# ---------------------------------------------------------------- reading
@dataclass
class LogFile:
    """An opened decision log: its metadata and a way to read its rows."""

    path: Path
    meta: dict
    rules: Rules

    @property
    def seed(self) -> int:
        return int(self.meta["seed"])

    def frame(self, filters=None) -> pd.DataFrame:
        """The rows as a pandas DataFrame (``filters`` as in ``pyarrow.parquet.read_table``)."""
        nullable = {pa.int8(): pd.Int8Dtype(), pa.int16(): pd.Int16Dtype(), pa.int32(): pd.Int32Dtype()}
        return self._read(filters=filters).to_pandas(types_mapper=nullable.get)

    def _read(self, **options) -> pa.Table:
        """The log's rows as an Arrow table, checking every page's checksum; a damaged page is a
        [`LogError`][golfsim.logs.trace.LogError]."""
        try:
            return pq.read_table(self.path, page_checksum_verification=True, **options)
        except (OSError, pa.ArrowException) as err:
            raise LogError(f"{self.path}: the log is damaged ({str(err).splitlines()[0]})") from None

    def deal(self, game: int, hole: int) -> pd.DataFrame:
        """The rows of one deal, in order ([`LogError`][golfsim.logs.trace.LogError] if it is not in the log)."""
        if not 0 <= int(hole) < self.rules.holes:  # before the filter: the column is int16
            raise LogError(f"hole {hole} is not in game {game} of {self.path.name} "
                           f"(holes 0 to {self.rules.holes - 1})")
        if not 0 <= int(game) < 2**31:
            raise LogError(f"game {game} is not in {self.path.name} (game numbers are from 0 to {2**31 - 1})")
        rows = self.frame(filters=[("game", "=", int(game)), ("hole", "=", int(hole))])
        if rows.empty:
            games = self._read(columns=["game"]).column("game")
            if pc.sum(pc.equal(games, int(game))).as_py() in (0, None):
                lo, hi = pc.min_max(games).values()
                raise LogError(f"game {game} is not in {self.path.name} (games {lo} to {hi})")
            raise LogError(f"hole {hole} is not in game {game} of {self.path.name} "
                           f"(holes 0 to {self.rules.holes - 1})")
        return rows.reset_index(drop=True)


def read_log(path) -> LogFile:
    """Open a decision log, checking that it is one.

    Raises
    ------
    LogError
        For a missing or unreadable file, a Parquet file that is not a golfsim decision log, or a newer format.
    """
    path = Path(path)
    if not path.is_file():
        raise LogError(f"{path} does not exist or is not a file")
    try:
        file_metadata = pq.read_metadata(path)
        metadata = file_metadata.metadata or {}
        columns = set(file_metadata.schema.to_arrow_schema().names)
    except (OSError, pa.ArrowException) as err:
        raise LogError(f"{path} is not a readable Parquet file ({str(err).splitlines()[0]})") from None
    raw = metadata.get(META_KEY.encode())
    if raw is None:
        raise LogError(f"{path} is a Parquet file but not a golfsim decision log (no {META_KEY} metadata)")
    try:
        meta = json.loads(raw)
        rules = Rules(**meta["rules"])
    except (ValueError, KeyError, TypeError) as err:
        raise LogError(f"{path}: the golfsim metadata is damaged ({' '.join(str(err).split())})") from None
    version = meta.get("version", 0)
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise LogError(f"{path}: the golfsim metadata is damaged (log format version {version!r} is not a whole "
                       "number)")
    if version > FORMAT_VERSION:
        raise LogError(f"{path} was written by a newer golfsim (log format {meta['version']}); upgrade to read it")
    seed = meta.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise LogError(f"{path}: the golfsim metadata is damaged (no whole-number deal seed)")
    missing = [name for name in schema(rules.players).names if name not in columns]
    if missing:
        raise LogError(f"{path} is not a whole decision log: it has no column {missing[0]!r}"
                       + (f" (nor {len(missing) - 1} more)" if len(missing) > 1 else ""))
    return LogFile(path, meta, rules)


# ---------------------------------------------------------------- replay
@dataclass
class ReplayedMove:
    """One logged decision replayed through the engine, with the layouts after it."""

    event: Event
    layouts: list[list[int]]  # every player's visible cards after the move (-1 face down)
    discard_top: int
    label: str


def replay_deal(log: LogFile, game: int, hole: int) -> tuple[list[ReplayedMove], pd.Series]:
    """Replay one logged deal through the engine on its logged deal.

    Returns the moves and the deal-end row. Raises [`LogError`][golfsim.logs.trace.LogError] if a logged action is
    illegal in the replay or the replayed scores differ from the logged ones (the log does not belong to this deal).
    """
    rows = log.deal(game, hole)
    decisions = rows[rows["kind"] == "decision"]
    ends = rows[rows["kind"] == "deal_end"]
    if len(ends) != 1:
        raise LogError(f"game {game}, hole {hole} of {log.path.name} has no deal end: the run stopped in it")
    end = ends.iloc[0]
    deal_set = int(rows["deal_set"].iloc[0])
    g = Game(log.rules, log.seed, game=deal_set)
    g.start_hole(int(hole), totals=np.zeros(log.rules.players, dtype=np.int64))
    moves = []
    for action, label in zip(decisions["action"].astype(int), decisions["agent"].astype(str), strict=True):
        try:
            [event, *_] = g.step(int(action))
        except ValueError as err:
            raise LogError(f"game {game}, hole {hole}: the logged action does not replay ({err})") from None
        moves.append(ReplayedMove(event, [g.view(p) for p in range(log.rules.players)], g.top_discard, label))
    logged = [int(end[f"score_{p}"]) for p in range(log.rules.players)]
    if not g.hole_over or g.scores != logged:
        raise LogError(f"game {game}, hole {hole}: replaying the logged actions does not give the logged scores")
    return moves, end


def check_game(log: LogFile, game: int) -> None:
    """Refuse, with one [`LogError`][golfsim.logs.trace.LogError] line, a logged game that does not agree with the log's
    metadata or with the engine: no seatings in the metadata, a row count or seat labels the metadata does not list,
    holes beyond the rules' number or (in a finished log) missing, or scores that replaying the logged actions does not
    give. Such a log was edited (or damaged) after golfsim wrote it."""
    def edited(why: str):
        raise LogError(f"{log.path.name} was edited or damaged after golfsim wrote it: {why}")

    seatings = log.meta.get("seatings")
    if not isinstance(seatings, list) or not seatings or not all(isinstance(s, dict) for s in seatings):
        edited("its metadata lists no seatings")
    rows = log.meta.get("rows")
    held = pq.read_metadata(log.path).num_rows
    if isinstance(rows, int) and rows != held:
        edited(f"its metadata counts {rows:,} rows, the file holds {held:,}")
    if not 0 <= int(game) < 2**31:
        log.deal(game, 0)  # raises the right LogError before the int32 filter could overflow
    frame = log.frame(filters=[("game", "=", int(game))])
    if frame.empty:
        log.deal(game, 0)
    labels = frame[frame["kind"] == "decision"].groupby("seat", observed=True)["agent"].first()
    labels = [str(labels.get(p, "?")) for p in range(log.rules.players)]
    listed = [[str(a) for a in s.get("agents", [])] for s in seatings]
    if labels not in listed and "?" not in labels:
        edited(f"game {game}'s seats ({', '.join(labels)}) are not a seating its metadata lists")
    holes = sorted(int(h) for h in frame.loc[frame["kind"] == "deal_end", "hole"])
    if holes and holes[-1] >= log.rules.holes:
        edited(f"game {game} has a hole {holes[-1] + 1}, but the rules in its metadata have {log.rules.holes}")
    if not log.meta.get("partial") and len(holes) != log.rules.holes:
        edited(f"game {game} has {len(holes)} finished hole(s), but the rules in its metadata have "
               f"{log.rules.holes} and the run was not stopped early")
    for hole in holes:
        try:
            replay_deal(log, game, hole)
        except LogError as err:
            if "does not give the logged scores" in str(err) or "does not replay" in str(err):
                edited(f"hole {hole + 1} of game {game}: replaying its logged actions does not give its logged "
                       "scores")
            raise


def scorecard(log: LogFile, game: int) -> pd.DataFrame:
    """Hole-by-hole scores of one logged game, seats as columns, with a total row."""
    if not 0 <= int(game) < 2**31:
        log.deal(game, 0)  # raises the right LogError before the int32 filter could overflow
    rows = log.frame(filters=[("game", "=", int(game)), ("kind", "=", "deal_end")])
    if rows.empty:
        log.deal(game, 0)  # raises the right LogError
    cols = [f"score_{p}" for p in range(log.rules.players)]
    card = rows.set_index(rows["hole"].astype(int) + 1)[cols].astype(int)
    card.index.name = "hole"
    card.loc["total"] = card.sum()
    return card


def write_game(path, game: Game, labels: Sequence[str], *, partial: bool = False) -> Path:
    """Save a game played through [`Game`][golfsim.game.game.Game] (``golfsim play``) as a decision log.

    The events are replayed on a fresh game to recover each mover's view before each move, so the file has the
    same columns as a logged tournament and ``golfsim replay`` shows it.
    """
    players = game.rules.players
    log = DecisionLog(path, game.rules, game.seed)
    try:
        log.add_seating(0, 0, labels, 0)
        again = Game(game.rules, game.seed, game=game.game)
        records = Records.empty(len(game.history), players)
        for row, e in enumerate(game.history):
            rec, hole_turn = records.rec[:, row], records.hole_turn[:, row]
            hole_turn[[HOLE_COL, TURN_COL]] = [e.hole, e.turn]
            records.game[row] = 0
            records.scores[:, row] = 0
            if e.kind == "hole_end":
                rec[[KIND, SEAT, PHASE_COL, ACTION, CARD]] = [DEAL_END, -1, PHASE_NAMES.index("done"), -1, -1]
                rec[DISCARD_TOP] = again.top_discard
                rec[VIEW0:VIEW0 + 6] = -1
                rec[WENT_OUT_COL] = e.went_out
                rec[REASON_COL] = END_REASONS.index(e.end_reason)
                records.scores[:, row] = e.scores
                continue
            if not again.started or again.hole_over:
                again.start_hole(e.hole)
            rec[[KIND, SEAT, PHASE_COL, ACTION, CARD, DISCARD_TOP]] = [
                0, e.player, PHASE_NAMES.index(e.phase), e.action, e.card, again.top_discard]
            rec[VIEW0:VIEW0 + 6] = again.view(e.player)
            rec[WENT_OUT_COL] = -1
            rec[REASON_COL] = 0
            again.step(e.action)
        if game.history:
            log.write(records_to_batch(records, game.game, game.game, table=0, seat_order=0, labels=labels,
                                       players=players))
        log.deal_sets = game.game + 1
    finally:
        log.close(partial=partial)
    return Path(path)
