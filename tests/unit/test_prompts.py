"""Secret prompts (T-2, S-7, I-2): open, answer with a commitment, lock, reveal, cancel, extend, modify, confirm."""

from __future__ import annotations

import re

import pytest

from gmtool.core import engine, prompts
from gmtool.core.commitments import verify
from gmtool.core.errors import Conflict, Forbidden, GmError, NotFound
from gmtool.core.view import GM, TABLE, Viewer, prompt_view, visible_event
from gmtool.web.screens import render_fragment

STATS = ["筋力", "耐久", "敏捷", "魔力", "幸運", "宝具"]


def spec(**over):
    base = {"title": "1stセレクト", "kind": "choice", "options": STATS, "seats": ["s1", "s2"]}
    return {**base, **over}


# -- open ---------------------------------------------------------------------

def test_open_choice_prompt(pure):
    pid = pure.open(spec(resolver="cancel_duplicates"))
    prompt = pure.state.prompts[pid]
    assert prompt.status == "open" and prompt.kind == "choice"
    assert prompt.options == STATS and prompt.seats == ["s1", "s2"]
    assert prompt.respondents() == ["s1", "s2"]


def test_open_with_all_seats_and_gm(pure):
    pid = pure.open(spec(seats="all", gm_submits=True))
    assert pure.state.prompts[pid].respondents() == ["s1", "s2", "s3", "gm"]


def test_seat_prompt_defaults_options_to_seat_ids(pure):
    pid = pure.open({"title": "真名看破投票", "kind": "seat", "seats": "all", "resolver": "votes"})
    assert pure.state.prompts[pid].options == ["s1", "s2", "s3"]


@pytest.mark.parametrize("bad, fragment", [
    ({"kind": "dice"}, "Unknown kind"),
    ({"options": ["筋力"]}, "at least two options"),
    ({"kind": "multi", "options": ["筋力"]}, "at least two options"),
    ({"options": ["筋力", "筋力", "耐久"]}, "unique"),
    ({"options": [f"o{i}" for i in range(31)]}, "at most 30"),
    ({"options": "筋力,耐久"}, "must be a list"),
    ({"seats": ["s1", "s9"]}, "existing seat ids"),
    ({"seats": "s1"}, "existing seat ids"),
    ({"seats": []}, "at least one seat"),
    ({"title": ""}, "prompt title"),
    ({"title": "x" * 81}, "at most 80"),
    ({"kind": "seat", "options": ["s1", "誰か"]}, "seat ids"),
    ({"kind": "number", "options": ["1", "2"]}, "takes no options"),
    ({"kind": "text", "options": ["a"]}, "takes no options"),
    ({"kind": "number", "options": [], "min": 5, "max": 1}, "minimum is above"),
    ({"kind": "number", "options": [], "min": "abc"}, "whole number"),
    ({"resolver": "coin_flip"}, "There is no such resolver"),
    # the GM console's menu can pair a resolver with a kind it does not fit: named as the menu shows it, not its id
    ({"resolver": "sum"}, "The resolver 'Sum' does not fit this kind of prompt"),
    ({"kind": "text", "options": [], "resolver": "highest"}, "The resolver 'Highest number wins' does not fit"),
    ({"kind": "multi", "resolver": "cancel_duplicates"}, "The resolver 'Same answers cancel' does not fit"),
    ({"disabled": {"s3": {"宝具": "使用済み"}}}, "disabled"),
    ({"disabled": {"s1": {"聖剣": "使用済み"}}}, "disabled"),
    ({"disabled": ["s1"]}, "disabled"),
])
def test_open_validation_rejects_bad_specs(pure, bad, fragment):
    with pytest.raises(GmError) as caught:
        pure.open(spec(**bad))
    assert fragment in caught.value.en
    assert caught.value.ja
    assert pure.state.prompts == {}


@pytest.mark.parametrize("meta", ["x", [1, 2], 5])
def test_open_rejects_a_meta_that_is_not_an_object(pure, meta):
    """A bad meta must be refused before it is written (it would break the fold of the log)."""
    with pytest.raises(GmError):
        pure.open(spec(meta=meta))
    assert pure.refold().prompts == {}


