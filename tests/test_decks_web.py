"""Decks in the browser (without JavaScript): create, edit, paste, import, export, versions, privacy."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from deckhub.games import all_games, get_game

DECKS = Path(__file__).resolve().parents[1] / "data"
BULL_RUSH = (DECKS / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d").read_bytes()


def new_deck(client, name="Test deck", game="kaijudo", **extra):
    response = client.post("/decks/new", data={"name": name, "game": game, "format": "", **extra})
    assert response.status_code == 302, response.data
    return int(response.location.split("/")[2])


def change(client, deck_id, card, delta, section="Deck"):
    return client.post(f"/decks/{deck_id}/cards", data={"section": section, "card": card, "delta": str(delta)})


def import_deck(client, text, name="Imported", game="kaijudo", **extra):
    return client.post("/decks/import", data={"name": name, "game": game, "format": "", "decklist": text, **extra})


@pytest.fixture
def alice(auth):
    auth.signup("alice")
    return auth


def test_my_decks_needs_an_account_and_starts_empty(client, auth):
    assert client.get("/decks/").status_code == 302
    auth.signup("alice")
    page = client.get("/decks/").get_data(as_text=True)
    assert "You have no decks yet" in page


def test_build_a_deck_card_by_card_and_see_the_validation_panel(client, alice):
    deck_id = new_deck(client)
    edit = client.get(f"/decks/{deck_id}/edit?q=argus vigilant").get_data(as_text=True)
    assert "Argus, Vigilant Seer" in edit and "+ Deck" in edit
    assert change(client, deck_id, "argus-vigilant-seer", 4).status_code == 302
    page = client.get(f"/decks/{deck_id}/edit").get_data(as_text=True)
    assert "Not legal" in page
    assert "kaijudo.4.copies" in page and "kaijudo.4.deck-size" in page
    assert 'id="card-argus-vigilant-seer" class="flagged"' in page  # the card the problem names is highlighted
    change(client, deck_id, "argus-vigilant-seer", -1)
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "kaijudo.4.copies" not in page and "kaijudo.4.deck-size" in page
    change(client, deck_id, "argus-vigilant-seer", -3)
    assert "No cards in the Deck yet" in client.get(f"/decks/{deck_id}").get_data(as_text=True)


@pytest.mark.parametrize("form", [
    {"section": "Sideboard", "card": "argus-vigilant-seer", "delta": "1"},
    {"section": "Deck", "card": "no-such-card", "delta": "1"},
    {"section": "Deck", "card": "argus-vigilant-seer", "delta": "many"},
    {"section": "Deck", "card": "argus-vigilant-seer", "delta": "0"},
    {"section": "Deck", "card": "argus-vigilant-seer", "delta": "100000"},
])
def test_bad_changes_are_refused_with_400_and_change_nothing(client, alice, form):
    deck_id = new_deck(client)
    assert client.post(f"/decks/{deck_id}/cards", data=form).status_code == 400
    assert len(client.get(f"/decks/{deck_id}/versions").get_data(as_text=True).split("<li>Version")) == 2


def test_import_the_published_bull_rush_deck_from_its_o8d_file_as_legal(client, alice):
    response = import_deck(client, BULL_RUSH.decode("utf-8-sig"), name="Bull Rush")
    assert response.status_code == 302
    page = client.get(response.location).get_data(as_text=True)
    assert "Legal" in page and "Not legal" not in page and "Deck <small>(40)</small>" in page


def test_an_upload_is_read_like_a_paste(client, alice):
    import io
    response = client.post("/decks/import", data={"name": "Bull Rush", "game": "kaijudo", "format": "",
                                                  "upload": (io.BytesIO(BULL_RUSH), "bull.o8d")},
                           content_type="multipart/form-data")
    assert response.status_code == 302


def test_a_paste_with_errors_saves_nothing_unless_asked_to_keep_the_good_lines(client, alice):
    text = "3 Argus, Vigilant Seer\n2 Argus Vigilant Sear\nx Blade Seer\n1 Totally Unknown Card\n"
    response = import_deck(client, text)
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Line 3:" in page and "Line 4:" in page and "Nothing was saved" in page
    assert "You have no decks yet" in client.get("/decks/").get_data(as_text=True)
    kept = import_deck(client, text, keep_parsed="y")
    assert kept.status_code == 302
    page = client.get(kept.location).get_data(as_text=True)
    assert "Argus, Vigilant Seer" in page and ">5<" in page  # 3 + 2 (the close match)


def test_paste_into_a_deck_adds_or_replaces(client, alice):
    deck_id = new_deck(client)
    change(client, deck_id, "argus-vigilant-seer", 1)
    client.post(f"/decks/{deck_id}/paste", data={"decklist": "2 Blade Seer", "mode": "add"})
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Argus, Vigilant Seer" in page and "Blade Seer" in page
    client.post(f"/decks/{deck_id}/paste", data={"decklist": "2 Blade Seer", "mode": "replace"})
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Argus, Vigilant Seer" not in page and "Blade Seer" in page
    bad = client.post(f"/decks/{deck_id}/paste", data={"decklist": "2 Nothing Like A Card", "mode": "replace"})
    assert bad.status_code == 400 and "Line 1:" in bad.get_data(as_text=True)
    assert "Blade Seer" in client.get(f"/decks/{deck_id}").get_data(as_text=True)


def test_exports_read_back_into_the_same_deck(client, alice):
    deck_id = int(import_deck(client, BULL_RUSH.decode("utf-8-sig")).location.rsplit("/", 1)[1])
    original = json.loads(client.get(f"/decks/{deck_id}/export.json").get_data(as_text=True))
    for fmt in ("txt", "o8d", "json"):
        exported = client.get(f"/decks/{deck_id}/export.{fmt}")
        assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
        again = import_deck(client, exported.get_data(as_text=True), name=f"again {fmt}")
        assert again.status_code == 302, (fmt, again.data[:500])
        copy_id = int(again.location.rsplit("/", 1)[1])
        assert json.loads(client.get(f"/decks/{copy_id}/export.json").get_data(as_text=True))["sections"] == original["sections"]


def test_every_save_keeps_a_version_and_versions_can_be_compared(client, alice):
    deck_id = new_deck(client)
    change(client, deck_id, "argus-vigilant-seer", 2)
    change(client, deck_id, "blade-seer", 1)
    change(client, deck_id, "argus-vigilant-seer", -1)
    page = client.get(f"/decks/{deck_id}/versions?from=1&to=4").get_data(as_text=True)
    assert page.count("<li>Version") == 4
    assert "Argus, Vigilant Seer" in page and "+1" in page
    assert client.get(f"/decks/{deck_id}/versions?from=1&to=99").status_code == 404


def test_private_decks_are_the_owners_alone_and_public_ones_are_read_only_for_others(app, alice):
    owner = alice._client
    deck_id = new_deck(owner)
    change(owner, deck_id, "argus-vigilant-seer", 2)
    other = app.test_client()
    other.post("/signup", data={"username": "bob", "password": "correct horse", "confirm": "correct horse"})
    anonymous = app.test_client()
    for path in (f"/decks/{deck_id}", f"/decks/{deck_id}/export.txt", f"/decks/{deck_id}/versions",
                 f"/decks/{deck_id}/charts/types.svg"):
        assert other.get(path).status_code == 404
        assert anonymous.get(path).status_code == 404
    assert other.get(f"/decks/{deck_id}/edit").status_code == 404
    assert change(other, deck_id, "argus-vigilant-seer", 1).status_code == 404
    owner.post(f"/decks/{deck_id}/settings", data={"name": "Shared", "format": "standard", "is_public": "y"})
    assert anonymous.get(f"/decks/{deck_id}").status_code == 200
    assert other.get(f"/decks/{deck_id}/edit").status_code == 404
    assert other.post(f"/decks/{deck_id}/delete").status_code == 404
    copied = other.post(f"/decks/{deck_id}/copy")
    assert copied.status_code == 302
    assert "Copy of Shared" in other.get("/decks/").get_data(as_text=True)


def test_charts_are_svg_and_pull_no_outside_scripts(client, alice):
    deck_id = int(import_deck(client, BULL_RUSH.decode("utf-8-sig")).location.rsplit("/", 1)[1])
    for kind in ("types", "curve", "breakdown"):
        svg = client.get(f"/decks/{deck_id}/charts/{kind}.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        assert b"<script" not in svg.data and b"http://kozea" not in svg.data
    assert client.get(f"/decks/{deck_id}/charts/curve.svg").data.count(b"<rect") > 3


def _slice_colours(svg: bytes) -> dict[str, str]:
    """Each pie slice's legend label -> its fill colour, as pygal writes them (.color-N rules, legend entries)."""
    text = svg.decode()
    fills = dict(re.findall(r"\.color-(\d+) a:visited\{stroke:[^;]+;fill:(#[0-9a-fA-F]{6})", text))
    legend = re.findall(r'<rect [^>]*class="color-(\d+) reactive" /><text [^>]*>([^<]+)</text>', text)
    return {label.strip(): fills.get(n, "").lower() for n, label in legend}


