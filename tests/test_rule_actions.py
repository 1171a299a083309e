"""Rule actions declared as data (deckhub/core/actions.py), for every registered game: the core
refuses an unknown kind, a missing or an extra field, an action outside its phases and a card id
naming no card, in one wording that names the game's kinds, fields and phases; the engine's own
check sees only what passes. Played over seeded games (random and the built-in policy), so each
check runs in every phase the games reach.
"""
from __future__ import annotations

import random

import pytest

from deckhub.core.actions import ActionTable, RuleAction
from deckhub.core.engine import new_game
from deckhub.core.state import CORE_MANUAL, IllegalAction, State
from deckhub.games import load_catalogue

GAMES = 6
MAX_STEPS = 400


def fingerprint(state: State):
    return ({k: list(v) for k, v in state.zones.items()}, list(state.where), dict(state.counters), state.turn,
            state.phase, state.pending, len(state.log), len(state.actions), state.rng.getstate(), state.outcome)


def refused(state: State, action: dict) -> str:
    """The refusal of `action` by apply_action; the state is left as it was."""
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as info:
        state.apply_action(action)
    assert fingerprint(state) == before, f"refusing {action!r} changed the state"
    return str(info.value)


def played_states(engine):
    """Positions of seeded games, random and policy."""
    catalogue = load_catalogue(engine.game)
    decks = engine.decks()
    for seed in range(GAMES):
        name, deck = decks[seed % len(decks)]
        state = new_game(engine.game, deck, catalogue, seed, dict(engine.sample_options))
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            if state.is_terminal():
                break
            yield state
            rules = state.legal_actions(manual=False)
            if seed % 2:
                action = engine.policy(state)
            else:
                action = rng.choice(rules) if rules and rng.random() > 0.05 else rng.choice(state.legal_actions())
            state.apply_action(action)


def declared(state: State) -> dict[str, RuleAction]:
    return {a.kind: a for a in state.RULE_ACTIONS}


def test_each_game_declares_its_actions_once(engine):
    cls = engine.state_class
    kinds = [a.kind for a in cls.RULE_ACTIONS]
    assert kinds and len(kinds) == len(set(kinds)), kinds
    assert cls.GAME_NAME
    for spec in cls.RULE_ACTIONS:
        assert spec.text, f"{engine.game} {spec.kind}: say what it does"
        assert set(spec.phases) <= set(cls.PHASES), (spec.kind, spec.phases)
        assert not set(spec.fields) & set(spec.optional)
        assert not spec.kind.startswith("manual.") and spec.kind not in ("choose", "decline", "concede")
    assert all(a.kind.startswith("manual.") for a in cls.EXTRA_MANUAL)


def test_the_core_words_every_refusal_of_a_malformed_action(engine):
    seen = {"unknown": 0, "extra": 0, "missing": 0, "phase": 0, "card": 0}
    listed_kinds: set[str] = set()
    for number, state in enumerate(played_states(engine)):
        specs = declared(state)
        if state.pending is not None:
            # a choice is pending: apply_action asks for the answer first, but check_rule judges the
            # action as it would without one (the Neopets TCG stops outside its main phase only so)
            for spec in specs.values():
                if spec.phases and state.phase not in spec.phases:
                    text = state.check_rule({"kind": spec.kind, **{f: 0 for f in spec.fields}})
                    assert f"{spec.kind} ({spec.text}) is legal only in the " in text and f"this is the {state.phase} phase" in text
                    seen["phase"] += 1
            continue
        listed = state.legal_actions(manual=False)
        # every listed action is of a declared kind and passes check_rule; the manual ones are declared too
        for action in listed:
            assert action["kind"] in specs, f"{engine.game}: {action['kind']!r} is listed but not declared"
            assert state.check_rule(action) is None and state.rule_refusal(action) is None, action
        listed_kinds |= {a["kind"] for a in listed}
        manual = {a.kind for a in (*CORE_MANUAL, *state.EXTRA_MANUAL)}
        assert {a["kind"] for a in state.manual_actions()} <= manual
        if number % 3:
            continue
        # an unknown kind: the game's kinds, then the ones every game has
        text = refused(state, {"kind": "no-such-kind"})
        assert text.startswith("unknown action kind 'no-such-kind' (the ")
        assert f"{state.GAME_NAME} actions: {', '.join(sorted(specs))}; in every game: choose, decline, concede, manual.*" in text
        seen["unknown"] += 1
        for action in listed[:4]:
            spec = specs[action["kind"]]
            takes = ", ".join([*spec.fields, *(f"{f} (optional)" for f in spec.optional)]) or "none"
            # an extra field, naming the fields it takes
            text = refused(state, dict(action, bogus=1))
            assert text == f"{spec.kind} takes no field 'bogus' (its fields: {takes})"
            seen["extra"] += 1
            # a missing field
            for name in spec.fields:
                text = refused(state, {k: v for k, v in action.items() if k != name})
                assert text == f"{spec.kind} needs the field {name!r} (its fields: {takes})"
                seen["missing"] += 1
            # a card id that names no card
            if "card" in action:
                text = refused(state, dict(action, card=len(state.cards) + 3))
                assert text == f"there is no card #{len(state.cards) + 3} in this game ('card' takes a card id, 0 to {len(state.cards) - 1})"
                seen["card"] += 1
        # an action outside its phases, naming them and this phase's actions
        here = sorted(k for k, s in specs.items() if not s.phases or state.phase in s.phases)
        for spec in specs.values():
            if spec.phases and state.phase not in spec.phases:
                action = {"kind": spec.kind, **{f: 0 for f in spec.fields}}
                text = refused(state, action)
                phases = spec.phases[0] if len(spec.phases) == 1 else f"{', '.join(spec.phases[:-1])} or {spec.phases[-1]}"
                assert f"{spec.kind} ({spec.text}) is legal only in the {phases} phase" in text
                assert f"this is the {state.phase} phase (its actions: " in text
                assert all(k in text.rsplit("(its actions: ", 1)[1] for k in here)
                seen["phase"] += 1
    assert all(seen.values()), seen
    # every declared kind is one the games really list (no stale declaration)
    assert listed_kinds == set(engine.state_class._RULES.kinds()), sorted(set(engine.state_class._RULES.kinds()) - listed_kinds)


