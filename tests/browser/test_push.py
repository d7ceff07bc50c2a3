"""Push delivery (issue 11): a change reaches an open phone over its own stream, without a re-fetch,
and a first load does not fetch the fragment the page already holds."""

from __future__ import annotations

from playwright.sync_api import expect


def test_changes_arrive_over_the_stream_without_a_refetch(server, api_post, phone_context):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("押し出し卓", "generic", [{"name": "A"}, {"name": "B"}])
    sid = live.state.session_id
    phone = phone_context().new_page()
    fetched = []
    phone.on("request", lambda r: fetched.append(r.url) if r.headers.get("hx-request") == "true" else None)
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    value = phone.locator("#live .mine-card .value[data-key=vp]")
    expect(value).to_have_text("0")
    phone.wait_for_timeout(500)  # the stream is open and said the page is current
    for n in (3, 5):
        api_post(sid, tokens["gm"], "counters", {"seat": "s1", "key": "vp", "value": n})
        expect(value).to_have_text(str(n), timeout=10000)
    assert phone.evaluate("document.body.dataset.shownVersion") == str(live.version)
    assert fetched == []  # neither the first load nor the changes fetched the fragment
