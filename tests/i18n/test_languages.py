"""Speaking the reader's language: choosing it (Accept-Language, ?lang=, the cookie, LANG,
--lang), and a pseudo-language that shows every string that escaped translation, on the
pages, in the API, in the engine's messages and in terminal play."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.bots.hints import suggest
from tarocchi.catalogs import template
from tarocchi.cli import main
from tarocchi.games import GAMES, game
from tarocchi.i18n import LANGUAGES, PSEUDO, from_environment, match, translator
from tarocchi.terminal import play_terminal
from tarocchi.views import view
from tarocchi.web import content
from tarocchi.web.app import create_app
from tarocchi.web.lang import accept_language
from tarocchi.web.svg import card_svg
from tests.conftest import one_fast
from tests.i18n.pseudo import bare_words

PAGES = ["/", *(f"/traditions/{t}" for t in content.TRADITIONS),
         *(f"/rules/{g}" for g in GAMES), *(f"/play/{g}" for g in GAMES)]  # fmt: skip
QPS = translator(PSEUDO)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("lang") / "games.sqlite3"
    with TestClient(create_app(db, ai_workers=1)) as c:
        yield c


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found
    return found.group(1)


def visible_text(html: str) -> str:
    """Return a page's text as a reader sees it (and its alt, title and aria-label texts)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    # words marked as Italian (the game's own terms, card names in the order tables) are
    # meant to stay Italian in every language
    html = re.sub(r'<(\w+)[^>]*\slang="it"[^>]*>.*?</\1>', " ", html, flags=re.S)
    attrs = " ".join(re.findall(r'(?:alt|title|aria-label|placeholder)="([^"]*)"', html))
    return unescape(re.sub(r"<[^>]+>", " ", html) + " " + attrs)


# -- choosing the language ------------------------------------------------------------------


def test_accept_language_is_read_by_preference() -> None:
    assert accept_language("da, en-GB;q=0.8, hu;q=0.9") == ["da", "hu", "en-GB"]
    assert accept_language("it;q=0, fi") == ["fi"]
    assert accept_language("") == []
    assert match(accept_language("xx-YY, hi-IN;q=0.5")) == "hi"


@pytest.mark.parametrize(
    ("header", "lang"),
    [("hu-HU,hu;q=0.9,en;q=0.8", "hu"), ("fr, fi;q=0.5", "fi"), ("it;q=0", "en"), ("", "en"),
     ("id", "id"), ("hi-IN", "hi"), ("en-US,en;q=0.9", "en")],
)  # fmt: skip
def test_pages_answer_in_the_browsers_language(client: TestClient, header: str, lang: str) -> None:
    client.cookies.clear()
    page = client.get("/rules/minchiate", headers={"Accept-Language": header})
    assert html_lang(page.text) == lang


def test_lang_parameter_overrides_and_is_remembered(client: TestClient) -> None:
    client.cookies.clear()
    first = client.get("/?lang=fi", headers={"Accept-Language": "hu"})
    assert html_lang(first.text) == "fi"
    assert first.cookies.get("lang") == "fi"
    later = client.get("/rules/ottocento", headers={"Accept-Language": "hu"})
    assert html_lang(later.text) == "fi"
    # a language tarocchi does not speak changes nothing
    odd = client.get("/?lang=xx", headers={"Accept-Language": "hu"})
    assert html_lang(odd.text) == "fi"
    client.cookies.clear()


def test_the_switcher_offers_every_language(client: TestClient) -> None:
    html = client.get("/traditions/minchiate?lang=hi").text
    client.cookies.clear()
    for code, name in LANGUAGES.items():
        link = re.search(rf'<a [^>]*href="\?lang={code}"[^>]*>\s*{re.escape(name)}\s*</a>', html)
        assert link, code
        assert f'hreflang="{code}"' in link.group(0)
        assert ('aria-current="true"' in link.group(0)) == (code == "hi")


def test_terminal_language_from_the_environment() -> None:
    assert from_environment({"LANG": "hu_HU.UTF-8"}) == "hu"
    assert from_environment({"LANGUAGE": "fi:en", "LANG": "it_IT.UTF-8"}) == "fi"
    assert from_environment({"LC_ALL": "C.UTF-8", "LANG": "it_IT"}) == "en"
    assert from_environment({}) == "en"


# -- every string translated: the pseudo-language ------------------------------------------


@pytest.mark.parametrize("path", PAGES)
def test_no_page_text_escapes_translation(client: TestClient, path: str) -> None:
    html = client.get(f"{path}?lang={PSEUDO}").text
    client.cookies.clear()
    assert html_lang(html) == PSEUDO
    assert bare_words(visible_text(html)) == []


@pytest.fixture(scope="module")
def partner_sentence() -> str:
    """Return the one message of the rules pages that says the partner is the AI opposite
    (extracted from the sources once: every language's test looks for its translation)."""
    phrase = "<strong>your partner is the AI sitting opposite you</strong>"
    return next(m.id for m in template() if phrase in m.id)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_rules_page_says_the_partner_is_the_ai_opposite(
    client: TestClient, partner_sentence: str, lang: str
) -> None:
    """The partner sentence is one message; each language's rules page shows its translation."""
    source = partner_sentence
    said = " ".join(translator(lang).gettext(source).split())
    assert said and (lang == "en" or said != source)
    for name in GAMES:
        html = client.get(f"/rules/{name}?lang={lang}").text
        assert said in " ".join(html.split()), (lang, name)
    client.cookies.clear()


