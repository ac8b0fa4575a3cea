"""What a browser keeps between visits: the games it hosts and the seats it holds, in its session."""

from __future__ import annotations

import secrets

from flask import request, session

from ..access import Actor, Credentials, identify
from ..games import AnyGame

KEPT_GAMES = 20


def client_address() -> str:
    """The client's address: behind a proxy, the one it reports (ProxyFix, by configuration)."""
    return (request.remote_addr or "unknown")[:48]


def browser_id() -> str:
    """A random name for this browser, kept in its session: what per-browser limits count by."""
    if not isinstance(session.get("browser"), str):
        session["browser"] = secrets.token_urlsafe(12)
    return session["browser"]


def _remember(key: str, public_id: str, value: str | None) -> None:
    """Keep `value` for a game in the session, for the newest games only (a change that gave no secret: nothing)."""
    if value is None:
        return
    kept = dict(session.get(key, {}))
    kept.pop(public_id, None)
    kept[public_id] = value
    session[key] = dict(list(kept.items())[-KEPT_GAMES:])
    session.permanent = True


def keep_host_token(public_id: str, token: str | None) -> None:
    """This browser runs the game from now on."""
    _remember("hosting", public_id, token)


def keep_seat_token(public_id: str, token: str | None) -> None:
    """This browser is the phone of a seat from now on."""
    _remember("seats", public_id, token)


def keep_asking_token(public_id: str, token: str | None) -> None:
    """This browser asked the host for a seat with this secret (the seat's own once let in)."""
    _remember("asking", public_id, token)


def credentials(public_id: str) -> Credentials:
    """The secrets this browser holds for a game."""
    def kept(key: str) -> str | None:
        value = session.get(key, {}).get(public_id)
        return value if isinstance(value, str) else None

    return Credentials(kept("hosting"), kept("seats"), kept("asking"))


def visitor(game: AnyGame) -> Actor:
    """Who this browser is at `game`."""
    return identify(game, credentials(game.public_id))
