"""What a browser keeps between visits: the games it hosts and the seats it holds, in its session."""

from __future__ import annotations

from typing import Any

from flask import session

from ..access import Actor, Credentials, identify
from ..games import AnyGame

KEPT_GAMES = 20


def _remember(key: str, public_id: str, value: Any) -> None:
    """Keep `value` for a game in the session, for the newest games only."""
    kept = dict(session.get(key, {}))
    kept.pop(public_id, None)
    kept[public_id] = value
    session[key] = dict(list(kept.items())[-KEPT_GAMES:])
    session.permanent = True


def keep_host_token(public_id: str, token: str) -> None:
    """This browser runs the game from now on."""
    _remember("hosting", public_id, token)


def keep_seat_token(public_id: str, token: str) -> None:
    """This browser is the phone of a seat from now on."""
    _remember("seats", public_id, token)


def credentials(public_id: str) -> Credentials:
    """The secrets this browser holds for a game."""
    host_token = session.get("hosting", {}).get(public_id)
    seat_token = session.get("seats", {}).get(public_id)
    return Credentials(host_token if isinstance(host_token, str) else None,
                       seat_token if isinstance(seat_token, str) else None)


def visitor(game: AnyGame) -> Actor:
    """Who this browser is at `game`."""
    return identify(game, credentials(game.public_id))
