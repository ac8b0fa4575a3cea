"""The house: no game named outside its own package, and no import cycle among the views."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"


def readme_command() -> str:
    """The README's command that lists where a game is named outside its package."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"Where a game is named outside its own package.*?```bash\n\s*(.+?)\n\s*```", readme, re.S)
    assert found, "the README lost its command"
    return found.group(1).strip()


@pytest.fixture
def checkout() -> Path:
    """The source checkout the command searches (git grep needs one)."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the README's command searches one")
    return ROOT


def run(command: str, where: Path) -> str:
    result = subprocess.run(command, shell=True, cwd=where, capture_output=True, text=True, timeout=60, check=False)
    # git grep: 0 found, 1 found nothing, anything else went wrong.
    assert result.returncode in (0, 1), result.stderr
    return result.stdout


def test_no_game_is_named_outside_its_own_package(checkout: Path) -> None:
    assert run(readme_command(), checkout) == ""


def test_the_command_does_find_a_game_named_elsewhere(checkout: Path) -> None:
    """Without one kind's exclusions, the same command lists its package: it searches where it should."""
    command = readme_command().replace(" ':!scorekeeper/shelf/skullking'", "").replace(" ':!templates/skullking'", "")
    found = run(command, checkout)
    assert "scorekeeper/shelf/skullking/" in found and "templates/skullking/" in found


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
