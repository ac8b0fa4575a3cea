"""Skull King's hand page: the shared table and each browser's own card, bids, cannons, results and corrections."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app, request, url_for
from flask.typing import ResponseReturnValue
from jinja2_fragments.flask import render_block
from werkzeug.wrappers import Response

from ... import games, service
from ...access import Actor, Role, identify
from ...i18n import gettext
from ...kinds import Context, Form, Missing, game_folder
from ...views import plays
from ...views.pushed import PushedPage
from ...views.rendering import after, drawn_once, not_yours, page, see_other
from ...views.sessions import credentials, load_state, visitor
from . import NAME, changes, reading, shown
from .changes import Intent, Tap, TapKind
from .reading import HandState
from .rules import Problem
from .storage import Phase

# Skull King's own pages: the hand, its changes, the score pad, the end and the trick judge.
bp = game_folder("skull-king", __name__)


def load_hand(game: games.GameState, number: int) -> HandState:
    """Hand `number` of `game` as the whole table sees it, or NotFound."""
    hand = reading.seen_by(game, None).hand(number)
    if isinstance(hand, Missing):
        raise service.NotFound(number)
    return hand


# --- the shared table -------------------------------------------------------------------


def shared_context(state: games.GameState) -> Context:
    """What the whole table may see of a game at one edition, and nothing else.

    Built from the game as seen by no seat (`games.as_seen_by(state, None)`), so no hidden bid
    is in it: the same values, hence the same bytes, for every screen at the table.
    """
    seen = games.as_seen_by(state, None)
    context: Context = {"public_id": seen.public_id, "edition": seen.edition, "seats": seen.seats,
                        **shown.table_context(reading.seen_by(state, None))}
    # Macros take the whole view as one value.
    context["view"] = context
    return context


@dataclass(frozen=True)
class SharedTable:
    """The shared table, rendered in its three places on the page: the hand's facts above the
    browser's own card (`head`), the players and their bids below it (`table`), then the
    leaderboard (`board`)."""

    head: str
    table: str
    board: str

    def __str__(self) -> str:
        return self.head + self.table + self.board


def shared_table(state: games.GameState) -> SharedTable:
    """The shared table of a game at its edition in this language: rendered once, then the same bytes."""
    def draw() -> tuple[str, ...]:
        context = shared_context(state)
        standings = context["standings"]
        assert isinstance(standings, list)
        context["leaderboard"] = render_block("skullking/game.html", "leaderboard", standings=standings)
        return tuple(render_block("skullking/game.html", block, **context) for block in ("head", "table", "board"))

    return SharedTable(*drawn_once("shared tables", state.id, state.edition, draw))


# --- the own card -----------------------------------------------------------------------


def card_context(state: games.GameState, hand: HandState, seen_by: Actor,
                 problems: list[Problem] | None = None, form: Form | None = None) -> Context:
    """What this browser's own card shows of `hand`: its forms, and what only it may see; a refused `form` shown
    again (the host's as sent, a phone's result as it typed it)."""
    seen = games.as_seen_by(state, seen_by.seat)
    game = reading.seen_by(state, seen_by.seat)
    hand = game.hands[hand.number - 1]
    typed = None
    if form is not None and seen_by.seat is not None:
        typed = changes.typed_result(game, seen_by.seat, hand.number, form)
    context = shown.card_context(game, hand, seen_by, problems, typed)
    context.update(game=seen, phone_seats=[s.position for s in seen.seats if s.has_phone],
                   requests=seen.open_requests if seen_by.is_host else (),
                   form=form if seen_by.is_host else None)
    context["view"] = context
    return context


def card_key(state: games.GameState, seen_by: Actor) -> str:
    """A fingerprint of what this browser's card shows (the table's, from `reading.card_state`); it changes only when
    the card must be redrawn. Made from the game as this browser may see it (kept once a version and view), so it
    tells nothing of a hidden bid."""
    game = reading.seen_by(state, seen_by.seat)
    return plays.card_key_of(state, seen_by, len(game.hands) - (not game.finished), reading.card_state(game, seen_by))


def game_page(state: games.GameState, status: int = 200, problems: list[Problem] | None = None,
              form: Form | None = None) -> Response:
    """The game (as read for this request) as this browser may see it: the shared table, and its own card (host,
    phone or viewer)."""
    public_id = state.public_id
    me = identify(state, credentials(public_id))
    if problems and me.role == Role.VIEWER:
        # A viewer has no forms: whatever it sent was not its to send.
        return not_yours()
    hand = reading.seen_by(state, None).current
    if hand is None:
        return see_other(url_for("skull_king.end", public_id=public_id))
    context = card_context(state, hand, me, problems, form)
    return page("skullking/game.html", status, title=gettext("Hand %(number)d", number=hand.number),
                shared=shared_table(state), card_key=card_key(state, me), edition=state.edition, **context)


def count_seconds() -> float:
    """How long every phone counts YO… HO… HO! before the bids show."""
    return float(current_app.config.get("REVEAL_COUNT_SECONDS", 3.0))


def tapped(public_id: str, kind: TapKind, number: int) -> service.Outcome:
    """A tap on its pages through the table's one write path, as every game's (`service.by_rules`): its form read
    against the locked game (`changes.decide`); a count it starts runs the app's count."""
    tap = Tap(kind, number, request.form)
    return service.play(public_id, credentials(public_id), service.by_rules(tap, NAME), count_seconds())


