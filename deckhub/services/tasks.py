"""Every queue task DeckHub has, registered by importing the services that define them.

The queue (`jobs`) knows no job: the app and the worker import this module, so a consumer knows
every task by name and the sweep knows how each kind recovers (`jobs.recoverer`).
"""
from deckhub.services import collection_imports, facts_uploads, simulations, trading, tunings  # noqa: F401 — they register their tasks
from deckhub.services.community import timers  # noqa: F401 — the hourly settling of disputes
