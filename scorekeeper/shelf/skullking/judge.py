"""The trick judge's screen: tap the cards of a trick as they fall, see who wins it and why.

The trick lives in the address (who led, the cards so far, a suit picked and waiting for its
number), so each tap is a plain link, the screen keeps nothing, and no GET writes. Only
"This trick was mine" writes, through `changes.claim_trick`, which judges the cards again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from flask import request, url_for
from flask.typing import ResponseReturnValue

from ...i18n import gettext
from ...views.labels import say
from ...views.rendering import after, page, see_other
from ...views.sessions import load_state, visitor
from . import reading, rules, tricks
from .changes import TapKind
from .storage import Phase
from .views import bp, tapped
from .words import card_label, reason_in_words, suit_label


@dataclass(frozen=True)
class Choice:
    """One key of the judge's keypad: what it shows, and where a tap goes (None: not in the pack any more)."""

    label: str
    css: str
    url: str | None
    current: bool = False
    # What the key shows when its label is longer (a number key shows the number, names its card).
    text: str = ""


# What a number key of the expansion shows (its label names the card in full for a screen reader).
KEY_TEXT = {tricks.COMPASS: "{number}c", tricks.ZERO_OR_FOURTEEN: "0/14→{number}", tricks.WILD: "W15"}


def specials(ruleset: str, advanced: bool, expansion: bool = False) -> list[str]:
    """The special cards of a ruleset's keypad, as a trick is written."""
    either = tricks.EITHER[ruleset]
    cards = ["flag" if ruleset == "doubloons" else "escape", "pirate", f"{either} as pirate", f"{either} as escape",
             "mermaid", "skull king"]
    if ruleset == "modern" and advanced:
        cards += ["loot", "kraken", "white whale"]
    if ruleset == "modern" and expansion:
        cards += ["mary", "con", "walk the plank", "stingray", "last volley", "davy jones"]
    return cards


def expansion_numbers(suit: str, cards: tuple[tricks.Card, ...]) -> list[tricks.Card]:
    """The expansion's cards of `suit` on the number keys: the compass 7 and 8, the 0/14 either way, and the
    Wild 15 (not black), coloured only when it sets the suit."""
    found = [tricks.Card(tricks.SUIT, suit, n, mark=tricks.COMPASS) for n in (7, 8)]
    found += [tricks.Card(tricks.SUIT, suit, n, mark=tricks.ZERO_OR_FOURTEEN) for n in (0, 14)]
    if suit in tricks.EXPANSION_COLOURS:
        sets_the_suit = tricks.suit_led(cards) is None
        found.append(tricks.Card(tricks.SUIT, suit if sets_the_suit else None, 15, mark=tricks.WILD))
    return found


# The judge's styles and its keypad's arrow keys and typed search come with its page alone, not with every phone's
# first load.
JUDGE_ASSETS = (("skull_king.static", "judge.css"), ("skull_king.static", "keypad.js"))


