"""Collection CSV: read, check against a catalogue, and write — pure values, no Flask, no database.

Columns (header names matched case-insensitively, in any order; blank lines are skipped):

    game,set,number,name,version,quantity,foil_quantity,want_quantity,trade_quantity

A row names one printing: `game` (slug or name), `set` (code or name), `number`, `name`,
`version` (Huntik), in any combination that points at exactly one printing — `name` alone is
enough when a card has one printing; `set` + `number` is enough on its own. The quantity cells
*set* the quantities of that printing; a blank cell or a missing column leaves that quantity as it
is, and several rows naming the same printing add up (a file may list one row per copy).

Writing: cells that a spreadsheet would run as a formula (starting with = + - @, tab or carriage
return) get a leading apostrophe; reading strips exactly that apostrophe back, so
`read(write(rows)) == rows` for every value.

The reading side is split in two so each step is testable on its own:
`parse_collection_csv(bytes)` gives rows and file-level errors (unreadable text, bad header);
`plan_import(parsed, indexes, default_game)` resolves each row against `GameIndex`es (built from a
`core.cards.Catalogue` plus the printings' database ids) and reports every row's problems.
"""
from __future__ import annotations

import csv
import dataclasses
import io
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from deckhub.core.cards import Card, Catalogue, normalize_name
from deckhub.core.decklist import split_printing
from deckhub.services.limits import MAX_QUANTITY

COLUMNS = ("game", "set", "number", "name", "version",
           "quantity", "foil_quantity", "want_quantity", "trade_quantity")
QTY_COLUMNS = ("quantity", "foil_quantity", "want_quantity", "trade_quantity")
QTY_LABELS = {"quantity": "quantity", "foil_quantity": "foil", "want_quantity": "want", "trade_quantity": "trade"}
MAX_ROWS = 200_000
MAX_NAME = 200  # longer than any card name: reported as unknown without fuzzy matching
MAX_PICKS = 12  # printings an ambiguous row offers to pick from
MAX_SUGGESTED = 200  # unknown names that get "did you mean" suggestions (fuzzy matching costs ~1 ms each)

# Other spellings of the column names that spreadsheets and other sites use.
_HEADER_ALIASES = {
    "game": "game", "tcg": "game",
    "set": "set", "set_code": "set", "set_name": "set", "edition": "set", "expansion": "set",
    "number": "number", "no": "number", "num": "number", "collector_number": "number", "card_number": "number",
    "#": "number",
    "name": "name", "card": "name", "card_name": "name",
    "version": "version", "subtitle": "version",
    "quantity": "quantity", "qty": "quantity", "count": "quantity", "owned": "quantity",
    "foil_quantity": "foil_quantity", "foil": "foil_quantity", "foils": "foil_quantity", "foil_qty": "foil_quantity",
    "want_quantity": "want_quantity", "want": "want_quantity", "wants": "want_quantity", "want_qty": "want_quantity",
    "trade_quantity": "trade_quantity", "trade": "trade_quantity", "trades": "trade_quantity",
    "for_trade": "trade_quantity", "trade_qty": "trade_quantity",
}

_DANGEROUS = re.compile(r"'*[=+\-@\t\r]")
_ESCAPED = re.compile(r"'+[=+\-@\t\r]")
_WHOLE = re.compile(r"\+?\d+")


# --------------------------------------------------------------------------- cells

def neutralize(cell: str) -> str:
    """A cell a spreadsheet would run as a formula gets a leading apostrophe (see `restore`)."""
    return "'" + cell if _DANGEROUS.match(cell) else cell


def restore(cell: str) -> str:
    """Undo `neutralize`: drop one apostrophe before = + - @ tab CR (and before a run of them)."""
    return cell[1:] if _ESCAPED.match(cell) else cell


def header_key(header: str) -> str:
    text = header.replace("\ufeff", "").strip().lower()
    return re.sub(r"[\s\-]+", "_", text)


