"""The architecture page is one a newcomer reads in ten minutes, and true of the code: every name it cites is
there."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def cited_names(text: str) -> set[str]:
    """The dotted names the page cites in code spans (`module.name`, `module/sub.name`), files aside."""
    names = set()
    for span in re.findall(r"`([^`\s]+)`", text):
        if re.fullmatch(r"[a-z_]+(/[a-z_]+)?\.[A-Za-z_][\w.]*", span) and not re.search(r"\.(py|md|html|css|js)$", span):
            names.add(span)
    return names


def resolves(name: str) -> bool:
    """Whether `name` (a module of the app, then attributes) exists in the code."""
    module, _, rest = name.replace("/", ".").partition(".")
    parts = [module, *rest.split(".")]
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module("scorekeeper." + ".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_the_architecture_page_is_short_with_one_diagram_and_the_project_s_words() -> None:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    words = len(text.split())
    print(f"docs/architecture.md: {words} words")
    assert words <= 1800
    assert text.count("```") == 2, "one diagram"
    glossary = text.split("## Words", 1)[1].split("\n## ", 1)[0]
    for word in ("table", "game", "play", "seat", "tap", "edition", "card", "secret entry"):
        assert f"**{word}**" in glossary, word


def test_every_name_the_architecture_page_cites_is_in_the_code() -> None:
    names = cited_names(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(names) > 30
    # Flask's own names aside.
    assert sorted(name for name in names - {"app.logger"} if not resolves(name)) == []


def test_a_name_that_is_not_there_would_be_found() -> None:
    assert resolves("work.transaction") and resolves("views/sessions.credentials") and resolves("models.Seat.token_hash")
    assert not resolves("service.locked") and not resolves("rows.store")
    assert cited_names("`service.play` and `docs/testing.md` and `X-Tap`") == {"service.play"}
