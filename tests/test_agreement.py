"""Players settle unknown card facts together (deckhub.services.community.agreement, trust,
staleness, confirming): two independent players agreeing apply a value, different values dispute
it, trusted players apply at once with a check afterwards, a stale proposal is held.

Values entered here (bank values, types) are made up for the tests, not facts about the cards.
"""
from __future__ import annotations

import datetime as dt
import time

import pytest
from peewee import IntegrityError

from deckhub.core.session_values import missing_values
from deckhub.core.engine import get_engine
from deckhub.games import all_games
from deckhub.services.accounts import create_user, network_key
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community import notices, trust
from deckhub.services.community.agreement import disputes_of, settle_dispute
from deckhub.services.community.audit import card_history, field_origins
from deckhub.services.community.confirming import confirm
from deckhub.services.community.errors import CommunityError, NotAllowed
from deckhub.services.community.fields import PRINTED, fields_by_key
from deckhub.services.community.proposing import propose_batch, propose_facts
from deckhub.services.community.reverting import revert
from deckhub.services.community.review_queue import get_proposal
from deckhub.services.community.reviewing import approve
from deckhub.services.community.staleness import Held
from deckhub.store import models
from deckhub.store.db import database
from tests.test_community import darigan

NEO = "neopets-tcg"
URL = "https://example.org/neopets-tcg/checklist"
OTHER_URL = "https://cards.example.net/list"


@pytest.fixture
def db(app):
    with app.app_context(), database.connection_context():
        yield


@pytest.fixture
def curator(db):
    made = create_user("curie", "a long password")  # the first account is a curator
    assert made.is_curator
    return made


def player(name: str, network: int, *, days: int = 4, deck: bool = True) -> models.User:
    """A player signed up from network 10.N.0.0/24 `days` ago, with a deck when `deck` (activity).
    (Made without hashing a password: these tests never sign in, and twenty hashes take seconds.)"""
    made = models.User.create(username=name, password_hash="!", signup_network=network_key(f"10.{network}.0.{len(name)}"),
                              created_at=models.utcnow() - dt.timedelta(days=days))
    if deck:
        models.Deck.create(owner=made.id, game=NEO, format="standard", name=f"{name}'s deck")
    return made


def test_a_web_sign_up_records_its_network_and_accounts_of_one_network_share_it(curator):
    near = create_user("near", "a long password", signup_address="192.0.2.10")
    also = create_user("also", "a long password", signup_address="192.0.2.99")
    far = create_user("far", "a long password", signup_address="198.51.100.10")
    assert near.signup_network == also.signup_network != far.signup_network
    assert "192.0.2" not in near.signup_network and create_user("cli", "a long password").signup_network is None


def card(key: str):
    return get_catalogue(NEO).get(key)


def status(proposal) -> str:
    return get_proposal(proposal.id).status


def kinds(user) -> list[str]:
    return [n.kind for n in notices.recent(user)]


