"""Template helpers shared by every page."""
from __future__ import annotations

from flask import Flask

from deckhub.games import all_games, get_game


def register(app: Flask) -> None:
    @app.context_processor
    def _globals():
        return {"games": all_games(), "get_game": get_game}

    @app.template_filter("words")
    def _words(value):
        """A setting as a player reads it: "yes"/"no" rather than True/False, keys as words ("lose round")."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None or value == "":
            return "none"
        return str(value).replace("_", " ")

    @app.template_filter("unknown")
    def _unknown(value, label: str = "unknown"):
        """Unknown card facts are shown as unknown, never as a blank or a zero."""
        if value is None or value == [] or value == "":
            return label
        if isinstance(value, (list, tuple)):
            return ", ".join(str(v) for v in value)
        return value
