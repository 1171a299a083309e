"""Neopets TCG goldfish (the advanced game of the Battle for Meridell rulebook, GUIDE §5): your side
follows the rules; the dummy's four arenas stay empty and it never plays a card, so a regular
contest you start is won at once (rulebook "Contests": no rivals, you win automatically). Win at 21
banked points; lose when you must draw from an empty deck, or when the turn limit passes.

A card's own tapping cost ("tap 1 of your Neopets to play this") is paid by every kind played from
the hand: the action names the Neopet it taps ("tap"), and is not offered while none can pay.

Unknown card facts are never guessed (see deckhub.core.session_values): a card's type, species,
stats, bank value or tapping cost the catalogue does not know must be supplied for the game with
the `card_values` option; until then the rules actions that would need it are not offered (the
view says why) and manual moves let the player go on.

Rules actions (JSON), main phase:
  {"kind": "move", "card": n, "arena": a}         tap an untapped Neopet, move it with its Equipment
  {"kind": "trade_in", "card": n}                 tap it, discard its Equipment, Basic -> bottom of the
                                                  Neopet Stack / Experienced -> discard; flip a new one
  {"kind": "replace", "card": e, "onto": n[, "tap": n]}  an Experienced Neopet onto one of the same species
  {"kind": "hero", "card": h, "tap": n}           tap a Neopet; the Hero enters its arena untapped
  {"kind": "villain", "card": v, "arena": a[, "tap": n]}  into an arena without a Villain
  {"kind": "equip", "card": q, "to": t[, "tap": n]}  Equipment onto a Neopet or Hero (tapping a Neopet
                                                  when the card requires it)
  {"kind": "happen", "card": s[, "tap": n]}       a Something Has Happened! card: resolve, discard
  {"kind": "location", "card": l, "arena": a[, "tap": n]}  replaces the arena's Location
  {"kind": "contest", "arena": a, "with": [ids]}  tap those untapped Neopets/Heroes of that arena: a
                                                  Villain contest if a Villain is there, else a regular
                                                  one (one per arena per turn)
  {"kind": "end_turn"}
Choices (the core's "choose"/"decline"): the arena a flipped Neopet goes into; after a contest won
on your turn, bank an Item or Equipment from your hand or draw (or neither); the Item for a Villain
contest; card effects. Manual moves: the core's, plus "manual.tap" {"card"} and "manual.attach"
{"card": equipment, "to": neopet or hero}.
"""
from __future__ import annotations

from typing import Any

from deckhub.core.engine import Engine
from deckhub.core.options import turn_limit_option, turn_order_option
from deckhub.core.session_values import card_values_option
from deckhub.games.neopets_tcg.contest import ARENAS
from deckhub.games.neopets_tcg.effects import coverage
from deckhub.games.neopets_tcg.policy import policy
from deckhub.games.neopets_tcg.state import NeopetsState


# TEST FIXTURE VALUES, not facts. The catalogue knows no bank value and the types of few cards, so the
# published decks (the two theme decks, the two starter lists) cannot bank a point as they stand. The
# generic invariant test and the goldfish benchmark play them with these invented session card_values,
# exactly as a player would enter them: deliberately uniform numbers (every Item 2 points, every
# Equipment 3 and +1 to all stats, every Basic Neopet 5 in every stat), types and texts chosen to reach
# every rule. They are never written into data/, never offered to a player's own game, and show with
# provenance "session".
def _sample_values() -> dict[str, dict[str, Any]]:
    items = ("tomatoes meaty-pie stale-bread usica-berries peachpa essence-of-brain chocolate-korbats cheese "
             "faerie-pancakes healing-potion starberry strawberries puppyblew slumberberry-potion "
             "petpet-growth-syrup asparagus chokato potion-of-strength magic-lottery-ticket potatoes pinanna "
             "potion-of-speed kauvaras-potion elixir-of-thieves hasee meowclops stone-snowball gigantic-snowball "
             "icy-snowball light-faerie-token water-faerie-token dark-faerie-token fire-faerie-token "
             "air-faerie-token earth-faerie-token")
    equipment = ("eyrie-breastplate makeshift-sword kass-charm jerans-armour jerans-sword lishas-charm "
                 "sceptre-of-banishing escape-rope bubble-gun moon-charm wooden-blocking-shield defence-shield-v1-0 "
                 "ice-scimitar illusens-charm shadow-breeze warf")
    happenings = "secret-passage library-visit chomp oubliette spooky-beans"
    heroes = "blumaroo-squire count-boris eyrie-guard general-kass drackonack quiggle-scout"
    pets = ("blue-blumaroo yellow-blumaroo green-eyrie red-eyrie blue-skeith green-skeith green-quiggle "
            "yellow-quiggle red-zafara yellow-zafara blue-scorchio green-acara red-korbat blue-mynci red-aisha yellow-eyrie")
    values: dict[str, dict[str, Any]] = {}
    for key in items.split():
        values[key] = {"type": "Item", "bank_value": 2, **{f"{a}_bonus": 2 for a in ARENAS}}
    for key in equipment.split():
        values[key] = {"type": "Equipment", "bank_value": 3, "tap_to_play": "any", **{f"{a}_bonus": 1 for a in ARENAS}}
    for key in happenings.split():
        values[key] = {"type": "Something Has Happened!", "text": "Draw a card."}
    for key in heroes.split():
        values[key] = {"type": "Hero", **{a: 6 for a in ARENAS}}
    for key in pets.split():
        values[key] = {a: 5 for a in ARENAS}
    for key in ("the-thieves-code", "beyond-neopia"):
        values[key] = {"bank_value": 2}
    values["warf"] = {"type": "Equipment", "bank_value": 3, "tap_to_play": "any", "strength_bonus": 1,
                      "agility_bonus": 1, "magic_bonus": 1}  # (its intelligence +2 is the catalogue's)
    values["darigan-skeith"] = {"type": "Experienced Neopet", "species": "Skeith", **{a: 7 for a in ARENAS}}
    values["quiggle-runner"] = {"species": "Quiggle", **{a: 7 for a in ARENAS}}
    values["marketplace"] = {"type": "Location"}
    values["draik-skeleton"] = {a: 9 for a in ARENAS}
    values["morguss"] = {"strength": 9, "agility": 9, "intelligence": 9}  # (magic 18 is the catalogue's)
    for key in ("jeran-meridell-knight", "kayla", "morris"):
        values[key] = {a: 6 for a in ARENAS}
    return values


SAMPLE_CARD_VALUES = _sample_values()


ENGINE = Engine(
    game="neopets-tcg",
    state_class=NeopetsState,
    policy=policy,
    coverage=coverage,
    options=(
        turn_order_option("the higher die roll goes first and does not draw on the first turn (rulebook: Setup, On Your Turn)"),
        turn_limit_option(),
        card_values_option("values for cards whose facts the catalogue lacks, for this game only, e.g. "
                           '{"tomatoes": {"type": "Item", "bank_value": 2}}'),
    ),
    description="Neopets TCG (advanced game) against a dummy whose arenas stay empty",
    sample_options={"card_values": SAMPLE_CARD_VALUES},
)
