"""Helpers shared by the unit and web tests (imported by tests/conftest.py and the tests themselves)."""

from __future__ import annotations

import json
import os
import re
import threading
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from gmtool.core import engine, prompts  # noqa: F401  (prompts registers its fold handlers)
from gmtool.core.dice import FixedDice
from gmtool.core.model import Event, State
from gmtool.core.resolvers import BUILTIN
from gmtool.store import dump_json, load_json
from gmtool.web.common import csrf_for

ADMIN_KEY = "k" * 32
COUNTERS = ["seals", "mana", "karma", "vp"]
PRIVATE = ["mana"]
SEAT_NAMES = ["セイバー / 衛宮", "アーチャー / 遠坂", "ランサー"]
RAM_DISK = "/dev/shm"  # Linux's RAM-backed folder, where the suite's tmp_path goes (tests/conftest.py)
RAM_DISK_FREE = 2**30  # bytes free it needs (a container's default /dev/shm holds 64 MiB); a run writes about 40 MiB


def ram_disk_usable() -> bool:
    """Whether RAM_DISK is a writable folder with RAM_DISK_FREE bytes free."""
    if not os.path.isdir(RAM_DISK) or not os.access(RAM_DISK, os.W_OK):
        return False
    disk = os.statvfs(RAM_DISK)
    return disk.f_bavail * disk.f_frsize >= RAM_DISK_FREE


@dataclass
class Pure:
    """A session held only in memory: commands produce drafts, the engine folds them."""

    state: State
    events: list[Event] = field(default_factory=list)
    dice: FixedDice = field(default_factory=lambda: FixedDice([]))
    resolvers: dict = field(default_factory=lambda: dict(BUILTIN))

    def do(self, command, *args, actor: str = "gm", **kwargs) -> list[Event]:
        """Run a pure command and fold its drafts as one action (like the runtime, minus I/O)."""
        return self.write(command(self.state, *args, **kwargs), actor)

    def write(self, drafts, actor: str = "gm") -> list[Event]:
        """Fold drafts as one action."""
        action = self.state.last_action + 1
        seq = self.state.last_seq
        written = []
        for event_type, data in drafts:
            seq += 1
            data = load_json(dump_json(data))  # as a Store gives it: as stored (lists, string keys)
            event = Event(seq, "2026-01-01T00:00:00.000+00:00", actor, action, event_type, data)
            written.append(event)
            self.events.append(event)
            engine.apply(self.state, event)
        return written

    def answer(self, prompt_id: str, who: str, value, salt: str = "salt") -> list[Event]:
        """A respondent's answer with a fixed salt."""
        actor = "gm" if who == "gm" else f"seat:{who}"
        return self.do(prompts.answer, prompt_id, who, value, salt, self.resolvers, self.dice, actor=actor)

    def open(self, spec: dict, prompt_id: str | None = None) -> str:
        """Open a prompt and return its id."""
        prompt_id = prompt_id or f"p{len(self.state.prompts) + 1}"
        self.do(prompts.open_prompt, prompt_id, spec, self.resolvers)
        return prompt_id

    def refold(self) -> State:
        """The state folded again from scratch (the fold is deterministic)."""
        return engine.fold(self.events, self.state.rules)


def bearer(token: str) -> dict:
    """The Authorization header of an API call."""
    return {"Authorization": f"Bearer {token}"}


def api_caller(app, session_id: str, tokens: dict):
    """`call(path, body=None, who="gm")` for a session made in-process: a POST to /api/sessions/<sid>/<path> as the
    GM or a seat that must answer 200, its JSON; the path "state" GETs that viewer's state instead."""
    client = app.test_client()

    def call(path: str, body: dict | None = None, who: str = "gm") -> dict:
        headers = bearer(tokens["seats"].get(who, tokens["gm"]))
        if path == "state":
            return client.get(f"/api/sessions/{session_id}/state", headers=headers).get_json()
        r = client.post(f"/api/sessions/{session_id}/{path}", headers=headers, json=body or {})
        assert r.status_code == 200, (path, r.get_json())
        return r.get_json()
    return call


DEFAULT_SERVANT = (("英霊", "6/5/3/3"), ("クラス", "1/1/1/1"))


