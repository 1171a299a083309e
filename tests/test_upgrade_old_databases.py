"""Databases made by earlier DeckHub commits (tests/fixtures/old_databases) upgrade to today's schema
with every old row kept, and afterwards the pages showing what each of their accounts made (decks,
games, runs, proposals, card values, uploads...) and their user's API calls answer.

Each fixture is restored on the backend under test (SQLite, or PostgreSQL with
DECKHUB_TEST_DATABASE_URL, as in conftest.py), upgraded with `deckhub.store.schema.upgrade`, and
compared row by row on the old columns (an upgrade may add columns, never lose a value).
"""
from __future__ import annotations

import datetime as dt
import json

import pytest

from deckhub.services import card_values, collection_imports, facts_uploads
from deckhub.store import models
from deckhub.store.db import database, make_database
from tests.conftest import POSTGRES_URL, csrf_token, make_app
from tests.fixtures.old_databases import loader

BACKEND = "postgresql" if POSTGRES_URL else "sqlite"
FIXTURES = loader.fixtures()


def made_before(step: int) -> list[dict]:
    """The fixtures of releases that did not have schema step `step` yet, oldest first."""
    return [f for f in FIXTURES if f["legacy_version"] < step]
# Not user data: the legacy runner's own record of its last step (the new runner reads it), the
# row-by-row preview of a collection upload waiting for its owner's confirmation, which step 018 keeps
# in compressed pages instead and makes again from the upload's file (the upload itself is kept), and
# the count of each card's list changes, which step 028 copies to each of its printings.
BOOKKEEPING = {"schema_version", "collection_upload_row", "card_list_changes"}


def _close() -> None:
    if database.obj is not None and not database.is_closed():
        database.close()
    if hasattr(database.obj, "close_all"):
        database.obj.close_all()


@pytest.fixture
def restore(tmp_path):
    """restore(entry) -> the URL of a fresh copy of that fixture's database on the backend under test."""
    made: list[str] = []

    def restore(entry: dict) -> str:
        if POSTGRES_URL:
            url = loader.restore_postgresql(entry, POSTGRES_URL)
            made.append(url)
            return url
        return f"sqlite:///{loader.restore_sqlite(entry, tmp_path)}"

    yield restore
    _close()
    for url in made:
        loader.drop_postgresql(url, POSTGRES_URL)


def _upgrade(url: str) -> tuple[dict, dict]:
    """Upgrade the database at `url`; the rows before and after."""
    from deckhub.store import schema
    db = make_database(url)
    try:
        before = loader.snapshot(db)
        schema.upgrade(db)
        assert schema.pending(db) == []
        return before, loader.snapshot(db)
    finally:
        db.close()


def _columns(db, table: str) -> set[str]:
    return {c.name for c in db.get_columns(table)}


def _sign_in(app, name: str, password: str):
    client = app.test_client()
    login_page = client.get("/login").get_data(as_text=True)
    signed_in = client.post("/login", data={"username": name, "password": password,
                                            "csrf_token": csrf_token(login_page)})
    assert signed_in.status_code == 302, (name, signed_in.get_data(as_text=True)[:2000])
    return client


