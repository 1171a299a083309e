"""Every page of the site, read as a player reads it, speaks a player's words.

A signed-in owner (the site's first account, so also its curator) with a deck of each of the four
games, a collection with wants and trades shown publicly, goldfish games part-played and finished, a
simulation, proposals and a batch waiting for review. Every GET route of `app.url_map` is rendered
(for each game where it takes one); a route whose arguments this test cannot fill fails it, so a new
page is covered as soon as it exists. The visible text (an HTML parser's text, scripts, styles and
attributes left out) must hold no card, set or format slug, no Python repr, no `None`, no raw tag, no
internal field key, no "1 sets", no empty interpolation ("Play , exhausting") and no symbol that
many fonts lack (⏭ drawn as a box).
"""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from deckhub.core.engine import engines
from deckhub.games import all_games, load_catalogue
from deckhub.importers.decklists import write_text
from deckhub.services import collection_imports, facts_uploads, trading
from deckhub.services.accounts import find_user
from deckhub.services.collection import adjust, printing_id
from deckhub.services.community.proposing import propose_batch, propose_facts
from deckhub.store.db import database

ENGINES = {e.game: e for e in engines()}
GAMES = sorted(ENGINES)
SOURCE = "https://example.org/checklist"
CSV = b"game,set,number,name,quantity\nkaijudo,evo-fury,2,Cloudwalker Drone,2\n"
FACTS_CSV = b"game,set,number,name,bank_value,source\nneopets-tcg,,,The Thieves Code,4,https://example.org/facts\n"
NOT_HTML_ARGUMENTS = {"scan_id", "run_id"}  # a scan's image, a run's JSON and charts
NOT_PAGES = {"static", "catalog.stylesheet", "catalog.favicon", "operations.metrics"}

BLOCK = {"p", "div", "li", "ul", "ol", "td", "th", "tr", "table", "br", "h1", "h2", "h3", "h4", "h5", "h6",
         "section", "article", "header", "footer", "nav", "main", "aside", "form", "fieldset", "legend",
         "label", "option", "select", "button", "summary", "details", "dt", "dd", "dl", "pre", "figure",
         "figcaption", "caption", "hr", "input", "textarea", "svg", "title", "blockquote"}


# what a browser does not show; <code>: text a player types back (a CSV column's value, a command);
# <textarea>: a form's value, which the player edits as it is stored (as an <input>'s value attribute)
SKIPPED = ("script", "style", "template", "code", "textarea")