@pytest.mark.parametrize("game, deck, expected", [
    ("kaijudo", "4 Argus, Vigilant Seer\n4 Bolt-Tail Dragon\n4 Aqua Seneschal\n4 Sprout\n4 Bone Blade",
     {"Light": "#e8c21f", "Fire": "#d6401f", "Water": "#1f6fd6", "Nature": "#2e8b3a", "Darkness": "#5b2a86"}),
    ("huntik", "3 Caliban, Dante's Titan\n3 Kreutalk, DeFoe's Titan", {"Good": "#1f6fd6", "Evil": "#a3192b"}),
])
def test_the_colour_chart_uses_each_games_own_colours(client, alice, game, deck, expected):
    deck_id = int(import_deck(client, deck, game=game, keep_parsed="y").location.rsplit("/", 1)[1])
    colours = _slice_colours(client.get(f"/decks/{deck_id}/charts/breakdown.svg").data)
    for label, colour in expected.items():
        assert colours.get(label) == colour, (label, colours)


def test_huntik_limited_deck_uses_its_pack_count(client, alice):
    deck_id = new_deck(client, game="huntik", format="limited", packs="2")
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "(2 packs)" in page and "at least 10 cards" in page


def test_api_check_answers_like_the_command_line(client):
    text = BULL_RUSH.decode("utf-8-sig")
    body = client.post("/api/check", json={"game": "kaijudo", "decklist": text}).get_json()
    assert body["legal"] is True and body["counts"] == {"Deck": 40} and body["errors"] == []
    bad = client.post("/api/check", json={"game": "kaijudo", "decklist": "2 Argus Vigilant Sear\n1 Qwertyuiop"}).get_json()
    assert bad["legal"] is False and bad["errors"][0]["line"] == 2 and len(bad["errors"][0]["suggestions"]) <= 3


