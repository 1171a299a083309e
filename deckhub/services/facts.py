"""Card facts in bulk — the service layer (no Flask): a facts CSV in and out, what each game's
catalogue knows, and which unknown facts hold the site's players back most.

- **Import** (`preview_import`, `commit_import`): every row of a facts CSV (`deckhub.importers.
  facts_csv`) names a card the way a collection CSV names a printing (same resolver, same "did you
  mean" suggestions), its values are checked exactly as a community proposal's are
  (`community.fields.validate_values`, `validate_source`), values equal to the catalogue's are
  dropped, and each row left with a change becomes one proposal. A file is proposed whole or not at
  all, and counts once against the proposer's rate limit (a file is one batch of proposals).
- **Export** (`export_csv`): one row per card in set and collector-number order, every proposable
  field with its known value (blank when unknown) and an empty `source`, so a community can fill in
  a spreadsheet and send it back.
- **Completeness** (`game_completeness`): per set and field, known values by provenance.
- **Most wanted** (`most_wanted`): unknown facts that an engine needs, ranked by how many decks and
  goldfish games on the site hold the card.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Mapping

from deckhub.services.community.errors import RateLimited
from deckhub.services.community.fields import (current_value, fields_by_key, proposable_fields, validate_source,
                                               validate_values)
from deckhub.services.community.proposing import store_rows
from deckhub.services.community.rate_limits import RATE_LIMIT, RATE_WINDOW
from deckhub.services import tallies
from deckhub.store import models
from deckhub.services.accounts import named_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.collection import all_indexes
from deckhub.core import completeness as core_completeness
from deckhub.core import search as core_search
from deckhub.core.cards import Card, normalize_name
from deckhub.games import all_games, get_game
from deckhub.importers.collection_csv import (MAX_SUGGESTED, GameIndex, Problem, game_lookup, resolve,
                                              unknown_card)
from deckhub.importers.facts_csv import (FactsFileError, FactsRow, cell_text, parse_facts_csv,
                                         write_facts_csv)

MAX_FILE_PROPOSALS = 500  # proposals one file may make (a set has at most a few hundred cards)
WEB_MAX_ROWS = 50_000  # rows a file sent through the web may have; `deckhub facts import` takes more
PROGRESS_EVERY = 500  # rows between two progress reports of a dry run
HEADLINE = 5  # fields a set's summary line counts: the type and four others

__all__ = ["FactsFileError", "FactsPreview", "ImportRejected", "UnknownSet", "preview_import", "commit_import", "export_csv",
           "field_keys", "game_completeness", "most_wanted", "Wanted", "MAX_FILE_PROPOSALS", "WEB_MAX_ROWS"]


# --------------------------------------------------------------------------- fields

def field_keys(slug: str) -> list[str]:
    """The fields a facts file has for a game: every proposable field, in the proposal form's order."""
    return [f.key for f in proposable_fields(slug)]


def _spellings() -> dict[str, str]:
    """Every way a column may name a field (its key, its label) in any game, to the field's key."""
    out: dict[str, str] = {}
    for game in all_games():
        for f in proposable_fields(game.slug):
            out.setdefault(f.key, f.key)
            out.setdefault(f.label, f.key)
    return out


# --------------------------------------------------------------------------- import

@dataclass
class Change:
    key: str
    label: str
    old: Any
    new: Any
    provenance: str | None

    def describe(self) -> str:
        known = core_completeness.is_known(self.old)
        old = f"{cell_text(self.old)} ({self.provenance or 'imported'})" if known else "unknown"
        return f"{self.label}: {old} → {cell_text(self.new)}"


@dataclass
class PlannedFacts:
    row: FactsRow
    game: str | None = None
    card: Card | None = None
    changes: list[Change] = field(default_factory=list)
    source: str | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def label(self) -> str:
        return self.card.display_name if self.card else self.row.card.describe()


@dataclass
class FactsPreview:
    rows: list[PlannedFacts]
    errors: list[str] = field(default_factory=list)  # problems of the file as a whole

    @property
    def problem_rows(self) -> list[PlannedFacts]:
        return [r for r in self.rows if r.problems]

    @property
    def changed_rows(self) -> list[PlannedFacts]:
        return [r for r in self.rows if r.changes and not r.problems]

    @property
    def ok(self) -> bool:
        return not self.errors and not any(r.problems for r in self.rows)

    @property
    def change_count(self) -> int:
        return sum(len(r.changes) for r in self.rows)

    @property
    def problem_count(self) -> int:
        return len(self.problem_rows) + len(self.errors)


