"""Collection pages: overview, checklists, ± forms, the two-step import, export, privacy."""
from __future__ import annotations

import io
import re
import time

import pytest

from deckhub.services import deck_needs
from deckhub.services import checklists
from deckhub.services import collection as col
from deckhub.services.decks import keep_current_cards
from deckhub.store import models
from deckhub.store.db import database
from conftest import csrf_token
from tests.conftest import page_html as text

GAME = "kaijudo"


def pid(set_code: str, number: str) -> int:
    with database.connection_context():
        refs = col.game_index(GAME).by_set_number[(set_code, number)]
        assert len(refs) == 1
        return refs[0].id


def owned(username: str, printing: int) -> col.Owned:
    with database.connection_context():
        user = models.User.get(models.User.username == username)
        return col.owned_for(user, [printing]).get(printing, col.NOTHING)


def upload(client, data: bytes, game: str = "", name: str = "mine.csv"):
    return client.post("/collection/import", data={"file": (io.BytesIO(data), name), "game": game},
                       content_type="multipart/form-data")


GOOD = b"game,set,number,name,quantity,foil_quantity\nkaijudo,Evo Fury,1,,3,1\nkaijudo,evo-fury,2,Cloudwalker Drone,2,\n"
BAD = GOOD + b"kaijudo,,,Cloudwalker Dronne,1,\n"


def test_collection_pages_need_an_account(client):
    for url in ["/collection/", "/collection/kaijudo/sets/evo-fury", "/collection/export.csv", "/collection/import"]:
        response = client.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"]
    assert client.post("/collection/adjust", data={"printing": 1, "step": "quantity:1"}).status_code == 302


def test_overview_shows_a_bar_per_game_and_per_set(client, auth):
    auth.signup()
    page = client.get("/collection/")
    assert page.status_code == 200
    html = text(page)
    assert '<a href="/collection/">Collection</a>' in html
    assert re.search(r'<progress max="1293" value="0" aria-label="Kaijudo completion: 0 of 1293">', html)
    assert 'aria-label="Evo Fury completion: 0 of 60"' in html


def test_plus_and_minus_buttons_change_one_quantity_and_come_back(client, auth):
    auth.signup()
    p = pid("evo-fury", "3")
    back = "/collection/kaijudo/sets/evo-fury?show=missing"
    response = client.post("/collection/adjust", data={"printing": p, "step": "quantity:1", "next": back})
    assert response.status_code == 303 and response.headers["Location"] == f"{back}#p{p}"
    client.post("/collection/adjust", data={"printing": p, "step": "quantity:1", "next": back})
    client.post("/collection/adjust", data={"printing": p, "step": "want_quantity:1"})
    client.post("/collection/adjust", data={"printing": p, "step": "foil_quantity:-1"})
    assert owned("alice", p) == col.Owned(2, 0, 1, 0)
    response = client.post("/collection/adjust", data={"printing": p, "field": "quantity", "delta": -5},
                           headers={"Accept": "application/json"})
    assert response.get_json() == {"printing": p, "quantity": 0, "foil_quantity": 0, "want_quantity": 1, "trade_quantity": 0}


def test_a_typed_quantity_is_set_and_a_blank_box_is_left_alone(client, auth):
    auth.signup()
    p = pid("evo-fury", "3")
    back = "/collection/kaijudo/sets/evo-fury"
    client.post("/collection/adjust", data={"printing": p, "step": "want_quantity:2"})
    # Enter in a box sends every box with step=set (the form's first button)
    response = client.post("/collection/adjust", data={"printing": p, "step": "set", "set_quantity": "7",
                                                       "set_foil_quantity": "1", "set_want_quantity": "",
                                                       "next": back})
    assert response.status_code == 303 and response.headers["Location"] == f"{back}#p{p}"
    assert owned("alice", p) == col.Owned(7, 1, 2, 0)
    page = client.get(back).get_data(as_text=True)
    assert re.search(rf'id="p{p}".*?name="set_quantity" value="7"', page, re.S)
    client.post("/collection/adjust", data={"printing": p, "step": "set", "set_quantity": "0"})
    assert owned("alice", p) == col.Owned(0, 1, 2, 0)
    for bad in ("-1", "2.5", "lots", str(10 ** 9)):
        response = client.post("/collection/adjust", data={"printing": p, "step": "set", "set_quantity": bad})
        assert response.status_code == 400 and "whole number" in response.get_data(as_text=True), bad
    assert client.post("/collection/adjust", data={"printing": p, "step": "set"}).status_code == 400  # nothing typed
    assert client.post("/collection/adjust", data={"printing": 10 ** 8, "step": "set", "set_quantity": "1"}).status_code == 404
    assert owned("alice", p) == col.Owned(0, 1, 2, 0)


