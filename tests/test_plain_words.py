"""No internal words on screen: the pages of every game, as a player sees them, hold no Python reprs
(`True`, `None`, `{'…'}`), no option or field keys (`card_values`, `same_species`), no game slugs
(`neopets-tcg`) and no source-audit notes (`NOT FOUND in the sources`).

The pages scanned: the start page, the board at several steps (the rules' own actions, a manual
move, the end of a game), the replay and the statistics of a sample deck of each game, and its
deck, editor, versions and catalogue pages.
"""
from __future__ import annotations

import html
import json
import re

import pytest

from deckhub.services import simulations
from deckhub.core.engine import engines
from deckhub.games import load_catalogue
from deckhub.importers.decklists import write_text

ENGINES = {e.game: e for e in engines()}
SLUGS = sorted(ENGINES)

INTERNAL = [
    (re.compile(r"\b(True|False|None)\b"), "a Python value"),
    (re.compile(r"[{\[]\s*'|'\s*[}\]]|\bobject at 0x"), "a Python repr"),
    (re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"), "an internal key"),
    (re.compile(r"\b(?:neopets-tcg|neopets-battledome)\b|(?<![\w/.-])(?:kaijudo|huntik)(?![\w/-])"), "a game slug"),
    (re.compile(r"NOT FOUND|not found in the sources"), "a source-audit note"),
]


def visible(page: str) -> str:
    """What a player reads: text outside tags and scripts, plus the labels and titles tags carry."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    labels = re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    text = html.unescape(" ".join([text, *labels]))
    text = re.sub(r"https?://\S+|\S+/\S+", " ", text)  # sources are cited by their address or repository
    return re.sub(r"\s+", " ", text)


def internal_words(page: str) -> list[str]:
    text = visible(page)
    found = []
    for pattern, what in INTERNAL:
        for m in pattern.finditer(text):
            found.append(f"{what}: …{text[max(0, m.start() - 50):m.end() + 30]}…")
    return found


def actions_on(page: str) -> list[dict]:
    return [json.loads(html.unescape(a)) for a in re.findall(r'name="action" value="([^"]*)"', page)]


@pytest.fixture
def player(auth, client):
    auth.signup("alice")
    return client


def _scan(client, url: str, problems: dict) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    page = response.get_data(as_text=True)
    found = internal_words(page)
    if found:
        problems[url] = found[:6]
    return page


def test_the_scanner_finds_what_it_looks_for():
    page = ("<p>first: True</p><p>painting: same_species</p><p title=\"{'a': 1}\">x</p><p>for neopets-tcg</p>"
            "<p>(NOT FOUND in the sources: a setting)</p><p>card_values</p>")
    kinds = {f.split(":")[0] for f in internal_words(page)}
    assert kinds == {"a Python value", "a Python repr", "an internal key", "a game slug", "a source-audit note"}
    assert not internal_words('<p>Kaijudo and Huntik, see <a href="/games/kaijudo">the game</a> '
                              '(https://example.org/some_page)</p>')


@pytest.mark.parametrize("game", SLUGS)
def test_no_internal_words_on_the_pages_of_a_game(player, game):
    engine = ENGINES[game]
    name, deck = engine.decks()[0]
    response = player.post("/decks/import", data={"name": "Test deck", "game": game, "format": "",
                                                  "decklist": write_text(deck, load_catalogue(game)), "keep_parsed": "y"})
    assert response.status_code == 302
    deck_id = int(response.location.rsplit("/", 1)[1])
    problems: dict[str, list[str]] = {}
    for url in (f"/decks/{deck_id}", f"/decks/{deck_id}/edit", f"/decks/{deck_id}/versions",
                f"/decks/{deck_id}/settings", f"/decks/{deck_id}/stats/", f"/goldfish/decks/{deck_id}",
                f"/games/{game}", f"/cards?game={game}&q=a", "/collection/", "/collection/wants",
                f"/collection/{game}/sets/{next(iter(load_catalogue(game).sets))}"):
        _scan(player, url, problems)
    for card in list(load_catalogue(game))[::40]:
        _scan(player, f"/games/{game}/cards/{card.key}", problems)

    # a game: the start page's own form with the engine's sample values for what the catalogue lacks
    form = {"seed": "5"}
    for key, fields in (engine.sample_options.get("card_values") or {}).items():
        form.update({f"cv__{key}__{f}": str(v) for f, v in fields.items()})
    response = player.post(f"/goldfish/decks/{deck_id}", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    board = response.location
    page = _scan(player, board, problems)
    for step in range(12):
        offered = actions_on(page)
        rules = [a for a in offered if not a["kind"].startswith("manual.") and a["kind"] != "concede"]
        manual = [a for a in offered if a["kind"].startswith("manual.")]
        chosen = (manual if step == 3 and manual else rules or manual)[-1 if step % 2 else 0]
        player.post(f"{board}/act", data={"step": str(step), "action": json.dumps(chosen)})
        page = _scan(player, board, problems)
    player.post(f"{board}/play-out", data={"step": "12"})
    _scan(player, board, problems)
    _scan(player, f"{board}/replay", problems)
    _scan(player, f"{board}/replay?step=3", problems)

    player.post(f"/decks/{deck_id}/stats/simulations", data={"games": "20", "seed": "4", **{
        k: v for k, v in form.items() if k.startswith("cv__")}})
    _scan(player, f"/decks/{deck_id}/stats/", problems)
    _scan(player, "/goldfish/", problems)
    assert not problems, "\n".join(f"{url}:\n  " + "\n  ".join(found) for url, found in problems.items())