def start_ace_royal(post, seats, version: str, faces: list[int], servants: dict | None = None) -> None:
    """An ace_royal game set up through the API (`post`: api_caller's) up to its first turn: `version`'s setup, the
    first-player roll's `faces`, each seat's servant ({seat: ((hero, stats), (class, stats))}, DEFAULT_SERVANT
    otherwise), then the start."""
    post("actions/setup", {"version": version})
    post("actions/roll_first", {"faces": faces})
    for seat in seats:
        (hero, hero_stats), (cls, cls_stats) = (servants or {}).get(seat, DEFAULT_SERVANT)
        post("actions/set_servant", {"hero": {"name": hero, "stats": hero_stats}, "class": {"name": cls, "stats": cls_stats}},
             who=seat)
    post("actions/start_game")


def path_of(url: str) -> str:
    """The path and query of a URL handed out by gmtool."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def open_link(app, url: str):
    """A fresh browser (cookie jar) that opened a gmtool link (?k=token); returns the client."""
    browser = app.test_client()
    response = browser.get(path_of(url))
    assert response.status_code == 302, (url, response.status_code)
    return browser


@dataclass
class Screens:
    """One cookie jar per screen of a created session, plus its tokens."""

    data: dict
    gm: object
    table: object
    seats: dict  # seat id -> client

    @property
    def sid(self) -> str:
        """The session id."""
        return self.data["session"]

    def token(self, who: str) -> str:
        """The token of 'gm', 'table' or a seat id."""
        if who == "gm":
            return self.data["gm_token"]
        if who == "table":
            return self.data["table_token"]
        return next(s["token"] for s in self.data["seats"] if s["id"] == who)

    def csrf(self, who: str = "gm") -> str:
        """The CSRF value that goes with a screen's cookie."""
        return csrf_for(self.token(who))


def docs_rows(docs: str) -> dict[str, str]:
    """A docs page's table rows whose first cell is one name in backticks: {name: the rest of the row} (the first
    such row of each name)."""
    rows: dict[str, str] = {}
    for name, rest in re.findall(r"^\| `(\w+)` \|(.*)\|$", docs, re.M):
        rows.setdefault(name, rest)
    return rows


@lru_cache(maxsize=None)
def undo_cells(docs_page: str) -> dict[str, str]:
    """{action: its row's last cell} of a ruleset's docs page (a path under the repository): its `undo` column."""
    rows = docs_rows((ROOT / docs_page).read_text(encoding="utf-8"))
    return {name: rest.rstrip().split("|")[-1].strip() for name, rest in rows.items()}


def assert_undo_as_documented(client, session_id: str, name: str, answer: dict) -> None:
    """What undo does with a ruleset action is what its page's `undo` column says (docs/api.md §9): `yes` exactly
    when the type of the first event it wrote (`answer`: the action's JSON answer) is undoable (EventType.undoable,
    the only declaration of it)."""
    if not answer.get("events"):
        return
    ruleset = client.application.extensions["gmtool"].get(session_id).ruleset
    first = answer["events"][0]["type"]
    said = undo_cells(ruleset.docs).get(name)
    assert said == ("yes" if ruleset.is_undoable(first) else "no"), (
        f"{ruleset.docs}: the undo cell of action {name} says {said!r}, its first event {first} is "
        f"{'' if ruleset.is_undoable(first) else 'not '}undoable")


class ApiTable:
    """One session driven through its JSON API as docs/api.md describes it (the drivers that a ruleset's
    demo and leak probe are handed by the meta tests); `posted` is told of every action made."""

    def __init__(self, client, data: dict):
        self.client = client
        self.data = data
        self.sid = data["session"]
        self.seats = [s["id"] for s in data["seats"]]
        self.tokens = {"gm": data["gm_token"], "table": data["table_token"],
                       **{s["id"]: s["token"] for s in data["seats"]}}

    @classmethod
    def made(cls, app, live, tokens: dict) -> "ApiTable":
        """The table of a session made in-process (`SessionManager.create`'s live session and tokens)."""
        return cls(app.test_client(), {
            "session": live.state.session_id, "gm_token": tokens["gm"], "table_token": tokens["table"],
            "seats": [{"id": seat, "token": token} for seat, token in tokens["seats"].items()]})

    def posted(self, who: str, body: dict | None, response) -> None:
        """A hook for what a subclass records of each action."""

    def post(self, path: str, body: dict | None = None, who: str = "gm") -> dict:
        """POST /api/sessions/<id><path> as `who`; a refusal fails the test."""
        r = self.client.post(f"/api/sessions/{self.sid}{path}", headers=bearer(self.tokens[who]), json=body or {})
        assert r.status_code in (200, 201), (path, who, r.get_json())
        if path.startswith("/actions/"):
            assert_undo_as_documented(self.client, self.sid, path.split("/")[2], r.get_json())
        self.posted(who, body, r)
        return r.get_json()

    def act(self, name: str, payload: dict | None = None, who: str = "gm") -> dict:
        """A ruleset action."""
        return self.post(f"/actions/{name}", payload, who)

    def answer(self, prompt: str, value, who: str) -> dict:
        """A secret answer."""
        return self.post(f"/prompts/{prompt}/answer", {"value": value}, who)

    def state(self, who: str = "gm") -> dict:
        """GET /state as `who`."""
        return self.client.get(f"/api/sessions/{self.sid}/state", headers=bearer(self.tokens[who])).get_json()


