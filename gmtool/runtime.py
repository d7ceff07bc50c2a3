"""Live sessions: the in-memory state of each open session, its store, its tokens and its listeners.

One `LiveSession` per session file. Every action runs under the session's lock:
validate (a pure command) -> append to SQLite durably -> fold into memory -> wake listeners.
Nothing is acknowledged before it is on disk, and a request never replays the whole log.

Undo folds only the last few hundred events: beside its state, a session keeps an undo base, the fold of
the log before the oldest action that can still be undone (UNDO_DEPTH actions back). An undo is a copy of
the base (State.copy, cheap: the prompts are shared and copied on write) with the events after it folded
in, the undone action skipped. The base is folded on from the store as the window moves, a few hundred
events at a time, never with the Event objects the live state folded (a fold may keep their data).
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import secrets
import sqlite3
import sys
import threading
import time
import traceback
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from . import snapshots
from .core import engine
from .core.commands import Draft, check_seat_count, create_session, new_seat, require_open, seat_of
from .core.dice import SeededDice, seed_hash
from .core.errors import Conflict, GmError, NotFound
from .core.model import CounterDef, Event, State, text_in
from .core.prompts import WORKED_ON, newly_shown, worked_on_since
from .core.view import GM, TABLE, Viewer, can_see_answer
from .ownership import NotOwned, Ownership
from .rulesets import get as get_ruleset
from .store import SUFFIX, LogReader, Store, read_head, request_noted

log = logging.getLogger(__name__)

UNDO_DEPTH = 50
BASE_LAG = 512  # events the undo base may trail the live state by before an action folds it on
NO_ACTION = 2**63 - 1  # the window's start when nothing can be undone: the base may fold everything
ROLLS_PER_SECOND = 2   # a seat's sustained rate of dice rolls
ROLL_BURST = 5         # rolls a seat may make at once before the rate applies
ANSWERS_PER_SECOND = 10  # a seat's sustained rate of prompt answers (each change of an answer is one)
ANSWER_BURST = 60       # answers a seat may give at once before the rate applies
RECENT_EVENTS = 300
KEEP_BUDGET = 5.0  # seconds a stop spends keeping undo bases in their files (SessionManager.close_all)
# The events the request being answered has committed (a new list as each request starts; None outside a request,
# where nothing is collected): a failure after the commit must not answer that nothing was changed, and a screen's
# form says what its action did (web.common.act)
recorded: ContextVar[list[Event] | None] = ContextVar("recorded", default=None)
# The keyed request being answered (its idempotency scope and body digest; web/idempotency.py), noted in the file with
# the action it appends, or None
request_key: ContextVar[tuple[str, str] | None] = ContextVar("request_key", default=None)
# Whether the request being answered repeats one that made a session, found in its file after a restart
# (SessionManager._made_before): its answer is marked Idempotent-Replayed (web/idempotency.py)
replayed: ContextVar[bool] = ContextVar("replayed", default=False)
SECTIONS_KEPT = 512  # per session: a few sections × (GM, table, each seat) × two languages, with room


class Rendered:
    """What the screens made at the session's latest version: live fragments, keyed by (template, viewer,
    language), the viewers' views they were rendered from, keyed by ("view", viewer), and an undone action's events
    that phones word their undo notice from, keyed by ("undone", action).

    Only one version is kept: a rendering of an older version is never served or stored, so a
    screen can never be handed a fragment older than the version it asked at."""

    def __init__(self):
        self.version = -1
        self.html: dict[tuple, str] = {}
        self.lock = threading.Lock()

    def get(self, key: tuple, version: int) -> str | None:
        """The rendering of `key` at `version`, if one was made."""
        with self.lock:
            return self.html.get(key) if version == self.version else None

    def put(self, key: tuple, version: int, html: str) -> None:
        """Keep a rendering made at `version` (dropping every older one)."""
        with self.lock:
            if version > self.version:
                self.version = version
                self.html = {}
            if version == self.version:
                self.html[key] = html

    def clear(self) -> None:
        """Forget every rendering (the state changed without a new version, e.g. a token reissue)."""
        with self.lock:
            self.version = -1
            self.html = {}


class SectionCache:
    """Rendered sections of one session's live fragments, kept by (template, section, language, digest of
    their inputs) (web/sections.py); least recently used dropped first."""

    def __init__(self, size: int = SECTIONS_KEPT):
        self.size = size
        self.html: OrderedDict[tuple, object] = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0
        self.renders: Counter[tuple] = Counter()  # (template, section) -> renderings made (for tests and the bench)
        self.check: bool | None = None  # whether a kept rendering is compared with a fresh one (the app's CHECK_SECTIONS)

    def checked(self, app) -> bool:
        """Whether kept renderings are checked (web/sections.py): the app's CHECK_SECTIONS (on under TESTING),
        read once."""
        if self.check is None:
            self.check = bool(app.config.get("CHECK_SECTIONS", app.testing))
        return self.check

    def get(self, key: tuple):
        """The kept rendering of `key`, if any."""
        with self.lock:
            html = self.html.get(key)
            if html is None:
                self.misses += 1
                self.renders[key[:2]] += 1
            else:
                self.hits += 1
                self.html.move_to_end(key)
            return html

    def put(self, key: tuple, html) -> None:
        """Keep a rendering."""
        with self.lock:
            self.html[key] = html
            self.html.move_to_end(key)
            while len(self.html) > self.size:
                self.html.popitem(last=False)

    def clear(self) -> None:
        """Forget every rendering."""
        with self.lock:
            self.html.clear()


def new_token() -> str:
    """An unguessable token (192 bits)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


class CannotUndo(Conflict):
    """An undo refused (409): the log does not fold without its action, or the fold would show a withdrawn answer."""

    echoes_input = False  # it quotes the action's own summary, whole


BUILT_ON = ("後の操作（その回答など）がこの操作に基づいています", "later actions (such as the answers to it) build on it")
REFUSED = "undo_refused"  # the meta value listing the actions whose undo was refused (CannotUndo), as JSON
WOULD_SHOW = ("取り消すと、公開済みの結果に伏せたままだった回答が加わります",
              "undoing it would add a withdrawn answer to a result already revealed")


def without_cancelled_answers(events: list[Event], state: State) -> tuple[list[Event], set[int]]:
    """A full backup's log without the answers of cancelled prompts that nobody but their author may read
    (view.can_see_answer: a prompt cancelled before its reveal; the GM's own answer stays): their `prompt.answered`
    events keep the commitment but not `value` and `salt`, as a public export gives them. The restored session needs
    them only if it undoes the cancel (a ruleset's undoable step that cancelled the prompt): returns the actions that
    cancelled them, which the backup then offers for undo no more (its `undo_refused`). The GM reads those answers in
    no view (docs/api.md §12); a backup is no way round that."""
    hidden = {(prompt.id, who) for prompt in state.prompts.values() if prompt.status == "cancelled"
              for who in prompt.answers if not can_see_answer(prompt, GM, who)}
    if not hidden:
        return events, set()
    prompts = {pid for pid, _ in hidden}
    out, cancels = [], set()
    for event in events:
        if event.type == "prompt.answered" and (event.data.get("prompt"), event.data.get("by")) in hidden:
            event = Event(event.seq, event.ts, event.actor, event.action, event.type,
                          {k: v for k, v in event.data.items() if k not in ("value", "salt")})
        elif event.type == "prompt.cancelled" and event.data.get("prompt") in prompts and event.action not in state.undone:
            cancels.add(event.action)
        out.append(event)
    return out, cancels


def refuse_full_backup_while_gm_answers(state: State) -> None:
    """A 409 for a full backup while a prompt not revealed yet holds a seat's answer the GM may not see (the GM answers
    it too: gm_submits): the backup holds every answer given, and the GM could still answer or change its
    own. The backup is refused, not thinned: one without those answers would restore another session (their
    commitments stand in the log). Revealing or cancelling the prompt lets the GM make it; a prompt holding only the
    GM's own answer (a locked prompt of the GM's alone) stops nothing."""
    for prompt in state.prompts.values():
        if prompt.status in ("open", "locked") and any(who != "gm" and not can_see_answer(prompt, GM, who)
                                                       for who in prompt.answers):
            raise Conflict(f"GMも答える秘密の質問「{text_in(prompt.title, 'ja')}」が公開前のため、完全バックアップは作れません"
                           "（ほかの回答が入っています）。公開するか取り消してから作ってください",
                           f"No full backup while '{text_in(prompt.title, 'en')}', a secret prompt the GM answers too, "
                           "is not revealed (it holds the other answers): reveal or cancel it first")


