"""An engine's mutable per-game state, declared once and copied by one function.

Every engine lists the attributes its State adds in one dataclass (its "table", e.g. `HuntikTable`)
and names it as `State.TABLE`; the core's own attributes are declared the same way
(`deckhub.core.state.CoreTable`). Nothing is ever instantiated from a table: it is the declaration
`State.clone` reads, so an engine writes no copy code and a forgotten attribute cannot silently be
shared between a position and its clone (tests/test_engine_invariants.py checks that every mutable
container a state holds is declared).

A field is one of three kinds:

- copied (the default): a clone gets its own copy, as deep as the field's type says: `list[int]`
  is copied once, `dict[int, list[int]]` copies each list too, `Any` copies every list, dict and
  set it holds at any depth; ints, strings, tuples, frozensets and frozen dataclasses are shared;
- `fixed()`: set up once when the game is dealt and never changed after (the compiled cards):
  shared by every clone;
- `cache()`: derived from the rest and rebuilt on demand: a clone starts without it (None).
"""
from __future__ import annotations

import dataclasses
import random
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

COPY, FIXED, CACHE = "copy", "fixed", "cache"

_SCALARS = (int, float, str, bytes, bool, type(None), complex, range)
_IMMUTABLE_GENERICS = (tuple, frozenset, Mapping, typing.Callable, Callable, type)


def fixed(**kwargs) -> Any:
    """A field set when the game is dealt and never changed: clones share it."""
    return dataclasses.field(metadata={"kind": FIXED}, **kwargs)


def cache(**kwargs) -> Any:
    """A field derived from the rest (rebuilt when None): a clone starts with None."""
    return dataclasses.field(metadata={"kind": CACHE}, **kwargs)


def field_kinds(table: type) -> dict[str, str]:
    """Each declared field's kind (COPY, FIXED or CACHE)."""
    return {f.name: f.metadata.get("kind", COPY) for f in dataclasses.fields(table)}


def copy_tree(value: Any) -> Any:
    """Every list, dict and set in `value` copied, at any depth (for fields typed `Any`)."""
    cls = value.__class__
    if cls is list:
        return [copy_tree(v) for v in value]
    if cls is dict:
        return {k: copy_tree(v) for k, v in value.items()}
    if cls is set:
        return value.copy()
    return value


def _copy_rng(rng: random.Random) -> random.Random:
    new = random.Random()
    new.setstate(rng.getstate())
    return new


def copier(tp: Any) -> Callable[[Any], Any] | None:
    """The function that copies a value of type `tp` as deep as the type says (None: the value is
    immutable and can be shared). Refuses types it cannot tell how to copy."""
    if tp is Any:
        return copy_tree
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union or origin is types.UnionType:
        parts = [a for a in args if a is not type(None)]
        inner = copier(parts[0]) if len(parts) == 1 else (copy_tree if any(map(copier, parts)) else None)
        if inner is None:
            return None
        return lambda v: None if v is None else inner(v)
    base = origin or tp
    if base is list:
        inner = copier(args[0]) if args else copy_tree
        if inner is None:
            return list.copy
        return lambda v: [inner(x) for x in v]
    if base is dict:
        inner = copier(args[1]) if args else copy_tree
        if inner is None:
            return dict.copy
        return lambda v: {k: inner(x) for k, x in v.items()}
    if base is set:
        return set.copy  # set members are hashable: shared
    if base is random.Random:
        return _copy_rng
    if base in _SCALARS or base in _IMMUTABLE_GENERICS or base is typing.Literal:
        return None
    if isinstance(base, type):
        if issubclass(base, (tuple, frozenset, Mapping) + _SCALARS):
            return None
        params = getattr(base, "__dataclass_params__", None)
        if params is not None and params.frozen:
            return None
    raise TypeError(f"cannot tell how to copy a value of type {tp!r}: declare it with a container type, "
                    f"Any, fixed() or cache()")


def _resolve(table: type, tp: Any) -> Any:
    """A field's type, evaluated in its table's module (annotations may be strings); only copied
    fields are resolved, so a fixed field may name a type its module imports for type checking only."""
    if isinstance(tp, str):
        return eval(tp, vars(sys.modules[table.__module__]))  # noqa: S307 (the module's own annotation)
    return tp


def table_copiers(*tables: type) -> tuple[tuple[str, Callable[[Any], Any] | None], ...]:
    """(attribute, copy function) for every copied or cached field of `tables` (later tables win):
    the copy function is None for a cached field (the clone gets None); immutable copied fields
    and fixed fields are left out (the clone shares them)."""
    found: dict[str, Callable[[Any], Any] | None] = {}
    for table in tables:
        for f in dataclasses.fields(table):
            kind = f.metadata.get("kind", COPY)
            found.pop(f.name, None)
            if kind == CACHE:
                found[f.name] = None
            elif kind == COPY:
                copy = copier(_resolve(table, f.type))
                if copy is not None:
                    found[f.name] = copy
    return tuple(found.items())


def copy_state(state: Any, copiers: tuple[tuple[str, Callable[[Any], Any] | None], ...]) -> Any:
    """A new object of `state`'s class whose declared fields are copied (cached ones reset) and
    whose other attributes are shared: the one copy function of every engine."""
    new = object.__new__(type(state))
    values = state.__dict__.copy()
    for name, copy in copiers:
        if name in values:
            value = values[name]
            values[name] = None if copy is None else (value if value is None else copy(value))
    new.__dict__.update(values)
    return new
