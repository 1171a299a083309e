"""The goldfish sandbox in the browser (without JavaScript): every engine's board (the toy game's
too), actions, undo, replay."""
from __future__ import annotations

import html
import json
import re

import pytest

from conftest import TOY, with_toy
from deckhub.store import models
from deckhub.core.engine import engines, get_engine
from deckhub.store.db import database
from deckhub.importers.decklists import write_text
from deckhub.games import load_catalogue

GAMES = with_toy(sorted(e.game for e in engines()))


def actions_on(page: str, manual: bool = False) -> list[dict]:
    """The actions the board offers as buttons (the rules' own ones unless `manual`)."""
    found = [json.loads(html.unescape(a)) for a in re.findall(r'name="action" value="([^"]*)"', page)]
    return [a for a in found if manual or not (a["kind"].startswith("manual.") or a["kind"] == "concede")]


def errors_on(page: str) -> list[str]:
    return re.findall(r'class="flash error">([^<]*)<', page)


def deck_for(client, game: str) -> int:
    name, deck = get_engine(game).decks()[0]
    text = write_text(deck, load_catalogue(game))
    response = client.post("/decks/import", data={"name": name, "game": game, "format": "", "decklist": text,
                                                  "keep_parsed": "y"})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return int(response.location.rsplit("/", 1)[1])


