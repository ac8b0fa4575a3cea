"""Skull King's changes, one function each: bids and cannons loaded in secret, cards dealt, results, tricks
claimed, corrections; and a tap on its pages read into one of them (`decide`).

Each is a decision the table's one write path runs (`service.by_rules`, then `service.play`), as every game's
change is: it reads the game's plain values (`reading.GameSeen`: its setup, its hands, the open one's secret
entries as the acting browser may see them) and the acting browser, checks access and the rules, and says what to
write (`Change`: the hand's row, a secret entry, the next hand); the table writes it, sums a finished game up, logs
the event and stores it all in one transaction, or stores nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TypeAlias

from ... import forms
from ...access import Actor, Role
from ...kinds import STALE, Change, Decided, Denied, Form, Missing, Refused, SeatEntry, Stale, refused
from . import hands, reading, rules, storage, tricks
from .forms import EntryReport, parse_correction, parse_results
from .reading import EntryState, GameSeen, HandState
from .rules import N_, Entry, Hand, Problem, Setup
from .storage import BID, SHOT, HandRow, Phase

# What a Skull King change writes (its hands as their plays store them), and what its decision answers.
Written: TypeAlias = Change[HandRow, HandRow]
Answer: TypeAlias = Decided[HandRow, HandRow]


class Intent(StrEnum):
    """What a screen means by a results request."""

    TRICK = "trick"  # "I won a trick": one more for this phone
    MADE = "made"  # made the bid: the tricks are the bid, the rest as the form says
    DRAFT = "draft"  # saved as typed, not complete yet
    DONE = "done"  # this phone's result is complete
    CHANGE = "change"  # not complete after all: the phone changes it
    SCORE = "score"  # the host closes the hand
    LOST_MORE = "lost-more"  # one more trick nobody won (a sea monster, a trick nothing could win, the ghost)
    LOST_LESS = "lost-less"  # one fewer: a tap taken back


@dataclass(frozen=True)
class Results:
    """The results a screen reports for a hand in play: a phone its own, the host anyone's."""

    intent: Intent
    reports: Mapping[int, EntryReport]
    lost_tricks: int | None = None


# --- what a change writes ------------------------------------------------------------


def _written(before: HandState, after: HandState, event: str) -> Written:
    """What the table writes of a hand that changed: its play (closed once scored), and a bid that changed once
    revealed (Harry the Giant's)."""
    row = after.row()
    values = row if row != before.row() else None
    scored = row.phase == Phase.SCORED
    shown = tuple(SeatEntry(new.position, BID, new.bid) for old, new in zip(before.entries, after.entries, strict=True)
                  if new.bid is not None and new.bid != old.bid)
    return Written(draft=None if scored else values, closed=values if scored else None, play=after.number,
                   shown=shown, event=event)


def _entering_for(game: GameSeen, actor: Actor, seat: int | None) -> int | None | Denied:
    """The seat this browser enters for (a bid, a load, a claimed trick): a phone its own, the host one
    without a phone; None for no such seat; or the answer that it may not."""
    if actor.role == Role.VIEWER:
        return Denied()
    if actor.role == Role.SEAT:
        if seat is not None and seat != actor.seat:
            return Denied()
        return actor.seat
    if seat is None or not 0 <= seat < len(game.setup.players):
        return None
    if not actor.enters_for(seat):
        # The host enters for players without a phone only: a phone's bid, load or trick is its own.
        return Denied(phone_seat=True)
    return seat


def _hand_entered_for(game: GameSeen, actor: Actor, number: int,
                      seat: int | None) -> tuple[HandState, int | None] | Missing | Denied:
    """Hand `number` and the seat this browser enters a secret for in it (`_entering_for`), or why there is none."""
    hand = game.hand(number)
    if isinstance(hand, Missing):
        return hand
    entering = _entering_for(game, actor, seat)
    return entering if isinstance(entering, Denied) else (hand, entering)


def _completes(hand: HandState, seat: int, loads: bool = False) -> bool:
    """Whether the bid (or, `loads`, the load) of `seat` makes the hand's complete: every other seat's is in."""
    return all(e.position == seat or (e.loaded if loads else e.ready) for e in hand.entries)


