"""Moving one user's data between installations, and consistent copies of an SQLite database.

`export_user` writes everything a user owns as one JSON document: the account (its password hash
only when asked), decks with every version and the records of copies made of them or by them,
the collection, goldfish games, finished simulations and tuning runs (with the card values they
played without), the real games each deck played, the user's own card values, the public-lists opt-in, and their card-fact
proposals with their batches, scans and the fact changes they caused. Cards and printings are
named by catalogue keys, other rows by their place in the file, so `import_user` restores it into
another installation (SQLite or PostgreSQL) with new ids, in one transaction: all of it or nothing.
API tokens stay behind: they are credentials, and the user makes new ones where they move.
"""
from __future__ import annotations

import base64
import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

from deckhub.services import jobs, kept_matches, owned_sets, played_games, tallies
from deckhub.services.decks import keep_current_cards, record_copy
from deckhub.store import models
from deckhub.store.db import database

FORMAT = "deckhub-user"
VERSION = 2  # 1: decks, collection, goldfish games, finished simulations (still read)
_QTY = ("quantity", "foil_quantity", "want_quantity", "trade_quantity")
UNUSABLE_PASSWORD = "!"  # matches no password: the account logs in once an operator sets one


class BackupError(ValueError):
    pass


def _time(value: dt.datetime | None) -> str | None:
    return value.isoformat(timespec="microseconds") if value else None


def _parse_time(value: Any, default: Any = models.utcnow) -> dt.datetime | None:
    if not value:
        return default() if callable(default) else default
    try:
        return dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise BackupError(f"not a date and time: {value!r}") from None


def _printing_key(p: models.Printing) -> dict[str, Any]:
    return {"game": p.card.game, "card": p.card.key, "set": p.card_set.code, "number": p.number, "source_id": p.source_id}


def _run(r: models.SimulationRun) -> dict[str, Any]:
    return {"version": r.version, "game": r.game, "games": r.games, "seed": r.seed, "options": r.options,
            "status": r.status, "done": r.done, "result": r.result, "stuck": r.stuck, "error": r.error,
            "unknown": r.unknown, "created_at": _time(r.created_at), "updated_at": _time(r.updated_at)}


_TUNING_FIELDS = ("version", "game", "budget", "seed", "options", "candidates", "candidate_source", "format",
                  "unknown_cards", "status", "round", "done", "total", "result", "error")


def _tuning(t: models.TuningRun) -> dict[str, Any]:
    return {**{f: getattr(t, f) for f in _TUNING_FIELDS}, "created_at": _time(t.created_at),
            "updated_at": _time(t.updated_at)}


def _user(username: str) -> models.User:
    user = models.User.get_or_none(models.User.username == username)
    if user is None:
        raise BackupError(f"no user named {username!r}")
    return user


def export_user_file(username: str, with_password: bool = False) -> tuple[dict[str, Any], int]:
    """`deckhub export-user`: (the user's document, how many of their runs were left out because
    they were still queued or playing)."""
    return export_user(username, with_password), active_runs(username)


def active_runs(username: str) -> int:
    """The user's simulations and tuning runs still queued or playing: an export leaves them out."""
    user = _user(username)
    return sum(m.select().where((m.owner == user) & m.status.in_(jobs.ACTIVE)).count()
               for m in (models.SimulationRun, models.TuningRun))