@pytest.mark.parametrize("note", ["x", {"ja": "一言"}, {"ja": "一言", "en": ["a line"]}, {"ja": "", "en": "a line"},
                                  {"ja": "あ" * 201, "en": "a line"}])
def test_open_refuses_a_note_that_is_not_a_line_in_both_languages(pure, note):
    """`meta.note`, the line its respondents read above their answer form, is two texts of 1 to 200 characters."""
    with pytest.raises(GmError) as caught:
        pure.open(spec(meta={"note": note}))
    assert caught.value.ja and caught.value.en
    assert pure.refold().prompts == {}


def test_a_note_is_shown_to_the_respondents_only(pure):
    pid = pure.open(spec(seats=["s1"], meta={"note": {"ja": " あなたが決めます ", "en": "Yours to decide"}}))
    prompt = pure.state.prompts[pid]
    assert prompt_view(prompt, pure.state, Viewer("seat", "s1"))["note"] == {"ja": "あなたが決めます", "en": "Yours to decide"}
    assert [prompt_view(prompt, pure.state, viewer)["note"] for viewer in (Viewer("seat", "s2"), TABLE, GM)] == [None] * 3


def test_open_is_refused_when_spec_is_not_an_object(pure):
    with pytest.raises(GmError):
        pure.do(prompts.open_prompt, "p1", ["not", "a", "dict"], pure.resolvers)


# -- answer validation --------------------------------------------------------

def test_choice_answer_not_offered_is_rejected(pure):
    pid = pure.open(spec())
    with pytest.raises(GmError) as caught:
        pure.answer(pid, "s1", "聖剣")
    assert "聖剣" in caught.value.ja and "not one of the options" in caught.value.en


def test_disabled_option_is_rejected_with_its_reason_t5(pure):
    pid = pure.open(spec(disabled={"s1": {"宝具": "この戦闘で使用済み（T-5）"}}))
    with pytest.raises(GmError) as caught:
        pure.answer(pid, "s1", "宝具")
    assert "この戦闘で使用済み（T-5）" in caught.value.ja
    assert "この戦闘で使用済み（T-5）" in caught.value.en and "not allowed" in caught.value.en
    pure.answer(pid, "s2", "宝具")  # only s1's option is disabled
    assert pure.state.prompts[pid].answers["s2"].value == "宝具"


def test_disabled_options_are_shown_only_to_their_seat(pure):
    pid = pure.open(spec(disabled={"s1": {"宝具": "使用済み"}}))
    prompt = pure.state.prompts[pid]
    assert prompt_view(prompt, pure.state, Viewer("seat", "s1"))["disabled"] == {"宝具": "使用済み"}
    assert prompt_view(prompt, pure.state, Viewer("seat", "s2"))["disabled"] == {}
    assert prompt_view(prompt, pure.state, TABLE)["disabled"] == {}


@pytest.mark.parametrize("value", [0, 101, "-5", "abc", 1.5, None])
def test_number_out_of_bounds_or_not_a_number_is_rejected(pure, value):
    pid = pure.open(spec(kind="number", options=[], min=1, max=100))
    with pytest.raises(GmError):
        pure.answer(pid, "s1", value)
    assert pure.state.prompts[pid].answers == {}


@pytest.mark.parametrize("value, stored", [(1, 1), ("100", 100), (" 55 ", 55)])
def test_number_within_bounds_is_accepted(pure, value, stored):
    pid = pure.open(spec(kind="number", options=[], min=1, max=100))
    pure.answer(pid, "s1", value)
    assert pure.state.prompts[pid].answers["s1"].value == stored


def test_multi_duplicates_are_rejected(pure):
    pid = pure.open(spec(kind="multi", options=["A", "B", "C"]))
    with pytest.raises(GmError) as caught:
        pure.answer(pid, "s1", ["A", "A"])
    assert "each at most once" in caught.value.en