def test_the_collection_page_finds_a_card_to_add_with_typos_and_suggests_names(client, auth):
    auth.signup()
    page = client.get("/collection/?q=argus+vigilent&game=kaijudo")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Cards matching “argus vigilent”" in html and "Argus, Vigilant Seer" in text(page)
    p = int(re.search(r'id="p(\d+)"', html).group(1))
    response = client.post("/collection/adjust", data={"printing": p, "step": "quantity:1",
                                                       "next": "/collection/?q=argus+vigilent&game=kaijudo"})
    assert response.headers["Location"] == f"/collection/?q=argus+vigilent&game=kaijudo#p{p}"
    assert owned("alice", p).quantity == 1
    assert "1 card" in text(client.get("/collection/"))  # the Kaijudo totals count it
    everywhere = text(client.get("/collection/?q=seer"))
    assert "Kaijudo · " in everywhere
    nothing = text(client.get("/collection/?q=zzqxwv&game=kaijudo"))
    assert "No card is called" in nothing
    assert client.get("/collection/?q=x&game=chess").status_code == 404


def test_bad_changes_are_refused(client, auth):
    auth.signup()
    assert client.post("/collection/adjust", data={"printing": pid("evo-fury", "3"), "step": "price:1"}).status_code == 400
    assert client.post("/collection/adjust", data={"printing": pid("evo-fury", "3"), "step": "quantity:x"}).status_code == 400
    assert client.post("/collection/adjust", data={"printing": 10 ** 8, "step": "quantity:1"}).status_code == 404
    response = client.post("/collection/adjust", data={"printing": pid("evo-fury", "3"), "step": "quantity:1",
                                                       "next": "https://evil.example/"})
    assert response.headers["Location"].startswith("/collection/#p")


def test_the_checklist_shows_order_completion_filters_and_controls(client, auth):
    auth.signup()
    for number, step in [("2", "quantity:1"), ("2", "quantity:1"), ("5", "foil_quantity:1"), ("7", "want_quantity:1")]:
        client.post("/collection/adjust", data={"printing": pid("evo-fury", number), "step": step})
    html = text(client.get("/collection/kaijudo/sets/evo-fury"))
    assert 'aria-label="Evo Fury completion: 2 of 60"' in html and "2 of 60 (3%)" in html
    assert "Owned (2)" in html and "Missing (58)" in html and "Duplicates (1)" in html and "Wanted (1)" in html
    assert html.count('class="owned-controls"') == 60
    assert 'aria-label="One more quantity: Chasm Entangler"' in html
    numbers = [int(n) for n in re.findall(r'<tr class="(?:owned|missing)"> <td>(\d+)</td>', html)]
    assert len(numbers) == 60 and numbers == sorted(numbers) and numbers[:12] == list(range(1, 13))
    dupes = text(client.get("/collection/kaijudo/sets/evo-fury?show=duplicates"))
    assert re.findall(r'<tr class="(?:owned|missing)"> <td>(\d+)</td>', dupes) == ["2"]
    printable = text(client.get("/collection/kaijudo/sets/evo-fury/print?show=missing"))
    assert "2 of 60 owned" in printable and printable.count("☐") == 58 and "owned-controls" not in printable


