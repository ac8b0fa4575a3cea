"""The pages of the app: thin views that parse, call the rules, store and render."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import secrets
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache
from typing import Any, Sequence

from babel.lists import format_list
from flask import (Blueprint, Flask, Response, abort, current_app, jsonify, make_response, redirect,
                   render_template, request, session, url_for)
from flask_babel import get_locale, gettext
from flask_wtf.csrf import CSRFError
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import HTTPException
from jinja2_fragments.flask import render_block

from . import forms, games, rules
from .extensions import csrf, db, write_transactions
from .live import Watcher
from .models import Game, HandRecord, JoinAttempt, utcnow
from .pad import PadError, load_pad
from .rules import Problem

bp = Blueprint("pages", __name__)


# --- helpers --------------------------------------------------------------------------


def is_htmx() -> bool:
    """Whether htmx asked for this page (and wants only its main block)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-History-Restore-Request")


def page(template: str, status: int = 200, **context: Any) -> Response:
    """The whole page, or for htmx just its `main` block."""
    if is_htmx():
        response = make_response(render_block(template, "main", fragment=True, **context), status)
        if request.method != "GET":
            # A refused form shows its page again; the address stays that of the page.
            response.headers["HX-Push-Url"] = "false"
        return response
    return make_response(render_template(template, **context), status)


def join_names(names: Sequence[str]) -> str:
    """Names joined as a sentence in the reader's language."""
    if not names:
        return ""
    return format_list(list(names), locale=str(get_locale() or "en"))


def say(problem: Problem) -> str:
    """A problem as a sentence in the reader's language."""
    return problem.message(translate=gettext, join=join_names)


def problems_by_player(problems: list[Problem], seated: int) -> dict[str, list[str]]:
    """Each player's problems, so a screen can show them next to that player.

    A problem that concerns the whole table is only shown once, above everyone.
    """
    found: dict[str, list[str]] = {}
    for problem in problems:
        if len(problem.players) >= seated:
            continue
        for player in problem.players:
            found.setdefault(player, []).append(say(problem))
    return found


def get_game(public_id: str) -> Game:
    """The game of the URL, or 404."""
    game = games.find_game(public_id)
    if game is None:
        abort(404)
    return game


def get_hand(game: Game, number: int) -> HandRecord:
    """Hand `number` of `game`, or 404."""
    if not 1 <= number <= len(game.hands):
        abort(404)
    return game.hands[number - 1]


def see_other(url: str) -> Response:
    """Redirect after a change, so reloading never repeats it."""
    return redirect(url, code=303)


HOST, SEAT, VIEWER = "host", "seat", "viewer"
KEPT_GAMES = 20


@dataclass(frozen=True)
class Visitor:
    """Who is looking at a game: its host, a seated phone, or a viewer."""

    role: str
    seat: int | None = None

    @property
    def is_host(self) -> bool:
        return self.role == HOST