def test_multi_count_bounds_and_order(pure):
    pid = pure.open(spec(kind="multi", options=["A", "B", "C", "D"], min=2, max=3))
    with pytest.raises(GmError):
        pure.answer(pid, "s1", ["A"])
    with pytest.raises(GmError):
        pure.answer(pid, "s1", ["A", "B", "C", "D"])
    with pytest.raises(GmError):
        pure.answer(pid, "s1", ["A", "Z"])
    pure.answer(pid, "s1", ["C", "A"])
    assert pure.state.prompts[pid].answers["s1"].value == ["A", "C"]  # in option order


def test_text_too_long_is_rejected(pure):
    pid = pure.open(spec(kind="text", options=[]))
    with pytest.raises(GmError) as caught:
        pure.answer(pid, "s1", "あ" * 201)
    assert "200" in caught.value.ja
    pure.answer(pid, "s1", "あ" * 200)
    assert len(pure.state.prompts[pid].answers["s1"].value) == 200


def test_empty_text_is_rejected(pure):
    pid = pure.open(spec(kind="text", options=[]))
    with pytest.raises(GmError):
        pure.answer(pid, "s1", "   ")


def test_seat_not_a_respondent_is_forbidden(pure):
    pid = pure.open(spec())
    with pytest.raises(Forbidden) as caught:
        pure.answer(pid, "s3", "筋力")
    assert caught.value.status == 403
    with pytest.raises(Forbidden):
        pure.answer(pid, "gm", "筋力")  # the GM answers only when gm_submits


def test_answer_to_unknown_prompt_is_not_found(pure):
    with pytest.raises(NotFound):
        pure.answer("p9", "s1", "筋力")


def test_answer_after_lock_conflicts(pure):
    pid = pure.open(spec())
    pure.answer(pid, "s1", "筋力")
    pure.do(prompts.lock, pid, "時間切れ")
    assert pure.state.prompts[pid].status == "locked"
    with pytest.raises(Conflict) as caught:
        pure.answer(pid, "s2", "耐久")
    assert caught.value.status == 409
    with pytest.raises(Conflict):
        pure.answer(pid, "s1", "耐久")  # no change after the lock either
    with pytest.raises(Conflict):
        pure.do(prompts.lock, pid)


# -- answers, commitments, reveal ----------------------------------------------

def test_answer_writes_a_commitment_that_verifies(pure):
    pid = pure.open(spec())
    events = pure.answer(pid, "s1", "敏捷", salt="9f8e")
    data = events[0].data
    assert events[0].type == "prompt.answered" and events[0].actor == "seat:s1"
    assert verify("9f8e", "敏捷", data["commitment"])
    assert data["change"] is False


def test_same_answer_twice_writes_no_new_event(pure):
    pid = pure.open(spec())
    pure.answer(pid, "s1", "筋力", salt="a")
    count = len(pure.events)
    assert pure.answer(pid, "s1", "筋力", salt="b") == []
    assert len(pure.events) == count
    assert pure.state.prompts[pid].answers["s1"].salt == "a"


def test_changed_answer_writes_a_new_event_and_commitment(pure):
    pid = pure.open(spec())
    first = pure.answer(pid, "s1", "筋力", salt="a")[0].data["commitment"]
    events = pure.answer(pid, "s1", "耐久", salt="b")
    assert [e.type for e in events] == ["prompt.answered"]
    assert events[0].data["change"] is True
    answer = pure.state.prompts[pid].answers["s1"]
    assert answer.value == "耐久" and answer.commitment != first
    assert verify("b", "耐久", answer.commitment)


def test_auto_reveal_when_everyone_answered(pure):
    pid = pure.open(spec(resolver="cancel_duplicates"))
    assert [e.type for e in pure.answer(pid, "s1", "筋力")] == ["prompt.answered"]
    assert pure.state.prompts[pid].status == "open"
    events = pure.answer(pid, "s2", "幸運")
    assert [e.type for e in events] == ["prompt.answered", "prompt.revealed", "prompt.resolved"]
    assert events[1].data["auto"] is True
    prompt = pure.state.prompts[pid]
    assert prompt.status == "revealed"
    assert prompt.resolution["resolver"] == "cancel_duplicates"
    assert prompt.resolution["winners"] == ["s1", "s2"]


