"""Readings players can see and flag (issue 31): every ability of every card gets plain words from
its compiled program; a flag reaches the curators' queue; a curator's manual setting is used by
every engine, simulation and coverage count until it is cleared."""
from __future__ import annotations


import pytest

from deckhub.core.cards import Card, Catalogue
from deckhub.core.decklist import Deck
from deckhub.core.effects import AUTO, MANUAL, Account
from deckhub.core.engine import get_engine, new_game
from deckhub.core.reading import PLAYED_BY_HAND, UNSAID, Reader, _bare, read, say_behaviour, with_manual
from deckhub.games import all_games, find_reading, load_catalogue
from deckhub.games.kaijudo.reading import WORDS as KAIJUDO_WORDS, compiler as kaijudo_compiler
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.community import readings as service
from deckhub.services.community.errors import NotAllowed, ProposalInvalid
from deckhub.store import models
from deckhub.store.db import database
from tests.conftest import AuthActions, csrf_token, make_app
from tests.conftest import visible_text as text

KAIJUDO = load_catalogue("kaijudo")
SPY = "spy-mission"  # Shield Blast, then "Draw 2 cards."
DRAW = "Draw 2 cards."
ICE_BLADE = "ice-blade"


# --- the readings, for every game ------------------------------------------------------------------

def _ops_in(value, found: set) -> set:
    """Every op tuple inside a compiled value (the shapes `Reader.op` is asked to say)."""
    if isinstance(value, tuple) and value and isinstance(value[0], str):
        found.add(value)
    if isinstance(value, (tuple, list)):
        for v in value:
            _ops_in(v, found)
    elif isinstance(value, dict):
        for v in value.values():
            _ops_in(v, found)
    return found


@pytest.mark.parametrize("game", [g.slug for g in all_games()])
def test_every_card_of_every_game_gets_a_reading_with_words_for_every_ability(game):
    module = find_reading(next(g for g in all_games() if g.slug == game))
    assert module is not None, f"{game} has no reading module"
    catalogue = load_catalogue(game)
    compile = module.compiler(catalogue)
    for card in catalogue:
        # every op and field the card's whole program holds has words (Unsaid otherwise), even those
        # of an ability no reading shows (a no-effect ability's ops)
        say_behaviour(compile(card), _bare(card, compile), module.WORDS)
        parts = read(card, compile, module.WORDS)
        assert [(p.text, p.status) for p in parts] == list(compile(card).abilities)
        for part in parts:
            assert part.words and part.words != UNSAID, (card.key, part.text)
            assert "_" not in part.words, f"{card.key}: an internal name leaks: {part.words!r}"
            if part.status is MANUAL:
                assert part.words == PLAYED_BY_HAND


@pytest.mark.parametrize("game, kind, text, expected", [
    ("neopets-tcg", "Equipment", "+2 Strength. When you play this card, draw a card. Your opponent discards a card.",
     ["+2 Strength while it is attached", "When you play it: draw a card",
      "no effect against the goldfish opponent: it only concerns the opponent's cards, and the dummy opponent has none and never acts"]),
    ("neopets-tcg", "Item", "Tap 1 Fire Neopet to play this. You may bank the top card of your deck.",
     ["To play it, tap one of your Neopets of the Fire faerie type", PLAYED_BY_HAND]),
    ("neopets-battledome", "Potion", "+2 Attack and +1 Agility. Heal 2 damage. Do a dance.",
     ["Your Neopet gets +2 Attack and +1 Agility for the turn it is played", "Remove 2 damage from your Neopet", PLAYED_BY_HAND]),
    ("neopets-battledome", "Equipment", "+1 Defence this turn. Reduce the damage your Neopet would take by 1.",
     ["Your Neopet gets +1 Defence the turn it is played", "Reduce every hit on your Neopet by 1 while it is in play"]),
    ("neopets-tcg", "Something Has Happened!", "Move 1 of your Neopets or Heroes to another arena.",
     ["When you play it: tap one of your untapped Neopets or Heroes and move it to another arena"]),
    ("neopets-battledome", "Equipment", "Reduce the next damage your Neopet would take by 2. Prevent 1 damage.",
     ["Reduce the next damage your Neopet takes by 2, once", "Cash it in when your Neopet is hit to take 1 less damage"]),
])
def test_text_a_player_supplies_is_read_back_in_plain_words(game, kind, text, expected):
    """The Neopets catalogues hold no rules text: the readings say what the engine made of a player's."""
    module = find_reading(next(g for g in all_games() if g.slug == game))
    card = Card(key="made-up-card", game=game, name="Made-up card", type=kind, text=text)  # not a real card
    assert [p.words for p in read(card, module.compiler(None), module.WORDS)] == expected


