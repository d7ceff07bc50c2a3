"""Grail Succession (G) through the JSON API: a whole game driven by a script, as docs/rulesets/succession.md shows."""

from __future__ import annotations

import json
import re

import pytest
from gmtool_testing import (ADMIN_KEY, ROOT, assert_undo_as_documented, bearer, games_to_play, open_link, ruleset_views,
                            undocumented,
                            unnamed_controls)

from gmtool.runtime import token_hash
from gmtool.store import Store
from gmtool.web.common import csrf_for

# a round where each player plays 5 and takes once (12 turns, the first player's moves at even places);
# four of them with the starting row 5, 6 use the whole deck: 26 faction, 7 plus, 9 minus cards
ROUND = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "+2"]
LAST_ROUND = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "-3"]


@pytest.fixture
def game(client):
    """A succession session with two seats, created through the API (not set up)."""
    return new_game(client)


def new_game(client):
    """A succession session with two seats, created through the API (not set up): {sid, act, state, tokens,
    client}."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "サクセション", "ruleset": "succession", "seats": ["アルトリア", "ギルガメッシュ"]})
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    tokens = {"gm": data["gm_token"], "table": data["table_token"], **{s["id"]: s["token"] for s in data["seats"]}}
    sid = data["session"]

    def act(name, payload=None, who="gm", status=200):
        before = state()["session"]["version"]
        response = client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(tokens[who]), json=payload or {})
        assert response.status_code == status, (name, response.get_json())
        body = response.get_json()
        if status != 200:
            assert body["error"]["ja"] and body["error"]["en"], body
            assert state()["session"]["version"] == before  # a refusal changes nothing
        else:
            assert_undo_as_documented(client, sid, name, body)
        return body

    def state(who="gm"):
        return client.get(f"/api/sessions/{sid}/state", headers=bearer(tokens[who])).get_json()

    return {"sid": sid, "act": act, "state": state, "tokens": tokens, "client": client}


def play(game, script):
    for move in script:
        seat = game["state"]()["ruleset"]["current"]
        if move == "take":
            game["act"]("take", who=seat)
        else:
            game["act"]("play", {"card": move}, who=seat)


PAGE = (ROOT / "docs/rulesets/succession.md").read_text(encoding="utf-8")


def doc_row(action: str) -> str:
    """The row of docs/rulesets/succession.md §2's table for `action`."""
    return next(line for line in PAGE.splitlines() if line.startswith(f"| `{action}` |"))


def assert_documented(row: str, body: dict) -> None:
    """A refusal reads in both languages word for word as `row`'s refusals give it, in the part of its status."""
    error = body["error"]
    shown = f"「{error['ja']}」 / `{error['en']}`"
    part = next((p for p in row.split(" | ")[-2].split("; ") if shown in p), "")  # "400 … / …; 404 …; 409 …"
    assert part.startswith(f"{error['status']} "), (shown, row)


def test_bad_input_is_a_4xx_never_a_500(game):
    """...and the setup row gives its refusals' status and words: a seat in `players` that does not exist is core's
    404 (the page said 400), and a `first` that is not a player names the choices (it read "The first player is not
    one of the players: that seat")."""
    act = game["act"]
    act("play", {"card": "5"}, who="s1", status=409)  # not set up
    act("setup", {"first": "s1"}, who="s1", status=403)
    act("setup", {}, status=400)  # the GM picks by default
    assert_documented(doc_row("setup"), act("setup", {"first": "s3"}, status=400))
    assert_documented(doc_row("setup"), act("setup", {"first": "s1", "players": ["s1", "s9"]}, status=404))
    act("setup", {"first": "s1", "row": ["4", "5"]}, status=400)
    act("setup", {"first": "s1", "row": "not a card"}, status=400)
    act("setup", {"first": "s1", "players": ["s1"]}, status=400)
    act("setup", {"first": "dice", "faces": [7, 1]}, status=400)  # a d6 has no 7
    act("nope", status=404)
    act("setup", {"first": "s1", "row": ["5", "6"]})
    act("setup", {"first": "s1"}, status=409)
    act("play", {"card": "5"}, who="s2", status=409)  # not s2's turn
    act("play", {"card": "5", "seat": "s1"}, who="s2", status=403)  # nor for s1 (the 409 of its own turn before)
    act("play", {"card": "9"}, who="s1", status=400)
    act("play", {"card": {"kind": "plus"}}, who="s1", status=400)
    act("play", {"card": ["x"]}, who="s1", status=400)
    act("take", who="table", status=403)
    act("start_card", {"card": "5"}, status=409)
    act("enter_counts", {"f5": 1}, who="s1", status=409)  # a turn-by-turn game
    act("rematch", status=409)
    act("skip_turn", status=409)
    # §2's 403 for a phone that is not one of the two players: only in a session an earlier gmtool imported from a
    # file with a third seat; an import now refuses it (400 naming the count, docs/api.md 14) and makes nothing
    client, sid, tokens = game["client"], game["sid"], game["tokens"]
    doc = client.get(f"/api/sessions/{sid}/export?format=json", headers=bearer(tokens["gm"])).get_json()
    doc["events"][0]["data"]["seats"].append({"id": "s3", "name": "イスカンダル", "faction": ""})
    r = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=doc)
    assert r.status_code == 400 and r.get_json()["error"]["en"] == (
        "Cannot import: Grail Succession is played with 2 seats (not 3)"), r.get_json()
    manager = client.application.extensions["gmtool"]
    assert [m["id"] for m in manager.list()] == [sid]
    manager.close_all()  # the session's file as such an import left it: a third seat, with its link
    store = Store(manager.path_of(sid))
    try:
        store.append("gm", [("seat.added", {"id": "s3", "name": "イスカンダル", "faction": ""})],
                     secrets={"seat:s3": token_hash("third-seat-token")})
    finally:
        store.close()
    r = client.post(f"/api/sessions/{sid}/actions/play", headers=bearer("third-seat-token"), json={"card": "5"})
    assert r.status_code == 403 and r.get_json()["error"]["en"] == "You are not a player of this game", r.get_json()
    assert "only in a session an earlier gmtool imported from a JSON file that holds more than two seats" in (
        PAGE.replace("\n", " "))


