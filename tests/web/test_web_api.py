"""The JSON API (docs/api.md): create, counters, rolls, prompts, undo, close; clear bilingual errors."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from importlib import import_module

import pytest

from gmtool_testing import ADMIN_KEY, ROOT, bearer, open_link, table_rows, undocumented
import test_sugoroku_api as sugoroku
from gmtool.core.commitments import verify
from gmtool.core.dice import die_value
from gmtool.rulesets import get as get_ruleset
from gmtool.web.common import csrf_for


def state_of(client, sid, token):
    return client.get(f"/api/sessions/{sid}/state", headers=bearer(token)).get_json()


def seat_counters(state, seat):
    return next(s for s in state["seats"] if s["id"] == seat)["counters"]


def assert_error(response, status, en_fragment=""):
    assert response.status_code == status, response.get_data(as_text=True)
    error = response.get_json()["error"]
    assert error["status"] == status
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", error["ja"])
    assert en_fragment in error["en"]
    return error


# -- creating a session --------------------------------------------------------

def test_create_session_returns_links_and_tokens(created):
    assert set(created) >= {"session", "gm_url", "gm_token", "table_url", "table_token", "seats"}
    sid = created["session"]
    assert created["title"] == "聖杯戦争テスト" and created["ruleset"] == "generic"
    assert created["gm_url"] == f"http://localhost/s/{sid}/gm?k={created['gm_token']}"
    assert created["table_url"] == f"http://localhost/s/{sid}/table?k={created['table_token']}"
    assert [(s["id"], s["name"], s["faction"]) for s in created["seats"]] == [
        ("s1", "セイバー", "衛宮"), ("s2", "アーチャー", "遠坂"), ("s3", "ランサー", "")]
    for seat in created["seats"]:
        assert set(seat) >= {"id", "name", "token", "join_url"}
        assert seat["join_url"] == f"http://localhost/join/{sid}?k={seat['token']}"


def test_tokens_have_at_least_128_bits_and_are_distinct(created):
    tokens = [created["gm_token"], created["table_token"]] + [s["token"] for s in created["seats"]]
    for token in tokens:
        assert len(token) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)
    assert len(set(tokens)) == len(tokens)


def test_tokens_are_stored_only_as_hashes(app, created):
    path = app.extensions["gmtool"].path_of(created["session"])
    raw = path.read_bytes()
    assert created["gm_token"].encode() not in raw
    assert hashlib.sha256(created["gm_token"].encode()).hexdigest().encode() in raw


def test_private_counters_from_the_create_request(client, created):
    state = state_of(client, created["session"], created["gm_token"])
    assert [(c["key"], c["public"]) for c in state["counters"]] == [
        ("seals", True), ("mana", False), ("karma", True), ("vp", True)]


def test_private_applies_to_the_default_counters_and_hides_their_values(client, admin):
    """`private` without `counters` makes the generic defaults' counter private (it was ignored: everyone saw it)."""
    made = client.post("/api/sessions", headers=admin,
                       json={"title": "x", "seats": ["甲", "乙"], "private": ["mana"]}).get_json()
    sid, gm = made["session"], made["gm_token"]
    assert [(c["key"], c["public"]) for c in state_of(client, sid, gm)["counters"]] == [
        ("seals", True), ("mana", False), ("vp", True)]
    s1 = made["seats"][0]["id"]
    assert client.post(f"/api/sessions/{sid}/counters", headers=bearer(gm),
                       json={"seat": s1, "key": "mana", "value": 7}).status_code == 200
    other = state_of(client, sid, made["seats"][1]["token"])
    assert "mana" not in seat_counters(other, s1)
    assert seat_counters(state_of(client, sid, made["seats"][0]["token"]), s1)["mana"] == 7


@pytest.mark.parametrize("body, en", [
    ({"title": ""}, "title"),
    ({"title": "x", "private": ["nope"]}, "does not have: 'nope'"),
    ({"title": "x", "counters": ["seals"], "private": ["mana"]}, "does not have: 'mana'"),
    ({"title": "x", "private": "mana"}, "must be a list of counter keys"),
    ({"title": "x", "private": [5]}, "must be a list of counter keys"),
    ({"title": "x", "ruleset": "succession", "seats": ["a", "b"], "private": ["vp"]}, "defines its own counters"),
    ({"title": "x", "ruleset": "nope"}, "Unknown ruleset"),
    ({"title": "x", "seats": ["甲", "甲"]}, "same name"),
    ({"title": "x", "seats": [f"p{i}" for i in range(13)]}, "At most 12"),
    ({"title": "x", "counters": "seals"}, "must be a list"),
    ({"title": "x", "counters": ["魔力,5,0,3"]}, "start value"),
    ({"title": "x", "counters": ["seals", "seals"]}, "twice"),
    ({"title": "x", "seats": 5}, "must be a list"),
])
def test_create_session_rejects_bad_input_with_400(client, admin, body, en):
    response = client.post("/api/sessions", headers=admin, json=body)
    assert_error(response, 400, en)
    assert client.get("/api/sessions", headers=admin).get_json()["sessions"] == []


def test_create_session_reads_seats_from_text_one_per_line(client, admin):
    response = client.post("/api/sessions", headers=admin, json={"title": "x", "seats": "甲 / 陣営A\n乙\n\n"})
    assert response.status_code == 201
    assert [(s["name"], s["faction"]) for s in response.get_json()["seats"]] == [("甲", "陣営A"), ("乙", "")]


# -- counters -------------------------------------------------------------------

