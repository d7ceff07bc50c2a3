"""The dice a game rolls through its own actions (EventType.rolls) are listed on every screen's ロール / Rolls panel,
with core's rolls: the phones, the GM console and the table said 「まだダイスは振られていません」 after a game's
first-player die, order 2d6, attack 2d6, battle and escape 1d100, combat dice."""

from __future__ import annotations

import re

from gmtool_testing import ADMIN_KEY, bearer, open_link
from test_ace_royal_api import set_up_game, start_and_attack_s2
from test_ace_royal_api import new_game as new_ace_royal
from test_grail_api import answer, call, new_grail, started, to_final
from test_illuminati_api import attack_on_kgb
from test_illuminati_api import new_game as new_illuminati

NO_ROLLS = {"ja": "まだダイスは振られていません", "en": "No dice rolled yet"}


def roll_lists(app, links: dict, sid: str, lang: str) -> dict[str, list[str]]:
    """{screen: the text of each roll its live fragment lists (its last Rolls panel: the
    table's history, not its strip of three), in order, without rule codes}; a
    screen whose panel says no dice were rolled fails."""
    pages = {"gm": "gm", "table": "table"}
    out = {}
    for who, url in links.items():
        browser = open_link(app, url)
        html = browser.get(f"/s/{sid}/{pages.get(who, 'phone')}?lang={lang}",
                           headers={"HX-Request": "true"}).get_data(as_text=True)
        assert NO_ROLLS[lang] not in html, who
        panels = re.findall(r'<ol class="rolls">(.*?)</ol>', html, re.S)
        assert panels, who
        items = re.findall(r'<li class="roll[^"]*">(.*?)</li>', panels[-1], re.S)
        # the rule codes behind the 根拠 toggle left out
        out[who] = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r'<small class="rule">.*?</small>', "", item)))
                    .strip() for item in items]
    return out


def links_of(data: dict) -> dict[str, str]:
    """The GM's, the table's and every seat's link of a session made through the API."""
    return {"gm": data["gm_url"], "table": data["table_url"], **{s["id"]: s["join_url"] for s in data["seats"]}}


def new_session(client, ruleset: str, seats: list[str]) -> dict:
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "ダイス", "ruleset": ruleset,
                                                                      "seats": seats})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def assert_listed(lists: dict[str, list[str]], expected: list[str]) -> None:
    """Every screen lists `expected` (each a roll's text, whole), in this order among its rolls."""
    for who, rolls in lists.items():
        found = [next((i for i, roll in enumerate(rolls) if roll == want), None) for want in expected]
        assert None not in found and found == sorted(found), (who, expected, rolls)


def test_g1_the_first_player_dice_are_listed_and_an_undo_takes_them_back(app, client):
    data = new_session(client, "succession", ["アルトリア", "ギルガメッシュ"])
    sid, gm = data["session"], bearer(data["gm_token"])
    r = client.post(f"/api/sessions/{sid}/actions/setup", headers=gm,
                    json={"first": "dice", "faces": [3, 3, 2, 5], "row": ["5", "6"]})  # a tie, then 2 vs 5
    assert r.status_code == 200, r.get_json()
    links = links_of(data)
    assert_listed(roll_lists(app, links, sid, "ja"), ["実ダイス アルトリア 先手決め 1D6 → 3 / 2 2",
                                                     "実ダイス ギルガメッシュ 先手決め 1D6 → 3 / 5 5"])
    assert_listed(roll_lists(app, links, sid, "en"), ["real dice アルトリア Who starts 1D6 → 3 / 2 2",
                                                     "real dice ギルガメッシュ Who starts 1D6 → 3 / 5 5"])
    # a screen reader hears every roll of the event, in the order rolled, on the table and the console alike (only the
    # newest was read, and on the console none the GM's action rolled); each once: a key of its own
    for who in ("gm", "table"):
        html = open_link(app, links[who]).get(f"/s/{sid}/{who}", headers={"HX-Request": "true"}).get_data(as_text=True)
        said = re.findall(r'data-news="(roll-[^"]*)" data-say="([^"]*)"', html)
        assert [words for _, words in said] == ["アルトリア · 先手決め: 2", "ギルガメッシュ · 先手決め: 5"], (who, said)
        assert len({key for key, _ in said}) == 2, said
    # the API's rolls stay dice.rolled only (docs/api.md): the game's are in its log
    assert client.get(f"/api/sessions/{sid}/state", headers=gm).get_json()["rolls"] == []
    assert client.post(f"/api/sessions/{sid}/undo", headers=gm, json={}).status_code == 200
    for who, url in links.items():
        html = open_link(app, url).get(f"/s/{sid}/{who if who in ('gm', 'table') else 'phone'}",
                                       headers={"HX-Request": "true"}).get_data(as_text=True)
        assert "先手決め" not in html, who  # undone: no roll of it is left