@contextmanager
def running_in_thread(server):
    """A waitress server (gmtool.serving.make_server) serving in a thread until the block ends; then closed.
    Its loop may be in select() on the sockets being closed (EBADF): that end is expected, any other is not."""
    closing = threading.Event()

    def run():
        try:
            server.run()
        except (OSError, ValueError):
            if not closing.is_set():
                raise

    threading.Thread(target=run, daemon=True).start()
    try:
        yield server
    finally:
        closing.set()
        server.close()


# -- accessible names ------------------------------------------------------------------------------

class _Controls(HTMLParser):
    """Every form control, link and summary of a page with the name a screen reader gives it: its aria-label
    (or aria-labelledby, title), the text of its <label> (around it or `for` it), or its own text (a button,
    a link, a summary; an input button's value). A placeholder alone is no name: it goes when typing starts."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[list] = []  # [tag, attrs, text, the controls it labels (a <label>), the control it is]
        self.controls: list[list] = []  # [tag, attrs, name]
        self.texts: dict[str, str] = {}  # id -> text, for aria-labelledby and <label for>
        self.label_for: dict[str, str] = {}
        self.muted = 0  # inside an <option>, a <textarea>, a <script> or a <style>: not a label's text

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        control = None
        if tag in ("input", "select", "textarea", "button", "summary") or (tag == "a" and "href" in a):
            if a.get("type") != "hidden" and "hidden" not in a and "data-placeholder" not in a:
                control = [tag, a, ""]
                self.controls.append(control)
                label = next((el for el in reversed(self.open) if el[0] == "label"), None)
                if label is not None and tag in ("input", "select", "textarea"):
                    label[3].append(control)
        if tag in ("option", "textarea", "script", "style"):
            self.muted += 1
        if tag not in self.VOID:
            self.open.append([tag, a, "", [], control])

    def handle_endtag(self, tag):
        if tag in ("option", "textarea", "script", "style") and self.muted:
            self.muted -= 1
        if not any(el[0] == tag for el in self.open):
            return
        while self.open:
            el = self.open.pop()
            name, text = el[0], " ".join(el[2].split())
            if el[1].get("id"):
                self.texts[el[1]["id"]] = text
            if name == "label":
                if el[1].get("for"):
                    self.label_for[el[1]["for"]] = text
                for control in el[3]:
                    control[2] = control[2] or text
            if el[4] is not None and el[4][0] in ("button", "a", "summary"):
                el[4][2] = text
            if name == tag:
                break

    def handle_data(self, data):
        if not self.muted:
            for el in self.open:
                el[2] += " " + data

    def named(self) -> list[tuple[str, str]]:
        out = []
        for tag, a, text in self.controls:
            name = a.get("aria-label", "").strip() or " ".join(
                self.texts.get(i, "") for i in a.get("aria-labelledby", "").split()).strip()
            name = name or self.label_for.get(a.get("id", ""), "") or text
            if tag == "input" and a.get("type") in ("submit", "button", "reset"):
                name = name or a.get("value", "")
            name = name or a.get("title", "").strip()
            out.append((f"<{tag} {' '.join(f'{k}={v!r}' for k, v in a.items() if k in ('name', 'id', 'class', 'type'))}>",
                        name))
        return out


def unnamed_controls(html: str) -> list[str]:
    """The page's controls a screen reader cannot name: no name, or one of symbols only (✓, ＋, −, ↶ …)."""
    parser = _Controls()
    parser.feed(html)
    return [f"{where} named {name!r}" for where, name in parser.named()
            if not any(unicodedata.category(ch)[0] in "LN" for ch in name)]


def icon(name: str) -> str:
    """A regular expression for templates/_icons.html's picture `name` (die, trophy): an inline SVG hidden from a
    screen reader (the word beside it says it), which draws where no emoji font is installed."""
    return rf'<svg class="icon icon-{name}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">(?:(?!</svg>).)*</svg>'


