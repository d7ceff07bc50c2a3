"""The benchmark's parts: a real `gmtool serve` process, an HTTP client, simulated screens."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from urllib.parse import urlsplit

COOKIE_PREFIX = {"gm": "gmtool_gm_", "table": "gmtool_table_", "seat": "gmtool_seat_"}
PAGE = {"gm": "/s/{sid}/gm", "table": "/s/{sid}/table", "seat": "/s/{sid}/phone"}
VERSION_RE = re.compile(rb'data-version="(\d+)"')


class ServerProcess:
    """`gmtool serve` on loopback as a separate process (the production server); with `workers` > 1 that many
    worker processes behind Caddy (`gmtool serve --workers N`), each with the given limits."""

    def __init__(self, data: Path, threads: int = 48, max_streams: int = 40, connection_limit: int = 200,
                 workers: int = 1):
        self.data = Path(data)
        self.args = ["--threads", str(threads), "--max-streams", str(max_streams),
                     "--connection-limit", str(connection_limit)] + (["--workers", str(workers)] if workers > 1 else [])
        self.proc: subprocess.Popen | None = None
        self.base = ""
        self.started_at = 0.0
        self.lines: list[str] = []  # what it printed until it gave its address

    def start(self, timeout: float = 30) -> "ServerProcess":
        """Start the server and wait until it prints its address."""
        self.started_at = time.perf_counter()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gmtool", "serve", "--no-browser", "--host", "127.0.0.1", "--port", "0",
             "--data", str(self.data), *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.proc.stdout.readline()
            if not line and self.proc.poll() is not None:
                break
            self.lines.append(line)
            match = re.search(r"(http://127\.0\.0\.1:\d+)/\?k=", line)
            if match:
                self.base = match.group(1)
                self._drainer = threading.Thread(target=self._drain, daemon=True)
                self._drainer.start()
                return self
        self.kill()
        raise RuntimeError("gmtool serve did not start")

    def _drain(self) -> None:
        for _ in self.proc.stdout:
            pass

    def _reap(self) -> None:
        """Close the output pipe once the process has ended."""
        drainer = getattr(self, "_drainer", None)
        if drainer is not None:
            drainer.join(timeout=5)
        self.proc.stdout.close()

    @property
    def admin_key(self) -> str:
        """The server's GM key."""
        return (self.data / ".admin_key").read_text().strip()

    def kill(self) -> None:
        """SIGKILL: no chance to flush or clean up."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)
            self.proc.wait(timeout=10)
            self._reap()

    def stop(self) -> None:
        """A normal stop (or, when the server has already ended, closing its output)."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
                self._reap()
            except subprocess.TimeoutExpired:
                self.kill()
        elif self.proc and not self.proc.stdout.closed:
            self._reap()

    def pids(self) -> list[int]:
        """The server's process and its descendants (workers, Caddy) (Linux /proc; the server alone elsewhere)."""
        found, queue = [], [self.proc.pid]
        while queue:
            pid = queue.pop()
            found.append(pid)
            for children in Path(f"/proc/{pid}/task").glob("*/children"):
                try:
                    queue += [int(c) for c in children.read_text().split()]
                except OSError:
                    pass
        return found

    def cpu_seconds(self) -> float | None:
        """CPU time the server's processes have used so far, user + system (Linux /proc; None elsewhere)."""
        total = 0.0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                if pid == self.proc.pid:
                    return None
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def memory_kb(self) -> dict:
        """Resident and peak memory of the server's processes, summed (Linux /proc; empty elsewhere)."""
        out: dict[str, int] = {}
        for pid in self.pids():
            try:
                text = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            for key in ("VmRSS", "VmHWM"):
                match = re.search(rf"{key}:\s+(\d+) kB", text)
                if match:
                    out[key] = out.get(key, 0) + int(match.group(1))
        return out