def test_counter_change_by_delta_and_value(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    response = client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s1", "key": "seals", "delta": -1})
    assert response.status_code == 200
    assert response.get_json().items() >= {"seat": "s1", "key": "seals", "value": 2, "flags": []}.items()
    response = client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s3", "key": "karma", "value": 9})
    assert response.get_json()["flags"] == ["subjugation"]
    state = state_of(client, sid, created["table_token"])
    s3 = next(s for s in state["seats"] if s["id"] == "s3")
    assert s3["flags"] == [{"flag": "subjugation", "label": {"ja": "討伐令", "en": "Subjugation order"}}]


def test_counter_out_of_range_is_400_with_ja_and_en_and_state_unchanged(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    before = state_of(client, sid, created["gm_token"])
    response = client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s1", "key": "seals", "delta": -4})
    error = assert_error(response, 400, "must be from 0 to 3")
    assert "令呪" in error["ja"] and "範囲" in error["ja"]
    assert error["message"] == f"{error['ja']} / {error['en']}"
    assert state_of(client, sid, created["gm_token"]) == before


def test_counter_same_value_and_unknowns(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    url = f"/api/sessions/{sid}/counters"
    assert_error(client.post(url, headers=gm, json={"seat": "s1", "key": "seals", "value": 3}), 400, "already 3")
    assert_error(client.post(url, headers=gm, json={"seat": "s9", "key": "seals", "delta": 1}), 404)
    assert_error(client.post(url, headers=gm, json={"seat": "s1", "key": "hp", "delta": 1}), 404)
    assert_error(client.post(url, headers=gm, json={"seat": "s1", "key": "seals"}), 400)
    # docs/api.md §6: a change that is no whole number names what was sent, JSON's true as JSON spells it
    assert_error(client.post(url, headers=gm, json={"seat": "s1", "key": "seals", "delta": "x"}), 400,
                 "The change must be a whole number (got 'x')")
    assert_error(client.post(url, headers=gm, json={"seat": "s1", "key": "seals", "delta": True}), 400,
                 "The change must be a whole number (got 'true')")
    # §7: `null` (or "", what the console's form sends for the box left empty) is a field not given: a client that
    # writes every field, the unused one as null, changes by the other; both null is neither given
    assert_error(client.post(url, headers=gm, json={"seat": "s1", "key": "seals", "delta": None, "value": None}), 400,
                 "Give either a change (delta) or a new value")
    assert client.post(url, headers=gm, json={"seat": "s1", "key": "seals", "delta": None, "value": 2}).get_json()[
        "value"] == 2
    assert client.post(url, headers=gm, json={"seat": "s1", "key": "seals", "delta": -1, "value": ""}).get_json()[
        "value"] == 1


def test_counter_request_without_seat_or_key_names_the_missing_field(client, created):
    """docs/api.md, section 7: a missing `seat` or `key` is a 400 naming the field (not a 404 about 'None')."""
    sid, gm = created["session"], bearer(created["gm_token"])
    url = f"/api/sessions/{sid}/counters"
    before = state_of(client, sid, created["gm_token"])
    assert_error(client.post(url, headers=gm, json={"key": "seals", "delta": 1}), 400, "Give the seat")
    for body in ({"seat": "s1", "delta": 1}, {"seat": "s1", "key": "", "delta": 1}):
        error = assert_error(client.post(url, headers=gm, json=body), 400, "Give the counter")
        assert "None" not in error["message"]
    assert state_of(client, sid, created["gm_token"]) == before


def test_seat_cannot_change_counters(client, created):
    sid = created["session"]
    response = client.post(f"/api/sessions/{sid}/counters", headers=bearer(created["seats"][0]["token"]),
                           json={"seat": "s1", "key": "seals", "delta": 1})
    assert_error(response, 403, "Only the GM")


@pytest.mark.parametrize("data, content_type", [
    ("{not json", "application/json"),
    ("[1, 2]", "application/json"),
    ('"text"', "application/json"),
    ("seat=s1&key=seals&delta=1", "application/x-www-form-urlencoded"),
    ("\xff\xfe", "application/json"),
])
def test_bad_json_body_is_400(client, created, data, content_type):
    sid = created["session"]
    response = client.post(f"/api/sessions/{sid}/counters", headers=bearer(created["gm_token"]), data=data,
                           content_type=content_type)
    assert_error(response, 400, "JSON")
    assert seat_counters(state_of(client, sid, created["gm_token"]), "s1")["seals"] == 3


@pytest.mark.parametrize("method, path", [
    ("GET", "/api/sessions/nosuch/state"), ("GET", "/api/sessions/nosuch/log"),
    ("POST", "/api/sessions/nosuch/counters"), ("POST", "/api/sessions/nosuch/undo"),
    ("GET", "/api/sessions/..%2F..%2Fetc/state"), ("GET", "/s/nosuch/gm"), ("GET", "/join/nosuch?k=x"),
])
def test_unknown_session_is_404(client, created, method, path):
    response = client.open(path, method=method, headers=bearer(created["gm_token"]), json={})
    assert response.status_code == 404



@pytest.mark.parametrize("method, path, status, en", [
    ("GET", "/api", 404, "Not found"), ("POST", "/api", 404, "Not found"), ("GET", "/api/", 404, "Not found"),
    ("GET", "/api/nowhere", 404, "Not found"), ("POST", "/api/health", 405, "Method not allowed"),
    ("DELETE", "/api/sessions", 405, "Method not allowed"), ("GET", "/api/sessions/import", 405, "Method not allowed"),
])
def test_every_error_of_the_api_is_json_also_its_base_address(client, method, path, status, en):
    """docs/api.md §2: every error under /api/, unknown routes and wrong methods included, is the JSON error. The
    API's own base address without its slash (`/api`, what a client configured with `BASE=…/api` asks first) was the
    screens' HTML error page."""
    assert assert_error(client.open(path, method=method), status, en)["en"] == en

# -- rolls ----------------------------------------------------------------------

def test_roll_returns_the_result_with_its_breakdown(client, created):
    sid = created["session"]
    response = client.post(f"/api/sessions/{sid}/rolls", headers=bearer(created["gm_token"]),
                           json={"expr": "2D6>=7", "label": "回避"})
    assert response.status_code == 201
    roll = response.get_json()
    assert roll["label"] == "回避" and roll["expr"] == "2D6>=7" and roll["by"] == "gm"
    assert roll["total"] == sum(roll["terms"][0]["rolls"])
    assert roll["success"] == (roll["total"] >= 7)


@pytest.mark.parametrize("expr", ["2D6+", "", "1D1001", "101D6", "hello", "choice[]", "D66+1"])
def test_bad_dice_expression_is_400_with_message(client, created, expr):
    sid = created["session"]
    response = client.post(f"/api/sessions/{sid}/rolls", headers=bearer(created["gm_token"]), json={"expr": expr})
    error = assert_error(response, 400)
    assert error["en"]
    assert state_of(client, sid, created["gm_token"])["rolls"] == []


# An expression over each limit of docs/api.md's Dice table, by the row's first cell, the error it names (the row
# "Dice per term / per expression" names two) and the expression as the error quotes it (`<expr>` in the table).
OVER_DICE_LIMITS = [("Expression length", "1D6+" * 49 + "1D666", 0, "1D6+" * 9 + "1D6…"),
                    ("Terms per expression", "+".join(["1D6"] * 21), 0, "1D6+" * 9 + "1D6…"),
                    ("Dice per term / per expression", " 101d6 ", 0, "101d6"),
                    ("Dice per term / per expression", "100D6+100D6+1D6", 1, "100D6+100D6+1D6"),
                    ("Sides", "1 d 1001", 0, "1 d 1001")]


@pytest.mark.parametrize("limit, expr, which, quoted", OVER_DICE_LIMITS)
def test_a_roll_over_a_dice_limit_is_refused_with_the_documented_words(client, created, limit, expr, which, quoted):
    """docs/api.md, Limits › Dice: each limit's own message, also the expression's length (a 201-character expression
    was refused by the request's text check, `The dice expression must be at most 200 characters`, not the table's),
    word for word in both languages with the expression it quotes (the table left out the `: '…'` the server adds)."""
    section = (ROOT / "docs/api.md").read_text(encoding="utf-8").split("\n### Dice\n", 1)[1].split("\n### ", 1)[0]
    row = next(line for line in section.splitlines() if line.startswith(f"| {limit} |"))
    en, ja = (re.findall(r"`([^`]+)`", cell)[which].replace("<expr>", quoted) for cell in row.split(" | ")[-2:])
    sid = created["session"]
    response = client.post(f"/api/sessions/{sid}/rolls", headers=bearer(created["gm_token"]), json={"expr": expr})
    error = assert_error(response, 400)
    assert (error["en"], error["ja"]) == (en, ja), (limit, error)
    assert state_of(client, sid, created["gm_token"])["rolls"] == []


def test_seat_can_roll_publicly_but_not_secretly(client, created):
    sid = created["session"]
    seat = bearer(created["seats"][1]["token"])
    assert client.post(f"/api/sessions/{sid}/rolls", headers=seat, json={"expr": "1D100"}).status_code == 201
    for expr in ("S2D6", "s1d6", "Schoice[a,b]"):
        assert_error(client.post(f"/api/sessions/{sid}/rolls", headers=seat, json={"expr": expr}), 403, "secret")
    assert len(state_of(client, sid, created["gm_token"])["rolls"]) == 1


def test_table_cannot_roll(client, created):
    sid = created["session"]
    response = client.post(f"/api/sessions/{sid}/rolls", headers=bearer(created["table_token"]), json={"expr": "1D6"})
    assert_error(response, 403)


def test_secret_roll_reveal_once(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    roll = client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "S1D20"}).get_json()
    assert roll["secret"] is True and roll["revealed"] is False
    assert state_of(client, sid, created["table_token"])["rolls"] == []
    assert client.post(f"/api/sessions/{sid}/rolls/{roll['seq']}/reveal", headers=gm).get_json()["revealed"] == roll[
        "seq"]
    assert state_of(client, sid, created["table_token"])["rolls"][0]["total"] == roll["total"]
    assert_error(client.post(f"/api/sessions/{sid}/rolls/{roll['seq']}/reveal", headers=gm), 409)
    assert_error(client.post(f"/api/sessions/{sid}/rolls/9999/reveal", headers=gm), 404)


def test_a_secret_roll_older_than_the_last_50_is_revealed_an_old_public_one_is_a_404(client, created):
    """docs/api.md 8 (reveal): the 404 for a roll older than the last 50 holds for a public roll only; a secret roll
    is revealed however old it is (the page said 404 for both), its roll's line in the table's log with its result, and
    the reveal's line names it by its label and result as a newer one's does (it read 'Secret roll #2 revealed')."""
    sid, gm = created["session"], bearer(created["gm_token"])
    secret = client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "S1D20", "label": "古い伏せ"}).get_json()
    public = client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "1D6"}).get_json()
    for _ in range(50):
        assert client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "1D6"}).status_code == 201
    error = assert_error(client.post(f"/api/sessions/{sid}/rolls/{public['seq']}/reveal", headers=gm), 404)
    assert error["en"] == "There is no such roll", error
    r = client.post(f"/api/sessions/{sid}/rolls/{secret['seq']}/reveal", headers=gm)
    assert r.status_code == 200 and r.get_json()["revealed"] == secret["seq"], r.get_json()
    log = client.get(f"/api/sessions/{sid}/log?lang=en&after={secret['seq'] - 1}&limit=1",
                     headers=bearer(created["table_token"])).get_json()["events"]
    assert log[0]["type"] == "dice.rolled" and log[0]["data"]["roll"]["total"] == secret["total"], log
    assert log[0]["text"].startswith("[secret] GM 古い伏せ: S1D20"), log
    newest = client.get(f"/api/sessions/{sid}/log?lang=en", headers=bearer(created["table_token"])).get_json()
    assert newest["events"][-1]["text"] == f"Secret roll (古い伏せ) revealed: GM {secret['text']}", newest["events"][-1]


