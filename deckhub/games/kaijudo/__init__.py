"""Kaijudo (Wizards of the Coast, 2012)."""
from deckhub.core.faces import FaceSpec, FaceStat
from deckhub.core.spec import DrawSpec, FieldSpec, GameSpec, SectionSpec

GAME = GameSpec(
    slug="kaijudo",
    name="Kaijudo",
    package=__name__,
    sections=(SectionSpec("Deck", ("Main", "Main Deck")),),
    fields=(
        FieldSpec("level", "Level", "int"),
        FieldSpec("civilizations", "Civilization", "list"),
        FieldSpec("race", "Race", "list"),
        FieldSpec("power", "Power", "str", filter=False),
        FieldSpec("power_value", "Power", "int", minimum=0, maximum=99_999),
    ),
    types=("Creature", "Evolution Creature", "Vortex Evolution Creature", "Spell"),
    draws=DrawSpec("Deck", hand=5, per_turn=1, first_skips=True),
    curve=("level", "Level"),
    breakdown=("civilizations", "Civilization"),
    face=FaceSpec(cost=FaceStat("level", "Level"), colour="civilizations", beside_type=("race",),
                  stats=(FaceStat("power", "Power", ("Creature", "Evolution Creature", "Vortex Evolution Creature")),)),
    extras={"colours": {"Fire": "#d6401f", "Water": "#1f6fd6", "Nature": "#2e8b3a", "Light": "#e8c21f", "Darkness": "#5b2a86"}},
)