def refused_of(meta: dict) -> set[int]:
    """The actions whose undo was refused, from a session file's meta (ValueError or TypeError: not a list of them)."""
    return {int(a) for a in json.loads(meta.get(REFUSED, "[]"))}


class DamagedSession(Conflict):
    """A session file that does not load (409): a hand-edited file, one written by another program, a disk error.

    Its message says only that the session cannot be opened (in words a player reads: no id), which anyone who has
    its address may read;
    `details` (Japanese, English) names the session's title, what is wrong and what to do, for the holder of the
    server's GM key (web: the home page and its pages; the command line)."""

    echoes_input = False

    def __init__(self, session_id: str, title: str, why_ja: str, why_en: str):
        super().__init__("このセッションの保存ファイルが壊れていて開けません。GMに知らせてください",
                         "This session's saved file is damaged and cannot be opened; tell the GM")
        self.why = (why_ja, why_en)
        file = f"{session_id}{SUFFIX}"
        named_ja, named_en = (f"「{title}」", f"'{title}' ") if title else ("", "")
        self.details = (
            f"セッション{named_ja}の保存ファイル {file} を開けません: {why_ja}。"
            f"ファイルはそのまま残してあります。データフォルダの {file} をバックアップから戻すか、"
            "以前に書き出したJSONをインポートしてください（ほかのセッションはそのまま使えます）",
            f"The saved file of session {named_en}{file} cannot be opened: {why_en}. "
            f"The file is left as it is: put a backup of {file} back in the data folder, or import a JSON export "
            "saved earlier (the other sessions work as before).")

    def __str__(self) -> str:
        """The details (the command line's message and the server's log are the GM's)."""
        return " / ".join(self.details)


ANOTHER_BODY = ("この Idempotency-Key は別の内容の要求に使われています。新しいキーで送ってください",
                "This Idempotency-Key was used for a different request; send it with a new key")


class AnotherRequest(GmError):
    """An Idempotency-Key sent again with another body (422): a key names one request (web/idempotency.py)."""

    status = 422
    echoes_input = False

    def __init__(self):
        super().__init__(*ANOTHER_BODY)


class MadeByAnotherWorker(GmError):
    """The repeat of a keyed request whose session another worker of --workers made, sent to this one while that
    worker restarts (503): the proxy sends the key back to it once it is up, where it is answered as the first was."""

    status = 503
    echoes_input = False

    def __init__(self, worker: int):
        super().__init__(f"この要求のセッションは別のワーカー（{worker}番）が作りました。再起動中です。少し待ってもう一度送ってください",
                         f"Worker {worker} of this server made this request's session and is restarting; send it "
                         "again in a moment")


class ServerStopping(GmError):
    """A request that comes while the server stops, after its sessions were closed (Ctrl+C, SIGTERM): 503, nothing
    written (a screen queues the tap and sends it again to the next server, static/live.js)."""

    status = 503
    echoes_input = False

    def __init__(self):
        super().__init__("サーバーを停止しています。何も変更されていません。サーバーが戻ったらもう一度送ってください",
                         "The server is stopping; nothing was changed. Send it again once the server is back")


def damage_of(path: Path) -> tuple[str, str] | None:
    """What is wrong with a session file that did not load (Japanese, English), found by reading it again: its
    head, then its events up to the first that cannot be read or does not replay (None: nothing found). It names an
    event by its number and type, never its data (a secret may be in it)."""
    try:
        with LogReader(path) as reader:
            meta, secret = _head(reader)
            found = head_damage(meta, secret.get("seed"))
            if found:
                return found
            rules = get_ruleset(meta.get("ruleset", "generic"))
            try:
                reader.undone_actions()  # (what a load reads besides the log)
            except Exception:  # noqa: BLE001
                return "取り消しの記録が読めません", "its undo records cannot be read"
            events, stop = _readable_events(reader)
            failed = _first_not_replayed(events, rules)
            if failed is not None:
                return failed[1]
            if stop is not None:
                return stop[1:]
    except sqlite3.OperationalError as e:  # a table missing is the file's; a busy disk, too many open files are not
        if "no such table" in str(e):
            return "gmtoolのセッションの表がありません", "it lacks the tables of a gmtool session"
    except sqlite3.DatabaseError:
        return "SQLiteのデータベースとして読めません", "it is not a readable SQLite database"
    except Exception:  # noqa: BLE001
        pass
    return None


def _not_replayed(event: Event, error: Exception) -> tuple[str, str]:
    """What is wrong with an event of a session file that does not fold (by its number and type, never its data)."""
    return (f"{event.seq}番目のイベント（{event.type}）を再生できません（{type(error).__name__}）",
            f"event {event.seq} ({event.type}) does not replay ({type(error).__name__})")


def _unreadable(why: tuple[str, str]) -> Conflict:
    """The refusal of a salvage of which nothing can be read (409)."""
    return Conflict(f"このセッションは読める部分がありません: {why[0]}", f"Nothing of this session can be read: {why[1]}")


def readable_part(path: Path) -> tuple[list[Event], dict, set[int], object, int, tuple | None]:
    """The readable part of a session file that does not load: (its events up to the first one that cannot be read or
    does not replay with the events before it, its secrets, the refused undos among them, its ruleset, how many events
    the file holds, where it stopped: (the first event left out, why in Japanese, in English) or None); a 409 when
    nothing can be read (no database, no seed, a ruleset not installed, a first event that does not replay)."""
    try:
        with LogReader(path) as reader:
            meta, secret = _head(reader)
            found = _unfoldable(meta, secret.get("seed"))
            if found:
                raise _unreadable(found)
            total = reader.count_events()
            events, stop = _readable_events(reader)
    except sqlite3.DatabaseError:
        raise _unreadable(damage_of(path) or ("SQLiteのデータベースとして読めません",
                                              "it is not a readable SQLite database")) from None
    rules = get_ruleset(meta.get("ruleset", "generic"))
    while events:  # cut before the first event that does not fold with the events (and so the undos) before it
        failed = _first_not_replayed(events, rules)
        if failed is None:
            break
        index, why = failed
        stop, events = (events[index].seq, *why), events[:index]
    if not events:
        raise _unreadable(stop[1:] if stop else ("イベントがありません", "it holds no event"))
    try:
        refused = refused_of(meta) & {e.action for e in events}
    except (TypeError, ValueError):  # (an unreadable list: nothing is refused)
        refused = set()
    return events, secret, refused, rules, total, stop


def _head(reader: LogReader) -> tuple[dict, dict]:
    """A session file's meta and secrets (an sqlite3 error when it has no such tables or is no database)."""
    return (dict(reader.conn.execute("SELECT key, value FROM meta")),
            dict(reader.conn.execute("SELECT key, value FROM secrets")))


def _readable_events(reader: LogReader) -> tuple[list[Event], tuple | None]:
    """A session file's events up to the first whose data cannot be read, and where that stopped: (its number, why in
    Japanese, in English), or None when every event was read."""
    events, rows = [], reader.events()
    while True:
        try:
            events.append(next(rows))
        except StopIteration:
            return events, None
        except Exception:  # noqa: BLE001  the data of the event after the last one read is not JSON
            seq = events[-1].seq + 1 if events else 1
            return events, (seq, f"{seq}番目のイベントのデータが読めません", f"the data of event {seq} cannot be read")


def _first_not_replayed(events: list[Event], rules) -> tuple[int, tuple[str, str]] | None:
    """(index, why) of the first of `events` that does not fold with the ones before it (undone actions skipped, as
    an import replays them), or None."""
    undone = set()
    for index, event in enumerate(events):
        if event.type == "undo":
            try:
                undone.add(int(event.data["action"]))
            except (KeyError, TypeError, ValueError) as e:
                return index, _not_replayed(event, e)
    state = State(undone=undone, rules=rules)
    for index, event in enumerate(events):
        try:
            engine.apply(state, event)
        except Exception as e:  # noqa: BLE001  whatever a damaged file holds
            return index, _not_replayed(event, e)
    return None


