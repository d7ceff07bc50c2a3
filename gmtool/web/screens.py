"""Template context for the three screens, always built from the viewer's filtered view."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from flask import current_app, g, template_rendered, url_for
from markupsafe import Markup, escape

from ..core.commands import MAX_SEATS
from ..core.logtext import describe
from ..core.prompts import answer_text
from ..core.view import GM, TABLE, Viewer, answers_hidden, build_view, can_see_answer, undo_line, visible_event
from ..i18n import template_words, translate
from ..runtime import LiveSession, replayed
from ..urls import join_url, table_url
from . import names_in, rule_marked, scene_start, stylesheet_url
from .common import base_url, clock_hm, csrf_for, lang, qr_svg
from .sections import kept

LOG_LINES = 60     # the GM console's log
TABLE_LOG_LINES = 30  # the table's stage (its newest line) and history
SCREEN_ROLLS = 20     # the most rolls a screen lists (the table's history)


@lru_cache(maxsize=8192)
def clock(ts: str) -> str:
    """An event time as local HH:MM:SS."""
    try:
        return datetime.fromisoformat(ts).astimezone().strftime("%H:%M:%S")
    except ValueError:
        return ts


LINES_KEPT = 4096  # log lines kept per session (all are dropped when there are more: a few changes remake them)


class StaleLogLine(AssertionError):
    """A kept log line differs from a fresh one: its event type's line_key misses something the line reads."""


def log_line(event, state, viewer: Viewer, language: str, undone_of=None) -> dict | None:
    """One log line as `viewer` sees it in `language`, or None when the event is hidden from them (an undo's line
    says what it took back as `viewer` may see it now: `undone_of(action)`, the undone events, view.visible_event)."""
    visible = visible_event(event, state, viewer, undone_of)
    if visible is None:
        return None
    return {"seq": event.seq, "action": event.action, "time": clock(event.ts), "type": event.type,
            "text": describe(visible, state, language), "undone": visible["undone"]}


def screen_viewer(live: LiveSession, viewer: Viewer) -> Viewer:
    """The viewer a screen shows: the GM as the console's setting says (answers hidden until the reveal: its
    prompts and log say who answered, not what), anyone else as they are (the caller holds the session's lock)."""
    if viewer.is_gm and not viewer.hide_answers and answers_hidden(live.state):
        return Viewer("gm", hide_answers=True)
    return viewer


FLASH_JOINED = 120  # the longest flash that joins an action's lines; a longer one says the first and how many more


def flash_text(live: LiveSession, viewer: Viewer, events) -> str:
    """What an action did, for the flash of the screen that sent it: its events as `viewer`'s log reads them
    (worded), the viewer's own answer as its receipt; nothing `viewer` may see: 「完了しました」 / "Done"."""
    language = lang()
    with live.lock:
        viewer = screen_viewer(live, viewer)
        text = worded(live, viewer, events, language)
    return text or translate("flash.done", language)


def worded(live: LiveSession, viewer: Viewer, events, language: str) -> str:
    """One action's `events` as `viewer`'s log reads them (the viewer's own answer as its receipt, without the
    commitment; the close in words, not its seed), joined, or the first (the game's end where the action ended it:
    EventType.ends_game) and how many more; "" when `viewer` may see none of them (the caller holds the session's
    lock)."""
    lines, ending = [], None
    for event in events:
        line = log_line(event, live.state, viewer, language, lambda action: undone_events(live, action))
        if line is None:
            continue
        if ending is None and getattr(live.ruleset.event_type(event.type), "ends_game", False):
            ending = len(lines)  # the win: what a cut flash leads with
        if event.type == "prompt.answered" and event.data["by"] == viewer.respondent:
            line["text"] = sent_receipt(live, viewer, event.data["prompt"], event.data["value"], event.ts, language)
        elif event.type == "session.closed":  # in words: the seed's 64 digits are for the log and the exports
            line["text"] = translate("flash.closed", language)
        lines.append(line["text"])
    if not lines:
        return ""
    joined = " / ".join(lines)
    if len(lines) == 1 or len(joined) <= FLASH_JOINED:
        return joined
    # cut to one line and how many more: the game's end when the action ended it (its first line was an attack's
    # long breakdown, the win cut away), else the first
    first = lines[ending if ending is not None else 0]
    return translate("flash.more", language).format(first=first, more=len(lines) - 1)


