"""The catalogue in the database, and each worker's in-memory copy of it.

`store_catalogue` writes what an importer read (idempotently: a second run changes nothing),
keeping the facts the community contributed unless the new data gives that field a value;
`get_catalogue` gives the pure `core.cards.Catalogue` that search, checks and engines use,
rebuilt only when the game's `CatalogueStamp` moved (another worker or a curator changed it).
"""
from __future__ import annotations

import re
import threading
from contextvars import ContextVar
from dataclasses import dataclass

from peewee import SQL

from deckhub.store import models
from deckhub.core import cards as core
from deckhub.core.caches import LRU
from deckhub.store.db import database, database_key, init_database, is_sqlite, write_transaction

CATALOGUES_KEPT = 16  # (database, game) copies a worker keeps: one database's games, and tests' others
_catalogues: LRU[core.Catalogue] = LRU(CATALOGUES_KEPT)
_lock = threading.Lock()
# the stamps read during one web request (see `begin_request`); None outside a request
_request_stamps: ContextVar[dict[str, int] | None] = ContextVar("deckhub_request_stamps", default=None)


@dataclass
class StoreResult:
    game: str
    cards_added: int = 0
    cards_updated: int = 0
    printings_added: int = 0
    sets_added: int = 0

    @property
    def changed(self) -> bool:
        return bool(self.cards_added or self.cards_updated or self.printings_added or self.sets_added)


def number_sort(number: str | None) -> int:
    match = re.match(r"\d+", number or "")
    return int(match.group()) if match else 0


def _card_row_values(card: core.Card) -> dict:
    return {"name": card.name, "norm_name": core.normalize_name(card.name), "version": card.version,
            "type": card.type, "text": card.text,
            "data": {"attrs": dict(card.attrs), "provenance": dict(card.provenance),
                     "sources": list(card.sources), "aliases": list(card.aliases)}}


def _keep_contributed(row: models.Card, values: dict) -> dict:
    """`values` (what the new data says of a card) with the card's contributed facts kept where the
    new data gives that field no value (`deckhub.services.community.reviewing` approved them; `community.card_rows`
    says how a card row records them).

    A contributed field the new data does give a value loses its contribution record, unless the
    value is the same and the data marks it contributed too (an export loaded back)."""
    old = row.data or {}
    old_provenance = old.get("provenance") or {}
    contributed = [k for k, how in old_provenance.items() if how == "contributed"]
    if not contributed:
        return values
    data = values["data"]
    attrs, provenance = data["attrs"], data["provenance"]
    old_attrs = old.get("attrs") or {}
    old_details = old.get("contributions") or {}
    details: dict = {}
    for key in contributed:
        top = key in ("type", "text")
        new_value = values[key] if top else attrs.get(key)
        old_value = getattr(row, key) if top else old_attrs.get(key)
        if new_value is None or new_value == "" or new_value == []:
            if old_value is None:
                continue
            if top:
                values[key] = old_value
            else:
                attrs[key] = old_value
            provenance[key] = "contributed"
        elif not (new_value == old_value and provenance.get(key) == "contributed"):
            continue
        if key in old_details:
            details[key] = old_details[key]
    if details:
        data["contributions"] = details
        cited = {d.get("source") for d in details.values()}
        kept = [s for s in old.get("contributed_sources") or () if s in cited]
        if kept:
            data["sources"] = data["sources"] + [s for s in kept if s not in data["sources"]]
            data["contributed_sources"] = kept
    return values