class ImportRejected(Exception):
    """Rows (or the file) have problems, or the proposer may not send more now: nothing was written."""

    def __init__(self, preview: FactsPreview, message: str | None = None, limited: bool = False):
        self.preview = preview
        self.limited = limited
        super().__init__(message or f"{preview.problem_count} rows have problems; nothing was proposed")


def _find_card(row: FactsRow, index: GameIndex, others: list[GameIndex],
               suggest: bool = True) -> tuple[Card | None, list[Problem]]:
    """The card a row names: by name (and version) when that is one card, else through the
    collection import's printing resolver (set, number). `suggest` false skips the "did you mean"
    fuzzy matching (its cost is what a file of unknown names would otherwise multiply)."""
    ident = row.card
    if ident.name and not ident.set and not ident.number:
        cards = index.cards_named(ident.name, ident.version)
        if not cards:
            return None, [unknown_card(ident, index, others, suggest)]
        if len({c.key for c in cards}) == 1:
            return cards[0], []
        listed = ", ".join(c.display_name for c in cards[:5])
        hint = "give its version" if not ident.version and len({c.name for c in cards}) == 1 else "give its set and number"
        return None, [Problem("ambiguous", f"{ident.describe()} could be {len(cards)} cards — {hint}: {listed}")]
    printing, problems = resolve(ident, index, others, suggest)
    if printing is None:
        return None, problems
    return index.catalogue.cards[printing.card_key], []


def plan(data: bytes | str, max_rows: int | None = None, max_suggested: int = MAX_SUGGESTED,
         progress: Callable[[int, int], Any] | None = None) -> FactsPreview:
    """Every row resolved and checked, with what it would propose (nothing is written). Only the
    first `max_suggested` distinct unknown names get "did you mean" suggestions (a name repeated
    is looked up once); `progress(done, total)` is told every PROGRESS_EVERY rows.

    Raises FactsFileError when the file cannot be read at all, or has more than `max_rows` rows."""
    parsed = parse_facts_csv(data, _spellings(), max_rows)
    indexes = all_indexes()
    games = game_lookup(indexes)
    others = list(indexes.values())
    seen: dict[tuple[str, str], int] = {}
    out: list[PlannedFacts] = []
    suggested = 0
    found: dict[tuple, tuple[Card | None, list[Problem]]] = {}
    for done, row in enumerate(parsed.rows):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, len(parsed.rows))
        entry = PlannedFacts(row, problems=[Problem("bad-cell", e) for e in row.errors])
        out.append(entry)
        ident = row.card
        slug = (games.get(ident.game.lower()) or games.get(normalize_name(ident.game))) if ident.game else None
        if not ident.game:
            entry.problems.append(Problem("missing", "no game: fill in the game column"))
            continue
        if slug is None:
            entry.problems.append(Problem("unknown-game", f"unknown game {ident.game!r} (known: {', '.join(sorted(indexes))})"))
            continue
        entry.game = slug
        if not ident.name and not (ident.set and ident.number):
            entry.problems.append(Problem("missing", "give the card's name, or its set and number"))
            continue
        asked = (slug, ident.name, ident.version, ident.set, ident.number)
        if asked not in found:
            found[asked] = _find_card(row, indexes[slug], others, suggested < max_suggested)
            suggested += any(p.kind in ("unknown-card", "unknown-set") for p in found[asked][1])
        card, problems = found[asked]
        entry.problems.extend(problems)
        if card is None:
            continue
        entry.card = card
        first = seen.setdefault((slug, card.key), row.line)
        if first != row.line:
            entry.problems.append(Problem("duplicate", f"{card.display_name} is on line {first} too: "
                                                       "give each card one row"))
        values, errors = validate_values(slug, row.values)
        for key, message in errors.items():
            entry.problems.append(Problem("bad-value", message))
        labels = fields_by_key(slug)
        for key, value in values.items():
            old = current_value(card, key)
            if old != value:
                entry.changes.append(Change(key, labels[key].label, old, value, card.provenance.get(key)))
        if entry.changes or (row.source and not errors):
            try:
                entry.source = validate_source(row.source)
            except ValueError as exc:
                kind = "no-source" if not row.source else "bad-source"
                entry.problems.append(Problem(kind, str(exc)))
    preview = FactsPreview(out)
    proposals = sum(1 for r in out if r.changes)
    if proposals > MAX_FILE_PROPOSALS:
        preview.errors.append(f"The file proposes values for {proposals} cards; at most {MAX_FILE_PROPOSALS} "
                              "a file. Split it (one set a file works well).")
    return preview


