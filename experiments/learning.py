"""Can a small learned policy beat ``greedy``? REINFORCE on a linear softmax policy, through the Gymnasium env.

Design
------
- **Environment**: ``golfsim/Golf-v0`` ([`golfsim.interop.gymnasium`][]), two players, default rules, one hole
  per episode, the learner against ``greedy``; the learner's seat alternates between episodes so it learns to
  play first and second. The reward is minus the learner's hole score.
- **Policy**: a softmax over the legal actions of ``theta . phi(s, a)``, where ``phi`` are 17 hand-made features of
  an action computed from the observation vector only (what the seat may know): the action's kind, the estimated
  points it saves in its column (a face-down card counts as the mean of the unseen cards), whether it completes or
  breaks a pair, whether it goes onto a face-down card, the points of the card it keeps, refuses or throws, and
  whether it turns up the learner's last face-down card. ``theta`` starts at zero (every legal action equally
  likely: the random agent).
- **Learning**: REINFORCE with a running-mean baseline and Adam; ``batch`` episodes per update. Numpy only.
- **Learning curve**: every ``eval_every`` updates, the greedy (arg-max) policy plays a fixed set of
  ``eval_deals`` deal sets against greedy from both seats; the curve is its mean points per hole, next to
  the same deals played by ``random`` and ``greedy`` in the learner's place.
- **Final tournament**: the final arg-max policy against each built-in (random, greedy, pair-builder, ev) on
  ``final_deals`` duplicate deal sets, both seats (deal set ``g`` is game ``g`` under the seed in every run, so
  every player in the learner's place faces identical cards and the same opponent streams). Reported: the
  learner's mean points per hole, its mean margin over the opponent with a 95% t-interval across deal sets, and
  the same for each built-in in the learner's place.

Run: ``python -m golfsim.experiments.learning`` (writes ``results/learning/``); ``--quick`` for a small trial elsewhere.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from golfsim import stats
from golfsim.core.rules import Rules
from golfsim.core.spec import ACTION_KINDS, FLIP, PLACE_DRAWN, REVEAL, decode
from golfsim.experiments import source_fingerprint
from golfsim.experiments.common import ExperimentOutput, base_config, default_root, subplots
from golfsim.game import observation
from golfsim.interop.gymnasium import GolfSoloEnv
from golfsim.kernels.simulate import simulate

NAME = "learning"
OPPONENTS = ("random", "greedy", "pair-builder", "ev")
KINDS = ("take", "draw", "reveal", "place", "throw", "flip", "pass")
FEATURES = KINDS + ("gain_take", "gain_place", "makes_pair", "breaks_pair", "onto_face_down", "card_kept",
                    "goes_out", "card_thrown", "card_refused", "flip_beside_known")


@dataclass(frozen=True)
class Settings:
    updates: int = 400
    batch: int = 64
    learning_rate: float = 0.05
    eval_every: int = 25
    eval_deals: int = 500
    final_deals: int = 4000
    seed: int = 1


QUICK = Settings(updates=30, batch=32, eval_every=10, eval_deals=100, final_deals=200)


def _kind(action: int) -> int:
    return ACTION_KINDS.index(decode(action).kind)


class Features:
    """``phi(s, a)`` for every legal action of one observation vector (rows follow ``np.flatnonzero(mask)``)."""

    def __init__(self, rules: Rules):
        self.points = rules.points()[:rules.n_codes].astype(np.float64)  # one per card code in the observation
        self.twos_keep = rules.twos_pair == "keep_negative"
        off = observation.offsets(rules.players, rules.n_codes)
        self.unseen_at, self.codes = off["unseen"], rules.n_codes

    def __call__(self, vec: np.ndarray, legal: np.ndarray) -> np.ndarray:
        mine = vec[observation.VIEWS_AT: observation.VIEWS_AT + 6].astype(np.int64)
        unseen = vec[self.unseen_at: self.unseen_at + self.codes]
        mean_unseen = float(unseen @ self.points / unseen.sum()) if unseen.sum() > 0 else 0.0
        top, held = int(vec[observation.TOP_AT]), int(vec[observation.HELD_AT])
        face_down = int((mine < 0).sum())
        out = np.zeros((len(legal), len(FEATURES)))
        for row, action in enumerate(legal):
            kind = _kind(int(action))
            f = out[row]
            f[kind] = 1.0
            if kind in (0, 3):  # take the discard / place the drawn card at k
                k = int(action) if kind == 0 else int(action) - PLACE_DRAWN
                card = top if kind == 0 else held
                partner = mine[(k + 3) % 6]
                before = self._column(mine[k], partner, mean_unseen)
                after = self._column(card, partner, mean_unseen)
                f[7 if kind == 0 else 8] = (before - after) / 10
                f[9] = float(partner >= 0 and partner == card)
                f[10] = float(mine[k] >= 0 and mine[k] == partner)
                f[11] = float(mine[k] < 0)
                f[12] = self.points[card] / 10
                f[13] = float(mine[k] < 0 and face_down == 1)
            elif kind == 4:
                f[14] = self.points[held] / 10
            elif kind == 1:
                f[15] = self.points[top] / 10
            elif kind in (2, 5):
                k = int(action) - (REVEAL if kind == 2 else FLIP)
                f[16] = float(mine[(k + 3) % 6] >= 0)
                f[13] = float(face_down == 1)
        return out

    def _column(self, a: int, b: int, mean_unseen: float) -> float:
        if a >= 0 and b >= 0 and a == b:
            return 2 * self.points[a] if (a == 2 and self.twos_keep) else 0.0
        return (self.points[a] if a >= 0 else mean_unseen) + (self.points[b] if b >= 0 else mean_unseen)


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


class LinearPolicy:
    """Softmax over legal actions of ``theta . phi(s, a)``; ``act`` samples, ``best`` takes the arg-max."""

    def __init__(self, features: Features, theta: np.ndarray | None = None):
        self.features = features
        self.theta = np.zeros(len(FEATURES)) if theta is None else theta

    def probabilities(self, obs: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"])
        phi = self.features(obs["observation"], legal)
        return legal, phi, softmax(phi @ self.theta)

    def best(self, obs: dict) -> int:
        legal, phi, _ = self.probabilities(obs)
        return int(legal[int(np.argmax(phi @ self.theta))])


def play_deals(envs: list[GolfSoloEnv], choose, seed: int, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Play deal sets ``0 .. deals - 1`` under ``seed`` from every seat; return the learner's and the opponent's
    hole scores, shape ``(deals, seats)``."""
    mine = np.zeros((deals, len(envs)))
    theirs = np.zeros((deals, len(envs)))
    for s, env in enumerate(envs):
        for g in range(deals):
            obs, _ = env.reset(seed=seed) if g == 0 else env.reset()
            done = False
            while not done:
                obs, _, terminated, truncated, info = env.step(choose(obs))
                done = terminated or truncated
            scores = info["hole_scores"]
            mine[g, s] = scores[env.seat]
            theirs[g, s] = scores[1 - env.seat]
    return mine, theirs