def test_a_revealed_secret_roll_reads_with_its_label_and_result_until_the_reveal_is_undone(client, created):
    """The reveal's log line (the table's stage shows the newest) says which roll and what it came to, not its number
    (browser review); once the reveal is undone the roll is secret again and so is its result."""
    sid, gm = created["session"], bearer(created["gm_token"])
    roll = client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "S2D6", "label": "伏せ判定"}).get_json()
    client.post(f"/api/sessions/{sid}/rolls/{roll['seq']}/reveal", headers=gm)

    def newest(lang):
        log = client.get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(created["table_token"])).get_json()
        return log["events"][-1]["text"]
    assert newest("ja").startswith("秘密ロール「伏せ判定」を公開: GM S2D6") and str(roll["total"]) in newest("ja")
    assert newest("en").startswith("Secret roll (伏せ判定) revealed: GM S2D6"), newest("en")
    assert client.post(f"/api/sessions/{sid}/undo", headers=gm).status_code == 200
    log = client.get(f"/api/sessions/{sid}/log?lang=ja", headers=bearer(created["table_token"])).get_json()["events"]
    reveal = next(e for e in log if e["type"] == "dice.revealed")
    assert reveal["undone"] and reveal["text"] == "秘密ロールを公開", reveal  # no event number (players read none)


# -- undo and close -------------------------------------------------------------

def test_undo_through_the_api(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s2", "key": "karma", "value": 9})
    response = client.post(f"/api/sessions/{sid}/undo", headers=gm)
    assert response.status_code == 200
    assert "カルマ" in response.get_json()["undone"]["gm_summary"]
    state = state_of(client, sid, created["gm_token"])
    assert seat_counters(state, "s2")["karma"] == 0
    assert next(s for s in state["seats"] if s["id"] == "s2")["flags"] == []
    assert_error(client.post(f"/api/sessions/{sid}/undo", headers=gm), 409, "nothing to undo")
    assert_error(client.post(f"/api/sessions/{sid}/undo", headers=bearer(created["seats"][0]["token"])), 403)


def test_undo_takes_back_a_reading_switch_and_skips_what_is_not_undoable(client, created):
    """docs/api.md §9 / 14c: a reading switch is undoable (the list of §9 left it out); adding a seat, opening and
    answering a prompt are skipped: the undo after them takes back the switch made before them."""
    sid, gm = created["session"], bearer(created["gm_token"])
    client.post(f"/api/sessions/{sid}/readings", headers=gm, json={"key": "dice", "value": "entered"})
    client.post(f"/api/sessions/{sid}/seats", headers=gm, json={"name": "キャスター"})
    client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={"title": "q", "kind": "text", "seats": ["s1"]})
    client.post(f"/api/sessions/{sid}/prompts/p1/answer", headers=bearer(created["seats"][0]["token"]),
                json={"value": "x"})
    undone = client.post(f"/api/sessions/{sid}/undo", headers=gm).get_json()["undone"]
    assert undone["summary_en"] == "Reading switched: Dice → Faces of real dice rolled at the table are entered"
    state = state_of(client, sid, created["gm_token"])
    assert state["readings"][0]["value"] == "server" and len(state["seats"]) == 4 and state["prompts"][0]["answered"]

def test_close_publishes_the_seed_and_further_changes_conflict(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    rolls = [client.post(f"/api/sessions/{sid}/rolls", headers=gm, json={"expr": "3D6"}).get_json() for _ in range(2)]
    seed_hash = state_of(client, sid, created["table_token"])["session"]["seed_hash"]
    response = client.post(f"/api/sessions/{sid}/close", headers=gm)
    assert response.status_code == 200
    closed = response.get_json()
    assert closed["closed"] is True and closed["seed_hash"] == seed_hash
    seed = bytes.fromhex(closed["seed"])
    assert hashlib.sha256(seed).hexdigest() == seed_hash
    table = state_of(client, sid, created["table_token"])
    assert table["session"]["closed"] is True and table["session"]["seed"] == closed["seed"]
    drawn = [v for r in rolls for v in r["terms"][0]["rolls"]]
    assert drawn == [die_value(seed, i, 6) for i in range(6)]
    for path, body in (("counters", {"seat": "s1", "key": "seals", "delta": -1}), ("rolls", {"expr": "1D6"}),
                       ("close", {}), ("prompts", {"title": "Q", "kind": "choice", "options": ["A", "B"]})):
        assert_error(client.post(f"/api/sessions/{sid}/{path}", headers=gm, json=body), 409, "closed")


def test_a_ruleset_action_on_a_closed_session_is_checked_in_the_documented_order(client):
    """docs/api.md 14b: 403 for the table, 404 for a name the ruleset has not, 403 for a seat's GM step, then 409 for
    a closed session before any field is read: grail's `answer` without its prompt said 400 `Give the prompt` on a
    closed session (and sugoroku's `battle_card` 400 for its missing fields) where every other step said 409."""
    made = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "g", "ruleset": "grail_trpg", "seats": ["A", "B"]}).get_json()
    sid, gm = made["session"], bearer(made["gm_token"])
    seat, table = bearer(made["seats"][0]["token"]), bearer(made["table_token"])
    assert client.post(f"/api/sessions/{sid}/close", headers=gm).status_code == 200
    for who, name, status, en in ((table, "nope", 403, "The table screen cannot act"),
                                  (gm, "nope", 404, "This ruleset has no action 'nope'"),
                                  (seat, "start_combat", 403, "Only the GM"),
                                  (gm, "answer", 409, "This session is closed"), (seat, "answer", 409, "closed"),
                                  (gm, "start_combat", 409, "This session is closed")):
        assert_error(client.post(f"/api/sessions/{sid}/actions/{name}", headers=who, json={}), status, en)


