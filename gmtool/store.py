"""The only SQLite code: one file per session, an append-only event log and a few secrets.

Every write runs in `BEGIN IMMEDIATE` in WAL mode, so concurrent writers wait instead of
failing (../shared/STACK.md measured deferred BEGIN losing writes to "database is locked"),
and an action is in the file before its response is sent.

Durability: with WAL, `synchronous=NORMAL` (the default) writes every commit to the file
before returning, so no acknowledged action is lost when the process is killed (the crash
test kills it with SIGKILL); it does not fsync each commit, so an OS crash or power cut may
lose the last few actions (never corrupt the file). `synchronous=FULL` (`gmtool serve
--sync full`) also survives power loss, at about 0.35 ms more per action (docs/performance.md).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import orjson
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from .core.model import Event

SUFFIX = ".sqlite"
migrations = Migrations("gmtool")


@migrations()
def m001_initial(db: Database) -> None:
    """Meta, secrets and the event log."""
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["secrets"].create({"key": str, "value": str}, pk="key")
    db["events"].create(
        {"seq": int, "ts": str, "actor": str, "action": int, "type": str, "data": str}, pk="seq"
    )
    db["events"].create_index(["action"])
    db["events"].create_index(["type"])


@migrations()
def m002_request_keys(db: Database) -> None:
    """The Idempotency-Key of each keyed request that appended an action (its scope, web/idempotency.py), written
    with the action: a repeat whose answer was lost when the server was killed is not applied again after it
    restarts."""
    db["request_keys"].create({"scope": str, "action": int, "digest": str}, pk="scope")


@migrations()
def m003_request_tokens(db: Database) -> None:
    """The links (tokens) a keyed request that made the session handed out, as JSON, in the same row as its key: its
    repeat after a restart answers with them again (web/idempotency.py). NULL for every other request."""
    db["request_keys"].add_column("tokens", str)


@migrations()
def m004_snapshot(db: Database) -> None:
    """The undo base as the session's last close left it (gmtool/snapshots.py): one row, replaced at each close, signed
    with the data folder's key. Any change to the events it folded (an event at or before its end updated, deleted or
    inserted: a hand edit, another program) deletes it, so a resume then folds the log as it now stands."""
    db["snapshot"].create({"id": int, "code": str, "seq": int, "mac": str, "data": bytes}, pk="id")
    for name, when in (("update", "UPDATE"), ("delete", "DELETE"), ("insert", "INSERT")):
        row = "new" if when == "INSERT" else "old"
        db.execute(f"CREATE TRIGGER snapshot_stale_{name} AFTER {when} ON events "
                   f"WHEN {row}.seq <= (SELECT seq FROM snapshot) BEGIN DELETE FROM snapshot; END")


def dump_json(data) -> str:
    """A stored event's data as written to the file (load_json reads it back)."""
    return json.dumps(data, ensure_ascii=False)


def load_json(text: str | bytes):
    """A stored event's data: orjson (several times faster: a resume parses every event), the
    standard library for what orjson refuses (e.g. an integer beyond 64 bits in an old file)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def create_private(path: Path) -> None:
    """Create an empty session file readable by its owner only (0600 on POSIX) if it does not exist yet.

    It holds raw join tokens, the dice seed and unrevealed answers; SQLite gives the WAL and SHM
    files it creates beside it the same permissions. (On Windows the folder's ACLs apply.)"""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def now_iso() -> str:
    """The current UTC time as ISO 8601 with milliseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def local_utc_offset() -> int:
    """This machine's time zone now, in minutes east of UTC (what exports show times in)."""
    offset = datetime.now().astimezone().utcoffset()
    return int(offset.total_seconds() // 60) if offset else 0


class EventLog:
    """Reading a session file's event log (through `self.conn`)."""

    conn: sqlite3.Connection

    def events(self, after_seq: int = 0, up_to_seq: int | None = None, types: tuple[str, ...] = (),
               before_action: int | None = None, limit: int = -1) -> Iterator[Event]:
        """Events in log order after `after_seq` (optionally: up to `up_to_seq`, only some types, only those of
        the actions before `before_action`, at most `limit`)."""
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE seq > ?"
        params: list = [_sql_int(after_seq)]
        if up_to_seq is not None:
            sql += " AND seq <= ?"
            params.append(_sql_int(up_to_seq))
        if types:
            sql += f" AND type IN ({','.join('?' * len(types))})"
            params += list(types)
        if before_action is not None:  # actions are numbered in log order: the seqs before the action's first
            sql += " AND seq < COALESCE((SELECT MIN(seq) FROM events WHERE action = ?), 9223372036854775807)"
            params.append(_sql_int(before_action))
        return _events(self.conn.execute(sql + " ORDER BY seq LIMIT ?", [*params, int(limit)]))

    def recent_events(self, limit: int) -> list[Event]:
        """The last `limit` events, oldest first."""
        rows = self.conn.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY seq DESC LIMIT ?", (limit,)).fetchall()
        return list(_events(reversed(rows)))

    def action_events(self, action: int) -> list[Event]:
        """The events of one action."""
        return list(_events(self.conn.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE action = ? ORDER BY seq",
                                              (action,))))

    def action_heads(self) -> Iterator[Event]:
        """The first event of each action, newest action first (what decides whether it can be undone)."""
        head = None
        for row in self.conn.execute(f"SELECT {EVENT_COLUMNS} FROM events ORDER BY seq DESC"):
            if head is not None and row[3] != head[3]:
                yield next(_events((head,)))
            head = row
        if head is not None:
            yield next(_events((head,)))

    def undone_actions(self) -> set[int]:
        """Actions named by undo events."""
        return {int(e.data["action"]) for e in self.events(types=("undo",))}

    def count_events(self) -> int:
        """How many events the log holds."""
        return self.conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]


