"""Neopets Battledome's converter from the raw card facts in `../shared/data/` to its catalogue in `data/`.

Found by `deckhub.importers.sources.build_data` (`deckhub build-data`) through the games registry; the one
module of a game package that reads files, at build time only (the site reads the committed output).

**neopets-battledome** (`cards.json`): the records of `facts.json`, then the project's own
`data/neopets-battledome/sources/public-rulings.json` (cards named by the Battledome rulings site
and by Upper Deck's and others' rules pages, gathered for this project, each with its URL), with
only what each source states (type, species, stats, attack_bonus, level_requirement(_at_most),
finish, product, aliases, and the source's note as `note`). Records of one name are one card:
its sources and notes are joined, and two sources that state different values for one field stop
the build. Sets are the products of `products.json` (starter decks named "<name> starter deck"),
sizes unknown. A card gets a printing in its product where one is stated (the starter decks'
foil namesakes, King Skarl of Champions of Meridell); every other card gets one printing in the
set "Unknown set", so players can collect it before its set is known. Records without a name
(`name_as_described`: two pre-release promo Shoyrus) are left out with a warning: cards are
matched by name everywhere (decklists, collections, copy limits), and any name given to them
would be invented. Players add them once the printed name is known.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from deckhub.core.cards import Card, CardSet, CatalogueData, Printing, slugify
from deckhub.importers.catalogue import write_catalogue_json
from deckhub.importers.sources import SourceDataError, load_json


BATTLEDOME_FIELDS = ("species", "hp", "attack", "defence", "agility", "attack_bonus",
                     "level_requirement", "level_requirement_at_most", "finish", "product")
_BATTLEDOME_KNOWN = {"name", "name_as_described", "type", "source", "note", "promo", "aliases", *BATTLEDOME_FIELDS}
# Facts DeckHub gathered itself from public rulings pages (kept in the project so the build is offline).
BATTLEDOME_RULINGS = Path("neopets-battledome") / "sources" / "public-rulings.json"
BATTLEDOME_UNKNOWN_SET = "Unknown set"


def _battledome_set_name(product: dict[str, Any]) -> str:
    name = product["name"].strip()
    kind = (product.get("kind") or "").lower()
    return f"{name} starter deck" if kind.startswith("starter deck") and "deck" not in name.lower() else name


def _battledome_join(card: dict[str, Any], rec: dict[str, Any], where: str) -> None:
    """Add one record's statements to a card met before; two sources that disagree stop the build."""
    for field in ("type", *BATTLEDOME_FIELDS):
        value = rec.get(field)
        if value is None:
            continue
        old = card["type"] if field == "type" else card["attrs"].get(field)
        if old is not None and old != value:
            raise SourceDataError(f"{where} ({card['name']}): {field}: {value!r} contradicts {old!r} from another source")
        if field == "type":
            card["type"] = value
        else:
            card["attrs"][field] = value
    if rec.get("note") and rec["note"] not in card["notes"]:
        card["notes"].append(rec["note"])
    if rec.get("source") and rec["source"] not in card["sources"]:
        card["sources"].append(rec["source"])
    for alias in rec.get("aliases") or ():
        if alias not in card["aliases"]:
            card["aliases"].append(alias)