def test_auto_reveal_waits_for_the_gm_when_the_gm_submits_t2(pure):
    pid = pure.open(spec(gm_submits=True))
    pure.answer(pid, "s1", "筋力")
    pure.answer(pid, "s2", "耐久")
    assert pure.state.prompts[pid].status == "open"
    pure.answer(pid, "gm", "魔力")
    assert pure.state.prompts[pid].status == "revealed"


def test_early_reveal_with_missing_answers(pure):
    pid = pure.open(spec(kind="number", options=[], seats="all", resolver="highest"))
    pure.answer(pid, "s1", 40)
    pure.answer(pid, "s2", 55)
    events = pure.do(prompts.reveal, pid, "ランサーが時間切れ", pure.resolvers, pure.dice)
    assert [e.type for e in events] == ["prompt.revealed", "prompt.resolved"]
    assert events[0].data["auto"] is False
    prompt = pure.state.prompts[pid]
    assert prompt.status == "revealed" and prompt.reason == "ランサーが時間切れ"
    assert prompt.resolution["winners"] == ["s2"]
    assert [r["who"] for r in prompt.resolution["rows"]] == ["s1", "s2"]
    with pytest.raises(Conflict):
        pure.do(prompts.reveal, pid, "", pure.resolvers, pure.dice)
    with pytest.raises(Conflict):
        pure.answer(pid, "s3", 99)


def test_reveal_after_lock(pure):
    pid = pure.open(spec())
    pure.answer(pid, "s1", "筋力")
    pure.do(prompts.lock, pid)
    pure.do(prompts.reveal, pid, "", pure.resolvers, pure.dice)
    assert pure.state.prompts[pid].status == "revealed"


def test_cancelled_answers_are_never_visible_to_others(pure):
    pid = pure.open(spec(gm_submits=False))
    pure.answer(pid, "s1", "宝具", salt="secret-salt")
    pure.do(prompts.cancel, pid, "やり直し")
    prompt = pure.state.prompts[pid]
    assert prompt.status == "cancelled"
    for viewer in (GM, TABLE, Viewer("seat", "s2"), Viewer("seat", "s3")):
        view = prompt_view(prompt, pure.state, viewer)
        assert view["answers"] == {} and view["your_answer"] is None
        assert "宝具" not in repr(view["answers"]) and "secret-salt" not in repr(view)
    own = prompt_view(prompt, pure.state, Viewer("seat", "s1"))
    assert own["your_answer"]["value"] == "宝具"
    with pytest.raises(Conflict):
        pure.do(prompts.reveal, pid, "", pure.resolvers, pure.dice)  # ... not even later
    with pytest.raises(Conflict):
        pure.answer(pid, "s2", "筋力")
    with pytest.raises(Conflict):
        pure.do(prompts.cancel, pid)


def test_revealed_prompt_cannot_be_cancelled(pure):
    pid = pure.open(spec())
    pure.answer(pid, "s1", "筋力")
    pure.answer(pid, "s2", "耐久")
    with pytest.raises(Conflict):
        pure.do(prompts.cancel, pid)


def test_extend_adds_seats_who_must_then_answer(pure):
    pid = pure.open(spec())
    pure.answer(pid, "s1", "筋力")
    events = pure.do(prompts.extend, pid, ["s3", "s1"], "ランサーも参戦")
    assert events[0].data["seats"] == ["s3"]
    prompt = pure.state.prompts[pid]
    assert prompt.seats == ["s1", "s2", "s3"]
    pure.answer(pid, "s2", "耐久")
    assert prompt.status == "open"  # still waiting for s3
    pure.answer(pid, "s3", "敏捷")
    assert prompt.status == "revealed"