@pytest.mark.parametrize("body", [None, [], {"game": "kaijudo"}, {"game": 3, "decklist": ""},
                                  {"game": "chess", "decklist": ""}, {"game": "huntik", "decklist": "", "format": "nope"},
                                  {"game": "huntik", "decklist": "", "packs": "two"}])
def test_api_check_refuses_bad_bodies_with_400(client, body):
    response = client.post("/api/check", json=body) if body is not None else client.post("/api/check", data="not json")
    assert response.status_code == 400 and "error" in response.get_json()


def test_api_check_needs_no_csrf_token_but_forms_do(csrf_app):
    client = csrf_app.test_client()
    assert client.post("/api/check", json={"game": "kaijudo", "decklist": ""}).status_code == 200
    assert client.post("/decks/new", data={"name": "x", "game": "kaijudo"}).status_code == 400


def test_the_deck_page_shows_what_my_collection_still_lacks_and_sends_it_to_my_wants(client, alice):
    deck_id = int(import_deck(client, BULL_RUSH.decode("utf-8-sig")).location.rsplit("/", 1)[1])
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Against my collection" in page and "<strong>40</strong> cards missing" in page
    client.post(f"/collection/decks/{deck_id}/add-missing", data={"next": f"/decks/{deck_id}"})
    wants = client.get("/collection/wants").get_data(as_text=True)
    assert "Simian Trooper Grash" in wants


