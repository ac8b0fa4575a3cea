"""The Skull King rules: cards per hand, scoring and validation for every ruleset.

Pure Python on purpose: plain values in, plain values out, no web framework or
database, so the same rules serve the web app, the pad file and the command line.

Problems are returned as `Problem` values holding an English template and its
parameters; the web layer translates the template, the command line prints it as is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...padfile import JSONObject

# Re-exported: the rules' problems are the ones every game speaks in.
from ...problems import N_ as N_
from ...problems import Problem as Problem
from ...problems import name_problems

RULESETS = ("classic", "doubloons", "modern")
SCORINGS = ("standard", "rascal")
SHOTS = ("grapeshot", "cannonball")
WAGERS = (0, 10, 20)
# A pad may list its own cards per hand; more than this is no game anyone plays.
MAX_CUSTOM_HANDS = 50
LOOT_CARDS = 2

ROUND_STRUCTURES: dict[str, tuple[int, ...]] = {
    "standard": tuple(range(1, 11)),
    "even-keeled": (2, 4, 6, 8, 10),
    "skip-to-the-brawl": (6, 7, 8, 9, 10),
    "swift-n-salty": (5,) * 5,
    "broadside-barrage": (10,) * 10,
    "whirlpool": (9, 7, 5, 3, 1),
    "past-your-bedtime": (1,),
}

PIRATES_BY_SKULL_KING = "pirates_by_skull_king"
SKULL_KING_BY_MERMAID = "skull_king_by_mermaid"
MERMAIDS_BY_PIRATE = "mermaids_by_pirate"
STANDARD_FOURTEENS = "standard_fourteens"
BLACK_FOURTEEN = "black_fourteen"
# The 2025 Expansion Pack's bonuses (docs/rules.md): the compass 8s and 7s taken, First Mate Con taken by the Skull
# King or a Mermaid, and the sea monsters the player's Davy Jones' Locker destroyed (no trick needed for those).
EXPANSION_EIGHTS = "expansion_eights"
EXPANSION_SEVENS = "expansion_sevens"
FIRST_MATE_TAKEN = "first_mate_taken"
DAVY_JONES_MONSTERS = "davy_jones_monsters"
EXPANSION_BONUSES = {EXPANSION_EIGHTS: 5, EXPANSION_SEVENS: -5, FIRST_MATE_TAKEN: 30, DAVY_JONES_MONSTERS: 20}
# Four of each compass card; one Con; the Stingray, and the Kraken and the White Whale with the advanced cards.
EXPANSION_LIMITS = {EXPANSION_EIGHTS: 4, EXPANSION_SEVENS: 4, FIRST_MATE_TAKEN: 1}
EXPANSION_CARDS = 19
# With two players the four 0/14s, the Wild 15 and Walk the Plank stay in the box.
EXPANSION_LEFT_OUT_FOR_TWO = 6
ADVANCED_CARDS = 4  # Loot ×2, Kraken, White Whale: they enlarge the deck only with the expansion (see max_cards)


@dataclass(frozen=True)
class RulesetSpec:
    """What one ruleset's deck holds and what its captures are worth."""

    name: str
    min_players: int
    max_players: int
    deck_size: int
    pirates: int
    mermaids: int
    bonus_values: Mapping[str, int]


SPECS: dict[str, RulesetSpec] = {
    "classic": RulesetSpec(
        "classic", 2, 6, 66, pirates=6, mermaids=2,
        bonus_values={PIRATES_BY_SKULL_KING: 30, SKULL_KING_BY_MERMAID: 50},
    ),
    # The tactile rules text gives "66 coins" but lists shapes valued 0-9; we
    # follow the stated total, which is also what ten hands for six players need.
    "doubloons": RulesetSpec(
        "doubloons", 2, 6, 66, pirates=3, mermaids=1,
        bonus_values={PIRATES_BY_SKULL_KING: 30, SKULL_KING_BY_MERMAID: 50},
    ),
    # The base deck of 70 sets the cap on cards per hand even with advanced cards.
    "modern": RulesetSpec(
        "modern", 2, 8, 70, pirates=6, mermaids=2,
        bonus_values={
            STANDARD_FOURTEENS: 10,
            BLACK_FOURTEEN: 20,
            MERMAIDS_BY_PIRATE: 20,
            PIRATES_BY_SKULL_KING: 30,
            SKULL_KING_BY_MERMAID: 40,
        },
    ),
}

