"""Games in the database, seen through the rules: the one place that maps records to rules values.

Reading only; every change goes through `service`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from . import rules
from .extensions import db
from .models import Event, Game, HandRecord, Phase
from .pad import write_pad
from .rules import Entry, Hand, Options, Table


def table_of(game: Game) -> Table:
    """The rules' view of a game's table."""
    return Table(game.ruleset, tuple(s.name for s in game.seats), Options.from_document(game.options))


def hand_of(game: Game, record: HandRecord, shown_to: int | None = None) -> Hand:
    """The rules' view of one stored hand.

    While the bids are secret, only the bid of seat `shown_to` is in it.
    """
    names = [s.name for s in game.seats]
    secret = record.phase.is_secret
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
                shot=e.shot,
                bid_changed_from=e.bid_changed_from,
            )
            for e in record.entries
        ),
    )


PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def find_game(public_id: str, for_update: bool = False) -> Game | None:
    """The game with this public id, or None; `for_update` locks it until commit."""
    if not PUBLIC_ID.fullmatch(public_id):
        # No game has such an id; and some databases refuse characters like NUL outright.
        return None
    # A page needs the whole game: three queries, not one per hand.
    query = select(Game).where(Game.public_id == public_id).options(
        selectinload(Game.seats), selectinload(Game.hands).selectinload(HandRecord.entries))
    if for_update:
        # Every write to a game goes through this lock, so two phones writing at
        # once are serialized (on SQLite the write transaction does the same).
        query = query.with_for_update()
    return db.session.scalar(query)


def find_game_by_code(code: str, in_play_only: bool = True) -> Game | None:
    """The game with this join code, or None; the code of a finished game has expired."""
    if not PUBLIC_ID.fullmatch(code):
        return None
    query = select(Game).where(Game.join_code == code)
    if in_play_only:
        query = query.where(Game.finished_at.is_(None))
    return db.session.scalar(query)


# The event kind of a bid cleared because its seat changed phones, followed by the seat.
BID_CLEARED = "bid-cleared "


def must_bid_again(game: Game, record: HandRecord) -> list[str]:
    """Players of a hand still being bid whose bid was cleared when their seat changed phones."""
    if record.phase != Phase.BIDDING:
        return []
    kinds = db.session.scalars(select(Event.kind).where(
        Event.game_id == game.id, Event.hand == record.number, Event.kind.startswith(BID_CLEARED))).all()
    seats = {int(kind.removeprefix(BID_CLEARED)) for kind in kinds}
    return [game.seats[s].name for s in sorted(seats) if record.entries[s].bid is None]


def schedule(game: Game, table: Table | None = None) -> tuple[int, ...]:
    """Cards per hand for the whole game."""
    return rules.cards_per_hand(table or table_of(game))


def current_hand(game: Game) -> HandRecord | None:
    """The hand being bid or played, None when the game is over."""
    for record in game.hands:
        if record.phase != Phase.SCORED:
            return record
    return None


def export_pad(game: Game) -> dict[str, Any]:
    """The game's pad document; a hand still being bid is left out, its bids unrevealed."""
    table = table_of(game)
    hands = [hand_of(game, r) for r in game.hands if not r.phase.is_secret]
    return write_pad(table, hands)


@dataclass(frozen=True)
class PadCell:
    """One player's cell in one hand of the score pad."""

    bid: int | None
    tricks: int | None
    points: int | None
    total: int | None
    provisional: bool
    bid_changed_from: int | None = None


@dataclass(frozen=True)
class PadRow:
    """One hand's row of the score pad."""

    number: int
    cards: int
    dealer: str
    phase: Phase
    corrected: bool
    cells: tuple[PadCell, ...]


@dataclass(frozen=True)
class Standing:
    """A player's place on the leaderboard."""

    rank: int
    name: str
    total: int
    gap: int
    provisional_total: int | None


def pad_rows(game: Game, table: Table | None = None) -> list[PadRow]:
    """The score pad: finished hands with points and running totals, then the hand in play.

    A hand still being bid shows no bids: they are secret until revealed.
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
        elif record.phase == Phase.PLAYING:
            points = rules.provisional_points(table, hand)
            provisional = True
            shown_totals = {p: totals[p] + points[p] for p in table.players}
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
            )
            for e in hand.entries
        )
        dealer = table.players[rules.dealer_index(table, record.number)]
        rows.append(PadRow(record.number, record.cards, dealer, record.phase, record.corrected, cells))
    return rows


def standings(game: Game, rows: Iterable[PadRow] | None = None) -> list[Standing]:
    """The leaderboard from scored hands: ranks shared on ties, gap to the leader."""
    table = table_of(game)
    rows = list(rows if rows is not None else pad_rows(game, table))
    scored = [r for r in rows if r.phase == Phase.SCORED]
    totals = [c.total or 0 for c in scored[-1].cells] if scored else [0] * len(table.players)
    in_play = [r for r in rows if r.phase == Phase.PLAYING]
    provisional = [c.total for c in in_play[-1].cells] if in_play else [None] * len(totals)
    leader = max(totals)
    order = sorted(range(len(totals)), key=lambda i: (-totals[i], i))
    result = []
    for place, i in enumerate(order):
        tied = place > 0 and totals[i] == totals[order[place - 1]]
        rank = result[-1].rank if tied else place + 1
        result.append(Standing(rank, table.players[i], totals[i], leader - totals[i], provisional[i]))
    return result


@dataclass(frozen=True)
class PlayerSummary:
    """What a player achieved over the whole game."""

    name: str
    bids_made: int
    zero_bids_made: int
    bonus_points: int


def summaries(game: Game) -> list[PlayerSummary]:
    """Bids made, zero bids made and bonus points won, per player, over scored hands."""
    table = table_of(game)
    made = dict.fromkeys(table.players, 0)
    zeros = dict.fromkeys(table.players, 0)
    bonus = dict.fromkeys(table.players, 0)
    for record in game.hands:
        if record.phase != Phase.SCORED:
            continue
        hand = hand_of(game, record)
        for player, points in rules.bonus_points(table, hand).items():
            bonus[player] += points
        for entry in hand.entries:
            if entry.bid == entry.tricks:
                made[entry.player] += 1
                zeros[entry.player] += entry.bid == 0
    return [PlayerSummary(p, made[p], zeros[p], bonus[p]) for p in table.players]
