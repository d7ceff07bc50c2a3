"""`gmtool new --json` and `gmtool list` (the command line, through gmtool.cli.main)."""

from __future__ import annotations

import json

from gmtool.cli import main
from gmtool.runtime import SessionManager, token_hash
from gmtool.web import create_app


def new_session(capsys, data, *extra):
    code = main(["new", "--json", "--title", "第五次聖杯戦争", "--seat", "セイバー / 衛宮", "--seat", "アーチャー",
                 "--counter", "seals", "--counter", "karma", "--data", str(data), *extra])
    out = capsys.readouterr().out
    assert code == 0
    return json.loads(out)


def test_new_json_prints_session_links_and_tokens(capsys, tmp_path):
    out = new_session(capsys, tmp_path, "--base", "http://192.168.1.20:8000")
    sid = out["session"]
    assert set(out) >= {"session", "gm_url", "gm_token", "table_url", "table_token", "seats"}
    assert out["gm_url"] == f"http://192.168.1.20:8000/s/{sid}/gm?k={out['gm_token']}"
    assert out["table_url"] == f"http://192.168.1.20:8000/s/{sid}/table?k={out['table_token']}"
    assert [(s["id"], s["name"]) for s in out["seats"]] == [("s1", "セイバー"), ("s2", "アーチャー")]
    for seat in out["seats"]:
        assert set(seat) >= {"id", "name", "token", "join_url"}
        assert seat["join_url"] == f"http://192.168.1.20:8000/join/{sid}?k={seat['token']}"
        assert len(seat["token"]) >= 22
    assert (tmp_path / f"{sid}.sqlite").exists()


def test_new_json_without_base_prints_paths(capsys, tmp_path):
    out = new_session(capsys, tmp_path)
    assert out["gm_url"].startswith(f"/s/{out['session']}/gm?k=")


def test_tokens_printed_by_new_open_the_session(capsys, tmp_path):
    out = new_session(capsys, tmp_path)
    manager = SessionManager(tmp_path)
    try:
        live = manager.get(out["session"])
        assert live.viewer_for(out["gm_token"]).is_gm
        assert live.viewer_for(out["table_token"]).kind == "table"
        assert live.viewer_for(out["seats"][1]["token"]).seat == "s2"
        assert [d.key for d in live.state.counter_defs] == ["seals", "karma"]
        assert token_hash(out["gm_token"]) != out["gm_token"]
    finally:
        manager.close_all()
    app = create_app({"DATA_DIR": str(tmp_path), "ADMIN_KEY": "k" * 32, "TESTING": True})
    try:
        client = app.test_client()
        assert client.get(out["seats"][0]["join_url"]).status_code == 302
        assert client.get(f"/s/{out['session']}/phone").status_code == 200
    finally:
        app.extensions["gmtool"].close_all()


def test_list_shows_the_new_session(capsys, tmp_path):
    out = new_session(capsys, tmp_path)
    assert main(["list", "--data", str(tmp_path)]) == 0
    listed = capsys.readouterr().out
    assert out["session"] in listed and "第五次聖杯戦争" in listed and "generic" in listed
    assert main(["list", "--json", "--data", str(tmp_path)]) == 0
    sessions = json.loads(capsys.readouterr().out)
    assert [(s["id"], s["title"]) for s in sessions] == [(out["session"], "第五次聖杯戦争")]


def test_list_with_no_sessions(capsys, tmp_path):
    assert main(["list", "--data", str(tmp_path)]) == 0
    assert "no sessions yet" in capsys.readouterr().out


def test_new_with_bad_input_prints_a_readable_error(capsys, tmp_path):
    code = main(["new", "--title", "x", "--ruleset", "nosuch", "--data", str(tmp_path)])
    assert code == 2
    err = capsys.readouterr().err
    assert "nosuch" in err and "Unknown ruleset" in err
    code = main(["new", "--title", "x", "--counter", "魔力,5,0,3", "--data", str(tmp_path)])
    assert code == 2
