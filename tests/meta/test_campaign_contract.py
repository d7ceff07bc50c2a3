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