def token_hash(token: str) -> str:
    """What is stored of a seat's secret: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def remember(key: str, public_id: str, value: Any) -> None:
    """Keep `value` for a game in the session, for the newest games only."""
    kept = dict(session.get(key, {}))
    kept.pop(public_id, None)
    kept[public_id] = value
    session[key] = dict(list(kept.items())[-KEPT_GAMES:])
    session.permanent = True


def make_host(game: Game) -> None:
    """This browser runs the game from now on."""
    remember("hosting", game.public_id, game.host_token)


def visitor(game: Game) -> Visitor:
    """The role of this browser at `game`, from its session."""
    host_token = session.get("hosting", {}).get(game.public_id)
    if isinstance(host_token, str) and hmac.compare_digest(host_token.encode(), game.host_token.encode()):
        return Visitor(HOST)
    seat_token = session.get("seats", {}).get(game.public_id)
    if seat_token:
        digest = token_hash(seat_token)
        for seat in game.seats:
            if seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return Visitor(SEAT, seat.position)
    return Visitor(VIEWER)


def refuse(message: str, status: int = 403):
    """A refusal in words, as a page (or its main block for htmx)."""
    return page("error.html", status, title=gettext("Sorry"), message=message)


def not_yours():
    """Refuse a write to an entry that belongs to another phone."""
    return refuse(gettext("Only that player's own phone or the host can change this."))


def locked_game(public_id: str) -> Game:
    """The game of the URL, locked for writing until commit, or 404."""
    game = games.find_game(public_id, for_update=True)
    if game is None:
        abort(404)
    return game


def reveal_when_due(game: Game) -> Game:
    """If a YO-HO-HO count has run out, show the bids now (in a write transaction)."""
    if not games.reveal_is_due(game):
        return game
    public_id = game.public_id
    db.session.rollback()
    write_transactions()
    game = locked_game(public_id)
    games.reveal_if_due(game)
    db.session.commit()
    return game


def hand_view(game: Game, record: HandRecord, table: rules.Table, problems: list[Problem] | None = None,
              form: Any = None, seen_by: Visitor | None = None) -> dict[str, Any]:
    """What the hand templates need to show one hand."""
    problems = problems or []
    seen_by = seen_by or Visitor(HOST)
    hand = games.hand_of(game, record, shown_to=seen_by.seat)
    secret = record.phase in games.SECRET_PHASES
    provisional = rules.provisional_points(table, hand) if not secret else {}
    remaining = (record.reveal_at - utcnow()).total_seconds() if record.reveal_at else 0
    conflicts = not problems and record.phase == games.PLAYING
    if conflicts:
        # Entries that clash between players are kept; say why the hand cannot close, to those concerned.
        all_done = all(e.done for e in record.entries)
        problems = rules.validate_hand(table, record.number, hand, in_play=not all_done)
        if seen_by.role == SEAT:
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
    }
    # Macros take the whole view as one value.
    context["view"] = context
    return context


# --- start, new game, import ----------------------------------------------------------


def count_seconds() -> float:
    """How long every phone counts YO… HO… HO! before the bids show."""
    return float(current_app.config.get("REVEAL_COUNT_SECONDS", 3.0))


@bp.get("/")
def index():
    """The start page: begin a new game, join one, or bring one in from a pad file."""
    return page("index.html", title=gettext("Skull King scorekeeper"))


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    """The new-game form; a valid table starts the game at hand 1, run by this browser."""
    if request.method == "GET":
        return page("new_game.html", title=gettext("New game"), form=None, problems=[],
                    rounds=rules.ROUND_STRUCTURES)
    parsed = forms.parse_new_game(request.form)
    if parsed.table is None:
        return page("new_game.html", 422, title=gettext("New game"), form=request.form,
                    problems=[say(p) for p in parsed.problems], rounds=rules.ROUND_STRUCTURES)
    game = games.create_game(parsed.table)
    db.session.commit()
    make_host(game)
    return see_other(url_for("pages.game", public_id=game.public_id))


@bp.post("/games/import")
@csrf.exempt
def import_game():
    """Bring in a pad file: JSON answers 201 or 422; a file upload answers with pages."""
    if request.is_json:
        try:
            pad = load_pad(request.get_data(), check=True)
        except PadError as error:
            return jsonify(problems=[say(p) for p in error.problems]), 422
        game = games.import_pad(pad)
        db.session.commit()
        url = url_for("pages.game", public_id=game.public_id, _external=True)
        host_url = url_for("pages.host", public_id=game.public_id, token=game.host_token, _external=True)
        response = jsonify(url=url, host_url=host_url)
        response.status_code = 201
        response.headers["Location"] = url
        return response
    # A browser form: JSON posts cannot come from another site's form, uploads can.
    if current_app.config.get("WTF_CSRF_ENABLED", True):
        csrf.protect()
    upload = request.files.get("pad")
    if upload is None or not upload.filename:
        problems = [gettext("Choose a pad file to import.")]
    else:
        try:
            pad = load_pad(upload.read(), check=True)
        except PadError as error:
            problems = [say(p) for p in error.problems]
        else:
            game = games.import_pad(pad)
            db.session.commit()
            make_host(game)
            return see_other(url_for("pages.game", public_id=game.public_id))
    return page("index.html", 422, title=gettext("Skull King scorekeeper"), import_problems=problems)


@bp.get("/games/<public_id>/host/<token>")
def host(public_id: str, token: str):
    """Take over running a game with its host link (given by the import API)."""
    game = get_game(public_id)
    # Bytes, because compare_digest refuses non-ASCII text and a link may carry anything.
    if not hmac.compare_digest(token.encode(), game.host_token.encode()):
        abort(404)
    make_host(game)
    return see_other(url_for("pages.game", public_id=public_id))


# --- joining from phones --------------------------------------------------------------


JOIN_ATTEMPTS_PER_MINUTE = 12


@bp.route("/join", methods=["GET", "POST"])
def join_by_code():
    """Type the short code the host screen shows; guessing is slowed down."""
    if request.method == "GET":
        return page("join_code.html", title=gettext("Join a game"), problems=[])
    address = (request.remote_addr or "unknown")[:64]
    since = utcnow() - timedelta(minutes=1)
    recent = db.session.query(JoinAttempt).filter(JoinAttempt.address == address, JoinAttempt.at > since).count()
    if recent >= JOIN_ATTEMPTS_PER_MINUTE:
        return page("join_code.html", 429, title=gettext("Join a game"),
                    problems=[gettext("Too many tries. Wait a minute, or scan the QR code instead.")])
    db.session.query(JoinAttempt).filter(JoinAttempt.at < since).delete()
    db.session.add(JoinAttempt(address=address))
    code = "".join(request.form.get("code", "").split()).upper()[:12]
    game = games.find_game_by_code(code) if code else None
    db.session.commit()
    if game is None:
        return page("join_code.html", 422, title=gettext("Join a game"),
                    problems=[gettext("No game has the code “%(code)s”. Check it on the host screen.", code=code)])
    return see_other(url_for("pages.join", public_id=game.public_id))


@bp.route("/games/<public_id>/join", methods=["GET", "POST"])
def join(public_id: str):
    """Pick a free seat: this phone is that player from then on."""
    game = get_game(public_id)
    me = visitor(game)
    if request.method == "GET":
        if me.role != VIEWER:
            return see_other(url_for("pages.game", public_id=public_id))
        return page("join.html", title=gettext("Join the game"), game=game, problems=[])
    game = locked_game(public_id)
    parsed = forms.Parsed()
    position = forms.whole_number(request.form, "seat", parsed)
    seat = game.seats[position] if position is not None and 0 <= position < len(game.seats) else None
    if seat is None:
        parsed.add(rules.N_("Pick your name from the list."))
    elif seat.token_hash is not None:
        parsed.add(rules.N_("%(names)s already plays on another phone. Ask the host to free the seat."),
                   (seat.name,))
    if parsed.problems:
        return page("join.html", 422, title=gettext("Join the game"), game=game,
                    problems=[say(p) for p in parsed.problems])
    token = secrets.token_urlsafe(32)
    seat.token_hash = token_hash(token)
    games.touch(game, "seat")
    db.session.commit()
    remember("seats", public_id, token)
    return see_other(url_for("pages.game", public_id=public_id))


@bp.post("/games/<public_id>/seats/<int:position>/free")
def free_seat(public_id: str, position: int):
    """The host frees a seat, so another phone (or the host) can play it."""
    game = locked_game(public_id)
    if not visitor(game).is_host:
        return not_yours()
    if not 0 <= position < len(game.seats):
        abort(404)
    game.seats[position].token_hash = None
    games.touch(game, "seat")
    db.session.commit()
    return see_other(url_for("pages.game", public_id=public_id))


# --- the game ------------------------------------------------------------------------


def game_page(game: Game, me: Visitor, status: int = 200, problems: list[Problem] | None = None,
              form: Any = None):
    """The game as this visitor may see it: host controls, a player's phone, or a viewer."""
    record = games.current_hand(game)
    if record is None:
        return see_other(url_for("pages.end", public_id=game.public_id))
    table = games.table_of(game)
    context = hand_view(game, record, table, problems, form, me)
    template = {HOST: "game.html", SEAT: "phone.html", VIEWER: "watch.html"}[me.role]
    return page(template, status, title=gettext("Hand %(number)d", number=record.number),
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


@bp.get("/games/<public_id>")
def game(public_id: str):
    """The hand being played, as this browser may see it."""
    game = reveal_when_due(get_game(public_id))
    return game_page(game, visitor(game))


@bp.get("/games/<public_id>/events")
def events(public_id: str):
    """Server-sent events: the game's version whenever it changes, never its contents."""
    game = get_game(public_id)
    watcher: Watcher = current_app.extensions["live_watcher"]
    stream = watcher.stream(game.id, game.version)
    db.session.remove()
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.post("/games/<public_id>/hands/<int:number>/bid")
def bid(public_id: str, number: int):
    """Record a secret bid: a phone for its own seat, the host for anyone."""
    game = locked_game(public_id)
    games.reveal_if_due(game)
    me = visitor(game)
    record = get_hand(game, number)
    table = games.table_of(game)
    parsed = forms.Parsed()
    seat = me.seat if me.role == SEAT else forms.whole_number(request.form, "seat", parsed)
    if me.role == VIEWER or (me.role == SEAT and request.form.get("seat", str(seat)) != str(seat)):
        db.session.commit()
        return not_yours()
    value = forms.whole_number(request.form, "bid", parsed)
    if record.phase not in games.SECRET_PHASES:
        parsed.add(rules.N_("The bids of this hand are already revealed."), hand=number)
    elif seat is None or not 0 <= seat < len(table.players):
        parsed.add(rules.N_("Pick a player to bid for."), hand=number)
    elif value is None or not 0 <= value <= record.cards:
        player = table.players[seat]
        parsed.add(rules.N_("%(names)s: a bid is 0 to %(cards)d."), (player,), number, cards=record.cards)
    if parsed.problems:
        db.session.commit()
        return game_page(game, me, 422, parsed.problems)
    games.place_bid(game, record, seat, value, count_seconds())
    games.reveal_if_due(game)
    db.session.commit()
    return see_other(url_for("pages.game", public_id=public_id))


@bp.post("/games/<public_id>/hands/<int:number>/cards")
def deal(public_id: str, number: int):
    """The host changes the cards dealt in a hand still being bid (a house rule)."""
    game = locked_game(public_id)
    me = visitor(game)
    if not me.is_host:
        return not_yours()
    record = get_hand(game, number)
    table = games.table_of(game)
    parsed = forms.Parsed()
    cards = forms.whole_number(request.form, "cards", parsed, hand=number)
    cap = rules.max_cards(table.ruleset, len(table.players))
    if record.phase not in games.SECRET_PHASES:
        parsed.add(rules.N_("The cards can only change before the bids are revealed."), hand=number)
    elif cards is None or not 1 <= cards <= cap:
        parsed.add(rules.N_("%(cards)s cards cannot be dealt: with %(count)d players each gets 1 to %(cap)d cards."),
                   hand=number, cards=request.form.get("cards", "")[:10], count=len(table.players), cap=cap)
    if parsed.problems:
        return game_page(game, me, 422, parsed.problems)
    record.cards = cards
    record.phase = games.BIDDING
    record.reveal_at = None
    # A new deal means new cards: everyone bids again. (Clearing only the bids that no
    # longer fit would tell the table which players had bid high.)
    for entry in record.entries:
        entry.bid = None
    games.touch(game, "cards", number)
    db.session.commit()
    return see_other(url_for("pages.game", public_id=public_id))


def stored_form(record: HandRecord) -> MultiDict:
    """The stored results of a hand, written as the results form would post them."""
    form = MultiDict()
    for entry in record.entries:
        position = entry.position
        form[f"tricks-{position}"] = str(entry.tricks or 0)
        for kind, count in (entry.bonuses or {}).items():
            form[f"{kind}-{position}"] = "on" if kind in forms.CAPTURE_TOGGLES else str(count)
        for partner in entry.loot_with or []:
            form.add(f"loot-{position}", str(partner))
        if entry.wager is not None:
            form[f"wager-{position}"] = str(entry.wager)
        if entry.shot:
            form[f"shot-{position}"] = entry.shot
        if entry.bid_changed_from is not None:
            form[f"harry-{position}"] = "%+d" % (entry.bid - entry.bid_changed_from)
    form["lost_tricks"] = str(record.lost_tricks)
    return form


def seat_form(record: HandRecord, seat: int, intent: str, posted: MultiDict) -> MultiDict:
    """What one phone's request means for the whole hand: its own fields over the stored rest."""
    form = stored_form(record)
    own = [key for key in form if key.endswith(f"-{seat}")]
    entry = record.entries[seat]
    if intent == "trick":
        form[f"tricks-{seat}"] = str((entry.tricks or 0) + 1)
        return form
    for key in own:
        if not key.startswith("shot-"):
            form.poplist(key)
    if intent == "made":
        # "Made my bid, nothing else": the bid as revealed, no captures.
        form[f"tricks-{seat}"] = str(entry.bid_changed_from if entry.bid_changed_from is not None else entry.bid)
        return form
    for key in posted:
        if key.endswith(f"-{seat}"):
            form.setlist(key, posted.getlist(key))
    return form


@bp.route("/games/<public_id>/hands/<int:number>", methods=["GET", "POST"])
def hand(public_id: str, number: int):
    """A hand's results: entered by the phones and the host while played, corrected by the host once scored."""
    if request.method == "GET":
        game = get_game(public_id)
        record = get_hand(game, number)
        if record.phase != games.SCORED or not visitor(game).is_host:
            return see_other(url_for("pages.game", public_id=public_id))
        return page("hand.html", title=gettext("Hand %(number)d", number=number),
                    **hand_view(game, record, games.table_of(game)))
    game = locked_game(public_id)
    games.reveal_if_due(game)
    me = visitor(game)
    record = get_hand(game, number)
    table = games.table_of(game)
    intent = request.form.get("intent", "score")
    correcting = intent == "correct"
    if me.role == VIEWER or (me.role == SEAT and correcting):
        db.session.commit()
        return not_yours()
    if correcting != (record.phase == games.SCORED) or record.phase in games.SECRET_PHASES:
        # A late autosave or a second tap for a hand that has moved on: nothing to keep.
        db.session.commit()
        if intent == "draft":
            return Response(status=204)
        return see_other(url_for("pages.game", public_id=public_id))
    form = seat_form(record, me.seat, intent, request.form) if me.role == SEAT else request.form
    bids = tuple((e.bid_changed_from if e.bid_changed_from is not None else e.bid) for e in record.entries)
    parsed = forms.parse_hand(form, table, number, record.cards, bids, with_bids=correcting)
    closing = correcting or (me.is_host and intent == "score")
    problems = parsed.problems
    if parsed.hand is not None:
        problems = rules.validate_hand(table, number, parsed.hand, in_play=not closing)
    if me.role == SEAT:
        # A phone is held up only by its own mistakes; clashes with others are kept and shown to all concerned.
        mine = (table.players[me.seat],)
        problems = [p for p in problems if p.players == mine or (not p.players and parsed.hand is None)]
    if problems:
        db.session.commit()
        if correcting:
            return page("hand.html", 422, title=gettext("Hand %(number)d", number=number),
                        **hand_view(game, record, table, problems, form))
        return game_page(game, me, 422, problems, form if me.is_host else None)
    games.store_entries(game, record, parsed.hand)
    if me.role == SEAT:
        record.entries[me.seat].done = intent in ("done", "made")
    if correcting:
        record.corrected = True
        games.touch(game, "correct", number)
    elif closing:
        games.score_hand_record(game, record, table)
    else:
        games.touch(game, "result", number)
        if all(e.done for e in record.entries) and not rules.validate_hand(table, number, parsed.hand):
            games.score_hand_record(game, record, table)
    db.session.commit()
    if correcting:
        return see_other(url_for("pages.pad", public_id=public_id))
    return see_other(url_for("pages.game", public_id=public_id))


@bp.get("/games/<public_id>/pad")
def pad(public_id: str):
    """The score pad, laid out like the paper one, with the leaderboard."""
    game = reveal_when_due(get_game(public_id))
    table = games.table_of(game)
    rows = games.pad_rows(game, table)
    return page("pad.html", title=gettext("Score pad"), game=game, table=table, rows=rows,
                standings=games.standings(game, rows), current=games.current_hand(game),
                visitor=visitor(game))


@bp.get("/games/<public_id>/screen")
def screen(public_id: str):
    """The big-screen view for a TV or laptop: leaderboard and pad, updating live."""
    game = reveal_when_due(get_game(public_id))
    table = games.table_of(game)
    rows = games.pad_rows(game, table)
    record = games.current_hand(game)
    return page("screen.html", title=gettext("Leaderboard"), game=game, table=table, rows=rows,
                standings=games.standings(game, rows), current=record,
                ready=sum(e.bid is not None for e in record.entries) if record else 0)


@bp.get("/games/<public_id>/end")
def end(public_id: str):
    """Final standings, the winner, and what each player achieved."""
    game = get_game(public_id)
    if games.current_hand(game) is not None:
        return see_other(url_for("pages.game", public_id=public_id))
    standing = games.standings(game)
    winners = [s.name for s in standing if s.rank == 1]
    return page("end.html", title=gettext("Final standings"), game=game, standings=standing,
                winners=join_names(winners), winner_count=len(winners), summaries=games.summaries(game),
                visitor=visitor(game))


@bp.post("/games/<public_id>/rematch")
def rematch(public_id: str):
    """A new game with the same table and rules; the next player deals first."""
    game = get_game(public_id)
    if not visitor(game).is_host:
        return not_yours()
    table = games.table_of(game)
    seated = table.players[1:] + table.players[:1]
    new = games.create_game(rules.Table(table.ruleset, seated, table.options))
    db.session.commit()
    make_host(new)
    return see_other(url_for("pages.game", public_id=new.public_id))


# --- export --------------------------------------------------------------------------


@bp.get("/games/<public_id>/pad.json")
def pad_json(public_id: str):
    """The pad file of the game, as a download."""
    game = reveal_when_due(get_game(public_id))
    body = json.dumps(games.export_pad(game), indent=2, ensure_ascii=False)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="skull-king-{public_id[:8]}.json"'
    return response


CSV_BONUSES = (rules.PIRATES_BY_SKULL_KING, rules.SKULL_KING_BY_MERMAID, rules.MERMAIDS_BY_PIRATE,
               rules.STANDARD_FOURTEENS, rules.BLACK_FOURTEEN)


@bp.get("/games/<public_id>/pad.csv")
def pad_csv(public_id: str):
    """The pad as CSV: one row per hand and player, with points and running total."""
    game = reveal_when_due(get_game(public_id))
    doc = games.export_pad(game)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", "cards", "dealer", "player", "bid", "tricks", *CSV_BONUSES,
                     "loot_with", "wager", "shot", "bid_changed_from", "points", "total"])
    totals = dict.fromkeys(doc["players"], 0)
    players = doc["players"]
    for number, hand in enumerate(doc["hands"], start=1):
        dealer = players[(number - 1) % len(players)]
        for entry in hand["entries"]:
            points = entry.get("points")
            if points is not None:
                totals[entry["player"]] += points
            bonuses = entry.get("bonuses", {})
            writer.writerow([
                number, hand["cards"], dealer, entry["player"], entry["bid"], entry.get("tricks", ""),
                *(bonuses.get(k, 0) for k in CSV_BONUSES),
                " ".join(entry.get("loot_with", [])), entry.get("wager", ""), entry.get("shot", ""),
                entry.get("bid_changed_from", ""),
                "" if points is None else points, "" if points is None else totals[entry["player"]],
            ])
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="skull-king-{public_id[:8]}.csv"'
    return response


