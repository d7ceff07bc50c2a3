"""JSON export -> import through real SessionManagers on SQLite files in tmp_path.

Public export -> import: the table's view is the same except
  * session.seed_hash: the imported session gets a new dice seed (the old one stays secret), announced
    by a `session.imported` event, so rolls made after the import can still be verified;
  * session.version: that `session.imported` event is one more event in the log.
session.id is kept when it is free in the new data folder. Views of the GM and of the seats
differ on purpose: the public export has no GM-secret roll, no private counter change and no
unrevealed answer value, so the imported session cannot know them.

Full backup -> import: the same session in every respect (state, every viewer's view, version,
seed and tokens).
"""

from __future__ import annotations

import copy
import json

import pytest

from export_session import GENERIC, SEATS, events_of, play

from gmtool import operations as ops
from gmtool.core.errors import GmError
from gmtool.core.view import GM, TABLE, Viewer, build_view
from gmtool.export import Options, export
from gmtool.runtime import SessionManager


@pytest.fixture
def managers(tmp_path):
    made = []

    def make(name: str) -> SessionManager:
        m = SessionManager(tmp_path / name)
        made.append(m)
        return m

    yield make
    for m in made:
        m.close_all()


def all_viewers(state):
    return [GM, TABLE] + [Viewer("seat", s) for s in state.seats]


def test_public_export_imports_to_the_same_table_view(managers):
    live, _tokens, secret = play(managers("a"))
    text = export(events_of(live), live.ruleset, "json", Options())
    target = managers("b")
    live2, tokens2 = target.import_session(text)
    assert tokens2 is not None and set(tokens2["seats"]) == set(SEATS)

    before, after = build_view(live.state, TABLE), build_view(live2.state, TABLE)
    assert after["session"]["id"] == before["session"]["id"]  # free in the new data folder: kept
    differs = {k for k in before["session"] if before["session"][k] != after["session"][k]}
    assert differs == {"seed_hash", "version"}
    assert after["session"]["version"] == before["session"]["version"] + 1  # the session.imported event
    last = list(live2.store.events())[-1]
    assert last.type == "session.imported" and last.data["from"] == live.state.session_id
    assert last.data["seed_hash"] == after["session"]["seed_hash"]
    assert before["secret_rolls"] and after["secret_rolls"] == []  # the table knew a secret roll was made; the export left it out
    for view in (before, after):
        del view["session"]["seed_hash"], view["session"]["version"], view["secret_rolls"]
    assert after == before

    # What the public export could not carry, and why the other views differ.
    assert not any(r.seq == secret["seq"] for r in live2.state.rolls)  # the GM's secret roll
    assert live2.state.counters["s2"]["mana"] == 0 and live.state.counters["s2"]["mana"] == 4  # private
    assert live2.state.prompts["p3"].answers["s1"].value is None  # unrevealed: commitment only
    assert live2.state.prompts["p3"].answers["s1"].commitment == live.state.prompts["p3"].answers["s1"].commitment

    # The new tokens work and the imported session goes on with its new seed.
    assert live2.viewer_for(tokens2["gm"]) == GM
    assert live2.viewer_for(tokens2["table"]) == TABLE
    assert live2.viewer_for(tokens2["seats"]["s2"]) == Viewer("seat", "s2")
    ops.roll(live2, GM, {"expr": "1D6", "label": "続き"})
    assert live2.state.rolls[-1].label == "続き"


def test_full_backup_imports_to_the_same_session(managers):
    live, tokens, _secret = play(managers("a"))
    text = export(events_of(live), live.ruleset, "json", Options(), secrets=live.store.get_secrets())
    target = managers("b")
    live2, new_tokens = target.import_session(text, restore_tokens=True)
    assert new_tokens is None  # the old tokens keep working

    assert live2.state == live.state
    for viewer in all_viewers(live.state):
        assert build_view(live2.state, viewer) == build_view(live.state, viewer), viewer
    assert live2.state.counters == live.state.counters and live2.state.prompts == live.state.prompts
    assert live2.seed == live.seed and live2.version == live.version
    assert [e.to_dict() for e in events_of(live2)] == [e.to_dict() for e in events_of(live)]

    assert live2.viewer_for(tokens["gm"]) == GM
    assert live2.viewer_for(tokens["table"]) == TABLE
    for seat_id, token in tokens["seats"].items():
        assert live2.viewer_for(token) == Viewer("seat", seat_id)
    assert live2.join_tokens == live.join_tokens

    # The same seed and die count: the next roll is the same in both.
    assert ops.roll(live2, GM, {"expr": "3D6", "label": "x"})["text"] == ops.roll(live, GM, {"expr": "3D6",
                                                                                            "label": "x"})["text"]
    # Undo history is rebuilt from the log too.
    ops.undo(live2, GM)
    assert live2.state.rolls[-1].label != "x"


