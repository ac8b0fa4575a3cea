"""Skull King's games read through its rules: the table, each hand, the clashes, the score pad and leaderboard.

From a game's records (for a change) or its plain values (`games.GameState`, for a page) alike.
Reading only; its changes are in `changes.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from ...games import AnyGame, GameState, HandState, cache
from ...models import Phase
from ...standings import Standing, leaderboard
from . import rules
from .rules import Entry, Hand, Options, Problem, Table


def table_of(game: AnyGame) -> Table:
    """The rules' view of a game's table."""
    return Table(game.ruleset, tuple(s.name for s in game.seats), Options.from_document(game.options),
                 game.first_dealer)


def hand_of(game: AnyGame, record: Any, shown_to: int | None = None) -> Hand:
    """The rules' view of one stored hand.

    While the bids (or the cannons' loads) are secret, only those of seat `shown_to` are in it.
    """
    names = [s.name for s in game.seats]
    secret = record.phase.is_secret
    loads_secret = record.phase.loads_secret
    return Hand(
        cards=record.cards,
        lost_tricks=record.lost_tricks,
        entries=tuple(
            Entry(
                player=names[e.position],
                bid=e.bid if not secret or e.position == shown_to else None,
                tricks=e.tricks if not secret else None,
                bonuses=dict(e.bonuses or {}),
                loot_with=tuple(names[p] for p in (e.loot_with or [])),
                wager=e.wager,
                shot=e.shot if not loads_secret or e.position == shown_to else None,
                bid_changed_from=e.bid_changed_from,
            )
            for e in record.entries
        ),
    )


def clashes(game: AnyGame, record: Any) -> list[Problem]:
    """Clashes between players' results in a hand in play that every player concerned has entered.

    A result counts as entered once its phone said it is complete (or was sent back to fix
    it); results still being typed are left out, so nobody is told "Yul does not name Xan"
    before Yul has said anything. Problems of one player alone are refused when they are
    sent, so what is left here names two players or more.
    """
    if record.phase != Phase.PLAYING:
        return []
    if isinstance(game, GameState):
        # Read by the shared table, the pad and every phone's card at each version: checked once per version.
        # (While a hand is played no bid is hidden, so every screen's view of it is the same.)
        kept = cache("clashes")
        key = (game.id, game.version, record.number)
        found = kept.get(key)
        if found is None:
            found = tuple(find_clashes(game, record))
            kept.put(key, found)
        return list(found)
    return find_clashes(game, record)


def find_clashes(game: AnyGame, record: Any) -> list[Problem]:
    """`clashes`, worked out now and never kept: for a hand being changed, which no version names yet."""
    table = table_of(game)
    hand = hand_of(game, record)
    entered = {table.players[e.position] for e in record.entries if e.done or e.fixing}
    if len(entered) < 2:
        return []
    everyone = len(entered) == len(record.entries)
    # Only what has been entered is checked: a result being typed claims nothing yet.
    checked = replace(hand, entries=tuple(
        e if e.player in entered else Entry(e.player, e.bid, None) for e in hand.entries))
    return [p for p in rules.validate_hand(table, record.number, checked, in_play=not everyone)
            if len(p.players) > 1 and set(p.players) <= entered]


def must_bid_again(game: GameState, record: HandState) -> list[str]:
    """Players of a hand still being bid whose bid was cleared when their seat changed phones."""
    if record.phase != Phase.BIDDING:
        return []
    return [game.seats[s].name for s in sorted(game.bids_cleared) if not record.entries[s].ready]


def schedule(game: AnyGame, table: Table | None = None) -> tuple[int, ...]:
    """Cards per hand for the whole game."""
    return rules.cards_per_hand(table or table_of(game))


def current_hand(game: AnyGame) -> Any:
    """The hand being bid or played, None when the game is over."""
    for record in game.hands:
        if record.phase != Phase.SCORED:
            return record
    return None


@dataclass(frozen=True)
class PadCell:
    """One player's cell in one hand of the score pad."""

    bid: int | None
    tricks: int | None
    points: int | None
    total: int | None
    provisional: bool
    bid_changed_from: int | None = None
    # Grapeshot or cannonball, once the loads are revealed (the cannonball rule).
    shot: str | None = None


@dataclass(frozen=True)
class PadRow:
    """One hand's row of the score pad."""

    number: int
    cards: int
    dealer: str
    phase: Phase
    corrected: bool
    cells: tuple[PadCell, ...]


def pad_rows(game: AnyGame, table: Table | None = None) -> list[PadRow]:
    """The score pad: finished hands with points and running totals, then the hand in play.

    A hand still being bid shows no bids: they are secret until revealed. A hand in play
    shows what it would score now, unless its results clash: no total is built on them.
    """
    table = table or table_of(game)
    totals = dict.fromkeys(table.players, 0)
    rows = []
    for record in game.hands:
        hand = hand_of(game, record)
        if record.phase == Phase.SCORED:
            points = rules.score_hand(table, hand)
            for player in table.players:
                totals[player] += points[player]
            provisional = False
            shown_totals = dict(totals)
        elif record.phase == Phase.PLAYING and not clashes(game, record):
            points = rules.provisional_points(table, hand)
            provisional = True
            shown_totals = {p: totals[p] + points[p] for p in points}
        else:
            points, provisional, shown_totals = {}, True, {}
        cells = tuple(
            PadCell(
                bid=e.bid if not record.phase.is_secret else None,
                tricks=e.tricks,
                points=points.get(e.player),
                total=shown_totals.get(e.player),
                provisional=provisional,
                bid_changed_from=e.bid_changed_from,
                shot=e.shot,
            )
            for e in hand.entries
        )
        dealer = table.players[rules.dealer_index(table, record.number)]
        rows.append(PadRow(record.number, record.cards, dealer, record.phase, record.corrected, cells))
    return rows


def standings(game: AnyGame, rows: Iterable[PadRow] | None = None) -> list[Standing]:
    """The leaderboard from scored hands: ranks shared on ties, gap to the leader."""
    table = table_of(game)
    rows = list(rows if rows is not None else pad_rows(game, table))
    scored = [r for r in rows if r.phase == Phase.SCORED]
    totals = [c.total or 0 for c in scored[-1].cells] if scored else [0] * len(table.players)
    in_play = [r for r in rows if r.phase == Phase.PLAYING]
    provisional = [c.total for c in in_play[-1].cells] if in_play else [None] * len(totals)
    return leaderboard(table.players, totals, provisional)
