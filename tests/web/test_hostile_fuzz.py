"""Issue 10: a bounded Hypothesis fuzz of every route of every ruleset, as a curious player would try.

Generated API and form requests (hostile path parts, tokens, JSON values, raw bodies, forms) go
to every route of three live sessions (generic, grail_trpg with characters, sugoroku with an open
battle). Each answer must be: no 5xx; a refusal is JSON under /api and the bilingual error page
(or the flash fragment for htmx) for the screens; and a refused request changes nothing (the
GM's full view, the event count and the data folder are equal before and after).

Reproducible in CI: derandomize=True, no example database, a bounded number of examples.
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import quote

from gmtool_testing import ADMIN_KEY, bearer, open_link
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gmtool.core.view import GM, build_view
from gmtool.rulesets import get as get_ruleset
from gmtool.web import create_app
from gmtool.web.common import csrf_for

EXAMPLES = int(os.environ.get("GMTOOL_FUZZ_EXAMPLES", "400"))  # per test: about 15 s each on 2 cores
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, print_blob=True,
                suppress_health_check=list(HealthCheck))

FIELDS = ["seat", "key", "delta", "value", "reason", "expr", "label", "title", "kind", "options", "seats",
          "resolver", "min", "max", "name", "faction", "text", "characters", "card", "board_length", "players",
          "order", "square", "terrain", "vp", "move", "mana", "karma", "seals", "target", "effect", "who", "amount",
          "winner", "seen", "append", "side", "sides", "a", "b", "declarer", "cost", "supply", "gm_submits",
          "multi", "csrf", "round", "decision", "skill", "np", "main", "sub", "other", "power", "attribute"]
NASTY_TEXT = ["", " ", "s1", "s2", "gm", "table", "seals", "vp", "mana", "karma", "p1", "力7", "スキル魔3", "2D6",
              "S1D6", "100D1000", "choice[a,b]", "-1", "+2", "0", "7", "9" * 30, "9" * 5000, "1e308", "NaN",
              "<script>alert(1)</script>", '"', "'", "\\", "\x00", "\ud800", "スキル" + " " * 3000 + "x",
              "筋力" + " " * 3000 + "x", "a" * 9000, "../../etc/passwd", "%00", "{{7*7}}", "\u202e", "true"]
RAW_BODIES = ["", "null", "[]", "{", "{}", '{"a":' + "[" * 3000 + "]" * 3000 + "}", '{"v": ' + "9" * 4300 + "}",
              '{"v": NaN}', '{"v": Infinity}', '{"v": "\\ud800"}', '{"v": 1e999}', '{"value": -0.0}',
              "\xff\xfe", '{"a": 1, "a": 2}', "[" * 100000]

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.sampled_from([10**30, -(10**30), 2**63, 2**53 + 1]),
                      st.floats(), st.sampled_from(NASTY_TEXT), st.text(max_size=40))
json_value = st.recursive(json_leaf, lambda children: st.one_of(
    st.lists(children, max_size=6),
    st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=8)), children, max_size=6)), max_leaves=25)
payload = st.dictionaries(st.sampled_from(FIELDS), json_value, max_size=6)
form_value = st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=30),
                       st.lists(st.one_of(st.sampled_from(NASTY_TEXT), st.text(max_size=10)), min_size=1, max_size=4))
form = st.dictionaries(st.sampled_from(FIELDS), form_value, max_size=6)


def q(text: str) -> str:
    """Percent-encoded, lone surrogates included (as invalid UTF-8 bytes, the way a raw client sends them)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