def place_bid(game: GameSeen, actor: Actor, number: int, seat: int | None, bid: int | None) -> Answer:
    """A secret bid: a phone for its own seat, the host for a seat with no phone.

    When every seat is ready the YO-HO-HO count starts. Every bid during the count starts
    it again and moves the version by one, whatever the value, so nothing another screen
    can see depends on a hidden bid. Once the count has ended, a bid is refused.
    """
    found = _hand_entered_for(game, actor, number, seat)
    if isinstance(found, Missing | Denied):
        return found
    hand, seat = found
    if not hand.phase.is_secret:
        return refused(Problem(N_("The bids of this hand are already revealed."), hand=number))
    if seat is None:
        return refused(Problem(N_("Pick a player to bid for."), hand=number))
    if bid is None or not 0 <= bid <= hand.cards:
        return refused(Problem(N_("%(names)s: a bid is 0 to %(cards)d."), {"cards": hand.cards},
                                    number, (game.setup.players[seat],)))
    secret = SeatEntry(seat, BID, bid)
    if not _completes(hand, seat):
        # The kind stays in the log (no screen is sent it): the version alone moves, by one either way.
        return Written(secret=secret, play=number, event="bid")
    # Ready for the results the moment the count ends, with no write needed then.
    ready = replace(hand, entries=tuple(replace(e, tricks=None, done=False, fixing=False) for e in hand.entries))
    return replace(_written(hand, ready, "count"), secret=secret)


def load_cannon(game: GameSeen, actor: Actor, number: int, seat: int | None, shot: str | None) -> Answer:
    """A secret load, with the cannonball rule: grapeshot or cannonball, once the bids are revealed.

    A phone loads its own cannon, the host those of players without a phone. The others see
    only that it is loaded; when all are, a second YO-HO-HO, then all loads show at once, and
    stay as they are. As with bids, every load moves the version by one, whatever it is.
    """
    found = _hand_entered_for(game, actor, number, seat)
    if isinstance(found, Missing | Denied):
        return found
    hand, seat = found
    if not hand.cannons:
        return refused(Problem(N_("Grapeshot and cannonball need Rascal's scoring with the cannonball "
                                       "option."), hand=number))
    if hand.phase.is_secret:
        return refused(Problem(N_("The cannons are loaded once the bids are revealed."), hand=number))
    if not hand.phase.loads_secret:
        return refused(Problem(N_("The loads of this hand are already revealed."), hand=number))
    if seat is None:
        return refused(Problem(N_("Pick a player to load for."), hand=number))
    if shot not in rules.SHOTS:
        return refused(Problem(N_("%(names)s: load grapeshot or cannonball."), hand=number,
                                    players=(game.setup.players[seat],)))
    event = "fire" if _completes(hand, seat, loads=True) else "load"
    return replace(_written(hand, replace(hand, stored_phase=Phase.LOADING), event),
                   secret=SeatEntry(seat, SHOT, shot))


def change_cards(game: GameSeen, actor: Actor, number: int, cards: int | None) -> Answer:
    """The host changes the cards dealt in a hand still being bid (a house rule); everyone bids again."""
    if not actor.is_host:
        return Denied()
    hand = game.hand(number)
    if isinstance(hand, Missing):
        return hand
    table = game.setup
    cap = rules.max_cards(table)
    if not hand.phase.is_secret:
        return refused(Problem(N_("The cards can only change before the bids are revealed."), hand=number))
    if cards is None or not 1 <= cards <= cap:
        return refused(Problem(
            N_("%(cards)s cards cannot be dealt: with %(count)d players each gets 1 to %(cap)d cards."),
            {"cards": "" if cards is None else cards, "count": len(table.players), "cap": cap}, number))
    # A new deal means new cards: everyone bids again, and the count waits for them. (Clearing only the bids
    # that no longer fit would tell the table which players had bid high.)
    return replace(_written(hand, replace(hand, cards=cards), "cards"), collects=(number, BID), forget=True)


