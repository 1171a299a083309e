"""The ops card text compiles to (effects.py), and the round flow they run in."""
from __future__ import annotations

from deckhub.games.huntik.board import MAP, MAX_ROUNDS, ZONE_NO
from deckhub.games.huntik.effects import GRANTED
from deckhub.games.huntik.views import _bonus, _verb_text


class HuntikOps:
    """The round flow and the effect ops (`_op_<name>`, answers `_res_<name>`)."""

    ORDER_PROMPT = "Several of your powers trigger at once: which resolves first? (Huntik 702)"

    # -- ops ----------------------------------------------------------------------------------
    def after_op(self) -> None:
        """Huntik 102: the mission is won the moment its terms are met, by any op."""
        if self.outcome is None and self.mission.check is not None:
            reason = self.mission.check(self)
            if reason:
                self.win(f"{self.mission.label}: {reason} (Huntik 102)")

    def settle(self) -> None:
        if self.phase != "mulligan":
            self.after_op()

    def _prompt(self, source: int | None, text: str) -> str:
        return f"{self.progs[source].name if source is not None and source not in self.feature_of else 'Choose'}: {text}"

    # turn flow
    def _op_later(self, op, source):
        self.push(op[1], source)

    def _op_turn_done(self, op, source):
        if self.combat is not None:
            return  # the combat's conclusion ends the turn
        self._end_turn()

    def _end_turn(self) -> None:
        self.phase = "turn"
        if self.go_again:
            self.go_again = False
            self.note("go again: you take another turn (Huntik 707)")
            self.passes = 0
        else:
            self.passes = 1  # the defending player's turn: it passes

    def _op_go_again(self, op, source):
        self.go_again = True

    def _op_card_done(self, op, source):
        iid = op[1]
        if self.where[iid] == "resolving":
            self.move(iid, "discard")

    def _op_end_round(self, op, source):
        """Huntik 501: the mission's end-of-round terms, end-of-round triggers, "this round"
        modifiers expire, the round-7 limit, the mission timer."""
        self.phase = "turn"
        if self.mission.end_round is not None:
            reason = self.mission.end_round(self)
            if reason:
                self.win(f"{self.mission.label}: {reason} (Huntik 501)")
                return
        for m in self.round_mods:
            if m[0] == "copyform_elim" and self.where[m[1]] in ZONE_NO:
                self.note("Copyform is eliminated at the end of the round")
                self._leave_play(m[1], "discard")
        for m in self.round_mods:
            if m[0] == "control" and self.feature_controller.get(m[1]) == "lead":
                self.feature_controller[m[1]] = self.feature_of[m[1]].controller
                self._units = None
                self.note(f"you no longer control {self.fname(m[1])}")
        self.round_mods = []
        if self.round >= MAX_ROUNDS:
            self._no_winner_at_the_end()
            return
        self.round += 1
        self.turn = self.round
        self.push((("start_round",),))

    def _no_winner_at_the_end(self) -> None:
        """Nobody has won by the end of round 7: the defending player wins (Huntik 501), except in a
        mutual mission, where the tie goes to whoever controls more major and legendary heroes in
        play, then more minor heroes, then to the defending player (Huntik 102). A mission whose kind
        the card data lacks (SAS 145-148) may or may not be mutual: a tie-break in your favour there
        is not counted as a win, and the loss says why."""
        mine, theirs = self.heroes_in_play("lead"), self.heroes_in_play("defender")
        ahead = next((m > t for m, t in zip(mine, theirs) if m != t), False)
        counts = (f"you control {mine[0]} major and legendary heroes and {mine[1]} minor heroes in play, "
                  f"the defending player {theirs[0]} and {theirs[1]}")
        if ahead and self.mission.kind == "mutual":
            self.win(f"{self.mission.label}: tied at the end of round {MAX_ROUNDS}, and {counts} (Huntik 102)")
        elif ahead and self.mission.kind == "unknown":
            # (worded without "end of round": the simulation's summary files the loss under its unknown)
            self.lose(f"unknown mission kind: the tie-break is not counted ({counts}; Huntik 102's tie-break after "
                      f"round {MAX_ROUNDS} holds only in a mutual mission, and the card data lacks this mission's kind)")
        elif self.mission.kind == "mutual":
            self.lose(f"the mission was not completed by the end of round {MAX_ROUNDS} and the tie-break goes "
                      f"to the defending player: {counts} (Huntik 102)")
        else:
            self.lose(f"the mission was not completed by the end of round {MAX_ROUNDS}: the defending player wins (Huntik 102, 501)")

    def _op_start_round(self, op, source):
        """Huntik 502: unstun, ready all heroes and features, each player draws two, then the
        start-of-round triggers (features' first, Huntik 702)."""
        self.majors_played = 0
        self.major_allowance = 1
        self.note(f"round {self.round} begins")
        for z in MAP:
            for i in self.zones[z]:
                if self.stunned[i]:
                    self.stunned[i] = False
                if i in self.feature_of and self.feature_of[i].no_ready:
                    continue
                self.exhausted[i] = False
        self.draw(2)
        if self.mission.start_round is not None:
            self.mission.start_round(self)
        queued: list[tuple[tuple, int]] = []
        for u in self.lead_units(heroes_only=True):
            if not self.text_on(u):
                continue
            prog = self.progs[u]
            # an if-condition after the trigger is read now, as the power triggers (Venadek, Huntik 702)
            if prog.start_round and all(self.cond(c, u) for c in prog.start_if):
                queued.append(((("if_in_play", prog.start_round),), u))
            if self.round in prog.round_start:
                queued.append(((("if_in_play", prog.round_start[self.round]),), u))
        self.push((("round_opening",),))
        self.push_triggers(queued)  # the lead player (you) chooses their order (Huntik 702)

    def _op_round_opening(self, op, source):
        self._round_opening()

    def _op_if_in_play(self, op, source):
        if source is not None and self.where[source] in ZONE_NO and self.text_on(source):
            self.push(op[1], source)

    # entering play
    def _op_enter(self, op, source):
        _, iid, zone, from_hand, exhausted = op
        if self.where[iid] == "hand" or self.where[iid] in ("discard", "deck", "resolving", "removed", "legendary"):
            self._enter(iid, zone, from_hand, exhausted)

    # effects
    def _op_note(self, op, source):
        self.note(op[1])

    def _op_if(self, op, source):
        if self.cond(op[1], source):
            self.push(op[2], source)

    def _op_discard(self, op, source):
        n = op[1]
        if n <= 0 or not self.zones["hand"]:
            return
        self.ask(self._prompt(source, "discard a card"), [(i, self.label(i)) for i in self.zones["hand"]], op, source)

    def _res_discard(self, op, source, value):
        if self.where[value] == "hand":
            self.discard_from_hand(value)
        if op[1] > 1:
            self.push((("discard", op[1] - 1),), source)

    def _op_discard_filter(self, op, source):
        found = [i for i in self.zones["hand"] if self.card_ok(op[1], i)]
        if found:
            self.ask(self._prompt(source, "discard a card"), [(i, self.label(i)) for i in found], op, source)

    def _res_discard_filter(self, op, source, value):
        if self.where[value] == "hand":
            self.discard_from_hand(value)

    def _op_discard_or_elim(self, op, source):
        if source is None or self.where[source] not in ZONE_NO:
            return
        hand = self.zones["hand"]
        if not hand:
            self.eliminate(source, "no card to discard")
            return
        self.ask(self._prompt(source, f"discard a card, or decline to eliminate {self.progs[source].name}"),
                 [(i, self.label(i)) for i in hand], op, source, optional=True)

    def _res_discard_or_elim(self, op, source, value):
        if value is None or self.where[value] != "hand":
            self.eliminate(source, "no card discarded")
            return
        self.discard_from_hand(value)
        bonus = op[1]
        if bonus and bonus.casefold() in self.progs[value].name.casefold():
            self.draw(1)

    def _op_elim_me(self, op, source):
        if source is not None:
            self.eliminate(source)

    def _op_elim_if(self, op, source):
        if source is not None and self.where[source] in ZONE_NO and self.cond(op[1], source):
            why = {"hand_nonempty": "you have cards in your hand", "round_1": "it is round 1"}.get(op[1], "")
            self.eliminate(source, why)

    def _op_elim_friendly(self, op, source):
        _, spec, alt = op
        found = [t for t in self.lead_units(heroes_only=True) if self.target_ok(("friendly",) + spec, t, source)]
        if not found:
            if alt == "me":
                self.eliminate(source, "no other friendly major hero to eliminate")
            return
        self.ask(self._prompt(source, "eliminate a friendly hero" + (" (decline: eliminate this one)" if alt == "me" else "")),
                 [(t, self.label(t)) for t in found], op, source, optional=alt == "me")

    def _res_elim_friendly(self, op, source, value):
        if value is None:
            self.eliminate(source)
        else:
            self.eliminate(value)

    def _op_target(self, op, source):
        _, spec, verb, optional = op
        found = self.targets(spec, source)
        if not found:
            if not optional:
                self.note(self._prompt(source, "no legal target"))
            return
        self.ask(self._prompt(source, f"choose a target to {_verb_text(verb)}"),
                 [(t, self.label(t)) for t in found], op, source, optional)

    def _res_target(self, op, source, value):
        if value is None or self.where[value] not in ZONE_NO:
            return
        self.apply_verb(op[2], value, source)

    def apply_verb(self, verb, t: int, source: int | None) -> None:
        name = verb if isinstance(verb, str) else verb[0]
        if name == "ko":
            self.ko(t)
        elif name == "stun":
            self.stun(t)
        elif name == "ready":
            if self.exhausted[t] and not self.stunned[t]:
                self.exhausted[t] = False
                self.note(f"{self.label(t)} readies")
        elif name == "exhaust":
            if not self.exhausted[t]:
                self.exhausted[t] = True
                self.note(f"{self.label(t)} is exhausted")
        elif name == "boost":
            self.round_mods.append(("stat", t, verb[1], verb[2]))
            self.note(f"{self.label(t)} gets {_bonus(verb[1], verb[2])} this round")
        elif name == "swap":
            self.round_mods.append(("swap", t))
            self.note(f"{self.label(t)} swaps its ATK and DEF this round")
        elif name == "return_hand":
            self.note(f"{self.label(t)} returns to its owner's hand")
            self._leave_play(t, "hand")
        elif name == "put_step":
            z = self.zone_of(t)
            options = [(w, f"zone {w} ({'forward' if w > z else 'back'})") for w in range(z - verb[1], z + verb[1] + 1)
                       if 1 <= w <= 5 and w != z]
            self.ask(self._prompt(source, f"put {self.label(t)} into which zone?"), options, ("put_to", t), source)
        elif name == "put_back":  # back is read from the card's controller's side (Huntik 403)
            z = self.zone_of(t)
            new = z - verb[1] if self.controlled_by_lead(t) else z + verb[1]
            if 1 <= new <= 5:
                self._relocate(t, new)
                self.note(f"{self.label(t)} is put {verb[1]} zone(s) back, into zone {new}")
        elif name == "put_my_zone":
            if source is not None and self.zone_of(source):
                self._relocate(t, self.zone_of(source))
                self.note(f"{self.label(t)} is put into zone {self.zone_of(t)}")
        elif name == "getaway":
            self.combat_mods.append(("getaway", t))
            self.note(f"if {self.label(t)} would be KO'd this combat, it is stunned and put into zone 1 instead")
            if "santiago" in self.progs[t].name.casefold():
                self.draw(1)
        elif name == "grant":
            self.round_mods.append(("grant", t, verb[1]))
            self.note(f"{self.label(t)} gets \"{GRANTED[verb[1]].label}\" this round")
        elif name == "no_attacks":
            if self.combat:
                self.combat["no_attacks"].add(t)
        # "control" and "noop" only ever name enemy heroes: never reached

    def _res_put_to(self, op, source, value):
        t = op[1]
        if self.where[t] in ZONE_NO:
            self._relocate(t, value)
            self.note(f"{self.label(t)} is put into zone {value}")

    def _op_exhaust_upto(self, op, source):
        n = op[1]
        found = [t for t in self.targets(("hero", "ready"), source)]
        if n <= 0 or not found:
            return
        self.ask(self._prompt(source, f"exhaust a target hero (up to {n} more)"), [(t, self.label(t)) for t in found],
                 op, source, optional=True)

    def _res_exhaust_upto(self, op, source, value):
        if value is None:
            return
        self.apply_verb("exhaust", value, source)
        self.push((("exhaust_upto", op[1] - 1),), source)

    def _op_boost_me(self, op, source):
        if source is not None and self.where[source] in ZONE_NO:
            self.apply_verb(("boost", op[1], op[2]), source, source)

    def _op_boost_me_combat(self, op, source):
        if source is not None and self.where[source] in ZONE_NO and self.combat:
            self.combat_mods.append(("stat", source, op[1], op[2]))
            self.note(f"{self.label(source)} gets {_bonus(op[1], op[2])} this combat")

    def _op_counter_me(self, op, source):
        if source is not None and self.where[source] in ZONE_NO:
            self.lasting_bonus[source] += op[1]
            self.note(f"{self.label(source)} gets {op[1]} +1 ATK and +1 DEF counter(s)")

    def _op_ready_me(self, op, source):
        if source is not None and self.where[source] in ZONE_NO:
            self.apply_verb("ready", source, source)

    def _op_exhaust_me(self, op, source):
        if source is not None and self.where[source] in ZONE_NO:
            self.exhausted[source] = True

    def _op_stun_me(self, op, source):
        if source is not None:
            self.stun(source)

    def _op_no_ko_me(self, op, source):
        if source is not None and self.combat:
            self.combat_mods.append(("no_ko", source))
            self.note(f"{self.label(source)} can't be KO'd in this combat")

    def _op_return_me_hand(self, op, source):
        if source is not None and self.where[source] in ZONE_NO:
            self.note(f"{self.label(source)} returns to your hand")
            self._leave_play(source, "hand")

    def _op_me_to_hand(self, op, source):
        if source is not None and self.where[source] == "discard":
            self.move(source, "hand")
            self.note(f"{self.label(source)} returns from the discard pile to your hand")

    def _op_move_me(self, op, source):
        _, most, fwd_only = op
        if source is None or self.where[source] not in ZONE_NO or self.stunned[source]:
            return
        zones = self.reach(source, most, 0 if fwd_only else most, self.unblockable(source))
        if not zones:
            return
        self.ask(self._prompt(source, f"move {self.label(source)} up to {most} zones{' forward' if fwd_only else ''}"),
                 [(z, f"zone {z}") for z in zones], op, source, optional=True)

    def _res_move_me(self, op, source, value):
        if value is None or self.where[source] not in ZONE_NO:
            return
        src = self.zone_of(source)
        self.note(f"{self.label(source)} moves from zone {src} to zone {value}")
        self._relocate(source, value)
        self.push((("after_move", source, src, True),), source)

    def _op_put_me(self, op, source):
        where = op[1]
        if source is None or self.where[source] not in ZONE_NO or self.stunned[source]:
            return
        z = self.zone_of(source)
        if where == "fwd1":
            if z < 5:
                self._relocate(source, z + 1)
                self.note(f"{self.label(source)} is put 1 zone forward, into zone {z + 1}")
        elif where == "zone5_combat":
            self._relocate(source, 5)
            self.note(f"{self.label(source)} is put into zone 5")
            self.push((("after_move", source, z, False),), source)
        else:
            self.ask(self._prompt(source, f"put {self.label(source)} into any zone"),
                     [(w, f"zone {w}") for w in range(1, 6) if w != z], op, source)

    def _res_put_me(self, op, source, value):
        if self.where[source] in ZONE_NO:
            self._relocate(source, value)
            self.note(f"{self.label(source)} is put into zone {value}")

    def _op_after_move(self, op, source):
        """After a move (or a put that may start one): "when I move" texts, the zone's features,
        then the choice to start a combat (Huntik 403)."""
        _, u, src, moved = op
        if self.where[u] not in ZONE_NO:
            return
        z = self.zone_of(u)
        ops: list[tuple] = []
        if moved:
            for m in self.round_mods:
                if m[0] == "trap" and m[1] == z and self.is_hero(u):
                    ops.append(("stun_unit", u))
            if u not in self.feature_of and self.text_on(u):
                trig = self.progs[u].triggers
                if "move_into" in trig and z != src:
                    ops.extend(trig["move_into"])
                if "moved" in trig:
                    ops.extend(trig["moved"])
            for f in self.zones[MAP[z - 1]]:
                if f in self.feature_of and self.feature_of[f].on_hero_stops and z != src and self.is_hero(u):
                    ops.extend(self.feature_of[f].on_hero_stops)
        ops.append(("combat_option", u))
        self.push(ops, u)

    def _op_stun_unit(self, op, source):
        self.note("Set a Trap springs")
        self.stun(op[1])

    def _op_combat_option(self, op, source):
        u = op[1]
        if self.where[u] not in ZONE_NO or self.stunned[u] or self.combat is not None:
            return
        z = self.zone_of(u)
        if not self.enemies_in(z):
            return
        foes = ", ".join(self.fname(e) for e in self.enemies_in(z))
        self.ask(f"start a combat in zone {z} against {foes}? (Huntik 403)", (("yes", "Start a combat"),), op, u, optional=True)

    def _res_combat_option(self, op, source, value):
        if value == "yes":
            u = op[1]
            self.push((("begin_combat", self.zone_of(u), u),))

    def _op_unblockable_me(self, op, source):
        if source is not None:
            self.round_mods.append(("unblockable", source))
            self.note(f"{self.label(source)} is unblockable this round")

    def _op_unblockable_friendly(self, op, source):
        self.round_mods.append(("unblockable", "friendly"))
        self.note("all your heroes are unblockable this round")

    def _op_add_attacks(self, op, source):
        if self.combat:
            self.combat["added"] += op[1]
            self.note(f"{op[1]} attacks are added to the combat")

    def _op_remove_enemy_attacks(self, op, source):
        if self.combat:
            self.combat["removed"] += op[1]
            self.note(f"{op[1]} enemy attacks are removed from the combat")

    # the core's search op ("search", filter, "hand" | "my_zone", optional): the Huntik words and moves
    def search_finds(self, filt, iid, dest):
        return self.card_ok(filt, iid)

    def search_prompt(self, source, dest):
        return self._prompt(source, f"search your deck for a card ({'to your hand' if dest == 'hand' else 'to put into play'})")

    def search_missed(self, source):
        self.note("searched the deck and found nothing")
        self.shuffle("deck")

    def search_put(self, iid, dest, source):
        if self.where[iid] != "deck":  # moved by hand meanwhile
            return
        if dest == "hand":
            self.move(iid, "hand")
            self.note(f"searched the deck for {self.label(iid)} and put it into your hand")
        elif source is not None and self.where[source] in ZONE_NO:
            self.note(f"searched the deck for {self.label(iid)} and put it into play in zone {self.zone_of(source)}")
            self._enter(iid, self.zone_of(source), False, False)

    def _op_search_or_discard(self, op, source):
        filt = op[1]
        deck = self.distinct([i for i in self.zones["deck"] if self.card_ok(filt, i)])
        pile = [i for i in self.zones["discard"] if self.card_ok(filt, i)]
        if not deck and not pile:
            return
        options = [(i, f"{self.progs[i].name} from the deck") for i in deck] + [(i, f"{self.label(i)} from the discard pile") for i in pile]
        self.ask(self._prompt(source, "put another copy into play in this zone?"), options, op, source, optional=True)

    def _res_search_or_discard(self, op, source, value):
        if value is None:
            return
        from_deck = self.where[value] == "deck"
        if source is not None and self.where[source] in ZONE_NO and self.where[value] in ("deck", "discard"):
            self.note(f"put {self.label(value)} into play in zone {self.zone_of(source)}")
            self._enter(value, self.zone_of(source), False, False)
        if from_deck:
            self.shuffle("deck")

    def _op_from_discard(self, op, source):
        _, filt, dest, optional = op
        found = [i for i in self.zones["discard"] if self.card_ok(filt, i)]
        if not found:
            return
        where = {"hand": "your hand", "top": "the top of your deck", "zone1": "play in zone 1"}[dest]
        self.ask(self._prompt(source, f"choose a card from your discard pile to put into {where}"),
                 [(i, self.label(i)) for i in found], op, source, optional)

    def _res_from_discard(self, op, source, value):
        if value is None or self.where[value] != "discard":
            return
        dest = op[2]
        if dest == "hand":
            self.move(value, "hand")
            self.note(f"returned {self.label(value)} from the discard pile to your hand")
        elif dest == "top":
            self.move(value, "deck")
            self.note(f"put {self.label(value)} from the discard pile on top of your deck")
        else:
            self.note(f"put {self.label(value)} from the discard pile into zone 1")
            self._enter(value, 1, False, False)

    def _op_hand_to_play(self, op, source):
        _, filt, where, optional, exhausted = op
        found = [i for i in self.zones["hand"] if self.progs[i].hero and self.progs[i].kind != "legendary" and self.card_ok(filt, i)]
        if not found:
            return
        if where == "my_zone" and (source is None or self.where[source] not in ZONE_NO):
            return
        self.ask(self._prompt(source, "put a hero card from your hand into play"), [(i, self.label(i)) for i in found],
                 op, source, optional)

    def _res_hand_to_play(self, op, source, value):
        if value is None or self.where[value] != "hand":
            return
        zone = 1 if op[2] == "zone1" else self.zone_of(source) if source is not None and self.zone_of(source) else 1
        self.note(f"put {self.label(value)} from your hand into zone {zone}" + (" exhausted" if op[4] else ""))
        self._enter(value, zone, False, op[4])

    def _op_look_top(self, op, source):
        ids = tuple(reversed(self.zones["deck"][-op[1]:]))
        if not ids:
            return
        self.note(f"looked at the top {len(ids)} card(s) of the deck")
        self.ask(self._prompt(source, "put one of these into your hand (the rest go to the bottom)"),
                 [(i, self.label(i)) for i in ids], ("look_pick", ids), source)

    def _res_look_pick(self, op, source, value):
        ids = op[1]
        if self.where[value] == "deck":
            self.move(value, "hand")
            self.note(f"put {self.label(value)} into your hand")
        rest = [i for i in ids if i != value and self.where[i] == "deck"]
        for i in rest:
            self.move(i, "deck", bottom=True)
        if rest:
            self.note(f"put {len(rest)} card(s) on the bottom of the deck")

    def _op_reveal_top(self, op, source):
        _, filt, yes, no = op
        deck = self.zones["deck"]
        if not deck:
            return
        top = deck[-1]
        if self.card_ok(filt, top):
            if yes == "hand":
                self.move(top, "hand")
                self.note(f"revealed {self.label(top)}: into your hand")
            elif source is not None and self.where[source] in ZONE_NO:
                self.note(f"revealed {self.label(top)}: into play in zone {self.zone_of(source)}")
                self._enter(top, self.zone_of(source), False, False)
            else:
                self.move(top, "discard")
        else:
            self.move(top, "discard")
            self.note(f"revealed {self.label(top)}: into the discard pile")

    def _op_ferric(self, op, source):
        deck = self.zones["deck"]
        if not deck:
            return
        top = deck[-1]
        if self.progs[top].name == op[1]:
            self.move(top, "hand")
            self.note(f"Ferric Warbringer reveals {self.label(top)}, the same action card: into your hand")
        else:
            self.move(top, "discard")
            self.note(f"Ferric Warbringer reveals {self.label(top)}: into the discard pile")

    def _op_mill(self, op, source):
        deck = self.zones["deck"]
        n = 0
        for _ in range(op[1]):
            if deck:
                self.move(deck[-1], "discard")
                n += 1
        if n:
            self.note(f"put the top {n} card(s) of the deck into the discard pile")

    def _op_grant_round(self, op, source):
        self.round_mods.append(("grant", op[1], op[2]))
        self.note(f"this round {'all heroes' if op[1] == 'all' else 'your heroes'} get \"{GRANTED[op[2]].label}\"")

    def _op_play_into(self, op, source):
        if source is not None:
            self.round_mods.append(("play_into", source, op[1]))
            self.note(f"this round you may play {'minor heroes' if op[1] == ('minor',) else 'heroes'} into {self.label(source)}'s zone")

    def _op_initiative(self, op, source):
        self.initiative = True
        self.note("you go first next round")

    def _op_extra_major(self, op, source):
        self.major_allowance += 1
        self.note("you may play an extra major hero this round")

    def _op_trap_zone(self, op, source):
        self.ask(self._prompt(source, "choose a zone to trap this round"), [(z, f"zone {z}") for z in range(1, 6)], op, source)

    def _res_trap_zone(self, op, source, value):
        self.round_mods.append(("trap", value))
        self.note(f"any hero that moves into zone {value} this round is stunned")

    def _op_copyform(self, op, source):
        card = op[1]
        if source is None or self.where[source] not in ZONE_NO or self.where[card] != "resolving":
            return
        self.copy_stats[card] = self._stats(source)
        self._units = None
        self.move(card, self.where[source])
        self.exhausted[card] = False
        self.round_mods.append(("copyform_elim", card))
        self.note(f"Copyform enters play in zone {self.zone_of(card)} as a hero with {self.copy_stats[card][0]} ATK and {self.copy_stats[card][1]} DEF")

    def _op_bladestorm(self, op, source):
        if source is None or self.where[source] not in ZONE_NO:
            return
        # "KO all heroes in my zone": stunned heroes too, they stay in their zone (Huntik 407)
        for t in [t for t in self.zones[self.where[source]] if self.is_hero(t)]:
            self.ko(t)

    def _op_start_combat_here(self, op, source):
        if source is not None and self.where[source] in ZONE_NO and self.enemies_in(self.zone_of(source)):
            self.push((("begin_combat", self.zone_of(source), source),))

    def _op_end_combat(self, op, source):
        if self.combat is not None:
            self.note("the combat ends; no attacks are aimed")
            self._finish_combat()

    def _op_reinforce(self, op, source):
        if not self.combat:
            return
        z = self.combat["zone"]
        found = [t for t in self.lead_units(heroes_only=True) if not self.exhausted[t] and not self.stunned[t] and self.zone_of(t) != z]
        if found:
            self.ask(self._prompt(source, "put a ready friendly hero into this combat exhausted"),
                     [(t, self.label(t)) for t in found], op, source)

    def _res_reinforce(self, op, source, value):
        if self.combat and self.where[value] in ZONE_NO:
            self._relocate(value, self.combat["zone"])
            self.exhausted[value] = True
            self.note(f"{self.label(value)} is put into the combat exhausted")

    def _op_retaliation(self, op, source):
        found = [t for t in self.combatants("lead") if self.is_hero(t)]
        if len(found) < 2:
            return
        self.ask(self._prompt(source, "eliminate a friendly hero in this combat"), [(t, self.label(t)) for t in found], op, source)

    def _res_retaliation(self, op, source, value):
        self.eliminate(value)
        self.push((("target", ("hero", "in_combat", "not_me"), "ko", False),), value)

    def _op_designated_hitter(self, op, source):
        found = [t for t in self.lead_units(heroes_only=True) if not self.exhausted[t] and not self.stunned[t]]
        if found:
            self.ask(self._prompt(source, "return a ready friendly hero to your hand"), [(t, self.label(t)) for t in found], op, source)

    def _res_designated_hitter(self, op, source, value):
        zone = self.zone_of(value)
        self.note(f"{self.label(value)} returns to your hand")
        self._leave_play(value, "hand")
        found = [i for i in self.zones["hand"] if self.progs[i].hero and self.progs[i].kind != "legendary"]
        if found:
            self.ask(self._prompt(source, f"put a hero card from your hand into play in zone {zone}"),
                     [(i, self.label(i)) for i in found], ("put_in_zone", zone, "hand"), source)

    def _res_put_in_zone(self, op, source, value):
        if self.where[value] == op[2]:
            self.note(f"put {self.label(value)} into play in zone {op[1]}")
            self._enter(value, op[1], False, False)

    def _op_outsourcing(self, op, source):
        found = [t for t in self.lead_units(heroes_only=True) if not self.exhausted[t] and not self.stunned[t]]
        if found:
            self.ask(self._prompt(source, "eliminate a ready friendly hero"), [(t, self.label(t)) for t in found], op, source)

    def _res_outsourcing(self, op, source, value):
        zone = self.zone_of(value)
        self.eliminate(value)
        found = [i for i in self.zones["discard"] if self.progs[i].hero and self.progs[i].kind != "legendary"]
        if found:
            self.ask(self._prompt(source, f"put a hero card from your discard pile into play in zone {zone}"),
                     [(i, self.label(i)) for i in found], ("put_in_zone", zone, "discard"), source)

    def _op_regroup(self, op, source):
        found = [t for t in self.lead_units(heroes_only=True) if not self.stunned[t]
                 and any(self.zone_of(o) != self.zone_of(t) for o in self.lead_units(heroes_only=True) if o != t)]
        if found:
            self.ask(self._prompt(source, "choose a friendly hero to put into another friendly hero's zone"),
                     [(t, self.label(t)) for t in found], op, source)

    def _res_regroup(self, op, source, value):
        zones = sorted({self.zone_of(o) for o in self.lead_units(heroes_only=True) if o != value} - {self.zone_of(value)})
        if zones:
            self.ask(self._prompt(source, f"put {self.label(value)} into which friendly hero's zone?"),
                     [(z, f"zone {z}") for z in zones], ("put_to", value), source)

    def _op_bottom_from_discard(self, op, source):
        _, filt, n = op
        if filt == "$self4":  # Get Back to Work!: it and 4 other cards
            if source is not None and self.where[source] == "discard":
                self.move(source, "deck", bottom=True)
                self.note("put Get Back to Work! on the bottom of the deck")
            filt, n = (), 4
        found = [i for i in self.zones["discard"] if self.card_ok(filt, i)]
        if n <= 0 or not found:
            return
        self.ask(self._prompt(source, f"put a card from your discard pile on the bottom of your deck ({n} to go)"),
                 [(i, self.label(i)) for i in found], ("bottom_pick", filt, n), source)

    def _res_bottom_pick(self, op, source, value):
        if self.where[value] == "discard":
            self.move(value, "deck", bottom=True)
            self.note(f"put {self.label(value)} on the bottom of the deck")
        if op[2] > 1:
            self.push((("bottom_from_discard", op[1], op[2] - 1),), source)

    def _op_unstun_ready_all(self, op, source):
        for z in MAP:
            for i in self.zones[z]:
                if self.is_hero(i):
                    self.stunned[i] = False
                    self.exhausted[i] = False
        self.note("all heroes are unstunned and ready")

    def _op_ko_stunned_here(self, op, source):
        zone = self.my_zone(source)
        if not zone:
            return
        found = [t for t in self.zones[MAP[zone - 1]] if self.is_hero(t) and self.stunned[t]]
        if found:
            self.ask(self._prompt(source, "KO a stunned hero"), [(t, self.label(t)) for t in found], ("ko_pick",), source)

    def _res_ko_pick(self, op, source, value):
        self.ko(value)

    def _op_suits_to_top(self, op, source):
        found = [i for i in self.zones["discard"] if self.card_ok(("name_has", "Suit"), i)]
        if found:
            self.ask(self._prompt(source, "put a Suit card from your discard pile on top of your deck"),
                     [(i, self.label(i)) for i in found], op, source, optional=True)

    def _res_suits_to_top(self, op, source, value):
        if value is None:
            return
        self.move(value, "deck")
        self.note(f"put {self.label(value)} on top of the deck")
        self.push((("suits_to_top",),), source)

    def _op_ice_creatures(self, op, source):
        if source is None or self.where[source] not in ZONE_NO:
            return
        for i in [i for i in self.zones["discard"] if "ice creature" in self.progs[i].name.casefold()]:
            self.note(f"put {self.label(i)} from the discard pile into play in zone {self.zone_of(source)}")
            self._enter(i, self.zone_of(source), False, False)

    def _op_adrenaline(self, op, source):
        """Bull, Adrenaline Surge: a ready Bull in the zone of a hero that used its printed exhaust action."""
        u = op[1]
        if self.where[u] not in ZONE_NO:
            return
        for f in self.zones[self.where[u]]:
            if f in self.feature_of and self.cards[f].key == "bull" and not self.exhausted[f]:
                self.ask(f"Adrenaline Surge: ready {self.label(u)} and exhaust the Bull (#{f})?", (("yes", "Yes"),),
                         ("adrenaline_yes", u, f), u, optional=True)
                return

    def _res_adrenaline_yes(self, op, source, value):
        if value == "yes":
            _, u, f = op
            if self.where[u] in ZONE_NO and self.where[f] in ZONE_NO:
                self.exhausted[u] = False
                self.exhausted[f] = True
                self.note(f"Adrenaline Surge: {self.label(u)} readies, the Bull is exhausted")
