"""What Skull King's hand page shows, from the game's values as a screen may see them (`reading.GameSeen`): the
shared table every screen sees alike, and a browser's own card."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from ...access import Actor
from ...clock import epoch_ms
from ...i18n import gettext
from ...kinds import Context
from ...views.labels import problems_by_player, say
from ...worth import bid_worth, signed
from . import rules
from .reading import GameSeen, HandState
from .rules import Problem
from .storage import Phase


def table_context(game: GameSeen) -> Context:
    """What the whole table may see of the game (seen by no seat, so no hidden bid is in it): the hand open now, its
    facts and who is fixing what, and the leaderboard."""
    hand = game.current
    context: Context = {"over": hand is None, "standings": game.standings()}
    if hand is not None:
        table = game.setup
        scoring = game.scoring(hand)
        # Results that clash go back to the players concerned; the table sees who is fixing what.
        clashes = game.clashes(hand)
        concerned = {name for problem in clashes for name in problem.players}
        context.update(
            table=table, hand=hand, scoring=scoring,
            dealer=table.players[rules.dealer_index(table, hand.number)],
            leader=table.players[rules.leader_index(table, hand.number)],
            hand_count=len(game.schedule),
            provisional=rules.provisional_points(table, scoring) if not hand.phase.is_secret and not clashes else {},
            waiting=sum(not e.ready for e in hand.entries),
            unloaded=sum(not e.loaded for e in hand.entries),
            lost_allowed=rules.lost_tricks_allowed(table),
            clashes=[say(p) for p in clashes],
            tricks_missing=max((rules.tricks_missing(p) for p in clashes), default=0),
            fixing=[table.players[e.position] for e in hand.entries
                    if e.fixing and table.players[e.position] in concerned],
            bid_again=game.must_bid_again(hand),
            reveal_ms=epoch_ms(hand.reveal_at) or 0,
        )
    return context


def card_context(game: GameSeen, hand: HandState, seen_by: Actor, problems: list[Problem] | None = None,
                 typed: rules.Entry | None = None) -> Context:
    """What this browser's own card shows of `hand`: its forms' values, and what only it may see.

    `typed`: a phone's result as it sent it, refused: the card shows that, not what is stored,
    so nothing the player chose is lost to a refusal.
    """
    problems = problems or []
    table = game.setup
    scoring = game.scoring(hand)
    if typed is not None and seen_by.seat is not None:
        entries = tuple(typed if i == seen_by.seat else e for i, e in enumerate(scoring.entries))
        scoring = replace(scoring, entries=entries)
    mine = game.clashes_of(hand, seen_by.seat) if seen_by.seat is not None else []
    return {
        "visitor": seen_by,
        "table": table,
        "hand": hand,
        "scoring": scoring,
        "max_cards": rules.max_cards(table),
        "problems": [say(p) for p in problems],
        "player_problems": problems_by_player(problems, len(table.players)),
        "lost_allowed": rules.lost_tricks_allowed(table) and hand.phase == Phase.PLAYING,
        "my_clashes": [say(p) for p in mine],
        "judge_helps": any(rules.about_captures(p) for p in problems),
        "tricks_missing": max((rules.tricks_missing(p) for p in mine), default=0),
        "bonus_max": bonus_max(table),
        "worths": bid_worths(table, hand.cards) if hand.phase == Phase.BIDDING else [],
    }


def screen_context(game: GameSeen, actor: Actor) -> Context:
    """What its hand page shows `actor` of the game: the whole table (a viewer, or once the game is over) the shared
    table, a browser its own card of the hand open now."""
    hand = game.current
    if hand is None or actor.seat is None and not actor.is_host:
        return table_context(game)
    return card_context(game, hand, actor)


def bid_worths(table: rules.Setup, cards: int) -> list[str]:
    """What each bid of a hand of `cards` is worth, in words, by this table's scoring (its ruleset and options): on
    the bid keys, shown as a key is chosen, without a request."""
    def points(bid: int, tricks: int, shot: str | None = None) -> int:
        entry = rules.Entry("", bid, tricks, shot=shot)
        return rules.score_hand(table, rules.Hand(cards, (entry,)))[""]

    found = [bid_worth(partial(points, bid), bid) for bid in range(cards + 1)]
    if table.ruleset == "modern" and table.options.scoring == "rascal" and table.options.cannonball:
        found = [f"{words} " + gettext("With the cannonball: %(made)s if made exactly, else 0.",
                                       made=signed(points(bid, bid, "cannonball")))
                 for bid, words in enumerate(found)]
    return found


def bonus_max(table: rules.Setup) -> dict[str, int]:
    """The most of each counted capture one player can have in one hand, for the card's counters."""
    in_trick = len(table.players) - 1
    return {rules.PIRATES_BY_SKULL_KING: min(table.spec.pirates, in_trick),
            rules.MERMAIDS_BY_PIRATE: table.spec.mermaids,
            rules.STANDARD_FOURTEENS: 3,
            **rules.EXPANSION_LIMITS,
            rules.DAVY_JONES_MONSTERS: rules.sea_monsters(table)}
