"""`gmtool serve --workers N`: N gmtool processes, each owning a share of the sessions (gmtool/ownership.py),
behind one address served by Caddy (gmtool/proxy.py). One process uses one core; sessions are independent,
so a convention's tables spread over the cores.

This process starts the workers on free ports of 127.0.0.1 (sharing the data folder and its GM key), writes
the Caddyfile, runs `caddy run` on the public port, prints the same addresses a single server prints, and
then watches: a worker that stops is reported and started again on its port (its sessions are reloaded
from their files on the next request); Caddy stopping ends everything. Ctrl+C, SIGTERM or closing the
terminal (SIGHUP) stops Caddy and every worker.

If this process is killed outright (SIGKILL, the task manager's "end task", out of memory) it cannot stop
the others: each worker holds the read end of a pipe from it (its stdin, `--watch-parent`), told Caddy's
process id through it; when the pipe ends, which the system does when this process ends however it ends,
the worker stops Caddy and then itself (`watch_parent`), so no orphan keeps the port or the session files.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

WATCH_INTERVAL = 0.5     # seconds between two looks at the processes
START_TIMEOUT = 30.0     # seconds the workers and Caddy have to start listening
STOP_TIMEOUT = 10.0      # seconds a process has to stop after SIGTERM before it is killed
QUICK_FAILURE = 10.0     # a worker that stops within this many seconds of its start failed to start
QUICK_FAILURES = 3       # ... and after this many such failures in a row it is not started again

CADDY_MISSING = (
    "caddy が見つかりません。--workers には Caddy（無料の単体プログラム）が必要です。インストール方法:\n"
    "  Windows: winget install CaddyServer.Caddy （または scoop install caddy）\n"
    "  macOS:   brew install caddy\n"
    "  Debian / Ubuntu: sudo apt install caddy\n"
    "PATH にない場合は --caddy でプログラムの場所を指定してください。自分のプロキシを使う場合は gmtool proxy-config。\n"
    "caddy was not found: --workers needs Caddy (a free single-file program). Install it with:\n"
    "  Windows: winget install CaddyServer.Caddy  (or: scoop install caddy)\n"
    "  macOS:   brew install caddy\n"
    "  Debian / Ubuntu: sudo apt install caddy\n"
    "If it is not on PATH, give its location with --caddy. To use your own proxy: gmtool proxy-config."
)


@dataclass
class Worker:
    """One gmtool worker process and how to start it again."""

    index: int
    port: int
    command: list[str]
    proc: subprocess.Popen | None = None
    started: float = 0.0
    quick_failures: int = 0
    given_up: bool = False

    def start(self, proxy_pid: int | None = None) -> None:
        """Start (or restart) the process, with a pipe it watches (`watch_parent`) and, when known, Caddy's pid."""
        if self.proc is not None and self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE)
        self.started = time.monotonic()
        if proxy_pid is not None:
            self.tell_proxy(proxy_pid)

    def tell_proxy(self, pid: int) -> None:
        """Tell the worker Caddy's process id (it stops Caddy if this process ends without doing so)."""
        try:
            self.proc.stdin.write(b"%d\n" % pid)
            self.proc.stdin.flush()
        except OSError:  # the worker has stopped already: it is started again and told then
            pass


@dataclass
class Cluster:
    """The workers and the proxy in front of them."""

    workers: list[Worker]
    caddy_command: list[str]
    caddy: subprocess.Popen | None = None
    config_dir: Path | None = None

    def processes(self) -> list[subprocess.Popen]:
        """Every process started, the proxy first."""
        return [p for p in [self.caddy, *(w.proc for w in self.workers)] if p is not None]

    def stop(self) -> None:
        """Stop the proxy (new requests end) and then every worker; kill what does not stop in time."""
        for proc in self.processes():
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + STOP_TIMEOUT
        for proc in self.processes():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self.config_dir is not None:
            shutil.rmtree(self.config_dir, ignore_errors=True)


def free_ports(count: int, avoid: tuple[int, ...] = ()) -> list[int]:
    """`count` different ports of 127.0.0.1 that nothing listens on now, none of them in `avoid`. The sockets are
    held open until all are chosen: one bound and closed at a time, the system may hand out the same port twice
    (two workers were once given one port, and the second could not listen)."""
    with contextlib.ExitStack() as held:
        ports: list[int] = []
        while len(ports) < count:
            s = held.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            s.bind(("127.0.0.1", 0))
            if s.getsockname()[1] not in avoid:
                ports.append(s.getsockname()[1])
        return ports