def test_the_toy_game_without_words_says_only_that_the_engine_carries_it_out(toy_game):
    from tests.toygame.engine import compile_card
    catalogue = load_catalogue("toy")
    said = {p.text: p.words for card in catalogue for p in read(card, compile_card, None)}
    assert said["Draw two cards."] == UNSAID and PLAYED_BY_HAND in said.values()


def test_a_kaijudo_reading_shows_what_the_compiler_kept_and_what_it_dropped():
    compile = kaijudo_compiler(KAIJUDO)
    by_key = {key: read(KAIJUDO.get(key), compile, KAIJUDO_WORDS) for key in (SPY, ICE_BLADE, "hydro-spy")}
    assert [p.words for p in by_key[SPY]][1:] == ["Draw two cards"]
    assert by_key[SPY][0].words.startswith("no effect against the goldfish opponent: ")
    assert [p.words for p in by_key["hydro-spy"]] == ["When it enters the battle zone: you may draw one card"]
    # the level limit of Ice Blade's target: the words say exactly what the engine does with it
    ice = by_key[ICE_BLADE][-1]
    assert ice.words.startswith("Return one creature") and ("level 4 or less" in ice.words) == (
        "max_level" in repr(compile(KAIJUDO.get(ICE_BLADE)).spell))


def test_every_kaijudo_op_kind_the_catalogue_compiles_to_has_words():
    compile = kaijudo_compiler(KAIJUDO)
    reader = Reader(KAIJUDO_WORDS)
    kinds = set()
    for card in KAIJUDO:
        prog = compile(card)
        for ops in (prog.spell, prog.unleash, *prog.triggers.values(), *(o for _, _, o in prog.ally_attack),
                    *(o for _, o in prog.other_etb), *(o for _, o in prog.ally_banished)):
            for op in ops:
                reader.op(op)
                kinds.add(op[0])
    assert {"draw", "may", "bounce", "pick", "sacrifice"} <= kinds


# --- overrides in the pure core --------------------------------------------------------------------

def test_an_ability_set_to_manual_is_compiled_without_its_ops_and_the_rest_kept():
    compile = kaijudo_compiler(KAIJUDO)
    card = KAIJUDO.get("reef-scout")  # Guard + an enters-the-battle-zone draw
    prog = compile(card)
    draw_text = next(t for t, _ in prog.abilities if "draw" in t.lower())
    manual = with_manual(compile, card, {draw_text})
    assert prog.triggers and not manual.triggers and manual.guard
    assert [s for _, s in manual.abilities] == [MANUAL if t == draw_text else s for t, s in prog.abilities]
    # each ability keeps its account: the one set to manual has none (the player reads it)
    assert list(manual.accounts) == [Account(t, (), ()) if t == draw_text else a
                                     for (t, _), a in zip(prog.abilities, prog.accounts)]
    assert manual.automation == "partial" and draw_text in manual.manual_text


def test_a_catalogue_with_an_override_compiles_and_counts_the_ability_as_manual():
    spy = KAIJUDO.get(SPY)
    overridden = Catalogue("kaijudo", list(KAIJUDO), KAIJUDO.sets.values(), manual={SPY: frozenset({DRAW})})
    compile = kaijudo_compiler(overridden)
    assert overridden.compiled(compile, spy).spell == () and overridden.compiled(compile, spy).automation == "partial"
    before, after = get_engine("kaijudo").coverage(KAIJUDO), get_engine("kaijudo").coverage(overridden)
    assert after["abilities"]["manual"] == before["abilities"]["manual"] + 1
    assert after["full"] == before["full"] - 1
    assert after["unproven"] == before["unproven"] == 0  # what the override kept is still proven


# --- the site: flag, review, set to manual, the engine uses it -------------------------------------