def head_damage(meta: dict, seed) -> tuple[str, str] | None:
    """What a session file's meta and dice seed alone show is wrong (Japanese, English): no seed, a ruleset not
    installed here, a list of refused undos that cannot be read; None when they are sound. No event is read: the
    session list checks every file this way."""
    found = _unfoldable(meta, seed)
    if found:
        return found
    try:
        refused_of(meta)
    except (TypeError, ValueError):
        return "取り消しを断った操作の記録が読めません", "its record of refused undos cannot be read"
    return None


def _unfoldable(meta: dict, seed) -> tuple[str, str] | None:
    """Why nothing of a session file can be replayed, from its meta and seed: no dice seed, a ruleset not installed."""
    try:
        bytes.fromhex(seed)
    except (TypeError, ValueError):
        return "ダイスのシードがありません", "its dice seed is missing"
    name = meta.get("ruleset", "generic")
    try:
        get_ruleset(name)
    except GmError:
        return f"ルール「{name}」がこのgmtoolに入っていません", f"its ruleset '{name}' is not installed here"
    return None


def _file_mark(path: Path) -> list:
    """What changes when a file is replaced or written (its size and time, its WAL's too), as JSON keeps it. A WAL
    that holds nothing is no WAL: a reader of the file makes an empty one and the last connection to close removes it
    (the list's reads, sqlite3 run on the file), neither of which changes the session."""
    marks = []
    for name in (str(path), f"{path}-wal"):
        try:
            st = os.stat(name)
            marks.append([st.st_size, st.st_mtime_ns] if st.st_size or name == str(path) else None)
        except OSError:
            marks.append(None)
    return marks


DAMAGE_SUFFIX = "-damaged"  # beside a session file that did not load: what is wrong with it (DamageRecords)


class DamageRecords:
    """What is wrong with each session file that did not load (found once by damage_of), kept with the file's mark
    until the file changes (a backup put back): in memory, and beside the file as `<id>.sqlite-damaged` (JSON, 0600),
    so that the list names it damaged without loading it, after a restart too. The damaged file is never written."""

    def __init__(self):
        self.known: dict[Path, tuple[list, tuple]] = {}  # path -> (its file's mark, DamagedSession's title and why)

    def get(self, path: Path) -> tuple | None:
        """(title, why in Japanese, in English) of a file whose record still matches it, else None."""
        known = self.known.get(path)
        if known is None:
            try:
                record = json.loads(Path(f"{path}{DAMAGE_SUFFIX}").read_text(encoding="utf-8"))
                known = self.known[path] = (record["mark"], tuple(record["why"]))
            except (OSError, ValueError, KeyError, TypeError):  # none (the common case), or not ours
                return None
        return known[1] if known[0] == _file_mark(path) else None

    def put(self, path: Path, why: tuple) -> None:
        """Record what is wrong with a file (its mark taken now)."""
        mark = _file_mark(path)
        self.known[path] = (mark, why)
        record, temporary = f"{path}{DAMAGE_SUFFIX}", f"{path}{DAMAGE_SUFFIX}.tmp"
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"mark": mark, "why": list(why)}, f, ensure_ascii=False)
            os.replace(temporary, record)
        except OSError:  # (a full or read-only disk: this server still remembers it)
            log.warning("could not record the damage of %s", path.name, exc_info=True)

    def drop(self, path: Path) -> None:
        """Forget a file's record (it loads now)."""
        self.known.pop(path, None)
        try:
            os.unlink(f"{path}{DAMAGE_SUFFIX}")
        except FileNotFoundError:
            pass


