"""The Huntik mission registry: every mission lives in one family module of
`deckhub/games/huntik/missions/` (its data, checks, ops and plan), and the registry finds each one
exactly once, in the order the mission option lists them (the training mission, then SAS numbers).
"""
from __future__ import annotations

import importlib
import pkgutil

import pytest

from deckhub.core.decklist import Deck
from deckhub.core.engine import new_game
from deckhub.games.huntik import missions as registry
from deckhub.games.huntik import policy
from deckhub.games.huntik.missions import FAMILIES, FAMILY_OF, FEATURES, MISSIONS
from deckhub.games.huntik.state import HuntikState
from deckhub.games import load_catalogue

CAT = load_catalogue("huntik")


def _ops_named(powers) -> set[str]:
    return {op[0] for power in powers for op in power.ops}


@pytest.mark.parametrize("key", list(MISSIONS))
def test_each_mission_lives_in_its_family_module(key):
    mission = MISSIONS[key]
    module = FAMILIES[FAMILY_OF[key]]
    assert [m.key for m in module.MISSIONS].count(key) == 1
    assert next(m for m in module.MISSIONS if m.key == key) is mission
    # its plan is a policy plan, written in the same module
    assert mission.plan is not None and issubclass(mission.plan, policy._Plan)
    assert mission.plan.__module__ == module.__name__
    # its checks are its family's (or the package's shared ones)
    for hook in (mission.check, mission.end_round, mission.start_round):
        if hook is not None:
            assert hook.__module__ in (module.__name__, registry.__name__)
    # the features it puts on the map are its family's data
    own = {f.key for f in module.FEATURES}
    for feature_key, *_ in mission.setup:
        assert feature_key in own, f"{key} sets up {feature_key}, which {module.__name__} does not define"
        assert FEATURES[feature_key] is next(f for f in module.FEATURES if f.key == feature_key)


def test_the_registry_finds_every_mission_and_feature_exactly_once():
    found = [m.key for module in FAMILIES.values() for m in getattr(module, "MISSIONS", ())]
    assert sorted(found) == sorted(MISSIONS) and len(found) == len(set(found)) == 15
    features = [f.key for module in FAMILIES.values() for f in getattr(module, "FEATURES", ())]
    assert sorted(features) == sorted(FEATURES) and len(features) == len(set(features))
    # every module of the package is a family, and the registry imported each of them
    names = {info.name for info in pkgutil.iter_modules(registry.__path__)}
    assert names == set(FAMILIES) and all(FAMILIES[n] is importlib.import_module(f"{registry.__name__}.{n}") for n in names)
    assert registry.PLANS == {k: m.plan for k, m in MISSIONS.items()}


def test_missions_keep_the_option_order():
    numbers = [m.number for m in MISSIONS.values()]
    assert numbers[0] == "DEM" and numbers[1:] == sorted(numbers[1:], key=int)
    assert registry.DEFAULT_MISSION in MISSIONS


def test_the_engine_dispatches_every_op_the_families_register_and_use():
    for name, fn in registry.OPS.items():
        assert HuntikState._OP_METHODS[name] is fn
    for name, fn in registry.ANSWERS.items():
        assert HuntikState._RES_METHODS[name] is fn
    used = set()
    for feature in FEATURES.values():
        used |= _ops_named(power for _, power in feature.grants)
        used |= _ops_named(feature.powers)
        used |= {op[0] for op in feature.on_hero_stops}
    for mission in MISSIONS.values():
        used |= _ops_named(power for _, power in mission.grants)
    missing = sorted(name for name in used if name not in HuntikState._OP_METHODS)
    assert not missing, f"ops named by a feature or mission that the engine cannot run: {missing}"
    assert {"push_argo", "grab_gargoyle", "climb", "leave_map", "pickup"} <= used


def test_an_op_name_can_be_registered_once():
    with pytest.raises(RuntimeError, match="defined twice"):
        registry.op("push_argo")(lambda state, op, source: None)
    assert registry.OPS["push_argo"].__module__.endswith(".herding")


@pytest.mark.parametrize("key", list(MISSIONS))
def test_the_policy_plays_each_mission_with_its_family_plan(key):
    deck = Deck("huntik", {"Deck": {"springer-trapspringer": 3, "enderby-casterwill-tutor": 3, "bellona-lion-gladiator": 3,
                                    "ammit-heart-eater-rassimovs-pet": 3, "janus-knight-dark-charger": 3,
                                    "suit-ms-thorpe-venice-agent": 3}})
    state = new_game("huntik", deck, CAT, 3, {"mission": key})
    assert type(policy._plan(state)) is MISSIONS[key].plan


_EXTRA_FAMILY = '''
from deckhub.games.huntik.missions import Feature, Mission
from deckhub.games.huntik.policy import _ZonePlan


class _Stand(_ZonePlan):
    target = 2


FEATURES = (Feature("test-marker", "Test Marker"),)
MISSIONS = (Mission("test-stand-in-zone-2", "Test: Stand in Zone 2", "900", "unknown", (("test-marker", 2, 1, {}),),
                    "never", plan=_Stand),)
'''


@pytest.fixture
def extra_family(tmp_path, monkeypatch):
    """A module added beside the families (on a copy of the package's search path)."""
    import sys

    (tmp_path / "zz_extra.py").write_text(_EXTRA_FAMILY)
    monkeypatch.setattr(registry, "__path__", [*registry.__path__, str(tmp_path)])
    yield tmp_path
    sys.modules.pop(f"{registry.__name__}.zz_extra", None)


