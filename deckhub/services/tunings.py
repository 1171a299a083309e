"""Tuning runs: "which swap makes my deck win faster", played round by round on the job queue.

`start` is the one way to begin a run (the statistics tab and the API call it): it checks the same
per-user limit as simulations (tuning and simulation runs count together), builds the variants, and
writes round 0's chunks in one exclusive transaction; chunks wait and are sent to the queue a few
at a time per owner, together with the owner's simulations (`chunks.feed`). A chunk is a few (arm, start, stop) game
ranges that any worker plays; the worker that finishes a round's last chunk rebuilds the
`core.tuning.Tuner` from the run's settings and every finished chunk, and writes the next round's
chunks (or the result) with a conditional update, so a round advances once and a chunk played
twice counts once. The result is the same whatever the number of workers.
"""
from __future__ import annotations

import os
from typing import Any

from deckhub.services import card_values, chunks, jobs, simulations
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.engine import EngineError, get_engine
from deckhub.core.cards import BLANK_KEY, Catalogue
from deckhub.core.compare import ComparisonPlan
from deckhub.core.impact import impact_result, impact_tuner
from deckhub.core.legality import Format, check_deck
from deckhub.core.session_values import CARD_VALUES, apply_card_values, missing_values
from deckhub.core.tuning import MAX_BUDGET, Tuner, TuningError, TuningResult, play_range, tune
from deckhub.services.limits import DEFAULT_TUNING_BUDGET, seed_problem
from deckhub.store.db import database
from deckhub.games import get_game

CHUNK_GAMES = 1000       # games one task plays (several short ranges of arms make one chunk)
DEFAULT_BUDGET = DEFAULT_TUNING_BUDGET
MAX_CANDIDATES = 300     # candidate cards one run may try
CANDIDATE_SOURCES = ("collection", "catalogue")
IMPACT = "impact"  # the candidate source of a causal card impact run: every card against the blank
COMPARISON = "comparison"  # of two decks compared on the same seeds (`deckhub.services.comparisons`)


class TuningStartError(simulations.SimulationError):
    """A tuning run that cannot start (the message says why)."""


class UnplayableDeck(TuningStartError):
    """Cards of the deck lack values the engine needs: `unknown` lists (card name, [field, ...])."""

    def __init__(self, unknown: list[tuple[str, list[str]]]):
        super().__init__(f"{len(unknown)} cards of this deck lack values the engine needs")
        self.unknown = unknown


def collection_candidates(owner_id: int, game: str) -> list[str]:
    """The card keys of the game that the user owns at least one copy of, in card order."""
    C, P, O = models.Card, models.Printing, models.OwnedCard
    rows = (C.select(C.key).join(P).join(O)
            .where((O.owner == owner_id) & (C.game == game) & ((O.quantity + O.foil_quantity) > 0))
            .distinct().order_by(C.key).tuples())
    return [key for (key,) in rows]


def catalogue_candidates(spec, deck: Deck, catalogue) -> list[str]:
    """Cards whose civilizations, team or faerie (the game's colour field) are all among the deck's."""
    colour = (spec.extras.get("breakdown") or (None, None))[0]

    def colours(card) -> set[str]:
        value = card.attrs.get(colour) if colour else None
        if value is None:
            return set()
        return {str(v) for v in value} if isinstance(value, (list, tuple)) else {str(value)}

    in_deck = set()
    for _section, key, _qty in deck.entries():
        in_deck |= colours(catalogue.cards[key])
    return [c.key for c in catalogue if not colour or not in_deck or (colours(c) and colours(c) <= in_deck)]


def candidate_keys(owner_id: int, game: str, deck: Deck, source: str) -> list[str]:
    """Candidates for a run: the owner's collection, or the catalogue's cards of the deck's colours."""
    if source == "collection":
        keys = collection_candidates(owner_id, game)
    elif source == "catalogue":
        keys = catalogue_candidates(get_game(game), deck, get_catalogue(game))
    else:
        raise TuningStartError(f"Candidates come from {' or '.join(CANDIDATE_SOURCES)}, not {source!r}.")
    held = {key for _s, key, _q in deck.entries()}
    keys = [k for k in keys if k not in held]
    if not keys:
        raise TuningStartError("There are no candidate cards to try: " + (
            "your collection of this game holds no card that is not already in the deck."
            if source == "collection" else "the catalogue has no other card of this deck's colours."))
    return keys[:MAX_CANDIDATES]