def export_user(username: str, with_password: bool = False) -> dict[str, Any]:
    """The user's document; the password hash only `with_password` (the file then holds a credential)."""
    user = _user(username)
    D, V, S, T = models.Deck, models.DeckVersion, models.SimulationRun, models.TuningRun
    decks = list(D.select().where(D.owner == user).order_by(D.id))
    deck_index = {d.id: i for i, d in enumerate(decks)}
    out_decks = []
    for d in decks:
        out_decks.append({
            "name": d.name, "game": d.game, "format": d.format, "packs": d.packs, "description": d.description,
            "is_public": d.is_public, "show_record": d.show_record, "share_token": d.share_token,
            "created_at": _time(d.created_at), "updated_at": _time(d.updated_at),
            "versions": [{"number": v.number, "created_at": _time(v.created_at), "data": v.data, "note": v.note}
                         for v in V.select().where(V.deck == d).order_by(V.number)],
            "simulations": [_run(r) for r in S.select().where((S.deck == d) & S.status.not_in(jobs.ACTIVE)).order_by(S.id)],
            "tunings": [_tuning(t) for t in T.select().where((T.deck == d) & T.status.not_in(jobs.ACTIVE)).order_by(T.id)],
            "games_played": played_games.export_rows(d),
        })
    C = models.DeckCopy
    ids = list(deck_index)
    copies = [{"source": deck_index.get(c.source_id), "copy": deck_index.get(c.copy_id),
               # a copy this user made of someone else's deck names that deck by its link, found again if it moved too
               "source_share_token": None if c.source_id in deck_index else c.source.share_token,
               "created_at": _time(c.created_at)}
              for c in C.select().where(C.source.in_(ids) | C.copy.in_(ids)).order_by(C.created_at, C.id)] if ids else []
    owned = (models.OwnedCard.select(models.OwnedCard, models.Printing, models.Card, models.CardSet)
             .join(models.Printing).join(models.Card).switch(models.Printing).join(models.CardSet)
             .where(models.OwnedCard.owner == user).order_by(models.OwnedCard.id))
    collection = [{**_printing_key(o.printing), **{q: getattr(o, q) for q in _QTY}} for o in owned]
    G = models.GoldfishSession
    sessions = [{"game": s.game, "deck": deck_index.get(s.deck_id), "deck_data": s.deck_data, "seed": s.seed,
                 "options": s.options, "actions": s.actions, "result": s.result, "share_token": s.share_token,
                 "archived": s.archived, "created_at": _time(s.created_at), "updated_at": _time(s.updated_at)}
                for s in G.select().where(G.owner == user).order_by(G.id)]
    U = models.UserCardValue
    values = [{"game": v.game, "card": v.card_key, "field": v.field, "value": v.value, "updated_at": _time(v.updated_at)}
              for v in U.select().where(U.owner == user).order_by(U.id)]
    public = models.PublicLists.get_or_none(models.PublicLists.user == user)
    account = {"username": user.username, "is_curator": user.is_curator, "created_at": _time(user.created_at),
               "public_lists_since": _time(public.since) if public else None}
    if with_password:
        account["password_hash"] = user.password_hash
    batches, proposals = _export_proposals(user)
    return {"format": FORMAT, "version": VERSION, "user": account, "decks": out_decks, "deck_copies": copies,
            "collection": collection, "goldfish_sessions": sessions, "card_values": values,
            "proposal_batches": batches, "proposals": proposals}


def _export_proposals(user: models.User) -> tuple[list[dict], list[dict]]:
    """The user's proposal batches and proposals, each proposal with its scans and the fact changes it caused."""
    B, P, F, S = models.ProposalBatch, models.Proposal, models.FactChange, models.Scan
    batches = list(B.select().where(B.proposer == user).order_by(B.id))
    batch_index = {b.id: i for i, b in enumerate(batches)}
    out = []
    for p in P.select().where(P.proposer == user).order_by(P.id):
        changes = list(F.select().where(F.proposal == p).order_by(F.id))
        change_index = {c.id: i for i, c in enumerate(changes)}
        out.append({
            "game": p.game, "card_key": p.card_key, "new_card": p.new_card, "values": p.values, "source": p.source,
            "status": p.status, "reviewer": p.reviewer.username if p.reviewer_id else None, "reason": p.reason,
            "created_at": _time(p.created_at), "reviewed_at": _time(p.reviewed_at), "batch": batch_index.get(p.batch_id),
            "changes": [{"game": c.game, "card_key": c.card_key, "field": c.field, "old_value": c.old_value,
                         "new_value": c.new_value, "old_provenance": c.old_provenance, "source": c.source,
                         "actor": c.actor.username if c.actor_id else None, "reverts": change_index.get(c.reverts_id),
                         "created_at": _time(c.created_at)} for c in changes],
            "scans": [{"game": s.game, "set_code": s.set_code,
                       "printing": _printing_key(s.printing) if s.printing_id else None,
                       "data": base64.b64encode(bytes(s.data)).decode("ascii"), "mime": s.mime, "width": s.width,
                       "height": s.height, "approved": s.approved, "created_at": _time(s.created_at)}
                      for s in S.select().where(S.proposal == p).order_by(S.id)],
        })
    return [{"game": b.game, "set_code": b.set_code, "source": b.source, "created_at": _time(b.created_at)}
            for b in batches], out


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


