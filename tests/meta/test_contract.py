"""Meta-tests of the ruleset contract: they run over every registered ruleset, so a new game is
checked without new test code (DESIGN principle 10, issue "One package and one declaration").

(a) The leak crawl: a session per ruleset with a unique marker in every secret it keeps (the
ruleset's LeakProbe plants its own: true names, hidden stats, face-down cards …; the crawl adds
core's: an unrevealed answer, a GM-secret roll, a private counter's flag where the ruleset lets the
GM define counters). Then, for the table token, every seat, no token, a wrong token and a
re-issued old token, every page and fragment, the live stream's first message, every GET route of
the API (state, log, every prompt), every export format, the GM's public exports (what the table
may see) and the responses of the probe's own actions are read: a marker may appear only where its
Secret says. After the probe's reveal (and the GM's reveal of core's secret roll) it
must appear for the viewers it was revealed to. Then the GM undoes those reveals, and the crawl runs again: an undone
reveal's secret is as secret as before it (in the undo's line, the undone events' lines, the phones' undo notices),
while the GM's log still holds it.
(b) Every event type has a fold, a log line in both languages and a visibility.
(c) Every reading is documented in the ruleset's docs page and can be switched.
(d) Every action is documented.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from gmtool_testing import ADMIN_KEY, ApiTable, bearer, docs_rows, open_link, undo_cells

from gmtool.core.logtext import describe
from gmtool.core.ruleset import EventType, Secret, Visibility
from gmtool.core.view import GM, visible_event
from gmtool.export import FORMAT_NAMES
from gmtool.rulesets import registry

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(registry())
VIEWERS = ("table", "none", "wrong", "old")  # besides the seats


class Table(ApiTable):
    """The probe's driver, keeping every action's response (they are crawled for leaks too)."""

    def __init__(self, client, data: dict):
        super().__init__(client, data)
        self.responses: list[tuple[str, str]] = []  # (who, body) of every action the probe made
        self.roll = 0  # the seq of core's secret roll (_plant)

    def posted(self, who: str, body: dict | None, response) -> None:
        self.responses.append((who, response.get_data(as_text=True)))


def _marker_factory():
    counter = itertools.count(1)
    return lambda kind: f"MK{next(counter):03d}{re.sub(r'[^A-Za-z]', '', kind)[:6].upper()}ZQ"


def _plant(client, name: str):
    """A session of ruleset `name` with every secret marked; returns (table, secrets, marker)."""
    ruleset = registry()[name]
    probe = ruleset.leak_probe
    marker = _marker_factory()
    seats = [f"席{i + 1}" for i in range(probe.seats if probe else 2)]
    body = {"title": "leak crawl", "ruleset": name, "seats": seats}
    flag = None
    if ruleset.custom_counters:
        flag = marker("flag")
        body.update(counters=["seals", f"HP,10,0,20,{flag}<=3"], private=["c2"])
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json=body)
    assert r.status_code == 201, r.get_json()
    table = Table(client, r.get_json())
    secrets = list(probe.plant(table, marker)) if probe else []
    first = table.seats[0]
    if flag is not None:
        table.post("/counters", {"seat": first, "key": "c2", "value": 2})
        secrets.append(Secret(flag, frozenset({"gm", first})))
    answer = marker("answer")
    prompt = table.post("/prompts", {"title": "秘密の質問", "kind": "text", "seats": table.seats})
    table.answer(prompt["id"], answer, first)
    secrets.append(Secret(answer, frozenset({"gm", first})))
    roll = marker("roll")
    table.roll = table.post("/rolls", {"expr": "S2D6", "label": roll})["seq"]
    secrets.append(Secret(roll, frozenset({"gm"}), frozenset({"table", *table.seats})))  # revealed by _reveal
    return table, secrets, probe


def _log(table: Table, who: str = "gm") -> list[dict]:
    return table.client.get(f"/api/sessions/{table.sid}/log?limit=1000",
                            headers=bearer(table.tokens[who])).get_json()["events"]


def _reveal(table: Table, probe) -> tuple[list[int], int]:
    """The probe's reveal, then the GM's reveal of core's secret roll: (the actions of the probe's, the roll's)."""
    before = _log(table)[-1]["seq"]
    if probe and probe.reveal:
        probe.reveal(table)
    probes = sorted({e["action"] for e in _log(table) if e["seq"] > before})
    table.post(f"/rolls/{table.roll}/reveal")
    return probes, _log(table)[-1]["action"]


