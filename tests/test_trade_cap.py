"""Copies for trade never exceed the copies owned, on every path that writes them (± buttons, typed
boxes, CSV import from the site, the API, a restored backup; the command line's import is in
test_collection_cli), a player is told when a number was capped, and matching never offers
copies that do not exist."""
from __future__ import annotations

import io

import pytest

from deckhub.services import backup, kept_matches, trading
from deckhub.services import collection as col
from deckhub.services.accounts import create_user
from deckhub.services.api_tokens import create as create_token
from deckhub.store import models
from deckhub.store.db import database
from tests.conftest import page_html as text
from tests.test_collection_web import GAME, owned, pid


@pytest.fixture
def db(app):
    with database.connection_context():
        yield database


# --------------------------------------------------------------------------- the service

def test_raising_trade_above_owned_is_capped_with_a_note(db):
    alice = create_user("alice", "correct horse")
    p = pid("evo-fury", "1")
    col.adjust(alice, p, "quantity", 1)
    changed = col.change_printing(alice, p, add=("trade_quantity", 2))
    assert changed.owned == col.Owned(1, 0, 0, 1)
    assert changed.note == "You have 1 copy of this printing, so at most 1 can be for trade."
    typed = col.change_printing(alice, p, set_to={"quantity": 2, "foil_quantity": 1, "trade_quantity": 5})
    assert typed.owned == col.Owned(2, 1, 0, 3) and "at most 3 can be for trade" in typed.note
    within = col.change_printing(alice, p, set_to={"trade_quantity": 3})
    assert within == col.Changed(col.Owned(2, 1, 0, 3), None)  # plain and foil copies both count


def test_lowering_owned_below_trade_lowers_trade_and_says_so(db):
    alice = create_user("alice", "correct horse")
    p = pid("evo-fury", "1")
    col.set_quantities(alice, p, quantity=3, trade_quantity=3)
    changed = col.change_printing(alice, p, add=("quantity", -2))
    assert changed.owned == col.Owned(1, 0, 0, 1)
    assert changed.note == "You now have 1 copy of this printing, so its trade quantity was lowered to 1."
    assert col.change_printing(alice, p, set_to={"quantity": 0}).owned == col.NOTHING
    assert col.change_printing(alice, p, add=("want_quantity", 1)).note is None


def test_a_batch_is_capped_once_all_its_changes_are_in(db):
    alice = create_user("alice", "correct horse")
    p, other = pid("evo-fury", "1"), pid("evo-fury", "2")
    after = dict((ref.id, changed) for ref, changed in col.apply_changes(
        alice, [(p, "trade_quantity", 2), (p, "quantity", 2), (other, "trade_quantity", 4), (other, "foil_quantity", 1)]))
    assert after[p] == col.Changed(col.Owned(2, 0, 0, 2), None)
    assert after[other].owned == col.Owned(0, 1, 0, 1) and "at most 1 can be for trade" in after[other].note


def test_csv_import_caps_trade_in_the_dry_run_and_in_the_write(db):
    alice = create_user("alice", "correct horse")
    data = (b"game,set,number,name,quantity,foil_quantity,trade_quantity\n"
            b"kaijudo,evo-fury,1,,1,0,4\nkaijudo,evo-fury,2,,2,1,3\n")
    preview = col.preview_import(alice, data)
    assert preview.trade_capped_count == 1
    assert [c.after for c in preview.changes.values()] == [col.Owned(1, 0, 0, 1), col.Owned(2, 1, 0, 3)]
    result = col.commit_import(alice, data)
    assert result.trade_capped == 1
    assert col.owned_for(alice, [pid("evo-fury", "1")])[pid("evo-fury", "1")] == col.Owned(1, 0, 0, 1)
    # a file that lowers what is owned lowers the trade list with it
    col.commit_import(alice, b"game,set,number,name,quantity,foil_quantity\nkaijudo,evo-fury,2,,0,1\n")
    assert col.owned_for(alice, [pid("evo-fury", "2")])[pid("evo-fury", "2")] == col.Owned(0, 1, 0, 1)


def test_a_restored_backup_never_trades_more_than_it_owns(db):
    alice = create_user("alice", "correct horse")
    col.set_quantities(alice, pid("evo-fury", "1"), quantity=2, trade_quantity=2)
    document = backup.export_user("alice")
    for row in document["collection"]:
        row["trade_quantity"] = 9  # an old or hand-edited backup
    bob, _ = backup.import_user(document, "bob")
    assert col.owned_for(bob, [pid("evo-fury", "1")])[pid("evo-fury", "1")] == col.Owned(2, 0, 0, 2)


