"""The layering the README's Code layout section describes, checked on the source itself."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "deckhub"
MAX_GAME_MODULE_LINES = 800


def test_no_module_under_games_is_over_800_lines():
    long = {str(p.relative_to(PACKAGE)): n for p in (PACKAGE / "games").rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_GAME_MODULE_LINES}
    assert long == {}, f"split these modules (state / ops / policy ...): {long}"