def engine_texts(name: str, seed: int) -> Iterator[Any]:
    """Yield every message a random deal of a game produces: refusals of every card in the
    mover's hand at every step, public events, the result's lines and texts."""
    rules = game(name)
    rng = random.Random(seed)
    state = rules.deal(seed)
    while not rules.is_over(state):
        legal = rules.legal_actions(state)
        hand = state.hands[state.to_move]
        for card in range(rules.pack.size):
            if hand >> card & 1 and card not in legal:
                yield rules.illegal_reason(state, card)
        yield from (e.text for e in rules.public_events(state))
        state = rules.apply(state, rng.choice(legal))
    yield from (e.text for e in rules.public_events(state))
    result = rules.result(state)
    for line in result.lines:
        yield line.label
        yield line.note
    yield from (v for _, v in result.extra)


def strings(value: Any) -> Iterator[Any]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, tuple | list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_engine_messages_are_all_translatable(name: str) -> None:
    seen = 0
    for seed in range(4):
        for text in engine_texts(name, seed):
            for s in strings(text):
                if s and bare_words(s):  # codes alone ("CU-K T3") are not text
                    seen += 1
                    assert bare_words(QPS.text(s)) == [], s
    assert seen > 20


@pytest.mark.parametrize("name", one_fast(sorted(GAMES)))
def test_api_texts_come_in_the_readers_language(client: TestClient, name: str) -> None:
    made = client.post(
        f"/api/games?lang={PSEUDO}", json={"game": name, "level": "random", "seed": 5}
    )
    data = made.json()
    auth = {"Authorization": f"Bearer {data['token']}"}
    gid = data["id"]
    texts: list[str] = []
    hints = 0  # each is a whole search: two give reasons enough
    while not data["view"]["over"]:
        v = data["view"]
        texts += list(v["illegal"].values()) + [e["text"] for e in v["events"]]
        if len(texts) < 60 and hints < 2:
            hint = client.get(f"/api/games/{gid}/hint?lang={PSEUDO}", headers=auth).json()
            texts += [h["reason"] for h in hint["suggestions"]]
            hints += 1
        got = client.post(f"/api/games/{gid}/actions?lang={PSEUDO}", headers=auth,
                          json={"action": v["legal"][0], "version": data["version"]})  # fmt: skip
        data = got.json()
        texts += [c["text"] for e in data["events"] for c in e["changes"] if c["type"] == "event"]
    result = data["view"]["result"]
    texts += [x for line in result["lines"] for x in (line["label"], line["note"])]
    refused = client.post(f"/api/games/{gid}/actions?lang={PSEUDO}", headers=auth,
                          json={"action": "NOPE", "version": data["version"]})  # fmt: skip
    texts.append(refused.json()["detail"])
    texts.append(client.get(f"/api/games/missing?lang={PSEUDO}").json()["detail"])
    malformed = client.post(f"/api/games?lang={PSEUDO}", json={"game": name, "seed": -1})
    assert malformed.status_code == 422 and malformed.json()["errors"]
    texts.append(malformed.json()["detail"])
    pack = client.get(f"/api/packs/{name}?lang={PSEUDO}").json()
    texts += [c["name"] for c in pack["cards"]]
    client.cookies.clear()
    assert len(texts) > 50
    for text in texts:
        assert bare_words(text) == [], text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_card_faces_speak_the_language(name: str) -> None:
    for code in game(name).pack.codes:
        svg = card_svg(name, code, PSEUDO)
        texts = [unescape(t) for _, t in re.findall(r"<(text|title)\b[^>]*>([^<]*)</\1>", svg)]
        assert texts
        # a long title is split over two lines: read the card's words together
        assert bare_words(" ".join(texts)) == [], (code, texts)


@pytest.mark.slow
def test_hints_are_translatable() -> None:
    rules = game("ottocento")
    state = rules.deal(3)
    rng = random.Random(1)
    reasons = []
    while not rules.is_over(state) and len(reasons) < 40:
        if state.to_move == 0:
            reasons += [h.reason for h in suggest(view(state, 0))]
        state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    assert reasons
    for r in reasons:
        assert bare_words(QPS.text(r)) == [], r


@pytest.mark.parametrize("name", sorted(GAMES))
def test_terminal_play_is_all_translated(name: str) -> None:
    commands = ["help", "hand", "trick", "last", "score", "NOPE", "99", "?"] + ["1"] * 120
    out = io.StringIO()
    play_terminal(name, 7, "random", io.StringIO("\n".join(commands) + "\n"), out, PSEUDO)
    text = out.getvalue()
    assert "⟦" in text
    typed = set(commands) | {"help", "hand", "last", "trick", "score", "quit"}
    # without the echo of what was typed
    said = "\n".join(line for line in text.splitlines() if not line.startswith("> "))
    assert [w for w in bare_words(said) if w not in typed] == []


def test_terminal_speaks_italian() -> None:
    out = io.StringIO()
    play_terminal("piedicavallo", 3, "random", io.StringIO("quit\n"), out, "it")
    it = translator("it")
    assert it.gettext("Type 'help' for commands.") in out.getvalue()
    assert it.gettext("Type 'help' for commands.") != "Type 'help' for commands."


CLI_CASES = [(["--lang", "it"], "hu_HU.UTF-8", "it"), ([], "fi_FI.UTF-8", "fi"), ([], "C", "en")]


@pytest.mark.parametrize(("argv", "env", "lang"), CLI_CASES)
def test_cli_play_takes_lang_or_the_environment(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str],
    env: str, lang: str,
) -> None:  # fmt: skip
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", env)
    main(["play", "piedicavallo", "--seed", "3", "--level", "random", *argv])
    out = capsys.readouterr().out
    assert translator(lang).gettext("You left the deal.") in out
