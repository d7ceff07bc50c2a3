"""Meta-test of campaigns over every registered ruleset: the next session (POST …/continue) starts from a
session with a marker in every secret (the leak probe's and core's), and nothing it carries reaches a
viewer who may not see it; last week's tokens do not open it. A ruleset's `carry_over` is checked here
without new test code, like the rest of the contract (test_contract.py)."""

from __future__ import annotations

import pytest
from gmtool_testing import bearer
from test_contract import RULESETS, Table, _check, _plant

from gmtool.export import FORMAT_NAMES


@pytest.mark.parametrize("name", RULESETS)
def test_a_continued_session_carries_no_secret_where_it_must_not_be(client, name):
    table, secrets, _probe = _plant(client, name)
    response = client.post(f"/api/sessions/{table.sid}/continue", headers=bearer(table.tokens["gm"]), json={})
    assert response.status_code == 201, response.get_json()
    following = Table(client, response.get_json())
    assert following.seats == table.seats
    gm = bearer(following.tokens["gm"])
    public = {f"export {f}": client.get(f"/api/sessions/{following.sid}/export?format={f}", headers=gm)
              .get_data(as_text=True) for f in FORMAT_NAMES}
    public["campaign export"] = client.get(f"/api/sessions/{following.sid}/export?format=markdown&campaign=1",
                                           headers=gm).get_data(as_text=True)
    public["campaign list"] = client.get(f"/api/sessions/{following.sid}/campaign", headers=gm).get_data(as_text=True)
    _check(public, "table", secrets, revealed=False)
    for who in ["table", *following.seats]:
        token = bearer(following.tokens[who])
        seen = {path: client.get(f"/api/sessions/{following.sid}/{path}", headers=token).get_data(as_text=True)
                for path in ("state", "log?limit=1000")}
        _check(seen, who, secrets, revealed=False)
    for who, token in table.tokens.items():  # last week's links open last week only
        if who != "gm":
            assert client.get(f"/api/sessions/{following.sid}/state", headers=bearer(token)).status_code == 403


@pytest.mark.parametrize("name", RULESETS)
def test_a_continued_session_carries_exactly_what_its_ruleset_declares(client, name):
    """Every counter of the next session holds what `carry_over` declares for it, else its start value;
    a game with its own counters (all but generic, whose GM picks them) declares what carries."""
    from gmtool.core.campaign import carry_of
    from gmtool.rulesets import get as get_ruleset
    ruleset = get_ruleset(name)
    assert ruleset.custom_counters or ruleset.carry_over is not None, f"{name} declares no carry_over"
    table, _secrets, _probe = _plant(client, name)
    gm = bearer(table.tokens["gm"])
    for seat in table.seats:  # move every counter off its start, as an evening does
        for counter in client.get(f"/api/sessions/{table.sid}/state", headers=gm).get_json()["counters"]:
            value = counter["start"] + 1 if counter.get("max") is None or counter["start"] < counter["max"] \
                else counter["start"] - 1
            client.post(f"/api/sessions/{table.sid}/counters", headers=gm,
                        json={"seat": seat, "key": counter["key"], "value": value, "reason": "evening"})
    manager = client.application.extensions["gmtool"]
    previous = manager.get(table.sid).state
    carried = carry_of(previous).counters
    response = client.post(f"/api/sessions/{table.sid}/continue", headers=gm, json={})
    assert response.status_code == 201, response.get_json()
    following = manager.get(response.get_json()["session"]).state
    for seat in table.seats:
        for key, value in following.counters[seat].items():
            expected = carried.get(seat, {}).get(key, following.counter_def(key).start)
            assert value == expected, (name, seat, key, value, expected)


@pytest.mark.parametrize("name", ["ace_royal", "succession", "illuminati"])
def test_a_game_that_ends_each_evening_starts_the_next_afresh(client, name):
    """Ace Royal (A), Grail Succession (G) and Illuminati (I) keep no score from one game to the next:
    a continued session has the same seats and readings, every counter at its start and no game set up
    (a probe's game played, a counter moved and a reading switched first)."""
    table, _secrets, _probe = _plant(client, name)
    gm = bearer(table.tokens["gm"])
    manager = client.application.extensions["gmtool"]
    if name == "succession":  # no secrets, no probe: the GM sets a game up and the first player plays
        table.act("setup", {"first": table.seats[0], "row": ["5", "6"]})
        table.act("play", {"card": "7"})
    previous = manager.get(table.sid).state
    assert previous.extra, "a game is set up"
    counter = next(iter(previous.counters[table.seats[0]]))
    start = previous.counter_def(counter).start
    client.post(f"/api/sessions/{table.sid}/counters", headers=gm,
                json={"seat": table.seats[0], "key": counter, "value": start + 1, "reason": "evening"})
    reading = next(r for r in previous.rules.readings if len(r.choices) > 1)
    other = next(c.value for c in reading.choices if c.value != reading.default)
    assert client.post(f"/api/sessions/{table.sid}/readings", headers=gm,
                       json={"key": reading.key, "value": other}).status_code == 200
    response = client.post(f"/api/sessions/{table.sid}/continue", headers=gm, json={})
    assert response.status_code == 201, response.get_json()
    following = manager.get(response.get_json()["session"]).state
    assert [(s.id, s.name) for s in following.seats.values()] == [(s.id, s.name) for s in previous.seats.values()]
    assert all(value == following.counter_def(key).start
               for seat in following.seats for key, value in following.counters[seat].items())
    assert following.flags == {} or all(not flags for flags in following.flags.values())
    assert following.extra == {}  # no game carried: the GM sets the next one up
    assert following.readings.get(reading.key) == other  # the table's readings carry (core)