def _pages_of(user) -> list[tuple[str, int]]:
    """The pages showing what `user` made, with the status each should answer: their decks (with
    statistics, versions and card values), goldfish games, simulation and tuning runs, proposals
    (with batches and scans), card values, public lists, and the collection and facts uploads
    waiting for them."""
    M = models
    pages = ["/", "/decks/", "/collection/", "/goldfish/", "/account/", "/proposals"]
    for deck in M.Deck.select(M.Deck.id, M.Deck.game).where(M.Deck.owner == user):
        pages += [f"/decks/{deck.id}", f"/decks/{deck.id}/stats/", f"/decks/{deck.id}/versions",
                  f"/decks/{deck.id}/games", f"/decks/{deck.id}/print"]
        if card_values.enterable(deck.game):  # the values the deck still needs, for a game that has some
            pages.append(f"/card-values/decks/{deck.id}")
    pages += [f"/goldfish/{g.id}" for g in M.GoldfishSession.select(M.GoldfishSession.id).where(
        M.GoldfishSession.owner == user)]
    pages += [f"/decks/{r.deck_id}/stats/simulations/{r.id}.json" for r in M.SimulationRun.select().where(
        M.SimulationRun.owner == user)]
    pages += [f"/decks/{r.deck_id}/stats/tunings/{r.id}.json" for r in M.TuningRun.select().where(
        M.TuningRun.owner == user)]
    pages += [f"/proposals/{p.id}" for p in M.Proposal.select(M.Proposal.id).where(M.Proposal.proposer == user)]
    pages += [f"/batches/{b.id}" for b in M.ProposalBatch.select(M.ProposalBatch.id).where(
        M.ProposalBatch.proposer == user)]
    pages += [f"/scans/{s.id}" for s in M.Scan.select(M.Scan.id).where(M.Scan.uploader == user)]
    pages += [f"/card-values/{game}" for (game,) in M.UserCardValue.select(M.UserCardValue.game).where(
        M.UserCardValue.owner == user).distinct().tuples()]
    if M.PublicLists.select().where(M.PublicLists.user == user).exists():
        pages += [f"/users/{user.username}/wants", f"/users/{user.username}/trades"]
    C, F = M.CollectionUpload, M.FactsUpload
    pages += [f"/collection/import/{u.token}" for u in C.select(C.token).where((C.owner == user) & (C.state == "ready"))]
    answers = [(page, 200) for page in pages]
    # a checked facts file answers 400 while it has rows to correct
    answers += [(f"/facts/import/{u.token}", 400 if u.summary["problems"] else 200)
                for u in F.select().where((F.owner == user) & (F.state == "ready"))]
    return answers


@pytest.mark.parametrize("entry", FIXTURES, ids=[f["name"] for f in FIXTURES])
def test_an_old_database_upgrades_keeping_every_row_and_its_pages_answer(entry, restore, monkeypatch):
    # an upload's page answers for two hours after it was sent; a fixture's were sent long before
    monkeypatch.setattr(collection_imports, "MAX_AGE", dt.timedelta(days=36500))
    monkeypatch.setattr(facts_uploads, "MAX_AGE", dt.timedelta(days=36500))
    url = restore(entry)
    before, after = _upgrade(url)
    counts = entry.get("postgresql_rows", entry["rows"]) if POSTGRES_URL else entry["rows"]
    assert {t: n for t, n in counts.items() if n} == {t: len(r) for t, r in before.items() if r}
    lost = loader.missing_rows({t: r for t, r in before.items() if t not in BOOKKEEPING}, after)
    assert lost == {}, f"rows lost by the upgrade of {entry['name']}: " + ", ".join(
        f"{t}: {len(r)}" for t, r in lost.items())

    app = make_app(url)
    user = entry["user"]
    with app.app_context(), database.connection_context():
        me = models.User.get(models.User.username == user["name"])
        decks = [d.id for d in models.Deck.select().where(models.Deck.owner == me)]
        accounts = [(u.username, u.is_curator, _pages_of(u)) for u in models.User.select().order_by(models.User.id)]
    assert len(decks) == sum(1 for r in before["deck"] if dict(r)["owner_id"] == me.id)
    for name, is_curator, pages in accounts:
        # every account of a fixture has its user's password (make_fixture.py signs them all up with it)
        client = _sign_in(app, name, user["password"])
        for page, status in [*pages, *((("/review", 200),) if is_curator else ())]:
            response = client.get(page)
            assert response.status_code == status, (name, page, response.get_data(as_text=True)[:2000])
    # an import waiting for its owner's confirmation keeps its preview rows (moved into pages), in order
    waiting: dict[int, list[dict]] = {}
    for row in sorted((dict(r) for r in before.get("collection_upload_row", ())), key=lambda r: r["position"]):
        waiting.setdefault(row["upload_id"], []).append({"line": row["line"], "kind": row["kind"], **json.loads(row["data"])})
    with app.app_context(), database.connection_context():
        for upload_id, rows in waiting.items():
            upload = models.CollectionUpload.get_by_id(upload_id)
            shown, total = collection_imports.preview_rows(upload, "all", 1, len(rows))
            assert total == len(rows) and [(r["line"], r["kind"], r["text"]) for r in shown] == [
                (r["line"], r["kind"], r["text"]) for r in rows]

    token = loader.api_token(entry, BACKEND)
    if token:
        api = app.test_client()
        headers = {"Authorization": f"Bearer {token}"}
        listed = api.get("/api/decks", headers=headers)
        assert listed.status_code == 200, listed.get_data(as_text=True)[:2000]
        assert sorted(d["id"] for d in listed.get_json()["decks"]) == sorted(decks)
        with app.app_context(), database.connection_context():
            calls = ["/api/me", "/api/collection", *(f"/api/decks/{d}/versions" for d in decks),
                     *(f"/api/simulations/{r.id}" for r in models.SimulationRun.select().where(models.SimulationRun.owner == me)),
                     *(f"/api/tunings/{r.id}" for r in models.TuningRun.select().where(models.TuningRun.owner == me)),
                     *(f"/api/card-values?game={g}" for (g,) in models.UserCardValue.select(models.UserCardValue.game)
                       .where(models.UserCardValue.owner == me).distinct().tuples())]
        for call in calls:
            answer = api.get(call, headers=headers)
            assert answer.status_code == 200, (call, answer.get_data(as_text=True)[:2000])


