"""Kept whole pages (web.page_cache): a finished goldfish game's board and replay steps, a public deck
for visitors. A kept page shows what a fresh one would, never another browser's form token, and
nothing it shows goes stale."""
from __future__ import annotations

import json
import re

from conftest import csrf_token
from deckhub.services.catalogue_store import get_catalogue
from deckhub.web.page_cache import pages
from test_goldfish_web import actions_on, deck_for, errors_on, player, start  # noqa: F401 (a fixture)

TOKEN = re.compile(r'name="csrf_token" value="([^"]*)"')


def without_tokens(page: str) -> str:
    return TOKEN.sub("", page)


def session_id(board: str) -> int:
    return int(board.rsplit("/", 1)[1])


def kept_boards() -> list:
    return pages(get_catalogue("kaijudo"), "goldfish").keys()


def signed_in(app, *, signup: bool):
    client = app.test_client()
    path = "/signup" if signup else "/login"
    form = {"username": "alice", "password": "correct horse", "csrf_token": csrf_token(client.get(path).get_data(as_text=True))}
    if signup:
        form["confirm"] = form["password"]
    assert client.post(path, data=form).status_code == 302
    client.get("/")  # shows "Signed in as alice." once
    return client


def post(client, path: str, page: str, **form):
    return client.post(path, data={"csrf_token": csrf_token(page), **form})


def test_a_kept_finished_board_carries_the_form_token_of_the_browser_asking(csrf_app):
    first, second = signed_in(csrf_app, signup=True), signed_in(csrf_app, signup=False)  # one player, two browsers
    page = first.get("/decks/import").get_data(as_text=True)
    imported = post(first, "/decks/import", page, name="Bull Rush", game="kaijudo", format="",
                    decklist="40 Blade Seer")
    deck_id = int(imported.location.rsplit("/", 1)[1])
    board = post(first, f"/goldfish/decks/{deck_id}", first.get(f"/goldfish/decks/{deck_id}").get_data(as_text=True),
                 seed="7").location
    assert post(first, f"{board}/play-out", first.get(board).get_data(as_text=True), step="0").status_code == 302

    written = first.get(board).get_data(as_text=True)
    assert session_id(board) in {key[1] for key in kept_boards()}
    from_kept = first.get(board).get_data(as_text=True)
    other_browser = second.get(board).get_data(as_text=True)
    assert without_tokens(from_kept) == without_tokens(written) == without_tokens(other_browser)
    assert 'class="result' in from_kept
    assert csrf_token(other_browser) != csrf_token(from_kept)
    assert TOKEN.findall(from_kept) and set(TOKEN.findall(from_kept)) == {csrf_token(from_kept)}
    assert "\x00" not in from_kept and "\x00" not in other_browser
    # each browser's kept page works for its own forms and for no one else's
    assert post(first, f"{board}/new", other_browser).status_code == 400
    assert post(second, f"{board}/new", from_kept).status_code == 400
    assert post(first, f"{board}/new", from_kept).status_code == 302
    assert post(second, f"{board}/new", other_browser).status_code == 302


def test_a_kept_finished_board_shows_its_deck_as_it_is_now_and_flashes_once(player):
    deck_id = deck_for(player, "kaijudo")
    board = start(player, deck_id, seed=4)
    player.post(f"{board}/play-out", data={"step": "0"})
    step = re.search(r'name="step" value="(\d+)"', player.get(board).get_data(as_text=True)).group(1)
    assert player.get(f"{board}/replay?step=2").status_code == 200
    kept = player.get(f"{board}/replay?step=2").get_data(as_text=True)
    assert "step 2 of" in kept and "step 3 of" in player.get(f"{board}/replay?step=3").get_data(as_text=True)

    player.post(f"/decks/{deck_id}/settings", data={"name": "Renamed Rush", "format": "standard"})
    assert "Renamed Rush" in player.get(board).get_data(as_text=True)
    assert "Renamed Rush" in player.get(f"{board}/replay?step=2").get_data(as_text=True)

    player.post(f"{board}/act", data={"step": step, "action": '{"kind": "end_turn"}'})
    assert errors_on(player.get(board).get_data(as_text=True)), "the refusal is shown"
    assert not errors_on(player.get(board).get_data(as_text=True)), "and only once"


def test_a_live_board_is_never_kept(player):
    board = start(player, deck_for(player, "kaijudo"), seed=6)
    live = player.get(board).get_data(as_text=True)
    action = actions_on(live)[0]
    player.post(f"{board}/act", data={"step": "0", "action": json.dumps(action)})
    assert "step 1" in player.get(board).get_data(as_text=True)
    assert player.get(f"{board}/replay?step=0").status_code == 200
    assert session_id(board) not in {key[1] for key in kept_boards()}


def test_a_browser_keeps_one_form_token_and_another_browser_has_its_own(csrf_app, monkeypatch):
    import itertools

    from itsdangerous import TimestampSigner
    ticks = itertools.count(1_700_000_000)  # every signing a second later: a token signed again differs
    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: next(ticks))
    first = signed_in(csrf_app, signup=True)
    pages = [first.get(path).get_data(as_text=True) for path in ("/decks/import", "/collection/", "/decks/import")]
    assert len({csrf_token(page) for page in pages}) == 1  # signed once for this browser
    second = signed_in(csrf_app, signup=False)
    theirs = second.get("/decks/import").get_data(as_text=True)
    assert csrf_token(theirs) != csrf_token(pages[0])
    assert post(first, "/logout", theirs).status_code == 400  # one browser's token is not another's
    assert post(first, "/logout", pages[2]).status_code == 302


def test_with_a_time_limit_on_tokens_each_request_signs_its_own(databases):
    from conftest import make_app
    app = make_app(databases.with_catalogues(), WTF_CSRF_TIME_LIMIT=3600)
    client = app.test_client()
    token = csrf_token(client.get("/signup").get_data(as_text=True))
    assert client.post("/signup", data={"username": "alice", "password": "correct horse", "confirm": "correct horse",
                                        "csrf_token": token}).status_code == 302
    client.get("/decks/import")
    assert len(app.extensions["deckhub.form_tokens"]) == 0
