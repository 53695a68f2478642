"""The translation catalogs: complete, faithful to their placeholders and markup, compiled,
extracted from the current sources, and plural forms as CLDR has them."""

from __future__ import annotations

import gettext
import re

import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from tarocchi.catalogs import CARD, PLURAL_FORMS, po_path, template, translated
from tarocchi.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR

TRANSLATED = sorted(set(LANGUAGES) - {DEFAULT})
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%%")
TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)")
# the game terms every language keeps in Italian (rules, and the glossary list), by
# a stem that survives the endings a language adds (Finnish "Matto" -> "Maton" keeps "Mat")
TERMS = {"Matto": "Mat", "Fola": "Fol", "versicol": "versicol", "contator": "contator",
         "Bégato": "Bégat", "resti": "rest", "resto": "rest"}  # fmt: skip


def load(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


@pytest.fixture(scope="module")
def pot() -> Catalog:
    return template()


def entries(po: Catalog) -> list[Message]:
    return [m for m in po if m.id]


def forms(m: Message) -> list[str]:
    return list(m.string) if isinstance(m.string, tuple) else [m.string]


def ids(m: Message) -> list[str]:
    return list(m.id) if isinstance(m.id, tuple) else [m.id]


def test_the_template_on_disk_is_what_the_sources_mark(pot: Catalog) -> None:
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as f:
        on_disk = read_po(f)
    assert {(m.id, m.context) for m in entries(on_disk)} == {
        (m.id, m.context) for m in entries(pot)
    }


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str, pot: Catalog) -> None:
    po = load(lang)
    have = {(m.id, m.context): m for m in entries(po)}
    missing = [m.id for m in entries(pot) if (m.id, m.context) not in have]
    assert not missing, f"{lang}: {len(missing)} messages not merged, e.g. {missing[:3]}"
    empty = [m.id for m in entries(po) if not translated(m.string)]
    assert not empty, f"{lang}: {len(empty)} untranslated, e.g. {empty[:3]}"
    assert len(forms(next(m for m in entries(po) if m.pluralizable))) == po.num_plurals


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_placeholders_and_markup(lang: str) -> None:
    bad = []
    for m in entries(load(lang)):
        source = ids(m)[-1]
        want = sorted(PLACEHOLDER.findall(source))
        tags = sorted(TAG.findall(source))
        for text in forms(m):
            # a language with one form (Indonesian) may leave out the count: %(n)d is still
            # given, so only placeholders other than n must appear
            got = sorted(PLACEHOLDER.findall(text))
            if m.pluralizable and got != want:
                got = [p for p in got if p != "%(n)d"]
                want_here = [p for p in want if p != "%(n)d"]
            else:
                want_here = want
            if got != want_here or sorted(TAG.findall(text)) != tags:
                bad.append((source[:60], text[:60]))
    assert not bad, f"{lang}: {len(bad)} mismatches, e.g. {bad[:3]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_game_terms_stay_italian(lang: str) -> None:
    bad = []
    for m in entries(load(lang)):
        if m.context == CARD:
            continue
        source = ids(m)[0]
        for term, stem in TERMS.items():
            if term in source and not any(stem.lower() in t.lower() for t in forms(m)):
                bad.append((term, source[:50]))
    assert not bad, f"{lang}: {bad[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalog_matches_its_source(lang: str) -> None:
    mo = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    # a number for each plural form
    example = {mo.plural(n): n for n in (10**6, 5, 2, 1, 0)}  # type: ignore[attr-defined]
    for m in entries(load(lang)):
        if isinstance(m.id, tuple):
            for i, text in enumerate(forms(m)):
                assert mo.ngettext(m.id[0], m.id[1], example[i]) == text
        elif m.context:
            assert mo.pgettext(m.context, m.id) == m.string
        else:
            assert mo.gettext(m.id) == m.string


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_forms_follow_cldr(lang: str) -> None:
    """gettext's plural index of every whole number up to 2,000,000 (sampled) is the index
    of CLDR's category for it, in CLDR's order of the language's categories."""
    mo = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    rule = Locale.parse(lang).plural_form
    order = [
        c for c in ("zero", "one", "two", "few", "many", "other") if c in rule.tags | {"other"}
    ]
    assert mo.info()["plural-forms"] == PLURAL_FORMS[lang]
    for n in [*range(0, 1001), 1_000_000, 1_000_001, 2_000_000, 10**7]:
        assert mo.plural(n) == order.index(rule(n)), (lang, n)  # type: ignore[attr-defined]
