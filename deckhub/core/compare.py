"""Two decks of one game side by side, played on the same seeds.

Game i of both decks plays with `game_seed(seed, i)` (common random numbers, as tuning's variants),
so the difference in mean winning-turn score is measured game by game: `delta` is B's mean score
minus A's (positive: B wins later), with its paired 95% interval. A game not won scores the turn
limit plus one. A deck compared with itself plays the very same games, so its delta is exactly 0.
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from deckhub.core.cards import Catalogue
from deckhub.core.deckdiff import diff_decks
from deckhub.core.decklist import Deck
from deckhub.core.simulate import MAX_GAMES, run_options, win_turn_json
from deckhub.core.tuning import Arm, Player, TuningError, paired, score_limit

_CHUNK = 250


def _side(arm: Arm, label: str) -> dict[str, Any]:
    turns = Counter(s for s, won in zip(arm.scores, arm.wins) if won)
    wins = sum(arm.wins)
    return {"deck": label, "games": len(arm.scores), "wins": wins,
            "win_rate": round(wins / len(arm.scores), 6) if arm.scores else 0.0, "win_turn": win_turn_json(turns)}


class ComparisonPlan:
    """A comparison as one round of two arms (A is arm 0, B arm 1), in the shape a tuning run's Tuner
    has (`plan`, `arms`, `tasks`, `record`, `total`, `played`, `arm_options`), so the job queue plays
    it as it plays tuning rounds; `result()` gives `compare`'s answer once every game is recorded."""

    def __init__(self, game: str, deck_a: Deck, deck_b: Deck, catalogue: Catalogue, *, games: int = 1000,
                 seed: int = 0, options: dict | None = None, options_b: dict | None = None):
        if not 2 <= games <= MAX_GAMES:
            raise TuningError(f"a comparison plays 2 to {MAX_GAMES:,} games of each deck, not {games}")
        if deck_a.game != game or deck_b.game != game:
            raise TuningError("both decks must be of the game compared")
        given = dict(options or {})
        self.game, self.catalogue, self.seed, self.games = game, catalogue, seed, games
        self.options = run_options(game, given)
        self.options_b = run_options(game, {**given, **options_b}) if options_b else self.options
        self.limit = score_limit(game, self.options)
        self.arms = [Arm(None, deck_a), Arm(None, deck_b)]
        self.plan = [(1, games)]
        self.total = 2 * games

    @property
    def played(self) -> int:
        return sum(len(a.scores) for a in self.arms)

    def arm_options(self, arm: int) -> dict:
        return self.options_b if arm == 1 else self.options

    def tasks(self, round_no: int) -> list[tuple[int, int, int]]:
        return [(i, len(a.scores), self.games) for i, a in enumerate(self.arms) if len(a.scores) < self.games]

    def record(self, arm: int, start: int, games: list[tuple[int, bool]]) -> None:
        a = self.arms[arm]
        if start != len(a.scores):
            raise TuningError(f"deck {'AB'[arm]}: games from {start} recorded after {len(a.scores)}")
        a.scores.extend(score for score, _ in games)
        a.wins.extend(bool(won) for _, won in games)

    def result(self) -> dict[str, Any]:
        """{"a", "b", "delta", "ci", "games", "seed", "cards", "settings"} (see `compare`)."""
        arms, catalogue = self.arms, self.catalogue
        delta, ci = paired(arms[1], arms[0])

        def name(key: str) -> str:
            card = catalogue.get(key)
            return card.display_name if card else key
        deck_a, deck_b = arms[0].deck, arms[1].deck
        cards = [{"section": c.section, "card": name(c.card_key), "key": c.card_key, "a": c.before, "b": c.after}
                 for c in diff_decks(deck_a, deck_b)]
        return {"a": _side(arms[0], deck_a.name or "A"), "b": _side(arms[1], deck_b.name or "B"),
                "delta": round(delta, 4), "ci": [round(ci[0], 4), round(ci[1], 4)], "games": self.games,
                "seed": self.seed, "cards": cards,
                "settings": {"options": {k: v for k, v in self.options.items() if k != "card_values"},
                             "options_b": {k: v for k, v in self.options_b.items() if k != "card_values"},
                             "score": f"winning turn; a game not won scores {self.limit + 1}",
                             "delta_means": "B's mean score minus A's over the same seeds: positive, B wins later"}}


def compare(game: str, deck_a: Deck, deck_b: Deck, catalogue: Catalogue, *, games: int = 1000, seed: int = 0,
            options: dict | None = None, workers: int = 1, options_b: dict | None = None) -> dict[str, Any]:
    """{"a", "b", "delta", "ci", "games", "seed", "cards", "settings"}: each deck's win rate and
    winning-turn distribution, the paired difference B - A, and the card lists' differences.
    `options_b`: B plays with these changes to the options (e.g. another mulligan policy), so one
    deck can be compared with itself under two choices on the same seeds."""
    plan = ComparisonPlan(game, deck_a, deck_b, catalogue, games=games, seed=seed, options=options,
                          options_b=options_b)
    ranges = [(s, min(games, s + _CHUNK)) for s in range(0, games, _CHUNK)]
    with Player(game, catalogue, plan.options, seed, plan.limit, workers) as player:
        for i, arm in enumerate(plan.arms):
            for (start, _stop), played in zip(ranges, player.play([(arm.deck, s, e) for s, e in ranges],
                                                                   plan.arm_options(i))):
                plan.record(i, start, played)
    return plan.result()
