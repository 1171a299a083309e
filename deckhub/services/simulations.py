"""Simulations: stored runs of N automated games, played as chunks by the job queue's workers.

`start` is the one way to begin a run (the form, the API and any command call it): it checks the
limits and writes the run with its chunks in one exclusive transaction; its chunks wait and are sent
to the queue a few at a time per owner (`chunks.feed`), so one player's runs never hold back another's
(when the queue cannot be reached the run is kept, says it waits, and the sweep sends it). A chunk
lives as every kind's does (`chunks.ChunkRuns`), and the run is merged from the finished chunks, so
a chunk played twice (its worker was killed) still counts once and the summary is exactly
`deckhub simulate`'s for the same deck, seed and options, whatever the split.
"""
from __future__ import annotations


from peewee import fn

from deckhub.services import card_values, chunks, jobs
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, get_engine, value_words
from deckhub.core.options import TURN_ORDER_WORDS
from deckhub.core.session_values import CARD_VALUES, value_field
from deckhub.core.simulate import MAX_GAMES, MULLIGAN_POLICY, TURN_ORDER, merge, play_games, run_options
from deckhub.services.limits import MAX_ACTIVE_RUNS, seed_problem

CHUNK_GAMES = 1000  # games a task plays: small enough that a lost chunk costs little to replay
MAX_ACTIVE_PER_USER = MAX_ACTIVE_RUNS  # runs of one user queued or running at once (see limits)
MAX_ACTIVE_TOTAL = 50  # runs queued or running on the whole site
LOCK_KEY = 18_001  # the exclusive transaction in which active runs (simulations and tunings) are counted
_chunk_games = {"n": CHUNK_GAMES}


class SimulationError(ValueError):
    """A run that cannot start; `status` is the HTTP status the API answers with."""

    status = 400


class SimulationLimit(SimulationError):
    status = 429


def set_chunk_games(n: int) -> None:
    """Games per chunk for runs started from now on (tests use small chunks to have many)."""
    _chunk_games["n"] = max(1, int(n))


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
    if problem := seed_problem(seed):
        raise SimulationError(problem)
    engine = get_engine(deck_row.game)
    catalogue = get_catalogue(deck_row.game)
    deck = Deck.from_json(version.data)
    try:
        options, typed = card_values.game_options(owner_id, engine, deck, catalogue, options)
        options = run_options(deck_row.game, options)
        missing = card_values.deck_missing(engine, deck, catalogue, options.get(CARD_VALUES) or {})
    except (EngineError, card_values.CardValuesError) as exc:
        raise SimulationError(str(exc)) from None
    card_values.remember(owner_id, deck_row.game, typed)
    if missing and not allow_unknown:
        raise UnknownValues(f"This simulation needs values the catalogue does not know for {len(missing)} card"
                            f"{'s' if len(missing) != 1 else ''}: {card_values.describe_missing(catalogue, engine, missing, 12)}. "
                            "Enter them, or play anyway with unknown values (the results will say so).", missing)
    size = _chunk_games["n"]
    with jobs.exclusive(LOCK_KEY):
        check_active_limits(owner_id)
        run = models.SimulationRun.create(deck=deck_row, version=version.number, owner=owner_id, game=deck_row.game,
                                          games=games, seed=seed, options=options, unknown=missing or None)
        models.SimulationChunk.insert_many(
            [{"run": run.id, "number": n, "start": s, "stop": min(games, s + size), "state": "waiting"}
             for n, s in enumerate(range(0, games, size))]).execute()
    chunks.feed(owner_id)
    return models.SimulationRun.get_by_id(run.id)


def check_active_limits(owner_id: int) -> None:
    """SimulationLimit when the user, or the site, has too many runs queued or running. Tuning runs
    count with simulations: both play thousands of games. Call inside `jobs.exclusive(LOCK_KEY)`
    with the insert of the new run, so concurrent requests cannot both pass."""
    counts = [0, 0]
    for model in (models.SimulationRun, models.TuningRun):
        active = model.status.in_(jobs.ACTIVE)
        counts[0] += model.select().where(active & (model.owner == owner_id)).count()
        counts[1] += model.select().where(active).count()
    if counts[0] >= MAX_ACTIVE_PER_USER:
        raise SimulationLimit(f"You already have {counts[0]} simulations queued or running (at most "
                              f"{MAX_ACTIVE_PER_USER}, tuning runs included); wait for one to finish or cancel one.")
    if counts[1] >= MAX_ACTIVE_TOTAL:
        raise SimulationLimit(f"The site is busy: {MAX_ACTIVE_TOTAL} simulations are queued or running. "
                              "Try again in a few minutes.")


def _deck(run: models.SimulationRun) -> Deck:
    """The deck version a run plays, read for each chunk: one indexed row, nothing next to a
    chunk's games, and never stale (a deleted deck's id may be used again on SQLite)."""
    row = models.DeckVersion.get((models.DeckVersion.deck == run.deck_id) & (models.DeckVersion.number == run.version))
    return Deck.from_json(row.data)