class LiveSession:
    """One session in memory: state, store, token index and change notification."""

    def __init__(self, path: Path, synchronous: str = "NORMAL", keep_key: "KeepKey | None" = None):
        self.path = path
        self.keep_key = keep_key  # the data folder's key that signs the undo base kept in the file (None: none kept)
        self.store = Store(path, synchronous)
        self.lock = threading.RLock()
        self.changed = threading.Condition(self.lock)
        self.undo_lock = threading.Lock()  # one undo at a time (its fold runs outside self.lock); guards self.base
        self.undoable: deque[int] = deque(maxlen=UNDO_DEPTH)  # the latest undoable actions
        self.base: State | None = None  # the fold of the log before the undo window (None: to be folded again)
        self.recent: deque[Event] = deque(maxlen=RECENT_EVENTS)
        self.clock: Callable[[], float] = time.monotonic
        self._roll_budget: dict[str, tuple[float, float]] = {}  # seat -> (tokens, at)
        self._answer_budget: dict[str, tuple[float, float]] = {}  # seat -> (tokens, at)
        self.shut = False  # set by close(): live streams end
        # Called with this session after each new version and at close(), possibly under the session's lock, so
        # a listener must not wait (web/streams.py's StreamHub, the thread that writes the server's live streams).
        self.listeners: list[Callable[["LiveSession"], None]] = []
        self.rendered = Rendered()  # live fragments and views of the current version (web/screens.py)
        self.sections = SectionCache()  # their sections, kept by their inputs (web/sections.py)
        self.lines: dict = {}  # log lines the screens show, kept by what each depends on (web/screens.log_lines)
        self.kept_seq = 0  # where the undo base kept in the file ends, when this session took or wrote it (snapshots.py)
        try:
            self._load()
        except BaseException as e:  # a damaged file (SessionManager.get says what is wrong): no connection left open
            # The frames of the failed fold hold the log's cursor part-read, and a connection with a statement still
            # running stays open after close() until it is freed (with the error, at the end of the request): the
            # file's WAL then went after its damage was recorded, and the list named the session sound again.
            traceback.clear_frames(e.__traceback__)
            self.store.close()
            raise

    # -- loading ----------------------------------------------------------
    def _load(self) -> None:
        secret = self.store.get_secrets()
        self.seed = bytes.fromhex(secret["seed"])
        self.tokens: dict[str, Viewer] = {}
        # Raw join tokens are kept so the GM console can show the QR codes again after a restart;
        # lookups go through the hashes.
        self.join_tokens = {k[5:]: v for k, v in secret.items() if k.startswith("join:")}
        self.table_token = secret.get("table_token", "")
        for key, value in secret.items():
            if key == "gm":
                self.tokens[value] = GM
            elif key == "table":
                self.tokens[value] = TABLE
            elif key.startswith("seat:"):
                self.tokens[value] = Viewer("seat", key[5:])
        meta = self.store.get_meta()
        self.ruleset = get_ruleset(meta.get("ruleset", "generic"))
        self.refused = refused_of(meta)  # undos refused: never offered again
        for head in self.store.action_heads():  # the undo window first: the newest undoable actions
            if self.ruleset.is_undoable(self.ruleset.upcast(head).type) and head.action not in self.refused:
                self.undoable.appendleft(head.action)
                if len(self.undoable) == UNDO_DEPTH:
                    break
        undone, window_start = self.store.undone_actions(), self._window_start()
        with gc_paused():
            folded = self._from_kept_base(meta, undone, window_start)
            self.base, self.state = folded or self._fold_from(State(undone=undone, rules=self.ruleset), window_start)
        self.version = self.state.last_seq
        self.recent.extend(self.store.recent_events(RECENT_EVENTS))

    def _fold_from(self, base: State, window_start: int) -> tuple[State, State]:
        """The undo base (`base` folded on to the window's start) and the live state (a copy of it with the rest of the
        log folded in)."""
        engine.fold_on(base, self.store.events(after_seq=base.last_seq, before_action=window_start))
        state = base.copy()
        engine.fold_on(state, self.store.events(after_seq=base.last_seq))
        return base, state

    def _from_kept_base(self, meta: dict, undone: set[int], window_start: int) -> tuple[State, State] | None:
        """The undo base and the state, folded from the undo base the last close kept in the file, when that is still
        the log's fold (snapshots.py), or None: fold from the start. Whatever goes wrong on the way is a None too: the
        log is the truth, and a session whose log is whole must open (under test a failure is raised: this code wrote
        the base)."""
        key = self.keep_key.get() if self.keep_key else None
        if key is None:
            return None
        try:
            kept = self.store.get_snapshot()
            if kept is None:
                return None
            code, seq, mac, blob = kept
            if code != snapshots.code_digest(self.ruleset.name) or not code or not snapshots.signed(key, code, seq, blob, mac):
                return None
            base = snapshots.loads(blob, self.ruleset)
            if (base.last_seq != seq or base.session_id != meta.get("id") or base.ruleset != self.ruleset.name
                    or not snapshots.usable(base, undone, window_start)):
                return None
            base.undone = set(undone)
            base, state = self._fold_from(base, window_start)
        except Exception:  # noqa: BLE001  whatever the row holds
            if snapshots.checked():
                raise
            log.warning("the kept undo base of %s is not used; folding its whole log", self.path.name, exc_info=True)
            return None
        if snapshots.checked():  # (the test suite: a kept base that is not the log's fold fails loudly)
            whole = engine.fold_on(State(undone=set(undone), rules=self.ruleset),
                                   self.store.events(up_to_seq=base.last_seq))
            if whole != base:
                raise AssertionError(f"the kept undo base of {self.path.name} is not the fold of its log")
        self.kept_seq = seq
        return base, state

    def _keep_base(self) -> None:
        """Fold the undo base on to the window and write it into the file (snapshots.py) when it moved since the last one
        was written. Nothing is written while an undo folds the base (this runs under the session's lock, and an undo
        waiting for that lock holds undo_lock), nor once the code on disk is not the code running (an upgrade made
        while the server ran: the digest would name the new code)."""
        if self.keep_key is None:
            return
        code = snapshots.code_digest(self.ruleset.name)
        if not code or code != snapshots.code_digest(self.ruleset.name, now=True):
            return
        if not self.undo_lock.acquire(blocking=False):
            return
        try:
            base = self.base
            if base is not None:  # folded on to the window first (it may trail by up to twice BASE_LAG events)
                self._fold_base(self.store.events(after_seq=base.last_seq, before_action=self._window_start()))
            if base is not None and base.last_seq != self.kept_seq:
                blob = snapshots.dumps(base)
                mac = snapshots.sign(self.keep_key.get(make=True), code, base.last_seq, blob)
                self.store.put_snapshot(code, base.last_seq, mac, blob)
                self.kept_seq = base.last_seq
        except Exception:  # noqa: BLE001  the close goes on: the next resume folds the log
            log.warning("the undo base of %s was not kept", self.path.name, exc_info=True)
        finally:
            self.undo_lock.release()

    def _window_start(self) -> int:
        """The oldest action that can still be undone (the base stays before it)."""
        return min(self.undoable, default=NO_ACTION)

    # -- reading ----------------------------------------------------------
    def viewer_for(self, token: str | None) -> Viewer | None:
        """The viewer a token belongs to, or None."""
        if not token:
            return None
        return self.tokens.get(token_hash(token))

    def export(self, fmt: str, options, full: bool = False) -> str:
        """This session's export in `fmt` (GM only: the caller checks); `full` (JSON): a backup with its secrets and
        the actions whose undo was refused."""
        from .export import export
        with self.lock:
            if full and fmt == "json":
                refuse_full_backup_while_gm_answers(self.state)
            events = list(self.store.events())
            secrets = self.store.get_secrets() if full else None
            refused = set(self.refused)
            if secrets is not None:
                events, cancels = without_cancelled_answers(events, self.state)
                refused |= {action for action in cancels if action in self.undoable}
        return export(events, self.ruleset, fmt, options, secrets, refused)

    def dice(self) -> SeededDice:
        """The dice source for the next action (server-side, from the secret seed)."""
        return SeededDice(self.seed, self.state.dice_next)

    def roll_allowance(self, seat_id: str) -> float:
        """Rolls a seat may make now (token bucket: ROLL_BURST at once, then ROLLS_PER_SECOND); 429 below one."""
        return self._allowance(self._roll_budget, seat_id, ROLL_BURST, ROLLS_PER_SECOND, GmError(
            f"ダイスは1秒に{ROLLS_PER_SECOND}回までです。少し待ってください",
            f"At most {ROLLS_PER_SECOND} rolls per second; wait a moment", status=429))

    def spend_roll(self, seat_id: str) -> None:
        """Count a seat's roll that was made (after roll_allowance)."""
        self._spend(self._roll_budget, seat_id)

    def answer_allowance(self, seat_id: str) -> float:
        """Answers a seat may give now (ANSWER_BURST at once, then ANSWERS_PER_SECOND: a phone tapping through the
        options never meets it; a script rewriting its answer in a loop filled the log); 429 below one."""
        return self._allowance(self._answer_budget, seat_id, ANSWER_BURST, ANSWERS_PER_SECOND, GmError(
            f"回答は1秒に{ANSWERS_PER_SECOND}回までです。少し待ってください",
            f"At most {ANSWERS_PER_SECOND} answers per second; wait a moment", status=429))

    def spend_answer(self, seat_id: str) -> None:
        """Count a seat's answer that was given (after answer_allowance)."""
        self._spend(self._answer_budget, seat_id)

    def _allowance(self, budget: dict, seat_id: str, burst: int, rate: float, refusal: GmError) -> float:
        """A token bucket per seat: `burst` at once, then `rate` a second; `refusal` below one."""
        with self.lock:
            now = self.clock()
            tokens, at = budget.get(seat_id, (float(burst), now))
            tokens = min(float(burst), tokens + max(0.0, now - at) * rate)
            budget[seat_id] = (tokens, now)
            if tokens < 1:
                raise refusal
            return tokens

    def _spend(self, budget: dict, seat_id: str) -> None:
        with self.lock:
            tokens, at = budget[seat_id]
            budget[seat_id] = (tokens - 1, at)

    def wait(self, version: int, timeout: float) -> int:
        """Block until the version differs from `version` or `timeout` passes; return the version."""
        with self.changed:
            if self.version == version:
                self.changed.wait(timeout)
            return self.version

    # -- writing ----------------------------------------------------------
    def execute(self, actor: str, command: Callable[..., list[Draft]], *args, secrets_update: dict | None = None,
                **kwargs) -> list[Event]:
        """Run a command under the lock, append its events durably, fold them, notify listeners."""
        with self.lock:
            drafts = command(self.state, *args, **kwargs)
            if not drafts:
                return []
            return self._commit(actor, drafts, secrets_update)

    def _commit(self, actor: str, drafts: list[Draft], secrets_update: dict | None = None) -> list[Event]:
        if self.shut:  # (a request that had this session when the server closed it)
            raise ServerStopping()
        events = self.store.append(actor, drafts, secrets=secrets_update, request_key=request_key.get())
        try:
            for event in events:
                engine.apply(self.state, event)
        except Exception:  # a fold that fails (a bug): the action leaves the file and memory, the 500 changes nothing
            self.store.remove_from(events[0].seq)
            self.state = engine.fold(self.store.events(), self.ruleset, self.store.undone_actions())
            raise
        if (written := recorded.get()) is not None:
            written.extend(events)
        if self.ruleset.is_undoable(drafts[0][0]):
            self.undoable.append(events[0].action)
        self.recent.extend(events)
        self._notify()
        self._follow_base()
        return events

    def _follow_base(self) -> None:
        """Fold the undo base on (at most BASE_LAG events) once it trails the live state by BASE_LAG, so that an
        undo folds a few hundred events; left to the undo while one runs."""
        base = self.base
        if base is None or self.state.last_seq - base.last_seq < BASE_LAG:
            return  # (a base that failed to fold is folded again by the next undo)
        if self.undo_lock.acquire(blocking=False):
            try:
                if self.base is base:  # not dropped by an undo meanwhile
                    self._fold_base(self.store.events(after_seq=base.last_seq, before_action=self._window_start(),
                                                      limit=BASE_LAG))
            except Exception:  # the action itself is done and must not fail; the next undo folds a new base
                log.exception("the undo base of %s failed to fold", self.path.name)
            finally:
                self.undo_lock.release()

    def _fold_base(self, events: Iterable[Event]) -> None:
        """Fold events into the undo base (under undo_lock); a fold that fails leaves no base, and the next
        undo folds one from the start."""
        try:
            engine.fold_on(self.base, events)
        except Exception:
            self.base = None
            raise

    def _notify(self) -> None:
        with self.changed:
            self.version = self.state.last_seq
            self.changed.notify_all()
        self._tell_listeners()

    def _tell_listeners(self) -> None:
        for listener in list(self.listeners):
            listener(self)

    def undo(self, actor: str = "gm") -> list[Event]:
        """Undo the latest undoable action that is not undone yet (undo is itself an event).

        The state is folded again without that action from the undo base (the module's docstring), on a
        read-only connection and without holding the session: the table's other actions go on meanwhile,
        and the events they wrote are folded in under the lock before the undo is committed. One undo at a
        time."""
        with self.undo_lock:
            with self.lock:
                require_open(self.state)
                while self.undoable and self.undoable[-1] in self.state.undone:
                    self.undoable.pop()
                if not self.undoable:
                    raise Conflict("取り消せる操作がありません", "There is nothing to undo")
                action = self.undoable.pop()
                undone_events = self.store.action_events(action)
                # The summaries are stored in the log: the GM's version may name secrets (a secret roll,
                # a private counter), so everyone else gets the version the table may see (view.py) in the state
                # after the undo (below). Both languages are stored (summary / summary_en): the log reads in each
                # viewer's language.
                gm_summary = self._summary(undone_events, self.state, GM)
                folded_to, undone = self.state.last_seq, set(self.state.undone)
                start = min(self._window_start(), action)
            try:
                try:
                    state = self._refold(folded_to, undone, action, start)
                except Exception:  # noqa: BLE001  the log does not fold without the action
                    raise self._cannot_undo(action, gm_summary) from None
                with self.lock:
                    if self.shut:  # closed while the undo folded (the server is stopping): its store is gone
                        raise ServerStopping()
                    require_open(self.state)
                    try:
                        engine.fold_on(state, self.store.events(after_seq=folded_to))  # what the table did meanwhile
                    except Exception:  # noqa: BLE001  an action made during the undo builds on it
                        raise self._cannot_undo(action, gm_summary) from None
                    if newly_shown(self.state, state):  # e.g. an escape's withdrawn card in a battle revealed since
                        raise self._cannot_undo(action, gm_summary, WOULD_SHOW)
                    later = (e for e in self.store.events(after_seq=undone_events[-1].seq, types=WORKED_ON)
                             if e.action not in state.undone)
                    if worked_on_since(undone_events, later):  # e.g. a prompt revealed since without a seat taken off
                        raise self._cannot_undo(action, gm_summary)
                    # what the table may know of the undone events once they are undone: an undone reveal's
                    # contents are secret again (an undone event's undone_visibility, judged in this state)
                    summary = self._summary(undone_events, state, TABLE)
                    previous, self.state = self.state, state
                    try:
                        events = self._commit(actor, [("undo", {
                            "action": action, "seqs": [e.seq for e in undone_events],
                            "summary": summary["ja"], "gm_summary": gm_summary["ja"],
                            "summary_en": summary["en"], "gm_summary_en": gm_summary["en"]})])
                        if self.base is not None:
                            self.base.undone.add(action)  # before the base reaches it
                        return events
                    except BaseException:
                        if self.state is state:  # the undo was not written: memory stays as the log is
                            self.state = previous
                        raise
            except CannotUndo:  # off the list for good: the next undo takes the action before it, after a restart too
                with self.lock:
                    self.refused.add(action)
                    self.store.put_meta(REFUSED, json.dumps(sorted(self.refused)))
                raise
            except BaseException:
                with self.lock:
                    if action not in self.state.undone:
                        self.undoable.append(action)  # not undone: it may be tried again
                raise

    @staticmethod
    def _cannot_undo(action: int, gm_summary: dict, because: tuple[str, str] = BUILT_ON) -> "CannotUndo":
        """The refusal of an undo, `because` (Japanese, English): by default later events build on its action (e.g.
        the answers to the prompt it opened) and the log does not fold without it. It stays done and leaves the
        undo list."""
        why = sys.exc_info()[1]  # the fold's error, if one: a refusal (409), not a crash, so one line and no traceback
        log.warning("undo of action %s refused: %s%s", action, because[1],
                    f" ({type(why).__name__}: {why})".replace("\n", " ") if why is not None else "")
        return CannotUndo(f"「{gm_summary['ja']}」は取り消せません。{because[0]}。"
                          "取り消しの対象から外しました（もう一度押すと、その前の操作を取り消します）",
                          f"'{gm_summary['en']}' cannot be undone: {because[1]}. "
                          "It is no longer offered for undo (undo again to undo the action before it).")

    def _refold(self, folded_to: int, undone: set[int], action: int, start: int) -> State:
        """The state up to `folded_to` without `action` (and the actions in `undone`): the undo base folded on
        to the window's `start`, copied, and the events after it folded into the copy (under undo_lock)."""
        with LogReader(self.path) as log_reader:
            if self.base is None:  # a fold of the base failed: one from the start
                self.base = State(undone=set(undone), rules=self.ruleset)
            with gc_paused():
                self._fold_base(log_reader.events(after_seq=self.base.last_seq, before_action=start))
                state = self.base.copy()
                state.undone = undone | {action}
                engine.fold_on(state, log_reader.events(after_seq=self.base.last_seq, up_to_seq=folded_to))
        return state

    @staticmethod
    def _summary(events: list[Event], state: State, viewer: Viewer) -> dict[str, str]:
        """{"ja", "en"}: `events` as `viewer` may see them in `state`, one line each, joined by "; "."""
        from .core.view import undo_summary
        return undo_summary(events, state, viewer)

    def recorded_request(self, scope: str) -> tuple[int, str] | None:
        """(the action, the body digest) of a keyed request this session's file noted, or None."""
        with self.lock:
            return self.store.request_action(scope)

    def reissue_token(self, seat_id: str, actor: str = "gm") -> str:
        """A new join token for a seat; the old one stops working at once."""
        with self.lock:
            seat_of(self.state, seat_id)
            token = new_token()
            old = [h for h, v in self.tokens.items() if v.kind == "seat" and v.seat == seat_id]
            self._commit(actor, [("seat.token_reissued", {"id": seat_id})],
                         secrets_update={f"seat:{seat_id}": token_hash(token), f"join:{seat_id}": token})
            self.join_tokens[seat_id] = token
            for h in old:
                del self.tokens[h]
            self.tokens[token_hash(token)] = Viewer("seat", seat_id)
            return token

    def add_seat(self, name: str, faction: str = "", actor: str = "gm") -> tuple[str, str]:
        """Add a seat; returns (seat id, join token)."""
        from .core.commands import add_seat
        with self.lock:
            seat_id = f"s{len(self.state.seats) + 1}"
            while seat_id in self.state.seats:
                seat_id += "x"
            token = new_token()
            self.execute(actor, add_seat, new_seat(seat_id, name, faction),
                         secrets_update={f"seat:{seat_id}": token_hash(token), f"join:{seat_id}": token})
            self.join_tokens[seat_id] = token
            self.tokens[token_hash(token)] = Viewer("seat", seat_id)
            return seat_id, token

    def close(self, keep: bool = True) -> None:
        """Close the store and end the live streams waiting on this session; it writes nothing more (ServerStopping).
        `keep`: write the undo base into the file first, for the next resume (not for a file about to be deleted, nor
        once a stop has spent its time for that: SessionManager.close_all)."""
        with self.changed:
            self.shut = True
            self.changed.notify_all()
            if keep:
                self._keep_base()
            self.store.close()  # under the lock: not in the middle of an action
        self._tell_listeners()