def test_the_checklist_counts_each_filter_as_the_filter_shows(client, auth):
    """The counts are worked out in one pass; each must be the number of rows its filter shows."""
    auth.signup()
    for number, step in [("2", "quantity:2"), ("5", "foil_quantity:1"), ("7", "want_quantity:1"),
                         ("8", "trade_quantity:1"), ("8", "quantity:1")]:
        client.post("/collection/adjust", data={"printing": pid("evo-fury", number), "step": step})
    with client.application.app_context(), database.connection_context():
        alice = models.User.get(models.User.username == "alice")
        for name in checklists.CHECKLIST_FILTERS:
            checklist = checklists.set_checklist(alice, GAME, "evo-fury", name)
            assert len(checklist.rows) == checklist.counts[name], name
            assert all(checklists.CHECKLIST_FILTERS[name][1](r.owned) for r in checklist.rows)


def test_a_checklist_is_kept_until_my_collection_changes_and_is_mine_alone(client, auth):
    """A second view of a checklist reads none of my rows; a change of mine (from any page) shows on
    the next view; another player's view of the same address shows theirs."""
    from tests.test_trading import CountQueries
    url = "/collection/kaijudo/sets/evo-fury"
    auth.signup("alice")
    client.post("/collection/adjust", data={"printing": pid("evo-fury", "2"), "step": "quantity:1"})
    assert "Owned (1)" in text(client.get(url)) and "Owned (1)" in text(client.get(url))  # (a welcome shown first)
    with CountQueries() as seen:
        assert "Owned (1)" in text(client.get(url))
    assert not any('"owned_card"' in sql for sql in seen.statements), seen.statements
    with database.connection_context():
        col.set_quantities(models.User.get(models.User.username == "alice"), pid("evo-fury", "5"), quantity=1)
    assert "Owned (2)" in text(client.get(url))
    client.post("/collection/adjust", data={"printing": pid("evo-fury", "7"), "step": "want_quantity:1"})
    assert "Owned (2)" in text(client.get(url)) and "Wanted (1)" in text(client.get(url))
    auth.logout()
    auth.signup("bob")
    client.post("/collection/adjust", data={"printing": pid("evo-fury", "9"), "step": "want_quantity:1"})
    for _ in range(2):  # (the welcome first)
        page = text(client.get(url))
        assert "Owned (0)" in page and "Wanted (1)" in page


def test_checklist_text_and_card_links_are_escaped_and_quoted(app, client, auth):
    from flask import render_template
    from flask_login import login_user
    auth.signup("alice")
    row = checklists.ChecklistRow(7, "<1>", "a key/é", "Bob & <i>Co</i>", None, None, col.Owned(1, 0, 0, 0),
                           "Bob & <i>Co</i>", None)
    checklist = checklists.Checklist(GAME, "Kaijudo", "evo-fury", "Evo <Fury>", [row], checklists.Completion(1, 1),
                                     {name: 1 for name in checklists.CHECKLIST_FILTERS}, "all")
    with app.test_request_context("/collection/kaijudo/sets/evo-fury?x=\"<b>"), database.connection_context():
        login_user(models.User.get(models.User.username == "alice"))
        html = render_template("collection/_checklist.html", checklist=checklist, filters=checklists.CHECKLIST_FILTERS)
    assert "<i>" not in html and "<1>" not in html and "Bob &amp; &lt;i&gt;Co&lt;/i&gt;" in html
    assert 'href="/games/kaijudo/cards/a%20key/%C3%A9"' in html and '<b>' not in html
    assert html.count('aria-label="One more quantity: Bob &amp; &lt;i&gt;Co&lt;/i&gt;"') == 1


def test_unknown_games_and_sets_are_404(client, auth):
    auth.signup()
    assert client.get("/collection/chess/sets/x").status_code == 404
    assert client.get("/collection/kaijudo/sets/no-such-set").status_code == 404
    assert client.get("/collection/export.csv?game=chess").status_code == 404


