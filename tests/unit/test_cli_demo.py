"""`gmtool serve --demo`: ready sample sessions so a newcomer sees everything at once."""

from __future__ import annotations

from gmtool.cli import _demo
from gmtool.core.view import GM as GM_VIEW
from gmtool.core.view import TABLE, build_view
from gmtool.rulesets import registry
from gmtool.runtime import SessionManager


def test_demo_creates_a_session_of_every_game(tmp_path):
    manager = SessionManager(tmp_path)
    try:
        first = _demo(manager)
        listed = {s["ruleset"]: s["id"] for s in manager.list()}
        assert set(listed) == set(registry())  # every game declares a demo
        assert listed["generic"] == first
        generic = build_view(manager.get(first).state, TABLE)
        assert generic["prompts"][0]["status"] == "open"
        assert generic["rolls"] and generic["seats"][2]["flags"][0]["flag"] == "subjugation"
        grail = manager.get(listed["grail_trpg"])
        table_view = build_view(grail.state, TABLE)
        assert "アルトリア" not in str(table_view)  # true names stay secret from the table
        assert "アルトリア" in str(build_view(grail.state, GM_VIEW))
        sugoroku = manager.get(listed["sugoroku"])
        assert "メドゥーサ" not in str(build_view(sugoroku.state, TABLE))
        ace = build_view(manager.get(listed["ace_royal"]).state, TABLE)
        assert ace["ruleset"]["combat"]["interceptor_side"]["kind"] == "physical"  # a combat ready for the GM to resolve
        assert "佐々木小次郎" not in str(ace)  # the third master's servant is still face down
        illuminati = build_view(manager.get(listed["illuminati"]).state, TABLE)["ruleset"]
        assert illuminati["order"] and illuminati["attack"]["breakdown"]["achieved"] == 8  # an attack to roll
    finally:
        manager.close_all()


def test_demo_reuses_its_sessions(tmp_path):
    manager = SessionManager(tmp_path)
    try:
        first = _demo(manager)
        count = len(manager.list())
        assert _demo(manager) == first and len(manager.list()) == count  # a second --demo adds nothing
        grail = next(s["id"] for s in manager.list() if s["ruleset"] == "grail_trpg")
        manager.close_all()
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / f"{grail}.sqlite{suffix}").unlink(missing_ok=True)
        assert _demo(manager) == first and len(manager.list()) == count  # one deleted: only it is made again
        assert next(s["id"] for s in manager.list() if s["ruleset"] == "grail_trpg") != grail
    finally:
        manager.close_all()


def test_serve_on_a_port_in_use_says_so_and_exits_2(tmp_path, capsys):
    import socket

    from gmtool.cli import main
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        code = main(["serve", "--no-browser", "--host", "127.0.0.1", "--port", str(busy.getsockname()[1]),
                     "--data", str(tmp_path)])
    finally:
        busy.close()
    assert code == 2
    err = capsys.readouterr().err
    assert "使用中" in err and "in use" in err
