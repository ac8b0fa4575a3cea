"""Skull King's games read through its rules: one value of a game at one version as a screen or a change sees it
(`GameSeen`: its setup, its hands, the open one with the secret entries that screen may see), and from it each hand,
the clashes, the score pad and the leaderboard.

Made from the game's plays as the table reads them at one version and the secret entries a screen may see
(`games.as_seen_by` decides), as pages and changes alike read it. Reading only; its changes are in `changes.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from ...access import Actor
from ...games import GameState, Plays, seen_plays
from ...kinds import Missing, Secrets
from ...standings import Standing, leaderboard
from . import rules
from .rules import Entry, Hand, Problem, Setup
from .storage import BID, SHOT, EntryRow, HandRow, Phase, phase_of


# Slots: thousands of these are kept, and fewer objects make shorter garbage collections.
@dataclass(frozen=True, slots=True)
class EntryState:
    """One player's line in one hand: its row, and its bid and load as this view of the game shows them."""

    position: int
    bid: int | None
    tricks: int | None
    bonuses: dict[str, int]
    loot_with: tuple[int, ...]
    wager: int | None
    shot: str | None
    bid_changed_from: int | None
    done: bool
    # Whether a bid is in: the table may know that much while the bids are secret.
    ready: bool
    # Refused for a clash with others: this player checks their result again.
    fixing: bool = False
    # Whether a cannon is loaded: the table may know that much while the loads are secret.
    loaded: bool = False

    def row(self, scored: bool) -> EntryRow:
        """What its row stores: the bid and the load only once its hand is `scored` (before, they are the table's
        secret entries)."""
        return EntryRow(self.tricks, self.bonuses, self.loot_with, self.wager, self.bid_changed_from, self.done,
                        self.fixing, self.bid if scored else None, self.shot if scored else None)


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand, with its phase as the game was looked at (where the table's count stood then)."""

    number: int
    cards: int
    lost_tricks: int
    stored_phase: Phase
    corrected: bool
    # When the count of its bids or loads ends, while one runs.
    reveal_at: datetime | None
    entries: tuple[EntryState, ...]
    phase: Phase
    # The cannonball rule: the players load their cannons in secret once the bids are revealed.
    cannons: bool = False
    # The tricks claimed in it through the trick judge, each its cards as written.
    claimed: tuple[str, ...] = ()

    def row(self, shown: bool = False) -> HandRow:
        """What its play stores; `shown`: with the bids and loads this view shows (a pad's hand)."""
        kept = shown or self.stored_phase == Phase.SCORED
        return HandRow(self.cards, self.lost_tricks, self.stored_phase, self.corrected, self.cannons, self.claimed,
                       tuple(e.row(kept) for e in self.entries))


@dataclass(frozen=True, slots=True)
class Score:
    """A scored hand as its rules score it, and its points by player."""

    scoring: Hand
    points: dict[str, int]

    @classmethod
    def of(cls, setup: Setup, hand: HandState) -> Score:
        """What the rules make of a scored hand of a game with this setup."""
        scoring = scoring_of(setup.players, hand)
        return cls(scoring, rules.score_hand(setup, scoring))


@dataclass(frozen=True)
class GameSeen:
    """A Skull King game at one version as one screen (or a change) sees it, plain values only: its setup, its hands
    (the scored ones as their plays hold them, the open one with the secret entries that screen may see), whether
    the game is finished, the seats whose bid was cleared when they changed phones; its id and version name it."""

    setup: Setup
    hands: tuple[HandState, ...]
    finished: bool = False
    cleared: frozenset[int] = frozenset()
    # The scored hands' scoring by the rules and their points, in order, when made already (`_seen`).
    scores: tuple[Score, ...] = field(default=(), compare=False, repr=False)
    # The clashes of each hand in play, once checked.
    checked: dict[int, tuple[Problem, ...]] = field(default_factory=dict, compare=False, repr=False)
    # The score pad, once drawn up.
    padded: list[tuple[PadRow, ...]] = field(default_factory=list, compare=False, repr=False)

    @classmethod
    def of_plays(cls, setup: Setup, closed: Sequence[HandRow], draft: HandRow | None, secrets: Secrets,
                 scored: Sequence[HandState] | None = None, scores: tuple[Score, ...] = ()) -> GameSeen:
        """The game its scored hands (`closed`) and the hand open now (`draft`, None once the game is over) make, that
        hand's secret entries as the screen may see them (`secrets`); `scored`: the scored hands made already,
        `scores`: their scoring and points."""
        hands = list(scored if scored is not None else
                     (hand_of_play(number, row, NO_SECRETS) for number, row in enumerate(closed, start=1)))
        if draft is not None:
            hands.append(hand_of_play(len(closed) + 1, draft, secrets))
        cleared = secrets.cleared if secrets.counted == BID else frozenset()
        return cls(setup, tuple(hands), draft is None, cleared, scores)

    def hand(self, number: int) -> HandState | Missing:
        """Hand `number`, or the answer that it is missing."""
        return self.hands[number - 1] if 1 <= number <= len(self.hands) else Missing(number)

    @property
    def current(self) -> HandState | None:
        """The hand being bid or played, None when the game is over."""
        return next((hand for hand in self.hands if hand.phase != Phase.SCORED), None)

    def scoring(self, hand: HandState) -> Hand:
        """The rules' view of one hand, with the bids and loads this view has."""
        score = self._score(hand)
        return score.scoring if score is not None else scoring_of(self.setup.players, hand)

    def points(self, hand: HandState) -> dict[str, int]:
        """What a scored hand scored, by player."""
        score = self._score(hand)
        return score.points if score is not None else rules.score_hand(self.setup, self.scoring(hand))

    def _score(self, hand: HandState) -> Score | None:
        """A scored hand's scoring and points as made already, if they were."""
        number = hand.number
        return self.scores[number - 1] if number <= len(self.scores) and self.hands[number - 1] is hand else None

    def scored(self) -> list[Hand]:
        """The scored hands, in order, as the rules score them."""
        return [self.scoring(hand) for hand in self.hands if hand.phase == Phase.SCORED]

    def seen(self) -> list[Hand]:
        """The hands the whole table has seen: a hand still being bid is left out, its bids unrevealed."""
        return [self.scoring(hand) for hand in self.hands if not hand.phase.is_secret]

    def clashes(self, hand: HandState) -> list[Problem]:
        """Clashes between players' results in a hand in play that every player concerned has entered.

        A result counts as entered once its phone said it is complete (or was sent back to fix
        it); results still being typed are left out, so nobody is told "Yul does not name Xan"
        before Yul has said anything. Problems of one player alone are refused when they are
        sent, so what is left here names two players or more.
        """
        if hand.number not in self.checked:
            # Read by a page's table, its pad and its card: checked once for each value of the game.
            self.checked[hand.number] = tuple(clashes_now(self.setup, hand))
        return list(self.checked[hand.number])

    def clashes_of(self, hand: HandState, seat: int) -> list[Problem]:
        """The clashes the player of `seat` is part of: their card says what to do about them."""
        name = self.setup.players[seat]
        return [p for p in self.clashes(hand) if name in p.players]

    def must_bid_again(self, hand: HandState) -> list[str]:
        """Players of a hand still being bid whose bid was cleared when their seat changed phones."""
        if hand.phase != Phase.BIDDING:
            return []
        return [self.setup.players[s] for s in sorted(self.cleared) if not hand.entries[s].ready]

    @property
    def schedule(self) -> tuple[int, ...]:
        """Cards per hand for the whole game."""
        return rules.cards_per_hand(self.setup)

    def pad_rows(self) -> list[PadRow]:
        """The score pad: finished hands with points and running totals, then the hand in play.

        A hand still being bid shows no bids: they are secret until revealed. A hand in play
        shows what it would score now, unless its results clash: no total is built on them.
        """
        if not self.padded:
            # Read by the table, its pad and its leaderboard: drawn up once for each value of the game.
            totals = dict.fromkeys(self.setup.players, 0)
            self.padded.append(tuple(_pad_row(self, hand, totals) for hand in self.hands))
        return list(self.padded[0])

    def standings(self, rows: Iterable[PadRow] | None = None) -> list[Standing]:
        """The leaderboard from scored hands: ranks shared on ties, gap to the leader."""
        players = self.setup.players
        rows = list(rows if rows is not None else self.pad_rows())
        scored = [r for r in rows if r.phase == Phase.SCORED]
        totals = [c.total or 0 for c in scored[-1].cells] if scored else [0] * len(players)
        in_play = [r for r in rows if r.phase == Phase.PLAYING]
        provisional = [c.total for c in in_play[-1].cells] if in_play else [None] * len(totals)
        return leaderboard(players, totals, provisional)


def seen_by(state: GameState, seat: int | None) -> GameSeen:
    """The game at its version as the screen of `seat` may see it (None: the whole table), from the table's one read
    of its plays at that version and the secret entries that screen may see (`games.seen_plays`: made once per view
    and version)."""
    return seen_plays(state, seat, _seen)


def _seen(read: Plays, secrets: Secrets) -> GameSeen:
    """The game its plays at one version make with the open hand's secrets as a screen may see them; the scored hands
    and the clashes of a hand in play, alike for every screen, made once a version."""
    setup = read.setup
    scored = read.each("skull king's scored hands", lambda number, row: hand_of_play(number, row, NO_SECRETS))
    scores = read.each("skull king's scores", lambda number, row: Score.of(setup, scored[number - 1]))
    game = GameSeen.of_plays(setup, read.closed, read.draft, secrets, scored, scores)
    hand = game.current
    if hand is not None and hand.phase == Phase.PLAYING:
        # While a hand is played no bid or load is hidden: every screen sees it alike, and its clashes.
        game.checked[hand.number] = read.alike("skull king's clashes", lambda: tuple(clashes_now(game.setup, hand)))
    return game


def card_state(game: GameSeen, actor: Actor) -> object:
    """What a browser's own card shows of the hand open now: its phase and cards, a phone's own entry and the clashes
    it is part of, the host's the entries of the seats without a phone; "over" once the game is."""
    hand = game.current
    if hand is None:
        return "over"
    parts: tuple[object, ...] = (hand.number, hand.phase, hand.cards)
    if actor.seat is not None:
        parts += (hand.entries[actor.seat], game.clashes_of(hand, actor.seat))
    elif actor.is_host:
        parts += (tuple(e for e in hand.entries if actor.enters_for(e.position)),)
    return parts


def hand_of_play(number: int, row: HandRow, secrets: Secrets) -> HandState:
    """Hand `number` as its play stores it (`row`), with its secret entries as a screen may see them (`secrets`): a
    scored hand's bids and loads are in its row, shown to everyone."""
    bids: Mapping[int, int | None]
    shots: Mapping[int, str | None]
    if row.phase == Phase.SCORED:
        bids = {seat: e.bid for seat, e in enumerate(row.entries) if e.bid is not None}
        shots = {seat: e.shot for seat, e in enumerate(row.entries) if e.shot is not None}
    else:
        bids, shots = secrets.of(BID), secrets.of(SHOT)
    entries = tuple(EntryState(seat, bids.get(seat), e.tricks, dict(e.bonuses), e.loot_with, e.wager, shots.get(seat),
                               e.bid_changed_from, e.done, seat in bids, e.fixing, seat in shots)
                    for seat, e in enumerate(row.entries))
    return HandState(number, row.cards, row.lost_tricks, row.phase, row.corrected, secrets.reveal_at, entries,
                     phase_of(row.phase, secrets, row.cannons), row.cannons, row.claimed)


# A scored hand's: its bids and loads are in its play.
NO_SECRETS = Secrets()


def scoring_of(names: Sequence[str], hand: HandState) -> Hand:
    """The rules' view of one hand, its players named `names` in seat order."""
    return Hand(
        cards=hand.cards,
        lost_tricks=hand.lost_tricks,
        entries=tuple(
            Entry(
                player=names[e.position],
                bid=e.bid,
                tricks=e.tricks if not hand.phase.is_secret else None,
                bonuses=dict(e.bonuses or {}),
                loot_with=tuple(names[p] for p in (e.loot_with or [])),
                wager=e.wager,
                shot=e.shot,
                bid_changed_from=e.bid_changed_from,
            )
            for e in hand.entries
        ),
    )


def clashes_now(table: Setup, hand: HandState) -> list[Problem]:
    """`clashes`, worked out now and never kept: for a hand being changed, which no version names yet."""
    if hand.phase != Phase.PLAYING:
        return []
    scoring = scoring_of(table.players, hand)
    entered = {table.players[e.position] for e in hand.entries if e.done or e.fixing}
    if len(entered) < 2:
        return []
    everyone = len(entered) == len(hand.entries)
    # Only what has been entered is checked: a result being typed claims nothing yet.
    checked = replace(scoring, entries=tuple(
        e if e.player in entered else Entry(e.player, e.bid, None) for e in scoring.entries))
    return [p for p in rules.validate_hand(table, hand.number, checked, in_play=not everyone)
            if len(p.players) > 1 and set(p.players) <= entered]


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
    # The points of the bonus cards captured, as claimed (they count only with the bid made).
    bonus: int = 0


@dataclass(frozen=True)
class PadRow:
    """One hand's row of the score pad."""

    number: int
    cards: int
    dealer: str
    phase: Phase
    corrected: bool
    cells: tuple[PadCell, ...]
    # Tricks nobody won (the Kraken, the White Whale, the ghost).
    lost_tricks: int = 0


def _pad_row(game: GameSeen, hand: HandState, totals: dict[str, int]) -> PadRow:
    """One hand's row of the pad after the `totals` before it; a scored hand adds its points to them."""
    table = game.setup
    scoring = game.scoring(hand)
    if hand.phase == Phase.SCORED:
        points = game.points(hand)
        for player in table.players:
            totals[player] += points[player]
        provisional = False
        shown_totals = dict(totals)
    elif hand.phase == Phase.PLAYING and not game.clashes(hand):
        points = rules.provisional_points(table, scoring)
        provisional = True
        shown_totals = {p: totals[p] + points[p] for p in points}
    else:
        points, provisional, shown_totals = {}, True, {}
    cells = tuple(
        PadCell(
            bid=e.bid,
            tricks=e.tricks,
            points=points.get(e.player),
            total=shown_totals.get(e.player),
            provisional=provisional,
            bid_changed_from=e.bid_changed_from,
            shot=e.shot,
            bonus=sum(table.spec.bonus_values.get(kind, 0) * count for kind, count in (e.bonuses or {}).items()),
        )
        for e in scoring.entries
    )
    dealer = table.players[rules.dealer_index(table, hand.number)]
    return PadRow(hand.number, hand.cards, dealer, hand.phase, hand.corrected, cells, scoring.lost_tricks)