def test_full_backup_of_a_closed_session(managers):
    live, _tokens, _secret = play(managers("a"))
    ops.close(live, GM)
    live2, _ = managers("b").import_session(export(events_of(live), live.ruleset, "json", secrets=live.store.get_secrets()))
    for viewer in all_viewers(live.state):
        assert build_view(live2.state, viewer) == build_view(live.state, viewer)
    assert live2.state.closed and live2.state.seed == live.seed.hex()


def test_importing_an_existing_id_gets_a_new_id(managers):
    source = managers("a")
    live, tokens, _secret = play(source)
    sid = live.state.session_id
    events = events_of(live)

    copy_public, tokens_public = source.import_session(export(events, GENERIC, "json"))
    assert copy_public.state.session_id != sid and tokens_public is not None
    assert copy_public.state.title == live.state.title
    assert (source.data_dir / f"{copy_public.state.session_id}.sqlite").exists()

    copy_full, _ = source.import_session(export(events, GENERIC, "json", secrets=live.store.get_secrets()),
                                         restore_tokens=True)
    assert copy_full.state.session_id not in (sid, copy_public.state.session_id)
    assert copy_full.viewer_for(tokens["gm"]) == GM
    view = build_view(copy_full.state, GM)
    assert view["session"]["id"] == copy_full.state.session_id
    view["session"]["id"] = sid
    assert view == build_view(live.state, GM)

    # The original is untouched.
    assert source.get(sid) is live and build_view(live.state, GM)["session"]["id"] == sid
    assert {m["id"] for m in source.list()} == {sid, copy_public.state.session_id, copy_full.state.session_id}


def _bad_docs(text: str) -> dict[str, str]:
    doc = json.loads(text)

    def changed(fn) -> str:
        d = copy.deepcopy(doc)
        fn(d)
        return json.dumps(d, ensure_ascii=False)

    def swap(d):
        d["events"][2], d["events"][3] = d["events"][3], d["events"][2]

    def duplicate(d):
        d["events"][3]["seq"] = d["events"][2]["seq"]

    return {
        "not json": text[:-20],
        "a list": json.dumps(doc["events"]),
        "wrong schema": changed(lambda d: d.update(schema="gmtool.export/0")),
        "no schema": changed(lambda d: d.pop("schema")),
        "out of order": changed(swap),
        "duplicate seq": changed(duplicate),
        "no events": changed(lambda d: d.update(events=[])),
        "first event not created": changed(lambda d: d["events"].pop(0)),
        "malformed event": changed(lambda d: d["events"][1].pop("data")),
        "unknown event type": changed(lambda d: d["events"][2].update(type="bogus")),
        # declared by core once but never written, nor documented: an import cannot bring one in either
        "seat.updated": changed(lambda d: d["events"][2].update(type="seat.updated", data={"id": "s1", "name": "X"})),
        "event about a missing seat": changed(lambda d: d["events"][1]["data"].update(seat="s9")),
        "full without secrets": changed(lambda d: d.update(full=True)),
        "full with a broken seed": changed(lambda d: d.update(full=True, secrets={"seed": "zz"})),
    }


@pytest.mark.parametrize("full", [False, True], ids=["public", "full"])
def test_bad_imports_are_refused_and_create_nothing(managers, full):
    live, _tokens, _secret = play(managers("a"))
    text = export(events_of(live), live.ruleset, "json", secrets=live.store.get_secrets() if full else None)
    target = managers("b")
    for name, bad in _bad_docs(text).items():
        if full and name == "full without secrets":
            bad = json.dumps({**json.loads(bad), "secrets": None})
        with pytest.raises(GmError):
            target.import_session(bad)
        assert list(target.data_dir.iterdir()) == [], name
        assert target.sessions == {} and target.list() == [], name
    # and the good one still imports
    live2, _ = target.import_session(text)
    assert live2.state.title == "往復テスト"


def test_public_export_of_a_closed_session_keeps_a_verifiable_seed(managers):
    from gmtool.core.dice import seed_hash
    live, _tokens, _secret = play(managers("a"))
    ops.close(live, GM)
    live2, _ = managers("b").import_session(export(events_of(live), live.ruleset, "json"))
    session = build_view(live2.state, TABLE)["session"]
    assert session["closed"] and session["seed"] == live.seed.hex()
    assert seed_hash(bytes.fromhex(session["seed"])) == session["seed_hash"]
