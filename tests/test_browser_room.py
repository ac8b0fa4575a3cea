"""The room's screens with up to nine players, for every registered game: the big screen at 1920×1080 and 1280×720
fits whatever the hand (no scrolling, nothing cut, no text under 24 px at 1920), never scrolls or moves focus by
itself; on a phone the action that ends the player's turn is on the screen; the host's laptop shows the whole
leaderboard and pad."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser import SCREENSHOTS
from tests.test_browser_every_game import IN_VIEW, PACK, imported, watching

pytestmark = pytest.mark.browser

NAMES = ["Anne", "Ben", "Cara", "Dan", "Eve", "Finn", "Greta", "Hugo", "Ida"]
TVS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
LAPTOPS = ({"width": 1440, "height": 900}, {"width": 1280, "height": 800})
# "last": the game over, its final standings.
MOMENTS = (1, 8, "last")


def skull_king(players: int, hands: int | str) -> dict[str, Any]:
    """The 2021 rules with every option a table can add (the Expansion Pack too), every hand a mix of made and
    missed bids; `hands` played, or all ten."""
    count = 10 if hands == "last" else int(hands)
    played = []
    for n in range(1, count + 1):
        entries = [{"player": p, "bid": (seat + n) % 2, "tricks": 0} for seat, p in enumerate(NAMES[:players])]
        entries[n % players]["tricks"] = n
        played.append({"cards": n, "entries": entries})
    return {"format": "skull-king-pad", "version": 1, "ruleset": "modern", "players": NAMES[:players],
            "options": {"expansion": True, "advanced_cards": True}, "hands": played}


def wizard(players: int, rounds: int | str) -> dict[str, Any]:
    count = 60 // players if rounds == "last" else int(rounds)
    played = [{"cards": n, "entries": [{"player": p, "bid": int(seat == n % players), "tricks": n * (seat == 0)}
                                      for seat, p in enumerate(NAMES[:players])]} for n in range(1, count + 1)]
    return {"format": "wizard-pad", "version": 1, "players": NAMES[:players], "first_dealer": "Anne",
            "options": {"bidding": "secret", "no_even_bids": False}, "rounds": played}


def skip_bo(players: int, games: int | str) -> dict[str, Any]:
    # To the end: a low target the first game reaches.
    count, target = (1, 50) if games == "last" else (int(games), 5000)
    played = [{"winner": NAMES[n % players], "left": {p: 3 for p in NAMES[:players] if p != NAMES[n % players]}}
              for n in range(count)]
    return {"format": "skip-bo-pad", "version": 1, "players": NAMES[:players], "target": target, "games": played}


def dracula(players: int, rounds: int | str) -> dict[str, Any]:
    count, target = (6, 1) if rounds == "last" else (int(rounds), 5000)
    coffins = [[PACK[n:n + 3], PACK[n + 3:n + 6], PACK[n + 6:n + 9]] for n in range(count)]
    sets = [{"rounds": [{"coffin": c} for c in coffins[start:start + 6]]} for start in range(0, count, 6)]
    return {"format": "dracula-pad", "version": 1, "players": {"queen": "Anne", "king": "Ben"}, "target": target,
            "sets": sets}


def free_pad(players: int, rounds: int | str) -> dict[str, Any]:
    count = 12 if rounds == "last" else int(rounds)
    return {"format": "free-pad", "version": 1, "game": "Darts", "players": NAMES[:players], "lowest_wins": False,
            "rounds": [{p: 10 * (n + seat) for seat, p in enumerate(NAMES[:players])} for n in range(count)],
            **({"ended": True} if rounds == "last" else {})}


def high_card(players: int, rounds: int | str) -> dict[str, Any]:
    # The first to win three rounds wins: one each, then as many as the game allows.
    deals = [{"0": 13, "1": 2}, {"0": 2, "1": 13}, {"0": 12, "1": 3}, {"0": 3, "1": 12}, {"0": 11, "1": 4}]
    return {"format": "high-card-pad", "players": ["Anne", "Ben"], "rounds": deals[:5 if rounds == "last" else 4]}


# Each game's pad after so many rounds, and the player counts of 2, 5 and 9 it allows (its nearest otherwise).
GAMES: dict[str, tuple[Callable[[int, int | str], dict[str, Any]], tuple[int, ...]]] = {
    "skull-king": (skull_king, (2, 5, 9)),
    "wizard": (wizard, (3, 5, 6)),
    "skip-bo": (skip_bo, (2, 5, 6)),
    "dracula": (dracula, (2,)),
    "free-pad": (free_pad, (2, 5, 9)),
    "high-card": (high_card, (2,)),
}

# What a room's screen shows that a person cannot read or cannot see: text smaller than `least` px, text past the
# window's edge, or an element's content cut by its own box (a name, a cell).
UNREADABLE = """least => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!node.textContent.trim() || !element.checkVisibility({visibilityProperty: true})) continue;
    // The skip link waits off the screen until a keyboard focuses it.
    if (element.closest(".sr-only, .skip, [hidden], noscript, template")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    const size = parseFloat(getComputedStyle(element).fontSize);
    const said = node.textContent.trim().slice(0, 40);
    if (size < least) found.push(`${said}: ${size} px`);
    if (box.right > innerWidth + 1 || box.bottom > innerHeight + 1 || box.left < -1 || box.top < -1)
      found.push(`${said}: outside the window`);
    for (let box = element; box && box !== document.body; box = box.parentElement) {
      const style = getComputedStyle(box);
      if (style.overflowX !== "visible" && box.scrollWidth > box.clientWidth + 1)
        { found.push(`${said}: cut by its box`); break; }
    }
  }
  return [...new Set(found)];
}"""


def fits_the_room(tv: Any, least: float) -> list[str]:
    """What does not fit on the big screen `tv`: a scroll bar, text cut or too small."""
    size = tv.viewport_size
    problems = tv.evaluate(UNREADABLE, least)
    height, width = tv.evaluate("[document.documentElement.scrollHeight, document.documentElement.scrollWidth]")
    if height > size["height"] or width > size["width"]:
        problems.append(f"the page is {width}×{height}")
    return problems


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_big_screen_fits_the_room_with_two_to_nine_players(browser, every_game_server: str, game: str) -> None:
    """After the first, the eighth and the last round, with 2, 5 and 9 players as the game allows, at 1920×1080 and
    1280×720: no scrolling, nothing cut, no text under 24 px at 1920."""
    from playwright.sync_api import expect

    pad, counts = GAMES[game]
    problems: dict[str, list[str]] = {}
    for players in counts:
        for moment in MOMENTS:
            host, url = imported(browser, every_game_server, pad(players, moment), TVS[0])
            for size in TVS:
                tv = host.context.new_page()
                tv.set_viewport_size(size)
                errors = watching(tv)
                tv.goto(url + "/screen")
                expect(tv.locator(".big-screen")).to_be_visible()
                tv.evaluate("document.fonts.ready")
                name = f"96-{game}-{players}-after-{moment}-tv-{size['width']}"
                tv.screenshot(path=str(SCREENSHOTS / f"{name}.png"))
                found = fits_the_room(tv, 24 if size["width"] >= 1920 else 0) + errors
                if found:
                    problems[name] = found
                tv.close()
            host.context.close()
    assert problems == {}, json.dumps(problems, indent=1)


def still(tv: Any) -> tuple[float, str]:
    """Where the big screen is scrolled to and what has the focus."""
    scrolled, focused = tv.evaluate("[scrollY, document.activeElement.tagName]")
    return scrolled, focused


def test_the_big_screen_never_scrolls_or_takes_the_focus_by_itself(browser, every_game_server: str) -> None:
    """A refused tap, a clash (two Skull Kings taken), a hand whose tricks do not add up, then the game's end: the
    room's screen shows each, stays at the top, its focus where it was (nowhere), and still fits."""
    from playwright.sync_api import expect

    doc = skull_king(3, 10)
    for entry in doc["hands"][-1]["entries"]:
        del entry["tricks"]
    host, url = imported(browser, every_game_server, doc, LAPTOPS[0])
    tv = browser.new_context(viewport=TVS[0], locale="en-GB").new_page()
    errors = watching(tv)
    tv.goto(url + "/screen")
    expect(tv.locator(".big-screen")).to_contain_text("Hand 10")
    phones = []
    for name in ("Anne", "Ben", "Cara"):
        phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
        phone.goto(url + "/join")
        phone.get_by_role("button", name=name, exact=True).click()
        expect(phone.locator("#card")).to_contain_text(f"You are {name}")
        phones.append(phone)
    anne, ben, cara = phones

    def post(page: Any, path: str, form: dict[str, Any]) -> int:
        token = json.loads(page.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]
        return page.request.post(url + path, form=form, headers={"X-CSRFToken": token}).status

    # Refused: more tricks than cards. Nothing changes on the room's screen.
    assert post(anne, "/hands/10", {"intent": "done", "tricks-0": "11"}) == 422
    # A clash: Anne's Mermaid and Ben's both took the Skull King (there is one). Said on the room's screen.
    assert post(anne, "/hands/10", {"intent": "done", "tricks-0": "5", "skull_king_by_mermaid-0": "on"}) in (200, 303)
    assert post(cara, "/hands/10", {"intent": "done", "tricks-2": "0"}) in (200, 303)
    assert post(ben, "/hands/10", {"intent": "done", "tricks-1": "5", "skull_king_by_mermaid-1": "on"}) in (200, 303)
    expect(tv.locator("#table-problems")).to_contain_text("checking")
    assert still(tv) == (0, "BODY")
    assert fits_the_room(tv, 24) == []
    # Ben had 4 tricks and no Skull King: now a trick is missing, said on the room's screen.
    assert post(ben, "/hands/10", {"intent": "done", "tricks-1": "4"}) in (200, 303)
    expect(tv.locator("#table-problems")).to_contain_text("1 trick is missing")
    assert still(tv) == (0, "BODY")
    assert fits_the_room(tv, 24) == []
    # The Kraken took it: the hand closes, the game is over, the room's screen shows who won.
    assert post(ben, "/hands/10", {"intent": "lost-more"}) in (200, 303)
    expect(tv.locator(".big-screen")).to_contain_text("Final standings")
    assert still(tv) == (0, "BODY")
    assert fits_the_room(tv, 24) == []
    assert errors == []


