"""Card facts in the browser: the facts CSV upload (check, then propose), its download, the
completeness API and bars, and the *Most wanted* page.

Values proposed here are made up for the tests, not facts about the cards.
"""
from __future__ import annotations

import csv
import io
import re
from html import unescape
from pathlib import Path

import pytest

from deckhub.services import goldfish
from deckhub.services.community.proposing import propose_facts
from deckhub.services.community.reviewing import approve
from deckhub.store import models
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.decklist import Deck
from deckhub.store.db import database
from tests.conftest import AuthActions
from tests.conftest import visible_text as text

NEO = "neopets-tcg"
DARIGAN = (Path(__file__).resolve().parents[1] / "data" / NEO / "decks" / "darigan-theme-deck.txt").read_text(encoding="utf-8")
URL = "https://example.org/neopets-tcg/checklist"
SECRET = "Pat's secret Darigan deck"


@pytest.fixture
def users(app):
    """(curator, player): two signed-in clients; the first account a site makes is its curator."""
    curator, player = app.test_client(), app.test_client()
    assert AuthActions(curator).signup("curie").status_code == 302
    assert AuthActions(player).signup("pat").status_code == 302
    return curator, player


def exported(client) -> list[dict[str, str]]:
    response = client.get(f"/games/{NEO}/facts.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


def as_csv(rows: list[dict[str, str]]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def upload(client, body: bytes, name="facts.csv"):
    """Send a file and follow it to its checked page (the queue runs the check at once in the tests)."""
    return client.post("/facts/import", data={"file": (io.BytesIO(body), name)}, content_type="multipart/form-data",
                       follow_redirects=True)


def propose(client, checked):
    """Press the checked page's "propose" button."""
    return client.post(checked.request.path + "/propose")


def proposals() -> list[models.Proposal]:
    with database.connection_context():
        return list(models.Proposal.select().order_by(models.Proposal.id))


def test_upload_checks_then_proposes_the_changed_cards(app, users):
    curator, player = users
    rows = exported(player)
    first, second = [r for r in rows if not r["type"]][:2]
    first.update(type="Item", bank_value="4", source=URL)
    second.update(species="Korbat", source="printed card I own")
    checked = upload(player, as_csv(rows))
    assert checked.status_code == 200
    page = text(checked)
    assert "Ready to propose" in page and "2 cards with 3 new values" in page
    assert f"{first['name']}" in page and "Type: unknown → Item" in page and "Bank value: unknown → 4" in page
    assert proposals() == []  # checking writes nothing

    done = propose(player, checked)
    assert done.status_code == 303 and done.location.endswith("/proposals")
    made = proposals()
    assert [(p.values, p.source) for p in made] == [({"type": "Item", "bank_value": 4}, URL),
                                                     ({"species": "Korbat"}, "printed card I own")]
    assert "2 proposals from facts.csv wait for a curator" in text(player.get("/proposals"))

    again = upload(player, as_csv(exported(player)))  # the catalogue has not changed yet: nothing to propose
    assert again.status_code == 200 and "Nothing to propose" in text(again)


def test_a_file_with_one_bad_row_proposes_nothing(app, users):
    _, player = users
    rows = exported(player)
    good, bad, misspelt = [r for r in rows if not r["type"]][:3]
    good.update(type="Item", source=URL)
    bad.update(bank_value="-1", source=URL)
    misspelt.update(name=misspelt["name"] + "x", set="", number="", type="Hero", source=URL)
    checked = upload(player, as_csv(rows))
    assert checked.status_code == 400
    page = text(checked)
    assert "Nothing can be proposed until every row is fixed" in page
    assert "Bank value must be a whole number from 0 to 99, not -1" in page
    assert f"has no card '{misspelt['name']}'" in page and "did you mean" in page
    assert "/propose" not in checked.get_data(as_text=True)  # no propose button
    refused = propose(player, checked)
    assert refused.status_code == 400 and "nothing was proposed" in text(refused)
    assert proposals() == []


def test_unreadable_uploads_are_refused_with_a_reason(app, users):
    _, player = users
    response = upload(player, b"game,name,colour,source\nneopets-tcg,x,red,y\n")
    assert response.status_code == 400 and "'colour' is not a column of a facts file" in text(response)
    response = upload(player, b"\xff\xfe\xfa\xfb")
    assert response.status_code == 400
    assert upload(player, b"").status_code == 400
    assert upload(player, b"game,name,x\n").status_code == 400
    anonymous = app.test_client().get("/facts/import")
    assert anonymous.status_code == 302 and "/login" in anonymous.location
    assert proposals() == []


def _expected(catalogue, set_code: str, key: str) -> tuple[int, int]:
    cards = [c for c in catalogue if any(p.set_code == set_code for p in c.printings)]
    value = (lambda c: c.type) if key == "type" else (lambda c: c.attrs.get(key))
    return len(cards), sum(1 for c in cards if value(c) not in (None, "", []))


def test_completeness_api_counts_known_values_by_provenance(app, users):
    curator, player = users
    client = app.test_client()
    body = client.get(f"/api/games/{NEO}/completeness").get_json()
    with app.app_context(), database.connection_context():
        catalogue = get_catalogue(NEO)
    assert body["game"] == NEO and body["cards"] == len(catalogue)
    assert body["labels"]["bank_value"] == "Bank value"
    meridell = next(s for s in body["sets"] if s["name"] == "Battle for Meridell")
    cards, typed = _expected(catalogue, meridell["code"], "type")
    assert meridell["cards"] == cards and meridell["fields"]["type"]["known"] == typed
    t = meridell["fields"]["type"]
    assert t["imported"] + t["derived"] + t["contributed"] == t["known"] and t["contributed"] == 0
    assert set(meridell["fields"]) == set(body["fields"]) >= {"type", "species", "bank_value", "text"}

    untyped = next(c for c in catalogue if not c.type and any(p.set_code == meridell["code"] for p in c.printings))
    sent = upload(player, f"game,name,type,bank_value,source\n{NEO},\"{untyped.name}\",Item,2,{URL}\n".encode())
    assert sent.status_code == 200
    propose(player, sent)
    pid = proposals()[-1].id
    assert curator.post(f"/review/{pid}/approve", data={"reason": "checked"}).status_code == 302
    after = next(s for s in client.get(f"/api/games/{NEO}/completeness").get_json()["sets"] if s["code"] == meridell["code"])
    assert after["fields"]["type"]["known"] == typed + 1 and after["fields"]["type"]["contributed"] == 1
    assert after["fields"]["bank_value"]["contributed"] == after["fields"]["bank_value"]["known"] - \
        meridell["fields"]["bank_value"]["known"] == 1
    missing = client.get("/api/games/chess/completeness")
    assert missing.status_code == 404 and "chess" in missing.get_json()["error"]


def test_game_and_set_pages_show_the_bars(app):
    client = app.test_client()
    with app.app_context(), database.connection_context():
        catalogue = get_catalogue(NEO)
    code = next(s.code for s in catalogue.sets.values() if s.name == "Battle for Meridell")
    cards, typed = _expected(catalogue, code, "type")
    _, species = _expected(catalogue, code, "species")
    _, banked = _expected(catalogue, code, "bank_value")
    line = f"Battle for Meridell: {typed} of {cards} typed, {species} species, {banked} bank values"
    game_page = client.get(f"/games/{NEO}")
    assert line in text(game_page)
    assert f'<progress max="{cards}" value="{typed}"' in game_page.get_data(as_text=True)
    set_page = client.get(f"/games/{NEO}/sets/{code}")
    page = text(set_page)
    assert "Facts known" in page and line in page and f"Bank value {banked} of {cards}" in page
    assert f'href="/games/{NEO}/facts.csv?set={code}"' in set_page.get_data(as_text=True)
    one_set = client.get(f"/games/{NEO}/facts.csv?set={code}")
    assert one_set.status_code == 200 and one_set.get_data(as_text=True).count(f"\r\n{NEO},{code},") == cards
    assert client.get(f"/games/{NEO}/facts.csv?set=atlantis").status_code == 404
    assert text(client.get("/games/kaijudo")).count(" typed") >= 1


def test_most_wanted_ranks_unknown_facts_by_the_decks_and_games_they_block(app, users):
    _, player = users
    imported = player.post("/decks/import", data={"name": SECRET, "game": NEO, "decklist": DARIGAN})
    assert imported.status_code == 302
    with app.app_context(), database.connection_context():
        deck_row = models.Deck.get(models.Deck.name == SECRET)
        deck = Deck.from_json(models.DeckVersion.get(models.DeckVersion.deck == deck_row).data)
        goldfish.start(deck_row.owner_id, deck_row, deck, {}, seed=1)
        catalogue = get_catalogue(NEO)
        unknown = [k for _, k, _ in deck.entries() if catalogue.get(k).type is None]
    assert unknown, "the Darigan theme deck has cards of unknown type"
    small = f"Deck\n3 {catalogue.get(unknown[-1]).display_name}"
    assert player.post("/decks/import", data={"name": "Second", "game": NEO, "decklist": small}).status_code == 302

    response = app.test_client().get("/most-wanted")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert SECRET not in html  # counts only: nobody's deck is named
    rows = re.findall(r'<tr>\s*<td><a href="[^"]+">([^<]+)</a>.*?<td>([^<]+)</td>\s*<td>(\d+)</td>\s*<td>(\d+)</td>\s*'
                      r'<td><a href="([^"]+)">', html, re.S)
    assert rows, "the page lists unknown facts"
    blocking = [int(d) + int(g) for _, _, d, g, _ in rows]
    assert blocking == sorted(blocking, reverse=True)
    name, label, decks, games, link = rows[0]
    assert label == "Type" and int(decks) == 2 and int(games) == 1
    top = catalogue.get(unknown[-1])
    assert unescape(name) == top.display_name  # in both decks: first
    assert link == f"/games/{NEO}/propose/card/{top.key}#f_type"
    assert player.get(link.split("#")[0]).status_code == 200  # where it can be entered
    by_key = {c.key for c in catalogue if unescape(c.display_name) in {unescape(r[0]) for r in rows}}
    assert set(unknown) <= by_key

    with app.app_context(), database.connection_context():  # the type becomes known: now its bank value is wanted
        curie, pat = models.User.get(username="curie"), models.User.get(username="pat")
        approve(propose_facts(pat, NEO, top.key, {"type": "Item"}, URL).id, curie)
    html = app.test_client().get(f"/most-wanted?game={NEO}").get_data(as_text=True)
    assert f'/propose/card/{top.key}#f_type"' not in html and f'/propose/card/{top.key}#f_bank_value"' in html

    assert "waiting for an unknown fact" in text(app.test_client().get("/most-wanted?game=kaijudo"))
    assert app.test_client().get("/most-wanted?game=chess").status_code == 404


def test_most_wanted_never_mixes_up_two_databases_whose_ids_repeat(databases):
    """A worker (or the test run) may serve several databases; the cached card keys follow the database."""
    from conftest import make_app
    from deckhub.services import facts
    from deckhub.services.accounts import create_user
    from deckhub.services.decks import create_deck

    seen = []
    for name in ("first", "second"):
        app = make_app(databases.with_catalogues())
        with app.app_context(), database.connection_context():
            catalogue = get_catalogue(NEO)
            card = [c for c in catalogue if c.type is None][0 if name == "first" else 1]
            deck = Deck(NEO)
            deck.add("Deck", card.key, 3)
            create_deck(create_user(name, "correct horse").id, NEO, "standard", name, deck=deck)  # deck version id 1
            seen.append(([w.card.key for w in facts.most_wanted(NEO)], card.key))
        database.close() if not database.is_closed() else None
    assert seen[0][0] == [seen[0][1]] and seen[1][0] == [seen[1][1]]
