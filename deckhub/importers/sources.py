"""The project's own converter from the raw card facts in `../shared/data/` to the catalogues in `data/`.

    python -m deckhub.importers.sources ../shared/data data      (or: deckhub build-data)

`build_data(shared_data_dir, data_dir)` writes every game's catalogue and returns the warnings per
game (oddities of real data that are kept, never silently "fixed"). The site never reads
`../shared` at run time: the output is committed, and a test checks that running this again
reproduces the committed files byte for byte. The rulebooks are read from `<shared>/../rules/`.

What each game gets is written in its own package's `converter.py` (`build(shared, out)`),
found through the games registry: a fifth game brings its converter with it.
"""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any, Iterable



class SourceDataError(ValueError):
    """A raw source file that cannot be converted (names the file and the record)."""


# --------------------------------------------------------------------------------------------
# helpers


def load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceDataError(f"{path}: cannot be read: {exc}") from None


def dedupe(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item not in seen:
            seen[item] = None
    return list(seen)


def copy_files(files: Iterable[Path], folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for src in sorted(files):
        dst = folder / src.name
        shutil.copyfile(src, dst)
        written.append(dst)
    return written


# --------------------------------------------------------------------------------------------


def build_data(shared_data_dir: Path, data_dir: Path) -> dict[str, list[str]]:
    """Write every game's catalogue from the raw facts with its package's converter; return the
    warnings per game (games without a converter have nothing to build)."""
    from deckhub.games import all_games, find_converter

    shared, out = Path(shared_data_dir), Path(data_dir)
    return {spec.slug: converter.build(shared, out)
            for spec in all_games() if (converter := find_converter(spec)) is not None}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 2 or any(a in ("-h", "--help") for a in args):
        print("usage: python -m deckhub.importers.sources [SHARED_DATA_DIR [DATA_DIR]]", file=sys.stderr)
        return 2
    from deckhub.importers.catalogue import data_root
    shared = Path(args[0]) if args else Path("../shared/data")
    out = Path(args[1]) if len(args) > 1 else data_root()
    try:
        result = build_data(shared, out)
    except SourceDataError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for game, warnings in result.items():
        print(f"{game}: written to {out / game}" + (f" ({len(warnings)} warnings)" if warnings else ""))
        for w in warnings:
            print(f"  warning: {w}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
