"""The pages of the app: thin views that parse, call the rules, store and render."""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Sequence

from babel.lists import format_list
from flask import (Blueprint, Flask, Response, abort, current_app, jsonify, redirect, render_template,
                   request, session, url_for)
from flask_babel import get_locale, gettext
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from jinja2_fragments.flask import render_block

from . import forms, games, rules
from .extensions import csrf, db
from .models import Game, HandRecord
from .pad import PadError, load_pad
from .rules import Problem

bp = Blueprint("pages", __name__)


# --- helpers --------------------------------------------------------------------------


def is_htmx() -> bool:
    """Whether htmx asked for this page (and wants only its main block)."""
    return request.headers.get("HX-Request") == "true" and not request.headers.get("HX-History-Restore-Request")


def page(template: str, status: int = 200, **context: Any) -> tuple[str, int]:
    """The whole page, or for htmx just its `main` block."""
    if is_htmx():
        return render_block(template, "main", fragment=True, **context), status
    return render_template(template, **context), status


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


def hand_view(game: Game, record: HandRecord, table: rules.Table, problems: list[Problem] | None = None,
              form: Any = None) -> dict[str, Any]:
    """What the hand templates need to show one hand."""
    problems = problems or []
    hand = games.hand_of(game, record)
    provisional = rules.provisional_points(table, hand) if record.phase != games.BIDDING else {}
    context: dict[str, Any] = {
        "game": game,
        "table": table,
        "record": record,
        "hand": hand,
        "dealer": table.players[rules.dealer_index(table, record.number)],
        "leader": table.players[rules.leader_index(table, record.number)],
        "hand_count": len(games.schedule(game, table)),
        "max_cards": rules.max_cards(table.ruleset, len(table.players)),
        "problems": [say(p) for p in problems],
        "player_problems": problems_by_player(problems, len(table.players)),
        "provisional": provisional,
        "lost_allowed": rules.lost_tricks_allowed(table),
        "form": form,
    }
    # Macros take the whole view as one value.
    context["view"] = context
    return context


# --- start, new game, import ----------------------------------------------------------


@bp.get("/")
def index():
    """The start page: begin a new game or bring one in from a pad file."""
    return page("index.html", title=gettext("Skull King scorekeeper"))


@bp.route("/games/new", methods=["GET", "POST"])
def new_game():
    """The new-game form; a valid table starts the game at hand 1."""
    if request.method == "GET":
        return page("new_game.html", title=gettext("New game"), form=None, problems=[],
                    rounds=rules.ROUND_STRUCTURES)
    parsed = forms.parse_new_game(request.form)
    if parsed.table is None:
        return page("new_game.html", 422, title=gettext("New game"), form=request.form,
                    problems=[say(p) for p in parsed.problems], rounds=rules.ROUND_STRUCTURES)
    game = games.create_game(parsed.table)
    db.session.commit()
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
        response = jsonify(url=url)
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
            return see_other(url_for("pages.game", public_id=game.public_id))
    return page("index.html", 422, title=gettext("Skull King scorekeeper"), import_problems=problems)


# --- the game ------------------------------------------------------------------------


@bp.get("/games/<public_id>")
def game(public_id: str):
    """The hand being played: bids first, then tricks and bonuses."""
    game = get_game(public_id)
    record = games.current_hand(game)
    if record is None:
        return see_other(url_for("pages.end", public_id=public_id))
    table = games.table_of(game)
    return page("game.html", title=gettext("Hand %(number)d", number=record.number),
                **hand_view(game, record, table), standings=games.standings(game))


@bp.post("/games/<public_id>/hands/<int:number>/bid")
def bid(public_id: str, number: int):
    """Record one player's secret bid; the screen shows only that they are ready."""
    game = get_game(public_id)
    record = get_hand(game, number)
    table = games.table_of(game)
    parsed = forms.Parsed()
    seat = forms.whole_number(request.form, "seat", parsed)
    value = forms.whole_number(request.form, "bid", parsed)
    if record.phase != games.BIDDING:
        parsed.add(rules.N_("The bids of this hand are already revealed."), hand=number)
    elif seat is None or not 0 <= seat < len(table.players):
        parsed.add(rules.N_("Pick a player to bid for."), hand=number)
    elif value is None or not 0 <= value <= record.cards:
        player = table.players[seat]
        parsed.add(rules.N_("%(names)s: a bid is 0 to %(cards)d."), (player,), number, cards=record.cards)
    if parsed.problems:
        return page("game.html", 422, title=gettext("Hand %(number)d", number=number),
                    **hand_view(game, record, table, parsed.problems), standings=games.standings(game))
    record.entries[seat].bid = value
    games.touch(game)
    db.session.commit()
    return see_other(url_for("pages.game", public_id=public_id))


@bp.post("/games/<public_id>/hands/<int:number>/cards")
def deal(public_id: str, number: int):
    """Change the cards dealt in a hand that is still being bid (a house rule)."""
    game = get_game(public_id)
    record = get_hand(game, number)
    table = games.table_of(game)
    parsed = forms.Parsed()
    cards = forms.whole_number(request.form, "cards", parsed, hand=number)
    cap = rules.max_cards(table.ruleset, len(table.players))
    if record.phase != games.BIDDING:
        parsed.add(rules.N_("The cards can only change before the bids are revealed."), hand=number)
    elif cards is None or not 1 <= cards <= cap:
        parsed.add(rules.N_("%(cards)s cards cannot be dealt: with %(count)d players each gets 1 to %(cap)d cards."),
                   hand=number, cards=request.form.get("cards", "")[:10], count=len(table.players), cap=cap)
    if parsed.problems:
        return page("game.html", 422, title=gettext("Hand %(number)d", number=number),
                    **hand_view(game, record, table, parsed.problems), standings=games.standings(game))
    record.cards = cards
    for entry in record.entries:
        if entry.bid is not None and entry.bid > cards:
            entry.bid = None
    games.touch(game)
    db.session.commit()
    return see_other(url_for("pages.game", public_id=public_id))


