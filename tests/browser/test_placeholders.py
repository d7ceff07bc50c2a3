"""A placeholder that is a field's only visible label is shown whole (browser review: the illuminati console's
「特殊ゴール・ゴールカードの名前」 in a 12-character field, a phone's real-dice hint "e.g. 3 5 (in the order rolled)" cut
at 390 px), on the GM console at 1366×768 and on a phone at 390×844, in both languages, every disclosure opened."""

from __future__ import annotations

import pytest
from gmtool_testing import SMALL_CONTROLS, ApiTable, api_caller, start_ace_royal
from test_closed_console import illuminati_opening

from gmtool.driver import make_demo
from gmtool.rulesets.grail_trpg.probe import demo, to_final_result
from gmtool.rulesets import registry

# Every visible field whose placeholder is wider than the room inside it.
CUT = """() => { const ctx = document.createElement('canvas').getContext('2d'); const out = [];
  document.querySelectorAll('details').forEach((d) => { d.open = true; });
  for (const el of document.querySelectorAll('input[placeholder], textarea[placeholder]')) {
    if (!el.checkVisibility()) continue;
    const cs = getComputedStyle(el); ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const width = Math.max(...el.placeholder.split('\\n').map((line) => ctx.measureText(line).width));
    if (width > room + 1) out.push(`${el.name}: ${el.placeholder} (${Math.round(width)} > ${Math.round(room)} px)`); }
  return out; }"""


def test_no_placeholder_is_cut_in_an_illuminati_turn(server, browser, phone_context):
    """One session, both languages in turn on the same console and phone (each language is a page load, not a session
    and its opening played again)."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("イルミナティ", "illuminati", [{"name": "佐藤"}, {"name": "鈴木"}])
    sid = live.state.session_id
    post = api_caller(app, sid, tokens)
    illuminati_opening(post)
    post("actions/start_turn", who="s1")
    gm = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    gm.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang=ja")
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}&lang=ja")

    def check_both_languages(also=lambda lang: None):
        for lang in ("ja", "en"):
            for page in (gm, phone):
                if lang == "en":
                    page.goto(f"{page.url.split('?')[0]}?lang=en")
                page.locator("#live .live-root").wait_for(state="attached")
                assert page.evaluate("document.documentElement.lang") == lang
                cut = page.evaluate(CUT)
                assert cut == [], (page.url, lang, *cut)
            also(lang)

    check_both_languages()
    # an attack being built: the attacker's roll (its real-dice faces docked beside 攻撃判定 on the phone, cut to
    # 「実ダイスの出目」 at 390 px) and the console's; a long card name in its breakdown, which ran into its number on
    # the phone ("Orbital Mind Control Lasers' resistance5"): in both languages the label and the number never touch
    post("actions/attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10},
                            "target": {"name": "Orbital Mind Control Lasers", "owner": "s2", "power": 2,
                                       "resistance": 5}}, who="s1")
    for page in (gm, phone):
        page.goto(f"{page.url.split('?')[0]}?lang=ja")
    check_both_languages(lambda lang: assert_breakdown_apart(phone, lang))
    # the phone's support form is in this scene (the ergonomics test's probe scene, the opening, never shows it): each
    # control at least 44×44 px like every other phone control (its 支援の種類 select was 40 px high)
    assert phone.locator(".il-support select[name=kind]").is_visible()
    assert phone.evaluate(SMALL_CONTROLS, [44, 44]) == [], phone.evaluate(SMALL_CONTROLS, [44, 44])
    gm.context.close()


# Every term of a visible attack breakdown whose label and number are less than 4 px apart (they ran together).
TOUCHING = """() => [...document.querySelectorAll('.il-side li')].filter((li) => li.checkVisibility()).flatMap((li) => {
  const label = li.querySelector('span').getBoundingClientRect(), number = li.querySelector('b').getBoundingClientRect();
  return number.left - label.right < 4 ? [`${li.textContent.trim()} (${Math.round(number.left - label.right)} px)`] : []; })"""


def assert_breakdown_apart(page, lang: str) -> None:
    """The phone's attack breakdown shows every term, each label apart from its number."""
    terms = page.locator(".il-side li")
    assert any("Orbital Mind Control Lasers" in term for term in terms.all_inner_texts()), lang
    touching = page.evaluate(TOUCHING)
    assert touching == [], (lang, *touching)


@pytest.mark.parametrize("name", sorted(registry()))
def test_no_placeholder_is_cut_in_a_rulesets_demo(server, browser, phone_context, name):
    """Every ruleset's console and phone in its demo's state (the generic counters' 「Reason (optional)」, grail's escape
    modifiers "esc. mod" / "pursuit mod" and a prompt's "modifier name" were cut in English)."""
    base, app = server
    live, tokens = make_demo(app.extensions["gmtool"], name, "デモ")
    sid = live.state.session_id
    gm = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    gm.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang=ja")
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}&lang=ja")
    for page in (gm, phone):
        for lang in ("ja", "en"):
            if lang == "en":  # the link's ?lang= gave the first, in one page load
                page.goto(f"{page.url.split('?')[0]}?lang=en")
            page.locator("#live .live-root").wait_for(state="attached")
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.evaluate(CUT) == [], (page.url, lang)
    gm.context.close()