class Table:
    """An app on a scratch folder with a played session of every ruleset and a logged-in screen of each kind."""

    def __init__(self, tmp_path):
        self.app = create_app({"DATA_DIR": str(tmp_path / "sessions"), "ADMIN_KEY": ADMIN_KEY, "TESTING": True,
                               "PROPAGATE_EXCEPTIONS": False, "HEARTBEAT": 0.01})
        self.client = self.app.test_client()
        self.sessions = {}
        admin = bearer(ADMIN_KEY)
        for ruleset, seats in (("generic", ["A", "B", "C"]), ("grail_trpg", ["A", "B"]),
                               ("sugoroku", ["A", "B", "C", "D"])):
            body = {"title": ruleset, "ruleset": ruleset, "seats": seats}
            if ruleset == "generic":
                body.update(counters=["seals", "mana", "karma", "vp"], private=["mana"])
            data = self.client.post("/api/sessions", headers=admin, json=body).get_json()
            self.sessions[ruleset] = data
            self._play(ruleset, data)
            data["screens"] = {"gm": open_link(self.app, data["gm_url"]), "table": open_link(self.app, data["table_url"]),
                               **{s["id"]: open_link(self.app, s["join_url"]) for s in data["seats"]}}
        self.home = self.app.test_client()
        assert self.home.get(f"/?k={ADMIN_KEY}").status_code == 302
        self.routes = [(rule.rule, sorted(rule.methods - {"HEAD", "OPTIONS"})) for rule in self.app.url_map.iter_rules()
                       if rule.endpoint not in ("static", "live.events")]

    def _play(self, ruleset, data):
        sid, gm = data["session"], bearer(data["gm_token"])

        def post(path, body):
            response = self.client.post(f"/api/sessions/{sid}/{path}", headers=gm, json=body)
            assert response.status_code < 300, (path, response.get_json())

        post("rolls", {"expr": "S2D6"})
        if ruleset == "generic":
            post("prompts", {"title": "Q", "kind": "number", "seats": ["s1", "s2"], "resolver": "sum"})
            post("prompts", {"title": "C", "kind": "choice", "options": ["a", "b"], "seats": ["s1", "s2"]})
        elif ruleset == "grail_trpg":
            for faction in ("s1", "s2"):
                post("actions/set_characters", {"faction": faction, "text":
                     "セイバー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60\n士郎 筋力20 耐久20 敏捷20 魔力10 幸運30 宝具10"})
        else:
            post("actions/setup", {"board_length": 8})
            post("actions/square_event", {"seat": "s1", "move": 3})
            post("actions/square_event", {"seat": "s2", "move": 3})
            for _ in range(4):
                post("actions/skip_turn", {})
            post("actions/end_phase", {})
            post("actions/start_battle", {})

    # -- what a refused request must leave alone ---------------------------------------------
    def snapshot(self):
        manager = self.app.extensions["gmtool"]
        out = {"files": sorted(os.listdir(self.app.config["DATA_DIR"]))}
        for name, data in self.sessions.items():
            live = manager.get(data["session"])
            with live.lock:
                out[name] = (json.dumps(build_view(live.state, GM, live.version), sort_keys=True,
                                        default=str), live.store.count_events())
        return out

    # -- path parameters ---------------------------------------------------------------------
    def fill(self, draw, rule: str, data: dict) -> str:
        ruleset = get_ruleset(data["ruleset"])
        live = self.app.extensions["gmtool"].get(data["session"])
        valid = {"session_id": [data["session"]], "seat_id": ["s1", "s2", "s9"],
                 "prompt_id": sorted(live.state.prompts) + ["p99"], "name": sorted(ruleset.actions) + ["nope"],
                 "op": ["lock", "reveal", "extend", "cancel", "modifiers", "confirm", "nope"],
                 "seq": [str(r.seq) for r in live.state.rolls] + ["0", "999999999999999999999"]}

        def value(match):
            name = match.group(2)
            pick = draw(st.integers(0, 99))  # an index, not a choice from the (changing) session: replayable
            if pick < 80 and name in valid:
                return q(str(valid[name][pick % len(valid[name])]))
            if match.group(1) == "int:":
                return str(draw(st.integers(min_value=0)))
            return q(draw(st.sampled_from(NASTY_TEXT) | st.text(min_size=1, max_size=20))) or "x"

        return re.sub(r"<(int:)?(\w+)>", value, rule)


def check(table: Table, path: str, response, before, api: bool, htmx: bool = False):
    status = response.status_code
    assert status < 500, (path, status, response.get_data()[:500])
    if status < 400:
        return
    body = response.get_data(as_text=True)
    if api:
        assert response.is_json, (path, status, body[:300])
        error = response.get_json()["error"]
        assert error["status"] == status and error["ja"] and error["en"], (path, error)
    elif status != 204:
        marker = 'class="flash' if htmx else 'class="msg-en"'
        assert marker in body, (path, status, body[:300])
    assert table.snapshot() == before, (path, status, body[:300])


def test_fuzz_api_routes_with_hostile_json(tmp_path):
    table = Table(tmp_path)
    api_routes = [(r, m) for r, m in table.routes if r.startswith("/api/")]

    @FUZZ
    @given(st.data())
    def run(data):
        rule, methods = data.draw(st.sampled_from(api_routes))
        method = data.draw(st.sampled_from(methods))
        session = table.sessions[data.draw(st.sampled_from(sorted(table.sessions)))]
        path = table.fill(data.draw, rule, session)
        who = data.draw(st.sampled_from(["gm", "gm", "gm", "s1", "s1", "s2", "table", "admin", "none", "wrong"]))
        token = {"gm": session["gm_token"], "table": session["table_token"], "admin": ADMIN_KEY, "none": None,
                 "wrong": "x" * 32, **{s["id"]: s["token"] for s in session["seats"]}}.get(who)
        headers = bearer(token) if token else {}
        kind = data.draw(st.sampled_from(["json", "json", "json", "raw", "none"]))
        before = table.snapshot()
        if method == "GET":
            query = data.draw(st.dictionaries(st.sampled_from(["after", "limit", "lang", "format", "scene", "names",
                                                                "full", "secret_rolls", "times", "as"]),
                                              st.sampled_from(NASTY_TEXT) | st.text(max_size=10), max_size=4))
            response = table.client.get(path + "?" + "&".join(f"{q(k)}={q(v)}" for k, v in query.items()),
                                        headers=headers)
        elif kind == "json":
            body = json.dumps(data.draw(payload))
            response = table.client.post(path, headers=headers, data=body, content_type="application/json")
        elif kind == "raw":
            body = data.draw(st.sampled_from(RAW_BODIES) | st.text(max_size=60))
            ctype = data.draw(st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]))
            response = table.client.post(path, headers=headers, data=body.encode("utf-8", "surrogatepass"),
                                         content_type=ctype)
        else:
            response = table.client.post(path, headers=headers)
        check(table, path, response, before, api=True)

    run()
    table.app.extensions["gmtool"].close_all()