def sent_receipt(live: LiveSession, viewer: Viewer, prompt_id: str, value, at: str, language: str) -> str:
    """「✓ 送信しました: 3 (21:04)」 / "✓ Sent: 3 (21:04)": the viewer's own answer as it reads, with the time it was
    sent; only 「✓ 送信しました (21:04)」 where the viewer may not see it (the GM's console hiding answers, T-2)."""
    prompt = live.state.prompts.get(str(prompt_id))
    if prompt is not None and not can_see_answer(prompt, viewer, viewer.respondent):
        return f"✓ {translate('prompt.sent', language)} ({clock_hm(at)})"
    names = {o: live.state.seat_name(o) for o in prompt.options} if prompt is not None and prompt.kind == "seat" else None
    text = answer_text(live.ruleset, prompt.kind, value, names, language) if prompt is not None else str(value)
    return f"✓ {translate('prompt.sent', language)}: {text} ({clock_hm(at)})"


def log_lines(live: LiveSession, viewer: Viewer, limit: int = LOG_LINES) -> list[dict]:
    """The latest log lines `viewer` may see, newest first (the caller holds the session's lock).

    A line is made once and kept under (event, viewer, language, undone mark, the seats' names, its type's
    `line_key`: what else it depends on, e.g. whether its prompt is revealed); a type without a line_key (a
    ruleset's, unless it declares one) is made again each time. Under CHECK_SECTIONS every kept line is made
    again and compared (StaleLogLine), so a line_key that misses something fails the suite."""
    lines, language, state, kept = [], lang(), live.state, live.lines
    names = tuple(seat.name for seat in state.seats.values())
    check = live.sections.checked(current_app)  # the sections' setting: kept lines are checked alike
    if len(kept) > LINES_KEPT:
        kept.clear()
    undone_of = lambda action: undone_events(live, action)  # noqa: E731  (an undo's line reads its undone events)
    for event in reversed(live.recent):
        declared = state.rules.event_type(event.type) if state.rules is not None else None
        if event.type == "undo":  # its line is made from the events it took back, as the viewer sees them now
            token = undo_line(event, state, undone_of)
        else:
            token = declared.line_key(event, state) if declared is not None and declared.line_key is not None else None
        if token is None:
            line = log_line(event, state, viewer, language, undone_of)
        else:
            key = (event.seq, viewer, language, event.action in state.undone, names, token)
            line = kept.get(key, kept)
            if line is kept:
                line = kept[key] = log_line(event, state, viewer, language, undone_of)
            elif check and line != log_line(event, state, viewer, language, undone_of):
                raise StaleLogLine(f"the log line of {event.type} #{event.seq} changed without a change of its key")
        if line is None:
            continue
        lines.append(line)
        if len(lines) >= limit:
            break
    return lines