# --- language ------------------------------------------------------------------------


@bp.post("/language")
def language():
    """Remember the language the player picked."""
    chosen = request.form.get("language", "")
    if chosen in current_app.config["LANGUAGES"]:
        session["language"] = chosen
    target = request.form.get("next", "")
    # Only paths of this site, never another host.
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("pages.index")
    return see_other(target)


def bids_text(entries: Sequence[rules.Entry]) -> str:
    """The bids of a hand in one line, to be read out: "Anne 2, Ben 0 and Cara 1"."""
    return join_names([f"{e.player} {e.bid}" for e in entries])


def standings_text(standings: Sequence[Any]) -> str:
    """The leaderboard in one line, to be read out."""
    return join_names([f"{s.name} {format_score(s.total)}" for s in standings])


def format_score(points: int | None) -> str:
    """A score with a true minus sign, which reads better than a hyphen."""
    if points is None:
        return ""
    return f"−{-points}" if points < 0 else str(points)


def capture_label(kind: str, ruleset: str) -> str:
    """The name of a capture, as the rulebook of the reader's language says it."""
    labels = {
        rules.PIRATES_BY_SKULL_KING: gettext("Pirates taken by the Skull King"),
        rules.SKULL_KING_BY_MERMAID: gettext("Mermaid took the Skull King"),
        rules.MERMAIDS_BY_PIRATE: gettext("Mermaids taken by a Pirate"),
        rules.STANDARD_FOURTEENS: gettext("Yellow, purple or green 14s"),
        rules.BLACK_FOURTEEN: gettext("Black 14"),
    }
    return labels[kind]


