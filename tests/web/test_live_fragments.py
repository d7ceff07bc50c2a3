"""Live fragments are rendered once per (viewer, language, version) and shared (issue 11):
screens of one viewer share a rendering, each seat keeps its own, a change is always shown."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from flask import template_rendered

from gmtool_testing import bearer, open_link

HX = {"HX-Request": "true"}
MARKER = "FRAGMARKER5150"


@contextmanager
def renderings(app):
    """The names of the templates rendered (top level and included) while the block runs."""
    names: list[str] = []

    def record(sender, template, context, **extra):
        names.append(template.name)

    template_rendered.connect(record, app)
    try:
        yield names
    finally:
        template_rendered.disconnect(record, app)


def fragment(client, path):
    """A screen's live fragment as htmx fetches it."""
    response = client.get(path, headers=HX)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    return response.get_data(as_text=True)


def change_counter(client, screens, delta=1):
    """A public counter change through the API."""
    response = client.post(f"/api/sessions/{screens.sid}/counters", headers=bearer(screens.token("gm")),
                           json={"seat": "s1", "key": "vp", "delta": delta})
    assert response.status_code == 200, response.get_json()
    return response.get_json()["version"]


def test_table_screens_share_one_rendering_per_version(app, client, screens, created):
    second_table = open_link(app, created["table_url"])
    path = f"/s/{screens.sid}/table"
    with renderings(app) as names:
        first = fragment(screens.table, path)
        again = fragment(second_table, path)
    assert first == again
    assert names.count("table/_live.html") == 1
    version = change_counter(client, screens)
    with renderings(app) as names:
        after = fragment(second_table, path)
        assert fragment(screens.table, path) == after
    assert names.count("table/_live.html") == 1
    assert f'data-version="{version}"' in after and f'data-version="{version}"' not in first


def test_gm_fragment_shared_by_console_screens_and_shows_every_change(app, client, screens, created):
    other_console = open_link(app, created["gm_url"])
    path = f"/s/{screens.sid}/gm"
    for delta in (1, 1, -1):
        version = change_counter(client, screens, delta)
        with renderings(app) as names:
            mine, theirs = fragment(screens.gm, path), fragment(other_console, path)
        assert mine == theirs and f'data-version="{version}"' in mine
        assert names.count("gm/_live.html") == 1


def test_each_seat_gets_its_own_rendering(app, client, screens):
    response = client.post(f"/api/sessions/{screens.sid}/prompts", headers=bearer(screens.token("gm")),
                           json={"title": "秘話", "kind": "text", "seats": ["s1", "s2"]})
    pid = response.get_json()["id"]
    response = client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/answer", headers=bearer(screens.token("s1")),
                           json={"value": MARKER})
    assert response.status_code == 200
    path = f"/s/{screens.sid}/phone"
    with renderings(app) as names:
        own = fragment(screens.seats["s1"], path)  # rendered first: in the cache when the others ask
        others = [fragment(screens.seats[s], path) for s in ("s2", "s3")]
        table = fragment(screens.table, f"/s/{screens.sid}/table")
    assert MARKER in own
    for body in others + [table]:
        assert MARKER not in body
    assert names.count("phone/_personal.html") == 3  # each seat its own part


def test_languages_are_rendered_apart(app, screens):
    path = f"/s/{screens.sid}/table"
    japanese = fragment(screens.table, path + "?lang=ja")
    english = fragment(screens.table, path + "?lang=en")
    assert japanese != english
    assert fragment(screens.table, path + "?lang=ja") == japanese


def test_only_the_screens_that_show_the_log_build_it(app, client, screens):
    from gmtool.core.view import GM, TABLE, Viewer
    from gmtool.web.common import live_session
    from gmtool.web.screens import context
    change_counter(client, screens)
    with app.test_request_context():
        live = live_session(screens.sid)
        assert context(live, Viewer("seat", "s1"), "")["log"] == []  # a phone shows no log
        assert len(context(live, GM, "")["log"]) >= 2
        assert len(context(live, TABLE, "")["log"]) >= 1  # the stage's newest line and the history