def test_a_prompt_left_open_at_the_close_is_closed_unrevealed_for_every_viewer(app, client, created):
    """The last session found a prompt left open (or locked) at the close still `open` in every view, its phone still
    offering the answer form. The close closes it with the session (status `closed`, reason 「セッション終了」): no
    answer is shown by it to anyone but its author, not even to the GM, who could see them before (as a cancelled
    prompt's); a prompt revealed before stays revealed. The close cannot be undone, so it stays closed."""
    sid, gm = created["session"], bearer(created["gm_token"])
    s1, s2 = (bearer(s["token"]) for s in created["seats"][:2])
    ask = {"title": "誰を狙う", "kind": "choice", "options": ["A", "B"], "seats": ["s1", "s2"]}
    left_open, locked, revealed = (client.post(f"/api/sessions/{sid}/prompts", headers=gm, json=ask).get_json()["id"]
                                   for _ in range(3))
    for pid, seats in ((left_open, (s1,)), (locked, (s1,)), (revealed, (s1, s2))):
        for seat in seats:
            assert client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=seat, json={"value": "B"}).status_code == 200
    assert client.post(f"/api/sessions/{sid}/prompts/{locked}/lock", headers=gm).status_code == 200
    assert state_of(client, sid, created["gm_token"])["prompts"][2]["answers"]["s1"]["value"] == "B"  # before: the GM's
    phone = open_link(app, created["seats"][1]["join_url"])
    assert f'id="ask-{left_open}"' in phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert client.post(f"/api/sessions/{sid}/close", headers=gm).status_code == 200
    closed = {"ja": "セッション終了", "en": "Session closed"}
    for token, own in ((created["gm_token"], None), (created["table_token"], None),
                       (created["seats"][0]["token"], "s1"), (created["seats"][1]["token"], "s2")):
        prompts = {p["id"]: p for p in state_of(client, sid, token)["prompts"]}
        for pid in (left_open, locked):
            for p in (prompts[pid], client.get(f"/api/sessions/{sid}/prompts/{pid}", headers=bearer(token)).get_json()):
                assert (p["status"], p["revealed"], p["reason"], p["answers"], p["resolution"]) == (
                    "closed", False, closed, {}, None), (token, p)
                assert p["answered"] == ["s1"] and set(p["commitments"]) == {"s1"}
                assert (p["your_answer"] or {}).get("value") == ("B" if own == "s1" else None)
        assert prompts[revealed]["status"] == "revealed" and prompts[revealed]["answers"]["s2"]["value"] == "B"
    for token in (created["gm_token"], created["table_token"], created["seats"][1]["token"]):
        log = client.get(f"/api/sessions/{sid}/log", headers=bearer(token)).get_json()["events"]
        answers = [e["data"] for e in log if e["type"] == "prompt.answered" and e["data"]["prompt"] != revealed]
        assert answers and all("value" not in a for a in answers)
    page = phone.get(f"/s/{sid}/phone").get_data(as_text=True)
    assert f'id="ask-{left_open}"' not in page and f'id="ask-{locked}"' not in page
    assert f'class="prompt prompt-closed" id="prompt-{left_open}"' in page and "終了（非公開）" in page  # read, not asked
    assert_error(client.post(f"/api/sessions/{sid}/undo", headers=gm), 409, "closed")
    assert_error(client.post(f"/api/sessions/{sid}/prompts/{left_open}/answer", headers=s2, json={"value": "A"}), 409)
    assert state_of(client, sid, created["table_token"])["prompts"][2]["status"] == "closed"


# -- prompts ---------------------------------------------------------------------

def test_prompt_round_trip_with_commitments(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    s1, s2 = (bearer(s["token"]) for s in created["seats"][:2])
    response = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "1stセレクト", "kind": "choice", "options": ["筋力", "耐久", "敏捷"], "seats": ["s1", "s2"],
        "resolver": "cancel_duplicates"})
    assert response.status_code == 201
    pid = response.get_json()["id"]
    first = client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=s1, json={"value": "筋力"}).get_json()
    assert first["status"] == "open" and verify(first["salt"], "筋力", first["commitment"])
    assert len(first["salt"]) >= 16
    table = state_of(client, sid, created["table_token"])["prompts"][0]
    assert table["commitments"] == {"s1": first["commitment"]} and table["answers"] == {}
    assert_error(client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=bearer(created["seats"][2]["token"]),
                             json={"value": "筋力"}), 403, "not for you")
    assert_error(client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=s2, json={}), 400, "missing")
    assert_error(client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=s2, json={"value": "宝具"}), 400)
    second = client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=s2, json={"value": "筋力"}).get_json()
    assert second["status"] == "revealed"
    table = state_of(client, sid, created["table_token"])["prompts"][0]
    assert table["answers"]["s1"]["value"] == "筋力" and table["answers"]["s2"]["salt"] == second["salt"]
    assert table["resolution"]["winners"] == []  # I-2: both chose 筋力, both set aside
    assert_error(client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=s1, json={"value": "耐久"}), 409)


def test_prompt_actions_through_the_api(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    s1, s2 = (bearer(s["token"]) for s in created["seats"][:2])
    pid = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "勝負", "kind": "number", "seats": ["s1"], "resolver": "highest", "min": 0, "max": 100}).get_json()["id"]
    extended = client.post(f"/api/sessions/{sid}/prompts/{pid}/extend", headers=gm, json={"seats": "s2"})
    assert extended.status_code == 200 and extended.get_json()["seats"] == ["s1", "s2"]
    client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=s1, json={"value": 30})
    client.post(f"/api/sessions/{sid}/prompts/{pid}/answer", headers=s2, json={"value": "25"})
    modified = client.post(f"/api/sessions/{sid}/prompts/{pid}/modifiers", headers=gm,
                           json={"who": "s2", "amount": 10, "label": "怪力"}).get_json()
    assert modified["resolution"]["winners"] == ["s2"]
    confirmed = client.post(f"/api/sessions/{sid}/prompts/{pid}/confirm", headers=gm).get_json()
    assert confirmed["confirmed"] is True
    assert_error(client.post(f"/api/sessions/{sid}/prompts/{pid}/confirm", headers=gm), 409)
    assert_error(client.post(f"/api/sessions/{sid}/prompts/{pid}/frobnicate", headers=gm), 404, "Unknown operation")
    assert_error(client.post(f"/api/sessions/nosuchp/prompts/{pid}/lock", headers=gm), 404)
    assert_error(client.post(f"/api/sessions/{sid}/prompts/p99/lock", headers=gm), 404)


def test_the_reason_given_with_a_lock_is_in_its_log_line(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    pid = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "使う宝具", "kind": "choice", "options": ["a", "b"], "seats": ["s1", "s2"]}).get_json()["id"]
    client.post(f"/api/sessions/{sid}/prompts/{pid}/lock", headers=gm, json={"reason": "時間切れ"})
    for lang, line in (("ja", "「使う宝具」の回答を締め切り（時間切れ）"), ("en", "Answers to '使う宝具' locked (時間切れ)")):
        log = client.get(f"/api/sessions/{sid}/log?lang={lang}", headers=bearer(created["table_token"])).get_json()
        assert log["events"][-1]["text"] == line