def preview_import(data: bytes | str, max_rows: int | None = None) -> FactsPreview:
    """The dry run: every change and every problem; raises FactsFileError for an unreadable file
    (or one of more than `max_rows` rows)."""
    return plan(data, max_rows)


def commit_import(user: models.User, data: bytes | str, *, rate_limit: int = RATE_LIMIT,
                  window: dt.timedelta = RATE_WINDOW, max_rows: int | None = None) -> list[models.Proposal]:
    """Check the file again (never trust an earlier dry run) and store one proposal per changed card,
    all in one transaction; [] when every value is the catalogue's already (a file imported twice, an
    unchanged export). ImportRejected (nothing written) when a row has a problem or the proposer is
    rate-limited."""
    preview = plan(data, max_rows)
    if not preview.ok:
        raise ImportRejected(preview)
    items = [(r.game, r.card.key, {c.key: c.new for c in r.changes}, r.source) for r in preview.changed_rows]
    if not items:
        return []
    try:
        return write_proposals(user, items, rate_limit=rate_limit, window=window)
    except RateLimited as exc:
        raise ImportRejected(preview, str(exc), limited=True) from None


def write_proposals(user: models.User, items: Iterable[tuple[str, str, Mapping[str, Any], str]], *,
                    rate_limit: int, window: dt.timedelta) -> list[models.Proposal]:
    """The facts import's one write: checked (game, card key, clean values, clean source) items become
    proposals in one transaction, counted once against the proposer's rate limit (RateLimited:
    nothing written), each settled by the agreement and trust rules as the set editor's are.

    Rows carry their own sources, so they are single proposals rather than one batch (which has one
    source)."""
    return store_rows(user, items, rate_limit=rate_limit, window=window)


# --------------------------------------------------------------------------- export

class UnknownSet(LookupError):
    """The game has no set of that code."""


def export_rows(slug: str, set_code: str | None = None) -> list[list[Any]]:
    """One row per card: its first printing in set order (set code, number), name, version, every
    field's known value, an empty source. Cards with no printing come last, by name. With `set_code`,
    the cards of that set only, each with its number there (UnknownSet if the game has no such set)."""
    game = get_game(slug)
    catalogue = get_catalogue(game.slug)
    if set_code is not None and set_code not in catalogue.sets:
        raise UnknownSet(f"{game.name} has no set {set_code[:80]!r}; its sets are "
                         + ", ".join(s.code for s in core_search.set_summaries(catalogue)) + ".")
    keys = field_keys(game.slug)
    rows: list[list[Any]] = []
    done: set[str] = set()

    def add(card: Card, code: str, number: str | None) -> None:
        done.add(card.key)
        rows.append([game.slug, code, number or "", card.name, card.version or "",
                     *(current_value(card, k) for k in keys), ""])

    for summary in core_search.set_summaries(catalogue):
        if set_code is not None and summary.code != set_code:
            continue
        for row in core_search.set_rows(catalogue, summary.code):
            if row.card.key not in done:
                add(row.card, summary.code, row.number)
    if set_code is None:
        for card in sorted((c for c in catalogue if c.key not in done), key=lambda c: (c.name.casefold(), c.key)):
            add(card, "", None)
    return rows


def export_csv(slug: str, set_code: str | None = None, bom: bool = True) -> str:
    return export_file(slug, set_code, bom=bom)[0]


def export_file(slug: str, set_code: str | None = None, *, bom: bool = True) -> tuple[str, int]:
    """(the facts CSV, its card rows); UnknownSet as `export_rows`."""
    rows = export_rows(slug, set_code)
    return write_facts_csv(field_keys(get_game(slug).slug), rows, bom=bom), len(rows)