def start(client, deck_id: int, seed: int = 11, **options) -> str:
    form = {"seed": str(seed), **{f"opt_{k}": v for k, v in options.items()}}
    response = client.post(f"/goldfish/decks/{deck_id}", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    return response.location


@pytest.fixture
def player(auth):
    auth.signup("alice")
    return auth._client


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_plays_in_the_browser_from_start_to_a_result(request, player, game):
    if game == TOY:
        request.getfixturevalue("toy_site")
    deck_id = deck_for(player, game)
    assert "Goldfish this deck" in player.get(f"/decks/{deck_id}").get_data(as_text=True)
    assert player.get(f"/goldfish/decks/{deck_id}").status_code == 200
    board = start(player, deck_id)
    page = player.get(board).get_data(as_text=True)
    offered = actions_on(page)
    assert offered, "the board offers the rules' actions"
    assert player.post(f"{board}/act", data={"step": "0", "action": json.dumps(offered[0])}).status_code == 302
    page = player.get(board).get_data(as_text=True)
    assert not errors_on(page) and "step 1" in page
    player.post(f"{board}/play-out", data={"step": "1"})
    page = player.get(board).get_data(as_text=True)
    assert re.search(r'class="result (win|loss)"', page), "the banner says how the game ended"
    replay = player.get(f"{board}/replay?step=1")
    assert replay.status_code == 200 and "step 1 of" in replay.get_data(as_text=True)


def test_forged_and_stale_actions_change_nothing_and_say_why(player):
    board = start(player, deck_for(player, "kaijudo"))
    legal = actions_on(player.get(board).get_data(as_text=True))[0]
    for forged in ({"kind": "summon", "card": 9999}, {"kind": "no-such-thing"}, "not an object", [1, 2]):
        player.post(f"{board}/act", data={"step": "0", "action": json.dumps(forged)})
        page = player.get(board).get_data(as_text=True)
        assert errors_on(page) and "step 0" in page
    assert player.post(f"{board}/act", data={"step": "0", "action": "{not json"}).status_code == 400
    assert player.post(f"{board}/act", data={"step": "x", "action": json.dumps(legal)}).status_code == 400
    player.post(f"{board}/act", data={"step": "0", "action": json.dumps(legal)})
    player.post(f"{board}/act", data={"step": "0", "action": json.dumps(legal)})  # a stale tab
    page = player.get(board).get_data(as_text=True)
    assert "moved on since your page was loaded" in page and "at step 1 now" in page


def test_undo_restart_and_new_game(player):
    board = start(player, deck_for(player, "kaijudo"), seed=5)
    for step in range(3):
        action = actions_on(player.get(board).get_data(as_text=True))[-1]
        player.post(f"{board}/act", data={"step": str(step), "action": json.dumps(action)})
    assert "step 3" in player.get(board).get_data(as_text=True)
    player.post(f"{board}/undo", data={"step": "3", "count": "2"})
    assert "step 1" in player.get(board).get_data(as_text=True)
    restarted = player.post(f"{board}/restart").location.split("#")[0]
    assert restarted != board  # a game with moves is kept; the restart is a new game
    assert "step 1" in player.get(board).get_data(as_text=True)
    page = player.get(restarted).get_data(as_text=True)
    assert "step 0" in page and "Seed <strong>5</strong>" in page
    assert "nothing to undo" in (player.post(f"{restarted}/undo", data={"step": "0"}, follow_redirects=True)
                                 .get_data(as_text=True))
    assert player.post(f"{restarted}/restart").location.split("#")[0] == restarted  # nothing to lose: in place
    new = player.post(f"{board}/new")
    assert new.status_code == 302 and new.location != board


def test_a_finished_game_is_never_overwritten(player):
    board = start(player, deck_for(player, "kaijudo"), seed=5)
    player.post(f"{board}/play-out", data={"step": "0"})
    session_id = int(board.rsplit("/", 1)[1])
    with database.connection_context():
        finished = models.GoldfishSession.get_by_id(session_id)
        actions, result = finished.actions, finished.result
    assert result and len(actions) > 5
    for path, data in (("restart", {}), ("undo", {"step": str(len(actions)), "count": "3"}), ("new", {})):
        response = player.post(f"{board}/{path}", data=data)
        assert response.status_code == 302
        assert int(response.location.split("#")[0].rsplit("/", 1)[1]) != session_id, path
        with database.connection_context():
            kept = models.GoldfishSession.get_by_id(session_id)
            assert (kept.actions, kept.result) == (actions, result), path
    replay = player.get(f"{board}/replay?step={len(actions)}")
    assert replay.status_code == 200 and f"step {len(actions)} of {len(actions)}" in replay.get_data(as_text=True)
    history = player.get("/goldfish/").get_data(as_text=True)
    assert history.count("Kaijudo #") >= 4


def test_an_action_of_the_wrong_shape_is_refused_not_a_500(player):
    board = start(player, deck_for(player, "kaijudo"))
    for action in ({"kind": "manual.move", "card": 0, "to": ["hand"]}, {"kind": ["summon"]},
                   {"kind": "manual.move", "card": [0], "to": "hand"}, {"kind": "manual.draw", "x": {"y": 1}},
                   {"kind": "manual.move", "card": 10**30, "to": "hand"}, {"kind": "summon", "card": "0"}):
        response = player.post(f"{board}/act", data={"step": "0", "action": json.dumps(action)})
        assert response.status_code in (302, 400), action
        assert "step 0" in player.get(board).get_data(as_text=True)


def test_manual_moves_are_offered_apart_and_logged_as_manual(player):
    board = start(player, deck_for(player, "kaijudo"))
    assert "Manual moves" in player.get(board).get_data(as_text=True)
    player.post(f"{board}/act", data={"step": "0", "kind": "manual.draw"})
    page = player.get(board).get_data(as_text=True)
    assert '<span class="badge">manual</span> drew' in page
    player.post(f"{board}/act", data={"step": "1", "kind": "manual.move", "card": "0", "to": "nowhere"})
    assert errors_on(player.get(board).get_data(as_text=True))
    assert player.post(f"{board}/act", data={"step": "1", "kind": "rm -rf"}).status_code == 400


def test_sessions_are_their_owners_alone(app, player):
    board = start(player, deck_for(player, "kaijudo"))
    other = app.test_client()
    other.post("/signup", data={"username": "bob", "password": "correct horse", "confirm": "correct horse"})
    for path in (board, f"{board}/replay"):
        assert other.get(path).status_code == 404
        assert app.test_client().get(path).status_code == 302  # anonymous: log in first
    for path in ("act", "undo", "restart", "new", "play-out"):
        assert other.post(f"{board}/{path}", data={"step": "0", "action": "{}"}).status_code == 404
    assert "No games yet" in other.get("/goldfish/").get_data(as_text=True)
    assert "Kaijudo #" in player.get("/goldfish/").get_data(as_text=True)


def test_a_deck_deleted_mid_game_leaves_the_game_playable(player):
    deck_id = deck_for(player, "kaijudo")
    board = start(player, deck_id)
    player.post(f"/decks/{deck_id}/delete")
    page = player.get(board)
    assert page.status_code == 200 and "keeps its own copy" in page.get_data(as_text=True)
    action = actions_on(page.get_data(as_text=True))[0]
    player.post(f"{board}/act", data={"step": "0", "action": json.dumps(action)})
    assert "step 1" in player.get(board).get_data(as_text=True)


def test_bad_options_and_seeds_are_explained(player):
    deck_id = deck_for(player, "kaijudo")
    for form in ({"seed": "abc"}, {"seed": "-4"}, {"seed": "1", "opt_turn_limit": "zero"}):
        response = player.post(f"/goldfish/decks/{deck_id}", data=form)
        assert response.status_code == 400 and 'class="flash error"' in response.get_data(as_text=True)


def test_values_the_catalogue_lacks_are_asked_for_at_once_and_kept_as_the_players_own(player):
    text = (__import__("pathlib").Path(__file__).resolve().parents[1] / "data" / "neopets-tcg" / "decks"
            / "darigan-theme-deck.txt").read_text()
    deck_id = int(player.post("/decks/import", data={"name": "Darigan", "game": "neopets-tcg", "format": "",
                                                     "decklist": text}).location.rsplit("/", 1)[1])
    page = player.get(f"/goldfish/decks/{deck_id}").get_data(as_text=True)
    assert "Values the catalogue does not know" in page and 'name="cv__chocolate-korbats__type"' in page
    # one form: with the type unknown, the fields each possible type brings are there already
    assert 'name="cv__chocolate-korbats__bank_value"' in page and 'name="cv__chocolate-korbats__species"' in page
    bad = player.post(f"/goldfish/decks/{deck_id}", data={"seed": "1", "cv__chocolate-korbats__type": "Item",
                                                          "cv__chocolate-korbats__bank_value": "lots"})
    assert bad.status_code == 400 and "must be a whole number" in bad.get_data(as_text=True)
    board = player.post(
        f"/goldfish/decks/{deck_id}", data={"seed": "1", "cv__chocolate-korbats__type": "Item",
                                            "cv__chocolate-korbats__bank_value": "3"}).location
    assert player.get(board).status_code == 200
    catalogue_card = player.get("/api/cards/neopets-tcg/chocolate-korbats").get_json()
    assert catalogue_card["type"] is None  # the player's values never reach the catalogue by themselves
    mine = player.get("/api/card-values?game=neopets-tcg").get_json()["values"]
    assert mine["chocolate-korbats"] == {"type": "Item", "bank_value": 3}
    again = player.get(f"/goldfish/decks/{deck_id}").get_data(as_text=True)
    assert 'name="cv__chocolate-korbats__type"' not in again  # not asked twice



def _play_until(client, board: str, done, limit: int = 60) -> str:
    """Summon or charge when the board offers it, else its last rules action, until `done(page)` holds."""
    page = client.get(board).get_data(as_text=True)
    for step in range(limit):
        if done(page):
            return page
        offered = actions_on(page)
        rank = {"summon": 0, "charge": 1}
        chosen = min(offered, key=lambda a: (rank.get(a["kind"], 2), -offered.index(a)))
        client.post(f"{board}/act", data={"step": str(step), "action": json.dumps(chosen)})
        page = client.get(board).get_data(as_text=True)
    raise AssertionError("the board never got there")


def test_manual_moves_are_grouped_by_zone_and_face_down_cards_are_counted(player):
    board = start(player, deck_for(player, "kaijudo"), seed=3)
    page = player.get(board).get_data(as_text=True)
    assert "a face-down card (#" not in page
    select = re.search(r'<select name="card">(.*?)</select>', page, re.S).group(1)
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    hand = next(g for g in groups if g.startswith("Hand ("))
    in_hand = int(re.fullmatch(r"Hand \((\d+)\)", hand).group(1))
    deck = next(g for g in groups if g.startswith("Deck ("))
    assert re.fullmatch(r"Deck \(\d+ face down\)", deck)
    assert "the top card of Deck" in select and "the bottom card of Deck" in select
    top = re.search(r'<option value="(\d+)">the top card of Deck</option>', select).group(1)
    response = player.post(f"{board}/act", data={"step": "0", "kind": "manual.move", "card": top, "to": "hand"})
    assert response.status_code == 302
    assert f'<optgroup label="Hand ({in_hand + 1})">' in player.get(board).get_data(as_text=True)


def test_kaijudo_tiles_show_keywords_and_why_a_creature_cannot_attack(player):
    board = start(player, deck_for(player, "kaijudo"), seed=3)
    page = _play_until(player, board, lambda p: 'class="tile-flag attack-block"' in p)
    reason = html.unescape(re.search(r'class="tile-flag attack-block">([^<]+)<', page).group(1))
    assert re.search(r"is tapped|has Guard|has Skirmisher|entered the battle zone this turn", reason), reason
    from deckhub.games.kaijudo.state import keywords as _keywords
    from deckhub.games.kaijudo.effects import Program
    prog = Program("k", "K", "Creature", 3, ("fire",), (), 3000, True, blocker=True, breaker=2)
    assert _keywords(prog) == ["Blocker", "Double Breaker"]


def test_long_action_labels_are_cut_with_the_whole_text_as_their_name(app):
    with app.test_request_context():
        from flask import render_template_string
        label = "Choose " + "a very long description of a target " * 4
        html_out = render_template_string(
            "{{ act_button(label|truncate(60, false, '…', 4), '{}', '', label) }}",
            label=label, game=type("G", (), {"session": type("S", (), {"id": 1})})(), step=0, csrf_token=lambda: "t")
    shown = re.search(r"<button[^>]*>([^<]+)</button>", html_out).group(1)
    assert len(shown) <= 61 and shown.endswith("…")
    assert f'title="{label}"' in html_out and f'aria-label="{label}"' in html_out


def test_the_board_lists_its_keyboard_shortcuts(player):
    board = start(player, deck_for(player, "kaijudo"), seed=3)
    page = player.get(board).get_data(as_text=True)
    assert '<details class="shortcuts" id="shortcuts">' in page and "<kbd>?</kbd>" in page and "undo one step" in page


@pytest.mark.parametrize("game", GAMES)
def test_a_replayed_position_is_kept_but_each_caller_gets_its_own(request, app, player, game):
    """rebuild() keeps the positions it replayed on the catalogue; changing the position one board
    request got never shows in the next one, and a new move is a new position."""
    if game == TOY:
        request.getfixturevalue("toy_site")
    from deckhub.services import goldfish as store
    from deckhub.store import models
    from deckhub.store.db import database

    board = start(player, deck_for(player, game), seed=5)
    session_id = int(board.rsplit("/", 1)[1])
    with app.app_context(), database.connection_context():
        session = models.GoldfishSession.get_by_id(session_id)
        first = store.rebuild(session)
        before = first.view()
        action = first.legal_actions(manual=False)[0]
        first.apply_action(action)
        again = store.rebuild(session)
        assert again is not first and again.view() == before
        store.act(store.Game(session, again), action, len(session.actions))
        assert store.rebuild(models.GoldfishSession.get_by_id(session_id)).view() == first.view()


def test_a_finished_board_is_the_same_every_time_and_its_own(player):
    """A finished game's layout and log are kept (they cannot change); two finished games never show
    each other's, and the live board before the end is written afresh."""
    deck_id = deck_for(player, "kaijudo")
    pages = {}
    for seed in (3, 4):
        board = start(player, deck_id, seed=seed)
        live = player.get(board).get_data(as_text=True)
        player.post(f"{board}/play-out", data={"step": "0"})
        first, second = (re.sub(r'name="csrf_token" value="[^"]*"', "", player.get(board).get_data(as_text=True))
                         for _ in range(2))
        assert first == second != live and 'class="result' in first
        pages[seed] = first
    assert pages[3] != pages[4]
    log = lambda page: re.search(r'<ol reversed>(.*?)</ol>', page, re.S).group(1)  # noqa: E731
    assert log(pages[3]) != log(pages[4])


def test_a_move_read_before_another_landed_never_writes_over_it(app, player):
    """Two requests read the game at step 0 and the first stores its move: the second, made at step 0,
    is refused with the step the game moved on to; sent without a step, it comes after the first.
    An undo and a move in between (back at a step the game was at) are not written over either."""
    from deckhub.services import goldfish as store
    from deckhub.store import models
    from deckhub.store.db import database

    board = start(player, deck_for(player, "kaijudo"), seed=5)
    session_id = int(board.rsplit("/", 1)[1])
    draw = {"kind": "manual.draw"}
    stored = lambda: models.GoldfishSession.get_by_id(session_id)  # noqa: E731
    with app.app_context(), database.connection_context():
        early, late, later = (store.load(stored()) for _ in range(3))
        assert store.act(early, draw, 0).step == 1
        with pytest.raises(store.StaleStep) as refused:
            store.act(late, draw, 0)
        assert refused.value.step == 1 and stored().actions == [draw]
        assert store.act(later, draw, None).step == 2 and stored().actions == [draw, draw]
        # an undo and a different move bring the game back to step 2: a move read before them at step 2
        # is applied to the game as it is now, never written over the move made in between
        stale = store.load(stored())
        store.undo(store.load(stored()), 1, 2)
        end = {"kind": "manual.end_phase"}
        store.act(store.load(stored()), end, 1)
        assert store.act(stale, draw, 2).step == 3 and stored().actions == [draw, end, draw]


def test_a_tile_shows_the_numbers_and_flags_its_engine_declares(toy_site, player):
    """The board knows no game: the toy game's TILE declares its points and a "new" badge for a gem
    played this turn, and its tiles show them."""
    board = start(player, deck_for(player, TOY), seed=3)
    page = player.get(board).get_data(as_text=True)
    def tile(page: str, card: int) -> str:
        return re.split(r'<div class="tile[ "]', page.split(f'id="c{card}"')[1])[0]

    gem = next(a for a in actions_on(page) if a["kind"] == "play" and "Gem" in tile(page, a["card"]))
    player.post(f"{board}/act", data={"step": "0", "action": json.dumps(gem)})
    page = player.get(board).get_data(as_text=True)
    played = tile(page, gem["card"])
    assert '<span class="badge">new</span>' in played and re.search(r'<span title="points">Pts [123]</span>', played)
