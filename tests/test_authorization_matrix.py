"""Who may do what, for every route of the app: one matrix, checked against `app.url_map`.

The world: a curator (the site's first account), alice (the owner) and bob (another user). Alice
has a private deck and a public one, a goldfish game, a finished simulation, a card in her
collection, a pending collection import, an API token and a pending proposal.

Every route and method is a row of MATRIX: the request to send and the answer each role must get,
as anonymous, bob, the curator and alice (and, on `/api/` paths, bob's and alice's tokens). Rules:
- private decks, collections, imports, goldfish games and their replays, simulations and tokens
  are alice's alone: others get 404 (anonymous visitors of a signed-in page go to the log-in page);
- a public deck is readable by everyone and writable by alice only (the API says 403 to others);
- curator pages refuse everybody else (403).
Whatever anonymous, bob or the curator send, alice's data stays exactly as it was (except a curator
reviewing her proposal), and no page shown to them contains her private deck's name or her token.
A route missing from MATRIX fails the test: a new route must say who may use it.
"""
from __future__ import annotations

import io
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Callable
from urllib.parse import urlsplit

import pytest

from deckhub.services import api_tokens, card_values, comparisons, played_games, simulations, tunings
from deckhub.services.community.proposing import propose_batch, propose_facts
from deckhub.services.community.reviewing import approve
from deckhub.store import models
from deckhub.services import goldfish as goldfish_store
from deckhub.services.accounts import create_user
from deckhub.services.catalogue_store import get_catalogue
from deckhub.services import collection_imports, facts_uploads
from deckhub.services.collection import adjust
from deckhub.core.decklist import Deck
from deckhub.store.db import database
from deckhub.services.decks import create_deck, load
from deckhub.games import all_games, get_game
from deckhub.importers.decklists import read_decklist

from conftest import make_app

PASSWORD = "correct horse"
SECRET_DECK = "Alice's secret deck 7f3a"
BULL_RUSH = (Path(__file__).resolve().parents[1] / "data" / "kaijudo" / "decks" / "[2ED]Bull_Rush.o8d").read_bytes()
CSV = b"game,set,number,name,quantity\nkaijudo,evo-fury,2,Cloudwalker Drone,2\n"
TYPO_CSV = b"game,name,quantity\nkaijudo,Argus Vigilent Seer,2\n"  # line 2 offers "Argus, Vigilant Seer"
URL = "https://example.org/neopets-tcg/checklist"
FACTS_CSV = b"game,set,number,name,bank_value,source\nneopets-tcg,,,The Thieves Code,4,https://example.org/facts\n"
PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00"
       b"\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82")  # 1 x 1
DARIGAN = (Path(__file__).resolve().parents[1] / "data" / "neopets-tcg" / "decks" / "darigan-theme-deck.txt").read_bytes()
SECRET_VALUE = "Alice's own rules text 41c9"  # one of her card values: private

LOGIN = "login"  # a redirect to the log-in page
ROLES = ("anon", "other", "curator", "owner")
API_ROLES = ("other_token", "owner_token")  # also tried on /api/ paths


@dataclass
class Row:
    """One route and method: the request (`url` may make fresh rows of alice's) and the answers."""

    endpoint: str
    method: str
    url: Callable[[SimpleNamespace], str]
    expect: dict[str, object]  # role -> a status, a tuple of statuses, or LOGIN
    data: dict | Callable | None = None
    json: dict | None = None
    curator_writes: bool = False  # the curator may change alice's data here (reviewing her proposal)
    relogin: bool = False  # the request signs the client out

    def answer(self, role: str):
        if role in self.expect:
            return self.expect[role]
        base = role.replace("_token", "")
        if base in self.expect:
            return self.expect[base]
        if role == "curator":
            return self.expect["other"]
        raise KeyError(role)


def everyone(status=200) -> dict:
    return {"anon": status, "other": status, "owner": status}


def signed_in(status=200, anon=LOGIN) -> dict:
    """A page or action on the user's own things, with no id in the URL."""
    return {"anon": anon, "other": status, "owner": status}


def alices(status=200, anon=LOGIN, other=404) -> dict:
    """A route on one of alice's private things."""
    return {"anon": anon, "other": other, "owner": status}


def api_own(status=200, other=404) -> dict:
    return {"anon": 401, "other": other, "owner": status}


REDIRECT = (302, 303)
DECK_FORM = {"section": "Deck", "card": "argus-vigilant-seer", "delta": "1"}
GAME_FORM = {"played_on": "2026-11-28", "version": "1", "result": "win", "order": "first"}
GAME_JSON = {"result": "loss", "played_at": "2026-11-28"}