def test_what_i_own_of_my_deck_is_kept_until_my_collection_or_the_deck_changes(client, alice):
    """A second view of my deck reads none of my collection rows; a copy I add, and a card I own
    added to the deck, show on the next view."""
    from deckhub.services import collection
    from deckhub.store.db import database
    from tests.test_trading import CountQueries
    deck_id = int(import_deck(client, BULL_RUSH.decode("utf-8-sig")).location.rsplit("/", 1)[1])
    for _ in range(2):  # (the import's notice first)
        assert "<strong>40</strong> cards missing" in client.get(f"/decks/{deck_id}").get_data(as_text=True)
    with CountQueries() as seen:
        assert "<strong>40</strong> cards missing" in client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert not any('"owned_card"' in sql for sql in seen.statements)
    with database.connection_context():
        grash = collection.game_index("kaijudo").by_card["simian-trooper-grash"][0].id
        argus = collection.game_index("kaijudo").by_card["argus-vigilant-seer"][0].id
    for printing in (grash, argus):  # (Argus is not in the deck)
        client.post("/collection/adjust", data={"printing": printing, "step": "quantity:1"})
        assert "<strong>39</strong> cards missing" in client.get(f"/decks/{deck_id}").get_data(as_text=True)
    change(client, deck_id, "argus-vigilant-seer", 1)
    assert "<strong>39</strong> cards missing" in client.get(f"/decks/{deck_id}").get_data(as_text=True)


def test_public_deck_pages_for_visitors_follow_every_change(app, client, alice):
    deck_id = int(import_deck(client, BULL_RUSH.decode("utf-8-sig")).location.rsplit("/", 1)[1])
    client.post(f"/decks/{deck_id}/settings", data={"name": "Shared", "format": "standard", "is_public": "y"})
    visitor = app.test_client()
    assert "Shared" in visitor.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Shared" in visitor.get(f"/decks/{deck_id}").get_data(as_text=True)  # served again (cached)
    change(client, deck_id, "argus-vigilant-seer", 1)
    assert "Argus, Vigilant Seer" in visitor.get(f"/decks/{deck_id}").get_data(as_text=True)
    client.post(f"/decks/{deck_id}/settings", data={"name": "Renamed", "format": "standard", "is_public": "y"})
    assert "Renamed" in visitor.get(f"/decks/{deck_id}").get_data(as_text=True)
    client.post(f"/decks/{deck_id}/settings", data={"name": "Renamed", "format": "standard"})
    assert visitor.get(f"/decks/{deck_id}").status_code == 404


def test_a_huntik_deck_names_either_ymir_mission_by_its_printing(client, alice):
    """Issue 17: the bare name shows how to write each of the two missions; `(SAS) 151` names one,
    and the text export writes the printing back."""
    bare = import_deck(client, "1 Defeat Ymir: Frost King\n", game="huntik")
    page = bare.get_data(as_text=True)
    assert bare.status_code == 400
    assert "Defeat Ymir: Frost King (SAS) 145" in page and "Defeat Ymir: Frost King (SAS) 151" in page
    named = import_deck(client, "1 Defeat Ymir: Frost King (SAS) 151\n", game="huntik")
    assert named.status_code == 302
    deck_id = int(named.location.split("/")[2])
    text = client.get(f"/decks/{deck_id}/export.txt").get_data(as_text=True)
    assert "1 Defeat Ymir: Frost King (SAS) 151" in text


def _versions(deck_id: int) -> list[tuple[int, str]]:
    from deckhub.store import models
    return [(v.number, v.note) for v in models.DeckVersion.select().where(models.DeckVersion.deck == deck_id)
            .order_by(models.DeckVersion.number)]


def _session_token(page: str) -> str:
    return re.search(r'name="s" value="([^"]+)"', page).group(1)


def _click(client, deck_id, card, delta, token):
    return client.post(f"/decks/{deck_id}/cards", data={"section": "Deck", "card": card, "delta": str(delta), "s": token})