# Modern with the Expansion Pack: nine players, a sixth named Pirate (Mary Thorne), its own bonuses.
EXPANSION_SPEC = RulesetSpec(
    "modern", 2, 9, 70 + EXPANSION_CARDS, pirates=7, mermaids=2,
    bonus_values={**SPECS["modern"].bonus_values, **EXPANSION_BONUSES},
)

LOOT_BONUS = 20
# A hand's points, as the rulebooks give them (the rules page shows these same numbers).
BID_MADE_PER_TRICK = 20  # a bid of one or more, made: per trick bid
MISSED_PER_TRICK = 10  # a bid missed: minus this per trick off
ZERO_BID_PER_CARD = 10  # a zero bid: plus this per card dealt if made, minus if missed
RASCAL_STAKE_PER_CARD = 10  # Rascal's scoring: the stake per card dealt, all of it exact, half one off
CANNONBALL_PER_CARD = 15  # Rascal's cannonball: per card dealt, on an exact bid only

# The tricks won of a whole hand do not add up: named, so screens can tell "tricks missing" from a clash.
TRICKS_SUM = N_("the tricks won add up to %(total)d (%(breakdown)s), but they must add up to the cards dealt: "
                "%(cards)d.")
TRICKS_SUM_WITH_LOST = N_("the tricks won add up to %(total)d (%(breakdown)s), but they must add up to %(target)d "
                          "(cards dealt: %(cards)d, tricks nobody won: %(lost)d).")


# What a problem about captured cards speaks of: where replaying the trick with the judge helps.
CAPTURE_WORDS = ("captur", "Skull King", "Mermaid", "pirate", "14", "Loot")


def about_captures(problem: Problem) -> bool:
    """Whether `problem` is about who captured which card (the trick judge can settle it); a wager is no capture."""
    text = problem.template.lower()
    return "wager" not in text and any(word.lower() in text for word in CAPTURE_WORDS)


def tricks_missing(problem: Problem) -> int:
    """How many tricks a hand's results are short of, when that is what `problem` says; else 0."""
    if problem.template not in (TRICKS_SUM, TRICKS_SUM_WITH_LOST):
        return 0
    total, target = problem.params["total"], problem.params["target"]
    assert isinstance(total, int) and isinstance(target, int)
    return max(target - total, 0)


@dataclass(frozen=True)
class Options:
    """The options a table chose at the start; all but the defaults are modern only."""

    scoring: str = "standard"
    cannonball: bool = False
    rounds: str | tuple[int, ...] = "standard"
    advanced_cards: bool = False
    rascal_wagers: bool = False
    expansion: bool = False

    def to_document(self, ruleset: str) -> JSONObject:
        """The options as the pad file (and the database) write them: all of them, so nothing is implied; the
        Expansion Pack only when it is in, so that a game without it writes the same bytes as before it existed."""
        if ruleset != "modern":
            return {"scoring": self.scoring}
        written: JSONObject = {
            "scoring": self.scoring,
            "cannonball": self.cannonball,
            "rounds": list(self.rounds) if isinstance(self.rounds, tuple) else self.rounds,
            "advanced_cards": self.advanced_cards,
            "rascal_wagers": self.rascal_wagers,
        }
        if self.expansion:
            written["expansion"] = True
        return written

    @classmethod
    def from_document(cls, doc: Mapping[str, Any]) -> Options:
        """Options from their written form (already checked: see the pad reader)."""
        values = dict(doc)
        if isinstance(values.get("rounds"), list):
            values["rounds"] = tuple(values["rounds"])
        return cls(**values)