# --- results --------------------------------------------------------------------------


# A step of the tricks nobody won: counted on the stored total, so two phones never overwrite each other.
LOST_STEPS = {Intent.LOST_MORE: 1, Intent.LOST_LESS: -1}


def _lost_tricks(results: Results, stored: int) -> int:
    """The tricks nobody won after this request: a step, a total given (the host's form), or as stored."""
    if results.intent in LOST_STEPS:
        return stored + LOST_STEPS[results.intent]
    return stored if results.lost_tricks is None else results.lost_tricks


def _own_entry(results: Results, stored: Entry, revealed_bid: int) -> Entry | None:
    """A phone's entry after its request; None when a form's fields are missing."""
    if results.intent == Intent.TRICK:
        return replace(stored, tricks=(stored.tricks or 0) + 1)
    if results.intent in LOST_STEPS or results.intent == Intent.CHANGE:
        return stored
    report = next(iter(results.reports.values()), None)
    if results.intent == Intent.MADE:
        # Made the bid: the tricks are the bid (Harry's change included), the captures as the card shows them.
        entry = report.entry(stored.player, revealed_bid) if report else stored
        return replace(entry, tricks=entry.bid)
    return report.entry(stored.player, revealed_bid) if report else None


def _refusing(problems: list[Problem], reporting: set[str], lost_changed: bool) -> list[Problem]:
    """The problems that refuse a request: those among the players it reports only, and of the
    table's lost tricks when it changed them. A clash with players who report on their own
    phones never refuses a result: it waits until all of them have entered theirs (`reading.GameSeen.clashes`)."""
    return [p for p in problems if (p.players and set(p.players) <= reporting) or (not p.players and lost_changed)]


def _settle(table: Setup, hand: HandState, editing: int | None) -> tuple[HandState, list[Problem]]:
    """After a change of results: the players of a clash that all of them have entered check theirs again.

    Their "done" is withdrawn and they are marked as fixing, so each phone shows one state
    and the table sees who is fixing what. A player who stands by their result says Done
    again; it goes back once more only when all of them did. Once a clash is settled by
    someone else's change (the other player's, a trick nobody won), a result sent back for it
    stands again as entered; the seat `editing` its result now stays open until it says Done.
    Returns the hand so settled and the clashes left.
    """
    names = table.players
    seat_of = {name: position for position, name in enumerate(names)}
    entries = list(hand.entries)
    concerned = {name for problem in reading.clashes_now(table, hand) for name in problem.players}
    for entry in hand.entries:
        if entry.fixing and entry.position != editing and names[entry.position] not in concerned:
            entries[entry.position] = replace(entry, fixing=False, done=True)
    # Restored results may clash anew; a clash goes back once all its players say they are done
    # (while one of them is still fixing it, the others' results stand).
    hand = replace(hand, entries=tuple(entries))
    clashes = reading.clashes_now(table, hand)
    for problem in clashes:
        if all(entries[seat_of[name]].done for name in problem.players):
            for name in problem.players:
                entries[seat_of[name]] = replace(entries[seat_of[name]], fixing=True, done=False)
    return replace(hand, entries=tuple(entries)), clashes


def _with_entered(table: Setup, hand: HandState, scoring: Hand) -> HandState:
    """The stored hand with the values of the rules' `scoring` entered (the phones' done and fixing kept)."""
    positions = {name: position for position, name in enumerate(table.players)}
    entries = list(hand.entries)
    for entry in scoring.entries:
        position = positions[entry.player]
        entries[position] = replace(entries[position], **hands.entered(entry, positions))
    return replace(hand, cards=scoring.cards, lost_tricks=scoring.lost_tricks, entries=tuple(entries))


def record_results(game: GameSeen, actor: Actor, number: int, results: Results) -> Answer:
    """Results of a hand in play, from a phone (its own) or the host (those of the seats without a phone, and closing
    it): the seats it reports are the ones it enters for, which the table checks against the locked game (a seat a
    phone took since the host's page was drawn is refused to the host)."""
    decided = _results_decided(game, actor, number, results)
    return replace(decided, entered_for=tuple(results.reports)) if isinstance(decided, Change) else decided


