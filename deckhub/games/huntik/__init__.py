"""The Huntik TCG (Upper Deck, 2009): a card is its name plus its version (Huntik 201)."""
from deckhub.core.cards import Card, normalize_name
from deckhub.core.faces import FaceSpec, FaceStat
from deckhub.core.spec import CommandOption, DrawSpec, FieldSpec, GameSpec, SectionSpec


def count_by_name_and_version(card: Card) -> str:
    return normalize_name(card.display_name)


_HEROES = ("major hero", "minor hero", "legendary hero")

GAME = GameSpec(
    slug="huntik",
    name="Huntik",
    package=__name__,
    sections=(SectionSpec("Deck", ("Main", "Main Deck")), SectionSpec("Legendary Hero Pile", ("Legendary Heroes",))),
    fields=(
        FieldSpec("tags", "Tags", "list"),
        FieldSpec("team", "Team", "str"),
        FieldSpec("atk", "ATK", "int"),
        FieldSpec("def", "DEF", "int"),
        FieldSpec("keywords", "Keywords", "list"),
        FieldSpec("flavour", "Flavour", "text", filter=False),
        FieldSpec("subtype", "Subtype", "str", filter=False),  # as the source gives it; tags holds it too
    ),
    types=("major hero", "minor hero", "legendary hero", "action", "amulet", "mission", "feature"),
    copy_key=count_by_name_and_version,
    draws=DrawSpec("Deck", hand=5, per_turn=2, first_skips=False, from_turn=2),
    breakdown=("team", "Team"),
    turn_unit="round",
    command_options=(CommandOption("--mission", "mission", "the mission to play"),),
    face=FaceSpec(colour="team", beside_type=("subtype",),
                  stats=(FaceStat("atk", "ATK", _HEROES), FaceStat("def", "DEF", _HEROES))),
    extras={"colours": {"Good": "#1f6fd6", "Evil": "#a3192b"}},
)