def context(live: LiveSession, viewer: Viewer, token: str) -> dict:
    """What every screen's template gets (log lines only for the GM console and the table, the screens
    that show them; a phone shows none)."""
    g.rules = live.ruleset  # the answer_text filter words answers of the ruleset's prompt kinds
    with live.lock:
        viewer = screen_viewer(live, viewer)
        view = screen_view(live, viewer)
        # What every phone shows alike is rendered from the table's view, once for all of them (a seat's own
        # view of a revealed prompt holds its own marks, which would make each phone's rendering its own).
        public = screen_view(live, TABLE) if viewer.kind == "seat" else None
        log = [] if viewer.kind == "seat" else log_lines(live, viewer, LOG_LINES if viewer.is_gm else TABLE_LOG_LINES)
        undone = undone_actions_of(live, viewer.seat) if viewer.kind == "seat" else []
        notices = undo_notices(live, viewer, lang()) if viewer.kind == "seat" else []
    seats = {s["id"]: s for s in view["seats"]}
    phone = phone_context(view, seats[viewer.seat], live, public) if viewer.kind == "seat" else {}
    ctx = {**phone, "undone_own": undone, "undo_notices": notices, "view": view, "public": public, "log": log, "seats_by_id": seats, "seat_names": {s["id"]: s["name"] for s in view["seats"]},
            "section_cache": live.sections, "csrf": csrf_for(token), "sid": view["session"]["id"],
            "viewer": viewer, "version": view["session"]["version"],
            "controls": False,  # the GM console's counter controls: with the page only (gm/_live.html)
            "heartbeat": current_app.config["HEARTBEAT"],
            "ruleset_templates": live.ruleset.templates, "prompt_templates": {k.name: k.template for k in live.ruleset.prompt_kinds if k.template},
            "panel_ops": {k.name: k.panel_ops for k in live.ruleset.prompt_kinds},
            "ruleset_css": stylesheet_url(live.ruleset),
            "counter_defs": {c["key"]: c for c in view["counters"]}}
    if viewer.kind == "seat":
        ctx["personal"] = phone_personal(live, ctx)
    return ctx


def undone_actions_of(live: LiveSession, seat: str) -> list[int]:
    """The actions of `seat` the GM undid lately (the session's recent events; the caller holds its lock): its phone
    clears a success message that told of one (static/phone.js). Only the seat's own: nothing of anyone else's."""
    by, recent = f"seat:{seat}", list(live.recent)
    own = {e.action for e in recent if e.actor == by}
    return [e.data["action"] for e in recent if e.type == "undo" and e.data.get("action") in own]


def undo_notices(live: LiveSession, viewer: Viewer, language: str) -> list[str]:
    """A phone's 「GMが取り消しました: …」 / "The GM took back: …", one per undo, while the GM's undos are the newest
    lines its seat may see (the table's notice lasts as long): for each undo that took back something of this seat's
    (its own action, or one whose events it may see name it: its counter, its roll, its step), what was taken back as
    its own view words it (worded). A phone the undone action did not concern gets none (the caller holds the lock)."""
    state, notices = live.state, []
    for event in reversed(live.recent):
        if event.type != "undo":
            if visible_event(event, state, viewer) is None:
                continue  # hidden from this seat: not a line it sees after the undo
            break
        undone = undone_events(live, event.data["action"])
        if not concerns(undone, state, viewer):
            continue
        what = worded(live, viewer, undone, language)
        notices.append(f"{translate('phone.undone', language)}: {what}" if what else translate("phone.undone", language))
    return notices


def undone_events(live: LiveSession, action: int) -> list:
    """The events of an undone `action`, read once per version for all the phones that word its notice."""
    key = ("undone", action)
    events = live.rendered.get(key, live.version)
    if events is None:
        events = live.store.action_events(action)
        live.rendered.put(key, live.version, events)
    return events


OFFERED = frozenset({"options"})  # fields that list what a prompt offers: a seat there is not what the event is about


def concerns(events, state, viewer: Viewer) -> bool:
    """Whether one action's `events` concern `viewer`'s seat: the seat did it (acted, answered), or an event the seat
    may see names it as a respondent or its subject (a field that holds its id, or a list or a table of seats with
    it); a seat only offered as an option (another seat's seat-choice prompt) is not concerned."""
    seat = viewer.seat
    for event in events:
        if event.actor == f"seat:{seat}":
            return True
        visible = visible_event(event, state, viewer)
        if visible is not None and any(value == seat or (isinstance(value, (list, dict)) and seat in value)
                                       for key, value in visible["data"].items() if key not in OFFERED):
            return True
    return False


