"""One name for one card: every translated message uses the glossary's name wherever the English names the card."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from scorekeeper.shelf.skullking.glossary import GLOSSARY
from tests.test_translations import CATALOGS

# Pad-file messages quote the file's own values ("shot": grapeshot or cannonball), which stay as written.
QUOTES_THE_FILE = re.compile(r"“\w+”")


@pytest.mark.parametrize("language", sorted(GLOSSARY))
def test_every_message_names_the_cards_as_the_glossary_does(language: str) -> None:
    messages = []
    # Every catalog: the table's, and each game's own (Skull King's holds most of the cards' names).
    for folder in CATALOGS:
        with open(folder / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
            messages += list(read_po(handle))
    wrong = []
    for message in messages:
        if not message.id:
            continue
        pairs = zip(message.id if isinstance(message.id, tuple) else (message.id,),
                    message.string if isinstance(message.string, tuple) else (message.string,), strict=True)
        for english, translated in pairs:
            for term, forms in GLOSSARY[language].items():
                if not re.search(rf"\b{re.escape(term)}", english, re.IGNORECASE):
                    continue
                if QUOTES_THE_FILE.search(english) and term in ("grapeshot", "cannonball"):
                    continue
                if not any(form.lower() in translated.lower() for form in forms):
                    wrong.append(f"{term} → {forms[0]}: {english!r} is {translated!r}")
    assert wrong == [], "\n".join(wrong)