class SessionManager:
    """All sessions under one data folder; this process opens only those it owns (gmtool/ownership.py)."""

    def __init__(self, data_dir: Path, synchronous: str = "NORMAL", ownership: Ownership = Ownership()):
        self.data_dir = Path(data_dir)
        self.synchronous = synchronous
        self.ownership = ownership
        private_dir(self.data_dir)
        self.keep_key = KeepKey(self.data_dir)
        snapshots.started()  # (the code this process runs: what a kept undo base is checked against)
        remove_leftovers(self.data_dir)
        self.lock = threading.Lock()
        self.sessions: dict[str, LiveSession] = {}
        self.damaged = DamageRecords()
        self.continuing = threading.Lock()
        self.stopping = False  # set by stop(): the server is stopping, no session is opened or made again

    def path_of(self, session_id: str) -> Path:
        """The SQLite file of a session."""
        return self.data_dir / f"{session_id}{SUFFIX}"

    def get(self, session_id: str) -> LiveSession:
        """An open session, loaded on first use (421 for a session another worker owns)."""
        live = self.sessions.get(session_id)  # the common case needs no lock
        if live is not None:
            return live
        self.ownership.check(session_id)
        with self.lock:
            if self.stopping:
                raise ServerStopping()
            live = self.sessions.get(session_id)
            if live is None:
                path = self.path_of(session_id)
                if not _valid_id(session_id) or not path.exists():
                    raise NotFound("そのセッションはありません", "There is no such session")
                live = self.sessions[session_id] = self._open(session_id, path)
            return live

    def _open(self, session_id: str, path: Path) -> LiveSession:
        """Load a session file; one that does not load is a DamagedSession (409) saying what is wrong, recorded
        until the file changes (a backup put back, DamageRecords), so a phone that keeps asking does not fold it again
        each time and the list names it damaged."""
        known = self.damaged.get(path)
        if known is not None:
            raise DamagedSession(session_id, *known)
        try:
            live = LiveSession(path, self.synchronous, self.keep_key)
        except Exception:  # noqa: BLE001  whatever the file holds: the GM is told, the other sessions go on
            log.exception("session file %s does not load", path.name)
            found = damage_of(path)
            why = ((read_head(path) or ({},))[0].get("title", ""),
                   *(found or ("読み込みに失敗しました（詳しくはサーバーのログにあります）",
                               "loading it failed (the server's log has the details)")))
            if found:  # (a failure the file does not explain, e.g. too many open files, is tried again next time)
                self.damaged.put(path, why)
            raise DamagedSession(session_id, *why) from None
        self.damaged.drop(path)  # a backup put back
        return live

    def damaged_since(self, session_id: str) -> DamagedSession | None:
        """A session whose file turned out damaged after it loaded (an event that no longer reads, say a disk error
        under the undo base its last stop kept: a resume reads only what came after that), found by reading the file
        again (damage_of): closed and recorded as damaged, as one that does not load is, so the GM is told what is
        wrong and can save what still reads (salvage). None when the file reads whole (the failure was not the
        file's)."""
        path = self.path_of(session_id)
        if not _valid_id(session_id) or not path.exists():
            return None
        found = damage_of(path)
        if not found:
            return None
        with self.lock:
            live = self.sessions.pop(session_id, None)
        if live is not None:
            live.close(keep=False)
        why = ((read_head(path) or ({},))[0].get("title", ""), *found)
        self.damaged.put(path, why)
        return DamagedSession(session_id, *why)

    def list(self) -> list[dict]:
        """Every session in the data folder, newest first. Damaged: a file that failed to load (DamageRecords), one
        that is no session database, or one whose meta and seed show it cannot load (head_damage), none loaded."""
        found = []
        for path in self.data_dir.glob(f"*{SUFFIX}"):
            head = read_head(path)
            meta, seed = head or ({}, None)
            session_id = meta.get("id") or path.name[:-len(SUFFIX)]
            damaged = self.damaged.get(path) is not None
            if head is None:
                try:
                    damaged = damaged or path.stat().st_size > 0  # (an empty file is a session being made)
                except OSError:
                    continue  # (removed meanwhile: a refused import)
            elif meta.get("id"):  # (meta, seed and the first events are written at once)
                damaged = damaged or head_damage(meta, seed) is not None
            if meta.get("id") or (damaged and _valid_id(session_id)):
                found.append({"id": session_id, "title": meta.get("title", ""), "ruleset": meta.get("ruleset", ""),
                              "created": meta.get("created", ""), "damaged": damaged})
        return sorted(found, key=lambda m: m["created"], reverse=True)

    def salvage(self, session_id: str) -> str:
        """The readable part of a session that does not load, as a full JSON backup marked `partial` with where it
        stopped (docs/api.md 14; the server GM key's: the caller checks); 409 for a session that loads (its export is
        the way) or one of which nothing can be read."""
        from .export.jsonio import export_json
        try:
            self.get(session_id)
        except DamagedSession as damaged:
            why = damaged.why
        else:
            raise Conflict("このセッションは壊れていません。通常のエクスポート（完全バックアップ）を使ってください",
                           "This session is not damaged: use its export (format=json&full=1 for a full backup)")
        events, secret, refused, rules, total, stop = readable_part(self.path_of(session_id))
        if stop is not None:
            why = stop[1:]
        partial = {"stopped_at": stop[0] if stop else None, "left_out": total - len(events), "ja": why[0], "en": why[1]}
        try:
            return export_json(events, rules, secrets=secret, refused=refused, partial=partial)
        except Exception:  # noqa: BLE001  a state the folds accept but a view does not: still the file's fault
            log.exception("the readable part of %s cannot be written", session_id)
            raise _unreadable(("読める部分を書き出せません（詳しくはサーバーのログにあります）",
                               "its readable part cannot be written (the server's log has the details)")) from None

    def create(self, title: str, ruleset: str, seats: list[dict], counters: list[CounterDef] | None = None,
               extra: dict | None = None) -> tuple[LiveSession, dict]:
        """Create a session; returns it and its tokens {"gm", "table", "seats": {seat id: token}}."""
        rs = get_ruleset(ruleset)
        if counters is None:
            counters = rs.default_counters()
        seat_dicts = [new_seat(s.get("id") or f"s{i + 1}", s.get("name"), s.get("faction", ""))
                      for i, s in enumerate(seats)]
        check_seat_count(rs, len(seat_dicts))
        again = self._made_before(*self._keyed_ids())
        if again is not None:
            return again
        with self.lock:
            if self.stopping:
                raise ServerStopping()
            session_id = next(iter(self._keyed_ids()), None) or self.ownership.new_id()
            while self.path_of(session_id).exists():
                session_id = self.ownership.new_id()
            seed = secrets.token_bytes(32)
            drafts = create_session(session_id, title, ruleset, seat_dicts, counters, seed_hash(seed), extra)
            tokens = {"gm": new_token(), "table": new_token(),
                      "seats": {s["id"]: new_token() for s in seat_dicts}}
            secret_values = {"seed": seed.hex(), "gm": token_hash(tokens["gm"]),
                                    "table": token_hash(tokens["table"]), "table_token": tokens["table"],
                             **{f"seat:{k}": token_hash(v) for k, v in tokens["seats"].items()},
                             **{f"join:{k}": v for k, v in tokens["seats"].items()}}
            path = self.path_of(session_id)
            write_whole(path, lambda store: store.append("gm", drafts, secrets=secret_values, meta={
                "id": session_id, "title": drafts[0][1]["title"], "ruleset": ruleset, "created": _now()},
                request_key=request_key.get(), tokens=tokens))
            live = self.sessions[session_id] = LiveSession(path, self.synchronous, self.keep_key)
        return live, tokens

    def continue_from(self, previous_id: str, title: str | None = None, lang: str = "ja") -> tuple[LiveSession, dict]:
        """The next session of a campaign (core/campaign.py): the same seats, counters and readings, what the
        ruleset carries over, new tokens (old phones re-scan); the previous session is linked to it."""
        from .core.campaign import continue_drafts, next_draft
        previous = self.get(previous_id)
        with self.continuing:  # one continuation at a time: a campaign never forks
            with previous.lock:  # refused before anything is copied; State.copy shares the prompts (a long session's
                following = previous.state.campaign.get("next")  # bulk): a deepcopy grew with the session's length
                state = None if following else previous.state.copy()
            if following:
                again = self._made_before(following["id"])  # (this request's repeat after a restart)
                if again is not None:
                    return again
                raise Conflict(f"このセッションは既に「{following['title']}」（{following['id']}）に続いています",
                               f"This session is already continued in '{following['title']}' ({following['id']})")
            title = (title or "").strip() or next_title(state.title, lang)
            seats = [{"id": s.id, "name": s.name, "faction": s.faction} for s in state.seats.values()]
            live, tokens = self.create(title, state.ruleset, seats, list(state.counter_defs))
            try:
                with live.lock:  # (a repeat finds the session a kill cut short made, and finishes it)
                    if not live.state.campaign.get("previous"):
                        live._commit("system", continue_drafts(state, live.state))
                with previous.lock:
                    previous._commit("system", [next_draft(state, live.state.session_id, live.state.title)])
            except BaseException:
                live.close(keep=False)
                with self.lock:
                    self.sessions.pop(live.state.session_id, None)
                remove_session_files(live.path)  # no half-continued session stays behind
                written = recorded.get()
                if written is not None:
                    written.clear()  # the new session's commit is gone with its file
                raise
        return live, tokens

    def campaign(self, session_id: str) -> list[LiveSession]:
        """Every session of the campaign `session_id` belongs to, first to last (following the links)."""
        live = self.get(session_id)
        chain = [live]
        seen = {session_id}
        while (prev := chain[0].state.campaign.get("previous")) and prev["id"] not in seen:
            try:
                chain.insert(0, self.get(prev["id"]))
            except (NotFound, NotOwned, DamagedSession):  # deleted, left on another laptop, another worker's, damaged
                break
            seen.add(prev["id"])
        while (nxt := chain[-1].state.campaign.get("next")) and nxt["id"] not in seen:
            try:
                chain.append(self.get(nxt["id"]))
            except (NotFound, NotOwned, DamagedSession):
                break
            seen.add(nxt["id"])
        return chain

    def campaign_logs(self, session_id: str) -> list[tuple[list[Event], object]]:
        """(events, ruleset) of every session of the campaign, first to last (for a whole-campaign export)."""
        logs = []
        for live in self.campaign(session_id):
            with live.lock:
                logs.append((list(live.store.events()), live.ruleset))
        return logs

    def following(self, session_id: str) -> LiveSession:
        """The session that continues `session_id` in its campaign (core/campaign.py); 404 while there is none, or when
        the session its link names is gone or does not name `session_id` as its previous one."""
        nxt = self.get(session_id).state.campaign.get("next")
        following = self.get(nxt["id"]) if nxt else None
        if following is None or (following.state.campaign.get("previous") or {}).get("id") != session_id:
            raise NotFound("このセッションの続きはありません", "This session has not been continued")
        return following

    @staticmethod
    def carried_seat_token(following: LiveSession, seat_id: str) -> str | None:
        """The join token of `seat_id` in `following` (a continued session) if that seat carried over into it: it was
        a seat of the previous session when it was continued (the seats `session.created` wrote) and its link was
        never reissued in `following` (a reissue shuts the previous holder out); else None."""
        with following.lock:
            created = list(following.store.events(types=("session.created",), limit=1))
            carried = any(s["id"] == seat_id for e in created for s in e.data.get("seats", []))
            reissued = any(e.data.get("id") == seat_id for e in following.store.events(types=("seat.token_reissued",)))
            return following.join_tokens.get(seat_id) if carried and not reissued else None

    def import_session(self, text: str, restore_tokens: bool = False) -> tuple[LiveSession, dict | None]:
        """Load a JSON export as a session here; returns it and its new tokens. A full backup keeps its
        seed and, only when `restore_tokens` is asked for, its tokens (then None is returned for them).
        Every event is folded, viewed and described in a scratch state first: a log that does not replay
        is a 400 and leaves no file. A session id already in use, or one another worker owns, gets a new id."""
        from .export import parse_export
        header, events, secret_values, refused = parse_export(text, get_ruleset)
        again = self._made_before(str(events[0].data.get("id", "")), *self._keyed_ids())
        if again is not None:
            return again
        with self.lock:
            if self.stopping:
                raise ServerStopping()
            session_id = str(events[0].data.get("id", ""))
            if not _valid_id(session_id) or not self.ownership.owns(session_id) or self.path_of(session_id).exists():
                session_id = next(iter(self._keyed_ids()), None) or self.ownership.new_id()
                while self.path_of(session_id).exists():
                    session_id = self.ownership.new_id()
            events[0].data["id"] = session_id
            folded = _rehearse(events)
            tokens = None
            if secret_values is None:  # a public export: new tokens, and a new seed for the rolls to come
                closed = folded.closed and folded.seed  # its seed is published: keep it, nothing more is rolled
                seed = bytes.fromhex(folded.seed) if closed else secrets.token_bytes(32)
                if not closed:
                    last = events[-1]
                    events.append(Event(last.seq + 1, _now(), "system", last.action + 1, "session.imported",
                                        {"from": header.get("id", ""), "seed_hash": seed_hash(seed)}))
                    folded = _rehearse(events)
            else:
                seed = bytes.fromhex(secret_values["seed"])
                if seed_hash(seed) != folded.seed_hash:
                    raise GmError("バックアップのダイスシードがシードのハッシュと合いません",
                                  "The backup's dice seed does not match its seed hash")
            if secret_values is None or not restore_tokens:  # new links; the old ones stay with the file
                tokens = {"gm": new_token(), "table": new_token(),
                          "seats": {seat_id: new_token() for seat_id in folded.seats}}
                secret_values = {"seed": seed.hex(), "gm": token_hash(tokens["gm"]),
                                 "table": token_hash(tokens["table"]), "table_token": tokens["table"],
                                 **{f"seat:{k}": token_hash(v) for k, v in tokens["seats"].items()},
                                 **{f"join:{k}": v for k, v in tokens["seats"].items()}}
            meta = {"id": session_id, "title": str(events[0].data.get("title", "")),
                    "ruleset": str(events[0].data.get("ruleset", "generic")), "created": events[0].ts}
            if refused:  # a full backup's refused undos: not offered here either
                meta[REFUSED] = json.dumps(sorted(refused))
            path = self.path_of(session_id)
            write_whole(path, lambda store: store.import_events(events, meta, secret_values, request_key.get(), tokens))
            try:
                live = LiveSession(path, self.synchronous, self.keep_key)
            except BaseException:
                remove_session_files(path)  # nothing half-imported stays behind
                raise
            self.sessions[session_id] = live
        return live, tokens

    def _keyed_ids(self) -> list[str]:
        """The ids of the session a keyed request makes (a hash of its idempotency scope, so that its repeat finds it:
        _made_before): first the one this process makes it under, then those the other workers of --workers would
        have (the proxy sends a key elsewhere while its worker restarts); none without a key."""
        key = request_key.get()
        if key is None:
            return []
        digits = hashlib.sha256(f"session\n{key[0]}".encode()).hexdigest()[:8]
        own = self.ownership
        others = [Ownership(k, own.workers) for k in range(1, own.workers + 1) if k != own.worker and own.worker]
        return [own.new_id(digits), *(other.new_id(digits) for other in others)]

    def _made_before(self, *candidates: str | None) -> tuple[LiveSession, dict | None] | None:
        """The session the keyed request being answered made before (its repeat after a restart: the key was noted in
        the transaction that made it), among the ids it may have made it under, with the tokens its answer handed out
        (None: an import that kept the backup's); 422 for its key with another body; 503 if another worker made it
        (MadeByAnotherWorker); None if it made none."""
        key = request_key.get()
        for session_id in candidates if key is not None else ():
            # read first as the list reads every file: no other session is loaded (nor a damaged one refused) for it
            if not (session_id and _valid_id(session_id) and request_noted(self.path_of(session_id), key[0])):
                continue
            if not self.ownership.owns(session_id):
                raise MadeByAnotherWorker(self.ownership.owner_of(session_id))
            live = self.get(session_id)
            with live.lock:
                if live.store.request_action(key[0])[1] != key[1]:
                    raise AnotherRequest()
                replayed.set(True)
                return live, live.store.request_tokens(key[0])
        return None

    def discard(self, session_id: str) -> None:
        """Close a session and delete its files (an import refused after it was written)."""
        with self.lock:
            live = self.sessions.pop(session_id, None)
            if live is not None:
                live.close(keep=False)
            remove_session_files(self.path_of(session_id))

    def stop(self) -> None:
        """The server is stopping (Ctrl+C, SIGTERM): close every open store, and from now on open or make none
        (ServerStopping, 503), though request threads still answer what had arrived until the process ends."""
        with self.lock:
            self.stopping = True
        self.close_all()

    def close_all(self) -> None:
        """Close every open store (a session asked for later is loaded again), keeping each one's undo base in its file
        for the next resume while KEEP_BUDGET lasts, the sessions whose base moved the most first (a 100,000-event
        session's takes about 0.7 s; a worker that does not end within STOP_TIMEOUT is killed)."""
        with self.lock:
            ends = time.monotonic() + KEEP_BUDGET
            for live in sorted(self.sessions.values(), key=lambda live: live.kept_seq - live.state.last_seq):
                live.close(keep=time.monotonic() < ends)
            self.sessions.clear()