def is_listening(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:`port`."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def worker_command(args, worker: int, port: int, public: str | None) -> list[str]:
    """The command line of worker `worker`: the parent's server settings, on 127.0.0.1:`port`."""
    command = [sys.executable, "-m", "gmtool", "serve", "--workers", str(args.workers), "--worker", str(worker),
               "--watch-parent",
               "--host", "127.0.0.1", "--port", str(port), "--data", str(args.data), "--no-browser",
               "--threads", str(args.threads), "--max-streams", str(args.max_streams),
               "--channel-timeout", str(args.channel_timeout), "--sync", args.sync]
    if args.connection_limit:
        command += ["--connection-limit", str(args.connection_limit)]
    if public:
        command += ["--public-base", public]
    return command


def say(ja: str, en: str) -> None:
    """A message about the processes, in both languages."""
    print(f"  {ja}\n  {en}", file=sys.stderr, flush=True)


def wait_until_listening(cluster: Cluster, proxy_port: int) -> bool:
    """Wait until every worker and the proxy listen; False (after saying which) if one stopped or timed out."""
    deadline = time.monotonic() + START_TIMEOUT
    waiting = {f"worker {w.index}": (w.proc, w.port) for w in cluster.workers}
    waiting["caddy"] = (cluster.caddy, proxy_port)
    while waiting and time.monotonic() < deadline:
        for name, (proc, port) in list(waiting.items()):
            if proc.poll() is not None:
                say(f"{name} が起動できませんでした（終了コード {proc.returncode}）",
                    f"{name} could not start (exit code {proc.returncode})")
                return False
            if is_listening(port):
                del waiting[name]
        time.sleep(0.1)
    if waiting:
        say(f"{', '.join(waiting)} が{START_TIMEOUT:.0f}秒以内に起動しませんでした",
            f"{', '.join(waiting)} did not start within {START_TIMEOUT:.0f} s")
    return not waiting


def watch(cluster: Cluster) -> int:
    """Until Caddy stops: report every worker that stops and start it again (not after repeated quick failures)."""
    while True:
        time.sleep(WATCH_INTERVAL)
        if cluster.caddy.poll() is not None:
            say(f"Caddy が終了しました（終了コード {cluster.caddy.returncode}）。すべて停止します",
                f"Caddy stopped (exit code {cluster.caddy.returncode}); stopping everything")
            return 1
        for worker in cluster.workers:
            if worker.given_up or worker.proc.poll() is None:
                continue
            code = worker.proc.returncode
            quick = time.monotonic() - worker.started < QUICK_FAILURE
            worker.quick_failures = worker.quick_failures + 1 if quick else 0
            if worker.quick_failures >= QUICK_FAILURES:
                worker.given_up = True
                say(f"ワーカー{worker.index}が起動直後に繰り返し終了しました（終了コード {code}）。再起動しません。"
                    "このワーカーのセッションは gmtool を起動し直すまで使えません",
                    f"Worker {worker.index} keeps stopping right after it starts (exit code {code}); not restarting it. "
                    "Its sessions are unavailable until gmtool is restarted")
                continue
            say(f"ワーカー{worker.index}が終了しました（終了コード {code}）。再起動します",
                f"Worker {worker.index} stopped (exit code {code}); restarting it")
            worker.start(cluster.caddy.pid)


def serve_workers(args) -> int:
    """Run `args.workers` gmtool workers behind Caddy on args.host:args.port until Ctrl+C / SIGTERM."""
    from .cli import _demo, _port_problem, port_refused, print_banner, public_base, stop_on_signals
    from .proxy import caddyfile
    from .runtime import SessionManager, admin_key

    caddy = shutil.which(args.caddy or "caddy")
    if not caddy:
        print(CADDY_MISSING, file=sys.stderr)
        return 2
    port = args.port or free_ports(1)[0]  # --port 0: a free port, chosen here since Caddy needs a number
    problem = _port_problem(args.host, port)
    if problem:
        port_refused(port, problem)
        return 2
    public, lan, candidates = public_base(args, port)
    key = admin_key(Path(args.data))  # made once here, before the workers read it
    demo = ""
    if args.demo:  # made here with ids no worker marks: worker 1 owns them
        manager = SessionManager(Path(args.data))
        demo = _demo(manager)
        manager.close_all()
    ports = free_ports(args.workers, avoid=(port,))
    workers = [Worker(k, p, worker_command(args, k, p, public)) for k, p in enumerate(ports, 1)]
    config_dir = Path(tempfile.mkdtemp(prefix="gmtool-caddy-"))
    config = config_dir / "Caddyfile"
    bind = None if args.host in ("0.0.0.0", "::", "") else args.host
    config.write_text(caddyfile(ports, port, bind), encoding="utf-8")
    cluster = Cluster(workers, [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
                      config_dir=config_dir)
    stop_on_signals()
    try:
        for worker in workers:
            worker.start()
        cluster.caddy = subprocess.Popen(cluster.caddy_command)
        for worker in workers:
            worker.tell_proxy(cluster.caddy.pid)
        if not wait_until_listening(cluster, port):
            return 1
        # Caddy has read its configuration: nothing is left in the temporary folder even if this process is
        # killed outright later (the workers then stop Caddy, but cannot know the folder)
        shutil.rmtree(config_dir, ignore_errors=True)
        print_banner(args, port, key, public, lan, candidates, demo)
        print(f"  proxy: {caddy} (Caddy) on port {port}, {args.workers} workers", flush=True)
        return watch(cluster)
    except KeyboardInterrupt:
        return 0
    finally:
        cluster.stop()


def watch_parent(fd: int = 0) -> None:
    """In a worker started with --watch-parent: a thread that reads the parent's pipe (descriptor `fd`, its stdin:
    Caddy's process id, one line each time it is told) until it ends, which means the parent has ended; then it
    stops Caddy, if the parent could not, and this worker as SIGTERM would (its sessions closed). The pipe is read
    raw (os.read), not through sys.stdin: a thread blocked in a buffered read would hold its lock when the worker
    exits normally and abort the interpreter's shutdown."""
    import _thread
    import os
    import signal
    import threading

    def watch() -> None:
        proxy, pending = None, b""
        while True:
            try:
                data = os.read(fd, 64)
            except OSError:
                data = b""
            if not data:
                break
            pending += data
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.strip().isdigit():
                    proxy = int(line)
        if proxy is not None:
            try:
                os.kill(proxy, signal.SIGTERM)  # on Windows: TerminateProcess
            except OSError:  # stopped already (by the parent, or by another worker)
                pass
        # SIGTERM, not SIGINT: a worker started in the background may ignore SIGINT (stop_on_signals turns SIGTERM
        # into KeyboardInterrupt in the main thread, within waitress's loop timeout)
        _thread.interrupt_main(signal.SIGTERM)

    threading.Thread(target=watch, name="gmtool-parent-watch", daemon=True).start()