@dataclass
class FileImport:
    """`deckhub facts import`: the proposer, the dry run, and the proposals made (None: not written)."""

    user: models.User
    preview: FactsPreview
    made: list[models.Proposal] | None


def import_file(username: str, data: bytes | str, *, dry_run: bool = False) -> FileImport:
    """The command line's import: the named user's dry run, then (unless `dry_run`, and only when no
    row has a problem) the proposals. NoSuchUser, FactsFileError and ImportRejected as the parts
    raise them; nothing is written on any of them."""
    user = named_user(username)
    preview = preview_import(data)
    made = commit_import(user, data) if preview.ok and not dry_run else None
    return FileImport(user, preview, made)


# --------------------------------------------------------------------------- completeness

def game_completeness(slug: str) -> core_completeness.Completeness:
    game = get_game(slug)
    return core_completeness.completeness(get_catalogue(game.slug), field_keys(game.slug))


@lru_cache(maxsize=None)
def headline_fields(slug: str) -> tuple[str, ...]:
    """The fields a game's summary line counts: the type, and what its goldfish engine asks players
    for on a card of each type (a Neopets TCG Item's bank value, a Neopet's species)."""
    from deckhub.core.engine import find_engine
    from deckhub.core.session_values import needed_fields

    game = get_game(slug)
    engine = find_engine(game.slug)
    wanted = {"type"}
    if engine is not None:
        for kind in game.types:
            wanted.update(needed_fields(engine, Card(f"any-{kind}", game.slug, kind, type=kind)))
    return tuple(k for k in field_keys(game.slug) if k in wanted)[:HEADLINE]


def completeness_json(slug: str) -> dict[str, Any]:
    """The completeness API's answer: the counts, and each field's label as the pages show it."""
    return {**game_completeness(slug).to_json(), "labels": _labels(slug)}


def _labels(slug: str) -> dict[str, str]:
    return {f.key: f.label for f in proposable_fields(slug)}


def known_facts(slug: str) -> dict[str, Any]:
    """For the game and set pages' bars: the counts, the summary line's fields, every field's label."""
    return {"counts": game_completeness(slug), "headline": headline_fields(slug), "labels": _labels(slug)}


# --------------------------------------------------------------------------- most wanted

@dataclass
class Wanted:
    """An unknown fact and what it holds back: decks and goldfish games that hold the card."""

    game: str
    card: Card
    field: str
    label: str
    decks: int = 0
    games: int = 0

    @property
    def blocking(self) -> int:
        return self.decks + self.games


def most_wanted(slug: str | None = None, limit: int = 100) -> list[Wanted]:
    """Unknown facts that a game's engine needs to play a card (`session_values.unknown_values`),
    most blocking first: how many decks hold the card among their current cards and how many goldfish
    games were started with it (counts only; no deck is named). The counts are kept by the services
    that change them (`tallies`): a ranking reads one row per card in use, never the site's decks or games."""
    games = [get_game(slug)] if slug else list(all_games())
    return _rank_wanted(games)[:limit]


def _rank_wanted(games) -> list[Wanted]:
    from deckhub.core.engine import find_engine
    from deckhub.core.session_values import unknown_values

    found: dict[tuple[str, str, str], Wanted] = {}
    engines = {game.slug: engine for game in games if (engine := find_engine(game.slug)) is not None}
    demand = tallies.card_demand(list(engines))
    for game in games:
        engine = engines.get(game.slug)
        if engine is None:
            continue
        catalogue = get_catalogue(game.slug)
        labels = fields_by_key(game.slug)
        unknown = catalogue.memo("most wanted: unknown values", lambda: {  # per catalogue, not per site
            card.key: names for card in catalogue if (names := unknown_values(engine, card))})
        for key, (decks, played) in demand[game.slug].items():
            names = unknown.get(key)
            card = catalogue.get(key) if names else None
            if card is None:
                continue
            for name in names:
                label = labels[name].label if name in labels else name.replace("_", " ")
                found[(game.slug, key, name)] = Wanted(game.slug, card, name, label, max(decks, 0), max(played, 0))
    return sorted(found.values(), key=lambda w: (-w.blocking, -w.decks, w.card.name.casefold(), w.field))
