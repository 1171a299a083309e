"""Huntik goldfish: you are the lead player on a mission; the defending player never plays a card and
always passes, but the obstacles and features its mission gives it act as their text says
(GUIDE §5, Huntik comprehensive rules 1.2).

The map is five zones, "z1" (your zone 1) to "z5"; features and obstacles sit in them like heroes.
A feature carried by a hero is in the hero's zone and recorded in `carrier` (Huntik 305).

Rules actions (JSON):
  {"kind": "mark", "card": i}               before round 1: mark (or unmark) a card of the opening
                                            hand for the mulligan
  {"kind": "mulligan"}                      then, once: the marked cards go to the bottom of the deck
                                            and you draw as many (none marked: keep the hand) (Huntik 101)
  {"kind": "play", "card": i}               a hero into zone 1, a free action card, or (in combat) a
                                            combat action card; a hero into another zone adds
                                            "zone": z (Kilthane, Daktari, Taxi, Trailblazer)
  {"kind": "play", "card": i, "hero": h}    an exhaust action card, exhausting your ready hero h (Huntik 302)
  {"kind": "move", "card": i, "to": z}      move a ready hero (or obstacle you control) 1-2 zones in
                                            one direction, exhausting it (Huntik 403)
  {"kind": "fight", "card": i}              move 0 zones and start a combat in its zone (Huntik 600)
  {"kind": "power", "card": i, "power": p}  an action power of a card you control (or in your
                                            discard pile); "feature": f when a feature gives it
  {"kind": "pass"}                          pass; the defender has passed, so the round ends (Huntik
                                            500); in a combat: pass, and the combat concludes (601)
plus the core's answers to pending choices ("choose"/"decline") and its manual moves, and
"manual.exhaust", "manual.stun", "manual.drop", "manual.pickup".

Readings the engine takes where the rules leave room are listed in `NOTES` (and in the view).

The engine is a package: `state` (setup, queries, conditions), `actions` (the rules' actions),
`ops` (the round flow and the effect ops), `combat` (Huntik 600-602), `moves` (card movement and
the manual moves), `views`, `missions/` (one module per mission family: its missions' and
features' data, checks, ops and plans), `policy` (the built-in greedy player that asks the mission's
plan), `coverage` (what of the card text it plays); this module puts them together as `ENGINE`.
"""
from __future__ import annotations

from typing import Any

from deckhub.core.engine import Engine
from deckhub.core.options import OptionSpec
from deckhub.games.huntik.board import MAX_ROUNDS
from deckhub.games.huntik.coverage import coverage
from deckhub.games.huntik.missions import DEFAULT_MISSION, MISSIONS, find_mission
from deckhub.games.huntik.policy import policy
from deckhub.games.huntik.state import HuntikState

class MissionOption(OptionSpec):
    """The mission: its card key, its name, or "name (number)" for the two Defeat Ymir missions."""

    def coerce(self, value: Any) -> Any:
        return find_mission(value).label


ENGINE = Engine(
    game="huntik",
    state_class=HuntikState,
    policy=policy,
    coverage=coverage,
    options=(
        MissionOption("mission", "choice", MISSIONS[DEFAULT_MISSION].label,
                      "the mission you lead: its name, card key, or \"name (number)\" for the two Defeat Ymir: Frost King missions",
                      choices=tuple(m.label for m in MISSIONS.values())),
    ),
    description="Huntik: you lead a mission against a defending player who always passes",
    # the generic invariant test and benchmark play the mission with the most rules in it: an obstacle
    # blocking zone 1, combats with obstacles that fight back, KO replaced by stun, shielded attacks
    sample_options={"mission": "defeat-ymir-frost-king-151"},
    # the mission timer stops after round 7: a game not won by then is over (Huntik 500, 501), so
    # a simulation scores a lost game as round 8, as the other games score theirs past the turn limit
    rules_limit=MAX_ROUNDS,
)
