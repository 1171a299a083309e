"""The engine's readings of card abilities, players' flags on them, and the curators' overrides.

A card page shows each ability's reading (`card_readings`). A signed-in player flags one as wrong
with a sentence and a rule or card reference (`flag_reading`, rate-limited like proposals); the
flag waits in the curators' review queue. A curator sets the ability to manual at once
(`set_manual`, from a flag or the card page): a `ManualOverride`, one `FactChange` in the card's
audit trail and a new catalogue stamp, so every worker's catalogue compiles the card with that
ability left to manual moves (engines, simulations, coverage) until a curator clears it
(`clear_manual`, also audited).
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from deckhub.core import cards as core
from deckhub.core.reading import Part, read
from deckhub.games import find_reading, get_game
from deckhub.services.catalogue_store import bump_stamp, get_catalogue
from deckhub.services.community.errors import CommunityError, NotFound, ProposalInvalid
from deckhub.services.community.fields import CONTROL_CHARS
from deckhub.services.community.rate_limits import RATE_LIMIT, RATE_WINDOW, check_rate, take_rate
from deckhub.services.community.reviewing import clean_reason, require_curator
from deckhub.store import models
from deckhub.store.db import write_transaction

MAX_SENTENCE = 1000  # ReadingFlag.sentence's column size
MAX_REFERENCE = 500  # ReadingFlag.reference's
AUDIT_FIELD = "manual ability"  # the FactChange field an override is recorded under


def compiler_of(slug: str, catalogue: core.Catalogue):
    """The game's card compiler for this catalogue and its words (None: the game has no reading
    module, its programs are compiled by its engine alone)."""
    module = find_reading(get_game(slug))
    if module is None:
        return None, None
    return module.compiler(catalogue), module.WORDS


def readings_of(slug: str, catalogue: core.Catalogue, card: core.Card) -> tuple[Part, ...]:
    """The reading of each ability of `card`, with the catalogue's overrides applied."""
    compile, words = compiler_of(slug, catalogue)
    if compile is None:
        return ()
    return read(card, compile, words, catalogue.manual.get(card.key, ()))


def card_readings(slug: str, key: str) -> tuple[Part, ...]:
    catalogue = get_catalogue(slug)
    card = catalogue.get(key)
    if card is None:
        raise NotFound(f"There is no card {key!r} in {slug}.")
    return catalogue.memo_each("readings", key, lambda: readings_of(slug, catalogue, card), limit=256)


def _part(slug: str, key: str, index: int) -> Part:
    parts = card_readings(slug, key)
    if not 0 <= index < len(parts):
        raise NotFound("This card has no such ability (its text may have changed): reload the page.")
    return parts[index]


def _clean(text: str | None, what: str, limit: int) -> str:
    cleaned = re.sub(r"\s+", " ", CONTROL_CHARS.sub(" ", text or "")).strip()
    if not cleaned:
        return ""
    if len(cleaned) > limit:
        raise ProposalInvalid({what: f"At most {limit} characters."})
    return cleaned


@dataclass(frozen=True)
class FlagInput:
    index: int
    sentence: str
    reference: str


def flag_reading(user: models.User, slug: str, key: str, flag: FlagInput, rate_limit: int = RATE_LIMIT,
                 window: dt.timedelta = RATE_WINDOW) -> models.ReadingFlag:
    """A player's flag on one ability's reading, for the curators; it changes nothing by itself."""
    errors = {}
    sentence = reference = ""
    try:
        sentence = _clean(flag.sentence, "sentence", MAX_SENTENCE)
    except ProposalInvalid as exc:
        errors.update(exc.errors)
    try:
        reference = _clean(flag.reference, "reference", MAX_REFERENCE)
    except ProposalInvalid as exc:
        errors.update(exc.errors)
    if not sentence and "sentence" not in errors:
        errors["sentence"] = "Say in a sentence what the engine gets wrong."
    if not reference and "reference" not in errors:
        errors["reference"] = "Give a rule (e.g. \"Kaijudo 10D\") or a card that shows the right reading."
    part = _part(slug, key, flag.index)
    if errors:
        raise ProposalInvalid(errors)
    check_rate(user, rate_limit, window)
    with write_transaction():
        take_rate(user, rate_limit, window)
        return models.ReadingFlag.create(game=slug, card_key=key, ability=part.text, reading=part.words,
                                         sentence=sentence, reference=reference, flagger=user.id)


