"""My collection: read a page of it (`GET /api/collection`) and change quantities
(`POST /api/collection/changes`: all the changes or none, each quantity kept within 0..MAX_QUANTITY)."""
from __future__ import annotations

from typing import Any

from flask import jsonify, request

from deckhub.services import collection
from deckhub.store import models
from deckhub.store.db import write_transaction
from deckhub.services.limits import (ENTRIES_PER_PAGE, MAX_COLLECTION_CHANGES, MAX_ENTRIES_PER_PAGE, MAX_ID,
                            MAX_QUANTITY)
from deckhub.web.api.auth import user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import game, json_body, page_args, unknown_fields, whole
from deckhub.web.api.routes import own as bp

CHANGE_FIELDS = ("printing", "game", "card", "set", "number", "field", "delta")


def _entry(ref, owned: collection.Owned) -> dict:
    return {"printing": ref.id, "game": ref.game, "card": ref.card_key, "set": ref.set_code,
            "number": ref.number, **owned._asdict()}


def _printing_refs(ids) -> dict[int, Any]:
    """PrintingRef values (id, game, card key, set, number) for database ids, in one query per 500."""
    from deckhub.importers.collection_csv import PrintingRef
    out: dict[int, Any] = {}
    ids = list(dict.fromkeys(ids))
    for start in range(0, len(ids), 500):
        query = (models.Printing.select(models.Printing.id, models.Card.game, models.Card.key,
                                        models.CardSet.code, models.Printing.number)
                 .join(models.Card).switch(models.Printing).join(models.CardSet)
                 .where(models.Printing.id.in_(ids[start:start + 500])).tuples())
        for pid, game_slug, key, code, number in query:
            out[pid] = PrintingRef(pid, game_slug, key, code, number)
    return out


@bp.route("/collection")
def get_collection():
    """The printings the user has any quantity of, by printing id; `?game=` narrows to one game."""
    me = user()
    page, per_page = page_args(ENTRIES_PER_PAGE, MAX_ENTRIES_PER_PAGE)
    query = (models.OwnedCard.select(models.OwnedCard.printing, *[getattr(models.OwnedCard, f) for f in collection.FIELDS])
             .where((models.OwnedCard.owner == me.id)
                    & ((models.OwnedCard.quantity > 0) | (models.OwnedCard.foil_quantity > 0)
                       | (models.OwnedCard.want_quantity > 0) | (models.OwnedCard.trade_quantity > 0))))
    if "game" in request.args:
        spec = game(request.args["game"])
        query = (query.join(models.Printing).join(models.Card).where(models.Card.game == spec.slug))
    total = query.count()
    rows = list(query.order_by(models.OwnedCard.printing).paginate(page, per_page).tuples())
    refs = _printing_refs(pid for pid, *_ in rows)
    return jsonify({"entries": [_entry(refs[pid], collection.Owned(*values)) for pid, *values in rows if pid in refs],
                    "total": total, "page": page, "per_page": per_page})


def _resolve_printing(i: int, change: dict, indexes: dict) -> int:
    """A change names a printing by `printing` (its id) or by `game` + `card` (+ `set`, `number`)."""
    where = f"changes[{i}]"
    if "printing" in change:
        if any(k in change for k in ("game", "card", "set", "number")):
            fail(400, f'{where}: name the printing by "printing" or by "game" and "card", not both.')
        return whole(change["printing"], f"{where}.printing", 1, MAX_ID)
    card = change.get("card")
    if not isinstance(card, str) or not card:
        fail(400, f'{where}: send "printing" (an id from GET /api/collection) or "game" and "card".')
    spec = game(change.get("game"))
    index = indexes.get(spec.slug) or indexes.setdefault(spec.slug, collection.game_index(spec.slug))
    refs = index.by_card.get(card)
    if not refs:
        fail(400, f"{where}: {spec.name} has no card {card[:80]!r}.", unknown_cards=[card[:200]])
    set_code, number = change.get("set"), change.get("number")
    for key, value in (("set", set_code), ("number", number)):
        if value is not None and not isinstance(value, str):
            fail(400, f'{where}.{key} must be text.')
    if set_code is not None:
        refs = [r for r in refs if r.set_code == set_code]
    if number is not None:
        from deckhub.importers.collection_csv import norm_number
        refs = [r for r in refs if norm_number(r.number) == norm_number(number)]
    if not refs:
        fail(400, f"{where}: {card[:80]!r} has no printing in that set with that number.")
    if len(refs) > 1:
        choices = "; ".join(f"{r.set_code} #{r.number}" for r in refs[:20])
        fail(400, f'{where}: {card[:80]!r} has several printings ({choices}); say which with "set" and "number", '
                  'or send "printing".')
    return refs[0].id


@bp.route("/collection/changes", methods=["POST"])
def change_collection():
    """Add deltas to quantities, all in one transaction."""
    me = user()
    body = json_body()
    unknown_fields(body, ("changes",))
    changes = body.get("changes")
    if not isinstance(changes, list) or not changes:
        fail(400, '"changes" must be a non-empty list of {"printing", "field", "delta"} objects.')
    if len(changes) > MAX_COLLECTION_CHANGES:
        fail(400, f"At most {MAX_COLLECTION_CHANGES} changes in one request.")
    planned: list[tuple[int, str, int]] = []
    indexes: dict = {}
    for i, change in enumerate(changes):
        if not isinstance(change, dict):
            fail(400, f"changes[{i}] must be an object.")
        unknown_fields(change, CHANGE_FIELDS)
        pid = _resolve_printing(i, change, indexes)
        field = change.get("field", "quantity")
        if field not in collection.FIELDS:
            fail(400, f'changes[{i}].field must be one of {", ".join(collection.FIELDS)}.')
        delta = whole(change.get("delta"), f"changes[{i}].delta", -MAX_QUANTITY, MAX_QUANTITY)
        planned.append((pid, field, delta))
    refs = _printing_refs(pid for pid, _, _ in planned)
    missing = sorted({pid for pid, _, _ in planned if pid not in refs})
    if missing:
        fail(400, f"No printing(s) {', '.join(map(str, missing[:20]))}.")
    after: dict[int, collection.Owned] = {}
    # Rows are changed in printing order (a stable sort keeps each printing's own changes in the order
    # sent), so two requests naming the same printings in opposite orders cannot deadlock.
    planned.sort(key=lambda change: change[0])
    try:
        with write_transaction():
            for pid, field, delta in planned:
                after[pid] = collection.adjust(me.id, pid, field, delta)
    except LookupError:  # a printing vanished (catalogue reload) between the check and the write
        fail(409, "A printing disappeared while the changes were written; nothing was changed. Try again.")
    return jsonify({"entries": [_entry(refs[pid], owned) for pid, owned in after.items()]})
