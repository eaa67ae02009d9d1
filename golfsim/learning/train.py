"""Training the learned value by self-play: fitted TD(lambda), one generation at a time (``golfsim learn``).

Each generation plays ``games`` deals of self-play with the current weights ([`golfsim.learning.selfplay`][]),
spread over the training tables ([`TABLES`][golfsim.learning.train.TABLES]: two and four players, both end rules), and
gathers the normal equations of a least-squares fit of every kept state's features to its lambda-return. The equations
of earlier generations are kept with weight ``memory`` (their states came from older policies), and the new weights are
the ridge solution pulled towards the prior ([`golfsim.agents.learned.value.prior_weights`][]), row by row; a row with
fewer than ``MIN_ROW_SAMPLES`` states keeps the prior. Policy evaluation and improvement alternate: the next
generation plays with the new weights.

Why least squares in numpy and not a framework: gathering a generation's equations is compiled self-play, and the
fit is twenty solves of 27 x 27 systems, milliseconds in numpy against seconds of play (see ``fit_seconds`` and
``play_seconds`` in the learning curve), so an optimiser library would add a dependency and gain nothing.

Reproducible: generation ``k`` plays games whose deals and streams depend only on ``(seed, k)`` and the weights;
chunks of ``CHUNK`` games are summed in a fixed order, so the weights do not depend on the thread count.

After every generation the state is written atomically to ``checkpoint.npz`` and the weights to ``model.json``;
every ``eval_every`` generations the learning curve (``curve.csv``) gets a row: the learned player's margin per
nine-hole game over ev and over the tuned ev (`TUNED_EV`), 2 players, under each end rule, on the same
``eval_deals`` held-out duplicate deal sets each time. A Ctrl-C keeps the last complete generation; running the
same command again resumes from it.
"""

from __future__ import annotations

import collections
import csv
import dataclasses
import io
import itertools
import json
import math
import os
import tempfile
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from golfsim.agents.learned.value import NUM_FEATURES, NUM_FEATURES_NT, NUM_ROWS, T_OWN, prior_weights
from golfsim.core.rules import Rules
from golfsim.learning.model import atomic_write_text, publish, save_model
from golfsim.runs.interrupts import held_signals

TABLES = ((2, "immediate", 0.3), (2, "one_last_turn", 0.3), (4, "immediate", 0.2), (4, "one_last_turn", 0.2))
"""The self-play tables (players, end rule, share of each generation's deals); every other rule is the default."""

TUNED_EV = "ev:pair_weight=1.06,horizon=1.9,count_out=0,out_margin=8,watch_discard=0.46"
CURVE_OPPONENTS = ("ev", TUNED_EV)
CURVE_ENDS = ("immediate", "one_last_turn")
HOLES = 9
CHUNK = 1000
MIN_ROW_SAMPLES = 200
GENERATION_STRIDE = 1 << 32
TABLE_STRIDE = 1 << 28
EVAL_SEED_MIX = 0x6A09E667F3BCC908


