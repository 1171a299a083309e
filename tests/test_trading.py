"""Public want and trade lists (opt-in) and matching: the service, its one-query matches, the pages,
and that nothing of a user who has not opted in ever shows."""
from __future__ import annotations

import json

import pytest

from deckhub.services import collection as col
from deckhub.store import models
from deckhub.services import kept_matches, trading
from deckhub.services.accounts import create_user
from deckhub.core.decklist import Deck
from deckhub.store.db import database, is_sqlite
from deckhub.services.decks import create_deck, delete_deck
from tests.conftest import page_html as text

PASSWORD = "correct horse"
GAME = "kaijudo"


def printing(key: str, n: int = 0) -> int:
    return col.game_index(GAME).by_card[key][n].id


@pytest.fixture
def people(app):
    """alice wants Argus (3) and Halo Hawk (1) and trades Cloudwalker Drone (2);
    bob (public) trades Argus 2 and Halo Hawk 4 and wants Cloudwalker Drone 1;
    carol (public) trades Halo Hawk 1; dave (private) trades Argus 5 and wants the Drone 3."""
    with database.connection_context():
        users = {n: create_user(n, PASSWORD) for n in ("alice", "bob", "carol", "dave")}
        uid = {n: u.id for n, u in users.items()}
        col.set_quantities(uid["alice"], printing("argus-vigilant-seer"), want_quantity=3)
        col.set_quantities(uid["alice"], printing("halo-hawk"), want_quantity=1)
        col.set_quantities(uid["alice"], printing("cloudwalker-drone"), quantity=4, trade_quantity=2)
        col.set_quantities(uid["bob"], printing("argus-vigilant-seer"), quantity=2, trade_quantity=2)
        col.set_quantities(uid["bob"], printing("halo-hawk"), quantity=4, trade_quantity=4)
        col.set_quantities(uid["bob"], printing("cloudwalker-drone"), want_quantity=1)
        col.set_quantities(uid["carol"], printing("halo-hawk"), quantity=1, trade_quantity=1)
        col.set_quantities(uid["dave"], printing("argus-vigilant-seer"), quantity=5, trade_quantity=5)
        col.set_quantities(uid["dave"], printing("cloudwalker-drone"), want_quantity=3)
        trading.set_lists_public(uid["bob"], True)
        trading.set_lists_public(uid["carol"], True)
    return uid


def in_db(fn, *args):
    with database.connection_context():
        return fn(*args)


def summary(matches: trading.Matches) -> list[tuple[str, list[tuple[str, int, int]]]]:
    return [(m.username, [(c.key, c.mine, c.theirs) for c in m.cards]) for m in matches.users]


class CountQueries:
    """Counts the statements sent to the database inside the block (and keeps their SQL)."""

    def ranking(self) -> int:
        """The statements that ranked other players' offers (read the site's trade rows)."""
        return sum('"per_card"' in sql for sql in self.statements)

    def matching(self) -> int:
        """The statements apart from the catalogues' stamps (a request reads those once for every page)."""
        return sum("catalogue_stamp" not in sql for sql in self.statements)

    def __enter__(self):
        self.count, self.statements, db = 0, [], database.obj
        self._original = db.execute_sql

        def counting(sql, params=None, *args, **kwargs):
            self.count += 1
            self.statements.append(sql)
            return self._original(sql, params, *args, **kwargs)
        db.execute_sql = counting
        return self

    def __exit__(self, *exc):
        del database.obj.execute_sql


def test_lists_are_private_until_their_owner_opts_in(people):
    assert in_db(trading.lists_public, people["alice"]) is False
    assert in_db(trading.public_user, "alice") is None and in_db(trading.public_user, "nobody") is None
    assert in_db(trading.public_user, "BOB").username == "bob"
    in_db(trading.set_lists_public, people["alice"], True)
    in_db(trading.set_lists_public, people["alice"], True)  # twice is still once
    assert in_db(trading.lists_public, people["alice"]) is True
    in_db(trading.set_lists_public, people["alice"], False)
    assert in_db(trading.public_user, "alice") is None