def values_applied(deck: Deck, base: Catalogue, options: dict, allow_unknown: bool):
    """(engine, `base` with the options' card values, {card key: [field, ...]} the deck still lacks)
    for a run played here; UnplayableDeck while values lack unless `allow_unknown`."""
    engine = get_engine(deck.game)
    try:
        catalogue = apply_card_values(engine, base, options.get(CARD_VALUES))
        unknown = missing_values(engine, deck, catalogue)
    except EngineError as exc:
        raise TuningStartError(str(exc)) from None
    if unknown and not allow_unknown:
        raise UnplayableDeck([(catalogue.cards[key].display_name, fields) for key, fields in unknown.items()])
    return engine, catalogue, unknown


def tune_here(deck: Deck, base: Catalogue, options: dict, fmt: Format, candidates: str, *,
              keys: list[str] | None = None, owner_id: int | None = None, allow_unknown: bool = False,
              budget: int, seed: int, workers: int, top: int, progress=None) -> tuple[TuningResult, int]:
    """`deckhub tune`: the paired simulation of `deck`'s swaps played in this process (no job), and the
    number of its cards played without values the engine needs. The options' card values are applied
    to `base`; a deck lacking values is not tuned (UnplayableDeck) unless `allow_unknown`, nor is a
    candidate lacking them. `candidates` is "catalogue" (the deck's colours), "collection" (the cards
    `owner_id` owns) or a label for `keys` (cards read from a list). TuningStartError says why not."""
    spec = get_game(deck.game)
    engine, catalogue, unknown = values_applied(deck, base, options, allow_unknown)
    if candidates == "catalogue":
        pool = catalogue_candidates(spec, deck, catalogue)
    elif candidates == "collection":
        pool = collection_candidates(owner_id, spec.slug)
    else:
        pool = list(keys or ())
    if not allow_unknown:  # a candidate the engine cannot play automatically would be tuned on unknowns
        pool = [k for k in pool if not _needs_values(engine, catalogue, k)]

    def is_legal(variant: Deck) -> bool:
        return check_deck(variant, spec, fmt, catalogue).legal

    settings = {"format": fmt.id, "candidates": candidates, "candidate_cards": len(pool),
                "cards_without_values": len(unknown)}
    try:
        result = tune(spec.slug, deck, catalogue, pool, is_legal, budget=budget, seed=seed, options=options,
                      workers=min(workers, os.cpu_count() or 1), top=top, progress=progress, settings=settings)
    except (TuningError, EngineError, ValueError) as exc:
        raise TuningStartError(str(exc)) from None
    return result, len(unknown)


def _tuner(game: str, deck: Deck, candidates: list[str], budget: int, seed: int, options: dict,
           format_id: str | None, source: str = "collection") -> Tuner:
    """The rounds of a stored run: a tuning's swaps, or (source IMPACT) each card against the blank."""
    spec = get_game(game)
    engine = get_engine(game)
    catalogue = apply_card_values(engine, get_catalogue(game), (options or {}).get(CARD_VALUES))
    if source == IMPACT:
        return impact_tuner(game, deck, catalogue, budget=budget, seed=seed, options=options)
    if source == COMPARISON:  # the one candidate is the other deck: its list and both decks' names
        other = candidates[0]
        deck.name = other["a"]
        deck_b = Deck.from_json(other["list"])
        deck_b.name = other["b"]
        return ComparisonPlan(game, deck, deck_b, catalogue, games=budget, seed=seed, options=options)
    fmt = spec.format(format_id)

    def legal(variant: Deck) -> bool:
        return check_deck(variant, spec, fmt, catalogue).legal
    return Tuner(game, deck, catalogue, candidates, legal, budget=budget, seed=seed, options=options)