@dataclass(frozen=True)
class LearnConfig:
    """The settings of a training run (all but ``threads`` must match to resume a checkpoint)."""

    seed: int = 0
    generations: int = 24
    games: int = 400_000
    lam: float = 1.0
    explore: float = 0.0
    memory: float = 0.5
    ridge: float = 1e-3
    eval_deals: int = 5000
    eval_every: int = 1
    ntuple: bool = False
    """Train the n-tuple model (model 2): the linear features plus one-hot column-state tables, starting from the
    shipped linear model's weights and the tables at 0."""
    tuple_ridge: float = 20.0
    """With ``ntuple``: the tables' ridge toward 0, in states (a pseudo-count on each table weight)."""

    @property
    def width(self) -> int:
        """The number of weights per row."""
        return NUM_FEATURES_NT if self.ntuple else NUM_FEATURES

    def check(self) -> None:
        """Raise ``ValueError`` with one line for a setting out of range."""
        if not 0 <= self.seed < 2**63:
            raise ValueError(f"seed must be a whole number from 0 to 2**63 - 1, got {self.seed}")
        if self.generations < 1 or self.games < len(TABLES) or self.eval_deals < 2 or self.eval_every < 1:
            raise ValueError("generations and eval-every must be at least 1, games at least 4, eval-deals at least 2")
        if not 0.0 <= self.lam <= 1.0 or not 0.0 <= self.explore < 1.0 or not 0.0 <= self.memory <= 1.0:
            raise ValueError("lam and memory must be from 0 to 1, explore from 0 to below 1")
        if not 0.0 <= self.ridge < math.inf:
            raise ValueError(f"ridge must be a finite number, 0 or more, got {self.ridge}")
        self.check_size()

    def check_size(self) -> None:
        """Refuse (one ``ValueError`` line) a plan bigger than the limits tournaments have
        ([`golfsim.runs.limits`][]): too many self-play tasks per generation, too many evaluation tasks, or more
        evaluation margins than fit in memory. Counted arithmetically, before any task is made."""
        from golfsim.runs.limits import MAX_TASKS, check_memory, refuse_over

        tasks = sum(math.ceil(max(1, round(self.games * share)) / CHUNK) for *_, share in TABLES)
        refuse_over("--games: self-play tasks per generation", tasks, MAX_TASKS,
                    f"give at most about {MAX_TASKS * CHUNK // 2:,} --games")
        refuse_over("--eval-deals: evaluation tasks per curve point", math.ceil(self.eval_deals / CHUNK), MAX_TASKS,
                    "give fewer --eval-deals")
        check_memory("--eval-deals: a point of the learning curve", 2 * 8 * self.eval_deals,
                     "give fewer --eval-deals")

    def resumable_with(self, other: LearnConfig) -> bool:
        """True when a checkpoint made with ``other`` can be continued with these settings (only the number of
        generations may differ)."""
        return dataclasses.replace(self, generations=0) == dataclasses.replace(other, generations=0)


@dataclass
class State:
    """A training run between generations: what the checkpoint holds."""

    generation: int
    weights: np.ndarray
    a_sums: np.ndarray
    b_sums: np.ndarray
    counts: np.ndarray
    curve: list[dict]
    deals: int

    @classmethod
    def start(cls, width: int = NUM_FEATURES) -> State:
        weights = prior_weights(width)
        if width != NUM_FEATURES:  # the n-tuple model starts from the shipped linear weights, tables at 0
            from golfsim.agents.learned.model import load_model

            weights[:, :NUM_FEATURES] = load_model()[0]
        return cls(0, weights, np.zeros((NUM_ROWS, width, width)),
                   np.zeros((NUM_ROWS, width)), np.zeros(NUM_ROWS), [], 0)


# ---------------------------------------------------------------- the fit
def symmetric(upper: np.ndarray) -> np.ndarray:
    """The full matrices of normal equations kept as upper triangles (last two axes)."""
    lower = np.triu(upper, 1).swapaxes(-1, -2)
    return upper + lower


def fit(a_sums: np.ndarray, b_sums: np.ndarray, counts: np.ndarray, ridge: float,
        tuple_ridge: float = 0.0) -> np.ndarray:
    """The ridge least-squares weights pulled towards the prior, row by row (the prior where a row has fewer than
    ``MIN_ROW_SAMPLES`` states). For an n-tuple model (wider than ``NUM_FEATURES``) the linear part's ridge is
    scaled by the linear features only and the tables get ``tuple_ridge`` on their diagonal (toward 0)."""
    width = a_sums.shape[-1]
    prior = prior_weights(width)
    weights = prior.copy()
    full = symmetric(a_sums)
    for row in range(NUM_ROWS):
        if counts[row] < MIN_ROW_SAMPLES:
            continue
        a = full[row]
        scale = max(np.trace(a[:NUM_FEATURES, :NUM_FEATURES]) / NUM_FEATURES, 1e-12)
        diag = np.full(width, ridge * scale + 1e-9)
        diag[T_OWN:] = tuple_ridge + 1e-9
        lhs = a + np.diag(diag)
        weights[row] = prior[row] + np.linalg.solve(lhs, b_sums[row] - a @ prior[row])
    return weights


