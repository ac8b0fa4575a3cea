"""The app's words in the language of the request: Flask-Babel's catalogs, looked up once per request and
language, for the templates and for the code alike."""

from __future__ import annotations

from typing import Any

from babel.support import NullTranslations
from flask import Flask, g
from flask_babel import get_locale, get_translations
from jinja2 import pass_context
from markupsafe import Markup


def request_translations() -> NullTranslations:
    """The translations of this request's language, looked up once per language a request uses.

    Flask-Babel looks them up afresh for each string a template says (its domain, the locale, the catalog's
    key), a third of the time it takes to draw a shared table. Kept with the locale they are for, they follow it
    when it changes within a request (`force_locale`).
    """
    # `g` looked up once: each use of Flask's proxy finds the context anew, and a shared table says some thirty
    # strings. The locale is Flask-Babel's choice for this request (`get_locale` chooses it once, then keeps it).
    try:
        namespace = g._get_current_object()
    except RuntimeError:  # no app at work (a script): Flask-Babel's answer, the words as written
        untranslated: NullTranslations = get_translations()
        return untranslated
    locale = get_locale()
    kept: tuple[object, NullTranslations] | None = getattr(namespace, "translations_by_locale", None)
    if kept is None or kept[0] is not locale:
        found: NullTranslations = get_translations()
        kept = namespace.translations_by_locale = (locale, found)
    return kept[1]


def _marked(context: Any, text: str, variables: dict[str, Any]) -> str:
    """A translated string as Jinja's i18n extension gives it: markup-safe where the template escapes, then
    formatted with the call's variables (always, so that a "%" reads the same in every string: a string with no
    "%" and no variables is the same formatted, and most are)."""
    marked = Markup(text) if context.eval_ctx.autoescape else text
    return marked % variables if variables or "%" in text else marked


def _rendering(context: Any) -> Any:
    """The translations a template speaks while it is drawn, looked up once per drawing and request.

    Kept on the template's context with the request's namespace (`g`) they were looked up for: a
    template imported for its macros is drawn once and its context kept for every request after,
    in every language. A drawing begun under `force_locale` speaks its language (a new context);
    a macro of an imported template drawn within it speaks the request's (the app draws every part
    of a request in one language).
    """
    try:
        request_namespace = g._get_current_object()
    except RuntimeError:  # no app at work (a script)
        return request_translations()
    kept = getattr(context, "scorekeeper_translations", None)
    if kept is None or kept[0] is not request_namespace:
        kept = context.scorekeeper_translations = (request_namespace, request_translations())
    return kept[1]


@pass_context
def template_gettext(context: Any, string: str, **variables: Any) -> str:
    """The templates' `_` and `gettext`."""
    return _marked(context, _rendering(context).ugettext(string), variables)


@pass_context
def template_ngettext(context: Any, singular: str, plural: str, num: int, **variables: Any) -> str:
    """The templates' `ngettext`."""
    variables.setdefault("num", num)
    return _marked(context, _rendering(context).ungettext(singular, plural, num), variables)


@pass_context
def template_pgettext(context: Any, string_context: str, string: str, **variables: Any) -> str:
    """The templates' `pgettext`."""
    variables.setdefault("context", string_context)
    return _marked(context, _rendering(context).upgettext(string_context, string), variables)


@pass_context
def template_npgettext(context: Any, string_context: str, singular: str, plural: str, num: int,
                       **variables: Any) -> str:
    """The templates' `npgettext`."""
    variables.setdefault("context", string_context)
    variables.setdefault("num", num)
    return _marked(context, _rendering(context).unpgettext(string_context, singular, plural, num), variables)


def install_template_gettext(app: Flask) -> None:
    """The templates' `_`, `gettext`, `ngettext`, `pgettext` and `npgettext`, through `request_translations`, as
    Jinja's i18n extension (new style) has them, each called directly: its own `_` calls `gettext` through the
    template's context, which calls the translation through it again, three calls where one does."""
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext,
                                 pgettext=template_pgettext, npgettext=template_npgettext)


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's `gettext` (the same words, formatted alike) through `request_translations`: the code says
    many words on every page (a card's labels, a problem in words)."""
    text: str = request_translations().ugettext(string)
    return text % variables if variables else text
