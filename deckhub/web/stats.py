"""A deck's statistics tab: opening-hand and draw odds, a sample hand, and goldfish simulations."""
from __future__ import annotations

import random

from werkzeug.wrappers import Response as AnyResponse
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from deckhub.services import decks as deck_store
from deckhub.services import card_values, comparisons, simulations, tunings
from deckhub.services.catalogue_store import get_catalogue
from deckhub.core.engine import find_engine
from deckhub.core.simulate import MAX_GAMES, mulligan_offered
from deckhub.core.odds import DrawModel, combined_odds_table, group_predicate, odds_table
from deckhub.core.tuning import MIN_BUDGET as MIN_TUNING_BUDGET
from deckhub.games import get_game
from deckhub.services.limits import MAX_ID, MAX_SEED
from deckhub.web import charts
from deckhub.web.goldfish import options_from_form, values_rows
from deckhub.web.lookups import deck_or_404

COMBINED_SHUFFLES = 2_000  # seeded shuffles beside the exact combined odds (about ±2% at 95%)

bp = Blueprint("stats", __name__, url_prefix="/decks/<int:deck_id>/stats")

def _visible(deck_id: int):
    return deck_or_404(deck_id)


def _groups(stored, catalogue, spec):
    """The card groups the odds form offers: each card of the deck, each type and field value in it."""
    cards = [catalogue.get(k) for k in stored.deck.sections.get(DrawModel.from_extras(spec.extras).section, {})]
    cards = [c for c in cards if c is not None]
    groups = [("card", c.key, c.display_name) for c in sorted(cards, key=lambda c: c.display_name)]
    fields = ["type"] + [f.key for f in spec.fields if f.filter]
    for field in fields:
        values = set()
        for c in cards:
            v = c.get(field)
            for item in (v if isinstance(v, (list, tuple)) else [v]):
                if item not in (None, ""):
                    values.add(str(item))
        label = "Type" if field == "type" else next(f.label for f in spec.fields if f.key == field)
        groups.extend((field, v, f"{label}: {v}") for v in sorted(values, key=lambda x: (len(x), x)))
    return groups


@bp.route("/")
def show(deck_id: int):
    stored = _visible(deck_id)
    spec = get_game(stored.row.game)
    catalogue = get_catalogue(spec.slug)
    engine = find_engine(spec)
    hand_size = request.args.get("hand", type=int)
    model = DrawModel.from_extras(spec.extras, hand=hand_size if hand_size and 1 <= hand_size <= 20 else None)
    groups = _groups(stored, catalogue, spec)
    kind, _, value = (request.args.get("group") or "").partition("|")
    if (kind, value) not in {(g[0], g[1]) for g in groups}:
        kind, value = (groups[0][0], groups[0][1]) if groups else (None, None)
    k = max(1, min(10, request.args.get("k", default=1, type=int) or 1))
    first = request.args.get("order", "first") != "second"
    table = odds_table(stored.deck, catalogue, model, group_predicate(kind, value), k, range(1, 9), first) if kind else None
    kind2, _, value2 = (request.args.get("group2") or "").partition("|")
    k2 = max(1, min(10, request.args.get("k2", default=1, type=int) or 1))
    combined = None
    if kind and (kind2, value2) in {(g[0], g[1]) for g in groups}:
        combined = combined_odds_table(stored.deck, catalogue, model, group_predicate(kind, value), k,
                                       group_predicate(kind2, value2), k2, range(1, 9), first, COMBINED_SHUFFLES, 0)
    sample = None
    if request.args.get("sample"):
        pool = stored.deck.expand(model.section, catalogue)
        sample = random.SystemRandom().sample(pool, min(model.hand, len(pool)))
    owner = deck_store.owns(current_user, stored.row)
    runs = simulations.runs_for(stored.row) if owner else []
    compare = None
    others = simulations.comparable_runs(current_user, spec.slug, stored.row.id) if owner else []
    if owner and request.args.get("compare", type=int):
        wanted = request.args.get("compare", type=int)
        compare = next((r for r in runs + others if r.id == wanted), None)
    tuning_runs = tunings.runs_for(stored.row) if owner else []
    impact_runs = tunings.runs_for(stored.row, impact=True) if owner else []
    running = any(r.status in ("queued", "running") for r in runs + tuning_runs + impact_runs)
    rows, used = values_rows(engine, stored.deck, spec) if owner and engine else ([], 0)
    return render_template("stats/show.html", stored=stored, spec=spec, engine=engine, model=model, groups=groups,
                           rows=rows, used=used,
                           unknown_words=lambda run: card_values.describe_missing(catalogue, engine, run.unknown or {}, 8),
                           kind=kind, value=value, k=k, first=first, table=table, combined=combined,
                           kind2=kind2, value2=value2, k2=k2,
                           label2=next((g[2] for g in groups if (g[0], g[1]) == (kind2, value2)), ""), sample=sample, owner=owner,
                           runs=runs, compare=compare, others=others, running=running, job_status=simulations.job_status,
                           run_settings=simulations.settings,
                           tuning_runs=tuning_runs, tuning_status=tunings.job_status, impact_runs=impact_runs,
                           mulligan_offered=bool(engine) and mulligan_offered(engine), default_budget=tunings.DEFAULT_BUDGET, min_budget=MIN_TUNING_BUDGET,
                           label=next((g[2] for g in groups if (g[0], g[1]) == (kind, value)), ""))


