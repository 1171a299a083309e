"""Deck tuning: which one-for-one swap makes a deck win faster, answered by paired simulation.

A *variant* is the deck with one copy of a card taken out and one copy of a candidate put in, kept
only when the format still finds it legal. Every variant plays the same game seeds as the deck
itself (common random numbers: game i of every arm uses `game_seed(seed, i)`, and the new card
takes the old copy's place in the list the engine shuffles), so each variant's difference from the
deck is measured game by game and most of the luck of the draw cancels out.

The budget is spent by successive halving: every variant plays a few games, the better half by
paired mean plays more, and so on, so clearly worse swaps are dropped early and the promising ones
get the games. A game's *score* is its winning turn (or round); a game lost or not won within the
limit scores the limit plus one, so a swap that loses more often cannot look faster. Results depend
only on (deck, candidates, seed, budget, options), never on the number of worker processes.
"""
from __future__ import annotations

import math
import os
import random
from statistics import NormalDist
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from deckhub.core.cards import Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import get_engine
from deckhub.core.simulate import play_one, run_options

MIN_GAMES = 8          # games every variant plays in the first round when the budget affords it
MIN_BUDGET = 100       # fewer games than this tell nothing about any swap
MAX_BUDGET = 1_000_000
Z_95 = 1.959964        # two-sided 95% normal quantile: the paired means are of dozens to thousands of games


class TuningError(ValueError):
    """The deck, its candidates or the budget cannot be tuned; the message says why."""


@dataclass(frozen=True, order=True)
class Swap:
    section: str
    out: str       # card key taken out (one copy)
    into: str      # card key put in (one copy)


@dataclass
class Arm:
    """The deck itself (swap None) or one variant, with its per-game scores in game order."""
    swap: Swap | None
    deck: Deck
    scores: list[int] = field(default_factory=list)
    wins: list[bool] = field(default_factory=list)


@dataclass(frozen=True)
class Suggestion:
    swap: Swap
    out_name: str
    in_name: str
    games: int
    win_rate: float
    mean_turn: float | None     # mean winning turn of the variant's wins
    delta: float                # paired mean score change (negative: faster)
    ci: tuple[float, float]     # 95% interval of `delta`
    better: bool                # faster beyond the noise, allowing for how many variants were tried

    def to_json(self) -> dict[str, Any]:
        return {"out": self.out_name, "in": self.in_name, "section": self.swap.section,
                "out_key": self.swap.out, "in_key": self.swap.into, "games": self.games,
                "win_rate": round(self.win_rate, 6), "mean_turn": _round(self.mean_turn),
                "delta": round(self.delta, 4), "ci": [round(self.ci[0], 4), round(self.ci[1], 4)],
                "better": self.better}


@dataclass
class TuningResult:
    game: str
    deck: str
    seed: int
    budget: int
    limit: int
    baseline_games: int
    baseline_win_rate: float
    baseline_mean_turn: float | None
    suggestions: list[Suggestion]
    variants: int
    games_played: int
    settings: dict[str, Any]

    @property
    def verdict(self) -> str:
        best = [s for s in self.suggestions if s.better]
        found = self.settings.get("swaps_found", self.variants)
        drawn = (f" ({self.variants:,} of the {found:,} legal swaps, drawn by the seed: a larger budget tries more)"
                 if found > self.variants else "")
        if not best:
            return f"no swap beats the noise: none of the variants tried{drawn} is faster than the deck beyond chance"
        s = best[0]
        return (f"best swap: {s.out_name} -> {s.in_name}, {-s.delta:.2f} turns faster on average "
                f"(95% interval {-s.ci[1]:.2f} to {-s.ci[0]:.2f}) over {s.games} paired games{drawn}")

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "deck": self.deck, "seed": self.seed,
                "baseline": {"win_rate": round(self.baseline_win_rate, 6),
                             "mean_turn": _round(self.baseline_mean_turn), "games": self.baseline_games},
                "suggestions": [s.to_json() for s in self.suggestions],
                "games_played": self.games_played, "variants": self.variants, "verdict": self.verdict,
                "settings": self.settings}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def swapped(deck: Deck, swap: Swap) -> Deck:
    """`deck` with one copy of `swap.out` replaced by `swap.into`, the new card placed where the old
    copy stood in its section's order (so the shuffled deck lines up with the original's)."""
    sections: dict[str, dict[str, int]] = {}
    for name, cards in deck.sections.items():
        if name != swap.section:
            sections[name] = dict(cards)
            continue
        entries: dict[str, int] = {}
        for key, qty in cards.items():
            if key == swap.into:
                continue
            if key == swap.out:
                if qty > 1:
                    entries[key] = qty - 1
                entries[swap.into] = cards.get(swap.into, 0) + 1
            else:
                entries[key] = qty
        sections[name] = entries
    return Deck(deck.game, sections, deck.name)


