"""Crash safety: SIGKILL a real server at random points while a scripted session runs.

After the last restart every action whose response was received must be in the log, and
the state the server serves must equal a clean replay of the log.
"""

from __future__ import annotations

import http.client
import random
import tempfile
import threading
import time
from pathlib import Path

from ..core.view import GM, build_view
from ..export.report import fold_all
from ..rulesets import get as get_ruleset
from ..store import SUFFIX, Store
from .harness import Client, ServerProcess


def _driver(base: str, session: dict, rng: random.Random, acked: list, stop: threading.Event, tag: str) -> None:
    """Counters, rolls, prompts, answers, reveals and undo in a loop until the server dies."""
    client = Client(base, timeout=5)
    sid, gm = session["session"], session["gm_token"]
    seats = {s["id"]: s["token"] for s in session["seats"]}
    api = f"/api/sessions/{sid}"
    i = 0
    try:
        while not stop.is_set():
            i += 1
            label = f"{tag}-{i}"
            step = rng.random()
            if step < 0.35:
                status, body = client.json("POST", f"{api}/counters", gm,
                                           {"seat": rng.choice(list(seats)), "key": "vp", "delta": 1, "reason": label})
                if status == 200:
                    acked.append(("counter", label))
            elif step < 0.6:
                status, body = client.json("POST", f"{api}/rolls", gm, {"expr": "1D100", "label": label})
                if status == 201:
                    acked.append(("roll", label))
            elif step < 0.9:
                status, body = client.json("POST", f"{api}/prompts", gm,
                                           {"title": label, "kind": "number", "seats": ["s1", "s2"]})
                if status != 201:
                    continue
                acked.append(("prompt", label))
                pid = body["id"]
                for seat in ("s1", "s2"):
                    status, body = client.json("POST", f"{api}/prompts/{pid}/answer", seats[seat],
                                               {"value": rng.randint(0, 100)})
                    if status == 200:
                        acked.append(("answer", body["commitment"]))
                if rng.random() < 0.3:
                    status, body = client.json("POST", f"{api}/prompts/{pid}/cancel", gm, {"reason": label})
            else:
                status, body = client.json("POST", f"{api}/undo", gm)
                if status == 200:
                    acked.append(("undo", body["undone"]["action"]))
    except (OSError, ValueError, http.client.HTTPException):
        return  # the server was killed mid-request: that action was not acknowledged
    finally:
        client.close()


def all_events(client: Client, sid: str, token: str) -> list[dict]:
    """The whole visible log, page by page."""
    events, after = [], 0
    while True:
        status, body = client.json("GET", f"/api/sessions/{sid}/log?after={after}&limit=1000", token)
        if status != 200:
            raise RuntimeError(f"log failed: {status}")
        events += body["events"]
        if len(body["events"]) < 1000:
            return events
        after = body["events"][-1]["seq"]


def missing(acked: list, events: list[dict]) -> list:
    """Acknowledged actions not found in the log."""
    present = set()
    for e in events:
        d = e["data"]
        if e["type"] == "counter.changed":
            present.add(("counter", d.get("reason")))
        elif e["type"] == "dice.rolled":
            present.add(("roll", d.get("label")))
        elif e["type"] == "prompt.opened":
            present.add(("prompt", d.get("title")))
        elif e["type"] == "prompt.answered":
            present.add(("answer", d.get("commitment")))
        elif e["type"] == "undo":
            present.add(("undo", d.get("action")))
    return [a for a in acked if a not in present]


def run_crash(kills: int, seed: int = 20261122, data: Path | None = None, log=print) -> dict:
    """Kill the server `kills` times at random points; report lost actions and the replay check."""
    with tempfile.TemporaryDirectory(prefix="gmtool-crash-") as tmp:
        data = Path(data or Path(tmp) / "sessions")
        rng = random.Random(seed)
        server = ServerProcess(data).start()
        try:  # whatever goes wrong, no server is left running (nor its folder in use)
            client = Client(server.base)
            status, session = client.json("POST", "/api/sessions", server.admin_key,
                                          {"title": "crash", "seats": ["A", "B"], "counters": ["vp", "seals"]})
            client.close()
            if status != 201:
                raise RuntimeError(f"create failed: {status}")
            acked: list = []
            for k in range(kills):
                stop = threading.Event()
                driver = threading.Thread(target=_driver, args=(server.base, session, random.Random(seed * 1000 + k),
                                                                acked, stop, f"k{k}"))
                driver.start()
                try:
                    time.sleep(rng.uniform(0.02, 0.25))
                    server.kill()
                finally:
                    stop.set()
                    driver.join(timeout=30)
                server = ServerProcess(data).start()
                log(f"kill {k + 1}/{kills}: {len(acked)} acknowledged actions so far")
            client = Client(server.base)
            sid, gm = session["session"], session["gm_token"]
            events = all_events(client, sid, gm)
            status, served = client.json("GET", f"/api/sessions/{sid}/state", gm)
            client.close()
        finally:
            server.stop()
        store = Store(data / f"{sid}{SUFFIX}")
        try:
            stored = list(store.events())
            replayed = build_view(fold_all(stored, get_ruleset(str(stored[0].data.get("ruleset", "")))), GM)
        finally:
            store.close()
        served_view = {k: v for k, v in served.items() if k != "session"}
        clean_view = {k: v for k, v in replayed.items() if k != "session"}
        return {"kills": kills, "acknowledged": len(acked), "lost": missing(acked, events),
                "replay_equal": served_view == clean_view, "events": len(events)}