def store_catalogue(data: core.CatalogueData) -> StoreResult:
    """Write one game's catalogue in a single transaction: all of it or nothing. The transaction
    takes SQLite's write lock at once, so two loaders (a first start beside `load-cards`) wait
    their turn instead of one failing with "database is locked"."""
    result = StoreResult(data.game)
    with write_transaction():
        sets = {s.code: s for s in models.CardSet.select().where(models.CardSet.game == data.game)}
        for s in data.sets:
            values = {"name": s.name, "size": s.size, "position": s.position, "booster": s.booster}
            row = sets.get(s.code)
            if row is None:
                sets[s.code] = models.CardSet.create(game=data.game, code=s.code, **values)
                result.sets_added += 1
            elif any(getattr(row, k) != v for k, v in values.items()):
                models.CardSet.update(**values).where(models.CardSet.id == row.id).execute()
        rows = {c.key: c for c in models.Card.select().where(models.Card.game == data.game)}
        known_printings = {(p.card_id, p.card_set_id, p.number, p.source_id, p.position): p
                           for p in models.Printing.select().join(models.Card).where(models.Card.game == data.game)}
        for card in data.cards:
            values = _card_row_values(card)
            row = rows.get(card.key)
            if row is not None:
                values = _keep_contributed(row, values)
            if row is None:
                row = models.Card.create(game=data.game, key=card.key, **values)
                result.cards_added += 1
            elif any(getattr(row, k) != v for k, v in values.items()):
                models.Card.update(**values).where(models.Card.id == row.id).execute()
                result.cards_updated += 1
            for position, p in enumerate(card.printings):
                natural = (row.id, sets[p.set_code].id, p.number, p.source_id, position)
                existing = known_printings.get(natural)
                if existing is None:
                    models.Printing.create(card=row.id, card_set=sets[p.set_code].id, number=p.number,
                                           number_sort=number_sort(p.number), rarity=p.rarity,
                                           promo_code=p.promo_code, source_id=p.source_id, position=position)
                    result.printings_added += 1
                elif (existing.rarity, existing.promo_code) != (p.rarity, p.promo_code):
                    models.Printing.update(rarity=p.rarity, promo_code=p.promo_code).where(
                        models.Printing.id == existing.id).execute()
        if result.changed:
            bump_stamp(data.game)
    return result


def bump_stamp(game: str) -> None:
    updated = (models.CatalogueStamp.update(version=models.CatalogueStamp.version + 1)
               .where(models.CatalogueStamp.game == game).execute())
    if not updated:
        models.CatalogueStamp.create(game=game, version=1)
    seen = _request_stamps.get()
    if seen is not None:
        seen.pop(game, None)  # this request reads the new version from here on


def every_stamp_column():
    """Every game's catalogue version as one text column ("game=version,..."), for a statement that
    runs on most requests (the signed-in user's) to bring along: `seed_request_stamps` takes it, and
    the request reads no stamp apart. Written out, so it binds no value (and so does not stop a
    `PreparedSelect` keeping its SQL)."""
    join = "group_concat" if is_sqlite() else "string_agg"
    table = models.CatalogueStamp._meta.table_name
    return SQL(f'(SELECT {join}("game" || \'=\' || CAST("version" AS TEXT), \',\') FROM "{table}")')


def seed_request_stamps(stamps: str | None) -> None:
    """Take every game's stamp (`every_stamp_column`'s text) as this request's, unless it read them already."""
    seen = _request_stamps.get()
    if seen is None or _EVERY_GAME in seen:
        return
    for part in (stamps or "").split(","):
        game, _, version = part.rpartition("=")
        if game:
            seen.setdefault(game, int(version))
    seen[_EVERY_GAME] = 0


def begin_request() -> None:
    """From here until `end_request`, each game's stamp is read once: a board or a search asks for
    its catalogue (and the catalogue's scans) several times, and each read was a query. A change the
    request itself makes (`bump_stamp`) is read again; other workers' changes show next request."""
    _request_stamps.set({})


def end_request() -> None:
    _request_stamps.set(None)


def catalogue_is_loaded(game: str) -> bool:
    return models.Card.select().where(models.Card.game == game).exists()


_STAMP_SQL: dict[str, str] = {}
_EVERY_GAME = ""  # in a request's stamps: every game's were read at once (no game is called "")


def stamp(game: str) -> int:
    """The game's catalogue version (what a page kept from its cards is kept on); plain SQL, as it
    runs on every request that reads cards. A request's first read takes every game's stamp in the
    same statement (a page of several games, the collection's, asked one each); a game bumped since
    is read alone."""
    seen = _request_stamps.get()
    if seen is not None and game in seen:
        return seen[game]
    every = seen is not None and _EVERY_GAME not in seen
    db = database.obj
    sql = _STAMP_SQL.get(db.param if not every else "")
    if sql is None:
        table = models.CatalogueStamp._meta.table_name
        _STAMP_SQL[db.param] = f'SELECT version FROM "{table}" WHERE game = {db.param}'
        _STAMP_SQL[""] = f'SELECT game, version FROM "{table}"'
        sql = _STAMP_SQL[db.param if not every else ""]
    if every:
        seen.update(database.execute_sql(sql).fetchall())
        seen[_EVERY_GAME] = 0
        return seen.setdefault(game, 0)
    row = database.execute_sql(sql, (game,)).fetchone()
    stamp = row[0] if row else 0
    if seen is not None:
        seen[game] = stamp
    return stamp