def start(owner_id: int, deck_row: models.Deck, version: models.DeckVersion, budget: int, seed: int,
          options: dict, candidates: str = "collection", allow_unknown: bool = False) -> models.TuningRun:
    """Queue a tuning run of the deck version (or, with candidates IMPACT, a causal card impact run);
    TuningStartError (429 for a limit) saying why not."""
    if not 1 <= budget <= MAX_BUDGET:
        raise TuningStartError(f"A tuning run plays 1 to {MAX_BUDGET:,} games.")
    if problem := seed_problem(seed):
        raise TuningStartError(problem)
    deck = Deck.from_json(version.data)
    engine = get_engine(deck_row.game)
    base = get_catalogue(deck_row.game)
    try:  # the owner's own card values play too, as in their simulations
        options, typed = card_values.game_options(owner_id, engine, deck, base, options)
        options = engine.normalize_options(options)
        catalogue = apply_card_values(engine, base, options.get(CARD_VALUES))
        unknown = missing_values(engine, deck, catalogue)
    except (EngineError, card_values.CardValuesError) as exc:
        raise TuningStartError(str(exc)) from None
    card_values.remember(owner_id, deck_row.game, typed)
    if unknown and not allow_unknown:
        raise TuningStartError(f"{len(unknown)} cards of this deck lack values the engine needs: "
                               f"{card_values.describe_missing(catalogue, engine, unknown, 8)}. Enter them, or tune "
                               "anyway (the suggestions will say they rest on unknowns).")
    if candidates == IMPACT:
        keys = [BLANK_KEY]
    else:
        keys = candidate_keys(owner_id, deck_row.game, deck, candidates)
    if not allow_unknown:
        keys = [k for k in keys if k == BLANK_KEY or not _needs_values(engine, catalogue, k)]
    fmt = get_game(deck_row.game).format(None).id
    try:
        tuner = _tuner(deck_row.game, deck, keys, budget, seed, options, fmt, candidates)
    except (TuningError, EngineError) as exc:
        raise TuningStartError(str(exc)) from None
    return queue(owner_id, deck_row, version.number, tuner, options, candidates=keys, source=candidates,
                 format_id=fmt, budget=budget, unknown=len(unknown))


def queue(owner_id: int, deck_row: models.Deck, version: int, tuner, options: dict, *, candidates: list, source: str,
          format_id: str, budget: int, unknown: int = 0) -> models.TuningRun:
    """Write a paired run (a tuning, an impact or a comparison: `tuner` is its first round's plan) and
    its first round's chunks, within the per-user limit of runs at once (429 past it), and feed them
    to the queue."""
    with jobs.exclusive(simulations.LOCK_KEY):
        simulations.check_active_limits(owner_id)
        run = models.TuningRun.create(deck=deck_row, version=version, owner=owner_id, game=deck_row.game,
                                      budget=budget, seed=tuner.seed, options=options, candidates=candidates,
                                      candidate_source=source, format=format_id, total=tuner.total,
                                      unknown_cards=unknown)
        _write_round(run.id, 0, tuner)
    chunks.feed(owner_id)
    return models.TuningRun.get_by_id(run.id)


def _needs_values(engine, catalogue, key: str) -> bool:
    one = Deck(engine.game)
    one.add("candidate", key)
    return bool(missing_values(engine, one, catalogue))


def _write_round(run_id: int, round_no: int, tuner: Tuner) -> None:
    """The chunks of round `round_no`: its game ranges packed into chunks of about CHUNK_GAMES."""
    chunks: list[list[list[int]]] = [[]]
    size = 0
    for arm, first, stop in tuner.tasks(round_no):
        while first < stop:
            take = min(stop - first, CHUNK_GAMES - size)
            chunks[-1].append([arm, first, first + take])
            first += take
            size += take
            if size >= CHUNK_GAMES:
                chunks.append([])
                size = 0
    rows = [{"run": run_id, "round": round_no, "number": n, "ranges": ranges, "state": "waiting"}
            for n, ranges in enumerate(chunks) if ranges]
    models.TuningChunk.insert_many(rows).execute()


def _run_tuner(run: models.TuningRun) -> Tuner:
    """The run's Tuner (its deck, variants and plan) with no games recorded."""
    deck = Deck.from_json(models.DeckVersion.get((models.DeckVersion.deck == run.deck_id)
                                                 & (models.DeckVersion.number == run.version)).data)
    return _tuner(run.game, deck, list(run.candidates), run.budget, run.seed, run.options, run.format,
                  run.candidate_source)


def _rebuilt(run: models.TuningRun) -> Tuner:
    """The run's Tuner with every finished chunk's games recorded: called once a round's chunks are all
    done, when each arm's finished ranges follow one another (mid-round, a later chunk of an arm may
    finish before an earlier one)."""
    tuner = _run_tuner(run)
    C = models.TuningChunk
    games: list[tuple[int, int, list]] = []
    for chunk in C.select(C.ranges, C.result).where((C.run == run.id) & (C.state == "done")):
        for (arm, first, _stop), played in zip(chunk.ranges, chunk.result):
            games.append((arm, first, played))
    for arm, first, played in sorted(games, key=lambda g: (g[0], g[1])):
        tuner.record(arm, first, [tuple(p) for p in played])
    return tuner


