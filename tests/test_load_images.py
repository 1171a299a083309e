"""`deckhub load-images GAME DIR` (deckhub.services.image_folder): pictures from a player's own
folder, matched by OCTGN card id, by set and number or by name, become their printings' pictures.

Every picture is drawn by the test; none ships with the repository.
"""
from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner
from PIL import Image

from deckhub.commands.images import load_images as command
from deckhub.services import card_images, scans
from deckhub.services.catalogue_store import get_catalogue
from deckhub.store import models
from deckhub.store.db import database

NEO, KAI = "neopets-tcg", "kaijudo"


def png(colour=(10, 120, 200), size=(50, 70), kind="PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, kind)
    return out.getvalue()


@pytest.fixture
def cli(databases, monkeypatch):
    url = databases.with_catalogues()
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("DECKHUB_SECRET_KEY", "test")
    from conftest import make_app
    from deckhub.services.accounts import create_user
    make_app(url)
    with database.connection_context():
        create_user("curie", "correct horse")  # the first account is a curator
    runner = CliRunner()

    def run(*args):
        return runner.invoke(command, [str(a) for a in args], catch_exceptions=False)
    yield run
    if not database.is_closed():
        database.close()


def stored() -> list[tuple[str, str | None, bool]]:
    with database.connection_context():
        return [(s.proposal.card_key, s.set_code, s.approved) for s in models.Scan.select().order_by(models.Scan.id)]


def printed(slug: str, set_code: str, number: str):
    with database.connection_context():
        return next(c for c in get_catalogue(slug) for p in c.printings if (p.set_code, p.number) == (set_code, number))


def test_pictures_named_by_set_and_number_or_by_name_become_the_printings_pictures(cli, tmp_path):
    first, second = printed(NEO, "first-edition", "1"), printed(NEO, "first-edition", "2")
    third = printed(NEO, "first-edition", "3")
    (tmp_path / "First Edition").mkdir()
    (tmp_path / "First Edition" / "001.png").write_bytes(png((200, 0, 0)))
    (tmp_path / "first-edition-2.jpg").write_bytes(png((0, 200, 0), kind="JPEG"))
    (tmp_path / f"{third.name}.webp").write_bytes(png((0, 0, 200), kind="WEBP"))
    (tmp_path / "holiday photo.png").write_bytes(png())
    (tmp_path / "notes.txt").write_text("not a picture")
    result = cli(NEO, tmp_path, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {(m["card_key"], m["how"]) for m in report["matched"]} == {
        (first.key, "set and number"), (second.key, "set and number"), (third.key, "name")}
    assert [m["path"] for m in report["unmatched"]] == ["holiday photo.png"]
    assert report["stored"] == 3 and not report["refused"]
    assert sorted(stored()) == sorted([(first.key, "first-edition", True), (second.key, "first-edition", True),
                                       (third.key, "first-edition", True)])
    with database.connection_context():
        assert scans.card_image(NEO, first.key).by == "curie"
        shown = card_images.picture(NEO, first.key)
        assert shown.content_type == "image/png"
        assert Image.open(io.BytesIO(shown.body)).getpixel((5, 5)) == (200, 0, 0)
    again = cli(NEO, tmp_path)  # loading the same folder again stores nothing twice
    assert again.exit_code == 0 and "3 already loaded" in again.stdout and len(stored()) == 3


def test_an_octgn_image_pack_is_matched_by_card_id(cli, tmp_path):
    with database.connection_context():
        card = next(c for c in get_catalogue(KAI) if c.printings and c.printings[0].source_id)
    printing = card.printings[0]
    cards = tmp_path / "ImageDatabase" / "48bb61f4-5707-44bf-853e-0c473549ef50" / "Sets" / "any-set-id" / "Cards"
    cards.mkdir(parents=True)
    (cards / f"{printing.source_id}.jpg").write_bytes(png(kind="JPEG"))
    (cards / "00000000-0000-0000-0000-000000000000.jpg").write_bytes(png(kind="JPEG"))
    result = cli(KAI, tmp_path, "--json")
    report = json.loads(result.stdout)
    assert [(m["card_key"], m["set_code"], m["how"]) for m in report["matched"]] == [
        (card.key, printing.set_code, "octgn id")]
    assert report["unmatched"][0]["reason"] == "no printing has this OCTGN card id"
    assert stored() == [(card.key, printing.set_code, True)]


def test_a_bad_file_is_refused_and_nothing_is_stored(cli, tmp_path):
    good, bad = printed(NEO, "first-edition", "1"), printed(NEO, "first-edition", "2")
    (tmp_path / "first-edition-1.png").write_bytes(png())
    (tmp_path / "first-edition-2.png").write_bytes(b"<svg onload='alert(1)'></svg>")
    result = cli(NEO, tmp_path)
    assert result.exit_code == 1
    assert "first-edition-2.png: refused: This file is not a JPEG, PNG or WebP" in result.stderr
    assert "nothing was stored" in result.stdout
    assert stored() == []
    with database.connection_context():
        assert card_images.picture(NEO, good.key).content_type == "image/svg+xml"
        assert card_images.picture(NEO, bad.key).content_type == "image/svg+xml"


def test_a_dry_run_stores_nothing_and_a_missing_folder_or_user_exits_2(cli, tmp_path):
    (tmp_path / "first-edition-1.png").write_bytes(png())
    dry = cli(NEO, tmp_path, "--dry-run")
    assert dry.exit_code == 0 and "dry run: 1 would be stored" in dry.stdout and stored() == []
    assert cli(NEO, tmp_path / "nowhere").exit_code == 2
    assert cli(NEO, tmp_path, "--user", "nobody").exit_code == 2
