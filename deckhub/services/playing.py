"""The command line's plays of a deck read from a file: one goldfish game, a simulation, a tuning,
and how much of a game's text the engine automates.

A command parses its arguments into a `DeckFile` and calls one function here, which does the rest
as the web's jobs do: finds the game and its engine, the catalogue (the site's when this machine has
one, else the shipped files), reads the deck, applies the card values typed and the user's own, and
plays. Anything unusable is a `PlayError`, whose message (and lines, one per bad line of a file)
the command prints before exiting 2; nothing is played then.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from deckhub.core.compare import compare
from deckhub.core.engine import Engine, EngineError, IllegalAction, get_engine, new_game, play_out
from deckhub.core.legality import Format
from deckhub.core.session_values import CARD_VALUES
from deckhub.core.simulate import Summary, simulate
from deckhub.core.tuning import TuningResult
from deckhub.games import UnknownGame, all_games, get_game
from deckhub.importers.decklists import read_decklist
from deckhub.services import card_values
from deckhub.services.accounts import find_user
from deckhub.services.catalogue_store import site_catalogue
from deckhub.services.checks import CheckError, choose_format
from deckhub.services.impacts import impact_here
from deckhub.services.tunings import TuningStartError, UnplayableDeck, tune_here


class PlayError(Exception):
    """Why nothing was played; `lines` are the file's unreadable lines, each already naming the file."""

    def __init__(self, message: str, lines: tuple[str, ...] = ()):
        super().__init__(message)
        self.lines = lines


@dataclass
class DeckFile:
    """What a command read from its arguments: the game, the deck file's bytes and name, the
    engine options it named, the card values typed (`--values`, by card key or name) and the site
    user whose own values play too (`--user`). `database_url`: the site's database (None: the
    shipped data files)."""

    game: str
    data: bytes
    name: str
    database_url: str | None
    options: dict[str, Any] = field(default_factory=dict)
    values: Mapping[str, Any] | None = None
    values_name: str | None = None
    username: str | None = None


@dataclass
class Prepared:
    """A deck ready to play: its game, engine, catalogue, the options with the card values, and the
    values the engine still lacks (`missing`, {card key: [field, ...]}, and in words)."""

    spec: Any
    engine: Engine
    catalogue: Any
    deck: Any
    options: dict[str, Any]
    missing: dict[str, list[str]]

    @property
    def missing_words(self) -> str:
        return card_values.describe_missing(self.catalogue, self.engine, self.missing)


def _engine(slug: str):
    try:
        spec = get_game(slug)
        return spec, get_engine(spec)
    except (UnknownGame, EngineError) as exc:
        raise PlayError(str(exc.args[0] if exc.args else exc)) from None


def _read_deck(spec, catalogue, data: bytes, name: str):
    parsed = read_decklist(data, spec, catalogue, filename=name, games=all_games())
    if parsed.errors:
        raise PlayError(f"{name} names cards or lines that cannot be read; nothing played",
                        tuple(f"{name}: {error}" for error in parsed.errors))
    return parsed.deck


def _user_id(username: str) -> int:
    user = find_user(username.strip())  # the exact name, whatever its case (never a LIKE pattern)
    if user is None:
        raise PlayError(f"there is no user named {username!r} (create one with `deckhub user add`)")
    return user.id


def prepare(source: DeckFile) -> Prepared:
    """The deck of `source` with the values to play it with: the typed values over the user's own
    (whose own values the typed ones then become)."""
    spec, engine = _engine(source.game)
    catalogue = site_catalogue(spec.slug, source.database_url)
    deck = _read_deck(spec, catalogue, source.data, source.name)
    options = dict(source.options)
    typed = dict(source.values or {})
    if not engine.option(CARD_VALUES):
        if typed:
            raise PlayError(f"{spec.name} has no card values a player can set")
        return Prepared(spec, engine, catalogue, deck, options, {})
    try:
        if isinstance(options.get(CARD_VALUES), str):
            typed = {**engine.option(CARD_VALUES).coerce(options.pop(CARD_VALUES)), **typed}
        user_id = _user_id(source.username) if source.username else None
        values, missing = card_values.play_values(engine, catalogue, deck, typed, user_id)
    except card_values.CardValuesError as exc:
        raise PlayError(f"{source.values_name or '--option card_values'}: {exc}") from None
    except EngineError as exc:
        raise PlayError(str(exc)) from None
    return Prepared(spec, engine, catalogue, deck, {**options, CARD_VALUES: values} if values else options, missing)


def goldfish(source: DeckFile, seed: int):
    """(prepared, the finished game) of one game with the built-in policy from `seed`."""
    ready = prepare(source)
    try:
        return ready, play_out(new_game(ready.spec.slug, ready.deck, ready.catalogue, seed, ready.options))
    except (EngineError, IllegalAction) as exc:
        raise PlayError(str(exc)) from None


def simulation(source: DeckFile, games: int, seed: int, workers: int, *, allow_unknown: bool = False,
               progress: Callable[[int, int], None] | None = None) -> tuple[Prepared, Summary]:
    """(prepared, summary) of `games` games; refused while values are missing unless `allow_unknown`."""
    ready = prepare(source)
    if ready.missing and not allow_unknown:
        raise PlayError(f"the engine needs values nobody gave for {len(ready.missing)} cards: {ready.missing_words}; "
                        "give them with --values FILE.json, or play anyway with --allow-unknown; no game played")
    try:
        return ready, simulate(ready.spec.slug, ready.deck, ready.catalogue, games, seed, ready.options,
                               min(workers, os.cpu_count() or 1), progress)
    except (EngineError, IllegalAction, ValueError) as exc:
        raise PlayError(str(exc)) from None