def undo_notices(screens, seat, lang="ja"):
    """The undo notices on a seat's phone (its live fragment), as text."""
    import re
    html = fragment(screens.seats[seat], f"/s/{screens.sid}/phone?lang={lang}")
    return re.findall(r'<p class="undo-notice">(.*?)</p>', html)


def test_a_phone_is_told_what_the_gms_undo_took_back_of_its_own(client, screens):
    """Review: when the GM undid a player's roll or step, that phone only lost its success flash: the player got no
    word of it. While the undos are the newest lines it may see, the phone of a seat the undone action concerned (its
    own action, or one that names it: its counter) reads what was taken back as its own view words it; a phone it did
    not concern gets nothing, and a private value stays with its seat."""
    gm, sid = bearer(screens.token("gm")), screens.sid

    def undo():
        assert client.post(f"/api/sessions/{sid}/undo", headers=gm).status_code == 200

    r = client.post(f"/api/sessions/{sid}/rolls", headers=bearer(screens.token("s1")), json={"expr": "1D100", "label": "回避"})
    assert r.status_code == 201, r.get_json()
    total = r.get_json()["total"]
    assert all(undo_notices(screens, seat) == [] for seat in ("s1", "s2", "s3"))
    undo()  # s1's own roll
    assert undo_notices(screens, "s1") == [f"GMが取り消しました: セイバー 回避: 1D100 → [{total}] → {total}"]
    assert undo_notices(screens, "s1", "en") == [f"The GM took back: セイバー 回避: 1D100 → [{total}] → {total}"]
    assert undo_notices(screens, "s2") == undo_notices(screens, "s3") == []
    r = client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s2", "key": "mana", "delta": 7})
    assert r.status_code == 200, r.get_json()
    undo()  # the GM's change of s2's private 魔力: s2's phone alone is told, and the value stays s2's
    assert undo_notices(screens, "s2") == ["GMが取り消しました: アーチャー: 魔力 0→7 (+7)"]
    assert undo_notices(screens, "s2", "en") == ["The GM took back: アーチャー: Mana 0→7 (+7)"]
    assert undo_notices(screens, "s3") == []
    # s1 saw nothing between the two undos (the change was private): its notice stands, nothing of s2's is added
    assert undo_notices(screens, "s1") == [f"GMが取り消しました: セイバー 回避: 1D100 → [{total}] → {total}"]
    assert "0→7" not in fragment(screens.seats["s1"], f"/s/{sid}/phone")
    change_counter(client, screens)  # the next public line: the notices have had their moment
    assert all(undo_notices(screens, seat) == [] for seat in ("s1", "s2", "s3"))


def test_a_seat_only_offered_in_a_seat_choice_prompt_is_not_concerned_by_its_undo(app, client, screens):
    """An undo concerns a seat that acted, answered, is a respondent or is the event's subject: an undone action that
    opened s1's vote among s2 and s3 (a ruleset's step, such as sugoroku's tie-break) told s2's and s3's phones too,
    their ids being among the prompt's options, though nothing of theirs was taken back."""
    from gmtool.core.view import Viewer
    from gmtool.web.common import live_session
    from gmtool.web.screens import concerns
    r = client.post(f"/api/sessions/{screens.sid}/prompts", headers=bearer(screens.token("gm")),
                    json={"title": "誰を疑う", "kind": "seat", "options": ["s2", "s3"], "seats": ["s1"]})
    assert r.status_code == 201, r.get_json()
    with app.test_request_context():
        live = live_session(screens.sid)
        with live.lock:
            events = live.store.action_events(live.state.last_action)
            assert [e.type for e in events] == ["prompt.opened"]
            assert {seat: concerns(events, live.state, Viewer("seat", seat)) for seat in ("s1", "s2", "s3")} == {
                "s1": True, "s2": False, "s3": False}