def test_import_shows_the_bad_row_and_refuses_to_commit_it(client, auth):
    auth.signup()
    response = upload(client, BAD)
    assert response.status_code == 303
    preview_url = response.headers["Location"]
    html = text(client.get(preview_url))
    assert "1 row with problems" in html
    assert "Kaijudo has no card &#39;Cloudwalker Dronne&#39;" in html and "<q>Cloudwalker Drone</q>" in html
    assert "/commit" not in html and "Nothing can be imported until every row is fixed" in html
    assert "quantity 0 → 3, foil 0 → 1" in text(client.get(preview_url + "?show=all"))
    response = client.post(preview_url + "/commit", follow_redirects=True)  # even posted by hand, nothing is written
    page = text(response)
    assert "1 rows have problems; nothing was imported" in page and "1 row with problems" in page
    assert owned("alice", pid("evo-fury", "1")) == col.NOTHING


def test_import_then_commit_sets_the_quantities(client, auth):
    auth.signup()
    preview_url = upload(client, GOOD).headers["Location"]
    html = text(client.get(preview_url))
    assert "Ready to import" in html and "quantity 0 → 3, foil 0 → 1" in html and "Import 2 changes" in html
    response = client.post(preview_url + "/commit")
    assert response.status_code == 303
    done = text(client.get(response.headers["Location"]))
    assert "Imported" in done and "<strong>2</strong> changed" in done
    assert owned("alice", pid("evo-fury", "1")) == col.Owned(3, 1, 0, 0)
    assert owned("alice", pid("evo-fury", "2")) == col.Owned(2, 0, 0, 0)
    # a second click (another tab) commits nothing twice and lands on the result
    again = client.post(preview_url + "/commit")
    assert again.headers["Location"].endswith("/progress")
    assert client.get(preview_url).status_code == 302


def test_a_large_import_runs_as_a_job_with_progress(client, auth, app):
    auth.signup()
    with database.connection_context():
        index = col.game_index(GAME)
        lines = [f"kaijudo,{r.set_code},{r.number},\"{index.catalogue.cards[r.card_key].name}\",1"
                 for r in index.printings.values()]
    data = ("game,set,number,name,quantity\n" + "\n".join(lines)).encode()
    preview_url = upload(client, data).headers["Location"]
    first = text(client.get(preview_url))
    assert "Ready to import" in first and "Page 1 of 7 (1,293 rows)" in first and first.count('<tr class="changed"') == 200
    last = text(client.get(preview_url + "?show=changes&page=7"))
    assert "Page 7 of 7 (1,293 rows)" in last and last.count('<tr class="changed"') == 93
    assert text(client.get(preview_url + "?page=99")).count('<tr class="changed"') == 93  # the last page
    assert "No rows to show here" in text(client.get(preview_url + "?show=problems"))
    with database.connection_context():  # the pages read the stored plan; the file itself is gone
        upload_row = models.CollectionUpload.get()
        assert upload_row.data is None and upload_row.summary["printings"] == 1293
        P = models.CollectionUploadPage
        assert sum(p.rows for p in P.select().where((P.upload == upload_row) & (P.stream == "all"))) == 1293
    progress_url = client.post(preview_url + "/commit").headers["Location"]
    deadline = time.time() + 30
    status = client.get(preview_url + "/status").get_json()
    while status["status"] in ("queued", "running") and time.time() < deadline:
        page = text(client.get(progress_url))
        assert '<meta http-equiv="refresh" content="1">' in page or "Imported" in page
        time.sleep(0.05)
        status = client.get(preview_url + "/status").get_json()
    assert status["state"] == "done" and status["printings"] == 1293
    html = text(client.get("/collection/"))
    assert 'aria-label="Kaijudo completion: 1293 of 1293"' in html


def test_unreadable_files_are_reported_by_the_check(client, auth):
    auth.signup()
    response = upload(client, "name,quantity\nCafé,1\n".encode("latin-1"))
    assert response.status_code == 303
    page = text(client.get(response.headers["Location"], follow_redirects=True))
    assert "Nothing was imported" in page and "failed: The file is not UTF-8 text: byte 0xE9 on line 2" in page
    assert "Back to the check" not in page and "Upload another file" in page
    response = upload(client, b"just some words\n")
    assert "must name the columns" in text(client.get(response.headers["Location"], follow_redirects=True))
    with database.connection_context():
        assert [u.data for u in models.CollectionUpload.select()] == [None, None]  # the file is not kept


