"""The trick judge: who wins one trick of Skull King, who leads next, and what the winner captured.

Pure Python, like the rules: cards in the order played (the leader's first), plain values out.
Positions count from 0 in that order. The reasons are `Problem`s (an English template and its
values) so each screen says them in its own language. See `shared/rules/skull-king-tricks.md`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ...problems import N_, Problem
from . import rules

SUIT = "suit"
ESCAPE = "escape"
PIRATE = "pirate"
SKULL_KING = "skull king"
MERMAID = "mermaid"
LOOT = "loot"
KRAKEN = "kraken"
WHITE_WHALE = "white whale"
# The 2025 Expansion Pack's specials (rules: docs/rules.md).
FIRST_MATE = "con"
PLANK = "walk the plank"
STINGRAY = "stingray"
VOLLEY = "last volley"
DAVY_JONES = "davy jones"
MONSTERS = (KRAKEN, WHITE_WHALE, STINGRAY)
# Cards that never win by themselves and are no Escape.
NEVER_WIN = (PLANK, VOLLEY, DAVY_JONES)
# A suit card's marks: a compass 7 or 8, a 0/14 (its number as declared), the Wild 15.
COMPASS = "compass"
ZERO_OR_FOURTEEN = "0/14"
WILD = "wild"
EXPANSION_COLOURS = ("green", "yellow", "purple")

# The pirates of the modern rules, by the name a trick is written with.
MODERN_PIRATES = ("rosie", "bendt", "rascal", "juanita", "harry")
# Cards that may be played as a Pirate or as an Escape, said when played.
EITHER = {"classic": "scary mary", "doubloons": "scary mary", "modern": "tigress"}
EITHER_WAY = frozenset(EITHER.values())


@dataclass(frozen=True)
class Deck:
    """What one ruleset's pack holds: its suits (the last is trump), numbers, and specials by count."""

    suits: tuple[str, ...]
    low: int
    high: int
    specials: dict[str, int]

    @property
    def trump(self) -> str:
        """The suit that beats the others."""
        return self.suits[-1]


DECKS = {
    "classic": Deck(("yellow", "blue", "red", "black"), 1, 13,
                    {ESCAPE: 5, PIRATE: 5, MERMAID: 2, SKULL_KING: 1, "scary mary": 1}),
    "doubloons": Deck(("circle", "triangle", "square", "star"), 0, 9,
                      {ESCAPE: 4, PIRATE: 2, MERMAID: 1, SKULL_KING: 1, "scary mary": 1}),
    "modern": Deck(("green", "yellow", "purple", "black"), 1, 14,
                   {ESCAPE: 5, PIRATE: 5, MERMAID: 2, SKULL_KING: 1, "tigress": 1, LOOT: 2, KRAKEN: 1,
                    WHITE_WHALE: 1}),
}
ADVANCED = (LOOT, KRAKEN, WHITE_WHALE)
# With the Expansion Pack: Mary Thorne (a sixth named Pirate), Con, Walk the Plank, the Stingray, the Last Volley
# and Davy Jones come one each; the compass cards, the 0/14s and the Wild 15 are suit cards.
EXPANSION_SPECIALS = {FIRST_MATE: 1, PLANK: 1, STINGRAY: 1, VOLLEY: 1, DAVY_JONES: 1}
EXPANSION_PIRATES = ("mary",)
# The most cards in one trick: one per player.
MOST_CARDS = 8
EXPANSION_MOST_CARDS = 9