@pytest.mark.parametrize("commit, tables, columns", [
    ("1ef515d", {"user_card_value"}, {("simulation_run", "unknown")}),  # made before step 4 was merged
    ("9470aa2", {"deck_copy", "public_lists"}, set()),                  # made before step 13 was merged
    ("0c2bdac", set(), {("goldfish_session", "archived")}),             # made before step 21 was written
])
def test_steps_merged_after_a_database_was_made_still_run(commit, tables, columns, restore):
    url = restore(loader.by_commit(commit))
    _upgrade(url)
    db = make_database(url)
    try:
        assert tables <= set(db.get_tables())
        for table, column in columns:
            assert column in _columns(db, table)
    finally:
        db.close()


@pytest.mark.parametrize("commit", ["6fe46f9", "cbba934", "1ef515d", "9470aa2"])
def test_upgrading_twice_changes_nothing_the_second_time(commit, restore):
    url = restore(loader.by_commit(commit))
    _, first = _upgrade(url)
    db = make_database(url)
    try:
        tables = {t: _columns(db, t) for t in db.get_tables()}
    finally:
        db.close()
    again, second = _upgrade(url)
    assert again == first == second
    db = make_database(url)
    try:
        assert {t: _columns(db, t) for t in db.get_tables()} == tables
    finally:
        db.close()


def test_decks_of_the_previous_release_log_real_games_after_step_23(restore):
    """Step 23 adds the games played and the "show my record" setting: an old deck shows no record
    until its owner says so, and its owner logs a game on it at once."""
    entry = made_before(23)[-1]  # a database of the release before step 23
    url = restore(entry)
    _upgrade(url)
    app = make_app(url)
    with app.app_context(), database.connection_context():
        deck = models.Deck.select().order_by(models.Deck.id).first()
        owner = deck.owner.username
        assert not models.Deck.select().where(models.Deck.show_record).exists()
    client = _sign_in(app, owner, entry["user"]["password"])
    page = client.get(f"/decks/{deck.id}").get_data(as_text=True)
    assert "Games played" in page
    logged = client.post(f"/decks/{deck.id}/games", data={"played_on": "2026-11-30", "version": "1", "result": "loss",
                                                           "order": "second", "opponent": "", "note": "",
                                                           "csrf_token": csrf_token(page)})
    assert logged.status_code == 303, logged.get_data(as_text=True)[:2000]
    with app.app_context(), database.connection_context():
        assert [g.result for g in models.PlayedGame.select().where(models.PlayedGame.deck == deck.id)] == ["loss"]


@pytest.mark.parametrize("entry", made_before(22)[-2:], ids=[f["name"] for f in made_before(22)[-2:]])
def test_an_upgrade_gives_every_deck_the_card_rows_of_its_latest_version(entry, restore):
    """Step 022 fills `deck_card` from each deck's latest version, and `deck.copies` from its copies."""
    from deckhub.services.decks import card_counts
    url = restore(entry)
    _upgrade(url)
    db = make_database(url)
    try:
        with db.bind_ctx(models.ALL_MODELS), db.connection_context():
            decks = list(models.Deck.select())
            assert decks, "the fixture has decks"
            for deck in decks:
                latest = (models.DeckVersion.select().where(models.DeckVersion.deck == deck)
                          .order_by(models.DeckVersion.number.desc()).first())
                rows = {(r.game, r.card_key): r.qty for r in models.DeckCard.select().where(models.DeckCard.deck == deck)}
                assert rows == {(deck.game, k): n for k, n in card_counts(latest.data).items()}, deck.id
                assert deck.copies == models.DeckCopy.select().where(models.DeckCopy.source == deck).count()
            assert models.DeckCard.select().count() > 0
    finally:
        db.close()


