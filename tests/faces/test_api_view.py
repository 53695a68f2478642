"""The view the API returns: the deal's history, what the actions that are not cards do, and
the running score, all as the game counts them and in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tarocchi.games import GAMES, game
from tarocchi.games.minchiate_combos import combos, has_versicola
from tarocchi.games.ottocento_combos import analyse
from tarocchi.views import changes, view
from tests.faces.test_api import auth, client

__all__ = ["client"]  # the API test's fixture: a TestClient on a fresh database


def start(client: TestClient, name: str, seed: int, lang: str = "en") -> dict[str, Any]:
    res = client.post("/api/games", json={"game": name, "level": "random", "seed": seed},
                      headers={"Accept-Language": lang})  # fmt: skip
    assert res.status_code == 201, res.text
    data: dict[str, Any] = res.json()
    return data


def act(client: TestClient, data: dict[str, Any], action: str, version: int) -> dict[str, Any]:
    res = client.post(f"/api/games/{data['id']}/actions", headers=auth(data["token"]),
                      json={"action": action, "version": version})  # fmt: skip
    assert res.status_code == 200, res.text
    body: dict[str, Any] = res.json()
    return body


def reload(client: TestClient, data: dict[str, Any]) -> dict[str, Any]:
    res = client.get(f"/api/games/{data['id']}", headers=auth(data["token"]))
    assert res.status_code == 200, res.text
    got: dict[str, Any] = res.json()
    return got


def play(client: TestClient, name: str, seed: int) -> list[dict[str, Any]]:
    """Play a deal through the API (South takes its first legal action); return every
    response, each with the deal's history a reload read just after it (`history`)."""
    data = start(client, name, seed)
    data["history"] = reload(client, data)["view"]["history"]
    out = [data]
    while not out[-1]["view"]["over"]:
        legal = out[-1]["view"]["legal"]
        out.append(act(client, data, legal[seed % len(legal)], out[-1]["version"]))
        out[-1]["history"] = reload(client, data)["view"]["history"]
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_history_is_what_the_events_told_in_play_order(client: TestClient, name: str) -> None:
    responses = play(client, name, 3)
    # what the deal shows before anyone acts (Minchiate's cut, robbing, exposed cards...)
    told = changes(None, view(game(name).deal(3), 0))
    told += [change for r in responses for e in r["events"] for change in e["changes"]]
    last = responses[-1]["view"]
    assert responses[-1]["history"] == told
    for r in responses:
        # an answer tells its events, not the history again
        assert "history" not in r["view"]
        # each reload's history is the deal so far: a prefix of the whole
        assert r["history"] == told[: len(r["history"])]
    plays = [(p["seat"], p["card"]) for t in last["tricks"] for p in t["plays"]]
    assert [(e["seat"], e["card"]) for e in told if e["type"] == "play"] == plays
    tricks = [e for e in told if e["type"] == "trick"]
    assert [t["winner"] for t in tricks] == [t["winner"] for t in last["tricks"]]
    assert [t["trick"] for t in tricks] == list(range(1, len(last["tricks"]) + 1))
    assert all(e["text"] for e in told)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_cards_laid_aside_are_told_without_naming_them(client: TestClient, name: str) -> None:
    rules = game(name)
    # a deal where South discards, and one where another seat does
    mine = next(s for s in range(100) if discarder(rules, s) == 0)
    other = next(s for s in range(100) if discarder(rules, s) not in (None, 0))
    for seed in (mine, other):
        history = play(client, name, seed)[-1]["history"]
        asides = [e for e in history if e["type"] == "aside"]
        assert asides, (name, seed)
        for e in asides:
            assert ("card" in e) == (e["seat"] == 0)
            if e["seat"] != 0:
                assert e["text"] == f"{rules_seat(e['seat'])} lays a card aside face down."


def discarder(rules: Any, seed: int) -> int | None:
    """Return who discards first in a deal (None if nobody does)."""
    state = rules.deal(seed)
    return state.to_move if rules.phase_name(state) == "discard" else None


def rules_seat(seat: int) -> str:
    return ("South", "East", "North", "West")[seat]