@dataclass(frozen=True)
class Card:
    """One card as played: a suit card (suit and number) or a special; `name` tells apart a named
    pirate, Scary Mary or Tigress (with `kind` what its player said it is), or the doubloons' flag."""

    kind: str
    suit: str | None = None
    number: int | None = None
    name: str = ""
    # The expansion's marks: a suit card's ("compass", "0/14", "wild"), Walk the Plank's Pirate, the Last Volley's
    # second card.
    mark: str = ""
    second: Card | None = None

    @property
    def is_escape_like(self) -> bool:
        """An Escape in every respect when it comes to winning (a Loot too)."""
        return self.kind in (ESCAPE, LOOT)

    def written(self) -> str:
        """The card as a trick is written down."""
        if self.kind == SUIT and self.mark == COMPASS:
            return f"{self.suit} {self.number}c"
        if self.kind == SUIT and self.mark == ZERO_OR_FOURTEEN:
            return f"{self.suit} 0/14 as {self.number}"
        if self.kind == SUIT and self.mark == WILD:
            return f"wild 15 as {self.suit}" if self.suit else "wild 15"
        if self.kind == SUIT:
            return f"{self.suit} {self.number}"
        if self.name in EITHER_WAY:
            return f"{self.name} as {self.kind}"
        if self.kind == PLANK and self.mark:
            return f"{PLANK}: {self.mark}"
        return self.name or self.kind


class TrickError(ValueError):
    """A trick that cannot be: a card the ruleset does not have, or more of one than the pack holds."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message())
        self.problem = problem


def _expansion_card(words: str) -> Card | None:
    """One of the Expansion Pack's cards as written ("yellow 8c", "green 0/14 as 14", "wild 15 as purple", "mary",
    "walk the plank: harry"); None if `words` names none; TrickError for one written wrong."""
    deck = DECKS["modern"]
    found = re.fullmatch(r"(\w+) ([78])c", words)
    if found and found.group(1) in deck.suits:
        return Card(SUIT, found.group(1), int(found.group(2)), mark=COMPASS)
    found = re.fullmatch(r"(\w+) 0/14 as (0|14)", words)
    if found and found.group(1) in deck.suits:
        return Card(SUIT, found.group(1), int(found.group(2)), mark=ZERO_OR_FOURTEEN)
    if re.fullmatch(r"\w+ 0/14", words):
        raise TrickError(Problem(N_("A 0/14 is played as 0 or as 14: write “%(card)s as 0” or “%(card)s as 14”."),
                                 {"card": words}))
    found = re.fullmatch(r"wild 15(?: as (\w+))?", words)
    if found:
        colour = found.group(1)
        if colour is not None and colour not in EXPANSION_COLOURS:
            raise TrickError(Problem(N_("The Wild 15 is green, yellow or purple, never “%(colour)s”."),
                                     {"colour": colour}))
        return Card(SUIT, colour, 15, mark=WILD)
    if words in EXPANSION_PIRATES:
        return Card(PIRATE, name=words)
    if words in (FIRST_MATE, "first mate"):
        return Card(FIRST_MATE)
    if words == PLANK or words.startswith(PLANK + ":"):
        return Card(PLANK, mark=words.partition(":")[2].strip())
    if words in (STINGRAY, VOLLEY, DAVY_JONES):
        return Card(words)
    return None


def parse_card(ruleset: str, text: str, advanced: bool = True, expansion: bool = False) -> Card:
    """One card as written ("yellow 14", "skull king", "tigress as escape"); TrickError if the ruleset has none."""
    deck = DECKS[ruleset]
    words = " ".join(text.lower().replace("’", "'").split())
    if ruleset == "modern":
        found = _expansion_card(words)
        if found is not None and expansion:
            return found
        if found is not None:
            # A card of the expansion in a game without it: a card these rules do not have.
            raise TrickError(Problem(N_("“%(card)s” is not a card of these rules."), {"card": text.strip()[:40]}))
    parts = words.rsplit(" ", 1)
    if len(parts) == 2 and parts[0] in deck.suits and parts[1].isdigit():
        number = int(parts[1])
        if deck.low <= number <= deck.high:
            return Card(SUIT, parts[0], number)
    either = EITHER[ruleset]
    for kind in (PIRATE, ESCAPE):
        if words == f"{either} as {kind}":
            return Card(kind, name=either)
    if words in (ESCAPE, PIRATE, MERMAID, SKULL_KING):
        return Card(words)
    if ruleset == "doubloons" and words == "flag":
        return Card(ESCAPE, name="flag")
    if ruleset == "modern" and words in MODERN_PIRATES:
        return Card(PIRATE, name=words)
    if ruleset == "modern" and advanced and words in ADVANCED:
        return Card(words)
    raise TrickError(Problem(N_("“%(card)s” is not a card of these rules."), {"card": text.strip()[:40]}))


def parse_trick(ruleset: str, text: str, advanced: bool = True, expansion: bool = False,
                whole: bool = True) -> tuple[Card, ...]:
    """A trick as written, cards separated by commas; TrickError for a card that cannot be. With the expansion the
    Last Volley's second card comes last, written "then CARD", and goes inside the Volley's card; a `whole` trick
    must say which Pirate walks the plank when there are several (one still being tapped need not yet)."""
    parts = [part for part in text.split(",") if part.strip()]
    then = None
    if expansion and parts and parts[-1].strip().lower().startswith("then "):
        then = parse_card(ruleset, parts.pop().strip()[5:], advanced, expansion)
    cards = [parse_card(ruleset, part, advanced, expansion) for part in parts]
    if then is not None:
        volley = next((i for i, card in enumerate(cards) if card.kind == VOLLEY), None)
        if volley is None:
            raise TrickError(Problem(N_("“then” adds the Last Volley's second card: there is no Last Volley here.")))
        cards[volley] = replace(cards[volley], second=then)
    check_trick(ruleset, cards, expansion)
    plank = next((card for card in cards if card.kind == PLANK), None)
    if plank is not None and whole:
        _walker(cards, plank.mark)
    return tuple(cards)


def written_trick(cards: Sequence[Card]) -> str:
    """A trick as `parse_trick` reads it: the cards in order, the Last Volley's second card last after "then"."""
    seconds = [card.second.written() for card in cards if card.second is not None]
    return ", ".join([*(card.written() for card in cards), *(f"then {second}" for second in seconds)])


