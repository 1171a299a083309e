"""A deck taken to the table, for every registered game: the registration sheet, the proxy sheet and
its PDF (one page per nine cards, A4 and Letter), and the exports (text, o8d, json, untap, tts) on
the deck page, through the API and from `deckhub export-deck`, which all write the same file. The
Untap list reads back into DeckHub as the same deck; the Tabletop Simulator object is valid JSON
with the deck's card count, and every sprite sheet it names is served."""
from __future__ import annotations

import io
import json
import math
import re
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner
from PIL import Image

from deckhub.cli import main
from deckhub.core.decklist import Deck
from deckhub.games import all_games
from deckhub.importers.deck_exports import EXPORTS, SHEET_CARDS
from deckhub.importers.decklists import read_decklist
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.decks import create_deck
from deckhub.services.table_pictures import SHEET_CELL
from deckhub.store import models
from deckhub.store.db import database

PASSWORD = "correct horse"
GAMES = [g.slug for g in all_games()]
PAGE = re.compile(rb"/Type\s*/Page\b")  # a page object of the PDF (its /Pages tree does not match)


def _table_deck(slug: str) -> Deck:
    """More distinct cards than one sprite sheet holds in the first section (where the catalogue has
    them), two copies of a card in each other section: every section, two sheets, and a proxy count
    that is no multiple of nine."""
    spec = next(g for g in all_games() if g.slug == slug)
    cards = list(get_catalogue(slug))
    others = len(spec.sections) - 1
    first = min(SHEET_CARDS + 1, len(cards) - others)
    deck = Deck(slug)
    for card in cards[:first]:
        deck.add(spec.sections[0].name, card.key, 1)
    for i, section in enumerate(spec.sections[1:]):
        deck.add(section.name, cards[first + i].key, 2)
    return deck


@pytest.fixture
def site(app):
    """alice, signed in, with one deck of each game; (client, {game: (deck id, deck)})."""
    client = app.test_client()
    client.post("/signup", data={"username": "alice", "password": PASSWORD, "confirm": PASSWORD})
    decks = {}
    with database.connection_context():
        alice = models.User.get(models.User.username == "alice")
        for slug in GAMES:
            deck = _table_deck(slug)
            decks[slug] = (create_deck(alice.id, slug, next(g for g in all_games() if g.slug == slug).format(None).id,
                                       f"Table {slug}", deck=deck).row.id, deck)
    return client, decks


def _total(deck: Deck) -> int:
    return sum(q for cards in deck.sections.values() for q in cards.values())