def builtin_scores(agent: str, opponent: str, rules: Rules, seed: int, deals: int) -> tuple[np.ndarray, np.ndarray]:
    """``agent`` in the learner's place on the same deal sets: its and the opponent's hole scores per seat."""
    mine = np.zeros((deals, 2))
    theirs = np.zeros((deals, 2))
    for seat in range(2):
        table = [opponent, opponent]
        table[seat] = agent
        players = simulate(table, rules, games=deals, seed=seed, threads=1).players
        mine[:, seat] = players[players.seat == seat].sort_values("game").total.to_numpy()
        theirs[:, seat] = players[players.seat == 1 - seat].sort_values("game").total.to_numpy()
    return mine, theirs


class Adam:
    def __init__(self, size: int, rate: float):
        self.m, self.v, self.t, self.rate = np.zeros(size), np.zeros(size), 0, rate

    def step(self, grad: np.ndarray) -> np.ndarray:
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad**2
        m_hat, v_hat = self.m / (1 - 0.9**self.t), self.v / (1 - 0.999**self.t)
        return self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)


def train(settings: Settings, rules: Rules, log=print):
    """REINFORCE against greedy; returns the policy and the learning curve (a DataFrame)."""
    features = Features(rules)
    policy = LinearPolicy(features)
    rng = np.random.default_rng(settings.seed)
    train_envs = [GolfSoloEnv(opponents=["greedy"], seat=s) for s in range(2)]
    eval_envs = [GolfSoloEnv(opponents=["greedy"], seat=s) for s in range(2)]
    eval_seed = settings.seed + 1_000_003  # evaluation deals are never trained on
    adam = Adam(len(FEATURES), settings.learning_rate)
    baseline = None
    curve = []
    started = {s: False for s in range(2)}
    episodes = 0

    def evaluate(update):
        mine, _ = play_deals(eval_envs, policy.best, eval_seed, settings.eval_deals)
        per_deal = mine.mean(axis=1)
        mean, low, high = stats.mean_ci(per_deal)
        curve.append({"update": update, "episodes": episodes, "mean_points": mean, "low": low, "high": high})
        log(f"update {update:4d}, {episodes:6d} episodes: {mean:.2f} points per hole vs greedy")

    evaluate(0)
    for update in range(1, settings.updates + 1):
        grad = np.zeros(len(FEATURES))
        returns = np.zeros(settings.batch)
        records = []
        for b in range(settings.batch):
            env = train_envs[b % 2]
            seat = b % 2
            obs, _ = env.reset() if started[seat] else env.reset(seed=settings.seed)
            started[seat] = True
            trajectory, total, done = [], 0.0, False
            while not done:
                legal, phi, p = policy.probabilities(obs)
                i = int(rng.choice(len(legal), p=p))
                trajectory.append(phi[i] - p @ phi)  # grad of log pi(a|s) for a linear softmax
                obs, reward, terminated, truncated, _ = env.step(int(legal[i]))
                total += reward
                done = terminated or truncated
            returns[b] = total
            records.append(np.sum(trajectory, axis=0))
            episodes += 1
        if baseline is None:
            baseline = returns.mean()
        for b in range(settings.batch):
            grad += (returns[b] - baseline) * records[b]
        baseline = 0.9 * baseline + 0.1 * returns.mean()
        policy.theta = policy.theta + adam.step(grad / settings.batch)
        if update % settings.eval_every == 0 or update == settings.updates:
            evaluate(update)
    return policy, pd.DataFrame(curve)


