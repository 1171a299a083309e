"""The layering the README's Code layout section describes, checked on the source itself."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "deckhub"
MAX_MODULE_LINES = 800


def test_no_module_under_core_or_games_is_over_800_lines():
    long = {str(p.relative_to(PACKAGE)): n for folder in ("core", "games") for p in (PACKAGE / folder).rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}, f"split these modules along their seams (state / ops / policy ...): {long}"


def _runtime_imports(path: Path) -> list[str]:
    """Modules a file imports when it runs (imports under `if TYPE_CHECKING:` are for type checkers)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
            for n in ast.walk(node)}
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(a.name for a in node.names)
    return found


def test_the_core_imports_nothing_of_deckhub_outside_the_core():
    """core/ is pure rules: no web, no database, no registry, no importers (README: Code layout)."""
    outside = {str(p.relative_to(PACKAGE)): sorted(m for m in _runtime_imports(p)
                                                   if m.startswith("deckhub") and not m.startswith("deckhub.core"))
               for p in (PACKAGE / "core").rglob("*.py")}
    assert {k: v for k, v in outside.items() if v} == {}
    forbidden = ("flask", "peewee", "huey", "click")
    third = {str(p.relative_to(PACKAGE)): [m for m in _runtime_imports(p) if m.split(".")[0] in forbidden]
             for p in (PACKAGE / "core").rglob("*.py")}
    assert {k: v for k, v in third.items() if v} == {}