def test_i3_i5_the_order_and_attack_dice_are_listed(app, client):
    game = new_illuminati(client)
    attack_on_kgb(game)  # the order: 6+6, 5+5, 4+4, 3+3
    game["act"]("roll_attack", {"faces": [5, 6]}, who="s1")
    r = client.get(f"/api/sessions/{game['sid']}/state", headers=bearer(game["tokens"]["gm"]))
    data = {"gm_url": f"/s/{game['sid']}/gm?k={game['tokens']['gm']}",
            "table_url": f"/s/{game['sid']}/table?k={game['tokens']['table']}",
            "seats": [{"id": s["id"], "join_url": f"/join/{game['sid']}?k={game['tokens'][s['id']]}"}
                      for s in r.get_json()["seats"]]}
    names = {s["id"]: s["name"] for s in r.get_json()["seats"]}
    lists = roll_lists(app, links_of(data), game["sid"], "en")
    assert_listed(lists, ["real dice アリス Attack roll 2D6 → [5,6] → 11 11"] if names["s1"] == "アリス" else [
        f"real dice {names['s1']} Attack roll 2D6 → [5,6] → 11 11"])
    # with their faces, as every game's dice (they read 「2D6 → 12」: the totals only)
    assert_listed(lists, [f"real dice {names[s]} Play order 2D6 → [{face},{face}] → {2 * face} {2 * face}"
                          for s, face in zip(["s1", "s2", "s3", "s4"], [6, 5, 4, 3])])
    for rolls in lists.values():  # the failed attack reads as a failure, as a failed roll of core's
        assert rolls[0].startswith("real dice") and "Attack roll" in rolls[0]


def test_t10_t12_the_battle_and_escape_dice_are_listed(app, client):
    grail = new_grail(client)
    to_final(client, grail)
    call(client, grail, "next_step", {"faces": [90, 10]})
    lists = roll_lists(app, links_of(grail), grail["session"], "ja")
    assert [r for r in lists["s1"] if "勝敗判定" in r][:2] == [
        r for r in lists["gm"] if "勝敗判定" in r][:2] == [r for r in lists["table"] if "勝敗判定" in r][:2]
    battle = [r for r in lists["s2"] if "勝敗判定" in r]
    assert battle[0].startswith("実ダイス 勝敗判定 セイバー陣営 1D100 → [90]"), battle
    assert battle[1].startswith("実ダイス 勝敗判定 アーチャー陣営 1D100 → [10]"), battle  # no roller: not the GM's dice
    # the table's screen reader says the newest roll without its rule code
    table = open_link(app, links_of(grail)["table"]).get(f"/s/{grail['session']}/table?lang=ja",
                                                         headers={"HX-Request": "true"}).get_data(as_text=True)
    said = re.findall(r'data-news="roll-[^"]*" data-say="([^"]*)"', table)
    assert said and all("T-10" not in s and not s.startswith(("GM", " ·")) for s in said), said
    assert said[0].startswith("勝敗判定 "), said

    grail = new_grail(client)
    a, b = started(client, grail)
    answer(client, grail, "c1-setup", {**a, "seal": 1}, "s1")
    answer(client, grail, "c1-setup", b, "s2")
    call(client, grail, "escape", {"faction": "s1", "faces": [90, 10]})
    assert_listed(roll_lists(app, links_of(grail), grail["session"], "en"), [
        "real dice Escape check: セイバー陣営 (escaper) 1D100 → [90] → 90 90",
        "real dice Escape check (pursuer) 1D100 → [10] → 10 10"])


def test_a5_a8_a7_the_first_master_combat_and_steal_dice_are_listed(app, client):
    game = new_ace_royal(client)
    act, sid, tokens = game["act"], game["sid"], game["tokens"]
    set_up_game(act, "quick")
    start_and_attack_s2(act)
    act("combat_choose", {"kind": "magical"}, who="s1")
    act("combat_roll", {"faces": [1, 6]}, who="s1")  # a 1 is added and rolled again
    act("combat_roll", {"faces": [2]}, who="s2")
    act("combat_choose", {"kind": "magical"}, who="s2")
    act("combat_resolve", {"faces": [4]})  # s1 steals: the 4th card of s2's hand
    data = {"gm_url": f"/s/{sid}/gm?k={tokens['gm']}", "table_url": f"/s/{sid}/table?k={tokens['table']}",
            "seats": [{"id": s, "join_url": f"/join/{sid}?k={tokens[s]}"} for s in ("s1", "s2", "s3")]}
    lists = roll_lists(app, links_of(data), sid, "ja")
    assert_listed(lists, ["実ダイス 凛 奪うカード 1D4 → [4] 4", "実ダイス ウェイバー 戦闘ダイス 1D6 → [2] 2",
                          "実ダイス 凛 戦闘ダイス 1D6 → [1,6] 7", "実ダイス 凛 最初のアクティブマスター決定 1D6 → 6 6",
                          "実ダイス ウェイバー 最初のアクティブマスター決定 1D6 → 3 3"])  # a phone lists the newest 5
    assert "実ダイス キャスター陣営 最初のアクティブマスター決定 1D6 → 2 2" in lists["gm"]
