"""The URLs gmtool hands out (base "" gives paths, for when no address is known yet)."""

from __future__ import annotations


def join_url(base: str, session_id: str, token: str) -> str:
    """A seat's join URL."""
    return f"{base}/join/{session_id}?k={token}"


def table_url(base: str, session_id: str, token: str) -> str:
    """The table screen's URL."""
    return f"{base}/s/{session_id}/table?k={token}"


def gm_url(base: str, session_id: str, token: str) -> str:
    """The GM console's URL."""
    return f"{base}/s/{session_id}/gm?k={token}"


def created(live, tokens: dict, base: str) -> dict:
    """What `gmtool new --json` and `POST /api/sessions` answer (the seats `tokens` has links of: the session's seats
    when it was made, for the repeat of the request that made it)."""
    sid = live.state.session_id
    return {
        "session": sid,
        "title": live.state.title,
        "ruleset": live.state.ruleset,
        "gm_url": gm_url(base, sid, tokens["gm"]),
        "gm_token": tokens["gm"],
        "table_url": table_url(base, sid, tokens["table"]),
        "table_token": tokens["table"],
        "seats": [{"id": seat.id, "name": seat.name, "faction": seat.faction, "token": tokens["seats"][seat.id],
                   "join_url": join_url(base, sid, tokens["seats"][seat.id])}
                  for seat in live.state.seats.values() if seat.id in tokens["seats"]],
    }
