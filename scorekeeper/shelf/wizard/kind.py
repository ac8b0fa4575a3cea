"""Wizard on the table: the new-game form, a bid or tricks from a phone (or the host), the screen, the pad file.

The table keeps the rounds (a closed round is `{"cards": n, "bids": [...], "tricks": [...]}` by seat; the open
one's draft holds the bids made in turn and the tricks in so far) and, with secret bids, each
phone's bid until the count shows them together (`Change.secret`, `Secrets`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TypedDict

from ...access import Actor
from ...forms import MOST_NAMES_READ
from ...i18n import gettext
from ...kinds import (
    Change,
    Codec,
    Columns,
    Context,
    Decided,
    Denied,
    Form,
    NewMatch,
    Refused,
    SeatEntry,
    Secrets,
    Summary,
)
from ...padfile import JSON, JSONObject
from ...problems import N_, Problem, name_problems
from ...standings import leaderboard
from ...worth import bid_worth
from . import pad, rules
from .rules import (
    IN_TURN,
    SECRET,
    Round,
    Setup,
    bid_problems,
    bidding_order,
    dealer,
    forbidden_bid,
    points,
    round_points,
    setup_problems,
    totals,
    tricks_problems,
    winners,
)
from .rules import finished as all_played

NAME = "wizard"
FORMAT = pad.FORMAT
PLAY_WORD = "round"
TITLE = N_("Wizard")
TEMPLATE = "wizard/round.html"
NEW_TEMPLATE = "wizard/new.html"
# Its style sheet ships in the package, beside its code.
ASSETS: tuple[tuple[str, str], ...] = (("wizard.static", "wizard.css"),)
RULES_TEMPLATE = "wizard/rules.html"
# With secret bids, each phone's bid of a round is its own until the count shows them all.
SECRETS: tuple[str, ...] = ("bid",)
BID = "bid"


@dataclass(frozen=True)
class Draft:
    """The open round as far as it is entered: the bids made in turn (with secret bids, none until all are shown)
    and the tricks in, by seat."""

    bids: Mapping[int, int] = field(default_factory=dict)
    tricks: Mapping[int, int] = field(default_factory=dict)


# A closed round is the rules' `Round`; the open one a `Draft`. As the table stores them: JSON objects.
PLAY = Codec(Round)
DRAFT = Codec(Draft)
# The game's setup as the database keeps it: its options beside the players.
SETUP = Codec(Setup)


class Tap(TypedDict, total=False):
    """A bid or tricks, for the acting phone's seat or (the host's pick) `seat`."""

    seat: int | None
    bid: int
    tricks: int


def setup_from_form(form: Form) -> NewMatch[Setup]:
    """The game the new-game form describes: names in seat order, the first dealer, the bidding and its rule."""
    found: NewMatch[Setup] = NewMatch(names=[n.strip() for n in form.getlist("player")][:MOST_NAMES_READ])
    rows = found.names
    names = tuple(n for n in rows if n)
    raw_dealer = str(form.get("first_dealer", "0"))
    row = int(raw_dealer) if raw_dealer.isascii() and raw_dealer.isdigit() and len(raw_dealer) <= 2 else 0
    # The dealer is chosen by the row of the form; empty rows before it do not count.
    first = sum(1 for n in rows[:row] if n) if row < len(rows) and rows[row] else 0
    bidding = SECRET if form.get("bidding") == SECRET else IN_TURN
    no_even = form.get("no_even_bids") == "on"
    found.problems.extend(setup_problems(names, bidding, no_even))
    found.problems.extend(name_problems(names))
    if not found.problems:
        found.setup = Setup(names, first, bidding, no_even)
    return found


def form_fields(setup: Setup) -> list[tuple[str, str]]:
    """The new-game form filled in for another game with the same players and options."""
    return [*(("player", name) for name in setup.players), ("first_dealer", str(setup.first_dealer)),
            ("bidding", setup.bidding), *((("no_even_bids", "on"),) if setup.no_even_bids else ())]


def stored(setup: Setup) -> tuple[list[str], Columns]:
    """The seats' names and the options as the database keeps them."""
    return list(setup.players), Columns(ruleset=NAME, first_dealer=0, options={
        "first_dealer": setup.first_dealer, "bidding": setup.bidding, "no_even_bids": setup.no_even_bids})