def run(settings: Settings = Settings(), log=print) -> tuple[ExperimentOutput, pd.DataFrame]:
    """Train, evaluate, and return the experiment's output and the learning curve."""
    rules = Rules(players=2, holes=1)
    started = time.perf_counter()
    policy, curve = train(settings, rules, log)
    train_seconds = time.perf_counter() - started
    eval_seed = settings.seed + 1_000_003
    references = {name: builtin_scores(name, "greedy", rules, eval_seed, settings.eval_deals)[0].mean()
                  for name in ("random", "greedy")}

    final_seed = settings.seed + 2_000_003
    rows = []
    envs = {opp: [GolfSoloEnv(opponents=[opp], seat=s) for s in range(2)] for opp in OPPONENTS}
    for opp in OPPONENTS:
        learned = play_deals(envs[opp], policy.best, final_seed, settings.final_deals)
        players = {"learned (linear softmax)": learned}
        for name in OPPONENTS:
            players[name] = builtin_scores(name, opp, rules, final_seed, settings.final_deals)
        greedy_mine = players["greedy"][0].mean(axis=1)
        for name, (mine, theirs) in players.items():
            margin = dict(zip(("mean", "low", "high"), stats.mean_ci((mine - theirs).mean(axis=1)), strict=True))
            vs_greedy = stats.paired_difference(mine.mean(axis=1), greedy_mine)
            rows.append({"opponent": opp, "player": name, "points_per_hole": mine.mean(),
                         "margin": margin["mean"], "margin_low": margin["low"], "margin_high": margin["high"],
                         "minus_greedy": vs_greedy["mean"], "minus_greedy_low": vs_greedy["low"],
                         "minus_greedy_high": vs_greedy["high"], "deal_sets": settings.final_deals})
    table = pd.DataFrame(rows)

    final = table[(table.opponent == "greedy") & (table.player.str.startswith("learned"))].iloc[0]
    verdict = "beats" if final.margin_high < 0 else "loses to" if final.margin_low > 0 else "ties with"
    better = "fewer" if final.minus_greedy_high < 0 else "more" if final.minus_greedy_low > 0 else "about as many"
    notes = [
        f"Head to head against greedy the learned policy {verdict} it: margin {final.margin:+.2f} points per hole "
        f"(95% interval {final.margin_low:+.2f} to {final.margin_high:+.2f}) over {settings.final_deals} duplicate "
        "deal sets x 2 seats.",
        f"In greedy's own place on the same deals it scores {better} points than greedy itself: "
        f"{final.minus_greedy:+.2f} per hole ({final.minus_greedy_low:+.2f} to {final.minus_greedy_high:+.2f}). "
        "The two differ because the opponent's score depends on how the player plays (when it goes out, what it "
        "discards).",
        f"For reference on the learning-curve deals: random in the learner's place scores "
        f"{references['random']:.2f}, greedy {references['greedy']:.2f} points per hole against greedy.",
        "margin = player minus opponent, points per hole (negative: the player wins); minus_greedy = player minus "
        "greedy in the same place on identical deals.",
        f"Training took {train_seconds:.0f} s on a shared, loaded machine.",
    ]
    config = base_config(NAME, sources=source_fingerprint(), settings=asdict(settings), rules=rules.to_dict(),
                         features=list(FEATURES), theta=policy.theta.round(4).tolist(), eval_seed=eval_seed,
                         final_seed=final_seed, command="python -m golfsim.experiments.learning")
    config["reference_points_per_hole"] = references
    figure = plot(curve, config)
    return ExperimentOutput(NAME, table, config, {"figure": figure}, notes), curve


