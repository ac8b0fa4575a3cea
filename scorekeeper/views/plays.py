"""The games whose plays the table keeps: their one screen and their taps.

Each game's `kind` module says what its screen shows and what a tap does; the table's
machinery (join, seats, the live stream, pad files) is the same for every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import current_app, request
from flask.typing import ResponseReturnValue
from jinja2_fragments.flask import render_block
from werkzeug.wrappers import Response

from .. import games, kinds, service
from ..access import VIEWER, Actor
from ..clock import epoch_ms
from ..i18n import gettext
from ..problems import N_, Problem
from . import bp
from .labels import say
from .pushed import PushedPage, card_fingerprint, host_card_parts
from .rendering import after, once_per_edition, open_page, page
from .sessions import credentials, follow_next_game, load_state, visitor

# A tap whose form the game's rules cannot read.
NOT_UNDERSTOOD = Problem(N_("The request could not be understood. Reload the page and try again."))

# The parts of a shelf game's screen that are the same for every viewer (each an element with its id).
SHARED_PARTS = ("table", "board")


@dataclass(frozen=True)
class ShelfGame:
    """A game of the shelf at one version as plain values: what its screens are drawn from."""

    kind: kinds.PlayedRules[Any, Any, Any]
    setup: Any
    closed: tuple[Any, ...]
    draft: Any
    version: int

    def secrets(self, state: games.GameState, actor: Actor) -> kinds.Secrets:
        """The open play's secret entries as `actor` may see them (`games.as_seen_by` decides)."""
        return games.secrets_seen_by(state, actor.seat, len(self.closed) + 1)

    def context(self, state: games.GameState, actor: Actor) -> dict[str, Any]:
        """What the kind shows `actor` (a browser's own card), or with `VIEWER` the whole table."""
        secrets = self.secrets(state, actor)
        context = self.kind.context(self.setup, list(self.closed), self.draft, actor, secrets)
        # Every tap names the game or round it was drawn for: one that comes late changes nothing. The moment a
        # running count ends is the table's, made by its one clock for every game's screen.
        return {**context, "kind": self.kind, "edition": state.edition, "play_number": len(self.closed) + 1,
                "reveal_ms": epoch_ms(secrets.reveal_at)}


def played(state: games.GameState) -> ShelfGame:
    """The game `state` is, as its rules read its plays (`games.plays_of`: once per version and process)."""
    read = games.plays_of(state)
    return ShelfGame(kinds.registered()[state.kind].played_rules, read.setup, read.closed, read.draft, read.version)


def shared_screen(found: ShelfGame, state: games.GameState) -> str:
    """The parts of a shelf game's screen that every viewer sees alike, rendered once per edition and language."""
    def render() -> str:
        context = found.context(state, VIEWER)
        return "".join(render_block(found.kind.TEMPLATE, block, game=state, **context) for block in SHARED_PARTS)

    return once_per_edition("shelf tables", state.id, state.edition, render)


def card_key(found: ShelfGame, state: games.GameState, me: Actor) -> str:
    """A fingerprint of what this browser's own card shows: its role, seat, the play it is drawn for and
    what the kind says the card holds; another player's change leaves it as it is."""
    card = found.kind.card_state(found.setup, list(found.closed), found.draft, me, found.secrets(state, me))
    return card_key_of(state, me, len(found.closed), card)


def card_key_of(state: games.GameState, me: Actor, closed: int, card: object) -> str:
    """The fingerprint of a browser's own card: its role, seat, the play it is drawn for (`closed` plays before it)
    and what the kind says the card holds (`card`)."""
    parts: tuple[object, ...] = (me.role, me.seat, closed, card)
    if me.is_host:
        # The host's card answers the phones asking for a seat, frees the seats of lost ones, locks the table.
        parts += host_card_parts(state)
    return card_fingerprint(parts)


def own_card(found: ShelfGame, state: games.GameState, me: Actor, key: str) -> str:
    """This browser's own card of a shelf game, as the stream sends it (`key`: its card key)."""
    context = found.context(state, me)
    return render_block(found.kind.TEMPLATE, "card", game=state, visitor=me, problems=[], card_key=key, **context)


def match_page(state: games.GameState, status: int = 200, problems: list[str] | None = None) -> Response:
    """The one screen of a shelf game (as read for this request): the shared table, this browser's own card, the
    leaderboard and the pad."""
    following = follow_next_game(state) if request.args.get("follow") else None
    if following and status == 200:
        # The host started the next game with these players: a phone that follows its link (pushed to every
        # screen, which follows it by itself) goes on to its seat there, no scan. Opened later, the old
        # game's screen stays, to look back at.
        return open_page(following)
    found = played(state)
    me = visitor(state)
    context = found.context(state, me)
    return page(found.kind.TEMPLATE, status, title=gettext(found.kind.TITLE), game=state, visitor=me,
                problems=problems or [], card_key=card_key(found, state, me), **context)


@bp.post("/games/<public_id>/play")
def play(public_id: str) -> ResponseReturnValue:
    """A tap on a shelf game's screen: who went out, cards left, a coffin."""
    state = load_state(public_id)
    change = played(state).kind.parse_change(request.form)
    if change is None:
        # Answered as every refusal is, by the game's own screen.
        return after(service.refusal(state, [NOT_UNDERSTOOD]))
    drawn_for = request.form.get("play", "")
    decide = service.by_rules(change, state.kind,
                              int(drawn_for) if drawn_for.isascii() and drawn_for.isdigit() else None)
    outcome = service.play(public_id, credentials(public_id), decide,
                           float(current_app.config.get("REVEAL_COUNT_SECONDS", 3.0)))
    # The one answer of every game's tap: the game as the change stored it (the screen it answers noted), or again
    # with what refused it, or with word that the table had moved on.
    return after(outcome)


def show_played(state: games.GameState, status: int = 200, problems: list[Problem] | None = None,
                **extra: Any) -> Response:
    """The one screen of a game whose plays the table keeps, with the problems of a refused change."""
    return match_page(state, status, [say(p) for p in problems or []])


# How the games whose plays the table keeps are shown and pushed: the same for every such kind.
PLAYED_PAGE = PushedPage(lambda state: shared_screen(played(state), state),
                         lambda state, me: card_key(played(state), state, me),
                         lambda state, me, key: own_card(played(state), state, me, key), show_played)
