"""What `gmtool bench` measures: fan-out, overhead, growth and resume, memory over a soak."""

from __future__ import annotations

import gzip
import re
import statistics
import threading
import time
from pathlib import Path

from .harness import COOKIE_PREFIX, Client, Screen, ServerProcess, percentiles


def create_table(client: Client, admin_key: str, phones: int, title: str = "bench") -> dict:
    """A generic session with `phones` seats, through the API."""
    status, body = client.json("POST", "/api/sessions", admin_key, {
        "title": title, "seats": [f"P{i + 1}" for i in range(phones)], "counters": ["seals", "vp", "karma"]})
    if status != 201:
        raise RuntimeError(f"create session failed: {status} {body}")
    return body


def open_screens(base: str, table: dict) -> list[Screen]:
    """The table's phones, table screen and GM console, each with its live stream."""
    sid = table["session"]
    screens = [Screen(base, sid, "seat", s["token"]) for s in table["seats"]]
    screens += [Screen(base, sid, "table", table["table_token"]), Screen(base, sid, "gm", table["gm_token"])]
    for screen in screens:
        screen.start()
    for screen in screens:
        if not screen.connected.wait(30):
            raise RuntimeError("a screen did not connect")
    return screens


def table_steps(table: dict, r: int):
    """One round of a table's five actions: a counter change, a roll, a prompt, a secret answer, a reveal."""
    sid, gm, seat = table["session"], table["gm_token"], table["seats"][0]["token"]
    seat2 = table["seats"][1]["id"] if len(table["seats"]) > 1 else table["seats"][0]["id"]
    yield "counter", gm, f"/api/sessions/{sid}/counters", {"seat": table["seats"][0]["id"], "key": "vp", "delta": 1,
                                                          "reason": f"r{r}"}
    yield "roll", gm, f"/api/sessions/{sid}/rolls", {"expr": "2D6+1", "label": f"r{r}"}
    yield "prompt", gm, f"/api/sessions/{sid}/prompts", {"title": f"select {r}", "kind": "choice",
                                                         "options": ["筋力", "耐久", "敏捷"],
                                                         "seats": [table["seats"][0]["id"], seat2]}
    yield "answer", seat, f"/api/sessions/{sid}/prompts/{{prompt}}/answer", {"value": "筋力"}
    yield "reveal", gm, f"/api/sessions/{sid}/prompts/{{prompt}}/reveal", {}


def drive_table(base: str, table: dict, rounds: int, pause: float, acks: list, failures: list,
                until: float | None = None) -> None:
    """A table's actions, one every `pause` seconds (a fixed rate: a slow answer does not slow the table),
    for `rounds` rounds or until the perf_counter time `until`; records (kind, version, request start)."""
    client = Client(base)
    due = time.perf_counter()
    r = 0
    while (until is None and r < rounds) or (until is not None and time.perf_counter() < until):
        prompt = None
        for kind, token, path, body in table_steps(table, r):
            due += pause
            answer = _act(client, kind, token, path.replace("{prompt}", str(prompt)), body, acks, failures)
            prompt = answer.get("id", prompt)
            time.sleep(max(0.0, due - time.perf_counter()))
        r += 1
    client.close()


def _act(client: Client, kind: str, token: str, path: str, body: dict, acks: list, failures: list) -> dict:
    t_start = time.perf_counter()
    status, answer = client.json("POST", path, token, body)
    if status >= 300 or "version" not in answer:
        failures.append((kind, status, answer))
        return {}
    acks.append((kind, answer["version"], t_start))
    return answer