class Store(EventLog):
    """One session's SQLite file. Not thread-safe: the runtime serialises access."""

    def __init__(self, path: Path, synchronous: str = "NORMAL"):
        if synchronous not in ("NORMAL", "FULL"):
            raise ValueError("synchronous must be NORMAL or FULL")
        self.path = Path(path)
        create_private(self.path)
        conn = self.conn = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        try:
            self.db = Database(conn)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={synchronous}")
            self.db.execute("PRAGMA busy_timeout=5000")
            self.db.execute("PRAGMA cache_size=-512")  # 512 KiB: the state lives in memory, the file is mostly appended
            migrations.apply(self.db)
            row = conn.execute("SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(action), 0) FROM events").fetchone()
        except BaseException:  # no database (a damaged file): closed now, not when the error is freed
            conn.close()
            raise
        self._last_seq, self._last_action = row  # only this Store writes the file (one server per folder)

    def close(self) -> None:
        """Close the connection."""
        self.db.conn.close()

    # -- meta and secrets -------------------------------------------------
    def get_meta(self) -> dict[str, str]:
        """All meta values."""
        return {r["key"]: r["value"] for r in self.db["meta"].rows}

    def put_meta(self, key: str, value: str) -> None:
        """Set one meta value (one statement: written at once)."""
        self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def get_snapshot(self) -> tuple[str, int, str, bytes] | None:
        """(the code digest, the last seq, the signature, the blob) of the snapshot the file holds, or None
        (m004_snapshot)."""
        row = self.conn.execute("SELECT code, seq, mac, data FROM snapshot WHERE id = 1").fetchone()
        return None if row is None else (row[0], row[1], row[2], bytes(row[3]))

    def put_snapshot(self, code: str, seq: int, mac: str, data: bytes) -> None:
        """Replace the snapshot (one statement: written at once)."""
        self.conn.execute("INSERT OR REPLACE INTO snapshot (id, code, seq, mac, data) VALUES (1, ?, ?, ?, ?)",
                          (code, seq, mac, data))

    def get_secrets(self) -> dict[str, str]:
        """All secret values (token hashes, the dice seed)."""
        return {r["key"]: r["value"] for r in self.db["secrets"].rows}

    # -- events -----------------------------------------------------------
    def append(self, actor: str, drafts: list[tuple[str, dict]], meta: dict | None = None,
               secrets: dict | None = None, request_key: tuple[str, str] | None = None,
               tokens: dict | None = None) -> list[Event]:
        """Append drafts as one action (and update meta / secrets, and note the request's idempotency scope and body
        digest, with the tokens it hands out when it makes the session) in one durable transaction."""
        conn = self.db.conn
        ts = now_iso()
        conn.execute("BEGIN IMMEDIATE")
        try:
            seq, action = self._last_seq, self._last_action + 1
            events, rows = [], []
            for event_type, data in drafts:
                seq += 1
                text = dump_json(data)
                rows.append((seq, ts, actor, action, event_type, text))
                # The event as it is stored, not the command's objects: the live fold sees what a resume will
                # (lists, not tuples; string keys), and nothing the command keeps can change it afterwards.
                events.append(Event(seq, ts, actor, action, event_type, load_json(text)))
            conn.executemany("INSERT INTO events (seq, ts, actor, action, type, data) VALUES (?, ?, ?, ?, ?, ?)", rows)
            for table, values in (("meta", meta), ("secrets", secrets)):
                for key, value in (values or {}).items():
                    conn.execute(f"INSERT OR REPLACE INTO {table} (key, value) VALUES (?, ?)", (key, value))
            self._note_request(request_key, action, tokens)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self._last_seq, self._last_action = seq, action
        return events

    def _note_request(self, request_key: tuple[str, str] | None, action: int, tokens: dict | None) -> None:
        """Note a keyed request's scope and body digest with the action it made (in the caller's transaction); a
        request that appends twice is known by its first action."""
        if request_key is not None:
            self.conn.execute("INSERT OR IGNORE INTO request_keys (scope, action, digest, tokens) VALUES (?, ?, ?, ?)",
                              (request_key[0], action, request_key[1], None if tokens is None else json.dumps(tokens)))

    def import_events(self, events: list[Event], meta: dict, secrets: dict,
                      request_key: tuple[str, str] | None = None, tokens: dict | None = None) -> None:
        """Write an imported log as it is (seq, action, time, actor kept) in one transaction (with the keyed request
        that imports it, as append notes one)."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]:
                raise ValueError("import into a non-empty session")
            conn.executemany(
                "INSERT INTO events (seq, ts, actor, action, type, data) VALUES (?, ?, ?, ?, ?, ?)",
                [(e.seq, e.ts, e.actor, e.action, e.type, dump_json(e.data)) for e in events])
            for table, values in (("meta", meta), ("secrets", secrets)):
                for key, value in values.items():
                    conn.execute(f"INSERT OR REPLACE INTO {table} (key, value) VALUES (?, ?)", (key, value))
            self._note_request(request_key, max(e.action for e in events), tokens)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self._last_seq, self._last_action = events[-1].seq, max(e.action for e in events)

    def request_action(self, scope: str) -> tuple[int, str] | None:
        """(the action, the body digest) a keyed request appended, or None (m002_request_keys)."""
        row = self.conn.execute("SELECT action, digest FROM request_keys WHERE scope = ?", (scope,)).fetchone()
        return None if row is None else (row[0], row[1])

    def request_tokens(self, scope: str) -> dict | None:
        """The tokens a keyed request that made this session handed out, or None (m003_request_tokens)."""
        row = self.conn.execute("SELECT tokens FROM request_keys WHERE scope = ?", (scope,)).fetchone()
        return None if row is None or row[0] is None else json.loads(row[0])

    def remove_from(self, seq: int) -> None:
        """Take the events from `seq` on back out (an action whose fold failed, runtime._commit)."""
        conn = self.db.conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("DELETE FROM events WHERE seq >= ?", (seq,))
            conn.execute("DELETE FROM request_keys WHERE action > (SELECT COALESCE(MAX(action), 0) FROM events)")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        self._last_seq, self._last_action = conn.execute(
            "SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(action), 0) FROM events").fetchone()

class LogReader(EventLog):
    """A session file's event log through a read-only connection of its own, used in a `with` block: under WAL
    it reads while the session's Store writes (an undo folds this way without holding the session)."""

    def __init__(self, path: Path):
        self.conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=False)

    def __enter__(self) -> "LogReader":
        return self

    def __exit__(self, *exc) -> None:
        self.conn.close()


