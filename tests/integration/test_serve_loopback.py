"""Issue 12: `gmtool serve` on a loopback host says phones cannot reach it and which flag fixes it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gmtool.cli import is_loopback


def _banner(tmp_path, host: str) -> str:
    proc = subprocess.Popen([sys.executable, "-m", "gmtool", "serve", "--no-browser", "--host", host, "--port", "0",
                             "--data", str(tmp_path / "sessions")], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    lines = []
    try:
        for line in proc.stdout:
            lines.append(line)
            if "data:" in line or len(lines) > 20:
                break
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        proc.stdout.close()
    return "".join(lines)


def test_serve_on_loopback_warns_in_both_languages(tmp_path):
    out = _banner(tmp_path, "127.0.0.1")
    assert "スマホからは接続できません" in out and "phones cannot connect" in out
    assert "--host 0.0.0.0" in out
    assert "LAN address for phones" not in out  # 127.0.0.1 is never offered as the phones' address


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("[::1]", True),
                                            ("localhost", True), ("0.0.0.0", False), ("192.168.1.10", False),
                                            ("::", False), ("gm-laptop", False)])
def test_is_loopback(host, loopback):
    assert is_loopback(host) is loopback