def test_phones_word_an_undo_from_one_read_of_its_events(app, client, screens):
    """While an undo is the newest line, every phone's rendering words its notice from the undone action's events:
    they are read from the file once per version for all the phones, not once per phone."""
    from gmtool.web.common import live_session
    gm, sid = bearer(screens.token("gm")), screens.sid
    assert client.post(f"/api/sessions/{sid}/counters", headers=gm, json={"seat": "s1", "key": "seals", "delta": -1}).status_code == 200
    assert client.post(f"/api/sessions/{sid}/undo", headers=gm).status_code == 200
    with app.test_request_context():
        store = live_session(sid).store
    reads, read = [], store.action_events
    store.action_events = lambda action: reads.append(action) or read(action)
    try:
        notices = [undo_notices(screens, seat, lang) for seat in ("s1", "s2", "s3") for lang in ("ja", "en")]
    finally:
        del store.action_events
    assert notices[0] and notices[0][0].startswith("GMが取り消しました: ") and notices[1][0].startswith("The GM took back: ")
    assert len(reads) == 1


def first_message(client, path, headers=None):
    """The first SSE message of a stream (then the stream is closed)."""
    response = client.get(path, headers=headers or {}, buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    chunk = next(iter(response.response))
    response.close()
    return chunk.decode() if isinstance(chunk, bytes) else chunk


def fragment_html(message):
    """The HTML of an `event: fragment` message (its data lines after the version)."""
    data = [line[6:] for line in message.split("\n") if line.startswith("data: ")]
    return "\n".join(data[1:])


def test_pushed_fragment_is_the_viewers_own_and_matches_a_fetch(app, client, screens):
    response = client.post(f"/api/sessions/{screens.sid}/prompts", headers=bearer(screens.token("gm")),
                           json={"title": "秘話", "kind": "text", "seats": ["s1", "s2"]})
    pid = response.get_json()["id"]
    answered = client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/answer", headers=bearer(screens.token("s1")),
                           json={"value": MARKER}).get_json()
    version = answered["version"]
    events = f"/s/{screens.sid}/events?push=1&as="
    own = first_message(screens.seats["s1"], events + "seat&v=0")
    assert "event: fragment" in own and f"id: {version}" in own
    assert MARKER in own and fragment_html(own) == fragment(screens.seats["s1"], f"/s/{screens.sid}/phone").rstrip("\n")
    for who, client_of, kind in (("s2", screens.seats["s2"], "seat"), ("s3", screens.seats["s3"], "seat"),
                                 ("table", screens.table, "table")):
        message = first_message(client_of, events + kind)  # no v: the stream sends the fragment
        assert "event: fragment" in message, who
        assert MARKER not in message and answered["salt"] not in message, who


def test_a_screen_that_shows_the_current_version_gets_only_a_notice(app, client, screens):
    version = change_counter(client, screens)
    events = f"/s/{screens.sid}/events?push=1&as=table"
    first_load = first_message(screens.table, events + f"&v={version}")
    assert "event: changed" in first_load and "event: fragment" not in first_load
    reconnect = first_message(screens.table, events + "&v=0", {"Last-Event-ID": str(version)})
    assert "event: changed" in reconnect and "event: fragment" not in reconnect
    behind = first_message(screens.table, events + "&v=0", {"Last-Event-ID": str(version - 1)})
    assert "event: fragment" in behind and f'data-version="{version}"' in behind
    # docs/api.md 15, line by line: both first messages open with the retry interval, then the version's id
    assert first_load.startswith(f"retry: 1000\nid: {version}\nevent: changed\ndata: {version}\n")
    assert behind.startswith(f"retry: 1000\nid: {version}\nevent: fragment\ndata: {version}\ndata: ")