class _Text(HTMLParser):
    """The text of a page as a browser shows it: inline tags join words, block tags break lines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag == "code" and not self._skip:
            self.parts.append("«code»")
        if tag in SKIPPED:
            self._skip += 1
        if tag in BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in SKIPPED:
            self._skip = max(0, self._skip - 1)
        if tag in BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    parser.close()
    lines = (re.sub(r"[ \t\r\f\v]+", " ", line).strip() for line in "".join(parser.parts).split("\n"))
    return "\n".join(line for line in lines if line)


def _slugs() -> tuple[set[str], set[str]]:
    """Every card key, set code, format id and game slug of the four games: the hyphenated ones are
    found anywhere in a text, a one-word one ("standard", "acara") only as a cell of its own (within
    prose it is a word), unless it is also a name as written."""
    slugs, names = set(), set()
    for spec in all_games():
        catalogue = load_catalogue(spec.slug)
        slugs |= {card.key for card in catalogue} | set(catalogue.sets) | {f.id for f in spec.formats} | {spec.slug}
        names |= {card.display_name for card in catalogue} | {card.name for card in catalogue}
        names |= {s.name for s in catalogue.sets.values()} | {f.name for f in spec.formats} | {spec.name}
    return {s for s in slugs if "-" in s} - names, slugs - names


SLUG = re.compile(r"(?<![\w/.-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w/-])")
INTERNAL_KEY = re.compile(r"\b_id\b|\b[a-z]+(?:_(?:[a-z0-9]+\b|\*))+")
PROBLEMS = [
    (re.compile(r"\{'|\['|\[<|<deckhub\.|\bobject at 0x|\b(?:True|False)\b(?=[,)\]}])"), "a Python repr"),
    (re.compile(r"\bNone\b"), "None"),
    (re.compile(r"</?(?:b|i|em|strong|br|p|span|div|u)\s*/?>", re.I), "a raw tag"),
    (re.compile(r"(?<![\d.,])\b1 (?:sets|cards|decks|games|copies|players|proposals|values|turns|rounds|"
                r"points|errors|warnings|cells|rows|versions|printings|changes|Neopets|gems|dice|items)\b"),
     "a plural after 1"),
    (re.compile(r"\w[ \t]+[,;](?![,;])|\(\s*\)|:\s*,"),
     "an empty interpolation"),
    (re.compile("[\u2300-\u23ff\U0001F300-\U0001FAFF]"), "a symbol many fonts lack (shown as a box)"),
]


def problems_in(page: str, slugs: tuple[set[str], set[str]]) -> list[str]:
    hyphenated, every = slugs
    text = visible_text(page)

    def shown(m) -> str:
        return text[max(0, m.start() - 50):m.end() + 30].replace("\n", " | ")

    found = [f"a slug: …{shown(m)}…" for m in SLUG.finditer(text) if m.group(0) in hyphenated]
    found += [f"a slug as a cell: …{shown(m)}…" for m in re.finditer(r"^.+$", text, re.M) if m.group(0) in every]
    for pattern, what in PROBLEMS:
        found += [f"{what}: …{shown(m)}…" for m in pattern.finditer(text)]
    # sources are cited by their address or repository (`owner/some_repo`): not keys
    cited = re.sub(r"https?://\S+|\S+/\S+", " ", text)
    found += [f"an internal key: …{m.group(0)}…" for m in INTERNAL_KEY.finditer(cited)]
    return found


def test_the_reader_finds_what_it_looks_for():
    slugs = ({"battle-for-meridell", "fire-shoyru"}, {"battle-for-meridell", "fire-shoyru", "standard"})
    page = ("<h1>Batch of battle-for-meridell</h1><p>{'a': 1}</p><p>Villain: None</p><p>&lt;b&gt;Hunt&lt;/b&gt;</p>"
            "<td>standard</td><p>set dummy_* values</p><p>see card_values</p><p>1 sets</p><p>Play , exhausting</p><a>end ⏭</a>"
            "<script>var x = {'a': None}</script><a title=\"fire-shoyru\" href=\"/games/x/cards/fire-shoyru\">Fire Shoyru</a>")
    kinds = {f.split(":")[0] for f in problems_in(page, slugs)}
    assert kinds == {"a slug", "a slug as a cell", "a Python repr", "None", "a raw tag", "an internal key", "a plural after 1",
                     "an empty interpolation", "a symbol many fonts lack (shown as a box)"}
    assert not problems_in("<p><b>Fire Shoyru</b>, <a href='/x'>Evo-Fury</a> (2 sets, 1 card)</p><p>a standard deck</p>"
                           "<p>Bank value unknown: A, B.</p>", slugs)


# --------------------------------------------------------------------------- the world


def _import(client, game: str) -> int:
    name, deck = ENGINES[game].decks()[0]
    response = client.post("/decks/import", data={"name": f"{name} copy", "game": game, "format": "",
                                                  "decklist": write_text(deck, load_catalogue(game)),
                                                  "keep_parsed": "y"})
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return int(response.location.rsplit("/", 1)[1])


def _card_values_form(game: str) -> dict:
    form = {}
    for key, fields in (ENGINES[game].sample_options.get("card_values") or {}).items():
        form.update({f"cv__{key}__{f}": str(v) for f, v in fields.items()})
    return form


def _goldfish(client, game: str, deck_id: int, steps: int) -> int:
    response = client.post(f"/goldfish/decks/{deck_id}", data={"seed": "5", **_card_values_form(game)})
    assert response.status_code == 302, response.get_data(as_text=True)[:1000]
    board = response.location
    for step in range(steps):
        page = client.get(board).get_data(as_text=True)
        offered = [json.loads(a.replace("&#34;", '"').replace("&quot;", '"').replace("&amp;", "&"))
                   for a in re.findall(r'name="action" value="([^"]*)"', page)]
        rules = [a for a in offered if not a["kind"].startswith("manual.") and a["kind"] != "concede"]
        if not rules:
            break
        client.post(f"{board}/act", data={"step": str(step), "action": json.dumps(rules[step % len(rules)])})
    return int(board.rstrip("/").rsplit("/", 1)[1])


@pytest.fixture
def site(app, client, auth):
    """The owner's world, and what fills each route argument, per game."""
    app.config["PROPOSAL_RATE_LIMIT"] = 1000
    auth.signup("alice")  # the first account: the curator too
    world = {game: {"slug": game} for game in GAMES}
    for game in GAMES:
        catalogue = load_catalogue(game)
        w = world[game]
        w["deck_id"] = _import(client, game)
        w["session_id"] = _goldfish(client, game, w["deck_id"], 14)
        client.post(f"/decks/{w['deck_id']}/stats/simulations",
                    data={"games": "20", "seed": "4", **_card_values_form(game)})
        cards = list(catalogue)
        w["key"] = cards[0].key
        w["code"] = next(iter(catalogue.sets))
        with database.connection_context():
            alice = find_user("alice")
            for card in cards[:3]:
                pid = printing_id(card, card.printings[0])
                adjust(alice.id, pid, "quantity", 2)
                adjust(alice.id, pid, "want_quantity", 1)
                adjust(alice.id, pid, "trade_quantity", 1)
            trading.set_lists_public(alice, True)
    with database.connection_context():
        alice = find_user("alice")
        neo = load_catalogue("neopets-tcg")
        unknown = [c for c in neo if c.get("bank_value") is None and c.type in ("Item", "Equipment")][:2]
        proposal = propose_facts(alice, "neopets-tcg", unknown[0].key, {"bank_value": "2"}, SOURCE)
        set_code = next(c for c in neo.sets if "-" in c)
        in_set = [c for c in neo if any(p.set_code == set_code for p in c.printings)]
        batch = propose_batch(alice, "neopets-tcg", [(in_set[0].key, "strength", "3")], SOURCE, set_code=set_code)
        uploads = {"collection.import_preview:token": collection_imports.create(alice.id, CSV, "mine.csv", None).token,
                   "facts.import_preview:token": facts_uploads.create(alice, FACTS_CSV, "facts.csv").token}
        uploads["collection.import_progress:token"] = uploads["collection.import_status:token"] = \
            uploads["collection.import_preview:token"]
    for game in GAMES:
        world[game].update(proposal_id=proposal.id, batch_id=batch.id, **uploads)
    return client, world


