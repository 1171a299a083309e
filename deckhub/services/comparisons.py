"""Two decks of one game compared on the same seeds, for the statistics tab's comparison page.

The first deck is one the user may read; the second is any deck of theirs or any public deck of the
same game (by number). Both play with the user's own card values on the game's default goldfish
settings. A comparison is a job on the queue, stored and played as a tuning run is (one round of two
arms: `deckhub.core.compare.ComparisonPlan`, source `tunings.COMPARISON`), with its progress, cancel
and the per-user limit of runs at once; the other deck's list is kept with the run, so a later edit
of it changes no finished comparison. `deckhub compare` plays the same comparison in its own process.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from deckhub.core.compare import ComparisonPlan
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, find_engine
from deckhub.core.simulate import MAX_GAMES
from deckhub.core.tuning import TuningError
from deckhub.services import card_values, tunings
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.decks import StoredDeck, user_decks, visible_deck
from deckhub.services.limits import seed_problem
from deckhub.games import get_game
from deckhub.store import models

DEFAULT_GAMES = 1000
RUNS_SHOWN = 10


class ComparisonError(tunings.TuningStartError):
    """A comparison that cannot start (the message says why; 429 for the limit of runs at once)."""


@dataclass
class Comparison:
    stored: StoredDeck
    choices: list[tuple[int, str]] = field(default_factory=list)  # (deck number, name): the user's decks of the game
    runs: list[models.TuningRun] = field(default_factory=list)  # the user's comparisons of this deck, newest first


def compare_page(user, deck_id: int) -> Comparison | None:
    """The comparison page of deck `deck_id`: the user's other decks of its game to pick from and
    their comparisons of it; None when the user may not read the deck."""
    stored = visible_deck(deck_id, user)
    if stored is None:
        return None
    signed_in = getattr(user, "is_authenticated", False)
    mine = user_decks(user) if signed_in else []
    page = Comparison(stored, [(row.id, row.name) for row, _n in mine if row.game == stored.row.game and row.id != deck_id])
    if signed_in:
        page.runs = tunings.runs_for(stored.row, RUNS_SHOWN, comparison=True, owner_id=user.id)
    return page


def start(user, deck_id: int, other_id: int, games: int, seed: int) -> models.TuningRun | None:
    """Queue the comparison of deck `deck_id` (A) with deck `other_id` (B) on `games` shared seeds;
    None when the user may not read deck A, ComparisonError saying why it cannot start."""
    stored = visible_deck(deck_id, user)
    if stored is None:
        return None
    game = stored.row.game
    other = visible_deck(other_id, user)
    if other is None or other.row.game != game:
        raise ComparisonError("There is no deck of yours, nor a public deck, of this game with that number.")
    if not 2 <= games <= MAX_GAMES:
        raise ComparisonError(f"A comparison plays 2 to {MAX_GAMES:,} games of each deck.")
    if problem := seed_problem(seed):
        raise ComparisonError(problem)
    engine = find_engine(game)
    if engine is None:
        raise ComparisonError("This game has no goldfish engine yet.")
    catalogue = get_catalogue(game)
    deck_a, deck_b = Deck.from_json(stored.version.data), Deck.from_json(other.version.data)
    deck_a.name, deck_b.name = stored.row.name, other.row.name
    values = {**card_values.game_values(user.id, game, deck_b, None, catalogue),
              **card_values.game_values(user.id, game, deck_a, None, catalogue)}
    options = {"card_values": values} if values and engine.option("card_values") else {}
    try:
        options = engine.normalize_options(options)
        plan = ComparisonPlan(game, deck_a, deck_b, catalogue, games=games, seed=seed, options=options)
    except (TuningError, EngineError, ValueError) as exc:
        raise ComparisonError(str(exc)) from None
    other_deck = {"a": deck_a.name, "b": deck_b.name, "deck": other.row.id, "version": other.version.number,
                  "list": deck_b.to_json()}
    return tunings.queue(user.id, stored.row, stored.version.number, plan, options, candidates=[other_deck],
                         source=tunings.COMPARISON, format_id=get_game(game).format(None).id, budget=games)


def own_comparison(user, deck_id: int, run_id: int) -> models.TuningRun | None:
    """The user's comparison `run_id` of deck `deck_id`, or None."""
    run = tunings.own_run(user.id, run_id, deck_id)
    return run if run is not None and run.candidate_source == tunings.COMPARISON else None


def cancel(user, deck_id: int, run_id: int) -> models.TuningRun | None:
    """Stop the user's comparison (harmless once it has ended); None when they have no such run."""
    if own_comparison(user, deck_id, run_id) is None:
        return None
    return tunings.cancel(user.id, run_id, deck_id)


job_status = tunings.job_status
