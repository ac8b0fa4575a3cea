"""Every registered game (the test game's too) on the table's frames, in Chromium: the header names the game; on a
phone at 320×640 and 390×844 the control the player needs next is on the first screen; a tap is exactly one
request; a refusal shows in view; the big screen at 1920×1080 needs no scrolling after eight rounds or hands; no
page raises a script error."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.browser import SCREENSHOTS, screenshot, take_over_as_host

pytestmark = pytest.mark.browser

NAMES = ["Anne", "Ben", "Cara", "Dan"]
PHONES = ({"width": 320, "height": 640}, {"width": 390, "height": 844})
PACK = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J",
                                                       "Q", "K")]


def skull_king_pad(rounds: int) -> dict[str, Any]:
    hands = [{"cards": n, "entries": [{"player": p, "bid": 0, "tricks": n if p == "Anne" else 0}
                                      for p in NAMES]} for n in range(1, rounds + 1)]
    return {"format": "skull-king-pad", "version": 1, "ruleset": "classic", "players": NAMES, "hands": hands}


def wizard_pad(rounds: int) -> dict[str, Any]:
    played = [{"cards": n, "entries": [{"player": p, "bid": 0, "tricks": n if p == "Anne" else 0} for p in NAMES]}
              for n in range(1, rounds + 1)]
    return {"format": "wizard-pad", "version": 1, "players": NAMES, "first_dealer": "Anne",
            "options": {"bidding": "secret", "no_even_bids": False}, "rounds": played}


def skip_bo_pad(rounds: int) -> dict[str, Any]:
    played = [{"winner": NAMES[n % 4], "left": {p: 1 for p in NAMES if p != NAMES[n % 4]}} for n in range(rounds)]
    return {"format": "skip-bo-pad", "version": 1, "players": NAMES, "target": 5000, "games": played}


def dracula_pad(rounds: int) -> dict[str, Any]:
    coffins = [[PACK[n:n + 3], PACK[n + 3:n + 6], PACK[n + 6:n + 9]] for n in range(rounds)]
    sets = [{"rounds": [{"coffin": c} for c in coffins[start:start + 6]]} for start in range(0, rounds, 6)]
    return {"format": "dracula-pad", "version": 1, "players": {"queen": "Anne", "king": "Ben"}, "target": 5000,
            "sets": sets}


def free_pad(rounds: int) -> dict[str, Any]:
    return {"format": "free-pad", "version": 1, "game": "Darts", "players": NAMES, "lowest_wins": False,
            "rounds": [{p: 10 * (n + i) for i, p in enumerate(NAMES)} for n in range(rounds)]}


def high_card_pad(rounds: int) -> dict[str, Any]:
    # The first to win three rounds wins: two each, then as many as the game allows.
    return {"format": "high-card-pad", "players": ["Anne", "Ben"],
            "rounds": [{"0": 13, "1": 2}, {"0": 2, "1": 13}, {"0": 12, "1": 3}, {"0": 3, "1": 12}][:rounds]}


@dataclass(frozen=True)
class Refusal:
    """A tap the rules refuse on the phone of the first seat: the pad it starts from, what the host and the phone
    do (the last of it the refused tap), and the reason's words; None when the browser itself refuses the tap
    (a number out of the field's range) before anything is sent."""

    pad: dict[str, Any]
    act: Callable[[Any, Callable[[str, dict[str, Any]], None]], None]
    reason: str | None


@dataclass(frozen=True)
class Sweep:
    """A game as the sweep plays it: its pad file of so many rounds, the control a phone of the first seat needs
    next in a new game, the tap that takes it, and a tap the rules refuse."""

    pad: Callable[[int], dict[str, Any]]
    next_control: str
    tap: Callable[[Any], None]
    refusal: Refusal


def fill_and_save(field: str, value: str) -> Callable[..., None]:
    def tap(page: Any, *_: Any) -> None:
        page.fill(field, value)
        page.locator("#card button[type=submit]").first.click()
    return tap


def coffin_first_card(page: Any) -> None:
    page.locator("[data-rank='A']").click()
    page.locator("[data-suit='S']").click()
    page.locator(".done-button").click()


def skull_king_bid(hands: int) -> dict[str, Any]:
    """A Skull King pad whose last hand is bid (everyone 0) and waits for its results."""
    doc = skull_king_pad(hands)
    for entry in doc["hands"][-1]["entries"]:
        del entry["tricks"]
    return doc


def skip_bo_ben_went_out(phone: Any, host_posts: Callable[[str, dict[str, Any]], None]) -> None:
    """Ben went out (the host says so); Anne, with one card left in her stock pile, counts 0."""
    host_posts("/play", {"play": 1, "went_out": 1})
    phone.locator("#card .left-form button.step[data-step='-1']").click()
    phone.locator("#card .left-form button[type=submit]").click()


def wizard_forbidden_bid(phone: Any, host_posts: Callable[[str, dict[str, Any]], None]) -> None:
    """Ben, Cara and Dan (no phones: the host) bid 0 before Anne, who deals; under "no even bids" she taps 1."""
    for seat in (1, 2, 3):
        host_posts("/play", {"play": 1, "seat": seat, "bid": 0})
    phone.locator("#card form.numpad.mine button.forbidden-key").click()


SWEEPS: dict[str, Sweep] = {
    "skull-king": Sweep(skull_king_pad, "#card form.numpad.mine button >> nth=-1",
                        lambda page: page.locator("#card form.numpad.mine button[value='0']").click(),
                        # No trick won, yet a Pirate taken by the Skull King.
                        Refusal(skull_king_bid(1), lambda phone, _: phone.locator(
                            "#card button.face-add[data-step='1']").first.click(), "won no tricks")),
    "wizard": Sweep(wizard_pad, "#card form.numpad.mine button >> nth=-1",
                    lambda page: page.locator("#card form.numpad.mine button[value='0']").click(),
                    Refusal({**wizard_pad(0), "options": {"bidding": "in-turn", "no_even_bids": True}},
                            wizard_forbidden_bid, "may not bid 1")),
    "skip-bo": Sweep(skip_bo_pad, "#card button[name=went_out][value='0']",
                     lambda page: page.locator("#card button[name=went_out][value='0']").click(),
                     Refusal(skip_bo_pad(0), skip_bo_ben_went_out, "with 0 cards left")),
    "dracula": Sweep(dracula_pad, "#card .picker", coffin_first_card,
                     # A coffin closed with no card in it.
                     Refusal(dracula_pad(0), lambda phone, _: phone.locator("#card .done-button").click(),
                             "coffin")),
    "free-pad": Sweep(free_pad, "#card button.primary", fill_and_save("#points-0", "12"),
                      Refusal(free_pad(0), fill_and_save("#points-0", "10000000000"), None)),
    "high-card": Sweep(high_card_pad, "#card button[type=submit]", fill_and_save("#card-value", "7"),
                       Refusal(high_card_pad(0), fill_and_save("#card-value", "99"), "A card is 1 to 13")),
}


def imported(browser: Any, base: str, doc: dict[str, Any], viewport: dict[str, int]) -> tuple[Any, str]:
    """A pad imported through the API and opened by its host on a screen of `viewport`; the host's page and the
    game's address."""
    context = browser.new_context(viewport=viewport, locale="en-GB")
    answer = context.request.post(base + "/games/import", data=doc)
    assert answer.status == 201, answer.text()
    host = context.new_page()
    take_over_as_host(host, answer.json()["host_url"])
    # The game's own address (a game over sends its host to its end page).
    return host, base + "/games/" + answer.headers["location"].rstrip("/").split("/games/")[1].split("/")[0]


def watching(page: Any) -> list[str]:
    """The script errors of `page`, as they come."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"] \
        and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


# Whether the first element a selector finds lies wholly within the window.
IN_VIEW = """selector => {
  const box = document.querySelector(selector)?.getBoundingClientRect();
  return !!box && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
}"""


@pytest.fixture
def titles(every_game_server: str) -> dict[str, str]:
    """Each game's name as its header says it, in English."""
    from scorekeeper.shelf import INSTALLED
    from tests.highcard.kind import HIGH_CARD

    return {kind.NAME: kind.TITLE for kind in [*INSTALLED, HIGH_CARD]}


def test_the_sweep_covers_every_game_the_server_offers(titles: dict[str, str]) -> None:
    assert set(titles) == set(SWEEPS)


@pytest.mark.parametrize("game", sorted(SWEEPS))
def test_a_phone_of_every_game_has_its_next_control_on_the_first_screen(browser, every_game_server: str,
                                                                        titles: dict[str, str], game: str) -> None:
    from playwright.sync_api import expect

    sweep = SWEEPS[game]
    for viewport in PHONES:
        # A new game for each phone, its first seat free.
        host, url = imported(browser, every_game_server, sweep.pad(0), {"width": 1280, "height": 800})
        host_errors = watching(host)
        expect(host.locator("#brand-name")).to_have_text(titles[game])
        screenshot(host, f"90-{game}-host-1280")
        phone = browser.new_context(viewport=viewport, locale="en-GB").new_page()
        errors = watching(phone)
        phone.goto(url + "/join")
        first = phone.locator("#main form button").first
        first.click()
        expect(phone.locator("#brand-name")).to_have_text(titles[game])
        phone.wait_for_load_state("networkidle")
        screenshot(phone, f"90-{game}-phone-{viewport['width']}")
        control = phone.locator(sweep.next_control).first
        expect(control).to_be_visible()
        assert in_view(phone, sweep.next_control), (viewport, control.bounding_box())
        if viewport["width"] == 390:
            # One tap, one request: the write; its answer brings nothing more to load.
            requests: list[str] = []
            phone.on("request", lambda request: requests.append(f"{request.method} {request.url}"))
            with phone.expect_response(lambda response: response.request.method == "POST"):
                sweep.tap(phone)
            phone.wait_for_timeout(500)
            # The page's icon the browser fetches on its own time, not for the tap.
            sent = [r for r in requests if "/events" not in r and "/static/icon" not in r]
            assert len(sent) == 1 and sent[0].startswith("POST"), sent
        assert errors == [] and host_errors == []
        phone.context.close()
        host.context.close()


@pytest.mark.parametrize("game", sorted(SWEEPS))
def test_every_game_s_big_screen_fits_a_room_s_screen_after_eight_rounds(browser, every_game_server: str,
                                                                        titles: dict[str, str], game: str) -> None:
    from playwright.sync_api import expect

    size = {"width": 1920, "height": 1080}
    host, url = imported(browser, every_game_server, SWEEPS[game].pad(8), size)
    tv = host.context.new_page()
    errors = watching(tv)
    tv.goto(url + "/screen")
    expect(tv.locator("#brand-name")).to_have_text(titles[game])
    expect(tv.locator(".big-screen")).to_be_visible()
    screenshot(tv, f"91-{game}-screen-1920")
    height = tv.evaluate("document.documentElement.scrollHeight")
    width = tv.evaluate("document.documentElement.scrollWidth")
    assert height <= size["height"] and width <= size["width"], (height, width)
    assert errors == []
    host.context.close()



# Skull King's result card with ten cards: the classic rules (two bonuses), the 2021 rules (five) on the smallest
# phone and a common one, and the Expansion Pack with every option (eight players, the most a card shows) on a
# common one.
TEN_CARDS = [("classic", {}, NAMES, PHONES[0]), ("classic", {}, NAMES, PHONES[1]),
             ("modern", {"scoring": "standard"}, NAMES, PHONES[0]), ("modern", {"scoring": "standard"}, NAMES, PHONES[1]),
             ("modern", {"scoring": "standard", "advanced_cards": True, "rascal_wagers": True, "expansion": True},
              [*NAMES, "Eve", "Finn", "Greta", "Hugo"], PHONES[1])]


@pytest.mark.parametrize(("ruleset", "options", "players", "viewport"), TEN_CARDS,
                         ids=["classic-320", "classic-390", "modern-320", "modern-390", "expansion-390"])
def test_skull_king_s_done_is_on_the_first_screen_with_ten_cards(browser, every_game_server: str, ruleset: str,
                                                                 options: dict[str, Any], players: list[str],
                                                                 viewport: dict[str, int]) -> None:
    """The result card of the tenth hand (ten cards: the most tricks, the most to enter) opens with Done on the
    screen: the phone shows the card from its heading, every tricks key with it."""
    from playwright.sync_api import expect

    hands = [{"cards": n, "entries": [{"player": p, "bid": 0, **({"tricks": n if p == players[0] else 0}
                                                                 if n < 10 else {})} for p in players]}
             for n in range(1, 11)]
    doc = {"format": "skull-king-pad", "version": 1, "ruleset": ruleset, "players": players, "hands": hands,
           **({"options": options} if options else {})}
    host, url = imported(browser, every_game_server, doc, {"width": 1280, "height": 800})
    phone = browser.new_context(viewport=viewport, locale="en-GB").new_page()
    errors = watching(phone)
    phone.goto(url + "/join")
    phone.get_by_role("button", name="Anne", exact=True).click()
    expect(phone.locator("#card .done-button")).to_be_visible()
    phone.wait_for_function(IN_VIEW, arg="#card .done-button", timeout=5000)
    assert in_view(phone, "#card .tricks-pad")
    name = "expansion" if options.get("expansion") else ruleset
    phone.screenshot(path=str(SCREENSHOTS / f"92-{name}-ten-cards-{viewport['width']}.png"))
    assert errors == []
    host.context.close()
    phone.context.close()


# The games with secret entries, and the host's entry for a seat without a phone in their first round.
SECRET_ENTRIES: dict[str, Callable[[int], tuple[str, dict[str, Any]]]] = {
    "skull-king": lambda seat: ("/hands/1/bid", {"seat": seat, "bid": 0}),
    "wizard": lambda seat: ("/play", {"play": 1, "seat": seat, "bid": 0}),
    "high-card": lambda seat: ("/play", {"play": 1, "seat": seat, "card": 5}),
}


# Whether the count, as its pulse draws it now, lies within the window's width.
COUNT_INSIDE = """() => {
  const box = document.querySelector("[data-reveal-at]").getBoundingClientRect();
  return box.left >= 0 && box.right <= innerWidth || [box.left, box.right, innerWidth];
}"""


@pytest.mark.parametrize("game", sorted(SECRET_ENTRIES))
def test_every_big_screen_counts_yo_ho_ho_in_room_size_type(browser, every_game_server: str, game: str) -> None:
    from playwright.sync_api import expect

    host, url = imported(browser, every_game_server, SWEEPS[game].pad(0), {"width": 1920, "height": 1080})
    tv = host.context.new_page()
    errors = watching(tv)
    tv.goto(url + "/screen")
    token = json.loads(host.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]
    for seat in range(len(SWEEPS[game].pad(0)["players"])):
        path, form = SECRET_ENTRIES[game](seat)
        assert host.request.post(url + path, form=form, headers={"X-CSRFToken": token}).ok
    count = tv.locator("[data-reveal-at]")
    expect(count).to_be_visible()
    screenshot(tv, f"91-{game}-count-1920")
    # Read from across a room: at least three times the body's 16 px.
    assert float(count.evaluate("element => getComputedStyle(element).fontSize").removesuffix("px")) >= 48
    # Never cut as it pulses, on the room's screen nor on a phone's.
    phone = host.context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(url)
    for page in (tv, phone):
        if page.locator("[data-reveal-at]").count():
            for _ in range(6):
                page.wait_for_timeout(150)
                assert page.evaluate(COUNT_INSIDE) is True, page.evaluate(COUNT_INSIDE)
    assert errors == []
    host.context.close()


@pytest.mark.parametrize("game", sorted(SWEEPS))
def test_every_game_s_refusal_shows_its_reason_where_the_eye_is(browser, every_game_server: str, game: str) -> None:
    """A tap the rules refuse, at 320 and 390 px: the reason shows in view (not at the top of a page scrolled away),
    in one request; or, for a number out of the field's range, the browser refuses it at the field and sends
    nothing."""
    from playwright.sync_api import expect

    refusal = SWEEPS[game].refusal
    for viewport in PHONES:
        host, url = imported(browser, every_game_server, refusal.pad, {"width": 1280, "height": 800})
        token = json.loads(host.locator("body").get_attribute("hx-headers"))["X-CSRFToken"]

        def host_posts(path: str, form: dict[str, Any]) -> None:
            assert host.request.post(url + path, form=form, headers={"X-CSRFToken": token}).ok

        phone = browser.new_context(viewport=viewport, locale="en-GB").new_page()
        errors = watching(phone)
        phone.goto(url + "/join")
        phone.get_by_role("button", name="Anne", exact=True).click()
        expect(phone.locator("#card")).to_contain_text("You are Anne")
        writes: list[str] = []
        phone.on("request", lambda request: writes.append(request.url) if request.method == "POST" else None)
        refusal.act(phone, host_posts)
        if refusal.reason is None:
            # The field says why (the browser's own words) and keeps the focus; nothing went.
            phone.wait_for_timeout(500)
            field = phone.locator(":invalid:not(form)").first
            expect(field).to_be_focused()
            assert field.evaluate("element => element.validationMessage")
            assert writes == []
            assert in_view(phone, ":invalid:not(form)")
        else:
            expect(phone.locator("#card .problems").first).to_contain_text(refusal.reason)
            phone.wait_for_function(IN_VIEW, arg="#card .problems", timeout=5000)
            # The refused tap is one request (the host's taps are not this phone's).
            assert len(writes) == 1, writes
        screenshot(phone, f"92-{game}-refused-{viewport['width']}")
        assert errors == []
        host.context.close()
        phone.context.close()
