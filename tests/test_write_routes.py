"""Every write route parses its input, calls one service use case and answers (issue 29).

Each POST/PUT/PATCH/DELETE route of `app.url_map` (so a new route is checked without being listed)
is read from its source: the view function and every function of `deckhub.web` it calls or passes
on, with the names each module imports resolved to the objects they are. Branches on
`request.method` are followed for the method checked, so a view serving GET and DELETE is judged
by its DELETE path. A write route may not
- name anything of `deckhub.store` (the database, its transactions and locks, a model),
- open a transaction or save or delete a row itself (`.atomic()`, `.save()`, `.delete_instance()`),
- call more than one service use case, or call one in a loop.
A service use case is a function of `deckhub.services` that writes: it (or a service or store
function it uses) opens a transaction, takes a lock, saves, inserts, updates or deletes rows, or
enqueues a job. Reading service functions (a lookup that answers 404, the catalogue, a page's
lists) are allowed beside it. A write route that calls no use case at all must say why below.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import textwrap
import types

import peewee
from huey.api import TaskWrapper

from deckhub.services import decks
from deckhub.store import models
from deckhub.store.db import database

WRITE_METHODS = ("POST", "PUT", "PATCH", "DELETE")

# Write routes that change nothing, and why (each must call no use case).
WRITES_NOTHING = {
    ("POST", "/api/check"): "checks a deck list sent in the body and keeps nothing",
}

TRANSACTIONS = {"atomic", "transaction", "savepoint", "manual_commit"}
ROW_WRITES = {"save", "delete_instance"}
MODEL_WRITES = {"create", "get_or_create", "insert", "insert_many", "insert_from", "replace", "replace_many",
                "update", "delete", "bulk_create", "bulk_update", "delete_by_id", "set_by_id"}
QUERY_WRITES = {"insert", "insert_many", "insert_from", "replace", "replace_many", "update", "delete"}
MISSING = object()  # a name the source binds locally (a variable), unknown until the code runs


def _origin(obj) -> str:
    """The module an object belongs to: a module's own name, a function's or class's module, an instance's type's."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    if isinstance(obj, (type, types.FunctionType, types.BuiltinFunctionType)):
        return getattr(obj, "__module__", "") or ""
    if isinstance(obj, types.MethodType):
        return _origin(obj.__self__)
    return type(obj).__module__ or ""


def _in(obj, package: str) -> bool:
    name = _origin(obj)
    return name == package or name.startswith(package + ".")


def _is_store(obj) -> bool:
    """The store: `deckhub.store`, or peewee itself (the database proxy, a model, a query)."""
    return any(_in(obj, package) for package in ("deckhub.store", "peewee", "playhouse"))


def _function(obj):
    """The plain function behind `obj` (decorators that keep `__wrapped__` unwrapped), or None."""
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    if not callable(obj) or isinstance(obj, type):
        return None
    obj = inspect.unwrap(obj)
    return obj if isinstance(obj, types.FunctionType) else None


def _definition(func) -> tuple[ast.AST, int] | None:
    """The function's own `def` node and its first line (None for code without source)."""
    try:
        lines, first = inspect.getsourcelines(func)
    except (OSError, TypeError):
        return None
    return ast.parse(textwrap.dedent("".join(lines))).body[0], first


def _resolve(node: ast.AST, scope: dict):
    """What a name or a dotted name means in a module (`MISSING` when the code binds it locally);
    attributes are followed only through modules and classes, never by calling or reading a proxy."""
    if isinstance(node, ast.Name):
        if node.id in scope:
            return scope[node.id]
        return getattr(builtins, node.id, MISSING)
    if isinstance(node, ast.Attribute):
        base = _resolve(node.value, scope)
        if base is MISSING or not isinstance(base, (types.ModuleType, type)):
            return MISSING
        return getattr(base, node.attr, MISSING)
    return MISSING


def _chain_writes(call: ast.Call) -> bool:
    """`....update(...).where(...).execute()` and the like: a query that writes, run."""
    node = call.func.value if isinstance(call.func, ast.Attribute) else None
    while isinstance(node, (ast.Call, ast.Attribute)):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr in QUERY_WRITES:
                return True
            node = node.func
        else:
            node = node.value
    return False


def _fields(node: ast.AST):
    """A node's children, field by field (a list of statements as one list), without annotations:
    a type named there is not a use of it."""
    for field, value in ast.iter_fields(node):
        if field in ("annotation", "returns", "decorator_list", "type_comment"):
            continue
        if isinstance(value, list):
            yield [item for item in value if isinstance(item, ast.AST)]
        elif isinstance(value, ast.AST):
            yield [value]