def variants(deck: Deck, candidates: Iterable[str], is_legal: Callable[[Deck], bool]) -> list[Arm]:
    """Every one-for-one swap of a card of `deck` for a candidate that keeps the deck legal."""
    pool = list(dict.fromkeys(candidates))
    arms = []
    for section, cards in deck.sections.items():
        for out in cards:
            for into in pool:
                if into == out:
                    continue
                swap = Swap(section, out, into)
                changed = swapped(deck, swap)
                if is_legal(changed):
                    arms.append(Arm(swap, changed))
    return arms


def schedule(variant_count: int, budget: int, first_games: int = 0) -> list[tuple[int, int]]:
    """Successive halving: [(arms left, games each has played by the end of the round), ...].

    Each round spends about the same share of the budget; the deck's own games are shared by
    every variant (same seeds) and are counted once, in the budget too. When a round's share
    cannot give every arm left MIN_GAMES games, the round is cheaper (a game or two each: a
    screening that keeps the swaps that won fastest) rather than eating the later rounds' share,
    and no round is planned that the budget cannot pay for: the plan never spends more than
    `budget` (the Tuner keeps the variants to what a budget affords, `affordable`). `first_games`:
    the games every arm plays in the first round if half the budget affords them (an interval of
    a handful of games says little, and an arm dropped then keeps it)."""
    if variant_count < 1:
        return []
    rounds = max(1, math.ceil(math.log2(variant_count)) + 1) if variant_count > 1 else 1
    plan: list[tuple[int, int]] = []
    left, played, spent = variant_count, 0, 0
    for r in range(rounds):
        share = (budget - spent) // (rounds - r)
        extra = max(1, share // (left + 1))  # +1: the deck's own games for the new seeds
        if r == 0 and share // (left + 1) >= MIN_GAMES:
            extra = max(extra, MIN_GAMES)
        if r == 0:
            extra = max(extra, min(first_games, budget // 2 // (left + 1)))
        extra = min(extra, (budget - spent) // (left + 1))
        if extra < 1:
            break
        spent += extra * (left + 1)
        played += extra
        plan.append((left, played))
        left = max(1, math.ceil(left / 2))
        if len(plan) > 1 and plan[-1][0] == 1 and plan[-2][0] == 1:
            break
    return plan


def affordable(budget: int) -> int:
    """The most variants a budget tunes: their cheap first rounds (a game each, then half of
    them a game more, ...) take at most about half of it, leaving the rest for the swaps that
    survive them."""
    return max(1, budget // 4 - 1)


_worker: dict[str, Any] = {}


def _init_worker(game: str, catalogue: Catalogue, options: dict, seed: int, limit: int) -> None:
    _worker.update(game=game, catalogue=catalogue, options=options, seed=seed, limit=limit)


def _play(task: tuple[dict, int, int, dict | None]) -> list[tuple[int, bool]]:
    deck_json, start, stop, options = task
    w = _worker
    return play_range(w["game"], Deck.from_json(deck_json), w["catalogue"], options or w["options"], w["seed"],
                      w["limit"], start, stop)


def paired(arm: Arm, base: Arm, z: float = Z_95, games: int | None = None) -> tuple[float, tuple[float, float]]:
    """Mean paired score difference (arm - deck) over the arm's first `games` games (all by
    default), with its interval at `z`."""
    n = len(arm.scores) if games is None else min(games, len(arm.scores))
    diffs = [a - b for a, b in zip(arm.scores[:n], base.scores[:n])]
    mean = sum(diffs) / n
    if n < 2:
        return mean, (-math.inf, math.inf)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def _paired_mean(arm: Arm, base: Arm, games: int) -> float:
    """Tuning's halving key: the fastest variants (most negative paired mean) go on."""
    return paired(arm, base, games=games)[0]


def clarity(arm: Arm, base: Arm, games: int) -> float:
    """Impact's halving key over an arm's first `games` games (lowest plays on): an arm whose 95%
    interval already excludes zero is settled (infinity); among the rest, the nearer an arm's
    |paired mean| is to clearing it, in standard errors, the sooner it gets more games."""
    mean, (_lo, hi) = paired(arm, base, z=1.0, games=games)
    se = hi - mean
    t = abs(mean) / se if se > 0 else (math.inf if mean else 0.0)
    return math.inf if t >= Z_95 else -t


def family_z(variants: int, level: float = 0.05) -> float:
    """The z a variant must clear to count as better when `variants` were tried (Bonferroni): with
    hundreds of swaps, a plain 95% interval would call several of them better by luck alone."""
    return NormalDist().inv_cdf(1 - level / (2 * max(1, variants)))


class Tuner:
    """One tuning run as a sequence of rounds, so any driver can play them: `tune` below with a
    process pool, or the job queue with one task per chunk, rebuilding the Tuner from the run's
    settings and its finished games in whichever worker finishes a round.

    Arm 0 is the deck itself; arms 1.. are the variants in a fixed order. `tasks(r)` lists the
    (arm, start, stop) game ranges round r still needs once rounds before it are recorded;
    `record` stores the results of one range. Which arms go on is a pure function of the games
    recorded, so the result never depends on who played them."""

    def __init__(self, game: str, deck: Deck, catalogue: Catalogue, candidates: Iterable[str],
                 is_legal: Callable[[Deck], bool], *, budget: int = 20_000, seed: int = 0,
                 options: dict | None = None, halving: bool = True,
                 rank: Callable[[Arm, Arm, int], float] | None = None, first_games: int = 0):
        self.game, self.deck, self.catalogue, self.seed, self.budget = game, deck, catalogue, seed, budget
        self.rank = rank or _paired_mean
        self.options = run_options(game, options)
        self.limit = score_limit(game, self.options)
        if not 1 <= budget <= MAX_BUDGET:
            raise TuningError(f"a tuning budget is 1 to {MAX_BUDGET:,} games, not {budget}")
        if budget < MIN_BUDGET:
            raise TuningError(f"tuning runs need a budget of at least {MIN_BUDGET} games, not {budget}")
        if not is_legal(deck):
            raise TuningError("the deck is not legal in its format: fix it before tuning it")
        variants_ = variants(deck, candidates, is_legal)
        if not variants_:
            raise TuningError("no candidate card can replace a card of this deck and keep it legal")
        self.swaps_found = len(variants_)
        variants_ = _sample(variants_, affordable(budget), seed)
        self.order = _tie_order(len(variants_), seed)
        self.arms: list[Arm] = [Arm(None, deck), *variants_]
        self.plan = schedule(len(variants_), budget, first_games) if halving else [(len(variants_), budget // (len(variants_) + 1))]
        self.total = sum((t - p) * (left + 1) for (left, t), p in zip(self.plan, [0] + [t for _, t in self.plan]))

    @property
    def base(self) -> Arm:
        return self.arms[0]

    def arm_options(self, arm: int) -> dict:
        """The options an arm plays with: the run's, for every arm of a tuning."""
        return self.options

    @property
    def played(self) -> int:
        return sum(len(a.scores) for a in self.arms)

    def alive(self, round_no: int) -> list[int]:
        """The variants (arm indices) that play in round `round_no`: the best `left` of those that
        played the round before, by paired mean on the games recorded so far."""
        left = self.plan[round_no][0]
        if round_no == 0:
            return list(range(1, len(self.arms)))[:left]
        previous = self.alive(round_no - 1)
        base, games = self.base, self.plan[round_no - 1][1]  # only the games of the rounds before
        previous.sort(key=lambda i: (self.rank(self.arms[i], base, games), self.order[i]))
        return previous[:left]

    def tasks(self, round_no: int) -> list[tuple[int, int, int]]:
        target = self.plan[round_no][1]
        return [(i, len(self.arms[i].scores), target) for i in [0, *self.alive(round_no)]
                if len(self.arms[i].scores) < target]

    def record(self, arm: int, start: int, games: list[tuple[int, bool]]) -> None:
        """Games start.. of an arm, as (score, won); ranges must arrive in order for each arm."""
        a = self.arms[arm]
        if start != len(a.scores):
            raise TuningError(f"arm {arm}: games from {start} recorded after {len(a.scores)}")
        a.scores.extend(score for score, _ in games)
        a.wins.extend(bool(won) for _, won in games)

    def result(self, top: int = 10, settings: dict[str, Any] | None = None) -> TuningResult:
        base, variants_ = self.base, self.arms[1:]
        ranked = sorted(variants_, key=lambda a: (-len(a.scores), paired(a, base)[0] if a.scores else 0, a.swap))
        ranked = [a for a in ranked if a.scores][:top]
        z_family = family_z(len(variants_))
        suggestions = [_suggestion(a, base, self.catalogue, z_family) for a in ranked]
        suggestions.sort(key=lambda s: (not s.better, s.delta, s.swap))
        return TuningResult(self.game, self.deck.name, self.seed, self.budget, self.limit, len(base.scores),
                            _win_rate(base), _mean_turn(base), suggestions, len(variants_), self.played,
                            {"options": {k: v for k, v in self.options.items() if k != "card_values"},
                             "games_per_variant": {"first_round": self.plan[0][1], "last_round": self.plan[-1][1]},
                             "rounds": len(self.plan),
                             "swaps_found": self.swaps_found,
                             "score": f"winning turn; a game not won scores {self.limit + 1}",
                             "better_means": f"faster at 95% confidence for all {len(variants_)} variants "
                                             f"together (z {z_family:.2f})",
                             **(settings or {})})


def _sample(arms: list[Arm], most: int, seed: int) -> list[Arm]:
    """At most `most` of the variants, drawn by the seed (in their own order): when the candidates
    give more swaps than the budget can screen, a fair draw of them rather than a refusal."""
    if len(arms) <= most:
        return arms
    kept = sorted(random.Random(seed).sample(range(len(arms)), most))
    return [arms[i] for i in kept]


def _tie_order(count: int, seed: int) -> dict[int, int]:
    """Arm index -> its place among arms whose paired means tie (common after a cheap round of a
    game or two): drawn by the seed, so no card wins a tie by its name."""
    places = list(range(count))
    random.Random(seed).shuffle(places)
    return {arm: place for arm, place in zip(range(1, count + 1), places)}


def play_range(game: str, deck: Deck, catalogue: Catalogue, options: dict, seed: int, limit: int,
               start: int, stop: int) -> list[tuple[int, bool]]:
    """Games start..stop-1 of one arm, as (score, won): what a task plays."""
    out = []
    for i in range(start, stop):
        r = play_one(game, deck, catalogue, options, seed, i)
        won = r.win and r.turn <= limit
        out.append((r.turn if won else limit + 1, won))
    return out


def tune(game: str, deck: Deck, catalogue: Catalogue, candidates: Iterable[str],
         is_legal: Callable[[Deck], bool], *, budget: int = 20_000, seed: int = 0,
         options: dict | None = None, workers: int = 1, top: int = 10,
         progress: Callable[[int, int], None] | None = None,
         settings: dict[str, Any] | None = None, halving: bool = True) -> TuningResult:
    """Rank the legal one-for-one swaps of `deck` by how much faster they win (see the module doc).

    `halving=False` plays every variant equally (the budget split evenly): the exhaustive
    evaluation the benchmark compares successive halving with."""
    tuner = Tuner(game, deck, catalogue, candidates, is_legal, budget=budget, seed=seed, options=options,
                  halving=halving)
    drive(tuner, workers, progress)
    return tuner.result(top, settings)


def drive(tuner: Tuner, workers: int = 1, progress: Callable[[int, int], None] | None = None) -> None:
    """Play every round of `tuner` here, with a process pool when `workers` > 1."""
    with Player(tuner.game, tuner.catalogue, tuner.options, tuner.seed, tuner.limit, workers) as player:
        for round_no in range(len(tuner.plan)):
            tasks = tuner.tasks(round_no)
            results = player.play([(tuner.arms[i].deck, start, stop) for i, start, stop in tasks])
            for (i, start, _stop), games in zip(tasks, results):
                tuner.record(i, start, games)
                if progress:
                    progress(tuner.played, tuner.total)


class Player:
    """Plays ranges of games of several decks on one run's seeds, here or in a process pool."""

    def __init__(self, game: str, catalogue: Catalogue, options: dict, seed: int, limit: int, workers: int = 1):
        workers = max(1, min(workers, os.cpu_count() or 1))
        init = (game, catalogue, options, seed, limit)
        self.pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=init) if workers > 1 else None
        if self.pool is None:
            _init_worker(*init)

    def play(self, tasks: list[tuple[Deck, int, int]], options: dict | None = None) -> Iterable[list[tuple[int, bool]]]:
        """Each task's games as (score, won), with `options` instead of the run's when given."""
        jobs = [(deck.to_json(), start, stop, options) for deck, start, stop in tasks]
        return self.pool.map(_play, jobs) if self.pool is not None else map(_play, jobs)

    def __enter__(self) -> "Player":
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def score_limit(game: str, options: dict) -> int:
    """The turn (or round) limit a game not won scores one more than: the limit option, or the last
    round the game's own rules allow (`Engine.last_turn`); TuningError for an engine with neither."""
    limit = get_engine(game).last_turn(options)
    if not limit or limit <= 0:
        raise TuningError(f"{game}'s engine declares no turn or round limit to score losses by")
    return limit


def _win_rate(arm: Arm) -> float:
    return sum(arm.wins) / len(arm.wins) if arm.wins else 0.0


def _mean_turn(arm: Arm) -> float | None:
    turns = [s for s, w in zip(arm.scores, arm.wins) if w]
    return sum(turns) / len(turns) if turns else None


def _suggestion(arm: Arm, base: Arm, catalogue: Catalogue, z_family: float) -> Suggestion:
    delta, ci = paired(arm, base)
    better = paired(arm, base, z_family)[1][1] < 0
    name = lambda key: catalogue.cards[key].display_name if key in catalogue.cards else key  # noqa: E731
    return Suggestion(arm.swap, name(arm.swap.out), name(arm.swap.into), len(arm.scores), _win_rate(arm),
                      _mean_turn(arm), delta, ci, better)
