"""The Huntik goldfish State: setup (Huntik 101), queries and conditions; the rest comes from its mixins."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckhub.core.ops import STOP
from deckhub.core.state import CounterSpec, EngineError, State, ZoneSpec
from deckhub.core.tables import cache, fixed
from deckhub.games.huntik.board import MAP, ZONE_NO, _VALUE_ATOMS
from deckhub.games.huntik.effects import Program, compile_card, needs_of
from deckhub.games.huntik.missions import FEATURES, Feature, Mission, MissionOps, find_mission
from deckhub.games.huntik.actions import HuntikActions
from deckhub.games.huntik.combat import HuntikCombat
from deckhub.games.huntik.moves import HuntikMoves
from deckhub.games.huntik.ops import HuntikOps
from deckhub.games.huntik.views import HuntikViews

# Bound once, for speed: CPython 3.11 compiles `NAME.method(...)` on a name bound by `import` as an
# attribute load plus a call, making a new bound method each time (zone_of runs ~900 times a game).
_zone_number = ZONE_NO.get


@dataclass
class HuntikTable:
    """Everything a Huntik game adds to the core's State, by instance id where it is a list
    (the one declaration `State.clone` copies)."""

    mission: Mission = fixed()
    progs: list[Program] = fixed()  # each instance's compiled card
    feature_of: dict[int, Feature] = fixed()  # a feature instance -> what the mission's feature does
    features_by_key: dict[str, list[int]] = fixed()  # a feature's card key -> its instances
    _units: tuple[list[int], list[int]] | None = cache()  # lead_units (all, heroes only) until a card moves
    exhausted: list[bool]
    stunned: list[bool]
    lasting_bonus: list[int]  # +N ATK / +N DEF that stays until the card leaves play
    feature_counters: dict[int, dict[str, int]]  # counters on a feature (escape, survival ...)
    face_down: set[int]  # face-down Rings (Ring of Arc missions)
    ring_pool: list[int]  # face-down Rings not yet put on the map
    feature_controller: dict[int, str | None]  # who controls an obstacle ("lead" | "defender" | None)
    carrier: dict[int, int]  # feature -> the hero it is with
    enemy_heroes: set[int]  # heroes the defending player controls (see place_enemy_hero)
    last_zone: dict[int, int]  # the zone a card left play from ("eliminate me to KO ... in my zone")
    knocked_out_keys: set[str]  # card keys of the features KO'd (mission terms)
    copy_stats: dict[int, tuple[int, int]]  # Copyform: an action card in play as a hero
    round_mods: list[tuple]  # "this round" modifiers
    combat_mods: list[tuple]  # "this combat" modifiers
    combat: dict[str, Any] | None  # the combat being fought: zone, starter, totals, sets of heroes
    mulligan_marked: list[int]  # cards of the opening hand marked for the mulligan
    round: int
    majors_played: int
    major_allowance: int
    initiative: bool
    go_again: bool
    passes: int
    first_player: str


class HuntikState(HuntikActions, HuntikMoves, HuntikOps, MissionOps, HuntikCombat, HuntikViews, State):
    ZONES = (
        ZoneSpec("deck", "Deck", hidden=True),
        ZoneSpec("hand", "Hand"),
        ZoneSpec("z1", "Zone 1"),
        ZoneSpec("z2", "Zone 2"),
        ZoneSpec("z3", "Zone 3"),
        ZoneSpec("z4", "Zone 4"),
        ZoneSpec("z5", "Zone 5"),
        ZoneSpec("discard", "Discard pile", pile=True),
        ZoneSpec("legendary", "Legendary hero pile"),
        ZoneSpec("removed", "Removed from the map", pile=True),
        ZoneSpec("resolving", "Being played", manual_target=False),
    )
    COUNTERS = (CounterSpec("progress", "Mission progress"), CounterSpec("points", "Your mission points"))
    PHASES = ("mulligan", "turn", "combat")
    EMPTY_DECK = (STOP, "the deck is empty: nothing to draw (Huntik 400: only cards in decks are drawn)")
    DRAW_NOTE = "count"
    SEARCH_MAY_DECLINE = True  # the deck is yours alone to see: any search may come back empty-handed
    TABLE = HuntikTable

    # -- setup (Huntik 101) -------------------------------------------------------------------
    def setup(self, deck, catalogue) -> None:
        self.mission = find_mission(self.options["mission"])
        self._units = None
        sections = deck.sections
        main = "Deck" if "Deck" in sections or len(sections) != 1 else next(iter(sections))
        try:
            cards = deck.expand(main, catalogue)
            pile = deck.expand("Legendary Hero Pile", catalogue) if main != "Legendary Hero Pile" else []
        except KeyError as exc:
            raise EngineError(f"card {exc.args[0]!r} is not in the Huntik catalogue") from None
        if not cards:
            raise EngineError("the deck has no cards in its Deck section")
        bad = [c.display_name for c in cards if (c.type or "") in ("mission", "feature")]
        if bad:
            raise EngineError(f"missions and features are not deck cards (Huntik 100): {', '.join(sorted(set(bad)))}")
        self.shuffle_items(cards)
        self.progs = []
        self.feature_of = {}
        for card in cards:
            self._add(card, "deck", catalogue)
        for card in pile:
            self._add(card, "legendary", catalogue)
        # the mission's features (Huntik 305); face-down rings are shuffled before they get ids
        self.features_by_key = {}
        self.feature_counters = {}
        self.face_down = set()
        self.ring_pool = []
        placed = []
        for key, zone, count, counters in self.mission.setup:
            card = catalogue.get(key)
            if card is None:
                raise EngineError(f"the mission {self.mission.label} needs the feature {key!r}, which the catalogue lacks")
            placed.extend((card, zone, dict(counters)) for _ in range(count))
        if self.mission.rings:
            self.shuffle_items(placed)
        n0 = len(self.cards)
        self.exhausted = [False] * n0
        self.stunned = [False] * n0
        self.lasting_bonus = [0] * n0
        for card, zone, counters in placed:
            iid = self._add(card, MAP[zone - 1] if zone else "removed", catalogue)
            self.exhausted.append(False)
            self.stunned.append(False)
            self.lasting_bonus.append(0)
            self.feature_of[iid] = FEATURES[key] if (key := card.key) in FEATURES else Feature(card.key, card.name)
            self.features_by_key.setdefault(card.key, []).append(iid)
            if counters:
                self.feature_counters[iid] = counters
            if self.mission.rings and card.key in ("ring-of-arc", "fake-ring-of-arc"):
                self.face_down.add(iid)
                self.ring_pool.append(iid)
        self.feature_controller = {f: self.feature_of[f].controller for f in self.feature_of}
        self.carrier = {}
        self.enemy_heroes = set()
        self.last_zone = {}
        self.knocked_out_keys = set()
        self.copy_stats = {}
        self.round_mods = []
        self.combat_mods = []
        self.combat = None
        self.round = 1
        self.turn = 1
        self.majors_played = 0
        self.major_allowance = 1
        self.initiative = False
        self.go_again = False
        self.passes = 0
        self.first_player = "defender"
        self.mulligan_marked = []
        self.phase = "mulligan"
        self.deal(5)
        feats = ", ".join(f"{self.fname(f)} in zone {self.zone_of(f)}" for f in self.feature_of if self.zone_of(f))
        side = [f for f in self.feature_of if not self.zone_of(f)]
        self.note(f"mission: {self.mission.label} (win: {self.mission.terms}); "
                  + (f"features: {feats}" if feats else "no features on the map")
                  + (f"; to the side of the map: {len(side)} feature(s)" if side else ""))
        self.note(f"shuffled {len(cards)} cards and drew {len(self.zones['hand'])}; you may mulligan once (Huntik 101)")

    def _add(self, card, zone: str, catalogue) -> int:
        iid = self.new_instance(card, zone)
        self.progs.append(catalogue.compiled(compile_card, card))
        return iid

    # -- queries --------------------------------------------------------------------------------
    def zone_of(self, iid: int) -> int:
        return _zone_number(self.where[iid], 0)

    def my_zone(self, me: int | None) -> int:
        """The zone of the card whose text is resolving, or the zone it last left (its power may
        have had it eliminate itself first)."""
        if me is None:
            return 0
        return _zone_number(self.where[me], 0) or self.last_zone.get(me, 0)

    def fname(self, f: int) -> str:
        if f in self.face_down:
            return f"a face-down Ring (#{f})"
        return f"{self.feature_of[f].label} (#{f})" if f in self.feature_of else self.label(f)

    def label(self, iid: int) -> str:
        if iid in self.feature_of:
            return self.fname(iid)
        return f"{self.progs[iid].name} (#{iid})"

    def name_of(self, iid: int, zone: str | None = None) -> str:
        if iid in self.face_down:
            return f"a face-down Ring (#{iid})"
        return super().name_of(iid, zone)

    def features(self, key: str) -> list[int]:
        return self.features_by_key.get(key, [])

    def feature_prog(self, f: int) -> Feature:
        return self.feature_of[f]

    def is_hero(self, iid: int) -> bool:
        return self.where[iid] in ZONE_NO and (self.progs[iid].hero or iid in self.copy_stats)

    def is_obstacle(self, iid: int) -> bool:
        return iid in self.feature_of and self.feature_of[iid].obstacle and iid not in self.face_down

    def controller(self, iid: int) -> str | None:
        if self.where[iid] not in ZONE_NO:
            return None
        if iid in self.feature_of:
            return self.feature_controller.get(iid) if self.feature_of[iid].obstacle else None
        return "defender" if iid in self.enemy_heroes else "lead"

    def controlled_by_lead(self, iid: int) -> bool:
        """`controller(iid) == "lead"`, answered without the call (the policy asks it ~270 times a game)."""
        if self.where[iid] not in ZONE_NO:
            return False
        feature = self.feature_of.get(iid)
        if feature is not None:
            return feature.obstacle and self.feature_controller.get(iid) == "lead"
        return iid not in self.enemy_heroes

    def move(self, iid: int, to: str, bottom: bool = False) -> None:
        self._units = None  # every change of zone can change who stands where
        super().move(iid, to, bottom)

    def lead_units(self, heroes_only: bool = False) -> list[int]:
        """Your heroes and the obstacles you control, in zone order (cached until a card moves or
        changes controller)."""
        cached = self._units
        if cached is None:
            cached = self._units = (self._lead_units(False), self._lead_units(True))
        return list(cached[heroes_only])

    def _lead_units(self, heroes_only: bool) -> list[int]:
        found = []
        for z in MAP:
            for i in self.zones[z]:
                if i in self.feature_of:
                    if not heroes_only and self.feature_controller.get(i) == "lead" and self.feature_of[i].obstacle:
                        found.append(i)
                elif (self.progs[i].hero or i in self.copy_stats) and i not in self.enemy_heroes:
                    found.append(i)
        return found

    def enemies_in(self, zone: int, unstunned: bool = True) -> list[int]:
        """Enemy heroes and obstacles in a zone (a goldfish defender has heroes only in hand-built positions)."""
        return [i for i in self.zones[MAP[zone - 1]]
                if ((i in self.feature_of and self.feature_controller.get(i) == "defender" and self.feature_of[i].obstacle) or i in self.enemy_heroes)
                and not (unstunned and self.stunned[i])]

    def place_enemy_hero(self, iid: int, zone: int) -> None:
        """Put a hero card into play under the defending player's control (it never acts, but it
        blocks, fights back and can be targeted): for the rulebook's examples and hand-built positions."""
        if not self.progs[iid].hero:
            raise EngineError(f"{self.label(iid)} is not a hero")
        self.carrier.pop(iid, None)
        self.move(iid, MAP[zone - 1])
        self.exhausted[iid] = self.stunned[iid] = False
        self.enemy_heroes.add(iid)
        self._units = None

    def heroes_in_play(self, side: str) -> tuple[int, int]:
        """(major and legendary, minor) heroes `side` controls in play, stunned ones too (a stunned
        card keeps its controller, Huntik 407): the counts of Huntik 102's tie-break."""
        big = small = 0
        for z in MAP:
            for i in self.zones[z]:
                if self.is_hero(i) and self.controller(i) == side:
                    kind = self.progs[i].kind
                    big += kind in ("major", "legendary")
                    small += kind == "minor"
        return big, small

    def carried_by(self, hero: int) -> list[int]:
        return [f for f, h in self.carrier.items() if h == hero]

    def has_object(self, hero: int) -> bool:
        return any(self.feature_of[f].object for f in self.carried_by(hero))

    def text_on(self, iid: int) -> bool:
        """A stunned card has no text (Huntik 407); Copyform in play has none either."""
        return not self.stunned[iid] and iid not in self.copy_stats

    def _static(self, iid: int, name: str) -> bool:
        return name in self.progs[iid].statics and self.text_on(iid)

    def atk(self, iid: int) -> int:
        return self._stats(iid)[0]

    def def_(self, iid: int) -> int:
        return self._stats(iid)[1]

    def _stats(self, iid: int) -> tuple[int, int]:
        feature_of = self.feature_of  # (locals: the policy asks for stats ~230 times a game)
        feature = feature_of.get(iid)
        if feature is not None:
            a, d = feature.atk, feature.def_
        elif iid in self.copy_stats:
            a, d = self.copy_stats[iid]
        else:
            prog = self.progs[iid]
            a, d = prog.atk, prog.def_
        bonus = self.lasting_bonus[iid]
        a += bonus
        d += bonus
        if feature is None and not self.stunned[iid] and iid not in self.copy_stats:  # text_on(iid)
            statics = self.progs[iid].statics
            if statics:
                if "zone_atk" in statics:
                    a += self.zone_of(iid)
                if "object_bonus" in statics and self.has_object(iid):
                    a += 2
                    d += 2
                if "teamwork" in statics:
                    zone = self.where[iid]
                    # "each other friendly minor hero in my zone" (Huntik 401): stunned ones stay there
                    # and count; enemy ones do not
                    side = self.controller(iid)
                    mates = sum(1 for j in self.zones.get(zone, ()) if j != iid and j not in self.feature_of
                                and self.progs[j].kind == "minor" and self.controller(j) == side)
                    a += mates
                    d += mates
        for f, h in self.carrier.items():
            if h == iid and f not in self.face_down:
                carried = feature_of[f].carry_bonus
                a += carried[0]
                d += carried[1]
        swap = False
        for m in self.round_mods:
            if m[1] == iid:
                if m[0] == "stat":
                    a += m[2]
                    d += m[3]
                elif m[0] == "swap":
                    swap = not swap
        for m in self.combat_mods:
            if m[0] == "stat" and m[1] == iid:
                a += m[2]
                d += m[3]
        if swap:
            a, d = d, a
        return max(a, 0), max(d, 0)

    def unblockable(self, iid: int) -> bool:
        if self.stunned[iid]:
            return False
        if iid not in self.feature_of and self.progs[iid].unblockable and self.text_on(iid):
            return True
        if any(self.feature_of[f].carry_unblockable for f in self.carried_by(iid)):
            return True
        lead = self.controlled_by_lead(iid)
        for m in self.round_mods:
            if m[0] == "unblockable" and (m[1] == iid or (m[1] == "friendly" and lead and self.is_hero(iid))):
                return True
        if lead and self.is_hero(iid):
            for j in self.lead_units(heroes_only=True):
                if self._static(j, "all_unblockable"):
                    return True
        return False

    def zone_blocks(self, zone: int, iid: int) -> bool:
        """An enemy hero or obstacle (or a feature that blocks lead heroes) in `zone` (Huntik 403)."""
        for j in self.zones[MAP[zone - 1]]:
            if j in self.enemy_heroes and not self.stunned[j] and self.controlled_by_lead(iid):
                return True
            if j in self.feature_of and not self.stunned[j]:
                f = self.feature_of[j]
                if f.obstacle and self.feature_controller.get(j) == "defender" and self.controlled_by_lead(iid):
                    return True
                if f.blocks_lead and self.is_hero(iid):
                    return True
        return False

    def reach(self, iid: int, forward_max: int, back_max: int, unblockable: bool) -> list[int]:
        """Zones a unit can move into from its zone: forward is blocked past or out of a zone with an
        enemy (into it is fine), back never (Huntik 403)."""
        z = self.zone_of(iid)
        found = []
        for step in range(1, forward_max + 1):
            t = z + step
            if t > 5:
                break
            if not unblockable and self.zone_blocks(t - 1, iid):
                break
            found.append(t)
        for step in range(1, back_max + 1):
            t = z - step
            if t < 1:
                break
            found.append(t)
        return found

    def move_range(self, iid: int) -> tuple[int, int]:
        """(forward, back) zones a unit may move on its own."""
        if iid in self.feature_of:
            return (0, 0) if self.feature_of[iid].cant_move else (2, 2)
        prog = self.progs[iid]
        if not self.text_on(iid):
            return (2, 2)
        if prog.lazy:
            return (0, 0)
        most = prog.move_max
        if prog.object_move_max and self.has_object(iid):
            most = max(most, prog.object_move_max)
        return (max(most, prog.fwd_max or 0), most)

    def in_combat(self, iid: int) -> bool:
        c = self.combat
        return (c is not None and self.zone_of(iid) == c["zone"] and not self.stunned[iid]
                and self.controller(iid) is not None)

    def combatants(self, side: str) -> list[int]:
        c = self.combat
        if c is None:
            return []
        if side == "defender":
            return self.enemies_in(c["zone"])
        return [i for i in self.zones[MAP[c["zone"] - 1]] if self.controlled_by_lead(i) and not self.stunned[i]
                and (i not in self.feature_of or self.feature_of[i].obstacle)]

    def alone(self, iid: int) -> bool:
        return not any(j != iid and self.is_hero(j) and not self.stunned[j] for j in self.zones[self.where[iid]])

    # -- filters and conditions -----------------------------------------------------------------
    def card_ok(self, filt: tuple, iid: int) -> bool:
        """A card (in any area) matches a card description: a tuple of atoms such as ("minor",) or
        ("hero", ("def_le", 3)), or one atom with a value such as ("name_has", "Suit")."""
        prog = self.progs[iid]
        if len(filt) == 2 and filt[0] in _VALUE_ATOMS and not isinstance(filt[1], tuple):
            filt = (filt,)
        for atom in filt:
            if atom == "hero":
                ok = prog.hero
            elif atom in ("minor", "major"):
                ok = prog.kind == atom
            elif atom == "action":
                ok = prog.kind == "action"
            elif atom[0] == "name_has":
                ok = atom[1].casefold() in prog.name.casefold()
            elif atom[0] == "not_name_has":
                ok = atom[1].casefold() not in prog.name.casefold()
            elif atom[0] == "def_le":
                ok = prog.def_ <= atom[1]
            elif atom[0] == "speed":
                ok = prog.speed == atom[1]
            else:
                ok = False
            if not ok:
                return False
        return True

    def target_ok(self, spec: tuple, t: int, me: int | None) -> bool:
        if self.where[t] not in ZONE_NO or t in self.face_down:
            return False
        stunned = self.stunned[t]
        if stunned != ("stunned" in spec):
            return False
        for atom in spec:
            if atom == "hero":
                ok = self.is_hero(t)
            elif atom == "friendly":
                ok = self.controlled_by_lead(t)
            elif atom == "enemy":
                ok = self.controller(t) == "defender" and self.is_hero(t)
            elif atom in ("minor", "major"):
                ok = t not in self.feature_of and t not in self.copy_stats and self.progs[t].kind == atom
            elif atom == "here":
                ok = bool(self.my_zone(me)) and self.zone_of(t) == self.my_zone(me)
            elif atom == "elsewhere":
                ok = me is not None and self.zone_of(t) != self.my_zone(me)
            elif atom == "ready":
                ok = not self.exhausted[t]
            elif atom == "exhausted":
                ok = self.exhausted[t]
            elif atom == "stunned":
                ok = True
            elif atom == "not_me":
                ok = t != me
            elif atom == "in_combat":
                ok = self.in_combat(t)
            elif atom == "def_le_round":
                ok = self.def_(t) <= self.round
            elif atom[0] == "within":
                ok = bool(self.my_zone(me)) and abs(self.zone_of(t) - self.my_zone(me)) <= atom[1]
            elif atom[0] == "away":
                ok = bool(self.my_zone(me)) and abs(self.zone_of(t) - self.my_zone(me)) == atom[1]
            elif atom[0] == "def_le":
                ok = self.def_(t) <= atom[1]
            elif atom[0] == "def_eq":
                ok = self.def_(t) == atom[1]
            elif atom[0] == "not_named":
                ok = atom[1].casefold() not in self.progs[t].name.casefold()
            else:
                ok = False
            if not ok:
                return False
        return True

    def targets(self, spec: tuple, me: int | None) -> list[int]:
        return [t for z in MAP for t in self.zones[z] if self.target_ok(spec, t, me)]

    def cond(self, atom: Any, me: int | None) -> bool:
        if atom == "never":
            return False
        if atom in ("in_combat", "me_in_combat"):
            return me is not None and self.in_combat(me)
        if atom == "not_in_combat":
            return me is None or not self.in_combat(me)
        if atom == "alone":
            return me is not None and bool(self.zone_of(me)) and self.alone(me)
        if atom == "enemy_here":
            return me is not None and bool(self.zone_of(me)) and bool(self.enemies_in(self.zone_of(me)))
        if atom == "enemy_hero_here":
            return False  # the defending player has no heroes
        if atom == "me_ready":
            return me is not None and not self.exhausted[me]
        if atom == "me_exhausted":
            return me is not None and self.exhausted[me] and not self.stunned[me]
        if atom == "major_me":
            return me is not None and me not in self.feature_of and self.progs[me].kind == "major"
        if atom == "hand_nonempty":
            return bool(self.zones["hand"])
        if atom == "round_1":
            return self.round == 1
        if atom == "other_minors":
            return any(j != me and self.progs[j].kind == "minor" for j in self.lead_units(heroes_only=True) if j not in self.feature_of)
        if atom == "stunned_hero_here":
            return me is not None and any(self.stunned[j] and self.is_hero(j) for j in self.zones[self.where[me]])
        kind = atom[0]
        if kind == "zone":
            return me is not None and self.zone_of(me) == atom[1]
        if kind == "zone_in":
            return me is not None and self.zone_of(me) in atom[1]
        if kind == "hand_min":
            return len(self.zones["hand"]) >= atom[1]
        if kind == "hand_has":
            return any(self.card_ok(atom[1], i) for i in self.zones["hand"])
        if kind == "discard_has":
            return sum(1 for i in self.zones["discard"] if self.card_ok(atom[1], i)) >= atom[2]
        if kind == "round_ge":
            return self.round >= atom[1]
        return False

    def _usable(self, ops: tuple, conds: tuple, me: int | None) -> bool:
        for c in conds:
            if not self.cond(c, me):
                return False
        for spec in needs_of(ops):
            if not self.targets(spec, me):
                return False
        return True