def ruleset_name(ruleset: str) -> str:
    """A ruleset's name for people."""
    return {
        "classic": gettext("Classic (2007)"),
        "doubloons": gettext("Doubloons (tactile edition)"),
        "modern": gettext("Skull King 2021"),
    }[ruleset]


def ruleset_blurb(ruleset: str) -> str:
    """One line on what a ruleset is."""
    return {
        "classic": gettext("The original rules: 2–6 players, Scary Mary, Skull King +30 per pirate, Mermaid +50."),
        "doubloons": gettext("The coin edition for blind and low-vision players: classic scoring, 2–6 players."),
        "modern": gettext("The current edition: 2–8 players, Tigress, 14s, Rascal's scoring, advanced cards."),
    }[ruleset]


def round_name(name: str) -> str:
    """A round structure's name for people."""
    return {
        "standard": gettext("Standard"),
        "even-keeled": gettext("Even-keeled"),
        "skip-to-the-brawl": gettext("Skip to the brawl"),
        "swift-n-salty": gettext("Swift 'n' salty"),
        "broadside-barrage": gettext("Broadside barrage"),
        "whirlpool": gettext("Whirlpool"),
        "past-your-bedtime": gettext("Past your bedtime"),
    }[name]


def error_page(error: HTTPException):
    """A clear page (or JSON for the import API) instead of a bare error."""
    messages = {
        400: gettext("The request could not be understood. Reload the page and try again."),
        404: gettext("There is nothing here. Check the link, or start a new game."),
        405: gettext("That is not something this page can do."),
        413: gettext("That file is too large for a pad file."),
    }
    if isinstance(error, CSRFError):
        message = gettext("This page was open too long or came from elsewhere. Reload it and try again.")
    else:
        message = messages.get(error.code or 400, gettext("Something went wrong."))
    if request.path == url_for("pages.import_game") and request.is_json:
        return jsonify(problems=[message]), error.code
    return page("error.html", error.code or 400, title=gettext("Sorry"), message=message)


def watcher_sessions(app: Flask):  # noqa: ANN201
    """Sessions for the live watcher's thread, which runs outside any request."""
    from sqlalchemy.orm import Session

    def new_session() -> Session:
        with app.app_context():
            return Session(db.engine)

    return new_session


def init_app(app: Flask) -> None:
    """Register the pages on `app`, with `Vary: HX-Request` on every answer."""
    app.register_blueprint(bp)
    app.extensions["live_watcher"] = Watcher(watcher_sessions(app))
    for code in (400, 404, 405, 413):
        app.register_error_handler(code, error_page)
    app.jinja_env.filters["score"] = format_score
    app.jinja_env.globals.update(
        capture_label=capture_label,
        ruleset_name=ruleset_name,
        ruleset_blurb=ruleset_blurb,
        round_name=round_name,
        bids_text=bids_text,
        standings_text=standings_text,
        current_locale=lambda: str(get_locale() or "en"),
        # Each language in its own words, so everyone finds theirs.
        language_names=(("en", "English"), ("de", "Deutsch"), ("fr", "Français"), ("it", "Italiano")),
    )

    @app.after_request
    def vary_on_htmx(response: Response) -> Response:
        response.vary.add("HX-Request")
        return response