def test_two_players_agreeing_settle_a_fact_and_different_values_dispute_another(curator):
    ann, bob, cat = player("ann", 1), player("bob", 2), player("cat", 3)
    engine = get_engine(NEO)
    assert missing_values(engine, darigan(), get_catalogue(NEO))["the-thieves-code"] == ["bank_value"]

    first = propose_facts(ann, NEO, "the-thieves-code", {"bank_value": "2"}, URL)
    assert status(first) == "pending" and card("the-thieves-code").attrs.get("bank_value") is None
    second = propose_facts(bob, NEO, "the-thieves-code", {"bank_value": 2}, PRINTED)
    assert status(first) == status(second) == "agreed"
    thieves = card("the-thieves-code")
    assert thieves.attrs["bank_value"] == 2 and thieves.provenance["bank_value"] == "contributed"
    assert "the-thieves-code" not in missing_values(engine, darigan(), get_catalogue(NEO))  # no curator acted
    (change,) = card_history(NEO, "the-thieves-code")
    assert (change.rule, change.actor.username, change.proposal.id) == ("agreement", "bob", first.id)
    (origin,) = [o for o in field_origins(thieves) if o.key == "bank_value"]
    assert origin.by == "ann" and origin.reviewer is None
    row = models.Card.get((models.Card.game == NEO) & (models.Card.key == "the-thieves-code"))
    assert row.data["contributions"]["bank_value"]["agreed_by"] == ["bob"]
    assert kinds(ann) == ["agreed"] and kinds(bob) == ["agreed"]

    # a third player's different type for another unknown field: disputed, unknown to the engine
    item = propose_facts(ann, NEO, "meaty-pie", {"type": "Item"}, URL)
    equipment = propose_facts(cat, NEO, "meaty-pie", {"type": "Equipment"}, OTHER_URL)
    assert status(item) == status(equipment) == "disputed"
    assert card("meaty-pie").type is None
    assert missing_values(engine, darigan(), get_catalogue(NEO))["meaty-pie"] == ["type"]
    assert sorted((c.value, c.supporters, c.sources) for c in disputes_of(NEO, "meaty-pie")["type"]) == [
        ("Equipment", ("cat",), (OTHER_URL,)), ("Item", ("ann",), (URL,))]
    assert "disputed" in kinds(cat)

    # a curator settles the dispute; the losing value's proposal is rejected and its author told
    (chosen,) = [c.key for c in disputes_of(NEO, "meaty-pie")["type"] if c.value == "Item"]
    settle_dispute(curator, NEO, "meaty-pie", "type", chosen)
    assert card("meaty-pie").type == "Item" and disputes_of(NEO, "meaty-pie") == {}
    assert (status(item), status(equipment)) == ("approved", "rejected")
    assert kinds(cat)[0] == "rejected"

    # an agreed value is revertible; its votes go with it, so the next entry starts afresh
    revert(first.id, curator, "misread the card")
    assert card("the-thieves-code").attrs.get("bank_value") is None
    assert not models.FactVote.select().where(models.FactVote.card_key == "the-thieves-code").exists()


def test_facts_files_agree_and_dispute_like_every_other_entry(curator):
    from deckhub.services import facts
    ann, bob, cat = player("ann", 1), player("bob", 2), player("cat", 3)
    thieves = card("the-thieves-code").name

    def upload(user, value, source):
        body = f'game,name,bank_value,type,source\n{NEO},"{thieves}",{value},,{source}\n'
        (made,) = facts.commit_import(user, body.encode("utf-8"))
        return made

    first = upload(ann, 2, URL)
    assert first.status == "pending" and card("the-thieves-code").attrs.get("bank_value") is None
    assert upload(bob, 2, OTHER_URL).status == "agreed" == status(first)  # no curator acted
    assert card("the-thieves-code").attrs["bank_value"] == 2
    (change,) = card_history(NEO, "the-thieves-code")
    assert (change.rule, change.actor.username) == ("agreement", "bob")
    late = upload(cat, 3, URL)  # a known value now: it changes only by a curator
    assert late.status == "pending" and card("the-thieves-code").attrs["bank_value"] == 2


def test_the_card_api_keeps_a_disputed_field_null_and_names_its_values(app, client):
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")
        ann, cat = player("ann", 1), player("cat", 3)
        propose_facts(ann, NEO, "meaty-pie", {"type": "Item"}, URL)
        propose_facts(cat, NEO, "meaty-pie", {"type": "Equipment"}, PRINTED)
    shown = client.get(f"/api/cards/{NEO}/meaty-pie").get_json()
    assert shown["type"] is None
    assert sorted((d["value"], d["supporters"], d["sources"]) for d in shown["disputed"]["type"]) == [
        ("Equipment", ["cat"], ["printed card owned by cat"]), ("Item", ["ann"], [URL])]
    assert client.get(f"/api/cards/{NEO}/the-thieves-code").get_json()["disputed"] == {}