def check_trick(ruleset: str, cards: Sequence[Card], expansion: bool = False) -> None:
    """TrickError if the pack could not have dealt these cards together."""
    most = EXPANSION_MOST_CARDS if expansion else MOST_CARDS
    if len(cards) > most:
        raise TrickError(Problem(N_("A trick has at most %(most)d cards, one per player."), {"most": most}))
    problem = _beyond_the_pack(ruleset, [*cards, *(c.second for c in cards if c.second is not None)])
    if problem is not None:
        raise TrickError(problem)
    if expansion:
        _check_expansion(cards)


def _check_expansion(cards: Sequence[Card]) -> None:
    """TrickError for an expansion card that cannot be played so: a Wild 15 setting the suit without its colour,
    a Walk the Plank with no clear Pirate to walk."""
    first_suit = next((c for c in cards if c.kind == SUIT or not (c.is_escape_like or c.kind in NEVER_WIN)), None)
    if first_suit is not None and first_suit.mark == WILD and first_suit.suit is None:
        raise TrickError(Problem(N_("The Wild 15 sets the suit here: name its colour (“wild 15 as yellow”).")))
    plank = next((c for c in cards if c.kind == PLANK), None)
    if plank is not None and plank.mark:
        _walker(cards, plank.mark)


def pirate_name(card: Card) -> str:
    """How Walk the Plank names a Pirate of the trick: its own name, or "pirate" for the first unnamed one."""
    return card.name or PIRATE


