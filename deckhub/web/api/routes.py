"""The blueprints the API's resource modules add their routes to.

Their names are the routes' endpoint prefixes from before the API was one package (templates'
`url_for` and the tests' route tables name them): the catalogue is `api.*`, a user's own things and
the document `api_v1.*`, the stateless check `deck_api.api_check`; the completeness counts keep the
endpoint `facts.completeness` (see `completeness.add_to`).
"""
from __future__ import annotations

from flask import Blueprint

catalogue = Blueprint("api", __name__, url_prefix="/api")
own = Blueprint("api_v1", __name__, url_prefix="/api")
check = Blueprint("deck_api", __name__, url_prefix="/api")

BLUEPRINTS = (catalogue, own, check)
