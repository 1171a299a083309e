"""What the review pages read: the waiting and reviewed proposals and batches, a player's own, and diffs.

A diff sets every proposed value beside the card's current one, re-checked as approval would
check it (`revalidate`); a batch shows as a cell diff, a row per card and a column per field.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from peewee import fn

from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.errors import NotFound
from deckhub.services.community.fields import (current_value, fields_by_key, proposable_fields, validate_new_card,
                                               validate_values)
from deckhub.store import models


def get_proposal(proposal_id: int) -> models.Proposal:
    proposal = (models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
                .where(models.Proposal.id == proposal_id).first())
    if proposal is None:
        raise NotFound(f"There is no proposal number {proposal_id}.")
    return proposal


def pending(slug: str | None = None, limit: int = 50, offset: int = 0, batched: bool = True) -> list[models.Proposal]:
    """Proposals waiting for review, oldest first (without those sent in batches unless `batched`)."""
    query = (models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
             .where(models.Proposal.status == "pending"))
    if not batched:
        query = query.where(models.Proposal.batch_id.is_null())
    if slug:
        query = query.where(models.Proposal.game == slug)
    return list(query.order_by(models.Proposal.created_at, models.Proposal.id).offset(offset).limit(limit))


def pending_count(slug: str | None = None, batched: bool = True) -> int:
    query = models.Proposal.select().where(models.Proposal.status == "pending")
    if not batched:
        query = query.where(models.Proposal.batch_id.is_null())
    if slug:
        query = query.where(models.Proposal.game == slug)
    return query.count()


def user_proposals(user: models.User, limit: int = 100) -> list[models.Proposal]:
    return list(models.Proposal.select().where(models.Proposal.proposer == user.id)
                .order_by(models.Proposal.created_at.desc(), models.Proposal.id.desc()).limit(limit))


def reviewed(slug: str | None = None, limit: int = 30) -> list[models.Proposal]:
    """The latest reviewed proposals, newest first (for the queue's "recently reviewed")."""
    query = (models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
             .where(models.Proposal.status != "pending"))
    if slug:
        query = query.where(models.Proposal.game == slug)
    return list(query.order_by(models.Proposal.reviewed_at.desc(), models.Proposal.id.desc()).limit(limit))


@dataclass
class DiffRow:
    """One proposed value beside the card's current one (and why it cannot be approved, if so)."""

    key: str
    label: str
    current: Any
    provenance: str | None
    proposed: Any
    error: str | None = None

    @property
    def changes(self) -> bool:
        return self.current != self.proposed


def diff(proposal: models.Proposal) -> list[DiffRow]:
    """The proposal's values against the card's current ones, each re-checked as approval would."""
    fields = fields_by_key(proposal.game)
    card = None if proposal.new_card is not None else get_catalogue(proposal.game).get(proposal.card_key)
    rows: list[DiffRow] = []
    values = proposal.values if isinstance(proposal.values, Mapping) else {}
    if proposal.new_card is not None and isinstance(proposal.new_card, Mapping) and proposal.new_card.get("type"):
        values = {"type": proposal.new_card["type"], **values}
    for key, value in values.items():
        spec = fields.get(key)
        error = None
        if spec is None:
            error = "not a field that can be proposed"
        else:
            try:
                spec.clean(value)
            except ValueError as exc:
                error = f"{spec.label} {exc}"
        rows.append(DiffRow(key, spec.label if spec else str(key), current_value(card, key) if card else None,
                            card.provenance.get(key) if card else None, value, error))
    return rows


def revalidate(proposal: models.Proposal) -> tuple[dict[str, Any], dict[str, str | None], dict[str, str]]:
    """(values, new card, errors) as they would be approved now: every check run again."""
    values, errors = validate_values(proposal.game, proposal.values or {})
    new_card = None
    if proposal.new_card is not None:
        raw = proposal.new_card if isinstance(proposal.new_card, Mapping) else {}
        new_card, card_errors = validate_new_card(proposal.game, raw)
        errors.update(card_errors)
        values.pop("type", None)
    elif proposal.status == "pending" and get_catalogue(proposal.game).get(proposal.card_key) is None:
        errors["card"] = f"The card {proposal.card_key!r} is no longer in the catalogue."
    if (not values and proposal.new_card is None and not errors
            and not models.Scan.select().where(models.Scan.proposal == proposal.id).exists()):
        errors["values"] = "The proposal holds no value."
    return values, new_card, errors


def batch_proposals(batch_id: int) -> list[models.Proposal]:
    """A batch's proposals in the order they were sent."""
    return list(models.Proposal.select(models.Proposal, models.User).join(models.User, on=models.Proposal.proposer)
                .where(models.Proposal.batch_id == batch_id).order_by(models.Proposal.id))


def get_batch(batch_id: int) -> models.ProposalBatch:
    batch = (models.ProposalBatch.select(models.ProposalBatch, models.User)
             .join(models.User, on=models.ProposalBatch.proposer).where(models.ProposalBatch.id == batch_id).first())
    if batch is None:
        raise NotFound(f"There is no batch number {batch_id}.")
    return batch


def pending_batches(slug: str | None = None, limit: int = 50) -> list[tuple[models.ProposalBatch, int]]:
    """Batches with proposals still waiting, oldest first, each with how many wait."""
    query = (models.ProposalBatch.select(models.ProposalBatch, models.User, fn.COUNT(models.Proposal.id).alias("waiting"))
             .join(models.User, on=models.ProposalBatch.proposer).switch(models.ProposalBatch)
             .join(models.Proposal, on=(models.Proposal.batch_id == models.ProposalBatch.id))
             .where(models.Proposal.status == "pending")
             .group_by(models.ProposalBatch.id, models.User.id).order_by(models.ProposalBatch.id))
    if slug:
        query = query.where(models.ProposalBatch.game == slug)
    return [(b, b.waiting) for b in query.limit(limit)]


@dataclass
class BatchRow:
    """One card of a batch in the cell diff: its proposal, the cells it changes, its scans."""

    proposal: models.Proposal
    name: str
    number: str | None
    cells: dict[str, DiffRow]
    scan_ids: list[int]


@dataclass
class BatchView:
    batch: models.ProposalBatch
    fields: list[tuple[str, str]]   # (key, label) of every field some card of the batch changes
    rows: list[BatchRow]

    @property
    def waiting(self) -> int:
        return sum(1 for r in self.rows if r.proposal.status == "pending")


def scans_of(proposal_ids: Iterable[int]) -> dict[int, list[int]]:
    """{proposal id: the ids of the scans sent with it} (evidence beside a diff)."""
    ids = list(proposal_ids)
    out: dict[int, list[int]] = {}
    if ids:
        for scan_id, pid in (models.Scan.select(models.Scan.id, models.Scan.proposal)
                             .where(models.Scan.proposal.in_(ids)).order_by(models.Scan.id).tuples()):
            out.setdefault(pid, []).append(scan_id)
    return out


def batch_diff(batch_id: int) -> BatchView:
    """A batch as a cell diff: a row per card, a column per changed field, now against proposed."""
    batch = get_batch(batch_id)
    proposals = batch_proposals(batch.id)
    scans = scans_of([p.id for p in proposals])
    catalogue = get_catalogue(batch.game)
    used: set[str] = set()
    rows = []
    for p in proposals:
        cells = {r.key: r for r in diff(p)}
        used.update(cells)
        if p.new_card is not None and isinstance(p.new_card, Mapping):
            name, number = str(p.new_card.get("name") or ""), p.new_card.get("number")
        else:
            card = catalogue.get(p.card_key)
            name = card.display_name if card else p.card_key
            number = next((pr.number for pr in (card.printings if card else ()) if pr.set_code == batch.set_code), None)
        rows.append(BatchRow(p, name, number, cells, scans.get(p.id, [])))
    fields = [(f.key, f.label) for f in proposable_fields(batch.game) if f.key in used]
    return BatchView(batch, fields, rows)
