"""Finding untranslated words: in the pseudo-language every translated string comes back
wrapped in ⟦ ⟧, so a word left outside the brackets escaped translation."""

from __future__ import annotations

import re

from tarocchi.games import GAMES, game

INNER = re.compile(r"⟦[^⟦⟧]*⟧")
# words that are not English text: card and action codes, proper names, language names
CODES = re.compile(
    r"\b(?:" + "|".join(sorted({re.escape(c) for g in GAMES for c in game(g).pack.codes}
                               | {re.escape(a) for g in GAMES for a in game(g).extra_actions},
                               key=len, reverse=True)) + r")(?![\w-])"
)  # fmt: skip
NAMES = {"tarocchi", "Tarocchi", "Piedicavallo", "Ottocento", "Minchiate", "Tarocco",
         "Piemontese", "Tarocchino", "Bolognese", "English", "Italiano", "Bahasa", "Indonesia",
         "Magyar", "Suomi", "Wikipedia"}  # fmt: skip
WORD = re.compile(r"[A-Za-z]{2,}")
ROMAN = re.compile(r"\b[IVXLC]+\b")  # trump numerals on the card faces


def bare_words(text: str) -> list[str]:
    """Return the words of text outside every ⟦ ⟧ span, codes and proper names aside."""
    while True:
        stripped = INNER.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    text = ROMAN.sub(" ", CODES.sub(" ", text))
    return [w for w in WORD.findall(text) if w not in NAMES]
