"""The ops and the turn flow of the engine (mixed into the State)."""
from __future__ import annotations

from deckhub.games.kaijudo.common import _items_text
from deckhub.games.kaijudo.effects import match_all, matches


class KaijudoOps:
    """The ops card text and the turn flow run as (`_op_<name>`, answers `_res_<name>`), and the
    primitives they move cards with; mixed into `KaijudoState`."""

    ORDER_PROMPT = "Several abilities trigger at once: which resolves first? (Kaijudo 13)"

    # -- moving cards ---------------------------------------------------------------------------
    def _pay(self, cost: int) -> None:
        tapped = self.tapped
        # tap single-civilization cards last: it does not matter which cards pay (Kaijudo 8)
        for i in self.zones["mana"]:
            if cost <= 0:
                break
            if not tapped[i]:
                tapped[i] = True
                cost -= 1

    def _reset(self, iid: int, to: str) -> None:
        self.entered[iid] = self.turn if to == "battle" else -1
        self.tapped[iid] = self.progs[iid].mana_tapped if to == "mana" else False
        self.boosts.pop(iid, None)

    def _leave(self, top: int, to: str) -> None:
        """A creature leaves the battle zone; the cards beneath it go the same way (Kaijudo 8)."""
        stack = self.under.pop(top, [])
        for i in stack:
            self.beneath.pop(i, None)
        for i in stack + [top]:
            self.move(i, to)
            self._reset(i, to)

    def _enter(self, iid: int) -> None:
        self.move(iid, "battle")
        self._reset(iid, "battle")
        prog = self.progs[iid]
        if prog.enters_tapped:
            self.tapped[iid] = True
        self._entered_triggers(iid)

    def _evolve(self, iid: int, bases: list[int]) -> None:
        self.move(iid, "battle")
        self._reset(iid, "battle")
        stack: list[int] = []
        tapped = False
        for b in bases:
            stack.extend(self.under.pop(b, []))
            stack.append(b)
            tapped = tapped or self.tapped[b]
            self.boosts.pop(b, None)
        self.under[iid] = stack
        for i in stack:
            self.beneath[i] = iid
        self.tapped[iid] = tapped  # evolving from a tapped creature: enters tapped (Kaijudo 8)
        self._entered_triggers(iid)

    def _entered_triggers(self, iid: int) -> None:
        prog = self.progs[iid]
        self._flag_manual(iid)
        ops = []
        etb = prog.triggers.get("etb")
        if etb:
            ops.append((etb, iid))
        for t in self.creatures():
            if t != iid:
                for filt, t_ops in self.progs[t].other_etb:
                    if match_all(prog, filt):
                        ops.append((_bind(t_ops, iid), t))
        self.push_triggers(ops)

    def trigger_label(self, ops: tuple, source: int) -> str:
        return f"{self.names[source]}: {_ops_label(ops)}"

    def _flag_manual(self, iid: int) -> None:
        prog = self.progs[iid]
        if prog.automation != "full":
            self.note(f"{self.names[iid]}: not automated: {' / '.join(prog.manual_text)} (use manual moves if it applies)")

    def _cast(self, iid: int) -> None:
        self._flag_manual(iid)
        triggers = [(self.progs[t].triggers["cast_spell"], t) for t in self.creatures() if "cast_spell" in self.progs[t].triggers]
        self.push_triggers(triggers)  # after the spell, in the order you choose (Kaijudo 13)
        self.push(self.progs[iid].spell + (("spell_done", iid),), iid)

    def _attack(self, iid: int) -> None:
        prog = self.progs[iid]
        self.tapped[iid] = True
        self.note(f"{self.names[iid]} (#{iid}) attacks the dummy")
        if prog.untap_once and iid not in self.untap_used:
            self.untap_used.add(iid)
            self.tapped[iid] = False
            self.note(f"{self.names[iid]} untaps (first time tapped this turn)")
        self.attacking = iid
        self.attacked.add(iid)
        queued: list[tuple[tuple, int]] = []
        if "attack" in prog.triggers:
            queued.append((prog.triggers["attack"], iid))
        if prog.unleash and self.under.get(iid):
            queued.append(((("unleash", prog.unleash),), iid))
        for t in self.creatures():
            for filt, others_only, ops in self.progs[t].ally_attack:
                if others_only and t == iid:
                    continue
                if match_all(prog, filt):
                    queued.append((_bind(ops, iid), t))
        for event, ops, t in self.turn_triggers:
            if event == "ally_attack":
                queued.append((_bind(ops, iid), t))
        self.push((("resolve_attack", iid), ("attack_end", iid)), iid)
        self.push_triggers(queued)

    def banish(self, iid: int) -> None:
        prog = self.progs[iid]
        dest = prog.replace_banish or next(iter(self.statics(iid, "replace_banish")), None) or "discard"
        if dest != "discard":
            self.note(f"{self.names[iid]} would be banished: goes to the {self.zone_label(dest).lower()} instead")
            self._leave(iid, dest)
            return
        self.note(f"{self.names[iid]} is banished")
        self._leave(iid, "discard")
        queued = [(prog.triggers["banished"], iid)] if "banished" in prog.triggers else []
        for t in self.creatures() + [iid]:
            for others_only, ops in self.progs[t].ally_banished:
                if t != iid or not others_only:
                    queued.append((_bind(ops, iid), t))
        self.push_triggers(queued)

    def on_draw(self, iid: int) -> None:
        if self.zones["battle"]:  # (no creature, no draw trigger: most draws)
            progs = self.progs
            self.push_triggers([(progs[t].triggers["draw"], t) for t in self.creatures() if "draw" in progs[t].triggers])

    # phase flow
    def _op_begin_turn(self, op, source):
        if self.limit_reached():
            return
        self.turn += 1
        self.phase = "beginning"
        self.charged = False
        self.untap_used.clear()
        self.attacked.clear()
        self.note(f"turn {self.turn} begins")
        starts = [(self.progs[t].triggers["start_turn"], t) for t in self.creatures() if "start_turn" in self.progs[t].triggers]
        if not starts:  # the usual case, without a trip through the queue: untap, draw (Kaijudo 10A)
            self._op_untap_all(op, source)
            self._op_turn_draw(op, source)
            self.phase = "mana"
            return
        self.push((("untap_all",), ("turn_draw",), ("phase", "mana")))
        self.push_triggers(starts)

    def _op_untap_all(self, op, source):
        tapped = self.tapped
        for zone in ("battle", "mana"):
            for i in self.zones[zone]:
                tapped[i] = False

    def _op_end_turn(self, op, source):
        self.phase = "end"
        self.attacking = None
        ends = [(self.progs[t].triggers["end_turn"], t) for t in self.creatures() if "end_turn" in self.progs[t].triggers]
        self.push((("cleanup",), ("begin_turn",)))
        self.push_triggers(ends)

    def _op_cleanup(self, op, source):
        self.boosts.clear()
        self.turn_triggers.clear()

    def _op_this_turn(self, op, source):
        self.turn_triggers.append((op[1], op[2], source))

    # effects
    def _op_noop(self, op, source):
        pass

    def _op_draw_upto(self, op, source):
        n = min(op[1], len(self.zones["deck"]))
        self.ask(self.prompt(source, f"draw up to {op[1]} cards"), [(k, f"draw {k}") for k in range(n + 1)], op, source)

    def _res_draw_upto(self, op, source, value):
        self.draw(value)

    def _op_top_to(self, op, source):
        dest, n = op[1], op[2]
        deck = self.zones["deck"]
        for _ in range(n):
            if not deck:
                return
            iid = deck[-1]
            self.move(iid, dest)
            self._reset(iid, dest)
            if op[3:] == ("tapped",):
                self.tapped[iid] = True
            self.note(f"put {self.label(iid) if dest != 'shields' else 'the top card'} from the deck into the {self.zone_label(dest).lower()}")

    def _op_top_to_upto(self, op, source):
        n = min(op[2], len(self.zones["deck"]))
        self.ask(self.prompt(source, f"put up to {op[2]} cards from the top of your deck into your {self.zone_label(op[1]).lower()}"),
                 [(k, str(k)) for k in range(n + 1)], op, source)

    def _res_top_to_upto(self, op, source, value):
        if value:
            self._op_top_to(("top_to", op[1], value), source)

    def _candidates(self, zone: str, filt: tuple) -> list[int]:
        progs = self.progs
        ids = self.creatures() if zone == "battle" else self.zones[zone]
        return [i for i in ids if match_all(progs[i], filt)]

    def _op_pick(self, op, source):
        _, src, dst, filt, count, optional, then = op
        found = self._candidates(src, filt)
        if not found:
            if src != "hand" or dst != "discard":
                self.note(self.prompt(source, f"no card to take from the {self.zone_label(src).lower()}"))
            return
        labels = [(i, f"shield #{i}" if src == "shields" else self.label(i)) for i in found]
        verb = "discard" if dst == "discard" and src == "hand" else f"put into your {self.zone_label(dst).lower()}"
        self.ask(self.prompt(source, f"choose a card from your {self.zone_label(src).lower()} to {verb}"), labels, op, source, optional)

    def _res_pick(self, op, source, value):
        _, src, dst, filt, count, optional, then = op
        if value is None:
            return
        self._put(value, dst, source)
        if count > 1:
            self.push((("pick", src, dst, filt, count - 1, optional, then),), source)
        elif then:
            self.push(then, source)

    def _put(self, iid: int, dst: str, source: int | None) -> None:
        src = self.where[iid]
        if src == "battle":
            self._leave(self.beneath.get(iid, iid), dst)
            return
        if dst == "battle":
            self.note(f"put {self.label(iid)} from the {self.zone_label(src).lower()} into the battle zone")
            self._enter(iid)
            return
        shown = self.label(iid) if dst != "shields" else "a card"
        self.move(iid, dst)
        self._reset(iid, dst)
        self.note(f"put {shown} from the {self.zone_label(src).lower()} into the {self.zone_label(dst).lower()}")

    def _op_all_to(self, op, source):
        _, src, dst, filt = op
        for iid in self._candidates(src, filt):
            self._put(iid, dst, source)

    def _op_discard_hand(self, op, source):
        for iid in list(self.zones["hand"]):
            self._put(iid, "discard", source)

    def _who(self, who: str | int, source: int | None) -> list[int] | None:
        """Fixed targets of a boost, or None when the player chooses. A number is the creature a
        trigger named ("it" of "whenever one of your other creatures enters the battle zone, it gets ...")."""
        if who == "self" or who.__class__ is int:
            iid = source if who == "self" else who
            return [iid] if iid is not None and self.where[iid] == "battle" and iid not in self.beneath else []
        if who == "all":
            return self.creatures()
        if who == "all_other":
            return [t for t in self.creatures() if t != source]
        return None

    def _op_boost(self, op, source):
        _, who, items = op
        targets = self._who(who, source)
        if targets is not None:
            for t in targets:
                self.boosts.setdefault(t, []).extend(items)
            if targets:
                self.note(f"{', '.join(self.names[t] for t in targets)}: {_items_text(items)} until the end of the turn")
            return
        found = self.creatures()
        if who == "choose_other":
            found = [t for t in found if t != source]
        elif who == "choose_skirmisher":
            found = [t for t in found if t != source and self.progs[t].skirmisher]
        if not found:
            return
        self.ask(self.prompt(source, f"choose a creature to get {_items_text(items)}"),
                 [(t, self.label(t)) for t in found], op, source)

    def _res_boost(self, op, source, value):
        if self.where[value] != "battle":  # moved by hand meanwhile
            return
        self.boosts.setdefault(value, []).extend(op[2])
        self.note(f"{self.names[value]}: {_items_text(op[2])} until the end of the turn")

    def _op_untap(self, op, source):
        _, who, filt = op
        targets = self._who(who, source)
        if targets is None:
            found = [t for t in self.creatures() if self.tapped[t] and match_all(self.progs[t], filt)
                     and (who != "choose_other" or t != source)]
            if who == "choose_weaker":
                if source is None or self.where[source] != "battle":
                    return
                limit = self.power(source)
                found = [t for t in found if self.power(t) < limit]
            if found:
                self.ask(self.prompt(source, "choose one of your creatures to untap"),
                         [(t, self.label(t)) for t in found], op, source)
            return
        for t in targets:
            if match_all(self.progs[t], filt):
                self.tapped[t] = False

    def _res_untap(self, op, source, value):
        if self.where[value] == "battle":
            self.tapped[value] = False
            self.note(f"untapped {self.label(value)}")

    def fits(self, iid: int, filt: tuple) -> bool:
        """A creature in the battle zone matches a filter; power limits count its power now."""
        for pair in filt:
            kind = pair[0]
            if kind == "max_power_now":
                if self.power(iid) > pair[1]:
                    return False
            elif not matches(self.progs[iid], pair):
                return False
        return True

    def _op_bounce(self, op, source):
        _, optional, dest, filt = op
        found = [t for t in self.creatures() if self.fits(t, filt)]
        if not found:
            self.note(self.prompt(source, "no creature fits the target: nothing returns"))
            return
        self.ask(self.prompt(source, f"choose one of your creatures to return to your {self.zone_label(dest).lower()}"),
                 [(t, self.label(t)) for t in found], op, source, optional)

    def _res_bounce(self, op, source, value):
        if value is None or self.where[value] != "battle" or value in self.beneath:
            return
        dest = op[2]
        self.note(f"returned {self.label(value)} to the {self.zone_label(dest).lower()}")
        self._leave(value, dest)

    def _op_put_battle(self, op, source):
        _, src, filt, count, optional = op
        found = [i for i in self._candidates(src, filt) if self.progs[i].creature]
        if not found:
            return
        self.ask(self.prompt(source, f"choose a creature from your {self.zone_label(src).lower()} to put into the battle zone"),
                 [(i, self.label(i)) for i in found], op, source, optional)

    def _res_put_battle(self, op, source, value):
        _, src, filt, count, optional = op
        if value is None:
            return
        if count > 1:
            self.push((("put_battle", src, filt, count - 1, True),), source)
        self._put(value, "battle", source)

    def _op_look(self, op, source):
        _, n, specs, rest = op
        ids = tuple(reversed(self.zones["deck"][-n:]))
        if ids:
            self.note(self.prompt(source, f"looked at the top {len(ids)} card(s) of the deck"))
            self.push((("look_pick", ids, specs, rest),), source)

    def _op_look_pick(self, op, source):
        _, ids, specs, rest = op
        if not specs:
            left = [i for i in ids if self.where[i] == "deck"]
            for i in left:
                if rest == "bottom":
                    self.move(i, "deck", bottom=True)
                else:
                    self._put(i, rest, source)
            if left and rest == "bottom":
                self.note(f"put {len(left)} card(s) on the bottom of the deck")
            return
        dest, filt, count, optional = specs[0]
        progs = self.progs
        found = [i for i in ids if self.where[i] == "deck" and match_all(progs[i], filt)
                 and (dest != "battle" or progs[i].creature)]
        if not found:
            self.push((("look_pick", ids, specs[1:], rest),), source)
            return
        self.ask(self.prompt(source, f"choose a card to put into your {self.zone_label(dest).lower()}"),
                 [(i, self.label(i)) for i in found], op, source, optional)

    def _res_look_pick(self, op, source, value):
        _, ids, specs, rest = op
        dest, filt, count, optional = specs[0]
        if value is None:
            self.push((("look_pick", ids, specs[1:], rest),), source)
            return
        if count > 1:
            self.push((("look_pick", ids, ((dest, filt, count - 1, optional),) + specs[1:], rest),), source)
        else:
            self.push((("look_pick", ids, specs[1:], rest),), source)
        self._put(value, dest, source)

    # the core's search op ("search", filter, destination, optional): what it finds, where it goes
    def search_finds(self, filt, iid, dest):
        prog = self.progs[iid]
        return match_all(prog, filt) and (dest != "battle" or prog.creature)

    def search_put(self, iid, dest, source):
        self._put(iid, dest, source)

    def _op_peek_bottom(self, op, source):
        deck = self.zones["deck"]
        if deck:
            self.ask(self.prompt(source, f"put {self.label(deck[-1])} (top of your deck) on the bottom?"),
                     (("yes", "Yes"),), op, source, optional=True)

    def _res_peek_bottom(self, op, source, value):
        if value == "yes" and self.zones["deck"]:
            self.move(self.zones["deck"][-1], "deck", bottom=True)
            self.note("put the top card of the deck on the bottom")

    def _op_break(self, op, source):
        shields = self.counters["dummy_shields"]
        n = min(op[1], shields)
        self.counters["dummy_shields"] = shields - n
        if n:
            self.note(f"{self.names[source] if source is not None else 'an effect'} breaks {n} shield(s); the dummy has {shields - n} left")

    def _op_tap_self(self, op, source):
        if source is not None and self.where[source] == "battle":
            self.tapped[source] = True

    def _op_if(self, op, source):
        cond = op[1]
        if cond[0] == "count_other":
            ok = sum(1 for t in self.creatures() if t != source and match_all(self.progs[t], cond[1])) >= cond[2]
        elif cond[0] == "shields_le":
            ok = len(self.zones["shields"]) <= cond[1]
        elif cond[0] == "evolution_in_play":
            ok = any(self.progs[t].evolution is not None for t in self.creatures())
        else:
            ok = False
        if ok:
            self.push(op[2], source)

    def _op_mode(self, op, source):
        self.ask(self.prompt(source, "choose one"), [(k, text) for k, (text, _) in enumerate(op[1])], op, source)

    def _res_mode(self, op, source, value):
        self.push(op[1][value][1], source)

    def _op_unleash(self, op, source):
        beneath = self.under.get(source)
        if not beneath:
            return
        self.ask(self.prompt(source, "Unleash: put a card from under it into your discard pile"),
                 [(i, self.label(i)) for i in beneath], op, source, optional=True)

    def _res_unleash(self, op, source, value):
        if value is None or value not in self.under.get(source, ()):  # moved by hand meanwhile
            return
        self.under[source].remove(value)
        if not self.under[source]:
            del self.under[source]
        del self.beneath[value]
        self.move(value, "discard")
        self._reset(value, "discard")
        self.note(f"unleashed {self.label(value)} from under {self.names[source]}")
        self.push(op[1], source)

    def _op_spell_done(self, op, source):
        iid = op[1]
        if self.where[iid] == "casting":
            self.move(iid, "discard")

    def _op_resolve_attack(self, op, source):
        iid = op[1]
        if self.where[iid] != "battle" or iid in self.beneath:
            self.note(f"{self.names[iid]} left the battle zone: the attack ends")
            return
        shields = self.counters["dummy_shields"]
        if shields == 0:
            self.win(f"{self.names[iid]} attacked the dummy with no shields left (Kaijudo 10D)")
            return
        n = min(self.breaks(iid), shields)
        self.counters["dummy_shields"] = shields - n
        self.note(f"{self.names[iid]} breaks {n} shield(s); the dummy has {shields - n} left")

    def _op_attack_end(self, op, source):
        iid = op[1]
        self.attacking = None
        if self.progs[iid].banish_after_attack and self.where[iid] == "battle" and iid not in self.beneath:
            self.banish(iid)

    def _op_sacrifice(self, op, source):
        """An optional cost "you may banish it / one of your (other) creatures. If you do, ...": the
        creature is banished (a replacement effect may send it elsewhere) and what follows happens
        because the cost was paid, whatever became of it (Kaijudo 13, "Replacement effects and 'if you do'")."""
        _, who, then = op
        if who == "self":
            found = self._who("self", source)
        else:
            found = [t for t in self.creatures() if who != "choose_other" or t != source]
        if found:
            self.ask(self.prompt(source, "banish one of your creatures" + (" to pay for what follows" if then else "")),
                     [(t, self.label(t)) for t in found], op, source, optional=True)

    def _res_sacrifice(self, op, source, value):
        if value is None or self.where[value] != "battle" or value in self.beneath:
            return
        self.banish(value)
        if op[2]:
            self.push(op[2], source)

    def _op_self_to(self, op, source):
        if source is not None and self.where[source] == "battle" and source not in self.beneath:
            self.note(f"{self.names[source]} returns to your {self.zone_label(op[1]).lower()}")
            self._leave(source, op[1])


def _bind(ops: tuple, iid: int) -> tuple:
    """A trigger's ops with "the triggering creature" bound to the creature that triggered it."""
    if ops == "trigger":
        return iid
    if ops.__class__ is tuple:
        return tuple(_bind(op, iid) for op in ops)
    return ops


def _ops_label(ops: tuple) -> str:
    """A triggered ability's effect in a few words, for the choice of order."""
    first = ops[0] if ops else ("nothing",)
    if first[0] == "may":
        return f"you may {first[1]}"
    return ", ".join(str(op[0]).replace("_", " ") for op in ops)
