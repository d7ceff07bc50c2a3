"""`gmtool bench`: measured speed, load and memory of a real server (docs/performance.md)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .harness import ServerProcess
from .scenarios import Room, capacity, first_load, growth, overhead, soak

LIMITS = {  # name: (limit, how the figure must compare): issue 11's targets on a 2-core laptop
    "room_1x_p95_ms": (50.0, "<="),
    "room_5x_p95_ms": (50.0, "<="),
    "cpu_ms_per_action": (5.0, "<="),
    "capacity_actions_per_s": (200.0, ">="),
    "overhead_ratio": (1.3, "<="),
    "undo_100000_ms": (100.0, "<="),
    "resume_s": (1.0, "<="),
    "phone_first_load_bytes": (30_000, "<="),
    "phone_bytes_per_action": (2_000, "<="),
    "room_missing_updates": (0, "=="),
    "soak_memory_growth_pct": (10.0, "<"),
    "soak_failed_requests": (0, "=="),
}


def targets(figures: dict) -> list[dict]:
    """The targets this run measured, each with its value, limit and whether it was met."""
    out = []
    for name, (limit, op) in LIMITS.items():
        value = figures.get(name)
        if value is None:
            continue
        met = {"<=": value <= limit, "<": value < limit, ">=": value >= limit, "==": value == limit}[op]
        out.append({"name": name, "value": value, "limit": limit, "op": op, "met": met})
    return out


def run(tables: int = 20, phones: int = 8, seconds: float = 20.0, warmup: float = 5.0, minutes: float = 0.0,
        skip_growth: bool = False, skip_capacity: bool = False, log=print, pace: float = 1.0, workers: int = 1) -> dict:
    """Run the benchmark; returns {"figures", "targets", "details"}. With `workers` > 1 the room is served by
    `gmtool serve --workers N` (Caddy in front, each worker with the whole room's limits)."""
    figures: dict = {}
    details: dict = {}
    with tempfile.TemporaryDirectory(prefix="gmtool-bench-") as tmp:
        log("overhead, on a fresh server with no stream open …")
        fresh = ServerProcess(Path(tmp) / "fresh").start()
        try:
            over = details["overhead"] = overhead(fresh)
            details["first_load"] = first_load(fresh)
        finally:
            fresh.stop()
        streams = tables * (phones + 2) + 20
        server = ServerProcess(Path(tmp) / "sessions", threads=streams + 40, max_streams=streams,
                               connection_limit=streams * 3 + 100, workers=workers).start()
        try:
            log(f"a room of {tables} tables × {phones + 2} screens{f' on {workers} workers' if workers > 1 else ''} …")
            room = Room(server, tables, phones)
            log(f"brisk pace (an action every {pace} s per table), {warmup} s warm-up, {seconds} s measured …")
            brisk = details["room_1x"] = room.run(pace, warmup, seconds)
            log("five times the brisk pace …")
            busy = details["room_5x"] = room.run(pace / 5, warmup, seconds)
            if not skip_capacity:
                log("capacity: stepping the pace up until p95 passes 100 ms …")
                details["capacity"] = capacity(room, pace, warmup / 2, seconds / 2)
            room.close()
            details["memory_kb"] = server.memory_kb()
        finally:
            server.stop()
        if minutes:  # one table on a server started as `gmtool serve` starts it for a table
            log(f"soak, {minutes} min …")
            table_server = ServerProcess(Path(tmp) / "soak").start()
            try:
                details["soak"] = soak(table_server, minutes, phones, pace / 5)
            finally:
                table_server.stop()
        if not skip_growth:
            log("growth (100 vs 100,000 events), resume and undo …")
            details["growth"] = growth(Path(tmp) / "growth")
    figures["room_workers"] = workers
    figures["room_tables"] = tables
    figures["room_screens"] = tables * (phones + 2)
    figures["room_pace_s"] = pace
    for name, result in (("room_1x", brisk), ("room_5x", busy)):
        figures[f"{name}_actions_per_s"] = result["actions_per_s"]
        for kind in ("phone", "table", "gm", "all"):
            figures[f"{name}_{kind}_p50_ms"] = result[kind]["p50"]
            figures[f"{name}_{kind}_p95_ms"] = result[kind]["p95"]
        figures[f"{name}_p95_ms"] = result["all"]["p95"]
        figures[f"{name}_p99_ms"] = result["all"]["p99"]
        figures[f"{name}_cpu_ms_per_action"] = result["cpu_ms_per_action"]
        for kind, size in result["bytes_per_action"].items():
            figures[f"{name}_{'phone' if kind == 'seat' else kind}_bytes_per_action"] = size
    figures["cpu_ms_per_action"] = brisk["cpu_ms_per_action"]
    figures["phone_bytes_per_action"] = brisk["bytes_per_action"]["seat"]
    figures["room_failed_requests"] = brisk["failed_requests"] + busy["failed_requests"]
    figures["room_missing_updates"] = brisk["missing_updates"] + busy["missing_updates"]
    if "capacity" in details:
        figures["capacity_actions_per_s"] = details["capacity"]["capacity_actions_per_s"]
    figures["overhead_answer_ms"] = over["answer_ms"]
    figures["overhead_health_ms"] = over["health_ms"]
    figures["overhead_ratio"] = over["ratio"]
    figures["phone_first_load_bytes"] = details["first_load"]["total_bytes"]
    figures["memory_peak_kb"] = details["memory_kb"].get("VmHWM")
    if "growth" in details:
        figures["growth_latency_100_ms"] = details["growth"]["latency_small_ms"]
        figures["growth_latency_100000_ms"] = details["growth"]["latency_large_ms"]
        figures["growth_ratio"] = details["growth"]["ratio"]
        figures["resume_s"] = details["growth"]["resume_s"]
        figures["resume_cold_s"] = details["growth"]["resume_cold_s"]
        figures["stop_100000_s"] = details["growth"]["stop_s"]
        figures["undo_100000_ms"] = details["growth"]["undo_ms"]
    if "soak" in details:
        figures["soak_rss_start_kb"] = details["soak"]["rss_start_kb"]
        figures["soak_rss_end_kb"] = details["soak"]["rss_end_kb"]
        figures["soak_memory_growth_pct"] = details["soak"]["growth_pct"]
        figures["soak_failed_requests"] = details["soak"]["failed_requests"]
        figures["soak_actions"] = details["soak"]["actions"]
    return {"figures": figures, "targets": targets(figures), "details": details}


def print_table(result: dict) -> None:
    """The human-readable report."""
    print(f"{'figure':44} value")
    for name, value in result["figures"].items():
        print(f"{name:44} {value}")
    print()
    print(f"{'target':32} {'value':>10} {'limit':>10}  met")
    for t in result["targets"]:
        print(f"{t['name']:32} {t['value']!s:>10} {t['op'] + ' ' + str(t['limit']):>10}  {'yes' if t['met'] else 'NO'}")
    if "capacity" in result["details"]:
        print()
        print("capacity steps: factor × brisk pace → actions/s, p95 ms, CPU ms per action")
        for step in result["details"]["capacity"]["steps"]:
            print(f"  {step['factor']:>3}× → {step['actions_per_s']:>7} /s  p95 {step['p95_ms']!s:>8}  "
                  f"cpu {step['cpu_ms_per_action']}")


def main(args) -> int:
    """`gmtool bench` entry point."""
    if args.crash:
        from .crash import run_crash
        result = run_crash(args.crash, seed=args.seed, log=(lambda *a: None) if args.json else print)
        print(json.dumps(result, ensure_ascii=False, indent=1) if args.json else
              f"kills: {result['kills']}  acknowledged actions: {result['acknowledged']}  "
              f"lost: {len(result['lost'])}  replay equal: {result['replay_equal']}")
        return 0 if not result["lost"] and result["replay_equal"] else 1
    result = run(args.tables, args.phones, args.seconds, args.warmup, args.minutes, args.skip_growth,
                 args.skip_capacity, log=(lambda *a: None) if args.json else print, pace=args.pace,
                 workers=args.workers)
    if args.json:
        print(json.dumps({"figures": result["figures"], "targets": result["targets"],
                          "capacity_steps": result["details"].get("capacity", {}).get("steps")}, ensure_ascii=False))
    else:
        print_table(result)
    return 0 if all(t["met"] for t in result["targets"]) else 1
