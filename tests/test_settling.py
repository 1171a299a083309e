"""A dispute settles by time as well as by votes (deckhub.services.community.agreement.settle_due):
a leading value backed by three independent players with no vote against it for a week is applied
by rule "majority" — by the hourly job, or by `deckhub settle-facts` — with no new vote arriving.

The clock is the test's own (`settle_due(now)`, or votes dated back): nothing here sleeps. The
values entered are made up for the tests, not facts about the cards.
"""
from __future__ import annotations

import datetime as dt
import logging

import pytest
from click.testing import CliRunner

from deckhub.cli import main
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community import notices
from deckhub.services.community.agreement import MAJORITY_QUIET, disputes_of, settle_due
from deckhub.services.community.audit import card_history
from deckhub.services.community.proposing import propose_facts
from deckhub.services.community.review_queue import get_proposal
from deckhub.store import models
from deckhub.store.db import database
from tests.test_agreement import NEO, OTHER_URL, URL, player

PIE = "meaty-pie"


@pytest.fixture
def db(app):
    with app.app_context(), database.connection_context():
        create_user("curie", "a long password")
        yield


def _status(proposal) -> str:
    return get_proposal(proposal.id).status


def _dispute(backers: int = 3, against: int = 1):
    """`backers` players enter Item for Meaty Pie's type, `against` players Equipment (the first
    Item first, then every Equipment, then the other Items): disputed, with no majority quiet yet."""
    names = iter(range(1, 50))
    items = [propose_facts(player(f"item{n}", next(names)), NEO, PIE, {"type": "Item"}, URL) for n in range(1)]
    others = [propose_facts(player(f"equip{n}", next(names)), NEO, PIE, {"type": "Equipment"}, OTHER_URL)
              for n in range(against)]
    items += [propose_facts(player(f"item{n}", next(names)), NEO, PIE, {"type": "Item"}, URL) for n in range(1, backers)]
    return items, others


def _date_votes_back() -> None:
    """Every vote a week and an hour older (the clock of a worker that runs the job later)."""
    for vote in models.FactVote.select():
        models.FactVote.update(created_at=vote.created_at - MAJORITY_QUIET - dt.timedelta(hours=1)).where(
            models.FactVote.id == vote.id).execute()


def test_a_majority_that_holds_a_week_settles_with_no_new_vote(db, caplog):
    items, (equipment,) = _dispute()
    start = models.utcnow()
    assert {_status(p) for p in items + [equipment]} == {"disputed"}   # the vote against is fresh
    assert settle_due(start) == [] and settle_due(start + MAJORITY_QUIET - dt.timedelta(minutes=5)) == []
    assert get_catalogue(NEO).get(PIE).type is None

    with caplog.at_level(logging.INFO, logger="deckhub.services.community.agreement"):
        (settled,) = settle_due(start + MAJORITY_QUIET + dt.timedelta(minutes=5))
    assert (settled.card_key, settled.field, settled.value, settled.rule) == (PIE, "type", "Item", "majority")
    assert get_catalogue(NEO).get(PIE).type == "Item" and disputes_of(NEO, PIE) == {}
    (change,) = card_history(NEO, PIE)
    assert (change.rule, change.new_value, change.proposal.id) == ("majority", "Item", items[0].id)
    assert "meaty-pie type as 'Item' by rule majority" in caplog.text
    assert [_status(p) for p in items] == ["agreed"] * 3 and _status(equipment) == "rejected"
    assert notices.recent(equipment.proposer)[0].kind == "rejected"
    assert notices.recent(items[0].proposer)[0].kind == "agreed"
    assert settle_due(start + 2 * MAJORITY_QUIET) == []                 # settled once


def test_no_majority_or_a_recent_vote_against_keeps_the_dispute(db):
    two, _ = _dispute(backers=2, against=1)                             # two against one: no clear majority
    assert settle_due(models.utcnow() + 3 * MAJORITY_QUIET) == []
    assert _status(two[0]) == "disputed" and get_catalogue(NEO).get(PIE).type is None
    # a third backer makes a majority, but a new vote against it starts the week again
    third = propose_facts(player("late", 60), NEO, PIE, {"type": "Item"}, URL)
    models.FactVote.update(created_at=models.utcnow() - 2 * MAJORITY_QUIET).execute()
    propose_facts(player("dissent", 61), NEO, PIE, {"type": "Equipment"}, OTHER_URL)
    assert settle_due(models.utcnow() + MAJORITY_QUIET / 2) == []
    assert _status(third) == "disputed"
    assert [s.value for s in settle_due(models.utcnow() + MAJORITY_QUIET + dt.timedelta(hours=1))] == ["Item"]


def test_the_hourly_queue_job_settles_what_is_due(db):
    from deckhub.services import tasks  # noqa: F401 — every task registered, as a worker has them
    from deckhub.services.community.timers import settle_disputes
    from deckhub.services.jobs import huey
    name = huey._registry.task_to_string(settle_disputes.task_class)
    assert name == "deckhub.services.community.timers.settle_disputes" and name in huey._registry._registry
    assert settle_disputes.task_class in {type(t) for t in huey.read_periodic(dt.datetime(2026, 1, 1, 5, 23))}
    assert settle_disputes.task_class not in {type(t) for t in huey.read_periodic(dt.datetime(2026, 1, 1, 5, 24))}
    items, _ = _dispute()
    assert settle_disputes.call_local() == "0 disputed fields settled"
    _date_votes_back()
    assert settle_disputes.call_local() == "1 disputed field settled"
    assert _status(items[0]) == "agreed" and get_catalogue(NEO).get(PIE).type == "Item"


def test_settle_facts_command_settles_what_is_due_and_says_so(databases, monkeypatch):
    from deckhub.app import create_app
    url = databases.with_catalogues()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    runner = CliRunner()
    with create_app({"TESTING": True, "DATABASE_URL": url}).app_context(), database.connection_context():
        create_user("curie", "a long password")
        _dispute()
    first = runner.invoke(main, ["settle-facts"], catch_exceptions=False)
    assert first.exit_code == 0 and first.stdout.strip() == "0 disputed fields settled"
    with create_app({"TESTING": True, "DATABASE_URL": url}).app_context(), database.connection_context():
        _date_votes_back()
    done = runner.invoke(main, ["settle-facts"], catch_exceptions=False)
    assert done.exit_code == 0
    assert done.stdout.splitlines() == [f"{NEO} {PIE}: type = 'Item' (rule: majority)", "1 disputed field settled"]
    assert "meaty-pie type as 'Item' by rule majority" in done.output  # the log line, as the worker's
    databases.drop(url)
