"""Decks as stored: every save keeps a version; private unless made public; copies and diffs.

Views call these functions; the rules themselves live in the pure core (`core.legality`).
Every change of a deck's cards is one transaction that locks the deck, reads its latest version
*inside* the lock, applies the change to it and stores the next number: simultaneous "+" presses
all count (none is applied to a stale copy) and two saves never race for one version number.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Callable

from peewee import SQL, fn

from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.core.legality import allowed_sections
from deckhub.store.db import PreparedSelect, lock, write_transaction
from deckhub.games import get_game
from deckhub.services import kept_matches, tallies
from deckhub.core.paging import Paged
from deckhub.services.limits import MAX_COPIES_PER_ENTRY, MAX_DECK_NAME as MAX_NAME, MAX_DESCRIPTION, MY_DECKS_PER_PAGE
from deckhub.services.tallies import card_counts


class DeckError(ValueError):
    pass


class VersionConflict(DeckError):
    """The change was made to an older version than the deck's latest; nothing was saved."""

    def __init__(self, edited: int, latest: int):
        super().__init__(f"You edited version {edited}, but the deck is at version {latest} now; "
                         "nothing was saved. Read the deck again and apply your change to it.")
        self.edited, self.latest = edited, latest


@dataclass
class StoredDeck:
    """A deck row with its latest version, read together."""

    row: models.Deck
    version: models.DeckVersion

    @property
    def stamp(self) -> tuple:
        """What changes whenever the latest version's cards do: its number, and its time, which an
        editing session's click sets anew when it changes that version in place (see `_amend`)."""
        return self.row.id, self.version.number, self.version.created_at

    @property
    def deck(self) -> Deck:
        deck = Deck.from_json(self.version.data)
        deck.name = self.row.name
        return deck


def latest_version(deck_row: models.Deck) -> models.DeckVersion:
    return (models.DeckVersion.select().where(models.DeckVersion.deck == deck_row)
            .order_by(models.DeckVersion.number.desc()).get())


def load(deck_row: models.Deck) -> StoredDeck:
    return StoredDeck(deck_row, latest_version(deck_row))


def _newest_version_query(deck_id: int):
    newest = (models.DeckVersion.select(fn.MAX(models.DeckVersion.number))
              .where(models.DeckVersion.deck == models.Deck.id))
    # whether any game is logged for the deck (one index probe): its page reads the games only then
    logged = fn.EXISTS(models.PlayedGame.select(SQL("1")).where(models.PlayedGame.deck == models.Deck.id))
    return (models.Deck.select(models.Deck, models.User, models.DeckVersion, logged.alias("has_games"))
            .join(models.User).switch(models.Deck).join(models.DeckVersion)
            .where((models.Deck.id == deck_id) & (models.DeckVersion.number == newest)).limit(1))


_WITH_NEWEST_VERSION = PreparedSelect(models.Deck, _newest_version_query)


def _fetch(deck_id: int) -> StoredDeck | None:
    """The deck, its owner and its latest version in one query (the deck page's hot path); the deck
    row's `has_games` says whether any game is logged for it."""
    row = _WITH_NEWEST_VERSION.first(deck_id)
    if row is None:
        return None
    return StoredDeck(row, row.deckversion)


def visible_deck(deck_id: int, user) -> StoredDeck | None:
    """The deck if `user` may read it (its owner, or anyone when it is public), else None."""
    stored = _fetch(deck_id)
    if stored is None or not (stored.row.is_public or owns(user, stored.row)):
        return None
    return stored


def own_deck(deck_id: int, user) -> StoredDeck | None:
    stored = _fetch(deck_id)
    if stored is None or not owns(user, stored.row):
        return None
    return stored


def owns(user, row: models.Deck) -> bool:
    return bool(user and getattr(user, "is_authenticated", False) and row.owner_id == user.id)


@dataclass
class MyDecksPage(Paged):
    """A page of a player's decks, newest change first, each with its number of versions."""

    rows: list[tuple[models.Deck, int]]
    total: int
    page: int
    per_page: int


