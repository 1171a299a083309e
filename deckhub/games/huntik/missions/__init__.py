"""Huntik missions and the features they put on the map (Huntik 304, 305): the shared types and the
registry of the mission families.

A mission is its set-up (which features go into which zone of the five-zone map, or to the side:
the removed-from-map area, Huntik 400), the terms that win it (checked whenever they can be met,
Huntik 102), its end-of-round terms (Huntik 501), its start-of-round rules (Huntik 502; features'
triggers resolve first, Huntik 702), the powers it gives heroes, and the plan the built-in player
follows on it. Zone numbers in a mission's text are the lead player's (Huntik 400).

A feature is what its card says: an object that heroes pick up and carry, a structure that gives
heroes in its zone an action, or an obstacle with ATK and DEF that fights like a hero when a player
controls it (Huntik 305).

Each module of this package is one mission family and holds all of it: its features' and missions'
data (`FEATURES`, `MISSIONS`), their checks, the ops their powers run (registered with `@op` and
`@answer`, dispatched by the engine like its own `_op_<name>` / `_res_<name>`) and the plan of each
mission (a `policy._Plan` subclass, named by the mission's `plan`). The registry below imports every
module it finds here, so a new family is one new module.

Readings the families take where the cards leave room (the engine's notes repeat them):
- a stunned card does not count as being in a zone, as Draw the Enemy Away From the Tomb reminds:
  a stunned Frost Minion no longer shields Ymir, Frost King (and unstuns at the start of the round);
- "put the Gargoyle 2 zones forward" is done as far as possible (Huntik 706), forward being the
  lead player's direction; it fails only when the Gargoyle is already in zone 5;
- the Water Spout is put into a new zone (2, 3 or 4) at random by the passive defending player;
- Escape with the Ring of Arc: a face-down Ring has no text (like a stunned card); its carrier may
  pick it up again if it is dropped.

Get the Hammer Mjolnir (SAS 159) is not encoded: it says "Use Solo turn structure", which the
comprehensive rules leave to the official rulebook (Huntik 304), and its Fenris names no controller.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from deckhub.core.engine import EngineError
from deckhub.core.cards import normalize_name
from deckhub.games.huntik.effects import Power

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.games.huntik.state import HuntikState


# --- the shared types -------------------------------------------------------------------------

def grant(name: str, label: str, speed: str, *ops, cond: tuple = ()) -> Power:
    """A power a feature or mission gives (played like a card's action power)."""
    return Power(name, label, speed, tuple(ops), cond, "play", False)


PICKUP = grant("pickup", "Pick up", "free", ("pickup", "$feature"))


@dataclass(frozen=True)
class Feature:
    """How a feature behaves. `grants`: ((who, Power), ...) with who one of "lead_here" (lead heroes
    in its zone), "all_here", "major_here", "all" (every hero), "carrier" (the hero it is with),
    "lead_here_dry" (lead heroes in its zone while it has no Water counters)."""

    key: str
    label: str
    obstacle: bool = False
    atk: int = 0
    def_: int = 0
    controller: str | None = None  # "defender" or None (nobody, or whoever pays for it)
    ko: str = "remove"  # what a KO does: "remove" | "stun" | "never" | "escape"
    grants: tuple = ()
    powers: tuple = ()  # powers of the feature itself the lead player may use
    carry_bonus: tuple[int, int] = (0, 0)
    carry_unblockable: bool = False
    scores_twice: bool = False
    blocks_lead: bool = False
    no_ready: bool = False
    cant_move: bool = False
    shielded_by: str | None = None  # attacks can't be aimed at it while that feature is in its zone
    object: bool = False
    on_hero_stops: tuple = ()  # ops when a hero moves into and stops in its zone (source: the hero)


@dataclass(frozen=True)
class Mission:
    key: str
    label: str  # the name the option shows (numbered when two missions share a name)
    number: str
    kind: str  # "training" | "expert" | "mutual" | "unknown" (the data's tag)
    setup: tuple  # ((feature key, zone 1-5 or 0 for the side of the map, count, {counter: n}), ...)
    terms: str  # the terms, in our words
    check: Callable[["HuntikState"], str | None] | None = None  # win terms checked at any time (102)
    end_round: Callable[["HuntikState"], str | None] | None = None  # end-of-round terms (501)
    start_round: Callable[["HuntikState"], None] | None = None  # start-of-round rules (502)
    grants: tuple = ()  # ((zone, Power), ...): powers lead heroes in that zone get
    progress: str = ""  # what the progress counter counts
    rings: bool = False  # Escape with the Ring of Arc: the first 4 lead heroes enter with a face-down Ring
    aliases: tuple = ()
    notes: tuple = ()
    plan: type | None = None  # the built-in player's plan (a policy._Plan subclass; None: the generic one)


# --- what several families share -------------------------------------------------------------

def feature_in(key: str, zone: int, what: str) -> Callable[["HuntikState"], str | None]:
    """Win terms "<feature> is in zone N" (a face-down Ring is not the Ring yet)."""
    def check(state: "HuntikState") -> str | None:
        for f in state.features(key):
            if state.zone_of(f) == zone and f not in state.face_down:
                return f"{what} is in zone {zone}"
        return None
    return check


OPS: dict[str, Callable] = {}  # op name -> fn(state, op, source), as the engine's `_op_<name>`
ANSWERS: dict[str, Callable] = {}  # op name -> fn(state, op, source, value), as its `_res_<name>`


def _register(table: dict[str, Callable], name: str, fn: Callable) -> Callable:
    old = table.get(name)
    if old is not None and (old.__module__, old.__qualname__) != (fn.__module__, fn.__qualname__):
        raise RuntimeError(f"Huntik mission op {name!r} is defined twice: in {old.__module__} and {fn.__module__}")
    table[name] = fn
    return fn


def op(name: str) -> Callable[[Callable], Callable]:
    """Register a feature or mission op: `fn(state, op, source)` runs the queued op `(name, ...)`."""
    return lambda fn: _register(OPS, name, fn)


def answer(name: str) -> Callable[[Callable], Callable]:
    """Register the answer to a choice an op `(name, ...)` asked: `fn(state, op, source, value)`."""
    return lambda fn: _register(ANSWERS, name, fn)


@op("pickup")
def pickup(state: "HuntikState", op: tuple, source: int | None) -> None:
    """A hero picks up an object in its zone that nobody carries (Huntik 305)."""
    f = op[1]
    if source is None or f is None or f in state.carrier or state.where[f] != state.where[source]:
        return
    state.carrier[f] = source
    state.note(f"{state.label(source)} picks up {state.fname(f)}")


# --- the registry: every module of this package is a family ----------------------------------

def _mission_order(m: Mission) -> tuple:
    """The training mission without a set number first, then by SAS number."""
    return (m.number.isdigit(), int(m.number) if m.number.isdigit() else 0, m.key)


def _discover() -> tuple[dict[str, Any], dict[str, Feature], dict[str, Mission], dict[str, str]]:
    families: dict[str, Any] = {}
    features: dict[str, Feature] = {}
    missions: list[Mission] = []
    family_of: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        families[info.name] = module
        for f in getattr(module, "FEATURES", ()):
            if f.key in features:
                raise RuntimeError(f"Huntik feature {f.key!r} is defined twice (the second time in {info.name})")
            features[f.key] = f
        for m in getattr(module, "MISSIONS", ()):
            if m.key in family_of:
                raise RuntimeError(f"Huntik mission {m.key!r} is defined twice: in {family_of[m.key]} and {info.name}")
            family_of[m.key] = info.name
            missions.append(m)
    ordered = {m.key: m for m in sorted(missions, key=_mission_order)}
    return families, features, ordered, family_of


FAMILIES, FEATURES, MISSIONS, FAMILY_OF = _discover()
PLANS: dict[str, type] = {k: m.plan for k, m in MISSIONS.items() if m.plan is not None}

# the engine's dispatch reads `_op_<name>` / `_res_<name>` from its classes: this mixin gives it every family's
MissionOps = type("MissionOps", (), {
    "__doc__": "The feature and mission ops every family registered (`_op_<name>`, answers `_res_<name>`).",
    "__module__": __name__,
    **{f"_op_{name}": fn for name, fn in OPS.items()},
    **{f"_res_{name}": fn for name, fn in ANSWERS.items()},
})


# --- finding a mission by what a player calls it ---------------------------------------------

DEFAULT_MISSION = "deliver-the-ring-of-art"
NOT_ENCODED = {"get-the-hammer-mjolnir": "it plays with the Solo turn structure of the official rulebook, which the "
                                         "comprehensive rules do not describe (Huntik 304), and Fenris names no controller"}


def labels() -> tuple[str, ...]:
    return tuple(m.label for m in MISSIONS.values())


_FOUND: dict[str, Mission] = {m.label: m for m in MISSIONS.values()}


def find_mission(value: Any) -> Mission:
    """The mission a player named: its card key, its name, "name (number)" or "name (SAS number)".

    Two missions are called "Defeat Ymir: Frost King" (SAS 145 and SAS 151): the bare name is
    ambiguous and refused with the two ways to say which."""
    text = str(value).strip()
    if text in MISSIONS:
        return MISSIONS[text]
    if text in _FOUND:
        return _FOUND[text]
    mission = _find(text)
    if len(_FOUND) < 1000:
        _FOUND[text] = mission
    return mission


def _find(text: str) -> Mission:
    want = normalize_name(text)
    named: list[Mission] = []
    for m in MISSIONS.values():
        base = m.label.rsplit(" (", 1)[0] if m.label.endswith(")") else m.label
        forms = {normalize_name(m.label), normalize_name(m.key), normalize_name(f"{base} ({m.number})"),
                 normalize_name(f"{base} (SAS {m.number})"), normalize_name(f"{base} SAS {m.number}")}
        forms.update(normalize_name(a) for a in m.aliases)
        if want in forms:
            return m
        if want == normalize_name(base) or want in (normalize_name(a) for a in m.aliases):
            named.append(m)
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        ways = " or ".join(f'"{m.label}" (key {m.key})' for m in named)
        raise EngineError(f"option 'mission': {len(named)} missions are called {text!r}; say which: {ways}")
    if want == normalize_name("Get the Hammer Mjolnir") or text in NOT_ENCODED:
        raise EngineError(f"option 'mission': Get the Hammer Mjolnir is not playable in goldfish: {NOT_ENCODED['get-the-hammer-mjolnir']}")
    raise EngineError(f"option 'mission': no mission {text!r}; missions: {'; '.join(labels())}")
