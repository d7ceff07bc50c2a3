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
    # What refused the stream passes (streams closed; with --workers, Caddy's 502 while a killed worker restarts: every
    # screen of its sessions stayed in polling mode for the rest of the night): the page goes back to the stream.
    polls = []
    phone.on("request", lambda r: polls.append(r.url) if "/version" in r.url else None)
    app.config["MAX_STREAMS"] = 200
    expect(phone.locator(".polling-badge")).to_be_hidden(timeout=10000)
    polls.clear()
    api_post(sid, tokens["gm"], "counters", {"seat": "s1", "key": "seals", "delta": -1})
    expect(phone.locator("#live .mine-card .value[data-key=seals]")).to_have_text("1")
    phone.wait_for_timeout(2500)  # longer than a poll's interval
    assert polls == []


def test_a_reissued_link_says_so_and_a_closed_session_stops_quietly(server, api_post, phone_context, browser):
    """After the GM reissues a seat's link, the old phone says its link no longer works (it showed 'offline,
    reconnecting' forever); after the session is closed, its screens neither reconnect nor poll (browser review)."""
    base, app = server
    live, tokens = app.extensions["gmtool"].create("再発行", "generic", [{"name": "A"}, {"name": "B"}])
    sid = live.state.session_id
    old = phone_context().new_page()
    old.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    expect(old.locator("#live .live-root")).to_be_attached()
    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    expect(table.locator("#live .live-root")).to_be_attached()

    api_post(sid, tokens["gm"], "seats/s1/token", {})
    expect(old.locator(".revoked-badge")).to_be_visible()
    expect(old.locator(".revoked-badge")).to_contain_text("新しいQRコード")
    old.wait_for_timeout(1500)  # what it did before: reconnect, poll, and say it was offline
    expect(old.locator("#offline")).to_be_hidden()
    expect(old.locator(".polling-badge")).to_be_hidden()

    api_post(sid, tokens["gm"], "close", {})
    expect(table.locator("#live .closed-banner")).to_be_visible()
    table.wait_for_timeout(2500)  # the stream's end and its refused reconnect (204)
    expect(table.locator(".polling-badge")).to_be_hidden()
    expect(table.locator("#offline")).to_be_hidden()