class Client:
    """A keep-alive HTTP/1.1 client for one thread."""

    def __init__(self, base: str, timeout: float = 30):
        parts = urlsplit(base)
        self.host, self.port, self.timeout = parts.hostname, parts.port, timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, token: str | None = None, body=None,
                headers: dict | None = None) -> tuple[int, bytes]:
        """One request; reconnects once if the kept-alive connection went away."""
        hdrs = dict(headers or {})
        if token:
            hdrs["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(method, path, body=data, headers=hdrs)
                resp = self.conn.getresponse()
                return resp.status, resp.read()
            except (ConnectionError, http.client.HTTPException, OSError):
                self.close()
                if attempt or method != "GET":
                    raise
        raise AssertionError("unreachable")

    def json(self, method: str, path: str, token: str | None = None, body=None) -> tuple[int, dict]:
        """A JSON request and its decoded answer."""
        status, raw = self.request(method, path, token, body)
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, {"raw": raw.decode(errors="replace")}

    def close(self) -> None:
        """Drop the connection."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class Screen(threading.Thread):
    """A simulated open screen that behaves as static/live.js: one SSE stream (push=1) that brings its
    fragments; on a bare notice of a version it does not show it re-fetches its own fragment. It records
    what it showed, when, and the bytes it received for it."""

    def __init__(self, base: str, sid: str, kind: str, token: str):
        super().__init__(daemon=True)
        self.base, self.sid, self.kind, self.token = base, sid, kind, token
        self.shown: list[tuple[int, float]] = []  # (version shown, perf_counter time)
        self.received: list[tuple[float, int]] = []  # (perf_counter time, bytes of a fragment response body)
        self.version = -1
        self.connected = threading.Event()
        self.stopped = threading.Event()
        self.errors = 0
        self.polling = False
        self.client = Client(base)
        self.headers = {"Cookie": f"{COOKIE_PREFIX[kind]}{sid}={token}"}

    def _fetch_fragment(self) -> None:
        status, raw = self.client.request("GET", PAGE[self.kind].format(sid=self.sid),
                                          headers={**self.headers, "HX-Request": "true"})
        now = time.perf_counter()
        self.received.append((now, len(raw)))
        match = VERSION_RE.search(raw) if status == 200 else None
        if match is None:
            self.errors += 1
            return
        self.version = int(match.group(1))
        self.shown.append((self.version, now))

    def _message(self, event: bytes | None, data: list[bytes], size: int) -> None:
        """One SSE message, handled as live.js handles it."""
        now = time.perf_counter()
        if event == b"fragment":  # the pushed fragment: shown without a round trip
            self.connected.set()
            self.received.append((now, size))
            self.version = int(data[0])
            self.shown.append((self.version, now))
        elif event == b"changed" and data:
            self.connected.set()
            if int(data[0]) != self.version:  # only a version the screen does not show
                self._fetch_fragment()

    def bytes_between(self, start: float, end: float) -> int:
        """Fragment bytes this screen received between two perf_counter times."""
        return sum(size for at, size in list(self.received) if start <= at < end)

    def run(self) -> None:
        """Load the page, then follow the stream (or poll when the server refuses a stream)."""
        try:
            status, page = self.client.request("GET", PAGE[self.kind].format(sid=self.sid), headers=self.headers)
            match = VERSION_RE.search(page) if status == 200 else None
            if match:
                self.version = int(match.group(1))
            parts = urlsplit(self.base)
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
            conn.request("GET", f"/s/{self.sid}/events?as={self.kind}&push=1&v={self.version}",
                         headers={**self.headers, "Accept-Encoding": "gzip"})
            resp = conn.getresponse()
            if resp.status == 503:
                self.polling = True
                self.connected.set()
                self._poll()
                return
            unzip = zlib.decompressobj(16 + zlib.MAX_WBITS) if resp.getheader("Content-Encoding") == "gzip" else None
            text, wire = b"", 0
            while not self.stopped.is_set():
                raw = resp.read1(65536)
                if not raw:
                    break
                wire += len(raw)  # the bytes on the wire (compressed when the server gzips)
                text += unzip.decompress(raw) if unzip else raw
                while b"\n\n" in text:
                    message, text = text.split(b"\n\n", 1)
                    event, data = None, []
                    for line in message.split(b"\n"):
                        if line.startswith(b"event:"):
                            event = line[6:].strip()
                        elif line.startswith(b"data:"):
                            data.append(line[6:] if line.startswith(b"data: ") else line[5:])
                    self._message(event, data, wire)
                    wire = 0
            conn.close()
        except (OSError, http.client.HTTPException):  # the server went away (at the end of a run)
            if not self.stopped.is_set():
                self.errors += 1

    def _poll(self) -> None:
        last = -1
        while not self.stopped.is_set():
            status, raw = self.client.request("GET", f"/s/{self.sid}/version?as={self.kind}", headers=self.headers)
            if status == 200:
                version = json.loads(raw)["version"]
                if version != last:
                    last = version
                    self._fetch_fragment()
            else:
                self.errors += 1
            self.stopped.wait(1.0)

    def first_shown_at(self, version: int) -> float | None:
        """When this screen first showed `version` or later."""
        for shown, at in list(self.shown):
            if shown >= version:
                return at
        return None


def percentiles(values: list[float]) -> dict:
    """p50 / p95 / p99 / max in milliseconds."""
    if not values:
        return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 2)

    return {"n": len(ordered), "p50": pick(0.50), "p95": pick(0.95), "p99": pick(0.99),
            "max": round(ordered[-1] * 1000, 2)}
