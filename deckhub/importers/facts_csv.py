"""Card facts as CSV: read and write — pure values, no Flask, no database.

Columns (header names matched case-insensitively, in any order; blank lines are skipped):

    game,set,number,name,version,<field>...,source

The first five name a card exactly as a collection CSV names a printing (`deckhub.importers.
collection_csv`: the same spellings of the column names, the same rules for set codes, names and
numbers). Every other column is one of the games' proposable fields, by its key (`bank_value`) or
its label (`Bank value`); `source` says where the row's values come from (a web address, or
"printed card I own"). A blank cell says nothing: it never erases a known value.

A column that is neither is refused with the file (a misspelt field would otherwise be dropped
without a word). Writing neutralises cells a spreadsheet would run as formulas, and reading takes
that apostrophe off again, exactly as the collection CSV does.
"""
from __future__ import annotations

import csv
import difflib
import io
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Mapping, Sequence

from deckhub.importers.collection_csv import (_HEADER_ALIASES, MAX_ROWS, CsvFileError, CsvRow, header_key,
                                              neutralize, read_table, text_cell)

IDENTITY = ("game", "set", "number", "name", "version")
SOURCE = "source"
_IDENTITY_ALIASES = {k: v for k, v in _HEADER_ALIASES.items() if v in IDENTITY}
_SOURCE_ALIASES = {"source": SOURCE, "sources": SOURCE, "source_url": SOURCE, "url": SOURCE}


class FactsFileError(CsvFileError):
    """The file cannot be read as a facts CSV at all (encoding, CSV syntax, header)."""


@dataclass(slots=True)
class FactsRow:
    """One row: which card (`card`, the identity cells), the non-blank field cells, the source cell."""

    line: int
    card: CsvRow
    values: dict[str, str] = field(default_factory=dict)
    source: str = ""
    errors: list[str] = field(default_factory=list)


@dataclass
class ParsedFacts:
    fields: list[str]  # the field columns, in file order
    rows: list[FactsRow]


def parse_facts_csv(data: bytes | str, fields: Mapping[str, str], max_rows: int | None = None) -> ParsedFacts:
    """The rows of a facts CSV. `fields` maps every spelling a field column may have (its key, its
    label) to the field's key. Raises FactsFileError when the file as a whole cannot be used, or
    has more than `max_rows` rows (MAX_ROWS when None)."""
    limit = MAX_ROWS if max_rows is None else min(max_rows, MAX_ROWS)
    spellings = {header_key(k): v for k, v in fields.items()}

    def column(key: str) -> str | None:
        return _IDENTITY_ALIASES.get(key) or _SOURCE_ALIASES.get(key) or spellings.get(key)

    table = read_table(data, column, FactsFileError)
    index = table.index
    if table.ignored:
        known = sorted({*IDENTITY, SOURCE, *fields.values()})
        shown = []
        for cell in table.ignored[:5]:
            close = difflib.get_close_matches(header_key(cell), known, n=1, cutoff=0.75)
            shown.append(f"{cell!r} (did you mean {close[0]!r}?)" if close else repr(cell))
        raise FactsFileError(f"Line 1: {', '.join(shown)} {'is not a column' if len(shown) == 1 else 'are not columns'} "
                             f"of a facts file. The columns are {', '.join(IDENTITY)}, the fields of the game "
                             f"by key or label (such as type, bank_value) and {SOURCE}; rename or remove the others.")
    if "name" not in index and "number" not in index:
        raise FactsFileError("Line 1 must name the columns: at least `name` (or `set` and `number`), "
                             f"a field and `{SOURCE}`.")
    value_columns = [(k, i) for k, i in index.items() if k not in IDENTITY and k != SOURCE]
    if not value_columns:
        raise FactsFileError("Line 1 names no field: add a column for each fact, such as `type`.")
    identity = [(k, index[k]) for k in IDENTITY if k in index]
    source_at = index.get(SOURCE)
    width = len(table.header)
    rows: list[FactsRow] = []
    for line, cells in table.records():
        n = len(cells)
        card = CsvRow(line, **{k: text_cell(cells[i]) for k, i in identity if i < n})
        values = {k: v for k, i in value_columns if i < n and (v := text_cell(cells[i]))}
        source = text_cell(cells[source_at]) if source_at is not None and source_at < n else ""
        errors = []
        if n > width and any(c.strip() for c in cells[width:]):
            errors.append(f"the row has {n} cells but the header names {width} columns")
        if not values and not source and not errors and not any((card.game, card.set, card.number, card.name)):
            continue  # a blank line
        if len(rows) >= limit:
            raise FactsFileError(f"The file has more than {limit:,} rows; split it into smaller files"
                                 + ("." if limit == MAX_ROWS else
                                    ", or propose it from the command line with `deckhub facts import`."))
        rows.append(FactsRow(line, card, values, source, errors))
    return ParsedFacts([k for k, _ in sorted(value_columns, key=lambda c: c[1])], rows)


def cell_text(value: object) -> str:
    """A known value as one cell: lists joined by commas (what a proposal's list field reads back)."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def iter_facts_lines(fields: Sequence[str], rows: Iterable[Sequence[object]], bom: bool = True) -> Iterator[str]:
    """The CSV text in pieces: the header (`IDENTITY`, the fields, `source`), then one line per row
    (each row holds a cell for every column), every text cell neutralised."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow((*IDENTITY, *fields, SOURCE))
    yield ("\ufeff" if bom else "") + buffer.getvalue()
    for row in rows:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([neutralize(cell_text(c)) for c in row])
        yield buffer.getvalue()


def write_facts_csv(fields: Sequence[str], rows: Iterable[Sequence[object]], bom: bool = True) -> str:
    return "".join(iter_facts_lines(fields, rows, bom))
