"""Decks as stored: every save keeps a version; private unless made public; copies and diffs.

Views call these functions; the rules themselves live in the pure core (`core.legality`).
"""
from __future__ import annotations

from dataclasses import dataclass

from peewee import fn

from deckhub import models
from deckhub.core.decklist import Deck
from deckhub.db import database
from deckhub.games import get_game

MAX_COPIES_PER_ENTRY = 999
MAX_NAME = 120


class DeckError(ValueError):
    pass


@dataclass
class StoredDeck:
    """A deck row with its latest version, read together."""

    row: models.Deck
    version: models.DeckVersion

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


def _fetch(deck_id: int) -> StoredDeck | None:
    """The deck, its owner and its latest version in one query (the deck page's hot path)."""
    newest = (models.DeckVersion.select(fn.MAX(models.DeckVersion.number))
              .where(models.DeckVersion.deck == models.Deck.id))
    row = (models.Deck.select(models.Deck, models.User, models.DeckVersion)
           .join(models.User).switch(models.Deck).join(models.DeckVersion)
           .where((models.Deck.id == deck_id) & (models.DeckVersion.number == newest)).first())
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
                deck: Deck | None = None, note: str = "created", description: str = "") -> StoredDeck:
    spec = get_game(game)
    fmt = spec.format(format_id)
    deck = deck or Deck(game)
    with database.atomic():
        row = models.Deck.create(owner=owner, game=game, format=fmt.id, packs=packs,
                                 name=_clean_name(name), description=description or "")
        version = models.DeckVersion.create(deck=row, number=1, data=_data(deck, game), note=note[:200])
    return StoredDeck(row, version)


def _data(deck: Deck, game: str) -> dict:
    data = deck.to_json()
    data["game"] = game
    data.pop("name", None)
    data["sections"] = {s: e for s, e in data["sections"].items() if e}
    return data


def save_version(stored: StoredDeck, deck: Deck, note: str) -> StoredDeck:
    """Keep a new version when the cards changed; a save that changes nothing keeps none."""
    data = _data(deck, stored.row.game)
    if data == stored.version.data:
        return stored
    with database.atomic():
        number = (models.DeckVersion.select(fn.MAX(models.DeckVersion.number))
                  .where(models.DeckVersion.deck == stored.row).scalar() or 0) + 1
        version = models.DeckVersion.create(deck=stored.row, number=number, data=data, note=note[:200])
        models.Deck.update(updated_at=models.utcnow()).where(models.Deck.id == stored.row.id).execute()
    return StoredDeck(models.Deck.get_by_id(stored.row.id), version)


def change_quantity(stored: StoredDeck, section: str, card_key: str, delta: int) -> StoredDeck:
    deck = stored.deck
    entries = deck.sections.setdefault(section, {})
    qty = max(0, min(MAX_COPIES_PER_ENTRY, entries.get(card_key, 0) + delta))
    if qty:
        entries[card_key] = qty
    else:
        entries.pop(card_key, None)
    verb = "added" if delta > 0 else "removed"
    return save_version(stored, deck, f"{verb} {abs(delta)} × {card_key} ({section})")


def update_settings(stored: StoredDeck, name: str, description: str, format_id: str,
                    packs: int | None, is_public: bool) -> None:
    fmt = get_game(stored.row.game).format(format_id)
    (models.Deck.update(name=_clean_name(name), description=(description or "")[:5000], format=fmt.id,
                        packs=packs, is_public=is_public, updated_at=models.utcnow())
     .where(models.Deck.id == stored.row.id).execute())


def copy_deck(stored: StoredDeck, owner) -> StoredDeck:
    return create_deck(owner, stored.row.game, stored.row.format, f"Copy of {stored.row.name}",
                       stored.row.packs, stored.deck, note=f"copied from deck {stored.row.id}",
                       description=stored.row.description)


def delete_deck(stored: StoredDeck) -> None:
    stored.row.delete_instance(recursive=True)


def versions(row: models.Deck) -> list[models.DeckVersion]:
    return list(models.DeckVersion.select().where(models.DeckVersion.deck == row)
                .order_by(models.DeckVersion.number.desc()))


def version(row: models.Deck, number: int) -> models.DeckVersion | None:
    return models.DeckVersion.get_or_none((models.DeckVersion.deck == row) & (models.DeckVersion.number == number))
