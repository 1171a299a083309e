"""The `deckhub` command: serve the site, manage accounts and catalogues, check and play decks."""
from __future__ import annotations

import gc
import signal
import sys
from pathlib import Path

import click

from deckhub.games import all_games, find_octgn_reader, game_slugs, get_game


def open_app(config=None, *, current_schema: bool = True):
    """The app with its database initialised (commands share the site's database).

    With `current_schema` (every command but `serve`, `backup` and `db`) a database with schema
    steps pending stops the command with a message naming `deckhub db upgrade`: no command but
    that one (and `serve` on SQLite) changes the schema."""
    from deckhub import ConfigurationError, create_app
    try:
        app = create_app(config)
    except ConfigurationError as exc:
        raise click.ClickException(str(exc)) from None
    if current_schema:
        from deckhub.db import database
        from deckhub.store.schema import SchemaNotCurrent, backend, require_current
        try:
            require_current(database.obj)
        except SchemaNotCurrent as exc:
            also = (" On this SQLite database `deckhub serve` does it too, after a backup."
                    if backend(database.obj) == "sqlite" else "")
            raise click.ClickException(f"{exc}{also}") from None
    return app


def apply_upgrade(db, echo=click.echo, *, dry_run: bool = False, one_line: bool = False) -> int:
    """Apply the pending schema steps (or list them), say what was done, and reload the shipped
    catalogues as `load-cards` does once anything was applied; returns the catalogues' exit status.

    The catalogues are written under the upgrade's lock: a second process starting on the same old
    database waits until they are in, instead of writing them at the same time."""
    from peewee import OperationalError

    from deckhub.store.schema import UpgradeFailed, upgrade
    status = 0

    def refresh_catalogues(report) -> None:
        nonlocal status
        if report.backup:
            echo(f"Backed up the database to {report.backup}")
        if report.applied:
            echo(f"Applied {len(report.applied)} schema step{'s' if len(report.applied) != 1 else ''}: "
                 + ", ".join(report.applied))
            status = _load_games(game_slugs(), echo, one_line=one_line)
        else:
            if not one_line:  # a site's start says nothing about a schema that is already current
                echo("The database schema is current; nothing to apply.")
            status = ensure_catalogues(echo)

    try:
        report = upgrade(db, dry_run=dry_run, after_steps=refresh_catalogues)
    except (UpgradeFailed, OperationalError) as exc:
        raise click.ClickException(f"the schema upgrade stopped: {exc}") from None
    if dry_run:
        if report.pending:
            echo(f"Would apply {len(report.pending)} schema step{'s' if len(report.pending) != 1 else ''}: "
                 + ", ".join(report.pending))
        else:
            echo("The database schema is current; nothing to apply.")
    return status


@click.group(help=__doc__)
@click.version_option(package_name="deckhub")
def main() -> None:
    pass


def _store(read, what, warn=None):
    """Read one catalogue source and store it; on a bad record print every error, store nothing, return None.

    `warn` gets each note on how the source was read (a number printed twice, a spelling kept as an
    alias); None keeps them quiet, since they are facts about the sources, not problems to fix."""
    from deckhub.catalogue_store import store_catalogue
    from deckhub.importers import CatalogueFileError

    try:
        data = read()
    except CatalogueFileError as exc:
        for err in exc.errors:
            click.echo(str(err), err=True)
        click.echo(f"{what}: not loaded (fix the records above); nothing from it was written", err=True)
        return None
    if warn:
        for warning in data.warnings:
            warn(f"warning: {warning}")
    return data, store_catalogue(data)


def _notes_line(notes: int) -> str:
    return (f"{notes} note{'s' if notes != 1 else ''} on how the source data was read (e.g. a number printed "
            "for two cards), listed by `deckhub load-cards --verbose`")