def test_a_public_list_holds_only_that_kind_per_printing(people):
    bob = in_db(models.User.get_by_id, people["bob"])
    trades = in_db(trading.public_list, bob, "trades")
    assert [(r.key, r.qty) for r in trades.rows] == [("argus-vigilant-seer", 2), ("halo-hawk", 4)]
    wants = in_db(trading.public_list, bob, "wants")
    assert [(r.display_name, r.qty) for r in wants.rows] == [("Cloudwalker Drone", 1)] and wants.total == 1
    page = in_db(trading.public_list, bob, "trades", 2, 1)
    assert [r.key for r in page.rows] == ["halo-hawk"] and page.pages == 2


def test_who_has_what_i_want_most_cards_first_only_opted_in_ranked_once_then_kept(people):
    with database.connection_context(), CountQueries() as counter:
        matches = trading.match_my_list(people["alice"], "wants")
    assert counter.ranking() == 1  # the users ranked (my wanted cards joined to their offers) with their cards
    assert summary(matches) == [("bob", [("argus-vigilant-seer", 3, 2), ("halo-hawk", 1, 4)]),
                                ("carol", [("halo-hawk", 1, 1)])]  # dave trades Argus, but privately
    assert matches.users[0].copies == 3
    with database.connection_context(), CountQueries() as counter:
        again = trading.match_my_list(people["alice"], "wants")
    # nothing changed: my own rows, the kept match, the players' names (and outside a request the
    # catalogue's version), never the site's offers
    assert counter.ranking() == 0 and counter.count <= 4 and again == matches


def test_a_kept_match_is_decoded_once_a_digest_and_a_changed_one_anew(people, monkeypatch):
    """Views of an unchanged kept match read its row but do not decode its JSON again; the rows
    worked out after a change are the ones shown (their digest differs)."""
    kept_matches._DECODED.clear()
    decoded, loads = [], json.loads
    monkeypatch.setattr(kept_matches.json, "loads", lambda text: decoded.append(text) or loads(text))
    alice = people["alice"]
    first = in_db(trading.match_my_list, alice, "wants")  # worked out and held decoded
    kept_matches._DECODED.clear()  # as in another worker: the kept row is decoded once there
    assert in_db(trading.match_my_list, alice, "wants") == first and len(decoded) == 1
    assert in_db(trading.match_my_list, alice, "wants") == first and len(decoded) == 1
    in_db(lambda: col.set_quantities(people["carol"], printing("halo-hawk"), trade_quantity=0))
    assert summary(in_db(trading.match_my_list, alice, "wants")) == [
        ("bob", [("argus-vigilant-seer", 3, 2), ("halo-hawk", 1, 4)])]


def test_a_kept_match_shows_every_change_of_the_lists_at_once(people):
    """Whoever changes a list of one of the cards, however it is changed, the next view shows it."""
    alice = people["alice"]
    in_db(trading.match_my_list, alice, "wants")  # kept
    in_db(lambda: col.set_quantities(people["carol"], printing("halo-hawk"), trade_quantity=0))
    assert summary(in_db(trading.match_my_list, alice, "wants")) == [
        ("bob", [("argus-vigilant-seer", 3, 2), ("halo-hawk", 1, 4)])]
    in_db(trading.set_lists_public, people["dave"], True)  # dave's offer of Argus shows now
    assert summary(in_db(trading.match_my_list, alice, "wants"))[1] == ("dave", [("argus-vigilant-seer", 3, 5)])
    in_db(col.adjust, people["bob"], printing("argus-vigilant-seer"), "quantity", -2)  # his trade of it is capped at 0
    in_db(trading.set_lists_public, people["dave"], False)
    assert summary(in_db(trading.match_my_list, alice, "wants")) == [("bob", [("halo-hawk", 1, 4)])]
    in_db(col.apply_changes, alice, [(printing("halo-hawk"), "want_quantity", -1)])  # my own list changes too
    assert in_db(trading.match_my_list, alice, "wants").users == []
    with database.connection_context(), database.atomic():
        col.write_targets(people["carol"], {printing("argus-vigilant-seer"): {"quantity": 1, "trade_quantity": 1}})
    assert summary(in_db(trading.match_my_list, alice, "wants")) == [("carol", [("argus-vigilant-seer", 3, 1)])]


