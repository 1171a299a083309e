"""The ops and the turn flow of the engine (mixed into the State)."""
from __future__ import annotations

from typing import Any

from deckhub.games.neopets_tcg.common import ARENA_SET, MAX_NEOPETS, WIN_POINTS
from deckhub.games.neopets_tcg.contest import ARENAS, Side, resolve


class NeopetsOps:
    """The ops card text and the turn flow run as (`_op_<name>`, answers `_res_<name>`), and the
    primitives they move cards with; mixed into `NeopetsState`."""

    # -- rules primitives ---------------------------------------------------------------------------
    def _played(self, iid: int) -> None:
        """Run what the card says when played; flag text the engine does not do."""
        prog = self.progs[iid]
        if prog.on_play:
            self.push(prog.on_play, iid)
        if not prog.text_known:
            if prog.type in ("Something Has Happened!", "Location"):
                self.note(f"{self.names[iid]}'s text is not in the catalogue: do what it says with manual moves")
        elif prog.manual_text:
            self.note(f"{self.names[iid]}: not automated, use manual moves: {' '.join(prog.manual_text)}")

    def _to_arena(self, iid: int, arena: str) -> None:
        """Move a card in play (with its Equipment) to another arena."""
        self.move(iid, arena)
        for e in self.attached.get(iid, ()):
            self.move(e, arena)

    def _attach(self, equipment: int, target: int) -> None:
        old = self.host[equipment]
        if old >= 0:
            self.attached[old].remove(equipment)
            if not self.attached[old]:
                del self.attached[old]
        self.host[equipment] = target
        self.attached.setdefault(target, []).append(equipment)
        if self.where[equipment] != self.where[target]:
            self.move(equipment, self.where[target])
        self.tapped[equipment] = False

    def _detach(self, equipment: int) -> None:
        old = self.host[equipment]
        if old >= 0:
            self.attached[old].remove(equipment)
            if not self.attached[old]:
                del self.attached[old]
            self.host[equipment] = -1

    def _discard(self, iid: int) -> None:
        """Discard a card: a Basic Neopet goes to the bottom of the Neopet Stack (glossary: discard)."""
        if self.progs[iid].type == "Basic Neopet":
            self.move(iid, "stack", bottom=True)
        else:
            self.move(iid, "discard")
        self.tapped[iid] = False

    def _leave_play(self, iid: int, discard: bool, to: str | None = None, bottom: bool = False) -> None:
        """A card leaves the arenas: its Equipment is discarded (FAQ), an Equipment is detached."""
        for e in self.attached.pop(iid, []):
            self.host[e] = -1
            self._discard(e)
            self.note(f"{self.label(e)} is discarded with it")
        self._detach(iid)
        if discard:
            self._discard(iid)
        else:
            self.move(iid, to, bottom=bottom)
            self.tapped[iid] = False

    def _replace(self, new: int, old: int) -> None:
        """An Experienced Neopet replaces one of the same species: same arena, same tapped state, keeps
        the Equipment; the old one to the bottom of the Stack (Basic) or the discard pile."""
        arena = self.where[old]
        zone = self.zones[arena]
        self.zones["hand"].remove(new)
        zone.insert(zone.index(old), new)
        self.where[new] = arena
        self.tapped[new] = self.tapped[old]
        equipment = self.attached.pop(old, [])
        for e in equipment:
            self.host[e] = new
        if equipment:
            self.attached[new] = equipment
        self._discard(old)
        self.note(f"{self.label(new)} replaces {self.label(old)} in the {arena} arena"
                  + (" (tapped)" if self.tapped[new] else "") + (f", keeping {len(equipment)} Equipment" if equipment else ""))
        self._played(new)

    def _bank(self, iid: int) -> None:
        value = self.progs[iid].bank
        self.move(iid, "bank")
        self.counters["points"] += value
        self.note(f"banked {self.label(iid)} for {value} points (bank: {self.counters['points']})")
        if self.counters["points"] >= WIN_POINTS:
            self.win(f"{self.counters['points']} points in the bank")
            return
        if self.progs[iid].on_bank:
            self.push(self.progs[iid].on_bank, iid)

    def _contest(self, arena: str, ids: list[int]) -> None:
        for i in ids:
            self.tapped[i] = True
        who = ", ".join(self.label(i) for i in ids)
        villain = self.villain_in(arena)
        if villain is None:
            self.contested.add(arena)
            self.note(f"started {'an' if arena[0] in 'aeiou' else 'a'} {arena} contest with {who}: the dummy has no Neopets or Heroes there, you win automatically")
            self.push((("won", arena, tuple(ids)),))
            return
        self.note(f"started a Villain contest in the {arena} arena with {who} against {self.label(villain)}")
        options = self._villain_items(arena)
        if options:
            self.ask(f"Villain contest: play an Item? (you may play 1; decline to play none)", options,
                     ("villain_item", arena, tuple(ids), villain), optional=True)
        else:
            self.push((("villain_roll", arena, tuple(ids), villain, -1),))

    # -- ops ------------------------------------------------------------------------------------------
    def settle(self) -> None:
        if self.counters["points"] >= WIN_POINTS:  # (a manual counter or move)
            self.win(f"{self.counters['points']} points in the bank")

    def _op_begin_turn(self, op, source):
        if self.limit_reached():
            return
        self.turn += 1
        self.contested.clear()
        self.phase = "before"
        self.note(f"turn {self.turn} begins")
        steps = [("turn_draw",), ("untap_all",), ("start_flip",), ("phase", "main")]
        self.push(steps)
        progs = self.progs
        for a in reversed(ARENAS):  # "before your turn" effects come first (rulebook: Before Your Turn)
            for i in reversed(self.zones[a]):
                if progs[i].before_turn:
                    self.push(progs[i].before_turn, i)

    def _op_turn_draw(self, op, source):
        self.phase = "draw"
        super()._op_turn_draw(op, source)

    def _op_untap_all(self, op, source):
        self.phase = "untap"
        tapped = self.tapped
        for a in ARENAS:
            for i in self.zones[a]:
                tapped[i] = False

    def _op_start_flip(self, op, source):
        self.phase = "flip"
        if len(self.neopets()) < MAX_NEOPETS:
            self._op_flip(("flip", "fewer than 3 Neopets in play"), None)

    def _op_flip(self, op, source):
        stack = self.zones["stack"]
        if not stack:
            self.note("the Neopet Stack is empty: no Neopet to flip")
            return
        iid = stack[-1]
        self.move(iid, "limbo")
        self.note(f"flipped {self.label(iid)} from the Neopet Stack ({op[1]})")
        self.ask(f"Put {self.names[iid]} into which arena (it enters tapped)?",
                 [(a, f"the {a} arena") for a in ARENAS], ("flip_to", iid), iid)

    def _gone(self, iid: int, zone: str) -> bool:
        """A card a pending choice named has since been moved by hand: say so and skip it."""
        if self.where[iid] == zone:
            return False
        self.note(f"{self.label(iid)} is no longer in {self.zone_label(zone)}: nothing happens")
        return True

    def _res_flip_to(self, op, source, value):
        iid = op[1]
        if self._gone(iid, "limbo"):
            return
        self.move(iid, value)
        self.tapped[iid] = True
        self.note(f"put {self.label(iid)} into the {value} arena, tapped")

    def _op_end_turn(self, op, source):
        self.phase = "end"
        for a in ARENAS:
            for h in [i for i in self.zones[a] if self.progs[i].type == "Hero"]:
                self.note(f"the Hero {self.label(h)} is discarded at the end of the turn")
                self._leave_play(h, discard=True)
        self.push((("begin_turn",),))

    def _op_to_discard(self, op, source):
        iid = op[1]
        if self.where[iid] == "limbo":
            self.move(iid, "discard")

    def _op_won(self, op, source):
        """After a contest won on your turn: bank an Item or Equipment from your hand, or draw
        (rulebook: The End of a Contest); then "when ... wins a contest" effects."""
        _, arena, ids = op
        triggers = [(self.progs[i].on_win, i) for i in ids if self.in_play(i) and self.progs[i].on_win]
        triggers += [(self.progs[e].on_win, e) for i in ids for e in self.attached.get(i, ()) if self.progs[e].on_win]
        for ops, src in reversed(triggers):
            self.push(ops, src)
        options: list[tuple[Any, str]] = [(i, f"bank {self.names[i]} ({self.progs[i].bank} points)") for i in self.bankable()]
        if self.zones["deck"]:
            options.append(("draw", "draw a card"))
        unknown = sorted({f"{self.names[i]} ({'card type' if self.progs[i].type is None else 'bank value'} unknown)"
                          for i in self.zones["hand"]
                          if self.progs[i].type in ("Item", "Equipment", None) and self.progs[i].bank is None})
        prompt = f"You won the {arena} contest: bank an Item or Equipment, or draw a card"
        if unknown:
            prompt += f"; not bankable until set for this game: {', '.join(unknown)}"
        if options:
            self.ask(prompt, options, ("bank_or_draw", arena), optional=True)
        else:
            self.note("won the contest, but there is nothing to bank and no card to draw")

    def _res_bank_or_draw(self, op, source, value):
        if value is None:
            self.note("chose neither to bank nor to draw")
        elif value == "draw":
            self.draw(1)
        elif not self._gone(value, "hand"):
            self._bank(value)

    def _villain_items(self, arena: str) -> list[tuple[Any, str]]:
        """The Items you may play in a Villain contest: bonus known and tapping cost paid (an Item
        that taps a Neopet to play is offered once per Neopet that can pay; an unknown cost, never)."""
        options: list[tuple[Any, str]] = []
        for i in self.zones["hand"]:
            prog = self.progs[i]
            if prog.type != "Item" or prog.bonus[arena] is None:
                continue
            label = f"play {self.names[i]} ({prog.bonus[arena]:+d} {arena})"
            payers = self.tappers(prog.tap)
            if prog.tap == "none":
                options.append((i, label))
            elif payers:
                options.extend(([i, p], f"{label}, tapping {self.names[p]}") for p in payers)
        return options

    def _res_villain_item(self, op, source, value):
        _, arena, ids, villain = op
        item = -1
        item_id, payer = (value[0], value[1]) if isinstance(value, list) else (value, None)
        if item_id is not None and not self._gone(item_id, "hand"):
            if payer is not None and payer not in (self.tappers(self.progs[item_id].tap) or []):
                self.note(f"{self.label(payer)} can no longer be tapped to play {self.names[item_id]}: it is not played")
            else:
                item = item_id
                if payer is not None:
                    self.tapped[payer] = True
                self.move(item, "limbo")
                self.note(f"played the Item {self.label(item)}"
                          + (f", tapping {self.label(payer)}" if payer is not None else ""))
        self.push((("villain_roll", arena, ids, villain, item),))
        if item >= 0:
            self._played(item)

    def _op_villain_roll(self, op, source):
        """A Villain contest (rulebook: Contests Against Villains): the Villain's owner does not roll or
        play cards; if you win, the Villain is discarded and you neither bank nor draw."""
        _, arena, ids, villain, item = op
        ids = [i for i in ids if self.where[i] == arena]
        gaps = self.stat_gaps(ids, arena) if ids else []
        if item >= 0 and self.where[item] != "limbo":
            item = -1
        if self.where[villain] != arena or not ids or gaps:
            why = (f"{self.label(villain)} has left the arena" if self.where[villain] != arena else
                   "no one of yours is left in it" if not ids else f"these are unknown: {', '.join(gaps)}")
            self.note(f"the Villain contest cannot be added up ({why}): it ends; use manual moves for the outcome")
            if item >= 0:
                self._op_to_discard(("to_discard", item), None)
            return
        you = Side(stats=tuple(self.progs[i].stats[arena] for i in ids),
                   equipment=tuple(self.progs[e].bonus[arena] for i in ids for e in self.attached.get(i, ())),
                   item=self.progs[item].bonus[arena] if item >= 0 else 0)
        rival = Side(stats=(self.progs[villain].stats[arena],), rolls=False)
        result = resolve(you, rival, lambda: self.rng.randint(1, 6))
        if item >= 0:
            self.move(item, "discard")
        if result.winner == "you":
            self.note(f"won the Villain contest ({result.describe()}): {self.label(villain)} is discarded")
            self._leave_play(villain, discard=True)
            triggers = [(self.progs[i].on_win, i) for i in ids if self.progs[i].on_win]
            for ops, src in reversed(triggers):
                self.push(ops, src)
        else:
            self.note(f"lost the Villain contest ({result.describe()})")

    # card effects
    def _op_bank_from_hand(self, op, source):
        options = [(i, f"bank {self.names[i]} ({self.progs[i].bank} points)") for i in self.bankable()]
        if options:
            self.ask(f"{self.names[source]}: bank an Item or Equipment from your hand", options, op, source, optional=True)

    def _res_bank_from_hand(self, op, source, value):
        if value is not None and not self._gone(value, "hand"):
            self._bank(value)

    def _op_bank_top(self, op, source):
        deck = self.zones["deck"]
        for _ in range(op[1]):
            if not deck:
                return
            iid = deck[-1]
            prog = self.progs[iid]
            if prog.type in ("Item", "Equipment") and prog.bank is not None:
                self._bank(iid)
            else:
                self.move(iid, "bank")
                self.note(f"banked {self.label(iid)} from the top of the deck; its bank value is unknown: "
                          f"adjust the points by hand once you know it")
            if self.outcome is not None:
                return

    def _group(self, group: str) -> tuple[list[int], str]:
        """Your cards in play a text's group names ("neopets", "heroes", "both": kept whole), and its words."""
        if group == "neopets":
            return self.neopets(), "Neopets"
        progs = self.progs
        heroes = group == "heroes"
        ids = [i for a in ARENAS for i in self.zones[a] if (progs[i].type == "Hero" if heroes else progs[i].contester)]
        return ids, "Heroes" if heroes else "Neopets or Heroes"

    def _op_move_free(self, op, source):
        ids, words = self._group(op[1])
        options = [([i, a], f"move {self.names[i]} to the {a} arena") for i in ids for a in ARENAS
                   if a != self.where[i]]
        if options:
            self.ask(f"{self.names[source]}: move one of your {words} (without tapping it)", options, op, source)

    def _res_move_free(self, op, source, value):
        iid, arena = value
        if self.where[iid] not in ARENA_SET:
            self.note(f"{self.label(iid)} is no longer in play: nothing happens")
            return
        self.note(f"moved {self.label(iid)} to the {arena} arena")
        self._to_arena(iid, arena)

    def _op_move_one(self, op, source):
        """Card text "move 1 of your Neopets": the glossary's move, tapping an untapped one."""
        tapped = self.tapped
        ids, words = self._group(op[1])
        options = [([i, a], f"move {self.names[i]} to the {a} arena, tapping it") for i in ids
                   if not tapped[i] for a in ARENAS if a != self.where[i]]
        if options:
            self.ask(f"{self.names[source]}: move one of your untapped {words} (tapping it)", options, op, source)
        else:
            self.note(f"{self.names[source]}: none of your {words} is untapped to move")

    def _res_move_one(self, op, source, value):
        iid = value[0]
        if self.where[iid] not in ARENA_SET or self.tapped[iid]:
            self.note(f"{self.label(iid)} is no longer untapped in play: nothing happens")
            return
        self._res_move_free(op, source, value)
        self.tapped[iid] = True

    def _op_untap_one(self, op, source):
        ids, words = self._group(op[1])
        options = [(i, f"untap {self.names[i]}") for i in ids if self.tapped[i]]
        if options:
            self.ask(f"{self.names[source]}: untap one of your {words}", options, op, source)

    def _res_untap_one(self, op, source, value):
        if self.where[value] not in ARENA_SET:
            return
        self.tapped[value] = False
        self.note(f"untapped {self.label(value)}")
