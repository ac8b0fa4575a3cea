"""Skull King's hand page: the shared table and each browser's own card, bids, cannons, results and corrections."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from flask import current_app, request, url_for
from flask.typing import ResponseReturnValue
from jinja2_fragments.flask import render_block
from werkzeug.wrappers import Response

from ... import forms, games, service
from ...access import Actor, Role, identify
from ...clock import epoch_ms
from ...i18n import gettext
from ...kinds import Context, Decided, Form, Missing, Refused, game_folder
from ...views.labels import problems_by_player, say
from ...views.pushed import PushedPage, card_fingerprint, host_card_parts
from ...views.rendering import after, drawn_once, not_yours, page, see_other
from ...views.sessions import credentials, load_state, visitor
from ...worth import bid_worth, signed
from . import changes, reading, rules
from . import forms as hand_forms
from .changes import Intent, Results
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
    game = reading.game_seen(seen)
    hand = game.current
    context: Context = {"public_id": seen.public_id, "edition": seen.edition, "over": hand is None,
                        "standings": game.standings()}
    if hand is not None:
        table = game.setup
        scoring = game.scoring(hand)
        # Results that clash go back to the players concerned; the table sees who is fixing what.
        clashes = game.clashes(hand)
        concerned = {name for problem in clashes for name in problem.players}
        context.update(
            table=table, hand=hand, scoring=scoring, seats=seen.seats,
            dealer=table.players[rules.dealer_index(table, hand.number)],
            leader=table.players[rules.leader_index(table, hand.number)],
            hand_count=len(game.schedule),
            provisional=rules.provisional_points(table, scoring) if not hand.phase.is_secret and not clashes else {},
            waiting=sum(not e.ready for e in hand.entries),
            unloaded=sum(not e.loaded for e in hand.entries),
            lost_allowed=rules.lost_tricks_allowed(table),
            clashes=[say(p) for p in clashes],
            tricks_missing=max((rules.tricks_missing(p) for p in clashes), default=0),
            fixing=[table.players[e.position] for e in hand.entries
                    if e.fixing and table.players[e.position] in concerned],
            bid_again=game.must_bid_again(hand),
            reveal_ms=epoch_ms(hand.reveal_at) or 0,
        )
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
                 problems: list[Problem] | None = None, form: Form | None = None,
                 typed: rules.Entry | None = None) -> Context:
    """What this browser's own card shows: its forms, and what only it may see.

    `typed`: a phone's result as it sent it, refused: the card shows that, not what is stored,
    so nothing the player chose is lost to a refusal.
    """
    problems = problems or []
    seen = games.as_seen_by(state, seen_by.seat)
    game = reading.game_seen(seen)
    hand = game.hands[hand.number - 1]
    table = game.setup
    scoring = game.scoring(hand)
    if typed is not None and seen_by.seat is not None:
        entries = tuple(typed if i == seen_by.seat else e for i, e in enumerate(scoring.entries))
        scoring = replace(scoring, entries=entries)
    mine = clashes_of(game, hand, seen_by)
    context: Context = {
        "visitor": seen_by,
        "game": seen,
        "table": table,
        "hand": hand,
        "scoring": scoring,
        "max_cards": rules.max_cards(table),
        "problems": [say(p) for p in problems],
        "player_problems": problems_by_player(problems, len(table.players)),
        "lost_allowed": rules.lost_tricks_allowed(table) and hand.phase == Phase.PLAYING,
        "phone_seats": [s.position for s in seen.seats if s.has_phone],
        "requests": seen.open_requests if seen_by.is_host else (),
        "my_clashes": [say(p) for p in mine],
        "judge_helps": any(rules.about_captures(p) for p in problems),
        "tricks_missing": max((rules.tricks_missing(p) for p in mine), default=0),
        "bonus_max": bonus_max(table),
        "form": form,
        "worths": bid_worths(table, hand.cards) if hand.phase == Phase.BIDDING else [],
    }
    context["view"] = context
    return context


def bid_worths(table: rules.Setup, cards: int) -> list[str]:
    """What each bid of a hand of `cards` is worth, in words, by this table's scoring (its ruleset and options): on
    the bid keys, shown as a key is chosen, without a request."""
    def points(bid: int, tricks: int, shot: str | None = None) -> int:
        entry = rules.Entry("", bid, tricks, shot=shot)
        return rules.score_hand(table, rules.Hand(cards, (entry,)))[""]

    found = [bid_worth(partial(points, bid), bid) for bid in range(cards + 1)]
    if table.ruleset == "modern" and table.options.scoring == "rascal" and table.options.cannonball:
        found = [f"{words} " + gettext("With the cannonball: %(made)s if made exactly, else 0.",
                                       made=signed(points(bid, bid, "cannonball")))
                 for bid, words in enumerate(found)]
    return found


def clashes_of(game: reading.GameSeen, hand: HandState, seen_by: Actor) -> list[Problem]:
    """The clashes this phone's player is part of: its card says what to do about them."""
    if seen_by.seat is None:
        return []
    name = game.setup.players[seen_by.seat]
    return [p for p in game.clashes(hand) if name in p.players]


