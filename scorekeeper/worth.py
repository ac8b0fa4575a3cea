"""What a bid is worth, in words: what it scores if made and what tricks off cost, worked out from a game's own
scoring, for the bid keys of every game with bids (each key carries its words; the page shows them at once)."""

from __future__ import annotations

from collections.abc import Callable

from .i18n import gettext


def signed(points: int) -> str:
    """Points as a pad shows a change: +40, −10 (a true minus sign), 0."""
    return f"−{-points}" if points < 0 else f"+{points}" if points > 0 else "0"


def bid_worth(points: Callable[[int], int], bid: int) -> str:
    """What `bid` scores if made and what each trick off costs, by `points(tricks taken)`, the game's own scoring of
    this bid: so much for each trick off, the same however far off, or points of their own for one trick off."""
    made, one_off, two_off = points(bid), points(bid + 1), points(bid + 2)
    if one_off < 0 and two_off == 2 * one_off:
        return gettext("Made: %(made)s. Each trick off: %(cost)s.", made=signed(made), cost=signed(one_off))
    if one_off == two_off:
        return gettext("Made: %(made)s. Missed: %(missed)s.", made=signed(made), missed=signed(one_off))
    return gettext("Made: %(made)s. One trick off: %(one)s; more: %(more)s.", made=signed(made), one=signed(one_off),
                   more=signed(two_off))
