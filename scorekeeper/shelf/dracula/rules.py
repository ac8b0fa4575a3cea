"""David Parlett's Dracula: the coffin's lines, the round, the set bonus and the game's end. Pure Python.

Two players build a 3×3 "coffin" of cards each round; the Queen's way scores its best
row, the King's way its best column. Cards are written rank then suit (`QS`, `10H`, `AD`)
or `V` for a Vampire.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ...problems import N_, Problem

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
RED = {"H", "D"}
VAMPIRE = "V"
VAMPIRES = 2
ROUNDS_PER_SET = 6
# Fifty sets: no game a table plays is longer, and a pad longer than that is refused (and its next round).
MAX_ROUNDS = 300
DEFAULT_TARGET = 1000
QUEEN, KING = "queen", "king"
# The centre first: the first nail, turned up before the players place theirs.
ENTRY_ORDER = (4, 1, 3, 5, 7, 0, 2, 6, 8)

Coffin = tuple[tuple[str, str, str], tuple[str, str, str], tuple[str, str, str]]


@dataclass(frozen=True)
class Setup:
    """Who plays the Queen's way (rows) and who the King's way (columns), and the target."""

    queen: str
    king: str
    target: int = DEFAULT_TARGET

    @property
    def players(self) -> tuple[str, str]:
        return (self.queen, self.king)


@dataclass(frozen=True)
class Line:
    """One row or column as one player scores it."""

    cards: tuple[str, ...]
    total: int
    multiplier: int
    score: int
    vampire: bool


def is_card(card: str) -> bool:
    """Whether `card` names a card of the pack."""
    return card == VAMPIRE or (card[-1:] in SUITS and card[:-1] in RANKS)


def value(card: str, way: str) -> int:
    """A card's value in a line: Ace 1, numerals at face value, Jack 0, Queen/King 10 on their own way."""
    rank = card[:-1]
    if rank == "A":
        return 1
    if rank == "J":
        return 0
    if rank == "Q":
        return 10 if way == QUEEN else 0
    if rank == "K":
        return 10 if way == KING else 0
    return int(rank)


def multiplier(cards: Sequence[str]) -> int:
    """The best that applies: ×5 one suit, ×3 one colour, ×2 two of a suit, else ×1."""
    suits = [card[-1] for card in cards]
    if len(set(suits)) == 1:
        return 5
    if len({suit in RED for suit in suits}) == 1:
        return 3
    if len(set(suits)) < len(suits):
        return 2
    return 1


def line(cards: Sequence[str], way: str) -> Line:
    """A row (Queen's way) or column (King's way): 0 when a Vampire is in it."""
    cards = tuple(cards)
    if VAMPIRE in cards:
        return Line(cards, 0, 1, 0, True)
    total = sum(value(card, way) for card in cards)
    times = multiplier(cards)
    return Line(cards, total, times, total * times, False)


def lines(coffin: Sequence[Sequence[str]], way: str) -> list[Line]:
    """The three lines a player scores: the rows for the Queen's way, the columns for the King's."""
    if way == QUEEN:
        return [line(row, way) for row in coffin]
    return [line([row[column] for row in coffin], way) for column in range(3)]


def credited_scores(queen: Sequence[int], king: Sequence[int]) -> tuple[int, int]:
    """Each player's line scores, any order, to the two points scored: the bests, unless they tie;
    then the second-bests, unless those tie; then the third-bests, equal or not."""
    queen, king = sorted(queen, reverse=True), sorted(king, reverse=True)
    place = next((i for i in range(2) if queen[i] != king[i]), 2)
    return queen[place], king[place]


def round_points(coffin: Sequence[Sequence[str]]) -> tuple[int, int]:
    """The round's points of the Queen's way and the King's way."""
    return credited_scores([line.score for line in lines(coffin, QUEEN)], [line.score for line in lines(coffin, KING)])


def validate_coffin(coffin: Sequence[Sequence[str]], number: int | None = None) -> list[Problem]:
    """Every problem with a coffin: its shape, cards not in the pack, a card twice, too many Vampires."""
    def problem(template: str, **params: object) -> Problem:
        return Problem(template, params, number, (), "round")

    cards = [card for row in coffin for card in row] if all(len(row) == 3 for row in coffin) else []
    if len(coffin) != 3 or len(cards) != 9:
        return [problem(N_("a coffin is three rows of three cards."))]
    problems = []
    strangers = [card for card in cards if not is_card(card)]
    if strangers:
        problems.append(problem(N_("not a card of the pack: %(cards)s."), cards=", ".join(strangers)))
    twice = sorted({card for card in cards if card != VAMPIRE and cards.count(card) > 1})
    if twice:
        problems.append(problem(N_("a card can be in the coffin only once: %(cards)s."), cards=", ".join(twice)))
    if cards.count(VAMPIRE) > VAMPIRES:
        problems.append(problem(N_("the pack has only two Vampires.")))
    return problems


@dataclass(frozen=True)
class Standing:
    """Where a game stands after its rounds: totals, the set's rounds, bonuses given, and the winner."""

    totals: tuple[int, int]
    set_number: int
    rounds_in_set: int
    bonuses: tuple[tuple[int, int], ...]
    winner: int | None


def set_bonus(set_totals: tuple[int, int]) -> tuple[int, int]:
    """After six rounds the leader gets the difference; nothing on a tie."""
    queen, king = set_totals
    return (queen - king, 0) if queen > king else (0, king - queen)


def standing(setup: Setup, coffins: Sequence[Sequence[Sequence[str]]]) -> Standing:
    """The game after these rounds, in order: six to a set, a bonus after each set, the end at the target."""
    totals = [0, 0]
    set_totals = [0, 0]
    bonuses = []
    winner = None
    rounds_in_set = 0
    for coffin in coffins:
        points = round_points(coffin)
        for player in (0, 1):
            totals[player] += points[player]
            set_totals[player] += points[player]
        rounds_in_set += 1
        if rounds_in_set == ROUNDS_PER_SET:
            bonus = set_bonus((set_totals[0], set_totals[1]))
            bonuses.append(bonus)
            totals = [totals[0] + bonus[0], totals[1] + bonus[1]]
            set_totals, rounds_in_set = [0, 0], 0
            if max(totals) >= setup.target:
                winner = 0 if totals[0] >= totals[1] else 1
                break
    return Standing((totals[0], totals[1]), len(bonuses) + 1, rounds_in_set, tuple(bonuses), winner)


def validate_round(number: int, coffin: Sequence[Sequence[str]], over: bool) -> list[Problem]:
    """Round `number` of a game `over` or not: a round after the game has ended is refused, as is a round past the
    most a game holds, or a wrong coffin."""
    if number > MAX_ROUNDS:
        return [Problem(N_("a game has at most %(most)d rounds."), {"most": MAX_ROUNDS}, number, (), "round")]
    if over:
        return [Problem(N_("the game is over: no round after it."), {}, number, (), "round")]
    return validate_coffin(coffin, number)


def parse_coffin(cells: Sequence[str]) -> list[list[str]]:
    """Nine cards as typed (`qs`, ` 10h`, `v`), in reading order, as three rows of codes."""
    codes = [cell.strip().upper().replace("♠", "S").replace("♥", "H").replace("♦", "D").replace("♣", "C")
             for cell in cells]
    return [codes[0:3], codes[3:6], codes[6:9]]


def points_by_name(setup: Setup, coffin: Sequence[Sequence[str]]) -> Mapping[str, int]:
    """The round's points by player name, as the pad writes them."""
    queen, king = round_points(coffin)
    return {setup.queen: queen, setup.king: king}