@bp.route("/compare")
def compare(deck_id: int):
    """Two decks of one game played on the same seeds (this one, and one of mine or a public one): the
    form, and the user's comparisons of this deck with their progress and results."""
    other = request.args.get("other", type=int)
    if other is not None and not 0 < other <= MAX_ID:
        abort(404, "No deck has that number.")
    page = comparisons.compare_page(current_user, deck_id)
    if page is None:
        abort(404, "No deck you may read has that number.")
    running = any(r.status in ("queued", "running") for r in page.runs)
    return render_template("stats/compare.html", page=page, spec=get_game(page.stored.row.game), other=other,
                           games=comparisons.DEFAULT_GAMES, max_games=MAX_GAMES, running=running,
                           job_status=comparisons.job_status)


@bp.route("/comparisons", methods=["POST"])
@login_required
def start_comparison(deck_id: int):
    """Queue a comparison of this deck (A) with the deck the form names (B)."""
    try:
        other = int(request.form.get("other") or 0)
        games = int(request.form.get("games") or comparisons.DEFAULT_GAMES)
        seed = int(request.form.get("seed") or random.SystemRandom().randrange(1, MAX_SEED))
        if not 0 < other <= MAX_ID:
            raise comparisons.ComparisonError("Choose the other deck: one of yours, or a public deck's number.")
        run = comparisons.start(current_user, deck_id, other, games, seed)
    except ValueError as exc:
        flash(str(exc) if isinstance(exc, simulations.SimulationError) else "Deck, games and seed are whole numbers.",
              "error")
        return redirect(url_for("stats.compare", deck_id=deck_id), code=303)
    if run is None:
        abort(404, "No deck you may read has that number.")
    flash(f"Comparison #{run.id} started: {run.budget:,} games of each deck, seed {run.seed}.", "info")
    return redirect(url_for("stats.compare", deck_id=deck_id, _anchor=f"comparison-{run.id}"), code=303)


@bp.route("/comparisons/<int:run_id>/cancel", methods=["POST"])
@login_required
def cancel_comparison(deck_id: int, run_id: int):
    run = comparisons.cancel(current_user, deck_id, run_id)
    if run is None:
        abort(404, "No comparison of yours has that number.")
    flash(f"Comparison #{run.id} cancelled." if run.status == "cancelled"
          else f"Comparison #{run.id} had already ended ({run.status}).", "info")
    return redirect(url_for("stats.compare", deck_id=deck_id, _anchor=f"comparison-{run.id}"), code=303)


@bp.route("/comparisons/<int:run_id>.json")
@login_required
def comparison_status(deck_id: int, run_id: int):
    run = comparisons.own_comparison(current_user, deck_id, run_id)
    if run is None:
        abort(404, "No comparison of yours has that number.")
    return {"id": run.id, "status": run.status, "done": run.done, "games": run.total, "result": run.result,
            "waiting": comparisons.job_status(run).waiting}


