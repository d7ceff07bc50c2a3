"""Issue 12, the phone page in Chromium at 390×844: a number prompt shows its bounds and the answer's receipt
says what was sent and when, in words (the commitment stays behind a details toggle); an error flash sits
clear of the controls and closes with its ✕; the page is installable (a manifest Chromium accepts, icons
served from the package) and keeps the screen awake where the Wake Lock API exists (127.0.0.1 is a secure
context), degrading silently where it does not (a plain-HTTP LAN address); a new prompt still vibrates, and its title is read out to a screen reader."""

from __future__ import annotations

import re
from datetime import datetime

from gmtool_testing import bearer
from playwright.sync_api import expect

# Every visible control whose box meets the flash's box (the flash's own ✕ aside).
UNDER_FLASH = """() => {
  const flash = document.querySelector('#flash .flash');
  const f = flash.getBoundingClientRect(), bar = document.querySelector('body > .bar').getBoundingClientRect();
  const out = [];
  if (f.top < bar.bottom - 0.5) out.push('the header');
  for (const el of document.querySelectorAll('button, input:not([type=hidden]), select, textarea, a[href], summary')) {
    if (flash.contains(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.left < f.right && r.right > f.left && r.top < f.bottom && r.bottom > f.top)
      out.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.value || '').trim().slice(0, 20)}"`);
  }
  return out;
}"""

# The focused element and the ring it wears.
FOCUS_RING = """() => {
  const el = document.activeElement, s = getComputedStyle(el);
  return [el.tagName, s.outlineStyle === 'none' ? 'none' : `${s.outlineStyle} ${s.outlineWidth} ${s.outlineColor}`];
}"""

LIVE_TOP = "document.getElementById('live').getBoundingClientRect().top"
UNDER_THE_BAR = """() => {
  const f = document.querySelector('#flash .flash-ok').getBoundingClientRect();
  const bar = document.querySelector('body > .bar').getBoundingClientRect();
  return Math.abs(f.top - bar.bottom) < 0.5 && f.width === bar.width;
}"""
# What of the header the flash covers: the header's name and language link, each unless the topmost element at its
# middle is itself (the success covered both for 4 s).
HEADER_COVERED = """() => [...document.querySelectorAll('body > .bar :is(.brand, .lang)')].filter((el) => {
  const r = el.getBoundingClientRect(), hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !hit || !el.contains(hit);
}).map((el) => el.className)"""


def _session(app, title, seats=("A", "B")):
    """A generic session made through the API: (client, session id, tokens by seat, GM token)."""
    client = app.test_client()
    r = client.post("/api/sessions", headers=bearer(app.config["ADMIN_KEY"]),
                    json={"title": title, "ruleset": "generic", "seats": list(seats), "counters": ["seals"]})
    data = r.get_json()
    return client, data["session"], {s["id"]: s["token"] for s in data["seats"]}, data["gm_token"]


def _phone(phone_context, base, sid, token, lang="ja"):
    page = phone_context().new_page()
    page.goto(f"{base}/join/{sid}?k={token}&lang={lang}")  # the join's redirect keeps the language: one page load
    expect(page.locator("#live .live-root")).to_be_attached()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    return page


def test_a_number_prompt_shows_its_bounds_and_the_receipt_says_what_and_when(server, phone_context):
    base, app = server
    client, sid, seats, gm = _session(app, "数の質問", ("A", "B", "C"))  # C never answers: the prompt stays open
    r = client.post(f"/api/sessions/{sid}/prompts", headers=bearer(gm),
                    json={"title": "いくつ賭ける", "kind": "number", "min": 1, "max": 6})
    assert r.status_code == 201, r.get_json()
    for seat, lang, value, bounds, sent in (("s1", "ja", "3", "1〜6 の数", "送信しました: 3"),
                                            ("s2", "en", "4", "A number from 1 to 6", "Sent: 4")):
        phone = _phone(phone_context, base, sid, seats[seat], lang)
        card = phone.locator(".prompt-card")
        expect(card.locator("[data-bounds]")).to_have_text(bounds)
        card.locator("input[name=value]").fill(value)
        live_top = phone.evaluate(LIVE_TOP)
        card.locator("button.primary").click()
        receipt = card.locator("[data-sent]")
        expect(receipt).to_contain_text(sent)
        # The success lies just under the header bar: nothing on the page moves when it comes (nor when it fades: it
        # is out of the flow). It used to push the page down, then fold away 4 s later, under a finger about to tap;
        # then it lay over the header, hiding the seat's name and the language link for 4 s.
        expect(phone.locator("#flash .flash-ok")).to_be_visible()
        assert phone.evaluate(LIVE_TOP) == live_top
        assert phone.evaluate(UNDER_THE_BAR), "the success lies under the header bar, the window's width"
        assert phone.evaluate(HEADER_COVERED) == [], lang
        at = client.get(f"/api/sessions/{sid}/state", headers=bearer(seats[seat])).get_json()
        at = next(p for p in at["prompts"] if p["kind"] == "number")["your_answer"]["at"]
        when = datetime.fromisoformat(at).astimezone().strftime("%H:%M")
        expect(receipt).to_contain_text(f"{sent} ({when})")
        expect(phone.locator("#flash")).to_contain_text(f"{sent} ({when})")
        # In words, not a hash: the commitment only behind the receipt's details toggle.
        assert not re.search(r"[0-9a-f]{12}", card.inner_text()), card.inner_text()
        assert not re.search(r"[0-9a-f]{12}", phone.locator("#flash").inner_text())
        card.locator("details.receipt summary").click()
        expect(card.locator("details.receipt code")).to_have_text(re.compile(r"^[0-9a-f]{64}$"))
        # A tap or a click draws no focus ring; the keyboard's focus wears the accent ring (gmtool.css :focus-visible).
        assert phone.evaluate(FOCUS_RING) == ["SUMMARY", "none"]
        phone.keyboard.press("Shift+Tab")
        phone.keyboard.press("Tab")
        assert phone.evaluate(FOCUS_RING) == ["SUMMARY", "solid 3px rgb(212, 167, 44)"]


