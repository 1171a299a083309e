"""The goldfish board's repeated parts (cards, zones, action buttons, the log), written in Python.

A board shows dozens of tiles, each with its numbers, flags and buttons, and a finished game's log
has hundreds of lines; as Jinja macros (imported with the page's context) they were most of the
board's time. These functions write the same HTML and are template globals that read the board's
context (its game, step and the actions per card), so the board templates call `tile(card, actions)`,
`zone(z, name)`, `act_button(...)` and `log_items(view)`.
"""
from __future__ import annotations

import html

from flask import Flask, request, url_for
from jinja2 import pass_context
from markupsafe import Markup, escape

from deckhub.services.catalogue_store import get_catalogue
from deckhub.services.scans import pick_image
from deckhub.core.tiles import Flag
from deckhub.web.catalog import card_text, picture_url, request_card_images


def _unknown(value) -> str:
    """A fact as a tile shows it: "unknown" for a missing one, a list joined by commas."""
    if value is None or value == [] or value == "":
        return "unknown"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return value


def _classes(base: str, more: str) -> str:
    return escape(f"{base} {more}" if more else base)


def _words(flag: Flag, card: dict) -> str:
    """A flag's declared words (an engine's own text: only <, > and & need escaping), or the view's value."""
    return html.escape(flag.text, quote=False) if flag.text is not None else escape(card[flag.key])


def _form_target(context) -> tuple[str, object]:
    return url_for("goldfish.act", session_id=context["game"].session.id), context["step"]


def write_act_button(context, label, action, cls: str = "", full=None) -> str:
    target, step = _form_target(context)
    named = f' aria-label="{escape(full)}" title="{escape(full)}"' if full and full != label else ""
    return (f'<form method="post" action="{escape(target)}" class="inline act">'
            f'<input type="hidden" name="csrf_token" value="{escape(context["csrf_token"]())}">'
            f'<input type="hidden" name="step" value="{escape(step)}">'
            f'<input type="hidden" name="action" value="{escape(action)}">'
            f'<button type="submit" class="small {escape(cls)}"{named}>{escape(label)}</button></form>')


def write_tile(context, card: dict, actions=(), small: bool = False, images: dict | None = None) -> str:
    """One card: name, type, the numbers and flags its engine's TILE declares (`deckhub.core.tiles`);
    its text on hover or focus; its legal actions.
    `images`: the game's approved scans (a zone reads them once for all its tiles)."""
    small_cls = " small" if small else ""
    if card.get("hidden"):
        return (f'<div class="tile back{small_cls}" aria-label="face-down card #{escape(card.get("id"))}">'
                f'<span>#{escape(card.get("id"))}</span></div>')
    declared = type(context["game"].state).TILE
    flags = [f for f in declared.flags if f.shown(card)]
    automated = card.get("automated")
    manual = bool(automated) and automated != "full"
    out = [f'<div class="tile{" tapped" if any(f.turned for f in flags) else ""}{small_cls}'
           f'{" manual" if manual else ""}" id="c{escape(card.get("id"))}" tabindex="0">']
    key = card.get("key")
    if images is None:
        images = request_card_images(context["game"].session.game)
    if key:  # its approved scan or loaded image, else its drawn face (the top of it: name, cost, type)
        pic = pick_image(images.get(key))
        title = f' title="Scan by {escape(pic.by)}"' if pic else ""
        out.append(f'<img class="tile-scan" src="{escape(picture_url(context["game"].session.game, key))}" alt=""'
                   f'{title} loading="lazy">')
    badges = "".join(f' <span class="{_classes("badge", f.css)}">{_words(f, card)}</span>' for f in flags if not f.line)
    out.append(f'<div class="tile-head"><strong>{escape(card.get("name", ""))}</strong>{badges}</div>')
    beside = "".join(f" · {escape(v)}" for key in declared.beside_type for v in card.get(key) or ())
    out.append(f'<div class="tile-type">{escape(_unknown(card.get("type")))}{beside}</div>')
    out.append(f'<div class="tile-numbers">{_numbers(declared, card)}</div>')
    out.extend(f'<div class="tile-{escape(key)}">{escape(" · ".join(card[key]))}</div>'
               for key in declared.lines if card.get(key))
    out.extend(f'<div class="{_classes("tile-flag", f.css)}">{_words(f, card)}</div>' for f in flags if f.line)
    if manual:
        how = "partly" if automated == "partial" else "not"
        out.append(f'<div class="tile-flag">text {how} automated — use manual moves</div>')
    if card.get("session_values"):
        mine = ", ".join(str(v) for v in card["session_values"]).replace("_", " ")
        out.append('<div class="tile-flag yours" title="values you entered; no curator has reviewed them">'
                   f'yours, not reviewed: {escape(mine)}</div>')
    out.extend(f'<div class="tile-flag unknown">{escape(warning)}</div>' for warning in card.get("missing") or ())
    if card.get("text"):
        out.append(f'<div class="tile-text" role="tooltip">{card_text(card["text"])}</div>')
    if actions:
        buttons = "".join(write_act_button(context, entry[0], entry[1], "", entry[2]) for entry in actions)
        out.append(f'<div class="tile-actions">{buttons}</div>')
    out.append("</div>")
    return "".join(out)