def plot(curve: pd.DataFrame, config: dict):
    """The learning curve with its 95% band and the references (random and greedy in the learner's place), in
    full and zoomed on greedy's level."""
    from golfsim.runs.figures import captioned

    settings, references = config["settings"], config["reference_points_per_hole"]
    fig, axes = subplots(1, 2, figsize=(11, 4.8))
    for ax, zoom in zip(axes, (False, True), strict=True):
        ax.plot(curve.episodes, curve.mean_points, marker="o", label="learned policy (arg-max)")
        ax.fill_between(curve.episodes, curve.low, curve.high, alpha=0.25, label="95% interval")
        for name, value in references.items():
            if zoom and name == "random":
                continue
            ax.axhline(value, linestyle="--", color="grey" if name == "random" else "black",
                       label=f"{name} in the learner's place")
        ax.set_xlabel("training episodes (one hole each)")
        ax.set_ylabel("learner's points per hole vs greedy (lower is better)")
        if zoom:
            ax.set_ylim(references["greedy"] - 3, references["greedy"] + 3)
        ax.legend(fontsize=8)
    caption = (f"seed {settings['seed']}, batch {settings['batch']} episodes per update, "
               f"{settings['updates'] * settings['batch']:,} training episodes; each point: "
               f"{settings['eval_deals']} evaluation deal sets x 2 seats (seed {config['eval_seed']}, never trained "
               "on); at 0 episodes the weights are zero and the arg-max takes the first legal action")
    return captioned(fig, [
        (axes[0], f"REINFORCE, linear softmax ({len(config['features'])} features), against greedy; 2 players, "
                  "default rules, one hole per episode", 10),
        (axes[1], "the same, zoomed on greedy's level", 10)], caption, room=0.06)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m golfsim.experiments.learning", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small trial run (written to --out only)")
    parser.add_argument("--out", type=Path, default=None, help=f"output folder (default ./results/{NAME})")
    args = parser.parse_args(argv)
    if args.quick and args.out is None:
        parser.error("--quick needs --out, so a trial never overwrites the committed results/learning/")
    output, curve = run(QUICK if args.quick else Settings())
    out = args.out if args.out is not None else default_root() / NAME
    paths = output.write(out)
    curve.to_csv(out / "curve.csv", index=False)
    print(output.table.to_string(index=False))
    print("\n".join(output.notes))
    print("wrote", ", ".join(str(p) for p in [*paths, out / "curve.csv"]))


if __name__ == "__main__":
    main()