def pending_flags(slug: str | None = None, limit: int = 50) -> list[models.ReadingFlag]:
    """Flags waiting for a curator, oldest first, with their flagger."""
    query = (models.ReadingFlag.select(models.ReadingFlag, models.User)
             .join(models.User, on=models.ReadingFlag.flagger).where(models.ReadingFlag.status == "pending"))
    if slug:
        query = query.where(models.ReadingFlag.game == slug)
    return list(query.order_by(models.ReadingFlag.created_at, models.ReadingFlag.id).limit(limit))


def pending_flag_count(slug: str | None = None) -> int:
    query = models.ReadingFlag.select().where(models.ReadingFlag.status == "pending")
    return (query.where(models.ReadingFlag.game == slug) if slug else query).count()


def get_flag(flag_id: int) -> models.ReadingFlag:
    flag = models.ReadingFlag.get_or_none(models.ReadingFlag.id == flag_id)
    if flag is None:
        raise NotFound(f"There is no flag number {flag_id}.")
    return flag


def _active(slug: str, key: str, ability: str) -> models.ManualOverride | None:
    return (models.ManualOverride.select()
            .where((models.ManualOverride.game == slug) & (models.ManualOverride.card_key == key)
                   & (models.ManualOverride.ability == ability) & models.ManualOverride.cleared_at.is_null())
            .first())


def _audit(slug: str, key: str, ability: str, manual: bool, curator: models.User, reason: str) -> None:
    models.FactChange.create(game=slug, card_key=key, field=AUDIT_FIELD,
                             old_value={"ability": ability, "manual": not manual},
                             new_value={"ability": ability, "manual": manual}, source=reason, actor=curator.id)


def set_manual(curator: models.User, slug: str, key: str, index: int | None = None, reason: str = "",
               flag_id: int | None = None) -> models.ManualOverride:
    """Leave one ability of a card to manual moves in every engine from now on (from a flag: its
    ability; from the card page: the ability at `index`). Audited; a new catalogue stamp."""
    require_curator(curator)
    reason = clean_reason(reason, required=False)
    flag = get_flag(flag_id) if flag_id is not None else None
    if flag is not None:
        slug, key, ability = flag.game, flag.card_key, flag.ability
        if not any(p.text == ability for p in card_readings(slug, key)):
            raise CommunityError("The card's text changed since it was flagged; set its ability from the card page.")
        reason = reason or f"flag #{flag.id}: {flag.sentence} ({flag.reference})"
    else:
        ability = _part(slug, key, index if index is not None else -1).text
    if any(p.fixed for p in card_readings(slug, key) if p.text == ability):
        raise CommunityError("The engine plays this from the game's own rules, not from what the text compiled to "
                             "(a mission's terms, a keyword of the card's facts): a manual setting could not stop it.")
    with write_transaction():
        override = _active(slug, key, ability)
        if override is None:
            override = models.ManualOverride.create(game=slug, card_key=key, ability=ability, reason=reason,
                                                    flag=flag.id if flag else None, set_by=curator.id)
            _audit(slug, key, ability, True, curator, reason)
            bump_stamp(slug)
        if flag is not None:
            (models.ReadingFlag.update(status="manual", reviewer=curator.id, reviewed_at=models.utcnow())
             .where((models.ReadingFlag.id == flag.id) & (models.ReadingFlag.status == "pending")).execute())
    return override


def clear_manual(curator: models.User, slug: str, key: str, index: int, reason: str = "") -> None:
    """Undo an override: the engines read the ability as the compiler does again. Audited."""
    require_curator(curator)
    reason = clean_reason(reason, required=False)
    ability = _part(slug, key, index).text
    with write_transaction():
        override = _active(slug, key, ability)
        if override is None:
            raise CommunityError("This ability is not set to manual (another curator cleared it?).")
        (models.ManualOverride.update(cleared_at=models.utcnow(), cleared_by=curator.id)
         .where(models.ManualOverride.id == override.id).execute())
        _audit(slug, key, ability, False, curator, reason)
        bump_stamp(slug)


def dismiss_flag(curator: models.User, flag_id: int, reason: str = "") -> models.ReadingFlag:
    """A flag the curator finds wrong: closed, the reading stays as it is."""
    require_curator(curator)
    clean_reason(reason, required=False)
    get_flag(flag_id)
    with write_transaction():
        updated = (models.ReadingFlag.update(status="dismissed", reviewer=curator.id, reviewed_at=models.utcnow())
                   .where((models.ReadingFlag.id == flag_id) & (models.ReadingFlag.status == "pending")).execute())
    if updated != 1:
        raise CommunityError("This flag was reviewed already (by another curator?); nothing was changed.")
    return get_flag(flag_id)