def test_log_is_filtered_and_paged(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    for i in range(3):
        client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s1", "key": "vp", "delta": 1})
    events = client.get(f"/api/sessions/{sid}/log?after=1&limit=2", headers=gm).get_json()["events"]
    assert [e["seq"] for e in events] == [2, 3]
    assert all(e["text"] for e in events)
    english = client.get(f"/api/sessions/{sid}/log?lang=en", headers=gm).get_json()["events"]
    assert "created" in english[0]["text"]
    assert_error(client.get(f"/api/sessions/{sid}/log?after=x", headers=gm), 400)
    # docs/api.md §6: an empty parameter is one not given (it was a 400); `lang` in any case (`EN` gave Japanese)
    whole = client.get(f"/api/sessions/{sid}/log", headers=gm).get_json()["events"]
    assert client.get(f"/api/sessions/{sid}/log?after=&limit=&lang=", headers=gm).get_json()["events"] == whole
    assert client.get(f"/api/sessions/{sid}/log?lang=EN", headers=gm).get_json()["events"] == english
    assert client.get(f"/api/sessions/{sid}/log?lang=fr", headers=gm).get_json()["events"] == whole  # Japanese
    text = client.get(f"/api/sessions/{sid}/export?format=&names=&standings=&scene=&lang=En", headers=gm)
    assert text.status_code == 200 and text.mimetype == "text/markdown" and "Ruleset: " in text.get_data(as_text=True)


def test_the_apis_language_is_the_requests_own_not_a_cookie_left_by_an_earlier_one(client, created):
    """docs/api.md §2 / §6 / §14: log texts, exports and the campaign's outcomes are Japanese unless the request says
    `lang=en`. A client that keeps cookies (Flask's test client, a requests.Session, curl -b) got English for every
    later request once one had asked `?lang=en`: its answer sets the `lang` cookie, which is the screens' (they keep
    it, and get it still), and the API read it as the default."""
    sid, gm = created["session"], bearer(created["gm_token"])
    english = client.get(f"/api/sessions/{sid}/log?lang=en", headers=gm)
    assert "created" in english.get_json()["events"][0]["text"] and "lang=en" in english.headers["Set-Cookie"]
    assert client.get(f"/api/sessions/{sid}/log", headers=gm).get_json()["events"][0]["text"].startswith("セッション「")
    assert "ルール: " in client.get(f"/api/sessions/{sid}/export?format=text", headers=gm).get_data(as_text=True)
    assert "令呪" in client.get(f"/api/sessions/{sid}/campaign", headers=gm).get_json()["sessions"][0]["outcome"]
    assert "Ruleset: " in client.get(f"/api/sessions/{sid}/export?format=text&lang=en", headers=gm).get_data(as_text=True)
    page = client.get(f"/s/{sid}/gm?k={created['gm_token']}", follow_redirects=True).get_data(as_text=True)
    assert 'lang="en"' in page  # a screen still reads the cookie the API's ?lang=en left

def test_add_seat_through_the_api(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    response = client.post(f"/api/sessions/{sid}/seats", headers=gm, json={"name": "キャスター", "faction": "間桐"})
    assert response.status_code == 201
    seat = response.get_json()
    assert seat["id"] == "s4" and len(seat["token"]) >= 22 and seat["join_url"].endswith(seat["token"])
    assert client.get(f"/api/sessions/{sid}/state", headers=bearer(seat["token"])).get_json()["viewer"]["seat"] == "s4"
    assert_error(client.post(f"/api/sessions/{sid}/seats", headers=gm, json={"name": "キャスター"}), 400)


@pytest.mark.parametrize("ruleset, seats, message", [("succession", 3, "2"), ("ace_royal", 1, "2〜7"),
                                                     ("illuminati", 7, "2〜6")])
def test_a_game_is_created_only_with_the_seats_it_is_played_with(client, admin, ruleset, seats, message):
    r = client.post("/api/sessions", headers=admin, json={"title": "t", "ruleset": ruleset,
                                                         "seats": [f"P{i}" for i in range(seats)]})
    assert r.status_code == 400 and message in r.get_json()["error"]["ja"] and "seats" in r.get_json()["error"]["en"]
    assert client.get("/api/sessions", headers=admin).get_json()["sessions"] == []


def test_a_disabled_option_is_refused_with_its_reason_in_each_language(client, created):
    """docs/api.md 12.1: `disabled` maps a respondent to {option: reason}; a reason may be a plain text or, as
    the rulesets write them, {"ja", "en"}: the refusal carries the reason of its own language."""
    sid, gm = created["session"], bearer(created["gm_token"])
    opened = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "Pick", "options": ["STR", "DEX", "INT"], "seats": ["s1", "s2"],
        "disabled": {"s1": {"INT": "cursed"}, "s2": {"INT": {"ja": "呪い", "en": "cursed"}}}})
    assert opened.status_code == 201, opened.get_json()
    url = f"/api/sessions/{sid}/prompts/p1/answer"
    plain = assert_error(client.post(url, headers=bearer(created["seats"][0]["token"]), json={"value": "INT"}), 400)
    assert plain["en"] == "'INT' is not allowed: cursed"
    both = assert_error(client.post(url, headers=bearer(created["seats"][1]["token"]), json={"value": "INT"}), 400)
    assert both["ja"] == "「INT」は選べません：呪い" and both["en"] == "'INT' is not allowed: cursed"
    # docs/api.md §6: the prompt.opened event gives each respondent its own disabled options, as the state does (review:
    # every seat and the table read every seat's reasons in /log), the GM all of them
    tokens = {"gm": created["gm_token"], "table": created["table_token"], "s1": created["seats"][0]["token"],
              "s2": created["seats"][1]["token"], "s3": created["seats"][2]["token"]}
    disabled = {who: next(e["data"]["disabled"] for e in client.get(f"/api/sessions/{sid}/log", headers=bearer(token))
                          .get_json()["events"] if e["type"] == "prompt.opened") for who, token in tokens.items()}
    assert disabled == {"gm": {"s1": {"INT": "cursed"}, "s2": {"INT": {"ja": "呪い", "en": "cursed"}}},
                        "table": {}, "s1": {"s1": {"INT": "cursed"}}, "s2": {"s2": {"INT": {"ja": "呪い", "en": "cursed"}}},
                        "s3": {}}, disabled


@pytest.mark.parametrize("spec, status", [
    ({"seats": ["s1"], "disabled": {"gm": {"INT": "busy"}}}, 400),  # the GM does not answer: no respondent
    ({"seats": ["s1"], "disabled": {"s2": {"INT": "busy"}}}, 400),  # s2 is not asked
    ({"seats": ["s1"], "gm_submits": True, "disabled": {"gm": {"INT": "busy"}}}, 201),
])
def test_disabled_options_name_only_the_prompts_respondents(client, created, spec, status):
    """docs/api.md 12.1: `disabled` — "Respondents and options must exist": `"gm"` is one only with `gm_submits`
    (it was taken for any prompt, and the GM's list kept on one it never answers)."""
    sid, gm = created["session"], bearer(created["gm_token"])
    r = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={"title": "Pick", "options": ["STR", "INT"], **spec})
    assert r.status_code == status, r.get_json()
    if status == 400:
        assert r.get_json()["error"]["en"] == "'disabled' must map respondents to {option: reason}"
        assert state_of(client, sid, created["gm_token"])["prompts"] == []
    else:
        assert r.get_json()["disabled"] == {"INT": "busy"}


@pytest.mark.parametrize("spec, error", [
    ({"kind": "multi", "min": 5, "max": 9}, "No answer could satisfy this prompt: there is no way to pick 5 to 9 of its "
                                            "2 options"),
    ({"kind": "multi", "min": 3}, "No answer could satisfy this prompt: there is no way to pick 3 to 2 of its 2 options"),
    ({"kind": "multi", "max": -1}, "No answer could satisfy this prompt: there is no way to pick 1 to -1 of its 2 options"),
    ({"kind": "multi", "min": 2, "disabled": {"s2": {"INT": "cursed"}}},
     "アーチャー could never answer this prompt: it must pick 2, and only 1 of its options are not disabled for them"),
    ({"disabled": {"s1": {"INT": "cursed", "STR": "tired"}}},
     "セイバー could never answer this prompt: it must pick 1, and only 0 of its options are not disabled for them"),
    ({"seats": [], "gm_submits": True, "disabled": {"gm": {"INT": "", "STR": ""}}},
     "GM could never answer this prompt: it must pick 1, and only 0 of its options are not disabled for them"),
])
def test_a_prompt_nobody_could_answer_is_refused(client, created, spec, error):
    """docs/api.md 12.1 (review: a `multi` prompt picking 5 to 9 of 2 options was opened, 201, and could never be
    answered): a prompt one of whose respondents no answer could satisfy is a 400 in both languages, nothing opened."""
    sid, gm = created["session"], bearer(created["gm_token"])
    r = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "Pick", "options": ["STR", "INT"], "seats": ["s1", "s2"], **spec})
    assert r.status_code == 400 and r.get_json()["error"]["en"] == error, r.get_json()
    assert "答えられません" in r.get_json()["error"]["ja"]
    assert state_of(client, sid, created["gm_token"])["prompts"] == []
    fits = {**spec, "min": 2, "max": 2, "disabled": {}} if spec.get("kind") == "multi" else {**spec, "disabled": {}}
    r = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={  # one answer fits: opened
        "title": "Pick", "options": ["STR", "INT"], "seats": spec.get("seats", ["s1", "s2"]), **fits})
    assert r.status_code == 201, r.get_json()