@pytest.mark.parametrize("seats", [["s1"], [], "s3", ["s9"]])
def test_extend_needs_new_existing_seats(pure, seats):
    pid = pure.open(spec())
    with pytest.raises(GmError):
        pure.do(prompts.extend, pid, seats)


def test_extend_after_lock_conflicts(pure):
    pid = pure.open(spec())
    pure.do(prompts.lock, pid)
    with pytest.raises(Conflict):
        pure.do(prompts.extend, pid, ["s3"])


def _duel(pure, a=30, b=25):
    pid = pure.open(spec(kind="number", options=[], resolver="highest"))
    pure.answer(pid, "s1", a)
    pure.answer(pid, "s2", b)
    return pid


def test_modifier_re_resolves_highest_plus_10_flips_the_winner(pure):
    pid = _duel(pure)
    assert pure.state.prompts[pid].resolution["winners"] == ["s1"]
    events = pure.do(prompts.add_modifier, pid, "s2", "+10", "怪力", pure.resolvers, pure.dice)
    assert [e.type for e in events] == ["prompt.modified", "prompt.resolved"]
    resolution = pure.state.prompts[pid].resolution
    assert resolution["winners"] == ["s2"]
    row = next(r for r in resolution["rows"] if r["who"] == "s2")
    assert row["total"] == 35
    assert {"label": "怪力", "value": 10, "rule": "GM"} in row["terms"]
    assert pure.state.prompts[pid].modifiers == [{"who": "s2", "amount": 10, "label": "怪力"}]


def test_modifier_to_a_tie_gives_no_winner(pure):
    pid = _duel(pure)
    pure.do(prompts.add_modifier, pid, "s2", 5, "補正", pure.resolvers, pure.dice)
    assert pure.state.prompts[pid].resolution["winners"] == []


def test_modifier_before_reveal_conflicts(pure):
    pid = pure.open(spec(kind="number", options=[], resolver="highest"))
    with pytest.raises(Conflict):
        pure.do(prompts.add_modifier, pid, "s1", 10, "怪力", pure.resolvers, pure.dice)


@pytest.mark.parametrize("who, amount, label", [("s3", 10, "x"), ("s1", "abc", "x"), ("s1", 10, "")])
def test_bad_modifier_is_rejected(pure, who, amount, label):
    pid = _duel(pure)
    with pytest.raises(GmError):
        pure.do(prompts.add_modifier, pid, who, amount, label, pure.resolvers, pure.dice)


def test_confirm_once(pure):
    pid = _duel(pure)
    events = pure.do(prompts.confirm, pid)
    assert events[0].type == "prompt.confirmed"
    assert pure.state.prompts[pid].confirmed
    with pytest.raises(Conflict):
        pure.do(prompts.confirm, pid)
    with pytest.raises(Conflict):
        pure.do(prompts.add_modifier, pid, "s2", 10, "怪力", pure.resolvers, pure.dice)


def test_confirm_before_reveal_conflicts(pure):
    pid = pure.open(spec())
    with pytest.raises(Conflict):
        pure.do(prompts.confirm, pid)


def test_prompt_state_refolds_identically(pure):
    pid = _duel(pure)
    pure.do(prompts.add_modifier, pid, "s2", 10, "怪力", pure.resolvers, pure.dice)
    pure.do(prompts.confirm, pid)
    again = pure.refold()
    assert prompt_view(again.prompts[pid], again, GM) == prompt_view(pure.state.prompts[pid], pure.state, GM)


# -- an option taken off -----------------------------------------------------------

