"""What Kaijudo's OCTGN set files say of a card, in its properties (OCTGN's Kaijudo game definition):
its type, rules text, level, civilizations, races and power, and the printing's rarity (anything
else in Rarity is a promo code). `deckhub.importers.octgn_set` reads the rest of the file."""
from __future__ import annotations

import re
from typing import Any

RARITIES = ("Common", "Uncommon", "Rare", "Very Rare", "Super Rare")
CIVILIZATIONS = ("Light", "Water", "Darkness", "Fire", "Nature")
_SPLIT = re.compile(r"\s*/[\s.]*")


def read_card(props: dict[str, str]) -> dict[str, Any]:
    """The fields of `deckhub.importers.octgn_set.OctgnCard` for one card's properties."""
    errors: list[tuple[str, str]] = []
    level = props.get("Level", "")
    if level and not level.isdecimal():
        errors.append(("Level", f"not a whole number: {level!r}"))
    power = props.get("Power", "")
    if power and not re.fullmatch(r"\d+\+?", power):
        errors.append(("Power", f"not a power value: {power!r}"))
    civs = [c for c in _SPLIT.split(props.get("Civilization", "")) if c]
    bad = [c for c in civs if c not in CIVILIZATIONS]
    if bad:
        errors.append(("Civilization", f"unknown civilization {bad[0]!r}"))
    if errors:
        return {"errors": errors}
    notes = [("Civilization", f"read {props['Civilization']!r} as {' / '.join(civs)}")] if "/." in props.get("Civilization", "") else []
    rarity = props.get("Rarity") or None
    attrs = {
        "level": int(level) if level else None,
        "civilizations": civs,
        "race": [r for r in _SPLIT.split(props.get("Race", "")) if r],
        "power": power or None,
        "power_value": int(power.rstrip("+")) if power else None,
    }
    return {"type": props.get("Type") or None, "attrs": {k: v for k, v in attrs.items() if v not in (None, [])},
            "text": props.get("Rules", "").replace("\r\n", "\n").replace("\r", "\n") or None,
            "rarity": rarity if rarity in RARITIES else None, "promo_code": None if rarity in RARITIES else rarity,
            "notes": notes}