def _walker(cards: Sequence[Card], named: str, strict: bool = True) -> int | None:
    """The position of the Pirate Walk the Plank makes walk (None: no Pirate in the trick, or, not `strict`, not
    said yet which of several); TrickError when it is not clear which, or the one named is not there."""
    pirates = [i for i, c in enumerate(cards) if c.kind == PIRATE]
    if not named:
        if len(pirates) > 1 and not strict:
            return None
        if len(pirates) > 1:
            raise TrickError(Problem(N_("Several Pirates in the trick: say which one walks the plank "
                                        "(“walk the plank: harry”).")))
        return pirates[0] if pirates else None
    chosen = [i for i in pirates if pirate_name(cards[i]) == named]
    if not chosen:
        raise TrickError(Problem(N_("“%(name)s” cannot walk the plank: no such Pirate in this trick."),
                                 {"name": named[:40]}))
    return chosen[0]


def _beyond_the_pack(ruleset: str, cards: Sequence[Card]) -> Problem | None:
    """What the pack does not hold this many of, among `cards`; None if it could have dealt them all."""
    deck = DECKS[ruleset]
    seen: dict[str, int] = {}
    for card in cards:
        # A suit card and a named pirate are one of a kind; Scary Mary and Tigress are one card whichever
        # way played; the other specials (a pirate with no name too) come as many as the pack holds.
        if card.kind == SUIT and card.mark == ZERO_OR_FOURTEEN:
            key, limit = f"{card.suit} 0/14", 1
        elif card.kind == SUIT and card.mark == WILD:
            key, limit = "wild 15", 1
        elif card.kind == SUIT or card.name in MODERN_PIRATES + EXPANSION_PIRATES:
            key, limit = card.written(), 1
        elif card.name in EITHER_WAY:
            key, limit = card.name, 1
        elif card.kind == PLANK:
            key, limit = PLANK, 1
        else:
            key, limit = card.kind, deck.specials.get(card.kind, EXPANSION_SPECIALS.get(card.kind, 1))
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > limit:
            return Problem(N_("The pack holds only %(count)d × %(card)s."), {"count": limit, "card": key})
    # Named and unnamed pirates share the pack's pirates.
    pirates = sum(c.kind == PIRATE and c.name not in EITHER_WAY and c.name not in EXPANSION_PIRATES for c in cards)
    if pirates > deck.specials[PIRATE]:
        return Problem(N_("The pack holds only %(count)d × %(card)s."),
                       {"count": deck.specials[PIRATE], "card": PIRATE})
    return None


def claimed_already(ruleset: str, earlier: Sequence[Sequence[Card]], cards: Sequence[Card]) -> Problem | None:
    """Why `cards` cannot be claimed after the tricks `earlier` claimed in the same hand: a card of them was in one
    of those (the pack has no other); None if they can."""
    before = [card for trick in earlier for card in trick]
    if _beyond_the_pack(ruleset, [*before, *cards]) is None:
        return None
    taken = next((card for card in cards if _beyond_the_pack(ruleset, [*before, card]) is not None), cards[0])
    return Problem(N_("“%(card)s” was in a trick claimed already in this hand: a trick is claimed once."),
                   {"card": taken.written()})


@dataclass(frozen=True)
class Captures:
    """What the winner of a trick captured (the bonus it is worth needs their bid made)."""

    pirates_by_skull_king: int = 0
    skull_king_by_mermaid: int = 0
    mermaids_by_pirate: int = 0
    standard_fourteens: int = 0
    black_fourteen: int = 0
    # Positions of the Loot cards another player played into the winner's trick: an alliance each.
    loot_from: tuple[int, ...] = ()
    # The Expansion Pack's (None: a game without it).
    expansion_eights: int | None = None
    expansion_sevens: int | None = None
    first_mate_taken: int | None = None

    def as_bonuses(self) -> dict[str, int]:
        """The captures as the result card counts them."""
        bonuses = {rules.PIRATES_BY_SKULL_KING: self.pirates_by_skull_king,
                   rules.SKULL_KING_BY_MERMAID: self.skull_king_by_mermaid,
                   rules.MERMAIDS_BY_PIRATE: self.mermaids_by_pirate,
                   rules.STANDARD_FOURTEENS: self.standard_fourteens,
                   rules.BLACK_FOURTEEN: self.black_fourteen}
        if self.first_mate_taken is not None:
            bonuses |= {rules.EXPANSION_EIGHTS: self.expansion_eights or 0,
                        rules.EXPANSION_SEVENS: self.expansion_sevens or 0,
                        rules.FIRST_MATE_TAKEN: self.first_mate_taken}
        return bonuses


