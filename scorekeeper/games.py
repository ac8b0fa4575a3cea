"""Games in the database, seen through the rules: the one place that maps records to rules values."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Iterable

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from . import rules
from .extensions import db
from .models import EntryRecord, Event, Game, HandRecord, Seat, new_join_code, utcnow
from .pad import Pad, options_document, write_pad
from .rules import Entry, Hand, Options, Table

BIDDING, COUNTING, PLAYING, SCORED = "bidding", "counting", "playing", "scored"
# Until the count ends, nobody but a bid's own phone may see it.
SECRET_PHASES = (BIDDING, COUNTING)


def options_from_document(doc: dict[str, Any]) -> Options:
    """Options from their stored form (the pad file's `options` object)."""
    values = dict(doc)
    if isinstance(values.get("rounds"), list):
        values["rounds"] = tuple(values["rounds"])
    return Options(**values)


def table_of(game: Game) -> Table:
    """The rules' view of a game's table."""
    return Table(game.ruleset, tuple(s.name for s in game.seats), options_from_document(game.options))


def hand_of(game: Game, record: HandRecord, shown_to: int | None = None) -> Hand:
    """The rules' view of one stored hand.

    While the bids are secret, only the bid of seat `shown_to` is in it.
    """
    names = [s.name for s in game.seats]
    secret = record.phase in SECRET_PHASES
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


def find_game_by_code(code: str) -> Game | None:
    """The game with this join code, or None."""
    if not PUBLIC_ID.fullmatch(code):
        return None
    return db.session.scalar(select(Game).where(Game.join_code == code))


def unused_join_code() -> str:
    """A join code no stored game has: with many games stored, a random one may be taken."""
    while True:
        code = new_join_code()
        if find_game_by_code(code) is None:
            return code


def create_game(table: Table) -> Game:
    """Store a new game for a valid table and open its first hand."""
    game = Game(ruleset=table.ruleset, options=options_document(table), join_code=unused_join_code())
    game.seats = [Seat(position=i, name=name) for i, name in enumerate(table.players)]
    db.session.add(game)
    open_next_hand(game, table)
    return game


def schedule(game: Game, table: Table | None = None) -> tuple[int, ...]:
    """Cards per hand for the whole game."""
    return rules.cards_per_hand(table or table_of(game))


def open_next_hand(game: Game, table: Table) -> HandRecord | None:
    """Open the hand after the last one, or finish the game if none is left."""
    planned = rules.cards_per_hand(table)
    number = len(game.hands) + 1
    if number > len(planned):
        game.finished_at = game.finished_at or utcnow()
        return None
    record = HandRecord(number=number, cards=planned[number - 1], phase=BIDDING)
    record.entries = [EntryRecord(position=i) for i in range(len(game.seats))]
    game.hands.append(record)
    return record


def place_bid(game: Game, record: HandRecord, position: int, bid: int, count_seconds: float) -> None:
    """Store a secret bid; when every seat is ready the YO-HO-HO count starts.

    A bid changed during the count starts it again.
    """
    entry = record.entries[position]
    changed = entry.bid != bid
    entry.bid = bid
    touch(game, "bid", record.number)
    if all(e.bid is not None for e in record.entries) and (record.phase == BIDDING or changed):
        record.phase = COUNTING
        record.reveal_at = utcnow() + timedelta(seconds=count_seconds)
        touch(game, "count", record.number)


def reveal_if_due(game: Game) -> bool:
    """End a finished count: the bids show. True if this call revealed them."""
    record = current_hand(game)
    if record is None or record.phase != COUNTING or record.reveal_at is None:
        return False
    if record.reveal_at > utcnow():
        return False
    record.phase = PLAYING
    record.reveal_at = None
    for entry in record.entries:
        entry.tricks = 0
        entry.done = False
    touch(game, "reveal", record.number)
    return True


def reveal_is_due(game: Game) -> bool:
    """Whether a count has run out and the bids wait to be shown."""
    record = current_hand(game)
    return bool(record and record.phase == COUNTING and record.reveal_at and record.reveal_at <= utcnow())


def score_hand_record(game: Game, record: HandRecord, table: Table) -> None:
    """Close a valid hand and open the next one."""
    record.phase = SCORED
    touch(game, "score", record.number)
    open_next_hand(game, table)


def current_hand(game: Game) -> HandRecord | None:
    """The hand being bid or played, None when the game is over."""
    for record in game.hands:
        if record.phase != SCORED:
            return record
    return None


def touch(game: Game, kind: str, hand: int | None = None) -> None:
    """Mark the game as changed and log what kind of change, so every screen refreshes."""
    game.version = (game.version or 0) + 1
    if game.id is None:
        db.session.flush()
    db.session.add(Event(game_id=game.id, version=game.version, kind=kind, hand=hand))


def store_entries(game: Game, record: HandRecord, hand: Hand) -> None:
    """Write a hand's values (as given by the rules' Hand) into its records."""
    positions = {s.name: s.position for s in game.seats}
    record.cards = hand.cards
    record.lost_tricks = hand.lost_tricks
    by_position = {e.position: e for e in record.entries}
    for entry in hand.entries:
        stored = by_position[positions[entry.player]]
        stored.bid = entry.bid
        stored.tricks = entry.tricks
        stored.bonuses = {k: v for k, v in entry.bonuses.items() if v}
        stored.loot_with = [positions[p] for p in entry.loot_with]
        stored.wager = entry.wager
        stored.shot = entry.shot
        stored.bid_changed_from = entry.bid_changed_from


def import_pad(pad: Pad) -> Game:
    """Store a read pad as a new game that resumes where the pad stopped."""
    game = Game(ruleset=pad.table.ruleset, options=options_document(pad.table))
    game.seats = [Seat(position=i, name=name) for i, name in enumerate(pad.table.players)]
    db.session.add(game)
    for number, hand in enumerate(pad.hands, start=1):
        record = HandRecord(number=number, cards=hand.cards,
                            phase=SCORED if hand.finished else PLAYING)
        record.entries = [EntryRecord(position=i) for i in range(len(game.seats))]
        game.hands.append(record)
        store_entries(game, record, hand)
    if all(r.phase == SCORED for r in game.hands):
        open_next_hand(game, pad.table)
    return game


def export_pad(game: Game) -> dict[str, Any]:
    """The game's pad document; a hand still being bid is left out, its bids unrevealed."""
    table = table_of(game)
    hands = [hand_of(game, r) for r in game.hands if r.phase not in SECRET_PHASES]
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
    phase: str
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
        if record.phase == SCORED:
            points = rules.score_hand(table, hand)
            for player in table.players:
                totals[player] += points[player]
            provisional = False
            shown_totals = dict(totals)
        elif record.phase == PLAYING:
            points = rules.provisional_points(table, hand)
            provisional = True
            shown_totals = {p: totals[p] + points[p] for p in table.players}
        else:
            points, provisional, shown_totals = {}, True, {}
        cells = tuple(
            PadCell(
                bid=e.bid if record.phase not in SECRET_PHASES else None,
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
    scored = [r for r in rows if r.phase == SCORED]
    totals = [c.total or 0 for c in scored[-1].cells] if scored else [0] * len(table.players)
    in_play = [r for r in rows if r.phase == PLAYING]
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
        if record.phase != SCORED:
            continue
        hand = hand_of(game, record)
        for player, points in rules.bonus_points(table, hand).items():
            bonus[player] += points
        for entry in hand.entries:
            if entry.bid == entry.tricks:
                made[entry.player] += 1
                zeros[entry.player] += entry.bid == 0
    return [PlayerSummary(p, made[p], zeros[p], bonus[p]) for p in table.players]