def test_text_fields_are_trimmed_before_they_are_checked(client, created):
    """docs/api.md 2: "Text fields are trimmed of surrounding spaces before they are checked and stored" — a prompt's
    seats and resolver, the seats an extend adds, a choice or multi answer and a reading's value were compared as
    sent, so `" s1 "`, `" votes "`, `" a "` or `" entered "` were refused (the counter route's seat was trimmed)."""
    sid, gm = created["session"], bearer(created["gm_token"])
    opened = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "t", "options": ["a", "b"], "seats": [" s1 ", "s2"], "resolver": " votes "})
    assert opened.status_code == 201, opened.get_json()
    assert (opened.get_json()["seats"], opened.get_json()["resolver"]) == (["s1", "s2"], "votes")
    extended = client.post(f"/api/sessions/{sid}/prompts/p1/extend", headers=gm, json={"seats": " s3 "})
    assert extended.status_code == 200 and extended.get_json()["seats"] == ["s1", "s2", "s3"], extended.get_json()
    answered = client.post(f"/api/sessions/{sid}/prompts/p1/answer", headers=bearer(created["seats"][0]["token"]),
                           json={"value": " a "})
    assert answered.status_code == 200 and answered.get_json()["value"] == "a", answered.get_json()
    client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={"title": "m", "kind": "multi", "options": ["a", "b"]})
    multi = client.post(f"/api/sessions/{sid}/prompts/p2/answer", headers=bearer(created["seats"][0]["token"]),
                        json={"value": [" b", "a "]})
    assert multi.status_code == 200 and multi.get_json()["value"] == ["a", "b"], multi.get_json()
    switched = client.post(f"/api/sessions/{sid}/readings", headers=gm, json={"key": "dice", "value": " entered "})
    assert switched.status_code == 200 and switched.get_json()["readings"][0]["value"] == "entered", switched.get_json()


def test_an_answer_changed_before_the_reveal_stays_its_authors(client, created):
    """docs/api.md 12.2 / verify.md: after the reveal everyone sees the final answer; the replaced one keeps
    only its commitment in the log for everyone but its author."""
    sid, gm = created["session"], bearer(created["gm_token"])
    s1, s2 = created["seats"][0]["token"], created["seats"][1]["token"]
    client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={"title": "Bid", "kind": "number",
                                                                   "seats": ["s1", "s2"]})
    url = f"/api/sessions/{sid}/prompts/p1/answer"
    first = client.post(url, headers=bearer(s1), json={"value": 777}).get_json()
    # the same value again (a double tap) is no refusal: nothing written, the same commitment and salt (12.2)
    again = client.post(url, headers=bearer(s1), json={"value": 777})
    assert again.status_code == 200 and again.get_json() == first, again.get_json()
    client.post(url, headers=bearer(s1), json={"value": 778})
    assert client.post(url, headers=bearer(s2), json={"value": 3}).get_json()["status"] == "revealed"

    def answered(token):
        events = client.get(f"/api/sessions/{sid}/log", headers=bearer(token)).get_json()["events"]
        return [e["data"] for e in events if e["type"] == "prompt.answered" and e["data"]["by"] == "s1"]

    for token in (s2, created["table_token"], created["gm_token"]):
        earlier, final = answered(token)
        assert earlier == {"prompt": "p1", "by": "s1", "commitment": first["commitment"], "change": False}
        assert final["value"] == 778 and final["change"] is True
    assert [d["value"] for d in answered(s1)] == [777, 778]
    assert client.get(f"/api/sessions/{sid}/prompts/p1", headers=bearer(s2)).get_json()["answers"]["s1"]["value"] == 778


# -- text and number fields take what their docs say, nothing else (security review) --------------------------

@pytest.mark.parametrize("path, body, en", [
    ("scenes", {"title": {"a": 1}}, "must be text"),
    ("prompts", {"title": True, "kind": "choice", "options": ["a", "b"], "seats": ["s1"]}, "must be text"),
    ("rolls", {"expr": "1D6", "label": ["a"]}, "must be text"),
    ("counters", {"seat": "s1", "key": "mana", "delta": 1, "reason": {"x": 1}}, "must be text"),
    ("prompts", {"title": "t", "kind": "choice", "options": ["a", "b"], "seats": ["s1"], "gm_submits": "0x1f"},
     "must be true or false"),
    ("prompts", {"title": "t", "kind": "number", "options": ["1", "2"], "seats": ["s1"]}, "takes no options"),
    ("prompts", {"title": "t", "kind": "text", "options": ["a"], "seats": ["s1"]}, "takes no options"),
    ("counters", {"seat": "s1", "key": "mana", "delta": "1_000"}, "whole number (got '1_000')"),
    ("counters", {"seat": "s1", "key": "mana", "delta": "٣"}, "whole number (got '٣')"),
])
def test_a_field_of_the_wrong_kind_is_refused_and_changes_nothing(client, created, path, body, en):
    sid, gm = created["session"], created["gm_token"]
    before = state_of(client, sid, gm)
    assert_error(client.post(f"/api/sessions/{sid}/{path}", headers=bearer(gm), json=body), 400, en)
    assert state_of(client, sid, gm) == before


def test_line_breaks_are_spaces_controls_left_out_and_wide_digits_count(client, created):
    sid, gm = created["session"], bearer(created["gm_token"])
    added = client.post(f"/api/sessions/{sid}/seats", headers=gm, json={"name": "ダン\r\nテ"}).get_json()
    assert added["name"] == "ダン テ"
    # control characters and direction controls are left out (a pasted name may carry invisible isolates)
    assert client.post(f"/api/sessions/{sid}/seats", headers=gm, json={"name": "\u2068エ\x00ミ\u202eヤ\u2069"}
                       ).get_json()["name"] == "エミヤ"
    before = seat_counters(state_of(client, sid, created["gm_token"]), "s1")["mana"]
    assert client.post(f"/api/sessions/{sid}/counters", headers=gm,
                       json={"seat": "s1", "key": "mana", "delta": "＋３"}).status_code == 200
    assert seat_counters(state_of(client, sid, created["gm_token"]), "s1")["mana"] == before + 3
    made = client.post(f"/api/sessions/{sid}/prompts", headers=gm, json={
        "title": "t", "kind": "choice", "options": ["a", "b"], "seats": ["s1"], "gm_submits": "false"}).get_json()
    assert made["gm_submits"] is False  # the string "false" is no


def test_yes_no_fields_read_the_same_everywhere(client, admin):
    """A counter's `public` and a game action's yes/no field take true/false (or a form's on/1/0/""): the string
    "false" made a counter meant to be private public (bool("false") is True), and "maybe" counted as no."""
    made = client.post("/api/sessions", headers=admin, json={
        "title": "x", "seats": ["甲", "乙"], "counters": [{"key": "gold", "name": "Gold", "public": "false"}]}).get_json()
    assert [(c["key"], c["public"]) for c in state_of(client, made["session"], made["gm_token"])["counters"]] == [
        ("gold", False)]
    assert_error(client.post("/api/sessions", headers=admin, json={
        "title": "x", "counters": [{"key": "gold", "name": "Gold", "public": "maybe"}]}), 400, "'public' must be true or false")
    game = client.post("/api/sessions", headers=admin, json={
        "title": "x", "ruleset": "illuminati", "seats": ["甲", "乙", "丙"]}).get_json()
    url = f"/api/sessions/{game['session']}/actions/setup"
    before = state_of(client, game["session"], game["gm_token"])
    assert_error(client.post(url, headers=bearer(game["gm_token"]), json={"tournament": "maybe"}), 400,
                 "'tournament' must be true or false")
    assert state_of(client, game["session"], game["gm_token"]) == before


