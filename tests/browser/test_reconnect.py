"""A phone on flaky Wi-Fi: it shows when it is offline and catches up by itself when back."""

from __future__ import annotations

from playwright.sync_api import expect


def test_phone_shows_offline_and_catches_up_after_wifi_drop(server, api_post, phone_context):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("Wi-Fi卓", "generic", [{"name": "A"}, {"name": "B"}])
    sid = live.state.session_id
    ctx = phone_context()
    phone = ctx.new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    value = phone.locator("#live .mine-card .value[data-key=vp]")
    expect(value).to_have_text("0")

    ctx.set_offline(True)
    expect(phone.locator("#offline")).to_be_visible()
    api_post(sid, tokens["gm"], "counters", {"seat": "s1", "key": "vp", "value": 7, "reason": "offline"})
    phone.wait_for_timeout(500)
    expect(value).to_have_text("0")

    ctx.set_offline(False)
    expect(value).to_have_text("7", timeout=10000)
    expect(phone.locator("#offline")).to_be_hidden()


def test_screens_beyond_the_stream_cap_fall_back_to_polling(server, api_post, phone_context):
    base, app = server
    app.config["MAX_STREAMS"] = 0
    live, tokens = app.extensions["gmtool"].create("満員卓", "generic", [{"name": "A"}])
    sid = live.state.session_id
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    expect(phone.locator(".polling-badge")).to_be_visible()
    api_post(sid, tokens["gm"], "counters", {"seat": "s1", "key": "seals", "delta": -1})
    expect(phone.locator("#live .mine-card .value[data-key=seals]")).to_have_text("2", timeout=10000)