MATRIX = [
    # ------------------------------------------------------------------ public pages and assets
    Row("catalog.index", "GET", lambda w: "/", everyone()),
    Row("catalog.stylesheet", "GET", lambda w: "/assets/catalog.css", everyone()),
    Row("catalog.favicon", "GET", lambda w: "/favicon.ico", everyone()),
    Row("catalog.search", "GET", lambda w: "/cards?game=kaijudo&q=argus", everyone()),
    Row("catalog.game", "GET", lambda w: "/games/kaijudo", everyone()),
    Row("catalog.formats", "GET", lambda w: "/games/neopets-battledome/formats", everyone()),
    Row("catalog.card_set", "GET", lambda w: "/games/kaijudo/sets/evo-fury", everyone()),
    Row("catalog.card", "GET", lambda w: "/games/kaijudo/cards/argus-vigilant-seer", everyone()),
    Row("catalog.picture", "GET", lambda w: "/games/kaijudo/cards/argus-vigilant-seer/picture?size=thumb", everyone()),
    Row("facts.export", "GET", lambda w: "/games/neopets-tcg/facts.csv", everyone()),
    Row("facts.most_wanted", "GET", lambda w: "/most-wanted", everyone()),
    Row("community.history", "GET", lambda w: "/games/neopets-tcg/history/the-thieves-code", everyone()),
    Row("static", "GET", lambda w: "/static/deckhub.css", everyone()),
    Row("public.decks", "GET", lambda w: "/decks/public", everyone()),
    Row("public.decks", "GET", lambda w: "/decks/public?card=bull+rush&sort=copied", everyone()),
    Row("public.user_list", "GET", lambda w: "/users/alice/wants", everyone(404)),  # she has not opted in
    Row("public.user_list", "GET", lambda w: "/users/alice/trades", everyone(404)),
    Row("auth.login", "GET", lambda w: "/login", everyone()),
    Row("auth.login", "POST", lambda w: "/login", everyone(400), data={"username": "alice", "password": "wrong one"}),
    Row("auth.signup", "GET", lambda w: "/signup", everyone()),
    Row("auth.signup", "POST", lambda w: "/signup", everyone(400),
        data={"username": "mallory", "password": PASSWORD, "confirm": "different"}),
    Row("auth.logout", "POST", lambda w: "/logout", signed_in(302), relogin=True),
    # ------------------------------------------------------------------ each user's own pages
    Row("decks.index", "GET", lambda w: "/decks/", signed_in()),
    Row("decks.new", "POST", lambda w: "/decks/new", signed_in(302), data={"name": "New", "game": "kaijudo"}),
    Row("decks.import_deck", "GET", lambda w: "/decks/import", signed_in()),
    Row("decks.import_deck", "POST", lambda w: "/decks/import", signed_in(302),
        data={"name": "Imported", "game": "kaijudo", "decklist": "4 Argus, Vigilant Seer"}),
    Row("collection.overview", "GET", lambda w: "/collection/", signed_in()),
    Row("collection.checklist", "GET", lambda w: "/collection/kaijudo/sets/evo-fury", signed_in()),
    Row("collection.checklist_print", "GET", lambda w: "/collection/kaijudo/sets/evo-fury/print", signed_in()),
    Row("collection.wants", "GET", lambda w: "/collection/wants", signed_in()),
    Row("collection.export", "GET", lambda w: "/collection/export.csv", signed_in()),
    Row("public.lists_visibility", "POST", lambda w: "/collection/public-lists", signed_in(303), data={}),
    Row("collection.adjust", "POST", lambda w: "/collection/adjust", signed_in(303),
        data=lambda w: {"printing": str(w.printing), "step": "quantity:5"}),
    Row("collection.import_upload", "GET", lambda w: "/collection/import", signed_in()),
    Row("collection.import_upload", "POST", lambda w: "/collection/import", signed_in(303),
        data=lambda w: {"file": (__import__("io").BytesIO(CSV), "mine.csv")}),
    Row("collection.import_paste", "POST", lambda w: "/collection/import/paste", signed_in(303),
        data={"paste-game": "kaijudo", "paste-decklist": "2 Cloudwalker Drone", "paste-mode": "add"}),
    Row("goldfish.index", "GET", lambda w: "/goldfish/", signed_in()),
    Row("account.index", "GET", lambda w: "/account/", signed_in()),
    Row("account.create_token", "POST", lambda w: "/account/tokens", signed_in(201), data={"name": "another"}),
    Row("account.change_password", "POST", lambda w: "/account/password", signed_in(400),
        data={"current": "not the password", "password": "a new long secret", "confirm": "a new long secret"}),
    Row("account.sign_out_everywhere", "POST", lambda w: "/account/sign-out-everywhere", signed_in(303), relogin=True),
    Row("community.mine", "GET", lambda w: "/proposals", signed_in()),
    Row("card_values.index", "GET", lambda w: "/card-values/", signed_in(302)),
    Row("card_values.game", "GET", lambda w: "/card-values/neopets-tcg", signed_in()),
    Row("card_values.game", "POST", lambda w: "/card-values/neopets-tcg", signed_in(400),
        data={"action": "delete"}),
    Row("community.propose", "GET", lambda w: "/games/neopets-tcg/propose/card/the-thieves-code", signed_in()),
    Row("community.propose", "POST", lambda w: "/games/neopets-tcg/propose/card/the-thieves-code", signed_in(400),
        data={"source_kind": "url", "source_url": ""}),
    Row("community.flag_reading", "POST", lambda w: "/games/kaijudo/cards/spy-mission/readings/1/flag",
        signed_in(302), data=lambda w: w.flag_form()),
    Row("community.propose_card", "GET", lambda w: "/games/neopets-tcg/propose/new-card", signed_in()),
    Row("community.propose_card", "POST", lambda w: "/games/neopets-tcg/propose/new-card", signed_in(400),
        data={"name": "", "source_kind": "url", "source_url": ""}),
    Row("facts.import_upload", "GET", lambda w: "/facts/import", signed_in()),
    Row("facts.import_upload", "POST", lambda w: "/facts/import", signed_in(303),
        data=lambda w: w.facts_file()),
    Row("community.set_editor", "GET", lambda w: "/games/neopets-tcg/sets/first-edition/edit", signed_in()),
    Row("community.set_editor", "POST", lambda w: "/games/neopets-tcg/sets/first-edition/edit", signed_in(400),
        data={"c:aisha-myriad:strength": "3", "source_kind": "url", "source_url": ""}),
    Row("community.scan", "GET", lambda w: f"/scans/{w.approved_scan}", everyone()),
    # ------------------------------------------------------------------ alice's private deck
    Row("decks.show", "GET", lambda w: f"/decks/{w.private}", alices(anon=404)),
    Row("decks.versions", "GET", lambda w: f"/decks/{w.private}/versions", alices(anon=404)),
    Row("decks.chart", "GET", lambda w: f"/decks/{w.private}/charts/types.svg", alices(anon=404)),
    Row("decks.export", "GET", lambda w: f"/decks/{w.private}/export.txt", alices(anon=404)),
    Row("decks.export", "GET", lambda w: f"/decks/{w.private}/export?format=untap", alices(anon=404)),
    Row("table.print_sheet", "GET", lambda w: f"/decks/{w.private}/print", alices(anon=404)),
    Row("table.games", "GET", lambda w: f"/decks/{w.private}/games", alices(anon=404)),
    Row("table.proxy_sheet", "GET", lambda w: f"/decks/{w.private}/proxies?paper=letter", alices(anon=404)),
    Row("table.proxy_pdf", "GET", lambda w: f"/decks/{w.private}/proxies.pdf", alices(anon=404)),
    Row("table.tts_sheet", "GET", lambda w: f"/decks/{w.private}/tts/sheet-1.png?v=1", alices(anon=404)),
    Row("table.tts_sheet", "GET", lambda w: f"/decks/{w.private}/tts/sheet-1.png?t=guessed", alices(anon=404)),
    Row("table.tts_back", "GET", lambda w: f"/decks/{w.private}/tts/back.png", alices(anon=404)),
    Row("table.log_game", "POST", lambda w: f"/decks/{w.private}/games", alices(303), data=GAME_FORM),
    Row("table.delete_game", "POST", lambda w: f"/decks/{w.private}/games/{w.new_game()}/delete", alices(303)),
    Row("stats.show", "GET", lambda w: f"/decks/{w.private}/stats/", alices(anon=404)),
    Row("decks.edit", "GET", lambda w: f"/decks/{w.private}/edit", alices()),
    Row("decks.settings", "GET", lambda w: f"/decks/{w.private}/settings", alices()),
    Row("decks.settings", "POST", lambda w: f"/decks/{w.private}/settings", alices(302),
        data={"name": SECRET_DECK, "format": "standard"}),
    Row("decks.change_card", "POST", lambda w: f"/decks/{w.private}/cards", alices(302), data=DECK_FORM),
    Row("decks.paste", "POST", lambda w: f"/decks/{w.private}/paste", alices(302),
        data={"decklist": "1 Argus, Vigilant Seer", "mode": "add"}),
    Row("decks.copy", "POST", lambda w: f"/decks/{w.private}/copy", alices(302)),
    Row("decks.save_session", "POST", lambda w: f"/decks/{w.private}/save", alices(303),
        data={"s": "an-editing-session"}),
    Row("decks.delete", "POST", lambda w: f"/decks/{w.new_deck()}/delete", alices(302)),
    Row("stats.start", "POST", lambda w: f"/decks/{w.private}/stats/simulations", alices(302),
        data={"games": "5", "seed": "3"}),
    Row("stats.run_status", "GET", lambda w: f"/decks/{w.private}/stats/simulations/{w.run}.json", alices()),
    Row("stats.cancel", "POST", lambda w: f"/decks/{w.private}/stats/simulations/{w.new_run()}/cancel", alices(303)),
    Row("stats.histogram", "GET", lambda w: f"/decks/{w.private}/stats/simulations/{w.run}/histogram.svg", alices()),
    Row("stats.start_tuning", "POST", lambda w: f"/decks/{w.private}/stats/tunings", alices(302),
        data={"budget": "300", "seed": "2", "candidates": "collection"}),
    Row("stats.tuning_status", "GET", lambda w: f"/decks/{w.private}/stats/tunings/{w.tuning}.json", alices()),
    Row("stats.cancel_tuning", "POST", lambda w: f"/decks/{w.private}/stats/tunings/{w.new_tuning()}/cancel",
        alices(303)),
    Row("stats.start_impact", "POST", lambda w: f"/decks/{w.private}/stats/impacts", alices(302),
        data={"budget": "300", "seed": "2"}),
    Row("stats.impact_chart", "GET", lambda w: f"/decks/{w.private}/stats/tunings/{w.tuning}/impact.svg",
        alices(404)),  # a tuning run, not an impact run: no chart of it, even for its owner
    Row("stats.compare", "GET", lambda w: f"/decks/{w.public}/stats/compare", everyone()),
    Row("stats.start_comparison", "POST", lambda w: f"/decks/{w.private}/stats/comparisons", alices(303),
        data=lambda w: {"other": str(w.private), "games": "10", "seed": "2"}),
    Row("stats.comparison_status", "GET", lambda w: f"/decks/{w.private}/stats/comparisons/{w.comparison}.json",
        alices()),
    Row("stats.cancel_comparison", "POST",
        lambda w: f"/decks/{w.private}/stats/comparisons/{w.new_tuning('comparison')}/cancel", alices(303)),
    Row("goldfish.archive", "POST", lambda w: f"/goldfish/{w.new_session()}/archive", alices(303)),
    Row("goldfish.delete", "GET", lambda w: f"/goldfish/{w.session}/delete", alices()),
    Row("goldfish.delete", "POST", lambda w: f"/goldfish/{w.new_session()}/delete", alices(303)),
    Row("goldfish.start", "GET", lambda w: f"/goldfish/decks/{w.private}", alices()),
    Row("goldfish.start", "POST", lambda w: f"/goldfish/decks/{w.private}", alices(302), data={"seed": "5"}),
    Row("collection.add_missing", "POST", lambda w: f"/collection/decks/{w.private}/add-missing", alices(303)),
    Row("collection.add_deck", "POST", lambda w: f"/collection/decks/{w.private}/add-to-collection", alices(303)),
    Row("card_values.deck_form", "GET", lambda w: f"/card-values/decks/{w.neopets}", alices()),
    Row("card_values.deck_form", "POST", lambda w: f"/card-values/decks/{w.neopets}", alices(302),
        data={"cv__chocolate-korbats__type": "Item"}),
    # ------------------------------------------------------------------ alice's public deck
    Row("decks.show", "GET", lambda w: f"/decks/{w.public}", everyone()),
    Row("decks.versions", "GET", lambda w: f"/decks/{w.public}/versions", everyone()),
    Row("decks.chart", "GET", lambda w: f"/decks/{w.public}/charts/types.svg", everyone()),
    Row("decks.export", "GET", lambda w: f"/decks/{w.public}/export.o8d", everyone()),
    Row("decks.export", "GET", lambda w: f"/decks/{w.public}/export?format=tts", everyone()),
    Row("table.print_sheet", "GET", lambda w: f"/decks/{w.public}/print", everyone()),
    Row("table.proxy_sheet", "GET", lambda w: f"/decks/{w.public}/proxies", everyone()),
    Row("table.proxy_css", "GET", lambda w: "/decks/proxies.css", everyone()),
    Row("table.proxy_pdf", "GET", lambda w: f"/decks/{w.public}/proxies.pdf?paper=letter", everyone()),
    Row("table.tts_sheet", "GET", lambda w: f"/decks/{w.public}/tts/sheet-1.png", everyone()),
    Row("table.tts_back", "GET", lambda w: f"/decks/{w.public}/tts/back.png", everyone()),
    Row("table.games", "GET", lambda w: f"/decks/{w.public}/games", alices(anon=404)),  # her record is not shown
    Row("table.log_game", "POST", lambda w: f"/decks/{w.public}/games", alices(303), data=GAME_FORM),
    Row("stats.show", "GET", lambda w: f"/decks/{w.public}/stats/", everyone()),
    Row("decks.edit", "GET", lambda w: f"/decks/{w.public}/edit", alices()),
    Row("decks.settings", "POST", lambda w: f"/decks/{w.public}/settings", alices(302),
        data={"name": "Public deck", "format": "standard", "is_public": "y"}),
    Row("decks.change_card", "POST", lambda w: f"/decks/{w.public}/cards", alices(302), data=DECK_FORM),
    Row("decks.delete", "POST", lambda w: f"/decks/{w.new_deck(public=True)}/delete", alices(302)),
    Row("decks.copy", "POST", lambda w: f"/decks/{w.public}/copy", signed_in(302)),
    Row("stats.start", "POST", lambda w: f"/decks/{w.public}/stats/simulations", alices(302),
        data={"games": "5", "seed": "3"}),
    Row("goldfish.start", "GET", lambda w: f"/goldfish/decks/{w.public}", signed_in()),
    Row("collection.add_missing", "POST", lambda w: f"/collection/decks/{w.public}/add-missing", signed_in(303)),
    Row("collection.add_deck", "POST", lambda w: f"/collection/decks/{w.public}/add-to-collection", signed_in(303)),
    # ------------------------------------------------------------------ alice's goldfish game
    Row("goldfish.board", "GET", lambda w: f"/goldfish/{w.session}", alices()),
    Row("goldfish.replay_view", "GET", lambda w: f"/goldfish/{w.session}/replay?step=0", alices()),
    Row("goldfish.act", "POST", lambda w: f"/goldfish/{w.session}/act", alices(302),
        data={"action": '{"kind": "manual.draw"}', "step": "0"}),
    Row("goldfish.undo", "POST", lambda w: f"/goldfish/{w.session}/undo", alices(302)),
    Row("goldfish.restart", "POST", lambda w: f"/goldfish/{w.session}/restart", alices(302)),
    Row("goldfish.new_game", "POST", lambda w: f"/goldfish/{w.session}/new", alices(302)),
    Row("goldfish.play_out", "POST", lambda w: f"/goldfish/{w.new_session()}/play-out", alices(302)),
    # ------------------------------------------------------------------ alice's pending import
    Row("collection.import_preview", "GET", lambda w: f"/collection/import/{w.upload}", alices()),
    Row("collection.import_progress", "GET", lambda w: f"/collection/import/{w.upload}/progress", alices(302)),
    Row("collection.import_status", "GET", lambda w: f"/collection/import/{w.upload}/status", alices()),
    Row("collection.import_discard", "POST", lambda w: f"/collection/import/{w.new_upload()}/discard", alices(303)),
    Row("collection.import_commit", "POST", lambda w: f"/collection/import/{w.new_upload()}/commit", alices(303)),
    Row("collection.import_choose", "POST", lambda w: f"/collection/import/{w.new_upload(TYPO_CSV)}/choose",
        alices(303), data={"fix-2": "0"}),
    # ------------------------------------------------------------------ alice's checked facts file
    Row("facts.import_preview", "GET", lambda w: f"/facts/import/{w.facts}", alices()),
    Row("facts.import_propose", "POST", lambda w: f"/facts/import/{w.new_facts()}/propose", alices(303)),
    Row("facts.import_discard", "POST", lambda w: f"/facts/import/{w.new_facts()}/discard", alices(303)),
    # ------------------------------------------------------------------ alice's token, alice's proposal
    Row("account.revoke_token", "POST", lambda w: f"/account/tokens/{w.new_token()}/revoke", alices(303)),
    Row("community.proposal", "GET", lambda w: f"/proposals/{w.proposal}", alices() | {"curator": 200}),
    Row("community.batch", "GET", lambda w: f"/batches/{w.batch}", alices() | {"curator": 200}),
    Row("community.scan", "GET", lambda w: f"/scans/{w.pending_scan}", alices(anon=404) | {"curator": 200}),
    # ------------------------------------------------------------------ an operator's tools (tests ask from loopback)
    Row("operations.healthz", "GET", lambda w: "/healthz", everyone()),
    Row("operations.readyz", "GET", lambda w: "/readyz", everyone()),
    Row("operations.metrics", "GET", lambda w: "/metrics", everyone()),
    # ------------------------------------------------------------------ curators only
    Row("jobs.index", "GET", lambda w: "/curate/jobs", {"anon": LOGIN, "other": 403, "owner": 403, "curator": 200}),
    Row("community.review", "GET", lambda w: "/review",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 200}),
    Row("community.approve", "POST", lambda w: f"/review/{w.new_proposal()}/approve",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "checked"}, curator_writes=True),
    Row("community.reject", "POST", lambda w: f"/review/{w.new_proposal()}/reject",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "no source"}, curator_writes=True),
    Row("community.batch", "POST", lambda w: f"/batches/{w.new_batch()}",
        {"anon": LOGIN, "other": 404, "owner": 403, "curator": 302}, data={"all": "approve"}, curator_writes=True),
    Row("community.revert", "POST", lambda w: f"/review/{w.approved_proposal()}/revert",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "wrong"}, curator_writes=True),
    Row("community.flag_manual", "POST", lambda w: f"/review/flags/{w.new_flag()}/manual",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "checked"}),
    Row("community.flag_dismiss", "POST", lambda w: f"/review/flags/{w.new_flag()}/dismiss",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "the reading is right"}),
    Row("community.set_manual", "POST", lambda w: "/games/kaijudo/cards/spy-mission/readings/1/manual",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "checked"}),
    Row("community.clear_manual", "POST", lambda w: "/games/kaijudo/cards/spy-mission/readings/1/clear",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "checked"}),
    Row("agreement.recently_applied", "GET", lambda w: "/review/recent",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 200}),
    Row("agreement.accept", "POST", lambda w: "/review/recent/999999/accept",
        {"anon": LOGIN, "other": 404, "owner": 404, "curator": 404}),
    Row("agreement.revert", "POST", lambda w: f"/review/recent/proposals/{w.approved_proposal()}/revert",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"reason": "wrong"}, curator_writes=True),
    Row("agreement.settle", "POST", lambda w: "/games/neopets-tcg/cards/the-thieves-code/disputes/bank_value/settle",
        {"anon": LOGIN, "other": 403, "owner": 403, "curator": 302}, data={"value": "0" * 64}),
    # ------------------------------------------------------------------ players settling facts, shared work
    Row("agreement.confirm", "POST", lambda w: f"/proposals/{w.new_proposal()}/confirm",
        {"anon": LOGIN, "other": 302, "owner": 302, "curator": 302}),
    Row("agreement.notices_page", "GET", lambda w: "/notices", signed_in()),
    Row("agreement.notices_read", "POST", lambda w: "/notices/read", signed_in(302)),
    Row("agreement.contributor", "GET", lambda w: "/contributors/alice", everyone()),
    Row("work.work_page", "GET", lambda w: "/games/neopets-tcg/sets/first-edition/work", everyone()),
    Row("work.progress_chart", "GET", lambda w: "/games/neopets-tcg/sets/first-edition/progress.svg", everyone()),
    Row("work.claim", "POST", lambda w: "/games/neopets-tcg/sets/first-edition/claims", signed_in(302),
        data={"first": "1", "last": "5"}),
    Row("work.release", "POST", lambda w: "/games/neopets-tcg/sets/first-edition/claims/999999/release",
        signed_in(404)),
    Row("facts.dump", "GET", lambda w: "/games/neopets-tcg/catalogue.json", everyone()),
    # ------------------------------------------------------------------ the JSON API: public
    Row("api_v1.openapi", "GET", lambda w: "/api/openapi.json", everyone()),
    Row("api_v1.public_decks", "GET", lambda w: "/api/v1/decks/public?game=kaijudo", everyone()),
    Row("api.games", "GET", lambda w: "/api/games", everyone()),
    Row("api.cards", "GET", lambda w: "/api/cards?game=kaijudo&q=argus", everyone()),
    Row("api.card", "GET", lambda w: "/api/cards/kaijudo/argus-vigilant-seer", everyone()),
    Row("facts.completeness", "GET", lambda w: "/api/games/neopets-tcg/completeness", everyone()),
    Row("deck_api.api_check", "POST", lambda w: "/api/check", everyone(),
        json={"game": "kaijudo", "decklist": "4 Argus, Vigilant Seer"}),
    # ------------------------------------------------------------------ the JSON API: own things
    Row("api_v1.me", "GET", lambda w: "/api/me", signed_in(anon=401)),
    Row("api_v1.decks", "GET", lambda w: "/api/decks", signed_in(anon=401)),
    Row("api_v1.decks", "POST", lambda w: "/api/decks", signed_in(201, anon=401), json={"name": "x", "game": "kaijudo"}),
    Row("api_v1.deck", "GET", lambda w: f"/api/decks/{w.private}", api_own(other=404) | {"anon": 404}),
    Row("api_v1.deck", "PATCH", lambda w: f"/api/decks/{w.private}", api_own(), json={"description": "mine"}),
    Row("api_v1.deck", "DELETE", lambda w: f"/api/decks/{w.new_deck()}", api_own(204)),
    Row("api_v1.deck", "GET", lambda w: f"/api/decks/{w.public}", everyone()),
    Row("api_v1.deck", "PATCH", lambda w: f"/api/decks/{w.public}", api_own(other=403), json={"description": "x"}),
    Row("api_v1.deck", "DELETE", lambda w: f"/api/decks/{w.new_deck(public=True)}", api_own(204, other=403)),
    Row("api_v1.deck_versions", "GET", lambda w: f"/api/decks/{w.private}/versions", alices(anon=404)),
    Row("api_v1.deck_versions", "GET", lambda w: f"/api/decks/{w.public}/versions", everyone()),
    Row("api_v1.deck_version", "GET", lambda w: f"/api/decks/{w.private}/versions/1", alices(anon=404)),
    Row("api_v1.deck_version", "GET", lambda w: f"/api/decks/{w.public}/versions/1", everyone()),
    Row("api_v1.check_stored_deck", "GET", lambda w: f"/api/decks/{w.private}/check", alices(anon=404)),
    Row("api_v1.check_stored_deck", "GET", lambda w: f"/api/decks/{w.public}/check", everyone()),
    Row("api_v1.deck_games", "GET", lambda w: f"/api/decks/{w.private}/games", alices(anon=404)),
    Row("api_v1.deck_games", "GET", lambda w: f"/api/decks/{w.public}/games", alices(anon=403, other=403)),
    Row("api_v1.deck_games", "POST", lambda w: f"/api/decks/{w.private}/games", api_own(201), json=GAME_JSON),
    Row("api_v1.deck_games", "POST", lambda w: f"/api/decks/{w.public}/games", api_own(201, other=403),
        json=GAME_JSON),
    Row("api_v1.delete_game", "DELETE", lambda w: f"/api/decks/{w.private}/games/{w.new_game()}", api_own(204)),
    Row("api_v1.export_deck", "GET", lambda w: f"/api/decks/{w.private}/export?format=o8d", alices(anon=404)),
    Row("api_v1.export_deck", "GET", lambda w: f"/api/decks/{w.public}/export?format=untap", everyone()),
    Row("api_v1.deck_simulations", "GET", lambda w: f"/api/decks/{w.private}/simulations", api_own()),
    Row("api_v1.deck_simulations", "GET", lambda w: f"/api/decks/{w.public}/simulations", api_own(other=403)),
    Row("api_v1.deck_simulations", "POST", lambda w: f"/api/decks/{w.private}/simulations", api_own(202),
        json={"games": 5, "seed": 1}),
    Row("api_v1.deck_simulations", "POST", lambda w: f"/api/decks/{w.public}/simulations", api_own(202, other=403),
        json={"games": 5, "seed": 1}),
    Row("api_v1.simulation", "GET", lambda w: f"/api/simulations/{w.run}", api_own()),
    Row("api_v1.simulation", "DELETE", lambda w: f"/api/simulations/{w.new_run()}", api_own()),
    Row("api_v1.start_tuning", "POST", lambda w: f"/api/decks/{w.private}/tunings", api_own(202),
        json={"budget": 1000, "seed": 1}),
    Row("api_v1.start_tuning", "POST", lambda w: f"/api/decks/{w.public}/tunings", api_own(202, other=403),
        json={"budget": 1000, "seed": 1}),
    Row("api_v1.start_impact", "POST", lambda w: f"/api/decks/{w.private}/impacts", api_own(202),
        json={"budget": 1000, "seed": 1}),
    Row("api_v1.impact", "GET", lambda w: f"/api/impacts/{w.tuning}", api_own(404)),
    Row("api_v1.impact", "DELETE", lambda w: f"/api/impacts/{w.tuning}", api_own(404)),
    Row("api_v1.tuning", "GET", lambda w: f"/api/tunings/{w.tuning}", api_own()),
    Row("api_v1.tuning", "DELETE", lambda w: f"/api/tunings/{w.new_tuning()}", api_own()),
    Row("api_v1.card_values_route", "GET", lambda w: "/api/card-values?game=neopets-tcg", signed_in(anon=401)),
    Row("api_v1.card_values_route", "PUT", lambda w: "/api/card-values", signed_in(anon=401),
        json={"game": "neopets-tcg", "values": {"tomatoes": {"type": "Item", "text": None}}}),
    Row("api_v1.proposals", "GET", lambda w: "/api/proposals?status=queued", signed_in(anon=401)),
    Row("api_v1.proposals", "POST", lambda w: "/api/proposals", signed_in(201, anon=401),
        json={"game": "neopets-tcg", "source": URL, "cards": [{"card": "meaty-pie", "values": {"type": "Item"}}]}),
    Row("api_v1.confirm", "POST", lambda w: f"/api/proposals/{w.new_proposal()}/confirm",
        {"anon": 401, "other": 400, "owner": 403, "curator": 400}, json={"source": URL}),  # its card's bank value is approved by then
    Row("api_v1.get_collection", "GET", lambda w: "/api/collection", signed_in(anon=401)),
    Row("api_v1.change_collection", "POST", lambda w: "/api/collection/changes", signed_in(anon=401),
        json={"changes": [{"game": "kaijudo", "card": "argus-vigilant-seer", "delta": 1}]}),
]