@pytest.fixture
def queue_later(monkeypatch):
    """Jobs run outside the request, as on a site with workers: the refreshes sent are recorded
    (returning `up`: False as when the queue cannot be reached), run by calling `run`."""
    class Sent(list):
        up = True
        jobs = {"lists": trading.refresh_list_matches, "deck": trading.refresh_deck_matches}

        def run(self):
            for kind, args in self:
                in_db(self.jobs[kind].__wrapped__, *args)
            self.clear()
    sent = Sent()
    monkeypatch.setattr(trading, "_queue_runs_later", lambda: True)
    monkeypatch.setattr(trading, "TRUST_OTHERS_FOR", 0.0)  # every view reads the counts (see the next test)
    trading._LAST_COUNTS.clear()
    monkeypatch.setattr(trading, "refresh_list_matches", lambda *args: sent.append(("lists", args)) or sent.up)
    monkeypatch.setattr(trading, "refresh_deck_matches", lambda *args: sent.append(("deck", args)) or sent.up)
    return sent


def test_others_changes_show_the_kept_match_as_behind_while_one_queued_job_works_it_out(people, queue_later):
    alice = people["alice"]
    first = in_db(trading.match_my_list, alice, "wants")  # nothing kept: worked out now
    assert first.behind_since is None and queue_later == []
    in_db(lambda: col.set_quantities(people["carol"], printing("halo-hawk"), trade_quantity=0))
    with database.connection_context(), CountQueries() as counter:
        behind = trading.match_my_list(alice, "wants")
    assert counter.ranking() == 0 and summary(behind) == summary(first) and behind.behind_since is not None
    assert queue_later == [("lists", (alice, "wants"))]
    with database.connection_context(), CountQueries() as counter:  # viewed again: nothing sent, nothing written
        trading.match_my_list(alice, "wants")
    assert len(queue_later) == 1 and not any(sql.lstrip().startswith("UPDATE") for sql in counter.statements)
    queue_later.run()
    with database.connection_context(), CountQueries() as counter:
        now = trading.match_my_list(alice, "wants")
    assert counter.ranking() == 0 and now.behind_since is None
    assert summary(now) == [("bob", [("argus-vigilant-seer", 3, 2), ("halo-hawk", 1, 4)])]


def test_a_view_trusts_the_counts_read_moments_ago_while_my_own_lists_are_unchanged(people, queue_later, monkeypatch):
    alice, sums = people["alice"], "SUM(CASE"
    monkeypatch.setattr(trading, "TRUST_OTHERS_FOR", 3600.0)
    first = in_db(trading.my_lists, alice)
    in_db(lambda: col.set_quantities(people["carol"], printing("halo-hawk"), trade_quantity=0))
    with database.connection_context(), CountQueries() as counter:  # within the window: the kept match, as current
        trusted = trading.my_lists(alice)
    assert not any(sums in sql for sql in counter.statements) and counter.ranking() == 0
    assert trusted == first and trusted.have_my_wants.behind_since is None and queue_later == []
    with database.connection_context():  # a kept match rewritten since (by a job) is never taken on trust
        models.KeptMatch.update(digest="elsewhere").where(models.KeptMatch.purpose == "trades").execute()
        with CountQueries() as counter:
            trading.my_lists(alice)
    assert any(sums in sql for sql in counter.statements)
    monkeypatch.setattr(trading, "TRUST_OTHERS_FOR", 0.0)  # the window passed: carol's change is seen
    assert in_db(trading.match_my_list, alice, "wants").behind_since is not None
    monkeypatch.setattr(trading, "TRUST_OTHERS_FOR", 3600.0)
    in_db(col.apply_changes, alice, [(printing("halo-hawk"), "want_quantity", -1)])  # my own change: read at once
    assert summary(in_db(trading.match_my_list, alice, "wants")) == [("bob", [("argus-vigilant-seer", 3, 2)])]


def test_both_lists_matches_are_read_together_and_the_opt_in_is_never_trusted(people, queue_later, monkeypatch):
    alice = people["alice"]
    in_db(trading.set_lists_public, alice, True)
    first = in_db(trading.my_lists, alice)
    assert first.public and first.have_my_wants.users and first.want_my_trades.users
    names_apart = is_sqlite()  # SQLite, with no round trip to save, reads the names in a statement of their own
    with database.connection_context(), CountQueries() as counter:  # my standing and counts; both kept, named
        assert trading.my_lists(alice) == first
    assert counter.matching() == 2 + names_apart and counter.ranking() == 0
    monkeypatch.setattr(trading, "TRUST_OTHERS_FOR", 3600.0)
    in_db(trading.my_lists, alice)
    in_db(trading.set_lists_public, alice, False)  # no change of my own lists' count: read all the same
    with database.connection_context(), CountQueries() as counter:  # my standing with both kept, named
        trusted = trading.my_lists(alice)
    assert trusted.public is False and counter.matching() == 1 + names_apart
    assert trusted.have_my_wants == first.have_my_wants