def bonus_max(table: rules.Setup) -> dict[str, int]:
    """The most of each counted capture one player can have in one hand, for the card's counters."""
    in_trick = len(table.players) - 1
    return {rules.PIRATES_BY_SKULL_KING: min(table.spec.pirates, in_trick),
            rules.MERMAIDS_BY_PIRATE: table.spec.mermaids,
            rules.STANDARD_FOURTEENS: 3,
            **rules.EXPANSION_LIMITS,
            rules.DAVY_JONES_MONSTERS: rules.sea_monsters(table)}


def card_key(state: games.GameState, seen_by: Actor) -> str:
    """A fingerprint of what this browser's card shows; it changes only when the card must be redrawn.

    Made from the game as this browser may see it, so it tells nothing of a hidden bid.
    """
    seen = games.as_seen_by(state, seen_by.seat)
    game = reading.game_seen(seen)
    hand = game.current
    if hand is None:
        return "over"
    parts: list[Any] = [seen_by.role, seen_by.seat, hand.number, hand.phase, hand.cards]
    if seen_by.seat is not None:
        parts += [hand.entries[seen_by.seat], clashes_of(game, hand, seen_by)]
    elif seen_by.is_host:
        phoneless = tuple(e for e, seat in zip(hand.entries, seen.seats, strict=True) if not seat.has_phone)
        parts += [host_card_parts(seen), phoneless]
    return card_fingerprint(parts)


def game_page(state: games.GameState, status: int = 200, problems: list[Problem] | None = None,
              form: Form | None = None, typed: rules.Entry | None = None) -> Response:
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
    context = card_context(state, hand, me, problems, form, typed)
    return page("skullking/game.html", status, title=gettext("Hand %(number)d", number=hand.number),
                shared=shared_table(state), card_key=card_key(state, me), edition=state.edition, **context)


def count_seconds() -> float:
    """How long every phone counts YO… HO… HO! before the bids show."""
    return float(current_app.config.get("REVEAL_COUNT_SECONDS", 3.0))


@bp.post("/games/<public_id>/hands/<int:number>/bid")
def bid(public_id: str, number: int) -> ResponseReturnValue:
    """Record a secret bid: a phone for its own seat, the host for a seat with no phone."""
    creds, parsed = credentials(public_id), forms.Parsed()
    seat = forms.whole_number(request.form, "seat", parsed) if request.form.get("seat") else None
    value, seconds = forms.whole_number(request.form, "bid", parsed), count_seconds()
    outcome = service.refusal(public_id, parsed.problems) if parsed.problems else service.play(
        public_id, creds, changes.deciding(
            lambda game, actor: changes.place_bid(game, actor, number, seat, value)), seconds)
    return after(outcome)


@bp.post("/games/<public_id>/hands/<int:number>/load")
def load(public_id: str, number: int) -> ResponseReturnValue:
    """Load a cannon in secret (the cannonball rule): a phone its own, the host one of a player without a phone."""
    creds, parsed = credentials(public_id), forms.Parsed()
    seat = forms.whole_number(request.form, "seat", parsed) if request.form.get("seat") else None
    shot, seconds = request.form.get("shot"), count_seconds()
    outcome = service.refusal(public_id, parsed.problems) if parsed.problems else service.play(
        public_id, creds, changes.deciding(
            lambda game, actor: changes.load_cannon(game, actor, number, seat, shot)), seconds)
    return after(outcome)