def screen_view(live: LiveSession, viewer: Viewer) -> dict:
    """`viewer`'s view of the session at its current version, built once per version (the caller holds the
    session's lock) and shared by that version's renderings; templates only read it."""
    key = ("view", viewer)
    view = live.rendered.get(key, live.version)
    if view is None:
        if viewer.kind == "seat":  # a phone's own view gives its open prompts; the rolls and revealed prompts it
            view = build_view(live.state, viewer, live.version, rolls=0, finished=0,  # shows are the table's
                              game_rolls=True)                                        # (phone_public)
        else:  # the game's own rolls are listed with core's (core/view.screen_rolls)
            view = build_view(live.state, viewer, live.version, rolls=SCREEN_ROLLS, game_rolls=True)
        live.rendered.put(key, live.version, view)
    return view


FRAGMENTS = {"gm": "gm/_live.html", "table": "table/_live.html"}  # a phone's: phone_fragment
PHONE_PERSONAL = "phone/_personal.html"
PHONE_PUBLIC = "phone/_public.html"
PHONE_OTHER = "phone/_other.html"


def render_fragment(template: str, ctx: dict, language: str) -> str:
    """A template rendered straight through Jinja with `language`'s words: a fragment reads only its context
    (Flask's context processors would add the request, which a fragment shared by many screens must not read)."""
    app = current_app._get_current_object()
    jinja_template, ctx = app.jinja_env.get_template(template), {**template_words(language), **ctx}
    html = jinja_template.render(ctx)
    template_rendered.send(app, _async_wrapper=app.ensure_sync, template=jinja_template, context=ctx)
    return html


def phone_context(view: dict, me: dict, live: LiveSession, public: dict) -> dict:
    """What a phone's own part reads besides its view (phone/_personal.html): its own seat `me`, whether core's card of
    its counters shows (not where the ruleset's panel shows them: `Ruleset.phone_counters`), the open prompts for it,
    the titles of the others, the one it should answer first, and what every phone shows alike."""
    mine_open = [p for p in view["prompts"] if p["status"] == "open" and p["for_you"]]
    todo = [p for p in mine_open if not p["your_answer"]]
    shown_by_panel = live.ruleset.phone_counters
    return {"mine_open": mine_open, "me": me,
            "own_card": not (shown_by_panel and shown_by_panel(view.get("ruleset") or {})),
            "others_open": [p["title"] for p in view["prompts"]
                            if p["status"] == "open" and not p["for_you"] and not p["background"]],
            "primary_prompt": todo[-1]["id"] if todo else None,  # the oldest: answered in the order asked
            "primary_free": not todo, "public_part": phone_public(live, public)}


def phone_personal(live: LiveSession, ctx: dict) -> Markup:
    """A phone's own part (phone/_personal.html: its open prompts, the ruleset's panel for it, its counters) from
    the session's sections if one was made from equal inputs (any version: most changes leave a seat's own
    things alone), else rendered from the phone's context `ctx`."""
    view = ctx["view"]
    inputs = [ctx["mine_open"], ctx["others_open"], ctx["seat_names"], ctx["viewer"].seat, view.get("ruleset"),
              view["seats"] if ctx["ruleset_templates"].get("phone") else None, ctx["counter_defs"],
              ctx["primary_free"], ctx["me"]]
    language = lang()
    return Markup(kept(live.sections, PHONE_PERSONAL, "personal", ctx["viewer"], inputs,
                       lambda: render_fragment(PHONE_PERSONAL, ctx, language), language))


@dataclass(frozen=True)
class PhonePublic:
    """What every phone shows alike at one version: the revealed prompts and the newest rolls (`shared`), and
    each seat's line of the others card (`lines`, by seat id: a phone lists every seat's but its own)."""

    shared: Markup
    lines: dict[str, Markup]

    def others(self, seat_id: str) -> Markup:
        """The others card's lines for `seat_id`'s phone."""
        return Markup("".join(html for other, html in self.lines.items() if other != seat_id))  # each line is Markup