@bp.route("/simulations", methods=["POST"])
@login_required
def start(deck_id: int):
    stored = deck_or_404(deck_id, mine=True)
    engine = find_engine(get_game(stored.row.game))
    if engine is None:
        abort(404, "This game has no goldfish engine yet.")
    try:
        games = int(request.form.get("games") or 1000)
        seed = int(request.form.get("seed") or random.SystemRandom().randrange(1, MAX_SEED))
        run = simulations.start(current_user.id, stored.row, stored.version, games, seed, _run_options(engine),
                                allow_unknown=request.form.get("allow_unknown") in ("on", "1", "y", "true"))
    except simulations.UnknownValues as exc:  # the values typed were kept; the form asks for the rest
        flash(f"{exc} They are asked for below.", "error")
        return redirect(url_for("stats.show", deck_id=deck_id, _anchor="simulate"))
    except ValueError as exc:
        flash(str(exc) if isinstance(exc, simulations.SimulationError) else "Games and seed are whole numbers.", "error")
        return redirect(url_for("stats.show", deck_id=deck_id, _anchor="simulate"))
    flash(f"Simulation #{run.id} started: {run.games:,} games with seed {run.seed}.", "info")
    return redirect(url_for("stats.show", deck_id=deck_id, _anchor=f"run-{run.id}"))


def _run_options(engine) -> dict:
    """The form's engine options (the turn order among them) plus a simulation's own mulligan policy."""
    options = options_from_form(engine)
    policy = (request.form.get("mulligan_policy") or "").strip()[:200]
    if policy:
        options["mulligan_policy"] = policy
    return options


@bp.route("/simulations/<int:run_id>/cancel", methods=["POST"])
@login_required
def cancel(deck_id: int, run_id: int):
    deck_or_404(deck_id, mine=True)
    run = simulations.cancel(current_user.id, run_id, deck_id)
    if run is None:
        abort(404, "No such simulation of yours.")
    flash(f"Simulation #{run.id} cancelled." if run.status == "cancelled" else f"Simulation #{run.id} had already ended ({run.status}).", "info")
    return redirect(url_for("stats.show", deck_id=deck_id, _anchor=f"run-{run.id}"), code=303)


@bp.route("/simulations/<int:run_id>.json")
@login_required
def run_status(deck_id: int, run_id: int):
    stored = deck_or_404(deck_id, mine=True)
    run = next((r for r in simulations.runs_for(stored.row, 1000) if r.id == run_id), None)
    if run is None:
        abort(404, "No such simulation of yours.")
    return {"id": run.id, "status": run.status, "done": run.done, "games": run.games, "result": run.result,
            "unknown": run.unknown, "settings": simulations.settings(run), "waiting": simulations.job_status(run).waiting}


@bp.route("/simulations/<int:run_id>/histogram.svg")
@login_required
def histogram(deck_id: int, run_id: int):
    stored = deck_or_404(deck_id, mine=True)
    run = next((r for r in simulations.runs_for(stored.row, 1000) if r.id == run_id), None)
    if run is None or not run.result:
        abort(404, "No finished simulation of yours has that number.")
    hist = run.result["win_turn"]["histogram"]
    unit = get_game(run.game).extras.get("turn_unit", "turn")
    title = charts.from_run(f"Winning {unit} ({run.result['wins']:,} wins)", run.games, run.seed, _shown(run))
    if request.args.get("split") == "order":
        sides = run.result.get("by_turn_order") or {}
        turns = sorted({int(t) for side in sides.values() for t in side["win_turn"]["histogram"]})
        svg = charts.grouped(title, [str(t) for t in turns],
                             {f"going {name} ({side['games']:,} games)": [side["win_turn"]["histogram"].get(str(t), 0) for t in turns]
                              for name, side in sides.items()})
    else:
        svg = charts.bar(title, list(hist), list(hist.values()))
    return Response(svg, mimetype="image/svg+xml")


