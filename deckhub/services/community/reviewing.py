"""Curators' decisions: approve or reject a proposal, or a whole batch at once.

`approve` re-checks every value (a curator cannot approve one that fails) and writes it into the
card (`Card.type`/`text`/`data["attrs"]`, provenance "contributed", the source in the card's
sources, who and when in `data["contributions"]`), one `FactChange` per field, then bumps the
game's `CatalogueStamp` so every worker's catalogue — pages, deck checks, goldfish engines,
simulations — uses the new values at once. A missing card becomes a `Card` (and a `Printing`
when its set is given); the proposal's scans become its printing's image. `reject` records the
reason and changes nothing else.

A curator's own proposal needs another curator; on a site with a single curator that curator may
approve it, and it shows as self-approved (`Proposal.self_approved`: reviewer and proposer are one).
"""
from __future__ import annotations

import datetime as dt
import re
from typing import Any, Mapping

from peewee import IntegrityError

from deckhub.core import cards as core
from deckhub.services.catalogue_store import bump_stamp, number_sort
from deckhub.services.community.card_rows import (add_source, card_data, contribution, drop_unused_sources,
                                                  locked_card, read_field, source_label, write_field)
from deckhub.services.community import notices
from deckhub.services.community.errors import CommunityError, NotAllowed, ProposalInvalid
from deckhub.services.community.fields import CONTROL_CHARS, new_card_key
from deckhub.services.community.staleness import hold_if_stale
from deckhub.services.community.review_queue import batch_proposals, get_batch, get_proposal, revalidate
from deckhub.store import models
from deckhub.store.db import database

MAX_REASON = 500                     # Proposal.reason's column size


def is_curator(user) -> bool:
    return bool(getattr(user, "is_authenticated", True) and getattr(user, "is_curator", False))


def require_curator(user) -> None:
    if not is_curator(user):
        raise NotAllowed("Only a curator may review proposals.")


def other_curators(user: models.User) -> int:
    """How many curators besides `user` could review a proposal of theirs."""
    return models.User.select().where(models.User.is_curator & (models.User.id != user.id)).count()


def check_not_own(proposal: models.Proposal, reviewer: models.User) -> None:
    """NotAllowed when a curator would approve their own proposal while another curator could."""
    if proposal.proposer_id == reviewer.id and other_curators(reviewer):
        raise NotAllowed("Your own proposal needs another curator's review.")


def _claim(proposal_id: int, reviewer: models.User, status: str, reason: str, card_key: str | None = None) -> None:
    """Mark a pending proposal reviewed; CommunityError if another curator got there first."""
    changes: dict[str, Any] = {"status": status, "reviewer": reviewer.id, "reason": reason, "reviewed_at": models.utcnow()}
    if card_key is not None:
        changes["card_key"] = card_key
    updated = (models.Proposal.update(**changes)
               .where((models.Proposal.id == proposal_id) & (models.Proposal.status == "pending")).execute())
    if updated != 1:
        raise CommunityError("This proposal was reviewed already (by another curator?); nothing was changed.")
    notices.tell(proposal_id, status, f"A curator {status} it" + (f": {reason}" if reason else "."))


def clean_reason(reason: str | None, required: bool) -> str:
    text = re.sub(r"\s+", " ", CONTROL_CHARS.sub(" ", reason or "")).strip()
    if required and not text:
        raise ProposalInvalid({"reason": "Give a reason: the proposer sees it."}, "Give a reason: the proposer sees it.")
    if len(text) > MAX_REASON:
        raise ProposalInvalid({"reason": f"A reason is at most {MAX_REASON} characters long."},
                              f"A reason is at most {MAX_REASON} characters long.")
    return text


def reject(proposal_id: int, reviewer: models.User, reason: str) -> models.Proposal:
    """Reject a pending proposal with a reason; nothing in the catalogue changes."""
    require_curator(reviewer)
    reason = clean_reason(reason, required=True)
    get_proposal(proposal_id)
    with database.atomic():
        _claim(proposal_id, reviewer, "rejected", reason)
    return get_proposal(proposal_id)