PHONES = (({"width": 320, "height": 640}, "de-DE"), ({"width": 390, "height": 844}, "en-GB"))


def joined(browser: Any, url: str, viewport: dict[str, int], locale: str, name: str = "Anne") -> Any:
    """A phone that joined the game at `url` in `name`'s seat."""
    from playwright.sync_api import expect

    phone = browser.new_context(viewport=viewport, locale=locale).new_page()
    phone.goto(url + "/join")
    phone.locator("#main form button", has_text=name).first.click()
    expect(phone.locator("#card")).to_be_visible()
    return phone


def in_reach(phone: Any, selector: str) -> None:
    """The control `selector` finds is inside the phone's screen (soon: the card opens from its heading)."""
    phone.wait_for_function(IN_VIEW, arg=selector, timeout=5000)


def test_skull_king_s_done_stays_in_reach_with_more_open_and_more_closes_for_the_next_hand(
        browser, every_game_server: str) -> None:
    """Nine players with the Expansion Pack, every option: after the reveal Done is on the screen at 320×640 (in
    German) and 390×844, with "More" open, after a tap on a bonus tile and after a reload; the next hand's card
    opens with "More" closed."""
    from playwright.sync_api import expect

    doc = skull_king(9, 9)
    doc["options"]["rascal_wagers"] = True
    for entry in doc["hands"][-1]["entries"]:
        del entry["tricks"]
    for viewport, locale in PHONES:
        host, url = imported(browser, every_game_server, doc, LAPTOPS[0])
        phone = joined(browser, url, viewport, locale)
        errors = watching(phone)
        done = "#card .done-button"
        in_reach(phone, done)
        phone.locator("#card details.more summary").click()
        expect(phone.locator("#card details.more")).to_have_attribute("open", "")
        in_reach(phone, done)
        with phone.expect_response(lambda response: response.request.method == "POST"):
            phone.locator("#card .rare-faces button.face-add").first.click()
        phone.wait_for_timeout(300)
        in_reach(phone, done)
        phone.screenshot(path=str(SCREENSHOTS / f"97-nine-more-open-{viewport['width']}-{locale[:2]}.png"))
        phone.reload()
        expect(phone.locator("#card details.more")).to_have_attribute("open", "")
        in_reach(phone, done)
        # The hand ends (Anne's trick, the host's for the eight without a phone): the next card's "More" is closed.
        phone.locator("#card .tricks-pad label", has_text="1").first.click()
        phone.wait_for_timeout(600)
        phone.locator(done).click()
        token = json.loads(host.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]
        form = {"intent": "score", **{f"tricks-{seat}": str(int(seat <= 8)) for seat in range(1, 9)}}
        assert host.request.post(url + "/hands/9", form=form, headers={"X-CSRFToken": token}).ok
        expect(phone.locator("#card")).to_contain_text("10")
        expect(phone.locator("#card .numpad.mine")).to_be_visible()
        phone.locator("#card .numpad.mine button[value='0']").click()
        for seat in range(1, 9):
            assert host.request.post(url + "/hands/10/bid", form={"seat": seat, "bid": 0},
                                     headers={"X-CSRFToken": token}).ok
        expect(phone.locator(done)).to_be_visible(timeout=20_000)
        expect(phone.locator("#card details.more")).not_to_have_attribute("open", "")
        in_reach(phone, done)
        assert errors == []
        host.context.close()
        phone.context.close()


