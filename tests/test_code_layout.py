"""The layering the README's Code layout section describes, checked on the source itself."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "deckhub"
MAX_MODULE_LINES = 800


def test_no_module_in_deckhub_is_over_800_lines():
    """A longer module holds several concerns: split it along its seams into a package of parts
    (as `services/community/` or a game's state / ops / policy), importers naming the part."""
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert long == {}, f"split these modules along their seams: {long}"


def _runtime_imports(path: Path, type_checking: bool = False) -> list[str]:
    """Modules a file imports when it runs (imports under `if TYPE_CHECKING:` are for type checkers;
    `type_checking` counts them too)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = set() if type_checking else {
        id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
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


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Module -> the deckhub modules it imports when it runs, function-level imports included (they
    are arrows too); `from pkg import name` points at `pkg.name` when that is a module."""
    import ast

    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}

    def known(name: str) -> str | None:
        while name and name not in files:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING"
                for n in ast.walk(node)}
        targets = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                targets.update(known(a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                source = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
                targets.update(known(f"{source}.{a.name}") for a in node.names)
        graph[module] = {t for t in targets if t and t != module}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def test_the_import_graph_has_no_circle():
    """No module imports, even inside a function, one that imports it back: the queue knows no job,
    a service no command, a command not the group that assembles them, an importer (a file format)
    not the games registry that reads through it (README: Code layout)."""
    assert _cycles(_import_graph()) == [], "these modules import each other in a circle"


# layer -> the layers it must never import (the README's arrows point down only)
LAYERS = {
    "core": ("games", "services", "store", "web", "commands", "cli", "app"),
    "games": ("services", "store", "web", "commands", "cli", "app"),
    "store": ("services", "web", "commands", "cli", "app"),
    "services": ("web", "commands", "cli", "app"),
    "web": ("commands", "cli"),
}


def _layer(module: str) -> str:
    return module.split(".")[1] if module.count(".") else ""


def test_every_arrow_points_down_the_layers():
    wrong = sorted(f"{module} -> {target}" for module, targets in _import_graph().items() for target in targets
                   if _layer(target) in LAYERS.get(_layer(module), ()))
    assert wrong == [], "these imports point up the layers (README: Code layout)"


def test_the_core_names_no_game_even_for_type_checkers():
    """What a game declares (`deckhub.core.spec`) is the core's vocabulary: the core never imports the
    games, not even for a type annotation, so a game is a package the core does not know of."""
    games = {str(p.relative_to(PACKAGE)): sorted(m for m in _runtime_imports(p, type_checking=True)
                                                 if m == "deckhub.games" or m.startswith("deckhub.games."))
             for p in (PACKAGE / "core").rglob("*.py")}
    assert {k: v for k, v in games.items() if v} == {}


def test_every_exclusive_lock_of_the_services_has_a_key_of_its_own():
    """Two use cases taking the same advisory lock key wait on each other for nothing (the
    collection import's lock once shared the job feed's number)."""
    import importlib
    import pkgutil

    import deckhub.services
    keys: dict[int, list[str]] = {}
    for info in pkgutil.walk_packages(deckhub.services.__path__, "deckhub.services."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if name.upper().endswith("KEY") and type(value) is int and getattr(module, "__name__", "") == info.name:
                keys.setdefault(value, []).append(f"{info.name}.{name}")
    owners = {key: sorted(set(names)) for key, names in keys.items()}
    shared = {key: names for key, names in owners.items() if len({n.rsplit('.', 1)[1] for n in names}) > 1
              or len({n.rsplit('.', 1)[0] for n in names}) > 1}
    assert len(owners) >= 5, owners
    assert not shared, f"lock keys taken by more than one name: {shared}"
