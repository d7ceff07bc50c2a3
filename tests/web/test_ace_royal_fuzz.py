"""Every ace_royal action answers odd payloads with a 4xx (never a 500), in every phase of a game."""

from __future__ import annotations

import random

from gmtool_testing import ADMIN_KEY, bearer

from gmtool.rulesets.ace_royal import RULESET

ODD = [None, "", "x", 0, -1, 99999, 1.5, True, [], [1, 2], {}, {"name": 1}, "1/2/3/4", ["a"], "pass", "all",
       "physical", "s1", "s9", "hero", {"stats": "a"}]
FIELDS = ["seat", "version", "order", "hero", "class", "classes", "pick", "what", "target", "side", "kind", "stat",
          "value", "label", "name", "stats", "legion", "source", "clear", "effect", "effects", "coin", "key", "delta",
          "reason", "state", "faces", "reverse", "replace", "hero_name", "hero_stats", "attacker_hand_code"]


def test_odd_payloads_are_4xx_in_every_phase(client):
    data = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json={
        "title": "fuzz", "ruleset": "ace_royal", "seats": ["a", "b", "c"]}).get_json()
    sid = data["session"]
    tokens = [data["gm_token"], *(s["token"] for s in data["seats"])]
    rng = random.Random(13)

    def act(name, body, token=data["gm_token"]):
        return client.post(f"/api/sessions/{sid}/actions/{name}", headers=bearer(token), json=body)

    def storm():
        for _ in range(60):
            name = rng.choice(list(RULESET.actions))
            body = {f: rng.choice(ODD) for f in rng.sample(FIELDS, rng.randint(0, 4))}
            r = act(name, body, rng.choice(tokens))
            assert r.status_code < 500, (name, body, r.get_data(as_text=True)[:300])

    storm()
    servant = {"hero": {"name": "h", "stats": "5/5/5/5"}, "class": {"name": "c", "stats": "1/1/1/1"}}
    for step in [("setup", {}), ("roll_first", {"faces": [6, 2, 1]})] + [("set_servant", {**servant, "seat": s}) for s in ("s1", "s2", "s3")] + [
            ("start_game", {}), ("step", {}), ("step", {}), ("declare_attack", {"target": "s2"})]:
        r = act(*step)
        if r.status_code == 200 or step[0] != "setup":
            storm()
    r = client.get(f"/api/sessions/{sid}/state", headers=bearer(data["table_token"]))
    assert r.status_code == 200