@dataclass(frozen=True)
class Setup:
    """Who plays, in seat order, under which rules, and which seat deals the first hand."""

    ruleset: str
    players: tuple[str, ...]
    options: Options = Options()
    first_dealer: int = 0

    @property
    def spec(self) -> RulesetSpec:
        """The ruleset's deck and bonuses, the Expansion Pack's added when it is in."""
        return EXPANSION_SPEC if self.expansion else SPECS[self.ruleset]

    @property
    def expansion(self) -> bool:
        """Whether the 2025 Expansion Pack is in (an option of the modern rules only)."""
        return self.ruleset == "modern" and self.options.expansion


@dataclass(frozen=True)
class Entry:
    """One player's line in one hand; `tricks` is None while the hand is played."""

    player: str
    bid: int | None
    tricks: int | None = None
    bonuses: Mapping[str, int] = field(default_factory=dict)
    loot_with: tuple[str, ...] = ()
    wager: int | None = None
    shot: str | None = None
    bid_changed_from: int | None = None

    @property
    def revealed_bid(self) -> int | None:
        """The bid as the table saw it at the reveal, before Harry the Giant changed it."""
        return self.bid_changed_from if self.bid_changed_from is not None else self.bid


@dataclass(frozen=True)
class Hand:
    """One hand: the cards dealt to each player, the entries, tricks nobody won."""

    cards: int
    entries: tuple[Entry, ...]
    lost_tricks: int = 0

    @property
    def finished(self) -> bool:
        """True when every entry has its tricks."""
        return all(e.tricks is not None for e in self.entries)


# --- cards per hand ---------------------------------------------------------------


def deck_size(table: Setup) -> int:
    """The cards in play: the ruleset's deck; with the Expansion Pack its 19 cards (6 fewer for two players) and,
    then only, the advanced cards too (without it the 70-card rule stands, so games made before keep their deal)."""
    size = table.spec.deck_size
    if table.expansion:
        size += ADVANCED_CARDS if table.options.advanced_cards else 0
        size -= EXPANSION_LEFT_OUT_FOR_TWO if len(table.players) == 2 else 0
    return size


def max_cards(table: Setup) -> int:
    """Most cards each player can be dealt: the deck shared out evenly."""
    return deck_size(table) // max(len(table.players), 1)


def cards_per_hand(table: Setup) -> tuple[int, ...]:
    """Cards dealt in each hand of the game, before any host override."""
    rounds = table.options.rounds
    planned = rounds if isinstance(rounds, tuple) else ROUND_STRUCTURES[rounds]
    cap = max_cards(table)
    return tuple(min(n, cap) for n in planned)


def dealer_index(table: Setup, hand_number: int) -> int:
    """Seat of the dealer of hand `hand_number` (1-based); the deal moves left."""
    return (table.first_dealer + hand_number - 1) % len(table.players)


def leader_index(table: Setup, hand_number: int) -> int:
    """Seat of the player who leads the first trick: left of the dealer."""
    return (table.first_dealer + hand_number) % len(table.players)


# --- scoring ------------------------------------------------------------------------


def capture_bonus(table: Setup, entry: Entry, kinds: Iterable[str] | None = None) -> int:
    """Points the entry's captured cards (of `kinds`, else all) are worth if the bid is made."""
    values = table.spec.bonus_values
    return sum(values.get(kind, 0) * count for kind, count in entry.bonuses.items()
               if kinds is None or kind in kinds)


def _points_parts(table: Setup, cards: int, entry: Entry, made: bool) -> tuple[int, int]:
    """(points for the bid, bonus points earned) before Loot and wagers."""
    bid, tricks = entry.bid or 0, entry.tricks or 0
    bonus = capture_bonus(table, entry)
    if table.ruleset == "modern" and table.options.scoring == "rascal":
        stake = RASCAL_STAKE_PER_CARD * cards
        if entry.shot == "cannonball":
            return (CANNONBALL_PER_CARD * cards, bonus) if made else (0, 0)
        miss = abs(tricks - bid)
        if miss == 0:
            return stake, bonus
        if miss == 1:
            # Stake and the base game's bonuses are multiples of 10, so halving each is exact; the Expansion Pack's
            # keep their exact-bid condition, as Loot and the wager do, and are dropped (our reading: docs/rules.md).
            return stake // 2, (bonus - capture_bonus(table, entry, EXPANSION_BONUSES)) // 2
        return 0, 0
    if bid == 0:
        return (ZERO_BID_PER_CARD * cards, bonus) if made else (-ZERO_BID_PER_CARD * cards, 0)
    return (BID_MADE_PER_TRICK * bid, bonus) if made else (-MISSED_PER_TRICK * abs(tricks - bid), 0)