# --------------------------------------------------------------------------- the world

@pytest.fixture
def matrix_app(databases, tmp_path):
    app = make_app(databases.with_catalogues(), WTF_CSRF_ENABLED=False,
                   PROPOSAL_RATE_LIMIT=1000)
    yield app
    if not database.is_closed():
        database.close()


def _world(app) -> SimpleNamespace:
    w = SimpleNamespace()
    with database.connection_context():
        create_user("curator", PASSWORD)  # the first account is the curator
        alice, bob = create_user("alice", PASSWORD), create_user("bob", PASSWORD)
        w.alice, w.bob = alice.id, bob.id
        bull_rush = read_decklist(BULL_RUSH, get_game("kaijudo"), get_catalogue("kaijudo"), filename="bull.o8d",
                                  games=all_games()).deck
        private = create_deck(alice.id, "kaijudo", "standard", SECRET_DECK, deck=bull_rush)
        public = create_deck(alice.id, "kaijudo", "standard", "Public deck", deck=bull_rush)
        models.Deck.update(is_public=True).where(models.Deck.id == public.row.id).execute()
        w.private, w.public = private.row.id, public.row.id
        w.session = goldfish_store.start(alice.id, private.row, private.deck, {}, seed=1).id
        w.run = simulations.start(alice.id, private.row, private.version, 20, 1, {}).id
        w.printing = models.Printing.select().first().id
        adjust(alice.id, w.printing, "quantity", 2)
        halo_hawk = models.Printing.select().join(models.Card).where(models.Card.key == "halo-hawk").first().id
        adjust(alice.id, halo_hawk, "quantity", 1)  # a candidate for tuning her decks
        w.tuning = tunings.start(alice.id, private.row, private.version, 300, 1, {}).id
        w.comparison = comparisons.start(alice, private.row.id, private.row.id, 10, 1).id
        _, w.token = api_tokens.create(alice, "alice's script")
        _, w.bob_token = api_tokens.create(bob, "bob's script")
        w.proposal = propose_facts(alice, "neopets-tcg", "the-thieves-code", {"bank_value": "2"}, URL).id
        w.batch = propose_batch(alice, "neopets-tcg", [("aisha-myriad", "strength", "3")], URL,
                                scans={"aisha-myriad": PNG}, set_code="first-edition").id
        w.pending_scan = models.Scan.get().id
        shown = propose_facts(alice, "neopets-tcg", "commander-garoo", {}, URL, scan=PNG)
        approve(shown.id, models.User.get(username="curator"))
        w.approved_scan = models.Scan.get(models.Scan.proposal == shown.id).id
        darigan = read_decklist(DARIGAN, get_game("neopets-tcg"), get_catalogue("neopets-tcg"), games=all_games()).deck
        w.neopets = create_deck(alice.id, "neopets-tcg", "standard", "Alice's Darigan deck", deck=darigan).row.id
        card_values.put_values(alice.id, "neopets-tcg", {"tomatoes": {"text": SECRET_VALUE}})
    counter = itertools.count(3)
    made_runs: list[int] = []
    made_uploads: list[int] = []

    def in_db(fn):
        def wrapped(*args, **kwargs):
            with database.connection_context():
                return fn(*args, **kwargs)
        return wrapped

    @in_db
    def new_deck(public=False):
        row = create_deck(w.alice, "kaijudo", "standard", f"Doomed deck {next(counter)}").row
        models.Deck.update(is_public=public).where(models.Deck.id == row.id).execute()
        return row.id

    @in_db
    def new_game():
        return played_games.record(load(models.Deck.get_by_id(w.private)), "win", "2026-11-01").id

    @in_db
    def new_session():
        row = models.Deck.get_by_id(w.private)
        return goldfish_store.start(w.alice, row, Deck.from_json(models.DeckVersion.get(deck=row).data), {}, seed=2).id

    @in_db
    def new_run():
        """A queued run of alice's (no worker takes it here), for cancelling; the earlier ones are set
        aside first, so they do not count against her limit of runs at once."""
        models.SimulationRun.update(status="cancelled").where(models.SimulationRun.id.in_(made_runs)).execute()
        row = models.Deck.get_by_id(w.private)
        run = models.SimulationRun.create(deck=row, version=1, owner=w.alice, game="kaijudo", games=10, seed=1)
        models.SimulationChunk.create(run=run, number=0, start=0, stop=10)
        made_runs.append(run.id)
        return run.id

    @in_db
    def new_upload(data=CSV):
        """A checked upload of alice's; the earlier ones made here are dropped first, so they do not
        count against her limit of uploads waiting at once."""
        models.CollectionUpload.delete().where(models.CollectionUpload.id.in_(made_uploads)).execute()
        # and those the rows' own requests made (uploads, pasted lists, "add this deck"), but the shared one
        models.CollectionUpload.delete().where((models.CollectionUpload.owner == w.alice)
                                               & (models.CollectionUpload.token != getattr(w, "upload", ""))).execute()
        upload = collection_imports.create(w.alice, data, "mine.csv", None)
        made_uploads.append(upload.id)
        return upload.token

    @in_db
    def facts_file():
        """A facts file to send, the earlier uploads of every user but the shared one dropped first, so
        they do not count against anyone's limit of files kept at once."""
        models.FactsUpload.delete().where(models.FactsUpload.token != getattr(w, "facts", "")).execute()
        return {"file": (io.BytesIO(FACTS_CSV), "facts.csv")}

    @in_db
    def new_facts():
        """A checked facts file of alice's, to propose or discard (her earlier proposals' hits forgotten)."""
        facts_file()
        _forget_proposal_hits()
        return facts_uploads.create(models.User.get_by_id(w.alice), FACTS_CSV, "facts.csv").token

    @in_db
    def new_token():
        return api_tokens.create(w.alice, f"token {next(counter)}")[0].id

    def _forget_proposal_hits():
        """The rows' helpers make proposals of alice's many times over (the malformed-input test replays
        each row dozens of times): forget the earlier ones' hits, so they do not count against her hourly limit."""
        models.RateLimitHit.delete().where(models.RateLimitHit.bucket == f"proposal:{w.alice}").execute()

    @in_db
    def new_proposal():
        _forget_proposal_hits()
        return propose_facts(models.User.get_by_id(w.alice), "neopets-tcg", "the-thieves-code",
                             {"bank_value": str(next(counter))}, URL).id

    @in_db
    def new_batch():
        _forget_proposal_hits()
        return propose_batch(models.User.get_by_id(w.alice), "neopets-tcg",
                             [("fire-shoyru", "magic", str(next(counter)))], URL).id

    @in_db
    def new_flag():
        """A flag of alice's on a reading, waiting for a curator."""
        return models.ReadingFlag.create(game="kaijudo", card_key="spy-mission", ability="Draw 2 cards.",
                                         reading="Draw two cards", sentence="wrong", reference="Kaijudo 9",
                                         flagger=w.alice).id

    @in_db
    def flag_form():
        """A flag's form, with the earlier flags' hits forgotten (rows are replayed many times over)."""
        models.RateLimitHit.delete().where(models.RateLimitHit.bucket.startswith("proposal:")).execute()
        return {"sentence": "It draws one card too many.", "reference": "Kaijudo 9"}

    @in_db
    def approved_proposal():
        pid = new_proposal()
        approve(pid, models.User.get(username="curator"))
        return pid

    made_tunings: list[int] = []

    @in_db
    def new_tuning(source="collection"):
        """A queued tuning run (or another paired run: `source` "comparison") of alice's, for
        cancelling (the earlier ones set aside, as for runs)."""
        models.TuningRun.update(status="cancelled").where(models.TuningRun.id.in_(made_tunings)).execute()
        run = models.TuningRun.create(deck=w.private, version=1, owner=w.alice, game="kaijudo", budget=300, seed=1,
                                      candidates=["halo-hawk"], candidate_source=source, format="standard")
        made_tunings.append(run.id)
        return run.id

    w.new_deck, w.new_session, w.new_upload, w.new_run = new_deck, new_session, new_upload, new_run
    w.new_game = new_game
    w.new_tuning = new_tuning
    w.new_token, w.new_proposal, w.approved_proposal = new_token, new_proposal, approved_proposal
    w.new_batch, w.new_flag, w.flag_form = new_batch, new_flag, flag_form
    w.facts_file, w.new_facts = facts_file, new_facts
    w.upload = new_upload()
    w.facts = new_facts()
    made_uploads.clear()  # this one stays for the whole test
    return w