def test_a_kept_match_brings_its_players_names_and_a_player_it_holds_who_is_gone_is_left_out(people, queue_later):
    alice = people["alice"]
    in_db(trading.set_lists_public, alice, True)
    first = in_db(trading.my_lists, alice)
    K = models.KeptMatch
    with database.connection_context():
        kept = K.get((K.user == alice) & (K.purpose == "wants"))
        rows = json.loads(kept.rows)
        K.update(rows=json.dumps([*rows, [999999, *rows[-1][1:]]])).where(K.id == kept.id).execute()
    kept_matches._DECODED.clear()  # rows changed under the same digest: as read by a worker new to them
    with database.connection_context(), CountQueries() as counter:  # the gone player's name is asked apart
        assert trading.my_lists(alice) == first
    names_read = sum('"username"' in sql for sql in counter.statements)
    assert counter.matching() == 3 and names_read == (1 if is_sqlite() else 2)


def test_my_own_changes_and_a_queue_that_cannot_be_reached_are_worked_out_at_once(people, queue_later):
    alice = people["alice"]
    in_db(trading.match_my_list, alice, "wants")
    in_db(col.apply_changes, alice, [(printing("halo-hawk"), "want_quantity", -1)])  # my own list
    assert summary(in_db(trading.match_my_list, alice, "wants")) == [("bob", [("argus-vigilant-seer", 3, 2)])]
    assert queue_later == []
    queue_later.up = False
    in_db(lambda: col.set_quantities(people["bob"], printing("argus-vigilant-seer"), trade_quantity=1))
    mine = in_db(trading.match_my_list, alice, "wants")
    assert mine.behind_since is None and summary(mine) == [("bob", [("argus-vigilant-seer", 3, 1)])]
    queue_later.up = True
    in_db(lambda: col.set_quantities(people["bob"], printing("argus-vigilant-seer"), trade_quantity=2))
    assert in_db(trading.match_my_list, alice, "wants").behind_since is not None  # the next view sends it
    assert len(queue_later) == 2


def test_a_decks_missing_cards_refreshed_by_the_queue_and_never_for_a_deleted_deck(people, queue_later):
    deck = Deck(GAME)
    deck.add("Deck", "halo-hawk", 3)
    with database.connection_context():
        stored = create_deck(people["alice"], GAME, "standard", "Hawk deck", deck=deck)
    needed, deck_id = {"halo-hawk": 3}, stored.row.id
    first = in_db(trading.who_has_cards, GAME, needed, people["alice"], deck_id)
    in_db(lambda: col.set_quantities(people["bob"], printing("halo-hawk"), trade_quantity=1))
    behind = in_db(trading.who_has_cards, GAME, needed, people["alice"], deck_id)
    assert behind.behind_since is not None and summary(behind) == summary(first)
    queue_later.run()
    assert summary(in_db(trading.who_has_cards, GAME, needed, people["alice"], deck_id)) == [
        ("bob", [("halo-hawk", 3, 1)]), ("carol", [("halo-hawk", 3, 1)])]
    assert summary(in_db(trading.who_has_cards, GAME, {"halo-hawk": 2}, people["alice"], deck_id))[0] == (
        "bob", [("halo-hawk", 2, 1)])  # the deck needs other cards: worked out at once
    in_db(lambda: col.set_quantities(people["bob"], printing("halo-hawk"), trade_quantity=3))
    in_db(trading.who_has_cards, GAME, {"halo-hawk": 2}, people["alice"], deck_id)
    in_db(delete_deck, stored)
    queue_later.run()
    with database.connection_context():
        assert not models.KeptMatch.select().where(models.KeptMatch.purpose == f"deck:{deck_id}").exists()


def test_the_want_list_page_says_when_its_matches_were_worked_out_while_they_are_behind(client, auth, people,
                                                                                        queue_later):
    auth.login("alice", PASSWORD)
    assert "Worked out at" not in text(client.get("/collection/wants"))
    in_db(lambda: col.set_quantities(people["carol"], printing("halo-hawk"), trade_quantity=0))
    html = text(client.get("/collection/wants"))
    section = html[html.index("Who has what I want"):html.index("Who wants what I have")]
    assert "Other players’ lists have changed since" in section and "<strong>carol</strong>" in section
    queue_later.run()
    html = text(client.get("/collection/wants"))
    assert "Worked out at" not in html and "<strong>carol</strong>" not in html


