"""The app's words, each in the catalog of whoever alone uses it: a game's own (`scorekeeper/shelf/<game>/
translations`) for what only its package says, the table's (`scorekeeper/translations`) for the rest, the words
the table and several games share.

    python tools/catalogs.py            extract afresh, move each message to its catalog, update and compile them
    python tools/catalogs.py --check    exit 1, naming them, if a message is in another catalog than its own

A message moved keeps its translations; a new one is added untranslated (the tests fail until it is translated).
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
TABLE = "table"
LANGUAGES = ("de", "fr", "it")
METHODS = [("scorekeeper/**.py", "python"), ("templates/**.html", "jinja2"),
           ("scorekeeper/shelf/**/templates/**.html", "jinja2")]
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "lazy_gettext": None,
            "pgettext": ((1, "c"), 2), "npgettext": ((1, "c"), 2, 3)}


def owner_of(filename: str) -> str:
    """Who says what a file says: the game whose package holds it, else the table."""
    parts = Path(filename).parts
    return parts[2] if parts[:2] == ("scorekeeper", "shelf") and len(parts) > 3 else TABLE


def folder_of(owner: str) -> Path:
    """Where the catalog of `owner` lives."""
    package = ROOT / "scorekeeper"
    return package / "translations" if owner == TABLE else package / "shelf" / owner / "translations"


def extracted() -> dict[tuple[object, str | None], tuple[object, set[str]]]:
    """Every message the code and the templates say, by (id, context): its id, and who says it."""
    found: dict[tuple[object, str | None], tuple[object, set[str]]] = {}
    for filename, _, message, _, context in extract_from_dir(str(ROOT), METHODS, keywords=KEYWORDS):
        ident = tuple(message) if isinstance(message, (tuple, list)) else message
        key = (ident[0] if isinstance(ident, tuple) else ident, context)
        found[key] = (ident, found.get(key, (ident, set()))[1] | {owner_of(filename)})
    return found


def placed() -> dict[str, dict[tuple[object, str | None], object]]:
    """The catalog each message belongs in: a game's own when its package alone says it, else the table's."""
    catalogs: dict[str, dict[tuple[object, str | None], object]] = {}
    for key, (ident, owners) in extracted().items():
        owner = next(iter(owners)) if len(owners) == 1 else TABLE
        catalogs.setdefault(owner, {})[key] = ident
    return catalogs


def key_of(message: Message) -> tuple[object, str | None]:
    """A message's (id, context), its id the singular of a plural."""
    return (message.id[0] if isinstance(message.id, (tuple, list)) else message.id, message.context)


def catalogs() -> dict[str, Path]:
    """The catalogs there are now, by owner: the table's, and each game's that has one."""
    found = {TABLE: folder_of(TABLE)}
    found.update({folder.parent.name: folder for folder in sorted(ROOT.glob("scorekeeper/shelf/*/translations"))})
    return found


def template_of(owner: str) -> Catalog | None:
    """The template (`messages.pot`) of `owner`'s catalog, if it has one."""
    path = folder_of(owner) / "messages.pot"
    if not path.exists():
        return None
    with open(path, "rb") as handle:
        return read_po(handle)


def present() -> dict[str, set[tuple[object, str | None]]]:
    """The messages each catalog holds now, by owner."""
    return {owner: {key_of(m) for m in template_of(owner) or () if m.id} for owner in catalogs()}


def misplaced() -> list[str]:
    """Each message in another catalog than its own, or in none, in words."""
    wanted, found = placed(), present()
    problems = []
    for owner in sorted(set(wanted) | set(found)):
        for key in sorted(wanted.get(owner, {}).keys() - found.get(owner, set()), key=str):
            problems.append(f"{key[0]!r} belongs in {folder_of(owner).relative_to(ROOT)}")
        for key in sorted(found.get(owner, set()) - wanted.get(owner, {}).keys(), key=str):
            problems.append(f"{key[0]!r} is not {owner}'s alone, or said no more: not in "
                            f"{folder_of(owner).relative_to(ROOT)}")
    return problems


def translations(language: str) -> dict[tuple[object, str | None], object]:
    """Every translation of `language` in every catalog now."""
    found: dict[tuple[object, str | None], object] = {}
    for folder in catalogs().values():
        path = folder / language / "LC_MESSAGES" / "messages.po"
        if path.exists():
            with open(path, "rb") as handle:
                found.update({key_of(m): m.string for m in read_po(handle, locale=language) if m.id and m.string})
    return found


def plural_forms(language: str) -> str:
    """How the table's catalog of `language` says its plurals (as its translators chose, not Babel's newest data)."""
    with open(folder_of(TABLE) / language / "LC_MESSAGES" / "messages.po", "rb") as handle:
        return read_po(handle, locale=language).plural_forms


def write() -> None:
    """Every catalog as `placed` says, each language's translations kept, compiled."""
    kept = {language: translations(language) for language in LANGUAGES}
    plurals = {language: plural_forms(language) for language in LANGUAGES}
    for owner, messages in sorted(placed().items()):
        folder = folder_of(owner)
        project = "Skull King scorekeeper" + ("" if owner == TABLE else f": {owner}")
        comment = ("# The table's words, and those several games share." if owner == TABLE
                   else f"# The words of {owner}, which only its package says.")
        # Made when its template was first made: a run that changes no message changes no file.
        before = template_of(owner)
        made = before.creation_date if before is not None else None
        for language in (None, *LANGUAGES):
            catalog = Catalog(locale=language, project=project, header_comment=comment, fuzzy=False,
                              creation_date=made)
            if language:
                catalog.mime_headers = [("Plural-Forms", plurals[language])]
            for key, ident in sorted(messages.items(), key=lambda item: str(item[0])):
                empty = ("", "") if isinstance(ident, tuple) else ""
                string = kept[language].get(key, empty) if language else empty
                catalog.add(ident, string, context=key[1])
            path = folder / (language or "") / ("LC_MESSAGES" if language else "") / (
                "messages.po" if language else "messages.pot")
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as handle:
                write_po(handle, catalog, width=0, no_location=True, omit_header=False, sort_output=True)
            if language:
                with open(path.with_suffix(".mo"), "wb") as handle:
                    write_mo(handle, catalog)


if __name__ == "__main__":
    if "--check" in sys.argv:
        wrong = misplaced()
        print("\n".join(wrong) or "every message is in its own catalog")
        sys.exit(1 if wrong else 0)
    write()