class _Tunings(chunks.ChunkRuns):
    """A chunk plays a few (arm, start, stop) game ranges; a round's last chunk writes the next round."""

    kind, label = "tuning", "tuning run"
    chunk_model, run_model = models.TuningChunk, models.TuningRun

    def play(self, run, chunk):
        tuner = _run_tuner(run)  # its variants' decks; built per chunk, nothing kept between tasks
        return [play_range(run.game, tuner.arms[arm].deck, tuner.catalogue, tuner.arm_options(arm), run.seed,
                           tuner.limit, first, stop) for arm, first, stop in chunk.ranges]

    def progress(self, run_id: int) -> int:
        C = models.TuningChunk
        return sum(stop - first for c in C.select(C.ranges).where((C.run == run_id) & (C.state == "done"))
                   for _a, first, stop in c.ranges)

    def settle(self, run_id: int) -> bool:
        return advance(run_id)

    def played(self, run, chunk, counted: bool) -> str:
        games = sum(stop - first for _a, first, stop in chunk.ranges)
        if counted:
            return f"played {games} games of round {chunk.round} of tuning run {run.id}"
        return f"played {games} games of tuning run {run.id}; not counted (queued again meanwhile)"


_RUNS = _Tunings()
cancel = _RUNS.cancel
own_run = _RUNS.own


@jobs.task
@jobs.kind("tuning")
def play_tuning_chunk(chunk_id: int) -> str:
    """Play one chunk; returns what happened, for the worker's log."""
    return _RUNS.run_chunk(chunk_id)


_RUNS.register(play_tuning_chunk)


def advance(run_id: int) -> bool:
    """Once every chunk of the run's round is done: write the next round, or the result (once)."""
    C, R = models.TuningChunk, models.TuningRun
    run = R.get_by_id(run_id)
    if run.status not in jobs.ACTIVE:
        return False
    pending = C.select().where((C.run == run_id) & (C.round == run.round) & (C.state != "done")).count()
    if pending:
        return False
    try:
        tuner = _rebuilt(run)
        next_round = run.round + 1
        final = next_round >= len(tuner.plan)
        result = _result(run, tuner).to_json() if final else None
    except Exception as exc:  # noqa: BLE001 — recorded on the run, never lost silently
        _RUNS.fail(run_id, str(exc)[:2000] or type(exc).__name__)
        return False
    with database.atomic():
        moved = R.update(round=next_round, updated_at=models.utcnow(),
                         **({"status": "done", "result": result, "done": tuner.played} if final else {})).where(
            (R.id == run_id) & (R.round == run.round) & R.status.in_(jobs.ACTIVE)).execute()
        if moved and not final:
            _write_round(run_id, next_round, tuner)
    return bool(moved)  # the next round's chunks wait: the caller (a chunk's end, the sweep) feeds the owner


def _result(run: models.TuningRun, tuner: Tuner):
    if run.candidate_source == IMPACT:
        return impact_result(tuner, {"cards_without_values": run.unknown_cards})
    if run.candidate_source == COMPARISON:
        return _Compared(tuner.result())
    return tuner.result(settings=_settings(run))


def _settings(run: models.TuningRun) -> dict[str, Any]:
    return {"format": run.format, "candidates": run.candidate_source, "candidate_cards": len(run.candidates),
            "cards_without_values": run.unknown_cards}


class _Compared(dict):
    """A comparison's result, which is JSON already (as a TuningResult's `to_json`)."""

    def to_json(self) -> dict:
        return dict(self)


def runs_for(deck_row: models.Deck, limit: int = 10, impact: bool = False, comparison: bool = False,
             owner_id: int | None = None) -> list[models.TuningRun]:
    """The deck's tuning runs (`impact`: its card impact runs instead; `comparison`: its comparisons
    with other decks), newest first; `owner_id`: only that user's."""
    R = models.TuningRun
    source = IMPACT if impact else COMPARISON if comparison else None
    kind = (R.candidate_source == source) if source else R.candidate_source.not_in((IMPACT, COMPARISON))
    if owner_id is not None:
        kind &= R.owner == owner_id
    return list(R.select().where((R.deck == deck_row) & kind).order_by(R.id.desc()).limit(limit))


def job_status(run: models.TuningRun) -> jobs.JobStatus:
    return _RUNS.job_status(run, run.total)