@dataclass(frozen=True)
class Judgement:
    """Who won the trick and why, who leads next, what had to follow what, and the winner's captures."""

    outcome: str  # "won", "destroyed" (the Kraken) or "discarded" (the White Whale with only specials)
    winner: int | None
    next_leader: int | None
    reason: Problem
    # The suit to follow (None: none was set), and the cards played after it that were of
    # another suit: legal only if their player did not hold it.
    suit_led: str | None = None
    off_suit: tuple[int, ...] = ()
    captures: Captures = field(default_factory=Captures)
    points: int = 0
    # With the expansion: Davy Jones' player (the position of its card) and the sea monsters it destroyed.
    davy_jones: tuple[int, int] | None = None

    @property
    def expansion(self) -> bool:
        """Whether the trick was judged with the Expansion Pack (its captures count its cards)."""
        return self.captures.first_mate_taken is not None

    def document(self) -> dict[str, object]:
        """The judgement as `scorekeeper trick --json` writes it."""
        captures = self.captures
        found: dict[str, object] = {**captures.as_bonuses(), "loot_from": list(captures.loot_from)}
        if self.expansion:
            found["davy_jones"] = (None if self.davy_jones is None
                                   else {"player": self.davy_jones[0], "monsters": self.davy_jones[1]})
        return {"outcome": self.outcome, "winner": self.winner, "next_leader": self.next_leader,
                "captures": found, "points": self.points}


def suit_led(cards: Sequence[Card]) -> str | None:
    """The suit to follow: the first suit card's, unless a Pirate, the Skull King, a Mermaid or a
    creature came before it (then none this trick). Escapes and Loot leave it to the next card."""
    for card in cards:
        if card.kind == SUIT:
            return card.suit
        # The expansion's cards that never win leave it to the next card, as an Escape does (our reading).
        if not card.is_escape_like and card.kind not in NEVER_WIN:
            return None
    return None


def _off_suit(played: Sequence[tuple[int, Card]], led: str | None) -> tuple[int, ...]:
    """The positions of the suit cards played of another suit than the one led, after it was led: legal only if
    their player did not hold it (a Wild 15 is always legal: our reading)."""
    first = next((i for i, c in played if c.kind == SUIT), None)
    return tuple(i for i, c in played if led is not None and c.kind == SUIT and c.suit not in (led, None)
                 and i != first and c.mark != WILD)


def _ordinary_winner(ruleset: str, cards: Sequence[Card]) -> tuple[int, Problem]:
    """The winner with no creature acting, and why (creatures count as Escapes here)."""
    deck = DECKS[ruleset]

    def first(kind: str) -> int | None:
        return next((i for i, c in enumerate(cards) if c.kind == kind), None)

    skull_king, pirate, mermaid = first(SKULL_KING), first(PIRATE), first(MERMAID)
    if skull_king is not None and mermaid is not None:
        return mermaid, Problem(N_("The Mermaid takes the Skull King."))
    if skull_king is not None:
        return skull_king, Problem(N_("The Skull King beats every other card."))
    if pirate is not None:
        return pirate, Problem(N_("The first Pirate wins."))
    if mermaid is not None:
        return mermaid, Problem(N_("The first Mermaid wins."))
    trumps = [i for i, c in enumerate(cards) if c.kind == SUIT and c.suit == deck.trump]
    if trumps:
        best = max(trumps, key=lambda i: (cards[i].number, -i))
        return best, Problem(N_("The highest trump (%(suit)s) wins."), {"suit": deck.trump})
    led = suit_led(cards)
    following = [i for i, c in enumerate(cards) if c.kind == SUIT and c.suit == led]
    if following:
        best = max(following, key=lambda i: (cards[i].number, -i))
        return best, Problem(N_("The highest card of the suit led (%(suit)s) wins."), {"suit": led})
    return 0, Problem(N_("Only Escapes: the first one wins."))