def wizard_tricks(players: int) -> dict[str, Any]:
    """Wizard's second round bid by every player, the tricks to come."""
    doc = wizard(players, 2)
    for entry in doc["rounds"][-1]["entries"]:
        del entry["tricks"]
    return doc


def skip_bo_went_out(host: Any, url: str) -> None:
    """Ben went out, the host says: the others count the cards left in their stock piles."""
    token = json.loads(host.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]
    assert host.request.post(url + "/play", form={"play": 1, "went_out": 1}, headers={"X-CSRFToken": token}).ok


# Each game with the most players it allows, at the moment a phone ends its turn: the pad, what the host does first,
# and the control that ends the turn.
TURN_ENDS: dict[str, tuple[dict[str, Any], Callable[[Any, str], None] | None, str]] = {
    "wizard": (wizard_tricks(6), None, "#card form.numpad.mine button:last-of-type"),
    "skip-bo": (skip_bo(6, 0), skip_bo_went_out, "#card .turn-end"),
    "dracula": (dracula(2, 0), None, "#card .turn-end"),
    "free-pad": (free_pad(9, 3), None, "#card .turn-end"),
    "high-card": (high_card(2, 0), None, "#card .turn-end"),
}


@pytest.mark.parametrize("game", sorted(TURN_ENDS))
def test_every_game_s_turn_ending_action_is_in_reach_on_a_phone(browser, every_game_server: str, game: str) -> None:
    """With the most players the game allows, at 320×640 in German and 390×844: the action that ends the player's
    turn is on the screen."""
    pad, first, control = TURN_ENDS[game]
    for viewport, locale in PHONES:
        host, url = imported(browser, every_game_server, pad, LAPTOPS[0])
        if first is not None:
            first(host, url)
        phone = joined(browser, url, viewport, locale)
        errors = watching(phone)
        in_reach(phone, control)
        phone.screenshot(path=str(SCREENSHOTS / f"97-{game}-turn-end-{viewport['width']}-{locale[:2]}.png"))
        assert errors == []
        host.context.close()
        phone.context.close()


