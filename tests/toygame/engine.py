"""Toy's goldfish engine, built on the core alone: deal four, draw one a turn (not on the first),
play up to two cards a turn. A Gem goes into your pile for its points; a Spell goes to the discard
pile (Spark draws two cards, Wish is left to manual moves). A turn ends with at most three cards in
hand. Ten points in the pile win; drawing from an empty deck, or no win by the turn limit, loses.

Rules actions: {"kind": "play", "card": n} and {"kind": "end_turn"} in the main phase,
{"kind": "discard", "card": n} in the discard phase.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckhub.core.actions import RuleAction
from deckhub.core.effects import AUTO, MANUAL, Program, coverage, read_whole
from deckhub.core.engine import Engine
from deckhub.core.options import turn_limit_option
from deckhub.core.ops import LOSE_ON_DRAW
from deckhub.core.state import Action, State, ZoneSpec
from deckhub.core.tiles import Flag, Stat, Tile

GOAL = 10
PLAYS = 2  # cards a turn
HAND_LIMIT = 3
DRAW_TWO = "Draw two cards."


class ToyCard(Program):
    """A toy card compiled: Spark's draw is automated, Wish's text is left to manual moves."""

    def __init__(self, text: str | None):
        self.abilities = ((text, AUTO if text == DRAW_TWO else MANUAL),) if text else ()
        self.accounts = read_whole(self.abilities, "Spark's text, word for word")


def compile_card(card) -> ToyCard:
    return ToyCard(card.text)


@dataclass
class ToyTable:
    fresh: set[int]  # the gems played this turn
    plays: int


class ToyState(State):
    TABLE = ToyTable
    GAME_NAME = "Toy"
    ZONES = (ZoneSpec("deck", "Deck", hidden=True), ZoneSpec("hand", "Hand"), ZoneSpec("pile", "Pile"),
             ZoneSpec("discard", "Discard pile"))
    PHASES = ("main", "discard")
    EMPTY_DECK = (LOSE_ON_DRAW, "had to draw from an empty deck")
    RULE_ACTIONS = (RuleAction("play", ("card",), phases=("main",), text="play a card from your hand"),
                    RuleAction("end_turn", phases=("main",), text="end your turn"),
                    RuleAction("discard", ("card",), phases=("discard",), text="discard down to three cards"))
    TILE = Tile(stats=(Stat("points", "Pts"),), flags=(Flag("fresh", "new"),))

    def setup(self, deck, catalogue) -> None:
        cards = deck.expand("Deck", catalogue)
        self.shuffle_items(cards)
        for card in cards:
            self.new_instance(card, "deck")
        self.fresh, self.plays = set(), 0
        self.turn, self.phase = 1, "main"
        self.draw(4)

    def points(self, iid: int) -> int:
        return int(self.cards[iid].attrs.get("points") or 0)

    def score(self) -> int:
        return sum(self.points(i) for i in self.zones["pile"])

    def rule_actions(self) -> list[Action]:
        if self.phase == "discard":
            return [{"kind": "discard", "card": i} for i in self.zones["hand"]]
        plays = [{"kind": "play", "card": i} for i in self.zones["hand"]] if self.plays < PLAYS else []
        return [*plays, {"kind": "end_turn"}]

    def apply_rule(self, action: Action) -> None:
        if action["kind"] == "end_turn":
            self.end_phase(manual=False)
            return
        iid = action["card"]
        if action["kind"] == "discard":
            self.move(iid, "discard")
            self.note(f"discarded {self.label(iid)}")
            if len(self.zones["hand"]) <= HAND_LIMIT:
                self.end_phase(manual=False)
            return
        self.plays += 1
        if self.cards[iid].type == "Gem":
            self.move(iid, "pile")
            self.fresh.add(iid)
            self.note(f"played {self.label(iid)}: {self.score()} points")
        else:
            self.move(iid, "discard")
            self.note(f"cast {self.label(iid)}")
            if self.cards[iid].text == DRAW_TWO:
                self.push((("draw", 2),), iid)

    def _op_draw(self, op, source) -> None:
        self.draw(op[1])

    def end_phase(self, manual: bool) -> None:
        if self.phase == "main" and len(self.zones["hand"]) > HAND_LIMIT:
            self.phase = "discard"
        elif not self.limit_reached():
            self.turn, self.phase = self.turn + 1, "main"
            self.fresh, self.plays = set(), 0
            self.draw(1)

    def settle(self) -> None:
        if self.score() >= GOAL:
            self.win(f"{GOAL} points in the pile")

    def describe(self, action: Action) -> str:
        if action.get("kind") == "play" and self.is_card(action.get("card")):
            return f"Play {self.label(action['card'])}"
        if action.get("kind") == "discard" and self.is_card(action.get("card")):
            return f"Discard {self.label(action['card'])}"
        return "End the turn" if action.get("kind") == "end_turn" else super().describe(action)

    def card_view(self, iid: int) -> dict[str, Any]:
        card, prog = self.cards[iid], compile_card(self.cards[iid])
        view = {"id": iid, "key": card.key, "name": card.display_name, "type": card.type, "text": card.text,
                "automated": prog.automation, "manual_text": list(prog.manual_text),
                "fresh": iid in self.fresh and self.where[iid] == "pile"}
        if card.type == "Gem":
            view["points"] = self.points(iid)
        return view

    def extra_view(self) -> dict[str, Any]:
        return {"toy": {"points": self.score(), "goal": GOAL, "plays_left": PLAYS - self.plays}}


def policy(state: ToyState) -> Action:
    """Answer a choice with its first option; discard the card worth least; else play the card worth
    most (a Spark before a gem when the hand is short), else end the turn."""
    if state.pending is not None:
        return {"kind": "choose", "option": state.pending.options[0][0]}
    if state.phase == "discard":
        return {"kind": "discard", "card": min(state.zones["hand"], key=state.points)}
    plays = [a for a in state.legal_actions(manual=False) if a["kind"] == "play"]
    useful = [a for a in plays if state.cards[a["card"]].type == "Gem" or state.cards[a["card"]].text == DRAW_TWO]
    if useful:
        return max(useful, key=lambda a: (state.cards[a["card"]].text == DRAW_TWO and len(state.zones["hand"]) < 3,
                                          state.points(a["card"]), -a["card"]))
    return {"kind": "end_turn"}


ENGINE = Engine(game="toy", state_class=ToyState, policy=policy,
                coverage=lambda catalogue: coverage("toy", catalogue, compile_card),
                options=(turn_limit_option("game", 12),), description="Gems into a pile; ten points win.")