@dataclass
class Tuned:
    spec: Any
    deck: Any
    format: Format
    result: TuningResult
    unknown: int  # cards played without values the engine needs


def tuning(source: DeckFile, candidates: str, candidates_file: tuple[bytes, str] | None, format_name: str | None, *,
           allow_unknown: bool, budget: int, seed: int, workers: int, top: int,
           progress: Callable[[int, int], None] | None = None) -> Tuned:
    """`deckhub tune`: candidates "catalogue", "collection" (the `--user`'s cards) or the cards of a
    deck-list file (`candidates_file`: its bytes and name). An unplayable deck's cards and their
    missing values are the error's lines."""
    ready = prepare(source)
    try:
        fmt = choose_format(ready.spec, format_name, None)
    except CheckError as exc:
        raise PlayError(str(exc)) from None
    ready.deck.name = ready.deck.name or os.path.basename(source.name)
    owner_id = keys = None
    if candidates == "collection":
        if not source.username:
            raise PlayError("--candidates collection takes the cards of a site user: give --user NAME")
        owner_id = _user_id(source.username)
    elif candidates_file is not None:
        keys = _candidate_keys(ready.spec, ready.catalogue, *candidates_file)
    try:
        result, unknown = tune_here(ready.deck, ready.catalogue, ready.options, fmt, candidates, keys=keys,
                                    owner_id=owner_id, allow_unknown=allow_unknown, budget=budget, seed=seed,
                                    workers=workers, top=top, progress=progress)
    except UnplayableDeck as exc:
        raise PlayError(f"{exc}; give them with --values FILE or tune anyway with --allow-unknown",
                        tuple(f"unknown: {name}: {', '.join(fields)}" for name, fields in exc.unknown)) from None
    except TuningStartError as exc:
        raise PlayError(str(exc)) from None
    return Tuned(ready.spec, ready.deck, fmt, result, unknown)


@dataclass
class Impacted:
    spec: Any
    deck: Any
    result: Any  # deckhub.core.impact.ImpactResult
    unknown: int  # cards played without values the engine needs


def card_impact(source: DeckFile, *, allow_unknown: bool, budget: int, seed: int, workers: int,
                progress: Callable[[int, int], None] | None = None) -> Impacted:
    """`deckhub impact`: each card's paired difference with one copy replaced by a blank filler."""
    ready = prepare(source)
    ready.deck.name = ready.deck.name or os.path.basename(source.name)
    try:
        result, unknown = impact_here(ready.deck, ready.catalogue, ready.options, allow_unknown=allow_unknown,
                                      budget=budget, seed=seed, workers=workers, progress=progress)
    except UnplayableDeck as exc:
        raise PlayError(f"{exc}; give them with --values FILE or measure anyway with --allow-unknown",
                        tuple(f"unknown: {name}: {', '.join(fields)}" for name, fields in exc.unknown)) from None
    except TuningStartError as exc:
        raise PlayError(str(exc)) from None
    return Impacted(ready.spec, ready.deck, result, unknown)


def compare_files(a: DeckFile, b: DeckFile, *, games: int, seed: int, workers: int,
                  allow_unknown: bool = False, options_b: dict | None = None) -> tuple[Prepared, dict[str, Any]]:
    """`deckhub compare`: two deck files of one game played on the same seeds (with A's options and
    the values of both); refused while values are missing unless `allow_unknown`."""
    ready_a, ready_b = prepare(a), prepare(b)
    for ready, source in ((ready_a, a), (ready_b, b)):
        ready.deck.name = ready.deck.name or os.path.basename(source.name)
        if ready.missing and not allow_unknown:
            raise PlayError(f"{source.name}: the engine needs values nobody gave for {len(ready.missing)} cards: "
                            f"{ready.missing_words}; give them with --values FILE.json, or compare anyway with --allow-unknown")
    options = dict(ready_a.options)
    values = {**(ready_b.options.get(CARD_VALUES) or {}), **(ready_a.options.get(CARD_VALUES) or {})}
    if values:
        options[CARD_VALUES] = values
    try:
        return ready_a, compare(ready_a.spec.slug, ready_a.deck, ready_b.deck, ready_a.catalogue, games=games,
                                seed=seed, options=options, workers=min(workers, os.cpu_count() or 1),
                                options_b=options_b)
    except (EngineError, IllegalAction, ValueError) as exc:
        raise PlayError(str(exc)) from None


def _candidate_keys(spec, catalogue, data: bytes, name: str) -> list[str]:
    """The cards a candidates file names: a deck list (its quantities ignored), or a plain list of
    card names, a name a line (a line that is exactly a card's name counts as one copy)."""
    text = data.decode("utf-8-sig", errors="replace")
    if not text.lstrip().startswith(("{", "<")):
        text = "\n".join(f"1 {line}" if line.strip() and catalogue.lookup(line.strip()) else line
                         for line in text.splitlines())
    listed = _read_deck(spec, catalogue, text.encode("utf-8"), name)
    return [key for _s, key, _q in listed.entries()]


def coverage(game: str, database_url: str | None) -> tuple[Any, dict[str, Any]]:
    """(the game, its engine's coverage report) over the catalogue a command reads."""
    spec, engine = _engine(game)
    return spec, engine.coverage(site_catalogue(spec.slug, database_url))