@bp.post("/games/<public_id>/hands/<int:number>/reveal")
def reveal(public_id: str, number: int):
    """YO-HO-HO: when everyone has bid, show all bids at once."""
    game = get_game(public_id)
    record = get_hand(game, number)
    table = games.table_of(game)
    waiting = [table.players[e.position] for e in record.entries if e.bid is None]
    if record.phase != games.BIDDING:
        return see_other(url_for("pages.game", public_id=public_id))
    if waiting:
        problem = Problem(rules.N_("%(names)s still to bid."), hand=number, players=tuple(waiting))
        return page("game.html", 422, title=gettext("Hand %(number)d", number=number),
                    **hand_view(game, record, table, [problem]), standings=games.standings(game))
    record.phase = games.PLAYING
    for entry in record.entries:
        entry.tricks = 0
    games.touch(game)
    db.session.commit()
    return see_other(url_for("pages.game", public_id=public_id))


@bp.route("/games/<public_id>/hands/<int:number>", methods=["GET", "POST"])
def hand(public_id: str, number: int):
    """A hand's results: tricks and bonuses while played, or a correction once scored."""
    game = get_game(public_id)
    record = get_hand(game, number)
    table = games.table_of(game)
    correcting = record.phase == games.SCORED
    template = "hand.html" if correcting else "game.html"
    title = gettext("Hand %(number)d", number=number)
    draft = request.form.get("intent") == "draft"
    if draft and record.phase != games.PLAYING:
        # A late autosave for a hand already scored: nothing to keep.
        return Response(status=204)
    if record.phase == games.BIDDING:
        return see_other(url_for("pages.game", public_id=public_id))
    if request.method == "GET":
        if not correcting:
            return see_other(url_for("pages.game", public_id=public_id))
        return page(template, title=title, **hand_view(game, record, table))
    bids = tuple((e.bid_changed_from if e.bid_changed_from is not None else e.bid) for e in record.entries)
    parsed = forms.parse_hand(request.form, table, number, record.cards, bids, with_bids=correcting)
    scoring = correcting or not draft
    problems = parsed.problems
    if parsed.hand is not None:
        problems = rules.validate_hand(table, number, parsed.hand, in_play=not scoring)
    if problems:
        return page(template, 422, title=title, **hand_view(game, record, table, problems, request.form),
                    standings=games.standings(game))
    games.store_entries(game, record, parsed.hand)
    if correcting:
        record.corrected = True
    elif scoring:
        record.phase = games.SCORED
        games.open_next_hand(game, table)
    games.touch(game)
    db.session.commit()
    if correcting:
        return see_other(url_for("pages.pad", public_id=public_id))
    return see_other(url_for("pages.game", public_id=public_id))


@bp.get("/games/<public_id>/pad")
def pad(public_id: str):
    """The score pad, laid out like the paper one, with the leaderboard."""
    game = get_game(public_id)
    table = games.table_of(game)
    rows = games.pad_rows(game, table)
    return page("pad.html", title=gettext("Score pad"), game=game, table=table, rows=rows,
                standings=games.standings(game, rows), current=games.current_hand(game))


@bp.get("/games/<public_id>/end")
def end(public_id: str):
    """Final standings, the winner, and what each player achieved."""
    game = get_game(public_id)
    if games.current_hand(game) is not None:
        return see_other(url_for("pages.game", public_id=public_id))
    standing = games.standings(game)
    winners = [s.name for s in standing if s.rank == 1]
    return page("end.html", title=gettext("Final standings"), game=game, standings=standing,
                winners=join_names(winners), winner_count=len(winners), summaries=games.summaries(game))


@bp.post("/games/<public_id>/rematch")
def rematch(public_id: str):
    """A new game with the same table and rules; the next player deals first."""
    game = get_game(public_id)
    table = games.table_of(game)
    seated = table.players[1:] + table.players[:1]
    new = games.create_game(rules.Table(table.ruleset, seated, table.options))
    db.session.commit()
    return see_other(url_for("pages.game", public_id=new.public_id))


# --- export --------------------------------------------------------------------------


@bp.get("/games/<public_id>/pad.json")
def pad_json(public_id: str):
    """The pad file of the game, as a download."""
    game = get_game(public_id)
    body = json.dumps(games.export_pad(game), indent=2, ensure_ascii=False)
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="skull-king-{public_id[:8]}.json"'
    return response


CSV_BONUSES = (rules.PIRATES_BY_SKULL_KING, rules.SKULL_KING_BY_MERMAID, rules.MERMAIDS_BY_PIRATE,
               rules.STANDARD_FOURTEENS, rules.BLACK_FOURTEEN)


@bp.get("/games/<public_id>/pad.csv")
def pad_csv(public_id: str):
    """The pad as CSV: one row per hand and player, with points and running total."""
    game = get_game(public_id)
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


def init_app(app: Flask) -> None:
    """Register the pages on `app`, with `Vary: HX-Request` on every answer."""
    app.register_blueprint(bp)
    for code in (400, 404, 405, 413):
        app.register_error_handler(code, error_page)
    app.jinja_env.filters["score"] = format_score
    app.jinja_env.globals.update(
        capture_label=capture_label,
        ruleset_name=ruleset_name,
        ruleset_blurb=ruleset_blurb,
        round_name=round_name,
        current_locale=lambda: str(get_locale() or "en"),
    )

    @app.after_request
    def vary_on_htmx(response: Response) -> Response:
        response.vary.add("HX-Request")
        return response