def _results_decided(game: GameSeen, actor: Actor, number: int, results: Results) -> Answer:
    """What the results of a hand in play change.

    A request is held up only by the mistakes of the players it reports; clashes between
    players wait until all of them have entered their results, then go back to them. The
    hand closes when the host scores it, or by itself when every phone says its result is
    complete and all of them together pass the rules.
    """
    hand = game.hand(number)
    if isinstance(hand, Missing):
        return hand
    if actor.role == Role.VIEWER or (actor.role == Role.SEAT and results.intent == Intent.SCORE):
        return Denied()
    if hand.phase != Phase.PLAYING:
        return STALE
    table = game.setup
    current = game.scoring(hand)
    # Every bid is in once a hand is played.
    revealed = [e.revealed_bid or 0 for e in current.entries]
    closing = actor.is_host and results.intent == Intent.SCORE
    lost = _lost_tricks(results, current.lost_tricks)
    entries = list(current.entries)
    phone = actor.seat if actor.role == Role.SEAT else None
    if phone is not None:
        own = _own_entry(results, current.entries[phone], revealed[phone])
        if own is None:
            return STALE
        entries[phone] = own
        reporting = {own.player}
    else:
        for seat, report in results.reports.items():
            entries[seat] = report.entry(entries[seat].player, revealed[seat])
        reporting = {entries[seat].player for seat in results.reports}
    # The cannons' loads were revealed together and stay as they are, whatever a form says.
    scoring = replace(current, entries=tuple(replace(e, shot=c.shot) for e, c in zip(entries, current.entries)),
                   lost_tricks=lost)
    if closing:
        # Closing: nothing not entered is left open (a missing count is none), and every rule applies.
        scoring = replace(scoring, entries=tuple(replace(e, tricks=e.tricks or 0) for e in scoring.entries))
        problems = rules.validate_hand(table, number, scoring)
    else:
        problems = _refusing(rules.validate_hand(table, number, scoring, in_play=True), reporting,
                             lost != current.lost_tricks)
    if problems:
        return refused(*problems)
    after = _with_entered(table, hand, scoring)
    if phone is not None and results.intent not in LOST_STEPS:
        done = results.intent in (Intent.DONE, Intent.MADE)
        mine = after.entries[phone]
        after = _with_entry(after, replace(mine, done=done, fixing=mine.fixing and not done))
    editing = actor.seat if results.intent in (Intent.DRAFT, Intent.TRICK, Intent.CHANGE) else None
    after, clashes = (after, []) if closing else _settle(table, after, editing)
    everyone_done = all(e.done for e in after.entries) and not clashes
    if closing or (everyone_done and not rules.validate_hand(table, number, scoring)):
        return _close_hand(game, table, hand, after)
    return _written(hand, after, "result")