class Room:
    """A convention room on one server: `tables` sessions, each with its phones, table screen and GM
    console open (every screen its own stream and fragments, as the pages behave)."""

    def __init__(self, server: ServerProcess, tables: int, phones: int):
        self.server = server
        client = Client(server.base)
        self.tables = [create_table(client, server.admin_key, phones, f"room {i}") for i in range(tables)]
        client.close()
        self.screens = {t["session"]: open_screens(server.base, t) for t in self.tables}
        time.sleep(0.3)

    def run(self, pause: float, warmup: float, seconds: float) -> dict:
        """Every table acts once every `pause` seconds; after `warmup` s, `seconds` s are measured: from each
        action's request start to each screen showing it, the server's CPU and the bytes sent to screens."""
        acks: dict[str, list] = {t["session"]: [] for t in self.tables}
        failures: list = []
        begin = time.perf_counter()
        window = (begin + warmup, begin + warmup + seconds)
        drivers = [threading.Thread(target=drive_table, args=(self.server.base, t, 0, pause, acks[t["session"]],
                                                                 failures, window[1]))
                   for t in self.tables]
        for d in drivers:
            d.start()
            time.sleep(pause / max(1, len(drivers)))  # tables act independently, not in lockstep
        time.sleep(max(0.0, window[0] - time.perf_counter()))
        cpu_start = self.server.cpu_seconds()
        time.sleep(max(0.0, window[1] - time.perf_counter()))
        cpu_end = self.server.cpu_seconds()
        for d in drivers:
            d.join()
        time.sleep(1.0)  # let the last fan-outs land
        latencies: dict[str, list[float]] = {"seat": [], "table": [], "gm": []}
        sent: dict[str, int] = {"seat": 0, "table": 0, "gm": 0}
        count: dict[str, int] = {"seat": 0, "table": 0, "gm": 0}
        missing, measured = 0, 0
        for sid, table_screens in self.screens.items():
            inside = [(k, v, t) for k, v, t in acks[sid] if window[0] <= t < window[1]]
            measured += len(inside)
            for screen in table_screens:
                count[screen.kind] += 1
                sent[screen.kind] += screen.bytes_between(*window)
                for _kind, version, t_start in inside:
                    shown = screen.first_shown_at(version)
                    if shown is None:
                        missing += 1
                    else:
                        latencies[screen.kind].append(shown - t_start)
        per_table = measured / max(1, len(self.tables))
        cpu = None if cpu_start is None or cpu_end is None or not measured else (cpu_end - cpu_start) / measured
        return {"pause_s": pause, "seconds": seconds, "actions": measured,
                "actions_per_s": round(measured / seconds, 1), "failed_requests": len(failures),
                "missing_updates": missing,
                "cpu_ms_per_action": None if cpu is None else round(cpu * 1000, 2),
                "bytes_per_action": {kind: round(sent[kind] / max(1, count[kind]) / max(1, per_table))
                                     for kind in sent},
                "phone": percentiles(latencies["seat"]), "table": percentiles(latencies["table"]),
                "gm": percentiles(latencies["gm"]),
                "all": percentiles(latencies["seat"] + latencies["table"] + latencies["gm"])}

    def close(self) -> None:
        """Close every screen's stream."""
        for table_screens in self.screens.values():
            for screen in table_screens:
                screen.stopped.set()


def capacity(room: Room, start_pause: float, warmup: float, seconds: float, limit_ms: float = 100.0,
             factors=(1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 40)) -> dict:
    """Step the pace up (each table acting `factor` times as often) until the p95 from request start to
    every screen passes `limit_ms`; the capacity is the highest measured actions/s that stayed within it."""
    steps, best = [], 0.0
    for factor in factors:
        result = room.run(start_pause / factor, warmup, seconds)
        p95 = result["all"]["p95"]
        steps.append({"factor": factor, "actions_per_s": result["actions_per_s"], "p95_ms": p95,
                      "cpu_ms_per_action": result["cpu_ms_per_action"], "missing_updates": result["missing_updates"]})
        if p95 is None or p95 > limit_ms or result["missing_updates"]:
            break
        best = max(best, result["actions_per_s"])
    return {"capacity_actions_per_s": best, "steps": steps}


def first_load(server: ServerProcess) -> dict:
    """The bytes a phone downloads on its first load: the page and every asset it links (no cache)."""
    client = Client(server.base)
    table = create_table(client, server.admin_key, 2, "first load")
    sid, token = table["session"], table["seats"][0]["token"]
    headers = {"Cookie": f"{COOKIE_PREFIX['seat']}{sid}={token}", "Accept-Encoding": "gzip, br"}
    status, page = client.request("GET", f"/s/{sid}/phone", headers=headers)
    if status != 200:
        raise RuntimeError(f"phone page failed: {status}")
    total, assets = len(page), {}  # bytes on the wire (gzipped when the server compresses)
    html = gzip.decompress(page) if page[:2] == b"\x1f\x8b" else page
    for src in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html):
        status, body = client.request("GET", src.decode(), headers=headers)
        assets[src.decode()] = len(body)
        total += len(body)
    client.close()
    return {"page_bytes": len(page), "assets": assets, "total_bytes": total}


def overhead(server: ServerProcess, samples: int = 300) -> dict:
    """An answer request against the bare health endpoint, interleaved in one run. The GM answers (a prompt it
    submits to, as in PL vs GM): a seat may answer only 10 times a second after its first 60 (docs/api.md), and
    this sends one every few milliseconds; the request is the same but for its token."""
    client = Client(server.base)
    table = create_table(client, server.admin_key, 2, "overhead")
    sid, gm = table["session"], table["gm_token"]
    client.json("POST", f"/api/sessions/{sid}/prompts", gm,
                {"title": "overhead", "kind": "number", "seats": ["s1", "s2"], "gm_submits": True})
    health, answer = [], []
    for i in range(samples + 20):
        t0 = time.perf_counter()
        client.request("GET", "/api/health")
        t1 = time.perf_counter()
        status, _ = client.request("POST", f"/api/sessions/{sid}/prompts/p1/answer", gm, {"value": i})
        t2 = time.perf_counter()
        if status != 200:
            raise RuntimeError(f"answer failed: {status}")
        if i >= 20:  # warm-up
            health.append(t1 - t0)
            answer.append(t2 - t1)
    client.close()
    h, a = statistics.median(health), statistics.median(answer)
    return {"health_ms": round(h * 1000, 3), "answer_ms": round(a * 1000, 3), "ratio": round(a / h, 2)}