def my_decks_page(user, page: int = 1, per_page: int | None = None) -> MyDecksPage:
    """The page (of MY_DECKS_PER_PAGE unless `per_page`) read from the (owner, last change) index and
    only its decks' versions counted, so a player with thousands of decks waits on a page of them;
    counted apart only when the page is full."""
    D, V = models.Deck, models.DeckVersion
    per_page = per_page or MY_DECKS_PER_PAGE
    uid = user if isinstance(user, int) else user.id
    decks = list(D.select().where(D.owner == uid).order_by(D.updated_at.desc(), D.id.desc()).paginate(page, per_page))
    versions = dict(V.select(V.deck, fn.COUNT(V.id)).where(V.deck.in_([d.id for d in decks])).group_by(V.deck)
                    .tuples()) if decks else {}
    before = (page - 1) * per_page
    total = before + len(decks) if 0 < len(decks) < per_page else D.select().where(D.owner == uid).count()
    return MyDecksPage([(d, versions.get(d.id, 0)) for d in decks], total, page, per_page)


def user_decks(user) -> list[tuple[models.Deck, int]]:
    """A user's decks, newest change first, each with its number of versions."""
    query = (models.Deck.select(models.Deck, fn.COUNT(models.DeckVersion.id).alias("versions"))
             .join(models.DeckVersion).where(models.Deck.owner == user)
             .group_by(models.Deck).order_by(models.Deck.updated_at.desc(), models.Deck.id.desc()))
    return [(row, row.versions) for row in query]


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise DeckError("A deck needs a name.")
    return name[:MAX_NAME]


def create_deck(owner, game: str, format_id: str, name: str, packs: int | None = None,
                deck: Deck | None = None, note: str = "created", description: str = "",
                is_public: bool = False) -> StoredDeck:
    """A new deck with its first version, private unless `is_public`, in one transaction."""
    spec = get_game(game)
    fmt = spec.format(format_id)
    deck = deck or Deck(game)
    with write_transaction():
        row = models.Deck.create(owner=owner, game=game, format=fmt.id, packs=packs,
                                 name=_clean_name(name), description=description or "", is_public=is_public)
        version = models.DeckVersion.create(deck=row, number=1, data=_data(deck, game), note=note[:200])
        keep_current_cards(row.id, game, version.data)
        tallies.public_decks_changed(game, int(bool(is_public)))
    return StoredDeck(row, version)


def keep_current_cards(deck_id: int, game: str, data: dict) -> None:
    """Make the deck's `DeckCard` rows those of `data`, its latest version, changing only the rows that
    differ (a click changes one row). Call it inside the transaction that writes that version."""
    DC, D = models.DeckCard, models.Deck
    wanted = card_counts(data)
    held = dict(DC.select(DC.card_key, DC.qty).where(DC.deck == deck_id).tuples())
    gone = [key for key in held if key not in wanted]
    if gone:
        DC.delete().where((DC.deck == deck_id) & DC.card_key.in_(gone)).execute()
    for key, qty in wanted.items():
        if key in held and held[key] != qty:
            DC.update(qty=qty).where((DC.deck == deck_id) & (DC.card_key == key)).execute()
    new = [{"deck": deck_id, "game": game, "card_key": key, "qty": qty}
           for key, qty in wanted.items() if key not in held]
    if new:  # with the deck's visibility as this transaction sees it (a change of it waits on the deck's lock)
        is_public, created_at = D.select(D.is_public, D.created_at).where(D.id == deck_id).tuples().get()
        DC.insert_many([dict(row, is_public=is_public, created_at=created_at) for row in new]).execute()
    tallies.deck_cards_changed(game, [row["card_key"] for row in new], gone)


def _data(deck: Deck, game: str) -> dict:
    data = deck.to_json()
    data["game"] = game
    data.pop("name", None)
    data["sections"] = {s: e for s, e in data["sections"].items() if e}
    return data