def _hand_parts(table: Setup, hand: Hand) -> dict[str, tuple[int, int]]:
    made = {e.player: e.tricks == e.bid for e in hand.entries}
    parts = {}
    for entry in hand.entries:
        base, bonus = _points_parts(table, hand.cards, entry, made[entry.player])
        bonus += sum(
            LOOT_BONUS for partner in entry.loot_with if made[entry.player] and made.get(partner)
        )
        if entry.wager:
            # A lost wager is a loss on the bid, not a negative bonus.
            if made[entry.player]:
                bonus += entry.wager
            else:
                base -= entry.wager
        parts[entry.player] = (base, bonus)
    return parts


def score_hand(table: Setup, hand: Hand) -> dict[str, int]:
    """Points of each player for a finished, valid hand."""
    return {player: base + bonus for player, (base, bonus) in _hand_parts(table, hand).items()}


def bonus_points(table: Setup, hand: Hand) -> dict[str, int]:
    """The part of each player's points that bonuses earned (captures, Loot, wagers won)."""
    return {player: bonus for player, (_, bonus) in _hand_parts(table, hand).items()}


def provisional_points(table: Setup, hand: Hand) -> dict[str, int]:
    """Points each player with a result so far would score if the hand ended now.

    A player with no tricks given yet is left out: nobody loses points before saying anything.
    """
    so_far = Hand(
        cards=hand.cards,
        lost_tricks=hand.lost_tricks,
        entries=tuple(
            Entry(
                player=e.player,
                bid=e.bid or 0,
                tricks=e.tricks or 0,
                bonuses=e.bonuses,
                loot_with=e.loot_with,
                wager=e.wager,
                shot=e.shot,
                bid_changed_from=e.bid_changed_from,
            )
            for e in hand.entries
        ),
    )
    entered = {e.player for e in hand.entries if e.tricks is not None}
    return {p: v for p, v in score_hand(table, so_far).items() if p in entered}


def running_totals(table: Setup, hands: Iterable[Hand]) -> list[dict[str, int]]:
    """Each player's total after each finished hand, in order."""
    totals = dict.fromkeys(table.players, 0)
    result = []
    for hand in hands:
        if not hand.finished:
            break
        for player, points in score_hand(table, hand).items():
            totals[player] += points
        result.append(dict(totals))
    return result


# --- validation ---------------------------------------------------------------------


def validate_table(table: Setup) -> list[Problem]:
    """Every problem with the players, ruleset and options, all at once."""
    problems: list[Problem] = []
    if table.ruleset not in SPECS:
        return [Problem(N_("The ruleset must be classic, doubloons or modern, not “%(ruleset)s”."),
                        {"ruleset": table.ruleset})]
    spec = table.spec
    count = len(table.players)
    if not spec.min_players <= count <= spec.max_players:
        problems.append(Problem(
            N_("The %(ruleset)s rules are for %(low)d to %(high)d players, not %(count)d."),
            {"ruleset": table.ruleset, "low": spec.min_players, "high": spec.max_players,
             "count": count}))
    problems.extend(name_problems(table.players))
    if count and not 0 <= table.first_dealer < count:
        problems.append(Problem(N_("The first dealer must be one of the players.")))
    repeated = sorted(name for name, n in Counter(table.players).items() if n > 1 and name.strip())
    if repeated:
        problems.append(Problem(
            N_("%(names)s: each player needs a different name."), players=tuple(repeated)))
    options = table.options
    if table.ruleset != "modern" and options.expansion:
        problems.append(Problem(N_("The Expansion Pack is an option of the modern rules only.")))
    if table.ruleset != "modern" and options != Options(rounds=options.rounds, expansion=options.expansion):
        problems.append(Problem(
            N_("Rascal's scoring, cannonball, advanced cards and wagers are options of the modern rules only.")))
    if table.ruleset != "modern" and options.rounds != "standard":
        problems.append(Problem(N_("Round structures are an option of the modern rules only.")))
    if options.scoring not in SCORINGS:
        problems.append(Problem(N_("Scoring must be standard or rascal, not “%(scoring)s”."),
                                {"scoring": options.scoring}))
    if options.cannonball and options.scoring != "rascal":
        problems.append(Problem(N_("Cannonball goes with Rascal's scoring only.")))
    if isinstance(options.rounds, tuple):
        cap = max_cards(table) if count else 0
        if not options.rounds:
            problems.append(Problem(N_("A game needs at least one hand.")))
        if len(options.rounds) > MAX_CUSTOM_HANDS:
            return problems + [Problem(N_("A game has at most %(most)d hands."), {"most": MAX_CUSTOM_HANDS})]
        for number, cards in enumerate(options.rounds, start=1):
            if not 1 <= cards <= cap:
                problems.append(_cards_problem(number, cards, count, cap))
    elif options.rounds not in ROUND_STRUCTURES:
        problems.append(Problem(N_("There is no round structure called “%(rounds)s”."),
                                {"rounds": options.rounds}))
    return problems


