"""Principle 3: build_view / visible_event are the single secrecy filter."""

from __future__ import annotations

import pytest

from gmtool.core import commands, prompts
from gmtool.core.dice import FixedDice
from gmtool.core.logtext import describe
from gmtool.core.view import GM, TABLE, Viewer, build_view, visible_event

S1, S2, S3 = Viewer("seat", "s1"), Viewer("seat", "s2"), Viewer("seat", "s3")
EVERYONE = (GM, TABLE, S1, S2, S3)


def counters_of(view, seat_id):
    return next(s for s in view["seats"] if s["id"] == seat_id)["counters"]


def lines(pure, viewer):
    """Every log line `viewer` may see, as text and raw dicts."""
    out = []
    for event in pure.events:
        visible = visible_event(event, pure.state, viewer)
        if visible is not None:
            out.append(repr(visible) + describe(visible, pure.state, "ja") + describe(visible, pure.state, "en"))
    return "\n".join(out)


# -- private counters ---------------------------------------------------------

def test_private_counter_hidden_from_other_seats_and_table(pure):
    pure.do(commands.change_counter, "s1", "mana", value=7)
    for viewer in (TABLE, S2, S3):
        assert "mana" not in counters_of(build_view(pure.state, viewer), "s1")
        assert counters_of(build_view(pure.state, viewer), "s1")["seals"] == 3  # public ones stay


def test_private_counter_visible_to_own_seat_and_gm(pure):
    pure.do(commands.change_counter, "s1", "mana", value=7)
    assert counters_of(build_view(pure.state, S1), "s1")["mana"] == 7
    assert counters_of(build_view(pure.state, GM), "s1")["mana"] == 7
    assert "mana" not in counters_of(build_view(pure.state, S1), "s2")
    assert counters_of(build_view(pure.state, S2), "s2")["mana"] == 0


def test_private_counter_change_is_hidden_from_others_in_the_log(pure):
    pure.do(commands.change_counter, "s1", "mana", value=7, reason="魔力供給")
    for viewer in (TABLE, S2):
        assert "魔力供給" not in lines(pure, viewer) and "0→7" not in lines(pure, viewer)
    for viewer in (GM, S1):
        assert "0→7" in lines(pure, viewer)


# -- secret rolls -------------------------------------------------------------

def test_secret_roll_visible_only_to_gm_until_revealed(pure):
    events = pure.do(commands.roll, "Schoice[QUOKKA7,QUOKKA7]", "伏せ札", FixedDice([1]))
    seq = events[0].seq
    assert [r["seq"] for r in build_view(pure.state, GM)["rolls"]] == [seq]
    for viewer in (TABLE, S1, S2):
        assert build_view(pure.state, viewer)["rolls"] == []
        assert visible_event(events[0], pure.state, viewer) is None
        assert "QUOKKA7" not in repr(build_view(pure.state, viewer)) and "QUOKKA7" not in lines(pure, viewer)
    pure.do(commands.reveal_roll, seq)
    for viewer in EVERYONE:
        rolls = build_view(pure.state, viewer)["rolls"]
        assert rolls[0]["choice"] == "QUOKKA7" and rolls[0]["revealed"] is True
        assert visible_event(events[0], pure.state, viewer) is not None


def test_public_roll_is_visible_to_everyone(pure):
    pure.do(commands.roll, "2D6", "判定", FixedDice([2, 6]))
    for viewer in EVERYONE:
        assert build_view(pure.state, viewer)["rolls"][0]["total"] == 8


def test_revealing_a_public_roll_conflicts(pure):
    events = pure.do(commands.roll, "2D6", "", FixedDice([2, 6]))
    with pytest.raises(commands.Conflict):
        commands.reveal_roll(pure.state, events[0].seq)
    with pytest.raises(commands.NotFound):
        commands.reveal_roll(pure.state, 999)


# -- answers ------------------------------------------------------------------

def _answered(pure, gm_submits):
    pid = pure.open({"title": "秘話", "kind": "text", "seats": ["s1", "s2"], "gm_submits": gm_submits})
    events = pure.answer(pid, "s1", "WOMBAT9", salt="SALT-FF00")
    return pid, events[0]


def prompt_of(view, pid):
    return next(p for p in view["prompts"] if p["id"] == pid)


@pytest.mark.parametrize("gm_submits", [False, True])
def test_before_reveal_only_the_author_sees_value_and_salt(pure, gm_submits):
    pid, event = _answered(pure, gm_submits)
    own = prompt_of(build_view(pure.state, S1), pid)
    assert own["your_answer"] == {"value": "WOMBAT9", "salt": "SALT-FF00", "commitment": event.data["commitment"],
                                  "at": event.ts}  # when it was sent: the phone's receipt
    assert visible_event(event, pure.state, S1)["data"]["value"] == "WOMBAT9"
    for viewer in (TABLE, S2, S3):
        view = build_view(pure.state, viewer)
        p = prompt_of(view, pid)
        assert p["commitments"] == {"s1": event.data["commitment"]}
        assert p["answered"] == ["s1"]
        assert p["answers"] == {} and p["your_answer"] is None
        assert "WOMBAT9" not in repr(view) and "SALT-FF00" not in repr(view)
        assert "WOMBAT9" not in lines(pure, viewer) and "SALT-FF00" not in lines(pure, viewer)
        redacted = visible_event(event, pure.state, viewer)["data"]
        assert "value" not in redacted and "salt" not in redacted
        assert redacted["commitment"] == event.data["commitment"]


def test_gm_sees_answers_when_gm_does_not_submit(pure):
    pid, event = _answered(pure, gm_submits=False)
    p = prompt_of(build_view(pure.state, GM), pid)
    assert p["answers"]["s1"]["value"] == "WOMBAT9"
    assert visible_event(event, pure.state, GM)["data"]["value"] == "WOMBAT9"


