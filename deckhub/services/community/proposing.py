"""Sending proposals: corrections to a card, a missing card, or a batch of cells from the set editor.

Every value, the source, the scans and the proposer's limits are checked before anything is
stored; a proposal is stored as `Proposal` (a batch's under one `ProposalBatch`, with one
rate-limit hit). Its values for fields the card does not know are votes (`agreement`): two
independent players agreeing, or a trusted player, apply them at once; anything else waits for a
curator.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from deckhub.core import cards as core
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community import trust
from deckhub.services.community.agreement import take_entries
from deckhub.services.community.errors import NotFound, ProposalInvalid, RateLimited
from deckhub.services.community.fields import (current_value, find_game, is_empty, validate_new_card, validate_source,
                                               validate_values)
from deckhub.services.community.rate_limits import RATE_LIMIT, RATE_WINDOW, check_rate, take_rate
from deckhub.store import models
from deckhub.store.db import PreparedSelect, write_transaction


@dataclass
class _Draft:
    """One card's checked proposal, not stored yet: an existing card's key or a missing card."""

    card_key: str
    new_card: dict[str, Any] | None
    values: dict[str, Any]
    scan: Any = None                # scans.CleanImage
    printing_id: int | None = None  # the printing the scan shows (None for a missing card)


def _store(user: models.User, game_slug: str, drafts: list[_Draft], source: str, rate_limit: int,
           window: dt.timedelta, batch_set: str | None = None, as_batch: bool = False):
    """Write checked drafts as proposals (and their scans) in one transaction with one rate-limit hit.

    Returns the ProposalBatch when `as_batch`, else the single Proposal as it stands after."""
    with write_transaction():
        take_rate(user, rate_limit, window)
        batch = (models.ProposalBatch.create(game=game_slug, set_code=batch_set, source=source, proposer=user.id)
                 if as_batch else None)
        made = []
        for d in drafts:
            proposal = models.Proposal.create(game=game_slug, card_key=d.card_key, new_card=d.new_card, values=d.values,
                                              source=source, proposer=user.id, batch_id=batch.id if batch else None)
            if d.scan is not None:
                models.Scan.create(proposal=proposal.id, game=game_slug, set_code=(d.new_card or {}).get("set") or batch_set,
                                   printing=d.printing_id, uploader=user.id, data=d.scan.data, mime=d.scan.mime,
                                   width=d.scan.width, height=d.scan.height)
            made.append(proposal)
        take_entries(made, flags=_trust_flags(user, game_slug, drafts, source))
    return batch if as_batch else models.Proposal.get_by_id(made[0].id)  # with the status the agreement rules gave it


def store_rows(user: models.User, rows: Iterable[tuple[str, str, Mapping[str, Any], str]], *,
               rate_limit: int, window: dt.timedelta) -> list[models.Proposal]:
    """Checked (game, card key, values, source) rows, each its own proposal with its own source (a
    facts file's rows), in one transaction with one rate-limit hit. Their values are votes like any
    other entry's: two independent players agreeing, or a trusted player, apply them at once."""
    rows = list(rows)
    with write_transaction():
        take_rate(user, rate_limit, window)
        made = [models.Proposal.create(game=game, card_key=key, values=dict(values), source=source, proposer=user.id)
                for game, key, values, source in rows]
        take_entries(made, flags=_rows_flags(user, rows))
    by_id = {p.id: p for p in models.Proposal.select().where(models.Proposal.id.in_([p.id for p in made]))}
    return [by_id[p.id] for p in made]  # with the statuses the agreement rules gave them


def _rows_flags(user: models.User, rows: list[tuple[str, str, Mapping[str, Any], str]]) -> list[str] | None:
    """A trusted player's rows apply at once only when no row's game and source raise a flag."""
    found: list[str] = []
    for game in sorted({game for game, *_ in rows}):
        drafts = [_Draft(key, None, dict(values)) for g, key, values, _ in rows if g == game]
        for source in sorted({source for g, _, _, source in rows if g == game}):
            flags = _trust_flags(user, game, drafts, source)
            if flags is None:
                return None
            found += [f for f in flags if f not in found]
    return found


def _trust_flags(user: models.User, game_slug: str, drafts: list[_Draft], source: str) -> list[str] | None:
    """Why a trusted player's submission waits in the queue (empty: it may apply at once); None when
    the player is not trusted."""
    if not trust.standing(user.id).trusted:
        return None
    catalogue = get_catalogue(game_slug)
    known = sum(1 for d in drafts if d.new_card is None and (card := catalogue.get(d.card_key)) is not None
                for k in d.values if not is_empty(current_value(card, k)))
    return trust.flags(game_slug, source, len(drafts), known)


def _check_scan(raw: bytes | None) -> str | None:
    """Why a scan upload is refused, from its header alone (scans.check_image); None when it may be decoded."""
    if raw is None:
        return None
    from deckhub.services.scans import ScanRefused, check_image
    try:
        check_image(bytes(raw))
    except ScanRefused as exc:
        return str(exc)
    return None


def _decode_scans(user: models.User, drafts: Mapping[str, tuple[_Draft, bytes]], limit: int,
                  window: dt.timedelta) -> None:
    """Decode the drafts' scans ({error key: (draft, bytes)}) once everything else about the submission
    has passed: the user may send it now, and the scans' bytes fit their daily budget (counted
    whether or not a file then decodes: the work is done). ProposalInvalid naming the scans that do
    not decode; RateLimited when the user may not send now or the budget is spent."""
    if not drafts:
        return
    from deckhub.services.scans import ScanBudgetSpent, ScanRefused, clean_image, take_budget
    check_rate(user, limit, window)
    try:
        take_budget(user.id, [len(raw) for _, raw in drafts.values()])
    except ScanBudgetSpent as exc:
        raise RateLimited(str(exc)) from None
    errors: dict[str, str] = {}
    for key, (draft, raw) in drafts.items():
        try:
            draft.scan = clean_image(bytes(raw))
        except ScanRefused as exc:
            errors[key] = str(exc)
    if errors:
        raise ProposalInvalid(errors)


def _scan_printing(card: core.Card, set_code: str | None) -> int | None:
    """The printing row a scan of an existing card shows: its printing in `set_code`, else its first."""
    query = (models.Printing.select(models.Printing.id, models.CardSet.code).join(models.Card)
             .switch(models.Printing).join(models.CardSet)
             .where((models.Card.game == card.game) & (models.Card.key == card.key))
             .order_by(models.Printing.position, models.Printing.id).tuples())
    rows = list(query)
    for pid, code in rows:
        if code == set_code:
            return pid
    return rows[0][0] if rows else None


def propose_facts(user: models.User, slug: str, card_key: str, raw_values: Mapping[str, Any],
                  source: str, *, scan: bytes | None = None, rate_limit: int = RATE_LIMIT,
                  window: dt.timedelta = RATE_WINDOW) -> models.Proposal:
    """Store a proposal of new values for an existing card (nothing in the catalogue changes).

    Values equal to the card's current ones are dropped; ProposalInvalid when a value, the source or
    the scan fails its checks or nothing new is left, RateLimited when the user sent too many. A
    scan alone (no new value) is a proposal too: it offers the card's picture."""
    game = find_game(slug)
    card = get_catalogue(game.slug).get(card_key)
    if card is None:
        raise NotFound(f"{game.name} has no card with the id {card_key[:120]!r}.")
    values, errors = validate_values(game.slug, raw_values)
    try:
        source = validate_source(source)
    except ValueError as exc:
        errors["source"] = str(exc)
    if problem := _check_scan(scan):
        errors["scan"] = problem
    if errors:
        raise ProposalInvalid(errors)
    values = {k: v for k, v in values.items() if current_value(card, k) != v}
    if not values and scan is None:
        raise ProposalInvalid({"values": "Nothing to propose: give at least one value that differs from the card's."},
                              "Nothing to propose: give at least one value that differs from the card's.")
    draft = _Draft(card.key, None, values, None, _scan_printing(card, None) if scan is not None else None)
    _decode_scans(user, {"scan": (draft, scan)} if scan is not None else {}, rate_limit, window)
    return _store(user, game.slug, [draft], source, rate_limit, window)


def _new_card_draft(slug: str, raw_card: Mapping[str, Any], raw_values: Mapping[str, Any],
                    errors: dict[str, str], prefix: str = "") -> _Draft:
    """A missing card's draft; its problems go into `errors` (keys prefixed with `prefix`)."""
    new_card, card_errors = validate_new_card(slug, raw_card)
    values, value_errors = validate_values(slug, {k: v for k, v in raw_values.items() if k != "type"})
    errors.update({prefix + k: v for k, v in {**card_errors, **value_errors}.items()})
    return _Draft("", new_card, values)


def propose_card(user: models.User, slug: str, raw_card: Mapping[str, Any], raw_values: Mapping[str, Any],
                 source: str, *, scan: bytes | None = None, rate_limit: int = RATE_LIMIT,
                 window: dt.timedelta = RATE_WINDOW) -> models.Proposal:
    """Store a proposal of a card the catalogue lacks (name, type, printing, and any facts)."""
    game = find_game(slug)
    errors: dict[str, str] = {}
    draft = _new_card_draft(game.slug, raw_card, raw_values, errors)
    try:
        source = validate_source(source)
    except ValueError as exc:
        errors["source"] = str(exc)
    if problem := _check_scan(scan):
        errors["scan"] = problem
    if errors:
        raise ProposalInvalid(errors)
    _decode_scans(user, {"scan": (draft, scan)} if scan is not None else {}, rate_limit, window)
    return _store(user, game.slug, [draft], source, rate_limit, window)


# ---------------------------------------------------------------------------------- batches

MAX_BATCH_CARDS = 500    # cards one batch may touch (a whole set fits)
MAX_BATCH_CELLS = 10_000


@dataclass(frozen=True)
class NewCard:
    """A card a batch adds: its identity as printed (the set defaults to the batch's set)."""

    name: str
    number: str | None = None
    rarity: str | None = None
    version: str | None = None
    set: str | None = None


def cell_id(card: str | NewCard, field_key: str, new_index: int | None = None) -> str:
    """How a batch's errors name a cell: "KEY:field" for an existing card, "new:N:field" for the
    N-th (from 0) new card of the batch."""
    return f"new:{new_index}:{field_key}" if isinstance(card, NewCard) else f"{card}:{field_key}"


def _card_ref(card: Any, set_code: str | None) -> str | NewCard:
    """A batch's card as given (a key, a NewCard or a mapping), with a new card's set defaulted."""
    if isinstance(card, Mapping):
        card = NewCard(**{k: (str(card[k]) if card.get(k) is not None else None)
                          for k in ("name", "number", "rarity", "version", "set") if k in card})
    if not isinstance(card, (str, NewCard)):
        raise ProposalInvalid({"batch": "Each change names a card (its key, or a new card) and a field."})
    if isinstance(card, NewCard) and card.set is None and set_code:
        card = NewCard(card.name, card.number, card.rarity, card.version, set_code)
    return card


_LAST_SOURCE = PreparedSelect(models.Proposal, lambda uid, game: (
    models.Proposal.select(models.Proposal.source)
    .where((models.Proposal.proposer == uid) & (models.Proposal.game == game))
    .order_by(models.Proposal.id.desc()).limit(1)))  # SQL written once a backend: the set editor asks on every view


def last_source(user: models.User, game_slug: str) -> str | None:
    """The source of the user's latest proposal for a game, sent alone or in a batch (every proposal
    form offers it again: a set is often entered from one checklist), None if none."""
    latest = _LAST_SOURCE.raw(user.id, game_slug)
    return latest[0][0] if latest else None


def propose_batch(user: models.User, game_slug: str, changes: Iterable[tuple[Any, str, Any]], source: str,
                  scan: bytes | None = None, *, scans: Mapping[Any, bytes] | None = None, set_code: str | None = None,
                  rate_limit: int = RATE_LIMIT, window: dt.timedelta = RATE_WINDOW) -> models.ProposalBatch:
    """Store many cells as one batch of proposals (one per card) with one source: all or nothing.

    `changes` holds (card, field, value) cells: card is an existing card's key, or a `NewCard`
    (or a mapping with its name, number, rarity, version, set) for a card the catalogue lacks.
    Every value is checked exactly as `propose_facts`/`propose_card` check it; cells whose value
    is already the card's, or empty, are skipped. `scans` maps a card (key or NewCard) to the bytes
    of its photo; `scan` is a photo for a batch that touches one card. `set_code` names the set
    being edited (new cards are printed in it; scans show that printing).

    ProposalInvalid lists every problem at once, keyed by `cell_id` ("source", "batch" for the
    whole batch); nothing is stored then. RateLimited when the user is over the limit: the whole
    batch counts as ONE submission against it, however many cards it holds."""
    game = find_game(game_slug)
    catalogue = get_catalogue(game.slug)
    errors: dict[str, str] = {}
    try:
        source = validate_source(source)
    except ValueError as exc:
        errors["source"] = str(exc)
    if set_code is not None and set_code not in catalogue.sets:
        raise NotFound(f"{game.name} has no set {str(set_code)[:80]!r}.")
    cells: dict[str | NewCard, dict[str, Any]] = {}
    count = 0
    for item in changes:
        count += 1
        if count > MAX_BATCH_CELLS:
            raise ProposalInvalid({"batch": f"A batch holds at most {MAX_BATCH_CELLS} values; send the rest in another."})
        try:
            card, key, value = item
        except (TypeError, ValueError):
            raise ProposalInvalid({"batch": "Each change is (card, field, value)."}) from None
        card = _card_ref(card, set_code)
        if not isinstance(key, str):
            raise ProposalInvalid({"batch": "Each change names a card (its key, or a new card) and a field."})
        row = cells.setdefault(card, {})
        if key in row and row[key] != value:
            errors[f"{card}:{key}" if isinstance(card, str) else "batch"] = f"{key} is given two different values."
        row[key] = value
    scans = {_card_ref(card, set_code): data for card, data in (scans or {}).items()}
    for card in scans:
        cells.setdefault(card, {})
    if len(cells) > MAX_BATCH_CARDS:
        raise ProposalInvalid({"batch": f"A batch touches at most {MAX_BATCH_CARDS} cards; send the rest in another."})
    if scan is not None:
        if len(cells) != 1:
            errors["scan"] = "A scan shows one card: attach it to that card's row."
        else:
            scans = {next(iter(cells)): scan}
    drafts: list[_Draft] = []
    to_decode: dict[str, tuple[_Draft, bytes]] = {}
    scan_labels: dict[str, str] = {}
    names: dict[str, int] = {}
    new_index = -1
    for card, raw in cells.items():
        if isinstance(card, NewCard):
            new_index += 1
            prefix = f"new:{new_index}:"
            label = card.name or f"new card {new_index + 1}"
            found: dict[str, str] = {}
            identity = {"name": card.name, "version": card.version, "set": card.set, "number": card.number,
                        "rarity": card.rarity, "type": raw.get("type")}
            draft = _new_card_draft(game.slug, identity, raw, found)
            norm = core.normalize_name(f"{card.name} {card.version or ''}")
            if card.name and norm in names:
                found["name"] = "is added twice in this batch"
            names[norm] = new_index
        else:
            prefix = f"{card}:"
            existing = catalogue.get(card)
            if existing is None:
                errors[f"{card}:card"] = f"{game.name} has no card with the id {card[:120]!r}."
                continue
            label = existing.display_name
            values, found = validate_values(game.slug, raw)
            values = {k: v for k, v in values.items() if current_value(existing, k) != v}
            draft = _Draft(existing.key, None, values)
        for k, message in found.items():
            errors[prefix + k] = f"{label}: {message}"
        image_bytes = scans.get(card)
        if image_bytes is not None:
            if problem := _check_scan(image_bytes):
                errors[prefix + "scan"] = f"{label}: {problem}"
            else:
                to_decode[prefix + "scan"] = (draft, image_bytes)
                scan_labels[prefix + "scan"] = label
                if draft.new_card is None:
                    draft.printing_id = _scan_printing(existing, set_code)
        if draft.new_card is not None or draft.values or image_bytes is not None:
            drafts.append(draft)
    if errors:
        raise ProposalInvalid(errors, f"{len(errors)} problem{'s' if len(errors) != 1 else ''}, nothing was sent: "
                              + "; ".join(list(errors.values())[:5]) + (" ..." if len(errors) > 5 else ""))
    if not drafts:
        raise ProposalInvalid({"batch": "Nothing to propose: no cell differs from what the catalogue knows."},
                              "Nothing to propose: no cell differs from what the catalogue knows.")
    try:
        _decode_scans(user, to_decode, rate_limit, window)
    except ProposalInvalid as exc:
        found = {k: f"{scan_labels[k]}: {v}" for k, v in exc.errors.items()}
        raise ProposalInvalid(found, f"{len(found)} problem{'s' if len(found) != 1 else ''}, nothing was sent: "
                              + "; ".join(found.values())) from None
    return _store(user, game.slug, drafts, source, rate_limit, window, batch_set=set_code, as_batch=True)
