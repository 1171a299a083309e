"""Card faces drawn from facts (deckhub.core.faces) and each card's picture
(deckhub.services.card_images): every card of every game has one, and an approved scan replaces it.

The pictures are drawn by the tests; the proposed values are made up, not facts about the cards.
"""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from deckhub.core import faces
from deckhub.core.cards import Card, Printing
from deckhub.games import all_games, get_game
from deckhub.services import card_images
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community.proposing import propose_facts
from deckhub.services.community.reviewing import approve
from deckhub.store.db import database

SVG = "{http://www.w3.org/2000/svg}"


def png(size=(60, 84), colour=(200, 30, 40)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


def words(svg: bytes) -> str:
    root = ET.fromstring(svg)
    return " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))


def test_every_card_of_every_game_has_a_face_as_svg_and_as_pixels(app):
    """One pass over the four catalogues: each card's drawn face parses as SVG and names the card,
    at both sizes, and a raster of it has the width asked for."""
    with app.app_context(), database.connection_context():
        for game in all_games():
            catalogue = get_catalogue(game.slug)
            assert catalogue.cards, game.slug
            for card in catalogue:
                for size in card_images.SIZES:
                    shown = card_images.picture(game.slug, card.key, size)
                    assert shown.content_type == "image/svg+xml"
                    text = words(shown.body)
                    first_word = card.display_name.split()[0][:8]
                    assert first_word in text, (game.slug, card.key, size)
            some = next(iter(catalogue))
            for width in (100, 240):
                assert card_images.raster(game.slug, some.key, width).width == width


def test_unknown_facts_are_written_as_unknown_never_guessed():
    game = get_game("neopets-tcg")
    card = Card(key="x", game=game.slug, name="Made-up Card", printings=(Printing("nowhere"),))
    face = faces.layout(card, game.face, game.extras["colours"], {}, "card")
    text = words(faces.to_svg(face, 250).encode())
    assert "Type unknown" in text and "Text unknown" in text and "No. ?" in text
    assert "STR" not in text  # a card of unknown type gets no stat boxes it may not have
    neopet = Card(key="y", game=game.slug, name="Made-up Pet", type="Basic Neopet", attrs={"strength": 4})
    text = words(faces.to_svg(faces.layout(neopet, game.face, game.extras["colours"], {}), 250).encode())
    assert "STR 4" in text and "AGI ?" in text and "Set unknown" in text


def test_a_card_of_two_colours_is_framed_in_both_and_an_unknown_colour_is_grey():
    game = get_game("kaijudo")
    palette = game.extras["colours"]
    two = Card(key="z", game="kaijudo", name="Two", type="Creature", attrs={"civilizations": ["Fire", "Water"]})
    fills = {i.fill for i in faces.layout(two, game.face, palette, {}).items if isinstance(i, faces.Box)}
    assert {palette["Fire"], palette["Water"]} <= fills
    none = Card(key="n", game="kaijudo", name="None", type="Spell")
    fills = {i.fill for i in faces.layout(none, game.face, palette, {}).items if isinstance(i, faces.Box)}
    assert faces.UNKNOWN_COLOUR in fills


def test_long_text_is_fitted_into_its_box_and_markup_is_removed():
    size, lines = faces.fit("word " * 400, (12, 10, 8), 200, 100)
    assert size == 8 and len(lines) * size * 1.2 <= 100 and lines[-1].endswith("…")
    assert faces.plain("<b>Sudden Arrival</b> &amp; more") == "Sudden Arrival & more"


def test_an_approved_scan_replaces_the_face_on_the_picture_route(app):
    client = app.test_client()
    key = "aisha-myriad"
    url = f"/games/neopets-tcg/cards/{key}/picture"
    first = client.get(url)
    assert first.status_code == 200 and first.mimetype == "image/svg+xml"
    assert "public" in first.headers["Cache-Control"] and first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    scan = png((400, 560))
    with app.app_context(), database.connection_context():
        curator = create_user("curie", "a long password")  # the first account is a curator
        player = create_user("pat", "a long password")
        proposal = propose_facts(player, "neopets-tcg", key, {}, "https://example.org/scan", scan=scan)
        approve(proposal.id, curator)
    shown = client.get(url)
    assert shown.mimetype == "image/png" and shown.headers["ETag"] != first.headers["ETag"]
    assert Image.open(io.BytesIO(shown.data)).size == (400, 560)
    thumb = client.get(url + "?size=thumb")
    assert thumb.mimetype == "image/png" and Image.open(io.BytesIO(thumb.data)).width == card_images.THUMB_SCAN_WIDTH
    with app.app_context(), database.connection_context():
        assert card_images.raster("neopets-tcg", key, 120).getpixel((60, 80)) == (200, 30, 40)


@pytest.mark.parametrize("url", ["/games/neopets-tcg/cards/no-such-card/picture",
                                 "/games/no-such-game/cards/x/picture",
                                 "/games/neopets-tcg/cards/aisha-myriad/picture?size=huge"])
def test_a_picture_of_nothing_is_a_404(app, url):
    assert app.test_client().get(url).status_code == 404


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_a_deck_has_a_visual_view_by_type_and_by_cost_beside_its_table(client, auth, slug):
    from tests.test_goldfish_web import deck_for
    auth.signup()
    deck_id = deck_for(client, slug)
    game = get_game(slug)
    table = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "deck-visual" not in table and 'aria-current="page">Table<' in table
    assert 'class="face-pop"' in table  # each name shows its picture on hover
    grid = client.get(f"/decks/{deck_id}?view=grid&by=type").get_data(as_text=True)
    assert "deck-visual" in grid and "face-grid" in grid and f"/games/{slug}/cards/" in grid
    with client.application.app_context(), database.connection_context():
        types = {c.type for c in get_catalogue(slug) if c.type}
    headings = re.findall(r"<h4>([^<]+) <small>", grid)
    assert headings and all(h in {t.title() if t.islower() else t for t in types} | {"Type unknown"} for h in headings)
    stacks = client.get(f"/decks/{deck_id}?view=stacks&by=cost").get_data(as_text=True)
    assert "face-stack" in stacks
    if game.face.cost:
        assert re.search(rf"<h4>{game.face.cost.label} (\d+|unknown) <small>", stacks)
        assert f"Grid by {game.face.cost.label.lower()}" in stacks
    else:
        assert "by level" not in stacks and "Grid by type" in stacks
    odd = client.get(f"/decks/{deck_id}?view=<script>&by=nonsense")
    assert odd.status_code == 200 and "deck-visual" not in odd.get_data(as_text=True)


def test_search_results_and_the_printings_table_show_each_cards_picture(client):
    found = client.get("/cards?game=kaijudo&q=dragon").get_data(as_text=True)
    assert re.search(r'<img class="result-face" src="/games/kaijudo/cards/[^"]+/picture\?size=thumb&amp;v=\d+"', found)
    card = client.get("/games/huntik/cards/icarus-master-aerialist")
    page = card.get_data(as_text=True)
    assert card.status_code == 200 and "none yet" not in page
    assert "picture?size=thumb&amp;v=" in page and "&amp;set=SAS" in page and "drawn from its facts" in page
    assert 'class="card-face card-face-card"' in page  # the card's own face beside its facts