def test_a_disabled_option_is_refused_to_every_respondent_and_a_copy_keeps_its_own(pure):
    """prompts.disable_option (a ruleset's: sugoroku's player put out during a vote): every respondent's view lists it
    with its reason, also a respondent added later (extend: the new decider of sugoroku's tie-break could pick a
    player already out), and an answer naming it is refused; an answer given for it before is awaited again (the
    prompt revealed itself with it as soon as the others had answered); a state copied before (State.copy, as undo
    and plans make one: the prompt's per-seat maps are shared) does not gain it; a revealed prompt or an unknown
    option is refused."""
    pid = pure.open(spec(disabled={"s1": {"筋力": "呪い"}}))
    pure.answer(pid, "s2", "宝具")
    before = pure.state.copy()
    out = {"ja": "脱落", "en": "out"}
    events = pure.do(prompts.disable_option, pid, "宝具", out)
    assert [e.type for e in events] == ["prompt.option_disabled"]
    pure.do(prompts.extend, pid, ["s3"])
    for seat in ("s1", "s2", "s3"):
        assert prompt_view(pure.state.prompts[pid], pure.state, Viewer("seat", seat))["disabled"]["宝具"] == out
    assert pure.state.prompts[pid].per_seat["s1"] == {"筋力": "呪い", "宝具": out}
    assert before.prompts[pid].per_seat == {"s1": {"筋力": "呪い"}}
    with pytest.raises(GmError, match="not allowed: out"):
        pure.answer(pid, "s3", "宝具")
    assert pure.refold().prompts[pid].per_seat == pure.state.prompts[pid].per_seat
    pure.answer(pid, "s1", "耐久")
    pure.answer(pid, "s3", "敏捷")  # s2's answer counts no more: awaited again, not revealed
    assert pure.state.prompts[pid].status == "open" and prompts.void(pure.state.prompts[pid], "s2")
    with pytest.raises(GmError):
        prompts.disable_option(pure.state, pid, "nope", out)
    pure.do(prompts.reveal, pid, "", pure.resolvers, pure.dice)  # the GM may reveal it by hand
    with pytest.raises(Conflict):
        prompts.disable_option(pure.state, pid, "敏捷", out)


def test_a_prompt_copy_shares_nothing_a_change_in_place_could_reach(pure):
    """Prompt.copy (State.writable_prompt makes one before a fold changes a prompt a copied state shares): changing
    any list, dict or answer of the copy in place, however deep, never changes the original. The copy was one level
    deep: `off`, each seat's map in `per_seat`, the resolution, each modifier, `meta`'s parts and the answers
    themselves were the original's, so a fold that changed one in place would have changed a state copied before
    (undo's, a plan's). What is nested is now read-only (changing it raises), what a fold changes is copied."""
    import copy as copying
    from dataclasses import fields

    from gmtool.core.model import Prompt
    pid = pure.open(spec(kind="multi", title={"ja": "セレクト", "en": "Select"}, resolver="votes", seats="all",
                         disabled={"s1": {"筋力": "呪い"}}, meta={"note": {"ja": "一言", "en": "a word"},
                                                                "parts": [{"deep": [1, 2]}]}))
    for seat, value in (("s1", ["耐久", "敏捷"]), ("s2", ["宝具"])):
        pure.answer(pid, seat, value)
    pure.do(prompts.disable_option, pid, "幸運", {"ja": "脱落", "en": "out"})
    pure.do(prompts.reveal, pid, "早期公開", pure.resolvers, pure.dice)
    pure.do(prompts.add_modifier, pid, "s1", 2, "怪力", pure.resolvers, pure.dice)
    original = pure.state.prompts[pid]
    empty = [f.name for f in fields(Prompt) if f.name not in ("min", "max")  # (whole numbers, or none)
             and getattr(original, f.name) in ({}, [], None, "")]
    assert empty == [], empty  # every part is there to be changed (a field added later is too, or this fails)
    assert original.resolution["rows"] and original.off and original.per_seat["s1"] and original.modifiers
    before = copying.deepcopy(original)
    twin = original.copy()

    def change(value, seen: set) -> None:  # every change in place a list, dict or answer allows, all the way down
        if id(value) in seen:
            return
        seen.add(id(value))
        items = list(value.values()) if isinstance(value, dict) else list(value) if isinstance(value, list) else \
            [getattr(value, name) for name in value.__slots__] if hasattr(value, "__slots__") and value.__slots__ else []
        for item in items:
            change(item, seen)
        attempts = {dict: (lambda: value.update(changed=1), lambda: value.pop(next(iter(value)), None),
                           lambda: value.clear()),
                    list: (lambda: value.append("changed"), lambda: value.__setitem__(0, "changed"),
                           lambda: value.clear())}
        for kind, tries in attempts.items():
            if isinstance(value, kind):
                for attempt in tries:
                    try:
                        attempt()
                    except TypeError:  # read-only
                        pass
        if hasattr(value, "__slots__") and value.__slots__:
            for name in value.__slots__:
                try:
                    setattr(value, name, "changed")
                except AttributeError:  # a frozen Answer
                    pass

    for f in fields(Prompt):
        change(getattr(twin, f.name), set())
    assert original == before
    assert [(f.name, getattr(original, f.name)) for f in fields(Prompt)] == \
        [(f.name, getattr(before, f.name)) for f in fields(Prompt)]
    assert twin.seats == [] and twin.answers == {}  # the copy's own parts did change
    with pytest.raises(TypeError):
        original.resolution["winner"] = "s3"  # and the original's nested parts refuse a change in place
    assert pure.refold().prompts[pid] == original  # a fold gives the same, read-only or not