def _load_games(games: list[str], echo=click.echo, verbose: bool = False, one_line: bool = False) -> int:
    """Load each game's shipped catalogue; a bad file is reported and nothing from it written.

    A line per game and one line counting the notes on the sources (each note with `verbose`);
    `one_line` (a site's first start) says it all in one line."""
    from deckhub.importers.catalogue import read_game_catalogue

    status = notes = cards = 0
    names = []
    for slug in games:
        result = _store(lambda: read_game_catalogue(slug), slug, echo if verbose else None)
        if result is None:
            status = 1
            continue
        data, stored = result
        notes += len(data.warnings)
        cards += len(data.cards)
        names.append(get_game(slug).name)
        if not one_line:
            printings = sum(len(c.printings) for c in data.cards)
            echo(f"{slug}: {len(data.cards)} cards, {printings} printings, {len(data.sets)} sets"
                 f" ({stored.cards_added} cards added, {stored.cards_updated} updated, {stored.printings_added} printings added)")
    if one_line and names:
        echo(f"Loaded the catalogues of {', '.join(names)}: {cards:,} cards"
             + (f"; {_notes_line(notes)}" if notes and not verbose else ""))
    elif notes and not verbose:
        echo(_notes_line(notes))
    return status


def ensure_catalogues(echo=click.echo) -> int:
    """Load every game whose catalogue is not in the database yet (first start of a site), in one
    line; returns the loading's exit status."""
    from deckhub.catalogue_store import catalogue_is_loaded
    missing = [slug for slug in game_slugs() if not catalogue_is_loaded(slug)]
    return _load_games(missing, echo, one_line=True) if missing else 0


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--workers", default=0, type=click.IntRange(0, 64),
              help="Serve with gunicorn and this many worker processes (production). 0: the built-in server.")
def serve(host: str, port: int, workers: int) -> None:
    """Create or upgrade the SQLite database if needed (after a backup), load missing catalogues, and serve the site.

    With --workers (or DECKHUB_ENV=production) the site runs in production mode: it needs a secret key from the
    environment (DECKHUB_SECRET_KEY or DECKHUB_SECRET_KEY_FILE), sends cookies over HTTPS only, and refuses to
    start while schema steps are pending (run `deckhub db upgrade`), as it does on PostgreSQL."""
    if workers:
        _metrics_directory()
    app = ready_to_serve({"PRODUCTION": True} if workers else None)
    # The catalogues and search indexes just built live as long as the process; frozen, the cyclic
    # garbage collector stops walking them: a full collection took 80-110 ms, stopping every thread
    # of a worker (it was most of the slowest requests under load), and now takes next to nothing.
    gc.collect()
    gc.freeze()
    from deckhub import jobs
    jobs.before_fork()  # a forked worker must not share the parent's database or queue connections
    click.echo(f"DeckHub is running on http://{host}:{port}/ (Ctrl+C stops it)")
    if workers:
        click.echo("Production mode starts no queue worker: run `deckhub worker` beside it (see the README).")
        _gunicorn(app, host, port, workers)
        return
    consumer = _start_consumer(app.config["QUEUE_URL"])
    # `kill PID`, a service manager or a closed terminal stop the site as Ctrl+C does, so the
    # `finally` below stops its worker too (SIGKILL cannot be caught: the worker watches for that)
    before = {signum: signal.signal(signum, signal.default_int_handler) for signum in (signal.SIGTERM, signal.SIGHUP)}
    try:
        app.run(host=host, port=port, threaded=True, use_reloader=False)
    except KeyboardInterrupt:
        pass
    finally:
        if consumer is not None:
            _stop_consumer(consumer)
        for signum, handler in before.items():
            signal.signal(signum, handler)


def ready_to_serve(config=None):
    """`serve`'s start-up up to listening: the app, its schema upgraded or checked, its catalogues
    loaded and built (once here, inherited by every worker: no first-request stall). Safe to run
    in many processes started at once on one database."""
    app = open_app(config, current_schema=False)
    from deckhub.catalogue_store import warm_catalogues
    from deckhub.db import database
    upgrade_before_serving(app, database.obj)
    with database.connection_context():
        warm_catalogues()
    return app


