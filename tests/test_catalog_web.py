"""The card browser pages: games, sets, cards, search; 404s and bad filter values."""
from __future__ import annotations

import re
from html import unescape

import pytest

from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.search import set_summaries
from deckhub.games import all_games
from tests.conftest import visible_text as text


def rows(response, table_class: str) -> list[str]:
    html = response.get_data(as_text=True)
    table = re.search(rf'<table class="{table_class}">(.*?)</table>', html, re.S)
    assert table, f"no table.{table_class}"
    body = re.search(r"<tbody>(.*?)</tbody>", table.group(1), re.S).group(1)
    return [re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", r))).strip()
            for r in re.findall(r"<tr>(.*?)</tr>", body, re.S)]


def test_games_page_lists_every_game_with_sets_and_counts(client):
    response = client.get("/")
    assert response.status_code == 200
    page = text(response)
    for game in all_games():
        assert game.name in page
    assert "Rise of the Duel Masters 180 of 180" in page
    assert "Battle for Meridell 140 of 140" in page
    assert "Secrets and Seekers 184 of 184" in page


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.slug)
def test_every_game_set_and_card_page_renders(client, app, game):
    response = client.get(f"/games/{game.slug}")
    assert response.status_code == 200
    assert game.name in text(response)
    with app.app_context():
        from deckhub.store.db import database
        with database.connection_context():
            catalogue = get_catalogue(game.slug)
            sets = set_summaries(catalogue)
    assert len(catalogue) > 0
    for s in sets:
        page = client.get(f"/games/{game.slug}/sets/{s.code}")
        assert page.status_code == 200, s.code
        assert s.label in text(page)
    for card in list(catalogue)[:: max(1, len(catalogue) // 25)]:  # a spread of cards
        page = client.get(f"/games/{game.slug}/cards/{card.key}")
        assert page.status_code == 200, card.key
        assert card.name in text(page)
    search = client.get(f"/cards?game={game.slug}")
    assert search.status_code == 200 and f"{len(catalogue)} card" in text(search)


def test_battle_for_meridell_lists_140_cards_in_number_order(client):
    response = client.get("/games/neopets-tcg/sets/battle-for-meridell")
    assert response.status_code == 200
    listed = rows(response, "checklist")
    assert len(listed) == 140
    numbers = [int(r.split()[0]) for r in listed]
    assert numbers == sorted(numbers) and numbers[0] == 1 and numbers[-1] == 140
    assert "140 of 140" in text(response)


def test_kaijudo_set_page_shows_numbers_rarities_and_promo_codes(client):
    page = rows(client.get("/games/kaijudo/sets/rise-of-the-duel-masters"), "checklist")
    assert page[0] == "1 Argus, Vigilant Seer Creature Common"
    promos = rows(client.get("/games/kaijudo/sets/promotional-cards"), "checklist")
    assert any("promo Y1PRM" in r for r in promos)


def test_card_page_shows_every_field_and_printing(client):
    response = client.get("/games/kaijudo/cards/aqua-seneschal")
    page = text(response)
    assert "Aqua Seneschal" in page
    for expected in ("Level 3", "Civilization Water", "Race Cyber Lord", "Power 2000", "Type Creature",
                     "Choten's Advisor", "Battle Decks: Tatsurion vs Razorkinder", "promo Y1PRM", "OCTGN set file"):
        assert expected in page, expected
    assert len(rows(response, "printings")) == 4


def test_huntik_card_shows_its_version(client):
    response = client.get("/games/huntik/cards/dante-vale-private-investigator")
    assert response.status_code == 200
    page = text(response)
    assert "Dante Vale, Private Investigator" in page
    assert "Version Private Investigator" in page
    assert "ATK 5" in page and "DEF 4" in page


def test_unknown_values_say_unknown_and_derived_values_are_badged(client, app):
    with app.app_context():
        from deckhub.store.db import database
        with database.connection_context():
            catalogue = get_catalogue("neopets-tcg")
    derived = next(c for c in catalogue if "derived" in c.provenance.values())
    page = client.get(f"/games/neopets-tcg/cards/{derived.key}").get_data(as_text=True)
    assert 'class="badge derived"' in page
    bare = next(c for c in catalogue if not c.attrs and c.type is None)
    page = text(client.get(f"/games/neopets-tcg/cards/{bare.key}"))
    assert "Type unknown" in page and "Strength unknown" in page


def test_battledome_cards_without_a_set_are_collectable_in_the_unknown_set(client, auth):
    page = text(client.get("/games/neopets-battledome/cards/count-boris"))
    assert "Unknown set" in page and "Battledome rulings site" not in page  # the source is its URL
    assert "https://github.com/hylaster0/hylaster0.github.io/blob/" in client.get(
        "/games/neopets-battledome/cards/count-boris").get_data(as_text=True)
    found = text(client.get("/cards?game=neopets-battledome&set=unknown-set"))
    assert "Acara" in found and "Count Boris" in found
    auth.signup()
    html = client.get("/games/neopets-battledome/cards/count-boris").get_data(as_text=True)
    printing = re.search(r'name="printing" value="(\d+)"', html).group(1)
    response = client.post("/collection/adjust", data={"printing": printing, "step": "quantity:1"},
                           headers={"Accept": "application/json"})
    assert response.status_code == 200 and response.get_json()["quantity"] == 1
    checklist = text(client.get("/collection/neopets-battledome/sets/unknown-set"))
    assert "Count Boris" in checklist and "1 of 51 (2%)" in checklist


@pytest.mark.parametrize("url", ["/cards?q=argus+vigilant", "/cards?game=kaijudo&q=argus+vigilant",
                                 "/cards?game=kaijudo&q=Argus,+VIGILENT+seer"])
def test_search_finds_argus(client, url):
    response = client.get(url)
    assert response.status_code == 200
    assert rows(response, "results-table")[0].startswith("Argus, Vigilant Seer")


def test_search_filters_per_game(client):
    kaijudo = rows(client.get("/cards?game=kaijudo&civilizations=Light&level_min=9&type=Creature&per_page=200"),
                   "results-table")
    assert kaijudo and all("Civilization Light" in r and re.search(r"Level (9|1\d)", r) for r in kaijudo)
    huntik = rows(client.get("/cards?game=huntik&team=Evil&atk_min=5&per_page=200"), "results-table")
    assert huntik and all("Team Evil" in r for r in huntik)
    assert all(int(re.search(r"ATK (\d+)", r).group(1)) >= 5 for r in huntik)
    neopets = rows(client.get("/cards?game=neopets-tcg&type=Basic+Neopet&set=battle-for-meridell&per_page=200"),
                   "results-table")
    assert neopets and all("Basic Neopet" in r and "Battle for Meridell" in r for r in neopets)
    battledome = rows(client.get("/cards?game=neopets-battledome&hp_min=1"), "results-table")
    assert [r.split(" ")[0] for r in battledome] == ["Acara"]


def test_search_page_shows_the_chosen_games_filters(client):
    html = client.get("/cards?game=kaijudo").get_data(as_text=True)
    assert 'name="civilizations"' in html and 'name="level_min"' in html and 'name="race"' in html
    assert 'name="team"' not in html
    html = client.get("/cards?game=huntik").get_data(as_text=True)
    assert 'name="team"' in html and 'name="atk_min"' in html and 'name="def_max"' in html
    html = client.get("/cards").get_data(as_text=True)
    assert 'name="level_min"' not in html and 'name="game"' in html


def test_the_filters_show_each_requests_own_choices(client):
    """The filter form is rendered once per catalogue and filter values: what one search chose is
    never shown selected in another's."""
    chosen = 'value="Spell" selected'
    level = re.compile(r'name="level_min"[^>]*value="([^"]*)"')
    for _ in range(2):
        html = client.get("/cards?game=kaijudo&type=Spell&level_min=3&q=a").get_data(as_text=True)
        assert chosen in html and level.search(html).group(1) == "3"
        for other in ("/cards?game=kaijudo&q=a", "/cards?game=kaijudo&type=Creature&q=a"):
            html = client.get(other).get_data(as_text=True)
            assert chosen not in html and level.search(html).group(1) == ""


def test_a_kept_search_shows_a_corrected_card_at_once(app, client):
    """Searches are rendered once per catalogue version: a corrected fact replaces the catalogue."""
    from deckhub.store import models
    from deckhub.services.catalogue_store import bump_stamp
    from deckhub.store.db import database
    path = "/cards?game=kaijudo&q=blade+seer"
    assert "Blade Seer" in client.get(path).get_data(as_text=True)
    assert client.get(path).get_data(as_text=True).count("Rules text corrected") == 0
    with app.app_context(), database.connection_context():
        card = models.Card.get((models.Card.game == "kaijudo") & (models.Card.key == "blade-seer"))
        models.Card.update(type="Rules text corrected").where(models.Card.id == card.id).execute()
        bump_stamp("kaijudo")
    assert "Rules text corrected" in client.get(path).get_data(as_text=True)


def test_search_paginates(client):
    first = client.get("/cards?game=kaijudo&type=Spell")
    assert len(rows(first, "results-table")) == 50 and "1–50 of 191 cards" in text(first)
    assert "page=2" in first.get_data(as_text=True)
    last = client.get("/cards?game=kaijudo&type=Spell&page=4")
    assert len(rows(last, "results-table")) == 41 and "151–191 of 191" in text(last)


def test_empty_result_says_so_and_suggests(client):
    response = client.get("/cards?game=kaijudo&q=argus+vigilant&civilizations=Fire")
    page = text(response)
    assert response.status_code == 200
    assert "No cards match “argus vigilant” in Kaijudo" in page
    assert "Did you mean Argus, Vigilant Seer" in page
    assert "No cards match “qqqqxxxxzzzz”" in text(client.get("/cards?q=qqqqxxxxzzzz"))


@pytest.mark.parametrize("query", ["level=abc", "level_min=1e3", "power_value_max=lots", "page=abc", "page=-1",
                                   "set=nope", "per_page=0", "level=99999999999999999999"])
def test_bad_filter_values_are_ignored_with_a_notice(client, query):
    response = client.get(f"/cards?game=kaijudo&q=argus&{query}")
    assert response.status_code == 200
    page = text(response)
    assert "left out" in page or "was used" in page
    assert rows(response, "results-table")[0].startswith("Argus, Vigilant Seer")


@pytest.mark.parametrize("url, needle", [
    ("/games/no-such-game", "no game called"),
    ("/games/no-such-game/sets/x", "no game called"),
    ("/games/kaijudo/sets/no-such-set", "has no set"),
    ("/games/kaijudo/cards/no-such-card", "has no card"),
    ("/games/huntik/cards/dante-vale", "has no card"),
    ("/cards?game=no-such-game", "no game called"),
])
def test_unknown_game_set_or_card_is_a_404_page(client, url, needle):
    response = client.get(url)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert needle in text(response)


def test_pages_escape_what_they_echo(client):
    html = client.get("/cards?game=kaijudo&q=<script>alert(1)</script>").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    html = client.get("/games/<b>x</b>").get_data(as_text=True)
    assert "<b>x</b>" not in html


def test_pages_need_nothing_the_content_security_policy_blocks(client):
    for url in ("/", "/games/kaijudo", "/games/kaijudo/sets/vortex", "/games/kaijudo/cards/argus-vigilant-seer",
                "/cards?game=kaijudo&q=dragon"):
        html = client.get(url).get_data(as_text=True)
        assert "<style" not in html and " style=" not in html and "<script" not in html, url
        assert "/assets/catalog.css" in html
    css = client.get("/assets/catalog.css")
    assert css.status_code == 200 and css.mimetype == "text/css" and "dl.facts" in css.get_data(as_text=True)
    assert client.get("/assets/catalog.css", headers={"If-None-Match": css.headers["ETag"]}).status_code == 304


@pytest.mark.parametrize("url", [
    "/cards?game=kaijudo&q=%00", "/cards?q=%00%ff", "/cards?game=kaijudo&q=" + "a" * 5000,
    "/cards?game=kaijudo&level=1&level=abc&civilizations=&civilizations=Light", "/cards?game=&q=!!!",
    "/cards?game=kaijudo&page=99999999999999999999", "/cards?game=kaijudo&in_text=1&q=%E2%80%94",
    "/games/kaijudo/sets/%00", "/games/kaijudo/cards/%00", "/games/kaijudo/cards/a/b/c", "/games/%F0%9F%83%8F",
    "/api/cards?game=kaijudo&q=%00", "/api/cards/kaijudo/%00", "/api/cards?game=kaijudo&per_page=-1",
])
def test_odd_input_never_breaks_a_page(client, url):
    assert client.get(url).status_code in (200, 400, 404)


def test_the_site_has_a_favicon_where_browsers_look_and_every_page_links_it(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/x-icon"
    assert icon.data[:4] == b"\0\0\1\0"  # an ICO file
    page = client.get("/").get_data(as_text=True)
    assert 'rel="icon" href="/static/favicon.svg"' in page
    assert client.get("/static/favicon.svg").status_code == 200


def test_search_rows_show_a_corrected_fact_at_once(app, client):
    """Result rows are kept per catalogue version; a curator's correction makes a new version, so
    the next search shows the new value (the value is made up for the test)."""
    from deckhub.services.community.proposing import propose_facts
    from deckhub.services.community.reviewing import approve
    from deckhub.services.accounts import create_user
    from deckhub.store.db import database

    def grubling_row() -> str:
        page = client.get("/cards?game=kaijudo&q=toothed+grubling")
        return next(r for r in rows(page, "results-table") if "Toothed Grubling" in r)

    assert "Level 3" in grubling_row()
    assert grubling_row() == grubling_row()
    with app.app_context(), database.connection_context():
        curator = create_user("curie", "a long password")
        player = create_user("pat", "a long password")
        proposal = propose_facts(player, "kaijudo", "toothed-grubling", {"level": "5"},
                                 "https://example.org/kaijudo/checklist")
        approve(proposal.id, curator)
    assert "Level 5" in grubling_row() and "Level 3" not in grubling_row()
