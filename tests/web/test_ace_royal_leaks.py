"""ace_royal's leak probe played through the API, crawled for every viewer (state, log in both
languages, pages, fragments, exports): each marker only where its Secret says, before and after
the reveal. (The contract's meta crawl runs the same probe for every ruleset.)"""

from __future__ import annotations

import itertools

from gmtool_testing import ADMIN_KEY, bearer, open_link

from gmtool.rulesets.ace_royal import RULESET


class Table:
    """The probe's harness over the JSON API."""

    def __init__(self, client, data):
        self.client, self.data = client, data
        self.sid = data["session"]
        self.seats = [s["id"] for s in data["seats"]]
        self.tokens = {"gm": data["gm_token"], "table": data["table_token"], **{s["id"]: s["token"] for s in data["seats"]}}

    def act(self, name, payload=None, who="gm"):
        r = self.client.post(f"/api/sessions/{self.sid}/actions/{name}", headers=bearer(self.tokens[who]), json=payload or {})
        assert r.status_code == 200, (name, r.get_json())
        return r.get_json()


def seen_by(app, client, table, who) -> str:
    """Everything `who` can fetch."""
    sid, token = table.sid, table.tokens[who]
    texts = [client.get(f"/api/sessions/{sid}/{p}", headers=bearer(token)).get_data(as_text=True)
             for p in ("state", "log?limit=1000", "log?limit=1000&lang=en")]
    url = {"gm": table.data["gm_url"], "table": table.data["table_url"]}.get(who) or next(
        s["join_url"] for s in table.data["seats"] if s["id"] == who)
    browser = open_link(app, url)
    page = {"gm": f"/s/{sid}/gm", "table": f"/s/{sid}/table"}.get(who, f"/s/{sid}/phone")
    for headers in ({}, {"HX-Request": "true"}):
        texts.append(browser.get(page, headers=headers).get_data(as_text=True))
    return "\n".join(texts)


def public_exports(client, table) -> str:
    """The exports the GM hands out (not the full GM export): built from the log through the visibilities."""
    return "\n".join(client.get(f"/api/sessions/{table.sid}/export?format={fmt}", headers=bearer(table.tokens["gm"]))
                     .get_data(as_text=True) for fmt in ("markdown", "json", "html", "text"))


def test_probe_secrets_reach_only_their_viewers(app, client):
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "漏洩検査", "ruleset": "ace_royal", "seats": ["凛", "ウェイバー", "綺礼"]}).get_json()
    table = Table(client, data)
    counter = itertools.count()
    secrets = RULESET.leak_probe.plant(table, lambda kind: f"MARK{next(counter):03d}X")
    viewers = ["table", *table.seats]
    for after in (False, True):
        if after:
            RULESET.leak_probe.reveal(table)
        texts = {who: seen_by(app, client, table, who) for who in viewers}
        gm_pages = seen_by(app, client, table, "gm")
        for s in secrets:
            allowed = s.seen_by | (s.revealed_to if after else frozenset())
            for who in viewers:
                if who == "table" and "table" not in allowed or who != "table" and who not in allowed:
                    assert s.marker not in texts[who], (s, who, after)
                else:
                    assert s.marker in texts[who], (s, who, after)
            assert s.marker in gm_pages  # the GM console shows every servant
            exported = public_exports(client, table)
            assert (s.marker in exported) == ("table" in allowed), (s, after)
