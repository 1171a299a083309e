"""A player's sums per set (`owned_set`, step 028) are always what their collection rows sum to: after
every kind of write the collection services make (±, typed quantities, batches, imports, a trade
lowered to the copies owned, a deck's missing cards wanted, a backup restored), after rows written
around the services and a recount, and under concurrent writers; the overview and the want & trade
list's length read them."""
from __future__ import annotations

from collections import defaultdict

import pytest

from deckhub.services import backup, checklists, deck_needs, owned_sets, tallies, trading
from deckhub.services import collection as col
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store import models
from deckhub.store.db import database
from tests.conftest import in_threads

GAME = "kaijudo"


@pytest.fixture
def alice(app):
    with database.connection_context():
        yield create_user("alice", "correct horse")


def _from_rows(uid: int) -> dict[int, tuple[int, ...]]:
    """Set id -> (printings owned, copies, foils, wanted, for trade, listed), summed in Python from the rows."""
    sums: dict[int, list[int]] = defaultdict(lambda: [0] * 6)
    O, P = models.OwnedCard, models.Printing
    for card_set, q, f, w, t in (O.select(P.card_set, O.quantity, O.foil_quantity, O.want_quantity, O.trade_quantity)
                                 .join(P).where(O.owner == uid).tuples()):
        s = sums[card_set]
        for i, v in enumerate((int(q + f > 0), q, f, w, t, int(w > 0 or t > 0))):
            s[i] += v
    return {k: tuple(v) for k, v in sums.items()}


def assert_kept(uid: int) -> None:
    rows = _from_rows(uid)
    kept = {s: tuple(v) for s, *v in models.OwnedSet.select(
        models.OwnedSet.card_set, models.OwnedSet.printings, models.OwnedSet.quantity, models.OwnedSet.foil_quantity,
        models.OwnedSet.want_quantity, models.OwnedSet.trade_quantity, models.OwnedSet.listed)
        .where(models.OwnedSet.owner == uid).tuples()}
    assert kept == rows
    assert sum(n for _, n, *_ in owned_sets.listed_sets(uid)) == sum(v[5] for v in rows.values())


def _printings(count: int, game: str = GAME) -> list[int]:
    """Printings from as many sets as possible, round robin over the game's sets."""
    by_set: dict[str, list[int]] = defaultdict(list)
    for ref in sorted((r for refs in col.game_index(game).by_card.values() for r in refs), key=lambda r: r.id):
        by_set[ref.set_code].append(ref.id)
    lanes = list(by_set.values())
    out = []
    while len(out) < count and any(lanes):
        for lane in lanes:
            if lane and len(out) < count:
                out.append(lane.pop(0))
    return out


def test_every_write_of_the_collection_keeps_its_sets_sums(alice):
    pids = _printings(12)
    uid = alice.id
    col.adjust(alice, pids[0], "quantity", 3)
    assert_kept(uid)
    col.adjust(alice, pids[0], "trade_quantity", 2)
    col.adjust(alice, pids[1], "want_quantity", 4)
    assert_kept(uid)
    col.set_quantities(alice, pids[2], quantity=2, foil_quantity=1, trade_quantity=3)  # trade capped at 3 copies
    assert_kept(uid)
    col.adjust(alice, pids[0], "quantity", -3)  # the trade is lowered to the copies owned
    assert_kept(uid)
    col.apply_changes(alice, [(pids[3], "quantity", 1), (pids[4], "foil_quantity", 2), (pids[3], "want_quantity", 1),
                              (pids[2], "quantity", -2)])
    assert_kept(uid)
    col.change_printing(alice, pids[5], set_to={"quantity": 0, "want_quantity": 0})  # a zero row changes nothing
    assert_kept(uid)
    with database.atomic():
        col.write_targets(alice, {p: {"quantity": i % 3, "want_quantity": i % 2, "trade_quantity": 1}
                                  for i, p in enumerate(pids[4:])})
    assert_kept(uid)
    data = {"game": GAME, "name": "T", "sections": {"Deck": [
        {"card": ref.card_key, "qty": 3} for ref in (col.printing_refs(pids[6:9]).values())]}}
    assert deck_needs.add_missing_to_wants(alice, data, get_catalogue(GAME))
    assert_kept(uid)
    # the overview shows the sums: a game's totals are its sets'
    rows = _from_rows(uid)
    kaijudo = next(g for g in checklists.collection_overview(alice) if g.slug == GAME)
    assert (kaijudo.totals.quantity, kaijudo.totals.foil_quantity, kaijudo.totals.want_quantity,
            kaijudo.totals.trade_quantity) == tuple(sum(v[i] for v in rows.values()) for i in range(1, 5))
    assert kaijudo.completion.owned == sum(v[0] for v in rows.values())
    assert trading.my_list_page(alice, 1, per_page=2).total == sum(v[5] for v in rows.values())


def test_an_import_and_a_restored_backup_keep_their_sets_sums(alice):
    pids = _printings(30)
    col.write_targets(alice, {p: {"quantity": 1 + i % 4, "foil_quantity": i % 2, "want_quantity": i % 3,
                                  "trade_quantity": i % 5} for i, p in enumerate(pids)})
    csv = col.export_csv(alice).encode("utf-8")
    bob = create_user("bob", "correct horse")
    col.commit_import(bob, csv)
    assert_kept(bob.id)
    assert _from_rows(bob.id) == _from_rows(alice.id)
    restored, _ = backup.import_user(backup.export_user("alice"), username="carol")
    assert_kept(restored.id)
    assert _from_rows(restored.id) == _from_rows(alice.id)


def test_a_recount_mends_rows_written_around_the_services(alice):
    pids = _printings(5)
    col.apply_changes(alice, [(p, "quantity", 2) for p in pids])
    models.OwnedCard.update(want_quantity=7).where(models.OwnedCard.printing == pids[0]).execute()
    with pytest.raises(AssertionError):
        assert_kept(alice.id)
    tallies.recount()
    assert_kept(alice.id)


def test_concurrent_writers_of_one_players_set_keep_its_sums(alice, app):
    """Threads with their own connections change different printings of the same sets at once: the
    last to count a set sees every write before it (on PostgreSQL, through the per-player lock)."""
    pids = _printings(8)
    threads = 4

    def worker(n: int) -> None:
        for i in range(10):
            col.adjust(alice.id, pids[(n + i) % len(pids)], "quantity", 1)
            col.apply_changes(alice.id, [(pids[(n * 2 + i) % len(pids)], "want_quantity", 1),
                                         (pids[(n * 3 + i + 1) % len(pids)], "foil_quantity", 1)])

    assert in_threads(threads, worker) == []
    assert_kept(alice.id)
    assert sum(v[1] for v in _from_rows(alice.id).values()) == threads * 10