def test_fuzz_screen_forms_with_hostile_fields(tmp_path):
    table = Table(tmp_path)
    form_routes = [(r, m) for r, m in table.routes if not r.startswith("/api/") and "POST" in m]
    assert any("/phone/" in r for r, _ in form_routes) and any("/gm/" in r for r, _ in form_routes)

    @FUZZ
    @given(st.data())
    def run(data):
        rule, _methods = data.draw(st.sampled_from(form_routes))
        session = table.sessions[data.draw(st.sampled_from(sorted(table.sessions)))]
        path = table.fill(data.draw, rule, session)
        if rule == "/sessions":
            who, browser, token = "admin", table.home, ADMIN_KEY
        else:
            own = ["s1", "s1", "s2"] if "/phone/" in rule else ["gm", "gm", "gm"]
            who = data.draw(st.sampled_from(own + ["gm", "s1", "table"]))
            browser = session["screens"][who]
            token = {"gm": session["gm_token"], "table": session["table_token"],
                     **{s["id"]: s["token"] for s in session["seats"]}}[who]
        fields = data.draw(form)
        if data.draw(st.integers(0, 9)) < 9:
            fields["csrf"] = csrf_for(token)
        htmx = data.draw(st.booleans())
        headers = {"HX-Request": "true"} if htmx else {}
        if data.draw(st.integers(0, 9)) == 0:
            headers["Origin"] = data.draw(st.sampled_from(["http://evil.example", "null", "http://localhost"]))
        before = table.snapshot()
        body = "&".join(f"{q(k)}={q(v)}" for k, vs in fields.items() for v in (vs if isinstance(vs, list) else [vs]))
        response = browser.post(path, data=body, headers=headers, content_type="application/x-www-form-urlencoded")
        check(table, path, response, before, api=False, htmx=htmx)

    run()
    table.app.extensions["gmtool"].close_all()


def _paths(value, prefix=()):
    """Every (path, value) inside a JSON value."""
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def test_fuzz_imports_of_mutated_exports(tmp_path):
    """A real export with one value replaced (or removed) anywhere: refused with a JSON 400 and no file
    left, or imported, and then every screen, API read and export of the new session answers."""
    table = Table(tmp_path)
    admin = bearer(ADMIN_KEY)
    exports = []
    for data in table.sessions.values():
        for query in ("format=json", "format=json&full=1"):
            text = table.client.get(f"/api/sessions/{data['session']}/export?{query}",
                                    headers=bearer(data["gm_token"])).get_data(as_text=True)
            exports.append(json.loads(text))

    @settings(FUZZ, max_examples=max(50, EXAMPLES // 3))
    @given(st.data())
    def run(data):
        doc = json.loads(json.dumps(exports[data.draw(st.integers(0, len(exports) - 1))]))
        events = doc["events"]
        event = events[data.draw(st.integers(0, len(events) - 1))]
        spots = [p for p, _ in _paths(event) if p]
        spot = spots[data.draw(st.integers(0, len(spots) - 1))]
        parent = event
        for key in spot[:-1]:
            parent = parent[key]
        if data.draw(st.integers(0, 4)) == 0 and isinstance(parent, dict):
            del parent[spot[-1]]
        else:
            parent[spot[-1]] = data.draw(json_value)
        before = table.snapshot()
        response = table.client.post("/api/sessions/import", headers=admin, data=json.dumps(doc),
                                     content_type="application/json")
        assert response.status_code < 500, (spot, response.get_data()[:500])
        if response.status_code != 201:
            check(table, "import", response, before, api=True)
            return
        out = response.get_json()
        sid = out["session"]
        gm = out.get("gm_token")
        if gm is None:  # restored tokens are only given with ?restore_tokens=1
            return
        reads = [f"/api/sessions/{sid}/state", f"/api/sessions/{sid}/log?limit=1000&lang=en"]
        reads += [f"/api/sessions/{sid}/export?format={f}" for f in ("markdown", "mediawiki", "atwiki", "text",
                                                                      "html", "json")]
        for path in reads:
            for token in [gm, out["table_token"], *(s["token"] for s in out["seats"])][:3]:
                r = table.client.get(path, headers=bearer(token))
                assert r.status_code < 500, (spot, path, r.get_data()[:300])
        screens = [open_link(table.app, out["gm_url"]), open_link(table.app, out["table_url"]),
                   *(open_link(table.app, s["join_url"]) for s in out["seats"][:1])]
        for screen, page in zip(screens, (f"/s/{sid}/gm", f"/s/{sid}/table", f"/s/{sid}/phone")):
            r = screen.get(page)
            assert r.status_code < 500, (spot, page, r.get_data()[:300])
            r = screen.get(page, headers={"HX-Request": "true"})
            assert r.status_code < 500, (spot, page, "fragment", r.get_data()[:300])

    run()
    table.app.extensions["gmtool"].close_all()