def from_stored(players: list[str], columns: Columns) -> Setup:
    """The setup of a stored game."""
    return SETUP.load({**columns["options"], "players": players})


def label(ruleset: str, options: Mapping[str, JSON]) -> str:
    """The game's name in lists, in the reader's language."""
    return str(gettext(TITLE))


def read_pad(doc: JSONObject, check: bool = False) -> tuple[Setup, list[Round]]:
    """A pad file's game and its rounds (an unfinished last round without tricks); PadError."""
    game = pad.read(doc, check)
    return game.setup, list(game.rounds)


def write_pad(setup: Setup, plays: Sequence[Round]) -> JSONObject:
    """The pad file of a game."""
    return pad.write(setup, list(plays))


def finished(setup: Setup, plays: Sequence[Round]) -> bool:
    """Whether the last round has been played."""
    return all_played(setup, list(plays))


def _digits(form: Form, key: str) -> int | None | bool:
    """A small whole number typed or tapped; None when absent, False when it is not one."""
    raw = form.get(key)
    if raw is None or raw == "":
        return None
    raw = str(raw).strip()
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 3 else False


def parse_change(form: Form) -> Tap | None:
    """A bid or tricks, for the acting phone's seat or (the host) the seat named."""
    seat, bid, tricks = _digits(form, "seat"), _digits(form, "bid"), _digits(form, "tricks")
    if seat is False or bid is False or tricks is False or (bid is None) == (tricks is None):
        return None
    chosen = None if seat is None else int(seat)
    if bid is not None:
        return {"seat": chosen, "bid": int(bid)}
    return {"seat": chosen, "tricks": int(tricks)} if tricks is not None else None


@dataclass(frozen=True)
class Now:
    """Where the open round stands as one screen may see it: its bids (None: not shown), tricks, whose turn, who bid
    last (in turn: that bid may change until the next), and the one number the bidder now may not bid."""

    number: int
    order: list[int]
    bids: list[int | None]
    entered: list[bool]
    bids_complete: bool
    tricks: list[int | None]
    turn: int | None
    last_made: int | None
    forbidden: int | None


def now(setup: Setup, plays: Sequence[Round], draft: Draft | None, secrets: Secrets) -> Now:
    """The open round: bids made in turn (or, secret, entered and once shown), the tricks in, who bids next."""
    number = len(plays) + 1
    seats = range(len(setup.players))
    draft = draft or Draft()
    kept = draft.bids
    if setup.bidding == SECRET and len(kept) < len(setup.players):
        hidden = secrets.of(BID)
        bids = [hidden.get(seat) for seat in seats]
        entered = [seat in hidden for seat in seats]
        complete = secrets.shown and all(entered)
    else:
        bids = [kept.get(seat) for seat in seats]
        entered = [seat in kept for seat in seats]
        complete = all(entered)
    order = bidding_order(setup, number)
    turn = last_made = forbidden = None
    if setup.bidding == IN_TURN:
        made = [seat for seat in order if entered[seat]]
        last_made = made[-1] if made else None
        if not complete:
            turn = next(seat for seat in order if not entered[seat])
            if turn == order[-1]:
                forbidden = forbidden_bid(setup, number, [bids[seat] or 0 for seat in made])
    return Now(number, order, bids, entered, complete, [draft.tricks.get(seat) for seat in seats], turn, last_made,
               forbidden)