def test_only_independent_established_players_agree(curator, monkeypatch):
    ann, twin = player("ann", 1), player("annie", 1)          # one network: the same person, maybe
    propose_facts(ann, NEO, "the-thieves-code", {"bank_value": 2}, URL)
    same = propose_facts(twin, NEO, "the-thieves-code", {"bank_value": 2}, URL)
    assert status(same) == "pending" and card("the-thieves-code").attrs.get("bank_value") is None

    fresh = player("newt", 5, days=0)                         # too new
    idle = player("idle", 6, deck=False)                      # nothing done yet
    assert status(propose_facts(fresh, NEO, "meaty-pie", {"type": "Item"}, URL)) == "pending"
    assert status(propose_facts(idle, NEO, "meaty-pie", {"type": "Item"}, URL)) == "pending"
    assert card("meaty-pie").type is None
    # a site that sets both thresholds to 0 lets them count: the next entry settles it
    monkeypatch.setenv("DECKHUB_AGREEMENT_MIN_ACCOUNT_DAYS", "0")
    monkeypatch.setenv("DECKHUB_AGREEMENT_MIN_ACTIVITY", "0")
    mine = propose_facts(fresh, NEO, "meaty-pie", {"type": "Item", "bank_value": 1}, URL)
    assert card("meaty-pie").type == "Item" and status(mine) == "pending"  # its bank value still waits


def test_confirm_enters_the_same_value_once_and_never_ones_own(curator):
    ann, bob = player("ann", 1), player("bob", 2)
    first = propose_facts(ann, NEO, "the-thieves-code", {"bank_value": 3}, URL)
    with pytest.raises(NotAllowed):
        confirm(ann, first.id)
    mine = confirm(bob, first.id)
    assert mine.proposer_id == bob.id and status(first) == status(mine) == "agreed"
    assert card("the-thieves-code").attrs["bank_value"] == 3
    # the database keeps one vote per player per field
    with pytest.raises(IntegrityError), database.atomic():
        models.FactVote.create(game=NEO, card_key="the-thieves-code", field="bank_value", value=3, value_key="x",
                               voter=bob.id, proposal=mine.id)


def test_a_trusted_players_values_apply_at_once_wait_for_a_check_and_a_revert_costs_trust(curator, monkeypatch):
    monkeypatch.setenv("DECKHUB_TRUST_AFTER", "2")
    tess, rex = player("tess", 1), player("rex", 2)
    learned = propose_facts(tess, NEO, "blue-skeith", {"strength": 3, "agility": 4}, URL)
    approve(learned.id, curator)
    assert trust.standing(tess.id).trusted and not trust.standing(rex.id).trusted

    applied = propose_facts(tess, NEO, "the-thieves-code", {"bank_value": 2}, URL)
    assert status(applied) == "applied" and card("the-thieves-code").attrs["bank_value"] == 2
    (waiting,) = trust.recently_applied(NEO)
    assert (waiting.proposal.id, waiting.rule) == (applied.id, "trusted")
    with pytest.raises(NotAllowed):
        trust.accept(tess, [waiting.id])       # never one's own
    with pytest.raises(NotAllowed):
        trust.accept(rex, [waiting.id])        # not trusted
    # a source never seen before sends a trusted player's entry to the queue, with the reason
    flagged = propose_facts(tess, NEO, "meaty-pie", {"type": "Item"}, OTHER_URL)
    assert status(flagged) == "pending" and "never seen before" in get_proposal(flagged.id).flags[0]
    assert card("meaty-pie").type is None

    revert(applied.id, curator, "wrong card")
    assert card("the-thieves-code").attrs.get("bank_value") is None and trust.recently_applied(NEO) == []
    assert not trust.standing(tess.id).trusted  # the revert lowered her trust


def test_a_proposal_made_against_a_value_changed_since_is_held_and_its_author_told(curator):
    ann, bob = player("ann", 1, days=0), player("bob", 2, days=0)  # new players: their entries queue
    mine = propose_facts(ann, NEO, "the-thieves-code", {"bank_value": 2}, URL)
    theirs = propose_facts(bob, NEO, "the-thieves-code", {"bank_value": 3}, URL)
    approve(theirs.id, curator)
    with pytest.raises(Held):
        approve(mine.id, curator)
    assert status(mine) == "held" and card("the-thieves-code").attrs["bank_value"] == 3
    (notice,) = notices.recent(ann)
    assert notice.kind == "held" and "is now 3" in notice.text
    assert kinds(bob) == ["approved"]


