"""A community ruleset is one declaration with its own templates and static files: gmtool serves its
screens through the declaration (template_dir, static_dir), touching no generic code."""

from __future__ import annotations

from pathlib import Path

from gmtool_testing import ADMIN_KEY, bearer

from gmtool.core.model import Label
from gmtool.core.ruleset import PUBLIC, EventType, Ruleset, action
from gmtool.rulesets import registry
from gmtool.web import create_app


def _homebrew(tmp_path: Path) -> Ruleset:
    (tmp_path / "tpl" / "homebrew").mkdir(parents=True)
    (tmp_path / "tpl" / "homebrew" / "table.html").write_text(
        '<section class="card" id="homebrew">{{ rv.bell }} HOMEBREW-TABLE</section>', encoding="utf-8")
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "homebrew.css").write_text("#homebrew { color: gold }", encoding="utf-8")

    def fold(state, event):
        state.extra["bell"] = state.extra.get("bell", 0) + 1

    def ring(state, payload, ctx):
        return [("homebrew.rang", {})]

    return Ruleset(
        name="homebrew", label=Label("自作", "Homebrew"),
        events=(EventType("homebrew.rang", fold, lambda e, s, lang: "ベル" if lang != "en" else "Bell", PUBLIC,
                          undoable=True),),
        actions=dict((action("ring", "ベル", "Ring", ring),)),
        view=lambda state, viewer: {"bell": state.extra.get("bell", 0)},
        templates={"table": "homebrew/table.html"}, stylesheet="homebrew.css",
        template_dir=tmp_path / "tpl", static_dir=tmp_path / "static")


def test_a_ruleset_ships_its_own_screens(tmp_path, monkeypatch):
    found = dict(registry())
    found["homebrew"] = _homebrew(tmp_path)
    monkeypatch.setattr("gmtool.rulesets.registry", lambda: found)
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "ADMIN_KEY": ADMIN_KEY, "TESTING": True})
    client = app.test_client()
    r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={"title": "t", "ruleset": "homebrew",
                                                                     "seats": ["A", "B"]})
    assert r.status_code == 201, r.get_json()
    data = r.get_json()
    r = client.post(f"/api/sessions/{data['session']}/actions/ring", headers=bearer(data["gm_token"]))
    assert r.status_code == 200 and r.get_json()["ruleset"] == {"bell": 1}
    table = app.test_client()
    table.get(data["table_url"].replace("http://localhost", ""))
    page = table.get(f"/s/{data['session']}/table").get_data(as_text=True)
    assert "1 HOMEBREW-TABLE" in page and "/rulesets/homebrew/static/homebrew.css" in page
    css = table.get("/rulesets/homebrew/static/homebrew.css")
    assert css.status_code == 200 and b"gold" in css.data
    css.close()
    assert table.get("/rulesets/homebrew/static/../../etc/passwd").status_code == 404
    assert table.get("/rulesets/grail_trpg/static/x.css").status_code == 404
    app.extensions["gmtool"].close_all()
