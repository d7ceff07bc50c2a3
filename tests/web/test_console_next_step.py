"""The GM console marks the game's next step (class gm-next, held at the window's foot: gmtool.css): only three
rows carried it (grail's confirm / next step, ace_royal's 戦闘を解決, illuminati's attack roll), so the step a GM
takes most often (sugoroku's roll for the mover, illuminati's next turn, the setup of every game …) was not marked.
Each ruleset is played through its steps; at each, the console marks exactly the control the GM needs next (the
action its primary button posts), or nothing while the game waits for the players; and, mid-game as at its start,
shows no seat id or key as text (tests/meta/test_languages.py checks the demos' and probes' screens)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from gmtool_testing import ADMIN_KEY, ApiTable, bearer, ids_shown, open_link

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Marked(HTMLParser):
    """Per element of class gm-next: the actions its controls post, as (action, primary) in page order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, dict]] = []  # (tag, attrs) of the open elements
        self.marked: list[list[tuple[str, bool]]] = []

    def handle_starttag(self, tag, attrs):
        a = {k: v or "" for k, v in attrs}
        if "gm-next" in a.get("class", "").split():
            self.marked.append([])
        inside = any("gm-next" in x.get("class", "").split() for _, x in self.stack) or "gm-next" in a.get("class", "").split()
        if inside and tag == "button" and "disabled" not in a:
            form = next((x for t, x in reversed(self.stack) if t == "form"), {})
            post = a.get("hx-post") or form.get("hx-post", "")
            action = post.split("/gm/", 1)[-1].removeprefix("actions/").removeprefix("prompts/")
            self.marked[-1].append((action, "primary" in a.get("class", "").split()))
        if tag not in VOID:
            self.stack.append((tag, a))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break


def marked(html: str) -> list[str]:
    """The console's marked next steps: for each gm-next element, what its primary button posts (what its buttons
    post when none is primary, e.g. a tie's winners), joined by ' | '."""
    parser = _Marked()
    parser.feed(html)
    out = []
    for controls in parser.marked:
        primary = [a for a, p in controls if p] or [a for a, _ in controls]
        out.append(" | ".join(dict.fromkeys(primary)))
    return out


class Table(ApiTable):
    """A session driven through the API, with its GM console read as the GM's browser reads it."""

    def __init__(self, app, client, ruleset: str, seats: list[str], counters: list[str] | None = None):
        body = {"title": "次の一手", "ruleset": ruleset, "seats": seats, **({"counters": counters} if counters else {})}
        r = client.post("/api/sessions", headers=bearer(ADMIN_KEY), json=body)
        assert r.status_code == 201, r.get_json()
        super().__init__(client, r.get_json())
        self.browser = open_link(app, self.data["gm_url"])

    def next(self) -> list[str]:
        """What the GM console marks as the next step now; the console, at every step, shows no id (s1) or key."""
        r = self.browser.get(f"/s/{self.sid}/gm?lang=ja")
        assert r.status_code == 200
        html = r.get_data(as_text=True)
        assert not ids_shown({"gm console": html}, [s["name"] for s in self.data["seats"]])
        return marked(html)


def test_the_check_reads_primary_buttons_and_their_forms():
    html = """<div class="row gm-next"><button class="small" hx-post="/s/x/gm/actions/skip_turn">s</button>
      <button class="primary" hx-post="/s/x/gm/actions/roll_move">r</button></div>
      <form class="row gm-next" hx-post="/s/x/gm/actions/roll_order"><input name="faces"><button class="primary">o</button></form>
      <p class="gm-next"><button class="small" hx-post="/s/x/gm/actions/pick">a</button><button hx-post="/s/x/gm/actions/pass">b</button></p>
      <div class="row"><button class="primary" hx-post="/s/x/gm/actions/elsewhere">e</button></div>"""
    assert marked(html) == ["roll_move", "roll_order", "pick | pass"]


def test_generic_marks_the_first_prompts_reveal_then_its_confirm(app, client):
    """A game without a panel: the prompts card's reveal of the first open prompt, then (a resolver's result) its
    confirm; nothing with no prompt to act on."""
    table = Table(app, client, "generic", ["セイバー", "アーチャー"], ["seals"])
    assert table.next() == []
    table.post("/prompts", {"title": "どれ", "kind": "choice", "options": ["赤", "青"], "seats": ["s1", "s2"],
                            "resolver": "votes"})
    assert table.next() == ["p1/reveal"]
    table.answer("p1", "赤", "s1")
    table.answer("p1", "赤", "s2")  # the last answer reveals it
    assert table.next() == ["p1/confirm"]
    table.post("/prompts/p1/confirm")
    assert table.next() == []