def upgrade_before_serving(app, db) -> None:
    """The laptop case (the embedded database, development mode) upgrades a pending schema here,
    after a backup, and loads missing catalogues, both under the upgrade lock, so two sites started
    at once on one old database take turns; production and PostgreSQL sites are upgraded by their
    operator, so they stop on a pending schema, and load missing catalogues under the same lock."""
    from deckhub.store.schema import SchemaNotCurrent, backend, pending, upgrade_lock
    if app.config["PRODUCTION"] or backend(db) != "sqlite":
        with db.connection_context(), upgrade_lock(db):
            steps = pending(db)
            if steps:
                why = "in production mode" if app.config["PRODUCTION"] else "on PostgreSQL"
                raise click.ClickException(f"{SchemaNotCurrent(steps)} `deckhub serve` does not upgrade {why}.")
            status = ensure_catalogues()
    else:
        status = apply_upgrade(db, one_line=True)
    if status:
        raise click.ClickException("a shipped catalogue could not be loaded (see above)")


def _metrics_directory() -> None:
    """Where gunicorn's worker processes keep their request metrics, so /metrics adds them all up:
    PROMETHEUS_MULTIPROC_DIR if the operator set it, else instance/prometheus/. Emptied here, at the
    server's start, before prometheus_client is imported (it reads the variable once)."""
    import os
    import shutil

    from flask import Flask
    path = os.environ.get("PROMETHEUS_MULTIPROC_DIR") or os.path.join(Flask("deckhub").instance_path, "prometheus")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path, exist_ok=True)
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = path


def _start_consumer(queue_url: str):
    """One `deckhub worker` process beside the development server, so one command runs everything.

    On Linux the kernel sends it SIGTERM if serve dies without a word (SIGKILL, a crash), so a worker
    never outlives the site that started it and goes on taking jobs."""
    import ctypes
    import os
    import subprocess
    if queue_url == "immediate":
        return None
    env = {**os.environ, "DECKHUB_QUEUE_URL": queue_url}
    parent = os.getpid()
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux: the signal handlers in serve are all there is
        prctl = None

    def die_with_parent():
        prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # serve died before the line above took effect
            os._exit(0)

    return subprocess.Popen([sys.executable, "-m", "deckhub.cli", "worker", "--workers", "1"], env=env,
                            preexec_fn=die_with_parent if prctl else None)


