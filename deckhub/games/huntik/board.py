"""The Huntik map (five zones, Huntik 400), the round limit and the readings the engine takes."""
from __future__ import annotations



MAP = ("z1", "z2", "z3", "z4", "z5")
ZONE_NO = {z: n for n, z in enumerate(MAP, start=1)}
MAX_ROUNDS = 7
_VALUE_ATOMS = frozenset({"name_has", "not_name_has", "def_le", "speed"})
_CARD_MODS = frozenset({"stat", "swap", "grant", "play_into", "unblockable", "copyform_elim", "control"})
NOTES = (
    "the defending player has no heroes and no hand, never plays a card and always passes; its obstacles "
    "block, fight back when attacked (aiming to KO as many of your heroes as they can, lowest DEF first) "
    "and never start combats or use their powers",
    "you pass only after the defender has passed (it always passes), so your pass ends the round (Huntik 500)",
    "a card that needs a target the passive defender cannot offer (an enemy hero) cannot be played (Huntik 704)",
    "an action card's effect resolves before the triggers its playing sets off (Dante Vale readies after Hyperstride's move)",
    "a mutual mission nobody has won by the end of round 7 goes to Huntik 102's tie-break (more major and legendary "
    "heroes in play, then more minor heroes, then the defending player); on a mission whose kind the card data lacks "
    "(SAS 145-148) a tie-break in your favour is a loss that says so, since it counts only if the mission is mutual",
    "you order your start-of-round powers that trigger together (Huntik 702); an \"if\" after the trigger is read "
    "as it triggers",
)
