"""The game at the table: a hand as each browser may see it, seats, bids and results."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Response, current_app, request, url_for
from flask_babel import gettext
from sqlalchemy import select

from .. import forms, games, rules, service
from ..access import Actor, Role
from ..extensions import db
from ..live import Watcher
from ..models import Game, HandRecord, Phase, utcnow
from ..rules import Problem
from ..service import Intent, Results
from . import bp
from .labels import problems_by_player, say
from .rendering import not_yours, open_page, page, see_other
from .sessions import credentials, keep_seat_token, visitor


def load_game(public_id: str) -> Game:
    """The game of the URL, or NotFound (a 404 page)."""
    game = games.find_game(public_id)
    if game is None:
        raise service.NotFound(public_id)
    return game


def load_hand(game: Game, number: int) -> HandRecord:
    """Hand `number` of `game`, or NotFound."""
    if not 1 <= number <= len(game.hands):
        raise service.NotFound(number)
    return game.hands[number - 1]


def hand_view(game: Game, record: HandRecord, table: rules.Table, seen_by: Actor,
              problems: list[Problem] | None = None, form: Any = None) -> dict[str, Any]:
    """What the hand templates need to show one hand to `seen_by`, and nothing it may not see."""
    problems = problems or []
    hand = games.hand_of(game, record, shown_to=seen_by.seat)
    phase = record.phase
    provisional = rules.provisional_points(table, hand) if not phase.is_secret else {}
    remaining = (record.reveal_at - utcnow()).total_seconds() if phase == Phase.COUNTING else 0
    conflicts = not problems and phase == Phase.PLAYING
    if conflicts:
        # Entries that clash between players are kept; say why the hand cannot close, to those concerned.
        all_done = all(e.done for e in record.entries)
        problems = rules.validate_hand(table, record.number, hand, in_play=not all_done)
        if seen_by.role == Role.SEAT:
            me = table.players[seen_by.seat]
            problems = [p for p in problems if me in p.players or not p.players]
    context: dict[str, Any] = {
        "visitor": seen_by,
        "count_ms": max(0, int(remaining * 1000)),
        "game": game,
        "table": table,
        "record": record,
        "hand": hand,
        "dealer": table.players[rules.dealer_index(table, record.number)],
        "leader": table.players[rules.leader_index(table, record.number)],
        "hand_count": len(games.schedule(game, table)),
        "max_cards": rules.max_cards(table.ruleset, len(table.players)),
        "problems": [say(p) for p in problems],
        "problems_kept": conflicts,
        "player_problems": problems_by_player(problems, len(table.players)),
        "provisional": provisional,
        "lost_allowed": rules.lost_tricks_allowed(table),
        "form": form,
        "seats": game.seats,
        "bid_again": games.must_bid_again(game, record),
    }
    # Macros take the whole view as one value.
    context["view"] = context
    return context


TEMPLATES = {Role.HOST: "game.html", Role.SEAT: "phone.html", Role.VIEWER: "watch.html"}


def game_page(public_id: str, status: int = 200, problems: list[Problem] | None = None, form: Any = None):
    """The game as this browser may see it: host controls, a player's phone, or a viewer."""
    game = load_game(public_id)
    me = visitor(game)
    if problems and me.role == Role.VIEWER:
        # A viewer has no forms: whatever it sent was not its to send.
        return not_yours()
    record = games.current_hand(game)
    if record is None:
        return see_other(url_for("pages.end", public_id=public_id))
    table = games.table_of(game)
    context = hand_view(game, record, table, me, problems, form)
    return page(TEMPLATES[me.role], status, title=gettext("Hand %(number)d", number=record.number),
                **context, standings=games.standings(game), join_qr=join_qr(game) if me.is_host else "")


def join_qr(game: Game) -> str:
    """The join link as an inline SVG QR code."""
    return qr_svg(url_for("pages.join", public_id=game.public_id, _external=True))