def _every_route(app, client) -> tuple[list[dict], list[dict]]:
    """A session driven through every route of docs/api.md (as the GM, the table and a seat; every kind of roll,
    prompt and resolver; a console setting; export, import, close, continue): every answer as {its name in
    section 17: its JSON}, and every event of the sessions it made as the GM reads them."""
    admin, answers = bearer(ADMIN_KEY), []

    def call(name, method, path, who, body=None, status=200):
        r = client.open(f"/api{path}", method=method, headers=who, json=body)
        assert r.status_code == status, (path, r.get_json())
        answers.append({name: r.get_json()})
        return r.get_json()

    call("health", "GET", "/health", {})
    call("error", "GET", "/sessions", {}, status=403)
    made = call("created", "POST", "/sessions", admin, {
        "title": "全項目", "seats": ["Alice / Red", "Bob", "Carol"], "private": ["mana"],
        "counters": ["seals", "mana", "karma", "vp"]}, status=201)
    sid, gm = made["session"], bearer(made["gm_token"])
    s1, s2, s3 = (bearer(s["token"]) for s in made["seats"])
    table = bearer(made["table_token"])
    viewers = (gm, table, s1, s2)
    s = f"/sessions/{sid}"
    call("sessions", "GET", "/sessions", admin)
    polled = client.get(f"/s/{sid}/version?as=gm", headers=admin)
    assert polled.status_code == 200
    answers.append({"version": polled.get_json()})
    call("counter", "POST", f"{s}/counters", gm, {"seat": "s1", "key": "karma", "delta": 9})
    call("counter", "POST", f"{s}/counters", gm, {"seat": "s1", "key": "mana", "value": 4})
    call("counter", "POST", f"{s}/counters", gm, {"seat": "s2", "key": "seals", "value": 4, "reason": "褒賞"})
    call("counter", "POST", f"{s}/counters", gm, {"seat": "s2", "key": "karma", "value": 9})
    call("counter", "POST", f"{s}/counters", gm, {"seat": "s2", "key": "karma", "value": 0})
    for expr, who in (("2D6+1>=7", gm), ("3D6!", s1), ("D66", gm), ("choice[a,b,c]", s2), ("4D6KH3-1D4", gm),
                      ("S2D6", gm)):
        seq = call("roll", "POST", f"{s}/rolls", who, {"expr": expr, "label": "x"}, status=201)["seq"]
    for who in viewers:
        call("state", "GET", f"{s}/state", who)  # the secret roll unrevealed
    call("roll_revealed", "POST", f"{s}/rolls/{seq}/reveal", gm)
    call("roll", "POST", f"{s}/rolls", gm, {"expr": "1D6"}, status=201)
    call("undo", "POST", f"{s}/undo", gm)
    call("seat_added", "POST", f"{s}/seats", gm, {"name": "Dave"}, status=201)
    call("token_reissued", "POST", f"{s}/seats/s3/token", gm)
    call("scene", "POST", f"{s}/scenes", gm, {"title": "Round 1"}, status=201)
    call("readings", "POST", f"{s}/readings", gm, {"key": "dice", "value": "entered"})
    call("readings", "POST", f"{s}/readings", gm, {"key": "dice", "value": "server"})
    console = open_link(app, made["gm_url"])
    r = console.post(f"/s/{sid}/gm/settings", data={"key": "hide_answers", "value": "on"},
                     headers={"X-CSRF-Token": csrf_for(made["gm_token"]), "HX-Request": "true"})
    assert r.status_code == 200
    specs = [({"title": "bid", "kind": "number", "seats": ["s1"], "gm_submits": True, "resolver": "highest"},
              [(s1, 7), (gm, 5)]),
             ({"title": "sum", "kind": "number", "seats": ["s1", "s2"], "resolver": "sum"}, [(s1, 1), (s2, 2)]),
             ({"title": "vote", "kind": "seat", "seats": ["s1", "s2"], "resolver": "votes"}, [(s1, "s2"), (s2, "s1")]),
             ({"title": "stat", "kind": "choice", "options": ["STR", "DEX"], "seats": ["s1", "s2"],
               "resolver": "cancel_duplicates", "disabled": {"s2": {"DEX": "cursed"}}}, [(s1, "STR"), (s2, "STR")]),
             ({"title": "many", "kind": "multi", "options": ["a", "b", "c"], "seats": ["s1"]}, [(s1, ["a", "b"])]),
             ({"title": "words", "kind": "text", "seats": ["s1", "s2"]}, [(s1, "hi")])]
    for spec, given in specs:
        pid = call("prompt", "POST", f"{s}/prompts", gm, spec, status=201)["id"]
        for who, value in given:
            call("answer", "POST", f"{s}/prompts/{pid}/answer", who, {"value": value})
        for who in viewers:
            got = client.get(f"/api{s}/prompts/{pid}", headers=who)
            assert got.status_code == 200, got.get_json()
            # the one prompt as `state.prompts` carries it, in the viewer's whole state (section 17 holds every object)
            whole = client.get(f"/api{s}/state", headers=who).get_json()
            answers.append({"state": {**whole, "prompts": [got.get_json()]}})
    call("prompt", "POST", f"{s}/prompts/p1/modifiers", gm, {"who": "gm", "amount": 3, "label": "Giant"})
    call("prompt", "POST", f"{s}/prompts/p1/confirm", gm)
    call("prompt", "POST", f"{s}/prompts/p6/extend", gm, {"seats": ["s3"]})
    call("prompt", "POST", f"{s}/prompts/p6/lock", gm, {"reason": "time"})
    call("prompt", "POST", f"{s}/prompts/p6/reveal", gm)
    call("prompt", "POST", f"{s}/prompts", gm, {"title": "gone", "kind": "text", "seats": ["s1"]}, status=201)
    call("prompt", "POST", f"{s}/prompts/p7/cancel", gm, {"reason": "wrong"})
    for who in viewers:
        call("state", "GET", f"{s}/state", who)
        call("log", "GET", f"{s}/log?limit=1000", who)
    call("error", "POST", f"{s}/actions/nope", gm, status=404)
    call("error", "GET", f"{s}/undo", gm, status=405)
    call("error", "GET", f"{s}/nowhere", gm, status=404)
    exported = call("export", "GET", f"{s}/export?format=json", gm)
    full = call("export", "GET", f"{s}/export?format=json&full=1", gm)
    copy = call("imported", "POST", "/sessions/import", admin, exported, status=201)
    restored = call("imported", "POST", "/sessions/import?restore_tokens=1", admin, full, status=201)
    call("closed", "POST", f"{s}/close", gm)
    following = call("continued", "POST", f"{s}/continue", gm, {"title": "next"}, status=201)
    call("campaign", "GET", f"{s}/campaign", gm)
    game = call("created", "POST", "/sessions", admin, {"title": "game", "ruleset": "succession",
                                                        "seats": ["A", "B"]}, status=201)
    call("action", "POST", f"/sessions/{game['session']}/actions/setup", bearer(game["gm_token"]), {"first": "s1"})
    answers[-1]["action"]["ruleset"] = {}  # the ruleset's part of the view: its page (the ruleset's own tests)
    call("export", "GET", f"/sessions/{game['session']}/export?format=json", bearer(game["gm_token"]))
    broken = call("created", "POST", "/sessions", admin, {"title": "壊れた卓", "seats": ["A"], "counters": ["seals"]},
                  status=201)
    call("counter", "POST", f"/sessions/{broken['session']}/counters", bearer(broken["gm_token"]),
         {"seat": "s1", "key": "seals", "delta": -1})
    manager = app.extensions["gmtool"]
    manager.sessions.pop(broken["session"]).close()
    with sqlite3.connect(manager.path_of(broken["session"])) as db:  # its counter change names no counter
        db.execute("UPDATE events SET data = replace(data, '\"seals\"', '\"hp\"') WHERE type = 'counter.changed'")
    db.close()
    call("salvage", "GET", f"/sessions/{broken['session']}/salvage", admin)
    events = []
    for session, token in ((sid, made["gm_token"]), (copy["session"], copy["gm_token"]),
                           (restored["session"], made["gm_token"]), (following["session"], following["gm_token"])):
        events += client.get(f"/api/sessions/{session}/log?limit=1000", headers=bearer(token)).get_json()["events"]
    return answers, events


def test_every_answer_has_exactly_the_documented_fields(app, client):
    """docs/api.md section 17 names every field of every JSON answer: a session driven through every route of the
    page (as the GM, the table and a seat; every kind of roll, prompt and resolver; export, import, close, continue)
    answers with exactly those, none missing and none unnamed."""
    answers, _ = _every_route(app, client)
    # a prompt's answer is the prompt of `state.prompts` (plus `version`), whose table rows name its objects
    whole = next(a["state"] for a in reversed(answers) if "state" in a)
    for answer in [a for a in answers if "prompt" in a]:
        answers.append({"state": {**whole, "prompts": [{k: v for k, v in answer["prompt"].items() if k != "version"}]}})
        answer["prompt"] = dict.fromkeys(answer["prompt"])
    assert undocumented(answers, "docs/api.md", "## 17. Every field of every answer") == {}