def _build(game: str) -> core.Catalogue:
    sets = list(models.CardSet.select().where(models.CardSet.game == game).order_by(models.CardSet.position))
    code_by_id = {s.id: s.code for s in sets}
    printings: dict[int, list[core.Printing]] = {}
    query = (models.Printing.select().join(models.Card).where(models.Card.game == game)
             .order_by(models.Printing.card, models.Printing.position))
    for p in query:
        printings.setdefault(p.card_id, []).append(
            core.Printing(code_by_id[p.card_set_id], p.number, p.rarity, p.promo_code, p.source_id))
    cards = []
    for row in models.Card.select().where(models.Card.game == game).order_by(models.Card.id):
        d = row.data or {}
        cards.append(core.Card(
            key=row.key, game=game, name=row.name, version=row.version, type=row.type, text=row.text,
            attrs=d.get("attrs", {}), provenance=d.get("provenance", {}), sources=tuple(d.get("sources", ())),
            aliases=tuple(d.get("aliases", ())), printings=tuple(printings.get(row.id, ()))))
    return core.Catalogue(game, cards, [core.CardSet(s.code, s.name, s.size, s.position, s.booster) for s in sets],
                          manual=manual_overrides(game))


def manual_overrides(game: str) -> dict[str, frozenset[str]]:
    """card key -> the ability texts curators set to manual (deckhub.services.community.readings)."""
    found: dict[str, set[str]] = {}
    if not database.table_exists(models.ManualOverride._meta.table_name):
        return {}  # a command reading the cards of a database not upgraded yet
    for row in (models.ManualOverride.select(models.ManualOverride.card_key, models.ManualOverride.ability)
                .where((models.ManualOverride.game == game) & models.ManualOverride.cleared_at.is_null())):
        found.setdefault(row.card_key, set()).add(row.ability)
    return {k: frozenset(v) for k, v in found.items()}


def get_catalogue(game: str) -> core.Catalogue:
    """This worker's copy of a game's catalogue, reloaded when the database says it changed."""
    version = stamp(game)
    slot = (database_key(), game)  # one copy per database: tests and tools may switch databases
    catalogue = _catalogues.get(slot)
    if catalogue is not None and catalogue.stamp == version:
        return catalogue
    with _lock:
        catalogue = _catalogues.get(slot)
        if catalogue is not None and catalogue.stamp == version:
            return catalogue
        catalogue = _build(game)
        catalogue.stamp = version  # which version of the catalogue this is (page caches key on it)
        return _catalogues.put(slot, catalogue)


def warm_catalogues() -> None:
    """Build every game's in-memory catalogue, search index and suggestion index now, before serving."""
    from deckhub.core.search import search_cards
    from deckhub.games import all_games
    for game in all_games():
        catalogue = get_catalogue(game.slug)
        search_cards(catalogue, game, "a", {})
        catalogue.suggest("a")


def clear_cache() -> None:
    _catalogues.clear()


def site_catalogue(game: str, database_url: str | None) -> core.Catalogue:
    """The catalogue a command-line tool reads: the one in the site database at `database_url` (with
    the community's approved facts) once its cards are loaded, else the shipped `data/` files (also
    when there is no site database: None)."""
    from deckhub.games import load_catalogue

    if database_url is None:
        return load_catalogue(game)
    init_database(database_url)
    with database.connection_context():
        # the card tables are as step 1 made them, so any schema with them serves; a database not
        # made yet has none (a command reads cards, it never creates the schema)
        if database.table_exists(models.Card._meta.table_name) and catalogue_is_loaded(game):
            return get_catalogue(game)
    return load_catalogue(game)