def test_plus_minus_clicks_make_one_version_per_editing_session(client, alice, monkeypatch):
    deck_id = new_deck(client)
    token = _session_token(client.get(f"/decks/{deck_id}/edit").get_data(as_text=True))
    for card, delta in [("argus-vigilant-seer", 1), ("argus-vigilant-seer", 1), ("sprout", 1), ("argus-vigilant-seer", -1)]:
        response = _click(client, deck_id, card, delta, token)
        assert response.status_code == 302 and f"s={token}" in response.location  # the editor keeps its session
    assert _versions(deck_id) == [(1, "created"), (2, "edited in the editor")]
    assert "1 Argus, Vigilant Seer" in client.get(f"/decks/{deck_id}/export.txt").get_data(as_text=True)
    # the versions page shows the session as one entry with its net change
    page = client.get(f"/decks/{deck_id}/versions").get_data(as_text=True)
    assert page.count("<li>Version") == 2
    assert "+1 Argus, Vigilant Seer (Deck)" in page and "+1 Sprout (Deck)" in page

    # Save closes the session: the next click with the same token is a new version
    assert client.post(f"/decks/{deck_id}/save", data={"s": token}).status_code == 303
    _click(client, deck_id, "sprout", 1, token)
    assert [n for n, _ in _versions(deck_id)] == [1, 2, 3]
    # leaving the editor and coming back is a new session
    fresh = _session_token(client.get(f"/decks/{deck_id}/edit").get_data(as_text=True))
    assert fresh != token
    for _ in range(2):
        _click(client, deck_id, "sprout", 1, fresh)
    assert [n for n, _ in _versions(deck_id)] == [1, 2, 3, 4]
    # a pause longer than ten minutes starts a new version too
    from deckhub.services import decks as store
    from deckhub.store import models
    later = models.utcnow() + store.EDIT_PAUSE + store.dt.timedelta(seconds=1)
    monkeypatch.setattr(models, "utcnow", lambda: later)
    _click(client, deck_id, "sprout", 1, fresh)
    assert [n for n, _ in _versions(deck_id)] == [1, 2, 3, 4, 5]


def test_the_deck_page_shows_each_click_of_an_editing_session(client, alice):
    """A session's clicks change its version in place: the kept card list and statistics panel
    (one for every viewer of a version) are never those of an earlier click. A legal deck, so
    that what the check flags is the same after each click."""
    deck_id = int(import_deck(client, BULL_RUSH.decode("utf-8-sig"), name="Bull Rush").location.split("/")[2])
    token = _session_token(client.get(f"/decks/{deck_id}/edit").get_data(as_text=True))
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    card = next(key for key, qty in re.findall(r'id="card-([^"]+)"[^>]*>\s*<td>(\d+)</td>', page) if qty == "1")
    for copies, total in ((2, 41), (3, 42)):
        _click(client, deck_id, card, 1, token)
        page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
        assert re.search(rf'id="card-{card}"[^>]*>\s*<td>(\d+)</td>', page).group(1) == str(copies)
        assert f"Deck <small>({total})</small>" in page and f"Statistics <small>({total} cards)</small>" in page
    assert [n for n, _ in _versions(deck_id)] == [1, 2]


def test_a_click_from_another_session_gets_its_own_version_and_nothing_is_lost(client, alice):
    deck_id = new_deck(client)
    one, two = (_session_token(client.get(f"/decks/{deck_id}/edit").get_data(as_text=True)) for _ in range(2))
    _click(client, deck_id, "sprout", 1, one)
    _click(client, deck_id, "sprout", 1, two)   # the other session's click: a version of its own
    _click(client, deck_id, "sprout", 1, one)   # session one's version is no longer the latest: a new one
    _click(client, deck_id, "sprout", 1, one)   # ...which its next click amends
    assert [n for n, _ in _versions(deck_id)] == [1, 2, 3, 4]
    assert "4 Sprout" in client.get(f"/decks/{deck_id}/export.txt").get_data(as_text=True)
    from deckhub.store import models
    assert models.DeckVersion.get((models.DeckVersion.deck == deck_id) & (models.DeckVersion.number == 4)).edit_session == one


def test_a_version_a_simulation_played_is_not_changed_afterwards(client, alice):
    from deckhub.store import models
    deck_id = new_deck(client)
    token = _session_token(client.get(f"/decks/{deck_id}/edit").get_data(as_text=True))
    _click(client, deck_id, "sprout", 1, token)
    models.SimulationRun.create(deck=deck_id, version=2, owner=models.Deck.get_by_id(deck_id).owner_id,
                                game="kaijudo", games=5, seed=1)
    _click(client, deck_id, "sprout", 1, token)
    assert [n for n, _ in _versions(deck_id)] == [1, 2, 3]
    assert models.DeckVersion.get((models.DeckVersion.deck == deck_id) & (models.DeckVersion.number == 2)).data["sections"] == {
        "Deck": [{"card": "sprout", "qty": 1}]}


