"""Every word of card text is accounted for (issue 31, part 1).

A pattern records what it consumed of an ability's text; an ability whose unread words include a
qualifier, a pronoun, a condition or "you may" is manual, and what it compiled to is undone. One
generic test compiles every card of every registered game (and the toy game) this way and checks
that nothing counted as played left such a word unread: the coverage counts are what it proves.
"""
from __future__ import annotations

import pytest

from deckhub.core import effects as core_effects
from deckhub.core.cards import Card
from deckhub.core.effects import AUTO, MANUAL, NO_EFFECT, PASS, Rules, accounting, contains, exact, full, pattern, starts
from deckhub.games import find_engine, game_slugs, get_game, load_catalogue


def settle(table: Rules, text: str, status=AUTO):
    with accounting(text) as ledger:
        result = table.apply(text)
    return result, *ledger.settle(status)


def test_a_qualifier_in_an_optional_part_no_reader_sees_is_left():
    table = Rules("t")
    table.row("bounce", full(r"return target creature(?: that is level \d+ or less)? to its owner's hand"))(lambda m: "bounce")
    assert settle(table, "return target creature to its owner's hand")[1] is AUTO
    result, status, account = settle(table, "return target creature that is level 4 or less to its owner's hand")
    assert result == "bounce" and status is MANUAL and account.demoted
    assert account.left == (("qualifier", "level 4 or less"),)
    assert "level 4 or less" in account.reason


def test_a_group_counts_only_when_its_reader_reads_it():
    table = Rules("t")
    table.row("untap", full(r"untap one of your creatures(?: that is level (\d+) or less)?"))(lambda m: ("untap", m.group(1)))
    assert settle(table, "untap one of your creatures that is level 3 or less")[1] is AUTO
    ignoring = Rules("t")
    ignoring.row("untap", full(r"untap one of your creatures(?: that is level (\d+) or less)?"))(lambda m: ("untap",))
    assert settle(ignoring, "untap one of your creatures that is level 3 or less")[1] is MANUAL


def test_a_wildcard_outside_a_group_swallows_nothing_silently():
    table = Rules("t")
    table.row("enemy", starts(r"banish .*enemy creature"))(lambda m: "noop")
    status = settle(table, "banish one of your creatures and target enemy creature", NO_EFFECT)[1]
    assert status is MANUAL


def test_a_clause_handed_to_a_nested_reader_counts_where_that_reader_read_it():
    table = Rules("t")

    @table.row("trigger", full(r"whenever one of your other creatures enters the battle zone, (.+)"))
    def _(m):
        return table.apply(m.group(1))

    table.row("boost", lambda s: s.endswith("+2000 power") or None)(lambda m: "boost self")  # reads no word itself
    table.row("draw", full(r"draw a card"))(lambda m: "draw")
    assert settle(table, "whenever one of your other creatures enters the battle zone, draw a card")[1] is AUTO
    result, status, account = settle(table, "whenever one of your other creatures enters the battle zone, it gets +2000 power")
    assert result == "boost self" and status is MANUAL and account.left == (("pronoun", "it"),)


def test_a_row_that_passes_leaves_no_reading_behind():
    table = Rules("t")
    table.row("greedy", full(r"you may (.+)"))(lambda m: PASS)
    table.row("draw", full(r"(?:you may )?draw a card"))(lambda m: "draw")
    assert settle(table, "you may draw a card")[1] is MANUAL  # the optional "you may" nobody read


def test_a_moot_row_reads_the_rest_of_its_clause_only():
    table = Rules("t")
    table.row("blocks", starts(r"whenever this creature blocks"), moot=True)(lambda m: "noop")
    assert settle(table, "whenever this creature blocks, it gets +2000 power", NO_EFFECT)[1] is NO_EFFECT
    assert settle(table, "whenever this creature blocks, tap it. if you do, draw", NO_EFFECT)[1] is MANUAL


def test_exact_texts_and_tracked_patterns_outside_tables():
    table = Rules("t")
    table.row("fixed", exact("untap all your creatures"))(lambda m: "untap")
    assert settle(table, "untap all your creatures")[1] is AUTO
    draw = pattern(r"^(?:you may )?draw (\d) cards?$")
    with accounting("you may draw 2 cards") as ledger:
        assert draw.match("you may draw 2 cards").group(1) == "2"
    assert ledger.settle(AUTO)[0] is MANUAL
    with accounting("Draw 2 cards") as ledger:  # case is folded
        pattern(r"^draw (\d) cards$", 2).match("Draw 2 cards").group(1)
    assert ledger.settle(AUTO)[0] is AUTO


def test_a_tracked_match_shows_the_readers_groups_only():
    m = pattern(r"(a)(?:b)?(c)?x*").fullmatch("abxx")
    assert m.groups() == ("a", None) and m.group(1, 2) == ("a", None) and m.span(1) == (0, 1)


# --- every card of every game ---------------------------------------------------------------------