def _rehearse(events: list[Event]) -> State:
    """Fold an imported log in a scratch state and build every view and log line from it, as the
    screens will; anything that fails is a 400 naming what failed (export.jsonio.blamed)."""
    from .core.logtext import describe
    from .core.view import build_view, visible_event
    from .export import FORMAT_NAMES, Options, export
    from .export.jsonio import blamed, event_part, format_part, replay, screen_part
    rules = get_ruleset(str(events[0].data.get("ruleset", "generic")))  # known: parse_export looked it up
    state = replay(events, rules)
    for viewer in [GM, TABLE, *(Viewer("seat", seat_id) for seat_id in state.seats)]:
        with blamed(screen_part(state, viewer)):
            json.dumps(build_view(state, viewer, state.last_seq), ensure_ascii=False).encode("utf-8")
    for event in events:
        with blamed(event_part(event)):
            visible = visible_event(event, state, GM)
            if visible is not None:
                for lang in ("ja", "en"):
                    describe(visible, state, lang).encode("utf-8")
    for fmt in FORMAT_NAMES:  # the write-ups the GM may export later
        with blamed(format_part(fmt)):
            for options in (Options(lang="ja", secret_rolls=True), Options(lang="en", names="faction")):
                export(events, rules, fmt, options).encode("utf-8")
    return state


