"""Thousands of automated goldfish games of one deck, and what they say about it.

Game i of a run plays with a seed derived only from (master seed, i), and the summary is built
from per-game results in game order, so the same inputs give the same numbers however many
worker processes share the work. Only `games_per_second` depends on the machine.

Besides wins and winning turns, every game reports for each distinct card when it first reached
the hand (0: in the opening hand, the hand kept once any mulligan is decided) and when a copy first
left the hand for play, and whether the player went first: the observed card impact and the split
by turn order are tallies of those, so they need no extra games and merge like the rest.
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
from deckhub.core.engine import get_engine, new_game
from deckhub.core.mulligan import MulliganPolicy
from deckhub.core.state import EngineError, State

MAX_GAMES = 100_000
_CHUNK = 250
TURN_ORDER = "turn_order"  # the run option "random": first="random" (each game draws its order)
MULLIGAN_POLICY = "mulligan_policy"  # the run option naming a mulligan policy (deckhub.core.mulligan)
MULLIGAN_STEP = "mulligan"  # the phase (or pending choice's op) in which the opening hand is decided
SETUP_STEP = "setup"  # a phase before the first turn (Battledome's): the opening hand may still change


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
    first: bool = True  # went first (a game without a turn order counts as going first)
    cards: tuple[tuple[str, int, int], ...] = ()  # (card key, turn first in hand or -1, turn first played or -1)
    mulliganed: bool = False  # the run's mulligan policy sent the opening hand back


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
    # card key -> {"opening": tally, "played": tally, "drawn": {turn first in hand: tally}}, where a
    # tally is [games, wins, sum of winning turns]; and "first"/"second" -> [games, wins, {turn: wins}]
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    orders: dict[str, list] = field(default_factory=dict)
    mulligans: int = 0  # games whose opening hand the run's mulligan policy sent back

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def median(self) -> float | None:
        return win_turn_json(self.win_turns)["median"]

    def to_json(self, catalogue: Catalogue | None = None, drawn_by: int | None = None) -> dict[str, Any]:
        """The run as JSON; card names come from `catalogue` (keys without one), and the observed
        impact's "drawn by" turn is `drawn_by` (default: the median winning turn)."""
        turn = drawn_by if drawn_by is not None else impact_turn(self)
        return {
            "game": self.game, "games": self.games, "seed": self.seed, "wins": self.wins,
            "win_rate": round(self.win_rate, 6), "losses": dict(sorted(self.losses.items())),
            "win_turn": win_turn_json(self.win_turns),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "by_turn_order": {side: {"games": g, "wins": w, "win_turn": win_turn_json(Counter(turns))}
                              for side, (g, w, turns) in sorted(self.orders.items())},
            "mulligans": self.mulligans,
            "card_impact_turn": turn,
            "card_impact": card_impact(self, catalogue, turn),
        }

    def counts(self) -> dict[str, Any]:
        """The tallies alone, as JSON: a chunk's share of a run, to be merged with `merge`."""
        return {"games": self.games, "wins": self.wins, "losses": dict(self.losses),
                "win_turns": {str(t): n for t, n in self.win_turns.items()}, "stuck": dict(self.stuck),
                "mulligans": self.mulligans,
                "cards": {k: {"opening": v["opening"], "played": v["played"],
                              "drawn": {str(t): tally for t, tally in v["drawn"].items()}}
                          for k, v in self.cards.items()},
                "orders": {side: [g, w, {str(t): n for t, n in turns.items()}]
                           for side, (g, w, turns) in self.orders.items()}}

    def add_counts(self, counts: dict[str, Any]) -> None:
        self.wins += counts["wins"]
        self.losses.update(counts["losses"])
        self.win_turns.update({int(t): n for t, n in counts["win_turns"].items()})
        self.stuck.update(counts["stuck"])
        self.mulligans += counts.get("mulligans", 0)
        for key, tallies in counts.get("cards", {}).items():
            mine = self._card(key)
            _sum_into(mine["opening"], tallies["opening"])
            _sum_into(mine["played"], tallies["played"])
            for t, tally in tallies["drawn"].items():
                _sum_into(mine["drawn"].setdefault(int(t), [0, 0, 0]), tally)
        for side, (g, w, turns) in counts.get("orders", {}).items():
            mine = self.orders.setdefault(side, [0, 0, Counter()])
            mine[0] += g
            mine[1] += w
            mine[2].update({int(t): n for t, n in turns.items()})

    def _card(self, key: str) -> dict[str, Any]:
        tallies = self.cards.get(key)
        if tallies is None:
            tallies = self.cards[key] = {"opening": [0, 0, 0], "played": [0, 0, 0], "drawn": {}}
        return tallies

    def add_game(self, r: GameResult) -> None:
        """One game's result into the tallies."""
        if r.win:
            self.wins += 1
            self.win_turns[r.turn] += 1
        else:
            self.losses[loss_reason(r.reason)] += 1
        self.stuck.update(r.stuck)
        self.mulligans += r.mulliganed
        won, turn = int(r.win), r.turn if r.win else 0
        side = self.orders.setdefault("first" if r.first else "second", [0, 0, Counter()])
        side[0] += 1
        side[1] += won
        if r.win:
            side[2][r.turn] += 1
        for key, drawn, played in r.cards:
            tallies = self._card(key)
            if drawn == 0:
                _sum_into(tallies["opening"], (1, won, turn))
            if drawn >= 0:
                _sum_into(tallies["drawn"].setdefault(drawn, [0, 0, 0]), (1, won, turn))
            if played >= 0:
                _sum_into(tallies["played"], (1, won, turn))

    def stuck_cards(self, catalogue: Catalogue, top: int = 10) -> list[tuple[str, int, float]]:
        """(card name, games, share of games) for the cards most often left in hand at the end."""
        rows = []
        for key, n in sorted(self.stuck.items(), key=lambda kv: (-kv[1], kv[0]))[:top]:
            card = catalogue.get(key)
            rows.append((card.display_name if card else key, n, n / self.games))
        return rows


