"""Skull King's score pad and what follows from it: the big screen and the end."""

from __future__ import annotations

from flask import request, url_for
from flask.typing import ResponseReturnValue
from jinja2_fragments.flask import render_block

from ... import games
from ...access import Actor
from ...i18n import gettext
from ...kinds import Context
from ...views.labels import join_names
from ...views.pushed import PushedPage
from ...views.rendering import once_per_edition, open_page, page, see_other, show_game
from ...views.sessions import follow_next_game, load_state, visitor
from . import NAME, reading
from .feats import PlayerSummary, feats
from .storage import Phase
from .views import bp, shared_context


def pad_context(state: games.GameState) -> Context:
    """What the score pad shows every viewer alike: the rows and the leaderboard of the game as the whole table may
    see it (no hidden bid in them)."""
    game = games.as_seen_by(state, None)
    seen = reading.seen_by(state, None)
    rows = seen.pad_rows()
    return {"game": game, "table": seen.setup, "rows": rows, "standings": seen.standings(rows),
            "edition": game.edition}


def shared_pad(game: games.GameState) -> str:
    """The score pad at a game's edition in this language, rendered once and pushed to every open pad."""
    return once_per_edition("score pads", game.id, game.edition,
                            lambda: render_block("skullking/pad.html", "table", **pad_context(game)))


def corrections(game: games.GameState, me: Actor) -> list[int]:
    """The hands this browser may correct from the pad: every scored one for the host, none for the others."""
    if not me.is_host:
        return []
    return [hand.number for hand in reading.seen_by(game, None).hands if hand.phase == Phase.SCORED]


def pad_card_key(game: games.GameState, me: Actor) -> str:
    """What this browser's own part of the pad shows: the host's corrections."""
    return f"{me.role}-{len(corrections(game, me))}"


def pad_card(game: games.GameState, me: Actor, key: str) -> str:
    """This browser's own part of the pad, as the stream sends it."""
    return render_block("skullking/pad.html", "card", game=game, visitor=me, corrections=corrections(game, me),
                        card_key=key, edition=game.edition)


# The open score pads follow the table: the rows and leaderboard alike for all, the host's corrections its own.
PAD_PAGE = PushedPage(shared_pad, pad_card_key, pad_card)


# The pad's table and its print style come with the pad's page alone, not with every phone's first load.
PAD_ASSETS = (("static", "pad.css"),)


@bp.get("/games/<public_id>/pad")
def pad(public_id: str) -> ResponseReturnValue:
    """The score pad, laid out like the paper one, with the leaderboard."""
    game = load_state(public_id)
    if game.kind != NAME:
        # The other games show their pad on their one screen.
        return see_other(url_for("pages.game", public_id=public_id))
    me = visitor(game)
    return page("skullking/pad.html", title=gettext("Score pad"), visitor=me, corrections=corrections(game, me),
                card_key=pad_card_key(game, me), page_assets=PAD_ASSETS, **pad_context(game))


def screen_context(state: games.GameState) -> Context:
    """What the big screen shows: the same for whoever looks, the game as the whole table may see it."""
    game = games.as_seen_by(state, None)
    seen = reading.seen_by(state, None)
    table = seen.setup
    rows = seen.pad_rows()
    hand = seen.current
    standings = seen.standings(rows)
    winners = [s.name for s in standings if s.rank == 1]
    # The hand as the table sees it (who is ready, the bids and loads, who is done), as the hand's page shows it.
    status = shared_context(state) if hand is not None else None
    return {"game": game, "table": table, "rows": rows, "standings": standings, "current": hand,
            "ready": sum(e.ready for e in hand.entries) if hand else 0,
            "loaded": sum(e.loaded for e in hand.entries) if hand else 0, "edition": game.edition,
            "status": status, "winners": join_names(winners), "winner_count": len(winners)}


def shared_screen(game: games.GameState) -> str:
    """The big screen at a game's edition in this language, rendered once and pushed to every big screen."""
    return once_per_edition("big screens", game.id, game.edition,
                            lambda: render_block("skullking/screen.html", "table", **screen_context(game)))


# What the table's big screen shows of a Skull King game.
SCREEN_CONTENT = PushedPage(shared_screen)


@bp.get("/games/<public_id>/end")
def end(public_id: str) -> ResponseReturnValue:
    """Final standings, the winner, and what each player achieved."""
    game = load_state(public_id)
    following = follow_next_game(game) if request.args.get("follow") else None
    if following:
        # The host started the next game with these players: a phone that follows the link (pushed to every
        # screen, which follows it by itself) goes on to its seat there, no scan. Opened later, the end page
        # stays, to look back at, with the way on.
        return open_page(following)
    if game.kind != NAME:
        # The other games' one screen is their end page too: the winner on top, the pad below.
        return show_game(game)
    seen = reading.seen_by(game, None)
    if seen.current is not None:
        return see_other(url_for("pages.game", public_id=public_id))
    standing = seen.standings()
    winners = [s.name for s in standing if s.rank == 1]
    return page("skullking/end.html", title=gettext("Final standings"), game=game, standings=standing,
                winners=join_names(winners), winner_count=len(winners), summaries=feats_of(game),
                visitor=visitor(game), edition=game.edition)


def feats_of(game: games.GameState) -> list[PlayerSummary]:
    """Each player's feats over the game's scored hands, for the end page."""
    seen = reading.seen_by(game, None)
    return feats(seen.setup, seen.scored())


def shared_end(game: games.GameState) -> str:
    """What the end page pushes to the phones left on it: the way to the next game, once the host started it."""
    return once_per_edition("end pages", game.id, game.edition,
                            lambda: render_block("skullking/end.html", "table", game=game, edition=game.edition))


# The phones left on the end page follow the host into the next game.
END_PAGE = PushedPage(shared_end)