class _GcPause:
    """Who holds the cyclic collector off: folds in several threads at once (a resume while another session
    undoes) share one pause, and the collector comes back when the last of them ends."""

    def __init__(self):
        self.lock = threading.Lock()
        self.depth = 0
        self.was_enabled = False


_GC_PAUSE = _GcPause()


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector held off while a long log is folded (reference counting still frees what
    is dropped): its passes over the millions of objects a fold makes cost about a fifth of a resume.

    What the folds made then goes straight to the oldest generation (gc.freeze, then gc.unfreeze: the frozen
    objects are put back there), where CPython's young collections (3.10–3.13) never look. Left young, the
    first allocation after the pause went over all of them at once: 145–233 ms of a 100,000-event resume
    (side by side: a median of 1.07 s before, 0.83 s after), and once more at the next older collection, in
    some request. The pause is shared by the threads folding at the same time (_GcPause)."""
    pause = _GC_PAUSE
    with pause.lock:
        if pause.depth == 0:
            pause.was_enabled = gc.isenabled()
            gc.disable()
        pause.depth += 1
    try:
        yield
    finally:
        with pause.lock:
            pause.depth -= 1
            if pause.depth == 0 and pause.was_enabled:
                gc.freeze()
                gc.unfreeze()
                gc.enable()


MAKING_SUFFIX = "-making"  # a new session file while it is written (write_whole); the list does not see it
MAKING_LOCK = ".making.lock"  # Windows: the file whose lock stands for the data folder's (making_lock)


def write_whole(path: Path, write: Callable[[Store], object]) -> None:
    """Make a new session file whole or not at all: written under another name, checkpointed, then renamed into place.
    A process killed while it wrote one in place left a file without its tables or first events, which the restarted
    server listed as a damaged session nobody had made. The data folder's making_lock is held throughout: the
    processes sharing the folder (workers, the command line) write one new file at a time, and none is taken for a
    leftover (remove_leftovers); a file of that name made meanwhile by another process is not overwritten (409)."""
    making = Path(f"{path}{MAKING_SUFFIX}")
    with making_lock(path.parent):
        if path.exists():  # (another process imported the same backup under its id a moment ago)
            raise Conflict("同じIDのセッションがたった今ほかで作られました。もう一度送ってください",
                           "A session with this id was made elsewhere a moment ago; send it again")
        remove_session_files(making)  # (one a killed process left: nobody else writes one now)
        try:
            store = Store(making)
            try:
                write(store)
                store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the main file, which is what moves
            finally:
                store.close()
            os.replace(making, path)
        finally:
            remove_session_files(making)  # its emptied WAL and SHM; all of it when it failed


def remove_leftovers(data_dir: Path) -> None:
    """Delete the new session files (write_whole) a process killed while writing them left, never one still being
    written: only while the folder's making_lock is free, that is while no process sharing the folder (a worker of
    --workers, `gmtool new`) writes one (a leftover seen while it is taken waits for the next start)."""
    pattern = f"*{SUFFIX}{MAKING_SUFFIX}*"  # (no session id has a dot: never a session's own file)
    if not any(data_dir.glob(pattern)):
        return
    with making_lock(data_dir, wait=False) as free:
        if free:
            for leftover in data_dir.glob(pattern):
                leftover.unlink(missing_ok=True)


@contextmanager
def making_lock(data_dir: Path, wait: bool = True) -> Iterator[bool]:
    """The data folder's lock on making new session files, held by one process (and thread) at a time; yields whether
    it is held (with `wait`, always). The system releases it when its process ends, however it ends (kill -9): an
    advisory lock on the folder itself (flock), on Windows on the folder's MAKING_LOCK file (msvcrt.locking)."""
    if os.name == "nt":
        import msvcrt
        fd = os.open(data_dir / MAKING_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            while True:
                try:
                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                    held = True
                except OSError:
                    held = False
                if held or not wait:
                    break
                time.sleep(0.05)
            try:
                yield held
            finally:
                if held:
                    os.lseek(fd, 0, os.SEEK_SET)
                    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.close(fd)
        return
    import fcntl
    fd = os.open(data_dir, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            held = True
        except BlockingIOError:
            held = False
        yield held
    finally:
        os.close(fd)  # (releases the lock)


def remove_session_files(path: Path) -> None:
    """Delete a session file with its WAL and SHM (a refused import)."""
    for suffix in ("", "-wal", "-shm", "-journal", DAMAGE_SUFFIX):
        try:
            os.unlink(f"{path}{suffix}")
        except FileNotFoundError:
            pass


def next_title(title: str, lang: str = "ja") -> str:
    """A default title for the next session: the previous one's with （続き） / " (continued)" (within the
    80-character limit)."""
    suffix = " (continued)" if lang == "en" else "（続き）"
    return title[:80 - len(suffix)] + suffix


def _valid_id(session_id: str) -> bool:
    return 1 <= len(session_id) <= 40 and all(c.isalnum() or c in "-_" for c in session_id)


def _now() -> str:
    from .store import now_iso
    return now_iso()


def private_dir(path: Path) -> None:
    """Create the data folder (and its parents) if missing; the folder gmtool creates is 0700."""
    if not path.is_dir():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.mkdir(mode=0o700, exist_ok=True)


def admin_key(data_dir: Path) -> str:
    """The server's GM key (home page, new sessions), created on first use, kept in the data folder."""
    return folder_secret(data_dir, ".admin_key")


class KeepKey:
    """The key that signs the undo bases kept in a data folder's session files (snapshots.py), so that a session file
    copied in from elsewhere has its log folded instead. Read when first needed, made when the first base is kept."""

    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self.key: bytes | None = None

    def get(self, make: bool = False) -> bytes | None:
        """The key, or None when the folder has none yet and `make` is false."""
        if self.key is None and (make or (self.data_dir / ".keep_key").exists()):
            self.key = folder_secret(self.data_dir, ".keep_key").encode()
        return self.key


def folder_secret(data_dir: Path, name: str) -> str:
    """A secret of the data folder, in its file `name` (0600), created on first use."""
    path = Path(data_dir) / name
    if path.exists():
        return path.read_text().strip()
    key = new_token()
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process sharing the folder (a worker) made it first: use that one
        for _ in range(50):
            if key := path.read_text().strip():
                return key
            time.sleep(0.02)  # it is being written
        raise
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key