def _undo_reveals(table: Table, probes: list[int], roll: int, secrets: list[Secret]) -> set[str]:
    """The GM undoes the reveals, newest first, while undo takes back one of their actions (a reveal made by answers
    cannot be: then the undo stops); returns the markers still revealed."""
    ours = set(probes) | {roll}
    for _ in ours:
        r = table.client.post(f"/api/sessions/{table.sid}/undo", headers=bearer(table.tokens["gm"]))
        if r.status_code == 409 or r.get_json()["undone"]["action"] not in ours:
            break
    undone = {e["action"] for e in _log(table) if e["undone"]}
    assert roll in undone, "the reveal of a secret roll can be undone"
    still = set() if undone >= set(probes) else {s.marker for s in secrets}
    return still - {secrets[-1].marker}  # (the roll's is the last secret)


def _screens(app, table: Table) -> dict:
    """One cookie jar per viewer (the old one opened the first seat's link before it was re-issued)."""
    data = table.data
    screens = {"table": ("table", open_link(app, data["table_url"]), table.tokens["table"]),
               "none": ("seat", app.test_client(), ""), "wrong": ("seat", app.test_client(), "not-a-token")}
    first = data["seats"][0]
    screens["old"] = ("seat", open_link(app, first["join_url"]), first["token"])
    new = table.post(f"/seats/{first['id']}/token")["token"]
    table.tokens[first["id"]] = new
    for seat in data["seats"]:
        token = table.tokens[seat["id"]]
        screens[seat["id"]] = ("seat", open_link(app, f"/join/{table.sid}?k={token}"), token)
    return screens


def _crawl(client, table: Table, kind: str, token: str) -> dict[str, str]:
    """Every response one viewer can get: pages, fragments, the live stream, the API, exports."""
    sid, out = table.sid, {}
    pages = [f"/s/{sid}/{p}" for p in ("table", "phone", "gm", "verify", "gm/qr", "gm/export")]
    for path in pages:
        for hx in ({}, {"HX-Request": "true"}):
            r = client.get(path, headers=hx)
            out[f"{path} {hx}"] = r.get_data(as_text=True)
    r = client.get(f"/s/{sid}/events?as={kind}", buffered=False)
    out["events"] = next(iter(r.response), b"").decode() if r.status_code == 200 else r.get_data(as_text=True)
    r.close()
    auth = bearer(token) if token else {}
    api = [f"/api/sessions/{sid}/{p}" for p in ("state", "log?limit=1000", "log?after=0&limit=1000")]
    api += [f"/api/sessions/{sid}/prompts/{p['id']}" for p in table.state("gm")["prompts"]]
    api += [f"/api/sessions/{sid}/export?format={f}" for f in FORMAT_NAMES]
    api += [f"/s/{sid}/gm/export/download?format={f}" for f in FORMAT_NAMES]
    for path in api:
        out[path] = client.get(path, headers=auth).get_data(as_text=True)
    return out


def _check(responses: dict[str, str], who: str, secrets: list[Secret], revealed: bool | set[str]) -> None:
    """No marker where its Secret does not let `who` see it; `revealed`: every secret's reveal is in force (True), or
    the markers whose reveal is."""
    for secret in secrets:
        shown = revealed is True or (revealed is not False and secret.marker in revealed)
        allowed = secret.seen_by | (secret.revealed_to if shown else frozenset())
        if who in allowed:
            continue
        leaks = [where for where, body in responses.items() if secret.marker in body]
        assert not leaks, f"{secret.marker} reached {who} through {leaks}"