def _points(ruleset: str, captures: Captures) -> int:
    values = rules.EXPANSION_SPEC.bonus_values if captures.first_mate_taken is not None else \
        rules.SPECS[ruleset].bonus_values
    return sum(values.get(kind, 0) * count for kind, count in captures.as_bonuses().items())


def judge(ruleset: str, cards: Sequence[Card], expansion: bool = False) -> Judgement:
    """Judge one trick of `ruleset`: `cards` in the order played, the leader's first."""
    check_trick(ruleset, cards, expansion)
    if not cards:
        return Judgement("won", None, None, Problem(N_("No card played yet.")))
    if expansion:
        return _judge_expansion(cards)
    kraken = next((i for i, c in enumerate(cards) if c.kind == KRAKEN), None)
    whale = next((i for i, c in enumerate(cards) if c.kind == WHITE_WHALE), None)
    led = suit_led(cards)
    off_suit = _off_suit(list(enumerate(cards)), led)
    # Both creatures in one trick: the second played acts, the first is an Escape.
    acting = max((i for i in (kraken, whale) if i is not None), default=None)
    if acting is not None and acting == kraken:
        # The publisher's FAQ: whoever would have won had the Kraken (and the White Whale) not been played leads
        # next; one print run's player aids said the player left of the Kraken's.
        calm = [i for i, c in enumerate(cards) if c.kind not in (KRAKEN, WHITE_WHALE)]
        leader = calm[_ordinary_winner(ruleset, [cards[i] for i in calm])[0]] if calm else 0
        return Judgement("destroyed", None, leader, Problem(N_("The Kraken destroys the trick: nobody wins it.")),
                         led, off_suit)
    if acting is not None:
        numbered = [i for i, c in enumerate(cards) if c.kind == SUIT]
        if not numbered:
            return Judgement("discarded", None, whale, Problem(
                N_("The White Whale and only special cards: the trick is discarded, nobody wins it.")), led, off_suit)
        winner = max(numbered, key=lambda i: (cards[i].number, -i))
        captures = _fourteens(ruleset, cards)
        return Judgement("won", winner, winner, Problem(
            N_("The White Whale: special cards lose and colours are gone, the highest number wins.")),
            led, off_suit, captures, _points(ruleset, captures))
    winner, reason = _ordinary_winner(ruleset, cards)
    captures = _captures(ruleset, cards, winner)
    return Judgement("won", winner, winner, reason, led, off_suit, captures, _points(ruleset, captures))


def _fourteens(ruleset: str, cards: Sequence[Card]) -> Captures:
    if ruleset != "modern":
        return Captures()
    trump = DECKS[ruleset].trump
    # A 0/14 played as 14 (the Expansion Pack's) earns no 14 bonus.
    fourteens = [c for c in cards if c.kind == SUIT and c.number == 14 and c.mark != ZERO_OR_FOURTEEN]
    return Captures(standard_fourteens=sum(c.suit != trump for c in fourteens),
                    black_fourteen=sum(c.suit == trump for c in fourteens))


def _captures(ruleset: str, cards: Sequence[Card], winner: int) -> Captures:
    """What the winning card takes: the bonus captures of the rules file's table."""
    won_by = cards[winner]
    captured = _fourteens(ruleset, cards)
    pirates = mermaid_takes = mermaids = 0
    if won_by.kind == SKULL_KING:
        # Classic Scary Mary counts as a Pirate for the Skull King even when played as an Escape.
        pirates = sum(c.kind == PIRATE or (ruleset != "modern" and c.name == "scary mary") for c in cards)
    elif won_by.kind == MERMAID and any(c.kind == SKULL_KING for c in cards):
        mermaid_takes = 1
    elif won_by.kind == PIRATE and ruleset == "modern":
        mermaids = sum(c.kind == MERMAID for c in cards)
    loot_from = tuple(i for i, c in enumerate(cards) if c.kind == LOOT and i != winner)
    return Captures(pirates, mermaid_takes, mermaids, captured.standard_fourteens, captured.black_fourteen, loot_from)


