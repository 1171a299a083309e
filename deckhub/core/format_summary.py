"""What a game's formats are, for people: each format's version, source and description, and the
card lists (a Forbidden & Limited list) its checks apply, with each listed name resolved to its
catalogue card. Pure: reads the game's format data and a catalogue, nothing else."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from deckhub.core.cards import Card, Catalogue

if TYPE_CHECKING:
    from deckhub.core.spec import GameSpec


@dataclass(frozen=True)
class ListedCard:
    name: str  # as the list writes it
    card: Card | None  # the catalogue card, None when the catalogue lacks it
    limit: int = 0  # copies allowed: 0 for a banned card


@dataclass(frozen=True)
class CardListSummary:
    id: str
    name: str
    version: str
    source: str
    note: str
    banned: tuple[ListedCard, ...]
    limited: tuple[ListedCard, ...]
    brush_types: tuple[str, ...]


@dataclass(frozen=True)
class FormatSummary:
    id: str
    name: str
    version: str
    source: str
    description: str
    default: bool
    lists: tuple[CardListSummary, ...]


def _resolve(catalogue: Catalogue, name: str) -> Card | None:
    found = catalogue.lookup(name)
    return found[0] if len(found) == 1 else None


def _card_list(list_id: str, data: dict[str, Any], catalogue: Catalogue) -> CardListSummary:
    return CardListSummary(
        list_id, data.get("name", list_id), data.get("version", ""), data.get("source", ""), data.get("note", ""),
        tuple(ListedCard(n, _resolve(catalogue, n)) for n in data.get("banned") or ()),
        tuple(ListedCard(n, _resolve(catalogue, n), int(k)) for n, k in (data.get("limited") or {}).items()),
        tuple(data.get("limited_brush_types") or ()))


def summarize_formats(game: "GameSpec", catalogue: Catalogue) -> list[FormatSummary]:
    """Every format of `game`, the default first, with the lists its checks name (`params.list`)."""
    lists = game.format_lists
    out = []
    for fmt in game.formats:
        named = list(dict.fromkeys(c.params["list"] for c in fmt.checks if c.params.get("list") in lists))
        out.append(FormatSummary(fmt.id, fmt.name, fmt.version, fmt.source, fmt.description, fmt.default,
                                 tuple(_card_list(i, lists[i], catalogue) for i in named)))
    return out
