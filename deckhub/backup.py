"""Moving one user's data between installations, and consistent copies of an SQLite database.

`export_user` writes a user's account, decks with every version, collection and goldfish sessions
(and finished simulations) as one JSON document that names cards and printings by catalogue keys,
not row ids, so `import_user` can restore it into another installation — SQLite or PostgreSQL —
in one transaction: all of it or nothing.
"""
from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

from deckhub import models
from deckhub.db import database

FORMAT = "deckhub-user"
VERSION = 1
_QTY = ("quantity", "foil_quantity", "want_quantity", "trade_quantity")


class BackupError(ValueError):
    pass


def _time(value: dt.datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") if value else None


def _parse_time(value: Any) -> dt.datetime:
    try:
        return dt.datetime.fromisoformat(value) if value else models.utcnow()
    except (TypeError, ValueError):
        raise BackupError(f"not a date and time: {value!r}") from None


def export_user(username: str) -> dict[str, Any]:
    user = models.User.get_or_none(models.User.username == username)
    if user is None:
        raise BackupError(f"no user named {username!r}")
    decks = list(models.Deck.select().where(models.Deck.owner == user).order_by(models.Deck.id))
    deck_index = {d.id: i for i, d in enumerate(decks)}
    out_decks = []
    for d in decks:
        versions = (models.DeckVersion.select().where(models.DeckVersion.deck == d)
                    .order_by(models.DeckVersion.number))
        out_decks.append({
            "name": d.name, "game": d.game, "format": d.format, "packs": d.packs, "description": d.description,
            "is_public": d.is_public, "created_at": _time(d.created_at), "updated_at": _time(d.updated_at),
            "versions": [{"number": v.number, "created_at": _time(v.created_at), "data": v.data, "note": v.note}
                         for v in versions],
            "simulations": [{"version": r.version, "game": r.game, "games": r.games, "seed": r.seed,
                             "options": r.options, "result": r.result, "stuck": r.stuck,
                             "created_at": _time(r.created_at)}
                            for r in models.SimulationRun.select().where((models.SimulationRun.deck == d)
                                                                        & (models.SimulationRun.status == "done"))
                            .order_by(models.SimulationRun.id)],
        })
    owned = (models.OwnedCard.select(models.OwnedCard, models.Printing, models.Card, models.CardSet)
             .join(models.Printing).join(models.Card).switch(models.Printing).join(models.CardSet)
             .where(models.OwnedCard.owner == user).order_by(models.OwnedCard.id))
    collection = [{"game": o.printing.card.game, "card": o.printing.card.key, "set": o.printing.card_set.code,
                   "number": o.printing.number, "source_id": o.printing.source_id,
                   **{q: getattr(o, q) for q in _QTY}} for o in owned]
    sessions = [{"game": s.game, "deck": deck_index.get(s.deck_id), "deck_data": s.deck_data, "seed": s.seed,
                 "options": s.options, "actions": s.actions, "result": s.result,
                 "created_at": _time(s.created_at), "updated_at": _time(s.updated_at)}
                for s in models.GoldfishSession.select().where(models.GoldfishSession.owner == user)
                .order_by(models.GoldfishSession.id)]
    return {"format": FORMAT, "version": VERSION,
            "user": {"username": user.username, "password_hash": user.password_hash,
                     "is_curator": user.is_curator, "created_at": _time(user.created_at)},
            "decks": out_decks, "collection": collection, "goldfish_sessions": sessions}


def _printing_index() -> dict[tuple, int]:
    """(game, card key, set code, number, source id) -> printing id; also without the source id."""
    index: dict[tuple, int] = {}
    query = (models.Printing.select(models.Printing.id, models.Printing.number, models.Printing.source_id,
                                    models.Card.game, models.Card.key, models.CardSet.code)
             .join(models.Card).switch(models.Printing).join(models.CardSet).tuples())
    for pid, number, source_id, game, key, code in query:
        index.setdefault((game, key, code, number, source_id), pid)
        index.setdefault((game, key, code, number, None), pid)
    return index


def import_user(doc: dict[str, Any], username: str | None = None) -> models.User:
    """Restore an exported user (optionally under another name); all or nothing."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BackupError(f"not a {FORMAT} file")
    if doc.get("version") != VERSION:
        raise BackupError(f"unsupported {FORMAT} version {doc.get('version')!r}")
    account = doc.get("user") or {}
    name = username or account.get("username")
    if not isinstance(name, str) or not name:
        raise BackupError("the file names no user")
    from deckhub.accounts import find_user
    if find_user(name) is not None:
        raise BackupError(f"a user named {name!r} already exists here; choose another name with --as")
    printings = _printing_index()
    with database.atomic():
        user = models.User.create(username=name, password_hash=account.get("password_hash") or "!",
                                  is_curator=bool(account.get("is_curator")),
                                  created_at=_parse_time(account.get("created_at")))
        deck_rows = []
        for i, d in enumerate(doc.get("decks") or []):
            try:
                row = models.Deck.create(owner=user, game=d["game"], format=d["format"], packs=d.get("packs"),
                                         name=d["name"], description=d.get("description") or "",
                                         is_public=bool(d.get("is_public")),
                                         created_at=_parse_time(d.get("created_at")),
                                         updated_at=_parse_time(d.get("updated_at")))
                for v in d.get("versions") or []:
                    models.DeckVersion.create(deck=row, number=int(v["number"]), data=v["data"],
                                              note=v.get("note") or "", created_at=_parse_time(v.get("created_at")))
                for r in d.get("simulations") or []:
                    models.SimulationRun.create(deck=row, version=int(r["version"]), owner=user, game=r["game"],
                                                games=int(r["games"]), seed=int(r["seed"]), options=r.get("options") or {},
                                                status="done", done=int(r["games"]), result=r.get("result"),
                                                stuck=r.get("stuck"), created_at=_parse_time(r.get("created_at")))
            except (KeyError, TypeError, ValueError) as exc:
                raise BackupError(f"deck {i + 1}: {exc}") from None
            deck_rows.append(row)
        for i, c in enumerate(doc.get("collection") or []):
            key = (c.get("game"), c.get("card"), c.get("set"), c.get("number"), c.get("source_id"))
            pid = printings.get(key) or printings.get(key[:4] + (None,))
            if pid is None:
                raise BackupError(f"collection row {i + 1}: {c.get('card')!r} ({c.get('set')} {c.get('number')}) "
                                  "is not in this installation's catalogue; load the same catalogue first")
            values = {q: int(c.get(q) or 0) for q in _QTY}
            if any(v < 0 for v in values.values()):
                raise BackupError(f"collection row {i + 1}: quantities cannot be negative")
            models.OwnedCard.create(owner=user, printing=pid, **values)
        for i, s in enumerate(doc.get("goldfish_sessions") or []):
            deck = s.get("deck")
            if deck is not None and not (isinstance(deck, int) and 0 <= deck < len(deck_rows)):
                raise BackupError(f"goldfish session {i + 1}: unknown deck {deck!r}")
            models.GoldfishSession.create(owner=user, deck=deck_rows[deck] if deck is not None else None,
                                          game=s["game"], deck_data=s["deck_data"], seed=int(s["seed"]),
                                          options=s.get("options") or {}, actions=s.get("actions") or [],
                                          result=s.get("result"), created_at=_parse_time(s.get("created_at")),
                                          updated_at=_parse_time(s.get("updated_at")))
    return user


def backup_sqlite(target: Path) -> int:
    """A consistent copy of the site's SQLite database while it runs (SQLite's online backup),
    whatever its schema; the database itself is only read."""
    from peewee import SqliteDatabase
    db = database.obj
    if not isinstance(db, SqliteDatabase):
        raise BackupError("deckhub backup copies an SQLite database; for PostgreSQL use pg_dump")
    target = Path(target)
    if target.exists():
        raise BackupError(f"{target} exists; choose a new file")
    target.parent.mkdir(parents=True, exist_ok=True)
    if not Path(db.database).is_file():
        raise BackupError(f"there is no database at {db.database}")
    # Read-only, through its own connection: the site's pooled connections set pragmas (WAL mode)
    # that would write to a database kept in another journal mode.
    source = sqlite3.connect(f"{Path(db.database).resolve().as_uri()}?mode=ro", uri=True)
    try:
        dest = sqlite3.connect(target)
        with dest:
            source.backup(dest)
        pages = dest.execute("PRAGMA page_count").fetchone()[0]
        dest.close()
    finally:
        source.close()
    return pages
