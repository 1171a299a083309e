"""`export-user` / `import-user` move everything a user owns (SQLite -> PostgreSQL in the PostgreSQL run),
in a file only its owner can read that holds no password hash unless asked."""
from __future__ import annotations

import json
import stat

from click.testing import CliRunner

from conftest import make_app
from deckhub.services import api_tokens, backup, card_values, collection, simulations, trading
from deckhub.store import models
from deckhub.cli import main
from deckhub.services.catalogue_loading import load_games
from deckhub.store.db import database
from deckhub.store import schema

from test_backup import BULL_RUSH

PASSWORD = "correct horse"


def _client(app, name: str):
    client = app.test_client()
    client.post("/signup", data={"username": name, "password": PASSWORD, "confirm": PASSWORD})
    return client


def _import_deck(client, name: str, public: bool = False) -> int:
    deck_id = int(client.post("/decks/import", data={"name": name, "game": "kaijudo", "format": "",
                                                     "decklist": BULL_RUSH}).location.rsplit("/", 1)[1])
    if public:
        with database.connection_context():
            models.Deck.update(is_public=True).where(models.Deck.id == deck_id).execute()
    return deck_id


def _one_of_everything(app) -> None:
    """`mover` owns one of everything; `other` copies one of mover's decks, mover copies one of
    other's, and other reviewed mover's proposal."""
    other = _client(app, "other")  # the site's first account: a curator
    theirs = _import_deck(other, "Their rush", public=True)
    mover = _client(app, "mover")
    mine = _import_deck(mover, "Bull Rush", public=True)
    mover.post(f"/decks/{mine}/cards", data={"section": "Deck", "card": "argus-vigilant-seer", "delta": "1"})
    assert mover.post(f"/decks/{mine}/copy").status_code == 302  # a copy of one's own deck
    assert mover.post(f"/decks/{theirs}/copy").status_code == 302  # a copy of another's deck
    assert other.post(f"/decks/{mine}/copy").status_code == 302  # another's copy of mover's deck
    board = mover.post(f"/goldfish/decks/{mine}", data={"seed": "8", "opt_first": "on"}).location
    mover.post(f"{board}/play-out", data={"step": "0"})
    with database.connection_context():
        user = models.User.get(models.User.username == "mover")
        reviewer = models.User.get(models.User.username == "other")
        printing = models.Printing.select().join(models.Card).where(models.Card.key == "blade-seer").first()
        collection.adjust(user, printing.id, "quantity", 3)
        collection.adjust(user, printing.id, "want_quantity", 1)
        trading.set_lists_public(user, True)
        models.UserCardValue.create(owner=user, game="kaijudo", card_key="blade-seer", field="power", value=2000)
        deck = models.Deck.get_by_id(mine)
        version = models.DeckVersion.select().where(models.DeckVersion.deck == deck).order_by(
            models.DeckVersion.number.desc()).first()
        run = simulations.start(user.id, deck, version, 20, 5, {})
        models.SimulationRun.update(unknown={"blade-seer": ["power"]}).where(models.SimulationRun.id == run.id).execute()
        models.SimulationRun.create(deck=deck, version=version.number, owner=user, game="kaijudo", games=10, seed=1,
                                    options={}, status="failed", error="the engine stopped")
        models.TuningRun.create(deck=deck, version=version.number, owner=user, game="kaijudo", budget=300, seed=2,
                                options={}, candidates=["blade-seer"], candidate_source="collection", format="standard",
                                unknown_cards=1, status="done", round=2, done=300, total=300,
                                result={"verdict": "no swap beats the noise", "suggestions": []})
        batch = models.ProposalBatch.create(game="kaijudo", set_code="DMK-01", source="my binder", proposer=user)
        proposal = models.Proposal.create(game="kaijudo", card_key="blade-seer", values={"power": 2000},
                                          source="my binder", proposer=user, status="approved", reviewer=reviewer,
                                          reason="matches the card", reviewed_at=models.utcnow(), batch_id=batch.id)
        change = models.FactChange.create(game="kaijudo", card_key="blade-seer", field="power", old_value=None,
                                          new_value=2000, old_provenance="unknown", source="my binder",
                                          proposal=proposal, actor=reviewer)
        models.FactChange.create(game="kaijudo", card_key="blade-seer", field="power", old_value=2000, new_value=None,
                                 source="typo", proposal=proposal, actor=reviewer, reverts=change)
        models.Scan.create(proposal=proposal, game="kaijudo", set_code="DMK-01", printing=printing, uploader=user,
                           data=b"\x89PNG scan bytes", mime="image/png", width=2, height=3, approved=True)
        api_tokens.create(user, "my script")


def _comparable(doc: dict) -> dict:
    doc = json.loads(json.dumps(doc))
    doc["user"].pop("username")
    return doc


def _cli(url: str, *args: str, stdin: str | None = None):
    env = {"DATABASE_URL": url, "DECKHUB_SECRET_KEY": "test", "DECKHUB_QUEUE_URL": "immediate"}
    return CliRunner().invoke(main, list(args), env=env, input=stdin)