def _numbers(declared, card: dict) -> str:
    """The numbers a game's TILE declares, each after its label; an unknown one says so."""
    numbers = []
    for stat in declared.stats:
        if stat.key in card:
            title, label, value = escape(stat.key.replace("_", " ")), escape(stat.label), card[stat.key]
            if value is not None:
                numbers.append(f'<span title="{title}">{label} {escape(value)}</span>')
            else:
                numbers.append(f'<span class="unknown">{label} unknown</span>')
    return "".join(numbers)


def write_pile(context, z: dict, name: str) -> str:
    """A pile (bank, discard, mana): its count, opening to a list of its cards by name with their
    numbers, flags and actions; `<details>` opens it without JavaScript."""
    label, count = escape(z.get("label")), z.get("count") or 0
    declared = type(context["game"].state).TILE
    by_card = context["by_card"]
    items = []
    for card in z.get("cards") or ():
        badges = "".join(f' <span class="{_classes("badge", f.css)}">{_words(f, card)}</span>'
                         for f in declared.flags if f.shown(card))
        numbers = _numbers(declared, card)
        buttons = "".join(write_act_button(context, entry[0], entry[1], "", entry[2])
                          for entry in by_card.get(card.get("id"), []))
        items.append(f'<li><strong>{escape(card.get("name", ""))}</strong>'
                     f'{f" <small>{numbers}</small>" if numbers else ""}{badges}'
                     f'{f" <span class=pile-actions>{buttons}</span>" if buttons else ""}</li>')
    body = f'<ul class="pile-list">{"".join(items)}</ul>' if items else '<p class="pile empty-zone">empty</p>'
    return (f'<section class="zone zone-{escape(name)} zone-pile" aria-label="{label}">'
            f'<details><summary>{label}: {count} card{"" if count == 1 else "s"}</summary>{body}</details></section>')


def write_zone(context, z: dict, name: str) -> str:
    """A zone: its label and count, then its cards (a face-down zone as a pile, a pile as a list)."""
    spec = next((s for s in type(context["game"].state).ZONES if s.name == name), None)
    if spec is not None and spec.pile and not z.get("hidden"):
        return write_pile(context, z, name)
    label = escape(z.get("label"))
    head = (f'<section class="zone zone-{escape(name)}" aria-label="{label}">'
            f'<h3>{label} <small>({escape(z.get("count"))})</small></h3>')
    if z.get("hidden"):
        count = z.get("count")
        body = f'<p class="pile">{escape(count)} card{"s" if count != 1 else ""}, face down</p>'
    elif not z.get("cards"):
        body = '<p class="pile empty-zone">empty</p>'
    else:
        by_card = context["by_card"]
        images = request_card_images(context["game"].session.game)
        body = '<div class="tiles">' + "".join(write_tile(context, card, by_card.get(card.get("id"), []), images=images)
                                               for card in z["cards"]) + "</div>"
    return head + body + "</section>"


def write_log_items(context, view: dict) -> str:
    """The game log, newest first: when (turn or round, and phase), a badge on manual moves, the text."""
    return _finished(context, "log", lambda: _log_items(view))


def _log_items(view: dict) -> str:
    when = "R" if view.get("round_based") else "T"
    items = []
    for entry in reversed(view.get("log") or ()):
        manual = entry.get("manual")
        badge = '<span class="badge">manual</span> ' if manual else ""
        items.append(f'<li class="{"manual" if manual else ""}"><span class="when">{when}{escape(entry.get("turn"))} '
                     f'{escape(entry.get("phase") or "setup")}</span> {badge}{escape(entry.get("text"))}</li>')
    return "".join(items)


FINISHED_PARTS_KEPT = 256  # a finished game's layout and log, kept while people look at or replay them


def _finished(context, part: str, write) -> str:
    """`write()`, kept on the catalogue when the position is a finished game's: nothing on its layout
    or log changes any more (undoing a finished game continues in a new session), and a finished
    game is what players open from their history. A live position is written every time."""
    view, game = context["view"], context["game"]
    if not view.get("terminal") or context["by_card"]:
        return write()
    session = game.session
    key = (session.id, session.created_at, session.seed, context["step"], context.get("replay_step"),
           request.script_root, part)
    return get_catalogue(session.game).memo_each("web.finished_boards", key, write, limit=FINISHED_PARTS_KEPT)


def write_layout(context) -> str:
    """The game's own layout (its board template; the generic one shows every zone)."""
    def write() -> str:
        template = context.environment.select_template(
            [f"goldfish/boards/{context['spec'].slug}.html", "goldfish/boards/_generic.html"])
        return template.render(context.get_all())
    return _finished(context, "layout", write)


def register(app: Flask) -> None:
    """Make the writers template globals that read the board's context."""
    for name, write in (("tile", write_tile), ("zone", write_zone), ("act_button", write_act_button),
                        ("log_items", write_log_items), ("board_layout", write_layout)):
        app.add_template_global(pass_context(lambda context, *args, _write=write, **kwargs:
                                             Markup(_write(context, *args, **kwargs))), name)