def test_step_24_gives_old_databases_votes_notices_and_claims_and_old_proposals_stay_reviewable(restore, monkeypatch):
    """Agreement (step 24) on a database of the previous release: the new columns are empty for old
    rows, an old pending proposal (no record of what it was based on) is approved, not held, and two
    of its old accounts agreeing on an unknown fact settle it."""
    from deckhub.services.community.fields import fields_by_key
    from deckhub.services.community.proposing import propose_facts
    from deckhub.services.community.reviewing import approve

    entry = made_before(24)[-1]
    url = restore(entry)
    _upgrade(url)
    db = make_database(url)
    try:
        assert {"fact_vote", "notice", "work_claim"} <= set(db.get_tables())
        assert {"signup_network"} <= _columns(db, "user") and {"based_on", "flags"} <= _columns(db, "proposal")
        assert {"rule", "checked_by_id"} <= _columns(db, "fact_change")
    finally:
        db.close()
    app = make_app(url)
    with app.app_context(), database.connection_context():
        assert all(u.signup_network is None for u in models.User.select())
        curator = models.User.select().where(models.User.is_curator).first()
        for waiting in models.Proposal.select().where((models.Proposal.status == "pending")
                                                      & models.Proposal.new_card.is_null()):
            assert waiting.based_on is None
            assert approve(waiting.id, curator).status == "approved"
        players = [u for u in models.User.select().order_by(models.User.id) if not u.is_curator][:2]
        game = "neopets-battledome"
        monkeypatch.setenv("DECKHUB_AGREEMENT_MIN_ACCOUNT_DAYS", "0")  # the fixture may have been made days ago only
        for u in players:  # one deck each makes the old accounts active
            models.Deck.create(owner=u.id, game=game, format="standard", name="deck")
        key = models.Card.select().where((models.Card.game == game) & models.Card.type.is_null()).first().key
        kind = fields_by_key(game)["type"].choices[0]
        made = [propose_facts(u, game, key, {"type": kind}, "https://example.org/list") for u in players]
        assert [models.Proposal.get_by_id(p.id).status for p in made] == ["agreed", "agreed"]


@pytest.mark.parametrize("entry", FIXTURES[-2:], ids=[f["name"] for f in FIXTURES[-2:]])
def test_step_25_counts_every_decks_cards_goldfish_games_and_public_decks(entry, restore):
    """Step 025 fills the counts "most wanted" and the public deck list read: each card's decks (its
    `deck_card` rows) and goldfish games (the decks the games were started with), each game's public
    decks; the services keep them from then on, so the pages show what they showed before."""
    from collections import Counter

    from deckhub.services import tallies
    url = restore(entry)
    _upgrade(url)
    db = make_database(url)
    try:
        with db.bind_ctx(models.ALL_MODELS), db.connection_context():
            in_decks = Counter((r.game, r.card_key) for r in models.DeckCard.select())
            in_games = Counter((s.game, key) for s in models.GoldfishSession.select() for key in tallies.card_keys(s.deck_data))
            assert in_decks and in_games, "the fixture has decks and goldfish games"
            kept = {(r.game, r.card_key): (r.decks, r.games) for r in models.CardDemand.select()}
            assert kept == {card: (in_decks[card], in_games[card]) for card in in_decks | in_games}
            public = Counter(d.game for d in models.Deck.select().where(models.Deck.is_public == True))  # noqa: E712
            assert {r.game: r.decks for r in models.PublicDeckCount.select()} == dict(public)
    finally:
        db.close()


@pytest.mark.parametrize("entry", made_before(26)[-1:], ids=[f["name"] for f in made_before(26)[-1:]])
def test_step_26_copies_each_decks_visibility_and_age_to_its_card_rows(entry, restore):
    """Step 026 gives every `deck_card` row its deck's `is_public` and `created_at`, so the public decks
    found by a card after the upgrade are exactly the public decks holding it, newest first."""
    from deckhub.services import public_decks
    url = restore(entry)
    _upgrade(url)
    app = make_app(url)
    with app.app_context(), database.connection_context():
        D, DC = models.Deck, models.DeckCard
        rows = list(DC.select(DC, D.is_public.alias("deck_public"), D.created_at.alias("deck_created"))
                    .join(D, on=(DC.deck == D.id)).objects())
        assert rows and any(r.deck_public for r in rows), "the fixture has a public deck with cards"
        assert all((r.is_public, r.created_at) == (r.deck_public, r.deck_created) for r in rows)
        public = next(r for r in rows if r.deck_public)
        card = models.Card.get((models.Card.game == public.game) & (models.Card.key == public.card_key))
        holding = [r.deck_id for r in rows if r.deck_public and (r.game, r.card_key) == (public.game, public.card_key)]
        newest = [d.id for d in D.select().where(D.id.in_(holding)).order_by(D.created_at.desc(), D.id.desc())]
        assert [d.row.id for d in public_decks.browse(card=card.name, game=public.game).decks] == newest


