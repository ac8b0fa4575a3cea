"""Reading the app's HTML forms into rules values, with a plain-words problem for bad input."""

from __future__ import annotations

from dataclasses import dataclass, field

from werkzeug.datastructures import MultiDict

from . import rules
from .rules import N_, Entry, Hand, Options, Problem, Table

MAX_NAME = 40
MAX_SEATS = 8
CAPTURE_TOGGLES = (rules.SKULL_KING_BY_MERMAID, rules.BLACK_FOURTEEN)


@dataclass
class Parsed:
    """What a form gave, and the problems met reading it."""

    problems: list[Problem] = field(default_factory=list)

    def add(self, template: str, players: tuple[str, ...] = (), hand: int | None = None,
            **params: object) -> None:
        self.problems.append(Problem(template, params, hand, players))


def whole_number(form: MultiDict, key: str, parsed: Parsed, default: int | None = None,
                 player: str | None = None, hand: int | None = None) -> int | None:
    """The whole number in `form[key]`; a problem and None if it is not one."""
    raw = form.get(key, "").strip()
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or abs(value) > 10_000:
        if player:
            parsed.add(N_("%(names)s: “%(value)s” is not a whole number."), (player,), hand, value=raw[:20])
        else:
            parsed.add(N_("“%(value)s” is not a whole number."), (), hand, value=raw[:20])
        return None
    return value


@dataclass
class NewGame(Parsed):
    """A new game's table, as the form described it."""

    table: Table | None = None
    names: list[str] = field(default_factory=list)
    first_dealer: int = 0


def parse_new_game(form: MultiDict) -> NewGame:
    """Read the new-game form: names in seat order, ruleset, options and first dealer."""
    result = NewGame()
    result.names = [n.strip() for n in form.getlist("player")[:MAX_SEATS]]
    names = [n for n in result.names if n]
    if any(len(n) > MAX_NAME for n in names):
        result.add(N_("A name can have at most %(most)d characters."), most=MAX_NAME)
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
        )
    seated = names[result.first_dealer:] + names[:result.first_dealer]
    table = Table(ruleset, tuple(seated), options)
    result.problems.extend(rules.validate_table(table))
    if not result.problems:
        result.table = table
    return result


@dataclass
class HandForm(Parsed):
    """A hand's results (or its correction) as the form gave them."""

    hand: Hand | None = None


def parse_hand(form: MultiDict, table: Table, number: int, cards: int,
               bids: tuple[int | None, ...], with_bids: bool) -> HandForm:
    """Read the results form of hand `number`; `bids` are the revealed ones.

    With `with_bids` (a correction) the bids come from the form as well. Harry the
    Giant's change is a separate −1/+1 choice applied to the bid as revealed.
    """
    result = HandForm()
    players = table.players
    lost = whole_number(form, "lost_tricks", result, default=0, hand=number)
    new_cards = whole_number(form, "cards", result, default=cards, hand=number) if with_bids else cards
    entries = []
    for seat, player in enumerate(players):
        def number_of(key: str) -> int | None:
            return whole_number(form, f"{key}-{seat}", result, default=0, player=player, hand=number)

        bid = whole_number(form, f"bid-{seat}", result, player=player, hand=number) if with_bids else bids[seat]
        if bid is None and with_bids:
            result.add(N_("%(names)s has no bid."), (player,), number)
            continue
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
            if raw.isdigit() and int(raw) < len(players):
                loot_with.append(players[int(raw)])
            else:
                result.add(N_("%(names)s: the Loot partner must be one of the players."), (player,), number)
        wager = None
        if form.get(f"wager-{seat}", "") != "":
            wager = whole_number(form, f"wager-{seat}", result, player=player, hand=number)
        shot = form.get(f"shot-{seat}") or None
        changed_from = None
        harry = form.get(f"harry-{seat}", "")
        if harry in ("-1", "+1") and bid is not None:
            changed_from, bid = bid, bid + int(harry)
        elif harry not in ("", "0"):
            result.add(N_("%(names)s: Harry the Giant changes a bid by −1, 0 or +1."), (player,), number)
        if tricks is None or bid is None:
            continue
        entries.append(Entry(player, bid, tricks, bonuses, tuple(loot_with), wager, shot, changed_from))
    if not result.problems and lost is not None and new_cards is not None:
        result.hand = Hand(new_cards, tuple(entries), lost)
    return result
