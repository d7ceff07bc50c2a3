"""The command line: gmtool serve | proxy-config | new | list | export | import | bench."""

from __future__ import annotations

import argparse
import ipaddress
import json
import sys
import webbrowser
from pathlib import Path

DEFAULT_PORT = 8000


def _manager(data: str):
    from .runtime import SessionManager
    return SessionManager(Path(data))


def cmd_new(args) -> int:
    """Create a session before the game and print its links."""
    from .core.errors import GmError
    from .rulesets import get as get_ruleset
    from .setup import counters_for, parse_seats
    from .urls import created
    try:
        if args.from_session:
            if args.seat or args.counter or args.ruleset:
                raise GmError("--from は前回の席・カウンター・ルールを使います（--seat / --counter / --ruleset とは併用できません）",
                              "--from takes the previous session's seats, counters and ruleset "
                              "(not with --seat / --counter / --ruleset)")
            live, tokens = _manager(args.data).continue_from(args.from_session, args.title)
        else:
            if not args.title:
                raise GmError("--title を指定してください", "Give --title")
            ruleset = get_ruleset(args.ruleset or "generic")
            counters = counters_for(ruleset, args.counter) if args.counter else None
            live, tokens = _manager(args.data).create(args.title, ruleset.name, parse_seats(args.seat or []),
                                                      counters)
    except GmError as e:
        print(str(e), file=sys.stderr)
        return 2
    out = created(live, tokens, args.base or "")
    if args.from_session:
        out["previous"] = args.from_session
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(f"{out['title']}  ({out['session']})")
        _print_links(out)
    return 0


def _print_links(out: dict) -> None:
    """The links of a session just made or imported (`urls.created`), one a line, for a person to read."""
    print(f"  GM:    {out['gm_url']}")
    print(f"  table: {out['table_url']}")
    for seat in out["seats"]:
        print(f"  {seat['name']}: {seat['join_url']}")


def cmd_list(args) -> int:
    """List the sessions in the data folder."""
    sessions = _manager(args.data).list()
    if args.json:
        print(json.dumps(sessions, ensure_ascii=False, indent=2))
    elif not sessions:
        print("セッションはまだありません / no sessions yet")
    for s in sessions if not args.json else []:
        damaged = "  [壊れています・開けません / damaged: cannot be opened]" if s["damaged"] else ""
        print(f"{s['id']}  {s['created'][:16]}  {s['ruleset']}  {s['title']}{damaged}")
    return 0


def cmd_export(args) -> int:
    """Write a session's log in a wiki format (standard output without --out)."""
    from .core.errors import GmError
    try:
        text = _export_text(args, _manager(args.data))
    except GmError as e:
        print(str(e), file=sys.stderr)
        return 2
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


def _export_text(args, manager) -> str:
    """What `gmtool export` writes: a session's write-up or JSON, its campaign's, or a damaged session's readable
    part (--salvage, as the home page's 読める部分をJSONで書き出す)."""
    from .core.errors import GmError
    from .export import Options, export_campaign
    from .store import local_utc_offset
    if args.salvage:
        if args.campaign or args.format != "json":
            raise GmError("--salvage は --format json で1セッションずつ書き出します",
                          "--salvage writes one session's JSON backup (--format json)")
        return manager.salvage(args.session)
    live = manager.get(args.session)
    options = Options(lang=args.lang, times=not args.no_times, names=args.names, scene=args.scene,
                      utc_offset=local_utc_offset(), secret_rolls=args.secret_rolls, standings=args.standings)
    if args.campaign:
        if args.full:
            raise GmError("--full はセッションごとです", "--full is one session at a time")
        return export_campaign(manager.campaign_logs(args.session), args.format, options)
    return live.export(args.format, options, args.full)