def test_a_whole_game_through_the_api(game):
    act, state = game["act"], game["state"]
    out = act("setup", {"first": "dice", "faces": [2, 2, 6, 3], "row": ["5", "6"]})  # a tie re-rolls
    rv = out["ruleset"]
    assert rv["first"] == "s1" and rv["current"] == "s1" and rv["round"] == 1 and rv["turn"] == 1
    assert [c["label"]["ja"] for c in rv["row"]] == ["勢力5", "勢力6"] and rv["row"][-1]["end"]
    # round 1, turn by turn; refusals on the way
    play(game, ROUND[:8])
    s = state("table")["ruleset"]
    assert s["row_count"] == 10 and [c["pos"] for c in s["row"] if c["in_take"]] == [5, 6, 7, 8, 9]
    act("take", who="s1")
    act("take", who="s2")
    assert state()["ruleset"]["row_count"] == 0
    act("play", {"card": "-2"}, who="s1")
    out = act("play", {"card": "+2"}, who="s2")  # the 12th turn ends the round
    rv = out["ruleset"]
    assert rv["round"] == 2 and rv["first"] == "s2" and rv["current"] == "s2"
    assert [p["hand"] for p in rv["players"]] == [5, 5] and not any(p["took"] for p in rv["players"])
    act("play", {"card": "5"}, who="s1", status=409)  # the first player flipped
    # the round's end is the newest moment on the table's stage (it read the 12th move, 「アルトリア が出した」), until
    # the next move: its scores, the refill, the carried row and who starts next
    totals = [{"seat": p["seat"], "name": p["name"], "total": p["score"]["total"]} for p in rv["players"]]
    assert rv["round_end"] == {"round": 1, "row": 2, "hand": 5, "next_first": "s2", "next_first_name": "ギルガメッシュ",
                               "scores": totals}
    table = game["client"].application.test_client()
    table.get(f"/s/{game['sid']}/table?k={game['tokens']['table']}")

    def stage(lang):
        html = table.get(f"/s/{game['sid']}/table?lang={lang}", headers={"HX-Request": "true"}).get_data(as_text=True)
        part = re.search(r'<section class="stage" id="stage">.*?</section>', html, re.S).group(0)
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part))
    for lang, words in (("ja", ["ラウンド1 終了", "手札を5枚に補充 · 領地列2枚は持ち越し · 次の先手: ギルガメッシュ"]),
                        ("en", ["Round 1 over", "Hands refilled to 5 · The row (2) carries over · Starts next: ギルガメッシュ"])):
        shown = stage(lang)
        assert all(w in shown for w in words) and "played" not in shown and "が出した" not in shown, shown
        assert all(f"{p['name']} {p['total']}" in shown for p in totals), shown
    # round 2: a take once per round; the GM can move for the current player
    assert act("take", who="s2")["ruleset"]["round_end"] is None
    assert "ラウンド1 終了" not in stage("ja") and "ギルガメッシュ が取った" in stage("ja")
    act("play", {"card": "5"}, who="s1")
    act("take", who="s2", status=409)
    play(game, ["6", "7", "8", "+1", "-1", "5", "6", "take", "-2", "+2"])  # the rest of round 2 (s2 already took)
    assert state()["ruleset"]["round"] == 3
    play(game, ROUND)
    out_state = state()["ruleset"]
    assert out_state["round"] == 4
    play(game, LAST_ROUND[:-1])
    seat = state()["ruleset"]["current"]
    final = act("play", {"card": LAST_ROUND[-1]}, who=seat)["ruleset"]
    f = final["finished"]
    # s1 took 8,+1,-1,5,6 in rounds 1-3 and -2,+2,5,6,7 in round 4; s2 5,6,5,6,7 / -2,+2 / -2,+2,5,6,7 / 8,+1,-1,5,6:
    # s1 13 = 8 (3 to 1) + a set + 5 − 5; s2 12 = 7 (2 to 1) + a set + 5 − 5 (5 and 6: 4 to 4)
    assert (f["reason"], f["winner"], f["winner_name"], f["round"]) == ("score", "s1", "アルトリア", 4)
    totals = {p["seat"]: p["score"]["total"] for p in final["players"]}
    assert {k: v["total"] for k, v in f["scores"].items()} == totals == {"s1": 13, "s2": 12}
    assert [x["points"] for x in f["scores"]["s1"]["factions"]] == [0, 0, 0, 8]
    assert [x["points"] for x in f["scores"]["s2"]["factions"]] == [0, 0, 7, 0]
    act("play", {"card": "5"}, who=seat, status=409)  # the game has stopped
    # the log reads as a replay, in both languages, with the final breakdown
    r = game["client"].get(f"/api/sessions/{game['sid']}/export?format=markdown&lang=en",
                           headers=bearer(game["tokens"]["gm"]))
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    heads = [f"Game 1, round {n}" for n in range(1, 5)]
    assert all(h in text for h in heads) and [text.index(h) for h in heads] == sorted(text.index(h) for h in heads)
    assert "Round 1, turn 1: アルトリア played Faction" in text and "took 5:" in text
    ending = text[text.rindex("Game 1, round 4"):]
    assert "Normal succession: アルトリア wins" in ending and ("アルトリア 13 = Majority in faction 8 (3 to 1) +8 Faction sets ×1 +5 "
                                                         "Plus (1 + 1 + 1 + 2) +5 Minus (1 + 1 + 1 + 2) −5 / ギルガメッシュ 12 = "
                                                         "Majority in faction 7 (2 to 1) +7") in ending
    assert "を出した" not in text and "取った" not in text  # the English export reads in English (names aside)
    # a rematch: same players, first player flipped
    rv = act("rematch", {"row": ["7", "8"]})["ruleset"]
    assert rv["game"] == 2 and rv["first"] == "s2" and rv["finished"] is None


def test_three_grails_end_the_game_on_every_screen(game):
    act, state = game["act"], game["state"]
    act("setup", {"first": "s1", "row": ["grail", "grail"]})
    act("play", {"card": "grail"}, who="s1")
    act("play", {"card": "grail"}, who="s2", status=409)  # only three in the deck
    out = act("take", who="s2")
    f = out["ruleset"]["finished"]
    assert f["reason"] == "grail" and f["winner"] == "s2"
    for who in ("table", "s1", "s2"):
        assert state(who)["ruleset"]["finished"]["winner_name"] == "ギルガメッシュ"
    act("play", {"card": "5"}, who="s1", status=409)