def request_latency(client: Client, sid: str, gm: str, samples: int) -> float:
    """Median latency of a counter change in a session."""
    times = []
    for i in range(samples):
        t0 = time.perf_counter()
        status, _ = client.request("POST", f"/api/sessions/{sid}/counters", gm,
                                   {"seat": "s1", "key": "vp", "delta": 1 if i % 2 == 0 else -1})
        times.append(time.perf_counter() - t0)
        if status != 200:
            raise RuntimeError(f"counter change failed: {status}")
    return statistics.median(times[10:])


def first_request(client: Client, sid: str, gm: str) -> float:
    """The time of a session's state asked for by the GM: its resume, when the server has not loaded it yet."""
    t0 = time.perf_counter()
    status, _ = client.json("GET", f"/api/sessions/{sid}/state", gm)
    took = time.perf_counter() - t0
    if status != 200:
        raise RuntimeError(f"resume failed: {status}")
    return took


def growth(data: Path, small: int = 100, large: int = 100_000, samples: int = 200) -> dict:
    """Request latency with `small` and `large` events in a session, the time of an undo in the large one, and its
    resume (its first request after a start): cold (the file holds no kept undo base, as one written by an older
    gmtool or a session never closed since it grew) and after a normal stop (which keeps its undo base in the file,
    gmtool/snapshots.py), with the time that stop took."""
    from .logs import write_session
    small_sid, small_gm = write_session(data, small)
    large_sid, large_gm = write_session(data, large)
    server = ServerProcess(data).start()
    try:
        client = Client(server.base)
        resume_cold = first_request(client, large_sid, large_gm)
        client.json("GET", f"/api/sessions/{small_sid}/state", small_gm)
        lat_small = request_latency(client, small_sid, small_gm, samples)
        lat_large = request_latency(client, large_sid, large_gm, samples)
        undo = []
        for _ in range(5):  # a change, then its undo (the median of five)
            client.request("POST", f"/api/sessions/{large_sid}/counters", large_gm, {"seat": "s1", "key": "vp", "delta": 1})
            t0 = time.perf_counter()
            status, _ = client.request("POST", f"/api/sessions/{large_sid}/undo", large_gm, {})
            undo.append(time.perf_counter() - t0)
            if status != 200:
                raise RuntimeError(f"undo failed: {status}")
        client.close()
    finally:
        t0 = time.perf_counter()
        server.stop()
        stop = time.perf_counter() - t0
    server = ServerProcess(data).start()
    try:
        client = Client(server.base)
        resume = first_request(client, large_sid, large_gm)
        client.close()
    finally:
        server.stop()
    return {"events_small": small, "events_large": large, "latency_small_ms": round(lat_small * 1000, 3),
            "latency_large_ms": round(lat_large * 1000, 3), "ratio": round(lat_large / lat_small, 2),
            "resume_cold_s": round(resume_cold, 3), "stop_s": round(stop, 3),
            "resume_s": round(resume, 3), "undo_ms": round(statistics.median(undo) * 1000, 1)}


def soak(server: ServerProcess, minutes: float, phones: int, pause: float = 0.2) -> dict:
    """One table under steady load for `minutes`: memory at start and end, failed requests.

    The default pace, an action every 0.2 s, is five times a brisk table: it looks for leaks.
    What a session legitimately keeps (every prompt with its answers, about 1.4 KB each) grows
    with the number of actions, so a frantic pace would measure data volume, not leaks.
    """
    client = Client(server.base)
    table = create_table(client, server.admin_key, phones, "soak")
    screens = open_screens(server.base, table)
    acks, failures = [], []
    drive_table(server.base, table, 60, pause / 4, acks, failures)  # warm-up: caches fill, then steady state
    start = server.memory_kb().get("VmRSS")
    deadline = time.time() + minutes * 60
    rounds = 0
    while time.time() < deadline:
        drive_table(server.base, table, 1, pause, acks, failures)
        rounds += 1
    end = server.memory_kb().get("VmRSS")
    for screen in screens:
        screen.stopped.set()
    errors = sum(s.errors for s in screens)
    client.close()
    growth_pct = None if not start or not end else round(100.0 * (end - start) / start, 1)
    return {"minutes": minutes, "rounds": rounds, "actions": len(acks), "failed_requests": len(failures) + errors,
            "rss_start_kb": start, "rss_end_kb": end, "growth_pct": growth_pct}