@pytest.fixture
def users(app):
    """(curator, player): the first account a site makes is its curator."""
    curator, player = app.test_client(), app.test_client()
    assert AuthActions(curator).signup("curie").status_code == 302
    assert AuthActions(player).signup("pat").status_code == 302
    return curator, player


def _spy_game(catalogue):
    state = new_game("kaijudo", Deck("kaijudo", {"Deck": {SPY: 40}}), catalogue, 1, {"first": True})
    spy = next(i for i in state.zones["hand"])
    for iid in list(state.zones["deck"])[:4]:
        state.apply_action({"kind": "manual.move", "card": iid, "to": "mana"})
    for iid in state.zones["mana"]:
        if state.tapped[iid]:
            state.apply_action({"kind": "manual.tap", "card": iid})
    while state.phase != "main":
        state.apply_action({"kind": "next"})
    hand = len(state.zones["hand"])
    state.apply_action({"kind": "cast", "card": spy})
    return len(state.zones["hand"]) - (hand - 1), state


def test_a_player_flags_a_reading_a_curator_sets_it_manual_and_the_engine_leaves_it_to_manual_moves(app, users):
    curator, player = users
    page = player.get(f"/games/kaijudo/cards/{SPY}")
    assert page.status_code == 200 and "How the engine reads it" in text(page) and "Draw two cards" in text(page)
    # the form refuses an empty sentence and keeps what was typed
    refused = player.post(f"/games/kaijudo/cards/{SPY}/readings/1/flag",
                          data={"sentence": "", "reference": "Kaijudo 9", "csrf_token": csrf_token(page.get_data(as_text=True))})
    assert refused.status_code == 400 and "Say in a sentence" in text(refused) and 'value="Kaijudo 9"' in refused.get_data(as_text=True)
    sent = player.post(f"/games/kaijudo/cards/{SPY}/readings/1/flag",
                       data={"sentence": "It draws one card too many.", "reference": "Kaijudo 9"})
    assert sent.status_code == 302

    queue = curator.get("/review")
    assert queue.status_code == 200
    shown = text(queue)
    assert "Flagged readings" in shown and "It draws one card too many." in shown and "Kaijudo 9" in shown
    assert "Draw 2 cards." in shown and "Draw two cards" in shown
    assert player.get("/review").status_code == 403
    with app.app_context(), database.connection_context():
        flag = models.ReadingFlag.get()
        drawn, _ = _spy_game(get_catalogue("kaijudo"))
        assert drawn == 2  # automated: the spell drew two cards

    done = curator.post(f"/review/flags/{flag.id}/manual", data={"reason": "checking the draw count"})
    assert done.status_code == 302
    with app.app_context(), database.connection_context():
        assert models.ReadingFlag.get_by_id(flag.id).status == "manual"
        change = models.FactChange.get((models.FactChange.card_key == SPY) & (models.FactChange.field == service.AUDIT_FIELD))
        assert change.new_value == {"ability": DRAW, "manual": True} and change.actor_id is not None
        catalogue = get_catalogue("kaijudo")
        drawn, state = _spy_game(catalogue)
        assert drawn == 0  # its ops never ran: the player plays it by hand
        assert any("not automated" in entry[2] and DRAW in entry[2] for entry in state.log[-5:])
        assert any(a["kind"] == "manual.draw" for a in state.legal_actions())
    card_page = text(player.get(f"/games/kaijudo/cards/{SPY}"))
    assert "played by hand set to manual by a curator" in card_page
    assert "Manual ability" in text(player.get(f"/games/kaijudo/history/{SPY}"))

    cleared = curator.post(f"/games/kaijudo/cards/{SPY}/readings/1/clear", data={"reason": "the compiler is right"})
    assert cleared.status_code == 302
    with app.app_context(), database.connection_context():
        assert _spy_game(get_catalogue("kaijudo"))[0] == 2
        assert models.FactChange.select().where(models.FactChange.field == service.AUDIT_FIELD).count() == 2