@pytest.mark.parametrize("slug", GAMES)
def test_the_untap_list_reads_back_as_the_same_deck_and_tts_loads_with_its_sheets_served(app, site, slug):
    client, decks = site
    deck_id, deck = decks[slug]
    spec = next(g for g in all_games() if g.slug == slug)
    untap = client.get(f"/api/decks/{deck_id}/export?format=untap")
    assert untap.status_code == 200 and untap.mimetype == "text/plain"
    assert not any(line.startswith("#") for line in untap.get_data(as_text=True).splitlines())
    with app.app_context():
        back = read_decklist(untap.get_data(as_text=True), spec, get_catalogue(slug), games=all_games())
    assert back.errors == [] and back.deck.sections == {s: c for s, c in deck.sections.items() if c}

    doc = json.loads(client.get(f"/api/decks/{deck_id}/export?format=tts").get_data(as_text=True))
    objects = doc["ObjectStates"]
    assert [o["Name"] for o in objects] == ["DeckCustom"] * len([c for c in deck.sections.values() if c])
    assert sum(len(o["DeckIDs"]) for o in objects) == sum(len(o["ContainedObjects"]) for o in objects) == _total(deck)
    sheets = {n: d for o in objects for n, d in o["CustomDeck"].items()}
    distinct = len({key for cards in deck.sections.values() for key in cards})
    assert sorted(sheets) == [str(n + 1) for n in range(math.ceil(distinct / SHEET_CARDS))]  # 70 to a 10 x 7 sheet
    anonymous = app.test_client()  # Tabletop Simulator has no session: the owner's addresses carry the deck's token
    for n, custom in sheets.items():
        assert (custom["NumWidth"], custom["NumHeight"]) == (10, 7)
        for address in (custom["FaceURL"], custom["BackURL"]):
            parts = urlsplit(address)
            served = anonymous.get(f"{parts.path}?{parts.query}")
            assert served.status_code == 200 and served.mimetype == "image/png", address
            size = Image.open(io.BytesIO(served.data)).size
            assert size == ((SHEET_CELL[0] * 10, SHEET_CELL[1] * 7) if address == custom["FaceURL"] else SHEET_CELL)
    for o in objects:  # each card id names a place on a sheet the object declares
        assert all(str(i // 100) in o["CustomDeck"] and i % 100 < SHEET_CARDS for i in o["DeckIDs"])
    # without the token the private deck's sheets are its owner's alone
    assert anonymous.get(f"/decks/{deck_id}/tts/sheet-1.png").status_code == 404
    assert anonymous.get(f"/decks/{deck_id}/tts/sheet-1.png?t=not-the-token").status_code == 404
    assert client.get(f"/decks/{deck_id}/tts/sheet-3.png").status_code == 404


@pytest.mark.parametrize("slug", GAMES)
def test_the_proxy_pdf_has_one_page_per_nine_cards_on_a4_and_letter(site, slug):
    client, decks = site
    deck_id, deck = decks[slug]
    pages = math.ceil(_total(deck) / 9)
    for paper, size in (("a4", b"595.28 841.89"), ("letter", b"612.00 792.00")):
        pdf = client.get(f"/decks/{deck_id}/proxies.pdf?paper={paper}")
        assert pdf.status_code == 200 and pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF")
        assert len(PAGE.findall(pdf.data)) == pages
        assert size in pdf.data  # the page's MediaBox, in points
    html = client.get(f"/decks/{deck_id}/proxies?paper=letter").get_data(as_text=True)
    assert html.count('class="proxy-page paper-letter"') == pages and html.count('class="proxy-card slot-') == _total(deck)
    assert 'class="proxy-page paper-letter"' in html
    css = client.get("/decks/proxies.css").get_data(as_text=True)  # the page's geometry, from the PDF's layout
    assert "@page letter { size: 215.9mm 279.4mm; margin: 0; }" in css and "@page a4 { size: 210.0mm 297.0mm" in css
    assert ".proxy-card { width: 63.0mm; height: 88.0mm; }" in css
    assert client.get(f"/decks/{deck_id}/proxies?paper=a3").status_code == 400
    assert client.get(f"/decks/{deck_id}/proxies.pdf?paper=tabloid").status_code == 400


@pytest.mark.parametrize("slug", GAMES)
def test_the_registration_sheet_lists_every_section_with_counts_set_and_number(app, site, slug):
    client, decks = site
    deck_id, deck = decks[slug]
    page = client.get(f"/decks/{deck_id}/print?player=Alice+Player&date=2026-12-05&event=Regionals")
    text = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "Alice Player" in text and "2026-12-05" in text and "Regionals" in text
    with app.app_context():
        catalogue = get_catalogue(slug)
        for section, cards in deck.sections.items():
            assert f"{section} ({sum(cards.values())})" in text
            for key in cards:
                card = catalogue.get(key)
                printing = next((p for p in card.printings if p.number), None)
                if printing is not None:
                    assert f"<td>{printing.number}</td>" in text
    assert "<dd class=\"write-in\"></dd>" in client.get(f"/decks/{deck_id}/print").get_data(as_text=True)
    assert client.get(f"/decks/{deck_id}/print?date=not-a-date").status_code == 200


def test_every_front_end_writes_the_same_file_and_refuses_an_unknown_format(app, site, tmp_path, monkeypatch):
    client, decks = site
    deck_id, _ = decks["kaijudo"]
    monkeypatch.setenv("DATABASE_URL", app.config["DATABASE_URL"])
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    runner = CliRunner()
    for name in EXPORTS:
        page = client.get(f"/decks/{deck_id}/export?format={name}")
        api = client.get(f"/api/decks/{deck_id}/export?format={name}")
        out = tmp_path / f"deck.{name}"
        result = runner.invoke(main, ["export-deck", "--format", name, "--site", "http://localhost/",
                                      str(deck_id), str(out)])
        assert result.exit_code == 0, result.output
        assert page.status_code == api.status_code == 200, name
        assert page.data == api.data == out.read_bytes(), name
        assert f'.{EXPORTS[name].extension}"' in page.headers["Content-Disposition"]
    assert client.get(f"/decks/{deck_id}/export.txt").data == client.get(f"/decks/{deck_id}/export?format=text").data
    assert client.get(f"/decks/{deck_id}/export?format=pdf").status_code == 404
    refused = client.get(f"/api/decks/{deck_id}/export?format=pdf")
    assert refused.status_code == 400 and "format" in refused.get_json()["error"]
    tts = runner.invoke(main, ["export-deck", "--format", "tts", str(deck_id), str(tmp_path / "x.json")])
    assert tts.exit_code == 1 and "address of the site" in tts.output
    missing = runner.invoke(main, ["export-deck", "--format", "untap", "99999", "-"])
    assert missing.exit_code == 1 and "no deck 99999" in missing.output
    printed = runner.invoke(main, ["export-deck", "--format", "untap", str(deck_id), "-"])
    assert printed.exit_code == 0 and printed.output == client.get(f"/decks/{deck_id}/export?format=untap").get_data(
        as_text=True)


def test_visitors_of_a_public_deck_get_print_proxies_and_exports_without_the_owners_record(app, site):
    client, decks = site
    deck_id, _ = decks["kaijudo"]
    client.post(f"/decks/{deck_id}/settings", data={"name": "Table kaijudo", "format": "standard", "is_public": "y"})
    client.post(f"/decks/{deck_id}/games", data={"played_on": "2026-11-02", "version": "1", "result": "win",
                                                 "opponent": "Secret opponent", "note": "secret note"})
    visitor = app.test_client()
    page = visitor.get(f"/decks/{deck_id}").get_data(as_text=True)
    for link in (f"/decks/{deck_id}/print", f"/decks/{deck_id}/proxies", *(f"/decks/{deck_id}/export?format={n}"
                                                                           for n in EXPORTS)):
        assert f'href="{link}"' in page, link
        assert visitor.get(link).status_code == 200, link
    assert "Secret opponent" not in page and "secret note" not in page
    tts = visitor.get(f"/decks/{deck_id}/export?format=tts").get_data(as_text=True)
    assert "t=" not in tts  # a visitor's object loads the sheets while the deck is public, without its token
    sheet = json.loads(tts)["ObjectStates"][0]["CustomDeck"]["1"]["FaceURL"]
    assert visitor.get(urlsplit(sheet).path + "?" + urlsplit(sheet).query).status_code == 200
