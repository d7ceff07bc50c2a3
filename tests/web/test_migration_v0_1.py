"""Session files written by gmtool 0.1 (before the ruleset contract) still open, with the same state.

tests/fixtures/v0_1/ holds a generic, a grail_trpg and a sugoroku session written by 0.1's code
(make_v0_1.py) and the GM's /state of each as 0.1 served it (views.json). 0.1 stored readings as
`grail.reading_set` / `sugoroku.reading_set` events and in the ruleset's view; they are upcast to
core's `reading.set` and served in the top-level `readings` list.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from gmtool_testing import bearer, open_link

from gmtool.web import create_app

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "v0_1"
TOKENS = json.loads((FIXTURES / "tokens.json").read_text(encoding="utf-8"))
VIEWS = json.loads((FIXTURES / "views.json").read_text(encoding="utf-8"))


@pytest.fixture
def old_app(tmp_path):
    data = tmp_path / "sessions"
    data.mkdir()
    for name, tok in TOKENS.items():
        shutil.copy(FIXTURES / f"{name}.sqlite", data / f"{tok['session']}.sqlite")
    app = create_app({"DATA_DIR": str(data), "ADMIN_KEY": "k" * 32, "TESTING": True})
    yield app
    app.extensions["gmtool"].close_all()


def _state(client, name: str, who: str = "gm") -> dict:
    tok = TOKENS[name]
    r = client.get(f"/api/sessions/{tok['session']}/state", headers=bearer(tok[who]))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def _without_readings(view: dict) -> dict:
    out = {k: v for k, v in view.items() if k not in ("readings", "secret_rolls")}
    if "ruleset" in out:
        out["ruleset"] = {k: v for k, v in out["ruleset"].items() if k != "readings"}
    return out


def _rolls_without_entered(view: dict) -> dict:
    view = json.loads(json.dumps(view))
    for roll in view.get("rolls", []):
        roll.pop("entered", None)
    return view


def _as_before(now, before):
    """`now` without the keys later versions added to an object (new fields are allowed; old ones must not change)."""
    if isinstance(now, dict) and isinstance(before, dict):
        return {k: _as_before(v, before[k]) if k in before else v for k, v in now.items() if k in before}
    if isinstance(now, list) and isinstance(before, list) and len(now) == len(before):
        return [_as_before(a, b) for a, b in zip(now, before)]
    return now


def _without_labels(view: dict) -> dict:
    """A view without the grail seal effects' fixed names (menu words a later version put better: their
    English no longer says 黒星); what was played must be the same, not how a menu is worded."""
    view = json.loads(json.dumps(view))
    if view.get("session", {}).get("ruleset") == "grail_trpg":
        for effect in view["ruleset"]["seal_effects"]:
            effect.pop("label", None)
    return view


def _roles_spaced(view: dict) -> dict:
    """0.1's view with a space after メイン / サブ before a character's name (メインアルトリアの筋力 → メイン アルトリアの
    筋力): the old session's force terms and log lines are read from its setup and characters, as new ones are.
    Its prompts are the record as resolved (the GM's API shows a resolution as stored), so they stay as 0.1 wrote."""
    text = re.sub(r"(メイン|サブ)(アルトリア|アーチャー|士郎|凛)", r"\1 \2", json.dumps(view, ensure_ascii=False))
    return {**json.loads(text), "prompts": view["prompts"]} if "prompts" in view else json.loads(text)


def _places_shared(view: dict) -> dict:
    """0.1's sugoroku standings with tied players sharing a place (0, 0, 0 → 1, 1, 1; 0.1 ranked them 1, 2, 3): a
    place is worked out from the VP at every view, as the new ones are (rules.places, S-1)."""
    standings = (view.get("ruleset") or {}).get("standings") if view.get("session", {}).get("ruleset") == "sugoroku" else None
    if not standings:
        return view
    ranked = [{**s, "rank": 1 + sum(1 for o in standings if o["vp"] > s["vp"])} for s in standings]
    return {**view, "ruleset": {**view["ruleset"], "standings": ranked}}


def _minus_signs(view: dict) -> dict:
    """0.1's grail win rates with a negative number of the force difference written with the minus sign (−27, not -27,
    T-9): the label is worked out at every view, as new ones are (winrate.force_difference)."""
    rates = ((view.get("ruleset") or {}).get("combat") or {}).get("win_rates") or {}
    for side in rates.values():
        for t in side.get("terms", []):
            if isinstance(t.get("label"), dict) and t["label"].get("en", "").startswith("Force difference"):
                t["label"] = {lang: re.sub(r"(?<=[(=→] )-|(?<=\()-", "−", text) for lang, text in t["label"].items()}
    return view


def _advantage_amounts(view: dict) -> dict:
    """0.1's grail win rates with the first term's amount after an arrow ((優位2 − 劣位1) × 20 → 20, T-9; it read
    「× 20 20」): the label is worked out at every view, as new ones are (winrate.win_rate)."""
    rates = ((view.get("ruleset") or {}).get("combat") or {}).get("win_rates") or {}
    for side in rates.values():
        first = (side.get("terms") or [None])[0]
        if first and isinstance(first.get("label"), dict) and first["label"].get("en", "").startswith("(advantages"):
            amount = f"−{-first['value']}" if first["value"] < 0 else str(first["value"])
            first["label"] = {lang: f"{text} → {amount}" for lang, text in first["label"].items()}
    return view


def _grail_titles_and_phases(view: dict) -> dict:
    """0.1's grail combat titles, stored as plain text, read as `{ja, en}` (docs §6b: every title is a pair): its
    default 「戦闘: A vs B」 of the combat's own sides in English as a new combat's default reads, "Combat: A vs B"; its seal effects' `timing` without `final_result`, a step, not a phase (the final result is in the battle
    phase, §6b `phase`): a seal 4 or 5 was usable at the same steps then as now."""
    rv = view.get("ruleset") or {}
    if view.get("session", {}).get("ruleset") != "grail_trpg":
        return view
    for combat in [rv.get("combat") or {}, *(rv.get("history") or [])]:
        if isinstance(combat.get("title"), str):
            names = combat.get("names") or {}
            default = combat["title"] == f"戦闘: {names.get('a')} vs {names.get('b')}"
            combat["title"] = {"ja": combat["title"],
                               "en": f"Combat: {names['a']} vs {names['b']}" if default else combat["title"]}
    for effect in rv.get("seal_effects") or []:
        kept = [i for i, p in enumerate(effect["timing"]) if p != "final_result"]
        effect["timing"] = [effect["timing"][i] for i in kept]
        if "timing_labels" in effect:
            effect["timing_labels"] = [effect["timing_labels"][i] for i in kept]
    return view


def _out_flagged(view: dict) -> dict:
    """0.1's grail seats with an eliminated faction flagged 敗退 (T-11, `grail_out`): the flag is worked out from the
    factions out at every view, as new ones are (grail's seat_flags; the write-up's final table shows it)."""
    if view.get("session", {}).get("ruleset") != "grail_trpg":
        return view
    out = set((view.get("ruleset") or {}).get("out", []))
    flag = {"flag": "grail_out", "label": {"ja": "敗退", "en": "Out"}}
    return {**view, "seats": [{**s, "flags": s["flags"] + [flag]} if s["id"] in out else s for s in view["seats"]]}


@pytest.mark.parametrize("name", sorted(TOKENS))
def test_an_old_session_opens_with_the_state_it_had(old_app, name):
    client = old_app.test_client()
    now = _without_labels(_rolls_without_entered(_without_readings(_state(client, name))))
    before = _out_flagged(_grail_titles_and_phases(_advantage_amounts(_minus_signs(_places_shared(_roles_spaced(
        _without_labels(_without_readings(VIEWS[name]))))))))
    assert _as_before(now, before) == before


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_an_old_grail_combat_title_reads_in_the_view_log_and_export(old_app, lang):
    """0.1 stored a combat's title (and its scene marker's) as plain text, 「戦闘: セイバー陣営 vs アーチャー陣営」,
    where new ones are {ja, en}: the console's panel, the history, the log and the write-up read it without breaking,
    in English too: the view's title as a new combat's default reads ("Combat: …"), and so does the scene heading in
    the log, the view's scene, the export's scene list and the write-up (it read 「■ 戦闘: …」 in English: core asks the
    ruleset to read an old plain heading, Ruleset.old_scene_title; the English log line of the start names the sides
    in English)."""
    client, tok = old_app.test_client(), TOKENS["grail_trpg"]
    view = client.get(f"/api/sessions/{tok['session']}/state?lang={lang}", headers=bearer(tok["gm"])).get_json()
    title = {"ja": "戦闘: セイバー陣営 vs アーチャー陣営", "en": "Combat: セイバー陣営 vs アーチャー陣営"}
    assert view["ruleset"]["history"][0]["title"] == title and view["scene"]["title"] == title
    log = client.get(f"/api/sessions/{tok['session']}/log?limit=1000&lang={lang}",
                     headers=bearer(tok["table"])).get_json()["events"]
    lines = [e["text"] for e in log if e["type"] in ("scene.marked", "grail.combat_started")]
    assert lines == [f"■ {title[lang]}", {
        "ja": "戦闘開始: セイバー陣営 vs アーチャー陣営（宣言側: セイバー陣営）[T-1]",
        "en": "Combat: セイバー陣営 vs アーチャー陣営 (declared by セイバー陣営) [T-1]"}[lang]], lines
    for fmt in ("markdown", "html"):
        r = client.get(f"/api/sessions/{tok['session']}/export?format={fmt}&lang={lang}", headers=bearer(tok["gm"]))
        text = r.get_data(as_text=True)
        assert r.status_code == 200 and title[lang] in text and (lang == "ja" or "■ 戦闘" not in text), fmt
        if lang == "en":  # the heading of the combat's section
            assert re.search(r"Combat: セイバー陣営 vs アーチャー陣営(?! \(declared)", text), (fmt, text[:1500])
    gm = open_link(old_app, f"/s/{tok['session']}/gm?k={tok['gm']}")
    page = gm.get(f"/s/{tok['session']}/gm/export?lang={lang}").get_data(as_text=True)
    assert f"1: {title[lang]}</option>" in page, page[:2000]


@pytest.mark.parametrize("name, key, value", [("grail_trpg", "sub_part", "half_ceil"),
                                              ("sugoroku", "battle_tie", "parent")])
def test_old_readings_are_read_as_core_readings(old_app, name, key, value):
    client = old_app.test_client()
    readings = {r["key"]: r for r in _state(client, name)["readings"]}
    assert readings[key]["value"] == value and readings["dice"]["value"] == "server"
    before = next(r for r in VIEWS[name]["ruleset"]["readings"] if r["key"] == key)
    assert before["value"] == value  # what 0.1 showed
    log = client.get(f"/api/sessions/{TOKENS[name]['session']}/log?limit=1000",
                     headers=bearer(TOKENS[name]["table"])).get_json()["events"]
    line = next(e for e in log if e["type"] == "reading.set")
    assert line["data"]["key"] == key and "解釈を切り替え" in line["text"]


def test_an_old_session_goes_on(old_app):
    """The old grail session can be undone and continued; the old sugoroku one keeps playing."""
    client = old_app.test_client()
    tok = TOKENS["grail_trpg"]
    r = client.post(f"/api/sessions/{tok['session']}/undo", headers=bearer(tok["gm"]))
    assert r.status_code == 200
    tok = TOKENS["sugoroku"]
    assert _state(client, "sugoroku")["ruleset"]["current"] is None  # everyone moved in 0.1
    r = client.post(f"/api/sessions/{tok['session']}/actions/end_phase", headers=bearer(tok["gm"]), json={})
    assert r.status_code == 200, r.get_json()
    mover = _state(client, "sugoroku")["ruleset"]["current"]
    r = client.post(f"/api/sessions/{tok['session']}/actions/roll_move", headers=bearer(tok[mover]),
                    json={"faces": [2]})
    assert r.status_code == 200, r.get_json()
    assert _state(client, "sugoroku")["rolls"][0]["entered"] is True