class _Importer:
    """Writes one document's rows for a new user; every lookup of another installation's rows is here."""

    def __init__(self, doc: dict[str, Any], user: models.User):
        self.doc, self.user = doc, user
        self.printings = _printing_index()
        self.decks: list[models.Deck] = []
        self.lost_copies = 0  # copies of other users' decks whose deck is not in this installation

    def printing(self, ref: dict[str, Any], what: str) -> int:
        key = (ref.get("game"), ref.get("card"), ref.get("set"), ref.get("number"), ref.get("source_id"))
        pid = self.printings.get(key) or self.printings.get(key[:4] + (None,))
        if pid is None:
            raise BackupError(f"{what}: {ref.get('card')!r} ({ref.get('set')} {ref.get('number')}) is not in this "
                              "installation's catalogue; load the same catalogue first")
        return pid

    def deck(self, index: Any, what: str) -> models.Deck | None:
        if index is None:
            return None
        if not (isinstance(index, int) and 0 <= index < len(self.decks)):
            raise BackupError(f"{what}: unknown deck {index!r}")
        return self.decks[index]

    @staticmethod
    def token(model, wanted: Any) -> str:
        """The row's old link token when this installation does not use it yet (shared links keep working)."""
        if isinstance(wanted, str) and wanted and not model.select().where(model.share_token == wanted).exists():
            return wanted
        return models.new_share_token()

    @staticmethod
    def user_named(name: Any) -> models.User | None:
        from deckhub.services.accounts import find_user
        return find_user(name) if isinstance(name, str) and name else None

    def run(self) -> None:
        for i, d in enumerate(self.doc.get("decks") or []):
            try:
                self.decks.append(self.write_deck(d))
            except (KeyError, TypeError, ValueError) as exc:
                raise BackupError(f"deck {i + 1}: {exc}") from None
        for i, c in enumerate(self.doc.get("deck_copies") or []):
            self.write_copy(c, f"deck copy {i + 1}")
        listed: list[int] = []  # printings on the restored want or trade list: other players' matches change
        restored: list[int] = []
        for i, c in enumerate(self.doc.get("collection") or []):
            what = f"collection row {i + 1}"
            values = {q: int(c.get(q) or 0) for q in _QTY}
            if any(v < 0 for v in values.values()):
                raise BackupError(f"{what}: quantities cannot be negative")
            values["trade_quantity"] = min(values["trade_quantity"], values["quantity"] + values["foil_quantity"])
            row = models.OwnedCard.create(owner=self.user, printing=self.printing(c, what), **values)
            restored.append(row.printing_id)
            if values["want_quantity"] or values["trade_quantity"]:
                listed.append(row.printing_id)
        kept_matches.lists_changed(self.user.id, listed)
        owned_sets.sets_changed(self.user.id, restored)
        for i, s in enumerate(self.doc.get("goldfish_sessions") or []):
            what = f"goldfish session {i + 1}"
            try:
                models.GoldfishSession.create(
                    owner=self.user, deck=self.deck(s.get("deck"), what), game=s["game"], deck_data=s["deck_data"],
                    seed=int(s["seed"]), options=s.get("options") or {}, actions=s.get("actions") or [],
                    result=s.get("result"), share_token=self.token(models.GoldfishSession, s.get("share_token")),
                    archived=bool(s.get("archived")), created_at=_parse_time(s.get("created_at")), updated_at=_parse_time(s.get("updated_at")))
                tallies.goldfish_games_changed(s["game"], s["deck_data"], 1)
            except (KeyError, TypeError, ValueError) as exc:
                raise BackupError(f"{what}: {exc}") from None
        for i, v in enumerate(self.doc.get("card_values") or []):
            try:
                models.UserCardValue.create(owner=self.user, game=v["game"], card_key=v["card"], field=v["field"],
                                            value=v["value"], updated_at=_parse_time(v.get("updated_at")))
            except (KeyError, TypeError) as exc:
                raise BackupError(f"card value {i + 1}: {exc}") from None
        self.write_proposals()

    def write_deck(self, d: dict[str, Any]) -> models.Deck:
        row = models.Deck.create(owner=self.user, game=d["game"], format=d["format"], packs=d.get("packs"),
                                 name=d["name"], description=d.get("description") or "",
                                 is_public=bool(d.get("is_public")), show_record=bool(d.get("show_record")),
                                 share_token=self.token(models.Deck, d.get("share_token")),
                                 created_at=_parse_time(d.get("created_at")), updated_at=_parse_time(d.get("updated_at")))
        tallies.public_decks_changed(row.game, int(row.is_public))
        latest = None
        for v in d.get("versions") or []:
            version = models.DeckVersion.create(deck=row, number=int(v["number"]), data=v["data"],
                                                note=v.get("note") or "", created_at=_parse_time(v.get("created_at")))
            if latest is None or version.number > latest.number:
                latest = version
        if latest is not None:
            keep_current_cards(row.id, row.game, latest.data)
        for r in d.get("simulations") or []:
            status = r.get("status") or "done"  # version 1 kept finished runs only
            if status in jobs.ACTIVE:
                raise ValueError(f"a simulation that is still {status} cannot be moved")
            models.SimulationRun.create(
                deck=row, version=int(r["version"]), owner=self.user, game=r["game"], games=int(r["games"]),
                seed=int(r["seed"]), options=r.get("options") or {}, status=status,
                done=int(r["games"] if r.get("done") is None else r["done"]), result=r.get("result"),
                stuck=r.get("stuck"), error=r.get("error"), unknown=r.get("unknown"),
                created_at=_parse_time(r.get("created_at")), updated_at=_parse_time(r.get("updated_at")))
        for t in d.get("tunings") or []:
            if t["status"] in jobs.ACTIVE:
                raise ValueError(f"a tuning run that is still {t['status']} cannot be moved")
            models.TuningRun.create(deck=row, owner=self.user, **{f: t[f] for f in _TUNING_FIELDS},
                                    created_at=_parse_time(t.get("created_at")), updated_at=_parse_time(t.get("updated_at")))
        played_games.import_rows(row, d.get("games_played") or [])
        return row

    def write_copy(self, c: dict[str, Any], what: str) -> None:
        copy = self.deck(c.get("copy"), what)
        source = self.deck(c.get("source"), what)
        created = _parse_time(c.get("created_at"))
        if source is None:
            token = c.get("source_share_token")
            source = models.Deck.get_or_none(models.Deck.share_token == token) if token else None
            if source is None:
                self.lost_copies += 1
                return
            C = models.DeckCopy  # the source's owner moved first: their file kept this copy without its deck
            if C.update(copy=copy).where((C.source == source) & C.copy.is_null() & (C.created_at == created)).execute():
                return
        record_copy(source.id, copy.id if copy is not None else None, created)

    def write_proposals(self) -> None:
        batches = []
        for b in self.doc.get("proposal_batches") or []:
            batches.append(models.ProposalBatch.create(game=b["game"], set_code=b.get("set_code"), source=b["source"],
                                                       proposer=self.user, created_at=_parse_time(b.get("created_at"))))
        for i, p in enumerate(self.doc.get("proposals") or []):
            what = f"proposal {i + 1}"
            batch = p.get("batch")
            if batch is not None and not (isinstance(batch, int) and 0 <= batch < len(batches)):
                raise BackupError(f"{what}: unknown batch {batch!r}")
            try:
                row = models.Proposal.create(
                    game=p["game"], card_key=p.get("card_key") or "", new_card=p.get("new_card"),
                    values=p.get("values") or {}, source=p["source"], proposer=self.user, status=p.get("status") or "pending",
                    reviewer=self.user_named(p.get("reviewer")), reason=p.get("reason") or "",
                    created_at=_parse_time(p.get("created_at")), reviewed_at=_parse_time(p.get("reviewed_at"), None),
                    batch_id=batches[batch].id if batch is not None else None)
                changes: list[models.FactChange] = []
                for c in p.get("changes") or []:
                    reverts = c.get("reverts")
                    changes.append(models.FactChange.create(
                        game=c["game"], card_key=c["card_key"], field=c["field"], old_value=c.get("old_value"),
                        new_value=c.get("new_value"), old_provenance=c.get("old_provenance"), source=c.get("source") or "",
                        proposal=row, actor=self.user_named(c.get("actor")),
                        reverts=changes[reverts] if isinstance(reverts, int) and 0 <= reverts < len(changes) else None,
                        created_at=_parse_time(c.get("created_at"))))
                for s in p.get("scans") or []:
                    models.Scan.create(
                        proposal=row, game=s["game"], set_code=s.get("set_code"), uploader=self.user,
                        printing=self.printing(s["printing"], f"{what}, scan") if s.get("printing") else None,
                        data=base64.b64decode(s["data"], validate=True), mime=s["mime"], width=int(s["width"]),
                        height=int(s["height"]), approved=bool(s.get("approved")), created_at=_parse_time(s.get("created_at")))
            except (KeyError, TypeError, ValueError) as exc:
                raise BackupError(f"{what}: {exc}") from None


def import_user(doc: dict[str, Any], username: str | None = None) -> tuple[models.User, int]:
    """Restore an exported user (optionally under another name); all or nothing.

    Returns the user and the number of copy records left out because the deck copied is not here.
    Without a password hash in the file the account cannot log in until one is set."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise BackupError(f"not a {FORMAT} file")
    if doc.get("version") not in (1, VERSION):
        raise BackupError(f"unsupported {FORMAT} version {doc.get('version')!r}")
    account = doc.get("user") or {}
    name = username or account.get("username")
    if not isinstance(name, str) or not name:
        raise BackupError("the file names no user")
    if _Importer.user_named(name) is not None:
        raise BackupError(f"a user named {name!r} already exists here; choose another name with --as")
    with database.atomic():
        user = models.User.create(username=name, password_hash=account.get("password_hash") or UNUSABLE_PASSWORD,
                                  is_curator=bool(account.get("is_curator")),
                                  created_at=_parse_time(account.get("created_at")))
        if account.get("public_lists_since"):
            models.PublicLists.create(user=user, since=_parse_time(account["public_lists_since"]))
        importer = _Importer(doc, user)
        with tallies.batched():  # its decks' and games' counts written once, in the order every save takes
            importer.run()
    return user, importer.lost_copies


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