def test_a_card_whose_supply_is_all_in_play_has_its_buttons_disabled_with_the_reason(app, game):
    """Seed 内容物: with the 3 grail cards in play (2 in the row, then 1 played), the next phone's grail button is
    disabled, the supply message its title and shown below the buttons in both languages (tapping it only got
    a 409); the other kinds stay enabled. The console's buttons for the current player read the same."""
    act, sid, tokens = game["act"], game["sid"], game["tokens"]
    act("setup", {"first": "s1", "row": ["grail", "5"]})
    act("play", {"card": "grail"}, who="s1")
    phone, gm = open_link(app, f"/join/{sid}?k={tokens['s2']}"), open_link(app, f"/s/{sid}/gm?k={tokens['gm']}")
    html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert re.search(r'<button class="big-button sc-card sc-grail" hx-post', html)  # two in play: one left
    act("play", {"card": "grail"}, who="s2", status=200)
    act("play", {"card": "grail"}, who="s1", status=409)  # the API says so
    for lang, why in (("ja", "聖杯カードは全部で3枚です（すべて場に出ています）"),
                      ("en", "There are only 3 grail cards (all are in play already)")):
        mine = open_link(app, f"/join/{sid}?k={tokens['s1']}").get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
        # the captured cards under 「手札 N」 carry a heading (bare, they read as the hand)
        assert f'id="sc-captured-title">{"獲得したカード" if lang == "ja" else "Captured cards"}</h3>' in mine
        for html in (mine, gm.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True)):
            play = html[html.index('id="sc-play"'):]
            play = play[:play.index("</div>")]
            grail = re.search(r'<button class="big-button sc-card sc-grail"[^>]*>', play).group(0)
            assert f' disabled title="{why}"' in grail, grail
            assert f'<p class="why sc-supply-out" data-kind="grail">{why}</p>' in play
            assert all("disabled" not in b for b in re.findall(r'<button class="[^"]*sc-(?:faction|plus|minus)[^>]*>', play))


def test_score_only_mode_with_phones(game):
    act, state = game["act"], game["state"]
    act("setup", {"first": "s1", "mode": "score"})
    # the GM's entry forms (one per player, labelled 5 … 8, +, −): each field is named by its player and kind
    client, sid = game["client"], game["sid"]
    client.get(f"/s/{sid}/gm?k={game['tokens']['gm']}")
    for lang, name in (("ja", "ギルガメッシュ マイナスの数字（カンマ区切り）"), ("en", "ギルガメッシュ Faction 5")):
        html = client.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True)
        assert 'class="sc-counts' in html and f'aria-label="{name}"' in html
        assert unnamed_controls(html) == [], lang
    # Play-through: the console's score-only hint spoke to the players (「獲得カードを入力してください」, as their phones
    # do); it speaks to the GM, who enters either player's cards, and the phones keep theirs
    phone = open_link(client.application, f"/join/{sid}?k={game['tokens']['s1']}")
    for lang, gm_says, phone_says in (
            ("ja", "得点のみ：両プレイヤーの獲得カードを入力してください（各自のスマホからも入力できます）", "得点のみ：獲得カードを入力してください"),
            ("en", "Score only: enter both players&#39; captured cards (they can also enter them on their phones)",
             "Score only: enter your captured cards")):
        status = re.search(r'id="sc-status">(.*?)</p>', client.get(f"/s/{sid}/gm?lang={lang}").get_data(as_text=True), re.S)
        assert status.group(1).strip() == gm_says, (lang, status.group(1))
        status = re.search(r'id="sc-status">(.*?)</p>', phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True), re.S)
        assert status.group(1).strip() == phone_says, (lang, status.group(1))
    act("play", {"card": "5"}, who="s1", status=409)
    # a phone naming the other player's seat was ignored (its own entry written): 403, as ace_royal's (nothing written)
    refused = act("enter_counts", {"seat": "s2", "f5": 4}, who="s1", status=403)["error"]
    assert (refused["ja"], refused["en"]) == ("他のプレイヤーの操作はできません", "You cannot act for another player")
    assert not any(p["entered"] for p in state("s1")["ruleset"]["players"])
    act("enter_counts", {"seat": "s1", "f5": 4, "f6": 2, "f7": 3, "f8": 2}, who="s1")  # its own seat: fine
    assert state("s2")["ruleset"]["finished"] is None
    act("enter_counts", {"f5": 0, "f6": 3, "f7": 3, "f8": 6, "grail": 4}, who="s2", status=400)
    out = act("enter_counts", {"f6": 3, "f7": 3, "f8": 6, "plus": "2", "minus": [1]}, who="s2")
    f = out["ruleset"]["finished"]
    assert f["scores"]["s1"]["total"] == 15 and f["scores"]["s2"]["total"] == 15 and f["reason"] == "tie"
    assert f["rematch"] is True
    rv = act("rematch")["ruleset"]
    assert rv["first"] == "s2" and rv["mode"] == "score"


def test_score_only_values_too_large_are_a_400_not_a_500(game):
    """A plus value of 4,300 nines (one int() still reads) was written, and then the score (+5 for a majority:
    4,301 digits) could not be shown: the entry and every read of the session's state answered 500 until the
    GM undid it. Seven of them (with the other entry in) could not even be written. A value is a whole number
    within ±10^9 (as core reads one), and the plus / minus values add up to at most every card of the kind at 20."""
    act, state = game["act"], game["state"]
    act("setup", {"first": "s1", "mode": "score"})
    act("enter_counts", {"plus": ["9" * 4300], "f5": 1}, who="s2", status=400)
    assert state("table")["ruleset"]["finished"] is None
    act("enter_counts", {"plus": [3]}, who="s1")
    act("enter_counts", {"plus": ["9" * 4300] * 7}, who="s2", status=400)
    act("enter_counts", {"minus": ["9" * 4300] * 9}, who="s2", status=400)
    act("enter_counts", {"plus": "٣"}, who="s2", status=400)  # an Arabic-Indic digit is no number here
    act("enter_counts", {"plus": "141"}, who="s2", status=400)  # above 7 plus cards of 20
    act("enter_counts", {"plus": "140"}, who="s2", status=400)  # with s1's 3: above 7 plus cards of 20
    out = act("enter_counts", {"plus": "137", "minus": [20] * 9, "f5": "２"}, who="s2")  # full-width digits read
    assert out["ruleset"]["finished"]["scores"]["s2"]["total"] == 137 - 180 + 5