@bp.post("/games/<public_id>/hands/<int:number>/bid")
def bid(public_id: str, number: int) -> ResponseReturnValue:
    """Record a secret bid: a phone for its own seat, the host for a seat with no phone."""
    return after(tapped(public_id, TapKind.BID, number))


@bp.post("/games/<public_id>/hands/<int:number>/load")
def load(public_id: str, number: int) -> ResponseReturnValue:
    """Load a cannon in secret (the cannonball rule): a phone its own, the host one of a player without a phone."""
    return after(tapped(public_id, TapKind.LOAD, number))


@bp.post("/games/<public_id>/hands/<int:number>/cards")
def deal(public_id: str, number: int) -> ResponseReturnValue:
    """The host changes the cards dealt in a hand still being bid (a house rule)."""
    return after(tapped(public_id, TapKind.CARDS, number))


@bp.route("/games/<public_id>/hands/<int:number>", methods=["GET", "POST"])
def hand(public_id: str, number: int) -> ResponseReturnValue:
    """A hand's results: entered by the phones and the host while played, corrected by the host once scored."""
    if request.method == "POST" and request.form.get("intent") != "correct":
        return results(public_id, number)
    game = load_state(public_id)
    hand = load_hand(game, number)
    me = visitor(game)
    if request.method == "GET":
        if hand.phase != Phase.SCORED or not me.is_host:
            return see_other(url_for("pages.game", public_id=public_id))
        return page("skullking/hand.html", title=gettext("Hand %(number)d", number=number),
                    **card_context(game, hand, me))
    if not me.is_host:
        # Only the host corrects; a phone is not shown a form it cannot use.
        raise service.NotAllowed()
    return correct(public_id, number)


def results(public_id: str, number: int) -> ResponseReturnValue:
    """Results of a hand in play, a phone's own or the host's for the players without a phone.

    The form is read against the locked game (the seats it may carry are those of the browser as the game knows it
    now), so a tap costs no read of the game before its write: a phone's results are most of a hand's taps.
    """
    outcome = tapped(public_id, TapKind.RESULTS, number)
    if outcome.stale and changes.results_of(request.form) == Intent.DRAFT:
        # A late autosave for a hand that has moved on: nothing to keep. (Any other tap that came after the hand
        # closed is answered by `after`, as every change's is: nothing applied, in words.)
        return Response(status=204)
    # Refused, the page shows the form again: the host's as sent, a phone's result as it typed it.
    return after(outcome, form=request.form)


def correct(public_id: str, number: int) -> ResponseReturnValue:
    """The host's correction of a scored hand; the pad follows."""
    outcome = tapped(public_id, TapKind.CORRECT, number)
    if outcome.stale:
        return see_other(url_for("pages.game", public_id=public_id))
    if outcome.ok:
        return see_other(url_for("skull_king.pad", public_id=public_id))
    game = load_state(public_id)
    hand = load_hand(game, number)
    return page("skullking/hand.html", 422, title=gettext("Hand %(number)d", number=hand.number),
                **card_context(game, hand, visitor(game), list(outcome.problems), request.form))


def own_card(state: games.GameState, me: Actor, key: str) -> str | None:
    """This browser's own card as the stream sends it; None once the game is over (the page moves to its end)."""
    hand = reading.seen_by(state, None).current
    if hand is None:
        return None
    return render_block("skullking/game.html", "card", card_key=key, edition=state.edition,
                        **card_context(state, hand, me))


# How the table shows a Skull King game and what its live stream pushes of it.
GAME_PAGE = PushedPage(lambda state: str(shared_table(state)), card_key, own_card, game_page)
