"""`gmtool bench`: measured speed, load and memory of a real server (docs/performance.md)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .harness import ServerProcess
from .scenarios import fanout, growth, overhead, soak

LIMITS = {  # name: (limit, how the figure must compare)
    "fanout_1_table_p95_ms": (50.0, "<="),
    "fanout_tables_p95_ms": (250.0, "<="),
    "overhead_ratio": (1.5, "<="),
    "growth_ratio": (1.2, "<="),
    "resume_s": (2.0, "<="),
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
        met = value <= limit if op == "<=" else value < limit if op == "<" else value == limit
        out.append({"name": name, "value": value, "limit": limit, "met": met})
    return out


def run(tables: int = 20, phones: int = 8, rounds: int = 6, minutes: float = 0.0, skip_growth: bool = False,
        log=print, pace: float = 1.0) -> dict:
    """Run the benchmark; returns {"figures", "targets", "details"}."""
    figures: dict = {}
    details: dict = {}
    with tempfile.TemporaryDirectory(prefix="gmtool-bench-") as tmp:
        streams = tables * (phones + 2) + 20
        server = ServerProcess(Path(tmp) / "sessions", threads=streams + 40, max_streams=streams,
                               connection_limit=streams * 3 + 100).start()
        try:
            log("fan-out, 1 table …")
            one = details["fanout_1_table"] = fanout(server, 1, phones, rounds, pace)
            log(f"fan-out, {tables} tables …")
            many = details["fanout_tables"] = fanout(server, tables, phones, rounds, pace)
            log("overhead …")
            over = details["overhead"] = overhead(server)
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
            log("growth (100 vs 100,000 events) and resume …")
            details["growth"] = growth(Path(tmp) / "growth")
    for kind in ("phone", "table", "gm", "all"):
        figures[f"fanout_1_table_{kind}_p50_ms"] = one[kind]["p50"]
        figures[f"fanout_1_table_{kind}_p95_ms"] = one[kind]["p95"]
        figures[f"fanout_tables_{kind}_p95_ms"] = many[kind]["p95"]
    for kind in ("phone", "table", "gm"):
        for q in ("p99", "max"):
            figures[f"fanout_1_table_{kind}_{q}_ms"] = one[kind][q]
            figures[f"fanout_tables_{kind}_{q}_ms"] = many[kind][q]
    figures["fanout_1_table_p95_ms"] = one["all"]["p95"]
    figures["fanout_tables_p95_ms"] = many["all"]["p95"]
    figures["fanout_tables"] = tables
    figures["fanout_pace_s"] = pace
    figures["fanout_failed_requests"] = one["failed_requests"] + many["failed_requests"]
    figures["fanout_missing_updates"] = one["missing_updates"] + many["missing_updates"]
    figures["overhead_answer_ms"] = over["answer_ms"]
    figures["overhead_health_ms"] = over["health_ms"]
    figures["overhead_ratio"] = over["ratio"]
    figures["memory_peak_kb"] = details["memory_kb"].get("VmHWM")
    if "growth" in details:
        figures["growth_latency_100_ms"] = details["growth"]["latency_small_ms"]
        figures["growth_latency_100000_ms"] = details["growth"]["latency_large_ms"]
        figures["growth_ratio"] = details["growth"]["ratio"]
        figures["resume_s"] = details["growth"]["resume_s"]
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
    print(f"{'target':32} {'value':>10} {'limit':>8}  met")
    for t in result["targets"]:
        print(f"{t['name']:32} {t['value']!s:>10} {t['limit']!s:>8}  {'yes' if t['met'] else 'NO'}")


def main(args) -> int:
    """`gmtool bench` entry point."""
    if args.crash:
        from .crash import run_crash
        result = run_crash(args.crash, seed=args.seed, log=(lambda *a: None) if args.json else print)
        print(json.dumps(result, ensure_ascii=False, indent=1) if args.json else
              f"kills: {result['kills']}  acknowledged actions: {result['acknowledged']}  "
              f"lost: {len(result['lost'])}  replay equal: {result['replay_equal']}")
        return 0 if not result["lost"] and result["replay_equal"] else 1
    result = run(args.tables, args.phones, args.rounds, args.minutes, args.skip_growth,
                 log=(lambda *a: None) if args.json else print, pace=args.pace)
    if args.json:
        print(json.dumps({"figures": result["figures"], "targets": result["targets"]}, ensure_ascii=False))
    else:
        print_table(result)
    return 0 if all(t["met"] for t in result["targets"]) else 1