@pytest.mark.parametrize("entry", made_before(27)[-1:], ids=[f["name"] for f in made_before(27)[-1:]])
def test_step_27_matches_are_worked_out_from_the_old_lists_then_kept(entry, restore):
    """Step 027 starts with no kept match: each player's matches after the upgrade are worked out from
    the lists as the old release left them, then kept, and a change of a list shows at once."""
    from deckhub.services import collection, trading
    url = restore(entry)
    _upgrade(url)
    app = make_app(url)
    with app.app_context(), database.connection_context():
        assert models.KeptMatch.select().count() == 0 and models.PrintingListChanges.select().count() == 0
        O = models.OwnedCard
        listed = list(O.select().where((O.want_quantity > 0) | (O.trade_quantity > 0)))
        assert listed, "the fixture has a want or trade list"
        trading.set_lists_public(listed[0].owner_id, True)
        for user in models.User.select():
            first = trading.my_lists(user)
            assert trading.my_lists(user) == first  # now from the kept rows
        wanted = next((r for r in listed if r.want_quantity > 0), None)
        if wanted is not None:
            offerer = next(u for u in models.User.select() if u.id != wanted.owner_id)
            trading.set_lists_public(offerer, True)
            collection.set_quantities(offerer, wanted.printing_id, quantity=1, trade_quantity=1)
            names = [m.username for m in trading.match_my_list(wanted.owner_id, "wants").users]
            assert offerer.username in names


@pytest.mark.parametrize("entry", made_before(28)[-1:], ids=[f["name"] for f in made_before(28)[-1:]])
def test_step_28_sums_every_players_sets_from_their_rows(entry, restore):
    """Step 028 fills each player's sums per set from the collection rows the old release left, so
    the overview and the want & trade list's length show what they showed before, and the collection
    services keep them from then on."""
    from deckhub.services import checklists, collection, trading
    from tests.test_owned_sets import _from_rows, assert_kept
    url = restore(entry)
    _upgrade(url)
    app = make_app(url)
    with app.app_context(), database.connection_context():
        owners = [u for u in models.User.select() if _from_rows(u.id)]
        assert owners, "the fixture has a collection"
        for user in owners:
            assert_kept(user.id)
        user = owners[0]
        rows = _from_rows(user.id)
        totals = [g.totals for g in checklists.collection_overview(user)]
        assert sum(t.quantity for t in totals) == sum(v[1] for v in rows.values())
        assert trading.my_list_page(user, 1, per_page=1).total == sum(v[5] for v in rows.values())
        # the old release's count of each card's list changes is now on each of its printings
        L, P = models.PrintingListChanges, models.Printing
        counted: dict[int, set[int]] = {}
        for card, changes in L.select(P.card, L.changes).join(P, on=(P.id == L.printing)).tuples():
            counted.setdefault(card, set()).add(changes)
        assert counted and all(len(c) == 1 and min(c) > 0 for c in counted.values())
        assert L.select().count() == P.select().where(P.card.in_(list(counted))).count()
        printing = models.OwnedCard.get(models.OwnedCard.owner == user.id).printing_id
        collection.adjust(user, printing, "want_quantity", 2)
        assert_kept(user.id)
        siblings = P.select(P.id).where(P.card == P.select(P.card).where(P.id == printing))
        assert {c for (c,) in L.select(L.changes).where(L.printing.in_(siblings)).tuples()} != set()