def test_undoing_a_sessions_clicks_drops_its_version_and_a_bad_session_token_is_refused(client, alice):
    deck_id = new_deck(client)
    token = _session_token(client.get(f"/decks/{deck_id}/edit").get_data(as_text=True))
    _click(client, deck_id, "sprout", 1, token)
    _click(client, deck_id, "sprout", 1, token)
    _click(client, deck_id, "sprout", -2, token)
    assert _versions(deck_id) == [(1, "created")]  # back to where it was: no version for nothing
    assert "Sprout" not in client.get(f"/decks/{deck_id}/export.txt").get_data(as_text=True)
    for bad in ("x", "<script>", "a" * 41):
        response = _click(client, deck_id, "sprout", 1, bad)
        assert response.status_code == 400 and b"editing session" in response.data
        assert client.post(f"/decks/{deck_id}/save", data={"s": bad}).status_code == 400
    assert _versions(deck_id) == [(1, "created")]
    # without a session (older pages, scripts) each click is a version, as before
    change(client, deck_id, "sprout", 1)
    change(client, deck_id, "sprout", 1)
    assert [n for n, _ in _versions(deck_id)] == [1, 2, 3]


@pytest.mark.parametrize("game", [g.slug for g in all_games()])
def test_a_deck_of_every_card_of_a_game_renders_whatever_its_cards_leave_unknown(client, alice, app, game):
    """Cards with unknown values (a level requirement nobody has given, no type) sit beside known
    ones in one deck: the page, its charts and its exports answer (a Battledome deck once answered
    500 because its curve held both numbers and the word "unknown")."""
    from deckhub.core.decklist import Deck
    from deckhub.services.accounts import find_user
    from deckhub.services.catalogue_store import get_catalogue
    from deckhub.services.decks import create_deck

    spec = get_game(game)
    with app.app_context():
        deck = Deck(game=game)
        for card in get_catalogue(game):
            deck.add(spec.sections[0].name, card.key, 1)
        stored = create_deck(find_user("alice"), game, spec.format(None).id, "Everything", deck=deck)
    deck_id = stored.row.id
    page = client.get(f"/decks/{deck_id}")
    assert page.status_code == 200
    charts = re.findall(r'src="([^"]*/charts/[a-z]+\.svg)"', page.get_data(as_text=True))
    assert f"/decks/{deck_id}/charts/types.svg" in charts
    for chart in charts:
        assert client.get(chart).status_code == 200, chart
    assert client.get(f"/decks/{deck_id}/edit").status_code == 200


def test_a_deck_illegal_in_its_format_but_legal_in_another_is_told_which(client, alice):
    starter = (DECKS / "neopets-tcg" / "decks" / "starter-set-deck-a.txt").read_text(encoding="utf-8")
    response = import_deck(client, starter, name="Deck A", game="neopets-tcg")
    deck_id = int(response.location.rsplit("/", 1)[1])
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Not legal" in page
    assert "This deck is legal as <strong>Starter Set (basic game)</strong>" in page and "change its format" in page
    settings = client.get(f"/decks/{deck_id}/settings").get_data(as_text=True)
    form = {"csrf_token": "", "name": "Deck A", "format": "starter"}
    assert 'value="starter"' in settings
    assert client.post(f"/decks/{deck_id}/settings", data=form).status_code == 302
    page = client.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert "Starter Set (basic game)" in page and "Not legal" not in page and "This deck is legal as" not in page


def test_my_decks_are_paged_newest_change_first(client, alice, monkeypatch):
    from deckhub.services import decks
    monkeypatch.setattr(decks, "MY_DECKS_PER_PAGE", 2)
    ids = [new_deck(client, name) for name in ("First", "Second", "Third")]
    first, second = (client.get(url).get_data(as_text=True) for url in ("/decks/", "/decks/?page=2"))
    shown = lambda page: re.findall(r'href="/decks/(\d+)">', page)  # noqa: E731
    assert shown(first) == [str(i) for i in ids[:0:-1]] and shown(second) == [str(ids[0])]
    assert "1–2 of 3 decks · page 1 of 2" in first and "3–3 of 3 decks" in second
    assert "There is no page 3." in client.get("/decks/?page=3").get_data(as_text=True)
    assert client.get("/decks/?page=x").status_code == 400
