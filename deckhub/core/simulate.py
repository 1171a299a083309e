"""Thousands of automated goldfish games of one deck, and what they say about it.

Game i of a run plays with a seed derived only from (master seed, i), and the summary is built
from per-game results in game order, so the same inputs give the same numbers however many
worker processes share the work. Only `games_per_second` depends on the machine.
"""
from __future__ import annotations

import hashlib
import math
import os
import re
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable

from deckhub.core.cards import Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import get_engine, new_game, play_out

MAX_GAMES = 100_000
_CHUNK = 250


def game_seed(master: int, index: int) -> int:
    """The seed of game `index` of a run: independent of how the run is split across workers."""
    digest = hashlib.blake2b(f"{master}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFF_FFFF


def loss_reason(reason: str) -> str:
    """A loss's category for the summary ("deck-out", "turn limit", "round limit", ...)."""
    text = reason.lower()
    if "empty" in text and "deck" in text:
        return "deck-out"
    if "turn limit" in text:
        return "turn limit"
    if "round" in text and ("limit" in text or "end of round" in text):
        return "round limit"
    if "conceded" in text:
        return "conceded"
    return re.sub(r"\s*\(.*?\)\s*$", "", reason).strip() or "other"


@dataclass(frozen=True)
class GameResult:
    index: int
    win: bool
    turn: int
    reason: str
    stuck: tuple[str, ...]  # card keys left in hand at the end


@dataclass
class Summary:
    game: str
    games: int
    seed: int
    wins: int = 0
    losses: Counter = field(default_factory=Counter)
    win_turns: Counter = field(default_factory=Counter)
    stuck: Counter = field(default_factory=Counter)  # card key -> games it ended in hand
    seconds: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def percentile(self, p: float) -> float | None:
        """Nearest-rank percentile of the winning turn (None without wins)."""
        if not self.wins:
            return None
        rank = max(1, math.ceil(p / 100 * self.wins))
        seen = 0
        for turn in sorted(self.win_turns):
            seen += self.win_turns[turn]
            if seen >= rank:
                return turn
        return max(self.win_turns)

    def median(self) -> float | None:
        if not self.wins:
            return None
        turns = sorted(self.win_turns.elements())
        mid = len(turns) // 2
        return float(turns[mid]) if len(turns) % 2 else (turns[mid - 1] + turns[mid]) / 2

    def mean(self) -> float | None:
        if not self.wins:
            return None
        return round(sum(t * n for t, n in self.win_turns.items()) / self.wins, 4)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "games": self.games, "seed": self.seed, "wins": self.wins,
            "win_rate": round(self.win_rate, 6), "losses": dict(sorted(self.losses.items())),
            "win_turn": {"mean": self.mean(), "median": self.median(), "p10": self.percentile(10),
                         "p90": self.percentile(90),
                         "histogram": {str(t): n for t, n in sorted(self.win_turns.items())}},
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
        }

    def counts(self) -> dict[str, Any]:
        """The tallies alone, as JSON: a chunk's share of a run, to be merged with `merge`."""
        return {"games": self.games, "wins": self.wins, "losses": dict(self.losses),
                "win_turns": {str(t): n for t, n in self.win_turns.items()}, "stuck": dict(self.stuck)}

    def add_counts(self, counts: dict[str, Any]) -> None:
        self.wins += counts["wins"]
        self.losses.update(counts["losses"])
        self.win_turns.update({int(t): n for t, n in counts["win_turns"].items()})
        self.stuck.update(counts["stuck"])

    def stuck_cards(self, catalogue: Catalogue, top: int = 10) -> list[tuple[str, int, float]]:
        """(card name, games, share of games) for the cards most often left in hand at the end."""
        rows = []
        for key, n in sorted(self.stuck.items(), key=lambda kv: (-kv[1], kv[0]))[:top]:
            card = catalogue.get(key)
            rows.append((card.display_name if card else key, n, n / self.games))
        return rows


def play_one(game: str, deck: Deck, catalogue: Catalogue, options: dict, master: int, index: int) -> GameResult:
    state = play_out(new_game(game, deck, catalogue, game_seed(master, index), options))
    hand = state.zones.get(state.HAND_ZONE, [])
    stuck = tuple(sorted({state.cards[i].key for i in hand}))
    outcome = state.outcome
    return GameResult(index, outcome.result == "win", outcome.turn, outcome.reason, stuck)


_worker: dict[str, Any] = {}


def _init_worker(game: str, deck_json: dict, catalogue: Catalogue, options: dict, master: int) -> None:
    """Each worker process receives the catalogue and deck once, not with every chunk."""
    _worker.update(game=game, deck=Deck.from_json(deck_json), catalogue=catalogue, options=options, master=master)


def _play_range(bounds: tuple[int, int]) -> list[GameResult]:
    w = _worker
    return [play_one(w["game"], w["deck"], w["catalogue"], w["options"], w["master"], i) for i in range(*bounds)]


def play_games(game: str, deck: Deck, catalogue: Catalogue, options: dict, seed: int, start: int,
               stop: int) -> Summary:
    """Games start..stop-1 of a run with master `seed`: one chunk, tallied like a whole run.

    Because every game's seed depends only on (seed, index), the chunks of a run merged with
    `merge` give exactly the summary `simulate` gives, however the games were split."""
    options = get_engine(game).normalize_options(options or {})
    part = Summary(game, stop - start, seed)
    _init_worker(game, deck.to_json(), catalogue, options, seed)
    _add(part, _play_range((start, stop)), 0, None)
    return part


def merge(game: str, games: int, seed: int, parts: list[dict[str, Any]]) -> Summary:
    """One run's summary from its chunks' `counts()` (their order does not matter)."""
    summary = Summary(game, games, seed)
    for counts in parts:
        summary.add_counts(counts)
    return summary


def simulate(game: str, deck: Deck, catalogue: Catalogue, games: int = 1000, seed: int = 0,
             options: dict | None = None, workers: int = 1,
             progress: Callable[[int, int], None] | None = None) -> Summary:
    """Play `games` automated games with the engine's built-in policy and summarise them."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"a simulation plays 1 to {MAX_GAMES:,} games, not {games}")
    engine = get_engine(game)
    options = engine.normalize_options(options or {})
    started = time.perf_counter()
    summary = Summary(game, games, seed)
    ranges = [(s, min(games, s + _CHUNK)) for s in range(0, games, _CHUNK)]
    workers = max(1, min(workers, os.cpu_count() or 1, len(ranges)))
    init = (game, deck.to_json(), catalogue, options, seed)
    done = 0
    if workers == 1:
        _init_worker(*init)
        for bounds in ranges:
            done = _add(summary, _play_range(bounds), done, progress)
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=init) as pool:
            for chunk in pool.map(_play_range, ranges):
                done = _add(summary, chunk, done, progress)
    summary.seconds = time.perf_counter() - started
    return summary


def _add(summary: Summary, chunk: list[GameResult], done: int, progress) -> int:
    for r in chunk:
        if r.win:
            summary.wins += 1
            summary.win_turns[r.turn] += 1
        else:
            summary.losses[loss_reason(r.reason)] += 1
        summary.stuck.update(r.stuck)
    done += len(chunk)
    if progress:
        progress(done, summary.games)
    return done
