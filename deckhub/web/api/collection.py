"""My collection: read a page of it (`GET /api/collection`) and change quantities
(`POST /api/collection/changes`: all the changes or none, each quantity kept within 0..MAX_QUANTITY and
the trade quantity at most the copies owned; an entry whose trade quantity was capped carries a `note`)."""
from __future__ import annotations

from flask import jsonify

from deckhub.games import get_game
from deckhub.services import collection
from deckhub.services.limits import MAX_ENTRIES_PER_PAGE
from deckhub.web.api.auth import user
from deckhub.web.api.errors import fail
from deckhub.web.api.inputs import json_body, page_args, query
from deckhub.web.api.routes import own as bp


def _entry(ref, owned: collection.Owned, note: str | None = None) -> dict:
    return {"printing": ref.id, "game": ref.game, "card": ref.card_key, "set": ref.set_code,
            "number": ref.number, **owned._asdict(), **({"note": note} if note else {})}


@bp.route("/collection")
def get_collection():
    """The printings the user has any quantity of, by printing id; `?game=` narrows to one game."""
    me = user()
    page, per_page = page_args(MAX_ENTRIES_PER_PAGE)
    slug = query("game")["game"]
    total, entries = collection.owned_page(me, slug, page, per_page)
    return jsonify({"entries": [_entry(ref, owned) for ref, owned in entries],
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
    try:
        after = collection.apply_changes(me.id, planned)
    except collection.UnknownPrintings as exc:
        fail(400, f"No printing(s) {', '.join(map(str, exc.missing[:20]))}.")
    except LookupError:  # a printing vanished (catalogue reload) between the check and the write
        fail(409, "A printing disappeared while the changes were written; nothing was changed. Try again.")
    return jsonify({"entries": [_entry(ref, *changed) for ref, changed in after]})
