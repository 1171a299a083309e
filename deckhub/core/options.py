"""The options a game offers before it starts (go first, mission, turn limit...).

Kept apart from the engine: the session card values are an option kind (`deckhub.core.session_values`)
and the engine applies them when a game starts, so both import this module and neither the other.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckhub.core.state import EngineError


@dataclass(frozen=True)
class OptionSpec:
    """A game option the player picks before a game (go first, mission, dummy stats...).

    kind: "bool", "int", "str", "choice" or "turn_order" (a choice of TURN_ORDERS that also takes
    the yes/no of the old go-first box). Values typed on a command line ("true", "12") are
    coerced; anything else is refused with a message naming the option.
    """

    name: str
    kind: str
    default: Any
    help: str = ""
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    title: str = ""  # the form's label when the name in words is not a player's ("Training dummy's HP")
    more: bool = False  # a setting most players leave alone: the start page keeps it under "More settings"

    def coerce(self, value: Any) -> Any:
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on", "y"):
                return True
            if text in ("0", "false", "no", "off", "n"):
                return False
            raise EngineError(f"option {self.name!r} must be true or false, not {value!r}")
        if self.kind == "int":
            if isinstance(value, bool):
                raise EngineError(f"option {self.name!r} must be a whole number, not {value!r}")
            try:
                number = int(str(value).strip()) if not isinstance(value, int) else value
            except ValueError:
                raise EngineError(f"option {self.name!r} must be a whole number, not {value!r}") from None
            if self.minimum is not None and number < self.minimum:
                raise EngineError(f"option {self.name!r} must be at least {self.minimum}, not {number}")
            if self.maximum is not None and number > self.maximum:
                raise EngineError(f"option {self.name!r} must be at most {self.maximum}, not {number}")
            return number
        if self.kind == "turn_order" and str(value).strip().lower() in _YES_NO:
            return "first" if _YES_NO[str(value).strip().lower()] else "second"
        if self.kind in ("choice", "turn_order"):
            for choice in self.choices:
                if str(choice).casefold() == str(value).strip().casefold():
                    return choice
            raise EngineError(f"option {self.name!r} must be one of {', '.join(map(str, self.choices))}; got {value!r}")
        if value is None:
            return None
        return str(value)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "default": self.default, "help": self.help,
                "choices": list(self.choices), "minimum": self.minimum, "maximum": self.maximum}

    @property
    def label(self) -> str:
        """The option's label on the forms: a box's sentence, or the name in words ("Turn limit")."""
        if self.kind == "bool" and self.help:
            return self.help
        if self.kind == "turn_order":
            return "Who goes first"
        return self.name.replace("_", " ").capitalize()


TURN_ORDERS = ("random", "first", "second")
TURN_ORDER_WORDS = {"random": "Random", "first": "Go first", "second": "Go second"}
_YES_NO = {"true": True, "yes": True, "on": True, "1": True, "y": True,
           "false": False, "no": False, "off": False, "0": False, "n": False}


def turn_order_option(rule: str) -> OptionSpec:
    """The `first` option: go first, go second, or drawn at random (`rule` says how the game's own
    rules choose the first player). A drawn order comes from the game's seed, so a replay draws the same."""
    return OptionSpec("first", "turn_order", "random", rule, choices=TURN_ORDERS)


def turn_limit_option(what: str = "game", default: int = 40) -> OptionSpec:
    """The turn limit an engine offers when its State keeps the core's LIMIT: a goldfish game
    not won by the end of that turn is lost (see `State.limit_reached`)."""
    return OptionSpec("turn_limit", "int", default, f"the {what} is lost if it is not won by the end of this turn",
                      minimum=1, maximum=500)