def _locked_latest(deck_id: int) -> models.DeckVersion:
    """The latest version, read after taking the deck's lock (inside a write transaction)."""
    lock(f"deck:{deck_id}")
    return (models.DeckVersion.select().where(models.DeckVersion.deck == deck_id)
            .order_by(models.DeckVersion.number.desc()).get())


# One version per editing session: the editor names its session with a random token carried by its
# forms; a ± click of that session changes the session's version in place while that version is still
# the latest, was changed less than EDIT_PAUSE ago and no simulation or tuning run was played on it.
# Any other change (another session's click, a paste, the API) makes a new version as before.
EDIT_PAUSE = dt.timedelta(minutes=10)
EDIT_NOTE = "edited in the editor"
_SESSION_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,40}")


def valid_session_token(token: str) -> bool:
    return bool(_SESSION_TOKEN.fullmatch(token or ""))


def _open_session_version(latest: models.DeckVersion, session: str | None, now: dt.datetime) -> bool:
    """Whether `session`'s next click may change `latest` in place rather than make a new version."""
    if session is None or latest.edit_session != session or now - latest.created_at > EDIT_PAUSE:
        return False
    played = (models.SimulationRun.select().where((models.SimulationRun.deck == latest.deck_id)
                                                  & (models.SimulationRun.version == latest.number)).exists()
              or models.TuningRun.select().where((models.TuningRun.deck == latest.deck_id)
                                                 & (models.TuningRun.version == latest.number)).exists())
    return not played


def _apply(stored: StoredDeck, change: Callable[[Deck], Deck | None], note: str,
           edited: int | None = None, session: str | None = None) -> StoredDeck:
    """One use case for every change of cards: `change` gets the latest deck and returns the new one
    (or None: nothing to do). `edited`, when given, must be the latest version's number. With an
    editing `session` the change may go into that session's open version (see EDIT_PAUSE); a change
    that brings it back to the version before drops it, so undoing a session's clicks leaves no trace."""
    row = stored.row
    with write_transaction():
        latest = _locked_latest(row.id)
        if edited is not None and edited != latest.number:
            raise VersionConflict(edited, latest.number)
        new = change(Deck.from_json(latest.data))
        data = _data(new, row.game) if new is not None else latest.data
        if data == latest.data:
            return StoredDeck(row, latest)
        now = models.utcnow()
        if _open_session_version(latest, session, now):
            version = _amend(latest, data, now)
        else:
            version = models.DeckVersion.create(deck=row.id, number=latest.number + 1, data=data, note=note[:200],
                                                created_at=now, edit_session=session)
        keep_current_cards(row.id, row.game, version.data)
        models.Deck.update(updated_at=now).where(models.Deck.id == row.id).execute()
    return StoredDeck(models.Deck.get_by_id(row.id), version)


def _amend(latest: models.DeckVersion, data: dict, now: dt.datetime) -> models.DeckVersion:
    """Put `data` into the open session version `latest`, or drop it when `data` is its predecessor's."""
    previous = (models.DeckVersion.select().where((models.DeckVersion.deck == latest.deck_id)
                                                  & (models.DeckVersion.number < latest.number))
                .order_by(models.DeckVersion.number.desc()).first())
    if previous is not None and previous.data == data:
        latest.delete_instance()
        return previous
    (models.DeckVersion.update(data=data, created_at=now)
     .where(models.DeckVersion.id == latest.id).execute())
    return models.DeckVersion.get_by_id(latest.id)


def close_session(deck_id: int, session: str) -> None:
    """Save in the editor: the session's version stays as it is; its next click makes a new version."""
    (models.DeckVersion.update(edit_session=None)
     .where((models.DeckVersion.deck == deck_id) & (models.DeckVersion.edit_session == session)).execute())


def save_version(stored: StoredDeck, deck: Deck, note: str, edited: int | None = None) -> StoredDeck:
    """Keep `deck` as a new version when its cards differ from the latest; a save that changes nothing
    keeps none. With `edited` (the version the client changed), a newer latest is a VersionConflict."""
    return _apply(stored, lambda _latest: deck, note, edited)