def test_a_simulated_community_finishes_a_set_with_curators_only_for_disputes(curator):
    """20 players type a 140-card set's types and bank values, each card by two players (first
    pass, then a second pass checking another player's range), 5% deliberately disagreeing."""
    catalogue = get_catalogue(NEO)
    cards = sorted({c.key: c for c in catalogue if any(p.set_code == "battle-for-meridell" for p in c.printings)}.values(),
                   key=lambda c: c.key)[:140]
    assert len(cards) == 140
    types = fields_by_key(NEO)["type"].choices
    truth = {c.key: {"type": c.type or types[i % len(types)],
                     "bank_value": c.attrs.get("bank_value", i % 7)} for i, c in enumerate(cards)}
    unknown = ({(c.key, "type") for c in cards if c.type is None}
               | {(c.key, "bank_value") for c in cards if c.attrs.get("bank_value") is None})
    open_banks = [c.key for c in cards if (c.key, "bank_value") in unknown]
    disagree = set(open_banks[::len(open_banks) // 7][:7])            # 7 of 140 cards: 5%
    assert len(disagree) == 7
    players = [player(f"player{n:02d}", n) for n in range(20)]
    started = time.perf_counter()
    for n, who in enumerate(players):                                  # first pass: each types 7 cards
        mine = cards[n * 7:(n + 1) * 7]
        propose_batch(who, NEO, [(c.key, f, truth[c.key][f]) for c in mine for f in ("type", "bank_value")], URL,
                      set_code="battle-for-meridell")
    assert models.Proposal.select().where(models.Proposal.status != "pending").count() == 0
    first_pass = time.perf_counter() - started
    for n, who in enumerate(players):                                  # second pass: the next player's range
        theirs = cards[((n + 1) % 20) * 7:((n + 1) % 20 + 1) * 7]
        cells = [(c.key, f, truth[c.key][f] + 1 if f == "bank_value" and c.key in disagree else truth[c.key][f])
                 for c in theirs for f in ("type", "bank_value")]
        propose_batch(who, NEO, cells, PRINTED, set_code="battle-for-meridell")
    seconds = time.perf_counter() - started

    catalogue = get_catalogue(NEO)
    for c in cards:
        for f in ("type", "bank_value"):
            value = catalogue.get(c.key).type if f == "type" else catalogue.get(c.key).attrs.get(f)
            assert value == (None if c.key in disagree and f == "bank_value" else truth[c.key][f]), (c.key, f)
    assert {k for c in cards if disputes_of(NEO, (k := c.key))} == disagree
    statuses = {s for (s,) in models.Proposal.select(models.Proposal.status).tuples()}
    assert statuses <= {"agreed", "disputed"}                         # nothing waits for a curator
    assert models.Proposal.select().where(models.Proposal.status == "disputed").count() == 2 * len(disagree)
    rules = {r for (r,) in models.FactChange.select(models.FactChange.rule).tuples()}
    assert rules == {"agreement"}
    # the curator's only work: the disputes
    for key in disagree:
        right = next(c.key for c in disputes_of(NEO, key)["bank_value"] if c.value == truth[key]["bank_value"])
        settle_dispute(curator, NEO, key, "bank_value", right)
    assert all(get_catalogue(NEO).get(k).attrs["bank_value"] == truth[k]["bank_value"] for k in disagree)
    assert models.Proposal.select().where(models.Proposal.status.in_(("pending", "disputed"))).count() == 0
    print(f"simulated community: {len(unknown)} unknown fields; first pass (20 batches, votes only) {first_pass:.2f} s, "
          f"second pass (20 batches settling them) {seconds - first_pass:.2f} s")


def _signed_in(app, name: str):
    client = app.test_client()
    assert client.post("/login", data={"username": name, "password": "a long password"}).status_code == 302
    return client


def test_the_card_page_shows_entered_values_with_confirm_and_a_curator_settles_a_dispute(app):
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")
        for n, name in enumerate(("ann", "bob", "cat")):
            made = create_user(name, "a long password", signup_address=f"10.{n}.0.1")
            models.User.update(created_at=models.utcnow() - dt.timedelta(days=4)).where(models.User.id == made.id).execute()
            models.Deck.create(owner=made.id, game=NEO, format="standard", name="deck")
        ann = models.User.get(models.User.username == "ann")
        waiting = propose_facts(ann, NEO, "the-thieves-code", {"bank_value": 2}, URL)
        propose_facts(ann, NEO, "meaty-pie", {"type": "Item"}, URL)
    bob, cat, curie = _signed_in(app, "bob"), _signed_in(app, "cat"), _signed_in(app, "curie")
    page = bob.get(f"/games/{NEO}/cards/the-thieves-code").get_data(as_text=True)
    assert "waiting for a second player" in page and f"/proposals/{waiting.id}/confirm" in page
    confirmed = bob.post(f"/proposals/{waiting.id}/confirm", data={})
    assert confirmed.status_code == 302
    page = bob.get(f"/games/{NEO}/cards/the-thieves-code").get_data(as_text=True)
    assert "agreed by bob" in page and "waiting for a second player" not in page
    assert "Confirmed: another player entered the same values, so the catalogue uses them now." in page

    pie_id = models.Proposal.get(models.Proposal.card_key == "meaty-pie").id
    cat.post(f"/games/{NEO}/propose/card/meaty-pie", data={"f_type": "Equipment", "source_url": OTHER_URL, "source_kind": "url"})
    page = curie.get(f"/games/{NEO}/cards/meaty-pie").get_data(as_text=True)
    assert "disputed" in page and "Settle as" in page and "Settle as" not in cat.get(f"/games/{NEO}/cards/meaty-pie").get_data(as_text=True)
    assert cat.post(f"/proposals/{pie_id}/confirm").status_code == 302  # cat has a vote: it replaces it with Item
    with app.app_context(), database.connection_context():
        assert card("meaty-pie").type == "Item"
        assert [n.kind for n in notices.recent(models.User.get(models.User.username == "ann"))][:1] == ["agreed"]
    assert "agreed" in _signed_in(app, "ann").get("/notices").get_data(as_text=True)
    assert "Values entered for unknown facts" in bob.get("/contributors/ann").get_data(as_text=True)
    assert bob.get("/review/recent").status_code == 403 and curie.get("/review/recent").status_code == 200
    assert bob.post("/proposals/999999/confirm").status_code == 404


def test_proposals_api_with_a_token_sends_confirms_and_lists_with_the_same_rules(app):
    from deckhub.services import api_tokens
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")
        tokens = {}
        for n, name in enumerate(("ann", "bob")):
            made = player(name, n + 1)
            tokens[name] = api_tokens.create(made, "sheet")[1]
    api = app.test_client()

    def call(method, path, who, **kw):
        return api.open(path, method=method, headers={"Authorization": f"Bearer {tokens[who]}"}, **kw)

    sent = call("POST", "/api/proposals", "ann", json={"game": NEO, "source": URL, "cards": [
        {"card": "the-thieves-code", "values": {"bank_value": 2}}, {"card": "meaty-pie", "values": {"type": "Item"}}]})
    assert sent.status_code == 201, sent.get_json()
    made = sent.get_json()["proposals"]
    assert sorted((p["card"], p["status"]) for p in made) == [("meaty-pie", "queued"), ("the-thieves-code", "queued")]
    thieves = next(p["id"] for p in made if p["card"] == "the-thieves-code")
    assert call("POST", f"/api/proposals/{thieves}/confirm", "ann").status_code == 403      # not one's own
    confirmed = call("POST", f"/api/proposals/{thieves}/confirm", "bob")
    assert confirmed.status_code == 201 and confirmed.get_json()["proposals"][0]["status"] == "agreed"
    other = call("POST", "/api/proposals", "bob", json={"game": NEO, "source": PRINTED,
                                                        "cards": [{"card": "meaty-pie", "values": {"type": "Equipment"}}]})
    assert other.status_code == 201 and other.get_json()["proposals"][0]["status"] == "disputed"
    listed = call("GET", "/api/proposals?status=agreed", "ann").get_json()["proposals"]
    assert [p["id"] for p in listed] == [thieves]
    assert api.get(f"/api/cards/{NEO}/the-thieves-code").get_json()["bank_value"] == 2
    # the same checks as the site: a bad value, an unknown card, a malformed body, no token
    bad = call("POST", "/api/proposals", "ann", json={"game": NEO, "source": URL,
                                                      "cards": [{"card": "meaty-pie", "values": {"bank_value": "lots"}}]})
    assert bad.status_code == 400 and "whole number" in bad.get_json()["error"]
    assert call("POST", "/api/proposals", "ann", json={"game": NEO, "source": URL, "cards": [
        {"card": "no-such-card", "values": {"bank_value": 1}}]}).status_code == 404
    assert call("POST", "/api/proposals", "ann", json={"game": NEO, "cards": []}).status_code == 400
    assert api.post("/api/proposals", json={"game": NEO, "source": URL, "cards": []}).status_code == 401
    assert call("POST", "/api/proposals/999999/confirm", "bob").status_code == 404
    document = api.get("/api/openapi.json").get_json()
    assert {"/api/proposals", "/api/proposals/{proposal_id}/confirm"} <= set(document["paths"])


def test_claims_work_lists_and_the_progress_chart_of_a_set(app):
    from deckhub.services.community import work_lists
    from deckhub.services.community.errors import CommunityError
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")
        ann = player("ann", 1)
        bob = create_user("bob", "a long password", signup_address="10.2.0.1")
        models.User.update(created_at=models.utcnow() - dt.timedelta(days=4)).where(models.User.id == bob.id).execute()
        models.Deck.create(owner=bob.id, game=NEO, format="standard", name="deck")
        code = next(p.set_code for p in card("meaty-pie").printings)
        before = work_lists.progress(NEO, code)
        items = work_lists.work_list(NEO, code)
        assert any(w.card.key == "meaty-pie" and w.field == "type" and not w.disputed for w in items)
        mine = work_lists.claim(ann, NEO, code, 1, 20)
        with pytest.raises(CommunityError, match="ann is working on numbers 1–20"):
            work_lists.claim(bob, NEO, code, 15, 30)
        with pytest.raises(CommunityError, match="at most"):
            work_lists.claim(bob, NEO, code, 21, 200)
        propose_facts(ann, NEO, "meaty-pie", {"type": "Item"}, URL)
        propose_facts(models.User.get_by_id(bob.id), NEO, "meaty-pie", {"type": "Item"}, PRINTED)
        after = work_lists.progress(NEO, code)
        assert after[-1][1] == before[-1][1] + 1 and after[-2][1] == before[-2][1]  # today's agreement, not yesterday
        assert not any(w.card.key == "meaty-pie" and w.field == "type" for w in work_lists.work_list(NEO, code))
    bob_web = _signed_in(app, "bob")
    page = bob_web.get(f"/games/{NEO}/sets/{code}/work").get_data(as_text=True)
    assert "Numbers 1–20" in page and "ann" in page and "Still unknown" in page
    assert bob_web.post(f"/games/{NEO}/sets/{code}/claims", data={"first": 30, "last": 40}).status_code == 302
    assert "Numbers 30–40" in bob_web.get(f"/games/{NEO}/sets/{code}/work").get_data(as_text=True)
    assert bob_web.post(f"/games/{NEO}/sets/{code}/claims/{mine.id}/release").status_code == 404  # not his
    chart = bob_web.get(f"/games/{NEO}/sets/{code}/progress.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml" and b"<script" not in chart.data
    assert bob_web.get(f"/games/{NEO}/sets/no-such-set/work").status_code == 404


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_every_game_has_a_dated_versioned_dump_with_each_facts_provenance(app, client, slug):
    if slug == NEO:
        with app.app_context(), database.connection_context():
            create_user("curie", "a long password")
            ann, bob, cat = player("ann", 1), player("bob", 2), player("cat", 3)
            propose_facts(ann, NEO, "the-thieves-code", {"bank_value": 2}, URL)
            propose_facts(bob, NEO, "the-thieves-code", {"bank_value": 2}, PRINTED)
            propose_facts(ann, NEO, "meaty-pie", {"type": "Item"}, URL)
            propose_facts(cat, NEO, "meaty-pie", {"type": "Equipment"}, URL)
    assert f"/games/{slug}/catalogue.json" in client.get(f"/games/{slug}").get_data(as_text=True)
    answer = client.get(f"/games/{slug}/catalogue.json")
    assert answer.status_code == 200 and f"deckhub-{slug}-" in answer.headers["Content-Disposition"]
    dump = answer.get_json()
    assert (dump["format"], dump["version"], dump["game"]) == ("deckhub-catalogue-dump", 1, slug)
    assert dt.date.fromisoformat(dump["date"]) and len(dump["cards"]) == len(get_catalogue_of(app, slug))
    assert all(f["how"] in ("imported", "derived", "contributed") for c in dump["cards"] for f in c["facts"].values())
    if slug == NEO:
        cards = {c["id"]: c for c in dump["cards"]}
        bank = cards["the-thieves-code"]["facts"]["bank_value"]
        assert (bank["value"], bank["how"], bank["by"], bank["agreed_by"], bank["rule"]) == (2, "contributed", "ann", ["bob"], "agreement")
        assert "type" not in cards["meaty-pie"]["facts"]
        assert sorted(d["value"] for d in cards["meaty-pie"]["disputed"]["type"]) == ["Equipment", "Item"]


def get_catalogue_of(app, slug):
    with app.app_context(), database.connection_context():
        return list(get_catalogue(slug))


def test_simultaneous_confirmations_each_count_once_and_apply_the_value_once(app):
    """Six players confirm one pending value at the same moment: every vote is kept, the value is
    written once (one FactChange), and every proposal ends agreed."""
    import threading
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")
        first = player("ann", 1)
        others = [player(f"p{n}", n + 10).id for n in range(6)]
        pending = propose_facts(first, NEO, "the-thieves-code", {"bank_value": 4}, URL)
    barrier, problems = threading.Barrier(len(others)), []

    def run(user_id: int):
        with app.app_context(), database.connection_context():
            barrier.wait()
            try:
                confirm(models.User.get_by_id(user_id), pending.id)
            except Exception as exc:  # noqa: BLE001 - every failure is reported below
                problems.append(exc)

    threads = [threading.Thread(target=run, args=(uid,)) for uid in others]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    with app.app_context(), database.connection_context():
        statuses = [p.status for p in models.Proposal.select().order_by(models.Proposal.id)]
        changes = list(models.FactChange.select().where(models.FactChange.card_key == "the-thieves-code"))
        votes = models.FactVote.select().where(models.FactVote.card_key == "the-thieves-code").count()
        assert card("the-thieves-code").attrs["bank_value"] == 4
    # a confirmation that arrived after the value was settled is either one more backer (agreed) or,
    # when the player's page already showed the value, refused as having nothing left to confirm
    assert all(isinstance(p, CommunityError) and "nothing" in str(p).lower() for p in problems)
    assert len(changes) == 1 and changes[0].rule == "agreement"
    assert votes == len(statuses) == 1 + len(others) - len(problems) and set(statuses) == {"agreed"}


def test_api_confirm_takes_the_confirming_players_own_source_and_scan(app):
    """`POST /api/proposals/ID/confirm` as the web form: the confirmer's own source (checked as any
    proposal's) and a Base64 scan; without a body, the confirmed proposal's source as before."""
    import base64

    from deckhub.services import api_tokens
    from deckhub.services.community.review_queue import scans_of
    from tests.test_card_faces import png
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")
        tokens = {name: api_tokens.create(player(name, n + 1), "sheet")[1] for n, name in enumerate(("ann", "bob", "cat"))}
        ann = models.User.get(models.User.username == "ann")
        thieves = propose_facts(ann, NEO, "the-thieves-code", {"bank_value": 2}, URL)
        pie = propose_facts(ann, NEO, "meaty-pie", {"type": "Item"}, URL)
    api = app.test_client()

    def confirm_as(who, proposal, **kw):
        return api.post(f"/api/proposals/{proposal.id}/confirm", headers={"Authorization": f"Bearer {tokens[who]}"}, **kw)

    refused = confirm_as("bob", thieves, json={"source": "not a web address"})
    assert refused.status_code == 400 and "source" in refused.get_json()["error"].lower()
    assert confirm_as("bob", thieves, json={"source": URL, "colour": "red"}).status_code == 400   # unknown field
    assert confirm_as("bob", thieves, json={"scan": "not base64!"}).status_code == 400
    assert confirm_as("bob", thieves, json={"scan": base64.b64encode(b"not an image").decode()}).status_code == 400
    mine = confirm_as("bob", thieves, json={"source": PRINTED, "scan": base64.b64encode(png()).decode()})
    assert mine.status_code == 201, mine.get_json()
    (made,) = mine.get_json()["proposals"]
    assert made["status"] == "agreed"
    with app.app_context(), database.connection_context():
        assert get_proposal(made["id"]).source == PRINTED and len(scans_of([made["id"]])[made["id"]]) == 1
        assert card("the-thieves-code").attrs["bank_value"] == 2
    # the old body, none at all (or an empty object), still confirms from the proposal's own source
    old = confirm_as("cat", pie)
    assert old.status_code == 201 and old.get_json()["proposals"][0]["status"] == "agreed"
    with app.app_context(), database.connection_context():
        assert get_proposal(old.get_json()["proposals"][0]["id"]).source == URL
    assert confirm_as("cat", thieves, json={}).status_code == 400   # nothing left to confirm: the card knows it
    document = api.get("/api/openapi.json").get_json()
    confirm_op = document["paths"]["/api/proposals/{proposal_id}/confirm"]["post"]
    assert confirm_op["requestBody"]["required"] is False
    assert set(document["components"]["schemas"]["ProposalConfirm"]["properties"]) == {"source", "scan"}


def test_a_trusted_players_web_entry_is_in_recently_applied_and_a_revert_there_lowers_their_trust(app, monkeypatch):
    """Through the pages: a trusted player's value for an unknown field applies at once, is listed
    under *Recently applied* (never checkable by its author), and a curator's revert there takes it
    out of the card and lowers the author's trust."""
    monkeypatch.setenv("DECKHUB_TRUST_AFTER", "2")
    with app.app_context(), database.connection_context():
        curie = create_user("curie", "a long password")
        tess = create_user("tess", "a long password", signup_address="10.1.0.1")
        models.User.update(created_at=models.utcnow() - dt.timedelta(days=4)).where(models.User.id == tess.id).execute()
        approve(propose_facts(tess, NEO, "blue-skeith", {"strength": 3, "agility": 4}, URL).id, curie)
        assert trust.standing(tess.id).trusted
    tess_web, curie_web = _signed_in(app, "tess"), _signed_in(app, "curie")
    sent = tess_web.post(f"/games/{NEO}/propose/card/the-thieves-code",
                         data={"f_bank_value": "2", "source_kind": "url", "source_url": URL}, follow_redirects=True)
    assert "applied at once (you are trusted)" in sent.get_data(as_text=True)
    with app.app_context(), database.connection_context():
        assert card("the-thieves-code").attrs["bank_value"] == 2
        applied = models.Proposal.get(models.Proposal.card_key == "the-thieves-code")
    listed = curie_web.get("/review/recent").get_data(as_text=True)
    assert "the-thieves-code" in listed and ">tess<" in listed and f"/review/recent/proposals/{applied.id}/revert" in listed
    own = tess_web.get("/review/recent").get_data(as_text=True)
    assert "the-thieves-code" in own and "yours: another player checks it" in own and "/revert" not in own
    assert tess_web.post(f"/review/recent/proposals/{applied.id}/revert", data={"reason": "mine"}).status_code == 403
    reverted = curie_web.post(f"/review/recent/proposals/{applied.id}/revert", data={"reason": "wrong card"})
    assert reverted.status_code == 302
    assert "Nothing waits for a check." in curie_web.get("/review/recent").get_data(as_text=True)
    with app.app_context(), database.connection_context():
        assert card("the-thieves-code").attrs.get("bank_value") is None
        assert not trust.standing(tess.id).trusted
    assert tess_web.get("/review/recent").status_code == 403   # no longer trusted: no longer a checker


@pytest.mark.parametrize("statuses, as_one, told", [
    (["pending", "pending"], True, " waits for a curator."),
    (["pending", "pending"], False, " wait for a curator."),
    (["agreed", "pending", "disputed", "agreed"], False,
     ": 2 agreed with another player's and used now, 1 disputed, 1 waits for a curator."),
    (["applied"], True, ": 1 applied at once (you are trusted)."),
])
def test_many_entries_at_once_say_what_became_of_them(statuses, as_one, told):
    from deckhub.web.community import outcomes
    assert outcomes(statuses, as_one=as_one) == told