def test_a_file_over_the_size_limit_gets_a_friendly_413(client, auth, app):
    auth.signup()
    app.config["MAX_CONTENT_LENGTH"] = 2000
    response = upload(client, b"name,quantity\n" + b"Lone Wolf,1\n" * 500)
    assert response.status_code == 413
    html = text(response)
    assert "That file is too large" in html and "deckhub collection import" in html


def test_a_chosen_game_refuses_rows_of_another_game(client, auth):
    auth.signup()
    html = text(client.get(upload(client, b"game,name,quantity\nhuntik,Dante Vale,1\n", game=GAME).headers["Location"]))
    assert "wrong game" in html and "this import is for Kaijudo" in html


def test_export_downloads_the_csv_that_imports_back(client, auth):
    auth.signup()
    client.post(upload(client, GOOD).headers["Location"] + "/commit")
    response = client.get("/collection/export.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="deckhub-collection-alice.csv"'
    assert response.headers["Cache-Control"] == "private, no-store"
    body = response.get_data()
    assert body.startswith(b"\xef\xbb\xbfgame,set,number,name,version,quantity,foil_quantity,want_quantity,trade_quantity\r\n")
    assert b"kaijudo,evo-fury,1,Chasm Entangler,,3,1,0,0\r\n" in body
    preview = text(client.get(upload(client, body).headers["Location"]))
    assert "Ready to import" in preview and "<strong>0</strong> will change" in preview


def test_another_users_import_links_are_404(client, auth):
    auth.signup("alice")
    preview_url = upload(client, GOOD).headers["Location"]
    auth.logout()
    auth.signup("bob")
    for url in [preview_url, preview_url + "/progress", preview_url + "/status"]:
        assert client.get(url).status_code == 404, url
    for url in [preview_url + "/commit", preview_url + "/discard"]:
        assert client.post(url).status_code == 404, url
    assert client.get("/collection/import/not-a-real-token-at-all-000").status_code == 404
    assert client.get("/collection/import/..%2F..%2Fsecret_key").status_code == 404
    auth.logout()
    auth.login("alice")
    assert client.get(preview_url).status_code == 200
    assert owned("alice", pid("evo-fury", "1")) == col.NOTHING


def test_each_user_sees_and_exports_only_their_own_collection(client, auth):
    auth.signup("alice")
    client.post("/collection/adjust", data={"printing": pid("evo-fury", "9"), "step": "quantity:4"})
    auth.logout()
    auth.signup("bob")
    assert "Chasm" not in client.get("/collection/export.csv").get_data(as_text=True)
    assert b"evo-fury,9" not in client.get("/collection/export.csv").get_data()
    assert "0 of 60" in text(client.get("/collection/kaijudo/sets/evo-fury"))
    assert "Nothing wanted" in text(client.get("/collection/wants"))


def test_csrf_is_required_for_every_change(csrf_app):
    client = csrf_app.test_client()
    token = csrf_token(client.get("/signup").get_data(as_text=True))
    client.post("/signup", data={"username": "carol", "password": "correct horse", "confirm": "correct horse",
                                 "csrf_token": token})
    p = pid("evo-fury", "4")
    assert client.post("/collection/adjust", data={"printing": p, "step": "quantity:1"}).status_code == 400
    page = client.get("/collection/kaijudo/sets/evo-fury").get_data(as_text=True)
    response = client.post("/collection/adjust", data={"printing": p, "step": "quantity:1", "csrf_token": csrf_token(page)})
    assert response.status_code == 303 and owned("carol", p).quantity == 1


def _deck(username: str, name: str, cards: dict[str, int], public: bool = False) -> int:
    with database.connection_context():
        user = models.User.get(models.User.username == username)
        deck = models.Deck.create(owner=user, game=GAME, format="standard", name=name, is_public=public)
        version = models.DeckVersion.create(deck=deck, number=1, data={
            "game": GAME, "name": name, "sections": {"Deck": [{"card": k, "qty": q} for k, q in cards.items()]}})
        keep_current_cards(deck.id, GAME, version.data)  # as the deck service does with every version
        return deck.id


def test_add_missing_to_wants_from_a_deck(client, auth):
    auth.signup("alice")
    mine = _deck("alice", "Water Rush", {"hydro-spy": 3})
    response = client.post(f"/collection/decks/{mine}/add-missing", data={"next": "/collection/wants"})
    assert response.status_code == 303 and response.headers["Location"] == "/collection/wants"
    html = text(client.get("/collection/wants"))
    assert "Added 3 cards to your want list." in html and "Hydro Spy" in html
    auth.logout()
    auth.signup("bob")
    assert client.post(f"/collection/decks/{mine}/add-missing").status_code == 404
    shared = _deck("alice", "Shared", {"aqua-seneschal": 2}, public=True)
    assert client.post(f"/collection/decks/{shared}/add-missing").status_code == 303
    assert "Aqua Seneschal" in text(client.get("/collection/wants"))
    assert client.post("/collection/decks/999999/add-missing").status_code == 404


def test_a_deck_pages_collection_table_follows_the_viewers_cards_and_decks(client, auth):
    """The deck page keeps its *Against my collection* panel per what it shows of the viewer's
    cards: a copy owned or wanted, or another deck of theirs using a card, shows on the next view;
    another viewer holding none of the cards gets a panel of their own."""
    auth.signup("alice")
    deck = _deck("alice", "Water Rush", {"hydro-spy": 3}, public=True)
    with database.connection_context():
        spy = col.game_index(GAME).by_card["hydro-spy"][0].id
    assert "<strong>3</strong> cards missing" in text(client.get(f"/decks/{deck}"))
    client.post("/collection/adjust", data={"printing": spy, "step": "quantity:1"})
    assert "<strong>2</strong> cards missing" in text(client.get(f"/decks/{deck}"))
    client.post("/collection/adjust", data={"printing": spy, "step": "want_quantity:2"})
    assert '<span class="badge">wanted 2</span>' in text(client.get(f"/decks/{deck}"))
    _deck("alice", "Other & Co", {"hydro-spy": 1})
    page = text(client.get(f"/decks/{deck}"))
    assert "1 in “Other &amp; Co” <br><small>you own 1, 0 free</small>" in page
    assert "<small>3 if your other decks keep their copies.</small>" in page
    auth.logout()
    auth.signup("bob")
    page = text(client.get(f"/decks/{deck}"))
    assert "<strong>3</strong> cards missing" in page and "Other &amp; Co" not in page


def test_the_partials_render_for_other_pages(app, client, auth):
    """_owned_controls.html and _deck_needs.html, as the card browser and deck pages include them."""
    from flask import render_template_string
    from flask_login import login_user
    from deckhub.services.catalogue_store import get_catalogue
    auth.signup("alice")
    p = pid("evo-fury", "1")
    client.post("/collection/adjust", data={"printing": p, "step": "quantity:2"})
    deck_id = _deck("alice", "Deck", {"chasm-entangler": 3})
    with app.test_request_context("/games/kaijudo/sets/evo-fury"), database.connection_context():
        user = models.User.get(models.User.username == "alice")
        login_user(user)
        html = render_template_string('{% set printing_id = pid %}{% include "collection/_owned_controls.html" %}', pid=p)
        assert 'id="p%d"' % p in html and 'name="set_quantity" value="2"' in html
        assert 'name="next" value="/games/kaijudo/sets/evo-fury"' in html
        deck = models.Deck.get_by_id(deck_id)
        needs = deck_needs.deck_needs(user, models.DeckVersion.get(models.DeckVersion.deck == deck).data,
                               get_catalogue(GAME), deck_id=deck.id)
        from deckhub.web.decks import needs_table
        html = render_template_string('{% include "collection/_deck_needs.html" %}', needs=needs,
                                      needs_table=needs_table(needs), deck=deck)
        assert "<strong>1</strong> card missing" in re.sub(r"\s+", " ", html)
        assert f'action="/collection/decks/{deck_id}/add-missing"' in html


def test_catalogue_printings_map_to_their_database_ids(app):
    from deckhub.services.catalogue_store import get_catalogue
    from deckhub.web.collection import collection_printing_id
    with app.test_request_context("/"), database.connection_context():
        card = get_catalogue(GAME).get("hydro-spy")
        ids = [collection_printing_id(card, p) for p in card.printings]
        assert ids == [r.id for r in col.game_index(GAME).by_card["hydro-spy"]] and None not in ids
        assert [models.Printing.get_by_id(i).card_set.code for i in ids] == [p.set_code for p in card.printings]


def test_a_too_large_upload_is_a_friendly_413_with_csrf_on(csrf_app):
    csrf_app.config["MAX_CONTENT_LENGTH"] = 2000
    client = csrf_app.test_client()
    token = csrf_token(client.get("/signup").get_data(as_text=True))
    client.post("/signup", data={"username": "carol", "password": "correct horse", "confirm": "correct horse",
                                 "csrf_token": token})
    token = csrf_token(client.get("/collection/import").get_data(as_text=True))
    response = client.post("/collection/import", data={"csrf_token": token, "game": "",
                                                       "file": (io.BytesIO(b"name,quantity\n" + b"x,1\n" * 1000), "big.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 413 and "That file is too large" in text(response)


def paste(client, **form):
    """Post the import page's paste form (its fields are prefixed: the upload form shares the page)."""
    return client.post("/collection/import/paste", data={f"paste-{k}": v for k, v in form.items()})


def test_a_pasted_list_goes_through_the_csv_dry_run_and_adds_or_sets(client, auth):
    auth.signup()
    p = pid("evo-fury", "2")  # Cloudwalker Drone
    client.post("/collection/adjust", data={"printing": p, "step": "quantity:1"})
    response = paste(client, game="kaijudo", mode="add", decklist="3 Cloudwalker Drone\n2x chasm entangler")
    assert response.status_code == 303
    body = text(client.get(response.headers["Location"]))
    assert "Check the import: a pasted Kaijudo list" in body and "Ready to import" in body
    assert owned("alice", p).quantity == 1  # the dry run changes nothing
    commit = re.search(r'action="(/collection/import/[^"]+/commit)"', body).group(1)
    assert client.post(commit).status_code == 303
    assert owned("alice", p).quantity == 4  # 1 + 3
    body = text(client.get(paste(client, game="kaijudo", mode="set", decklist="2 Cloudwalker Drone").headers["Location"]))
    client.post(re.search(r'action="(/collection/import/[^"]+/commit)"', body).group(1))
    assert owned("alice", p).quantity == 2

    bad = paste(client, game="kaijudo", mode="add", decklist="3 Cloudwalker Drone\n1 Zzyzx Qwerty")
    assert bad.status_code == 400 and "Line 2:" in text(bad) and "Nothing was saved" in text(bad)
    for form in ({"game": "kaijudo", "mode": "add", "decklist": ""}, {"game": "chess", "decklist": "1 Sprout"},
                 {"game": "kaijudo", "mode": "steal", "decklist": "1 Sprout"},
                 {"game": "kaijudo", "mode": "add", "decklist": "# only a comment"}):
        assert paste(client, **form).status_code == 400, form
    assert owned("alice", p).quantity == 2


def test_add_this_deck_to_my_collection_adds_its_cards_after_the_dry_run(client, auth):
    auth.signup()
    deck_id = _deck("alice", "Deck", {"chasm-entangler": 3, "cloudwalker-drone": 2})
    client.post("/collection/adjust", data={"printing": pid("evo-fury", "2"), "step": "quantity:1"})
    page = text(client.get(f"/decks/{deck_id}"))
    assert f'action="/collection/decks/{deck_id}/add-to-collection"' in page and "Add this deck to my collection" in page
    response = client.post(f"/collection/decks/{deck_id}/add-to-collection")
    assert response.status_code == 303
    body = text(client.get(response.headers["Location"]))
    assert "the deck “Deck”" in body and "Ready to import" in body
    client.post(re.search(r'action="(/collection/import/[^"]+/commit)"', body).group(1))
    assert owned("alice", pid("evo-fury", "2")).quantity == 3
    assert sum(o.quantity for o in col.snapshot(models.User.get(models.User.username == "alice"), "kaijudo").values()) == 6
    auth.logout()
    auth.signup("bob")
    assert client.post(f"/collection/decks/{deck_id}/add-to-collection").status_code == 404  # a private deck


def _ambiguous_name() -> tuple[str, list[int]]:
    """A Kaijudo card printed more than once: its name alone could be several printings."""
    with database.connection_context():
        index = col.game_index(GAME)
        key, refs = next((k, r) for k, r in index.by_card.items() if len(r) > 1)
        return index.catalogue.cards[key].name, [r.id for r in refs]


def test_problem_rows_are_fixed_by_picking_a_suggestion_then_the_dry_run_runs_again_and_commits(client, auth):
    auth.signup()
    name, printings = _ambiguous_name()
    data = BAD + f'kaijudo,,,"{name}",4,\n'.encode()
    preview_url = upload(client, data).headers["Location"]
    html = text(client.get(preview_url))
    assert "2 rows with problems" in html
    assert 'name="fix-4" value="0"' in html and "could be" in html  # the typo and the ambiguous row offer picks
    assert 'name="fix-5" value="0"' in html
    token = preview_url.rsplit("/", 1)[1]
    with database.connection_context():
        upload_row = models.CollectionUpload.get(models.CollectionUpload.token == token)
    # pick the suggested name for the typo only: checked again, one problem left, nothing written
    response = client.post(preview_url + "/choose", data={"fix-4": "0", "fix-5": ""})
    assert response.status_code == 303
    html = text(client.get(client.get(response.headers["Location"]).headers.get("Location", preview_url)))
    assert "1 row with problems" in html and "your pick" in html
    assert owned("alice", pid("evo-fury", "2")) == col.NOTHING
    # pick the second printing of the ambiguous row: ready, and the picks are kept from one run to the next
    client.post(preview_url + "/choose", data={"fix-5": "1"})
    html = text(client.get(preview_url + "?show=all"))
    assert "Ready to import" in html and html.count("your pick") == 2
    assert client.post(preview_url + "/commit").status_code == 303
    assert owned("alice", pid("evo-fury", "2")) == col.Owned(3, 0, 0, 0)  # line 3 and the fixed line 4 add up
    with database.connection_context():
        assert col.owned_for(models.User.get(models.User.username == "alice"), [printings[1]])[printings[1]].quantity == 4
        done = models.CollectionUpload.get_by_id(upload_row.id)
        assert done.state == "done" and done.data is None  # the file is dropped once imported
    # the upload is imported: picks for it now are refused and change nothing
    again = client.post(preview_url + "/choose", data={"fix-5": "0"})
    assert again.status_code == 400 and "not waiting at its dry run" in again.get_data(as_text=True)


@pytest.mark.parametrize("form, message", [
    ({"fix-4": "7"}, "offers no suggestion number 8"),
    ({"fix-2": "0"}, "Line 2 has no problem"),
    ({"fix-4": "x"}, "the number of a suggestion"),
    ({"fix-x": "0"}, "the number of a suggestion"),
    ({}, "Pick a suggestion for at least one row"),
])
def test_bad_picks_are_refused_with_400_and_change_nothing(client, auth, form, message):
    auth.signup()
    preview_url = upload(client, BAD).headers["Location"]
    client.get(preview_url)  # the welcome message is shown once

    def page():  # the dry run as shown, without the CSRF tokens (they carry the time)
        return re.sub(r'name="csrf_token" value="[^"]*"', "", text(client.get(preview_url)))
    before = page()
    response = client.post(preview_url + "/choose", data=form)
    assert response.status_code == 400 and message in response.get_data(as_text=True)
    assert page() == before


def test_picks_on_another_users_or_a_stale_import_are_404(client, auth):
    auth.signup("alice")
    preview_url = upload(client, BAD).headers["Location"]
    auth.logout()
    auth.signup("bob")
    assert client.post(preview_url + "/choose", data={"fix-4": "0"}).status_code == 404
    assert client.post("/collection/import/not-a-real-token-at-all-000/choose", data={"fix-4": "0"}).status_code == 404