def add_cards(stored: StoredDeck, entries, note: str) -> StoredDeck:
    """Add (section, card, qty) entries to the latest version (a pasted list in "add" mode)."""
    def change(deck: Deck) -> Deck:
        for section, key, qty in entries:
            deck.add(section, key, qty)
        return deck
    return _apply(stored, change, note)


def paste_list(stored: StoredDeck, deck: Deck, replace: bool) -> StoredDeck:
    """A list pasted in the editor: the deck's cards from now on (`replace`), or cards added to them."""
    if replace:
        return save_version(stored, deck, "replaced from a list")
    return add_cards(stored, list(deck.entries()), "pasted a list")


def sections_for(stored: StoredDeck, card) -> tuple[str, ...]:
    """The sections of this deck (its game and format) the card may be added to: the editor offers
    only these, and `change_quantity` refuses the others."""
    spec = get_game(stored.row.game)
    return allowed_sections(spec, spec.format(stored.row.format), card)


def _refuse_wrong_section(stored: StoredDeck, card, section: str) -> None:
    allowed = sections_for(stored, card)
    if section in allowed:
        return
    spec = get_game(stored.row.game)
    what = f"{card.display_name} ({card.type})" if card.type else card.display_name
    where = (f"it may go in the {' or the '.join(allowed)}." if allowed
             else f"no section of a {spec.format(stored.row.format).name} deck may hold it.")
    raise DeckError(f"{what} cannot go in the {section}: {where}")


def change_quantity(stored: StoredDeck, section: str, card_key: str, delta: int,
                    session: str | None = None) -> StoredDeck:
    """Add `delta` copies (negative: remove) to the latest version, within 0..MAX_COPIES_PER_ENTRY.
    Without an editing `session` every click is a version; with one, a session is one version.
    DeckError for a section the game's decks lack, a card its catalogue lacks, a card added to a
    section its format keeps it out of, or a `delta` of 0 or over MAX_COPIES_PER_ENTRY."""
    spec = get_game(stored.row.game)
    if spec.section(section) is None:
        raise DeckError(f"{spec.name} decks have no section {section!r}.")
    section = spec.section(section).name
    card = get_catalogue(spec.slug).get(card_key)
    if card is None:
        raise DeckError(f"There is no {spec.name} card {card_key!r}.")
    if delta > 0:  # taking a card out of a wrong section is always allowed: that is how it gets fixed
        _refuse_wrong_section(stored, card, section)
    if not -MAX_COPIES_PER_ENTRY <= delta <= MAX_COPIES_PER_ENTRY or delta == 0:
        raise DeckError(f"Change a quantity by 1 to {MAX_COPIES_PER_ENTRY} copies at a time.")

    def change(deck: Deck) -> Deck:
        entries = deck.sections.setdefault(section, {})
        qty = max(0, min(MAX_COPIES_PER_ENTRY, entries.get(card_key, 0) + delta))
        if qty:
            entries[card_key] = qty
        else:
            entries.pop(card_key, None)
        return deck
    if session is not None:
        return _apply(stored, change, EDIT_NOTE, session=session)
    verb = "added" if delta > 0 else "removed"
    return _apply(stored, change, f"{verb} {abs(delta)} × {card_key} ({section})")


SETTINGS = ("name", "description", "format", "packs", "is_public", "show_record")


def _clean_settings(game: str, changes: dict) -> dict:
    unknown = set(changes) - set(SETTINGS)
    if unknown:
        raise TypeError(f"not a deck setting: {', '.join(sorted(unknown))}")
    clean = dict(changes)
    if "name" in clean:
        clean["name"] = _clean_name(clean["name"])
    if "description" in clean:
        clean["description"] = (clean["description"] or "")[:MAX_DESCRIPTION]
    if "format" in clean:
        clean["format"] = get_game(game).format(clean["format"]).id
    for flag in ("is_public", "show_record"):
        if flag in clean:
            clean[flag] = bool(clean[flag])
    return clean