def approve(proposal_id: int, reviewer: models.User, reason: str = "") -> models.Proposal:
    """Write a pending proposal into the catalogue, with its provenance and one FactChange per field.

    Every value is checked again first (ProposalInvalid: nothing changes); a missing card becomes a
    Card (and a Printing when its set is given). Every worker sees the change at once."""
    require_curator(reviewer)
    reason = clean_reason(reason, required=False)
    proposal = get_proposal(proposal_id)
    check_not_own(proposal, reviewer)
    _check_approvable(proposal)
    try:
        with database.atomic():
            _approve_in(proposal, reviewer, reason)
            bump_stamp(proposal.game)
    except IntegrityError:  # the same missing card approved twice at once
        raise CommunityError("The catalogue changed while this was approved (the card exists now?); "
                             "nothing was changed.") from None
    return get_proposal(proposal_id)


def _check_approvable(proposal: models.Proposal) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """(values, new card) of a pending proposal whose every value passes its checks again."""
    if proposal.status != "pending":
        raise CommunityError(f"This proposal was {proposal.status} already; nothing was changed.")
    hold_if_stale(proposal)
    values, new_card, errors = revalidate(proposal)
    if errors:
        raise ProposalInvalid(errors, "Cannot approve: " + "; ".join(errors.values()))
    return values, new_card


def _approve_in(proposal: models.Proposal, reviewer: models.User, reason: str) -> None:
    """The writes of an approval, inside the caller's transaction (which bumps the stamp once)."""
    values, new_card = _check_approvable(proposal)
    now = models.utcnow()
    if new_card is not None:
        key = _create_card(proposal, new_card, values, reviewer, now)
        _claim(proposal.id, reviewer, "approved", reason, card_key=key)
    else:
        _claim(proposal.id, reviewer, "approved", reason)
        _apply_facts(proposal, values, reviewer, now)
    show_scans(proposal, new_card, True)


def show_scans(proposal: models.Proposal, new_card: Mapping[str, Any] | None, shown: bool) -> None:
    """An approval makes the proposal's scans its printing's image (a revert takes them down).

    A missing card's scan shows the printing its approval just created."""
    if shown and new_card is not None:
        printing = (models.Printing.select(models.Printing.id).join(models.Card)
                    .where((models.Card.game == proposal.game) & (models.Card.key == new_card_key(new_card["name"], new_card.get("version"))))
                    .order_by(models.Printing.id).first())
        if printing is not None:
            models.Scan.update(printing=printing.id).where(models.Scan.proposal == proposal.id).execute()
    models.Scan.update(approved=shown).where(models.Scan.proposal == proposal.id).execute()


def _apply_facts(proposal: models.Proposal, values: Mapping[str, Any], reviewer: models.User, now: dt.datetime,
                 rule: str | None = None, supporters: list[str] | None = None) -> None:
    """Write values into the card. `rule`: what applied them without a curator's review (agreement,
    majority, trusted; `reviewer` is then the player whose entry settled it) and `supporters`: the
    other players who entered the same value."""
    row = locked_card(proposal.game, proposal.card_key)
    if row is None:
        raise CommunityError(f"The card {proposal.card_key!r} is no longer in the catalogue; nothing was changed.")
    data = card_data(row)
    contributions = data.setdefault("contributions", {})
    label = source_label(proposal)
    changed = False
    for key, value in values.items():
        old = read_field(row, key)
        if old == value:
            continue
        models.FactChange.create(game=proposal.game, card_key=row.key, field=key, old_value=old, new_value=value,
                                 old_provenance=data["provenance"].get(key), source=label, proposal=proposal.id,
                                 actor=reviewer.id, created_at=now, rule=rule)
        write_field(row, data, key, value, "contributed")
        contributions[key] = contribution(proposal, reviewer.username, now, rule, supporters)
        changed = True
    if changed:
        add_source(data, label)
    drop_unused_sources(data)
    models.Card.update(type=row.type, text=row.text, data=data).where(models.Card.id == row.id).execute()