@pytest.mark.parametrize("entry", made_before(29)[-1:], ids=[f["name"] for f in made_before(29)[-1:]])
def test_step_29_a_match_kept_by_the_old_release_is_worked_out_again_not_shown_behind(entry, restore, monkeypatch):
    """Step 029 keeps the old release's kept matches but knows nothing of their owner's side: even
    when jobs run outside the request, each is worked out again on its next view, and from then on
    other players' changes show it as behind while a job works it out."""
    from deckhub.services import collection, trading
    monkeypatch.setattr(trading, "TRUST_OTHERS_FOR", 0.0)  # each view reads the counts anew
    url = restore(entry)
    db = make_database(url)
    try:  # a match kept by the old release, written in its table's shape
        owner, printing = db.execute_sql('SELECT "owner_id", "printing_id" FROM "owned_card" '
                                         'WHERE "want_quantity" > 0 ORDER BY "id" LIMIT 1').fetchone()
        with db.atomic():
            db.execute_sql('INSERT INTO "kept_match" ("user_id", "purpose", "digest", "rows", "worked_out_at") '
                           f"VALUES ({db.param}, 'wants', 'old', '[]', {db.param})", (owner, models.utcnow()))
    finally:
        db.close()
    before, after = _upgrade(url)
    assert not loader.missing_rows(before, after).get("kept_match")
    monkeypatch.setattr(trading, "_queue_runs_later", lambda: True)
    sent = []
    monkeypatch.setattr(trading, "refresh_list_matches", lambda *args: sent.append(args) or True)
    app = make_app(url)
    with app.app_context(), database.connection_context():
        assert models.KeptMatch.get(models.KeptMatch.user == owner).own_digest is None
        offerer = next(u for u in models.User.select() if u.id != owner)
        trading.set_lists_public(offerer, True)
        collection.set_quantities(offerer, printing, quantity=1, trade_quantity=1)
        names = [m.username for m in trading.match_my_list(owner, "wants").users]
        assert offerer.username in names and sent == []
        collection.set_quantities(offerer, printing, quantity=2, trade_quantity=2)
        assert trading.match_my_list(owner, "wants").behind_since is not None and sent == [(owner, "wants")]


@pytest.mark.parametrize("entry", made_before(30)[-1:], ids=[f["name"] for f in made_before(30)[-1:]])
def test_step_30_pages_every_players_decks_newest_change_first_from_one_index(entry, restore):
    """Step 030 adds the index "My decks" pages through: every deck the old release kept is on a
    page, newest change first, with its versions counted."""
    from deckhub.services.decks import my_decks_page
    url = restore(entry)
    _upgrade(url)
    app = make_app(url)
    D, V = models.Deck, models.DeckVersion
    with app.app_context(), database.connection_context():
        assert "deck_owner_id_updated_at_id" in {i.name for i in database.get_indexes("deck")}
        owners = [u for u in models.User.select() if D.select().where(D.owner == u).exists()]
        assert owners, "the fixture has decks"
        for user in owners:
            mine = list(D.select().where(D.owner == user).order_by(D.updated_at.desc(), D.id.desc()))
            paged = [my_decks_page(user, n, per_page=1) for n in range(1, len(mine) + 2)]
            assert [row for p in paged for row, _ in p.rows] == mine and paged[0].total == len(mine)
            assert [versions for p in paged for _, versions in p.rows] == [
                V.select().where(V.deck == deck).count() for deck in mine]


@pytest.mark.parametrize("entry", made_before(31)[-1:], ids=[f["name"] for f in made_before(31)[-1:]])
def test_step_31_counts_collection_changes_so_a_kept_list_page_shows_every_later_change(entry, restore):
    """Step 031 adds each player's count of collection changes, empty: every list page the old release's
    rows make is read afresh and then kept, and a change of a copy owned (no want or trade) shows on
    the next view."""
    from deckhub.services import collection, trading
    url = restore(entry)
    _upgrade(url)
    app = make_app(url)
    O = models.OwnedCard
    with app.app_context(), database.connection_context():
        assert models.CollectionChanges.select().count() == 0
        listing = [u for u in models.User.select()
                   if O.select().where((O.owner == u) & ((O.want_quantity > 0) | (O.trade_quantity > 0))).exists()]
        assert listing, "the fixture has a want or trade list"
        for user in listing:
            listed = [r for r in collection.export_rows(user.id) if r.want_quantity or r.trade_quantity]
            assert trading.my_list_page(user, 1, per_page=len(listed)).rows == listed
            row = O.get((O.owner == user) & ((O.want_quantity > 0) | (O.trade_quantity > 0)))
            collection.set_quantities(user, row.printing_id, quantity=row.quantity + 1)
            again = [r for r in collection.export_rows(user.id) if r.want_quantity or r.trade_quantity]
            assert again != listed and trading.my_list_page(user, 1, per_page=len(again)).rows == again
            assert models.CollectionChanges.get_by_id(user.id).changes == 1