def _stop_consumer(consumer) -> None:
    """Stop serve's worker as Ctrl+C would (SIGINT: it finishes the task at hand), then firmly."""
    import subprocess
    for stop, wait in ((signal.SIGINT, 10), (signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        if consumer.poll() is not None:
            return
        consumer.send_signal(stop)
        try:
            consumer.wait(wait)
            return
        except subprocess.TimeoutExpired:
            continue


@main.command()
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (each plays simulation chunks on its own core).")
@click.option("--nice", default=10, show_default=True, type=click.IntRange(0, 19),
              help="Lower the workers' CPU priority by this much, so page requests on the same machine come first.")
def worker(workers: int, nice: int) -> None:
    """Run queue workers: simulations and collection imports (DECKHUB_QUEUE_URL picks the queue).

    Runs on the site's machine or any other that reaches the same database and queue."""
    import os
    app = open_app()
    from deckhub import jobs
    if app.config["QUEUE_URL"] == "immediate":
        raise click.ClickException("DECKHUB_QUEUE_URL=immediate runs tasks inside the site; there is nothing to consume")
    if nice:
        os.nice(nice)
    click.echo(f"DeckHub worker: {workers} process(es) on {jobs.queue_url()} (Ctrl+C stops it)")
    jobs.run_consumer(workers)


# gunicorn's default access line, and the request id DeckHub sent back (the id on the request's other lines)
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" request_id=%({x-request-id}o)s'


def _gunicorn(app, host: str, port: int, workers: int) -> None:
    """Run the app under gunicorn's pre-fork server; each worker opens its own connections."""
    from gunicorn.app.base import BaseApplication

    class DeckHubServer(BaseApplication):
        def load_config(self):
            from deckhub import logs, metrics
            for key, value in {"bind": f"{host}:{port}", "workers": workers, "threads": 4,
                               "worker_class": "gthread", "accesslog": "-", "timeout": 60,
                               "access_log_format": ACCESS_LOG_FORMAT, "logconfig_dict": logs.gunicorn_logconfig(),
                               "child_exit": lambda _server, worker: metrics.worker_exited(worker.pid)}.items():
                self.cfg.set(key, value)

        def load(self):
            return app

    DeckHubServer().run()


@main.group()
def user() -> None:
    """Manage accounts."""


@user.command("add")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@click.option("--curator", is_flag=True, help="The account may review community card facts.")
def user_add(name: str, password_stdin: bool, curator: bool) -> None:
    """Create an account from the command line."""
    from deckhub.accounts import AccountError, create_user
    from deckhub.db import database

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    open_app()
    with database.connection_context():
        try:
            account = create_user(name, password, curator=curator)
        except AccountError as exc:
            raise click.ClickException(str(exc)) from None
    click.echo(f"created {account.username}" + (" (curator)" if account.is_curator else ""))


@user.command("password")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="Read the new password from standard input.")
def user_password(name: str, password_stdin: bool) -> None:
    """Set an account's password (an account imported without one cannot log in until then)."""
    from deckhub.accounts import AccountError, find_user, set_password
    from deckhub.db import database

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("New password", hide_input=True, confirmation_prompt=True)
    open_app()
    with database.connection_context():
        account = find_user(name)
        if account is None:
            raise click.ClickException(f"no user named {name!r}")
        try:
            set_password(account, password)
        except AccountError as exc:
            raise click.ClickException(str(exc)) from None
    click.echo(f"password set for {account.username}; their other sessions were signed out")


@main.command("load-cards")
@click.argument("game", required=False, type=click.Choice(game_slugs()))
@click.option("--octgn", "octgn_files", multiple=True, type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Load an OCTGN set XML file (of the one game that has them, unless GAME says which).")
@click.option("--verbose", is_flag=True, help="Print each note on how the source data was read.")
def load_cards(game: str | None, octgn_files: tuple[Path, ...], verbose: bool) -> None:
    """(Re)load catalogues from data/ (running it twice changes nothing), or an OCTGN set file."""
    from deckhub.db import database
    from deckhub.importers.catalogue import read_octgn_files

    open_app()
    with database.connection_context():
        if octgn_files:
            slug = game or _octgn_game()
            status = 0
            for path in octgn_files:
                result = _store(lambda: read_octgn_files(slug, [path]), path, click.echo if verbose else None)
                if result is None:
                    status = 1
                    continue
                data, stored = result
                click.echo(f"{path.name}: {len(data.cards)} cards; {stored.cards_added} cards and "
                           f"{stored.printings_added} printings added to {slug}")
                if data.warnings and not verbose:
                    click.echo(_notes_line(len(data.warnings)))
            sys.exit(status)
        sys.exit(_load_games([game] if game else game_slugs(), verbose=verbose))


def _octgn_game() -> str:
    """The game whose OCTGN set files `load-cards --octgn` reads when no GAME is named."""
    readers = [g.slug for g in all_games() if find_octgn_reader(g)]
    if len(readers) != 1:
        raise click.UsageError(f"name the GAME of the set files: {', '.join(readers) or 'no game'} reads them")
    return readers[0]


@main.command("build-data")
@click.argument("shared", type=click.Path(exists=True, file_okay=False, path_type=Path), default=Path("../shared/data"))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write the catalogues (default: the project's data/).")
def build_data(shared: Path, out: Path | None) -> None:
    """Convert the raw card facts (../shared/data) into the project's data/ catalogues."""
    from deckhub.importers.catalogue import data_root
    from deckhub.importers.sources import build_data as build
    for game, warnings in build(shared, out or data_root()).items():
        click.echo(f"{game}: written" + (f" ({len(warnings)} warnings)" if warnings else ""))
        for w in warnings:
            click.echo(f"  warning: {w}")


def _register_area_commands() -> None:
    """Commands that live beside the areas they serve (decks, engines, collections)."""
    from deckhub.commands.backup import backup, export_user, import_user
    from deckhub.commands.check import check
    from deckhub.commands.collection import collection
    from deckhub.commands.db import db
    from deckhub.commands.export_cards import export_cards
    from deckhub.commands.facts import facts
    from deckhub.commands.goldfish import coverage, goldfish
    from deckhub.commands.simulate import simulate
    from deckhub.commands.tune import tune
    for command in (check, collection, goldfish, coverage, simulate, tune, export_user, import_user, backup, export_cards,
                    facts, db):
        main.add_command(command)


_register_area_commands()

if __name__ == "__main__":
    main()
