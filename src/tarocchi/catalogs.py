"""Maintaining the translation catalogs (`make messages`; needs Babel, in the web and test extras).

`python -m tarocchi.catalogs` extracts every marked string (Python: `N_`, `Msg`, `nmsg`; the
page templates: `{% trans %}`, `_()`; play.js: `_()`, `ngettext()`), every card name
of the three packs (context "card") and every word printed on a card face (context "card
label") into `locale/tarocchi.pot`, merges the template into
each language's `.po` (Italian card names come from the packs' own Italian names, the
source of truth for them) and compiles the `.mo` files the product reads. Translators
edit only the `.po` files; tests/i18n checks that they are complete and compiled.
"""

from __future__ import annotations

import copy
import io
import sys
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from tarocchi.games import GAMES, pack_of
from tarocchi.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR, po_path
from tarocchi.web.svg import CARD_LABEL, card_labels

SOURCE = Path(__file__).parent
METHODS = [
    ("**.py", "python"),
    ("web/templates/**.html", "jinja2"),
    ("web/static/**.js", "javascript"),
]
OPTIONS = {"web/templates/**.html": {"extensions": "jinja2.ext.i18n", "trimmed": "true"}}
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "Msg": None, "nmsg": (1, 2)}
CARD = "card"  # the message context of card names
# gettext's Plural-Forms of each language, from CLDR's plural rules for whole numbers (our
# counts), which tests/i18n checks against Babel's CLDR data; Babel's own table predates
# CLDR (Italian has a third form, "many", for millions)
PLURAL_FORMS = {
    "it": "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
    "id": "nplurals=1; plural=0;",
    "hu": "nplurals=2; plural=(n != 1);",
    "fi": "nplurals=2; plural=(n != 1);",
    "hi": "nplurals=2; plural=(n > 1);",
}
# a fixed date in the catalogs' headers, so regenerating them changes nothing by itself
STAMP = datetime(2026, 11, 29, tzinfo=UTC)


def template() -> Catalog:
    """Return the catalog of every translatable string, as extracted from the sources."""
    pot = Catalog(project="tarocchi", domain=DOMAIN, fuzzy=False, creation_date=STAMP)
    for filename, lineno, message, comments, context in extract_from_dir(
        SOURCE, METHODS, OPTIONS, KEYWORDS, strip_comment_tags=True
    ):
        pot.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for entry in GAMES.values():
        for card in pack_of(entry.name).cards:
            pot.add(card.name_en, None, [(f"{entry.pack}:{card.code}", 0)], context=CARD)
    for label in sorted(card_labels()):
        pot.add(label, None, [("web/svg.py", 0)], context=CARD_LABEL)
    return pot


def italian_card_names() -> dict[str, str]:
    """Return the packs' Italian card names by English name."""
    names: dict[str, str] = {}
    for name in GAMES:
        for card in pack_of(name).cards:
            names[card.name_en] = card.name_it
    return names


def update(lang: str, pot: Catalog) -> Catalog:
    """Merge the template into a language's catalog (created if new) and write it."""
    path = po_path(lang)
    if path.exists():
        with path.open("rb") as f:
            po = read_po(f, locale=lang, domain=DOMAIN)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        po = Catalog(locale=lang, domain=DOMAIN, project="tarocchi", fuzzy=False)
    # update() adopts the template's new messages as they are: give it a copy to fill in
    po.update(copy.deepcopy(pot), no_fuzzy_matching=True)
    po.creation_date = po.revision_date = STAMP
    headers = [(k, v) for k, v in po.mime_headers if k.lower() != "plural-forms"]
    po.mime_headers = [*headers, ("Plural-Forms", PLURAL_FORMS[lang])]
    po.obsolete.clear()
    if lang == "it":
        names = italian_card_names()
        for m in po:
            if m.context == CARD and isinstance(m.id, str):
                m.string = names[m.id]
    with path.open("wb") as f:
        write_po(f, po, width=0, include_previous=False)
    return po


def compile_mo(po: Catalog) -> bytes:
    """Return the compiled form of a catalog (its .mo file)."""
    out = io.BytesIO()
    write_mo(out, po)
    return out.getvalue()


def translated(string: str | tuple[str, ...]) -> bool:
    """Return whether a catalog entry's translation is filled in (every plural form)."""
    return all(string) if isinstance(string, tuple) else bool(string)


def main() -> None:
    """Extract, merge and compile every catalog; print each language's completeness."""
    pot = template()
    LOCALE_DIR.mkdir(exist_ok=True)
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("wb") as f:
        write_po(f, pot, width=0, omit_header=False)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        po = update(lang, pot)
        (po_path(lang).with_suffix(".mo")).write_bytes(compile_mo(po))
        messages = [m for m in po if m.id]
        done = sum(
            1 for m in messages if m.string and (not isinstance(m.string, tuple) or all(m.string))
        )
        print(f"{lang}: {done} of {len(messages)} translated", file=sys.stderr)


if __name__ == "__main__":
    main()