def bare_emoji(html: str) -> list[str]:
    """Pictographic emoji (🏁 🔒 🎲 🏆 …) a page shows as its own text: each should be hidden from a screen reader
    beside a word that says it (<span aria-hidden="true">🏁</span>ゴール) or named (role="img" aria-label), since
    a screen reader may read it oddly and a laptop without an emoji font draws an empty box."""
    html = re.sub(r'<span (?:aria-hidden="true"|role="img" aria-label="[^"]+")>[^<]*</span>', "", html)
    html = re.sub(r"<script.*?</script>|<[^>]+>", " ", html, flags=re.S)  # text only (a title, a label aside)
    return [ch for ch in html if 0x1F300 <= ord(ch) <= 0x1FAFF]


# Browser tests: every text of the live screen that a box cut off, in a page.evaluate. A text counts as cut when an
# ancestor that clips (overflow other than visible) or the viewport holds only part of it, or when a clipping ancestor
# hides it whole, except a roll the summary's one-line strip leaves out by design (.summary-rolls .rolls); and the
# page itself must not scroll. Each problem is a line naming the clipping box, the element and the text.
CLIPPED_TEXT = """() => { const out = [];
  const walk = document.createTreeWalker(document.querySelector('#live'), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const node = walk.currentNode, text = node.textContent.trim(), el = node.parentElement;
    if (!text || !el.getClientRects().length || el.closest('.history')) continue;
    const range = document.createRange(); range.selectNodeContents(node); const r = range.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    let cut = null, leftOut = false;
    for (let a = el.parentElement; a && !cut; a = a.parentElement) { const cs = getComputedStyle(a);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const b = a.getBoundingClientRect();
      if (r.bottom > b.bottom + 1 || r.top < b.top - 1 || r.right > b.right + 1 || r.left < b.left - 1) {
        if (a.matches('.summary-rolls .rolls') && r.top >= b.bottom - 1) { leftOut = true; break; }
        cut = a.id ? '#' + a.id : a.tagName.toLowerCase() + '.' + [...a.classList].join('.'); } }
    if (!cut && !leftOut && (r.bottom > innerHeight + 1 || r.right > innerWidth + 1 || r.left < -1 || r.top < -1)) cut = 'viewport';
    if (cut) out.push(`${cut}: ${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${text.slice(0, 30)}"`); }
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight + 1 || page.scrollWidth > innerWidth + 1) out.push('the page scrolls');
  return out; }"""
# Browser tests: every word under the element `root` (a selector) that the browser broke over two lines, in a
# page.evaluate: a Latin word ("Comm / and Seals", "S / T / R"), a number ("5 / 0") or a rule code ("[T- / 4]"); hashes and
# ids in <code> may break anywhere.
BROKEN_WORDS = """(root) => { const out = new Set(); const walk = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const node = walk.currentNode;
    if (!node.parentElement.getClientRects().length || node.parentElement.closest('code')) continue;
    for (const m of node.textContent.matchAll(/[A-Z]-\\d+|[A-Za-z]{2,}|\\d{2,}/g)) { const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) out.add(m[0]); } }
  return [...out]; }"""
# Every text of the table screen (its bar, the live part, the history's button) that reads smaller than `min` px, by
# element: its font size times the CSS zoom it is drawn at (live.js fitTable zooms the stage and the summary down;
# getComputedStyle's font size does not count that). Rule codes (hidden until 根拠) and the closed history are left out.
SMALL_TEXT = """(min) => { const out = new Set(); const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) { const el = walk.currentNode.parentElement; const text = walk.currentNode.textContent.trim();
    if (!text || el.closest('.rule, .history-body, script, style, .skip-links, .sr-only') || !el.checkVisibility()) continue;
    let zoom = el.currentCSSZoom;
    if (zoom === undefined) { zoom = 1; for (let a = el; a; a = a.parentElement) zoom *= parseFloat(getComputedStyle(a).zoom) || 1; }
    const size = Math.round(parseFloat(getComputedStyle(el).fontSize) * zoom * 10) / 10;
    if (size < min) out.add(`${el.tagName.toLowerCase()}.${el.className} ${size}px: ${text.slice(0, 24)}`); }
  return [...out]; }"""
