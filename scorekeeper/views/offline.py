"""The phone without the network: the service worker that keeps the app's static files and its offline page, and
that page. A service worker runs only over HTTPS or on this computer (localhost); elsewhere the app works as without
it (docs/hosting.md)."""

from __future__ import annotations

import hashlib

from flask import Response, render_template, url_for
from flask.typing import ResponseReturnValue

from ..i18n import gettext
from . import bp
from .labels import FRAME_SCRIPT
from .rendering import page

# What every page's frame loads (base.html), kept by the service worker at its install; a game's own files are kept
# the first time a page uses them. Every address names its content (`?v=`), so a kept file is never stale.
FRAME_FILES = ("app.css", FRAME_SCRIPT, "icon.svg", "icon-192.png", "manifest.webmanifest", "offline.js")
# The offline page's own script: it opens the page asked for again once the table answers.
OFFLINE_ASSETS = (("static", "offline.js"),)


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, at the top of the site so it may answer for every page; a new file (a new version) when
    any file it keeps changes."""
    kept = [url_for("static", filename=name) for name in FRAME_FILES]
    version = hashlib.sha256(" ".join(kept).encode()).hexdigest()[:16]
    script = render_template("sw.js", kept=kept, offline=url_for("pages.offline"), version=version,
                             static=url_for("static", filename=""))
    response = Response(script, mimetype="text/javascript")
    # Asked for again at every visit: a new release reaches the phones at once.
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/offline")
def offline() -> ResponseReturnValue:
    """The page the service worker shows when a page cannot be reached: in the phone's language, the taps still
    waiting above it (the page script lists them), and the page asked for opened again once the table answers."""
    return page("offline.html", title=gettext("The table cannot be reached"), page_assets=OFFLINE_ASSETS)