def _create_card(proposal: models.Proposal, new_card: Mapping[str, Any], values: Mapping[str, Any],
                 reviewer: models.User, now: dt.datetime) -> str:
    key = new_card_key(new_card["name"], new_card.get("version"))
    label = source_label(proposal)
    detail = contribution(proposal, reviewer.username, now)
    facts = {k: v for k, v in values.items() if k not in ("type", "text")}
    shown = {"name": new_card["name"], "version": new_card.get("version"), "type": new_card.get("type"),
             "text": values.get("text")}
    provenance = {k: "contributed" for k, v in {**shown, **facts}.items() if v is not None}
    data = {"attrs": dict(facts), "provenance": provenance, "sources": [label], "aliases": [],
            "contributions": {k: dict(detail) for k in provenance}, "contributed_sources": [label]}
    row = models.Card.create(game=proposal.game, key=key, name=new_card["name"], norm_name=core.normalize_name(new_card["name"]),
                             version=new_card.get("version"), type=new_card.get("type"), text=values.get("text"),
                             data=data)
    if new_card.get("set"):
        card_set = models.CardSet.get((models.CardSet.game == proposal.game) & (models.CardSet.code == new_card["set"]))
        models.Printing.create(card=row.id, card_set=card_set.id, number=new_card.get("number"),
                               number_sort=number_sort(new_card.get("number")), rarity=new_card.get("rarity"),
                               position=0)
    models.FactChange.create(game=proposal.game, card_key=key, field="card", old_value=None, new_value=dict(new_card),
                             old_provenance=None, source=label, proposal=proposal.id, actor=reviewer.id, created_at=now)
    for k, v in {**{k: v for k, v in shown.items() if k in ("type", "text")}, **facts}.items():
        if v is not None:
            models.FactChange.create(game=proposal.game, card_key=key, field=k, old_value=None, new_value=v,
                                     old_provenance=None, source=label, proposal=proposal.id, actor=reviewer.id,
                                     created_at=now)
    return key


def review_batch(batch_id: int, reviewer: models.User, decisions: Mapping[int, str],
                 reason: str = "", reasons: Mapping[int, str] | None = None) -> dict[str, list[int]]:
    """Approve and reject a batch's waiting proposals: {proposal id: "approve" | "reject"}; ids not
    named stay waiting. `reasons` gives a card its own reason ({proposal id: reason}), which goes to
    that card alone; `reason` is for rejected cards given none of their own (every rejection needs
    one) and never reaches an approved card. One transaction and one catalogue change for the
    whole review (a 234-card batch must not rebuild every worker's catalogue 234 times); a card
    whose approval fails its checks again is rolled back alone and reported, the others go on.

    Returns {"approved": [...], "rejected": [...], "failed": [...]} of proposal ids."""
    require_curator(reviewer)
    batch = get_batch(batch_id)
    proposals = {p.id: p for p in batch_proposals(batch.id) if p.status == "pending"}
    if any(pid not in proposals or d not in ("approve", "reject") for pid, d in decisions.items()):
        raise CommunityError("Decide only on this batch's waiting proposals (approve or reject); nothing was changed.")
    if any(pid not in proposals for pid in (reasons or {})):
        raise CommunityError("Give reasons only for this batch's waiting proposals; nothing was changed.")
    card_reasons = _card_reasons(decisions, reason, reasons or {})
    if any(d == "approve" for d in decisions.values()) and batch.proposer_id == reviewer.id:
        check_not_own(next(iter(proposals.values())), reviewer)
    done: dict[str, list[int]] = {"approved": [], "rejected": [], "failed": []}
    with database.atomic():
        for pid, decision in sorted(decisions.items()):
            try:
                with database.atomic():  # a savepoint: a failing card leaves the others standing
                    if decision == "approve":
                        _approve_in(proposals[pid], reviewer, card_reasons[pid])
                    else:
                        _claim(pid, reviewer, "rejected", card_reasons[pid])
            except (CommunityError, IntegrityError):
                done["failed"].append(pid)
            else:
                done["approved" if decision == "approve" else "rejected"].append(pid)
        if done["approved"]:
            bump_stamp(batch.game)
    return done


def _card_reasons(decisions: Mapping[int, str], shared: str, own: Mapping[int, str]) -> dict[int, str]:
    """Each decided card's reason: its own, else (for a rejection) the shared one; ProposalInvalid
    naming the cards rejected without any."""
    shared = clean_reason(shared, required=False)
    out, missing = {}, []
    for pid, decision in decisions.items():
        text = clean_reason(own.get(pid), required=False)
        if decision == "reject" and not text:
            text = shared
            if not text:
                missing.append(pid)
        out[pid] = text
    if missing:
        raise ProposalInvalid({f"reason:{pid}": "Give a reason: the proposer sees it." for pid in missing},
                              "Give a reason for every card you reject: the proposer sees it.")
    return out