def _method_test(test: ast.AST, method: str) -> bool | None:
    """Whether `request.method == "X"` (or `!=`, `in (...)`, `not in (...)`) holds for `method`;
    None when the test is about something else."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Attribute)
            and test.left.attr == "method" and isinstance(test.left.value, ast.Name) and test.left.value.id == "request"):
        return None
    try:
        value = ast.literal_eval(test.comparators[0])
    except ValueError:
        return None
    op = test.ops[0]
    if isinstance(op, (ast.Eq, ast.NotEq)):
        return (method == value) == isinstance(op, ast.Eq)
    if isinstance(op, (ast.In, ast.NotIn)):
        return (method in value) == isinstance(op, ast.In)
    return None


def _method_table(node: ast.Subscript, method: str) -> ast.AST | None:
    """`{"GET": show, "DELETE": remove}[request.method]`: the entry for `method`."""
    if not (isinstance(node.value, ast.Dict) and isinstance(node.slice, ast.Attribute)
            and node.slice.attr == "method" and getattr(node.slice.value, "id", "") == "request"):
        return None
    for key, value in zip(node.value.keys, node.value.values):
        if isinstance(key, ast.Constant) and key.value == method:
            return value
    return ast.Constant(None)


# --------------------------------------------------------------------------- which services write

_writes: dict = {}


def service_writes(func) -> bool:
    """Whether a function of `deckhub.services` (or `deckhub.store`) writes, itself or through
    the service and store functions and classes it uses."""
    func = _function(func) or func
    if func in _writes:
        return _writes[func]
    _writes[func] = False  # a recursion is answered by the rest of the walk
    if isinstance(func, type):
        found = any(service_writes(f) for f in vars(func).values() if _function(f) is not None)
    else:
        definition = _definition(func)
        found = definition is not None and _body_writes(definition[0], func.__globals__)
    _writes[func] = found
    return found


def _body_writes(root: ast.AST, scope: dict) -> bool:
    for node in ast.walk(root):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in TRANSACTIONS or name in ROW_WRITES or name == "enqueue":
                return True
            if name == "execute" and _chain_writes(node):
                return True
            receiver = _resolve(node.func.value, scope)
            if name in MODEL_WRITES and isinstance(receiver, type) and issubclass(receiver, peewee.Model):
                return True
        if isinstance(node, (ast.Name, ast.Attribute)):
            obj = _resolve(node, scope)
            if obj is MISSING:
                continue
            if isinstance(obj, TaskWrapper):
                return True
            if _in(obj, "deckhub.store.db") and getattr(obj, "__name__", "") in ("write_transaction", "lock"):
                return True
            func = _function(obj)
            if func is not None and (_in(func, "deckhub.services") or _in(func, "deckhub.store")) and service_writes(func):
                return True
            if isinstance(obj, type) and _in(obj, "deckhub.services") and service_writes(obj):
                return True
    return False


# --------------------------------------------------------------------------- what a view does

class ViewReport:
    """What one view does for one method: its problems, and the service use cases it calls (with where)."""

    def __init__(self):
        self.problems: list[str] = []
        self.use_cases: list[str] = []


def inspect_view(view, method: str, walker_class=None) -> ViewReport:
    """Read `view` (and the `deckhub.web` functions it reaches) as it runs for `method`."""
    report = ViewReport()
    _walk_function(_function(view), method, report, walking=set(), loops=0, walker_class=walker_class)
    return report


def _walk_function(func, method: str, report: ViewReport, walking: set, loops: int, walker_class=None) -> None:
    """Walk one function; a helper is walked at each place it is used (its use cases count each
    time), except inside itself."""
    if func is None or func in walking:
        return
    definition = _definition(func)
    if definition is None:
        return
    node, first = definition
    walker_class = walker_class or _Walker
    walking.add(func)
    walker = walker_class(_module_scope(node, func.__globals__), method, report, walking,
                          f"{func.__module__}.{func.__qualname__}", first)
    walker.loops = loops
    walker.visit_all(node)
    walking.discard(func)


def _module_scope(root: ast.AST, scope: dict) -> dict:
    """The module's names less those the function binds itself (a local `new` is not the view `new`)."""
    local = {a.arg for n in ast.walk(root) if isinstance(n, ast.arguments)
             for a in n.posonlyargs + n.args + n.kwonlyargs + [n.vararg, n.kwarg] if a is not None}
    local |= {n.id for n in ast.walk(root) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local |= {n.name for n in ast.walk(root) if isinstance(n, ast.ExceptHandler) and n.name}
    local |= {n.name for n in ast.walk(root) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
              and n is not root}
    own = {name: value for name, value in scope.items() if name not in local}
    own.update(_imported_inside(root))
    return own


def _imported_inside(root: ast.AST) -> dict:
    """The names a function imports in its own body (`from deckhub.services import x` inside a
    command or view is as much a use of `x` as an import at the top of the module)."""
    found = {}
    for node in ast.walk(root):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            module = importlib.import_module(node.module)
            for alias in node.names:
                value = getattr(module, alias.name, MISSING)
                if value is MISSING:
                    value = importlib.import_module(f"{node.module}.{alias.name}")
                found[alias.asname or alias.name] = value
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found[alias.asname] = importlib.import_module(alias.name)
                else:
                    found[alias.name.split(".")[0]] = importlib.import_module(alias.name.split(".")[0])
    return found


class _Walker:
    """Reads one function of a front end (`package`): what it names, and the front end's own
    helpers it reaches, walked in turn."""

    package = "deckhub.web"

    def __init__(self, scope, method, report, walking, where, first_line):
        self.scope, self.method, self.report, self.walking = scope, method, report, walking
        self.where, self.first_line = where, first_line
        self.loops = 0

    def at(self, node) -> str:
        return f"{self.where} (line {self.first_line + node.lineno - 1})"

    def visit_all(self, root: ast.AST) -> None:
        for children in _fields(root):
            for child in children:
                self.visit(child)
                if self.ends_here(child):
                    break  # what follows `if request.method == X: ... return` is another method's path

    def ends_here(self, node: ast.AST) -> bool:
        return (isinstance(node, ast.If) and _method_test(node.test, self.method) is True
                and bool(node.body) and isinstance(node.body[-1], (ast.Return, ast.Raise)))

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, (ast.If, ast.IfExp)):
            holds = _method_test(node.test, self.method)
            if holds is not None:
                for child in ((node.body if holds else node.orelse) if isinstance(node.body, list)
                              else [node.body if holds else node.orelse]):
                    self.visit(child)
                return
        if isinstance(node, ast.Subscript):
            entry = _method_table(node, self.method)
            if entry is not None:
                self.visit(entry)
                return
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.visit(node.iter)  # what a loop goes over is computed once, before it
            self.loops += 1
            for part in (node.target, *node.body, *node.orelse):
                self.visit(part)
            self.loops -= 1
            return
        if isinstance(node, (ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            self.loops += 1
            self.visit_all(node)
            self.loops -= 1
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in TRANSACTIONS:
                self.report.problems.append(f"opens a transaction (.{name}()) at {self.at(node)}")
            elif _resolve(node.func.value, self.scope) is MISSING:
                if name in ROW_WRITES:
                    self.report.problems.append(f"writes a row itself (.{name}()) at {self.at(node)}")
        if isinstance(node, (ast.Name, ast.Attribute)) and self.name(node):
            return
        self.visit_all(node)

    def name(self, node: ast.AST) -> bool:
        """Judge what a (dotted) name stands for; True when nothing inside it needs a look."""
        obj = _resolve(node, self.scope)
        if obj is MISSING:
            return False
        if _is_store(obj):
            label = ast.unparse(node)
            self.report.problems.append(f"touches the store directly ({label}) at {self.at(node)}")
            return True
        if isinstance(obj, TaskWrapper):
            self.report.problems.append(f"enqueues a job itself ({ast.unparse(node)}) at {self.at(node)}")
            return True
        func = _function(obj)
        if func is None:
            return isinstance(obj, (types.ModuleType, type))
        if _in(func, "deckhub.services"):
            if self.is_use_case(func):
                self.report.use_cases.append(f"{func.__module__}.{func.__qualname__} from {self.at(node)}")
                if self.loops:
                    self.report.problems.append(f"calls use case {func.__module__}.{func.__qualname__} in a loop "
                                                f"at {self.at(node)}")
            return True
        if self.walks_into(func):
            _walk_function(func, self.method, self.report, self.walking, self.loops, type(self))
        return self.judge(func, node)

    def is_use_case(self, func) -> bool:
        """A route's use case is a service function that writes (lookups beside it are allowed)."""
        return service_writes(func)

    def walks_into(self, func) -> bool:
        return _in(func, self.package)

    def judge(self, func, node) -> bool:
        """A front end may name anything else (the core's pure functions, its own helpers)."""
        return True


# --------------------------------------------------------------------------- the tests

def write_routes(app) -> list[tuple[str, str, object]]:
    """(method, rule, view function) of every write route, in rule order."""
    found = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        for method in WRITE_METHODS:
            if method in rule.methods:
                found.append((method, rule.rule, app.view_functions[rule.endpoint]))
    return found


def test_every_write_route_calls_one_service_and_touches_no_store(app):
    routes = write_routes(app)
    assert len(routes) >= 54  # a broken walk must not pass by finding nothing
    failures = {}
    for method, rule, view in routes:
        report = inspect_view(view, method)
        problems = list(report.problems)
        expected = 0 if (method, rule) in WRITES_NOTHING else 1
        if len(report.use_cases) != expected:
            problems.append(f"calls {len(report.use_cases)} service use cases, not {expected}: "
                            + ("; ".join(report.use_cases) or "none"))
        if problems:
            failures[f"{method} {rule} ({view.__module__}.{view.__name__})"] = problems
    listing = "\n".join(f"{route}:\n    " + "\n    ".join(problems) for route, problems in failures.items())
    assert not failures, (f"{len(failures)} of {len(routes)} write routes do more than parse, call one service "
                          f"and answer:\n{listing}")
    assert set(WRITES_NOTHING) <= {(m, r) for m, r, _ in routes}, "WRITES_NOTHING names a route that is gone"


# A view doing the forbidden things, to prove the checker sees them.

def _view_with_its_own_transaction(deck_id: int):
    with database.atomic():
        models.Deck.create(name="x")
    stored = decks.visible_deck(deck_id, None)
    return decks.delete_deck(stored)


def _view_saving_a_row(deck_id: int):
    stored = decks.visible_deck(deck_id, None)
    stored.row.save()
    return [_helper_deleting(deck_id) for _ in range(2)]


def _view_calling_two_use_cases(deck_id: int, request=None):
    stored = _helper_deleting(deck_id)
    if request.method == "DELETE":
        return decks.copy_deck(stored, 1)
    return None


def _helper_deleting(deck_id: int):
    stored = decks.visible_deck(deck_id, None)
    decks.delete_deck(stored)
    return stored


def _good_view(deck_id: int, request=None):
    new = decks.visible_deck(deck_id, None)  # a lookup: reads only; `new` is a local, not the view
    if request.method == "DELETE":
        return decks.delete_deck(new)
    return decks.copy_deck(new, 1)


def test_the_checker_catches_transactions_models_and_extra_use_cases(monkeypatch):
    monkeypatch.setattr(_helper_deleting, "__module__", "deckhub.web.example")  # walked as a web helper
    bad = inspect_view(_view_with_its_own_transaction, "POST")
    assert any("opens a transaction (.atomic())" in p for p in bad.problems), bad.problems
    assert any("touches the store directly (database)" in p for p in bad.problems), bad.problems
    assert any("touches the store directly (models.Deck.create)" in p for p in bad.problems), bad.problems
    assert [u.split(" ")[0] for u in bad.use_cases] == ["deckhub.services.decks.delete_deck"]

    saving = inspect_view(_view_saving_a_row, "POST")
    assert any("writes a row itself (.save())" in p for p in saving.problems), saving.problems
    assert any("delete_deck in a loop" in p for p in saving.problems), saving.problems

    # a web helper's use case counts, and only the branch of the method checked is followed
    assert len(inspect_view(_view_calling_two_use_cases, "DELETE").use_cases) == 2
    assert len(inspect_view(_view_calling_two_use_cases, "POST").use_cases) == 1
    for method, expected in (("DELETE", "delete_deck"), ("POST", "copy_deck")):
        good = inspect_view(_good_view, method)
        assert good.problems == [] and [u.split(" ")[0].rsplit(".", 1)[1] for u in good.use_cases] == [expected]


def test_service_functions_that_write_are_told_from_those_that_read():
    from deckhub.services import accounts, collection, ratelimit
    for writer in (decks.create_deck, decks.delete_deck, ratelimit.take, accounts.create_user, collection.adjust):
        assert service_writes(writer), writer.__name__
    for reader in (decks.visible_deck, decks.own_deck, decks.user_decks, accounts.find_user, ratelimit.recent):
        assert not service_writes(reader), reader.__name__