def test_everything_a_user_owns_moves_to_a_fresh_installation(tmp_path, databases):
    source = f"sqlite:///{tmp_path / 'source.sqlite3'}"
    src_app = make_app(source, WTF_CSRF_ENABLED=False)
    with database.connection_context():
        schema.upgrade(database.obj)
        assert load_games(["kaijudo"], echo=lambda *_: None) == 0
    _one_of_everything(src_app)
    mover_file, other_file = tmp_path / "mover.json", tmp_path / "other.json"
    result = _cli(source, "export-user", "mover", str(mover_file))
    assert result.exit_code == 0, result.output
    assert "3 decks, 1 collection rows, 1 goldfish sessions, 3 simulation and tuning runs" in result.output
    assert _cli(source, "export-user", "other", str(other_file)).exit_code == 0
    assert stat.S_IMODE(mover_file.stat().st_mode) == 0o600
    exported = json.loads(mover_file.read_text())
    assert "password_hash" not in exported["user"] and "pbkdf2" not in mover_file.read_text()
    assert "scrypt" not in mover_file.read_text() and "my script" not in mover_file.read_text()  # no credentials
    sims = exported["decks"][0]["simulations"]
    assert [s["status"] for s in sims] == ["done", "failed"] and sims[0]["unknown"] == {"blade-seer": ["power"]}
    assert len(exported["deck_copies"]) == 3 and exported["user"]["public_lists_since"]
    assert exported["proposals"][0]["changes"][1]["reverts"] == 0 and exported["proposals"][0]["scans"][0]["approved"]

    target = databases.with_catalogues()  # SQLite, or PostgreSQL in that run
    try:
        assert _cli(target, "import-user", str(other_file)).exit_code == 0
        result = _cli(target, "import-user", str(mover_file))
        assert result.exit_code == 0, result.output
        assert "deckhub user password mover" in result.output
        make_app(target, WTF_CSRF_ENABLED=False)
        with database.connection_context():
            assert _comparable(backup.export_user("mover")) == _comparable(exported)
            user = models.User.get(models.User.username == "mover")
            assert not models.ApiToken.select().where(models.ApiToken.user == user).exists()
            copies = models.DeckCopy.select().join(models.Deck, on=(models.DeckCopy.source == models.Deck.id))
            assert sorted((c.source.owner.username, c.copy.owner.username if c.copy else "") for c in copies) == [
                ("mover", ""), ("mover", "mover"), ("other", "mover")]
            assert trading.lists_public(user)
            assert card_values.values_of(user.id, "kaijudo") == {"blade-seer": {"power": 2000}}
        client = make_app(target, WTF_CSRF_ENABLED=False).test_client()
        login = {"username": "mover", "password": PASSWORD}
        assert "/login" in (client.post("/login", data=login).location or "/login")  # no password yet
        assert _cli(target, "user", "password", "mover", "--password-stdin", stdin="a new long phrase\n").exit_code == 0
        assert client.post("/login", data={**login, "password": "a new long phrase"}).status_code == 302
    finally:
        databases.drop(target)


def test_the_password_hash_moves_only_when_asked(app, tmp_path):
    _client(app, "mover")
    url = app.config["DATABASE_URL"]
    out = tmp_path / "with.json"
    result = _cli(url, "export-user", "mover", str(out), "--with-password")
    assert result.exit_code == 0 and "password hash" in result.output
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert json.loads(out.read_text())["user"]["password_hash"].startswith(("scrypt:", "pbkdf2:"))
    assert _cli(url, "export-user", "mover", str(out)).exit_code != 0  # never over an existing file
    result = _cli(url, "import-user", str(out), "--as", "twin")
    assert result.exit_code == 0 and "user password" not in result.output
    client = make_app(url, WTF_CSRF_ENABLED=False).test_client()
    assert client.post("/login", data={"username": "twin", "password": PASSWORD}).status_code == 302


def test_a_version_1_file_still_imports(app):
    old = {"format": "deckhub-user", "version": 1,
           "user": {"username": "veteran", "password_hash": "!", "is_curator": False, "created_at": "2024-01-02T03:04:05"},
           "decks": [{"name": "Old", "game": "kaijudo", "format": "", "packs": None, "description": "", "is_public": False,
                      "created_at": "2024-01-02T03:04:05", "updated_at": "2024-01-02T03:04:05",
                      "versions": [{"number": 1, "created_at": "2024-01-02T03:04:05", "data": {"game": "kaijudo",
                                                                                                "sections": {}}, "note": ""}],
                      "simulations": [{"version": 1, "game": "kaijudo", "games": 10, "seed": 1, "options": {},
                                       "result": {"games": 10}, "stuck": [], "created_at": "2024-01-02T03:04:05"}]}],
           "collection": [], "goldfish_sessions": []}
    with database.connection_context():
        user, _lost = backup.import_user(old)
        run = models.SimulationRun.get(models.SimulationRun.owner == user)
        assert (run.status, run.done, run.unknown) == ("done", 10, None)