class _Simulations(chunks.ChunkRuns):
    """A chunk plays games start..stop-1; the run is merged once every chunk is done."""

    kind, label = "simulation", "run"
    chunk_model, run_model = models.SimulationChunk, models.SimulationRun

    def play(self, run, chunk):
        return play_games(run.game, _deck(run), get_catalogue(run.game), run.options, run.seed,
                          chunk.start, chunk.stop).counts()

    def progress(self, run_id: int) -> int:
        C = models.SimulationChunk
        return C.select(fn.COALESCE(fn.SUM(C.stop - C.start), 0)).where((C.run == run_id) & (C.state == "done")).scalar()

    def settle(self, run_id: int) -> bool:
        return finish(run_id)

    def played(self, run, chunk, counted: bool) -> str:
        text = f"played games {chunk.start}-{chunk.stop - 1} of run {run.id}"
        return text if counted else f"{text}; not counted (queued again meanwhile)"


_RUNS = _Simulations()
cancel = _RUNS.cancel
own_run = _RUNS.own


@jobs.task
@jobs.kind("simulation")
def play_chunk(chunk_id: int) -> str:
    """Play one chunk; returns what happened, for the worker's log."""
    return _RUNS.run_chunk(chunk_id)


_RUNS.register(play_chunk)


def finish(run_id: int) -> bool:
    """Merge a run whose chunks are all done into its summary (once: the update is conditional)."""
    C, R = models.SimulationChunk, models.SimulationRun
    run = R.get_by_id(run_id)
    if run.status not in jobs.ACTIVE:
        return False
    chunks_done = list(C.select(C.state, C.result).where(C.run == run_id).order_by(C.number))
    if not chunks_done or any(c.state != "done" for c in chunks_done):
        return False
    summary = merge(run.game, run.games, run.seed, [c.result for c in chunks_done])
    seconds = (models.utcnow() - run.created_at).total_seconds()
    summary.seconds = max(seconds, 1e-6)
    catalogue = get_catalogue(run.game)
    stuck = [list(row) for row in summary.stuck_cards(catalogue, 10)]
    return bool(R.update(status="done", done=run.games, result=summary.to_json(catalogue), stuck=stuck, updated_at=models.utcnow())
                .where((R.id == run_id) & R.status.in_(jobs.ACTIVE)).execute())




def runs_for(deck_row: models.Deck, limit: int = 20) -> list[models.SimulationRun]:
    return list(models.SimulationRun.select().where(models.SimulationRun.deck == deck_row)
                .order_by(models.SimulationRun.id.desc()).limit(limit))


def comparable_runs(user, game: str, exclude_deck_id: int, limit: int = 30) -> list[models.SimulationRun]:
    """The user's finished runs of other decks of the same game, to set beside this deck's."""
    return list(models.SimulationRun.select(models.SimulationRun, models.Deck).join(models.Deck)
                .where((models.SimulationRun.owner == user) & (models.SimulationRun.game == game)
                       & (models.SimulationRun.status == "done") & (models.SimulationRun.deck != exclude_deck_id))
                .order_by(models.SimulationRun.id.desc()).limit(limit))


def settings(run: models.SimulationRun) -> dict:
    """What a run played with, in the words of the forms that set it: every option (a default it was
    not given included), the card values it used, its seed, games and deck version. For its page and
    its JSON; `name`/`card`/`field` are the keys a script sends, `label`/`shown` what a player reads."""
    engine = get_engine(run.game)
    catalogue = get_catalogue(run.game)
    chosen = run.options or {}
    options = [{"name": o.name, "label": o.label, "value": (value := chosen.get(o.name, o.default)),
                # a run of before the three turn orders kept the go-first box's yes/no: read as go first/second
                "shown": TURN_ORDER_WORDS[o.coerce(value)] if o.kind == "turn_order" else value_words(value)}
               for o in engine.options if o.name != CARD_VALUES]
    values = []
    for key, fields in sorted((chosen.get(CARD_VALUES) or {}).items()):
        card = catalogue.get(key)
        for name, value in fields.items():
            field = value_field(engine, name)
            values.append({"card": key, "card_name": card.display_name if card else key, "field": name,
                           "label": field.label if field else name.replace("_", " "), "value": value,
                           "shown": value_words(value)})
    for name, label in ((TURN_ORDER, "turn order"), (MULLIGAN_POLICY, "mulligan policy")):
        if chosen.get(name):
            options.append({"name": name, "label": label, "value": chosen[name], "shown": value_words(chosen[name])})
    return {"deck_version": run.version, "games": run.games, "seed": run.seed, "options": options,
            "card_values": values}


def job_status(run: models.SimulationRun) -> jobs.JobStatus:
    return _RUNS.job_status(run, run.games)