def test_a_multi_answer_with_an_option_disabled_since_is_awaited_again(app, pure):
    """A multi answer that includes an option disabled since (prompt.option_disabled) counted as given: the prompt
    revealed itself with it once the others had answered. As a choice's, it counts no more (core's void), listed in
    the GM's `void` only, until its author answers again without it; then the prompt reveals itself."""
    pid = pure.open(spec(kind="multi", seats=["s1", "s2", "s3"]))
    pure.answer(pid, "s1", ["筋力", "宝具"])
    pure.answer(pid, "s2", ["耐久"])
    pure.do(prompts.disable_option, pid, "宝具", {"ja": "脱落", "en": "out"})
    prompt = pure.state.prompts[pid]
    assert prompts.void(prompt, "s1") and not prompts.void(prompt, "s2")
    pure.answer(pid, "s3", ["敏捷", "幸運"])
    prompt = pure.state.prompts[pid]
    assert prompt.status == "open" and prompt_view(prompt, pure.state, GM)["void"] == ["s1"]
    assert all("void" not in prompt_view(prompt, pure.state, viewer) for viewer in (TABLE, Viewer("seat", "s1")))
    # s1's phone says so under its answer, as for a choice, and does not keep the disabled box ticked
    with app.test_request_context("/"):
        html = render_fragment("_answer_form.html", {"p": prompt_view(prompt, pure.state, Viewer("seat", "s1")),
                                                      "viewer": Viewer("seat", "s1"), "sid": "abcd1234",
                                                      "prompt_templates": {}}, "ja")
    assert "選び直してください" in html and "この回答は選べなくなりました：脱落" in html
    assert re.search(r'<input type="checkbox" name="value" value="宝具"  disabled>', html)
    assert re.search(r'<input type="checkbox" name="value" value="筋力" checked >', html)
    pure.answer(pid, "s1", ["筋力"])
    assert pure.state.prompts[pid].status == "revealed"
    assert prompt_view(pure.state.prompts[pid], pure.state, GM)["void"] == []


def test_an_answer_of_a_seat_that_does_not_answer_the_prompt_does_not_fold(pure):
    """A log folded without an undone action that added a respondent (sugoroku's eliminate hands a tie-break to
    another player) kept that respondent's answer on a prompt it does not answer; the fold refuses it, so the undo is
    refused (409). The GM's answer (gm_submits) and a seat added, taken off and its answer folded in order still fold."""
    pid = pure.open(spec(gm_submits=True))
    pure.do(prompts.extend, pid, ["s3"])
    pure.answer(pid, "s3", "宝具")
    pure.answer(pid, "gm", "筋力")
    assert set(pure.refold().prompts[pid].answers) == {"s3", "gm"}
    with pytest.raises(ValueError, match="s3 does not answer"):
        engine.fold([e for e in pure.events if e.type != "prompt.extended"], pure.state.rules)


# -- a respondent taken off -------------------------------------------------------

