"""Reading Skull King's forms into rules values, with a plain-words problem for bad input."""

from __future__ import annotations

from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict

from ...forms import MOST_NAMES_READ, Parsed, whole_number
from . import rules
from .rules import N_, Entry, Hand, Options, Setup

MAX_SEATS = 9
CAPTURE_TOGGLES = (rules.SKULL_KING_BY_MERMAID, rules.BLACK_FOURTEEN, rules.FIRST_MATE_TAKEN)
# The Expansion Pack's bonuses few hands see: behind the phone's "More", as Harry, the wager and Loot are.
RARE_CAPTURES = (rules.FIRST_MATE_TAKEN, rules.DAVY_JONES_MONSTERS)


@dataclass
class NewGame(Parsed):
    """A new game's table, as the form described it."""

    table: Setup | None = None
    names: list[str] = field(default_factory=list)
    first_dealer: int = 0


def parse_new_game(form: MultiDict[str, str]) -> NewGame:
    """Read the new-game form: names in seat order, ruleset, options and first dealer."""
    result = NewGame()
    result.names = [n.strip() for n in form.getlist("player")[:MOST_NAMES_READ]]
    names = [n for n in result.names if n]
    ruleset = form.get("ruleset", "classic")
    if ruleset not in rules.RULESETS:
        result.add(N_("The ruleset must be classic, doubloons or modern, not “%(ruleset)s”."),
                   ruleset=ruleset[:20])
        return result
    dealer = whole_number(form, "first_dealer", result, default=0)
    # The dealer is picked among the typed rows; empty rows before it don't count.
    filled = [i for i, n in enumerate(result.names) if n]
    if dealer is not None and dealer in filled:
        result.first_dealer = filled.index(dealer)
    options = Options()
    if ruleset == "modern":
        rounds = form.get("rounds", "standard")
        scoring = form.get("scoring", "standard")
        options = Options(
            scoring=scoring,
            cannonball=scoring == "rascal" and form.get("cannonball") == "on",
            rounds=rounds,
            advanced_cards=form.get("advanced_cards") == "on",
            rascal_wagers=form.get("rascal_wagers") == "on",
            expansion=form.get("expansion") == "on",
        )
    # Seats keep the order typed (the pad's columns read that way); the first dealer is marked, not moved.
    table = Setup(ruleset, tuple(names), options, result.first_dealer)
    result.problems.extend(rules.validate_table(table))
    if not result.problems:
        result.table = table
    return result


@dataclass(frozen=True)
class EntryReport:
    """One player's result as typed: everything but the bid, and Harry the Giant's change to it."""

    tricks: int
    bonuses: dict[str, int] = field(default_factory=dict)
    loot_with: tuple[str, ...] = ()
    wager: int | None = None
    shot: str | None = None
    harry: int = 0

    def entry(self, player: str, bid: int) -> Entry:
        """The rules' entry of `player`, whose bid as revealed was `bid`."""
        changed_from = bid if self.harry else None
        return Entry(player, bid + self.harry, self.tricks, self.bonuses, self.loot_with, self.wager,
                     self.shot, changed_from)


def parse_entry(form: MultiDict[str, str], table: Setup, seat: int, number: int, parsed: Parsed) -> EntryReport | None:
    """Read the fields of the player in `seat` (`tricks-2`, `loot-2`…); None if any is wrong."""
    players = table.players
    player = players[seat]
    before = len(parsed.problems)

    def number_of(key: str) -> int | None:
        return whole_number(form, f"{key}-{seat}", parsed, default=0, player=player, hand=number)

    tricks = number_of("tricks")
    bonuses: dict[str, int] = {}
    for kind in table.spec.bonus_values:
        if kind in CAPTURE_TOGGLES:
            if form.get(f"{kind}-{seat}") == "on":
                bonuses[kind] = 1
        else:
            count = number_of(kind)
            if count:
                bonuses[kind] = count
    loot_with = []
    for raw in form.getlist(f"loot-{seat}"):
        if raw.isascii() and raw.isdigit() and int(raw) < len(players):
            loot_with.append(players[int(raw)])
        else:
            parsed.add(N_("%(names)s: the Loot partner must be one of the players."), (player,), number)
    wager = None
    if form.get(f"wager-{seat}", "") != "":
        wager = whole_number(form, f"wager-{seat}", parsed, player=player, hand=number)
    harry = form.get(f"harry-{seat}", "")
    if harry not in ("", "0", "-1", "+1"):
        parsed.add(N_("%(names)s: Harry the Giant changes a bid by −1, 0 or +1."), (player,), number)
    if len(parsed.problems) > before or tricks is None:
        return None
    return EntryReport(tricks, bonuses, tuple(loot_with), wager, form.get(f"shot-{seat}") or None,
                       int(harry) if harry not in ("", "0") else 0)


@dataclass
class ResultsForm(Parsed):
    """The results of a hand in play as a screen gave them: some seats' entries, maybe the lost tricks."""

    reports: dict[int, EntryReport] = field(default_factory=dict)
    lost_tricks: int | None = None


def parse_results(form: MultiDict[str, str], table: Setup, number: int, seats: tuple[int, ...]) -> ResultsForm:
    """Read the results of `seats` (a phone: its own; the host: everyone) and the tricks nobody won."""
    result = ResultsForm()
    if "lost_tricks" in form:
        result.lost_tricks = whole_number(form, "lost_tricks", result, default=0, hand=number)
    for seat in seats:
        report = parse_entry(form, table, seat, number, result)
        if report is not None:
            result.reports[seat] = report
    return result


@dataclass
class HandForm(Parsed):
    """A scored hand as the correction form gives it again, bids and cards included."""

    hand: Hand | None = None


def parse_correction(form: MultiDict[str, str], table: Setup, number: int, cards: int) -> HandForm:
    """Read the correction form of hand `number`: its cards, bids, results and lost tricks.

    Harry the Giant's change is a separate −1/+1 choice applied to the bid as revealed.
    """
    result = HandForm()
    lost = whole_number(form, "lost_tricks", result, default=0, hand=number)
    new_cards = whole_number(form, "cards", result, default=cards, hand=number)
    entries = []
    for seat, player in enumerate(table.players):
        bid = whole_number(form, f"bid-{seat}", result, player=player, hand=number)
        if bid is None:
            if form.get(f"bid-{seat}", "").strip() == "":
                result.add(N_("%(names)s has no bid."), (player,), number)
            continue
        report = parse_entry(form, table, seat, number, result)
        if report is not None:
            entries.append(report.entry(player, bid))
    if not result.problems and lost is not None and new_cards is not None:
        result.hand = Hand(new_cards, tuple(entries), lost)
    return result