def test_who_wants_what_i_have_for_trade(people):
    assert summary(in_db(trading.match_my_list, people["alice"], "trades")) == [
        ("bob", [("cloudwalker-drone", 2, 1)])]
    # alice is not public: no one is matched with her, though she sees her own matches
    assert in_db(trading.match_my_list, people["bob"], "trades").users == []
    in_db(trading.set_lists_public, people["alice"], True)
    assert summary(in_db(trading.match_my_list, people["bob"], "trades")) == [
        ("alice", [("argus-vigilant-seer", 2, 3), ("halo-hawk", 4, 1)])]


def test_who_has_a_decks_missing_cards(people):
    with database.connection_context(), CountQueries() as counter:
        matches = trading.who_has_cards(GAME, {"halo-hawk": 3, "argus-vigilant-seer": 0}, people["alice"])
    assert counter.ranking() == 1  # the cards joined to the offers of those cards only
    assert summary(matches) == [("bob", [("halo-hawk", 3, 4)]), ("carol", [("halo-hawk", 3, 1)])]
    assert in_db(trading.who_has_cards, GAME, {}, people["alice"]).users == []


def test_a_decks_missing_cards_are_matched_again_only_when_their_lists_change(people):
    needed, deck_id = {"halo-hawk": 3}, 7
    first = in_db(trading.who_has_cards, GAME, needed, people["alice"], deck_id)
    with database.connection_context(), CountQueries() as counter:
        assert trading.who_has_cards(GAME, needed, people["alice"], deck_id) == first
    assert counter.ranking() == 0
    in_db(lambda: col.set_quantities(people["bob"], printing("halo-hawk"), trade_quantity=1))
    assert summary(in_db(trading.who_has_cards, GAME, needed, people["alice"], deck_id)) == [
        ("bob", [("halo-hawk", 3, 1)]), ("carol", [("halo-hawk", 3, 1)])]
    assert summary(in_db(trading.who_has_cards, GAME, {"halo-hawk": 3, "argus-vigilant-seer": 1},
                         people["alice"], deck_id))[0] == ("bob", [("argus-vigilant-seer", 1, 2), ("halo-hawk", 3, 1)])


def test_card_traders_only_opted_in_and_not_the_viewer(people):
    argus = in_db(trading.card_traders, GAME, "argus-vigilant-seer", None)
    assert argus.trading == [("bob", 2)] and argus.wanting == []  # dave's 5 stay private
    drone = in_db(trading.card_traders, GAME, "cloudwalker-drone", people["bob"])
    assert drone.trading == [] and drone.wanting == []


# --------------------------------------------------------------------------- pages

def test_the_public_pages_are_404_until_opted_in(client, auth, people):
    for url in ("/users/alice/wants", "/users/alice/trades", "/users/dave/trades", "/users/nobody/wants"):
        page = client.get(url)
        assert page.status_code == 404 and "does not show their want and trade lists" in text(page)
    html = text(client.get("/users/bob/trades"))
    assert "bob’s trade list" in html and "Argus, Vigilant Seer" in html and "Halo Hawk" in html
    assert "Cloudwalker Drone" not in html
    html = text(client.get("/users/Bob/wants"))
    assert "bob’s want list" in html and "Cloudwalker Drone" in html and "Argus" not in html
    assert client.get("/users/bob/lists").status_code == 404


def test_opting_in_and_out_from_the_want_list_page(client, auth, people):
    auth.login("alice", PASSWORD)
    html = text(client.get("/collection/wants"))
    assert 'name="public" value="y">' in html and "Show my want and trade lists publicly" in html
    answer = client.post("/collection/public-lists", data={"public": "y"})
    assert answer.status_code == 303 and answer.location.endswith("/collection/wants")
    html = text(client.get("/collection/wants"))
    assert 'value="y" checked>' in html and 'href="/users/alice/wants"' in html
    assert client.get("/users/alice/wants").status_code == 200
    client.post("/collection/public-lists", data={})
    assert client.get("/users/alice/wants").status_code == 404