# --------------------------------------------------------------------------- reading

class CsvFileError(ValueError):
    """A CSV file that cannot be read at all (encoding, CSV syntax, header): nothing in it is used."""


class CollectionFileError(CsvFileError):
    """The file cannot be read as a collection CSV at all (encoding, CSV syntax, header)."""


@dataclass(slots=True)
class CsvRow:
    line: int  # the line of the file the row starts on (the header is line 1)
    game: str = ""
    set: str = ""
    number: str = ""
    name: str = ""
    version: str = ""
    quantities: dict[str, int] = field(default_factory=dict)  # only the cells that were filled in
    errors: list[str] = field(default_factory=list)

    def describe(self) -> str:
        parts = [p for p in (self.name and (f"{self.name}, {self.version}" if self.version else self.name),
                             self.set and (f"{self.set} {self.number}".strip() if self.number else self.set),
                             (not self.set and self.number) and f"#{self.number}") if p]
        return " · ".join(parts) or "(no card named)"


@dataclass
class ParsedCsv:
    columns: list[str]  # the recognised columns, in file order
    rows: list[CsvRow]
    warnings: list[str] = field(default_factory=list)


def decode(data: bytes, error: type[CsvFileError] = CollectionFileError) -> str:
    """UTF-8 (with or without a byte-order mark), or UTF-16 with its mark; anything else is refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise error("The file says it is UTF-16 but is not valid UTF-16 text. "
                        "Save it as \"CSV UTF-8\" and upload it again.") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(
            f"The file is not UTF-8 text: byte 0x{data[exc.start]:02X} on line {line} cannot be read. "
            "Save it as \"CSV UTF-8\" (in Excel: File › Save As › CSV UTF-8) and try again.") from None


def _delimiter(first_line: str, column: Callable[[str], str | None]) -> str:
    """Comma, or semicolon / tab when that is what the header line uses (European spreadsheets)."""
    best, best_hits = ",", -1
    for delimiter in (",", ";", "\t"):
        hits = sum(1 for h in first_line.split(delimiter) if column(header_key(h.strip('"'))) is not None)
        if hits > best_hits:
            best, best_hits = delimiter, hits
    return best


def text_cell(cell: str) -> str:
    """A text cell as meant: trimmed, with the apostrophe `neutralize` added taken off again."""
    value = cell.strip()
    if value and value[0] == "'":
        value = restore(value).strip()
    return value


@dataclass
class CsvTable:
    """A CSV file's header, read: `index` maps each recognised column to its position, `ignored`
    holds the header cells no column matched; `records()` gives (line, cells) for every later row."""

    header: list[str]
    index: dict[str, int]
    ignored: list[str]
    _reader: Any
    _error: type[CsvFileError]

    def records(self) -> Iterator[tuple[int, list[str]]]:
        reader = self._reader
        start = reader.line_num + 1
        try:
            for cells in reader:
                line, start = start, reader.line_num + 1
                yield line, cells
        except csv.Error as exc:
            raise self._error(f"Line {reader.line_num}: the file is not valid CSV ({exc}).") from None


def read_table(data: bytes | str, column: Callable[[str], str | None],
               error: type[CsvFileError] = CollectionFileError) -> CsvTable:
    """Open a CSV file whose first line names its columns: `column(header_key(cell))` gives the column a
    header cell stands for (None: not one). Raises `error` for a file that is not text, is empty,
    breaks CSV quoting, or names a column twice."""
    text = decode(data, error) if isinstance(data, (bytes, bytearray)) else data.lstrip("\ufeff")
    if not text.strip():
        raise error("The file is empty.")
    first_line = text.split("\n", 1)[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(first_line, column), strict=True)
    try:
        header = next(reader)
    except csv.Error as exc:
        raise error(f"Line {reader.line_num}: the file is not valid CSV ({exc}).") from None
    index: dict[str, int] = {}
    ignored: list[str] = []
    for i, raw in enumerate(header):
        key = column(header_key(raw))
        if key is None:
            if raw.strip():
                ignored.append(raw.strip())
            continue
        if key in index:
            raise error(f"Line 1: the column {key!r} appears twice "
                        f"({header[index[key]].strip()!r} and {raw.strip()!r}).")
        index[key] = i
    return CsvTable(header, index, ignored, reader, error)


def _quantity(cell: str, column: str) -> tuple[int | None, str | None]:
    text = restore(cell.strip()).strip()
    if not text:
        return None, None
    if not _WHOLE.fullmatch(text):
        return None, f"{column}: {text[:40]!r} is not a whole number (0 or more)"
    value = int(text)
    if value > MAX_QUANTITY:
        return None, f"{column}: {value} is too large (at most {MAX_QUANTITY:,})"
    return value, None


def parse_collection_csv(data: bytes | str) -> ParsedCsv:
    """Rows of a collection CSV, each with its own cell errors; raises CollectionFileError when
    the file as a whole cannot be read (not text, broken CSV quoting, no usable header)."""
    table = read_table(data, _HEADER_ALIASES.get)
    header, index = table.header, table.index
    if "name" not in index and "number" not in index:
        found = ", ".join(repr(h.strip()) for h in header[:12]) or "nothing"
        raise CollectionFileError(
            "Line 1 must name the columns: at least `name` (or `set` and `number`) and a quantity column, "
            f"from {', '.join(COLUMNS)}. Found: {found}.")
    if not any(c in index for c in QTY_COLUMNS):
        raise CollectionFileError(f"Line 1 has no quantity column: add one of {', '.join(QTY_COLUMNS)}.")
    warnings = [f"Column {name!r} is not used and was ignored." for name in table.ignored]
    width = len(header)
    text_columns = [(c, index[c]) for c in ("game", "set", "number", "name", "version") if c in index]
    qty_columns = [(c, index[c]) for c in QTY_COLUMNS if c in index]
    rows: list[CsvRow] = []
    for line, cells in table.records():
        n = len(cells)
        values: dict[str, str] = {}
        for column, i in text_columns:
            if i < n:
                value = cells[i].strip()  # text_cell, inlined: this loop runs for every cell of 50,000 rows
                values[column] = restore(value).strip() if value and value[0] == "'" else value
        quantities: dict[str, int] = {}
        errors: list[str] = []
        for column, i in qty_columns:
            if i < n:
                cell = cells[i]
                if cell.isdecimal() and len(cell) < 7:  # the common case, fast
                    quantities[column] = int(cell)
                    continue
                value, error = _quantity(cell, column)
                if error:
                    errors.append(error)
                elif value is not None:
                    quantities[column] = value
        if n > width and any(c.strip() for c in cells[width:]):
            errors.append(f"the row has {n} cells but the header names {width} columns")
        if not quantities and not errors and not any(values.values()):
            continue  # a blank line (or only columns that are not used)
        if len(rows) >= MAX_ROWS:
            raise CollectionFileError(f"The file has more than {MAX_ROWS:,} rows; split it into smaller files.")
        rows.append(CsvRow(line, quantities=quantities, errors=errors, **values))
    return ParsedCsv([c for c in COLUMNS if c in index], rows, warnings)


# --------------------------------------------------------------------------- resolving rows

@dataclass(frozen=True, slots=True)
class PrintingRef:
    """One printing with its database id: what a collection row points at."""

    id: int
    game: str
    card_key: str
    set_code: str
    number: str | None
    position: int = 0


def norm_number(number: str | None) -> str:
    """"#007", "7/140" and "7" are the same collector number."""
    if number and number.isdecimal() and number[0] != "0":
        return number
    text = (number or "").strip().lower().lstrip("#").strip()
    text = text.split("/", 1)[0].strip()
    return re.sub(r"^0+(?=\d)", "", text)


@dataclass(frozen=True, slots=True)
class Problem:
    kind: str  # unknown-game, wrong-game, unknown-set, unknown-card, bad-number, ambiguous, missing, bad-cell
    message: str
    suggestions: tuple[str, ...] = ()
    printings: tuple[tuple[int, str], ...] = ()  # ambiguous: (printing id, description) of each it could be

    def __str__(self) -> str:
        if self.suggestions:
            return f"{self.message} (did you mean {', '.join(self.suggestions)}?)"
        return self.message


class GameIndex:
    """A game's catalogue plus its printings' ids, indexed the ways a CSV row can name a printing."""

    def __init__(self, game: str, game_name: str, catalogue: Catalogue, printings: Iterable[PrintingRef]):
        self.game = game
        self.game_name = game_name
        self.catalogue = catalogue
        self.printings: dict[int, PrintingRef] = {}
        self.by_card: dict[str, list[PrintingRef]] = {}
        self.by_set_number: dict[tuple[str, str], list[PrintingRef]] = {}
        for p in printings:
            self.printings[p.id] = p
            self.by_card.setdefault(p.card_key, []).append(p)
            self.by_set_number.setdefault((p.set_code, norm_number(p.number)), []).append(p)
        for refs in self.by_card.values():
            refs.sort(key=lambda r: r.position)
        # Names exactly as the catalogue spells them (what an export writes): found without
        # normalising, with the same answer `Catalogue.lookup` gives (an exact spelling wins).
        self.exact: dict[str, list[Card]] = {}
        for card in catalogue:
            for spelling in {card.name.casefold(), card.display_name.casefold()}:
                self.exact.setdefault(spelling, []).append(card)
        self.sets: dict[str, str] = {}
        for s in catalogue.sets.values():
            self.sets.setdefault(normalize_name(s.name), s.code)
        for s in catalogue.sets.values():
            self.sets[normalize_name(s.code)] = s.code  # a code wins over another set's name
            self.sets[s.code.lower()] = s.code

    def set_label(self, code: str) -> str:
        s = self.catalogue.sets.get(code)
        return s.name if s else code

    def describe(self, ref: PrintingRef) -> str:
        card = self.catalogue.cards[ref.card_key]
        number = f" #{ref.number}" if ref.number else ""
        return f"{card.display_name} ({self.set_label(ref.set_code)}{number})"

    def find_set(self, text: str) -> str | None:
        found = self.sets.get(text) or self.sets.get(text.strip().lower()) or self.sets.get(normalize_name(text))
        return found

    def named_exactly(self, card_key: str, name: str, version: str) -> bool:
        """The card is spelt exactly `name` (or "name, version"), ignoring case."""
        card = self.catalogue.cards[card_key]
        folded = name.casefold()
        if version:
            return folded == card.name.casefold() and version.casefold() == (card.version or "").casefold()
        return folded == card.name.casefold() or folded == card.display_name.casefold()

    def set_suggestions(self, text: str) -> tuple[str, ...]:
        from rapidfuzz import fuzz, process
        names = {s.name: s for s in self.catalogue.sets.values()}
        found = process.extract(text, list(names), scorer=fuzz.WRatio, limit=3, score_cutoff=60)
        return tuple(name for name, _, _ in found)

    def cards_named(self, name: str, version: str) -> list[Card]:
        if version:
            full = f"{name}, {version}"
            found = self.exact.get(full.casefold()) or self.catalogue.lookup(full)
            wanted = normalize_name(version)
            return [c for c in found if c.version and normalize_name(c.version) == wanted]
        return list(self.exact.get(name.casefold(), ())) or self.catalogue.lookup(name)


def game_lookup(indexes: Mapping[str, GameIndex]) -> dict[str, str]:
    """Slug and name (normalised) of every game to its slug."""
    found: dict[str, str] = {}
    for slug, index in indexes.items():
        found[slug.lower()] = slug
        found[normalize_name(slug)] = slug
        found[normalize_name(index.game_name)] = slug
    return found


def resolve(row: CsvRow, index: GameIndex, others: Sequence[GameIndex] = (),
            suggest: bool = True) -> tuple[PrintingRef | None, list[Problem]]:
    """The one printing a row names in this game, or the reasons it names none
    (with "did you mean" suggestions for unknown names unless `suggest` is false)."""
    if row.name and not row.set and not row.number and not index.cards_named(row.name, row.version):
        printing = split_printing(row.name)  # a name cell written as a deck list writes it: `Name (SET) NUMBER`
        if printing is not None:
            row = dataclasses.replace(row, name=printing[0], set=printing[1], number=printing[2])
    if row.set and row.number and row.name:  # fast path: set, number and exact name (what an export writes)
        code = index.find_set(row.set)
        refs = index.by_set_number.get((code, norm_number(row.number))) if code else None
        if refs:
            hits = [r for r in refs if index.named_exactly(r.card_key, row.name, row.version)]
            if len(hits) == 1:
                return hits[0], []
    set_code = None
    if row.set:
        set_code = index.find_set(row.set)
        if set_code is None:
            return None, [Problem("unknown-set", f"{index.game_name} has no set {row.set!r}",
                                  index.set_suggestions(row.set) if suggest else ())]
    number = norm_number(row.number) if row.number else ""
    if number and set_code is None:
        if not row.name:
            return None, [Problem("missing", "a number alone does not name a card: give the set too")]
    candidates: list[PrintingRef]
    if row.name:
        cards = index.cards_named(row.name, row.version)
        if not cards:
            return None, [unknown_card(row, index, others, suggest)]
        candidates = [p for c in cards for p in index.by_card.get(c.key, ())]
        if set_code is not None:
            in_set = [p for p in candidates if p.set_code == set_code]
            if not in_set:
                where = ", ".join(sorted({index.describe(p) for p in candidates})[:4])
                label = cards[0].display_name
                return None, [Problem("bad-number" if number else "unknown-card",
                                      f"{label} is not in {index.set_label(set_code)}"
                                      + (f"; it is printed as {where}" if where else ""))]
            candidates = in_set
        if number:
            numbered = [p for p in candidates if norm_number(p.number) == number]
            if not numbered:
                has = ", ".join(sorted({p.number or "no number" for p in candidates}, key=_num_key)[:6])
                there = index.by_set_number.get((set_code, number), []) if set_code else []
                holder = (f"; #{row.number} of {index.set_label(set_code)} is "
                          + " / ".join(sorted({index.catalogue.cards[p.card_key].display_name for p in there}))) if there else ""
                return None, [Problem("bad-number", f"{cards[0].display_name} has no number {row.number!r}"
                                      + (f" in {index.set_label(set_code)}" if set_code else "")
                                      + f" (its numbers: {has}){holder}")]
            candidates = numbered
    else:
        assert set_code is not None
        if not number:
            return None, [Problem("missing", "give the card's name, or its set and number")]
        candidates = list(index.by_set_number.get((set_code, number), ()))
        if not candidates:
            return None, [Problem("bad-number", f"{index.set_label(set_code)} has no card number {row.number!r}")]
    if len(candidates) > 1:
        keys = {p.card_key for p in candidates}
        if len(keys) > 1 and not row.name:
            hint = "give the name"
        elif len(keys) > 1 and not row.version and len({index.catalogue.cards[k].name for k in keys}) == 1:
            hint = "give its version"
        elif set_code is None:
            hint = "give the set and number"
        elif not number:
            hint = "give the number"
        else:
            hint = "they share set, number and name in the catalogue"
        listed = ", ".join(index.describe(p) for p in candidates[:5]) + (" …" if len(candidates) > 5 else "")
        return None, [Problem("ambiguous", f"{row.describe()} could be {len(candidates)} printings — {hint}: {listed}",
                              printings=tuple((p.id, index.describe(p)) for p in candidates[:MAX_PICKS]))]
    return candidates[0], []


def _num_key(number: str) -> tuple[int, str]:
    match = re.match(r"\d+", number)
    return (int(match.group()) if match else 1 << 30, number)


def unknown_card(row: CsvRow, index: GameIndex, others: Sequence[GameIndex], suggest: bool = True) -> Problem:
    """Why a row's name is no card of this game: another game's card, or a misspelling (with suggestions)."""
    for other in others:
        if other.game != index.game and other.cards_named(row.name, row.version):
            return Problem("wrong-game", f"{row.name!r} is a {other.game_name} card, not a {index.game_name} card")
    label = f"{row.name}, {row.version}" if row.version else row.name
    if not suggest or len(label) > MAX_NAME:
        return Problem("unknown-card", f"{index.game_name} has no card {label[:MAX_NAME]!r}")
    suggestions = tuple(dict.fromkeys(c.display_name for c, _ in index.catalogue.suggest(label)))
    return Problem("unknown-card", f"{index.game_name} has no card {label!r}", suggestions)


# --------------------------------------------------------------------------- the import plan

@dataclass(slots=True)
class PlannedRow:
    row: CsvRow
    game: str | None = None
    printing: PrintingRef | None = None
    problems: list[Problem] = field(default_factory=list)
    first_line: int | None = None  # another row names the same printing: their quantities add up

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass
class ImportPlan:
    rows: list[PlannedRow]
    targets: dict[int, dict[str, int]]  # printing id -> the quantities the file sets
    warnings: list[str] = field(default_factory=list)

    @property
    def problem_rows(self) -> list[PlannedRow]:
        return [r for r in self.rows if r.problems]

    @property
    def ok(self) -> bool:
        return not any(r.problems for r in self.rows)


def fix_options(problem: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The fixes a player may pick for a problem (as the dry run stores it), each with its label: the
    suggested card name, the suggested set, or one of the printings an ambiguous row could be."""
    if problem.get("printings"):
        return [(label, {"printing": int(pid)}) for pid, label in problem["printings"]]
    if problem.get("kind") == "unknown-card":
        return [(s, {"name": s, "version": ""}) for s in problem.get("suggestions") or ()]
    if problem.get("kind") == "unknown-set":
        return [(s, {"set": s}) for s in problem.get("suggestions") or ()]
    return []