def apply(setup: Setup, plays: Sequence[Round], draft: Draft | None, actor: Actor,
          change: Tap, secrets: Secrets) -> Decided[Round, Draft]:
    """A bid or tricks from a seat's phone, or from the host for any seat (a player without a phone)."""
    if actor.seat is None and not actor.is_host:
        return Denied()
    chosen = change.get("seat")
    seat = chosen if actor.is_host and chosen is not None else actor.seat
    if seat is None or not 0 <= seat < len(setup.players):
        return Denied()
    if finished(setup, plays):
        return Refused((Problem(N_("The game is over: no round after the last.")),))
    state = now(setup, plays, draft, secrets)
    bid, tricks = change.get("bid"), change.get("tricks")
    if bid is not None:
        applied = _bid(setup, state, draft or Draft(), seat, bid)
    elif tricks is not None:
        applied = _tricks(setup, state, draft or Draft(), seat, tricks)
    else:
        return Refused((Problem(N_("The request could not be understood. Reload the page and try again.")),))
    return replace(applied, entered_for=(seat,)) if isinstance(applied, Change) else applied


def _bid(setup: Setup, state: Now, draft: Draft, seat: int, bid: int) -> Decided[Round, Draft]:
    name, number = setup.players[seat], state.number
    if any(t is not None for t in state.tricks) or (state.bids_complete and setup.bidding == SECRET):
        return Refused((Problem(N_("%(names)s: the bids of this round are shown already: they cannot "
                                            "change now."), {}, number, (name,), "round"),))
    if setup.bidding == SECRET:
        problems = bid_problems(setup, number, seat, bid, [])
        return Refused(tuple(problems)) if problems else Change(secret=SeatEntry(seat, BID, bid))
    # The last to bid may change the bid until the next player has bid (a slip of the finger).
    if state.turn != seat and state.last_made != seat:
        if state.entered[seat]:
            return Refused((Problem(N_("%(names)s: your bid is in; once the next player has bid it "
                                                "cannot change (the host can correct the round)."),
                                             {}, number, (name,), "round"),))
        return Refused((Problem(N_("%(names)s: it is %(turn)s's turn to bid: in turn, starting left of "
                                            "the dealer."), {"turn": setup.players[state.turn or 0]},
                                         number, (name,), "round"),))
    before = [state.bids[s] or 0 for s in state.order[:state.order.index(seat)]]
    problems = bid_problems(setup, number, seat, bid, before)
    if problems:
        return Refused(tuple(problems))
    bids = {s: b for s, b in enumerate(state.bids) if b is not None and s != seat}
    return Change(draft=replace(draft, bids={**bids, seat: bid}))


def _tricks(setup: Setup, state: Now, draft: Draft, seat: int, taken: int) -> Decided[Round, Draft]:
    name, number = setup.players[seat], state.number
    if not state.bids_complete:
        return Refused((Problem(N_("%(names)s: tricks come after the bids: not everyone has bid yet."),
                                         {}, number, (name,), "round"),))
    tricks = [taken if s == seat else t for s, t in enumerate(state.tricks)]
    problems = [p for p in tricks_problems(setup, number, tricks) if p.players == (name,)]
    if problems:
        return Refused(tuple(problems))
    if all(t is not None for t in tricks) and not tricks_problems(setup, number, tricks):
        bids = tuple(b or 0 for b in state.bids)
        return Change(closed=Round(number, bids, tuple(t for t in tricks if t is not None)))
    # Not all in, or they do not add up: kept, and the screen says so to everyone concerned.
    return Change(draft=replace(draft, tricks={s: t for s, t in enumerate(tricks) if t is not None}))


def pad_rows(setup: Setup, plays: Sequence[Round]) -> list[Context]:
    """Each played round as the pad shows it: whether corrected, each seat's bid, tricks, points and running total."""
    rows = []
    running = [0] * len(setup.players)
    for number, played in enumerate(plays, start=1):
        gained = round_points(played)
        running = [total + points for total, points in zip(running, gained)]
        rows.append({"number": number, "corrected": played.corrected,
                     "cells": [{"bid": bid, "tricks": t, "points": p, "total": total, "made": bid == t}
                               for bid, t, p, total in zip(played.bids, played.tricks or (), gained, running)]})
    return rows


