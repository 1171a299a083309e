"""Importers turn outside formats into plain values plus located, human-readable errors."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RecordError:
    """A problem with one record of a file, printed as `file:record: field: problem`."""

    file: str
    record: str
    field: str
    problem: str

    def __str__(self) -> str:
        return f"{self.file}:{self.record}: {self.field}: {self.problem}"


class CatalogueFileError(Exception):
    """A catalogue file that cannot be loaded; nothing from it may be written."""

    def __init__(self, errors: list[RecordError]):
        self.errors = errors
        super().__init__("\n".join(str(e) for e in errors))