def _url(rule, values: dict) -> str | None:
    fills = {"fmt": "txt", "kind": "wants", "name": "alice", "number": 1}
    args = {}
    for arg in rule.arguments:
        value = values.get(f"{rule.endpoint}:{arg}", values.get(arg, fills.get(arg)))
        if value is None:
            return None
        args[arg] = value
    return rule.build(args, append_unknown=False)[1]


def test_every_page_speaks_a_players_words(app, site):
    client, world = site
    slugs = _slugs()
    problems: dict[str, list[str]] = {}
    unfilled: set[str] = set()
    urls: list[str] = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in NOT_PAGES:
            continue
        per_game = [_url(rule, world[game]) for game in (GAMES if rule.arguments else GAMES[:1])]
        if None in per_game and not rule.arguments & NOT_HTML_ARGUMENTS:
            unfilled.add(rule.rule)
        urls += [u for u in per_game if u]
    for game in GAMES:  # pages that need a query or more than an id
        w = world[game]
        urls += [f"/cards?game={game}&q=a", f"/goldfish/{w['session_id']}/replay?step=3",
                 f"/decks/public?game={game}"]
        catalogue = load_catalogue(game)
        cards = list(catalogue)
        marked = [c for c in cards if c.text and "<" in c.text][:5]
        urls += [f"/games/{game}/cards/{c.key}" for c in [*cards[::max(1, len(cards) // 12)], *marked]]
        urls += [f"/games/{game}/sets/{code}" for code in list(catalogue.sets)[:3]]
    assert not unfilled, f"routes this test cannot fill (add their arguments to the world): {sorted(unfilled)}"
    for url in dict.fromkeys(urls):
        response = client.get(url)
        assert response.status_code < 500, url
        if response.mimetype != "text/html":
            continue
        found = problems_in(response.get_data(as_text=True), slugs)
        if found:
            problems[url] = found[:8]
    assert not problems, "\n".join(f"{url}:\n  " + "\n  ".join(found) for url, found in problems.items())