@lru_cache(maxsize=1024)
def qr_svg(text: str) -> str:
    """`text` as an SVG QR code; kept, since the host's page is redrawn on every change."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")


def count_seconds() -> float:
    """How long every phone counts YO… HO… HO! before the bids show."""
    return float(current_app.config.get("REVEAL_COUNT_SECONDS", 3.0))


def after(outcome: service.Outcome, form: Any = None):
    """The answer to a change: back to the game, or the game again with the problems (422)."""
    if outcome.ok:
        return see_other(url_for("pages.game", public_id=outcome.public_id))
    return game_page(outcome.public_id, 422, list(outcome.problems), form)


@bp.get("/games/<public_id>")
def game(public_id: str):
    """The hand being played, as this browser may see it."""
    return game_page(public_id)


@bp.get("/games/<public_id>/events")
def events(public_id: str):
    """Server-sent events: the game's version whenever it changes, never its contents."""
    if not games.PUBLIC_ID.fullmatch(public_id):
        raise service.NotFound(public_id)
    row = db.session.execute(select(Game.id, Game.version).where(Game.public_id == public_id)).first()
    db.session.remove()
    if row is None:
        raise service.NotFound(public_id)
    watcher: Watcher = current_app.extensions["live_watcher"]
    response = Response(watcher.stream(row.id, row.version), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.route("/games/<public_id>/join", methods=["GET", "POST"])
def join(public_id: str):
    """Pick a free seat: this phone is that player from then on."""
    if request.method == "GET":
        game = load_game(public_id)
        if visitor(game).role != Role.VIEWER:
            return see_other(url_for("pages.game", public_id=public_id))
        return page("join.html", title=gettext("Join the game"), game=game, problems=[])
    parsed = forms.Parsed()
    position = forms.whole_number(request.form, "seat", parsed)
    outcome = service.join(public_id, credentials(public_id), position)
    if not outcome.ok:
        return page("join.html", 422, title=gettext("Join the game"), game=load_game(public_id),
                    problems=[say(p) for p in outcome.problems])
    keep_seat_token(public_id, outcome.secret)
    return open_page(url_for("pages.game", public_id=public_id))


@bp.post("/games/<public_id>/seats/<int:position>/free")
def free_seat(public_id: str, position: int):
    """The host frees a seat, so another phone (or the host) can play it."""
    return after(service.free_seat(public_id, credentials(public_id), position))


@bp.post("/games/<public_id>/hands/<int:number>/bid")
def bid(public_id: str, number: int):
    """Record a secret bid: a phone for its own seat, the host for a seat with no phone."""
    parsed = forms.Parsed()
    seat = forms.whole_number(request.form, "seat", parsed) if request.form.get("seat") else None
    value = forms.whole_number(request.form, "bid", parsed)
    if parsed.problems:
        return game_page(public_id, 422, parsed.problems)
    return after(service.place_bid(public_id, credentials(public_id), number, seat, value, count_seconds()))


@bp.post("/games/<public_id>/hands/<int:number>/cards")
def deal(public_id: str, number: int):
    """The host changes the cards dealt in a hand still being bid (a house rule)."""
    parsed = forms.Parsed()
    cards = forms.whole_number(request.form, "cards", parsed, hand=number)
    if parsed.problems:
        return game_page(public_id, 422, parsed.problems)
    return after(service.change_cards(public_id, credentials(public_id), number, cards))


@bp.route("/games/<public_id>/hands/<int:number>", methods=["GET", "POST"])
def hand(public_id: str, number: int):
    """A hand's results: entered by the phones and the host while played, corrected by the host once scored."""
    game = load_game(public_id)
    record = load_hand(game, number)
    me = visitor(game)
    table = games.table_of(game)
    if request.method == "GET":
        if record.phase != Phase.SCORED or not me.is_host:
            return see_other(url_for("pages.game", public_id=public_id))
        return page("hand.html", title=gettext("Hand %(number)d", number=number),
                    **hand_view(game, record, table, me))
    if request.form.get("intent") == "correct":
        if not me.is_host:
            # Only the host corrects; a phone is not shown a form it cannot use.
            raise service.NotAllowed()
        return correct(game, record, table)
    try:
        intent = Intent(request.form.get("intent", Intent.SCORE))
    except ValueError:
        intent = Intent.SCORE
    # A trick or "made my bid" carries no fields; the others carry a phone's own, or all for the host.
    seats: tuple[int, ...] = ()
    if intent in (Intent.DRAFT, Intent.DONE, Intent.SCORE):
        seats = tuple(range(len(table.players))) if me.is_host else (me.seat,) if me.seat is not None else ()
    parsed = forms.parse_results(request.form, table, number, seats)
    if parsed.problems:
        return game_page(public_id, 422, parsed.problems, request.form if me.is_host else None)
    outcome = service.record_results(public_id, credentials(public_id), number,
                                     Results(intent, parsed.reports, parsed.lost_tricks))
    if outcome.stale:
        # A late autosave or a second tap for a hand that has moved on: nothing to keep.
        return Response(status=204) if intent == Intent.DRAFT else see_other(url_for("pages.game", public_id=public_id))
    return after(outcome, request.form if me.is_host else None)


def correct(game: Game, record: HandRecord, table: rules.Table):
    """The host's correction of a scored hand; the pad follows."""
    public_id = game.public_id
    parsed = forms.parse_correction(request.form, table, record.number, record.cards)
    problems = parsed.problems
    if parsed.hand is not None:
        outcome = service.correct_hand(public_id, credentials(public_id), record.number, parsed.hand)
        if outcome.stale:
            return see_other(url_for("pages.game", public_id=public_id))
        if outcome.ok:
            return see_other(url_for("pages.pad", public_id=public_id))
        problems = list(outcome.problems)
    game = load_game(public_id)
    record = load_hand(game, record.number)
    return page("hand.html", 422, title=gettext("Hand %(number)d", number=record.number),
                **hand_view(game, record, table, visitor(game), problems, request.form))