def test_ottocento_declare_says_what_it_declares_and_is_worth(client: TestClient) -> None:
    rules = game("ottocento")
    seed = next(s for s in range(200) if rules.deal(s).dealer != 0
                and analyse(rules.deal(s).hands[0]).value)  # fmt: skip
    data = start(client, "ottocento", seed)
    while "DECLARE" not in data["view"]["legal"]:
        data = {**data, **act(client, data, data["view"]["legal"][0], data["version"])}
    v = data["view"]
    found = analyse(rules.pack.mask(v["hand"]))
    details = {d["code"]: d for d in v["action_details"]}
    assert set(details) == {"DECLARE", "PASS"}
    declare = details["DECLARE"]
    assert declare["points"] == found.value
    assert set(declare["cards"]) == set(rules.pack.codes_of(found.cards)) <= set(v["hand"])
    assert declare["label"].startswith("Declare ")
    assert f"{found.value} point" in declare["label"]
    for combo in found.combos:
        assert f"({combo.points})" in declare["label"]
    assert details["PASS"]["points"] is None and details["PASS"]["cards"] == []
    # in Italian, the label is Italian
    it = client.get(
        f"/api/games/{data['id']}", headers={**auth(data["token"]), "Accept-Language": "it"}
    ).json()
    labels = {d["code"]: d["label"] for d in it["view"]["action_details"]}
    assert labels["DECLARE"] != declare["label"] and labels["DECLARE"].startswith("Dichiara")


def test_minchiate_declarations_list_their_cards_and_worth(client: TestClient) -> None:
    rules = game("minchiate")
    seed = next(s for s in range(300) if to_declare(rules, s))
    data = start(client, "minchiate", seed)
    while not any(a.startswith("DECL-") for a in data["view"]["legal"]):
        data = {**data, **act(client, data, data["view"]["legal"][0], data["version"])}
    v = data["view"]
    hand = rules.pack.mask(v["hand"])
    details = {d["code"]: d for d in v["action_details"]}
    assert set(details) == {a for a in v["legal"] if a.startswith("DECL-")}
    assert details["DECL-DONE"]["points"] is None
    by_kind = {f"DECL-{c}": combo for c, combo in kinds(hand)}
    for code, d in details.items():
        if code == "DECL-DONE":
            continue
        combo = by_kind[code]
        assert d["points"] == combo.value
        assert set(d["cards"]) == set(rules.pack.codes_of(combo.cards)) <= set(v["hand"])
        assert d["label"].startswith("Declare ") and str(combo.value) in d["label"]


def to_declare(rules: Any, seed: int) -> bool:
    state = rules.deal(seed)
    return state.dealer != 0 and state.info.cutter != 0 and has_versicola(state.hands[0])


def kinds(hand: int) -> list[tuple[str, Any]]:
    from tarocchi.games.minchiate_combos import KIND_CODES

    return [(KIND_CODES[c.kind], c) for c in combos(hand)]


