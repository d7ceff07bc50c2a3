"""The GM console gives each revealed result one confirm button: the game's own panel's where the game drives the
prompt (PromptKind.panel_ops), never also the prompt card's (a browser review found sugoroku's 戦闘結果を確定 beside
the card's 結果を確定, and grail's two 結果を確定, each ending the same step). What the panel does not offer stays on
the card: a GM power modifier on a sugoroku battle (S-7)."""

from __future__ import annotations

import re

import pytest
from gmtool_testing import ADMIN_KEY, ApiTable, bearer, open_link

from gmtool.core.ruleset import Label, PromptKind, Ruleset
from gmtool.rulesets.grail_trpg.probe import demo


def session(app, client, ruleset: str, seats: list[str]):
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "確定", "ruleset": ruleset, "seats": seats}).get_json()
    browser = open_link(app, data["gm_url"])

    def console(lang: str) -> str:
        r = browser.get(f"/s/{data['session']}/gm?lang={lang}")
        assert r.status_code == 200
        return r.get_data(as_text=True)

    return ApiTable(client, data), console


def posts(html: str, pattern: str) -> list[str]:
    """The hx-post targets on the page that match `pattern` (a regular expression on the path)."""
    return re.findall(rf'hx-post="([^"]*(?:{pattern}))"', html)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_revealed_sugoroku_battle_has_one_confirm_and_keeps_its_gm_modifier(app, client, lang):
    """S-7/S-8: the battle panel's 戦闘結果を確定 (end_battle) is the one confirm; the card keeps the GM modifier form."""
    table, console = session(app, client, "sugoroku", ["セイバー", "アーチャー"])
    table.act("setup", {"board_length": 30, "order": ["s1", "s2"], "players": {
        s: {"servant": n, "mana": 4} for s, n in (("s1", "セイバー"), ("s2", "アーチャー"))}})
    for seat in ("s1", "s2"):
        table.act("roll_move", {"faces": [3]}, who=seat)  # both on square 3: a battle (S-7)
    table.act("end_phase")
    table.act("start_battle")
    pid = table.state()["ruleset"]["battle"]["prompt"]
    table.answer(pid, "力7", "s1")
    table.answer(pid, ["力4", "技2"], "s2")  # the last answer reveals the battle
    html = console(lang)
    assert posts(html, rf"/prompts/{pid}/confirm|/actions/end_battle") == [f"/s/{table.sid}/gm/actions/end_battle"]
    assert len(posts(html, rf"/prompts/{pid}/modifiers")) == 1
    table.post(f"/prompts/{pid}/modifiers", {"who": "s2", "amount": 5, "label": "怪力"})  # the route stays
    table.post(f"/prompts/{pid}/confirm")  # and the API's confirm too
    assert table.state()["ruleset"]["battle"] is None


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_revealed_grail_step_has_one_confirm_and_one_modifier_form(app, client, lang):
    """T-4/T-6/T-8: the combat panel's #grail-confirm confirms a revealed setup or select and its 修正 form
    (#grail-step-modifier) takes the GM's modifiers; the prompt card repeats neither."""
    table, console = session(app, client, "grail_trpg", ["セイバー陣営", "ランサー陣営"])
    demo(table)  # the setup answered and revealed
    a, b = table.seats[:2]
    for pid in ("c1-setup", "c1-s1"):
        html = console(lang)
        confirms = posts(html, rf"/prompts/{pid}/confirm")
        assert len(confirms) == 1 and 'id="grail-confirm"' in html, (pid, confirms)
        assert not posts(html, rf"/prompts/{pid}/modifiers") and 'id="grail-step-modifier"' in html, pid
        table.post(f"/prompts/{pid}/confirm")
        if pid == "c1-setup":
            table.act("next_step")
            table.answer("c1-s1", {"stat": "筋力"}, a)
            table.answer("c1-s1", {"stat": "耐久"}, b)


def test_a_panel_op_the_console_does_not_know_is_refused_at_registration():
    """PromptKind.panel_ops names only what the prompt card can leave out (a typo would leave two buttons)."""
    kind = PromptKind("cards", lambda prompt, who, value, state: value, panel_ops=frozenset({"confirmed"}))
    with pytest.raises(ValueError, match="panel_ops"):
        Ruleset(name="demo_game", label=Label("試し", "Trial"), prompt_kinds=(kind,))
