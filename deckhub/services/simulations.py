"""Simulations: stored runs of N automated games, played as chunks by the job queue's workers.

`start` is the one way to begin a run (the form, the API and any command call it): it checks the
limits and writes the run with its chunks in one exclusive transaction; its chunks wait and are sent
to the queue a few at a time per owner (`jobs.feed`), so one player's runs never hold back another's
(when the queue cannot be reached the run is kept, says it waits, and the sweep sends it). A chunk
is claimed and finished with conditional updates, and the run is merged from the
finished chunks, so a chunk played twice (its worker was killed) still counts once and the summary
is exactly `deckhub simulate`'s for the same deck, seed and options, whatever the split.
"""
from __future__ import annotations


from peewee import fn

from deckhub.services import card_values, heartbeats, jobs
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, get_engine, value_words
from deckhub.core.session_values import CARD_VALUES, value_field
from deckhub.core.simulate import MAX_GAMES, merge, play_games
from deckhub.store.db import database
from deckhub.services.limits import MAX_ACTIVE_RUNS, MAX_SEED

CHUNK_GAMES = 1000  # games a task plays: small enough that a lost chunk costs little to replay
MAX_ACTIVE_PER_USER = MAX_ACTIVE_RUNS  # runs of one user queued or running at once (see limits)
MAX_ACTIVE_TOTAL = 50  # runs queued or running on the whole site
UNSTARTED = ("waiting", "queued")  # chunk states a cancel drops: waiting its owner's turn, or sent
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


def check_seed(seed: int, error: type[SimulationError] = SimulationError) -> None:
    """A run's seed fits the runs' seed column (and replays the same games everywhere)."""
    if not 0 <= seed <= MAX_SEED:
        raise error(f"A seed is a whole number from 0 to {MAX_SEED:,}.")


def start(owner_id: int, deck_row: models.Deck, version: models.DeckVersion, games: int, seed: int,
          options: dict, allow_unknown: bool = False) -> models.SimulationRun:
    """Store a run and start it. It plays with the owner's card values (values typed with the options
    are kept as theirs); while the engine still lacks some, it does not start (UnknownValues naming
    them) unless `allow_unknown`, and then the run records which values it played without."""
    if not 1 <= games <= MAX_GAMES:
        raise SimulationError(f"A simulation plays 1 to {MAX_GAMES:,} games.")
    check_seed(seed)
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
    size = _chunk_games["n"]
    with jobs.exclusive(LOCK_KEY):
        check_active_limits(owner_id)
        run = models.SimulationRun.create(deck=deck_row, version=version.number, owner=owner_id, game=deck_row.game,
                                          games=games, seed=seed, options=options, unknown=missing or None)
        models.SimulationChunk.insert_many(
            [{"run": run.id, "number": n, "start": s, "stop": min(games, s + size), "state": "waiting"}
             for n, s in enumerate(range(0, games, size))]).execute()
    jobs.feed(owner_id)
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


def cancel(owner_id: int, run_id: int, deck_id: int | None = None) -> models.SimulationRun | None:
    """Stop a queued or running run of the owner's (chunks not yet started are dropped).

    Returns the run (also when it had already ended: cancelling twice is harmless), or None when
    the owner has no such run (of that deck, when `deck_id` is given)."""
    run = own_run(owner_id, run_id)
    if run is None or (deck_id is not None and run.deck_id != deck_id):
        return None
    with database.atomic():
        changed = (models.SimulationRun.update(status="cancelled", updated_at=models.utcnow())
                   .where((models.SimulationRun.id == run_id) & models.SimulationRun.status.in_(jobs.ACTIVE)).execute())
        if changed:
            (models.SimulationChunk.update(state="cancelled", updated_at=models.utcnow())
             .where((models.SimulationChunk.run == run_id) & models.SimulationChunk.state.in_(UNSTARTED)).execute())
    if changed:
        jobs.feed(owner_id)  # the owner's other runs take the window this one leaves
    return models.SimulationRun.get_by_id(run_id)


def _deck(run: models.SimulationRun) -> Deck:
    """The deck version a run plays, read for each chunk: one indexed row, nothing next to a
    chunk's games, and never stale (a deleted deck's id may be used again on SQLite)."""
    row = models.DeckVersion.get((models.DeckVersion.deck == run.deck_id) & (models.DeckVersion.number == run.version))
    return Deck.from_json(row.data)


