"""What one request may cost the server: a facts CSV dry run of many unknown cards, scans decoded only
after the proposal's own checks pass (and within a daily byte budget), waiting collection uploads
stored compactly under a per-account byte cap."""
from __future__ import annotations

import io

import pytest

from deckhub import facts
from deckhub.db import database
from tests.conftest import AuthActions

NEO = "neopets-tcg"
URL = "https://example.org/neopets-tcg/checklist"


def unknown_rows(n: int) -> bytes:
    lines = ["game,name,type,source"] + [f"{NEO},Nosuchcard {i} Zorblax,Item,{URL}" for i in range(n)]
    return "\n".join(lines).encode()


# --------------------------------------------------------------------------- facts CSV dry runs

def test_a_dry_run_of_many_unknown_cards_suggests_for_a_bounded_number(app, monkeypatch):
    """Fuzzy "did you mean" matching is what a file of unknown names multiplied: only the first
    MAX_SUGGESTED unknown names get it, the rest are still reported as unknown."""
    from deckhub.core.cards import Catalogue
    calls = []
    real = Catalogue.suggest
    monkeypatch.setattr(Catalogue, "suggest", lambda self, name, *a, **k: calls.append(name) or real(self, name, *a, **k))
    with app.app_context(), database.connection_context():
        preview = facts.preview_import(unknown_rows(3_000))
    assert len(preview.problem_rows) == 3_000
    assert all(p.kind == "unknown-card" for r in preview.rows for p in r.problems)
    from deckhub.importers.collection_csv import MAX_SUGGESTED
    assert len(calls) == MAX_SUGGESTED


def test_the_web_dry_run_refuses_a_file_over_its_row_cap_naming_the_command(app):
    client = app.test_client()
    assert AuthActions(client).signup("pat").status_code == 302
    response = client.post("/facts/import", data={"file": (io.BytesIO(unknown_rows(facts.WEB_MAX_ROWS + 1)), "big.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert f"more than {facts.WEB_MAX_ROWS:,} rows" in page and "deckhub facts import" in page
    response = client.post("/facts/import", data={"file": (io.BytesIO(unknown_rows(facts.WEB_MAX_ROWS)), "ok.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and "Nosuchcard 4999 Zorblax" in response.get_data(as_text=True)