TV_MIN_PX = 18  # read from two metres on a 1920-wide TV
# Browser tests: every visible control (a button, field, list, link, toggle) narrower than `width` or lower than
# `height` CSS px, in a page.evaluate with [width, height], each a line with what it is and its size; a checkbox or
# radio counts by the label around it. Phones (tests/browser/test_phone_ergonomics.py) ask 44×44, a GM console at a
# phone's width (tests/browser/test_grail_combat.py) 44 high.
SMALL_CONTROLS = """([width, height]) => {
  const out = [];
  for (const el of document.querySelectorAll('button, input:not([type=hidden]), select, textarea, a[href], summary, [role=button]')) {
    let target = el;
    if ((el.type === 'checkbox' || el.type === 'radio') && el.closest('label')) target = el.closest('label');
    const r = target.getBoundingClientRect(), style = getComputedStyle(target);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden') continue;
    if (r.width < width - 0.5 || r.height < height - 0.5)
      out.push(`${el.tagName.toLowerCase()}${el.name ? '[name=' + el.name + ']' : ''}${el.type ? '[' + el.type + ']' : ''} ` +
               `"${(el.getAttribute('aria-label') || el.textContent || el.value || '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
  }
  return out;
}"""
# Browser tests, in a page.wait_for_function: no animation is running on the page (a finished one may stay, filled), so
# the table screen's stage has made its entrance and static/table.js has fitted the screen again at its animationend
# (dispatched before the animation frame in which this is asked): its layout holds still, ready to be measured.
SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running')"
# -- documented fields -----------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]


def _section(doc: str, heading: str) -> str:
    """The text of a docs page (a path under the repository) from `heading` up to the next `## ` or `### `."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    return re.split(r"\n###? ", text.split(heading, 1)[1], maxsplit=1)[0]


def _names(inner: str) -> list[str] | None:
    """The field names of a `{a, b {ja, en}, c: [x], d?}` written in the docs (the text between its outer braces):
    each item's leading name, with its `?` when the docs mark it as present only sometimes; None when an item is
    not a name (`…`)."""
    items, depth, item = [], 0, ""
    for ch in inner + ",":
        depth += ch in "{[(" and 1 or ch in "}])" and -1 or 0
        if ch == "," and depth == 0:
            items.append(item.strip())
            item = ""
        else:
            item += ch
    names = [re.match(r"\w+\??(?=$|[ :(\[{])", i) for i in items]
    return [m.group(0) for m in names] if all(names) else None


def documented_fields(doc: str, heading: str) -> dict[str, set[str]]:
    """The fields a docs page's table documents, under its section `heading` (up to the next `## ` or `### `): every name
    in backticks in a row's first column (`players[]`, `a`, `b`) is a top-level field (`""`); a dotted one
    (`combat.attacker_side`, `players[].score`, `me.moves`) names an object inside the view. When a row names
    one field and the rest of the row holds a `{…}` (or `[{…}]`) in backticks, the first one lists that
    object's fields (for a list, each item's; for a map written `{seat: {…}}`, each value's, the path then
    ending in `{}`; `{key: value}`, a map of plain values, gives that path with no fields):
    `fields["players[].score"] = {…}`. A path's `[]` and `{}` are walked by `objects_at`."""
    section = _section(doc, heading)
    fields: dict[str, set[str]] = {"": set()}
    for first, rest in re.findall(r"^\| ([^|]*`[^|]*) \|(.*)\|$", section, re.M):
        paths = re.findall(r"`([\w.\[\]]+)`", first)
        fields[""].update(p.removesuffix("[]") for p in paths if re.fullmatch(r"\w+(\[\])?", p))
        span = re.search(r"`\[?\{((?:[^`{}]|\{[^`{}]*(?:\{[^`{}]*\}[^`{}]*)*\})*)\}\]?`", rest)
        if not span or len(paths) != 1:
            continue
        inner, path = span.group(1), paths[-1].removesuffix("[]")
        mapped = re.fullmatch(r"\w+: (?:\{(.*)\}|\w+)", inner)
        if mapped:  # a map: `{seat: {…}}` (its values' fields) or `{key: value}` (its values are no objects)
            inner, path = mapped.group(1) or "", path + "{}"
        names = _names(inner) if inner else []
        if names is not None:
            fields[path] = set(names)
    return fields


def table_rows(doc: str, heading: str) -> dict[str, list[str]]:
    """The rows of the table(s) in a docs page's section `heading` whose first column is one name in backticks:
    {that name: the row's other cells}."""
    return {m.group(1): [c.strip() for c in m.group(2).split(" | ")]
            for m in re.finditer(r"^\| `([\w.\[\]]+)` \| (.*) \|$", _section(doc, heading), re.M)}