def update_settings(stored: StoredDeck, **changes) -> None:
    """Write the settings named in `changes` (of SETTINGS) and only them: a setting this request merely
    read is never written back, so a simultaneous change of another setting (or of the cards) stays."""
    clean = _clean_settings(stored.row.game, changes)
    if not clean:
        return
    D, DC = models.Deck, models.DeckCard
    with write_transaction():
        if "is_public" in clean:  # counted only when it changes (a request that sets it again counts nothing)
            public = clean["is_public"]
            lock(f"deck:{stored.row.id}")  # a save writing the deck's card rows at the same time goes first
            if D.update(is_public=public).where((D.id == stored.row.id) & (D.is_public != public)).execute():
                DC.update(is_public=public).where(DC.deck == stored.row.id).execute()
                tallies.public_decks_changed(stored.row.game, 1 if public else -1)
        D.update(**clean, updated_at=models.utcnow()).where(D.id == stored.row.id).execute()


def edit_settings(stored: StoredDeck, **values) -> None:
    """The settings form sends every setting: write those that differ from the deck as this request
    read it (what the player changed), so the fields they left alone never undo another change."""
    clean = _clean_settings(stored.row.game, values)
    update_settings(stored, **{k: v for k, v in clean.items() if v != getattr(stored.row, k)})


def update_deck(stored: StoredDeck, settings: dict, deck: Deck | None = None, edited: int | None = None,
                note: str = "updated") -> StoredDeck:
    """Change the deck `settings` named (see update_settings) and, with `deck`, its cards, in one
    transaction: all of it or nothing (a VersionConflict when `edited` is not the latest version any more)."""
    with write_transaction():
        if deck is not None:
            save_version(stored, deck, note, edited=edited)
        update_settings(stored, **settings)
    return load(models.Deck.get_by_id(stored.row.id))


def copy_deck(stored: StoredDeck, owner) -> StoredDeck:
    """A new deck of `owner` with the cards of `stored`; the copy is recorded with it (one
    transaction), so the public deck browser can sort by copies made."""
    with write_transaction():
        new = create_deck(owner, stored.row.game, stored.row.format, f"Copy of {stored.row.name}",
                          stored.row.packs, stored.deck, note=f"copied from deck {stored.row.id}",
                          description=stored.row.description)
        record_copy(stored.row.id, new.row.id)
    return new


def record_copy(source_id: int, copy_id: int | None, created_at: dt.datetime | None = None) -> None:
    """One copy made of deck `source_id`, counted on the deck too (the browser sorts by the count)."""
    models.DeckCopy.create(source=source_id, copy=copy_id, created_at=created_at or models.utcnow())
    models.Deck.update(copies=models.Deck.copies + 1).where(models.Deck.id == source_id).execute()


def delete_deck(stored: StoredDeck) -> None:
    """The deck with its versions and everything kept of it, all or nothing; the counts of its cards
    and of public decks lose it (read under the deck's lock, so a save at the same time is counted first)."""
    D, DC = models.Deck, models.DeckCard
    with write_transaction():
        lock(f"deck:{stored.row.id}")
        held = [key for (key,) in DC.select(DC.card_key).where(DC.deck == stored.row.id).tuples()]
        tallies.deck_cards_changed(stored.row.game, (), held)
        if D.update(is_public=False).where((D.id == stored.row.id) & (D.is_public == True)).execute():  # noqa: E712
            tallies.public_decks_changed(stored.row.game, -1)
        kept_matches.forget_deck(stored.row.owner_id, stored.row.id)
        stored.row.delete_instance(recursive=True)


def versions(row: models.Deck) -> list[models.DeckVersion]:
    return list(models.DeckVersion.select().where(models.DeckVersion.deck == row)
                .order_by(models.DeckVersion.number.desc()))


def version(row: models.Deck, number: int) -> models.DeckVersion | None:
    return models.DeckVersion.get_or_none((models.DeckVersion.deck == row) & (models.DeckVersion.number == number))