def test_readings_switch_the_first_player_roll_and_the_tie(game):
    """...and succession.md §3 lists each reading of `state.readings` with its rule as served (core's `dice` read `—`
    there, `general` in the state, as illuminati's page has it)."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    section = PAGE.split("## 3. Readings")[1].split("\n## ")[0]
    rows = dict(re.findall(r"^\| `(\w+)`(?: \(core\))? \| ([^|]+?) \|", section, re.M))
    assert rows == {r["key"]: r["rule"] for r in game["state"]()["readings"]}
    for key, value in (("first_player", "dice"), ("tie", "draw")):
        r = client.post(f"/api/sessions/{sid}/readings", headers=bearer(tokens["gm"]), json={"key": key, "value": value})
        assert r.status_code == 200, r.get_json()
    rv = act("setup", {"faces": [1, 4], "mode": "score"})["ruleset"]
    assert rv["first"] == "s2"
    act("enter_counts", {"plus": [3]}, who="s1")
    f = act("enter_counts", {"plus": [3]}, who="s2")["ruleset"]["finished"]
    assert f["reason"] == "tie" and f["rematch"] is False


def test_undo_takes_back_the_move_and_the_round_end(game):
    act, state, client, sid, tokens = game["act"], game["state"], game["client"], game["sid"], game["tokens"]
    act("setup", {"first": "s1", "row": ["5", "6"]})
    play(game, ROUND)
    assert state()["ruleset"]["round"] == 2
    r = client.post(f"/api/sessions/{sid}/undo", headers=bearer(tokens["gm"]), json={})
    assert r.status_code == 200, r.get_json()
    rv = state()["ruleset"]
    assert rv["round"] == 1 and rv["current"] == "s2" and rv["moves_made"] == 11


def test_real_dice_for_the_first_player_and_moves_that_roll_nothing(game):
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    r = client.post(f"/api/sessions/{sid}/readings", headers=bearer(tokens["gm"]), json={"key": "dice", "value": "entered"})
    assert r.status_code == 200, r.get_json()
    act("setup", {"first": "dice", "row": ["5", "6"]}, status=400)  # the faces of the real dice are needed
    act("setup", {"first": "dice", "row": ["5", "6"], "faces": [3, 4, 1]}, status=400)  # one face too many
    rv = act("setup", {"first": "dice", "row": ["5", "6"], "faces": [3, 4]})["ruleset"]
    assert rv["first"] == "s2"
    act("play", {"card": "7"}, who="s2")  # a move rolls nothing: no faces needed
    act("take", who="s1")
    log = client.get(f"/api/sessions/{sid}/log", headers=bearer(tokens["table"])).get_json()
    assert any("実ダイス" in str(line) for line in log.get("events", log.get("lines", [])))


@pytest.mark.parametrize("first, second", [
    ({"f5": 20}, {"f5": 7}),  # 27 faction cards: the deck holds 26
    ({"f5": 13, "f6": 13}, {"f8": 1}),
    ({"plus": [1, 1, 1, 1]}, {"plus": [2, 2, 2, 2]}),  # 8 plus cards: the deck holds 7
    ({"minus": "1, 1, 1, 1, 1"}, {"minus": "2, 2, 2, 2, 2"}),  # 10 minus cards: the deck holds 9
    ({"plus": "140"}, {"plus": "1"}),  # more than 7 plus cards of 20 can add up to
    ({"grail": 2}, {"grail": 2}),  # 4 grails: the deck holds 3
])
def test_g2_score_only_entries_together_hold_no_more_than_the_deck(game, first, second):
    """Seed 内容物 (26 faction, 7 plus, 9 minus, 3 grail cards): two entries that together hold more cards of a kind
    than the deck are refused with a 400 in both languages, and nothing is written (no result). Only the grails
    were checked between the two: 20 and 7 faction 5s, or 4 and 4 plus cards, were scored as a result."""
    act, state = game["act"], game["state"]
    act("setup", {"first": "s1", "mode": "score"})
    act("enter_counts", first, who="s1")
    err = act("enter_counts", second, who="s2", status=400)["error"]
    assert "全部で" in err["ja"] and "There are only" in err["en"], err
    rv = state("table")["ruleset"]
    assert rv["finished"] is None and [p["entered"] for p in rv["players"]] == [True, False]
    act("enter_counts", {"seat": "s2", **second}, status=400)  # the GM's entry for the seat likewise
    act("enter_counts", {}, who="s2")  # nothing captured: within the deck
    assert state("table")["ruleset"]["finished"] is not None


@pytest.mark.parametrize("tie, rematch, shown", [("rematch", True, "同点：再戦"), ("draw", False, "同点：引き分け")])
def test_g3_equal_totals_after_round_4_of_a_turn_by_turn_game(app, game, tie, rematch, shown):
    """G-3 in a game tracked turn by turn: the 48th turn (here a skip) ends the game; equal totals (+2 − 2 against
    nothing) have no winner, and call for a rematch or end in a draw as the reading says; the table's stage says so
    and shows both breakdowns; no move is taken after it."""
    act, state, client, sid, tokens = game["act"], game["state"], game["client"], game["sid"], game["tokens"]
    if tie != "rematch":
        r = client.post(f"/api/sessions/{sid}/readings", headers=bearer(tokens["gm"]), json={"key": "tie", "value": tie})
        assert r.status_code == 200, r.get_json()
    act("setup", {"first": "s1", "row": ["+2", "-2"]})
    act("take", who="s1")
    for _ in range(46):
        act("skip_turn", {"force": True})
    assert state()["ruleset"]["finished"] is None and state()["ruleset"]["round"] == 4
    out = act("skip_turn", {"force": True})
    assert [e["type"] for e in out["events"]] == ["succession.skipped", "succession.game_ended"]
    f = out["ruleset"]["finished"]
    assert (f["winner"], f["winner_name"], f["reason"], f["rematch"], f["round"]) == (None, None, "tie", rematch, 4)
    assert {k: v["total"] for k, v in f["scores"].items()} == {"s1": 0, "s2": 0} and out["ruleset"]["leader"] is None
    act("play", {"card": "5"}, who="s2", status=409)
    act("skip_turn", {"force": True}, status=409)
    html = open_link(app, f"/s/{sid}/table?k={tokens['table']}").get(f"/s/{sid}/table").get_data(as_text=True)
    result = html[html.index('id="sc-result"'):]
    result = result[:result.index("</div>")]  # the stage's result: the verdict and the breakdowns
    assert f'<p class="sc-winner">{shown}</p>' in result and result.count('class="sc-breakdown"') == 2
    assert 'class="sc-game"' not in html  # one game so far: no number
    assert act("rematch")["ruleset"]["first"] == "s2"
    # Play-through: after the rematch the console said ゲーム2 but the table's stage gave no game number (G-3); nor
    # did the phones
    table = open_link(app, f"/s/{sid}/table?k={tokens['table']}")
    phone = open_link(app, f"/join/{sid}?k={tokens['s1']}")
    for lang, words in (("ja", "聖杯サクセション · ゲーム2"), ("en", "Grail Succession · Game 2")):
        html = table.get(f"/s/{sid}/table?lang={lang}").get_data(as_text=True)
        step = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.search(r'class="stage-step sc-stage-step".*?</p>', html, re.S).group(0)))
        assert words in step, (lang, step)
        html = phone.get(f"/s/{sid}/phone?lang={lang}").get_data(as_text=True)
        line = re.search(r'<p class="sc-game-line">.*?</p>', html, re.S)
        assert line and words in re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", line.group(0))), (lang, line)


def test_g3_a_third_grail_taken_on_the_last_turn_of_a_round_ends_the_game_not_the_round(game):
    """G-3 before G-1's round end: the 12th turn of round 1 is a take that gives s2 the third grail: the game ends
    at once (no round end, no refill), with s2 the winner."""
    act = game["act"]
    act("setup", {"first": "s1", "row": ["grail", "grail"]})
    for _ in range(10):
        act("skip_turn", {"force": True})
    act("play", {"card": "grail"}, who="s1")
    out = act("take", who="s2")
    assert [e["type"] for e in out["events"]] == ["succession.taken", "succession.game_ended"]
    rv = out["ruleset"]
    assert (rv["finished"]["reason"], rv["finished"]["winner"], rv["finished"]["round"]) == ("grail", "s2", 1)
    assert rv["round"] == 1 and [p["hand"] for p in rv["players"]] == [4, 5] and rv["current"] is None
    act("play", {"card": "5"}, who="s1", status=409)


@pytest.mark.parametrize("text, label", [("−3", "Minus −3"), ("ー2", "Minus −2"), ("－4", "Minus −4"), ("＋3", "Plus +3")])
def test_g2_a_card_typed_with_the_signs_gmtool_shows_and_a_japanese_keyboard_types(game, text, label):
    """A minus card reads `マイナス−3` / `Minus −3` (U+2212) on every screen; typed back as `−3`, or as `ー2` from a
    Japanese keyboard, it was refused as no card (400), while counters take those signs (docs/api.md §7)."""
    act = game["act"]
    act("setup", {"first": "s1", "row": ["5", "6"]})
    rv = act("play", {"card": text}, who="s1")["ruleset"]
    assert rv["last"]["card"]["label"]["en"] == label and rv["row"][-1]["label"]["en"] == label


def test_g3_after_a_grail_succession_the_table_marks_the_winner_not_the_points_leader(app, game):
    """G-3: three grails win whatever the points. ギルガメッシュ wins with 5 points against アルトリア's 13; the table's
    summary marked the points leader (アルトリア, the loser) as ahead after the game was over."""
    act, sid, tokens = game["act"], game["sid"], game["tokens"]
    act("setup", {"first": "s1", "row": ["6", "7"]})
    act("take", who="s1")
    for seat, card in (("s2", "grail"), ("s1", "grail"), ("s2", "grail"), ("s1", "5")):
        act("play", {"card": card}, who=seat)
    rv = act("take", who="s2")["ruleset"]
    assert (rv["finished"]["reason"], rv["finished"]["winner"]) == ("grail", "s2")
    assert [p["score"]["total"] for p in rv["players"]] == [13, 5] and rv["leader"] == "s1"  # on points, as documented
    html = open_link(app, f"/s/{sid}/table?k={tokens['table']}").get(f"/s/{sid}/table").get_data(as_text=True)
    cards = {seat: classes for classes, seat in re.findall(r'<div class="sc-score-card([^"]*)" data-seat="(s\d)"', html)}
    assert "sc-leader" in cards["s2"] and "sc-leader" not in cards["s1"], cards


def test_g1_a_skipped_turn_reads_in_the_readers_language(game):
    """The GM's skip (a turn with no legal move, or forced) without a reason: the English log and export read
    "(GM's ruling)"; they showed the Japanese default (GMの裁定). A reason the GM typed is shown as typed."""
    act, client, sid, tokens = game["act"], game["client"], game["sid"], game["tokens"]
    act("setup", {"first": "s1", "row": ["5", "6"]})
    act("skip_turn", {"force": True})
    act("skip_turn", {"force": True, "reason": "電話"})
    lines = {}
    for lang in ("ja", "en"):
        r = client.get(f"/api/sessions/{sid}/export?format=markdown&lang={lang}", headers=bearer(tokens["gm"]))
        assert r.status_code == 200
        lines[lang] = [x for x in r.get_data(as_text=True).splitlines() if "手番を飛ばした" in x or "skipped" in x]
    assert lines["ja"][0].endswith("アルトリアの手番を飛ばした（GMの裁定）") and lines["ja"][1].endswith("（電話）")
    assert lines["en"][0].endswith("アルトリア's turn skipped (GM's ruling)") and lines["en"][1].endswith("(電話)")


def test_g1_a_round_turn_by_turn_the_turn_number_the_hand_and_a_forced_take(game):
    """G-1 through the API: the players alternate, each with turns 1 to 6 in the round; a play costs a card of the
    hand (a take none); with an empty hand the player must take (a play is refused, saying so); the take gets the
    last 5 cards; after 12 turns the next round starts with the other player, hands at 5."""
    act, state = game["act"], game["state"]
    act("setup", {"first": "s1", "row": ["5", "6"]})
    script = [("s1", "7"), ("s2", "8"), ("s1", "5"), ("s2", "6"), ("s1", "7"), ("s2", "8"), ("s1", "+1"), ("s2", "-1"),
              ("s1", "5"), ("s2", "take"), ("s1", "take"), ("s2", "6")]
    hands = {"s1": 5, "s2": 5}
    for n, (seat, move) in enumerate(script):
        rv = state("table")["ruleset"]
        me = next(p for p in rv["players"] if p["seat"] == seat)
        assert (rv["current"], rv["turn"], rv["moves_made"], me["hand"]) == (seat, n // 2 + 1, n, hands[seat]), n
        if n == 10:  # s1's sixth turn: no card left, the take is due (s2 took 7, 8, +1, −1, 5 of the 11: 6 are left)
            assert me["moves"] == {"play": False, "take": True, "must_take": True, "must_play": False, "stuck": False}
            err = act("play", {"card": "6"}, who=seat, status=409)["error"]
            assert "カードを取ってください" in err["ja"] and "take the cards instead" in err["en"]
            assert [c["label"]["en"] for c in rv["row"] if c["in_take"]] == ["Faction 6", "Faction 7", "Faction 8", "Faction 5", "Faction 6"]
        if move == "take":
            act("take", who=seat)
        else:
            act("play", {"card": move}, who=seat)
            hands[seat] -= 1
    rv = state("table")["ruleset"]
    assert (rv["round"], rv["turn"], rv["current"], rv["first"]) == (2, 1, "s2", "s2")
    assert [(p["hand"], p["took"], p["captured_count"]) for p in rv["players"]] == [(5, False, 5), (5, False, 5)]
    assert [c["label"]["en"] for c in rv["row"]] == ["Faction 5", "Faction 6"]


def _form_fields(form: str) -> dict:
    """The values a browser sends for a form's text inputs (name → value, as the page fills them)."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = value.group(1) if value else ""
    return fields