def test_every_event_has_exactly_the_documented_data(app, client):
    """docs/api.md section 6's table names the `data` of every core event type: the log of a session driven through
    every route (and its imported copies and next session, a sugoroku battle a fighter escapes from, and a sugoroku
    player put out during the true-name vote) carries
    exactly those fields, every type of the table seen."""
    _, events = _every_route(app, client)
    game = sugoroku.new_game(client)
    sugoroku.test_s11_an_escape_before_the_reveal_of_three_takes_the_fighter_off_the_prompt(game)
    log = client.get(f"/api/sessions/{game['sid']}/log?limit=1000", headers=bearer(game["tokens"]["gm"])).get_json()
    events += [e for e in log["events"] if e["type"] == "prompt.dropped"]  # the rest: the ruleset's page
    game = sugoroku.new_game(client)  # a player put out during the true-name vote: greyed out on the other phones
    sugoroku.test_s10_s13_a_player_the_gm_puts_out_during_the_vote_votes_no_more_and_is_voted_for_no_more(game)
    log = client.get(f"/api/sessions/{game['sid']}/log?limit=1000", headers=bearer(game["tokens"]["gm"])).get_json()
    events += [e for e in log["events"] if e["type"] == "prompt.option_disabled"]
    by_type: dict = {}  # {"counter": {"changed": data}}: the table's dotted types are paths
    for event in events:
        if event["type"].split(".")[0] != "succession":
            head, _, tail = event["type"].partition(".")
            by_type.setdefault(head, {}).setdefault(tail, []).append(event["data"]) if tail else \
                by_type.setdefault(head, []).append(event["data"])
    differences = undocumented([by_type], "docs/api.md", "### Event data（イベントの `data`）")
    differences.pop("", None)  # the table's first column names event types, not fields
    assert differences == {}, differences


# the ruleset's test module whose `documented_games` play its games; the words of a visibility in the docs' tables
RULESET_GAMES = {"grail_trpg": "test_grail_api", "sugoroku": "test_sugoroku_api", "ace_royal": "test_ace_royal_api",
                 "succession": "test_succession_api", "illuminati": "test_illuminati_api"}
VISIBILITY_WORDS = {"public": "public", "seat": "its seat and the GM", "gm": "GM only", "custom": "filtered",
                    "redact": "redacted"}
EVENT_TYPES = "Event types and their `data`"


def whole_log(client, session_id: str, token: str) -> list[dict]:
    """Every event of a session's log as `token` may see it (GET …/log page by page, in Japanese)."""
    events: list[dict] = []
    while page := client.get(f"/api/sessions/{session_id}/log", headers=bearer(token), query_string={
            "lang": "ja", "limit": 1000, "after": events[-1]["seq"] if events else 0}).get_json()["events"]:
        events += page
    return events


@pytest.mark.parametrize("name", list(RULESET_GAMES))
def test_every_ruleset_event_has_exactly_the_documented_data(client, name):
    """docs/rulesets/<name>.md's table "Event types and their `data`" lists every event type the ruleset declares, who
    sees it (its declared visibility) and its `data`: the GM's log of games driven through the API (the
    documented-fields tests' games and those that reach the rarer types) records every listed type, no other, with
    exactly the listed fields (none missing, none unnamed), and the full JSON export the same data; the table and every
    seat read what the visibility gives them: a public event whole, a seat's own only that seat, a filtered one without
    the fields its row takes out."""
    rules = get_ruleset(name)
    declared = {e.name: e.visibility for e in rules.events}
    rows = table_rows(rules.docs, EVENT_TYPES)
    games = []
    for session_id, tokens, play in import_module(RULESET_GAMES[name]).documented_games(client, every_event=True):
        play()
        games.append((session_id, tokens))
    by_type: dict = {}  # {"grail": {"combat_started": [data]}}: the table's dotted types are paths
    for session_id, tokens in games:
        logs = {who: whole_log(client, session_id, token) for who, token in tokens.items()}
        backup = client.get(f"/api/sessions/{session_id}/export?format=json&full=1", headers=bearer(tokens["gm"]))
        # the JSON export records what the log does (a fold that changed an earlier event's data in place changed it)
        assert [(e["seq"], e["type"], e["data"]) for e in backup.get_json()["events"]] == [
            (e["seq"], e["type"], e["data"]) for e in logs["gm"]]
        gm = {e["seq"]: e for e in logs.pop("gm") if e["type"] in declared}
        for event in gm.values():
            head, _, tail = event["type"].partition(".")
            by_type.setdefault(head, {}).setdefault(tail, []).append(event["data"])
        for who, log in logs.items():
            seen = {e["seq"]: e for e in log if e["type"] in declared}
            for seq, event in gm.items():
                visibility, got = declared[event["type"]], seen.get(seq)
                if visibility.kind == "public":
                    assert got == event, (who, event)
                elif visibility.kind == "seat":
                    assert got == (event if event["data"].get(visibility.field) == who else None), (who, event)
                elif visibility.kind == "gm":
                    assert got is None, (who, event)
                else:  # filtered: as the row says ("without `x`"; "read only `y`": the table, a seat may read it whole)
                    said = rows.get(event["type"], [""])[0]
                    hidden, only = ({n for m in re.findall(rf" {word} ((?:`\w+`(?:, | and )?)+)", said)
                                     for n in re.findall(r"\w+", m)} for word in ("without", "read only"))
                    shapes = [only] if only and who == "table" else [set(event["data"]) - hidden] + [only] * bool(only)
                    envelope = {**event, "data": None, "text": None}  # its line is made from what the viewer reads
                    assert got is None or (any(set(got["data"]) <= shape for shape in shapes)
                                           and {**got, "data": None, "text": None} == envelope), (who, event)
                    # the table is nobody's faction: what the row takes out is nowhere in what it reads
                    assert who != "table" or not [n for n in hidden if f'"{n}":' in json.dumps(got["data"])], event
    documented = {row: cells[0] for row, cells in rows.items() if row in declared}
    recorded = {f"{head}.{tail}" for head, tails in by_type.items() for tail in tails}
    assert set(documented) == set(declared) == recorded, (set(declared) - set(documented), set(declared) - recorded)
    assert {t: w for t, w in documented.items() if not w.startswith(VISIBILITY_WORDS[declared[t].kind])} == {}
    differences = undocumented([by_type], rules.docs, EVENT_TYPES)
    differences.pop("", None)  # the table's first column names event types, not fields
    assert differences == {}, differences


@pytest.mark.parametrize("name", list(RULESET_GAMES))
def test_every_rulesets_public_export_imports_to_the_same_table(client, name):
    """docs/api.md 14: a public JSON export becomes a new session that the table sees as it was (but its new dice
    seed and the import's own event). grail's public export leaves out what the table may not see (a sheet's skills,
    whom a faction saw through, the cap tracker): its games were refused as 'a damaged export' (the folds and the
    filters read what is not there). An event the table reads in part is exported as it reads it: the import lost
    grail's seen_count and win rates' 真名看破 term (T-9) and ace_royal's servant_set (A-1), which the table had seen."""
    for session_id, tokens, play in import_module(RULESET_GAMES[name]).documented_games(client, every_event=True):
        play()
        export = client.get(f"/api/sessions/{session_id}/export?format=json", headers=bearer(tokens["gm"]))
        made = client.post("/api/sessions/import", headers=bearer(ADMIN_KEY), json=export.get_json())
        assert made.status_code == 201, made.get_json()
        before, after = (client.get(f"/api/sessions/{sid}/state", headers=bearer(token)).get_json() for sid, token in (
            (session_id, tokens["table"]), (made.get_json()["session"], made.get_json()["table_token"])))
        for view in (before, after):
            del view["session"]["seed_hash"], view["session"]["version"], view["session"]["id"]
        assert after == before
