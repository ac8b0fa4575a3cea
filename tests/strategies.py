"""Hypothesis strategies: tables and hands that a real deal could produce."""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from scorekeeper.shelf.skullking import rules
from scorekeeper.shelf.skullking.rules import Entry, Hand, Options, Setup

NAMES = ("Anne", "Ben", "Cara", "Dan", "Eve", "Finn", "Greta", "Hugo", "Ida")


@st.composite
def tables(draw: st.DrawFn, rulesets: tuple[str, ...] = rules.RULESETS, expansion: bool = False) -> Setup:
    """A table of any ruleset, player count and option combination (modern with the Expansion Pack when
    `expansion`)."""
    ruleset = "modern" if expansion else draw(st.sampled_from(rulesets))
    spec = rules.EXPANSION_SPEC if expansion else rules.SPECS[ruleset]
    count = draw(st.integers(spec.min_players, spec.max_players))
    options = Options()
    if ruleset == "modern":
        scoring = draw(st.sampled_from(rules.SCORINGS))
        options = Options(
            scoring=scoring,
            cannonball=scoring == "rascal" and draw(st.booleans()),
            advanced_cards=draw(st.booleans()),
            rascal_wagers=draw(st.booleans()),
            expansion=expansion,
        )
    return Setup(ruleset, NAMES[:count], options, draw(st.integers(0, count - 1)))


@st.composite
def legal_hands(draw: st.DrawFn, table: Setup) -> Hand:
    """A finished hand that the cards could really have produced at `table`."""
    players = table.players
    spec = table.spec
    cards = draw(st.integers(1, rules.max_cards(table)))
    lost = draw(st.integers(0, min(cards, 2))) if rules.lost_tricks_allowed(table) else 0
    owners = draw(st.lists(st.sampled_from(players), min_size=cards - lost, max_size=cards - lost))
    tricks = Counter(owners)
    winners = [p for p in players if tricks[p]]
    bonuses: dict[str, Counter[str]] = {p: Counter() for p in players}
    room = {p: tricks[p] * len(players) for p in players}

    def give(player: str, kind: str, count: int = 1) -> None:
        if room[player] >= count:
            bonuses[player][kind] += count
            room[player] -= count

    mermaids = spec.mermaids
    if winners and draw(st.booleans()):
        king = draw(st.sampled_from(winners))
        if draw(st.booleans()):
            give(king, rules.PIRATES_BY_SKULL_KING,
                 draw(st.integers(1, min(spec.pirates, len(players) - 1))))
        else:
            give(king, rules.SKULL_KING_BY_MERMAID)
            mermaids -= bonuses[king][rules.SKULL_KING_BY_MERMAID]
    if table.ruleset == "modern" and winners:
        for _ in range(draw(st.integers(0, mermaids))):
            give(draw(st.sampled_from(winners)), rules.MERMAIDS_BY_PIRATE)
        for _ in range(draw(st.integers(0, 3))):
            give(draw(st.sampled_from(winners)), rules.STANDARD_FOURTEENS)
        if draw(st.booleans()):
            give(draw(st.sampled_from(winners)), rules.BLACK_FOURTEEN)

    if table.expansion and winners:
        for kind in (rules.EXPANSION_EIGHTS, rules.EXPANSION_SEVENS):
            for _ in range(draw(st.integers(0, rules.EXPANSION_LIMITS[kind]))):
                give(draw(st.sampled_from(winners)), kind)
        if draw(st.booleans()):
            give(draw(st.sampled_from(winners)), rules.FIRST_MATE_TAKEN)
    if table.expansion and draw(st.booleans()):
        # Davy Jones' player needs no trick: the monsters it destroyed are out of every trick.
        monsters = 3 if table.options.advanced_cards else 1
        bonuses[draw(st.sampled_from(players))][rules.DAVY_JONES_MONSTERS] += draw(st.integers(0, monsters))

    loot: dict[str, list[str]] = {p: [] for p in players}
    if table.ruleset == "modern" and table.options.advanced_cards and winners:
        for _ in range(draw(st.integers(0, rules.LOOT_CARDS))):
            taker = draw(st.sampled_from(winners))
            giver = draw(st.sampled_from([p for p in players if p != taker]))
            loot[taker].append(giver)
            loot[giver].append(taker)

    wager_by: dict[str, int] = {}
    if table.options.rascal_wagers and winners and draw(st.booleans()):
        wager_by[draw(st.sampled_from(winners))] = draw(st.sampled_from(rules.WAGERS))

    harry = None
    if table.ruleset == "modern" and winners and draw(st.booleans()):
        harry = draw(st.sampled_from(winners))

    entries = []
    for player in players:
        bid = draw(st.one_of(st.just(tricks[player]), st.integers(0, cards)))
        changed_from = None
        if player == harry:
            before = [b for b in (bid - 1, bid + 1) if 0 <= b <= cards]
            changed_from = draw(st.sampled_from(before)) if before else None
        entries.append(Entry(
            player=player,
            bid=bid,
            tricks=tricks[player],
            bonuses=dict(bonuses[player]),
            loot_with=tuple(loot[player]),
            wager=wager_by.get(player),
            shot=draw(st.sampled_from(rules.SHOTS)) if table.options.cannonball else None,
            bid_changed_from=changed_from,
        ))
    return Hand(cards=cards, entries=tuple(entries), lost_tricks=lost)


@st.composite
def tables_and_hands(draw: st.DrawFn, rulesets: tuple[str, ...] = rules.RULESETS,
                     expansion: bool = False) -> tuple[Setup, Hand]:
    """A table and one legal hand played at it."""
    table = draw(tables(rulesets, expansion))
    return table, draw(legal_hands(table))