def objects_at(views: list, path: str) -> list[dict]:
    """Every object found at `path` (as `documented_fields` writes it) in any of `views`."""
    objs = list(views)
    for part in re.findall(r"\w+|\{\}|\[\]", path):
        if part == "[]":
            continue
        if part == "{}":
            objs = [v for o in objs if isinstance(o, dict) for v in o.values()]
            continue
        objs = [o[part] for o in objs if isinstance(o, dict) and o.get(part) is not None]
        objs = [x for o in objs for x in (o if isinstance(o, list) else [o])]
    return [o for o in objs if isinstance(o, dict)]


def _keys_anywhere(value, maps: set[str], path: str = "", out: set | None = None) -> set:
    """Every field name at any depth of a JSON value, but the keys of the maps the docs name (`maps`: their paths
    without `[]`), keys that are ids or words (`s1`, `c1-s1`, `s1/アルトリア`, `筋力`: not lower-case names) and
    what a resolution's `events` (the log's event data) hold."""
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            if path not in maps and re.fullmatch(r"[a-z][a-z_]*[a-z]", k):
                out.add(k)
            if k != "events":
                _keys_anywhere(v, maps, path + "{}" if path in maps else f"{path}.{k}".lstrip("."), out)
    elif isinstance(value, list):
        for v in value:
            _keys_anywhere(v, maps, path, out)
    return out


def undocumented(views: list, doc: str, heading: str) -> dict[str, tuple[set, set]]:
    """Where `views` (dicts as returned) and the docs' table differ: {path: (returned but not documented,
    documented but not always returned)} for the top level and every object whose fields the table lists; {} when
    they agree. A field marked `?` need not be returned; any other must be, in every object the table's row lists it
    for (a client reads it without looking first): one never returned is missing as its name (a documented object
    never seen in `views` counts as missing: the test did not reach it), one some objects leave out as `name?` (the
    row should mark it `?`). Deeper objects without a row of their own are held to their names: `"*"` lists the
    field names returned anywhere that the section never writes."""
    differences, fields = {}, documented_fields(doc, heading)
    maps = {p.replace("[]", "").removesuffix("{}") for p in fields if p.endswith("{}")}
    unnamed = _keys_anywhere(views, maps) - set(re.findall(r"\w+", _section(doc, heading)))
    if unnamed:
        differences["*"] = (unnamed, set())
    for path, documented in fields.items():
        objs = objects_at(views, path) if path else list(views)
        seen = {k for o in objs for k in o}
        named, required = {n.removesuffix("?") for n in documented}, {n for n in documented if not n.endswith("?")}
        missing = required - seen
        if path:  # the top level names every answer of a page; each object at a path is one answer's
            missing |= {f"{n}?" for o in objs for n in required - set(o) if n in seen}
        extra = seen - named
        if extra or missing:
            differences[path] = (extra, missing)
    return differences


@contextmanager
def recorded_views(client, session_id: str, tokens: dict):
    """While the block runs, every POST the test client makes to the session that answers 2xx is followed by a
    GET of the state as every token in `tokens` (the GM, the table, each seat): the list yielded fills with
    those answers and states (as returned), so a test sees every viewer's view at every step. The client's own
    `open` records (nothing is replaced: every request still goes through the app)."""
    views: list[dict] = []
    opened = client.open

    def open_and_record(*args, **kwargs):
        response = opened(*args, **kwargs)
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        method = kwargs.get("method", "GET")
        if method == "POST" and path.startswith(f"/api/sessions/{session_id}/") and response.status_code < 300:
            views.append(response.get_json())
            for token in tokens.values():
                views.append(opened(f"/api/sessions/{session_id}/state", headers=bearer(token)).get_json())
        return response

    client.open = open_and_record
    try:
        yield views
    finally:
        del client.open


def ruleset_views_by_step(client, games):
    """For each (session id, tokens, play) of `games` and each step `play` takes: (the step's number, `tokens`,
    {viewer: its state's `ruleset`}) as every viewer (the keys of `tokens`) reads it right after the step."""
    for sid, tokens, play in games:
        with recorded_views(client, sid, tokens) as seen:
            play()
        assert seen, f"{sid}: play() took no step"
        per_step = len(tokens) + 1  # each step's answer, then every viewer's state in the order of `tokens`
        for i in range(0, len(seen), per_step):
            yield i // per_step, tokens, {who: state["ruleset"] for who, state in zip(tokens, seen[i + 1:i + per_step])}