def test_a_new_family_is_one_new_module(extra_family):
    families, features, missions, family_of = registry._discover()
    assert "zz_extra" in families and family_of["test-stand-in-zone-2"] == "zz_extra"
    assert "test-marker" in features
    assert list(missions)[-1] == "test-stand-in-zone-2"  # after the SAS numbers below it
    assert list(missions)[:-1] == list(MISSIONS)
    assert "test-stand-in-zone-2" not in MISSIONS  # the game's own registry is untouched


def test_a_mission_defined_in_two_families_is_refused(extra_family):
    (extra_family / "zz_extra.py").write_text(_EXTRA_FAMILY.replace("test-stand-in-zone-2", "corral-the-bulls")
                                              .replace('"test-marker"', '"test-marker-2"'))
    with pytest.raises(RuntimeError, match="corral-the-bulls.*defined twice"):
        registry._discover()


# --- nobody wins by the end of round 7 (Huntik 102, 501) ----------------------------------------

def _to_the_end(mission: str, mine: dict[str, str], theirs: dict[str, int] = {}):
    """A game on `mission` with heroes put into play for you ({key: zone}) and for the defending
    player ({key: zone}), passed to the end of round 7."""
    deck = {"springer-trapspringer": 10, "janus-knight-dark-charger": 10, "bellona-lion-gladiator": 10,
            "ammit-heart-eater-rassimovs-pet": 10}
    s = new_game("huntik", Deck("huntik", {"Deck": deck}), CAT, 1, {"mission": mission})
    for key, zone in list(mine.items()) + list(theirs.items()):
        iid = next(i for i in s.zones["deck"] if s.cards[i].key == key and s.where[i] == "deck")
        s.apply_action({"kind": "manual.move", "card": iid, "to": zone})
        if key in theirs:
            s.place_enemy_hero(iid, int(zone[1]))
    s.apply_action({"kind": "mulligan"})
    while s.outcome is None:
        s.apply_action({"kind": "pass"})
    return s


def test_a_mutual_mission_tied_after_round_7_goes_to_more_major_and_legendary_heroes_102():
    s = _to_the_end("get-the-argo-out-of-the-water", {"janus-knight-dark-charger": "z1"})
    assert MISSIONS["get-the-argo-out-of-the-water"].kind == "mutual"
    assert s.outcome.result == "win" and s.outcome.turn == 7 and "Huntik 102" in s.outcome.reason
    assert "Get the Argo Out of the Water" in s.outcome.reason and "1 major and legendary heroes" in s.outcome.reason


def test_the_tie_break_counts_major_heroes_then_minor_heroes_then_goes_to_the_defender_102():
    argo = "get-the-argo-out-of-the-water"
    # the defender's major hero outweighs your minor one
    s = _to_the_end(argo, {"springer-trapspringer": "z1"}, {"janus-knight-dark-charger": "z5"})
    assert s.outcome.result == "loss" and "tie-break goes to the defending player" in s.outcome.reason
    # majors level (a stunned hero is still yours, in play): your minor hero decides
    s = _to_the_end(argo, {"janus-knight-dark-charger": "z2", "springer-trapspringer": "z1"},
                    {"ammit-heart-eater-rassimovs-pet": "z5"})
    assert s.outcome.result == "win"
    # level on both counts: the defending player wins
    s = _to_the_end(argo, {"bellona-lion-gladiator": "z1"}, {"springer-trapspringer": "z5"})
    assert s.outcome.result == "loss" and s.outcome.turn == 7


def test_a_tie_break_on_a_mission_of_unknown_kind_is_a_loss_that_names_the_unknown_102():
    """SAS 146's kind is not in the card data: the tie-break holds only if it is mutual, so a tie-break
    in your favour is not counted as a win (GUIDE: a loss that says which unknown caused it)."""
    assert MISSIONS["escape-the-mansion"].kind == "unknown"
    s = _to_the_end("escape-the-mansion", {"janus-knight-dark-charger": "z1"})
    assert s.outcome.result == "loss" and s.outcome.reason.startswith("unknown mission kind")
    from deckhub.core.simulate import loss_reason
    assert loss_reason(s.outcome.reason) == "unknown mission kind: the tie-break is not counted"
    # a training mission: the defending player wins whatever the heroes (Huntik 102, 501)
    s = _to_the_end("deliver-the-ring-of-art", {"janus-knight-dark-charger": "z1"})
    assert s.outcome.result == "loss" and "defending player wins" in s.outcome.reason


def test_the_built_in_player_keeps_its_hero_in_the_last_round_of_a_mutual_mission_102():
    """Freelancer asks at the start of each round for a discard or his elimination. With only Dante
    Vale cards in hand, each worth more than him, the built-in player lets him go, except at the start
    of round 7 of a mutual mission, where he may decide the tie-break: then it discards."""
    deck = {"freelancer-knightly-titan": 1, "dante-vale-private-investigator": 39}
    s = new_game("huntik", Deck("huntik", {"Deck": deck}), CAT, 1, {"mission": "get-the-argo-out-of-the-water"})
    freelancer = next(i for i in s.zones["deck"] if s.cards[i].key == "freelancer-knightly-titan")
    s.apply_action({"kind": "manual.move", "card": freelancer, "to": "z1"})
    s.apply_action({"kind": "mulligan"})
    s.apply_action({"kind": "pass"})
    assert s.pending.op[0] == "discard_or_elim" and policy.policy(s) == {"kind": "decline"}
    for _ in range(5):  # rounds 2 to 6: you discard
        s.apply_action({"kind": "choose", "option": s.pending.options[0][0]})
        s.apply_action({"kind": "pass"})
    assert s.round == 7 and s.pending.op[0] == "discard_or_elim"
    assert policy.policy(s)["kind"] == "choose"