def test_a_pushed_stream_brings_every_change(app, client, screens):
    app.config["HEARTBEAT"] = 0.05
    version = change_counter(client, screens)
    response = screens.table.get(f"/s/{screens.sid}/events?push=1&as=table&v={version}", buffered=False)
    chunks = iter(response.response)
    assert b"event: changed" in next(chunks)
    for delta in (1, 2):
        version = change_counter(client, screens, delta)
        message = b""
        while b"event: fragment" not in message:  # heartbeats may come first
            message = next(chunks)
        assert f"id: {version}".encode() in message and f'data-version="{version}"'.encode() in message
    response.close()


def test_a_gzip_stream_decodes_message_by_message(app, client, screens):
    import zlib
    app.config["HEARTBEAT"] = 0.05
    response = screens.table.get(f"/s/{screens.sid}/events?push=1&as=table&v=0",
                                 headers={"Accept-Encoding": "gzip"}, buffered=False)
    assert response.headers["Content-Encoding"] == "gzip"
    chunks, unzip = iter(response.response), zlib.decompressobj(16 + zlib.MAX_WBITS)
    first = unzip.decompress(next(chunks)).decode()
    assert "event: fragment" in first and first.endswith("\n\n")  # each message is flushed whole
    version = change_counter(client, screens)
    message, sizes = "", []
    while "event: fragment" not in message:
        chunk = next(chunks)
        sizes.append(len(chunk))
        message = unzip.decompress(chunk).decode()
    response.close()
    assert f'data-version="{version}"' in message
    assert sizes[-1] < len(message) / 4  # sent as little more than what changed


# -- sections (web/sections.py): a part of a fragment is rendered only when what it names changes --

def gm_roll(client, screens, label="ロール"):
    response = client.post(f"/api/sessions/{screens.sid}/rolls", headers=bearer(screens.token("gm")),
                           json={"expr": "2D6", "label": label})
    assert response.status_code == 201, response.get_json()


def section_renders(app, screens, name, template="phone/_personal.html"):
    """How many times the session has rendered a section so far."""
    from gmtool.web.common import live_session
    with app.test_request_context("/"):
        return live_session(screens.sid).sections.renders[(template, name)]


def test_phones_that_see_the_same_rolls_share_one_rendering_of_them(app, client, screens):
    gm_roll(client, screens, "共有ロール")
    path = f"/s/{screens.sid}/phone"
    before = section_renders(app, screens, "rolls", "phone/_public.html")
    with renderings(app) as names:
        bodies = [fragment(screens.seats[s], path) for s in ("s1", "s2", "s3")]
    assert all("共有ロール" in body for body in bodies)
    for seat, body in zip(("s1", "s2", "s3"), bodies):  # each seat its own fragment, with its own card …
        mine = body.split('class="card mine-card"', 1)[1].split("</section>", 1)[0]
        assert f'data-seat="{seat}"' in mine and all(f'data-seat="{o}"' not in mine for o in {"s1", "s2", "s3"} - {seat})
    assert names.count("phone/_public.html") == 1  # … around one rendering of what every phone shows alike …
    assert section_renders(app, screens, "rolls", "phone/_public.html") == before + 1  # … with the rolls they all see


def test_a_revealed_prompt_is_rendered_once_for_every_screen_that_shows_it(app, client, screens):
    gm = bearer(screens.token("gm"))
    pid = client.post(f"/api/sessions/{screens.sid}/prompts", headers=gm,
                      json={"title": "決戦", "kind": "text", "seats": ["s1", "s2"]}).get_json()["id"]
    for seat, value in (("s1", "右の道"), ("s2", "左の道")):
        answered = client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/answer", headers=bearer(screens.token(seat)),
                               json={"value": value})
        assert answered.status_code == 200  # the last answer reveals the prompt
    revealed = section_renders(app, screens, "revealed", "phone/_public.html")
    cards = section_renders(app, screens, "card", "_prompt.html")
    phones = [fragment(screens.seats[s], f"/s/{screens.sid}/phone") for s in ("s1", "s2", "s3")]
    table = fragment(screens.table, f"/s/{screens.sid}/table")
    for body in phones + [table]:  # every phone, the one that answered or not, and the table show both answers
        assert "右の道" in body and "左の道" in body
    # The phones see the same revealed prompt: one rendering of their section and of its card for all three,
    # and the table's stage and history show that same card again without rendering it.
    assert section_renders(app, screens, "revealed", "phone/_public.html") == revealed + 1
    assert section_renders(app, screens, "card", "_prompt.html") == cards + 2  # the phones' card, the history's id prefix