# ---------------------------------------------------------------- play
def _self_play_task(packed, weights, config, first_game, n_games):
    from golfsim.kernels.simulate import work_arrays
    from golfsim.learning.selfplay import NUM_STATS, self_play_chunk

    width = config.width
    a = np.zeros((NUM_ROWS, width, width))
    b = np.zeros((NUM_ROWS, width))
    counts = np.zeros(NUM_ROWS, dtype=np.int64)
    stats = np.zeros(NUM_STATS)
    self_play_chunk(packed, weights, config.lam, config.explore, np.uint64(config.seed), np.uint64(first_game),
          n_games, a, b, counts, stats, *work_arrays(packed)[:6])
    return a, b, counts, stats


def generation_tasks(config: LearnConfig, generation: int) -> list[tuple]:
    """``(packed rules, first game, games)`` of every chunk of one generation, in the order they are summed."""
    tasks = []
    for t, (players, end, share) in enumerate(TABLES):
        packed = Rules(players=players, end=end).pack()
        games = max(1, round(config.games * share))
        first = generation * GENERATION_STRIDE + t * TABLE_STRIDE
        for lo in range(0, games, CHUNK):
            tasks.append((packed, first + lo, min(CHUNK, games - lo)))
    return tasks


def _duel_task(packed, weights, ev_params, seed, first_game, n_games):
    from golfsim.kernels.simulate import work_arrays
    from golfsim.learning.selfplay import duel_chunk

    margins = np.zeros(n_games)
    duel_chunk(packed, weights, ev_params, np.uint64(seed), np.uint64(first_game), n_games, margins,
               *work_arrays(packed)[:6])
    return margins


def curve_point(weights: np.ndarray, config: LearnConfig, pool: ThreadPoolExecutor) -> dict:
    """Margins per nine-hole game (ev's points less the learned player's, so positive is ahead) with 95% intervals
    against each curve opponent under each end rule, 2 players, on the held-out deal sets."""
    from golfsim.agents import parse_agent

    seed = (config.seed ^ EVAL_SEED_MIX) % 2**63
    row = {}
    for end in CURVE_ENDS:
        packed = Rules(players=2, end=end).pack()
        for name, opponent in zip(("ev", "tuned_ev"), CURVE_OPPONENTS, strict=True):
            params = parse_agent(opponent).param_vector()
            parts = [pool.submit(_duel_task, packed, weights, params, seed, lo, min(CHUNK, config.eval_deals - lo))
                     for lo in range(0, config.eval_deals, CHUNK)]
            margins = np.concatenate([p.result() for p in parts]) * HOLES
            half = 1.96 * margins.std(ddof=1) / np.sqrt(margins.size)
            key = f"{name}_{end}"
            row[key] = float(margins.mean())
            row[key + "_lo"] = float(margins.mean() - half)
            row[key + "_hi"] = float(margins.mean() + half)
    return row