def context(setup: Setup, plays: Sequence[Round], draft: Draft | None,
            actor: Actor, secrets: Secrets) -> Context:
    """What the round screen shows: the round, whose turn, the bids as this screen may see them, the tricks,
    the leaderboard and the pad."""
    rounds = list(plays)
    over = all_played(setup, rounds)
    state = now(setup, plays, draft, secrets)
    names = setup.players
    champions = [names[s] for s in winners(setup, rounds)] if over else []
    tricks_in = [t for t in state.tricks if t is not None]
    mismatch = len(tricks_in) == len(names) and sum(tricks_in) != state.number
    return {
        "setup": setup, "now": state, "cards": state.number, "rounds_total": setup.rounds,
        "dealer_name": names[dealer(setup, state.number)], "turn_name": names[state.turn] if state.turn is not None
        else None, "last_bidder": state.order[-1],
        "bids_total": sum(b for b in state.bids if b is not None), "tricks_total": sum(tricks_in),
        "mismatch": mismatch, "counting": secrets.reveal_at is not None and not state.bids_complete,
        "secret": setup.bidding == SECRET,
        "standings": leaderboard(list(names), totals(setup, rounds)),
        "champions": champions,
        "rows": pad_rows(setup, plays), "over": over,
        "mine": state.bids[actor.seat] if actor.seat is not None else None,
        "worths": [bid_worth(partial(points, bid), bid) for bid in range(state.number + 1)],
        "my_tricks": state.tricks[actor.seat] if actor.seat is not None else None,
    }


def card_state(setup: Setup, plays: Sequence[Round], draft: Draft | None,
               actor: Actor, secrets: Secrets) -> object:
    """What this browser's own card holds: its bid and tricks, whether it may bid now (and what not), the phase;
    the host's card the turn and the entries it may make for players without a phone."""
    state = now(setup, plays, draft, secrets)
    phase = (state.bids_complete, secrets.reveal_at is not None)
    if actor.is_host:
        return (phase, state.turn, tuple(state.entered), tuple(state.tricks))
    if actor.seat is None:
        return phase
    seat = actor.seat
    mine_now = state.turn == seat
    may_change = state.last_made == seat and state.turn is not None
    return (phase, mine_now, may_change, state.forbidden if mine_now else None, state.bids[seat], state.tricks[seat])


def summary(setup: Setup, plays: Sequence[Round]) -> Summary:
    """What a finished game leaves for the crew's statistics: totals, points per round, bids made (no bonus points:
    Wizard has none)."""
    rounds = [r for r in plays if r.finished]
    seats = range(len(setup.players))
    found = totals(setup, rounds)
    return {"kind": NAME, "players": list(setup.players), "totals": found,
            "winners": [setup.players[s] for s in winners(setup, rounds)],
            "per_hand": [round_points(r) for r in rounds],
            "bids_made": [sum(r.bids[s] == (r.tricks or ())[s] for r in rounds) for s in seats],
            "zero_bids": [sum(r.bids[s] == 0 for r in rounds) for s in seats],
            "zero_bids_made": [sum(r.bids[s] == 0 == (r.tricks or ())[s] for r in rounds) for s in seats]}


def bg_stats_game(setup: Setup) -> tuple[str, int | None]:
    """The game as BG Stats knows it (by name: no BoardGameGeek id confirmed by a stored page)."""
    return "Wizard", None


def rules_context(setup: Setup) -> Context:
    """Its rules page: the pack, the rounds, the points and the house rules of this game, from its rules."""
    return {"suits": rules.SUITS, "ranks": rules.RANKS, "wizards": rules.WIZARDS, "jesters": rules.JESTERS,
            "pack": rules.PACK, "rounds": setup.rounds, "bid_made": rules.BID_MADE, "per_trick": rules.PER_TRICK,
            "secret": setup.bidding == rules.SECRET, "no_even_bids": setup.no_even_bids}