def test_no_placeholder_is_cut_on_an_ace_royal_phone_at_its_encounter(server, phone_context):
    """Play-through a14_phone1_encounter: the encounter's real-dice field in the phone's dock cut
    「実ダイスの出目（空欄ならサーバー）」 to 「実ダイスの出」, losing what a blank does; the quick version's seal list has
    the same field."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("エースロイヤル", "ace_royal", [{"name": "凛"}, {"name": "ウェイバー"}])
    sid = live.state.session_id
    post = api_caller(app, sid, tokens)
    start_ace_royal(post, ["s1", "s2"], "quick", [6, 3], {"s1": (("アルトリア", "6/5/3/3"), ("セイバー", "3/3/1/5")),
                                                         "s2": (("イスカンダル", "6/5/3/3"), ("ライダー", "3/3/1/5"))})
    for _ in range(2):
        post("actions/step", who="s1")  # rise, draw
    post("actions/reveal", {"what": "hero"}, who="s1")
    post("actions/step", who="s1")  # to the encounter step
    assert post("state")["ruleset"]["step"] == "encounter"
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}&lang=ja")
    for lang in ("ja", "en"):
        if lang == "en":
            phone.goto(f"{base}/s/{sid}/phone?lang=en")
        phone.locator("#ar-encounter").wait_for()
        assert phone.evaluate("document.documentElement.lang") == lang
        cut = phone.evaluate(CUT)
        assert cut == [], (lang, cut)


def test_the_sugoroku_setup_forms_turn_order_hint_is_read_whole(server, browser, phone_context):
    """Play-through: the setup form's 手番 field at 1366 px showed its example order as a placeholder cut to
    「セイバー,アーチャー,ラ」. The example is in the hint under the field, whole, at 1366×768 and on a 390×844 phone,
    in both languages."""
    base, app = server
    names = ["セイバー", "アーチャー", "ランサー", "ライダー", "キャスター", "アサシン", "バーサーカー"]
    live, tokens = app.extensions["gmtool"].create("双六", "sugoroku", [{"name": n} for n in names])
    sid = live.state.session_id
    for page in (browser.new_context(viewport={"width": 1366, "height": 768}).new_page(), phone_context().new_page()):
        page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang=ja")
        for lang in ("ja", "en"):
            if lang == "en":
                page.goto(f"{base}/s/{sid}/gm?lang=en")
            hint = page.locator("#sg-order-hint")
            hint.wait_for()
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.evaluate(CUT) == [], (page.url, lang)
            assert ",".join(names) in hint.inner_text()
            box, width = hint.bounding_box(), page.viewport_size["width"]
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width, lang)
            assert hint.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1"), f"the hint overflows its box ({lang})"
            field = page.locator("#sg-setup input[name=order]").bounding_box()
            assert 0 <= box["y"] - (field["y"] + field["height"]) < 40, f"the hint is under the field ({lang})"
        page.context.close()


def test_no_placeholder_is_cut_on_the_grail_console_with_real_dice(server, browser):
    """Play-through at 1366×768 under the dice reading 'real dice': the escape form's faces field (T-12) cut its hint
    「例: 3 5（振った順に）」 to 「例: 3 5（振っ」; so did the battle roll's (T-10), the next step. The escape form shows
    where an escape can be made (after the roll, for the loser): the console goes on to the cleanup live."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("実ダイス", "grail_trpg", [{"name": "セイバー陣営"}, {"name": "アーチャー陣営"}])
    sid = live.state.session_id
    table = ApiTable.made(app, live, tokens)
    demo(table)
    to_final_result(table)
    table.post("/readings", {"key": "dice", "value": "entered"})
    gm = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
    gm.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}&lang=ja")
    for lang, step in (("ja", "final"), ("en", "final"), ("en", "cleanup"), ("ja", "cleanup")):
        if step == "cleanup" and lang == "en":
            table.act("next_step", {"faces": [90, 10]})  # the battle roll: the console shows the loser's escape
        elif (lang, step) != ("ja", "final"):
            gm.goto(f"{base}/s/{sid}/gm?lang={lang}")
        field = "form:has(#grail-next)" if step == "final" else "#grail-escape"
        gm.locator(f"{field} input[name=faces]").wait_for()
        assert gm.evaluate("document.documentElement.lang") == lang
        cut = gm.evaluate(CUT)
        assert cut == [], (lang, step, cut)
    gm.context.close()