def test_the_opt_in_needs_an_account_and_the_forms_token(csrf_app):
    from conftest import csrf_token
    client = csrf_app.test_client()
    with database.connection_context():
        alice = create_user("alice", PASSWORD)
    token = csrf_token(client.get("/login").get_data(as_text=True))
    answer = client.post("/collection/public-lists", data={"public": "y", "csrf_token": token})
    assert answer.status_code == 302 and "/login" in answer.location  # signed out: to the log-in page
    client.post("/login", data={"username": "alice", "password": PASSWORD, "csrf_token": token})
    assert client.post("/collection/public-lists", data={"public": "y"}).status_code == 400  # no CSRF token
    assert in_db(trading.lists_public, alice.id) is False
    token = csrf_token(client.get("/collection/wants").get_data(as_text=True))
    assert client.post("/collection/public-lists", data={"public": "y", "csrf_token": token}).status_code == 303
    assert in_db(trading.lists_public, alice.id) is True


def test_the_want_list_page_shows_both_matches(client, auth, people):
    auth.login("alice", PASSWORD)
    html = text(client.get("/collection/wants"))
    wants = html[html.index("Who has what I want"):html.index("Who wants what I have")]
    assert wants.index("<strong>bob</strong>") < wants.index("<strong>carol</strong>")
    assert "2 cards, up to 3 copies" in wants and "dave" not in html
    trades = html[html.index("Who wants what I have"):]
    assert "<strong>bob</strong>" in trades and "Cloudwalker Drone" in trades


def test_the_card_page_says_who_trades_and_who_wants_it(client, people):
    html = text(client.get("/games/kaijudo/cards/argus-vigilant-seer"))
    section = html[html.index("Who has this for trade"):]
    assert 'href="/users/bob/trades">bob</a>: 2' in section and "dave" not in html
    assert "No one has it on a public want list." in section


def test_the_deck_page_shows_its_owner_who_has_the_missing_cards(client, auth, people):
    deck = Deck(GAME)
    deck.add("Deck", "halo-hawk", 3)
    deck.add("Deck", "argus-vigilant-seer", 2)
    with database.connection_context():
        stored = create_deck(people["alice"], GAME, "standard", "Hawk deck", deck=deck)
        models.Deck.update(is_public=True).where(models.Deck.id == stored.row.id).execute()
    auth.login("alice", PASSWORD)
    html = text(client.get(f"/decks/{stored.row.id}"))
    section = html[html.index("Who has the cards this deck is missing"):]
    assert section.index("<strong>bob</strong>") < section.index("<strong>carol</strong>")
    assert "dave" not in section
    auth.logout()
    auth.login("carol", PASSWORD)  # a visitor of the public deck does not see the owner's matches
    assert "Who has the cards this deck is missing" not in text(client.get(f"/decks/{stored.row.id}"))
    with database.connection_context():  # deleting the deck drops the match kept for its owner
        kept = models.KeptMatch.select().where(models.KeptMatch.purpose == f"deck:{stored.row.id}")
        assert kept.count() == 1
        delete_deck(stored)
        assert kept.count() == 0


def test_a_private_player_and_a_private_deck_never_show_anywhere(client, auth, people):
    """dave has not opted in and keeps a private deck: no page or API answer names either, whoever asks."""
    deck = Deck(GAME)
    deck.add("Deck", "argus-vigilant-seer", 4)
    with database.connection_context():
        secret = create_deck(people["dave"], GAME, "standard", "Dave's hidden deck 51d", deck=deck).row.id
        mine = create_deck(people["alice"], GAME, "standard", "Alice's deck", deck=deck).row.id
    urls = ["/decks/public", "/decks/public?card=argus", "/decks/public?q=hidden", "/decks/public?sort=copied",
            "/api/v1/decks/public?card=argus", "/api/v1/decks/public?q=dave",
            "/games/kaijudo/cards/argus-vigilant-seer", "/games/kaijudo/cards/cloudwalker-drone",
            "/users/bob/trades", "/users/bob/wants"]
    for who in (None, "alice", "bob"):
        if who:
            auth.login(who, PASSWORD)
        pages = urls + (["/collection/wants", f"/decks/{mine}"] if who == "alice" else [])
        for url in pages:
            answer = client.get(url)
            assert answer.status_code == 200, url
            body = answer.get_data(as_text=True)
            assert "dave" not in body and "hidden deck" not in body, (who, url)
        for url in ("/users/dave/wants", "/users/dave/trades", f"/decks/{secret}"):
            assert client.get(url).status_code == 404
        if who:
            auth.logout()


