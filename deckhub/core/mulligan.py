"""Named mulligan policies for simulations: which opening hands to send back, where the rules offer it.

    keep                      keep every hand
    without:GROUP             mulligan a hand with no card of GROUP
    fewer:K:GROUP             mulligan a hand with fewer than K cards of GROUP

GROUP is one or more conditions joined by "&", each FIELD=VALUE (a card's type or any of its fields,
matching one of a list's values, case-insensitive) or FIELD<=N / FIELD>=N (a number): e.g.
`without:type=Creature&level<=2`, `fewer:2:type=Codestone`. The game's engine takes the mulligan its
rules offer (`State.mulligan_action`): Huntik's (the whole hand marked) and Battledome's (an option).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable

from deckhub.core.cards import Card
from deckhub.core.state import EngineError

_CONDITION = re.compile(r"^\s*([A-Za-z_][\w ]*?)\s*(<=|>=|=)\s*(.+?)\s*$")


def _condition(text: str) -> Callable[[Card], bool]:
    m = _CONDITION.match(text)
    if not m:
        raise EngineError(f"a mulligan group is FIELD=VALUE, FIELD<=N or FIELD>=N joined by '&', not {text!r}")
    field, op, value = m.group(1).strip().lower(), m.group(2), m.group(3)
    if op != "=":
        try:
            bound = float(value)
        except ValueError:
            raise EngineError(f"{field}{op} takes a number, not {value!r}") from None

        def compare(card: Card) -> bool:
            got = card.get(field)
            if isinstance(got, bool) or not isinstance(got, (int, float)):
                return False  # an unknown value matches no bound
            return got <= bound if op == "<=" else got >= bound
        return compare
    wanted = value.casefold()

    def equals(card: Card) -> bool:
        got = card.get(field)
        values = got if isinstance(got, (list, tuple)) else [got]
        return any(str(v).casefold() == wanted for v in values if v is not None)
    return equals


@dataclass(frozen=True)
class MulliganPolicy:
    text: str
    least: int  # the hand is kept with at least this many cards of the group (0: always kept)
    group: Callable[[Card], bool]

    @classmethod
    def parse(cls, text: str) -> "MulliganPolicy":
        name, _, rest = (text or "").strip().partition(":")
        if name == "keep" and not rest:
            return cls("keep", 0, lambda card: False)
        if name == "without" and rest:
            least, group = 1, rest
        elif name == "fewer":
            k, _, group = rest.partition(":")
            if not k.strip().isdigit() or not group or int(k) < 1:
                raise EngineError(f"fewer:K:GROUP takes a whole number K of at least 1, not {text!r}")
            least = int(k)
        else:
            raise EngineError(f"a mulligan policy is keep, without:GROUP or fewer:K:GROUP, not {text!r}")
        tests = [_condition(part) for part in group.split("&")]
        return cls(text.strip(), least, lambda card: all(t(card) for t in tests))

    def redraw(self, hand: Iterable[Card]) -> bool:
        """True when this hand goes back."""
        return self.least > 0 and sum(1 for card in hand if self.group(card)) < self.least
