"""The house: no game named outside its own package, the table importing no game, and no import cycle."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from flask import Flask, url_for

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"


def games_on_the_shelf() -> dict[str, set[str]]:
    """Each game's package folder, and the ways its name is spelled (its folder's, its address's with - and _)."""
    from scorekeeper.shelf import INSTALLED

    found = {}
    for kind in INSTALLED:
        folder = next(p.name for p in (PACKAGE / "shelf").iterdir()
                      if p.is_dir() and p.name.replace("_", "") == kind.NAME.replace("-", ""))
        found[folder] = {folder, kind.NAME, kind.NAME.replace("-", "_")}
    return found


def naming_command(games: dict[str, set[str]]) -> str:
    """A search for where a game is named outside its own package (which holds its templates and static files; the
    registry that lists the games, the catalogs and migrations aside), case-insensitively."""
    names = "|".join(sorted({name for spellings in games.values() for name in spellings}))
    outside = [f"':!scorekeeper/shelf/{folder}'" for folder in sorted(games)]
    outside += ["':!scorekeeper/shelf/__init__.py'", "':!scorekeeper/translations'", "':!scorekeeper/migrations'"]
    return f'git grep -niE "{names}" -- scorekeeper templates static {" ".join(outside)}'


@pytest.fixture
def checkout() -> Path:
    """The source checkout the command searches (git grep needs one)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the search reads one")
    return ROOT


def run(command: str, where: Path) -> str:
    result = subprocess.run(command, shell=True, cwd=where, capture_output=True, text=True, timeout=60, check=False)
    # git grep: 0 found, 1 found nothing, anything else went wrong.
    assert result.returncode in (0, 1), result.stderr
    return result.stdout


def test_no_game_is_named_outside_its_own_package(checkout: Path) -> None:
    games = games_on_the_shelf()
    assert {"skullking", "wizard", "skipbo", "dracula", "freepad"} <= set(games)
    assert run(naming_command(games), checkout) == ""


def test_the_command_does_find_a_game_named_elsewhere(checkout: Path) -> None:
    """Without one game's exclusions, the same search lists its package: it searches where it should."""
    command = naming_command(games_on_the_shelf())
    found = run(command.replace(" ':!scorekeeper/shelf/skullking'", ""), checkout)
    assert "scorekeeper/shelf/skullking/kind.py" in found and "scorekeeper/shelf/skullking/templates/" in found


def test_every_game_is_its_rules_on_the_table_s_plays() -> None:
    """One way to be a game: every registered game is a module of rules (`PlayedRules`, every member of it declared)
    made a kind by the table's `OnPlays` (a game that brings more, its own pages or CSV, extends it)."""
    import types

    from scorekeeper.kinds import OnPlays, PlayedRules
    from scorekeeper.shelf import INSTALLED

    members = {name for name in (*vars(PlayedRules), *PlayedRules.__annotations__) if not name.startswith("_")}
    assert {"PLAY", "DRAFT", "SECRETS", "apply", "context", "card_state", "stored", "from_stored"} <= members
    for kind in INSTALLED:
        assert isinstance(kind, OnPlays), kind.NAME
        rules = kind.played_rules
        assert isinstance(rules, types.ModuleType), kind.NAME
        assert sorted(name for name in members if not hasattr(rules, name)) == [], kind.NAME


def test_a_game_s_templates_and_static_files_are_in_its_own_package(app: Flask) -> None:
    """Each game's pages are drawn from templates in its package, and its own styles and scripts are served from
    its package's `static/` (its Blueprint's), for every registered game."""
    from scorekeeper.kinds import blueprint_name
    from scorekeeper.shelf import INSTALLED

    games = games_on_the_shelf()
    for kind in INSTALLED:
        folder = PACKAGE / "shelf" / next(name for name, spellings in games.items() if kind.NAME in spellings)
        rules = kind.played_rules
        templates = [kind.NEW_TEMPLATE, kind.RULES_TEMPLATE, rules.TEMPLATE]
        for name in templates:
            _, filename, _ = app.jinja_env.loader.get_source(app.jinja_env, name)
            assert Path(filename).resolve().is_relative_to(folder), (kind.NAME, name, filename)
        own = f"{blueprint_name(kind.NAME)}.static"
        for endpoint, filename in kind.ASSETS:
            assert endpoint == own, (kind.NAME, endpoint)
            assert (Path(app.blueprints[blueprint_name(kind.NAME)].static_folder) / filename).is_file()
            assert Path(app.blueprints[blueprint_name(kind.NAME)].static_folder).resolve().is_relative_to(folder)
        with app.test_request_context():
            addresses = [url_for(endpoint, filename=filename) for endpoint, filename in kind.ASSETS]
        for address in addresses:
            # Beside the table's, fingerprinted and kept for good as the table's are.
            assert address.startswith(f"/static/{folder.name}/") and "?v=" in address
            answer = app.test_client().get(address, headers={"Accept-Encoding": "br"})
            assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br"
            assert "immutable" in answer.headers["Cache-Control"]