def test_g2_correcting_one_count_of_a_score_only_entry_keeps_the_rest(app, game):
    """Score-only mode: the GM console's form for a player (and the phone's own form) is filled with what was
    entered, so correcting one count sends the rest unchanged. The GM's form left plus and minus empty (and the
    phone's every field at 0): correcting faction 5 wiped the player's plus and minus cards from the score."""
    act, state, sid, tokens = game["act"], game["state"], game["sid"], game["tokens"]
    act("setup", {"first": "s1", "mode": "score"})
    act("enter_counts", {"f5": 2, "f7": 1, "plus": [3, 2], "minus": "1", "grail": 1}, who="s1")
    entered = state()["ruleset"]["players"][0]["score"]
    assert (entered["plus"], entered["minus"], entered["grail"]) == (5, 1, 1)
    screens = (("gm", f"/s/{sid}/gm?k={tokens['gm']}", f"/s/{sid}/gm", f"/s/{sid}/gm/actions/enter_counts"),
               ("s1", f"/join/{sid}?k={tokens['s1']}", f"/s/{sid}/phone", f"/s/{sid}/phone/actions/enter_counts"))
    for n, (who, link, page, post) in enumerate(screens):
        browser = open_link(app, link)
        html = browser.get(page).get_data(as_text=True)
        forms = re.findall(r'<form class="sc-counts.*?</form>', html, flags=re.S)
        fields = _form_fields(forms[0])  # the GM console's first form is the first player's
        assert (fields["f5"], fields["f7"], fields["plus"], fields["minus"], fields["grail"]) == (str(2 + n), "1", "3, 2", "1", "1"), who
        fields["f5"] = str(3 + n)  # the correction: one more faction 5
        r = browser.post(post, data=fields, headers={"X-CSRF-Token": csrf_for(tokens[who]), "HX-Request": "true"})
        assert r.status_code < 400, r.get_data(as_text=True)[:300]
        score = state()["ruleset"]["players"][0]["score"]
        assert (score["factions"][0]["mine"], score["plus"], score["minus"], score["grail"]) == (3 + n, 5, 1, 1), who