def apply_fixes(parsed: ParsedCsv, fixes: Mapping[int, Mapping[str, Any]]) -> dict[int, int]:
    """Put the player's picks into the rows they fix (a name or set replaced, by line); returns the
    rows pinned to one printing ({line: printing id}) for `plan_import`."""
    pinned: dict[int, int] = {}
    for row in parsed.rows:
        fix = fixes.get(row.line)
        if not fix:
            continue
        for column in ("name", "version", "set"):
            if column in fix:
                setattr(row, column, str(fix[column]))
        if "printing" in fix:
            pinned[row.line] = int(fix["printing"])
    return pinned


def _pinned(printing_id: int, indexes: Mapping[str, GameIndex]):
    for index in indexes.values():
        ref = index.printings.get(printing_id)
        if ref is not None:
            return index.game, ref, []
    return None, None, [Problem("missing", "the printing picked for this row is no longer in the catalogue")]


def plan_import(parsed: ParsedCsv, indexes: Mapping[str, GameIndex], default_game: str | None = None,
                pinned: Mapping[int, int] | None = None) -> ImportPlan:
    """Resolve every row; quantities of rows naming the same printing add up.

    `default_game` is the game for rows without a `game` cell; when it is given, a row naming
    another game is a problem ("wrong game"), so a Kaijudo import never writes Huntik cards.
    `pinned` ({line: printing id}, see `apply_fixes`) names the printing of rows a player resolved.
    """
    pinned = pinned or {}
    games = game_lookup(indexes)
    all_indexes = list(indexes.values())
    cache: dict[tuple, tuple[str | None, PrintingRef | None, list[Problem]]] = {}
    targets: dict[int, dict[str, int]] = {}
    first_line: dict[int, int] = {}
    planned: list[PlannedRow] = []
    suggested = 0
    for row in parsed.rows:
        key = (row.game, row.set, row.number, row.name, row.version)
        hit = _pinned(pinned[row.line], indexes) if row.line in pinned else cache.get(key)
        if hit is None:
            hit = cache[key] = _resolve_row(row, indexes, games, all_indexes, default_game,
                                            suggested < MAX_SUGGESTED)
            if any(p.kind in ("unknown-card", "unknown-set") for p in hit[2]):
                suggested += 1
        game, printing, problems = hit
        if row.errors:
            problems = [Problem("bad-cell", e) for e in row.errors] + problems
        entry = PlannedRow(row, game, printing, list(problems))
        planned.append(entry)
        if problems or printing is None:
            continue
        quantities = row.quantities
        if not quantities:
            entry.problems.append(Problem("missing", "no quantity given"))
            continue
        pid = printing.id
        target = targets.get(pid)
        if target is None:  # each cell is at most MAX_QUANTITY already
            targets[pid] = dict(quantities)
            first_line[pid] = row.line
            continue
        entry.first_line = first_line[pid]
        for column, value in quantities.items():
            total = target.get(column, 0) + value
            if total > MAX_QUANTITY:
                entry.problems.append(Problem("bad-cell", f"{column}: the rows for this printing add up to more than {MAX_QUANTITY:,}"))
                total = MAX_QUANTITY
            target[column] = total
    return ImportPlan(planned, targets, list(parsed.warnings))