def _sum_into(total: list, tally) -> None:
    for i, n in enumerate(tally):
        total[i] += n


def win_turn_json(win_turns: Counter) -> dict[str, Any]:
    """Mean, median, 10th and 90th percentile and histogram of winning turns (None without wins)."""
    wins = sum(win_turns.values())
    if not wins:
        return {"mean": None, "median": None, "p10": None, "p90": None, "histogram": {}}
    turns = sorted(win_turns.elements())
    mid = len(turns) // 2

    def rank(p: float) -> int:
        return turns[max(1, math.ceil(p / 100 * wins)) - 1]
    return {"mean": round(sum(turns) / wins, 4),
            "median": float(turns[mid]) if wins % 2 else (turns[mid - 1] + turns[mid]) / 2,
            "p10": rank(10), "p90": rank(90),
            "histogram": {str(t): n for t, n in sorted(win_turns.items())}}


def impact_turn(summary: Summary) -> int:
    """The default "drawn by" turn of the observed impact: the median winning turn, rounded down
    (1 without wins)."""
    median = summary.median()
    return max(1, int(median)) if median is not None else 1


def _group(games: int, wins: int, turns: int, suffix: str) -> dict[str, Any]:
    return {f"games_{suffix}": games, f"wins_{suffix}": wins,
            f"win_rate_{suffix}": round(wins / games, 4) if games else None,
            f"mean_turn_{suffix}": round(turns / wins, 4) if wins else None}


def card_impact(summary: Summary, catalogue: Catalogue | None, turn: int) -> list[dict[str, Any]]:
    """Observed impact of each distinct card: win rate and mean winning turn of the games where a
    copy was in the opening hand, reached the hand by `turn`, was played, or never reached the hand.
    Observed, not causal: a card drawn late is drawn in longer games (see `deckhub impact`)."""
    total_turns = sum(t * n for t, n in summary.win_turns.items())
    rows = []
    for key, tallies in summary.cards.items():
        by = [0, 0, 0]
        ever = [0, 0, 0]
        for t, tally in tallies["drawn"].items():
            _sum_into(ever, tally)
            if t <= turn:
                _sum_into(by, tally)
        card = catalogue.get(key) if catalogue is not None else None
        row = {"card": card.display_name if card else key, "key": key,
               **_group(*tallies["opening"], "opening_hand"), **_group(*by, "drawn_by"),
               **_group(summary.games - ever[0], summary.wins - ever[1], total_turns - ever[2], "never_drawn"),
               **_group(*tallies["played"], "played")}
        rows.append(row)
    return sorted(rows, key=lambda r: (r["card"], r["key"]))


def mulligan_offered(engine) -> bool:
    """Whether the game's rules (its engine) offer a mulligan a policy can take."""
    return engine.state_class.mulligan_action is not State.mulligan_action