NO_MOVES = {"play": False, "take": False, "must_take": False, "must_play": False, "stuck": False}


def test_g1_g3_me_moves_offer_only_what_the_seat_may_do_now(game):
    """G-1/G-3: a seat's `me.moves` said `play: true` off its turn and after the game was over, where a play is
    refused; now it is the seat's moves on its turn and nothing otherwise."""
    act, state = game["act"], game["state"]
    act("setup", {"first": "s1", "row": ["grail", "grail"]})
    assert state("s1")["ruleset"]["me"]["moves"]["play"] and state("s2")["ruleset"]["me"]["moves"] == NO_MOVES
    act("play", {"card": "5"}, who="s1")
    assert state("s2")["ruleset"]["me"]["moves"]["take"] and state("s1")["ruleset"]["me"]["moves"] == NO_MOVES
    act("play", {"card": "grail"}, who="s2")
    act("take", who="s1")  # the third grail: s1 wins (G-3)
    assert state()["ruleset"]["finished"]["winner"] == "s1"
    for seat in ("s1", "s2"):
        assert state(seat)["ruleset"]["me"]["moves"] == NO_MOVES
        act("play", {"card": "6"}, who=seat, status=409)


def test_g1_a_waiting_phone_names_the_player_to_move_once(app, game):
    """Browser review: the phone of the player waiting for the other's move said 「手番のプレイヤー ギルガメッシュ」 in
    its status line and again 「手番のプレイヤー: ギルガメッシュ」 two lines below. Once, in the status line."""
    game["act"]("setup", {"first": "s2", "row": ["5", "6"]})
    phone = app.test_client()
    phone.get(f"/join/{game['sid']}?k={game['tokens']['s1']}")
    for lang, words in (("ja", "手番のプレイヤー"), ("en", "To move")):
        page = phone.get(f"/s/{game['sid']}/phone?lang={lang}").get_data(as_text=True)
        section = re.search(r'<section class="card succession sc-phone".*?</section>', page, re.S).group(0)
        assert section.count(words) == 1 and "ギルガメッシュ" in section, (lang, section.count(words))