def _resolve_row(row: CsvRow, indexes: Mapping[str, GameIndex], games: Mapping[str, str],
                 all_indexes: Sequence[GameIndex], default_game: str | None, suggest: bool = True):
    if row.game:
        slug = games.get(row.game.lower()) or games.get(normalize_name(row.game))
        if slug is None:
            known = ", ".join(sorted(indexes))
            return None, None, [Problem("unknown-game", f"unknown game {row.game!r} (known: {known})")]
        if default_game and slug != default_game:
            return slug, None, [Problem("wrong-game", f"this row is a {indexes[slug].game_name} card, but this "
                                        f"import is for {indexes[default_game].game_name}")]
    elif default_game:
        slug = default_game
    else:
        return None, None, [Problem("missing", "no game: fill in the game column (or choose a game for the whole file)")]
    if not row.name and not row.set:
        return slug, None, [Problem("missing", "give the card's name, or its set and number")]
    printing, problems = resolve(row, indexes[slug], all_indexes, suggest)
    return slug, printing, problems


# --------------------------------------------------------------------------- writing

class ExportRow(NamedTuple):
    """One row of the export (and of the want & trade page): a tuple, so a page of them costs no
    constructor per row."""

    game: str
    set: str
    number: str
    name: str
    version: str
    quantity: int
    foil_quantity: int
    want_quantity: int
    trade_quantity: int


def iter_csv_lines(rows: Iterable[ExportRow], bom: bool = True) -> Iterator[str]:
    """The CSV text in pieces (a header, then one line per row), for streaming a download."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    yield ("\ufeff" if bom else "") + buffer.getvalue()
    for row in rows:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow((neutralize(row.game), neutralize(row.set), neutralize(row.number), neutralize(row.name),
                         neutralize(row.version), row.quantity, row.foil_quantity, row.want_quantity,
                         row.trade_quantity))
        yield buffer.getvalue()


def write_collection_csv(rows: Iterable[ExportRow], bom: bool = True) -> str:
    return "".join(iter_csv_lines(rows, bom))