def test_gm_does_not_see_answers_when_gm_submits_t2(pure):
    pid, event = _answered(pure, gm_submits=True)
    view = build_view(pure.state, GM)
    p = prompt_of(view, pid)
    assert p["answers"] == {} and p["your_answer"] is None
    assert "WOMBAT9" not in repr(view) and "SALT-FF00" not in repr(view)
    assert "WOMBAT9" not in lines(pure, GM) and "SALT-FF00" not in lines(pure, GM)
    redacted = visible_event(event, pure.state, GM)["data"]
    assert "value" not in redacted and "salt" not in redacted


def test_gm_sees_own_answer_but_not_the_seats_when_gm_submits_t2(pure):
    pid, _ = _answered(pure, gm_submits=True)
    pure.answer(pid, "gm", "GMANSWER", salt="gmsalt")
    p = prompt_of(build_view(pure.state, GM), pid)
    assert p["your_answer"]["value"] == "GMANSWER"
    assert set(p["answers"]) == {"gm"}
    assert "GMANSWER" not in repr(build_view(pure.state, S1))


@pytest.mark.parametrize("gm_submits", [False, True])
def test_after_reveal_everyone_sees_every_answer(pure, gm_submits):
    pid, event = _answered(pure, gm_submits)
    pure.do(prompts.reveal, pid, "", pure.resolvers, pure.dice)
    for viewer in EVERYONE:
        p = prompt_of(build_view(pure.state, viewer), pid)
        assert p["revealed"] is True
        assert p["answers"]["s1"] == {"value": "WOMBAT9", "salt": "SALT-FF00", "commitment": event.data["commitment"]}
        assert visible_event(event, pure.state, viewer)["data"]["salt"] == "SALT-FF00"


def test_cancelled_prompt_answers_stay_hidden_in_the_log(pure):
    pid, event = _answered(pure, gm_submits=False)
    pure.do(prompts.cancel, pid, "")
    for viewer in (GM, TABLE, S2):
        assert "WOMBAT9" not in lines(pure, viewer)
        assert "WOMBAT9" not in repr(build_view(pure.state, viewer))
    assert "WOMBAT9" in lines(pure, S1)
    assert all(p["id"] != pid for p in build_view(pure.state, TABLE)["prompts"])


def test_token_reissue_is_logged_for_the_gm_only(pure):
    events = pure.write([("seat.token_reissued", {"id": "s1"})])
    assert visible_event(events[0], pure.state, GM) is not None
    for viewer in (TABLE, S1, S2):
        assert visible_event(events[0], pure.state, viewer) is None


def test_view_names_its_viewer_and_marks_your_seat(pure):
    view = build_view(pure.state, S2)
    assert view["viewer"] == {"kind": "seat", "seat": "s2"}
    assert [s["you"] for s in view["seats"]] == [False, True, False]
    assert build_view(pure.state, TABLE)["session"]["seed"] is None


# -- a game's own rolls (EventType.rolls) -------------------------------------------------------

def test_a_games_roll_is_listed_only_for_those_who_may_see_its_event():
    """A ruleset's event that is a roll shows its rolls on the screens' lists through its own visibility: a seat's
    secret die (own_seat) for that seat and the GM; a redacted one without what is redacted; a public one for all."""
    from gmtool.core.engine import apply
    from gmtool.core.model import Event, Label, State
    from gmtool.core.ruleset import EventType, Ruleset, own_seat, redacted
    from gmtool.core.view import screen_rolls

    def rolled(data, state):
        if data.get("nothing"):  # an event of the type that rolled nothing
            return []
        return [{"by": data["seat"], "label": {"ja": "判定", "en": "Check"}, "text": f"1D6 → [{data.get('face', '?')}]",
                 "total": data.get("face")}]

    def nothing(state, e):
        pass

    rules = Ruleset("homebrew_dice", Label("自作", "Homebrew"), events=(
        EventType("homebrew.secret_die", nothing, lambda e, s, lang: "", own_seat("seat"), rolls=rolled),
        EventType("homebrew.hidden_face", nothing, lambda e, s, lang: "",
                  redacted(("face",), lambda e, s, v: v.is_gm), rolls=rolled)))
    state = State(rules=rules)
    for seq, (event_type, data) in enumerate([
            ("session.created", {"id": "x", "title": "t", "ruleset": "homebrew_dice", "seed_hash": "0" * 64,
                                 "seats": [{"id": "s1", "name": "A"}, {"id": "s2", "name": "B"}]}),
            ("homebrew.secret_die", {"seat": "s1", "face": 6}),
            ("homebrew.hidden_face", {"seat": "s2", "face": 4}),
            ("homebrew.secret_die", {"seat": "s1", "nothing": True})], 1):
        apply(state, Event(seq, "", "gm", seq, event_type, data))
    assert [e.seq for e in state.game_rolls] == [2, 3]  # what rolled nothing takes no place in the kept window

    def listed(viewer):
        return [(r["by"], r["text"], r["total"]) for r in screen_rolls(state, viewer, 20)]

    assert listed(GM) == [("seat:s2", "1D6 → [4]", 4), ("seat:s1", "1D6 → [6]", 6)]
    assert listed(Viewer("seat", "s1")) == [("seat:s2", "1D6 → [?]", None), ("seat:s1", "1D6 → [6]", 6)]
    assert listed(TABLE) == listed(Viewer("seat", "s2")) == [("seat:s2", "1D6 → [?]", None)]
    assert build_view(state, TABLE)["rolls"] == []  # the API's rolls are core's (dice.rolled) only
