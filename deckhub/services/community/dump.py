"""An open dump of a game's catalogue: every card with each known fact's provenance (imported,
derived or contributed; by whom, agreed by whom, by which rule, from what source) and each disputed
field's competing values, dated and versioned, so the community's work outlives any one site."""
from __future__ import annotations

from typing import Any

from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.agreement import game_disputes
from deckhub.services.community.fields import current_value, find_game, is_empty, proposable_fields
from deckhub.store import models

FORMAT = "deckhub-catalogue-dump"
VERSION = 1   # raised when a key changes meaning or goes; new keys may appear without it


def catalogue_dump(slug: str) -> dict[str, Any]:
    """The dump of a game as it is now (see the module's docstring; README "Catalogue dump")."""
    game = find_game(slug)
    catalogue = get_catalogue(game.slug)
    stamp = models.CatalogueStamp.get_or_none(models.CatalogueStamp.game == game.slug)
    rows = {key: data or {} for key, data in models.Card.select(models.Card.key, models.Card.data)
            .where(models.Card.game == game.slug).tuples()}
    disputes = game_disputes(game.slug)
    keys = [f.key for f in proposable_fields(game.slug)]
    now = models.utcnow().replace(microsecond=0)
    cards = []
    for card in catalogue:
        data = rows.get(card.key, {})
        contributions = data.get("contributions") or {}
        community = set(data.get("contributed_sources") or ())
        imported = [s for s in card.sources if s not in community]
        facts = {}
        for key in dict.fromkeys([*keys, *card.attrs]):
            value = current_value(card, key)
            if is_empty(value):
                continue
            how = card.provenance.get(key) or "imported"
            fact: dict[str, Any] = {"value": value, "how": how}
            if how == "contributed" and key in contributions:
                detail = contributions[key]
                fact.update({k: detail.get(k) for k in ("by", "reviewer", "at", "source", "rule", "agreed_by")
                             if detail.get(k) is not None})
            else:
                fact["sources"] = imported
            facts[key] = fact
        cards.append({"id": card.key, "name": card.name, "version": card.version,
                      "printings": [p.to_json() for p in card.printings], "facts": facts,
                      "disputed": {field: [{"value": c.value, "supporters": list(c.supporters), "sources": list(c.sources)}
                                           for c in competing] for field, competing in disputes.get(card.key, {}).items()}})
    return {"format": FORMAT, "version": VERSION, "game": game.slug, "name": game.name, "date": now.date().isoformat(),
            "generated_at": now.isoformat() + "Z", "catalogue_version": stamp.version if stamp else 0,
            "sets": [{"code": s.code, "name": s.name, "size": s.size}
                     for s in sorted(catalogue.sets.values(), key=lambda s: s.position)],
            "cards": cards}