def claim_trick(game: GameSeen, actor: Actor, number: int, lead: int, cards: str) -> Answer:
    """"This trick was mine": the trick judged from its cards (as written, from the seat `lead`)
    goes to its winner's result as a draft, one trick more and what it captured.

    Only the winner's own phone claims it, or the host for a winner without a phone; the
    server judges the cards itself, so a claim carries no captures of its own.
    """
    hand = game.hand(number)
    if isinstance(hand, Missing):
        return hand
    if actor.role == Role.VIEWER:
        return Denied()
    if hand.phase != Phase.PLAYING:
        return STALE
    table = game.setup
    count = len(table.players)
    try:
        played = tricks.parse_trick(table.ruleset, cards, advanced=table.options.advanced_cards,
                                    expansion=table.expansion)
    except tricks.TrickError as error:
        return refused(replace(error.problem, hand=number))
    judgement = tricks.judge(table.ruleset, played, table.expansion)
    if judgement.winner is None or not 0 <= lead < count or len(played) != count:
        return refused(Problem(N_("Only a whole trick that someone won can be claimed."), hand=number))
    earlier = [tricks.parse_trick(table.ruleset, trick, expansion=table.expansion) for trick in hand.claimed]
    twice = tricks.claimed_already(table.ruleset, earlier, played)
    if twice is not None:
        return refused(replace(twice, hand=number))
    seat = (lead + judgement.winner) % count
    entering = _entering_for(game, actor, seat)
    if isinstance(entering, Denied):
        return entering
    current = game.scoring(hand)
    mine = current.entries[seat]
    bonuses = dict(mine.bonuses)
    for kind, taken in judgement.captures.as_bonuses().items():
        if taken:
            bonuses[kind] = bonuses.get(kind, 0) + taken
    partners = [table.players[(lead + i) % count] for i in judgement.captures.loot_from]
    claimed = replace(mine, tricks=(mine.tricks or 0) + 1, bonuses=bonuses,
                      loot_with=tuple(dict.fromkeys([*mine.loot_with, *partners])))
    scoring = replace(current, entries=tuple(claimed if e.player == mine.player else e for e in current.entries))
    entered: tuple[int, ...] = (seat,)
    played_at, monsters = judgement.davy_jones or (0, 0)
    locker_seat = (lead + played_at) % count
    # The monsters Davy Jones destroyed score for its player, whoever won the trick: written by this claim for its
    # own phone or, from the host, for a seat without one; a player with a phone of their own counts them there.
    if monsters and actor.enters_for(locker_seat):
        entered += (locker_seat,)
        locker = scoring.entries[locker_seat]
        destroyed = locker.bonuses.get(rules.DAVY_JONES_MONSTERS, 0) + monsters
        more = {**locker.bonuses, rules.DAVY_JONES_MONSTERS: destroyed}
        scoring = replace(scoring, entries=tuple(replace(e, bonuses=more) if i == locker_seat else e
                                           for i, e in enumerate(scoring.entries)))
    problems = _refusing(rules.validate_hand(table, number, scoring, in_play=True), {mine.player}, False)
    if problems:
        return refused(*problems)
    after = _with_entered(table, hand, scoring)
    after, _ = _settle(table, _with_entry(after, replace(after.entries[seat], done=False)), seat)
    written = tricks.written_trick(played)
    return replace(_written(hand, replace(after, claimed=(*hand.claimed, written)), "result"),
                   entered_for=entered)


def _corrected(game: GameSeen, actor: Actor, number: int) -> HandState | Denied | Missing | Stale:
    """The scored hand `number` the host corrects, or why there is none to correct (a hand not scored: the table has
    moved on since the form was drawn)."""
    if not actor.is_host:
        return Denied()
    hand = game.hand(number)
    if isinstance(hand, Missing):
        return hand
    return hand if hand.phase == Phase.SCORED else STALE


def correct_hand(game: GameSeen, actor: Actor, number: int, scoring: Hand) -> Answer:
    """The host corrects a scored hand; later totals follow, the pad marks it, and a finished game's statistics
    follow too."""
    hand = _corrected(game, actor, number)
    if not isinstance(hand, HandState):
        return hand
    table = game.setup
    problems = rules.validate_hand(table, number, scoring)
    if problems:
        return refused(*problems)
    # A finished game's statistics follow (the table sums the corrected game up again).
    return _written(hand, replace(_with_entered(table, hand, scoring), corrected=True), "correct")


def _with_entry(hand: HandState, entry: EntryState) -> HandState:
    """The hand with one entry changed."""
    return replace(hand, entries=tuple(entry if e.position == entry.position else e for e in hand.entries))


def _close_hand(game: GameSeen, table: Setup, before: HandState, after: HandState) -> Written:
    """A scored hand and the next one open, or none if the game is over: the table collects the next one's bids in
    secret, or sums the game up."""
    scored = replace(after, stored_phase=Phase.SCORED, phase=Phase.SCORED)
    cards = hands.cards_of_hand(table, len(game.hands) + 1)
    written = _written(before, scored, "score")
    if cards is None:
        return written
    return replace(written, opens=storage.opening(cards, table.options.cannonball, len(table.players)))


# --- taps ---------------------------------------------------------------------------------