def battledome_catalogue(facts: list[dict[str, Any]], products: dict[str, Any],
                         filename: str = "facts.json",
                         rulings: list[dict[str, Any]] | None = None,
                         rulings_filename: str = "public-rulings.json") -> CatalogueData:
    data = CatalogueData("neopets-battledome")
    seen = (products.get("products") or {}).get("sets_and_products_seen") or []
    for i, product in enumerate(seen, start=1):
        if not product.get("name"):
            raise SourceDataError(f"products.json:product {i}: name: missing")
        name = _battledome_set_name(product)
        data.sets.append(CardSet(slugify(name), name, None, i))
    set_codes = {s.code for s in data.sets}
    cards: dict[str, dict[str, Any]] = {}
    records = [(f"{filename}:record {i}", rec) for i, rec in enumerate(facts, start=1)]
    records += [(f"{rulings_filename}:card {i}", rec) for i, rec in enumerate(rulings or (), start=1)]
    for where, rec in records:
        if not isinstance(rec, dict):
            raise SourceDataError(f"{where}: not an object")
        unknown = set(rec) - _BATTLEDOME_KNOWN
        if unknown:
            raise SourceDataError(f"{where}: {sorted(unknown)[0]}: unknown field")
        name = (rec.get("name") or "").strip()
        if not name:
            described = rec.get("name_as_described")
            if not described:
                raise SourceDataError(f"{where}: name: missing")
            data.warnings.append(
                f"{where}: no card name, only a description ({described!r}, {rec.get('type') or 'type unknown'}"
                f"{', pre-release promo' if rec.get('promo') else ''}; {rec.get('source')}): left out, since a "
                f"name would be invented; add it once its printed name is known")
            continue
        if not rec.get("source"):
            raise SourceDataError(f"{where} ({name}): source: missing")
        key = slugify(name)
        if key in cards and cards[key]["name"] != name:
            raise SourceDataError(f"{where} ({name}): name: spelt {cards[key]['name']!r} by another source")
        card = cards.setdefault(key, {"name": name, "type": None, "attrs": {}, "notes": [], "sources": [],
                                      "aliases": [], "where": where})
        _battledome_join(card, rec, where)
    for key, c in cards.items():
        attrs = {f: c["attrs"][f] for f in BATTLEDOME_FIELDS if f in c["attrs"]}
        if c["notes"]:
            attrs["note"] = "; ".join(c["notes"])
        provenance = {f: "imported" for f in (("type",) if c["type"] else ()) + tuple(attrs)}
        printings: tuple[Printing, ...] = ()
        product = attrs.get("product")
        if product:
            if slugify(product) in set_codes:
                printings = (Printing(slugify(product), None, None),)
            else:
                data.warnings.append(f"{c['where']} ({c['name']}): product {product!r} is not in products.json: no printing")
        data.cards.append(Card(
            key=key, game="neopets-battledome", name=c["name"], type=c["type"], attrs=attrs,
            provenance=provenance, sources=tuple(c["sources"]), aliases=tuple(c["aliases"]), printings=printings,
        ))
    _battledome_unknown_set(data)
    return data


def _battledome_unknown_set(data: CatalogueData) -> None:
    """Cards no source places in a set get one printing in "Unknown set", so a collection can hold them."""
    setless = [i for i, c in enumerate(data.cards) if not c.printings]
    if not setless:
        return
    unknown = CardSet(slugify(BATTLEDOME_UNKNOWN_SET), BATTLEDOME_UNKNOWN_SET, None, len(data.sets) + 1)
    data.sets.append(unknown)
    for i in setless:
        c = data.cards[i]
        data.cards[i] = Card(c.key, c.game, c.name, c.version, c.type, c.text, c.attrs, c.provenance, c.sources,
                             c.aliases, (Printing(unknown.code, None, None),))


def build(shared: Path, out: Path, project_data: Path | None = None) -> list[str]:
    """The shared facts and the project's own gathered facts (`data/neopets-battledome/sources/`)."""
    from deckhub.importers.catalogue import data_root
    folder = shared / "neopets-battledome"
    facts = load_json(folder / "facts.json")
    products = load_json(folder / "products.json")
    if not isinstance(facts, list) or not isinstance(products, dict):
        raise SourceDataError(f"{folder}: facts.json must be a list and products.json an object")
    rulings_path = (project_data or data_root()) / BATTLEDOME_RULINGS
    rulings = load_json(rulings_path)
    if not isinstance(rulings, dict) or not isinstance(rulings.get("cards"), list):
        raise SourceDataError(f"{rulings_path}: must be an object with a list of cards")
    data = battledome_catalogue(facts, products, rulings=rulings["cards"], rulings_filename=rulings_path.name)
    write_catalogue_json(data, out / "neopets-battledome" / "cards.json")
    return data.warnings