def test_g1_a_play_with_an_empty_hand_and_the_take_used_says_the_gm_skips(game):
    """G-1: with no card in hand and the round's take used, a refused play said "take the cards instead" (a take
    is refused too); it says neither is possible and the GM skips the turn."""
    act, state = game["act"], game["state"]
    act("setup", {"first": "s1", "row": ["5", "6"]})
    play(game, ["take", "5"])
    r = game["client"].post(f"/api/sessions/{game['sid']}/counters", headers=bearer(game["tokens"]["gm"]),
                            json={"seat": "s1", "key": "hand", "value": 0})  # the GM corrects s1's hand: none left
    assert r.status_code == 200, r.get_json()
    assert state("s1")["ruleset"]["me"]["moves"] == {**NO_MOVES, "stuck": True}
    err = act("play", {"card": "7"}, who="s1", status=409)["error"]
    assert err["ja"] == "手札がなく、カードを取ることもできません（GMが手番を飛ばします）（G-1）"
    assert err["en"] == "No cards in hand and no take possible: you can neither play nor take (the GM skips the turn) (G-1)"
    act("skip_turn")


def test_the_export_ends_with_each_score_its_breakdown_and_the_result(game):
    """The write-up's final part (every format, both languages) shows each player's score as G-2 counts it and
    the result (G-3), not only the hand counter: the worked example of RULES.md G-2, A 15 to B 14."""
    act = game["act"]
    act("setup", {"first": "s1", "mode": "score"})
    act("enter_counts", {"f5": 4, "f6": 2, "f7": 3, "f8": 2}, who="s1")
    act("enter_counts", {"f6": 3, "f7": 3, "f8": 6, "plus": "3", "minus": [2, 1]}, who="s2")

    def export(fmt, lang="ja"):
        r = game["client"].get(f"/api/sessions/{game['sid']}/export?format={fmt}&lang={lang}&times=0",
                               headers=bearer(game["tokens"]["gm"]))
        assert r.status_code == 200
        return r.get_data(as_text=True)

    md = export("markdown")
    final = md[md.index("## 最終状況"):md.index("## 付録")]
    assert "| 席 | 過半数 | セット | プラス | マイナス | 聖杯 | 合計 |" in final
    assert "| アルトリア | 5（勢力5） | 10（2組） | 0 | 0 | 0 | 15 |" in final
    assert "| ギルガメッシュ | 14（勢力6・8） | 0 | +3 | −3 | 0 | 14 |" in final
    assert "- 結果：通常サクセション：アルトリアの勝利 \\[G-2\\]" in final and "手札" not in final
    en = export("markdown", "en")
    final = en[en.index("## Standings"):en.index("## Appendix")]
    assert "| Seat | Majorities | Sets | Plus | Minus | Grails | Total |" in final
    assert "| ギルガメッシュ | 14 (factions 6, 8) | 0 | +3 | −3 | 0 | 14 |" in final
    assert "- Result: Normal succession: アルトリア wins \\[G-2\\]" in final
    doc = json.loads(export("json", "en"))  # numbers for a program, the same in either language
    assert doc["standings"] == json.loads(export("json"))["standings"] == {
        "players": [{"seat": "s1", "name": "アルトリア", "total": 15, "majorities": 5, "factions_won": [5], "sets": 2,
                     "set_points": 10, "plus": 0, "minus": 0, "grails": 0},
                    {"seat": "s2", "name": "ギルガメッシュ", "total": 14, "majorities": 14, "factions_won": [6, 8],
                     "sets": 0, "set_points": 0, "plus": 3, "minus": 3, "grails": 0}],
        "result": {"decided": True, "game": 1, "reason": "score", "winner": "s1", "winner_name": "アルトリア",
                   "rematch": False, "rule": "G-2"}}
    for p in doc["standings"]["players"]:  # G-2: the total is the sum of its terms
        assert p["total"] == p["majorities"] + p["set_points"] + p["plus"] - p["minus"]
    for fmt in ("mediawiki", "atwiki", "text", "html"):
        for lang, words in (("ja", ("10（2組）", "結果：通常サクセション：アルトリアの勝利")),
                            ("en", ("10 (2 × 5)", "Result: Normal succession: アルトリア wins"))):
            text = export(fmt, lang)
            assert all(w in text for w in words), (fmt, lang)
    assert "- 結果：通常サクセション：アルトリアの勝利" in export("markdown&campaign=1")  # the last session's
    # a game in play is not decided yet; equal totals under the draw reading end in a draw
    act("rematch")
    act("enter_counts", {"f5": 1}, who="s2")
    assert "- 結果：未決着（第2ゲーム進行中）" in export("markdown")
    assert json.loads(export("json"))["standings"]["result"] == {
        "decided": False, "game": 2, "reason": None, "winner": None, "winner_name": None, "rematch": False, "rule": None}
    r = game["client"].post(f"/api/sessions/{game['sid']}/readings", headers=bearer(game["tokens"]["gm"]),
                            json={"key": "tie", "value": "draw"})
    assert r.status_code == 200, r.get_json()
    act("enter_counts", {"f5": 1}, who="s1")
    assert "- Result: Equal totals: a draw \\[G-3\\]" in export("markdown", "en")
    assert json.loads(export("json"))["standings"]["result"] == {
        "decided": True, "game": 2, "reason": "tie", "winner": None, "winner_name": None, "rematch": False, "rule": "G-3"}


