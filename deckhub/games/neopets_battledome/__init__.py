"""The Neopets Battledome TCG (Upper Deck, 2023-2025)."""
from deckhub.core.faces import FaceSpec, FaceStat
from deckhub.core.spec import CommandOption, DrawSpec, FieldSpec, GameSpec, SectionSpec

_NEOPETS = ("Neopet", "Rainbow Pool Neopet")

GAME = GameSpec(
    slug="neopets-battledome",
    name="Neopets Battledome",
    package=__name__,
    sections=(SectionSpec("Main Deck", ("Main", "Deck")), SectionSpec("Neopet Deck", ("Neopets",)),
              SectionSpec("Rainbow Pool", ())),
    main_section="Main Deck",
    fields=(
        FieldSpec("species", "Species", "str"),
        FieldSpec("faerie", "Faerie", "str"),
        FieldSpec("level_requirement", "Level requirement", "int"),
        FieldSpec("level_requirement_at_most", "Level requirement at most", "int", filter=False),
        FieldSpec("hp", "HP", "int"),
        FieldSpec("attack", "Attack", "int"),
        FieldSpec("defence", "Defence", "int"),
        FieldSpec("agility", "Agility", "int"),
        FieldSpec("attack_bonus", "Attack bonus", "int", filter=False),
        FieldSpec("finish", "Finish", "str", filter=False),
        FieldSpec("product", "Product", "str", filter=False),
        FieldSpec("note", "Note", "text", filter=False),  # what the source says about its statement
    ),
    types=("Neopet", "Rainbow Pool Neopet", "Codestone", "Equipment", "Food", "Faerie", "Legend",
           "Paint Brush", "Potion", "Location", "Map Piece", "Hero", "Petpet", "Villain", "Faction"),
    draws=DrawSpec("Main Deck", hand=5, per_turn=1, first_skips=False),
    curve=("level_requirement", "Level requirement"),
    breakdown=("faerie", "Faerie"),
    command_options=(CommandOption("--dummy-hp", "dummy_hp", "the training dummy's HP", "int"),
                     CommandOption("--dummy-defence", "dummy_defence", "the training dummy's Defence", "int"),
                     CommandOption("--dummy-agility", "dummy_agility", "the training dummy's Agility", "int")),
    face=FaceSpec(cost=FaceStat("level_requirement", "Level", None), colour="faerie", beside_type=("species",),
                  stats=(*(FaceStat(key, label, _NEOPETS) for key, label in
                           (("hp", "HP"), ("attack", "ATK"), ("defence", "DEF"), ("agility", "AGI"))),
                         FaceStat("attack_bonus", "+ATK", None), FaceStat("level_requirement_at_most", "Lv ≤", None))),
    extras={"colours": {"Air": "#7cc6e8", "Dark": "#5b2a86", "Earth": "#7a5230", "Fire": "#d6401f", "Light": "#e8c21f", "Water": "#1f6fd6"}},
)