def test_only_a_curator_sets_an_ability_to_manual_and_flags_are_rate_limited(app, users):
    curator, player = users
    assert player.post(f"/games/kaijudo/cards/{SPY}/readings/1/manual", data={}).status_code == 403
    app.config.update(PROPOSAL_RATE_LIMIT=1)
    data = {"sentence": "Wrong.", "reference": "Kaijudo 9"}
    assert player.post(f"/games/kaijudo/cards/{SPY}/readings/1/flag", data=data).status_code == 302
    again = player.post(f"/games/kaijudo/cards/{SPY}/readings/1/flag", data=data)
    assert again.status_code == 400 and "please wait" in text(again)
    assert player.post(f"/games/kaijudo/cards/{SPY}/readings/9/flag", data=data).status_code == 404
    with app.app_context(), database.connection_context():
        pat = models.User.get(models.User.username == "pat")
        with pytest.raises(NotAllowed):
            service.set_manual(pat, "kaijudo", SPY, index=0)
        with pytest.raises(ProposalInvalid) as refused:
            service.flag_reading(pat, "kaijudo", SPY, service.FlagInput(0, "x" * 2000, ""))
        assert set(refused.value.errors) == {"sentence", "reference"}
        assert models.ReadingFlag.select().count() == 1


def test_a_huntik_mission_the_engine_plays_from_its_rules_cannot_be_set_to_manual(app, users):
    curator, _ = users
    key = "deliver-the-ring-of-art"
    page = text(curator.get(f"/games/huntik/cards/{key}"))
    assert "The engine plays this mission; it is won by its terms: the Ring of Arc is in zone 4" in page
    assert "Set to manual for every engine" not in page
    refused = curator.post(f"/games/huntik/cards/{key}/readings/0/manual", data={"reason": "try"}, follow_redirects=True)
    assert "a manual setting could not stop it" in text(refused)
    with app.app_context(), database.connection_context():
        assert models.ManualOverride.select().count() == 0


def test_a_visitor_sees_the_readings_but_no_flag_form(client):
    page = client.get(f"/games/kaijudo/cards/{ICE_BLADE}")
    assert page.status_code == 200 and "How the engine reads it" in text(page)
    assert "Flag this reading" not in text(page)
    assert client.post(f"/games/kaijudo/cards/{ICE_BLADE}/readings/1/flag", data={}).status_code == 302  # to log in


# --- step 020 on a database made by an earlier release ---------------------------------------------

def test_step_20_on_the_newest_old_database_keeps_every_row_and_the_overrides_then_apply(tmp_path):
    """The newest fixture made by an earlier commit (tests/fixtures/old_databases) upgrades through
    step 020: every row a user made is kept, and the new tables take a flag and an override that the
    site's catalogue then uses."""
    from deckhub.services import catalogue_store
    from deckhub.store import schema
    from deckhub.store.db import make_database
    from tests.conftest import POSTGRES_URL
    from tests.fixtures.old_databases import loader

    if POSTGRES_URL:
        pytest.skip("the SQLite copy of the fixture (tests/test_upgrade_old_databases.py runs every fixture on both)")
    newest = max((f for f in loader.fixtures() if f["legacy_version"] < 20), key=lambda f: (f["legacy_version"], f["name"]))
    url = f"sqlite:///{loader.restore_sqlite(newest, tmp_path)}"
    db = make_database(url)
    try:
        before = loader.snapshot(db)
        with db.connection_context():
            assert not db.table_exists("reading_flag")
        schema.upgrade(db, backup_dir=tmp_path)
        assert "020_reading_flags" in schema.applied(db) and schema.pending(db) == []
        lost = loader.missing_rows({t: r for t, r in before.items() if t not in ("schema_version", "collection_upload_row")},
                                   loader.snapshot(db))
        assert lost == {}
    finally:
        db.close()
    app = make_app(url)
    with app.app_context(), database.connection_context():
        user = models.User.get(models.User.username == newest["user"]["name"])
        assert models.ReadingFlag.select().count() == 0 and models.ManualOverride.select().count() == 0
        flag = service.flag_reading(user, "kaijudo", SPY, service.FlagInput(1, "It draws one card too many.", "Kaijudo 9"))
        curator = models.User.get(models.User.is_curator == True)  # noqa: E712 (a peewee expression)
        service.set_manual(curator, "", "", flag_id=flag.id)
        catalogue_store.clear_cache()
        assert get_catalogue("kaijudo").manual == {SPY: frozenset({DRAW})}