# The data as bytes: orjson parses them without the UTF-8 text SQLite would decode first.
EVENT_COLUMNS = "seq, ts, actor, action, type, CAST(data AS BLOB)"


def _events(rows) -> Iterator[Event]:
    """Events from rows of EVENT_COLUMNS."""
    for seq, ts, actor, action, event_type, data in rows:
        yield Event(seq, ts, actor, action, event_type, load_json(data))


def _sql_int(value: int) -> int:
    """A number within SQLite's 64-bit integers."""
    return max(-2**63, min(int(value), 2**63 - 1))


def read_head(path: Path) -> tuple[dict[str, str], str | None] | None:
    """A session file's meta values and its dice seed (None when it has none), read-only and without its log (for
    listing); None for a file that is no SQLite database with a meta table (a damaged one)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return None
    try:
        meta = {k: v for k, v in conn.execute("SELECT key, value FROM meta")}
        try:
            row = conn.execute("SELECT value FROM secrets WHERE key = 'seed'").fetchone()
        except sqlite3.DatabaseError:  # no secrets table: no seed
            row = None
        return meta, row[0] if row else None
    except sqlite3.DatabaseError:
        return None
    finally:
        conn.close()


def request_noted(path: Path, scope: str) -> bool:
    """Whether a session file noted a keyed request's scope (m002_request_keys), read-only, as read_head reads it (so
    also a file another worker owns); False for no file, or one that cannot be read so."""
    if not Path(path).exists():
        return False
    try:
        conn = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return False
    try:
        return conn.execute("SELECT 1 FROM request_keys WHERE scope = ?", (scope,)).fetchone() is not None
    except sqlite3.DatabaseError:
        return False
    finally:
        conn.close()