def test_the_want_list_page_shows_my_rows_a_hundred_to_a_page(client, auth, people):
    ids = [p.id for refs in col.game_index(GAME).by_card.values() for p in refs][:130]
    with database.connection_context(), database.atomic():
        col.write_targets(people["alice"], {pid: {"want_quantity": 1} for pid in ids})
        total = trading.my_list_page(people["alice"]).total
        everything = [r for r in col.export_rows(people["alice"]) if r.want_quantity or r.trade_quantity]
    assert 130 <= total == len(everything) < 200
    auth.login("alice", PASSWORD)
    first = text(client.get("/collection/wants"))
    assert f"1–100 of {total} printings · page 1 of 2" in first and "Who has what I want" in first
    second = text(client.get("/collection/wants?page=2"))
    assert f"101–{total} of {total} printings" in second
    assert second.count("<tr><td>Kaijudo</td>") == total - 100
    with database.connection_context():
        both = trading.my_list_page(people["alice"], 1).rows + trading.my_list_page(people["alice"], 2).rows
    assert both == everything  # the export's order, page after page
    assert "There is no page 3." in text(client.get("/collection/wants?page=3"))
    assert client.get("/collection/wants?page=x").status_code == 400


def _rows_read(statements: list[str]) -> int:
    """The statements that read a page of my list's rows."""
    return sum('CROSS JOIN "owned_card"' in sql and "LIMIT" in sql for sql in statements)


def test_a_page_of_my_list_is_kept_until_any_of_my_rows_changes(client, auth, people):
    """A second view reads no rows again; a change of a copy I have (no want or trade changed) shows
    on the very next view, and so does a want."""
    auth.login("alice", PASSWORD)
    drone = "<td>Cloudwalker Drone</td> <td></td><td>2</td><td>{}</td></tr>"
    assert drone.format(4) in text(client.get("/collection/wants"))
    with CountQueries() as seen:
        assert drone.format(4) in text(client.get("/collection/wants"))
    assert _rows_read(seen.statements) == 0
    with database.connection_context():
        col.set_quantities(people["alice"], printing("cloudwalker-drone"), quantity=5)
    with CountQueries() as seen:
        assert drone.format(5) in text(client.get("/collection/wants"))
    assert _rows_read(seen.statements) == 1
    with database.connection_context():
        col.set_quantities(people["alice"], printing("halo-hawk"), want_quantity=2)
    assert "<td>Halo Hawk</td> <td>2</td>" in text(client.get("/collection/wants"))


def test_a_kept_page_of_a_list_is_never_shown_to_a_later_account_given_the_same_id(client, auth, people):
    """SQLite gives the id of the newest account again once it is gone: the new player, with as many
    changes to the same cards, sees their own rows."""
    with database.connection_context():
        newest = create_user("erin", PASSWORD)
        for key, want in (("argus-vigilant-seer", 3), ("halo-hawk", 1), ("cloudwalker-drone", 2)):
            col.set_quantities(newest.id, printing(key), want_quantity=want)
    auth.login("erin", PASSWORD)
    assert "<td>Argus, Vigilant Seer</td> <td>3</td>" in text(client.get("/collection/wants"))
    auth.logout()
    with database.connection_context():
        models.User.delete_by_id(newest.id)
        later = create_user("frank", PASSWORD)
        for key, want in (("argus-vigilant-seer", 7), ("halo-hawk", 1), ("cloudwalker-drone", 2)):
            col.set_quantities(later.id, printing(key), want_quantity=want)
    assert later.id == newest.id or not is_sqlite()
    auth.login("frank", PASSWORD)
    page = text(client.get("/collection/wants"))
    assert "<td>Argus, Vigilant Seer</td> <td>7</td>" in page and "<td>3</td>" not in page


def test_only_the_first_players_matched_are_read_and_the_rest_are_counted(people, monkeypatch):
    monkeypatch.setattr(trading, "MAX_MATCH_USERS", 1)
    matches = in_db(trading.match_my_list, people["alice"], "wants")
    assert summary(matches) == [("bob", [("argus-vigilant-seer", 3, 2), ("halo-hawk", 1, 4)])]
    assert matches.more == 1  # carol
