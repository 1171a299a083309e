"""Template helpers shared by every page."""
from __future__ import annotations

from flask import Flask

from deckhub.core.engine import value_words
from deckhub.games import all_games, get_game


def register(app: Flask) -> None:
    @app.context_processor
    def _globals():
        return {"games": all_games(), "get_game": get_game}

    app.add_template_filter(value_words, "words")

    @app.template_filter("unknown")
    def _unknown(value, label: str = "unknown"):
        """Unknown card facts are shown as unknown, never as a blank or a zero."""
        if value is None or value == [] or value == "":
            return label
        if isinstance(value, (list, tuple)):
            return ", ".join(str(v) for v in value)
        return value