@bp.get("/games/<public_id>/trick")
def judge_trick(public_id: str) -> ResponseReturnValue:
    """Who wins this trick? The cards tapped so far in seat order from the leader, and the verdict."""
    game = load_state(public_id)
    seen = reading.seen_by(game, None)
    hand = seen.current
    if hand is None or hand.phase != Phase.PLAYING:
        return see_other(url_for("pages.game", public_id=public_id))
    table = seen.setup
    count = len(table.players)
    advanced = table.options.advanced_cards
    deck = tricks.DECKS[table.ruleset]
    lead = request.args.get("lead", "")
    lead_seat = int(lead) if lead.isascii() and lead.isdigit() and int(lead) < count else \
        rules.leader_index(table, hand.number)
    problems = []
    try:
        cards = tricks.parse_trick(table.ruleset, request.args.get("cards", "")[:400], advanced,
                                   table.expansion, whole=False)[:count]
    except tricks.TrickError as error:
        cards, problems = (), [say(error.problem)]
    # With the expansion, once everyone has played the Last Volley's player adds a second card.
    volley = next((i for i, c in enumerate(cards) if c.kind == tricks.VOLLEY and c.second is None), None)
    volley_turn = volley is not None and len(cards) == count
    suit = request.args.get("suit")
    suit = suit if suit in deck.suits and (len(cards) < count or volley_turn) else None

    def link(played: tuple[tricks.Card, ...], suit: str | None = None) -> str:
        written = tricks.written_trick(played)
        return url_for("skull_king.judge_trick", public_id=public_id, lead=lead_seat, cards=written or None, suit=suit)

    def with_card(card: tricks.Card) -> tuple[tricks.Card, ...]:
        if volley_turn and volley is not None:
            return (*cards[:volley], replace(cards[volley], second=card), *cards[volley + 1:])
        return (*cards, card)

    def choice(card: tricks.Card, css: str) -> Choice:
        text = KEY_TEXT.get(card.mark, "{number}").format(number=card.number) if card.kind == tricks.SUIT else ""
        try:
            tricks.check_trick(table.ruleset, with_card(card), table.expansion)
        except tricks.TrickError:
            return Choice(card_label(card), css, None, text=text)
        return Choice(card_label(card), css, link(with_card(card)), text=text)

    judgement = tricks.judge(table.ruleset, cards, table.expansion) if cards else None
    seat_of = [table.players[(lead_seat + i) % count] for i in range(count)]
    me = visitor(game)
    plank = next((c for c in cards if c.kind == tricks.PLANK), None)
    pirates = [i for i, c in enumerate(cards) if c.kind == tricks.PIRATE]
    # Several Pirates and Walk the Plank: its player says which walks once the trick is whole.
    walks = []
    if plank is not None and not plank.mark and len(pirates) > 1 and len(cards) == count and not volley_turn:
        for i in pirates:
            walked = tuple(replace(c, mark=tricks.pirate_name(cards[i])) if c.kind == tricks.PLANK else c
                           for c in cards)
            walks.append(Choice(f"{card_label(cards[i])} ({seat_of[i]})", "face-key", link(walked)))
    complete = len(cards) == count and not volley_turn and not walks
    winner_seat = next_leader = None
    if judgement is not None and complete:
        if judgement.winner is not None:
            winner_seat = (lead_seat + judgement.winner) % count
        if judgement.next_leader is not None:
            next_leader = (lead_seat + judgement.next_leader) % count
    # The button only where `changes.claim_trick` takes the claim: the winner's phone, or the host for a phoneless one.
    may_claim = winner_seat is not None and me.enters_for(winner_seat)
    return page(
        "skullking/trick.html", title=gettext("Who wins this trick?"), page_assets=JUDGE_ASSETS, game=game,
        hand=hand, table=table,
        visitor=me, problems=problems, cards=cards, players=seat_of, judgement=judgement,
        complete=complete, lead_seat=lead_seat, winner_seat=winner_seat, may_claim=may_claim,
        next_leader=next_leader, written=tricks.written_trick(cards), suit=suit, volley_turn=volley_turn,
        walks=walks, volley_player=seat_of[volley] if volley_turn and volley is not None else None,
        suits=[Choice(suit_label(s), f"suit-{s}", link(cards, suit=s), s == suit) for s in deck.suits],
        numbers=[choice(card, f"suit-{suit}") for card in [
            *(tricks.Card(tricks.SUIT, suit, n) for n in range(deck.low, deck.high + 1)),
            *(expansion_numbers(suit, cards) if table.expansion else ())]] if suit else [],
        faces=[choice(tricks.parse_card(table.ruleset, name, advanced, table.expansion), "face-key") for name in
               specials(table.ruleset, advanced, table.expansion)],
        undo=link(cards[:-1]) if cards else None, clear=link(()) if cards else None,
        next_trick=url_for("skull_king.judge_trick", public_id=public_id, lead=next_leader)
        if next_leader is not None else None,
        off_suit=[(seat_of[i], card_label(cards[i])) for i in judgement.off_suit] if judgement else [],
        reason=reason_in_words(judgement.reason) if judgement else "",
    )


@bp.post("/games/<public_id>/hands/<int:number>/trick")
def claim_trick(public_id: str, number: int) -> ResponseReturnValue:
    """"This trick was mine": the judged trick goes to its winner's result card, as a draft."""
    return after(tapped(public_id, TapKind.CLAIM, number))