def test_sugoroku_marks_the_setup_the_roll_the_phase_the_battle_and_the_round(app, client):
    """S-1 setup, S-3 the roll for the mover, the end of the action phase once all moved, S-7 the pending battle's
    start (nothing while the fighters choose their cards), its result, S-2 the round's end, the next round."""
    table = Table(app, client, "sugoroku", ["セイバー", "アーチャー"])
    assert table.next() == ["setup"]
    table.act("setup", {"board_length": 30, "order": ["s1", "s2"], "players": {
        s: {"servant": n, "mana": 4} for s, n in (("s1", "セイバー"), ("s2", "アーチャー"))}})
    assert table.next() == ["roll_move"]
    for seat in ("s1", "s2"):
        table.act("roll_move", {"faces": [3]}, who=seat)  # both on square 3: a battle (S-7)
    assert table.next() == ["end_phase"]
    table.act("end_phase")
    assert table.next() == ["start_battle"]
    table.act("start_battle")
    assert table.next() == []  # the fighters choose their cards on their phones
    pid = table.state()["ruleset"]["battle"]["prompt"]
    table.answer(pid, "力7", "s1")
    table.answer(pid, "力4", "s2")  # the last answer reveals the battle
    assert table.next() == ["end_battle"]
    table.act("end_battle")
    assert table.next() == ["roll_move"]
    table.act("end_round", {"force": True})
    assert table.next() == []  # S-13: the players vote on the true names; the next round waits for it (409)
    vote = table.state()["ruleset"]["vote"]
    table.answer(vote, "s2", "s1")
    table.answer(vote, "s1", "s2")  # the last vote reveals it; the GM confirms it on its card
    html = table.browser.get(f"/s/{table.sid}/gm?lang=ja").get_data(as_text=True)
    assert table.next() == [] and "真名看破投票を終えてください" in html
    table.post(f"/prompts/{vote}/confirm")  # two votes for two seats: a tie, the last-placed player breaks it
    assert table.next() == []
    tie = table.state()["prompts"]
    tb = next(p for p in tie if p["id"] == f"{vote}-tb")
    table.answer(tb["id"], "s1", tb["respondents"][0])
    table.post(f"/prompts/{vote}-tb/confirm")
    assert table.next() == ["start_round"]


def test_sugoroku_marks_a_tied_battles_winners_before_its_result(app, client):
    """S-7 Reading: tied highest totals: the GM decides the winner first, then applies the result."""
    table = Table(app, client, "sugoroku", ["セイバー", "アーチャー"])
    table.act("setup", {"board_length": 30, "order": ["s1", "s2"], "players": {
        s: {"servant": n, "mana": 4} for s, n in (("s1", "セイバー"), ("s2", "アーチャー"))}})
    for seat in ("s1", "s2"):
        table.act("roll_move", {"faces": [3]}, who=seat)
    table.act("end_phase")
    table.act("start_battle")
    pid = table.state()["ruleset"]["battle"]["prompt"]
    table.answer(pid, "力5", "s1")
    table.answer(pid, "力5", "s2")
    assert table.next() == ["battle_adjust"]
    # applying the result while still tied (no winner) is no longer a one-click primary button beside the ruling
    html = table.browser.get(f"/s/{table.sid}/gm?lang=ja").get_data(as_text=True)
    apply = re.search(r'<button [^>]*id="sg-end-battle"[^>]*>', html).group(0)
    assert 'class="small"' in apply and 'data-second-tap="同点の裁定がまだです: もう一度押すと勝者なしで確定"' in apply
    table.act("battle_adjust", {"winner": "s1"})
    assert table.next() == ["end_battle"]
    html = table.browser.get(f"/s/{table.sid}/gm?lang=ja").get_data(as_text=True)
    assert "data-second-tap" not in re.search(r'<button [^>]*id="sg-end-battle"[^>]*>', html).group(0)


def test_grail_marks_the_confirm_the_next_step_and_the_start_of_a_combat(app, client):
    """T-1: the start of a combat once two factions have characters, the confirm of a revealed step, the next step;
    nothing while the factions choose."""
    from gmtool.rulesets.grail_trpg.probe import demo

    table = Table(app, client, "grail_trpg", ["セイバー陣営", "ランサー陣営"])
    assert table.next() == []  # nobody has characters yet: the start is disabled, saying why
    demo(table)  # characters, a combat, its setup answered and revealed
    assert table.next() == ["c1-setup/confirm"]
    table.post("/prompts/c1-setup/confirm")
    assert table.next() == ["next_step"]
    table.act("next_step")
    assert table.next() == []  # the factions choose their stats
    table.answer("c1-s1", {"stat": "筋力"}, "s1")
    table.answer("c1-s1", {"stat": "耐久"}, "s2")
    assert table.next() == ["c1-s1/confirm"]
    table.act("end_combat")
    assert table.next() == ["start_combat"]


