"""Choosing the LAN address phones will use (../shared/STACK.md: ifaddr, then the UDP trick)."""

from __future__ import annotations

import ipaddress
import socket

import ifaddr


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses that phones could reach (no loopback, no link-local)."""
    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue
            addr = ipaddress.ip_address(ip.ip)
            if addr.is_loopback or addr.is_link_local or addr.is_unspecified:
                continue
            if ip.ip not in found:
                found.append(ip.ip)
    return found


def _routed_address() -> str | None:
    """The address the OS would use for outside traffic (no packet is sent)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def choose_lan_address(preferred: str | None = None) -> tuple[str | None, list[str]]:
    """(the address to print in join URLs, every candidate); None when there is none."""
    candidates = lan_addresses()
    if preferred:
        return preferred, candidates
    routed = _routed_address()
    if routed in candidates:
        return routed, candidates
    private = [a for a in candidates if ipaddress.ip_address(a).is_private]
    return (private or candidates or [None])[0], candidates
