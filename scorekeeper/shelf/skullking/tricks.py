"""The trick judge: who wins one trick of Skull King, who leads next, and what the winner captured.

Pure Python, like the rules: cards in the order played (the leader's first), plain values out.
Positions count from 0 in that order. The reasons are `Problem`s (an English template and its
values) so each screen says them in its own language. See `shared/rules/skull-king-tricks.md`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

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
# The most cards in one trick: one per player.
MOST_CARDS = 8


@dataclass(frozen=True)
class Card:
    """One card as played: a suit card (suit and number) or a special; `name` tells apart a named
    pirate, Scary Mary or Tigress (with `kind` what its player said it is), or the doubloons' flag."""

    kind: str
    suit: str | None = None
    number: int | None = None
    name: str = ""

    @property
    def is_escape_like(self) -> bool:
        """An Escape in every respect when it comes to winning (a Loot too)."""
        return self.kind in (ESCAPE, LOOT)

    def written(self) -> str:
        """The card as a trick is written down."""
        if self.kind == SUIT:
            return f"{self.suit} {self.number}"
        if self.name in EITHER_WAY:
            return f"{self.name} as {self.kind}"
        return self.name or self.kind


class TrickError(ValueError):
    """A trick that cannot be: a card the ruleset does not have, or more of one than the pack holds."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message())
        self.problem = problem


def parse_card(ruleset: str, text: str, advanced: bool = True) -> Card:
    """One card as written ("yellow 14", "skull king", "tigress as escape"); TrickError if the ruleset has none."""
    deck = DECKS[ruleset]
    words = " ".join(text.lower().replace("’", "'").split())
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


def parse_trick(ruleset: str, text: str, advanced: bool = True) -> tuple[Card, ...]:
    """A trick as written, cards separated by commas; TrickError for a card that cannot be."""
    cards = tuple(parse_card(ruleset, part, advanced) for part in text.split(",") if part.strip())
    check_trick(ruleset, cards)
    return cards


def check_trick(ruleset: str, cards: Sequence[Card]) -> None:
    """TrickError if the pack could not have dealt these cards together."""
    if len(cards) > MOST_CARDS:
        raise TrickError(Problem(N_("A trick has at most %(most)d cards, one per player."), {"most": MOST_CARDS}))
    problem = _beyond_the_pack(ruleset, cards)
    if problem is not None:
        raise TrickError(problem)


def _beyond_the_pack(ruleset: str, cards: Sequence[Card]) -> Problem | None:
    """What the pack does not hold this many of, among `cards`; None if it could have dealt them all."""
    deck = DECKS[ruleset]
    seen: dict[str, int] = {}
    for card in cards:
        # A suit card and a named pirate are one of a kind; Scary Mary and Tigress are one card whichever
        # way played; the other specials (a pirate with no name too) come as many as the pack holds.
        if card.kind == SUIT or card.name in MODERN_PIRATES:
            key, limit = card.written(), 1
        elif card.name in EITHER_WAY:
            key, limit = card.name, 1
        else:
            key, limit = card.kind, deck.specials.get(card.kind, 1)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > limit:
            return Problem(N_("The pack holds only %(count)d × %(card)s."), {"count": limit, "card": key})
    # Named and unnamed pirates share the pack's pirates.
    pirates = sum(c.kind == PIRATE and c.name not in EITHER_WAY for c in cards)
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

    def as_bonuses(self) -> dict[str, int]:
        """The captures as the result card counts them."""
        return {rules.PIRATES_BY_SKULL_KING: self.pirates_by_skull_king,
                rules.SKULL_KING_BY_MERMAID: self.skull_king_by_mermaid,
                rules.MERMAIDS_BY_PIRATE: self.mermaids_by_pirate,
                rules.STANDARD_FOURTEENS: self.standard_fourteens,
                rules.BLACK_FOURTEEN: self.black_fourteen}


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

    def document(self) -> dict[str, object]:
        """The judgement as `scorekeeper trick --json` writes it."""
        captures = self.captures
        return {"outcome": self.outcome, "winner": self.winner, "next_leader": self.next_leader,
                "captures": {**captures.as_bonuses(), "loot_from": list(captures.loot_from)},
                "points": self.points}


def suit_led(cards: Sequence[Card]) -> str | None:
    """The suit to follow: the first suit card's, unless a Pirate, the Skull King, a Mermaid or a
    creature came before it (then none this trick). Escapes and Loot leave it to the next card."""
    for card in cards:
        if card.kind == SUIT:
            return card.suit
        if not card.is_escape_like:
            return None
    return None


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
    values = rules.SPECS[ruleset].bonus_values
    return sum(values.get(kind, 0) * count for kind, count in captures.as_bonuses().items())


def judge(ruleset: str, cards: Sequence[Card], players: int | None = None) -> Judgement:
    """Judge one trick of `ruleset`: `cards` in the order played; `players` at the table (default: one card each)."""
    check_trick(ruleset, cards)
    if not cards:
        return Judgement("won", None, None, Problem(N_("No card played yet.")))
    count = players or len(cards)
    kraken = next((i for i, c in enumerate(cards) if c.kind == KRAKEN), None)
    whale = next((i for i, c in enumerate(cards) if c.kind == WHITE_WHALE), None)
    led = suit_led(cards)
    off_suit = tuple(i for i, c in enumerate(cards) if led is not None and c.kind == SUIT and c.suit != led
                     and i > next(j for j, d in enumerate(cards) if d.kind == SUIT))
    # Both creatures in one trick: the second played acts, the first is an Escape.
    acting = max((i for i in (kraken, whale) if i is not None), default=None)
    as_escapes = [Card(ESCAPE, name=c.kind) if c.kind in (KRAKEN, WHITE_WHALE) else c for c in cards]
    if acting is not None and acting == kraken:
        if whale is not None:
            # The FAQ: whoever would have won without either creature leads next.
            leader, _ = _ordinary_winner(ruleset, as_escapes)
        else:
            leader = (kraken + 1) % count
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
    fourteens = [c for c in cards if c.kind == SUIT and c.number == 14]
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
    if judgement.outcome == "won":
        lines.append(f"Capture points: {judgement.points}.")
    return lines
