"""What every answer tells the browser about itself (no inline code, no framing, no leaking links), and which
writes it takes: only from the app's own pages."""

from __future__ import annotations

import copy
import time
from typing import Any
from urllib.parse import urlsplit

import brotli
from flask import Flask, Request, Response, current_app, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from flask_wtf.csrf import CSRFError
from itsdangerous import BadSignature

from ..games import VersionCache

# Pages load their scripts and styles from static/ only; nothing inline runs.
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
))


class SessionCookies(SecureCookieSessionInterface):
    """The session cookie: Secure whenever the page came over HTTPS (seen through ProxyFix); its 30 days counted
    afresh when a page is opened, not with every tap or live stream (signing and sending it again there was a
    share of each tap's work for nothing: the page the phone opened had just set it). So a phone sends the same
    cookie with each of its taps, and a cookie this process has checked already is taken as it read it then:
    checking the signature and decoding it again cost 140 µs here, more than the tap's reading of the game. Only
    the exact cookie that passed is kept, with the moment it was signed: it expires as it would have."""

    def __init__(self) -> None:
        self.read = VersionCache(4096)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """The browser's session, from its cookie (checked once per process)."""
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return super().open_session(app, request)
        max_age = int(app.permanent_session_lifetime.total_seconds())
        kept: tuple[dict[str, Any], float] | None = self.read.get(value)
        if kept is None:
            serializer = self.get_signing_serializer(app)
            if serializer is None:
                return None
            try:
                data, signed_at = serializer.loads(value, max_age=max_age, return_timestamp=True)
            except BadSignature:
                return self.session_class()
            kept = (data, signed_at.timestamp())
            self.read.put(value, kept)
        elif not 0 <= time.time() - kept[1] <= max_age:
            return self.session_class()
        # A copy: a request may change its session, never the one kept.
        return self.session_class(copy.deepcopy(kept[0]))

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """Set when changed, or when a page (not a live stream) is opened."""
        if session.modified:
            return True
        opened_page = request.method == "GET" and request.endpoint != "pages.events"
        return bool(session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"] and opened_page)


def protect(response: Response) -> Response:
    """Headers for every answer: pages, fragments, files, streams and errors alike."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # Join and host links carry secrets: they are never sent to another site.
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.vary.add("HX-Request")
    # The app's own answer, told apart from a proxy's page: a tap waits until it has one (static/app/taps.js).
    response.headers["X-Scorekeeper-Answer"] = "1"
    if request.blueprint is not None and "Cache-Control" not in response.headers:
        # A page or event of the table or of any game (each a Blueprint; static files are none) may carry a
        # player's own card (a bid still secret): no cache keeps it,
        # not the browser's (a shared phone's back button) nor one on the way.
        response.headers["Cache-Control"] = "no-store"
    if request.is_secure and current_app.config.get("TRUSTED_PROXIES"):
        # Served over HTTPS behind a proxy that says so: the browser comes back over HTTPS only.
        response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response


# A write's answer (a few kilobytes a phone waits for) at brotli's quality 3: 0.13 ms here for a hand's answer of
# 6 KB against 0.32 ms at the pages' 5, for 10 % more bytes; a page opened keeps Flask-Compress's 5 (its first load
# counts). Quality 1 would halve it again for 20 % more.
ANSWER_QUALITY = 3


def compress_answer(response: Response) -> Response:
    """A write's answer (a refusal drawn as its page too: Flask-Compress leaves a 422 plain) compressed for a browser
    that takes brotli, at the answers' quality; everything else is left to Flask-Compress (which leaves a compressed
    answer as it is)."""
    answered = 200 <= response.status_code < 300 or response.status_code == 422
    if (request.method in ("GET", "HEAD") or not answered or response.is_streamed
            or response.mimetype != "text/html" or "Content-Encoding" in response.headers
            or not request.accept_encodings["br"]):
        return response
    data = response.get_data()
    if len(data) < current_app.config["COMPRESS_MIN_SIZE"]:
        return response
    response.set_data(brotli.compress(data, quality=ANSWER_QUALITY))
    response.headers["Content-Encoding"] = "br"
    response.vary.add("Accept-Encoding")
    return response


def same_origin() -> None:
    """A write comes from a page of this site: its `Origin`, else its `Referer`, names this host (a browser sends one
    of them with every form and fetch). Besides the CSRF token: a page elsewhere that somehow holds a token still
    cannot write. A client that sends neither (the import API from a script) is judged by its token alone."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    origin = request.headers.get("Origin")
    sent_from = origin if origin is not None else request.headers.get("Referer")
    if sent_from is None:
        return
    if urlsplit(sent_from).netloc != request.host:
        raise CSRFError("The write did not come from a page of this site.")


def init_app(app: Flask) -> None:
    """Take writes from the app's own pages only; set the headers on every answer, and the session cookie's flags."""
    app.before_request(same_origin)
    # Flask's default is None (no attribute): Lax keeps the cookie off other sites' posts.
    app.config["SESSION_COOKIE_SAMESITE"] = app.config.get("SESSION_COOKIE_SAMESITE") or "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.session_interface = SessionCookies()
    app.after_request(protect)
    # After Flask-Compress's is registered: runs before it.
    app.after_request(compress_answer)
