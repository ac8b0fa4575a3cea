"""A server's process made ready before it takes its first request."""

from __future__ import annotations

import os
import time

from babel import Locale
from flask import Flask, url_for
from flask_babel import force_locale, get_translations
from sqlalchemy.orm import configure_mappers

from .assets import addresses


def warm_up(app: Flask) -> None:
    """Do what a new process's first requests would otherwise do while players wait (a few hundred milliseconds,
    holding up every request the process has then): every template compiled, the database models set up, every
    language's words and formats loaded, every static file read, minified, compressed and fingerprinted (a
    bundle's parts go out only within it: `assets.addresses`)."""
    started = time.monotonic()
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
    configure_mappers()
    with app.test_request_context():
        for language in app.config["LANGUAGES"]:
            with force_locale(language):
                get_translations()
            # How lists and dates are written in each language, which Babel reads from its data on first use.
            locale = Locale.parse(language)
            locale.list_patterns  # noqa: B018
            locale.date_formats  # noqa: B018
        files = addresses(app)
        for endpoint, filename in files:
            url_for(endpoint, filename=filename)
    app.logger.info("process %d ready: warmed up in %.2f s (%d templates, %d languages, %d static files)",
                    os.getpid(), time.monotonic() - started, len(app.jinja_env.list_templates()),
                    len(app.config["LANGUAGES"]), len(files))


def raise_open_files() -> int:
    """Let this process (and those it forks) open as many files as the system allows it: every connection is one,
    and a server's default of 1,024 fails with "Too many open files" under a thousand slow clients. The limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