def _expansion_winner(cards: Sequence[Card]) -> tuple[int | None, Problem]:
    """The winner with no sea monster acting (the monsters count as Escapes here), with the expansion's cards: Con
    beats every Pirate and loses to the Skull King and to Mermaids; Walk the Plank, the Last Volley and Davy Jones
    win nothing; None when nothing in the trick can win."""
    def first(kind: str) -> int | None:
        return next((i for i, c in enumerate(cards) if c.kind == kind), None)

    mermaid, con = first(MERMAID), first(FIRST_MATE)
    if con is not None and first(SKULL_KING) is None:
        if mermaid is not None:
            return mermaid, Problem(N_("A Mermaid beats First Mate Con, and so the Pirates he beats."))
        return con, Problem(N_("First Mate Con beats every Pirate."))
    if any(c.kind in (SKULL_KING, PIRATE, MERMAID, SUIT) for c in cards):
        # Among the rest the base game's order holds; a Wild 15 is a 15 of the colour led, of no colour against a
        # black lead (it never counts as trump).
        led = suit_led(cards)
        plain = [c if not (c.mark == WILD and c.suit is None) else replace(c, suit=led if led != DECKS["modern"].trump
                                                                             else None)
                 for c in cards]
        plain = [c if c.kind not in NEVER_WIN + MONSTERS + (FIRST_MATE,) else Card(ESCAPE, name=c.kind) for c in plain]
        return _ordinary_winner("modern", plain)
    escapes = [i for i, c in enumerate(cards) if c.is_escape_like or c.kind in MONSTERS]
    if escapes:
        return escapes[0], Problem(N_("Only Escapes: the first one wins."))
    return None, Problem(N_("Nothing in this trick can win: it is discarded and the same player leads again."))


def _judge_expansion(written: Sequence[Card]) -> Judgement:
    """Judge one trick of the modern rules with the Expansion Pack (rules: docs/rules.md)."""
    # Every card with the position of its player: the Last Volley's second card plays last, for the Volley's player.
    played = [(i, c) for i, c in enumerate(written)]
    played += [(i, c.second) for i, c in enumerate(written) if c.second is not None]
    led = suit_led([c for _, c in played])
    off_suit = _off_suit(played, led)
    plank = next((c for _, c in played if c.kind == PLANK), None)
    if plank is not None:
        walker = _walker([c for _, c in played], plank.mark, strict=False)
        if walker is not None:
            played = played[:walker] + played[walker + 1:]
    locker = next((i for i, c in played if c.kind == DAVY_JONES), None)
    davy_jones = None
    if locker is not None:
        destroyed = [entry for entry in played if entry[1].kind in MONSTERS]
        davy_jones = (locker, len(destroyed))
        played = [entry for entry in played if entry[1].kind not in MONSTERS]
    cards = [c for _, c in played]

    def at(index: int | None) -> int | None:
        return None if index is None else played[index][0]

    def result(outcome: str, winner: int | None, leader: int | None, reason: Problem,
               captures: Captures = Captures(first_mate_taken=0)) -> Judgement:
        # A Loot's position among the cards left, back to its player's among the cards written.
        captures = replace(captures, loot_from=tuple(played[k][0] for k in captures.loot_from))
        return Judgement(outcome, winner, leader, reason, led, off_suit, captures, _points("modern", captures),
                         davy_jones)

    monsters = [k for k, c in enumerate(cards) if c.kind in MONSTERS]
    if monsters:
        # With several sea monsters the last played acts; the others are Escapes.
        acting = monsters[-1]
        kind = cards[acting].kind
        if kind == KRAKEN:
            # The base game's FAQ, extended to every monster: whoever would have won had none of them been played
            # leads next; with nothing left that can win, the trick's own leader leads again.
            calm = [k for k, c in enumerate(cards) if k not in monsters]
            calm_winner, _ = _expansion_winner([cards[k] for k in calm]) if calm else (None, None)
            leader = at(calm[calm_winner]) if calm_winner is not None else 0
            return result("destroyed", None, leader, Problem(N_("The Kraken destroys the trick: nobody wins it.")))
        numbered = [k for k, c in enumerate(cards) if c.kind == SUIT]
        if not numbered:
            return result("discarded", None, at(acting), Problem(
                N_("A sea monster and only special cards: the trick is discarded, nobody wins it.")))
        if kind == WHITE_WHALE:
            winner = max(numbered, key=lambda k: (cards[k].number, -k))
            reason = Problem(N_("The White Whale: special cards lose and colours are gone, the highest number wins."))
        else:
            winner = min(numbered, key=lambda k: (cards[k].number, k))
            reason = Problem(N_("The Spotted Stingray: special cards lose and colours are gone, the lowest number "
                                "wins."))
        captures = _expansion_captures(cards, winner)
        return result("won", at(winner), at(winner), reason, captures)
    found, reason = _expansion_winner(cards)
    if found is None:
        # The trick's own leader leads again, whichever of its cards left it (a Pirate that walked the plank).
        return result("discarded", None, 0, reason)
    captures = _expansion_captures(cards, found)
    return result("won", at(found), at(found), reason, captures)


