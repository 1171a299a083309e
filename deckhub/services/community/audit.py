"""Where a card's values came from: every change of its fields, and the origin of each known field."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from peewee import JOIN

from deckhub.core import cards as core
from deckhub.services.community.fields import CONTROL_CHARS, current_value, fields_by_key, is_empty, proposable_fields
from deckhub.store import models


def card_history(slug: str, key: str, limit: int = 500) -> list[models.FactChange]:
    """Every recorded change of a card's fields, newest first, with proposal and actor loaded."""
    if CONTROL_CHARS.search(key) or len(key) > 200:
        return []
    Actor, Proposer = models.User.alias(), models.User.alias()
    return list(models.FactChange.select(models.FactChange, models.Proposal, Proposer, Actor)
                .join(models.Proposal, join_type=JOIN.LEFT_OUTER, on=(models.FactChange.proposal == models.Proposal.id))
                .join(Proposer, join_type=JOIN.LEFT_OUTER, on=(models.Proposal.proposer == Proposer.id))
                .switch(models.FactChange)
                .join(Actor, join_type=JOIN.LEFT_OUTER, on=(models.FactChange.actor == Actor.id))
                .where((models.FactChange.game == slug) & (models.FactChange.card_key == key))
                .order_by(models.FactChange.created_at.desc(), models.FactChange.id.desc()).limit(limit))


def reverted_ids(changes: Iterable[models.FactChange]) -> set[int]:
    ids = [c.id for c in changes]
    if not ids:
        return set()
    return {r.reverts_id for r in models.FactChange.select(models.FactChange.reverts)
            .where(models.FactChange.reverts.in_(ids))}


@dataclass
class Origin:
    """Where one known field of a card came from, for the card page."""

    key: str
    label: str
    value: Any
    how: str                      # imported, derived or contributed
    sources: tuple[str, ...] = ()
    by: str | None = None         # contributed: the proposer, the curator, when, the proposal
    reviewer: str | None = None
    at: str | None = None
    proposal: int | None = None
    rule: str | None = None       # what applied it without a review: agreement, majority, trusted
    agreed_by: tuple[str, ...] = ()   # the other players who entered the same value


def field_origins(card: core.Card) -> list[Origin]:
    """For every known field of a card (type, the game's fields, text), how its value is known."""
    row = models.Card.get_or_none((models.Card.game == card.game) & (models.Card.key == card.key))
    data = (row.data if row else None) or {}
    contributions = data.get("contributions") or {}
    community = set(data.get("contributed_sources") or ())
    imported = tuple(s for s in card.sources if s not in community)
    keys = ["type", *[k for k in card.attrs], "text"]
    labels = fields_by_key(card.game)
    out: list[Origin] = []
    order = {f.key: i for i, f in enumerate(proposable_fields(card.game))}
    for key in sorted(dict.fromkeys(keys), key=lambda k: order.get(k, len(order))):
        value = current_value(card, key)
        if is_empty(value):
            continue
        how = card.provenance.get(key) or "imported"
        spec = labels.get(key)
        label = spec.label if spec else key.replace("_", " ").capitalize()
        if how == "contributed":
            detail = contributions.get(key) or {}
            out.append(Origin(key, label, value, how, (detail["source"],) if detail.get("source") else card.sources,
                              detail.get("by"), detail.get("reviewer"), detail.get("at"), detail.get("proposal"),
                              detail.get("rule"), tuple(detail.get("agreed_by") or ())))
        elif how == "derived":
            out.append(Origin(key, label, value, how, imported))
        else:
            out.append(Origin(key, label, value, how, imported))
    return out
