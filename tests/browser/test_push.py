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


def test_the_gm_consoles_counter_controls_stay_with_the_page_and_a_new_seat_gets_its_own(server, api_post, page):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("操作卓", "generic", [{"name": "A"}, {"name": "B"}])
    sid = live.state.session_id
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    plus = page.locator('#seat-s1 [data-counter=vp] button[aria-label$="+1"]')
    value = page.locator("#seat-s1 .value[data-key=vp]")
    for n in (1, 2):
        plus.click()
        expect(value).to_have_text(str(n))
    api_post(sid, tokens["gm"], "counters", {"seat": "s2", "key": "vp", "value": 4})  # a change from elsewhere
    expect(page.locator("#seat-s2 .value[data-key=vp]")).to_have_text("4")
    plus.click()  # the page's own controls, kept through every pushed change
    expect(value).to_have_text("3")
    form = page.locator("#seat-s2 [data-counter=vp] form.set")
    form.locator("input[name=value]").fill("7")
    form.locator("button").click()
    expect(page.locator("#seat-s2 .value[data-key=vp]")).to_have_text("7")
    # A seat added elsewhere (the API, or another GM screen) arrives with placeholders: the console
    # fetches its controls once.
    api_post(sid, tokens["gm"], "seats", {"name": "C"})
    new_plus = page.locator('#seat-s3 [data-counter=vp] button[aria-label$="+1"]')
    expect(new_plus).to_be_visible()
    new_plus.click()
    expect(page.locator("#seat-s3 .value[data-key=vp]")).to_have_text("1")
    assert page.locator("#live [data-placeholder]").count() == 0
