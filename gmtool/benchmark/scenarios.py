"""What `gmtool bench` measures: fan-out, overhead, growth and resume, memory over a soak."""

from __future__ import annotations

import statistics
import threading
import time
from pathlib import Path

from .harness import Client, Screen, ServerProcess, percentiles


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


def drive_table(base: str, table: dict, rounds: int, pause: float, acks: list, failures: list) -> None:
    """Per round: a counter change, a roll, a prompt, a secret answer, a reveal; records (version, t_ack)."""
    client = Client(base)
    sid, gm, seat = table["session"], table["gm_token"], table["seats"][0]["token"]
    seat2 = table["seats"][1]["id"] if len(table["seats"]) > 1 else table["seats"][0]["id"]
    for r in range(rounds):
        steps = [
            ("counter", gm, f"/api/sessions/{sid}/counters",
             {"seat": table["seats"][0]["id"], "key": "vp", "delta": 1, "reason": f"r{r}"}),
            ("roll", gm, f"/api/sessions/{sid}/rolls", {"expr": "2D6+1", "label": f"r{r}"}),
            ("prompt", gm, f"/api/sessions/{sid}/prompts",
             {"title": f"select {r}", "kind": "choice", "options": ["筋力", "耐久", "敏捷"],
              "seats": [table["seats"][0]["id"], seat2]}),
        ]
        prompt = None
        for kind, token, path, body in steps:
            answer = _act(client, kind, token, path, body, acks, failures)
            prompt = answer.get("id", prompt)
            time.sleep(pause)
        _act(client, "answer", seat, f"/api/sessions/{sid}/prompts/{prompt}/answer", {"value": "筋力"}, acks, failures)
        time.sleep(pause)
        _act(client, "reveal", gm, f"/api/sessions/{sid}/prompts/{prompt}/reveal", {}, acks, failures)
        time.sleep(pause)
    client.close()


def _act(client: Client, kind: str, token: str, path: str, body: dict, acks: list, failures: list) -> dict:
    status, answer = client.json("POST", path, token, body)
    t_ack = time.perf_counter()
    if status >= 300 or "version" not in answer:
        failures.append((kind, status, answer))
        return {}
    acks.append((kind, answer["version"], t_ack))
    return answer


def fanout(server: ServerProcess, tables: int, phones: int, rounds: int, pause: float = 1.0) -> dict:
    """Time from an action's response until each open screen shows it, per screen kind."""
    client = Client(server.base)
    made = [create_table(client, server.admin_key, phones, f"fanout {i}") for i in range(tables)]
    screens = {t["session"]: open_screens(server.base, t) for t in made}
    time.sleep(0.3)
    acks: dict[str, list] = {t["session"]: [] for t in made}
    failures: list = []
    drivers = [threading.Thread(target=drive_table, args=(server.base, t, rounds, pause, acks[t["session"]], failures))
               for t in made]
    for i, d in enumerate(drivers):
        d.start()
        time.sleep(pause / max(1, tables))  # tables act independently, not in lockstep
    for d in drivers:
        d.join()
    time.sleep(1.0)  # let the last fan-outs land
    latencies: dict[str, list[float]] = {"seat": [], "table": [], "gm": []}
    missing = 0
    for sid, table_screens in screens.items():
        for screen in table_screens:
            for _kind, version, t_ack in acks[sid]:
                shown = screen.first_shown_at(version)
                if shown is None:
                    missing += 1
                else:
                    latencies[screen.kind].append(max(0.0, shown - t_ack))
            screen.stopped.set()
    errors = sum(s.errors for ss in screens.values() for s in ss)
    polling = sum(s.polling for ss in screens.values() for s in ss)
    client.close()
    return {"tables": tables, "screens": tables * (phones + 2),
            "actions": sum(len(a) for a in acks.values()), "failed_requests": len(failures),
            "missing_updates": missing, "screen_errors": errors, "polling_screens": polling,
            "phone": percentiles(latencies["seat"]), "table": percentiles(latencies["table"]),
            "gm": percentiles(latencies["gm"]),
            "all": percentiles(latencies["seat"] + latencies["table"] + latencies["gm"])}


def overhead(server: ServerProcess, samples: int = 300) -> dict:
    """A seat's answer request against the bare health endpoint, interleaved in one run."""
    client = Client(server.base)
    table = create_table(client, server.admin_key, 2, "overhead")
    sid, gm, seat = table["session"], table["gm_token"], table["seats"][0]["token"]
    client.json("POST", f"/api/sessions/{sid}/prompts", gm,
                {"title": "overhead", "kind": "number", "seats": ["s1", "s2"]})
    health, answer = [], []
    for i in range(samples + 20):
        t0 = time.perf_counter()
        client.request("GET", "/api/health")
        t1 = time.perf_counter()
        status, _ = client.request("POST", f"/api/sessions/{sid}/prompts/p1/answer", seat, {"value": i})
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


def growth(data: Path, small: int = 100, large: int = 100_000, samples: int = 200) -> dict:
    """Request latency with `small` and `large` events in a session, and the resume time of the large one."""
    from .logs import write_session
    small_sid, small_gm = write_session(data, small)
    large_sid, large_gm = write_session(data, large)
    server = ServerProcess(data).start()
    try:
        client = Client(server.base)
        t0 = time.perf_counter()
        status, _ = client.json("GET", f"/api/sessions/{large_sid}/state", large_gm)
        resume = time.perf_counter() - t0
        if status != 200:
            raise RuntimeError(f"resume failed: {status}")
        client.json("GET", f"/api/sessions/{small_sid}/state", small_gm)
        lat_small = request_latency(client, small_sid, small_gm, samples)
        lat_large = request_latency(client, large_sid, large_gm, samples)
        client.close()
    finally:
        server.stop()
    return {"events_small": small, "events_large": large, "latency_small_ms": round(lat_small * 1000, 3),
            "latency_large_ms": round(lat_large * 1000, 3), "ratio": round(lat_large / lat_small, 2),
            "resume_s": round(resume, 3)}


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