def run_options(game: str, options: dict | None) -> dict:
    """The engine's options with their defaults, plus the run's own mulligan policy. `turn_order`
    "random" is kept as another way of saying `first="random"` (each game draws its own order from
    its seed; only for a game with a `first` option)."""
    options = dict(options or {})
    order = options.pop(TURN_ORDER, None)
    policy = options.pop(MULLIGAN_POLICY, None)
    engine = get_engine(game)
    if order not in (None, "", "fixed"):
        if order != "random":
            raise EngineError(f"{TURN_ORDER} is \"random\" (or not given), not {order!r}")
        if engine.option("first") is None:
            raise EngineError(f"{game} has no choice of going first or second")
        options["first"] = "random"
    normal = engine.normalize_options(options)
    if policy not in (None, ""):
        MulliganPolicy.parse(policy)  # refused here, before any game, when it cannot be read
        if not mulligan_offered(engine):
            raise EngineError(f"the rules of {game} offer no mulligan")
        if engine.option("mulligan") is not None:
            normal["mulligan"] = True  # a game whose mulligan is a setting: a policy turns it on
        normal[MULLIGAN_POLICY] = policy
    return normal


def game_options(options: dict) -> dict:
    """The engine options a game plays with: the run's, without its mulligan policy (which
    `play_tracked` plays)."""
    if MULLIGAN_POLICY not in options:
        return options
    return {k: v for k, v in options.items() if k != MULLIGAN_POLICY}


def mulligan_now(state) -> bool:
    """True while the rules' mulligan is being decided (its phase, or its pending choice)."""
    pending = state.pending
    return state.phase == MULLIGAN_STEP or (pending is not None and pending.op[:1] == (MULLIGAN_STEP,))


def deciding_hand(state) -> bool:
    """True while the opening hand may still change: in setup or the mulligan."""
    return state.phase == SETUP_STEP or mulligan_now(state)


def play_tracked(state, mulligan: MulliganPolicy | None = None) -> tuple[dict[str, int], dict[str, int], bool]:
    """Play `state` out with its policy (the opening hand decided by `mulligan` when given), noting for each card key the turn a copy first reached the
    hand (0: the opening hand) and the turn a copy first left the hand for play (any zone but the
    deck and the game's `UNPLAYED_ZONES`, such as Kaijudo's mana zone); and whether the hand went back."""
    hand_zone, choose = state.HAND_ZONE, state.engine.policy
    unplayed = {state.DECK_ZONE, hand_zone, *state.UNPLAYED_ZONES}
    cards, where = state.cards, state.where
    drawn: dict[str, int] = {}
    played: dict[str, int] = {}
    opening = True
    redraw = None
    hand = set(state.zones[hand_zone])
    for _ in range(100_000):
        if state.outcome is not None:
            break
        if opening and not deciding_hand(state):
            opening = False
            drawn.update({cards[i].key: 0 for i in state.zones[hand_zone]})
            hand = set(state.zones[hand_zone])
        if mulligan is not None and mulligan_now(state):
            if redraw is None:  # decided once, on the hand dealt (the rules offer one mulligan)
                redraw = mulligan.redraw(cards[i] for i in state.zones[hand_zone])
            state.apply_action(state.mulligan_action(redraw))
            continue
        state.apply_action(choose(state))
        if opening:
            continue
        now = state.zones[hand_zone]
        turn = state.turn
        for i in hand.difference(now):
            if where[i] not in unplayed:
                played.setdefault(cards[i].key, turn)
        for i in now:
            drawn.setdefault(cards[i].key, turn)
        hand = set(now)
    if state.outcome is None:
        raise EngineError("the game did not end within 100,000 actions")
    return drawn, played, bool(redraw)


def play_one(game: str, deck: Deck, catalogue: Catalogue, options: dict, master: int, index: int) -> GameResult:
    policy = options.get(MULLIGAN_POLICY)
    options = game_options(options)
    state = new_game(game, deck, catalogue, game_seed(master, index), options)
    drawn, played, mulliganed = play_tracked(state, _policy(policy) if policy else None)
    hand = state.zones.get(state.HAND_ZONE, [])
    stuck = tuple(sorted({state.cards[i].key for i in hand}))
    outcome = state.outcome
    keys = sorted(set(drawn) | set(played))
    cards = tuple((k, drawn.get(k, -1), played.get(k, -1)) for k in keys)
    return GameResult(index, outcome.result == "win", outcome.turn, outcome.reason, stuck,
                      getattr(state, "first", True), cards, mulliganed)


_policies: dict[str, MulliganPolicy] = {}


def _policy(text: str) -> MulliganPolicy:
    """A run's mulligan policy, parsed once per process."""
    found = _policies.get(text)
    if found is None:
        found = _policies[text] = MulliganPolicy.parse(text)
    return found


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
    options = run_options(game, options)
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
    options = run_options(game, options)
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
        summary.add_game(r)
    done += len(chunk)
    if progress:
        progress(done, summary.games)
    return done