def _cards_problem(number: int, cards: int, count: int, cap: int) -> Problem:
    return Problem(
        N_("%(cards)d cards cannot be dealt: with %(count)d players each gets 1 to %(cap)d cards."),
        {"cards": cards, "count": count, "cap": cap}, hand=number)


def bonus_refusal(table: Setup, kind: str) -> tuple[str, dict[str, object]] | None:
    """Why `kind` is no bonus of `table`'s game (one of the Expansion Pack's without it, or none of its ruleset's):
    a template about a player and its values; None if it is one."""
    if kind in EXPANSION_BONUSES and not table.expansion:
        return (N_("%(names)s: “%(kind)s” is a bonus of the Expansion Pack, which this game does not use."),
                {"kind": kind})
    if kind not in table.spec.bonus_values:
        return N_("%(names)s: “%(kind)s” is not a bonus of the %(ruleset)s rules."), {"kind": kind,
                                                                                     "ruleset": table.ruleset}
    return None


def sea_monsters(table: Setup) -> int:
    """The sea monsters Davy Jones' Locker can destroy in a hand: the Stingray, and with the advanced cards the
    Kraken and the White Whale."""
    return 3 if table.options.advanced_cards else 1


def lost_tricks_allowed(table: Setup) -> bool:
    """Whether a hand may have tricks nobody won (Kraken, White Whale, the ghost; with the Expansion Pack a Stingray
    trick of specials only, or a trick of cards that cannot win)."""
    modern_advanced = table.ruleset == "modern" and table.options.advanced_cards
    return modern_advanced or table.expansion or len(table.players) == 2


def validate_hand(table: Setup, number: int, hand: Hand, in_play: bool = False) -> list[Problem]:
    """Every problem with hand `number`, all at once; an empty list means valid.

    A hand still being played (`in_play`, or some tricks not given) is checked as
    far as it goes: its tricks so far may add up to less than the cards.
    """
    checker = _HandChecker(table, number, hand, in_play)
    checker.run()
    return checker.problems


