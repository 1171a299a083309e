"""Kaijudo's converter from the raw card facts in `../shared/data/` to its catalogue in `data/`.

Found by `deckhub.importers.sources.build_data` (`deckhub build-data`) through the games registry; the one
module of a game package that reads files, at build time only (the site reads the committed output).

**kaijudo**: the 14 OCTGN set files and 10 OCTGN decks, copied unchanged into `data/kaijudo/`
(the project reads OCTGN set XML as a feature, `deckhub load-cards --octgn`).
"""
from __future__ import annotations

from pathlib import Path

from deckhub.games.kaijudo.octgn import read_card
from deckhub.importers.catalogue import read_octgn_files
from deckhub.importers.sources import copy_files


def build(shared: Path, out: Path) -> list[str]:
    octgn = shared / "kaijudo" / "octgn"
    sets = copy_files((octgn / "sets").glob("*.xml"), out / "kaijudo" / "sets")
    copy_files((octgn / "decks").glob("*.o8d"), out / "kaijudo" / "decks")
    return read_octgn_files("kaijudo", sets, read_card).warnings