def cmd_import(args) -> int:
    """Load a JSON export into this data folder."""
    from .core.errors import GmError
    from .urls import created
    from .web import create_app
    from .web.screens import import_checked
    app = create_app({"DATA_DIR": args.data, "ADMIN_KEY": "cli-import"})  # to show each screen once
    try:
        text = Path(args.file).read_text(encoding="utf-8", errors="surrogateescape")
        with app.test_request_context("/"):
            live, tokens = import_checked(app.extensions["gmtool"], text, restore_tokens=args.restore_tokens)
    except (GmError, OSError) as e:
        print(str(e), file=sys.stderr)
        app.extensions["gmtool"].close_all()
        return 2
    out = {"session": live.state.session_id, "title": live.state.title, "restored_tokens": tokens is None}
    if tokens is not None:
        out.update(created(live, tokens, args.base or ""))
    app.extensions["gmtool"].close_all()
    if args.json:
        print(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        print(f"imported {out['session']}: {out['title']}")
        if tokens is not None:  # new links: the old ones do not open it
            _print_links(out)
    return 0


DEMO_FILE = ".demo.json"  # in the data folder: the ids of the demo sessions `--demo` made there


def _demo(manager) -> str:
    """A ready sample session of every ruleset that declares a demo, made once per data folder and reused by
    every later `--demo` (one that was deleted is made again); returns the generic one's id."""
    from .driver import make_demo
    from .rulesets import registry
    path = manager.data_dir / DEMO_FILE
    try:
        made = {str(k): str(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    except (OSError, ValueError, AttributeError):
        made = {}  # none yet
    first = ""
    for name, ruleset in registry().items():
        if ruleset.demo is None:
            continue
        if not (made.get(name) and manager.path_of(made[name]).exists()):
            made[name] = make_demo(manager, name)[0].state.session_id
        if name == "generic" or not first:
            first = made[name]
    path.write_text(json.dumps(made), encoding="utf-8")
    return first


def _port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port, or None (checked before waitress starts)."""
    import socket
    if port == 0:
        return None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as e:
            return str(e)
    return None


STREAM_HEADROOM = 400  # connections beyond the stream cap: page loads, actions, polling, half-open sockets
DEFAULT_THREADS = 24    # threads serving requests (live streams are written by one more: web/streams.py)
DEFAULT_MAX_STREAMS = 250  # live streams (open screens) before the next ones poll
CHANNEL_TIMEOUT = 20    # seconds a connection may sit idle or half-sent before it is closed


def server_settings(threads: int, max_streams: int, connection_limit: int | None = None,
                    channel_timeout: int = CHANNEL_TIMEOUT) -> dict:
    """waitress settings that keep a LAN server available (docs/api.md, "Limits and errors"): a read
    timeout for requests that never finish, a connection limit sized for the stream cap with room
    for ordinary requests, and the body cap checked on Content-Length before the body is read."""
    from .limits import MAX_UPLOAD_BODY
    return {"threads": threads,
            "connection_limit": connection_limit or max_streams + STREAM_HEADROOM,
            "channel_timeout": channel_timeout,
            "cleanup_interval": max(1, min(5, channel_timeout)),  # how often idle connections are checked
            # the import form's body, MAX_UPLOAD_BODY bytes, is the largest (the app holds every other route to
            # MAX_BODY); waitress refuses a body of max_request_body_size bytes or more, hence the + 1
            "max_request_body_size": MAX_UPLOAD_BODY + 1,
            "max_request_header_size": 64 * 1024,
            "channel_request_lookahead": 1,
            # poll(), not select(): the live streams' sockets (web/streams.py) count towards the process's file
            # descriptors, and select() cannot watch one numbered 1024 or more (Windows has no poll: select there)
            "asyncore_use_poll": True,
            "ident": "gmtool"}


def raise_file_limit(wanted: int) -> None:
    """Raise the soft limit of open files towards `wanted` (POSIX; each connection is one)."""
    try:
        import resource
    except ImportError:  # Windows
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this computer only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def public_base(args, port: int) -> tuple[str | None, str | None, list[str]]:
    """(the base URL phones use, the LAN address, every candidate) for a server listening on `port`."""
    from .netaddr import choose_lan_address
    if getattr(args, "public_base", None):
        return args.public_base.rstrip("/"), None, []
    lan, candidates = choose_lan_address(args.lan_ip)
    if args.host in ("0.0.0.0", "::", ""):
        return (f"http://{lan}:{port}" if lan else None), lan, candidates
    return f"http://{args.host}:{port}", lan, candidates


def print_banner(args, port: int, key: str, public: str | None, lan: str | None, candidates: list[str],
                 demo: str = "") -> str:
    """Print where the GM console and phones reach the server (one process or a proxy); returns the console URL."""
    host = args.host
    local = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}"
    console = f"{local}/?k={key}"
    if demo:
        console += f"&next=/s/{demo}/gm"
    print("gmtool — GM assistant", flush=True)
    print(f"  GM console (this computer): {console}", flush=True)
    if is_loopback(host):
        print(f"  警告: {host} はこのパソコンの中だけのアドレスです。スマホからは接続できません"
              "（QRコードも使えません）。--host 0.0.0.0（既定）で起動し直してください。", flush=True)
        print(f"  WARNING: {host} is this computer only: phones cannot connect (the QR codes will not work). "
              "Restart with --host 0.0.0.0 (the default).", flush=True)
    elif public:
        print(f"  LAN address for phones:    {public}", flush=True)
        others = [c for c in candidates if c != lan]
        if others:
            print(f"  other addresses: {', '.join(others)}  (choose with --lan-ip)", flush=True)
    else:
        print("  警告: LANのアドレスが見つかりません。スマホから接続できない可能性があります。", flush=True)
        print("  WARNING: no LAN address found; phones may not be able to connect (see README).", flush=True)
    print(f"  data: {Path(args.data).resolve()}   (Ctrl+C to stop)", flush=True)
    if not args.no_browser:
        webbrowser.open(console)
    return console


def port_refused(port: int, problem: str) -> None:
    """Say (in both languages) that the server cannot listen on `port`."""
    print(f"ポート{port}で待ち受けできません（使用中？ --port で別の番号を）/ "
          f"Cannot listen on port {port} (in use? pick another with --port): {problem}", file=sys.stderr)


def stop_on_signals() -> None:
    """Make SIGTERM, and SIGHUP where there is one (the terminal window closed), stop the server as Ctrl+C
    does: its sessions are closed, its workers and proxy stopped (Caddy ignores SIGHUP: left alone it would
    keep the port after its terminal closed)."""
    import signal

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt
    for name in ("SIGTERM", "SIGHUP"):
        try:
            signal.signal(getattr(signal, name), interrupt)
        except (ValueError, AttributeError):  # not the main thread, or no such signal (Windows has no SIGHUP)
            pass


def cmd_serve(args) -> int:
    """Serve the GM console, table screen and phones on the LAN with waitress (several worker processes behind
    Caddy with --workers N: gmtool/workers.py)."""
    from .core.errors import GmError
    from .ownership import Ownership
    if args.worker is None and args.workers > 1:
        from .workers import serve_workers
        return serve_workers(args)
    try:
        ownership = Ownership(args.worker, args.workers) if args.worker is not None else Ownership()
    except ValueError:
        print(str(GmError(f"--worker は1から--workers（{args.workers}）までです",
                          f"--worker must be between 1 and --workers ({args.workers})")), file=sys.stderr)
        return 2
    from .serving import TRUSTED, ClientLimits, make_server

    from .web import create_app

    host = args.host
    if ownership.is_single:
        public, lan, candidates = public_base(args, args.port)
    else:  # behind a proxy: its address as given, else the Host header the proxy passes on (README, Many tables)
        public, lan, candidates = args.public_base, None, []
    app = create_app({"DATA_DIR": args.data, "PUBLIC_BASE": public, "MAX_STREAMS": args.max_streams,
                      "SYNCHRONOUS": args.sync.upper(), "OWNERSHIP": ownership})
    manager = app.extensions["gmtool"]
    key = app.config["ADMIN_KEY"]
    problem = _port_problem(host, args.port)
    if problem:
        port_refused(args.port, problem)
        manager.close_all()
        return 2
    settings = server_settings(args.threads, args.max_streams, args.connection_limit, args.channel_timeout)
    raise_file_limit(settings["connection_limit"] + args.max_streams + args.threads + 64)  # streams leave waitress
    limits = ClientLimits(trusted=TRUSTED | frozenset(args.trusted_proxy))
    server = make_server(app, host=host, port=args.port, client_limits=limits, **settings)
    port = server.effective_port
    if public and port != args.port and not args.public_base:  # --port 0: the OS chose the port
        public = public.rsplit(":", 1)[0] + f":{port}"
        app.config["PUBLIC_BASE"] = public
    if ownership.is_single:
        print_banner(args, port, key, public, lan, candidates, _demo(manager) if args.demo else "")
    else:
        print(f"  worker {ownership.worker}/{ownership.workers}: http://{host}:{port}  (links: {public or 'request host'})",
              flush=True)
    stop_on_signals()
    try:
        if args.watch_parent:  # a worker of `gmtool serve --workers N`: it ends with its parent
            from .workers import watch_parent
            watch_parent()
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        manager.stop()
    return 0


def cmd_proxy_config(args) -> int:
    """Print the Caddyfile that puts one address in front of N workers run by hand (README, Many tables)."""
    from .proxy import caddyfile
    ports = [args.first_port + k for k in range(args.workers)]
    bind = None if args.host in ("0.0.0.0", "::", "") else args.host
    sys.stdout.write(caddyfile(ports, args.port, bind))
    print("# Start the workers (each in its own terminal or service), with the address phones use:")
    for k, p in enumerate(ports, 1):
        print(f"#   gmtool serve --workers {args.workers} --worker {k} --host 127.0.0.1 --port {p} "
              f"--data {args.data} --public-base http://LAN-ADDRESS:{args.port} --no-browser")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = argparse.ArgumentParser(prog="gmtool", description="GM assistant for live tabletop sessions")
    sub = parser.add_subparsers(dest="command")

    serve = sub.add_parser("serve", help="run the server on the LAN")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, for the LAN)")
    serve.add_argument("--port", type=int, default=DEFAULT_PORT)
    serve.add_argument("--data", default="sessions", help="folder with one SQLite file per session")
    serve.add_argument("--lan-ip", help="the address phones use (default: chosen automatically)")
    serve.add_argument("--no-browser", action="store_true", help="do not open the GM console")
    serve.add_argument("--demo", action="store_true", help="open the sample sessions (made once per data folder, then reused)")
    serve.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                       help=f"threads serving requests (default {DEFAULT_THREADS}); live streams need none of them")
    serve.add_argument("--max-streams", type=int, default=DEFAULT_MAX_STREAMS,
                       help=f"live streams before screens fall back to polling (default {DEFAULT_MAX_STREAMS}: "
                            f"25 tables of ten screens)")
    serve.add_argument("--connection-limit", type=int, default=None,
                       help=f"open connections at most (default: --max-streams + {STREAM_HEADROOM})")
    serve.add_argument("--channel-timeout", type=int, default=CHANNEL_TIMEOUT,
                       help=f"seconds before an idle or unfinished request's connection is closed "
                            f"(default {CHANNEL_TIMEOUT})")
    serve.add_argument("--sync", choices=["normal", "full"], default="normal",
                       help="normal: no action lost when the process is killed; full: also on power loss (slower)")
    serve.add_argument("--workers", type=int, default=1,
                       help="run N worker processes behind one address (needs caddy; README, Many tables)")
    serve.add_argument("--worker", type=int, default=None,
                       help="be worker K of --workers N only (for your own proxy: gmtool proxy-config)")
    serve.add_argument("--watch-parent", action="store_true", help=argparse.SUPPRESS)  # workers.watch_parent
    serve.add_argument("--public-base", help="the base URL of links and QR codes (behind a proxy: the proxy's)")
    serve.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDRESS",
                       help="the address of a reverse proxy on another machine, whose connections carry every "
                            "phone's: not held to one device's share of connections and requests (repeatable; "
                            "this machine's own addresses are always trusted, and so is the Caddy of --workers)")
    serve.add_argument("--caddy", help="the caddy program for --workers (default: caddy on PATH)")
    serve.set_defaults(func=cmd_serve)

    proxy = sub.add_parser("proxy-config", help="print a Caddyfile for N workers behind one address")
    proxy.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    proxy.add_argument("--port", type=int, default=DEFAULT_PORT, help="the proxy's port (default 8000)")
    proxy.add_argument("--host", default="0.0.0.0", help="address the proxy listens on (default: all)")
    proxy.add_argument("--first-port", type=int, default=DEFAULT_PORT + 1,
                       help="worker 1's port on 127.0.0.1; worker k listens on first-port + k - 1 (default 8001)")
    proxy.add_argument("--data", default="sessions", help="the data folder the workers share (for the commands)")
    proxy.set_defaults(func=cmd_proxy_config)

    new = sub.add_parser("new", help="create a session")
    new.add_argument("--ruleset", help="the game (default: generic)")
    new.add_argument("--title", help="the session's title (with --from: default the previous title + （続き）)")
    new.add_argument("--from", dest="from_session", metavar="SESSION",
                     help="continue a campaign: the next session after SESSION, with what its rules carry over")
    new.add_argument("--seat", action="append", help="a seat: 'name' or 'name / faction' (repeat)")
    new.add_argument("--counter", action="append", help="generic: a preset key or 'name,start,min,max' (repeat)")
    new.add_argument("--data", default="sessions")
    new.add_argument("--base", help="the server's base URL for the links (default: paths)")
    new.add_argument("--json", action="store_true")
    new.set_defaults(func=cmd_new)

    exp = sub.add_parser("export", help="export a session's log (wiki write-ups, JSON)")
    exp.add_argument("session")
    exp.add_argument("--format", default="markdown",
                     choices=["markdown", "mediawiki", "atwiki", "text", "html", "json"])
    exp.add_argument("--data", default="sessions")
    exp.add_argument("--out", help="write to FILE instead of standard output")
    exp.add_argument("--lang", default="ja", choices=["ja", "en"])
    exp.add_argument("--no-times", action="store_true", help="leave out the time of each event")
    exp.add_argument("--names", default="player", choices=["player", "faction"])
    exp.add_argument("--scene", type=int, help="only scene N (0: before the first scene marker)")
    exp.add_argument("--secret-rolls", action="store_true", help="include the GM's secret rolls")
    exp.add_argument("--full", action="store_true", help="json: a full backup with secrets (GM only)")
    exp.add_argument("--salvage", action="store_true",
                     help="json: the readable part of a damaged session, as a full backup marked partial")
    exp.add_argument("--standings", default="last", choices=["first", "last"],
                     help="the final standings after the header (first) or at the end (last, the default)")
    exp.add_argument("--campaign", action="store_true",
                     help="every session of SESSION's campaign, first to last (not json)")
    exp.set_defaults(func=cmd_export)

    imp = sub.add_parser("import", help="load a JSON export")
    imp.add_argument("file")
    imp.add_argument("--data", default="sessions")
    imp.add_argument("--base", help="base URL for the printed links")
    imp.add_argument("--json", action="store_true")
    imp.add_argument("--restore-tokens", action="store_true",
                     help="a full backup: keep its links and tokens (default: issue new ones)")
    imp.set_defaults(func=cmd_import)

    bench = sub.add_parser("bench", help="measure latency to every screen, CPU per action, capacity, bytes, overhead, undo, resume (docs/performance.md)")
    bench.add_argument("--tables", type=int, default=20, help="tables for the many-tables fan-out (default 20)")
    bench.add_argument("--phones", type=int, default=8, help="phones per table (default 8)")
    bench.add_argument("--seconds", type=float, default=20.0, help="seconds measured at each pace (default 20)")
    bench.add_argument("--warmup", type=float, default=5.0, help="seconds of warm-up before each measure (default 5)")
    bench.add_argument("--skip-capacity", action="store_true", help="skip stepping the pace to find the capacity")
    bench.add_argument("--pace", type=float, default=1.0,
                       help="seconds between two actions at one table (default 1.0: a brisk table)")
    bench.add_argument("--minutes", type=float, default=0.0, help="also soak one table for M minutes")
    bench.add_argument("--skip-growth", action="store_true", help="skip the 100,000-event growth test")
    bench.add_argument("--crash", type=int, default=0, help="instead: kill -9 the server N times mid-session")
    bench.add_argument("--seed", type=int, default=20261122, help="random seed of the crash points")
    bench.add_argument("--workers", type=int, default=1,
                       help="serve the room with gmtool serve --workers N behind Caddy (default 1: one process)")
    bench.add_argument("--json", action="store_true")
    bench.set_defaults(func=lambda args: __import__("gmtool.benchmark", fromlist=["main"]).main(args))

    lst = sub.add_parser("list", help="list sessions")
    lst.add_argument("--data", default="sessions")
    lst.add_argument("--json", action="store_true")
    lst.set_defaults(func=cmd_list)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `gmtool` command."""
    args = build_parser().parse_args(argv)
    if not getattr(args, "func", None):
        build_parser().print_help()
        return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