def _checked(compile):
    def check(card):
        prog = compile(card)
        assert len(prog.accounts) == len(prog.abilities), card.key
        for (text, status), account in zip(prog.abilities, prog.accounts):
            if status is not MANUAL:
                assert not account.left, (card.key, text, account.left)
            assert not account.demoted or status is MANUAL, (card.key, text)
        return prog
    return check


@pytest.mark.parametrize("slug", game_slugs())
def test_every_card_of_every_game_is_accounted_for(slug, monkeypatch):
    """Nothing counted as played left a significant word unread, and coverage counts only that."""
    coverage = core_effects.coverage
    seen = []

    def checking(game, catalogue, compile, **kw):
        seen.append(game)
        return coverage(game, catalogue, _checked(compile), **kw)

    monkeypatch.setattr(core_effects, "coverage", checking)
    report = find_engine(get_game(slug)).coverage(load_catalogue(slug))
    assert seen and report["unproven"] == 0
    assert report["cards"] == report["full"] + report["partial"] + report["none"]
    assert report["demoted"]["abilities"] == sum(report["demoted"]["by_word"].values())


def test_the_toy_games_cards_are_accounted_for(toy_game):
    report = find_engine(toy_game).coverage(load_catalogue(toy_game.slug))
    assert report["unproven"] == 0 and report["full"] >= 1


# --- a demoted ability is not played ----------------------------------------------------------------


def _kaijudo(name):
    from deckhub.games.kaijudo.effects import compiler

    catalogue = load_catalogue("kaijudo")
    card = next(c for c in catalogue.cards.values() if c.display_name == name)
    return catalogue.compiled(compiler(catalogue), card)


def test_kaijudo_a_pronoun_no_reader_binds_leaves_the_ability_to_manual_moves_and_undone():
    from deckhub.games.kaijudo.effects import compile_card

    card = Card("x", "kaijudo", "X", type="Creature",
                text="Whenever this creature attacks, it gets +2000 power until the end of the turn.")
    prog = compile_card(card)
    assert prog.abilities[0][1] is MANUAL and prog.accounts[0].demoted and ("pronoun", "it") in prog.accounts[0].left
    assert prog.triggers == {}  # the engine has nothing of it to play: the sandbox's manual moves do


def test_kaijudo_ice_blade_is_played_with_its_level_limit_and_every_word_read():
    prog = _kaijudo("Ice Blade")
    assert prog.abilities[-1][1] is AUTO and prog.accounts[-1].left == ()
    assert prog.spell == (("bounce", False, "hand", (("max_level", 4),)),)
    assert any("return target creature" in name for name, _ in prog.accounts[-1].reads)


def test_kaijudo_steamtank_kryons_it_is_read_as_the_creature_that_entered():
    """The pronoun is bound by rewriting it: reading the rewritten words reads the pronoun."""
    prog = _kaijudo("Steamtank Kryon")
    text, account = prog.abilities[-1][0], prog.accounts[-1]
    assert prog.abilities[-1][1] is AUTO and not account.left
    assert prog.other_etb == (((), (("boost", "trigger", (("power", 2000), ("fast", 1))),)),)
    it = account.text.index(" it gets") + 1
    assert any(a <= it and it + 2 <= b for _, spans in account.reads for a, b in spans)


def test_a_rewritten_text_is_read_where_its_replacement_is():
    table = Rules("t")
    table.row("boost", full(r"the triggering creature gets \+(\d+) power"))(lambda m: ("boost", m.group(1)))
    text = "whenever another creature enters, it gets +2000 power"
    with accounting(text) as ledger:
        body = core_effects.rewrite(r"\bit\b", "the triggering creature", text[len("whenever another creature enters, "):])
        assert table.apply(body) == ("boost", "2000")
    assert ledger.settle(AUTO)[0] is AUTO
    with accounting(text) as ledger:  # a text found nowhere, not even as a rewrite, proves nothing
        table.apply("the triggering creature gets +2000 power")
    assert "rewritten" in {kind for kind, _ in ledger.settle(AUTO)[1].left}


def test_neopets_tcg_each_clause_is_settled_on_its_own_words():
    """A clause of yours beside an opponent clause is played; one whose condition no pattern read
    is manual on its own, and what it compiled to is not played."""
    from deckhub.games.neopets_tcg.effects import compile_card

    card = Card("x", "neopets-tcg", "X", type="Something Has Happened!", text="Draw 2 cards and your opponent discards a card.")
    prog = compile_card(card)
    assert prog.abilities == [("Draw 2 cards", AUTO), ("your opponent discards a card", NO_EFFECT)]
    assert prog.on_play == (("draw", 2),) and [a.left for a in prog.accounts] == [(), ()]
    unread = compile_card(Card("y", "neopets-tcg", "Y", type="Something Has Happened!",
                               text="Your opponent discards a card and draw 2 cards unless your Neopet is tapped."))
    assert [s for _, s in unread.abilities] == [NO_EFFECT, MANUAL] and unread.on_play == ()
