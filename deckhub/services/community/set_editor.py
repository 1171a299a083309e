"""The set editor's grid: every printing of a set in collector-number order, every proposable field.

What the editor sends back is a batch (`proposing.propose_batch`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from deckhub.core import cards as core
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.errors import NotFound
from deckhub.services.community.fields import ProposableField, current_value, find_game, proposable_fields



def cell_text(value: Any) -> str:
    """A value as a grid cell shows it (and a form sends it back): "" when unknown, lists comma-joined."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


@dataclass
class GridRow:
    """One printing of a set in the editor: its card and each field's (text, provenance or None)."""

    number: str | None
    rarity: str | None
    card: core.Card
    cells: list[tuple[str, str | None]]


@dataclass
class SetGrid:
    """A set as the set editor shows it: every printing in collector-number order, every field."""

    game: str
    code: str
    name: str
    fields: tuple[ProposableField, ...]
    rows: list[GridRow]

    def row(self, key: str) -> GridRow | None:
        return next((r for r in self.rows if r.card.key == key), None)

    def row_numbered(self, number: str) -> GridRow | None:
        """The first row printed with a collector number ("7", "007" and " 7 " find 7), None if none."""
        wanted = _number_key(number)
        return next((r for r in self.rows if r.number and _number_key(r.number) == wanted), None) if wanted else None


def _number_key(number: str) -> str:
    text = str(number).strip().casefold()
    return (text.lstrip("0") or text) if text.isdecimal() else text


def row_anchor(number: str | None) -> str | None:
    """The HTML id of a row printed with a number (the *Go to number* box jumps to it)."""
    if not number:
        return None
    return "no-" + re.sub(r"[^a-z0-9_-]", "-", _number_key(number))


def set_grid(slug: str, code: str) -> SetGrid:
    """The editor's grid of a set (NotFound for an unknown game or set).

    Kept on the catalogue (see `Catalogue.memo`): a grid changes only when the catalogue does."""
    game = find_game(slug)
    catalogue = get_catalogue(game.slug)
    return catalogue.memo(("community.set_grid", str(code)), lambda: _build_grid(game, catalogue, str(code)))


def _build_grid(game, catalogue, code: str) -> SetGrid:
    from deckhub.core import search as core_search

    try:
        rows = core_search.set_rows(catalogue, code)
    except KeyError:
        raise NotFound(f"{game.name} has no set {str(code)[:80]!r}.") from None
    fields = proposable_fields(game.slug)
    out = []
    for r in rows:
        card, prov = r.card, r.card.provenance
        out.append(GridRow(r.number, r.printing.rarity, card,
                           [(cell_text(current_value(card, f.key)), prov.get(f.key) or "imported") for f in fields]))
    return SetGrid(game.slug, code, catalogue.sets[code].name, fields, out)