def imports_of(path: Path, module: str) -> set[str]:
    """The modules of the app that one module imports (relative imports resolved)."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_the_views_import_each_other_in_no_circle() -> None:
    """Among the view modules (the package's own `bp` aside), every import goes one way."""
    modules = {f"scorekeeper.views.{p.stem}": p for p in (PACKAGE / "views").glob("*.py") if p.stem != "__init__"}
    edges = {name: imports_of(path, name) & set(modules) for name, path in modules.items()}

    def circle_from(start: str, path: tuple[str, ...]) -> tuple[str, ...] | None:
        for following in sorted(edges[start]):
            if following == path[0]:
                return (*path, following)
            if following not in path:
                found = circle_from(following, (*path, following))
                if found:
                    return found
        return None

    assert sum(len(e) for e in edges.values()) > 5, "the views import each other: the test sees it"
    circles = [c for name in modules if (c := circle_from(name, (name,)))]
    assert circles == []


# The app's composition roots: they alone put the table and the games together.
COMPOSITION_ROOTS = {"scorekeeper", "scorekeeper.cli", "scorekeeper.gunicorn_config", "scorekeeper.__main__"}


def package_imports() -> dict[str, set[str]]:
    """Every module of the package (its migrations aside) and the modules of the package it imports, at the top or
    inside a function alike."""
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    def imported(path: Path, name: str) -> set[str]:
        # `from . import games` imports the module `games`; the package itself only for a name that is no module.
        found = imports_of(path, name)
        return {m for m in found if m in modules and not any(o.startswith(m + ".") and o in modules for o in found)}

    return {name: imported(path, name) - {name} for name, path in modules.items()}


def circles_in(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The import circles of a graph: one per module that starts one."""
    def circle_from(start: str, path: tuple[str, ...], seen: set[str]) -> tuple[str, ...] | None:
        for following in sorted(edges[start]):
            if following == path[0]:
                return (*path, following)
            if following not in seen:
                seen.add(following)
                found = circle_from(following, (*path, following), seen)
                if found:
                    return found
        return None

    return [c for name in edges if (c := circle_from(name, (name,), {name}))]


def test_the_package_imports_in_no_circle() -> None:
    """No module of the package imports, at any depth and even inside a function, one that imports it."""
    edges = package_imports()
    assert sum(len(e) for e in edges.values()) > 100, "the package's imports are seen"
    assert circles_in(edges) == []


def test_a_circle_would_be_found() -> None:
    edges = package_imports()
    edges["scorekeeper.models"].add("scorekeeper.service")
    assert circles_in(edges)


def test_the_table_imports_no_game() -> None:
    """Outside the games' packages and the composition roots, no module imports a game or the games' registry."""
    edges = package_imports()
    table = {name for name in edges if not name.startswith("scorekeeper.shelf") and name not in COMPOSITION_ROOTS}
    assert {"scorekeeper.games", "scorekeeper.service", "scorekeeper.views.table"} <= table
    found = {name: sorted(i for i in edges[name] if i.startswith("scorekeeper.shelf")) for name in table}
    assert {name: games for name, games in found.items() if games} == {}
    # The games do use the table: the test sees their imports of it.
    assert "scorekeeper.service" in edges["scorekeeper.shelf.skullking.views"]


def test_the_docs_point_only_to_what_the_repository_holds() -> None:
    """Every link between the project's own documents leads to a file of the repository."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    missing = []
    for document in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = document.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" not in target and not (document.parent / target).exists():
                missing.append(f"{document.name}: {target}")
        for named in re.findall(r"`((?:docs|rules|tests|scorekeeper|templates|static)/[\w./-]+\.(?:md|py|html|js|css|json|toml|csv|png|svg))`", text):
            if not (root / named).exists() and not (document.parent / named).exists():
                missing.append(f"{document.name}: {named}")
    assert missing == []


def python_sources(folder: Path) -> dict[Path, str]:
    """Every Python source under `folder`, by path."""
    return {path: path.read_text(encoding="utf-8") for path in folder.rglob("*.py")}


def test_nothing_travels_in_the_session_beside_a_change() -> None:
    """A change carries what it is in an object in sight (`service.Write`): no module keeps the tap, the lock's
    moment, the game's columns or the changes to announce in the database session's `info`."""
    found = [str(path.relative_to(ROOT)) for path, text in python_sources(PACKAGE).items()
             if re.search(r"session(\(\))?\.info\b", text)]
    assert found == []


def test_one_change_path_every_write_of_a_game_commits_through() -> None:
    """Every write is committed in one place, the unit of work (`work`), which only the service opens; a game's
    package only decides (see below), never commits; the views call the service (`tests/test_work.py` holds that
    nothing else writes to the session)."""
    sources = python_sources(PACKAGE)
    commits = sorted(str(path.relative_to(ROOT)) for path, text in sources.items()
                     if "session.commit()" in text and "migrations" not in path.parts)
    assert commits == ["scorekeeper/work.py"]
    openers = sorted(str(path.relative_to(ROOT)) for path, text in sources.items()
                     if re.search(r"work\.(transaction|counted_tries)\(", text))
    assert openers == ["scorekeeper/service.py"]
    for path, text in python_sources(PACKAGE / "shelf").items():
        assert "commit(" not in text.replace("service.commit(", ""), path


# What a game's package may call of the service: its one change path, a new game, and the answers a page raises or
# gives before a change reaches the game (a form that could not be read, a page of no such hand). A decision answers
# with a value (`kinds.Decided`): it raises nothing of the service's.
GAME_CALLS_OF_THE_SERVICE = {"play", "by_rules", "create", "refusal", "seat_at", "NotAllowed", "NotFound", "Outcome"}


def table_writes(name: str, text: str) -> list[str]:
    """Where a module reaches past the one change path: the table's row writes, or a step of the service's
    transaction (its lock, a secret entry, a commit) in place of a decision's answer."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            names = {alias.name for alias in node.names}
            if (node.module or "").endswith("rows") or "rows" in names:
                found.append(f"{name}: imports the table's rows")
            if (node.module or "").endswith("service"):
                found += [f"{name}: service.{n}" for n in sorted(names - GAME_CALLS_OF_THE_SERVICE)]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "service" \
                and node.attr not in GAME_CALLS_OF_THE_SERVICE:
            found.append(f"{name}: service.{node.attr}")
    return found


def test_every_change_of_every_game_is_a_decision_on_one_path() -> None:
    """One change path and one result type for every game: a game's change (Skull King's bids, loads, results,
    claimed tricks and corrections as Wizard's taps) is a decision that reads the game as plain values and answers
    with `kinds.Decided`; the table writes it (`service.play`). A new game starts from plain values too
    (`kinds.Started`). No game's package imports the table's rows or takes a step of the transaction itself."""
    service_text = (PACKAGE / "service.py").read_text()
    assert "def play(" in service_text
    for gone in ("def change(", "class Change", "class Changed"):
        assert gone not in service_text
    packages = [PACKAGE / "shelf", ROOT / "tests" / "highcard"]
    sources = {path: text for folder in packages for path, text in python_sources(folder).items()}
    found = [use for path, text in sources.items() for use in table_writes(str(path.relative_to(ROOT)), text)]
    assert found == []
    # Every game's changes answer with the one result type, a value: a change, or why nothing is written.
    answers = {path.parent.name for path, text in sources.items() if "Change(" in text or "refused(" in text}
    assert {"skullking", "wizard", "skipbo", "dracula", "freepad", "highcard"} <= answers
    assert [f"{path.relative_to(ROOT)}: {name}" for path, text in sources.items()
            for name in decisions_raising(text)] == []


def decisions_raising(text: str) -> list[str]:
    """The functions answering `Decided` (a game's decisions and their helpers) that raise instead of answering."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef) and node.returns is not None and "Decided" in ast.unparse(node.returns):
            inner = [n for n in ast.walk(node) if isinstance(n, ast.Raise)]
            found += [f"{node.name} raises {ast.unparse(n.exc) if n.exc else ''}" for n in inner]
    return found


def test_a_decision_that_raises_would_be_found() -> None:
    text = "def bid(game, actor) -> Decided:\n    if not actor:\n        raise service.deny()\n    return STALE\n"
    assert decisions_raising(text) == ["bid raises service.deny()"]
    assert decisions_raising("def bid(game, actor) -> Decided:\n    return Denied()\n") == []


def test_a_game_writing_the_tables_rows_would_be_found() -> None:
    """The check finds a game that writes the table's rows or commits through the service's steps."""
    text = "from ... import rows, service\n\ndef x(w):\n    service.enter_secret(w, 1, 0, 'bid', 3, 3.0)\n"
    assert table_writes("g.py", text) == ["g.py: imports the table's rows", "g.py: service.enter_secret"]
    assert table_writes("g.py", "from ...service import commit, deny\n") == ["g.py: service.commit", "g.py: service.deny"]


def orm_uses(name: str, text: str) -> list[str]:
    """Where a module defines a database model, imports SQLAlchemy, the table's models or its database session."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = {alias.name for alias in node.names}
            if module.split(".")[0] == "sqlalchemy" or module.endswith(("models", "extensions")) \
                    or (node.level and not module and names & {"models", "extensions"}):
                found.append(f"{name}: from {'.' * node.level}{module} import {sorted(names)}")
        elif isinstance(node, ast.Import):
            found += [f"{name}: import {a.name}" for a in node.names if a.name.split(".")[0] == "sqlalchemy"]
        elif isinstance(node, ast.ClassDef) and any(ast.unparse(b) in ("Model", "db.Model") for b in node.bases):
            found.append(f"{name}: class {node.name}")
    if "db.session" in text:
        found.append(f"{name}: db.session")
    return found


def test_no_game_defines_a_database_model_or_imports_the_orm() -> None:
    """A game is its rules, pad file, pages and templates: the table keeps every game's plays and secret entries in
    its own rows. No module of a game's package (the test game's too) defines a model, imports SQLAlchemy or the
    table's models and database session."""
    packages = [PACKAGE / "shelf", ROOT / "tests" / "highcard"]
    sources = {path: text for folder in packages for path, text in python_sources(folder).items()}
    assert len(sources) > 20
    assert [use for path, text in sources.items() for use in orm_uses(str(path.relative_to(ROOT)), text)] == []


def test_a_game_with_a_model_would_be_found() -> None:
    """The check above reads what it should: a model, the ORM or the session in a game's module is found."""
    assert len(orm_uses("hand", "from ...extensions import db\nclass Hand(db.Model):\n    pass\n")) == 2
    assert orm_uses("hand", "import sqlalchemy.orm\n") and orm_uses("hand", "from ... import models\n")
    assert orm_uses("hand", "from sqlalchemy import select\n") and orm_uses("hand", "x = db.session\n")
    assert orm_uses("rules", "from ... import rows\nfrom .storage import Phase\n") == []


def waits_on_an_expression(source: str) -> list[int]:
    """The lines of `source` that wait in a browser on a bare expression rather than a function."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args \
                and node.func.attr == "wait_for_function":
            first = node.args[0]
            text = first.value if isinstance(first, ast.Constant) else None
            if isinstance(first, ast.JoinedStr):
                text = "".join(part.value for part in first.values if isinstance(part, ast.Constant))
            if isinstance(text, str) and not re.match(r"\s*(\([^)]*\)|\w+)\s*=>", text):
                lines.append(node.lineno)
    return lines


def test_the_browser_tests_wait_on_functions_alone() -> None:
    """Our pages forbid evaluating strings (script-src 'self'): a bare expression waited on passes while it is true
    at once and fails when the browser has to look again, so every wait is a function."""
    found = {path.name: lines for path in sorted((ROOT / "tests").glob("*.py"))
             if (lines := waits_on_an_expression(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_a_wait_on_an_expression_would_be_found() -> None:
    assert waits_on_an_expression('page.wait_for_function("window.ready === true")') == [1]
    assert waits_on_an_expression('page.wait_for_function("() => window.ready")') == []
    assert waits_on_an_expression('page.wait_for_function(f"x => x === {1}", arg=1)') == []


def owners_of_classes(root: Path, scripts: bool = True) -> dict[str, set[str]]:
    """Each word a style sheet or a script may name (a class, an id), and who uses it in markup, code or (`scripts`)
    scripts: "table", or the folder of each game whose package uses it."""
    package = root / "scorekeeper"
    patterns = ("*.py", "*.html", "*.js") if scripts else ("*.py", "*.html")
    sources = [*root.joinpath("templates").rglob("*.html"), *(root.joinpath("static").rglob("*.js") if scripts else ()),
               *package.glob("*.py"), *package.joinpath("views").glob("*.py"),
               *(path for pattern in patterns for path in package.joinpath("shelf").rglob(pattern))]
    texts = {path: path.read_text(encoding="utf-8") for path in sources if ".min." not in path.name}
    words: dict[str, set[str]] = {}
    for path, text in texts.items():
        parts = path.relative_to(root).parts
        owner = parts[2] if parts[:2] == ("scorekeeper", "shelf") and len(parts) > 3 else "table"
        for word in set(re.findall(r"[A-Za-z][\w-]*", text)):
            words.setdefault(word, set()).add(owner)
    return words


def styled_classes(sheet: str) -> set[str]:
    """The classes a style sheet's selectors name."""
    rules = re.sub(r"/\*.*?\*/", "", sheet, flags=re.S)
    return {name for selector in re.findall(r"([^{}]+)\{", rules) for name in re.findall(r"\.([A-Za-z][\w-]*)", selector)}


def game_classes_of_the_table(root: Path) -> dict[str, set[str]]:
    """The classes the table's style sheets style that one game's package alone uses, with that game."""
    owners = owners_of_classes(root)
    styled = {name for sheet in root.joinpath("static").glob("*.css") for name in styled_classes(sheet.read_text())}
    return {name: owners.get(name, set()) for name in sorted(styled)
            if len(owners.get(name, set())) == 1 and "table" not in owners.get(name, set())}


def test_the_table_s_styles_style_no_one_game_s_markup() -> None:
    """What only one game's pages use is styled in that game's own sheet (its folder), never in the table's."""
    assert game_classes_of_the_table(ROOT) == {}


def test_a_game_s_class_in_the_table_s_styles_would_be_found(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "static", tmp_path / "static")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    sheet = tmp_path / "static" / "app.css"
    sheet.write_text(sheet.read_text() + "\n.done-card { gap: 1rem; }\n")
    (tmp_path / "scorekeeper").symlink_to(PACKAGE)
    assert game_classes_of_the_table(tmp_path) == {"done-card": {"skullking"}}


def game_words_of_the_table_s_scripts(root: Path) -> dict[str, set[str]]:
    """The classes and ids the table's scripts look for that one game's markup alone has, with that game."""
    owners = owners_of_classes(root, scripts=False)
    found: dict[str, set[str]] = {}
    for script in root.joinpath("static").rglob("*.js"):
        if ".min." in script.name:
            continue
        # Its comments aside (their words are no code); a selector's class or id follows a quote, a space or a
        # combinator, where a property (`form.action`) follows a name.
        code = re.sub(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", "", script.read_text(encoding="utf-8"), flags=re.S | re.M)
        for name in re.findall(r"""(?:^|[\s>+~,("'`])[.#]([A-Za-z][\w-]*)""", code):
            users = owners.get(name, set())
            if len(users) == 1 and "table" not in users:
                found[name] = users
    return found


def test_the_table_s_scripts_look_for_no_one_game_s_markup() -> None:
    """What only one game's pages hold is handled by that game's own script (its folder), never the table's."""
    assert game_words_of_the_table_s_scripts(ROOT) == {}


def test_a_game_s_markup_in_the_table_s_scripts_would_be_found(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "static", tmp_path / "static")
    shutil.copytree(ROOT / "templates", tmp_path / "templates")
    script = tmp_path / "static" / "app" / "page.js"
    script.write_text(script.read_text() + '\ndocument.querySelector("#card .own-result");\n')
    (tmp_path / "scorekeeper").symlink_to(PACKAGE)
    assert game_words_of_the_table_s_scripts(tmp_path) == {"own-result": {"skullking"}}