def _shown(run) -> str:
    """The settings a figure states: those a player chose away from the defaults."""
    chosen = [o for o in simulations.settings(run)["options"] if o["name"] in (run.options or {})]
    return ", ".join(f"{o['label']}: {o['shown']}" for o in chosen)[:160]


@bp.route("/tunings/<int:run_id>/impact.svg")
@login_required
def impact_chart(deck_id: int, run_id: int):
    run = _own_tuning(deck_id, run_id)
    if not run.result or "cards" not in run.result:
        abort(404, "No finished card impact run of yours has that number.")
    r = run.result
    unit = get_game(run.game).extras.get("turn_unit", "turn")
    svg = charts.intervals(charts.from_run("Each card's impact", r["games_played"], r["seed"],
                                           "one copy replaced by a blank"),
                           [c["card"] for c in r["cards"]], [c["delta"] for c in r["cards"]], unit)
    return Response(svg, mimetype="image/svg+xml")


# --------------------------------------------------------------------------- tuning

def _own_tuning(deck_id: int, run_id: int):
    deck_or_404(deck_id, mine=True)
    run = tunings.own_run(current_user.id, run_id, deck_id)
    if run is None:
        abort(404, "No such tuning run of yours.")
    return run


def _start_paired_run(deck_id: int, candidates: str, anchor: str):
    """Queue a tuning or a card impact run (both played as paired runs) from the form; the started
    run, or the page to go back to with the error."""
    stored = deck_or_404(deck_id, mine=True)
    engine = find_engine(get_game(stored.row.game))
    if engine is None:
        abort(404, "This game has no goldfish engine yet.")
    try:
        budget = int(request.form.get("budget") or tunings.DEFAULT_BUDGET)
        seed = int(request.form.get("seed") or random.SystemRandom().randrange(1, MAX_SEED))
        return tunings.start(current_user.id, stored.row, stored.version, budget, seed, options_from_form(engine),
                             candidates, bool(request.form.get("allow_unknown")))
    except ValueError as exc:
        flash(str(exc) if isinstance(exc, simulations.SimulationError) else "Budget and seed are whole numbers.", "error")
        return redirect(url_for("stats.show", deck_id=deck_id, _anchor=anchor))


@bp.route("/tunings", methods=["POST"])
@login_required
def start_tuning(deck_id: int):
    run = _start_paired_run(deck_id, request.form.get("candidates", "collection"), "tune")
    if isinstance(run, AnyResponse):
        return run
    flash(f"Tuning run #{run.id} started: {len(run.candidates):,} candidate cards, {run.total:,} games, seed {run.seed}.",
          "info")
    return redirect(url_for("stats.show", deck_id=deck_id, _anchor=f"tuning-{run.id}"))


@bp.route("/impacts", methods=["POST"])
@login_required
def start_impact(deck_id: int):
    """Queue a causal card impact run (stored and played as a tuning run is)."""
    run = _start_paired_run(deck_id, tunings.IMPACT, "impact")
    if isinstance(run, AnyResponse):
        return run
    flash(f"Card impact run #{run.id} started: {run.total:,} games, seed {run.seed}.", "info")
    return redirect(url_for("stats.show", deck_id=deck_id, _anchor=f"tuning-{run.id}"))


@bp.route("/tunings/<int:run_id>/cancel", methods=["POST"])
@login_required
def cancel_tuning(deck_id: int, run_id: int):
    run = tunings.cancel(current_user.id, _own_tuning(deck_id, run_id).id, deck_id)
    flash(f"Tuning run #{run.id} cancelled." if run.status == "cancelled"
          else f"Tuning run #{run.id} had already ended ({run.status}).", "info")
    return redirect(url_for("stats.show", deck_id=deck_id, _anchor=f"tuning-{run.id}"), code=303)


@bp.route("/tunings/<int:run_id>.json")
@login_required
def tuning_status(deck_id: int, run_id: int):
    run = _own_tuning(deck_id, run_id)
    return {"id": run.id, "status": run.status, "done": run.done, "games": run.total, "result": run.result,
            "waiting": tunings.job_status(run).waiting}