@bp.post("/games/<public_id>/hands/<int:number>/cards")
def deal(public_id: str, number: int) -> ResponseReturnValue:
    """The host changes the cards dealt in a hand still being bid (a house rule)."""
    creds, parsed = credentials(public_id), forms.Parsed()
    cards = forms.whole_number(request.form, "cards", parsed, hand=number)
    outcome = service.refusal(public_id, parsed.problems) if parsed.problems else service.play(
        public_id, creds, changes.deciding(
            lambda game, actor: changes.change_cards(game, actor, number, cards)))
    return after(outcome)


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
    return correct(game, hand, reading.table_of(game))


def results(public_id: str, number: int) -> ResponseReturnValue:
    """Results of a hand in play, a phone's own or the host's for the players without a phone.

    The form is read against the locked game (the seats it may carry are those of the browser as the game knows it
    now), so a tap costs no read of the game before its write: a phone's results are most of a hand's taps.
    """
    try:
        intent = Intent(request.form.get("intent", Intent.SCORE))
    except ValueError:
        intent = Intent.SCORE
    form = request.form
    # What a refused form shows again: the host's form as sent, a phone's result as it sent it.
    shown: dict[str, Any] = {}

    def decide(game: reading.GameSeen, actor: Actor) -> Decided:
        hand = game.hand(number)
        if isinstance(hand, Missing):
            return hand
        # A trick, a trick nobody won or "change it" carry no fields; the others carry a phone's
        # own, or for the host those of the players without a phone (the others enter their own).
        seats: tuple[int, ...] = ()
        if intent in (Intent.DRAFT, Intent.DONE, Intent.MADE, Intent.SCORE):
            seats = tuple(s for s in range(len(game.setup.players)) if actor.enters_for(s))
        if actor.is_host:
            shown["form"] = form
        parsed = hand_forms.parse_results(form, game.setup, number, seats)
        if parsed.problems:
            return Refused(tuple(parsed.problems))
        if actor.seat is not None and actor.seat in parsed.reports:
            # Refused, the card shows what the phone sent, not what is stored.
            player = game.scoring(hand).entries[actor.seat]
            shown["typed"] = parsed.reports[actor.seat].entry(player.player, player.revealed_bid or 0)
        return changes.record_results(game, actor, number, Results(intent, parsed.reports, parsed.lost_tricks))

    outcome = service.play(public_id, credentials(public_id), changes.deciding(decide))
    if outcome.stale and intent == Intent.DRAFT:
        # A late autosave for a hand that has moved on: nothing to keep. (Any other tap that came after the hand
        # closed is answered by `after`, as every change's is: nothing applied, in words.)
        return Response(status=204)
    return after(outcome, form=shown.get("form"), typed=shown.get("typed"))


def correct(game: games.GameState, hand: HandState, table: rules.Setup) -> ResponseReturnValue:
    """The host's correction of a scored hand; the pad follows."""
    public_id = game.public_id
    parsed = hand_forms.parse_correction(request.form, table, hand.number, hand.cards)
    problems = parsed.problems
    if parsed.hand is not None:
        scoring = parsed.hand
        outcome = service.play(public_id, credentials(public_id),
                               changes.deciding(lambda game, actor: changes.correct_hand(game, actor, hand.number,
                                                                                         scoring)))
        if outcome.stale:
            return see_other(url_for("pages.game", public_id=public_id))
        if outcome.ok:
            return see_other(url_for("skull_king.pad", public_id=public_id))
        problems = list(outcome.problems)
    game = load_state(public_id)
    hand = load_hand(game, hand.number)
    return page("skullking/hand.html", 422, title=gettext("Hand %(number)d", number=hand.number),
                **card_context(game, hand, visitor(game), problems, request.form))


def own_card(state: games.GameState, me: Actor, key: str) -> str | None:
    """This browser's own card as the stream sends it; None once the game is over (the page moves to its end)."""
    hand = reading.seen_by(state, None).current
    if hand is None:
        return None
    return render_block("skullking/game.html", "card", card_key=key, edition=state.edition,
                        **card_context(state, hand, me))


# How the table shows a Skull King game and what its live stream pushes of it.
GAME_PAGE = PushedPage(lambda state: str(shared_table(state)), card_key, own_card, game_page)
