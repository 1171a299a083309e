"""`deckhub serve` and `deckhub worker`: run the site, and the queue workers that play its jobs."""
from __future__ import annotations

import gc
import signal
import sys

import click

from deckhub.commands.site import open_app, say_error


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
@click.option("--workers", default=0, type=click.IntRange(0, 64),
              help="Serve with gunicorn and this many worker processes (production). 0: the built-in server.")
@click.option("--threads", default=1, show_default=True, type=click.IntRange(1, 64),
              help="With --workers: the requests each worker process serves at once. Pages cost CPU, not waiting, "
                   "when the database is on this machine: add processes rather than threads; threads help when "
                   "each statement waits on a network.")
def serve(host: str, port: int, workers: int, threads: int) -> None:
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
    from deckhub.services import jobs
    jobs.before_fork()  # a forked worker must not share the parent's database or queue connections
    click.echo(f"DeckHub is running on http://{host}:{port}/ (Ctrl+C stops it)")
    if workers:
        click.echo("Production mode starts no queue worker: run `deckhub worker` beside it (see the README).")
        _gunicorn(app, host, port, workers, threads)
        return
    consumer = _start_consumer(app.config["QUEUE_URL"])
    # `kill PID`, a service manager or a closed terminal stop the site as Ctrl+C does, so the
    # `finally` below stops its worker too (SIGKILL cannot be caught: the worker watches for that).
    # Ctrl+C itself is set too: a shell starting serve in the background passes SIGINT on ignored.
    before = {signum: signal.signal(signum, signal.default_int_handler)
              for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
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
    from deckhub.services.catalogue_store import warm_catalogues
    from deckhub.services.upgrades import UpgradeError, upgrade_before_serving
    from deckhub.store.db import database
    app = open_app(config, current_schema=False)
    try:
        upgrade_before_serving(database.obj, app.config["PRODUCTION"], click.echo, say_error)
    except UpgradeError as exc:
        raise click.ClickException(str(exc)) from None
    with database.connection_context():
        warm_catalogues()
    return app


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


@click.command()
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Worker processes (each plays simulation chunks on its own core).")
@click.option("--nice", default=10, show_default=True, type=click.IntRange(0, 19),
              help="Lower the workers' CPU priority by this much, so page requests on the same machine come first.")
def worker(workers: int, nice: int) -> None:
    """Run queue workers: simulations and collection imports (DECKHUB_QUEUE_URL picks the queue).

    Runs on the site's machine or any other that reaches the same database and queue."""
    import os
    app = open_app()
    from deckhub.services import jobs
    if app.config["QUEUE_URL"] == "immediate":
        raise click.ClickException("DECKHUB_QUEUE_URL=immediate runs tasks inside the site; there is nothing to consume")
    if nice:
        os.nice(nice)
    click.echo(f"DeckHub worker: {workers} process(es) on {jobs.queue_url()} (Ctrl+C stops it)")
    jobs.run_consumer(workers)


# gunicorn's default access line, and the request id DeckHub sent back (the id on the request's other lines)
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" request_id=%({x-request-id}o)s'


def _gunicorn(app, host: str, port: int, workers: int, threads: int) -> None:
    """Run the app under gunicorn's pre-fork server; each worker opens its own connections. The
    threaded worker keeps idle keep-alive connections in its poller, so one thread a process still
    serves many clients; more threads in one process contend for its interpreter lock each time a
    statement returns (on PostgreSQL under load, 4 threads cost 5-30 % more CPU a page than 1)."""
    from gunicorn.app.base import BaseApplication

    class DeckHubServer(BaseApplication):
        def load_config(self):
            from deckhub import logs
            from deckhub.services import metrics
            for key, value in {"bind": f"{host}:{port}", "workers": workers, "threads": threads,
                               "worker_class": "gthread", "accesslog": "-", "timeout": 60,
                               "access_log_format": ACCESS_LOG_FORMAT, "logconfig_dict": logs.gunicorn_logconfig(),
                               "child_exit": lambda _server, worker: metrics.worker_exited(worker.pid)}.items():
                self.cfg.set(key, value)

        def load(self):
            return app

    DeckHubServer().run()
