"""A server's process is made ready before it takes a request (`warm.warm_up`, called by gunicorn's worker hook
and by `scorekeeper serve`): its first pages, in every game the table offers (the test game's too), compile no
template and read and compress no static file, which would hold up every request the process has meanwhile."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from scorekeeper import assets
from scorekeeper.warm import warm_up
from tests.test_host_limits import SCENARIOS

HTMX = {"HX-Request": "true"}


@pytest.fixture
def app(every_game_app: Flask) -> Flask:
    """Every game on the shelf and the test game, its process as new (no static file read yet)."""
    assets.load_asset.cache_clear()
    assets.load_bundle.cache_clear()
    return every_game_app


def first_pages(app: Flask) -> None:
    """What the first players of a new process ask for: the start page, then a game of each kind made, and its
    join page, its page whole and by htmx, its pad and its big screen."""
    visitor = app.test_client()
    visitor.get("/")
    for game in sorted(SCENARIOS):
        _, url, _, _ = SCENARIOS[game](app)
        phone = app.test_client()
        for path in ("/join", "", "/pad", "/screen"):
            assert phone.get(url + path).status_code in (200, 303), (game, path)
        assert phone.get(url, headers=HTMX).status_code in (200, 303), game


def compiled_from_now(app: Flask) -> list[str | None]:
    """The names of the templates the app compiles from now on, as it compiles them."""
    compiled: list[str | None] = []
    compile_template = app.jinja_env.compile

    def noted(source: str, name: str | None = None, *args: Any, **kwargs: Any) -> Any:
        compiled.append(name)
        return compile_template(source, name, *args, **kwargs)

    app.jinja_env.compile = noted  # type: ignore[method-assign]
    return compiled


def test_a_warmed_up_process_compiles_and_compresses_nothing_for_its_first_pages(app: Flask) -> None:
    warm_up(app)
    compiled = compiled_from_now(app)
    files, bundles = assets.load_asset.cache_info().misses, assets.load_bundle.cache_info().misses
    first_pages(app)
    assert compiled == []
    assert assets.load_asset.cache_info().misses == files
    assert assets.load_bundle.cache_info().misses == bundles


def test_without_it_the_first_pages_would_compile_and_compress(app: Flask) -> None:
    """Not a vacuous check: the same first pages of a process not warmed up do both."""
    compiled = compiled_from_now(app)
    first_pages(app)
    assert compiled and assets.load_asset.cache_info().misses and assets.load_bundle.cache_info().misses