def test_manual_moves_are_declared_and_refused_in_the_core_words(engine):
    catalogue = load_catalogue(engine.game)
    name, deck = engine.decks()[0]
    state = new_game(engine.game, deck, catalogue, 0, dict(engine.sample_options))
    kinds = sorted(a.kind for a in (*CORE_MANUAL, *state.EXTRA_MANUAL))
    text = refused(state, {"kind": "manual.no-such-move"})
    assert text == f"unknown action kind 'manual.no-such-move' (the {state.GAME_NAME} manual moves: {', '.join(kinds)})"
    assert refused(state, {"kind": "concede", "why": 1}) == "concede takes no field 'why' (its fields: none)"
    assert refused(state, {"kind": "manual.move", "to": state.HAND_ZONE}) == \
        "manual.move needs the field 'card' (its fields: card, to, at (optional))"
    for spec in state.EXTRA_MANUAL:
        action = {"kind": spec.kind, **{f: len(state.cards) for f in spec.fields}}
        assert refused(state, action) == \
            f"there is no card #{len(state.cards)} in this game ('card' takes a card id, 0 to {len(state.cards) - 1})"
        assert "takes no field 'bogus'" in refused(state, dict(action, card=0, bogus=1))


def test_an_engine_cannot_word_the_core_refusals_itself():
    """The refusals are the core's: a State that overrides check_rule is refused when it is defined."""
    with pytest.raises(TypeError, match="overrides check_rule"):
        class Rogue(State):  # noqa: F841
            def check_rule(self, action):
                return None
    with pytest.raises(TypeError, match="declared twice"):
        class Twice(State):  # noqa: F841
            RULE_ACTIONS = (RuleAction("go", text="go"), RuleAction("go", text="go again"))
    with pytest.raises(TypeError, match="not among"):
        class Nowhere(State):  # noqa: F841
            PHASES = ("main",)
            RULE_ACTIONS = (RuleAction("go", phases=("end",), text="go"),)


def test_the_table_checks_optional_fields_and_card_ids():
    table = ActionTable((RuleAction("summon", ("card",), ("onto",), phases=("main",), text="summon", rule="X 1"),
                         RuleAction("next", text="next")), "the Test actions", ("main", "end"))
    assert table.refusal({"kind": "summon", "card": 2}, "main", 3) is None
    assert table.refusal({"kind": "summon", "card": 2, "onto": [0]}, "main", 3) is None
    assert table.refusal({"kind": "summon", "card": 3}, "main", 3).startswith("there is no card #3")
    assert table.refusal({"kind": "summon", "card": "2"}, "main", 3).startswith("there is no card #'2'")
    assert table.refusal({"kind": "summon", "card": 1, "extra": 1}, "main", 3).startswith("summon takes no field 'extra'")
    assert table.refusal({"kind": "summon", "onto": [1]}, "main", 3).startswith("summon needs the field 'card'")
    assert table.refusal({"kind": "summon", "card": 1}, "end", 3) == \
        "summon (summon) is legal only in the main phase (X 1); this is the end phase (its actions: next)"
    assert table.refusal({"kind": "next"}, "end", 3) is None


def test_true_or_false_is_refused_for_any_value():
    """Python takes True for 1: the core refuses a boolean wherever a card id, a number or a name goes."""
    table = ActionTable((RuleAction("go", ("card",), ("to",), text="go"),), "the Test actions")
    assert table.refusal({"kind": "go", "card": 1, "to": True}, "", 3) == "go: 'to' must be a card id, a number or a name, not true"
    assert table.refusal({"kind": "go", "card": False}, "", 3) == "go: 'card' must be a card id, a number or a name, not false"


def test_every_declared_card_id_field_is_checked_by_the_core(engine):
    """A field a declaration names as a card id (Huntik's "hero" of an exhaust action, the Neopets
    TCG's "to" and "tap") is refused in the core's words when it names no card: an engine never
    indexes its card lists with it (a Huntik "hero" of 999 used to raise IndexError)."""
    seen = 0
    for state in played_states(engine):
        if state.pending is not None:
            continue
        for action in state.legal_actions(manual=False)[:3]:
            spec = declared(state)[action["kind"]]
            for name in spec.card_fields:
                for bad in (len(state.cards), -1, "x"):
                    forged = dict(action, **{name: bad})
                    assert state.check_rule(forged) == (f"there is no card #{bad!r} in this game "
                                                        f"({name!r} takes a card id, 0 to {len(state.cards) - 1})")
                    seen += 1
    assert seen
    cls = engine.state_class
    for spec in (*cls.RULE_ACTIONS, *cls.EXTRA_MANUAL):
        assert set(spec.card_fields) <= {*spec.fields, *spec.optional}, spec.kind