def test_succession_marks_the_setup_the_start_cards_the_move_and_the_rematch(app, client):
    """G-1: the setup, the starting row's cards, the current player's move (take or play), the next player's
    counts in score-only mode, the rematch (G-3)."""
    table = Table(app, client, "succession", ["アルトリア", "ギルガメッシュ"])
    assert table.next() == ["setup"]
    table.act("setup", {"first": "s1", "row": []})
    assert table.next() == ["start_card"]
    table.act("start_card", {"card": "5"})
    table.act("start_card", {"card": "6"})
    assert table.next() == ["take"]  # the take (5 cards) is the primary; the play buttons beside it
    table.act("take", {}, who="s1")
    assert table.next() == ["play | skip_turn"]  # the take used: one of the cards to play
    score = Table(app, client, "succession", ["アルトリア", "ギルガメッシュ"])
    score.act("setup", {"first": "s1", "mode": "score"})
    assert score.next() == ["enter_counts"]
    score.act("enter_counts", {"seat": "s1", "f5": 3, "f6": 1, "f7": 0, "f8": 0, "grail": 0})
    assert score.next() == ["enter_counts"]
    html = score.browser.get(f"/s/{score.sid}/gm?lang=ja").get_data(as_text=True)
    assert 'name="seat" value="s2"' in re.search(r'<form class="sc-counts row gm-next".*?</form>', html, re.S).group(0)
    score.act("enter_counts", {"seat": "s2", "f5": 0, "f6": 3, "f7": 1, "f8": 0, "grail": 0})
    assert score.next() == ["rematch"]


SABER = {"hero": {"name": "アルトリア", "stats": [6, 5, 3, 3]}, "class": {"name": "セイバー", "stats": [3, 3, 1, 5]}}


def test_ace_royal_marks_the_setup_the_first_roll_the_start_the_step_and_the_combat(app, client):
    """A-2 setup, A-5 the first active master's roll, the start once every servant is set (nothing while the
    players set them) and the class exchange is over (A-1), each step of the turn, A-7 the combat's resolution once
    both sides chose."""
    table = Table(app, client, "ace_royal", ["セイバー", "アーチャー"])
    assert table.next() == ["setup"]
    table.act("setup", {"version": "standard"})
    assert table.next() == ["roll_first"]
    table.act("roll_first", {"faces": "6 1"})
    assert table.next() == []  # the players set their servants
    for seat in table.seats:
        table.act("set_servant", SABER, who=seat)
    assert table.next() == ["start_game"]
    table.act("leftover_classes", {"classes": ["ランサー 2/2/2/2"]})
    assert table.next() == ["exchange_class"]  # the exchange's pick or pass first (the start is disabled)
    while (exchange := table.state()["ruleset"]["exchange"]) is not None:  # every player passes, in turn (then null)
        assert table.next() == ["exchange_class"]
        table.act("exchange_class", {"pick": "pass"}, who=exchange["next"])
    assert table.next() == ["start_game"]
    table.act("start_game")
    assert table.next() == ["step"]
    while table.state()["ruleset"]["step"] != "ritual":
        table.act("step")
    assert table.next() == ["step"]
    table.act("declare_attack", {"target": "s2"})
    assert table.next() == []  # the sides choose physical or magical
    for side in ("attacker", "interceptor"):
        table.act("combat_choose", {"side": side, "kind": "physical"})
    assert table.next() == ["combat_resolve"]


def test_illuminati_marks_the_regulation_the_opening_the_order_the_turn_and_the_roll(app, client):
    """I-1 the regulation, I-2 the opening and each placement once everyone placed, I-3 the order's roll, the
    turn's start and end, I-5 an attack's roll."""
    table = Table(app, client, "illuminati", ["A", "B"])
    assert table.next() == ["setup"]
    table.act("setup", {"players": table.seats})
    assert table.next() == ["opening_start"]
    table.act("opening_start")
    assert table.next() == []  # the players place on their phones
    for placed in ("Illuminati", "Group"):
        for seat in table.seats:
            table.answer(table.state()["ruleset"]["placement"]["prompt"], f"{placed} {seat.upper()}", seat)
        assert table.next() == ["opening_next"]
        table.act("opening_next")
    assert table.next() == ["roll_order"]
    table.act("roll_order", {"faces": "6 6 5 5"})
    assert table.next() == ["start_turn"]
    table.act("start_turn")
    assert table.next() == ["end_turn"]
    table.act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 9},
                         "target": {"name": "KGB", "owner": "s2", "power": 2, "resistance": 4, "position": "child",
                                    "alignments": ["government", "violent"], "parent_alignments": ["violent"]}})
    assert table.next() == ["roll_attack"]


def test_sugoroku_ends_the_phase_that_met_the_rounds_end_condition_then_the_round(app, client):
    """S-2 with S-7: both players reach the goal (the round's end condition) in one action phase: that phase ends
    first (end_phase, which finds its battles), then the round (end_round); one of them is marked, never both."""
    table = Table(app, client, "sugoroku", ["セイバー", "アーチャー"])
    table.act("setup", {"board_length": 5, "order": ["s1", "s2"], "players": {
        s: {"servant": n, "mana": 4} for s, n in (("s1", "セイバー"), ("s2", "アーチャー"))}})
    for seat in ("s1", "s2"):
        table.act("roll_move", {"faces": [6]}, who=seat)
    assert table.state()["ruleset"]["round_over"], table.state()["ruleset"]
    assert table.next() == ["end_phase"]
    table.act("end_phase")
    assert table.next() == ["end_round"]
    table.act("end_round", {"vote": False})  # no true-name vote (S-13): the next round may start at once
    assert table.next() == ["start_round"]
