"""Simulations started from the browser: stored runs, played in a background thread.

The thread writes its progress to the run's row, so any worker can show it, and the result is
kept with the deck version it belongs to. A run whose row stops moving (its worker was stopped)
is shown as interrupted instead of running forever.
"""
from __future__ import annotations

import datetime as dt
import threading

from deckhub import card_values, models
from deckhub.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, get_engine
from deckhub.core.session_values import CARD_VALUES
from deckhub.core.simulate import MAX_GAMES, simulate
from deckhub.db import database

STALE_AFTER = dt.timedelta(minutes=3)
_threads: list[threading.Thread] = []


class SimulationError(ValueError):
    pass


class UnknownValues(SimulationError):
    """The engine needs card values nobody gave: `missing` is {card key: [field, ...]}."""

    def __init__(self, message: str, missing: dict[str, list[str]]):
        super().__init__(message)
        self.missing = missing


def start(owner_id: int, deck_row: models.Deck, version: models.DeckVersion, games: int, seed: int,
          options: dict, allow_unknown: bool = False) -> models.SimulationRun:
    """Store a run and start it. It plays with the owner's card values (values typed with the options
    are kept as theirs); while the engine still lacks some, it does not start (UnknownValues naming
    them) unless `allow_unknown`, and then the run records which values it played without."""
    if not 1 <= games <= MAX_GAMES:
        raise SimulationError(f"A simulation plays 1 to {MAX_GAMES:,} games.")
    engine = get_engine(deck_row.game)
    catalogue = get_catalogue(deck_row.game)
    deck = Deck.from_json(version.data)
    try:
        options, typed = card_values.game_options(owner_id, engine, deck, catalogue, options)
        options = engine.normalize_options(options)
        missing = card_values.deck_missing(engine, deck, catalogue, options.get(CARD_VALUES) or {})
    except (EngineError, card_values.CardValuesError) as exc:
        raise SimulationError(str(exc)) from None
    card_values.remember(owner_id, deck_row.game, typed)
    if missing and not allow_unknown:
        raise UnknownValues(f"This simulation needs values the catalogue does not know for {len(missing)} card"
                            f"{'s' if len(missing) != 1 else ''}: {card_values.describe_missing(catalogue, engine, missing, 12)}. "
                            "Enter them, or play anyway with unknown values (the results will say so).", missing)
    run = models.SimulationRun.create(deck=deck_row, version=version.number, owner=owner_id, game=deck_row.game,
                                      games=games, seed=seed, options=options, unknown=missing or None)
    thread = threading.Thread(target=_play, args=(run.id, version.data), name=f"simulation-{run.id}", daemon=True)
    _threads.append(thread)
    thread.start()
    return run


def _update(run_id: int, **values) -> None:
    values["updated_at"] = models.utcnow()
    models.SimulationRun.update(**values).where(models.SimulationRun.id == run_id).execute()


def _play(run_id: int, deck_data: dict) -> None:
    with database.connection_context():
        run = models.SimulationRun.get_by_id(run_id)
        _update(run_id, status="running")
        step = max(1, run.games // 20)

        def progress(done: int, total: int) -> None:
            if done == total or done % step < 250:
                _update(run_id, done=done)
        try:
            catalogue = get_catalogue(run.game)
            summary = simulate(run.game, Deck.from_json(deck_data), catalogue, run.games, run.seed,
                               run.options, workers=1, progress=progress)
        except Exception as exc:  # a failed run says why on the page; the site keeps going
            _update(run_id, status="failed", error=str(exc)[:2000])
            return
        _update(run_id, status="done", done=run.games, result=summary.to_json(),
                stuck=[list(row) for row in summary.stuck_cards(catalogue, 10)])


def runs_for(deck_row: models.Deck, limit: int = 20) -> list[models.SimulationRun]:
    return list(models.SimulationRun.select().where(models.SimulationRun.deck == deck_row)
                .order_by(models.SimulationRun.id.desc()).limit(limit))


def comparable_runs(user, game: str, exclude_deck_id: int, limit: int = 30) -> list[models.SimulationRun]:
    """The user's finished runs of other decks of the same game, to set beside this deck's."""
    return list(models.SimulationRun.select(models.SimulationRun, models.Deck).join(models.Deck)
                .where((models.SimulationRun.owner == user) & (models.SimulationRun.game == game)
                       & (models.SimulationRun.status == "done") & (models.SimulationRun.deck != exclude_deck_id))
                .order_by(models.SimulationRun.id.desc()).limit(limit))


def status(run: models.SimulationRun) -> str:
    if run.status in ("queued", "running") and models.utcnow() - run.updated_at > STALE_AFTER:
        return "interrupted"
    return run.status


def wait_all(timeout: float = 60) -> None:
    """Wait for the background runs of this process (tests, and a clean shutdown)."""
    for thread in list(_threads):
        thread.join(timeout)
    _threads[:] = [t for t in _threads if t.is_alive()]
