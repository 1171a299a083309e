"""Huntik missions and the features they put on the map (Huntik 304, 305), as data keyed by card.

A mission is its set-up (which features go into which zone of the five-zone map, or to the side:
the removed-from-map area, Huntik 400), the terms that win it (checked whenever they can be met,
Huntik 102), its end-of-round terms (Huntik 501), its start-of-round rules (Huntik 502; features'
triggers resolve first, Huntik 702) and the powers it gives heroes. Zone numbers in a mission's
text are the lead player's (Huntik 400).

A feature is what its card says: an object that heroes pick up and carry, a structure that gives
heroes in its zone an action, or an obstacle with ATK and DEF that fights like a hero when a player
controls it (Huntik 305).

Readings this module takes where the cards leave room (the engine's notes repeat them):
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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from deckhub.core.engine import EngineError
from deckhub.core.cards import normalize_name
from deckhub.games.huntik.effects import Power

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.games.huntik.state import HuntikState


# --- features ---------------------------------------------------------------------------------

def _grant(name: str, label: str, speed: str, *ops, cond: tuple = ()) -> Power:
    return Power(name, label, speed, tuple(ops), cond, "play", False)


PICKUP = _grant("pickup", "Pick up", "free", ("pickup", "$feature"))


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


FEATURES: dict[str, Feature] = {f.key: f for f in (
    Feature("ring-of-arc", "Ring of Arc", grants=(("lead_here", PICKUP),), carry_bonus=(2, 2), object=True),
    Feature("fake-ring-of-arc", "Fake Ring of Arc", object=True),
    Feature("golden-idol", "Golden Idol", grants=(("all_here", PICKUP),), scores_twice=True, object=True),
    Feature("speedboat", "Speedboat", grants=(("all_here", PICKUP),), carry_unblockable=True, object=True),
    Feature("vlads-bag-of-amulets", "Vlad's Bag of Amulets", object=True, grants=(
        ("all_here", PICKUP),
        ("carrier", _grant("bag-draw", "Vlad's Bag of Amulets: draw a card", "exhaust", ("draw", 1))))),
    Feature("antedeluvian", "Antedeluvian", obstacle=True, atk=4, def_=5, ko="never", powers=(
        _grant("mercenary", "Mercenary: discard a major hero card to control Antedeluvian this round", "free",
               ("discard_filter", ("major",)), ("control_feature", "$feature"), cond=(("hand_has", ("major",)),)),)),
    Feature("bigfoot", "Bigfoot", obstacle=True, atk=3, def_=3, controller="defender", ko="escape"),
    Feature("frost-minion", "Frost Minion", obstacle=True, atk=1, def_=2, controller="defender", ko="stun"),
    Feature("gargoyle", "Gargoyle", obstacle=True, atk=0, def_=1, ko="never", grants=(
        ("all_here", _grant("grab", "Grab the Gargoyle", "free", ("stun_me",), ("grab_gargoyle", "$feature"))),
        ("lead_here_dry", _grant("catch", "Catch the Gargoyle", "free", ("win", "caught the Gargoyle"))))),
    Feature("ignatius-lava-lord", "Ignatius: Lava Lord", obstacle=True, atk=2, def_=3, controller="defender"),
    Feature("ymir-frost-king", "Ymir: Frost King", obstacle=True, atk=6, def_=5, controller="defender",
            cant_move=True, shielded_by="frost-minion"),
    Feature("argo", "Argo", grants=(("all_here", _grant("push-argo", "Push the Argo", "exhaust", ("push_argo", "$feature"))),)),
    Feature("bull", "Bull", no_ready=True, grants=(
        ("lead_here", _grant("push-bull", "Push the Bull into zone 1", "exhaust", ("push_bull", "$feature"))),)),
    Feature("explosive", "Explosive", grants=(
        ("major_here", _grant("transport", "Transport the Explosive", "exhaust", ("feature_forward", "$feature", 1))),)),
    Feature("ghostly-bear", "Ghostly Bear", grants=(
        ("all", _grant("mystic", "Mystic Consultation", "exhaust", ("mystic", "$feature"))),)),
    Feature("ghostly-shift", "Ghostly Shaft", grants=(
        ("lead_here", _grant("climb", "Climb the Ghostly Shaft", "free", ("climb", "$feature"))),)),
    Feature("glacier-of-dreams", "Glacier of Dreams", on_hero_stops=(("future_visions",),)),
    Feature("hidden-cave", "Hidden Cave", grants=(
        ("lead_here", _grant("enter-cave", "Enter the Hidden Cave", "free", ("leave_map", 1, "entered the Hidden Cave"))),)),
    Feature("mansion-door", "Mansion Door", grants=(
        ("lead_here", _grant("escape", "Escape the Mansion", "free", ("leave_map", 2, "escaped the mansion"))),)),
    Feature("tomb-entrance", "Tomb Entrance"),
    Feature("water-spout", "Water Spout", blocks_lead=True),
)}


# --- missions ---------------------------------------------------------------------------------

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


def _feature_in(key: str, zone: int, what: str) -> Callable[["HuntikState"], str | None]:
    def check(state: "HuntikState") -> str | None:
        for f in state.features(key):
            if state.zone_of(f) == zone and f not in state.face_down:
                return f"{what} is in zone {zone}"
        return None
    return check


def _ko(key: str, what: str) -> Callable[["HuntikState"], str | None]:
    def check(state: "HuntikState") -> str | None:
        return f"{what} was KO'd" if key in state.knocked_out_keys else None
    return check


def _progress(n: int, what: str) -> Callable[["HuntikState"], str | None]:
    def check(state: "HuntikState") -> str | None:
        done = state.counters["progress"]
        return f"{done} heroes {what}" if done >= n else None
    return check


def _bulls(state: "HuntikState") -> str | None:
    bulls = state.features("bull")
    if bulls and all(state.zone_of(b) == 1 for b in bulls):
        return "all 3 Bulls are in zone 1"
    return None


def _tomb(state: "HuntikState") -> str | None:
    if state.round < 3:
        return None
    for tomb in state.features("tomb-entrance"):
        zone = state.zone_of(tomb)
        if zone and not any(h in state.enemy_heroes for h in state.enemies_in(zone)):  # stunned ones don't count
            return f"no defending heroes are in the Tomb Entrance's zone at the end of round {state.round}"
    return None


def _idols_score(state: "HuntikState") -> str | None:
    scored = 0
    for h in state.lead_units(heroes_only=True):
        zone = state.zone_of(h)
        points = {3: 1, 4: 2, 5: 3}.get(zone, 0)
        if points and any(state.feature_prog(f).scores_twice for f in state.carried_by(h)):
            points *= 2
        scored += points
    if scored:
        state.counters["points"] += scored
        state.note(f"Control the Idols of Omeed: your heroes score {scored} (total {state.counters['points']}; the defender has 0)")
    if state.round == 7:
        if state.counters["points"] > 0:
            return f"{state.counters['points']} points to the defending player's 0 at the end of round 7"
    return None


def _vlad(state: "HuntikState") -> str | None:
    if state.round in (5, 7):
        for f in state.features("vlads-bag-of-amulets"):
            h = state.carrier.get(f)
            if h is not None and state.controlled_by_lead(h):
                return f"your hero has Vlad's Bag of Amulets at the end of round {state.round}"
    return None


def _gargoyle_start(state: "HuntikState") -> None:
    for f in state.features("gargoyle"):
        zone = state.zone_of(f)
        if zone and zone > 1:
            state.put_feature(f, zone - 1)
            state.note(f"Catch the Gargoyle: the Gargoyle is put into zone {zone - 1}")


def _bulls_start(state: "HuntikState") -> None:
    if state.round in (3, 5):
        for f in state.features("bull"):
            if state.zone_of(f):
                state.exhausted[f] = False
        state.note(f"Corral the Bulls: the Bulls ready (start of round {state.round})")


def _spout_start(state: "HuntikState") -> None:
    for f in state.features("water-spout"):
        zone = state.zone_of(f)
        options = [z for z in (2, 3, 4) if z != zone]
        new = state.rng.choice(options)
        state.put_feature(f, new)
        state.note(f"the defending player puts the Water Spout into zone {new}")


def _explosive_start(state: "HuntikState") -> None:
    """Explosive, Force Investigation: in zone 3 or 4 with no defending hero in its zone, all
    defending heroes are put there (a goldfish defender has none unless a position was built)."""
    for f in state.features("explosive"):
        zone = state.zone_of(f)
        if zone in (3, 4) and not any(h in state.enemy_heroes for h in state.enemies_in(zone, unstunned=False)):
            for h in sorted(state.enemy_heroes):
                if state.zone_of(h) and state.zone_of(h) != zone:
                    state.move_unit(h, zone)
                    state.note(f"Force Investigation: {state.label(h)} is put into zone {zone}")


SEARCH_CAVE = _grant("search-cave", "Search for the Hidden Cave", "free", ("search_cave",))

MISSIONS: dict[str, Mission] = {m.key: m for m in (
    Mission("deliver-the-ring-of-art", "Deliver the Ring of Arc", "DEM", "training",
            (("ring-of-arc", 1, 1, {}),), "the Ring of Arc is in zone 4",
            check=_feature_in("ring-of-arc", 4, "the Ring of Arc"), aliases=("Deliver the Ring of Art",)),
    Mission("defeat-ymir-frost-king-145", "Defeat Ymir: Frost King (145)", "145", "unknown",
            (("ymir-frost-king", 4, 1, {}),), "Ymir: Frost King is KO'd",
            check=_ko("ymir-frost-king", "Ymir: Frost King")),
    Mission("escape-the-mansion", "Escape the Mansion", "146", "unknown",
            (("mansion-door", 4, 1, {}),), "3 heroes escape the mansion",
            check=_progress(3, "escaped the mansion"), progress="heroes escaped"),
    Mission("escape-with-the-ring-of-arc", "Escape with the Ring of Arc", "147", "unknown",
            (("fake-ring-of-arc", 0, 3, {}), ("ring-of-arc", 0, 1, {})), "the Ring of Arc is in zone 5",
            check=_feature_in("ring-of-arc", 5, "the Ring of Arc"), rings=True),
    Mission("retrieve-the-ring-of-arc", "Retrieve the Ring of Arc", "148", "unknown",
            (("ring-of-arc", 4, 1, {}),), "the Ring of Arc is in zone 1",
            check=_feature_in("ring-of-arc", 1, "the Ring of Arc")),
    Mission("catch-the-gargoyle", "Catch the Gargoyle", "149", "mutual",
            (("gargoyle", 4, 1, {"water": 3}),), "a lead hero catches the Gargoyle once it has no Water counters",
            start_round=_gargoyle_start),
    Mission("corral-the-bulls", "Corral the Bulls", "150", "mutual",
            (("bull", 2, 1, {}), ("bull", 3, 1, {}), ("bull", 4, 1, {})), "all 3 Bulls are in zone 1",
            check=_bulls, start_round=_bulls_start),
    Mission("defeat-ymir-frost-king-151", "Defeat Ymir: Frost King (151)", "151", "mutual",
            (("ymir-frost-king", 4, 1, {}), ("frost-minion", 4, 2, {}), ("ignatius-lava-lord", 1, 1, {})),
            "Ymir: Frost King is KO'd", check=_ko("ymir-frost-king", "Ymir: Frost King"),
            notes=("a stunned Frost Minion does not count as being in Ymir's zone",)),
    Mission("draw-the-enemy-away-from-the-tomb", "Draw the Enemy Away from the Tomb", "152", "mutual",
            (("explosive", 2, 1, {}), ("tomb-entrance", 5, 1, {})),
            "at the end of rounds 3 to 7, no defending hero is in the Tomb Entrance's zone", end_round=_tomb,
            start_round=_explosive_start),
    Mission("escape-the-haunted-mine", "Escape the Haunted Mine", "153", "mutual",
            (("ghostly-bear", 2, 1, {}), ("ghostly-shift", 0, 1, {})), "2 heroes climb the Ghostly Shaft",
            check=_progress(2, "climbed the Ghostly Shaft"), progress="heroes climbed"),
    Mission("get-the-argo-out-of-the-water", "Get the Argo Out of the Water", "154", "mutual",
            (("argo", 1, 1, {}),), "the Argo is in zone 5", check=_feature_in("argo", 5, "the Argo")),
    Mission("go-to-the-hidden-cave", "Go to the Hidden Cave", "155", "mutual",
            (("water-spout", 3, 1, {}), ("speedboat", 1, 2, {}), ("hidden-cave", 0, 1, {})),
            "2 heroes enter the Hidden Cave", check=_progress(2, "entered the Hidden Cave"),
            start_round=_spout_start, grants=((4, SEARCH_CAVE),), progress="heroes in the cave"),
    Mission("take-the-bigfoot-captive", "Take the Bigfoot Captive", "156", "mutual",
            (("bigfoot", 5, 1, {"escape": 1}), ("glacier-of-dreams", 2, 1, {})), "Bigfoot is KO'd",
            check=_ko("bigfoot", "Bigfoot")),
    Mission("control-the-idols-of-omeed", "Control the Idols of Omeed", "157", "training",
            (("golden-idol", 1, 1, {}), ("golden-idol", 5, 1, {})),
            "more points than the defending player at the end of round 7 (1, 2, 3 points a hero in zones 3, 4, 5 "
            "at the end of each round, twice for a hero with a Golden Idol)", end_round=_idols_score, progress=""),
    Mission("retrieve-vlads-amulets", "Retrieve Vlad's Amulets", "158", "training",
            (("antedeluvian", 3, 1, {}), ("vlads-bag-of-amulets", 3, 1, {})),
            "your hero has Vlad's Bag of Amulets at the end of round 5 or 7", end_round=_vlad),
)}

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