@jobs.task
@jobs.kind("simulation")
def play_chunk(chunk_id: int) -> str:
    """Play one chunk; returns what happened, for the worker's log."""
    C, R = models.SimulationChunk, models.SimulationRun
    chunk = C.get_or_none(C.id == chunk_id)
    if chunk is None:
        return "skipped: the run was deleted with its deck"
    run = R.get_by_id(chunk.run_id)
    me = jobs.worker_id()
    if run.status not in jobs.ACTIVE:
        return f"skipped: run {run.id} is {run.status}"
    claimed = (C.update(state="running", worker=me, updated_at=models.utcnow())
               .where((C.id == chunk_id) & (C.state == "queued")).execute())
    if not claimed:
        return f"skipped: another worker has this chunk of run {run.id}, or it is done"  # a duplicate message
    R.update(status="running", error=None, updated_at=models.utcnow()).where((R.id == run.id) & (R.status == "queued")).execute()
    try:
        part = play_games(run.game, _deck(run), get_catalogue(run.game), run.options, run.seed, chunk.start, chunk.stop)
    except Exception as exc:  # a failed run says why on its page; the site keeps going
        with database.atomic():
            R.update(status="failed", error=str(exc)[:2000] or type(exc).__name__, updated_at=models.utcnow()) \
                .where((R.id == run.id) & R.status.in_(jobs.ACTIVE)).execute()
            C.update(state="cancelled").where((C.run == run.id) & C.state.in_(UNSTARTED)).execute()
        jobs.feed(run.owner_id)
        return f"failed: run {run.id}: {type(exc).__name__}: {exc}"
    with database.atomic():
        finished = (C.update(state="done", result=part.counts(), updated_at=models.utcnow())
                    .where((C.id == chunk_id) & (C.state == "running") & (C.worker == me)).execute())
        if finished:
            _progress(run.id)
    if finished:
        finish(run.id)
        jobs.feed(run.owner_id)
        return f"played games {chunk.start}-{chunk.stop - 1} of run {run.id}"
    return f"played games {chunk.start}-{chunk.stop - 1} of run {run.id}; not counted (queued again meanwhile)"


jobs.windowed(models.SimulationChunk, models.SimulationRun, play_chunk)


def _progress(run_id: int) -> None:
    """A run's progress is the games of its finished chunks (never a chunk's own count twice)."""
    C, R = models.SimulationChunk, models.SimulationRun
    total = C.select(fn.COALESCE(fn.SUM(C.stop - C.start), 0)).where((C.run == run_id) & (C.state == "done")).scalar()
    R.update(done=total, updated_at=models.utcnow()).where((R.id == run_id) & R.status.in_(jobs.ACTIVE)).execute()


def finish(run_id: int) -> bool:
    """Merge a run whose chunks are all done into its summary (once: the update is conditional)."""
    C, R = models.SimulationChunk, models.SimulationRun
    run = R.get_by_id(run_id)
    if run.status not in jobs.ACTIVE:
        return False
    chunks = list(C.select(C.state, C.result).where(C.run == run_id).order_by(C.number))
    if not chunks or any(c.state != "done" for c in chunks):
        return False
    summary = merge(run.game, run.games, run.seed, [c.result for c in chunks])
    seconds = (models.utcnow() - run.created_at).total_seconds()
    summary.seconds = max(seconds, 1e-6)
    stuck = [list(row) for row in summary.stuck_cards(get_catalogue(run.game), 10)]
    return bool(R.update(status="done", done=run.games, result=summary.to_json(), stuck=stuck, updated_at=models.utcnow())
                .where((R.id == run_id) & R.status.in_(jobs.ACTIVE)).execute())


@jobs.recoverer
def recover_chunks() -> None:
    """Queue again the chunks whose worker died (on this host, or silent past the lease), and
    queued chunks whose message was lost; merge runs whose last chunk's worker died before it."""
    C, R = models.SimulationChunk, models.SimulationRun
    jobs.requeue_lost(C, R, play_chunk)
    for run in R.select(R.id).where(R.status.in_(jobs.ACTIVE)):
        finish(run.id)


def own_run(owner_id: int, run_id: int) -> models.SimulationRun | None:
    """The owner's run with that id, or None."""
    return models.SimulationRun.get_or_none((models.SimulationRun.id == run_id) & (models.SimulationRun.owner == owner_id))


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
    options = [{"name": o.name, "label": o.label, "value": chosen.get(o.name, o.default),
                "shown": value_words(chosen.get(o.name, o.default))}
               for o in engine.options if o.name != CARD_VALUES]
    values = []
    for key, fields in sorted((chosen.get(CARD_VALUES) or {}).items()):
        card = catalogue.get(key)
        for name, value in fields.items():
            field = value_field(engine, name)
            values.append({"card": key, "card_name": card.display_name if card else key, "field": name,
                           "label": field.label if field else name.replace("_", " "), "value": value,
                           "shown": value_words(value)})
    return {"deck_version": run.version, "games": run.games, "seed": run.seed, "options": options,
            "card_values": values}


def job_status(run: models.SimulationRun) -> jobs.JobStatus:
    """The run as the owner sees every job: its state, the games played so far, why it failed, and
    whether part of it waits on a worker that stopped answering."""
    waiting = heartbeats.waiting_note("simulation", models.SimulationChunk, run.id) if run.status in jobs.ACTIVE else None
    return jobs.JobStatus(run.status, run.done, run.games, run.error, "games", waiting)