def _fingerprint(w) -> tuple:
    """Everything of alice's that a request could change."""
    uid = w.alice
    with database.connection_context():
        return (
            list(models.Deck.select(models.Deck.id, models.Deck.name, models.Deck.format, models.Deck.packs,
                                    models.Deck.is_public, models.Deck.description, models.Deck.updated_at)
                 .where(models.Deck.owner == uid).order_by(models.Deck.id).tuples()),
            list(models.DeckVersion.select(models.DeckVersion.id).join(models.Deck)
                 .where(models.Deck.owner == uid).order_by(models.DeckVersion.id).tuples()),
            list(models.OwnedCard.select(models.OwnedCard.printing, models.OwnedCard.quantity,
                                         models.OwnedCard.foil_quantity, models.OwnedCard.want_quantity,
                                         models.OwnedCard.trade_quantity)
                 .where(models.OwnedCard.owner == uid).order_by(models.OwnedCard.id).tuples()),
            [(s.id, s.seed, s.actions, s.result) for s in
             models.GoldfishSession.select().where(models.GoldfishSession.owner == uid).order_by(models.GoldfishSession.id)],
            list(models.SimulationRun.select(models.SimulationRun.id, models.SimulationRun.status)
                 .where(models.SimulationRun.owner == uid).order_by(models.SimulationRun.id).tuples()),
            list(models.ApiToken.select(models.ApiToken.id, models.ApiToken.revoked_at)
                 .where(models.ApiToken.user == uid).order_by(models.ApiToken.id).tuples()),
            list(models.Proposal.select(models.Proposal.id, models.Proposal.status)
                 .where(models.Proposal.proposer == uid).order_by(models.Proposal.id).tuples()),
            _uploads(w),
            card_values.values_of(uid, "neopets-tcg"),
        )