# Every row of every leaderboard on the page inside the window, and no table wider than its box.
WHOLE = """() => {
  const cut = [];
  for (const row of document.querySelectorAll("#main .leaderboard tr")) {
    const box = row.getBoundingClientRect();
    if (box.height && (box.bottom > innerHeight + 1 || box.top < 0)) cut.push("row " + row.textContent.trim().slice(0, 20));
  }
  for (const table of document.querySelectorAll("#main table")) {
    if (table.scrollWidth > table.parentElement.clientWidth + 1 || table.getBoundingClientRect().right > innerWidth)
      cut.push("table " + (table.className || "") + " " + table.scrollWidth + " in " + table.parentElement.clientWidth);
  }
  return cut;
}"""


@pytest.mark.parametrize("game", ["skull-king", "wizard", "free-pad"])
def test_the_host_laptop_shows_the_whole_leaderboard_and_pad_of_nine(browser, every_game_server: str,
                                                                     game: str) -> None:
    """The host's page at 1440×900 and 1280×800 with the most players (nine, Wizard's six), after four rounds: every
    row of the leaderboard on the screen as it opens, every column of the pad whole (Skull King's on its own tab)."""
    pad, counts = GAMES[game]
    for size in LAPTOPS:
        host, url = imported(browser, every_game_server, pad(counts[-1], 4), size)
        errors = watching(host)
        host.wait_for_timeout(300)
        host.screenshot(path=str(SCREENSHOTS / f"98-{game}-host-{size['width']}.png"))
        assert host.evaluate(WHOLE) == [], size
        if game == "skull-king":
            host.goto(url + "/pad")
            host.screenshot(path=str(SCREENSHOTS / f"98-{game}-pad-{size['width']}.png"))
            assert host.evaluate(WHOLE.replace("#main .leaderboard tr", "#main .nothing")) == [], size
        assert errors == []
        host.context.close()


def test_names_never_break_inside_a_word(browser, every_game_server: str) -> None:
    """The end of a nine-player game on a phone at 320 and 390 px: each name in the standings and in "Who did what"
    on one line."""
    for viewport, _ in PHONES:
        host, url = imported(browser, every_game_server, skull_king(9, "last"), viewport)
        host.goto(url + "/end")
        broken = host.evaluate("""() => [...document.querySelectorAll("#main :is(.leaderboard, .feats) tbody th")]
          .filter(th => { const range = document.createRange(); range.selectNodeContents(th);
                          return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1; })
          .map(th => th.textContent.trim())""")
        host.screenshot(path=str(SCREENSHOTS / f"98-nine-end-{viewport['width']}.png"), full_page=True)
        assert broken == [], viewport
        host.context.close()


def test_the_room_sweeps_cover_every_registered_game() -> None:
    """A game added to the shelf (or the test game) is swept here too: its big screen, and its turn-ending action
    (Skull King's Done has a sweep of its own)."""
    from scorekeeper.shelf import INSTALLED
    from tests.highcard.kind import HIGH_CARD

    registered = {kind.NAME for kind in [*INSTALLED, HIGH_CARD]}
    assert set(GAMES) == registered
    assert set(TURN_ENDS) | {"skull-king"} == registered
