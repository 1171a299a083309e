"""The ops and the turn flow of the engine (mixed into the State)."""
from __future__ import annotations

from typing import Any

from deckhub.games.neopets_battledome import dice
from deckhub.games.neopets_battledome.common import PLAYER_PHASES, ROUNDS_TO_WIN, _dice_text
from deckhub.games.neopets_battledome.effects import STAT_LABELS, Program


class BattledomeOps:
    """The ops card text and the turn flow run as (`_op_<name>`, answers `_res_<name>`), and the
    primitives they move cards with; mixed into `BattledomeState`."""

    # -- playing cards ------------------------------------------------------------------------------
    def _train(self, iid: int) -> None:
        self.move(iid, "codestones")
        self.trained = True
        bonus = ", ".join(f"{v:+d} {STAT_LABELS[k]}" for k, v in self.progs[iid].bonus) or "no bonus"
        self.note(f"attached {self.label(iid)} ({bonus}): level {self.level()}")
        self.phase = "prep"  # "That concludes the Train phase" (Turn: Train)

    def _prep(self, iid: int) -> None:
        prog = self.progs[iid]
        role = prog.role
        self.prepped = True
        if role in ("equipment", "petpet"):
            if len(self.zones["equipment"]) >= int(self.options["equipment_slots"]):
                old = self.zones["equipment"][0]
                self.move(old, "discard")
                self.note(f"{self.label(old)} makes room: to the discard pile (option full_slot)")
            self.move(iid, "equipment")
            self.note(f"equipped {self.label(iid)}{self._bonus_text(prog)}")
            self._enter_effects(iid)
        elif role == "slot":
            if self.zones["faerie"]:
                old = self.zones["faerie"][-1]
                self.move(old, "void")
                self.note(f"{self.label(old)} leaves the Faerie slot: to the Void (option full_slot)")
            self.move(iid, "faerie")
            self.note(f"played {self.label(iid)} into the Faerie slot{self._bonus_text(prog)}")
            self._enter_effects(iid)
        elif role == "one_shot":
            self.move(iid, "discard")
            self.note(f"played {self.label(iid)}{self._bonus_text(prog, ' this turn')}")
            self._turn_effects(iid)
        elif role == "brush":
            self.move(iid, "discard")
            self.note(f"played {self.label(iid)}")
            if self.options["painting"] == "same_species":
                self.push((("paint", iid),), iid)
            else:
                self.note("painting is left to manual moves (option painting): move a Rainbow Pool Neopet onto your Neopet")
        elif role == "play_area":
            self.move(iid, "play_area")
            self.note(f"put {self.label(iid)} into the Play Area{self._bonus_text(prog)}")
            self._enter_effects(iid)
        self._flag_manual(iid)
        if self.phase == "prep":
            self.phase = "battle"  # "Now that you have played your card for the turn" (Turn: Prep)

    def _eat(self, iid: int) -> None:
        prog = self.progs[iid]
        self.move(iid, "void")  # every Food goes to the Void once it resolves (notes §8b)
        self.note(f"ate {self.label(iid)} (Food: not your Prep card){self._bonus_text(prog, ' this turn')}; to the Void")
        self._turn_effects(iid)
        self._flag_manual(iid)

    @staticmethod
    def _bonus_text(prog: Program, when: str = "") -> str:
        parts = [f"{v:+d} {STAT_LABELS[k]}" for k, v in prog.bonus]
        parts += [f"{v:+d} {STAT_LABELS[k]} this turn" for k, v in prog.turn_bonus]
        if prog.ward:
            parts.append(f"{prog.ward} less damage from every hit")
        if prog.reduction and prog.role in ("food", "one_shot"):
            parts.append(f"{prog.reduction} less damage")
        if prog.turn_reduction:
            parts.append(f"{prog.turn_reduction} less damage this turn")
        if prog.shield:
            parts.append(f"{prog.shield} less of the next damage")
        return f": {', '.join(parts)}{when}" if parts else ""

    def _enter_effects(self, iid: int) -> None:
        prog = self.progs[iid]
        mods = self.turn_mods
        for k, v in prog.turn_bonus:  # "this turn" on a card that stays in play
            mods[k] = mods.get(k, 0) + v
        if prog.turn_reduction:
            mods["reduction"] = mods.get("reduction", 0) + prog.turn_reduction
        if prog.shield:
            self.shields[iid] = prog.shield
        if prog.heal:
            self._heal(prog.heal, iid)
        if prog.draw:
            self.draw(prog.draw)

    def _turn_effects(self, iid: int) -> None:
        prog = self.progs[iid]
        mods = self.turn_mods
        for k, v in prog.bonus:
            mods[k] = mods.get(k, 0) + v
        if prog.reduction:
            mods["reduction"] = mods.get("reduction", 0) + prog.reduction
        if prog.shield:
            self.shields[iid] = prog.shield  # lasts past this turn, until it reduces a damage
        if prog.heal:
            self._heal(prog.heal, iid)
        if prog.draw:
            self.draw(prog.draw)

    def _heal(self, amount: int, source: int) -> None:
        before = self.counters["damage"]
        self.counters["damage"] = max(0, before - amount)
        self.note(f"{self.names[source]} heals {before - self.counters['damage']} damage (now {self.counters['damage']})")

    def _flag_manual(self, iid: int) -> None:
        prog = self.progs[iid]
        if prog.manual_text:
            self.note(f"{self.names[iid]}: not automated: {' / '.join(prog.manual_text)} (use manual moves if it applies)")
        elif not prog.behaviour_known:
            self.note(f"{self.names[iid]}: what it does is not in the catalogue (set its values for this game, "
                      "or use manual moves)")

    # -- the queue ---------------------------------------------------------------------------------
    def run(self) -> None:
        """Run queued ops, checking between them for knock-outs, round wins and a missing Neopet
        (so a knock-out by a battle, a card or a manual counter ends the round at once)."""
        queue = self.queue
        while self.pending is None and self.outcome is None:
            if self._check():
                continue
            if not queue:
                return
            op, source = queue.pop()
            self.run_op(op, source)

    def _check(self) -> bool:
        counters = self.counters
        if counters["rounds_won"] >= ROUNDS_TO_WIN:
            self.win(f"won {counters['rounds_won']} rounds: Champion of the Battledome (Turn: End of Round)")
            return True
        if counters["dummy_rounds_won"] >= ROUNDS_TO_WIN:
            self.lose(f"the dummy won {counters['dummy_rounds_won']} rounds (Turn: End of Round)")
            return True
        top = self.active()
        if top is not None and (counters["damage"] or self.hp_can_drop or counters["hp_mod"] < 0):  # printed HP is at least 1
            hp = self.stat("hp")
            if hp is not None and counters["damage"] >= hp:
                self._end_round("dummy")
                return True
        if counters["dummy_damage"] >= self.dummy["hp"]:
            self._end_round("you")
            return True
        if top is None:
            ready = [i for i in self.zones["neopet_deck"] if self.progs[i].role == "neopet"]
            if not ready:
                self.lose("no Neopet left in your Neopet Deck to field")
                return True
            if len(ready) == 1:
                self._field(ready[0])
            else:
                self.ask("Choose the Neopet to send into the Battledome",
                         [(i, self._neopet_label(i)) for i in ready], ("field",))
            return True
        return False

    def _neopet_label(self, iid: int) -> str:
        prog = self.progs[iid]
        stats = ", ".join(f"{STAT_LABELS[s]} {prog.stat(s) if prog.stat(s) is not None else '?'}"
                          for s in ("hp", "attack", "defence", "agility"))
        return f"{self.names[iid]} (#{iid}): {stats}"

    def _field(self, iid: int) -> None:
        self.move(iid, "neopet")
        self.note(f"{self.label(iid)} enters the Battledome (round {self.round})"
                  + ("" if not self.progs[iid].missing else
                     f"; unknown: {', '.join(self.progs[iid].missing)} — set for this game (card_values)"))

    def _end_round(self, winner: str) -> None:
        """Turn: End of Round: the winner's Neopet face up to Round Results, the loser's face down;
        Equipment to the discard pile, Faeries to the Void; inventories kept; the next Neopet in."""
        counters = self.counters
        you_won = winner == "you"
        counters["rounds_won" if you_won else "dummy_rounds_won"] += 1
        if you_won:
            self.note(f"KNOCK-OUT: {self.dummy['name']} takes {counters['dummy_damage']} damage (HP {self.dummy['hp']}): "
                      f"you win round {self.round} ({counters['rounds_won']}-{counters['dummy_rounds_won']})")
        else:
            top = self.active()
            self.note(f"KNOCK-OUT: {self.names[top] if top is not None else 'your Neopet'} takes {counters['damage']} "
                      f"damage: the dummy wins round {self.round} ({counters['rounds_won']}-{counters['dummy_rounds_won']})")
        for iid in list(self.zones["neopet"]) + list(self.zones["codestones"]):
            self.move(iid, "round_results")
            if not you_won:
                self.face_down.add(iid)
        for iid in list(self.zones["equipment"]):
            self.move(iid, "discard")
        for iid in list(self.zones["faerie"]):
            self.move(iid, "void")
        for name in ("damage", "dummy_damage", "attack_mod", "defence_mod", "agility_mod", "hp_mod"):
            counters[name] = 0
        self.turn_mods.clear()
        self.shields.clear()
        self.borrowed.clear()
        self.borrow_used.clear()
        self.round += 1
        if counters["rounds_won"] >= ROUNDS_TO_WIN or counters["dummy_rounds_won"] >= ROUNDS_TO_WIN:
            return
        self.note(f"round {self.round} begins: a fresh {self.dummy['name']}; Equipment to the discard pile, "
                  "Faeries to the Void, your inventory kept")
        if not self.queue and self.phase in PLAYER_PHASES:
            self.push((("end_turn",),))  # the next player in turn order goes on (Turn: End of Round)
        elif not self.queue and self.phase == "dummy":
            self.push((("begin_turn",),))

    # turn flow
    def mulligan_action(self, redraw: bool):
        """Keep the opening inventory, or shuffle it back and draw as many (the `mulligan` option)."""
        return {"kind": "choose", "option": "mulligan" if redraw else "keep"}

    def _op_mulligan(self, op, source):
        n = len(self.zones["inventory"])
        self.ask(f"Keep your opening inventory of {n} cards? (option mulligan: once, before the first turn)",
                 (("keep", "Keep it"), ("mulligan", f"Shuffle it into the Main Deck and draw {n} new cards")), op)

    def _res_mulligan(self, op, source, value):
        if value != "mulligan":
            self.note("kept the opening inventory")
            return
        n = len(self.zones["inventory"])
        for iid in list(self.zones["inventory"]):
            self.move(iid, "deck")
        self.shuffle("deck")
        self.draw(n, quiet=True)
        self.mulliganed = True
        self.note(f"mulligan: shuffled the inventory back and drew {n} new cards")

    def _res_field(self, op, source, value):
        self._field(value)

    def _op_start(self, op, source):
        if self.first:
            self.push((("begin_turn",),))
        else:
            self.push((("dummy_turn",),))

    def _op_begin_turn(self, op, source):
        if self.limit_reached(f" ({self.unresolved} of your battles could not be resolved: values unknown, see card_values)"
                              if self.unresolved else ""):
            return
        self.turn += 1
        self.whose = "you"
        self.phase = "draw"
        self.trained = self.prepped = False
        self.turn_mods.clear()
        self.borrowed.clear()
        self.note(f"turn {self.turn} begins (round {self.round})")
        deck = self.zones["deck"]
        if deck:
            iid = deck[-1]
            self.move(iid, "inventory")  # every turn, the first included (Turn: Draw)
            self.note(f"drew {self.label(iid)}")
        else:
            self._deck_out()
        if self.outcome is None:
            self.phase = "train"

    def _deck_out(self) -> None:
        mode = self.options["deck_out"]
        if mode == "skip":
            self.note("the Main Deck is empty: no draw (option deck_out; no rule found, notes §7)")
        elif mode == "damage":
            self.counters["damage"] += 1
            self.note("the Main Deck is empty: your Neopet takes 1 damage (option deck_out)")
        elif mode == "lose_round":
            self.note("the Main Deck is empty: you lose the round (option deck_out)")
            if self.active() is not None:
                self.counters["damage"] = max(self.counters["damage"], self.stat("hp") or 0)
            self._end_round("dummy")
        else:
            self.lose("had to draw from an empty Main Deck (option deck_out: lose the match)")

    def _op_end_turn(self, op, source):
        self.turn_mods.clear()  # "cards played this turn" stop counting (Turn: Battle)
        self.borrowed.clear()
        self.push((("dummy_turn",),))

    def _op_dummy_turn(self, op, source):
        self.whose = "dummy"
        if self.dummy_attacks:
            self.phase = "dummy"  # a window for Food before the dummy attacks; "next" lets it attack
        else:
            self.push((("begin_turn",),))

    # the battle (Turn: Battle)
    def _op_battle(self, op, source):
        attacker = op[1]
        d = self.dummy
        if attacker == "you":
            att, deff, att_ag, def_ag = self.stat("attack"), d["defence"], self.stat("agility"), d["agility"]
        else:
            unknown = self.unknown_stats(("defence", "agility")) if self.active() is not None else ["neopet"]
            if unknown:
                self.note("the dummy's attack is not resolved: " + (
                    "you have no Neopet in the Battledome" if unknown == ["neopet"] else
                    f"your Neopet's {' and '.join(STAT_LABELS[s] for s in unknown)} unknown (card_values)"))
                return
            att, deff, att_ag, def_ag = d["attack"], self.stat("defence"), d["agility"], self.stat("agility")
        n_att, n_def = dice.dice_pool(att), dice.dice_pool(deff)
        attack, defence = dice.roll(self.rng, n_att), dice.roll(self.rng, n_def)
        who, diff = dice.rerolls(att_ag, def_ag)
        side = None if who is None else (attacker if who == "attacker" else ("dummy" if attacker == "you" else "you"))
        fight = {"attacker": attacker, "attack_value": att, "defence_value": deff, "agility": [att_ag, def_ag],
                 "attack": attack, "defence": defence, "rolled": {"attack": list(attack), "defence": list(defence)},
                 "reroller": side, "reroll_limit": 0, "marked": [], "rerolled": []}
        self.fight = fight
        self.note(f"{'you attack' if attacker == 'you' else self.dummy['name'] + ' attacks'}: {n_att} attack dice "
                  f"({att}{' capped at 10' if att > dice.MAX_DICE else ''}) against {n_def} defence dice: "
                  f"attack {_dice_text(attack)}, defence {_dice_text(defence)}")
        self.push((("damage",),))
        if side is None:
            return
        own = attack if side == attacker else defence
        limit = min(diff, len(own))
        fight["reroll_limit"] = limit
        if limit <= 0:
            return
        role = "attacker" if side == attacker else "defender"
        if side == "you":
            self._ask_reroll()
        else:
            other = defence if role == "attacker" else attack
            picks = dice.greedy_rerolls(role, own, other, limit)
            self._reroll(picks)

    def _ask_reroll(self) -> None:
        fight = self.fight
        own_key = "attack" if fight["reroller"] == fight["attacker"] else "defence"
        own = fight[own_key]
        marked = fight["marked"]
        limit = fight["reroll_limit"]
        options: list[tuple[Any, str]] = [(i, f"mark die {i + 1} (shows {d}) to reroll")
                                          for i, d in enumerate(own) if i not in marked]
        options.append(("done", f"reroll the {len(marked)} marked dice" if marked else "keep the dice as rolled"))
        self.ask(f"Higher Agility: you may reroll up to {limit} of your {own_key} dice and must keep the new results "
                 f"({len(marked)} marked; Turn: Battle, Compare Agility)", options, ("reroll",))

    def _res_reroll(self, op, source, value):
        fight = self.fight
        if value != "done":
            fight["marked"].append(value)
            if len(fight["marked"]) < fight["reroll_limit"]:
                self._ask_reroll()
                return
        self._reroll(fight["marked"])

    def _reroll(self, picks: list[int]) -> None:
        fight = self.fight
        if not picks:
            return
        key = "attack" if fight["reroller"] == fight["attacker"] else "defence"
        before = [fight[key][i] for i in picks]
        fight[key] = dice.reroll(self.rng, fight[key], picks)
        fight["rerolled"] = sorted(picks)
        who = "you" if fight["reroller"] == "you" else self.dummy["name"]
        self.note(f"{who} reroll{'s' if who != 'you' else ''} {len(picks)} {key} "
                  f"{'die' if len(picks) == 1 else 'dice'} ({_dice_text(before)} -> "
                  f"{_dice_text([fight[key][i] for i in picks])}): {key} now {_dice_text(fight[key])}")

    def _op_damage(self, op, source):
        fight = self.fight
        result = dice.resolve(fight["attack"], fight["defence"])
        fight["result"] = result
        amount = result.damage
        if fight["attacker"] == "dummy":
            ward = sum(self.progs[i].ward for z in ("equipment", "faerie", "play_area") for i in self.zones[z])
            if ward and amount:
                cut = min(ward, amount)
                amount -= cut
                self.note(f"your cards in play reduce the damage by {cut}")
            shield = self.turn_mods.get("reduction", 0)
            if shield and amount:
                cut = min(shield, amount)
                amount -= cut
                self.turn_mods["reduction"] = shield - cut
                self.note(f"this turn's cards reduce the damage by {cut}")
            amount = self._shield(amount)
            cards = [i for z in ("equipment", "faerie", "play_area") for i in self.zones[z] if self.progs[i].reduction]
            if amount and cards:
                fight["pending_damage"] = amount
                self.ask(f"The dummy's attack deals {amount} damage: cash in a card to reduce it?",
                         [(i, f"cash in {self.label(i)}: {self.progs[i].reduction} less damage") for i in cards],
                         ("cash_in",), optional=True)
                return
        self._apply_damage(amount)

    def _shield(self, amount: int) -> int:
        """"Reduce the next damage": each such card's reduction is used up by the first damage it
        reduces (the card itself stays); one on a card that has left play is gone with it."""
        for src, cut in list(self.shields.items()):
            if not amount:
                break
            if self.progs[src].role in ("equipment", "petpet", "slot", "play_area") \
                    and self.where[src] not in ("equipment", "faerie", "play_area"):
                del self.shields[src]
                continue
            cut = min(cut, amount)
            amount -= cut
            del self.shields[src]
            self.note(f"{self.label(src)} reduces the next damage by {cut}")
        return amount

    def _res_cash_in(self, op, source, value):
        amount = self.fight["pending_damage"]
        if value is not None:
            cut = min(amount, self.progs[value].reduction)
            self.move(value, "discard")
            self.note(f"cashed in {self.label(value)}: {cut} less damage")
            amount -= cut
        self._apply_damage(amount)

    def _apply_damage(self, amount: int) -> None:
        fight = self.fight
        result = fight["result"]
        target = "dummy_damage" if fight["attacker"] == "you" else "damage"
        self.counters[target] += amount
        who = self.dummy["name"] if target == "dummy_damage" else "your Neopet"
        extra = f" ({result.damage - amount} prevented)" if amount != result.damage else ""
        self.note(f"{result.explain()}{extra}: {who} has {self.counters[target]} damage")
        self.last_battle = {
            "attacker": fight["attacker"], "attack_value": fight["attack_value"],
            "defence_value": fight["defence_value"], "agility": fight["agility"], "rolled": fight["rolled"],
            "reroller": fight["reroller"], "reroll_limit": fight["reroll_limit"], "rerolled": fight["rerolled"],
            "final": {"attack": list(fight["attack"]), "defence": list(fight["defence"])},
            "criticals": result.criticals, "successes": result.successes, "blocks": result.blocks,
            "damage": result.damage, "damage_taken": amount, "turn": self.turn,
        }
        self.fight = None
        self.borrowed.clear()

    def _op_paint(self, op, source):
        targets = self.paint_targets()
        if not targets:
            self.note("no Rainbow Pool Neopet of your Neopet's species to paint into")
            return
        self.ask(f"{self.names[op[1]]}: paint your Neopet into a Rainbow Pool Neopet of its species? "
                 "(option painting: it covers the base; Codestones, Equipment and damage stay)",
                 [(i, self._neopet_label(i)) for i in targets], op, op[1], optional=True)

    def _res_paint(self, op, source, value):
        if value is None:
            return
        base = self.active()
        self.move(value, "neopet")
        self.note(f"painted {self.label(base)} into {self.label(value)}")