def _uploads(w) -> list:
    """Alice's pending imports: each one's token, state, stored plan and result."""
    U = models.CollectionUpload
    return [(u.token, u.state, u.error, u.summary, u.targets, u.result)
            for u in U.select().where(U.owner == w.alice).order_by(U.id)]


def _clients(app, w) -> dict:
    clients = {"anon": app.test_client()}
    for role, name in (("other", "bob"), ("curator", "curator"), ("owner", "alice")):
        clients[role] = app.test_client()
        _login(clients[role], name)
    clients["other_token"] = (app.test_client(), w.bob_token)
    clients["owner_token"] = (app.test_client(), w.token)
    return clients


def _login(client, name: str) -> None:
    assert client.post("/login", data={"username": name, "password": PASSWORD}).status_code == 302


def _matches(response, expected) -> bool:
    if expected == LOGIN:
        return response.status_code == 302 and urlsplit(response.location).path == "/login"
    allowed = expected if isinstance(expected, tuple) else (expected,)
    return response.status_code in allowed


def test_every_route_is_classified(matrix_app):
    classified = {(row.endpoint, row.method) for row in MATRIX}
    routes = {(rule.endpoint, method) for rule in matrix_app.url_map.iter_rules()
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes - classified == set(), \
        "routes with no row in MATRIX (tests/test_authorization_matrix.py): say who may use them"
    assert classified - routes == set(), "rows of MATRIX for routes that no longer exist"


def test_authorization_matrix(matrix_app):
    app = matrix_app
    w = _world(app)
    clients = _clients(app, w)
    adapter = app.url_map.bind("localhost")
    failures: list[str] = []
    for row in MATRIX:
        roles = ROLES + (API_ROLES if row.url(w).startswith("/api/") else ())
        for role in roles:
            url = row.url(w)
            endpoint, _ = adapter.match(urlsplit(url).path, method=row.method)
            assert endpoint == row.endpoint, (url, endpoint, row.endpoint)
            before = _fingerprint(w) if role != "owner" else None
            client = clients[role]
            headers = {}
            if isinstance(client, tuple):
                client, token = client
                headers["Authorization"] = f"Bearer {token}"
            data = row.data(w) if callable(row.data) else row.data
            response = client.open(url, method=row.method, data=data, json=row.json, headers=headers)
            expected = row.answer(role)
            where = f"{row.method} {url} as {role}"
            if not _matches(response, expected):
                failures.append(f"{where}: {response.status_code} (expected {expected}) "
                                f"{response.location or response.get_data(as_text=True)[:120]!r}")
            if role not in ("owner", "owner_token"):
                body = response.get_data().decode("utf-8", "replace")  # binary answers (the favicon) too
                for secret in (SECRET_DECK, w.token[:12], SECRET_VALUE):
                    if secret in body:
                        failures.append(f"{where}: the answer shows alice's {secret!r}")
                if not (role == "curator" and row.curator_writes) and _fingerprint(w) != before:
                    failures.append(f"{where}: alice's data changed")
            if row.relogin and role in ("other", "curator", "owner"):
                _login(client, {"other": "bob", "curator": "curator", "owner": "alice"}[role])
    assert not failures, "\n".join(failures)