def test_a_section_whose_inputs_did_not_change_is_not_rendered_again(app, client, screens):
    gm_roll(client, screens)
    path = f"/s/{screens.sid}/phone"
    fragment(screens.seats["s2"], path)
    rolls, others = section_renders(app, screens, "rolls", "phone/_public.html"), section_renders(app, screens, "other", "phone/_other.html")
    change_counter(client, screens)  # a counter of s1: the rolls did not change
    body = fragment(screens.seats["s2"], path)
    assert section_renders(app, screens, "rolls", "phone/_public.html") == rolls
    assert section_renders(app, screens, "other", "phone/_other.html") == others + 1  # s1's line, for every phone
    assert 'data-seat="s1" data-key="vp">1<' in body  # the counter that changed is shown
    gm_roll(client, screens, "新しいロール")
    body = fragment(screens.seats["s2"], path)
    assert section_renders(app, screens, "rolls", "phone/_public.html") == rolls + 1 and "新しいロール" in body


def test_a_section_that_does_not_name_what_it_reads_fails_under_test(app):
    from gmtool.runtime import SectionCache
    from gmtool.web.sections import StaleSection
    template = app.jinja_env.from_string('{% section "count" %}{{ value }}{% endsection %}')
    with app.test_request_context("/"):
        cache = SectionCache()
        assert template.render(section_cache=cache, value=1) == "1"
        with pytest.raises(StaleSection):  # `value` is read but not named: a stale screen, caught
            template.render(section_cache=cache, value=2)
        app.config["CHECK_SECTIONS"] = False
        cache = SectionCache()  # a session's cache reads the setting once
        template.render(section_cache=cache, value=1)
        assert template.render(section_cache=cache, value=2) == "1"  # what a server would have shown
    named = app.jinja_env.from_string('{% section "count", value %}{{ value }}{% endsection %}')
    with app.test_request_context("/"):
        app.config["CHECK_SECTIONS"] = True
        cache = SectionCache()
        assert [named.render(section_cache=cache, value=v) for v in (1, 2, 1)] == ["1", "2", "1"]
        assert cache.hits == 1 and cache.misses == 2


def test_languages_and_viewers_kept_apart_in_sections(app, client, screens):
    path = f"/s/{screens.sid}/phone"
    own = fragment(screens.seats["s1"], path)
    other = fragment(screens.seats["s2"], path)
    assert 'data-seat="s1" data-key="mana"' in own      # s1's private counter on its own phone …
    assert 'data-seat="s1" data-key="mana"' not in other  # … never on another's
    assert fragment(screens.seats["s2"], path + "?lang=en") != other


def test_a_section_is_its_viewers_own_unless_it_says_shared(app):
    from gmtool.core.view import Viewer
    from gmtool.runtime import SectionCache
    private = app.jinja_env.from_string('{% section "hand" %}{{ hand }}{% endsection %}')
    shared = app.jinja_env.from_string('{% section "hand" shared %}{{ hand }}{% endsection %}')
    app.config["CHECK_SECTIONS"] = False  # what a running server does
    with app.test_request_context("/"):
        cache = SectionCache()
        s1, s2 = Viewer("seat", "s1"), Viewer("seat", "s2")
        assert private.render(section_cache=cache, viewer=s1, hand="s1のカード") == "s1のカード"
        # A section that forgot an input still never hands one seat another's HTML …
        assert private.render(section_cache=cache, viewer=s2, hand="s2のカード") == "s2のカード"
        # … a shared one would (which is why one says so only when all its viewers see it alike)
        assert shared.render(section_cache=cache, viewer=s1, hand="s1のカード") == "s1のカード"
        assert shared.render(section_cache=cache, viewer=s2, hand="s2のカード") == "s1のカード"