def _expansion_captures(cards: Sequence[Card], winner: int) -> Captures:
    """What the winning card takes with the expansion: the base game's captures (Con is no Pirate, so nothing for
    the Pirates he takes), the compass 8s and 7s, and Con when the Skull King or a Mermaid takes him."""
    won_by = cards[winner]
    return replace(_captures("modern", cards, winner),
                   expansion_eights=sum(c.mark == COMPASS and c.number == 8 for c in cards),
                   expansion_sevens=sum(c.mark == COMPASS and c.number == 7 for c in cards),
                   first_mate_taken=int(won_by.kind in (SKULL_KING, MERMAID)
                                        and any(c.kind == FIRST_MATE for c in cards)))


def describe(ruleset: str, cards: Sequence[Card], judgement: Judgement) -> list[str]:
    """The judgement in plain English lines, as the command line prints it."""
    def card(position: int | None) -> str:
        return "nobody" if position is None else f"{cards[position].written()} (card {position + 1})"

    lines = [judgement.reason.message()]
    if judgement.outcome == "won":
        lines.append(f"Winner: {card(judgement.winner)}.")
    lines.append(f"Next to lead: the player of {card(judgement.next_leader)}."
                 if judgement.next_leader is not None and judgement.next_leader < len(cards)
                 else f"Next to lead: player {judgement.next_leader}.")
    if judgement.suit_led:
        lines.append(f"Suit to follow: {judgement.suit_led}.")
    for position in judgement.off_suit:
        lines.append(f"{card(position)} had to follow {judgement.suit_led} if its player held it.")
    captures = judgement.captures
    for kind, count in captures.as_bonuses().items():
        if count:
            lines.append(f"Captured: {kind.replace('_', ' ')} × {count}.")
    for position in captures.loot_from:
        lines.append(f"Loot alliance with the player of {card(position)} (+20 each if both make their bids).")
    if judgement.davy_jones is not None:
        player, monsters = judgement.davy_jones
        lines.append(f"Davy Jones' Locker destroyed {monsters} sea monster(s): +20 each to the player of "
                     f"{card(player)} if their bid is made.")
    if judgement.outcome == "won":
        lines.append(f"Capture points: {judgement.points}.")
    return lines
