"""Wizard's rules as the pad keeps them: rounds, dealers, the order of bids, points and totals. Pure Python.

3 to 6 players; round n deals n cards to each; 60 ÷ players rounds; the deal passes left. A
bid is 0 to the cards dealt; the tricks of a round add up to the cards dealt. A made bid scores
20 + 10 per trick, a missed one −10 per trick off. Under "no even bids" (bids in turn only) the
last bidder may not make the bids add up to the cards dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...problems import N_, Problem

# The pack: four suits of 1 to 13 (Jesters' lowest to Wizards' highest), four Wizards and four Jesters.
SUITS, RANKS, WIZARDS, JESTERS = 4, 13, 4, 4
PACK = SUITS * RANKS + WIZARDS + JESTERS
MIN_PLAYERS, MAX_PLAYERS = 3, 6
IN_TURN, SECRET = "in-turn", "secret"
BIDDINGS = (IN_TURN, SECRET)


@dataclass(frozen=True)
class Setup:
    """The players in seat order, who deals the first round, and the house rules chosen."""

    players: tuple[str, ...]
    first_dealer: int = 0
    bidding: str = IN_TURN
    no_even_bids: bool = False

    @property
    def rounds(self) -> int:
        """How many rounds the game has: the whole pack dealt in the last."""
        return PACK // len(self.players)


@dataclass(frozen=True)
class Round:
    """One round as the pad keeps it: each seat's bid and, once played, tricks (None: not in yet)."""

    cards: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...] | None = None
    # The host corrected it once it was scored (the pad marks it).
    corrected: bool = False

    @property
    def finished(self) -> bool:
        """Whether its tricks are in."""
        return self.tricks is not None


def setup_problems(players: Sequence[str], bidding: str, no_even_bids: bool) -> list[Problem]:
    """Why a game cannot be set up so: the number of players, names twice, the two house rules together."""
    problems = []
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        problems.append(Problem(N_("Wizard is for 3 to 6 players, not %(count)d."), {"count": len(players)}))
    if len(set(players)) < len(players):
        problems.append(Problem(N_("Every player needs a different name.")))
    if bidding == SECRET and no_even_bids:
        problems.append(Problem(N_("“No even bids” needs bids in turn: with secret bids nobody bids last.")))
    return problems


def dealer(setup: Setup, number: int) -> int:
    """The seat that deals round `number`: the first dealer, then each next seat to the left."""
    return (setup.first_dealer + number - 1) % len(setup.players)


def bidding_order(setup: Setup, number: int) -> list[int]:
    """The seats in the order they bid in round `number`: left of the dealer first, the dealer last."""
    first = dealer(setup, number) + 1
    return [(first + i) % len(setup.players) for i in range(len(setup.players))]


def forbidden_bid(setup: Setup, cards: int, others: Sequence[int]) -> int | None:
    """The one bid the last bidder may not make under "no even bids" (None: any is allowed)."""
    if not setup.no_even_bids or setup.bidding != IN_TURN:
        return None
    rest = cards - sum(others)
    return rest if 0 <= rest <= cards else None


# A round's points (the rules page shows these same numbers).
BID_MADE = 20  # the bid made, whatever it is
PER_TRICK = 10  # and this per trick won; a bid missed loses this per trick off


def points(bid: int, tricks: int) -> int:
    """A player's points for a round: 20 + 10 per trick for the bid made, else −10 per trick off."""
    if tricks == bid:
        return BID_MADE + PER_TRICK * tricks
    return -PER_TRICK * abs(tricks - bid)


def round_points(played: Round) -> list[int]:
    """Each seat's points for a finished round."""
    assert played.tricks is not None
    return [points(bid, tricks) for bid, tricks in zip(played.bids, played.tricks)]


def totals(setup: Setup, rounds: Sequence[Round]) -> list[int]:
    """Each seat's total over the finished rounds."""
    found = [0] * len(setup.players)
    for played in rounds:
        if played.finished:
            found = [total + gained for total, gained in zip(found, round_points(played))]
    return found


def finished(setup: Setup, rounds: Sequence[Round]) -> bool:
    """Whether the last round has been played."""
    return sum(r.finished for r in rounds) >= setup.rounds


def winners(setup: Setup, rounds: Sequence[Round]) -> list[int]:
    """The seats with the highest total (equal totals share the place)."""
    found = totals(setup, rounds)
    return [seat for seat, total in enumerate(found) if total == max(found)]


def bid_problems(setup: Setup, number: int, seat: int, bid: int, before: Sequence[int]) -> list[Problem]:
    """Why `seat` cannot bid `bid` in round `number` after the bids `before` (of the seats before it)."""
    name = setup.players[seat]
    if not 0 <= bid <= number:
        return [Problem(N_("%(names)s: a bid is 0 to %(cards)d, the cards dealt, not %(bid)d."),
                        {"cards": number, "bid": bid}, number, (name,), "round")]
    last = len(before) == len(setup.players) - 1
    if last and bid == forbidden_bid(setup, number, before):
        return [Problem(N_("%(names)s: you bid last and may not bid %(bid)d: the bids would then add up to "
                           "%(cards)d, the cards dealt (no even bids)."),
                        {"bid": bid, "cards": number}, number, (name,), "round")]
    return []


def tricks_problems(setup: Setup, number: int, tricks: Sequence[int | None]) -> list[Problem]:
    """Why the tricks of round `number` cannot be (each 0 to the cards, all adding up to the cards); None: not in."""
    problems = []
    for seat, taken in enumerate(tricks):
        if taken is not None and not 0 <= taken <= number:
            problems.append(Problem(N_("%(names)s: tricks are 0 to %(cards)d, the cards dealt, not %(tricks)d."),
                                    {"cards": number, "tricks": taken}, number, (setup.players[seat],), "round"))
    if not problems and all(t is not None for t in tricks):
        total = sum(t for t in tricks if t is not None)
        if total != number:
            problems.append(Problem(
                N_("%(names)s: your tricks add up to %(total)d, but this round has %(cards)d: "
                   "every trick goes to somebody. Check yours."),
                {"total": total, "cards": number}, number, tuple(setup.players), "round"))
    return problems


def round_problems(setup: Setup, played: Round) -> list[Problem]:
    """Every problem of a round as a whole (a pad's or a correction): its bids, its tricks, "no even bids"."""
    number = played.cards
    problems = [Problem(N_("%(names)s: a bid is 0 to %(cards)d, the cards dealt, not %(bid)d."),
                        {"cards": number, "bid": bid}, number, (setup.players[seat],), "round")
                for seat, bid in enumerate(played.bids) if not 0 <= bid <= number]
    if played.tricks is not None:
        problems += tricks_problems(setup, number, played.tricks)
    # An unfinished round has all its bids too: they may not add up either (its export must import again).
    if not problems and setup.no_even_bids and setup.bidding == IN_TURN and sum(played.bids) == number:
        last = bidding_order(setup, number)[-1]
        problems.append(Problem(N_("%(names)s: the bids add up to %(cards)d, the cards dealt, which “no even bids” "
                                   "does not allow."), {"cards": number}, number, (setup.players[last],), "round"))
    return problems
