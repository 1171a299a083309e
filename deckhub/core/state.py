"""The State every goldfish engine subclasses, and the data it is made of.

One State shape for every game (OpenSpiel-style; see `deckhub.core.engine` for the API and how to
write an engine): card instances, zones and where each instance is, counters, turn and phase, the
log, a seeded generator, the op queue and its one dispatch (`_op_<name>` / `_res_<name>`), pending
choices, the refusals worded from the declared actions, the manual moves every game has, the view
and the clone.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

from deckhub.core.actions import CHOICE_KINDS, EVERY_GAME, ActionTable, RuleAction
from deckhub.core.ops import LOSE_WHEN_EMPTY, CoreOps
from deckhub.core.tables import cache, copy_state, fixed, table_copiers
from deckhub.core.tiles import Tile

if TYPE_CHECKING:  # pragma: no cover
    from deckhub.core.cards import Card, Catalogue
    from deckhub.core.decklist import Deck
    from deckhub.core.engine import Engine

Action = dict[str, Any]


# the manual moves every game has (the core applies them; see `State._apply_manual`)
CORE_MANUAL = (
    RuleAction("manual.draw", text="draw the top card of your deck"),
    RuleAction("manual.move", ("card", "to"), ("at",), text="move a card to another zone, on top or at the bottom"),
    RuleAction("manual.shuffle", ("zone",), text="shuffle a zone"),
    RuleAction("manual.counter", ("counter", "delta"), text="add to or take from a counter"),
    RuleAction("manual.end_phase", text="end the phase now"),
    RuleAction("manual.skip", text="drop the pending effect"),
    RuleAction("concede", text="give up the game"),
)
MANUAL_KINDS = tuple(a.kind for a in CORE_MANUAL)


class IllegalAction(ValueError):
    """An action the state refuses; the message says why. The state is unchanged."""

    def __init__(self, message: str, action: Any = None):
        super().__init__(message)
        self.action = action


class EngineError(ValueError):
    """A game that cannot start: no engine for the game, a bad option, a deck the engine cannot deal."""


@dataclass(frozen=True)
class Outcome:
    result: str  # "win" | "loss"
    turn: int  # the turn (or round) the game ended on
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"result": self.result, "turn": self.turn, "reason": self.reason}


@dataclass(frozen=True)
class ZoneSpec:
    """A zone of one player. `hidden`: face down, the view gives its size and ids, not the cards.
    `manual_target`: a manual move may put a card here. `pile`: the board shows its count, opening
    to a list of its cards (a bank or discard pile of full tiles made a page thousands of pixels tall)."""

    name: str
    label: str
    hidden: bool = False
    manual_target: bool = True
    pile: bool = False


@dataclass(frozen=True)
class CounterSpec:
    name: str
    label: str
    initial: int = 0
    minimum: int | None = 0


@dataclass(frozen=True)
class Choice:
    """A decision the rules wait for. `options` are (value, label) pairs; the player answers
    `{"kind": "choose", "option": value}`, or `{"kind": "decline"}` when `optional`.
    `op` is the engine's op that asked (kept so the engine can resume); `source` the instance whose
    text asked, if any."""

    prompt: str
    options: tuple[tuple[Any, str], ...]
    optional: bool
    op: tuple
    source: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"prompt": self.prompt, "optional": self.optional, "source": self.source,
                "options": [{"value": v, "label": label} for v, label in self.options]}


_NO_OPS: dict[str, Callable] = {}  # the op methods `run` looks up for an engine with its own run_op


# --- the State --------------------------------------------------------------------------------

@dataclass
class CoreTable:
    """The attributes every State has (see `State.__init__`), declared as engines declare theirs."""

    engine: Engine = fixed()
    game: str
    seed: int
    options: dict[str, Any] = fixed()  # normalized once by new_game, read only after
    cards: list["Card"] = fixed()  # the instances are all created when the game is dealt
    rng: random.Random
    zones: dict[str, list[int]]
    where: list[str]
    counters: dict[str, int]
    log: list[tuple[int, str, str, bool]]
    actions: list[Mapping[str, Any]]  # the actions applied; never changed once applied
    queue: list[tuple[tuple, int | None]]  # ops are tuples
    turn: int
    phase: str
    pending: Choice | None
    outcome: Outcome | None
    _legal: list[Action] | None = cache()


@dataclass
class NoTable:
    """The table of an engine that adds no attributes of its own."""


class State(CoreOps, ABC):
    """A goldfish game in progress. Engines subclass it; see `deckhub.core.engine` for how.

    Subclasses set ZONES, COUNTERS, PHASES, RULE_ACTIONS and implement `setup`, `rule_actions`, `apply_rule`,
    `end_phase`, their ops as methods `_op_<name>(op, source)` and the answers to the choices those
    ops ask as `_res_<name>(op, source, value)` (or override `run_op` / `resolve_choice`) and, to
    improve messages and the view, `check_game_rule`, `explain_game_rule`, `describe`, `card_view`, `extra_view`, `manual_move`.
    """

    ZONES: tuple[ZoneSpec, ...] = ()
    COUNTERS: tuple[CounterSpec, ...] = ()
    PHASES: tuple[str, ...] = ()
    DECK_ZONE = "deck"
    HAND_ZONE = "hand"
    # zones a card leaving the hand for is not "played" in a simulation's card impact (e.g. mana)
    UNPLAYED_ZONES: tuple[str, ...] = ()
    HIDDEN: frozenset[str] = frozenset()
    # The option bounding every game, and the loss text when it passes ({limit}: its value).
    LIMIT: tuple[str, str] = ("turn_limit", "no win within the turn limit of {limit} turns")
    TABLE: type = NoTable  # the engine's own attributes, declared once (see deckhub.core.tables)
    # The game's actions, declared once (deckhub.core.actions): from them the core refuses an unknown
    # kind, a missing or extra field, an action outside its phases and a card id naming no card, in
    # one wording for every game; the engine's `check_game_rule` judges only the actions that pass.
    GAME_NAME = ""  # how those refusals name the game ("Kaijudo")
    RULE_ACTIONS: tuple[RuleAction, ...] = ()
    TILE = Tile()  # what a card's tile on the board shows of its card view (deckhub.core.tiles)
    EXTRA_MANUAL: tuple[RuleAction, ...] = ()  # the game's own manual moves, kinds "manual.<name>"
    first_drawn: bool | None = None  # None: no `first` option; else whether `draw_turn_order` drew it
    _OP_METHODS: dict[str, Callable] = {}
    _RES_METHODS: dict[str, Callable] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.HIDDEN = frozenset(z.name for z in cls.ZONES if z.hidden)
        # the default `run_op` / `resolve_choice` dispatch: op "draw" runs `_op_draw`, its choice `_res_draw`
        ops: dict[str, Callable] = {}
        answers: dict[str, Callable] = {}
        for klass in reversed(cls.__mro__):
            for name, fn in vars(klass).items():
                if name.startswith("_op_"):
                    ops[name[4:]] = fn
                elif name.startswith("_res_"):
                    answers[name[5:]] = fn
        cls._OP_METHODS, cls._RES_METHODS = ops, answers
        # what `run` may skip or inline (it runs after every op: the hottest loop of every engine)
        cls._EMPTY_LOSES = cls.EMPTY_DECK[0] == LOSE_WHEN_EMPTY
        cls._AFTER_OP = cls.after_op is not State.after_op
        cls._OP_GET = ops.get if cls.run_op is State.run_op else None
        cls._PLAIN_RUN = cls._OP_GET is not None and not cls._AFTER_OP
        cls._PLAIN_SETTLE = cls.settle is State.settle and not cls._AFTER_OP
        cls._COPIERS = table_copiers(CoreTable, cls.TABLE)
        # the refusals are the core's: an engine declares its actions and words only its own checks
        for name in ("check_rule", "explain_illegal", "rule_refusal", "_apply_manual"):
            if getattr(cls, name) is not getattr(State, name):
                raise TypeError(f"{cls.__name__} overrides {name}: declare RULE_ACTIONS and write check_game_rule")
        odd = [a.kind for a in cls.EXTRA_MANUAL if not a.kind.startswith("manual.")]
        if odd:
            raise TypeError(f"{cls.__name__}: a manual move's kind starts with \"manual.\", not {odd}")
        game = cls.GAME_NAME or cls.__name__
        cls._RULES = ActionTable(cls.RULE_ACTIONS, f"the {game} actions", cls.PHASES, also=EVERY_GAME,
                                 reserved=CHOICE_KINDS + MANUAL_KINDS)
        cls._MANUAL = ActionTable(CORE_MANUAL + cls.EXTRA_MANUAL, f"the {game} manual moves")

    def __init__(self, engine: Engine, deck: "Deck", catalogue: "Catalogue", seed: int, options: dict[str, Any]):
        self.engine = engine
        self.game = engine.game
        self.seed = seed
        self.options = options
        self.rng = random.Random(seed)
        self.cards: list[Card] = []
        self.zones: dict[str, list[int]] = {z.name: [] for z in self.ZONES}
        self.where: list[str] = []
        self.counters: dict[str, int] = {c.name: c.initial for c in self.COUNTERS}
        self.turn = 0
        self.phase = ""
        self.log: list[tuple[int, str, str, bool]] = []
        self.actions: list[Action] = []
        self.outcome: Outcome | None = None
        self.pending: Choice | None = None
        self.queue: list[tuple[tuple, int | None]] = []  # ops to run; the last element runs next
        self._legal: list[Action] | None = None
        self.setup(deck, catalogue)
        self.run()

    # -- to implement ---------------------------------------------------------------------------
    @abstractmethod
    def setup(self, deck: "Deck", catalogue: "Catalogue") -> None:
        """Deal the game: shuffle, fill the zones, set the first phase."""

    @abstractmethod
    def rule_actions(self) -> list[Action]:
        """The rules' own legal actions now (no manual moves, no pending-choice answers)."""

    @abstractmethod
    def apply_rule(self, action: Action) -> None:
        """Apply a rule action already known to be legal."""

    @abstractmethod
    def end_phase(self, manual: bool) -> None:
        """Move on to the next phase (the manual move, or the engine's own pass)."""

    def run_op(self, op: tuple, source: int | None) -> None:
        """Run one queued op; may call `self.ask(...)` to wait for the player. The default calls the
        engine's method `_op_<name>(op, source)` for the op `(name, ...)`."""
        handler = self._OP_METHODS.get(op[0])
        if handler is None:
            raise EngineError(f"{type(self).__name__} has no op {op[0]!r} (define _op_{op[0]})")
        handler(self, op, source)

    def resolve_choice(self, choice: Choice, value: Any) -> None:
        """The player answered `choice` with `value` (None: declined). The default calls the engine's
        method `_res_<name>(op, source, value)` for the op `(name, ...)` that asked."""
        handler = self._RES_METHODS.get(choice.op[0])
        if handler is None:
            raise EngineError(f"{type(self).__name__} has no answer to op {choice.op[0]!r} (define _res_{choice.op[0]})")
        handler(self, choice.op, choice.source, value)

    def after_op(self) -> None:
        """Called after every op the queue runs: the place for a win or loss any op may bring
        about. The default applies LOSE_WHEN_EMPTY."""
        if self.EMPTY_DECK[0] == LOSE_WHEN_EMPTY and not self.zones[self.DECK_ZONE] and self.outcome is None:
            self.lose(self.EMPTY_DECK[1] or "your deck is empty")

    def settle(self) -> None:
        """Called when the queue stops (after every action, manual moves too); default `after_op`."""
        self.after_op()

    def check_rule(self, action: Action) -> str | None:
        """None when a rules action (no choice pending) is legal now, else the reason: first what
        the declared RULE_ACTIONS refuse (unknown kind, missing or extra field, wrong phase, no such
        card, true/false for a value), then the engine's `check_game_rule`."""
        return self._RULES.refusal(action, self.phase, len(self.cards)) or self.check_game_rule(action)

    def explain_illegal(self, action: Action) -> str:
        """Why a rules action is refused now, in words."""
        return self.check_rule(action) or f"{action.get('kind')!r} is not a legal action now (phase: {self.phase or 'setup'})"

    def check_game_rule(self, action: Action) -> str | None:
        """The engine's own check of an action its declaration accepts (a known kind with its fields,
        in one of its phases, naming real cards): None when legal now, else why not, in the game's
        terms. The default looks it up in `rule_actions()`; an engine may answer directly (faster),
        but must agree."""
        if action in self._rules_now():
            return None
        return self.explain_game_rule(action)

    def explain_game_rule(self, action: Action) -> str:
        """Why a well-formed action `rule_actions()` does not list is refused (the default check's words)."""
        return f"{action.get('kind')!r} is not a legal action now (phase: {self.phase or 'setup'})"

    def describe(self, action: Action) -> str:
        return action.get("kind", "?")

    def card_view(self, iid: int) -> dict[str, Any]:
        card = self.cards[iid]
        return {"id": iid, "key": card.key, "name": card.display_name, "type": card.type, "text": card.text,
                "automated": "none", "manual_text": [card.text] if card.text else []}

    def extra_view(self) -> dict[str, Any]:
        return {}

    def manual_move(self, iid: int, to: str, bottom: bool) -> str:
        """Carry out a manual move; returns the log text. Engines override to keep their own
        per-card state (tapped, stacks) right."""
        src = self.where[iid]
        self.move(iid, to, bottom=bottom)
        return f"moved {self.name_of(iid, src)} from {self.zone_label(src)} to {self.zone_label(to)}" + (" (bottom)" if bottom else "")

    def manual_move_error(self, iid: int, to: str) -> str | None:
        return None

    def extra_manual_actions(self) -> list[Action]:
        return []

    def mulligan_action(self, redraw: bool) -> Action | None:
        """While the opening hand is decided (phase or pending choice "mulligan"): the action that keeps
        it (`redraw` False) or takes the rules' mulligan of all of it; None where the rules offer none
        (a simulation's mulligan policy plays these instead of the built-in policy)."""
        return None

    def apply_extra_manual(self, action: Action) -> str:
        """Apply one of the engine's EXTRA_MANUAL moves (its kind, fields and card ids already checked
        against the declaration), or raise IllegalAction; returns the log text."""
        raise IllegalAction(f"{action.get('kind')!r} is declared but this engine does not apply it", action)

    # -- primitives for engines -----------------------------------------------------------------
    def move(self, iid: int, to: str, bottom: bool = False) -> None:
        """Move one instance to the top (end) or bottom (start) of a zone."""
        self.zones[self.where[iid]].remove(iid)
        if bottom:
            self.zones[to].insert(0, iid)
        else:
            self.zones[to].append(iid)
        self.where[iid] = to

    def draw_turn_order(self) -> bool:
        """Whether you go first, by the `first` option (see `options.turn_order_option`): as chosen,
        or drawn with the game's own random generator, so a replay of the seed draws the same.
        Sets `first_drawn` so the board and the log say the order was drawn."""
        choice = self.options["first"]
        self.first_drawn = choice == "random"
        return self.rng.random() < 0.5 if self.first_drawn else choice == "first"

    def turn_order_words(self, first: bool) -> str:
        """"you go first (drawn at random)": the turn order as the log and the board say it."""
        return f"you go {'first' if first else 'second'}" + (" (drawn at random)" if self.first_drawn else "")

    def note(self, text: str, manual: bool = False) -> None:
        self.log.append((self.turn, self.phase, text, manual))

    def label(self, iid: int) -> str:
        """A card as the log and prompts name it: "Name (#id)"."""
        return f"{self.cards[iid].display_name} (#{iid})"

    def is_card(self, value: Any) -> bool:
        """True when `value` is one of this game's card ids: an int in range, not True or False
        (Python takes True for 1). Describing an action a player may have forged starts here."""
        return value.__class__ is int and 0 <= value < len(self.cards)

    def label_of(self, value: Any) -> str:
        """`label` of a card id; anything else as the action gave it."""
        return self.label(value) if self.is_card(value) else repr(value)

    def prompt(self, source: int | None, text: str) -> str:
        """A choice's question, prefixed by the card whose text asks it."""
        return f"{self.cards[source].display_name}: {text}" if source is not None else text

    def limit_reached(self, why: str = "") -> bool:
        """True (and the game lost) when the turn or round counter has reached the limit option."""
        name, text = self.LIMIT
        limit = self.options[name]
        if self.turn < limit:
            return False
        self.lose(text.format(limit=limit) + why)
        return True

    def win(self, reason: str) -> None:
        if self.outcome is None:
            self.outcome = Outcome("win", self.turn, reason)
            self.note(f"WIN on turn {self.turn}: {reason}")

    def lose(self, reason: str) -> None:
        if self.outcome is None:
            self.outcome = Outcome("loss", self.turn, reason)
            self.note(f"LOSS on turn {self.turn}: {reason}")

    def push(self, ops: Iterable[tuple], source: int | None = None) -> None:
        """Queue ops to run next, in the order given (before anything already queued)."""
        if ops.__class__ is not tuple:
            ops = tuple(ops)
        if len(ops) == 1:  # (most pushes: a generator and a reversed view cost more than the op)
            self.queue.append((ops[0], source))
        else:
            self.queue.extend([(op, source) for op in ops[::-1]])

    def ask(self, prompt: str, options: Iterable[tuple[Any, str]], op: tuple, source: int | None = None,
            optional: bool = False) -> None:
        self.pending = Choice(prompt, tuple(options), optional, op, source)

    def run(self) -> None:
        """Run queued ops until the queue is empty, a choice is pending or the game is over,
        calling `after_op` after each of them and `settle` when it stops. (The hottest loop of
        every engine: with the default `run_op` the op's method is looked up directly, and the
        default `after_op`, which acts only on an empty deck, is called only then.)"""
        queue = self.queue
        cls = self.__class__
        if queue:
            get = cls._OP_GET or _NO_OPS.get  # (no methods: the engine dispatches its ops itself, its own run_op)
            if cls._PLAIN_RUN:
                deck = self.zones[self.DECK_ZONE] if cls._EMPTY_LOSES else None
                while queue:
                    if self.pending is not None or self.outcome is not None:
                        break
                    op, source = queue.pop()
                    handler = get(op[0])
                    if handler is None:
                        self.run_op(op, source)  # raises the missing-handler error
                    handler(self, op, source)
                    if deck is not None and not deck:
                        self.after_op()
            else:
                after = self.after_op if cls._AFTER_OP or cls._EMPTY_LOSES else None
                while queue:
                    if self.pending is not None or self.outcome is not None:
                        break
                    op, source = queue.pop()
                    handler = get(op[0])
                    if handler is None:
                        self.run_op(op, source)
                    else:
                        handler(self, op, source)
                    if after is not None:
                        after()
        if self.outcome is None:
            if not cls._PLAIN_SETTLE:
                self.settle()
            elif cls._EMPTY_LOSES and not self.zones[self.DECK_ZONE]:
                self.after_op()  # the default settle: only an empty deck can end the game here

    def zone_label(self, name: str) -> str:
        for z in self.ZONES:
            if z.name == name:
                return z.label
        return name

    def name_of(self, iid: int, zone: str | None = None) -> str:
        """A card's name, or "a face-down card" while it is in (or comes from) a hidden zone."""
        zone = zone or self.where[iid]
        if zone in self._hidden_zones():
            return f"a face-down card (#{iid})"
        return f"{self.cards[iid].display_name} (#{iid})"

    def _hidden_zones(self) -> frozenset[str]:
        return self.HIDDEN

    # -- the public protocol --------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.outcome is not None

    def legal_actions(self, manual: bool = True) -> list[Action]:
        """Every action accepted now: the rules' own first, then (if `manual`) the manual moves."""
        if self.outcome is not None:
            return []
        actions = list(self._rules_now())
        if manual:
            actions.extend(self.manual_actions())
        return actions

    def _rules_now(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            if self.pending is not None:
                legal = [{"kind": "choose", "option": v} for v, _ in self.pending.options]
                if self.pending.optional:
                    legal.append({"kind": "decline"})
            else:
                legal = self.rule_actions()
            self._legal = legal
        return legal

    def manual_actions(self) -> list[Action]:
        if self.outcome is not None:
            return []
        actions: list[Action] = []
        if self.zones.get(self.DECK_ZONE):
            actions.append({"kind": "manual.draw"})
        targets = [z.name for z in self.ZONES if z.manual_target]
        for iid, zone in enumerate(self.where):
            for to in targets:
                if to != zone and self.manual_move_error(iid, to) is None:
                    actions.append({"kind": "manual.move", "card": iid, "to": to})
        for z in self.ZONES:
            if len(self.zones[z.name]) > 1:
                actions.append({"kind": "manual.shuffle", "zone": z.name})
        for c in self.COUNTERS:
            actions.append({"kind": "manual.counter", "counter": c.name, "delta": 1})
            if c.minimum is None or self.counters[c.name] > c.minimum:
                actions.append({"kind": "manual.counter", "counter": c.name, "delta": -1})
        actions.extend(self.extra_manual_actions())
        actions.append({"kind": "manual.skip"} if self.pending is not None else {"kind": "manual.end_phase"})
        actions.append({"kind": "concede"})
        return actions

    def apply_action(self, action: Action) -> None:
        """Apply a legal action, or raise IllegalAction (with the reason) and change nothing."""
        if self.outcome is not None:
            raise IllegalAction(f"the game is over ({self.outcome.result} on turn {self.outcome.turn}: {self.outcome.reason})", action)
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind.__class__ is not str:
            raise IllegalAction(f"an action is a JSON object with a \"kind\"; got {action!r}", action)
        if kind.startswith("manual.") or kind == "concede":
            self._apply_manual(action)
        else:
            if self.pending is not None or kind == "choose" or kind == "decline":
                if action not in self._rules_now():
                    raise IllegalAction(self._why_illegal(action), action)
            else:
                reason = self._RULES.refusal(action, self.phase, len(self.cards)) or self.check_game_rule(action)
                if reason is not None:
                    raise IllegalAction(reason, action)
            self._legal = None
            if kind == "choose" or kind == "decline":
                choice = self.pending
                self.pending = None
                self.resolve_choice(choice, action.get("option"))
            else:
                self.apply_rule(action)
            self.run()
        self._legal = None
        self.actions.append(action)

    def rule_refusal(self, action: Action) -> str | None:
        """Why a rules action (no choice pending) is refused now, or None when it is legal: what
        `check_rule` says, as `apply_action` asks it."""
        return self.check_rule(action)

    def _why_illegal(self, action: Action) -> str:
        kind = action["kind"]
        if self.pending is not None:
            if kind == "choose":
                values = ", ".join(repr(v) for v, _ in self.pending.options)
                return f"{action.get('option')!r} is not an option of \"{self.pending.prompt}\" (options: {values})"
            if kind == "decline":
                return f"\"{self.pending.prompt}\" must be answered; it cannot be declined (a manual skip can)"
            return f"waiting for a choice: \"{self.pending.prompt}\"; answer it first (or use a manual move)"
        if kind in ("choose", "decline"):
            return "there is no choice to answer now"
        return self.explain_illegal(action)

    def _apply_manual(self, action: Action) -> None:
        reason = self._MANUAL.refusal(action, self.phase, len(self.cards))
        if reason is not None:
            raise IllegalAction(reason, action)
        kind = action["kind"]
        text: str
        if kind == "concede":
            self.note("conceded", manual=True)
            self.lose("conceded")
            return
        if kind == "manual.draw":
            deck = self.zones.get(self.DECK_ZONE)
            if not deck:
                raise IllegalAction("the deck is empty: there is nothing to draw", action)
            iid = deck[-1]
            self.manual_move(iid, self.HAND_ZONE, False)
            text = f"drew {self.name_of(iid)}"
        elif kind == "manual.move":
            iid, to, at = action["card"], action["to"], action.get("at", "top")
            names = {z.name: z for z in self.ZONES}
            if to not in names or not names[to].manual_target:
                allowed = ", ".join(z.name for z in self.ZONES if z.manual_target)
                raise IllegalAction(f"{to!r} is not a zone a card can be moved to (zones: {allowed})", action)
            if at not in ("top", "bottom"):
                raise IllegalAction(f"\"at\" must be \"top\" or \"bottom\", not {at!r}", action)
            if to == self.where[iid] and "at" not in action:
                raise IllegalAction(f"{self.name_of(iid)} is already in {self.zone_label(to)}", action)
            error = self.manual_move_error(iid, to)
            if error:
                raise IllegalAction(error, action)
            text = self.manual_move(iid, to, at == "bottom")
        elif kind == "manual.shuffle":
            zone = action.get("zone")
            if zone not in self.zones:
                raise IllegalAction(f"there is no zone {zone!r} (zones: {', '.join(self.zones)})", action)
            self.shuffle(zone)
            text = f"shuffled {self.zone_label(zone)}"
        elif kind == "manual.counter":
            name, delta = action.get("counter"), action.get("delta")
            spec = next((c for c in self.COUNTERS if c.name == name), None)
            if spec is None:
                raise IllegalAction(f"there is no counter {name!r} (counters: {', '.join(self.counters) or 'none'})", action)
            if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
                raise IllegalAction(f"\"delta\" must be a non-zero whole number, not {delta!r}", action)
            value = self.counters[name] + delta
            if spec.minimum is not None and value < spec.minimum:
                raise IllegalAction(f"{spec.label} cannot go below {spec.minimum}", action)
            self.counters[name] = value
            text = f"{spec.label} {'+' if delta > 0 else ''}{delta} (now {value})"
        elif kind == "manual.end_phase":
            if self.pending is not None:
                raise IllegalAction(f"a choice is pending (\"{self.pending.prompt}\"): answer it or skip it first", action)
            self.note(f"ended the {self.phase} phase", manual=True)
            self.end_phase(manual=True)
            self.run()
            return
        elif kind == "manual.skip":
            if self.pending is None:
                raise IllegalAction("there is no pending effect to skip", action)
            text = f"skipped \"{self.pending.prompt}\""
            self.pending = None
            self.note(text, manual=True)
            self.run()
            return
        else:
            text = self.apply_extra_manual(action)
        self.note(text, manual=True)
        self.run()

    def action_to_string(self, action: Action) -> str:
        kind = action.get("kind") if isinstance(action, dict) else None
        if kind == "choose" and self.pending is not None:
            label = next((label for v, label in self.pending.options if v == action.get("option")), repr(action.get("option")))
            return f"Choose: {label}"
        if kind == "decline":
            return "Decline" + (f" ({self.pending.prompt})" if self.pending else "")
        if kind == "concede":
            return "Concede"
        if kind == "manual.draw":
            return "[manual] Draw a card"
        if kind == "manual.move":
            iid, to = action.get("card"), action.get("to")
            if self.is_card(iid):
                return f"[manual] Move {self.name_of(iid)} from {self.zone_label(self.where[iid])} to {self.zone_label(str(to))}" + (" (bottom)" if action.get("at") == "bottom" else "")
        if kind == "manual.shuffle":
            return f"[manual] Shuffle {self.zone_label(str(action.get('zone')))}"
        if kind == "manual.counter":
            spec = next((c for c in self.COUNTERS if c.name == action.get("counter")), None)
            delta = action.get("delta")
            return f"[manual] {spec.label if spec else action.get('counter')} {'+' if isinstance(delta, int) and delta > 0 else ''}{delta}"
        if kind == "manual.end_phase":
            return f"[manual] End the {self.phase} phase"
        if kind == "manual.skip":
            return "[manual] Skip the pending effect"
        return self.describe(action)

    # -- views, copies ----------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """Everything the player may see, as plain JSON-ready data."""
        zones = {}
        for z in self.ZONES:
            ids = self.zones[z.name]
            if z.hidden:
                cards = [{"id": i, "hidden": True} for i in sorted(ids)]
            else:
                cards = [self.card_view(i) for i in ids]
            zones[z.name] = {"label": z.label, "hidden": z.hidden, "count": len(ids), "cards": cards}
        return {
            "game": self.game, "seed": self.seed, "options": dict(self.options),
            "turn_order": None if self.first_drawn is None else self.turn_order_words(self.first),
            "turn": self.turn, "phase": self.phase, "phases": list(self.PHASES),
            "terminal": self.outcome is not None,
            "outcome": self.outcome.to_json() if self.outcome else None,
            "zones": zones,
            "counters": {c.name: {"label": c.label, "value": self.counters[c.name]} for c in self.COUNTERS},
            "pending": self.pending.to_json() if self.pending else None,
            "log": [{"turn": t, "phase": p, "text": text, "manual": m} for t, p, text, m in self.log],
            "actions": len(self.actions),
            **self.extra_view(),
        }

    def log_lines(self) -> list[str]:
        return [f"T{t} {p or 'setup'}: {'[manual] ' if m else ''}{text}" for t, p, text, m in self.log]

    def clone(self) -> "State":
        """An independent copy (cheaper than a replay; used by tests and search): the fields that
        CoreTable and the engine's TABLE declare are copied as deep as their types say, the rest
        (immutable values, fixed fields) shared."""
        return copy_state(self, type(self)._COPIERS)

    def check_invariants(self) -> list[str]:
        """Problems with the bookkeeping (an instance in no zone or two, `where` out of step)."""
        problems = []
        seen: dict[int, str] = {}
        for name, ids in self.zones.items():
            for iid in ids:
                if iid in seen:
                    problems.append(f"#{iid} is in {seen[iid]} and {name}")
                seen[iid] = name
                if self.where[iid] != name:
                    problems.append(f"#{iid} is in {name} but recorded in {self.where[iid]}")
        missing = set(range(len(self.cards))) - set(seen)
        if missing:
            problems.append(f"instances in no zone: {sorted(missing)}")
        return problems