def test_a_dropped_respondent_answers_no_more_and_its_answer_is_never_revealed(pure):
    """A seat taken off an open prompt (it left what the prompt asks about): it cannot answer, an answer it gave
    is withdrawn (its prompt.answered keeps only the commitment for others, also after the reveal), and the
    prompt reveals when everyone left has answered; the fold is deterministic (undo refolds it)."""
    pid = pure.open(spec(seats="all", resolver="cancel_duplicates"))
    secret = pure.answer(pid, "s3", "宝具")[0]
    pure.answer(pid, "s1", "筋力")
    events = pure.do(prompts.drop, pid, "s3", {"ja": "離脱", "en": "left"}, pure.resolvers, pure.dice)
    assert [e.type for e in events] == ["prompt.dropped"] and events[0].data["withdrawn"] is True
    prompt = pure.state.prompts[pid]
    assert prompt.respondents() == ["s1", "s2"] and "s3" not in prompt.answers and prompt.status == "open"
    with pytest.raises(Forbidden):
        pure.answer(pid, "s3", "宝具")
    events = pure.answer(pid, "s2", "耐久")
    assert [e.type for e in events] == ["prompt.answered", "prompt.revealed", "prompt.resolved"]
    assert pure.state.prompts[pid].resolution["winners"] == ["s1", "s2"]
    for viewer in (TABLE, GM, Viewer("seat", "s1")):
        assert "value" not in visible_event(secret, pure.state, viewer)["data"]
        seen = prompt_view(pure.state.prompts[pid], pure.state, viewer)
        assert set(seen["answers"]) == {"s1", "s2"} and set(seen["commitments"]) == {"s1", "s2"}
    assert visible_event(secret, pure.state, Viewer("seat", "s3"))["data"]["value"] == "宝具"
    assert pure.refold().prompts[pid] == pure.state.prompts[pid]


def test_a_fold_without_the_drop_would_show_the_withdrawn_answer_in_the_revealed_prompt(pure):
    """newly_shown (an undo's check): folded again without the action that dropped s3, the prompt revealed since
    would show s3's withdrawn answer; without an action that does not touch the prompt, nothing new is shown."""
    from gmtool.core import commands, engine
    pid = pure.open(spec(seats="all"))
    pure.answer(pid, "s3", "宝具")
    pure.answer(pid, "s1", "筋力")
    drop = pure.do(prompts.drop, pid, "s3", {"ja": "離脱", "en": "left"}, pure.resolvers, pure.dice)[0].action
    assert prompts.newly_shown(pure.state, engine.fold(pure.events, pure.state.rules, {drop})) == []  # not revealed
    scene = pure.do(commands.mark_scene, "第2夜")[0].action
    pure.do(prompts.reveal, pid, "", pure.resolvers, pure.dice)
    assert prompts.shown_answers(pure.state.prompts[pid]) == {(who, a.commitment)
                                                              for who, a in pure.state.prompts[pid].answers.items()}
    assert prompts.newly_shown(pure.state, engine.fold(pure.events, pure.state.rules, {drop})) == [pid]
    assert prompts.newly_shown(pure.state, engine.fold(pure.events, pure.state.rules, {scene})) == []
    assert prompts.newly_shown(pure.state, pure.refold()) == []


def test_drop_is_refused_for_a_non_respondent_the_last_one_and_after_the_reveal(pure):
    pid = pure.open(spec())
    with pytest.raises(GmError):
        pure.do(prompts.drop, pid, "s3", "", pure.resolvers, pure.dice)
    pure.do(prompts.drop, pid, "s2", "", pure.resolvers, pure.dice)
    with pytest.raises(Conflict):
        pure.do(prompts.drop, pid, "s1", "", pure.resolvers, pure.dice)  # cancel it instead
    pure.answer(pid, "s1", "筋力")
    assert pure.state.prompts[pid].status == "revealed"
    with pytest.raises(Conflict):
        pure.do(prompts.drop, pid, "s1", "", pure.resolvers, pure.dice)
