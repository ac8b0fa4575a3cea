"""Wizard's own page: the host corrects a scored round (bids and tricks), through the table's one write path."""

from __future__ import annotations

from dataclasses import replace

from flask import request
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from ... import kinds, service
from ...access import Actor
from ...games import GameState
from ...i18n import gettext
from ...kinds import Change, Decided, Denied, Form, Missing, game_folder, refused
from ...problems import N_, Problem
from ...views.labels import say
from ...views.rendering import after, not_yours, page
from ...views.sessions import credentials, load_state, visitor
from . import kind
from .rules import Round, Setup, round_problems

# Its folder (templates, style sheet) and the host's correction page.
bp = game_folder("wizard", __name__)


def _entries(form: Form, key: str, count: int) -> tuple[list[int], list[Problem]]:
    """Each seat's whole number `key` as typed in the correction form, or the problems."""
    found, problems = [], []
    for seat in range(count):
        raw = str(form.get(f"{key}-{seat}", "")).strip()
        if raw.isascii() and raw.isdigit() and len(raw) <= 3:
            found.append(int(raw))
        else:
            found.append(0)
            problems.append(Problem(N_("“%(value)s” is not a whole number."), {"value": raw[:20]}))
    return found, problems


def _scored_round(state: GameState, number: int) -> tuple[Setup, list[Round]] | Missing:
    """The setup and closed rounds of a Wizard game whose round `number` is scored; or what is missing."""
    if state.kind != kind.NAME:
        return Missing(state.public_id)
    wizard = kinds.kind_of(state)
    setup, closed = wizard.setup_of(state), wizard.played(state)
    if not 1 <= number <= len(closed):
        return Missing(number)
    return setup, closed


def _scored_or_not_found(state: GameState, number: int) -> tuple[Setup, list[Round]]:
    """The setup and closed rounds of a Wizard game whose round `number` is scored, for a page; NotFound (404)
    otherwise."""
    scored = _scored_round(state, number)
    if isinstance(scored, Missing):
        raise service.NotFound(scored.what)
    return scored


def correct(public_id: str, number: int, bids: list[int], tricks: list[int]) -> service.Outcome:
    """The host's correction of scored round `number`: checked as a whole, stored, later totals follow; a finished
    game's statistics too."""
    def decide(game: GameState, actor: Actor) -> Decided:
        if not actor.is_host:
            return Denied()
        scored = _scored_round(game, number)
        if isinstance(scored, Missing):
            return scored
        setup, closed = scored
        corrected = Round(number, tuple(bids), tuple(tricks))
        problems = round_problems(setup, corrected)
        if problems:
            return refused(*problems)
        closed[number - 1] = replace(corrected, corrected=True)
        # A finished game's statistics follow.
        summary = kind.summary(setup, closed) if game.finished_at is not None else None
        applied: Change[Round, kind.Draft] = Change(closed=closed[number - 1], play=number, summary=summary,
                                                      event="correct")
        return applied.stored_with(kind.PLAY, kind.DRAFT)

    return service.play(public_id, credentials(public_id), decide)


def _form_page(public_id: str, number: int, status: int = 200, problems: list[str] | None = None) -> Response:
    state = load_state(public_id)
    setup, closed = _scored_or_not_found(state, number)
    me = visitor(state)
    if not me.is_host:
        return not_yours()
    shown = closed[number - 1]
    return page("wizard/correct.html", status, title=gettext("Correct round %(number)d", number=number), game=state,
                visitor=me, setup=setup, number=number, played=shown, problems=problems or [],
                form=request.form if problems else None)


@bp.route("/games/<public_id>/wizard/rounds/<int:number>", methods=["GET", "POST"])
def correct_round(public_id: str, number: int) -> ResponseReturnValue:
    """The host's form to correct a scored round, and its answer."""
    if request.method == "GET":
        return _form_page(public_id, number)
    setup, _ = _scored_or_not_found(load_state(public_id), number)
    bids, bid_problems = _entries(request.form, "bid", len(setup.players))
    tricks, trick_problems = _entries(request.form, "tricks", len(setup.players))
    if bid_problems or trick_problems:
        return _form_page(public_id, number, 422, [say(p) for p in bid_problems + trick_problems])
    outcome = correct(public_id, number, bids, tricks)
    if not outcome.ok:
        return _form_page(public_id, number, 422, [say(p) for p in outcome.problems])
    return after(outcome)