def test_g3_the_campaign_page_lists_each_evenings_result(app, game):
    """Browser review: the campaign page's 結果 column of a finished game read 「アルトリア: 手札 0; ギルガメッシュ: 手札 0」
    (the only counter, empty at the end) and never who won. It reads the result line of the write-up's standings,
    in the page's language; an evening not set up yet still lists its counters."""
    act, client, tokens, sid = game["act"], game["client"], game["tokens"], game["sid"]
    act("setup", {"first": "s1", "mode": "score"})
    act("enter_counts", {"f5": 4, "f6": 2, "f7": 3, "f8": 2}, who="s1")
    act("enter_counts", {"f6": 3, "f7": 3, "f8": 6, "plus": "3", "minus": [2, 1]}, who="s2")  # A 15, B 14 (G-2)
    r = client.post(f"/api/sessions/{sid}/continue", headers=bearer(tokens["gm"]), json={})
    assert r.status_code == 201, r.get_json()
    for lang, result in (("ja", "結果：通常サクセション：アルトリアの勝利 [G-2]"),
                         ("en", "Result: Normal succession: アルトリア wins [G-2]")):
        listed = client.get(f"/api/sessions/{sid}/campaign?lang={lang}", headers=bearer(tokens["gm"])).get_json()
        assert [row["outcome"] for row in listed["sessions"]] == [
            result, "アルトリア: 手札 5; ギルガメッシュ: 手札 5" if lang == "ja" else "アルトリア: Hand 5; ギルガメッシュ: Hand 5"]
    browser = app.test_client()
    browser.get(f"/s/{sid}/gm?k={tokens['gm']}")
    assert "アルトリアの勝利" in browser.get(f"/s/{sid}/gm/campaign").get_data(as_text=True)


def test_g2_a_breakdown_without_plus_or_minus_cards_reads_0(app, game):
    """Browser review: the result's breakdown of a player with no plus or minus card read 「プラス +0」 and 「マイナス −0」;
    it reads 0 there, as the write-up's table does, and +3 / −3 where there are cards."""
    act, tokens, sid = game["act"], game["tokens"], game["sid"]
    act("setup", {"first": "s1", "mode": "score"})
    act("enter_counts", {"f5": 4, "f6": 2, "f7": 3, "f8": 2}, who="s1")
    act("enter_counts", {"f6": 3, "f7": 3, "f8": 6, "plus": "3", "minus": [2, 1]}, who="s2")
    browser = app.test_client()
    assert browser.get(f"/s/{sid}/table?k={tokens['table']}").status_code == 302
    page = browser.get(f"/s/{sid}/table").get_data(as_text=True)
    for seat, plus, minus in (("s1", "0", "0"), ("s2", "+3", "−3")):
        table = re.search(rf'<table class="sc-breakdown" data-seat="{seat}">.*?</table>', page, re.S).group(0)
        cells = dict(re.findall(r"<tr><td>(プラス|マイナス)</td><td>(.*?)</td></tr>", table))
        assert cells == {"プラス": plus, "マイナス": minus}, (seat, cells)


def test_the_final_scores_follow_the_names_option(client):
    """names=faction: the final table and the result name each player by their faction, like the story."""
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "サクセション", "ruleset": "succession", "seats": ["アルトリア / Artoria", "ギルガメッシュ / Gilgamesh"]})
    sid, gm = r.get_json()["session"], r.get_json()["gm_token"]
    for name, payload in (("setup", {"first": "s1", "mode": "score"}), ("enter_counts", {"seat": "s1", "f5": 2}),
                          ("enter_counts", {"seat": "s2", "f5": 1})):
        assert client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(gm), json=payload).status_code == 200
    text = client.get(f"/api/sessions/{sid}/export?format=markdown&lang=en&names=faction",
                      headers=bearer(gm)).get_data(as_text=True)
    final = text[text.index("## Standings"):]
    assert "| Artoria | 5 (faction 5) | 0 | 0 | 0 | 0 | 5 |" in final and "- Result: Normal succession: Artoria wins" in final
    assert "アルトリア" not in final


def starting_cards_and_a_skipped_turn(game):
    """Seed 準備③ and G-1: the GM enters the two starting row cards one by one, then skips a turn."""
    game["act"]("setup", {"first": "s1"})
    game["act"]("start_card", {"card": "5"})
    game["act"]("start_card", {"card": "+2"})
    game["act"]("skip_turn", {"force": True, "reason": "離席"})


def documented_games(client, every_event=False):
    """The games the documented-fields tests play (the view's here, the events' in test_web_api.py), each as (session
    id, tokens of the GM, the table and every seat, play), `play()` not yet run: a whole one to its score and a
    rematch, one won by the grails, one in score-only mode; with `every_event` also those that write the event types
    these leave out (the starting row entered card by card, a skipped turn)."""
    flows = [test_a_whole_game_through_the_api, test_three_grails_end_the_game_on_every_screen,
             test_score_only_mode_with_phones]
    if every_event:
        flows += [starting_cards_and_a_skipped_turn]
    yield from games_to_play(flows, lambda: new_game(client))


def test_the_view_has_exactly_the_documented_fields(client):
    """docs/rulesets/succession.md §4 lists every field of `state.ruleset` and of the objects in it: games through
    the API (a whole one to its score and a rematch, one won by the grails, one in score-only mode), seen by the GM,
    the table and both seats after every step, carry exactly those, none missing and none unnamed."""
    views = []
    for sid, tokens, play in documented_games(client):
        views += ruleset_views(client, sid, tokens, play)
    assert undocumented(views, "docs/rulesets/succession.md", "## 4. `state.ruleset`") == {}


def test_g1_a_phone_shows_its_hand_once(client, game):
    """Play-through: a succession phone said its hand twice once the game was set up, in the panel's line
    (「手札 5 · まだ取れる」) and again in core's 「あなたの席」 card under it, as ace_royal's coins were. The panel's line
    is the one left (`Ruleset.phone_counters`); before the setup, and in score-only mode (no hand is kept there), core's
    card still shows it."""
    sid = game["sid"]
    phone = open_link(client.application, f"/join/{sid}?k={game['tokens']['s1']}")

    def shown():
        """Core's cards of its counters and the panel's hand lines, on its own part of the page."""
        html = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
        own = html.split('<div class="other">', 1)[0]
        return own.count('class="card mine-card"'), own.count('id="sc-my-hand"')

    assert shown() == (1, 0)  # before the setup: core's card only
    game["act"]("setup", {"first": "s1", "row": ["5", "6"]})
    assert shown() == (0, 1)
    score_only = new_game(client)
    score_only["act"]("setup", {"first": "s1", "mode": "score"})
    phone = open_link(client.application, f"/join/{score_only['sid']}?k={score_only['tokens']['s1']}")
    html = phone.get(f"/s/{score_only['sid']}/phone").get_data(as_text=True).split('<div class="other">', 1)[0]
    assert html.count('class="card mine-card"') == 1 and 'id="sc-my-hand"' not in html
