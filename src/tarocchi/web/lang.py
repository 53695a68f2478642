"""The reader's language on the web: choosing it for a request, and the pages' templates in it.

The language of a request is, in order: a `?lang=` override (remembered in a cookie, so
the switcher's choice holds while the reader browses), the cookie, the browser's
`Accept-Language` (by its q-values), English. Each language has its own Jinja
environment with the i18n extension and that language's catalog installed (newstyle
gettext: placeholders are checked and autoescaped).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TypedDict

from babel.messages.extract import extract
from babel.messages.pofile import read_po
from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader
from starlette.requests import HTTPConnection
from starlette.responses import Response

from tarocchi.i18n import DEFAULT, LANGUAGES, PSEUDO, match, po_path, translator

TEMPLATES = Path(__file__).parent / "templates"
COOKIE = "lang"
# the switcher's choice is remembered for a year
COOKIE_AGE = 365 * 24 * 3600
THEME_COOKIE = "theme"
THEMES = ("light", "dark")


def accept_language(header: str) -> list[str]:
    """Return the language tags of an Accept-Language header, most wanted first (q=0:
    never)."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag))
    return [tag for _, _, tag in sorted(ranked)]


def override(request: HTTPConnection) -> str | None:
    """Return the language a `?lang=` parameter asks for, if tarocchi speaks it."""
    asked = request.query_params.get("lang")
    return match([asked]) if asked else None


def language(request: HTTPConnection) -> str:
    """Return the language to answer a request (or a WebSocket) in."""
    return (
        override(request)
        or match([request.cookies.get(COOKIE, "")])
        or match(accept_language(request.headers.get("accept-language", "")))
        or DEFAULT
    )


def theme_override(request: Request) -> str | None:
    """Return the theme a `?theme=` parameter asks for, if it is one."""
    asked = request.query_params.get("theme")
    return asked if asked in THEMES else None


def theme(request: Request) -> str | None:
    """Return the reader's chosen theme, None to follow the system's."""
    chosen = theme_override(request) or request.cookies.get(THEME_COOKIE)
    return chosen if chosen in THEMES else None


STATIC = Path(__file__).parent / "static"


@cache
def js_messages() -> tuple[str | tuple[str, ...], ...]:
    """Return the strings the page's scripts mark (`_()`, `ngettext()`): ids, or
    singular-plural pairs."""
    found: list[str | tuple[str, ...]] = []
    for path in sorted(STATIC.glob("*.js")):
        with path.open("rb") as f:
            keywords = {"_": None, "ngettext": (1, 2)}
            found.extend(m[1] for m in extract("javascript", f, keywords=keywords))
    return tuple(dict.fromkeys(found))


class JsCatalog(TypedDict):
    """What the page's scripts need to speak a language (`js_catalog`)."""

    lang: str
    messages: dict[str, str | list[str]]  # by English id; a plural's forms as a list


@cache
def js_catalog(lang: str) -> JsCatalog:
    """Return what the page's scripts need to speak a language: its strings' translations
    by English id (plural ones as the list of forms, in CLDR's order of plural categories,
    which the browser's Intl.PluralRules picks from: tests/browser check it against the
    catalog's own rule)."""
    wanted = {m if isinstance(m, str) else m[0]: m for m in js_messages()}
    messages: dict[str, str | list[str]] = {}
    if lang == PSEUDO:
        for key, m in wanted.items():
            messages[key] = f"⟦{m}⟧" if isinstance(m, str) else [f"⟦{m[0]}⟧", f"⟦{m[1]}⟧"]
        return {"lang": DEFAULT, "messages": messages}
    if lang == DEFAULT:
        return {"lang": lang, "messages": messages}
    with po_path(lang).open("rb") as f:
        po = read_po(f, locale=lang)
    for entry in po:
        key = entry.id if isinstance(entry.id, str) else entry.id[0]
        if key in wanted and not entry.context:
            string = entry.string
            messages[key] = string if isinstance(string, str) else list(string or ())
    return {"lang": lang, "messages": messages}


@cache
def templates(lang: str) -> Jinja2Templates:
    """Return the pages' templates with a language's catalog installed."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES), autoescape=True, extensions=["jinja2.ext.i18n"]
    )
    env.policies["ext.i18n.trimmed"] = True
    tr = translator(lang)
    env.install_gettext_translations(tr.catalog, newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(lang=lang, languages=LANGUAGES, tr=tr, js_catalog=js_catalog)
    return Jinja2Templates(env=env)


def render(
    request: Request, name: str, context: Mapping[str, object], status: int = 200
) -> Response:
    """Render a page template in the request's language and theme, remembering a `?lang=`
    or `?theme=` choice."""
    lang = language(request)
    context = {"theme": theme(request), **context}
    page = templates(lang).TemplateResponse(request, name, context, status_code=status)
    if override(request):
        page.set_cookie(COOKIE, lang, max_age=COOKIE_AGE, samesite="lax")
    chosen = theme_override(request)
    if chosen:
        page.set_cookie(THEME_COOKIE, chosen, max_age=COOKIE_AGE, samesite="lax")
    return page
