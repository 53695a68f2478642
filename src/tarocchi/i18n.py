"""Languages: the ones tarocchi speaks, their gettext catalogs, and translating for one reader.

English is the source language: every user-facing string is written in English in the
code and templates and marked for extraction (`N_` in Python, `{% trans %}` and `_()` in
templates, `_()` in play.js); `make messages` extracts them with Babel into
`locale/tarocchi.pot`, merges them into each language's `.po` and compiles the `.mo`
files this module reads with the standard library's gettext (the engine and the
terminal need no dependency for it). Plural forms are CLDR's, written into each
catalog's header by Babel.

The rules engine reports in English but keeps the recipe of each message (`Msg`: a
marked template and its parameters, cards and seats among them), so a face can show an
illegal-move reason, an event or a score line in the reader's language (`Translator.text`).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Protocol

# code -> the language's own name, as the switcher shows it
LANGUAGES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "id": "Bahasa Indonesia",
    "hu": "Magyar",
    "fi": "Suomi",
    "hi": "हिन्दी",
}
DEFAULT = "en"
# the decimal mark of each language that does not write a point (CLDR's number symbols)
DECIMAL_MARKS = {"it": ",", "id": ",", "hu": ",", "fi": ","}
DOMAIN = "tarocchi"
LOCALE_DIR = Path(__file__).parent / "locale"
# a test language: every translated string is wrapped in ⟦ ⟧, so an untranslated string
# shows up bare (tests/i18n); never offered to players
PSEUDO = "qps"


def N_(message: str) -> str:
    """Mark a string for extraction; it is translated where it is shown."""
    return message


# the seats' names, the messages every face shows (`tarocchi.cards` gives them to the rules)
SEATS = (N_("South"), N_("East"), N_("North"), N_("West"))


class Named(Protocol):
    """What a translator needs of a card (`tarocchi.cards.Card`): its English name."""

    @property
    def name_en(self) -> str:
        """The card's English name, the catalogs' key."""
        ...


class Msg(str):
    """An English message that remembers its recipe: a template (%-style, named
    parameters; `Msg("...")` marks it for extraction) and its parameters, each an int, a
    str (translated if the catalog has it: seat and suit names, marked elsewhere), a Card
    (its name), a Msg or a list of them. With `plural` and `n` (see `nmsg`), the template is
    the singular and count picks the form."""

    template: str
    params: Mapping[str, Any]
    plural: str | None
    number: int

    def __new__(
        cls, template: str, plural: str | None = None, count: int = 1, **params: Any
    ) -> Msg:
        plain = True
        for v in params.values():
            if type(v) not in _PLAIN:
                plain = False
                break
        if plain:
            # the engine makes many messages per deal (a result's lines, Minchiate's ledger),
            # mostly the same ones: messages are immutable, so equal recipes share one
            key = (template, plural, count, *params.items())
            found = _MADE.get(key)
            if found is not None:
                return found
        chosen = template if plural is None or count == 1 else plural
        if not params or plain:
            # numbers and strings (messages included) format as they are
            english = chosen % params if params else chosen
        else:
            english = chosen % {k: _english(v) for k, v in params.items()}
        self = super().__new__(cls, english)
        self.template = template
        self.plural = plural
        self.number = count
        self.params = params
        if plain:
            if len(_MADE) >= _MADE_MAX:
                _MADE.clear()
            _MADE[key] = self
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled across the AI worker processes: keep the recipe
        return (_rebuild, (self.template, self.plural, self.number, dict(self.params)))


# parameter types that %-format to their English text as they are (and hash)
_PLAIN = frozenset((int, str, float, bool, Msg))
# messages made from plain parameters, by recipe
_MADE: dict[tuple[Any, ...], Msg] = {}
_MADE_MAX = 1 << 16


def nmsg(singular: str, plural: str, n: int, **params: Any) -> Msg:
    """Return a counted message: the singular or plural template by n (n is a parameter
    too, as %(n)d)."""
    return Msg(singular, plural, n, n=n, **params)


class Joined(tuple[Any, ...]):
    """Message parts shown one after another with a separator (", ", "; ", " ")."""

    sep: str

    def __new__(cls, parts: Iterable[Any], sep: str) -> Joined:
        self = super().__new__(cls, parts)
        self.sep = sep
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Joined, (tuple(self), self.sep))


# the separators of joined parts, for translators (some scripts space or punctuate lists
# differently)
SEPARATORS = (N_(", "), N_("; "))
_PARTS = "%(parts)s"  # a variable, so Babel does not extract it as a message


def joined(parts: Iterable[Any], sep: str = ", ") -> Msg:
    """Return parts (messages, codes, cards) as one message, separated by sep."""
    return Msg(_PARTS, parts=Joined(parts, sep))


def _rebuild(template: str, plural: str | None, count: int, params: dict[str, Any]) -> Msg:
    return Msg(template, plural, count, **params)


def _english(value: Any) -> Any:
    if isinstance(value, int | float):
        return value
    if _is_card(value):
        return str(value.name_en)
    if isinstance(value, list | tuple):
        sep = value.sep if isinstance(value, Joined) else ", "
        return sep.join(str(_english(v)) for v in value)
    return str(value)


def _is_card(value: Any) -> bool:
    return hasattr(value, "name_en") and hasattr(value, "code")


def recipe(value: Any) -> Any:
    """Return a message (a Msg, a marked str, a Card, a list of them) as language-neutral
    JSON data: its template and parameters, a card by its code, so that it can be stored
    and shown later in any language (`from_recipe`)."""
    if isinstance(value, Msg):
        out: dict[str, Any] = {"msg": value.template}
        if value.plural is not None:
            out.update(plural=value.plural, n=value.number)
        if value.params:
            out["params"] = {k: recipe(v) for k, v in value.params.items()}
        return out
    if _is_card(value):
        return {"card": value.code}
    if isinstance(value, Joined):
        return {"joined": [recipe(v) for v in value], "sep": value.sep}
    if isinstance(value, list | tuple):
        return {"list": [recipe(v) for v in value]}
    if isinstance(value, bool | int | float | str):
        return value
    raise TypeError(f"not a message part: {value!r}")


def from_recipe(data: Any, card: Callable[[str], Any]) -> Any:
    """Return the message that `recipe` gave as data, a card read by card(code) (a pack's).
    ValueError for data that is not a recipe."""
    if not isinstance(data, dict):
        if isinstance(data, bool | int | float | str):
            return data
        raise ValueError(f"not a message recipe: {data!r}")
    if "msg" in data:
        params = {k: from_recipe(v, card) for k, v in data.get("params", {}).items()}
        return Msg(data["msg"], data.get("plural"), data.get("n", 1), **params)
    if "card" in data:
        return card(data["card"])
    if "joined" in data:
        return Joined((from_recipe(v, card) for v in data["joined"]), data["sep"])
    if "list" in data:
        return [from_recipe(v, card) for v in data["list"]]
    raise ValueError(f"not a message recipe: {data!r}")


class Translator:
    """Everything one language needs: gettext and ngettext over its catalog, and the
    translation of engine messages, card names and seats."""

    def __init__(self, lang: str, catalog: gettext.NullTranslations) -> None:
        self.lang = lang
        self.catalog = catalog

    def gettext(self, message: str) -> str:
        """Return message in this language (itself if the catalog lacks it)."""
        return self.catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """Return the form of a message for the count n, by the language's plural rule."""
        return self.catalog.ngettext(singular, plural, n)

    def card(self, card: Named) -> str:
        """Return a card's name in this language."""
        return self.catalog.pgettext("card", card.name_en)

    def seat(self, seat: int) -> str:
        """Return a seat's name ("South"...) in this language."""
        return self.gettext(SEATS[seat])

    def param(self, value: Any) -> Any:
        """Return a message parameter in this language (numbers stay numbers, but a fraction
        is written with the language's decimal mark: "4,5" in Italian)."""
        if isinstance(value, float) and not value.is_integer():
            return str(value).replace(".", DECIMAL_MARKS.get(self.lang, "."))
        return value if isinstance(value, int | float) else self.text(value)

    def text(self, value: Any) -> str:
        """Return an engine message (a Msg, a marked str, a Card or a list of them) in this
        language."""
        if isinstance(value, Msg):
            if value.plural is None:
                template = self.gettext(value.template)
            else:
                template = self.ngettext(value.template, value.plural, value.number)
            if not value.params:
                return template
            return template % {k: self.param(v) for k, v in value.params.items()}
        if _is_card(value):
            return self.card(value)
        if isinstance(value, list | tuple):
            sep = value.sep if isinstance(value, Joined) else ", "
            return self.gettext(sep).join(self.text(v) for v in value)
        if isinstance(value, str):
            return self.gettext(value) if value else value
        return str(value)


class _Pseudo(gettext.NullTranslations):
    """The pseudo-language: every string through the catalog comes back marked."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"


@cache
def translator(lang: str) -> Translator:
    """Return the translator of a language code (ValueError for one tarocchi lacks)."""
    if lang == PSEUDO:
        return Translator(lang, _Pseudo())
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if lang == DEFAULT:
        return Translator(lang, gettext.NullTranslations())
    return Translator(lang, gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang]))


def match(wanted: Iterable[str]) -> str | None:
    """Return the first language tarocchi speaks among wanted codes or locale names
    ("it", "it-IT", "hu_HU.UTF-8"), or None."""
    for w in wanted:
        code = w.strip().replace("-", "_").split(".")[0].split("_")[0].lower()
        if code in LANGUAGES or code == PSEUDO:
            return code
    return None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """Return the language the terminal's environment asks for (LANGUAGE, LC_ALL,
    LC_MESSAGES, LANG, as gettext reads them), else English."""
    env = os.environ if environ is None else environ
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            found = match(value.split(":"))
            return found or DEFAULT
    return DEFAULT


def po_path(lang: str) -> Path:
    """Return the path of a language's .po file (the catalog translators edit)."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
