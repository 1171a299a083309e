"""How an approval and its revert write a card row: values, provenance, contributions, sources.

`Card.data` keeps two keys beside attrs/provenance/sources/aliases for contributed facts:
`contributions` ({field: {"proposal", "by", "reviewer", "at", "source"}}) and
`contributed_sources` (the sources an approval added to the card's list, so a revert or a reload
of `data/` knows which are the community's).
"""
from __future__ import annotations

import copy
import datetime as dt
from typing import Any

from deckhub.services.community.fields import PRINTED
from deckhub.store import models
from deckhub.store.db import database


def source_label(proposal: models.Proposal) -> str:
    """How the card's list of sources names this proposal's source."""
    if proposal.source == PRINTED:
        return f"printed card owned by {proposal.proposer.username}"
    return proposal.source


def locked_card(slug: str, key: str) -> models.Card | None:
    query = models.Card.select().where((models.Card.game == slug) & (models.Card.key == key))
    if getattr(database.obj, "for_update", False):  # PostgreSQL: two approvals of one card queue up
        query = query.for_update()
    return query.first()


def read_field(row: models.Card, key: str) -> Any:
    if key == "type":
        return row.type
    if key == "text":
        return row.text
    return (row.data or {}).get("attrs", {}).get(key)


def write_field(row: models.Card, data: dict, key: str, value: Any, how: str | None) -> None:
    """Set one field of a card row (in memory) with its provenance; None removes it."""
    if key in ("type", "text"):
        setattr(row, key, value)
    elif value is None:
        data["attrs"].pop(key, None)
    else:
        data["attrs"][key] = value
    if how is None:
        data["provenance"].pop(key, None)
    else:
        data["provenance"][key] = how


def card_data(row: models.Card) -> dict:
    data = copy.deepcopy(row.data or {})
    for name, default in (("attrs", {}), ("provenance", {}), ("sources", []), ("aliases", [])):
        data.setdefault(name, default)
    return data


def contribution(proposal: models.Proposal, reviewer_name: str | None, at: dt.datetime, rule: str | None = None,
                 supporters: list[str] | None = None) -> dict[str, Any]:
    """Who gave a field its value; a value applied by a rule (no review) names the rule and the
    other players who entered it, and has no reviewer unless a curator settled it."""
    detail = {"proposal": proposal.id, "by": proposal.proposer.username, "reviewer": reviewer_name,
              "at": at.replace(microsecond=0).isoformat(), "source": source_label(proposal)}
    if rule is not None:
        detail.update(rule=rule, agreed_by=list(supporters or ()))
        if rule != "curator":
            detail["reviewer"] = None
    return detail


def add_source(data: dict, label: str) -> None:
    if label not in data["sources"]:
        data["sources"].append(label)
        data.setdefault("contributed_sources", [])
        if label not in data["contributed_sources"]:
            data["contributed_sources"].append(label)


def drop_unused_sources(data: dict) -> None:
    """Forget sources that approvals added and that no contributed field cites any more."""
    cited = {c.get("source") for c in (data.get("contributions") or {}).values()}
    added = data.get("contributed_sources") or []
    gone = [s for s in added if s not in cited]
    if gone:
        data["sources"] = [s for s in data["sources"] if s not in gone]
        data["contributed_sources"] = [s for s in added if s in cited]
    if not data.get("contributed_sources"):
        data.pop("contributed_sources", None)
    if not data.get("contributions"):
        data.pop("contributions", None)
