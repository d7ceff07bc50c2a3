"""The reverse proxy in front of several gmtool workers: a Caddyfile for Caddy (https://caddyserver.com).

Caddy is one static binary for Windows, macOS and Linux, sends an event stream (`text/event-stream`)
on as each message is written, without buffering it, and passes the Host header through unchanged, so the links and QR codes a worker prints carry the
proxy's address. The configuration is static: a request that names a session (`/s/<id>/…`,
`/join/<id>`, `/api/sessions/<id>/…`) goes to the worker that owns the id (gmtool/ownership.py);
everything else (the home page, new sessions, imports, the session list, static files) to any worker,
chosen by a hash of the request's Idempotency-Key (a retried creation reaches the worker that
remembers its answer) or at random without one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .ownership import marker

GRACE_PERIOD = "2s"  # how long Caddy waits for open streams when it stops, before it closes them


def _session_path(session_id: str) -> str:
    """The paths that name a session whose id matches `session_id` (a regular expression): /s/<id>/…,
    /join/<id>, /api/sessions/<id>/… (every route of web/*.py with a session id; tests/integration/
    test_workers.py checks them all). Under /api/sessions/ a slash follows: `/api/sessions/import` names none."""
    return rf"^/(?:(?:s|join)/{session_id}|api/sessions/{session_id}/)"


def owned_paths(worker: int) -> str:
    """The regular expression (RE2 and Python alike) of the paths that name a session worker `worker` (≥ 2) owns."""
    return _session_path(re.escape(marker(worker)) + "[^/]*")


def session_paths() -> str:
    """The regular expression of every path that names a session (worker 1's, when no other worker's matched)."""
    return _session_path("[^/]+")


# No `flush_interval -1`: Caddy flushes event streams by their content type anyway, and a negative interval
# makes Caddy 2.6 keep the worker's stream open after the screen has gone (its ignoreClientGoneContext), so a
# closed screen would hold its stream slot (tests/integration/test_workers.py checks that it is freed).


def caddyfile(ports: Sequence[int], port: int, bind: str | None = None) -> str:
    """The Caddyfile of a proxy listening on `port` (all interfaces, or `bind`) in front of workers 1..N
    listening on 127.0.0.1 at `ports` (in worker order)."""
    upstream = [f"127.0.0.1:{p}" for p in ports]
    lines = [
        f"# gmtool: one address in front of {len(ports)} gmtool workers (gmtool proxy-config; README, Many tables).",
        "# Each session is served by the one worker that owns its id: worker k >= 2 owns the ids that",
        "# begin with wk-, worker 1 every other id.",
        "{",
        "\tadmin off",  # no admin endpoint on :2019 (several proxies, or another Caddy, may run on one machine)
        "\tauto_https off",  # plain HTTP on the LAN (../shared/STACK.md: phones, cookies)
        f"\tgrace_period {GRACE_PERIOD}",  # open event streams never end by themselves
        "\tlog default {",
        "\t\tlevel ERROR",
        "\t}",
        "}",
        "",
        "(gmtool_upstream) {",
        "\ttransport http {",
        "\t\tcompression off",  # the client's own Accept-Encoding reaches the worker (gzip streams as asked)
        "\t}",
        "}",
        "",
        f"http://:{port} {{",
    ]
    if bind:
        lines.append(f"\tbind {bind}")
    for worker in range(len(ports), 1, -1):
        lines.append(f"\t@worker{worker} path_regexp worker{worker} {owned_paths(worker)}")
    lines.append(f"\t@worker1 path_regexp worker1 {session_paths()}")
    lines.append("\troute {")
    for worker in range(len(ports), 0, -1):
        lines += [f"\t\treverse_proxy @worker{worker} {upstream[worker - 1]} {{",
                  "\t\t\timport gmtool_upstream",
                  "\t\t}"]
    lines += [f"\t\treverse_proxy {' '.join(upstream)} {{",
              "\t\t\tlb_policy header Idempotency-Key",
              "\t\t\tlb_try_duration 2s",  # a worker that is down or restarting is skipped
              "\t\t\tfail_duration 10s",
              "\t\t\timport gmtool_upstream",
              "\t\t}",
              "\t}",
              "}",
              ""]
    return "\n".join(lines)