# ---------------------------------------------------------------- checkpoints
def save_checkpoint(path: Path, config: LearnConfig, state: State) -> None:
    """Write the run's state atomically (temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".checkpoint.", suffix=".npz")
    os.close(fd)
    try:
        np.savez(tmp, generation=state.generation, weights=state.weights, a_sums=state.a_sums, b_sums=state.b_sums,
                 counts=state.counts, deals=state.deals, curve=json.dumps(state.curve),
                 config=json.dumps(dataclasses.asdict(config)))
        publish(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_checkpoint(path: Path, config: LearnConfig) -> State:
    """The state in a checkpoint made with settings ``config`` can resume from.

    Raises
    ------
    ValueError
        When the file cannot be read (truncated, not a checkpoint, a field missing or of the wrong type), holds
        arrays of the wrong shape or numbers that are not finite, or was made with other settings.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            saved = json.loads(str(data["config"]))
            if not isinstance(saved, dict):
                raise ValueError("its settings are not a JSON object")
            saved = LearnConfig(**saved)
            curve = json.loads(str(data["curve"]))
            state = State(int(data["generation"]), data["weights"].copy(), data["a_sums"].copy(),
                          data["b_sums"].copy(), data["counts"].copy(), curve, int(data["deals"]))
    except (OSError, ValueError, KeyError, TypeError, OverflowError, EOFError, zipfile.BadZipFile) as e:
        text = " ".join(str(e).split()) or type(e).__name__
        raise ValueError(f"cannot read the checkpoint {path} ({text}); pass --fresh to start over or choose "
                         "another --out") from None
    problem = _state_problem(state, config.width)
    if problem is not None:
        raise ValueError(f"the checkpoint {path} is damaged ({problem}); pass --fresh to start over or choose "
                         "another --out")
    if not config.resumable_with(saved):
        raise ValueError(f"the checkpoint {path} was made with other settings ({saved}); pass --fresh to start "
                         "over or choose another --out")
    return state


def _state_problem(state: State, width: int = NUM_FEATURES) -> str | None:
    """What makes a loaded state unusable (a shape, a number that is not finite, a negative count), or ``None``."""
    shapes = {"weights": (NUM_ROWS, width), "a_sums": (NUM_ROWS, width, width),
              "b_sums": (NUM_ROWS, width), "counts": (NUM_ROWS,)}
    for name, shape in shapes.items():
        array = getattr(state, name)
        if array.shape != shape or array.dtype.kind not in "iuf":
            return f"{name} is {array.dtype} of shape {array.shape}, not numbers of shape {shape}"
        if not np.all(np.isfinite(array)):
            return f"{name} holds numbers that are not finite"
    if np.any(state.counts < 0) or state.generation < 0 or state.deals < 0:
        return "a negative count"
    if not isinstance(state.curve, list) or not all(isinstance(row, dict) for row in state.curve):
        return "its learning curve is not a list of rows"
    return None


def write_curve(path: Path, curve: list[dict]) -> None:
    """The learning curve as CSV (atomic)."""
    if not curve:
        return
    buf = io.StringIO()
    fields = list(dict.fromkeys(key for row in curve for key in row))
    writer = csv.DictWriter(buf, fieldnames=fields, restval="")
    writer.writeheader()
    writer.writerows(curve)
    atomic_write_text(path, buf.getvalue())