@pytest.mark.parametrize("name", RULESETS)
def test_a_leak_crawl_finds_no_secret_where_it_must_not_be(app, client, name):
    table, secrets, probe = _plant(client, name)
    gm_state = str(table.state("gm")) + client.get(f"/api/sessions/{table.sid}/log?limit=1000",
                                                   headers=bearer(table.tokens["gm"])).get_data(as_text=True)
    for secret in secrets:  # the markers are really there: the crawl can fail
        assert secret.marker in gm_state, f"{secret.marker} was not planted"
    screens = _screens(app, table)
    for who, body in table.responses:
        _check({"action response": body}, who, secrets, revealed=False)
    for phase in ("planted", "revealed", "undone"):
        revealed = phase == "revealed"
        if phase == "revealed":
            table.responses.clear()
            probes, roll = _reveal(table, probe)
            for who, body in table.responses:
                _check({"action response": body}, who, secrets, revealed=True)
        if phase == "undone":
            table.responses.clear()
            revealed = _undo_reveals(table, probes, roll, secrets)
            gm_log = str(_log(table))
            for secret in secrets:  # the GM still sees what was undone
                assert secret.marker in gm_log, f"{secret.marker} left the GM's log with the undo"
        public = {f"GM's public export {f}": client.get(f"/api/sessions/{table.sid}/export?format={f}",
                                                       headers=bearer(table.tokens["gm"])).get_data(as_text=True)
                  for f in FORMAT_NAMES}
        _check(public, "table", secrets, revealed)  # a public export shows what the table sees
        for who, (kind, browser, token) in screens.items():
            if phase == "undone" and who in ("none", "wrong", "old"):
                continue  # (they see nothing of the session: the first crawl read them)
            responses = _crawl(browser, table, kind, token)
            _check(responses, who, secrets, revealed)
            if revealed is True:
                for secret in secrets:
                    if who in secret.revealed_to and who in table.seats + ["table"]:
                        assert any(secret.marker in body for body in responses.values()), \
                            f"{secret.marker} was revealed to {who} but never shown"


def test_the_crawl_catches_a_leak(app, client, monkeypatch):
    """Break the one secrecy filter once: the crawl must notice."""
    import gmtool.core.view as view
    monkeypatch.setattr(view, "can_see_answer", lambda prompt, viewer, who: True)
    table, secrets, _probe = _plant(client, "generic")
    screens = _screens(app, table)
    kind, browser, token = screens["table"]
    with pytest.raises(AssertionError, match="reached table"):
        _check(_crawl(browser, table, kind, token), "table", secrets, False)


# -- (b) every event type is whole -------------------------------------------------------------

@pytest.mark.parametrize("name", RULESETS)
def test_every_event_type_has_a_fold_a_log_line_in_both_languages_and_a_visibility(client, name):
    ruleset = registry()[name]
    for declared in ruleset.event_types().values():
        assert isinstance(declared, EventType) and callable(declared.fold) and callable(declared.describe)
        assert isinstance(declared.visibility, Visibility) and isinstance(declared.undone_visibility, Visibility)
    table, _secrets, _probe = _plant(client, name)
    from gmtool.web import create_app  # noqa: F401  (the app of the client fixture holds the session)
    live = client.application.extensions["gmtool"].get(table.sid)
    seen = set()
    for event in live.store.events():
        visible = visible_event(event, live.state, GM)
        ja, en = describe(visible, live.state, "ja"), describe(visible, live.state, "en")
        assert ja and en and ja != event.type and en != event.type, event.type
        seen.add(event.type)
    assert seen <= set(ruleset.event_types())


def test_an_undeclared_event_type_is_the_gms_alone(pure):
    from gmtool.core.model import TABLE, Event
    event = Event(99, "t", "gm", 99, "homebrew.secret", {"x": "MARK"})
    assert visible_event(event, pure.state, TABLE) is None
    assert visible_event(event, pure.state, GM)["data"] == {"x": "MARK"}


# -- (c) readings, (d) actions: documented and switchable ------------------------------------------

def _docs(name: str) -> str:
    ruleset = registry()[name]
    assert ruleset.docs, f"{name} names no docs page"
    return (ROOT / ruleset.docs).read_text(encoding="utf-8")