def phone_public(live: LiveSession, public: dict) -> PhonePublic:
    """What every phone shows alike (phone/_public.html, phone/_other.html) at the version of the table's view
    `public`, rendered once per version and language for all of them."""
    version, language = public["session"]["version"], lang()
    key = (PHONE_PUBLIC, language)
    made = live.rendered.get(key, version)
    if made is None:
        seats = {s["id"]: s for s in public["seats"]}
        # a phone shows the results revealed since the newest scene began (a new round or combat), as it lists only
        # that scene's rolls (phone/_public.html), where the scene begins as for them (scene_start); what is not
        # revealed (locked, closed with the session) stays
        since = scene_start(public["scene"])
        prompts = live.state.prompts
        current = [p["id"] for p in public["prompts"] if p["id"] in prompts
                   and (prompts[p["id"]].status != "revealed" or prompts[p["id"]].revealed_seq >= since)]
        shared = render_fragment(PHONE_PUBLIC, {"public": public, "viewer": TABLE, "sid": public["session"]["id"],
                                                "seats_by_id": seats, "current_prompts": current,
                                                "seat_names": {i: s["name"] for i, s in seats.items()},
                                                "section_cache": live.sections}, language)
        counter_defs = {c["key"]: c for c in public["counters"]}

        def line(seat: dict) -> Markup:  # one seat's line, kept by that seat's part of the view
            return Markup(kept(live.sections, PHONE_OTHER, "other", None, [seat, counter_defs],
                               lambda: render_fragment(PHONE_OTHER, {"s": seat, "counter_defs": counter_defs}, language),
                               language))
        # Every seat's line at once when no seat changed (most changes), else each seat's
        lines = kept(live.sections, PHONE_OTHER, "others", None, [public["seats"], counter_defs],
                     lambda: {seat_id: line(seat) for seat_id, seat in seats.items()}, language)
        made = PhonePublic(Markup(shared), lines)
        live.rendered.put(key, version, made)
    return made


def live_fragment(live: LiveSession, viewer: Viewer, wait: bool = True) -> tuple[int, str] | None:
    """(version, html) of a screen's live fragment, rendered once per (viewer, language, version) and shared by
    every screen of that viewer: the table's and the GM's screens share one rendering, each seat has its own.
    With `wait=False`, None while another thread holds the session (the stream thread does not wait on one
    session's export while the others' screens wait for their changes).

    Fragments hold nothing of the request but the viewer and the language (no CSRF token, no host), so
    the cache key is complete; a new version makes the older renderings unreachable (runtime.Rendered)."""
    key = ("fragment", viewer, lang())
    if not live.lock.acquire(blocking=wait):
        return None
    try:
        version = live.version
        html = live.rendered.get(key, version)
        if html is not None:
            return version, html
        ctx = context(live, viewer, "")
    finally:
        live.lock.release()
    html = phone_fragment(ctx) if viewer.kind == "seat" else render_fragment(FRAGMENTS[viewer.kind], ctx, key[2])
    live.rendered.put(key, version, html)
    return version, html


PHONE_ROOT = """<div class="live-root" data-version="{version}" data-open-prompts="{open_prompts}" data-undone="{undone}">
{closed}{undo_notices}{personal}
{shared}
<section class="card">
  <h2>{others_title}</h2>
  {others}
</section>
</div>"""


