"""My collection: read a page of it (`GET /api/collection`) and change quantities
(`POST /api/collection/changes`: all the changes or none, each quantity kept within 0..MAX_QUANTITY)."""
from __future__ import annotations

from typing import Any

from flask import jsonify

from deckhub import collection, models
from deckhub.db import write_transaction
from deckhub.games import get_game
from deckhub.limits import MAX_ENTRIES_PER_PAGE
from deckhub.web.api.auth import user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body, page_args, query
from deckhub.web.api.routes import own as bp


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
    page, per_page = page_args(MAX_ENTRIES_PER_PAGE)
    slug = query("game")["game"]
    owned = (models.OwnedCard.select(models.OwnedCard.printing, *[getattr(models.OwnedCard, f) for f in collection.FIELDS])
             .where((models.OwnedCard.owner == me.id)
                    & ((models.OwnedCard.quantity > 0) | (models.OwnedCard.foil_quantity > 0)
                       | (models.OwnedCard.want_quantity > 0) | (models.OwnedCard.trade_quantity > 0))))
    if slug is not None:
        owned = owned.join(models.Printing).join(models.Card).where(models.Card.game == slug)
    total = owned.count()
    rows = list(owned.order_by(models.OwnedCard.printing).paginate(page, per_page).tuples())
    refs = _printing_refs(pid for pid, *_ in rows)
    return jsonify({"entries": [_entry(refs[pid], collection.Owned(*values)) for pid, *values in rows if pid in refs],
                    "total": total, "page": page, "per_page": per_page})


def _resolve_printing(i: int, change: dict, indexes: dict) -> int:
    """A change names a printing by `printing` (its id) or by `game` + `card` (+ `set`, `number`)."""
    where = f"changes[{i}]"
    if "printing" in change:
        return change["printing"]
    card, spec = change["card"], get_game(change["game"])
    index = indexes.get(spec.slug) or indexes.setdefault(spec.slug, collection.game_index(spec.slug))
    refs = index.by_card.get(card)
    if not refs:
        fail(400, f"{where}: {spec.name} has no card {card[:80]!r}.", unknown_cards=[card[:200]])
    set_code, number = change.get("set"), change.get("number")
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
    indexes: dict = {}
    planned = [(_resolve_printing(i, change, indexes), change["field"], change["delta"])
               for i, change in enumerate(json_body()["changes"])]
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