def test_the_gm_consoles_counter_controls_come_with_the_page_not_with_each_change(client, screens):
    path = f"/s/{screens.sid}/gm"
    page = screens.gm.get(path).get_data(as_text=True)
    live = fragment(screens.gm, path)
    with_controls = fragment(screens.gm, f"{path}?controls=1")
    buttons = f'hx-post="/s/{screens.sid}/gm/counter"'
    assert page.count(buttons) == with_controls.count(buttons) > 0  # every seat's −, ＋ and set form
    assert buttons not in live  # a change carries each control's empty placeholder (the page keeps its own)
    assert 'id="up-s1-vp" data-placeholder hidden' in live and 'id="up-s1-vp" hx-morph-skip' in page
    assert len(live) < len(page) / 2
    change_counter(client, screens)
    assert 'data-seat="s1" data-key="vp">1<' in fragment(screens.gm, path)  # the values still travel


# -- log lines (screens.log_lines): made once, kept by what each depends on (EventType.line_key) --

def test_a_kept_log_line_follows_a_reveal_and_a_stale_one_fails_under_test(app, client, screens):
    from gmtool.web.common import live_session
    gm = bearer(screens.token("gm"))
    pid = client.post(f"/api/sessions/{screens.sid}/prompts", headers=gm,
                      json={"title": "密談", "kind": "text", "seats": ["s1", "s2"]}).get_json()["id"]
    client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/answer", headers=bearer(screens.token("s1")),
                json={"value": "LOGSECRET"})
    table = f"/s/{screens.sid}/table"
    assert "LOGSECRET" not in fragment(screens.table, table)  # the table's history: the answer line, kept, hidden
    with app.test_request_context("/"):
        kept = len(live_session(screens.sid).lines)
    assert kept > 0
    client.post(f"/api/sessions/{screens.sid}/prompts/{pid}/answer", headers=bearer(screens.token("s2")),
                json={"value": "ANOTHER"})  # the last answer reveals the prompt
    assert "LOGSECRET" in fragment(screens.table, table)  # the same event's line, made again: the prompt's status is its key
    # A kept line that no longer matches a fresh one (what a line_key missing an input would leave) fails under test.
    from gmtool.web.screens import StaleLogLine
    with app.test_request_context("/"):
        lines = live_session(screens.sid).lines
        key = max(k for k, line in lines.items() if line is not None and line["type"] == "session.created")
        lines[key] = {**lines[key], "text": "stale"}
    from gmtool.core.view import TABLE
    from gmtool.web.screens import log_lines
    with app.test_request_context("/"), pytest.raises(StaleLogLine):
        log_lines(live_session(screens.sid), TABLE, 30)


@pytest.mark.parametrize("html", ["<p>a\r\nb</p>", "<p>a\rb</p>", "<p>騎士\nc</p>\n", "<p>一行</p>"])
def test_fragment_message_frames_every_line_ending(html):
    """A fragment holding CR, LF or CRLF (a textarea's text) is one SSE message whose data is the fragment with
    its lines kept: a bare CR framed as it is would end the data line early and lose the rest to the parser."""
    import re

    from gmtool.web.live import fragment_message

    message = fragment_message(7, html).decode()
    assert message.endswith("\n\n") and "\n\n" not in message[:-2]  # one message
    fields = [line.split(": ", 1) if ": " in line else [line, ""] for line in re.split(r"\r\n|\r|\n", message[:-2])]
    assert fields[:3] == [["id", "7"], ["event", "fragment"], ["data", "7"]]
    assert all(name == "data" for name, _ in fields[2:])  # nothing outside a data line
    assert "\n".join(value for _, value in fields[3:]) == re.sub(r"\r\n|\r", "\n", html)
