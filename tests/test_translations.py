"""German, French and Italian are complete: every message translated, and no English left on the pages.

Each game's words are in its own catalog (`scorekeeper/shelf/<game>/translations`), read beside the table's; the
table's holds its own words and those several games share (`tools/catalogs.py` puts each message where it belongs).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.checkers import python_format
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import Flask

from scorekeeper import games
from tests.helpers import import_as_host, new_game

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
# The table's catalog, then each game's own.
CATALOGS = (TRANSLATIONS, *sorted(ROOT.glob("scorekeeper/shelf/*/translations")))
LANGUAGES = ("de", "fr", "it")


def catalog(language: str, folder: Path = TRANSLATIONS):
    """The .po catalog of `language` in `folder` (the table's by default)."""
    with open(folder / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=language)


def catalogs_tool():
    """`tools/catalogs.py`, which puts each message in the catalog of whoever alone says it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "tools" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def message_ids() -> set[str]:
    """Every message the code and the templates use, extracted afresh (as `tools/catalogs.py` extracts them)."""
    return {ident for ident, _ in catalogs_tool().extracted()}


def test_each_message_is_in_the_catalog_of_whoever_alone_says_it() -> None:
    """A game's own words in its folder, none of them in the table's catalog; the table's and the shared ones there."""
    tool = catalogs_tool()
    assert tool.misplaced() == []
    # Not a vacuous sweep: every game has words of its own, and the table's catalog is no game's.
    assert {"skullking", "wizard", "skipbo", "dracula", "freepad"} <= set(tool.present())
    assert tool.owner_of("scorekeeper/shelf/dracula/kind.py") == "dracula"
    assert tool.owner_of("scorekeeper/views/table.py") == tool.TABLE


def test_a_message_in_another_s_catalog_would_be_found() -> None:
    tool = catalogs_tool()
    placed = tool.placed()
    moved = next(iter(placed["skullking"]))
    present = tool.present()
    present["skullking"].discard(moved)
    present[tool.TABLE].add(moved)
    tool.present = lambda: present
    assert len(tool.misplaced()) == 2


def test_the_templates_hold_every_message_of_the_code() -> None:
    template = set()
    for folder in CATALOGS:
        with open(folder / "messages.pot", "rb") as handle:
            template |= {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(handle) if m.id}
    assert message_ids() - template == set(), "run tools/catalogs.py (see README) and translate"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    ids = set()
    missing = []
    for folder in CATALOGS:
        po = catalog(language, folder)
        for message in po:
            if not message.id:
                continue
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.fuzzy or not all(strings):
                missing.append(message.id)
            python_format(po, message)  # raises on a placeholder that differs
        ids |= {m.id[0] if isinstance(m.id, tuple) else m.id for m in po if m.id}
    assert missing == []
    assert message_ids() - ids == set()


@pytest.mark.parametrize("folder", CATALOGS, ids=lambda folder: str(folder.relative_to(ROOT)))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_matches_its_source(language: str, folder: Path) -> None:
    with open(folder / language / "LC_MESSAGES" / "messages.mo", "rb") as handle:
        # The .mo reader gives a message context as bytes.
        compiled = {(m.context.decode() if isinstance(m.context, bytes) else m.context, plain(m.id)): plain(m.string)
                    for m in read_mo(handle) if m.id}
    source = {(m.context, plain(m.id)): plain(m.string) for m in catalog(language, folder) if m.id}
    assert compiled == source, f"run pybabel compile -d {folder.relative_to(ROOT)}"


def plain(value: str | tuple | list) -> str | tuple:
    """A message id or string, plurals as a tuple whichever reader gave them."""
    return tuple(value) if isinstance(value, (tuple, list)) else value


class Texts(HTMLParser):
    """What a reader meets on a page: text, and the names and hints in attributes."""

    SPOKEN = ("aria-label", "title", "placeholder", "alt")

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.skip = 0
        self.lang = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
        values = dict(attrs)
        if tag == "html":
            self.lang = values.get("lang") or ""
        self.texts.extend(v.strip() for k, v in attrs if k in self.SPOKEN and v and v.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.texts.append(" ".join(data.split()))


def english_patterns(language: str) -> list[tuple[str, re.Pattern[str]]]:
    """Each English message the language translates differently, as a pattern of a whole text."""
    patterns = []
    for message in (m for folder in CATALOGS for m in catalog(language, folder)):
        if not message.id:
            continue
        for english, translated in zip(
                message.id if isinstance(message.id, tuple) else (message.id,),
                message.string if isinstance(message.string, tuple) else (message.string,), strict=True):
            if english == translated or len(english) < 3:
                continue
            parts = re.split(r"%\(\w+\)[sd]", english)
            patterns.append((english, re.compile(".+?".join(re.escape(" ".join(p.split())) for p in parts))))
    return patterns


def visit_every_kind_of_page(app: Flask, language: str, finished_pad: dict) -> dict[str, str]:
    """Walk through a game as host and phone in `language`; return each page's HTML."""
    host, phone = app.test_client(), app.test_client()
    for browser in (host, phone):
        browser.environ_base["HTTP_ACCEPT_LANGUAGE"] = f"{language},en;q=0.5"
    pages = {"home": host.get("/").get_data(as_text=True),
             "new game": host.get("/games/new").get_data(as_text=True),
             "new game refused": host.post("/games/new", data={"ruleset": "classic", "player": ["Anne"]})
             .get_data(as_text=True),
             "not found": host.get("/games/nothing-here").get_data(as_text=True)}
    game = new_game(host, ["Anne", "Ben", "Cara"], "modern")
    pages["host: bids"] = host.get(game).get_data(as_text=True)
    pages["join"] = phone.get(f"{game}/join").get_data(as_text=True)
    phone.post(f"{game}/join", data={"seat": "0"})
    phone.post(f"{game}/hands/1/bid", data={"bid": "1"})
    pages["phone: bids"] = phone.get(game).get_data(as_text=True)
    for seat in (1, 2):
        host.post(f"{game}/hands/1/bid", data={"seat": str(seat), "bid": "0"})
    pages["phone: results"] = phone.get(game).get_data(as_text=True)
    pages["trick judge: keypad"] = phone.get(f"{game}/trick?lead=1&cards=pirate&suit=yellow").get_data(as_text=True)
    pages["trick judge: verdict"] = phone.get(
        f"{game}/trick?lead=1&cards=pirate,skull+king,mermaid").get_data(as_text=True)
    pages["host: results"] = host.get(game).get_data(as_text=True)
    phone.post(f"{game}/hands/1", data={"intent": "done", "tricks-0": "1"})
    pages["host: refused"] = host.post(f"{game}/hands/1", data={
        "intent": "score", "tricks-1": "1", "tricks-2": "0"}).get_data(as_text=True)
    host.post(f"{game}/hands/1", data={"intent": "score", "tricks-1": "0", "tricks-2": "0"})
    pages["pad"] = host.get(f"{game}/pad").get_data(as_text=True)
    pages["big screen"] = host.get(f"{game}/screen").get_data(as_text=True)
    pages["correction"] = host.get(f"{game}/hands/1").get_data(as_text=True)
    finished = import_as_host(host, finished_pad)
    pages["end"] = host.get(finished + "/end").get_data(as_text=True)
    pages["home: your games"] = host.get("/").get_data(as_text=True)
    with host.application.app_context():
        crew = games.find_game(finished.rsplit("/", 1)[-1]).crew
    pages["crew"] = host.get(f"/crews/{crew}").get_data(as_text=True)
    # The other games on the shelf: their forms and screens, a refusal, a scored round.
    pages["skip-bo: new"] = host.get("/games/new/skip-bo").get_data(as_text=True)
    match = host.post("/games/new/skip-bo", data={"player": ["Anne", "Ben", "Cara"]}).headers["Location"]
    pages["skip-bo: who went out"] = host.get(match).get_data(as_text=True)
    host.post(f"{match}/play", data={"went_out": "0"})
    pages["skip-bo: refused"] = host.post(f"{match}/play", data={"left": "0", "seat": "1"}).get_data(as_text=True)
    host.post(f"{match}/play", data={"left": "3", "seat": "1"})
    host.post(f"{match}/play", data={"left": "4", "seat": "2"})
    pages["skip-bo: a game scored"] = host.get(match).get_data(as_text=True)
    pages["dracula: new"] = host.get("/games/new/dracula").get_data(as_text=True)
    coffin = host.post("/games/new/dracula", data={"player": ["Anne", "Ben"]}).headers["Location"]
    cells = {f"cell-{i}": card for i, card in enumerate("5H 7H 2C QS 9D QH KD 4S 10S".split())}
    pages["dracula: refused"] = host.post(f"{coffin}/play", data=dict(cells, **{"cell-0": "7H"})).get_data(as_text=True)
    host.post(f"{coffin}/play", data=cells)
    pages["dracula: a round scored"] = host.get(coffin).get_data(as_text=True)
    pages["wizard: new"] = host.get("/games/new/wizard").get_data(as_text=True)
    pages["wizard: refused"] = host.post("/games/new/wizard", data={
        "player": ["Anne", "Ben", "Cara"], "bidding": "secret", "no_even_bids": "on"}).get_data(as_text=True)
    wizard = host.post("/games/new/wizard", data={"player": ["Anne", "Ben", "Cara"], "no_even_bids": "on"}
                       ).headers["Location"]
    for seat in (1, 2):
        host.post(f"{wizard}/play", data={"play": "1", "seat": seat, "bid": "0"})
    pages["wizard: the last bidder"] = host.get(wizard).get_data(as_text=True)
    pages["wizard: a forbidden bid refused"] = host.post(f"{wizard}/play", data={
        "play": "1", "seat": "0", "bid": "1"}).get_data(as_text=True)
    host.post(f"{wizard}/play", data={"play": "1", "seat": "0", "bid": "0"})
    for seat, tricks in ((0, 1), (1, 1), (2, 0)):
        host.post(f"{wizard}/play", data={"play": "1", "seat": seat, "tricks": tricks})
    pages["wizard: tricks that do not add up"] = host.get(wizard).get_data(as_text=True)
    host.post(f"{wizard}/play", data={"play": "1", "seat": "1", "tricks": "0"})
    pages["wizard: a round on the pad"] = host.get(wizard).get_data(as_text=True)
    pages["wizard: correction"] = host.get(f"{wizard}/wizard/rounds/1").get_data(as_text=True)
    pages["wizard: big screen"] = host.get(f"{wizard}/screen").get_data(as_text=True)
    return pages


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_in_each_language_leave_no_english(app: Flask, language: str, finished_pad: dict) -> None:
    patterns = english_patterns(language)
    leftovers = []
    for name, html in visit_every_kind_of_page(app, language, finished_pad).items():
        reader = Texts()
        reader.feed(html)
        if name != "not found":
            assert reader.lang == language, name
        assert len(reader.texts) > 3, name
        for text in reader.texts:
            leftovers.extend(f"{name}: {text!r} ({english!r})" for english, pattern in patterns
                             if pattern.fullmatch(text))
    assert leftovers == []


def test_the_picked_language_sticks_over_the_browsers(client) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "fr"
    assert 'lang="fr"' in client.get("/").get_data(as_text=True)
    response = client.post("/language", data={"language": "it", "next": "/games/new"})
    assert response.status_code == 303 and response.headers["Location"] == "/games/new"
    page = client.get("/games/new").get_data(as_text=True)
    assert 'lang="it"' in page and "Nuova partita" in page
    # Only this site's own pages, and only the languages there are.
    assert client.post("/language", data={"language": "xx", "next": "//evil.example"}).headers["Location"] == "/"
    assert 'lang="it"' in client.get("/").get_data(as_text=True)


def test_one_german_word_for_a_bid_in_every_game() -> None:
    """German says "Ansage" (and "ansagen") for a bid in every game, as the rulebook does: never "Gebot" or "bieten"."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "scorekeeper"
    catalogs = [root / "translations/de/LC_MESSAGES/messages.po",
                *sorted((root / "shelf").glob("*/translations/de/LC_MESSAGES/messages.po"))]
    assert len(catalogs) >= 2
    found = [f"{path.parent.parent.parent.parent.name}: {line}" for path in catalogs
             for line in path.read_text(encoding="utf-8").splitlines()
             if line.startswith("msgstr") and re.search(r"Gebot|\bbiete|\bbietet|geboten|\bBieten", line)]
    assert found == []