@pytest.mark.parametrize("name", ["piedicavallo", "ottocento"])
def test_the_running_score_adds_up_the_tricks_declarations_and_captured_combinations(
    client: TestClient, name: str
) -> None:
    rules = game(name)
    for seed in (1, 2):
        for r in play(client, name, seed)[:-1]:
            v = r["view"]
            score = v["score"]
            assert score["unit"] == "points" and score["how"]
            totals = {"NS": 0.0, "EW": 0.0}
            for e in r["history"]:
                if e["type"] == "trick":
                    for team in totals:
                        totals[team] += e["scores"][team]
                    assert e["points"] == e["scores"]["NS" if e["winner"] % 2 == 0 else "EW"]
                elif e["type"] == "event" and e["kind"] == "declare":
                    totals["NS" if e["seat"] % 2 == 0 else "EW"] += e["value"]
            if name == "ottocento":
                # rules §5: what each team's taken cards make, valued on the cards themselves
                for team in totals:
                    totals[team] += rules.combination_score(v["won"][team])
            assert totals == {"NS": score["NS"], "EW": score["EW"]}, (name, seed)
            assert sum(p["NS"] for p in score["parts"]) == score["NS"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_final_score_is_the_result(client: TestClient, name: str) -> None:
    end = play(client, name, 4)[-1]["view"]
    score, result = end["score"], end["result"]
    assert (score["NS"], score["EW"]) == (result["ns"], result["ew"])
    assert score["unit"] == ("resti" if name == "minchiate" else "points")


def test_ottocento_tricks_count_cards_in_pairs(client: TestClient) -> None:
    rules = game("ottocento")
    history = play(client, "ottocento", 5)[-1]["history"]
    plays: list[str] = []
    for e in history:
        if e["type"] == "play":
            plays.append(e["card"])
        elif e["type"] == "trick":
            cards = plays[-4:]
            raw = sum(rules.pack.points[rules.card_id(c)] for c in cards)
            # four cards, two pairs: the card values minus 2, wherever the Matto went
            assert e["scores"]["NS"] + e["scores"]["EW"] == raw - 2


def test_minchiate_score_is_in_resti_with_the_points_alongside(client: TestClient) -> None:
    responses = play(client, "minchiate", 6)
    for r in responses[:-1]:
        score = r["view"]["score"]
        assert score["unit"] == "resti" and "resti" in score["how"]
        labels = [p["label"] for p in score["parts"]]
        # the points scored at once, by where they came from, come before the difference
        sources = score["parts"][: labels.index("Running difference")]
        at_once = {team: sum(p[team] for p in sources) for team in ("NS", "EW")}
        scored = {"NS": 0, "EW": 0}
        for e in r["history"]:
            if e["type"] == "event" and e["kind"] == "score":
                scored["NS" if e["seat"] % 2 == 0 else "EW"] += e["value"]
        assert (at_once["NS"], at_once["EW"]) == (scored["NS"], scored["EW"])
        # each trick's points are the score it made at once, told right after it
        history = r["history"]
        for i, e in enumerate(history):
            if e["type"] == "trick" and e["points"]:
                after = history[i + 1]
                assert after["kind"] == "score" and after["seat"] == e["winner"]
                assert after["value"] == e["points"]


def pair_points(rules: Any, codes: list[str]) -> float:
    """Return cards counted in pairs (Ottocento §1): each card its value minus a half."""
    return sum(rules.pack.points[rules.card_id(c)] - 0.5 for c in codes)


def trick_totals(history: list[dict[str, Any]]) -> dict[str, float]:
    totals = {"NS": 0.0, "EW": 0.0}
    for e in history:
        if e["type"] == "trick":
            for team in totals:
                totals[team] += e["scores"][team]
    return totals


def test_ottocento_tricks_and_the_end_add_up_to_the_card_points(client: TestClient) -> None:
    """The log's tricks, plus what the end adds (the discard for the dealer's team, the card
    given for the Matto), make the breakdown's card points, counted the same way."""
    rules = game("ottocento")
    checked = 0
    for seed in range(1, 6):
        last = play(client, "ottocento", seed)[-1]
        end, r = last["view"], last["view"]["result"]
        if 0 in r["tricks"]:
            continue  # a sweep moves the Matto and the discard another way
        totals = trick_totals(last["history"])
        totals["NS" if end["dealer"] % 2 == 0 else "EW"] += pair_points(rules, r["discard"])
        if r["matto_settlement"]:
            owner = next(e["seat"] for e in last["history"]
                         if e["type"] == "play" and e["card"] == "MATTO")  # fmt: skip
            given = pair_points(rules, [r["matto_settlement"]])
            totals["NS" if owner % 2 == 0 else "EW"] -= given
            totals["EW" if owner % 2 == 0 else "NS"] += given
        line = next(x for x in r["lines"] if x["label"] == "Card points (counted in pairs)")
        assert (line["ns"], line["ew"]) == (totals["NS"], totals["EW"]) == tuple(r["card_points"])
        checked += 1
    assert checked >= 3


def test_piedicavallo_tricks_add_up_to_the_cards_won_and_the_matto(client: TestClient) -> None:
    for seed in range(1, 4):
        last = play(client, "piedicavallo", seed)[-1]
        r = last["view"]["result"]
        if 0 in r["tricks"]:
            continue
        lines = {x["label"]: x for x in r["lines"]}
        totals = trick_totals(last["history"])
        for team in ("ns", "ew"):
            won = lines["Cards won in tricks"][team] + lines["The Matto"][team]
            assert won == totals[team.upper()]
            assert r[team] == won + lines["The discard"][team]