def test_an_error_flash_sits_clear_of_the_controls_and_closes(server, phone_context):
    base, app = server
    _, sid, seats, _ = _session(app, "エラー")
    for lang in ("ja", "en"):
        phone = _phone(phone_context, base, sid, seats["s1"], lang)
        phone.locator("input[name=expr]").fill("2X9")  # not dice notation: the server refuses it
        phone.locator("input[name=expr]").press("Enter")
        flash = phone.locator("#flash .flash-error")
        expect(flash).to_be_visible()
        expect(phone.locator("#flash-alert[role=alert] .flash-error")).to_have_count(1)  # read at once, once
        assert phone.evaluate(UNDER_FLASH) == []
        # The docked dice stay uncovered and usable while the error shows.
        dice = phone.locator("#phone-dice")
        box = dice.bounding_box()
        assert box["y"] >= 844 / 2
        hit = phone.evaluate("([x, y]) => document.getElementById('phone-dice').contains(document.elementFromPoint(x, y))",
                             [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert hit
        # Scrolled to the bottom, the error is still in view (under the header).
        phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert phone.evaluate("document.querySelector('#flash .flash').getBoundingClientRect().top") >= 0
        expect(flash).to_be_in_viewport()
        flash.locator(".flash-close").click()
        expect(phone.locator("#flash .flash")).to_have_count(0)
        phone.close()


def test_a_success_the_gm_undid_is_cleared_on_that_phone_only(server, phone_context):
    """Play-through: after the GM undid a player's step, that phone kept its success flash (「…が3枚取った」) for up to
    4 s, as if the step stood. It is cleared when the version that undid it arrives, and that phone says what the GM
    took back (「GMが取り消しました: …」); another phone's flash stays and it is told nothing (its live root lists its own
    undone actions only). The fade is switched off here: a flash left is a flash kept."""
    base, app = server
    client, sid, seats, gm = _session(app, "取り消し")
    phones = {seat: _phone(phone_context, base, sid, seats[seat]) for seat in ("s1", "s2")}
    for seat in ("s2", "s1"):
        phones[seat].add_style_tag(content="#flash .flash { animation: none !important; }")
        phones[seat].get_by_role("button", name="1D100").click()
        expect(phones[seat].locator("#flash .flash-ok[data-action]")).to_have_count(1)
    assert client.post(f"/api/sessions/{sid}/undo", headers=bearer(gm)).status_code == 200  # s1's roll
    expect(phones["s1"].locator("#flash .flash")).to_have_count(0)
    expect(phones["s1"].locator("#live .undo-notice")).to_have_text(re.compile(r"^GMが取り消しました: .* 1D100 → "))
    version = client.get(f"/api/sessions/{sid}/state", headers=bearer(gm)).get_json()["session"]["version"]
    expect(phones["s2"].locator("#live .live-root")).to_have_attribute("data-version", str(version))
    expect(phones["s2"].locator("#live .live-root")).to_have_attribute("data-undone", "")
    expect(phones["s2"].locator("#flash .flash-ok")).to_have_count(1)
    expect(phones["s2"].locator("#live .undo-notice")).to_have_count(0)  # s2's roll stands: nothing to tell it


def test_the_phone_is_installable_and_keeps_the_screen_awake(server, phone_context):
    base, app = server
    client, sid, seats, _ = _session(app, "常時点灯")
    phone = _phone(phone_context, base, sid, seats["s1"], "en")
    # 127.0.0.1 is a secure context: the lock is taken for the session.
    expect(phone.locator("html")).to_have_attribute("data-wake-lock", "on")
    # The manifest as Chromium reads it: no errors, the page's own address as the start, icons that load.
    cdp = phone.context.new_cdp_session(phone)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [], manifest["errors"]
    assert manifest["url"].startswith(f"{base}/manifest.webmanifest")
    assert '"display": "standalone"' in manifest["data"] and "A GM assistant" in manifest["data"]  # in the page's language
    icons = client.get("/manifest.webmanifest?lang=en").get_json()["icons"]
    sizes = {i["sizes"] for i in icons}
    assert {"192x192", "512x512"} <= sizes and any(i.get("purpose") == "maskable" for i in icons)
    for icon in icons:
        r = phone.request.get(base + icon["src"])
        assert r.ok and r.headers["content-type"].split(";")[0] == icon["type"], icon
        if icon["type"] == "image/png":
            width, height = int.from_bytes(r.body()[16:20], "big"), int.from_bytes(r.body()[20:24], "big")
            assert f"{width}x{height}" == icon["sizes"], icon
    phone.close()
    # A plain-HTTP LAN address has no navigator.wakeLock: nothing breaks and nothing is shown.
    errors = []
    context = phone_context()
    context.add_init_script("delete Navigator.prototype.wakeLock")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/join/{sid}?k={seats['s2']}")
    expect(page.locator("html")).to_have_attribute("data-wake-lock", "unavailable")
    page.locator("#phone-dice button[value='1D6']").click()
    expect(page.locator(".rolls li.roll")).to_have_count(1)
    expect(page.locator("#flash .flash-error")).to_have_count(0)
    assert errors == []


def test_a_new_prompt_still_vibrates_the_phone(server, phone_context):
    base, app = server
    client, sid, seats, gm = _session(app, "振動")
    context = phone_context()
    context.add_init_script("window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };")
    phone = context.new_page()
    phone.goto(f"{base}/join/{sid}?k={seats['s1']}")
    expect(phone.locator("#live .live-root")).to_be_attached()
    phone.locator("body").tap()  # the player has touched the page (the browser allows vibration from then on)
    client.post(f"/api/sessions/{sid}/prompts", headers=bearer(gm), json={"title": "どれ", "kind": "choice", "options": ["赤", "青"]})
    expect(phone.locator(".prompt-card")).to_have_count(1)
    phone.wait_for_function("window.__buzz.length > 0")
    # A screen reader hears it too: its title in the polite live region, once (not again on the next update).
    announce = phone.locator("#announce")
    expect(announce).to_have_attribute("aria-live", "polite")
    expect(announce).to_have_text("新しい質問: どれ")
    phone.evaluate("document.getElementById('announce').textContent = ''")
    client.post(f"/api/sessions/{sid}/counters", headers=bearer(gm), json={"seat": "s1", "key": "seals", "delta": -1})
    expect(phone.locator("#live .value[data-seat=s1][data-key=seals]")).to_have_text("2")
    expect(announce).to_have_text("")
    # A prompt already open when the page loads is on the screen, not news.
    phone.reload()
    expect(phone.locator(".prompt-card")).to_have_count(1)
    expect(announce).to_have_text("")


def test_an_untouched_phone_is_not_asked_to_vibrate(server, phone_context):
    """Before the player has touched the page Chromium refuses navigator.vibrate and logs an error on every new
    prompt (browser review): the page does not ask until the browser says the page was touched."""
    base, app = server
    client, sid, seats, gm = _session(app, "振動なし")
    context = phone_context()
    # Playwright's pages count as touched from the start: this one says what a phone's browser says before a tap
    context.add_init_script("window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };"
                            "Object.defineProperty(navigator, 'userActivation', {value: {hasBeenActive: false, isActive: false}});")
    phone = context.new_page()
    phone.goto(f"{base}/join/{sid}?k={seats['s1']}")
    expect(phone.locator("#live .live-root")).to_be_attached()
    for title in ("一つ目", "二つ目"):
        client.post(f"/api/sessions/{sid}/prompts", headers=bearer(gm), json={"title": title, "kind": "choice", "options": ["赤", "青"]})
    expect(phone.locator(".prompt-card")).to_have_count(2)
    expect(phone.locator("#announce")).to_contain_text("二つ目")  # a screen reader is told all the same
    phone.evaluate("() => new Promise((done) => setTimeout(done, 300))")
    assert phone.evaluate("window.__buzz") == []


def test_without_script_a_phone_offers_no_control_that_would_put_its_answer_in_the_address(server, browser):
    """A phone with JavaScript off: an htmx-only answer form (no method of its own) would submit itself as a GET to
    the page's address, the secret choice in the address bar and the history. The page hides such controls and says,
    in the viewer's language, that its buttons need JavaScript; what it shows (the prompt's title, the counters)
    still reads."""
    base, app = server
    client, sid, seats, gm = _session(app, "スクリプトなし")
    r = client.post(f"/api/sessions/{sid}/prompts", headers=bearer(gm),
                    json={"title": "秘密の選択", "kind": "choice", "options": ["攻める", "守る"]})
    assert r.status_code == 201, r.get_json()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        phone = ctx.new_page()
        phone.goto(f"{base}/join/{sid}?k={seats['s1']}")
        for lang, words in (("ja", "JavaScript をオンにしてください"), ("en", "turn JavaScript on")):
            phone.goto(f"{base}/s/{sid}/phone?lang={lang}")
            expect(phone.locator(".prompt-card h2")).to_have_text("秘密の選択")
            expect(phone.locator(".noscript-note")).to_contain_text(words)
            assert phone.locator("form:visible, button:visible").count() == 0
    finally:
        ctx.close()