def plot_curve(path: Path, curve: list[dict]) -> None:
    """The learning curve as a PNG: margin per game over ev and the tuned ev, both end rules, with 95% bands."""
    from golfsim.runs.figures import subplots

    fig, ax = subplots(figsize=(7, 4))
    x = [row["deals"] for row in curve]
    for end in CURVE_ENDS:
        for name in ("ev", "tuned_ev"):
            key = f"{name}_{end}"
            y = [row[key] for row in curve]
            ax.plot(x, y, marker="o", ms=3, label=f"vs {name.replace('_', ' ')}, {end.replace('_', ' ')}")
            ax.fill_between(x, [row[key + "_lo"] for row in curve], [row[key + "_hi"] for row in curve], alpha=0.15)
    ax.axhline(0, color="gray", lw=0.8)
    ax.set_xlabel("self-play deals")
    ax.set_ylabel("points per 9-hole game ahead (2 players)")
    ax.set_title("learned value: margin over ev (duplicate deals, 95% intervals)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".curve.", suffix=".png")
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=110)
        publish(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------- the run
def train(config: LearnConfig, out: Path, *, threads: int = 1, fresh: bool = False, command: str = "",
          progress=None, log=print) -> State:
    """Run (or resume) training into the folder ``out``; return the final state.

    ``progress`` is an optional [`golfsim.runs.progress.CountBar`][]-like object counting self-play deals.
    A ``KeyboardInterrupt`` propagates after the last complete generation's checkpoint is on disk.
    """
    config.check()
    if threads < 1:
        raise ValueError(f"threads must be at least 1, got {threads}")
    out = Path(out)
    checkpoint = out / "checkpoint.npz"
    state = State.start(config.width)
    if checkpoint.exists() and not fresh:
        state = load_checkpoint(checkpoint, config)
        log(f"resuming from generation {state.generation} ({checkpoint})")
    total = config.generations * sum(t[2] for t in generation_tasks(config, 0))
    if progress is not None:
        progress.update(total=total, completed=min(total, state.deals))
    with ThreadPoolExecutor(max_workers=threads) as pool:
        try:
            if not state.curve:
                t0 = time.perf_counter()
                point = curve_point(state.weights, config, pool)
                state.curve.append({"generation": 0, "deals": 0, "rmse": float("nan"), "play_seconds": 0.0,
                                    "fit_seconds": 0.0, "eval_seconds": time.perf_counter() - t0, **point})
                with held_signals():
                    write_curve(out / "curve.csv", state.curve)
            while state.generation < config.generations:
                state = _generation(config, state, pool, progress, threads)
                if state.generation % config.eval_every == 0 or state.generation == config.generations:
                    t0 = time.perf_counter()
                    point = curve_point(state.weights, config, pool)
                    state.curve[-1].update(point)
                    state.curve[-1]["eval_seconds"] = time.perf_counter() - t0
                with held_signals():  # the three files of one generation are written together or not at all
                    save_checkpoint(checkpoint, config, state)
                    save_model(out / "model.json", state.weights, command, training_summary(config, state))
                    write_curve(out / "curve.csv", state.curve)
        except KeyboardInterrupt:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
    plot_curve(out / "curve.png", [r for r in state.curve if "ev_immediate" in r])
    return state


def _generation(config: LearnConfig, state: State, pool: ThreadPoolExecutor, progress, threads: int = 1) -> State:
    t0 = time.perf_counter()
    tasks = generation_tasks(config, state.generation)
    # a bounded window of chunks in flight: each result holds NUM_ROWS normal equations (~116 KB), so submitting
    # every chunk at once held them all until the generation ended
    window = 2 * threads + 2
    futures: collections.deque = collections.deque()
    queued = iter(tasks)
    a = np.zeros_like(state.a_sums)
    b = np.zeros_like(state.b_sums)
    counts = np.zeros_like(state.counts)
    stats = None
    deals = state.deals
    for _, _, n in tasks:
        for packed, first, size in itertools.islice(queued, window - len(futures)):
            futures.append(pool.submit(_self_play_task, packed, state.weights, config, first, size))
        ca, cb, cc, cs = futures.popleft().result()  # in task order: the sums do not depend on which thread won
        a += ca
        b += cb
        counts += cc
        stats = cs if stats is None else stats + cs
        deals += n
        if progress is not None:
            progress.update(completed=deals, description=f"generation {state.generation + 1}/{config.generations}")
    play = time.perf_counter() - t0
    if stats[2] > 0:
        raise RuntimeError(f"self-play made {int(stats[2])} illegal moves in generation {state.generation + 1}")
    t1 = time.perf_counter()
    a_sums = config.memory * state.a_sums + a
    b_sums = config.memory * state.b_sums + b
    all_counts = config.memory * state.counts + counts
    weights = fit(a_sums, b_sums, all_counts, config.ridge, config.tuple_ridge)
    fit_seconds = time.perf_counter() - t1
    rmse = float(np.sqrt(stats[4] / max(stats[3], 1)))
    row = {"generation": state.generation + 1, "deals": deals, "rmse": rmse, "play_seconds": play,
           "fit_seconds": fit_seconds, "eval_seconds": 0.0, "truncated": int(stats[1])}
    return State(state.generation + 1, weights, a_sums, b_sums, all_counts, state.curve + [row], deals)


def training_summary(config: LearnConfig, state: State) -> dict:
    """What a model file records about its training."""
    return {"config": dataclasses.asdict(config), "tables": [list(t) for t in TABLES],
            "generations_done": state.generation, "self_play_deals": state.deals,
            "row_samples": [round(float(c)) for c in state.counts]}