class _HandChecker:
    """Collects the problems of one hand; one method per rule family."""

    def __init__(self, table: Setup, number: int, hand: Hand, in_play: bool):
        self.table, self.number, self.hand, self.in_play = table, number, hand, in_play
        self.spec = table.spec
        self.modern = table.ruleset == "modern"
        self.problems: list[Problem] = []
        self.entries = [e for e in hand.entries if e.player in table.players]

    def add(self, template: str, players: Iterable[str] = (), **params: object) -> None:
        self.problems.append(Problem(template, params, self.number, tuple(players)))

    def run(self) -> None:
        self.check_cards()
        self.check_players()
        for entry in self.entries:
            self.check_counts(entry)
        self.check_trick_sum()
        self.check_captures()
        self.check_skull_king()
        self.check_deck_limits()
        self.check_expansion()
        self.check_loot()
        self.check_pirate_abilities()

    def check_cards(self) -> None:
        count = len(self.table.players)
        cap = max_cards(self.table)
        if not 1 <= self.hand.cards <= cap:
            self.problems.append(_cards_problem(self.number, self.hand.cards, count, cap))
        lost = self.hand.lost_tricks
        if lost and not lost_tricks_allowed(self.table):
            self.add(N_("tricks nobody won happen only with the Kraken or White Whale "
                        "(modern rules with advanced cards) or the ghost of a two-player game."))
        if lost < 0 or lost > self.hand.cards:
            self.add(N_("tricks nobody won (%(lost)d) cannot be more than the cards dealt (%(cards)d)."),
                     lost=lost, cards=self.hand.cards)

    def check_players(self) -> None:
        seen = Counter(e.player for e in self.hand.entries)
        strangers = [p for p in seen if p not in self.table.players]
        if strangers:
            self.add(N_("not playing in this game: %(names)s."), strangers)
        twice = [p for p, n in seen.items() if n > 1 and p in self.table.players]
        if twice:
            self.add(N_("more than one line for %(names)s — one each."), twice)
        missing = [p for p in self.table.players if p not in seen]
        if missing:
            self.add(N_("no line for %(names)s — every player needs one."), missing)

    def check_counts(self, entry: Entry) -> None:
        cards, who = self.hand.cards, entry.player
        for label, value in ((N_("bid"), entry.bid), (N_("tricks won"), entry.tricks)):
            if value is not None and value < 0:
                self.add(N_("%(names)s: %(what)s cannot be below 0."), [who], what=label)
            elif value is not None and value > cards:
                self.add(N_("%(names)s: %(what)s %(value)d is more than the cards dealt (%(cards)d)."),
                         [who], what=label, value=value, cards=cards)
        if entry.bid is None:
            self.add(N_("%(names)s has no bid."), [who])
        for kind, value in entry.bonuses.items():
            refusal = bonus_refusal(self.table, kind)
            if refusal is not None:
                self.add(refusal[0], [who], **refusal[1])
            elif value < 0:
                self.add(N_("%(names)s: a count of captured cards cannot be below 0."), [who])

    def check_trick_sum(self) -> None:
        given = [e for e in self.entries if e.tricks is not None and e.tricks >= 0]
        lost = self.hand.lost_tricks
        target = self.hand.cards - lost
        total = sum(e.tricks or 0 for e in given)
        # The breakdown names everyone, since any of them may have miscounted.
        who = tuple(e.player for e in given)
        breakdown = ", ".join(f"{e.player} {e.tricks}" for e in given)
        finished = len(given) == len(self.entries) and self.hand.finished and not self.in_play
        if finished and total != target:
            if lost:
                self.add(TRICKS_SUM_WITH_LOST, who, total=total, breakdown=breakdown, cards=self.hand.cards,
                         lost=lost, target=target)
            else:
                self.add(TRICKS_SUM, who, total=total, breakdown=breakdown, cards=self.hand.cards, target=target)
        elif not finished and total > target:
            self.add(N_("the tricks won so far add up to %(total)d (%(breakdown)s), more than this "
                        "hand has: %(target)d."),
                     who, total=total, breakdown=breakdown, target=target)

    def captured(self, entry: Entry) -> int:
        """The cards `entry` took in its tricks (the monsters its Davy Jones destroyed need no trick)."""
        return sum(max(v, 0) for k, v in entry.bonuses.items()
                   if k in self.spec.bonus_values and k != DAVY_JONES_MONSTERS)

    def check_captures(self) -> None:
        no_tricks = [e.player for e in self.entries if self.captured(e) and not e.tricks]
        if no_tricks:
            self.add(N_("%(names)s won no tricks, so cannot have captured any cards."), no_tricks)
        # The Last Volley puts one card more into one trick of the hand.
        players, volley = len(self.table.players), 1 if self.table.expansion else 0
        for entry in self.entries:
            held = (entry.tricks or 0) * players + volley
            if entry.tricks and self.captured(entry) > held:
                self.add(N_("%(names)s claims %(claimed)d captured cards, but only %(held)d "
                            "cards were played into the tricks %(names)s won."),
                         [entry.player], claimed=self.captured(entry), held=held)

    def check_skull_king(self) -> None:
        def count(entry: Entry, kind: str) -> int:
            return max(entry.bonuses.get(kind, 0), 0)

        claimants = [e.player for e in self.entries
                     if count(e, PIRATES_BY_SKULL_KING) or count(e, SKULL_KING_BY_MERMAID)]
        if len(claimants) == 2:
            self.add(N_("%(names)s both claim the Skull King — there is only one."), claimants)
        elif len(claimants) > 2:
            self.add(N_("%(names)s all claim the Skull King — there is only one."), claimants)
        for entry in self.entries:
            if count(entry, PIRATES_BY_SKULL_KING) and count(entry, SKULL_KING_BY_MERMAID):
                self.add(N_("%(names)s claims both that the Skull King took pirates and that a "
                            "Mermaid took the Skull King — there is only one Skull King."),
                         [entry.player])
            if count(entry, SKULL_KING_BY_MERMAID) > 1:
                self.add(N_("%(names)s claims the Skull King %(times)d times — there is only one."),
                         [entry.player], times=count(entry, SKULL_KING_BY_MERMAID))
            in_trick = len(self.table.players) - 1
            if count(entry, PIRATES_BY_SKULL_KING) > in_trick:
                self.add(N_("%(names)s: the Skull King took %(pirates)d pirates, more than the other "
                            "players in one trick (%(most)d)."),
                         [entry.player], pirates=count(entry, PIRATES_BY_SKULL_KING), most=in_trick)

    def _over_deck(self, kind: str, limit: int, template: str) -> None:
        holders = [e for e in self.entries if e.bonuses.get(kind, 0) > 0]
        total = sum(e.bonuses[kind] for e in holders)
        if total > limit:
            self.add(template, [e.player for e in holders], total=total, limit=limit)

    def check_deck_limits(self) -> None:
        self._over_deck(PIRATES_BY_SKULL_KING, self.spec.pirates,
                        N_("%(names)s: %(total)d pirates taken, but the deck holds only %(limit)d."))
        mermaid_kinds = (SKULL_KING_BY_MERMAID, MERMAIDS_BY_PIRATE)
        mermaids = [e for e in self.entries if any(e.bonuses.get(k, 0) > 0 for k in mermaid_kinds)]
        total = sum(max(e.bonuses.get(k, 0), 0) for e in mermaids for k in mermaid_kinds)
        if total > self.spec.mermaids:
            self.add(N_("%(names)s: %(total)d Mermaids claimed, but the deck holds only %(limit)d."),
                     [e.player for e in mermaids], total=total, limit=self.spec.mermaids)
        if self.modern:
            self._over_deck(STANDARD_FOURTEENS, 3,
                            N_("%(names)s: %(total)d standard 14s claimed, but there are only %(limit)d."))
            self._over_deck(BLACK_FOURTEEN, 1,
                            N_("%(names)s: the black 14 is claimed %(total)d times, but there is only one."))

    def check_expansion(self) -> None:
        if not self.table.expansion:
            return
        self._over_deck(EXPANSION_EIGHTS, EXPANSION_LIMITS[EXPANSION_EIGHTS],
                        N_("%(names)s: %(total)d compass 8s taken, but there are only %(limit)d."))
        self._over_deck(EXPANSION_SEVENS, EXPANSION_LIMITS[EXPANSION_SEVENS],
                        N_("%(names)s: %(total)d compass 7s taken, but there are only %(limit)d."))
        self._over_deck(FIRST_MATE_TAKEN, EXPANSION_LIMITS[FIRST_MATE_TAKEN],
                        N_("%(names)s: First Mate Con is claimed %(total)d times, but there is only one."))
        lockers = [e for e in self.entries if e.bonuses.get(DAVY_JONES_MONSTERS, 0) > 0]
        if len(lockers) > 1:
            self.add(N_("%(names)s each claim Davy Jones' Locker, but there is only one."),
                     [e.player for e in lockers])
        monsters = sea_monsters(self.table)
        for entry in lockers:
            if entry.bonuses[DAVY_JONES_MONSTERS] > monsters:
                self.add(N_("%(names)s: Davy Jones destroyed %(total)d sea monsters, but the deck holds only "
                            "%(limit)d."), [entry.player], total=entry.bonuses[DAVY_JONES_MONSTERS], limit=monsters)

    def check_loot(self) -> None:
        with_loot = [e for e in self.entries if e.loot_with]
        if not with_loot:
            return
        if not (self.modern and self.table.options.advanced_cards):
            self.add(N_("%(names)s: Loot alliances need the modern rules with advanced cards."),
                     [e.player for e in with_loot])
            return
        tricks = {e.player: e.tricks for e in self.entries}
        pairs: Counter[tuple[str, str]] = Counter()
        for entry in with_loot:
            for partner in entry.loot_with:
                if partner == entry.player:
                    self.add(N_("%(names)s cannot form a Loot alliance with themselves."),
                             [entry.player])
                elif partner not in self.table.players:
                    self.add(N_("%(names)s: the Loot partner “%(partner)s” is not playing."),
                             [entry.player], partner=partner)
                else:
                    pairs[(entry.player, partner)] += 1
        alliances = 0
        for (a, b), n in sorted(pairs.items()):
            if pairs[(b, a)] != n:
                self.add(N_("%(names)s: %(a)s names %(b)s as Loot partner, but %(b)s does not "
                            "name %(a)s — an alliance is made by both."), [a, b], a=a, b=b)
            elif a < b:
                alliances += n
                if tricks.get(a) == 0 and tricks.get(b) == 0:
                    self.add(N_("%(names)s won no tricks, so neither can have taken the Loot."),
                             [a, b])
        if alliances > LOOT_CARDS:
            self.add(N_("%(names)s: %(total)d Loot alliances, but there are only %(limit)d Loot cards."),
                     [e.player for e in with_loot], total=alliances, limit=LOOT_CARDS)

    def check_pirate_abilities(self) -> None:
        options = self.table.options
        wagering = [e for e in self.entries if e.wager is not None]
        if wagering and not (self.modern and options.rascal_wagers):
            self.add(N_("%(names)s: wagers need the modern rules with the Rascal of Roatán option."),
                     [e.player for e in wagering])
        elif len(wagering) > 1:
            self.add(N_("%(names)s each wager, but only one player can win the Rascal of Roatán."),
                     [e.player for e in wagering])
        for entry in wagering:
            if entry.wager not in WAGERS:
                self.add(N_("%(names)s: a wager is 0, 10 or 20, not %(wager)s."),
                         [entry.player], wager=entry.wager)
            elif entry.tricks == 0:
                self.add(N_("%(names)s won no tricks, so cannot have won the Rascal of Roatán."),
                         [entry.player])
        shooting = [e for e in self.entries if e.shot is not None]
        if shooting and not (self.modern and options.scoring == "rascal" and options.cannonball):
            self.add(N_("%(names)s: grapeshot and cannonball need Rascal's scoring with the "
                        "cannonball option."), [e.player for e in shooting])
        for entry in shooting:
            if entry.shot not in SHOTS:
                self.add(N_("%(names)s: a shot is grapeshot or cannonball, not “%(shot)s”."),
                         [entry.player], shot=entry.shot)
        changed = [e for e in self.entries if e.bid_changed_from is not None]
        if changed and not self.modern:
            self.add(N_("%(names)s: only the modern rules let Harry the Giant change a bid."),
                     [e.player for e in changed])
            return
        if len(changed) > 1:
            self.add(N_("%(names)s each changed their bid, but only one player can capture "
                        "Harry the Giant."), [e.player for e in changed])
        for entry in changed:
            before = entry.bid_changed_from or 0
            if not 0 <= before <= self.hand.cards:
                self.add(N_("%(names)s: the bid before the change must be 0 to %(cards)d."),
                         [entry.player], cards=self.hand.cards)
            elif entry.bid is not None and abs(entry.bid - before) != 1:
                self.add(N_("%(names)s: Harry the Giant changes a bid by one, not from %(before)d "
                            "to %(after)d."), [entry.player], before=before, after=entry.bid)
            if entry.tricks == 0:
                self.add(N_("%(names)s won no tricks, so cannot have captured Harry the Giant."),
                         [entry.player])