def phone_fragment(ctx: dict) -> Markup:
    """A phone's live fragment: its own part (phone/_personal.html), what every phone shows alike
    (phone/_public.html) and the others card (each other seat's phone/_other.html), put together here rather than
    by a template. When the phone's own part is kept, which is most changes for most phones, this is all its
    rendering does, and a template's own cost per rendering was most of it (about 40 µs of 50).

    `data-open-prompts` lists the prompts open for this seat (static/live.js clears a draft whose prompt closed),
    `data-undone` the seat's own actions the GM undid lately (static/phone.js clears a success that told of one);
    `.undo-notice` says what the GM's newest undos took back of this seat's (undo_notices), its rule codes hidden as in
    the log (rule_marked)."""
    language, view = lang(), ctx["view"]
    return Markup(PHONE_ROOT.format(
        version=ctx["version"], open_prompts=escape("".join(f"{p['id']} " for p in ctx["mine_open"])),
        undone=" ".join(str(a) for a in ctx["undone_own"]),
        closed=closed_banner(view["session"], language) if view["session"]["closed"] else "",
        undo_notices=Markup("").join(Markup('<p class="undo-notice">{}</p>\n').format(rule_marked(n, names_in(ctx))) for n in ctx["undo_notices"]),
        personal=ctx["personal"], shared=ctx["public_part"].shared,
        others_title=escape(translate("phone.others", language)), others=ctx["public_part"].others(ctx["viewer"].seat)))


def closed_banner(session: dict, language: str) -> Markup:
    """A closed phone's banner; once the campaign goes on, with the way to its seat in the next session (the link
    asks the server, which lets it in only if its seat carried over: web/common.to_next_session)."""
    onward = Markup(' <a class="next-session" href="{}">{}</a>').format(
        url_for("phone.next_session", session_id=session["id"]),
        translate("next.phone", language).format(title=session["next"]["title"])) if session["next"] else ""
    waits = "" if session["next"] else Markup(" data-awaits-next")  # static/live.js asks until the link comes
    return Markup('<p class="closed-banner"{}>{}{}</p>\n').format(waits, translate("closed", language), onward)


def gm_extras(live: LiveSession) -> dict:
    """The GM console's join links and QR codes, and its prompt form's example (GM only)."""
    sid = live.state.session_id
    joins = []
    for seat in live.state.seats.values():
        token = live.join_tokens.get(seat.id, "")
        url = join_url(base_url(), sid, token)
        joins.append({"id": seat.id, "name": seat.name, "faction": seat.faction, "url": url, "qr": qr_svg(url)})
    turl = table_url(base_url(), sid, live.table_token)
    most = min(live.ruleset.seats[1], MAX_SEATS)
    return {"joins": joins, "table_url": turl, "table_qr": qr_svg(turl),
            "resolvers": live.ruleset.all_resolvers(), "prompt_example": live.ruleset.prompt_example,
            "seats_full": most if len(live.state.seats) >= most else 0}  # the add-seat form is disabled, saying so


SCREEN_TEMPLATES = {"gm": ("gm/console.html", "gm/_live.html", "gm/qr_sheet.html"),
                    "table": ("table/screen.html", "table/_live.html"),
                    "seat": ("phone/page.html", "phone/_personal.html")}


def rehearse_screens(live: LiveSession) -> None:
    """Render every screen of a session once, for the GM, the table and each seat (an import is shown
    before it is kept: a log that folds may still hold values the templates cannot show); a screen that
    fails is a 400 naming it (export.jsonio.blamed)."""
    from flask import render_template
    from ..export.jsonio import SHOWN, blamed, screen_part
    viewers = [GM, TABLE, *(Viewer("seat", seat_id) for seat_id in live.state.seats)]
    for viewer in viewers:
        with blamed(screen_part(live.state, viewer), SHOWN):
            ctx = context(live, viewer, "rehearsal")
            if viewer.is_gm:
                ctx |= gm_extras(live) | {"controls": True}
            if viewer.kind == "seat":
                ctx["live_html"] = phone_fragment(ctx)
            for template in SCREEN_TEMPLATES[viewer.kind]:
                render_template(template, **ctx)


def import_checked(manager, text: str, restore_tokens: bool = False):
    """Import a JSON export and show each of its screens once; a session that cannot be shown is
    removed again (no file left) and refused with a 400."""
    live, tokens = manager.import_session(text, restore_tokens=restore_tokens)
    if replayed.get():  # the session this request imported before a restart: shown then, kept as it is
        return live, tokens
    try:
        rehearse_screens(live)
    except BaseException:
        manager.discard(live.state.session_id)
        raise
    return live, tokens