def test_matching_never_offers_copies_that_do_not_exist(db):
    """Rows written before trade was capped (straight into the table here) offer only what is owned."""
    alice, bob = create_user("alice", "correct horse"), create_user("bob", "correct horse")
    trading.set_lists_public(bob, True)
    p = pid("evo-fury", "1")
    key = col.printing_refs([p])[p].card_key
    col.set_quantities(alice, p, want_quantity=5)
    col.set_quantities(bob, p, quantity=1)
    O = models.OwnedCard
    O.update(trade_quantity=3).where((O.owner == bob.id) & (O.printing == p)).execute()
    assert [(c.key, c.theirs) for m in trading.match_my_list(alice, "wants").users for c in m.cards] == [(key, 1)]
    assert trading.card_traders(GAME, key).trading == [("bob", 1)]
    assert [(r.key, r.qty) for r in trading.public_list(bob, "trades").rows] == [(key, 1)]
    assert [(m.username, m.copies) for m in trading.who_has_cards(GAME, {key: 4}, alice.id).users] == [("bob", 1)]
    O.update(quantity=0).where((O.owner == bob.id) & (O.printing == p)).execute()
    kept_matches.lists_changed(bob.id, [p])  # what every collection service does with a change of a list
    assert trading.match_my_list(alice, "wants").users == [] and trading.card_traders(GAME, key).trading == []


# --------------------------------------------------------------------------- the pages, the API, the command

def test_plus_button_and_typed_boxes_say_when_trade_was_capped(client, auth):
    auth.signup()
    p = pid("evo-fury", "1")
    client.post("/collection/adjust", data={"printing": p, "step": "quantity:1"})
    page = text(client.post("/collection/adjust", data={"printing": p, "step": "trade_quantity:1"},
                            follow_redirects=True))
    assert "at most" not in page and owned("alice", p) == col.Owned(1, 0, 0, 1)
    page = text(client.post("/collection/adjust", data={"printing": p, "step": "trade_quantity:1"},
                            follow_redirects=True))
    assert "You have 1 copy of this printing, so at most 1 can be for trade." in page
    page = text(client.post("/collection/adjust", data={"printing": p, "step": "set", "set_quantity": "0"},
                            follow_redirects=True))
    assert "its trade quantity was lowered to 0" in page and owned("alice", p) == col.NOTHING
    as_json = client.post("/collection/adjust", data={"printing": p, "step": "set", "set_trade_quantity": "2"},
                          headers={"Accept": "application/json"}).get_json()
    assert as_json["trade_quantity"] == 0 and "at most 0 can be for trade" in as_json["note"]


def test_the_import_pages_say_how_many_trade_quantities_were_capped(client, auth):
    auth.signup()
    data = b"game,set,number,name,quantity,trade_quantity\nkaijudo,evo-fury,1,,1,3\n"
    preview_url = client.post("/collection/import", data={"file": (io.BytesIO(data), "mine.csv"), "game": ""},
                              content_type="multipart/form-data").headers["Location"]
    message = "1 printing: the trade quantity was above the copies owned and is capped at them."
    html = text(client.get(preview_url))
    assert message in html and "trade 0 → 1" in html
    done = text(client.get(client.post(preview_url + "/commit").headers["Location"]))
    assert "Imported" in done and message in done
    assert owned("alice", pid("evo-fury", "1")) == col.Owned(1, 0, 0, 1)


def test_the_api_caps_trade_and_notes_it(app):
    with database.connection_context():
        alice = create_user("alice", "correct horse")
        _, token = create_token(alice, "tests")
    client = app.test_client()
    p = pid("evo-fury", "1")
    response = client.post("/api/collection/changes", headers={"Authorization": f"Bearer {token}"},
                           json={"changes": [{"printing": p, "field": "quantity", "delta": 2},
                                             {"printing": p, "field": "trade_quantity", "delta": 3}]})
    assert response.status_code == 200, response.get_json()
    entry = response.get_json()["entries"][0]
    assert (entry["quantity"], entry["trade_quantity"]) == (2, 2) and "at most 2 can be for trade" in entry["note"]
    response = client.post("/api/collection/changes", headers={"Authorization": f"Bearer {token}"},
                           json={"changes": [{"printing": p, "field": "want_quantity", "delta": 1}]})
    assert "note" not in response.get_json()["entries"][0]