def ruleset_views(client, session_id: str, tokens: dict, play) -> list[dict]:
    """The `ruleset` part of every view recorded (recorded_views) while `play()` runs: every answer and every
    viewer's state after each step, for a test that holds them to the docs' tables (undocumented)."""
    with recorded_views(client, session_id, tokens) as seen:
        play()
    return [v["ruleset"] for v in seen if "ruleset" in v]


def games_to_play(flows, new_game):
    """Each flow with a fresh game of `new_game()` (a dict with its `sid` and `tokens`), as the documented-fields
    tests take them: (session id, tokens, play), `play()` running the flow on its game, not yet run."""
    for flow in flows:
        game = new_game()
        yield game["sid"], game["tokens"], lambda flow=flow, game=game: flow(game)


# -- what a person reads of a page (tests/meta/test_languages.py, tests/web/test_console_next_step.py) --------------

ATTRIBUTES = ("aria-label", "title", "placeholder", "alt", "hx-confirm", "data-second-tap", "data-pending",
              "data-sent", "data-refused")
SKIPPED = ("script", "style")


class Texts(HTMLParser):
    """What a person reads or hears of a page: its text nodes and accessible attributes, each separately."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts: list[tuple[str, str]] = []  # (where, text)
        self.skipping = 0
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name in ATTRIBUTES:
            if a.get(name):
                self.texts.append((f"<{tag} {name}>", a[name]))
        if a.get("value") and tag == "input" and a.get("type") in ("submit", "button"):
            self.texts.append((f"<{tag} value>", a["value"]))
        if tag in SKIPPED:
            self.skipping += 1
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "wbr"):
            self.tags.append(tag)

    def handle_endtag(self, tag):
        if tag in SKIPPED and self.skipping:
            self.skipping -= 1
        if tag in self.tags:
            while self.tags and self.tags.pop() != tag:
                pass

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.texts.append((f"<{self.tags[-1] if self.tags else ''}>", data.strip()))


def texts_of(html: str) -> list[tuple[str, str]]:
    """Every visible text and accessible name of an HTML page."""
    parser = Texts()
    parser.feed(html)
    return parser.texts


def strip_typed(text: str, typed: list[str]) -> str:
    """The text without the users' words (longest first, so a name inside a longer one goes with it; a word
    of Latin letters only where it stands as a whole word)."""
    for word in typed:
        if not word or word not in text:
            continue
        if re.fullmatch(r"[\w ]+", word, re.ASCII):
            text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", " ", text)
        else:
            text = text.replace(word, " ")
    return text


def is_json(text: str) -> bool:
    """Whether `text` is a JSON object or list (data, such as the verify page's canonical answers, not words)."""
    try:
        return isinstance(json.loads(text), (dict, list))
    except ValueError:
        return False


SEAT_ID = re.compile(r"\bs[0-9]+\b")
KEY = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")  # black_stars, tokens_illuminati: a key, not a word
ADDRESS = re.compile(r"https?://\S+|/s/\S+|/join/\S+|[\w/]+\.(?:md|css|js|html)\b")  # addresses and files


def ids_shown(screens: dict[str, str], words: list[str]) -> list[str]:
    """Every text of the screens that shows a seat id or a key, once addresses and the users' words are out. The
    verify page's canonical answers (JSON, hashed into the commitments) are data a player checks byte for byte;
    an id the scripts posted (a faction, a character) is no word anybody typed."""
    words = [w for w in words if not (SEAT_ID.search(w) or KEY.fullmatch(w))]
    found = []
    for page, html in screens.items():
        for where, text in texts_of(html):
            if is_json(text):
                continue
            rest = strip_typed(ADDRESS.sub(" ", text), words)
            shown = SEAT_ID.findall(rest) + KEY.findall(rest)
            if shown:
                found.append(f"{page} {where}: {text[:120]!r} ({', '.join(shown[:5])})")
    return found


RULE_CODE_TEXT = re.compile(r"\b[A-Z]{1,2}-\d+[a-z]?\b")
HASH_TEXT = re.compile(r"\b[0-9a-f]{64}\b")  # a commitment (SHA-256), a salt: data to check, not words to read


class _Shown(HTMLParser):
    """The text nodes and accessible attributes (a title's tooltip, an aria-label: ATTRIBUTES) of a page that show
    `pattern` where a player sees it by default: outside an element of class rule or g-rule (hidden until the 根拠
    toggle), a script or style, an element with `hidden`, and a closed <details> other than its summary."""

    def __init__(self, pattern: re.Pattern):
        super().__init__(convert_charrefs=True)
        self.pattern = pattern
        self.open: list[tuple[str, bool, bool]] = []  # (tag, hides its text, a closed <details>)
        self.found: list[str] = []

    def _hidden(self) -> bool:
        return any(hides for _, hides, _ in self.open) or bool(self.open and self.open[-1][2])

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        hides = (tag in ("script", "style") or bool({"rule", "g-rule"} & classes) or "hidden" in attrs
                 or (bool(self.open) and self.open[-1][2] and tag != "summary"))
        if not hides and not self._hidden():  # a tooltip or an accessible name is read too (a title, an aria-label)
            self.found += [attrs[name].strip()[:120] for name in ATTRIBUTES if self.pattern.search(attrs.get(name) or "")]
        if tag not in ("br", "img", "input", "meta", "link", "hr", "source", "wbr"):
            self.open.append((tag, hides, tag == "details" and "open" not in attrs))

    def handle_endtag(self, tag):
        while self.open:
            if self.open.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.pattern.search(data) and not self._hidden():
            self.found.append(data.strip()[:120])


def shown_by_default(html: str, pattern: re.Pattern) -> list[str]:
    """Every text of a page that shows `pattern` (RULE_CODE_TEXT, HASH_TEXT) before anybody opens or toggles
    anything (docs/api.md: rule codes are the GM's, on the TV and the phones inside class rule / g-rule, which
    gmtool.css hides until the table's 根拠 toggle; a commitment sits behind its 「封印済み」 disclosure)."""
    parser = _Shown(pattern)
    parser.feed(html)
    return parser.found


def assert_answers_sealed_on_table(html: str, prompt: dict, names: dict[str, str], values: tuple = ()) -> None:
    """The table screen `html` has the summary's line of the open secret prompt `prompt` (its view as the table reads
    it from the state API: respondents, commitments) with each respondent by name, who has answered with the short
    form (12 hex digits, as the log writes it) and the whole of their commitment inside a closed 「封印済み」 disclosure (shown by the 根拠
    toggle), the others waiting; and no answer's value (`values`) anywhere on the page (README: the table shows who
    has answered a prompt and the commitment of each answer; table/_live.html #summary-prompts)."""
    line = re.search(rf'<div class="summary-prompt" data-prompt="{re.escape(prompt["id"])}">(.*?)</div>', html, re.S)
    assert line, f"no summary line of {prompt['id']} on the table"
    chunks = dict(re.findall(r'data-who="([^"]+)">(.*?)(?=<span class="pill summary-answer|$)', line.group(1), re.S))
    assert list(chunks) == list(prompt["respondents"]), (list(chunks), prompt["respondents"])
    for who, chunk in chunks.items():
        assert f"<b>{names[who]}</b>" in chunk, (who, chunk)
        commitment = prompt["commitments"].get(who)
        if commitment:
            assert re.search(f'✓</span><details class="seal"><summary title="[^"]+"><code class="commitment-short">'
                             f'{commitment[:12]}</code>…</summary><code class="commitment">{commitment}</code></details>',
                             chunk), (who, chunk)
        else:
            assert 'class="commitment' not in chunk and "✓" not in chunk, (who, chunk)
    assert prompt["commitments"] and shown_by_default(html, HASH_TEXT) == []  # the whole hash: behind its disclosure
    for value in values:
        assert value not in html, value


PROC = Path("/proc")
RUN_MARK = "GMTOOL_TEST_RUN"  # in the environment of every process a test process starts (tests/integration/conftest.py)


def mark_run() -> None:
    """Mark this test process's environment, which every process it starts inherits, and theirs (a server's workers
    and Caddy): run_processes finds them by it, also once a killed parent left them to init, and under pytest-xdist
    each worker only its own."""
    os.environ[RUN_MARK] = str(os.getpid())


def run_processes() -> dict[int, str]:
    """Every living process this test process started (or they did), by pid, with its command line (mark_run)."""
    mark, found = f"{RUN_MARK}={os.getpid()}".encode(), {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if mark not in (entry / "environ").read_bytes().split(b"\0"):  # (a zombie's is empty)
                continue
            found[int(entry.name)] = (entry / "cmdline").read_text().replace("\0", " ").strip()
        except OSError:  # ended meanwhile, or another user's
            continue
    return found