@pytest.mark.parametrize("name", RULESETS)
def test_every_reading_is_documented_and_switchable(client, name):
    ruleset = registry()[name]
    docs = _docs(name)
    table, _secrets, _probe = _plant(client, name)
    for reading in ruleset.readings:
        assert f"`{reading.key}`" in docs, f"reading {reading.key} is not in {ruleset.docs}"
        other = next((c for c in reading.choices if c.value != reading.default), None)
        if other is None:
            continue
        out = table.post("/readings", {"key": reading.key, "value": other.value})
        assert next(r for r in out["readings"] if r["key"] == reading.key)["value"] == other.value


@pytest.mark.parametrize("name", RULESETS)
def test_every_action_is_documented(name):
    ruleset = registry()[name]
    docs = _docs(name)
    for action in ruleset.actions:
        assert f"`{action}`" in docs, f"action {action} is not in {ruleset.docs}"


@pytest.mark.parametrize("name", RULESETS)
def test_every_actions_row_says_who_may_call_it(name):
    """The actions table's `who` column is what the declaration lets through: `GM` for a GM-only action (a seat
    calling it gets 403), `seat …` for one a seat may call (the GM too). A client reading `GM` where the server takes
    a seat's call, or `seat` where it refuses it, was misled."""
    ruleset = registry()[name]
    rows = docs_rows(_docs(name))
    said = {action: rows.get(action, "").split("|")[0].strip() for action in ruleset.actions}
    wrong = {action: (said[action], act.who) for action, act in ruleset.actions.items()
             if not said[action].startswith("GM" if act.who == "gm" else "seat")}
    assert wrong == {}, f"{ruleset.docs}: the action's row says (who), the declaration says: {wrong}"


@pytest.mark.parametrize("name", RULESETS)
def test_every_actions_row_says_whether_undo_takes_it_back(name):
    """docs/api.md §9: undo takes back the ruleset actions whose page marks them undoable. Each action's row ends with
    its `undo` cell, `yes` or `no`. What undo does goes by the type of the first event the action writes (declared
    once, EventType.undoable): gmtool_testing.assert_undo_as_documented holds the cell to it at every action the
    demos, the leak probes and the API tests take (ApiTable)."""
    ruleset = registry()[name]
    cells = undo_cells(ruleset.docs)
    wrong = {action: cells.get(action) for action in ruleset.actions if cells.get(action) not in ("yes", "no")}
    assert wrong == {}, f"{ruleset.docs}: these actions' rows end with no undo cell (yes / no): {wrong}"


@pytest.mark.parametrize("name", RULESETS)
def test_every_readings_row_gives_its_rule_choices_and_default(name):
    """Each reading's row in the ruleset's page names its rule code and every choice's value (as a client sends it:
    `true`, `null`, `0`), the default first: a client switching a reading sends what the row says."""
    ruleset = registry()[name]
    rows = docs_rows(_docs(name))
    for reading in ruleset.readings:
        row = rows.get(reading.key)
        assert row is not None, f"{ruleset.docs} has no row for the reading {reading.key}"
        text = lambda v: "null" if v is None else str(v).lower() if isinstance(v, bool) else str(v)  # noqa: E731
        named = re.findall(r"`([^`]+)`", row)
        assert reading.rule in row, (reading.key, reading.rule, row)
        assert {text(c.value) for c in reading.choices} <= set(named), (reading.key, row)
        assert named and named[0] == text(reading.default), (reading.key, reading.default, row)


@pytest.mark.parametrize("name", RULESETS)
def test_every_prompt_kind_and_resolver_is_documented(name):
    """A ruleset's own prompt kinds and resolvers reach every client (`state.prompts[].kind` and `resolver`, the
    resolution's `resolver`): each is named (as `` `name` ``) in its docs page."""
    ruleset = registry()[name]
    docs = _docs(name)
    missing = [n for n in [k.name for k in ruleset.prompt_kinds] + list(ruleset.resolvers) if f"`{n}`" not in docs]
    assert missing == [], f"not in {ruleset.docs}: {missing}"