class TapKind(StrEnum):
    """What a tap on Skull King's pages does."""

    BID = "bid"
    LOAD = "load"
    CARDS = "cards"
    RESULTS = "results"
    CLAIM = "claim"
    CORRECT = "correct"


@dataclass(frozen=True)
class Tap:
    """A tap on one of its pages: what it does, to which hand, and its form as sent, read against the locked game
    (the seats a form may carry are those of the browser as the game knows it now)."""

    kind: TapKind
    number: int
    form: Form


def decide(game: GameSeen, actor: Actor, tap: Tap) -> Answer:
    """What a tap changes, read from its form: its answer, or the problems of a form that says nothing sensible."""
    form, number = tap.form, tap.number
    parsed = forms.Parsed()
    if tap.kind == TapKind.RESULTS:
        return _results_tapped(game, actor, number, form)
    if tap.kind == TapKind.CORRECT:
        return _correction_tapped(game, actor, number, form)
    if tap.kind in (TapKind.BID, TapKind.LOAD):
        seat = forms.whole_number(form, "seat", parsed) if form.get("seat") else None
        if tap.kind == TapKind.LOAD:
            return Refused(tuple(parsed.problems)) if parsed.problems else load_cannon(
                game, actor, number, seat, form.get("shot"))
        bid = forms.whole_number(form, "bid", parsed)
        return Refused(tuple(parsed.problems)) if parsed.problems else place_bid(game, actor, number, seat, bid)
    if tap.kind == TapKind.CARDS:
        cards = forms.whole_number(form, "cards", parsed, hand=number)
        return Refused(tuple(parsed.problems)) if parsed.problems else change_cards(game, actor, number, cards)
    lead = forms.whole_number(form, "lead", parsed)
    return claim_trick(game, actor, number, lead if lead is not None else -1, form.get("cards", "")[:400])


def results_of(form: Form) -> Intent:
    """What a results form means (a form that names nothing sensible: the host's closing)."""
    try:
        return Intent(form.get("intent", Intent.SCORE))
    except ValueError:
        return Intent.SCORE


# The results whose form carries entries: a phone's own, or for the host those of the players without a phone (a
# trick, a trick nobody won or "change it" carry none).
WITH_ENTRIES = (Intent.DRAFT, Intent.DONE, Intent.MADE, Intent.SCORE)


def typed_result(game: GameSeen, seat: int, number: int, form: Form) -> Entry | None:
    """A phone's result as its refused form typed it (its card shows that, not what is stored, so nothing the player
    chose is lost to a refusal); None when the form carries none."""
    hand = game.hand(number)
    if isinstance(hand, Missing) or results_of(form) not in WITH_ENTRIES:
        return None
    parsed = parse_results(form, game.setup, number, (seat,))
    if parsed.problems or seat not in parsed.reports:
        return None
    player = game.scoring(hand).entries[seat]
    return parsed.reports[seat].entry(player.player, player.revealed_bid or 0)


def _results_tapped(game: GameSeen, actor: Actor, number: int, form: Form) -> Answer:
    """Results of a hand in play as its form gives them (`record_results`)."""
    hand = game.hand(number)
    if isinstance(hand, Missing):
        return hand
    intent = results_of(form)
    seats: tuple[int, ...] = ()
    if intent in WITH_ENTRIES:
        seats = tuple(s for s in range(len(game.setup.players)) if actor.enters_for(s))
    parsed = parse_results(form, game.setup, number, seats)
    if parsed.problems:
        return Refused(tuple(parsed.problems))
    return record_results(game, actor, number, Results(intent, parsed.reports, parsed.lost_tricks))


def _correction_tapped(game: GameSeen, actor: Actor, number: int, form: Form) -> Answer:
    """The host's correction of a scored hand as its form gives it (`correct_hand`)."""
    hand = _corrected(game, actor, number)
    if not isinstance(hand, HandState):
        return hand
    parsed = parse_correction(form, game.setup, number, hand.cards)
    if parsed.hand is None:
        return Refused(tuple(parsed.problems))
    return correct_hand(game, actor, number, parsed.hand)
