"""The illuminati declaration driven through its actions and folds, without the web layer (I-1 to I-7)."""

from __future__ import annotations

import pytest

from gmtool.core import engine, prompts
from gmtool.core.commands import add_seat, create_session, new_seat
from gmtool.core.dice import EnteredDice, FixedDice
from gmtool.core.errors import Conflict, Forbidden, GmError
from gmtool.core.logtext import describe
from gmtool.core.model import GM, TABLE, Event, State, Viewer
from gmtool.core.ruleset import ActionContext, has_japanese
from gmtool.core.view import build_view, visible_event
from gmtool.rulesets.illuminati import RULESET

NAMES = ["アリス", "Bob", "Carol", "Dave", "Eve", "Frank"]


class Game:
    """A session in memory: actions produce drafts, the engine folds them as one action."""

    def __init__(self, players: int = 4):
        self.state = State(rules=RULESET)
        self.events: list[Event] = []
        seats = [{"id": f"s{i + 1}", "name": NAMES[i], "faction": ""} for i in range(players)]
        self.write(create_session("x", "t", "illuminati", seats, list(RULESET.counters), "h"))

    def write(self, drafts, actor="gm"):
        action = self.state.last_action + 1
        out = []
        for i, (kind, data) in enumerate(drafts):
            event = Event(self.state.last_seq + 1, "2026-01-01T00:00:00+00:00", actor, action, kind, data)
            self.events.append(event)
            engine.apply(self.state, event)
            out.append(event)
        return out

    def act(self, name, payload=None, who="gm", dice=(), faces=None):
        viewer = GM if who == "gm" else Viewer("seat", who)
        source = EnteredDice(faces, self.state.dice_next) if faces else FixedDice(dice)
        ctx = ActionContext("gm" if who == "gm" else f"seat:{who}", viewer, source, lambda: "salt",
                            RULESET.all_resolvers())
        declared = RULESET.actions[name]
        if declared.who == "gm" and not viewer.is_gm:
            raise Forbidden("GMだけ", "GM only")
        before = len(self.events)
        events = self.write(declared.fn(self.state, payload or {}, ctx), ctx.actor)
        assert len(self.events) == before + len(events)
        return events

    def answer(self, prompt_id, who, value):
        return self.write(prompts.answer(self.state, prompt_id, who, value, "salt", RULESET.all_resolvers(),
                                         FixedDice([])), f"seat:{who}")

    @property
    def g(self):
        return self.state.extra["illuminati"]

    def c(self, seat, key):
        return self.state.counters[seat][key]

    def view(self, who="gm"):
        return build_view(self.state, GM if who == "gm" else Viewer("seat", who))["ruleset"]

    def refold(self):
        return engine.fold(self.events, RULESET)


def opened(players=4, illuminati=None):
    game = Game(players)
    game.act("setup")
    game.act("opening_start")
    seats = list(game.state.seats)
    prompt = game.g["prompt"]
    for seat, name in zip(seats, illuminati or [f"Ill {s}" for s in seats]):
        game.answer(prompt, seat, name)
    game.act("opening_next")
    return game


def playing(players=4, illuminati=None, order_dice=None):
    game = opened(players, illuminati)
    prompt = game.g["prompt"]
    for seat in game.state.seats:
        game.answer(prompt, seat, f"Group {seat}")
    game.act("opening_next")
    n = len(game.state.seats)
    dice = order_dice or [x for i in range(n) for x in (6 - i, 6 - i)]  # s1 highest
    game.act("roll_order", dice=dice)
    return game


# -- I-1 regulation --------------------------------------------------------------------------------

@pytest.mark.parametrize("players,goal", [(2, 12), (3, 12), (4, 11), (5, 10), (6, 10)])
def test_i1_regulation_goal_by_player_count(players, goal):
    game = Game(players)
    game.act("setup")
    assert game.g["goal"] == goal and game.g["goal_basis"] == "players"


def test_i1_tournament_and_agreed_goal():
    game = Game(2)
    game.act("setup", {"tournament": True})
    assert (game.g["goal"], game.g["goal_basis"]) == (12, "tournament")
    game.act("setup", {"goal": 9})
    assert (game.g["goal"], game.g["goal_basis"]) == (9, "agreed")
    with pytest.raises(GmError):
        Game(3).act("setup", {"tournament": True})
    with pytest.raises(GmError):
        Game(4).act("setup", {"players": ["s1"]})


@pytest.mark.parametrize("seats,offered", [(2, True), (3, False), (4, False), (6, False)])
def test_i1_the_tournament_goal_is_offered_and_accepted_only_with_two_players(seats, offered):
    game = Game(seats)
    assert game.view()["tournament_allowed"] is offered
    if offered:
        game.act("setup", {"tournament": True})
        assert (game.g["goal"], game.g["goal_basis"]) == (12, "tournament")
        return
    with pytest.raises(GmError) as refused:
        game.act("setup", {"tournament": True})
    assert f"{seats}人" in refused.value.ja and f"{seats} players" in refused.value.en
    assert game.view()["goal"] is None  # nothing written
    game.act("setup", {"players": ["s1", "s2"]})  # two of the seats play: now the tournament is offered
    assert game.view()["tournament_allowed"]
    game.act("setup", {"players": ["s1", "s2"], "tournament": True})
    assert game.g["goal"] == 12


def test_i1_setup_without_players_takes_every_seat_until_the_opening_begins():
    """illuminati.md §2.1: `setup` without `players` takes every seat. It kept the players of the setup before, so a
    seat the GM added and a setup done again left the newcomer out; once the opening has begun the players stay."""
    game = Game(3)
    game.act("setup", {"players": ["s1", "s2"], "tournament": True})
    game.write(add_seat(game.state, new_seat("s4", "Dave")))  # a latecomer
    game.act("setup")
    assert game.g["players"] == ["s1", "s2", "s3", "s4"] and (game.g["goal"], game.g["goal_basis"]) == (11, "players")
    game.act("setup", {"players": ["s1", "s3"]})
    game.act("opening_start")
    game.act("setup", {"goal": 9})  # the goal can still change; the players cannot
    assert game.g["players"] == ["s1", "s3"] and game.g["goal"] == 9


# -- I-2 opening -----------------------------------------------------------------------------------

def test_i2_placements_stay_secret_until_all_revealed_then_duplicates_choose_again():
    game = Game(4)
    game.act("setup")
    game.act("opening_start")
    prompt = game.g["prompt"]
    game.answer(prompt, "s1", "Discordian Society")
    table = build_view(game.state, Viewer("table"))
    assert "Discordian" not in str(table) and "Discordian" not in str(
        [visible_event(e, game.state, Viewer("seat", "s2")) for e in game.events])
    with pytest.raises(Conflict):
        game.act("opening_next")  # still waiting
    for seat in ("s2", "s3", "s4"):
        game.answer(prompt, seat, "Discordian Society" if seat == "s2" else f"Ill {seat}")
    game.act("opening_next")
    assert game.g["illuminati"]["s2"] == "Discordian Society"  # duplicates allowed for the Illuminati
    # round 1: s1 and s2 choose the same group; s3, s4 keep theirs
    prompt = game.g["prompt"]
    for seat, group in zip(["s1", "s2", "s3", "s4"], ["CIA", "cia", "KGB", "IRS"]):
        game.answer(prompt, seat, group)
    game.act("opening_next")
    assert game.g["kept"] == {"s3": "KGB", "s4": "IRS"}
    assert game.g["set_aside"] == ["CIA"]
    assert game.state.prompts[game.g["prompt"]].seats == ["s1", "s2"]
    assert game.c("s3", "groups") == 1 and game.c("s1", "groups") == 0
    # round 2: a kept or set-aside group cannot be chosen; another duplicate
    prompt = game.g["prompt"]
    with pytest.raises(GmError):
        game.answer(prompt, "s1", "KGB")
    with pytest.raises(GmError):
        game.answer(prompt, "s1", "C I A".replace(" ", ""))
    with pytest.raises(Exception):
        game.answer(prompt, "s3", "Yuppies")  # s3 keeps theirs: not asked again
    game.answer(prompt, "s1", "Yuppies")
    game.answer(prompt, "s2", "Yuppies")
    game.act("opening_next")
    assert game.g["set_aside"] == ["CIA", "Yuppies"] and game.g["stage"] == "groups"
    # round 3: unique
    prompt = game.g["prompt"]
    game.answer(prompt, "s1", "Hackers")
    game.answer(prompt, "s2", "Post Office")
    game.act("opening_next")
    assert game.g["stage"] == "order"
    assert game.g["kept"] == {"s3": "KGB", "s4": "IRS", "s1": "Hackers", "s2": "Post Office"}
    assert all(game.c(s, "groups") == 1 for s in game.state.seats)
    assert [r["round"] for r in game.g["rounds"]] == [1, 2, 3]


# -- I-3 order -------------------------------------------------------------------------------------

def test_i3_order_with_a_tie_rerolled_and_entered_dice_marked():
    game = opened(3)
    for seat in game.state.seats:
        game.answer(game.g["prompt"], seat, f"G{seat}")
    game.act("opening_next")
    with pytest.raises(GmError):
        game.act("roll_order", faces=[3, 4, 6])  # too few faces
    game.act("roll_order", faces=[3, 4, 6, 6, 5, 2, 1, 1, 2, 2])
    assert game.g["order"] == ["s2", "s3", "s1"] and game.g["order_entered"]
    view = game.view()
    assert view["current"] == "s2" and view["players"][0]["current"]
    rolled = next(e for e in reversed(game.events) if e.type == "illuminati.order_rolled")
    line = describe(visible_event(rolled, game.state, GM), game.state, "ja")
    assert "実ダイス" in line
    assert "real dice" in describe(visible_event(rolled, game.state, GM), game.state, "en")


# -- turns -----------------------------------------------------------------------------------------

def test_turn_start_tokens_draws_and_automatic_control():
    game = playing(4)
    with pytest.raises(Conflict):
        game.act("start_turn", who="s2")  # not s2's turn
    game.act("start_turn", {"draw_plot": True, "draw_group": True, "auto_control": "group"}, who="s1")
    assert (game.c("s1", "plot_hand"), game.c("s1", "group_hand"), game.c("s1", "groups")) == (4, 6, 2)
    assert (game.c("s1", "tokens_illuminati"), game.c("s1", "tokens_groups")) == (1, 2)
    with pytest.raises(Conflict):
        game.act("start_turn", who="s1")
    game.act("spend", {"purpose": "draw_plot", "source": "group"}, who="s1")
    assert (game.c("s1", "tokens_groups"), game.c("s1", "plot_hand")) == (0, 5)
    with pytest.raises(Conflict):
        game.act("spend", {"purpose": "move"}, who="s1")  # no group token left
    game.act("spend", {"purpose": "draw_group", "source": "illuminati"}, who="s1")
    game.act("end_turn", who="s1")
    assert game.view()["current"] == "s2"


def test_two_player_tournament_automatic_control_places_no_illuminati_token():
    fresh = Game(2)
    fresh.act("setup", {"tournament": True})
    fresh.act("opening_start")
    for s in fresh.state.seats:
        fresh.answer(fresh.g["prompt"], s, f"I{s}")
    fresh.act("opening_next")
    for s in fresh.state.seats:
        fresh.answer(fresh.g["prompt"], s, f"G{s}")
    fresh.act("opening_next")
    fresh.act("roll_order", dice=[6, 6, 1, 1])
    fresh.act("start_turn", {"auto_control": "group"}, who="s1")
    assert (fresh.c("s1", "tokens_illuminati"), fresh.c("s1", "tokens_groups")) == (0, 2)


def test_plot_hand_cut_to_five_at_the_end_of_the_turn():
    game = playing(3)
    game.act("start_turn", {"draw_plot": True}, who="s1")
    game.act("place_agent", {"illuminati": "Ill s2"}, who="s1")  # 4 -> 3
    assert game.c("s1", "plot_hand") == 3
    game.state.counters["s1"]["plot_hand"] = 7  # as if drawn by card effects
    game.act("end_turn", who="s1")
    assert game.c("s1", "plot_hand") == 5


# -- I-4 / I-5 the attack --------------------------------------------------------------------------

def attack_payload(**over):
    payload = {"purpose": "control",
               "attacker": {"kind": "illuminati", "power": 9, "global_power": 9, "alignments": []},
               "target": {"name": "KGB", "owner": "s2", "power": 2, "resistance": 4, "alignments": ["government", "violent"], "position": "child",
                          "parent_alignments": ["violent"], "subtree": 1, "tokens": 1}}
    payload.update(over)
    return payload


def test_i4_attack_from_declaration_to_result():
    game = playing(4, illuminati=["Bavarian Illuminati", "Bavarian Illuminati", "UFOs", "Network"])
    game.act("start_turn", who="s1")
    game.state.counters["s2"]["groups"] = 3  # as if earlier turns went by
    game.state.counters["s2"]["tokens_groups"] = 2
    game.state.counters["s3"]["tokens_groups"] = 1
    with pytest.raises(Conflict):
        game.act("attack", attack_payload(), who="s2")  # not s2's turn
    game.act("attack", attack_payload(), who="s1")
    assert game.c("s1", "tokens_illuminati") == 0
    a = game.view("s3")["attack"]
    # attack 9 + same Illuminati 5; defense resistance 4 + child 10 + parent shares Violent 4
    assert (a["breakdown"]["attack_total"], a["breakdown"]["defense_total"]) == (14, 18)
    with pytest.raises(Conflict):
        game.act("attack", attack_payload(), who="s1")  # one at a time
    game.act("support", {"side": "attack", "kind": "aligned", "name": "Yuppies", "value": 3,
                         "alignments": ["government"]}, who="s3")
    with pytest.raises(GmError):
        game.act("support", {"side": "attack", "kind": "aligned", "name": "Hippies", "value": 3,
                             "alignments": ["peaceful"]}, who="s3")
    game.act("support", {"side": "defense", "kind": "target", "tokens": 1}, who="s2")
    game.act("support", {"side": "attack", "kind": "agent", "name": "KGB"}, who="s4")
    with pytest.raises(Conflict):
        game.act("support", {"side": "attack", "kind": "agent", "name": "KGB"}, who="s3")
    game.act("modify", {"side": "attack", "amount": 2, "label": "Mind Control"})
    b = game.view()["attack"]["breakdown"]
    assert (b["attack_total"], b["defense_total"], b["achieved"]) == (14 + 3 + 10 + 2, 18 + 2, 9)
    assert game.c("s3", "tokens_groups") == 0 and game.c("s2", "tokens_groups") == 1
    with pytest.raises(Forbidden):
        game.act("roll_attack", who="s3")
    game.act("roll_attack", who="s1", dice=[4, 5])  # 9 <= achieved 9: success
    last = game.view()["last_attack"]
    assert last["result"]["success"] and last["result"]["roll"] == 9
    assert game.c("s1", "groups") == 1 + 2 and game.c("s2", "groups") == 1
    # the target's one token went on the defense (2 -> 1): the token left is on s2's remaining group
    assert game.c("s2", "tokens_groups") == 1
    assert game.view()["attack"] is None
    assert game.refold().extra == game.state.extra


def test_i4_the_result_counts_say_why_in_both_languages():
    """The counts a successful attack moves carry the whole reason in each language (they read {"ja": "K",
    "en": "G"} and {"ja": "対", "en": "象"}: the first two letters of one "ja / en" text)."""
    game = playing(4, illuminati=["Bavarian Illuminati", "UFOs", "Network", "Discordian Society"])
    game.act("start_turn", who="s1")
    game.state.counters["s2"]["groups"] = 3  # as if earlier turns went by
    game.state.counters["s2"]["tokens_groups"] = 2
    game.act("attack", attack_payload(), who="s1")
    game.act("modify", {"side": "attack", "amount": 20, "label": "Mind Control"})
    game.act("roll_attack", who="s1", dice=[1, 1])
    reasons = {(e.data["seat"], e.data["key"]): e.data["reason"] for e in game.events if e.type == "counter.changed"
               and e.data.get("rule") == "I-4" and e.action == game.state.last_action}
    assert reasons == {
        ("s1", "groups"): {"ja": "KGBを支配", "en": "took control of KGB"},
        ("s2", "groups"): {"ja": "KGBを奪われた", "en": "lost KGB"},
        ("s2", "tokens_groups"): {"ja": "対象と下流のトークンを除去", "en": "tokens on the target removed"}}


def test_i5_fumble_and_destroy_with_elimination_and_last_standing():
    game = playing(2, illuminati=["A", "B"])
    game.act("start_turn", who="s1")
    game.act("attack", {"purpose": "destroy", "attacker": {"kind": "illuminati", "power": 30},
                        "target": {"name": "Gs2", "owner": "s2", "power": 0, "position": "child"}}, who="s1")
    game.act("roll_attack", who="s1", dice=[6, 5])  # 11 always fails
    assert not game.view()["last_attack"]["result"]["success"] and game.c("s2", "groups") == 1
    game.state.counters["s1"]["tokens_illuminati"] = 1
    game.act("attack", {"purpose": "destroy", "attacker": {"kind": "illuminati", "power": 30},
                        "target": {"name": "Gs2", "owner": "s2", "power": 0, "position": "child"}}, who="s1")
    game.act("roll_attack", who="s1", faces=[1, 1])
    assert game.c("s1", "destroyed") == 1 and game.c("s2", "groups") == 0
    assert game.g["out"] == {"s2": "no_groups"}
    assert game.g["winner"]["seat"] == "s1" and game.g["stage"] == "over"
    rolled = [e for e in game.events if e.type == "illuminati.attack_rolled"]
    assert "実ダイス" not in describe(visible_event(rolled[0], game.state, GM), game.state, "ja")
    assert "実ダイス" in describe(visible_event(rolled[1], game.state, GM), game.state, "ja")


def test_i4_refusals_change_nothing():
    game = playing(3)
    game.act("start_turn", who="s1")
    before = (len(game.events), dict(game.state.counters["s1"]))
    bad = [
        {"purpose": "steal"},
        attack_payload(target={"name": "X", "owner": "s1", "power": 1, "resistance": 1}),  # control own group
        attack_payload(target={"name": "X", "power": 1, "resistance": 1}) | {"purpose": "destroy"},  # hand + destroy
        attack_payload(target={"name": "X", "owner": "s2", "power": 1, "subtree": 5}),  # more than s2 has
    ]
    for payload in bad:
        with pytest.raises(GmError):
            game.act("attack", payload, who="s1")
    with pytest.raises(GmError):
        game.act("attack", attack_payload(target={"name": "X", "owner": "s2", "power": "many"}), who="s1")
    with pytest.raises(GmError):
        game.act("attack", attack_payload(attacker={"kind": "group", "name": "Y", "power": 4, "use": "global"}),
                 who="s1")
    assert (len(game.events), dict(game.state.counters["s1"])) == before


@pytest.mark.parametrize("side,kind,ja,en", [
    ("attack", "target", "「対象自身（トークン数×パワー）」では「攻撃を支援」はできません",
     "'The target itself (power per token)' cannot be used to support the attack"),
    ("attack", "adjacent", "「親か子（パワー）」では「攻撃を支援」はできません",
     "'Parent or child (power)' cannot be used to support the attack")])
def test_i4_a_support_refused_for_its_side_is_worded_as_the_form_shows_it(side, kind, ja, en):
    """The phone's support form offers its kinds for either side; the refusal of one the side does not take (I-4) said
    「この支援（target）はこの側では使えません」 / "A 'target' support cannot be given to the attack": now the form's words."""
    game = playing(3)
    game.act("start_turn", who="s1")
    game.act("attack", attack_payload(target={"name": "Gs2", "owner": "s2", "power": 2, "resistance": 4}), who="s1")
    with pytest.raises(GmError) as refused:
        game.act("support", {"side": side, "kind": kind, "name": "Gs2", "value": 2, "tokens": 1}, who="s2")
    assert (refused.value.ja, refused.value.en) == (ja, en)


def test_i4_control_from_the_hand():
    game = playing(3)
    game.act("start_turn", who="s1")
    game.act("attack", {"purpose": "control", "attacker": {"kind": "group", "name": "Gs1", "power": 6},
                        "target": {"name": "Hackers", "resistance": 2}}, who="s1")
    assert game.c("s1", "group_hand") == 5
    game.act("roll_attack", who="s1", dice=[1, 2])
    assert game.c("s1", "groups") == 2


# -- I-1 victory, I-7 out --------------------------------------------------------------------------

def test_i1_victory_declared_and_confirmed_at_the_end_of_the_turn():
    game = playing(4)
    game.act("start_turn", who="s1")
    with pytest.raises(Conflict):
        game.act("declare_victory", who="s1")  # 1 of 11
    game.state.counters["s1"]["groups"] = 11
    assert game.view()["players"][0]["meets"]
    game.act("declare_victory", who="s1")
    game.act("end_turn", who="s1")
    assert game.g["winner"]["seat"] == "s1"


def test_i1_ending_the_turn_at_the_basic_goal_wins_without_a_declaration():
    """Review at a real table: three players, goal 12; アリス's groups set to 12 on her turn, her phone offered 勝利を宣言
    but she tapped End the turn: 「アリス's turn ends. Next: キャロル」 and play went on. I-1 wins with N groups "at the
    end of your turn": `end_turn` declares it for her, with the events and lines of her declaring then ending the turn;
    and the line of a turn that won the game names no next player (it read 「…Next: キャロル (round 2) / アリス wins!」)."""
    def lines(events, lang):
        return [describe(visible_event(e, game.state, Viewer("table")), game.state, lang) for e in events]

    games = {}
    for declares in (False, True):
        game = playing(3)
        assert game.g["goal"] == 12
        game.act("start_turn", who="s1")
        game.state.counters["s1"]["groups"] = 12  # the GM's counter route, as at the table
        events = game.act("declare_victory", who="s1") if declares else []
        events += game.act("end_turn", who="s1")
        assert game.g["winner"] == {"seat": "s1", "kind": "basic", "label": "", "rule": "I-1"}, declares
        assert game.g["stage"] == "over" and game.view()["current"] is None
        games[declares] = ([(e.type, e.data) for e in events], lines(events, "ja"), lines(events, "en"))
    assert games[False] == games[True]
    types, ja, en = games[False]
    assert [t for t, _ in types] == ["illuminati.victory_declared", "illuminati.turn_ended", "illuminati.game_won"]
    assert ja[1:] == ["アリスのターン終了 — アリスの勝利！", "アリスの勝利！（基本ゴール）（I-1）"]
    assert en[1:] == ["アリス's turn ends — アリス wins!", "アリス wins! (basic goal) (I-1)"]
    # short of the goal the turn passes as before, naming the next player; another player at the goal on someone
    # else's turn still declares (I-1: at the end of *your* turn)
    game = playing(3)
    game.act("start_turn", who="s1")
    game.state.counters["s1"]["groups"] = 11
    game.state.counters["s2"]["groups"] = 12
    events = game.act("end_turn", who="s1")
    assert [e.type for e in events] == ["illuminati.turn_ended"] and game.g["winner"] is None
    assert lines(events, "ja") == ["アリスのターン終了。次はBob（第1巡）"]


def test_i1_declaration_lapses_when_the_goal_is_no_longer_met():
    game = playing(4)
    game.act("start_turn", who="s1")
    game.state.counters["s2"]["groups"] = 11
    game.act("declare_victory", who="s2")
    game.state.counters["s2"]["groups"] = 10  # an interruption took one away
    events = game.act("end_turn", who="s1")
    assert game.g["winner"] is None and events[0].data["lapsed"] == ["s2"]
    with pytest.raises(Forbidden):
        game.act("declare_victory", {"kind": "special", "label": "x"}, who="s2")
    game.act("declare_victory", {"seat": "s3", "kind": "goal_card", "label": "Ruthless"})
    game.act("start_turn", who="s2")
    game.act("end_turn", who="s2")
    assert game.g["winner"]["kind"] == "goal_card"


def test_i7_gm_marks_two_goal_cards_out_and_turns_skip_them():
    game = playing(3)
    game.act("eliminate", {"seat": "s2", "reason": "goal_cards"})
    game.act("start_turn", who="s1")
    game.act("end_turn", who="s1")
    assert game.view()["current"] == "s3"
    with pytest.raises(Forbidden):
        game.act("eliminate", {"seat": "s3"}, who="s1")


def test_i7_a_round_that_begins_because_the_current_player_is_out_is_a_scene():
    """Each round of turns is a scene (roll_order marks 「1巡目」, the end_turn that begins a round 「n巡目」), but a
    round that began because the player whose turn it was went out (play came back to the opener without an
    end_turn) had no mark: the phones kept the last round's results. Now it is marked, by `eliminate` and by the
    counter panel's groups set to 0 alike."""
    from gmtool.core.commands import change_counter
    for put_out in ("eliminate", "counter"):
        game = playing(3)
        for seat in ("s1", "s2"):
            game.act("start_turn", who=seat)
            game.act("end_turn", who=seat)
        game.act("start_turn", who="s3")
        if put_out == "eliminate":
            game.act("eliminate", {"seat": "s3", "reason": "goal_cards"})
        else:
            game.write(change_counter(game.state, "s3", "groups", value=0))
        assert game.view()["current"] == "s1" and game.g["turns"]["round"] == 2, put_out
        marks = [e.data["title"] for e in game.events if e.type == "scene.marked"]
        assert marks == [{"ja": "1巡目", "en": "Round 1"}, {"ja": "2巡目", "en": "Round 2"}], put_out
        assert game.events[-1].type == "scene.marked", put_out  # after the player_out that began the round
    game = playing(3)  # out while it is not their turn: the round goes on, no mark
    game.act("eliminate", {"seat": "s2", "reason": "goal_cards"})
    assert [e.data["title"]["ja"] for e in game.events if e.type == "scene.marked"] == ["1巡目"]


def test_i7_an_attack_roll_that_puts_the_current_player_out_is_filed_under_its_own_round():
    """The last player of a round destroyed their own last group (out, I-7): the attack's roll, the new round's mark
    after it in the same action, was filed under the new round on the screens (a scene begins where its mark's action
    began, so that a round's order rolled with its mark is of that round): the phones and the table's strip showed
    it as round 2's. A round its action ended begins at its mark (core's from_mark); the order stays round 1's."""
    game = playing(3)
    order = [r for r in build_view(game.state, TABLE, game_rolls=True)["rolls"] if "I-3" in r["label"]["en"]]
    assert len(order) == 3 and all(r["seq"] >= game.state.scenes[-1]["from"] for r in order)  # round 1's
    for seat in ("s1", "s2"):
        game.act("start_turn", who=seat)
        game.act("end_turn", who=seat)
    game.act("start_turn", who="s3")
    game.act("attack", {"purpose": "destroy", "attacker": {"kind": "illuminati", "power": 30},
                        "target": {"name": "Group s3", "owner": "s3", "power": 0, "position": "child"}}, who="s3")
    rolled = game.act("roll_attack", who="s3", faces=[1, 1])
    assert [e.type for e in rolled][0] == "illuminati.attack_rolled" and rolled[-1].type == "scene.marked"
    assert game.g["out"] == {"s3": "no_groups"} and game.g["turns"]["round"] == 2
    view = build_view(game.state, TABLE, game_rolls=True)
    attack = next(r for r in view["rolls"] if "I-5" in r["label"]["en"])
    assert attack["seq"] == rolled[0].seq and view["scene"]["title"]["en"] == "Round 2"
    assert attack["seq"] < view["scene"]["from"] == rolled[-1].seq  # round 1's roll
    assert game.refold().scenes == game.state.scenes


def test_i7_groups_set_to_zero_on_the_counter_panel_puts_the_player_out():
    """I-7: a player with no groups is out. Core's counter route set `groups` to 0 and the player played on (the GM had
    to call `eliminate` too): now the change puts them out in the same action, calling off an attack on their group,
    and the last player left wins (I-1); undoing the change brings them back."""
    from gmtool.core.commands import change_counter
    game = playing(3)
    game.act("start_turn", who="s1")
    game.act("attack", {"purpose": "control", "attacker": {"kind": "illuminati", "power": 10},
                        "target": {"name": "Gs2", "owner": "s2", "power": 2, "resistance": 5, "position": "child"}},
             who="s1")
    game.write(change_counter(game.state, "s2", "groups", value=0, reason="カード効果"))
    assert game.g["out"] == {"s2": "no_groups"} and game.g["attack"] is None and game.g["stage"] == "play"
    assert [e.type for e in game.events[-3:]] == ["counter.changed", "illuminati.attack_cancelled", "illuminati.player_out"]
    game.write(change_counter(game.state, "s3", "groups", value="-1"))
    assert game.g["out"] == {"s2": "no_groups", "s3": "no_groups"} and game.g["winner"]["seat"] == "s1"
    again = engine.fold(game.events, RULESET, undone={game.state.last_action})
    assert again.extra["illuminati"]["out"] == {"s2": "no_groups"} and again.counters["s3"]["groups"] == 1
    game = opened(3)  # during the opening nobody goes out: groups are 0 until the starting group is kept (I-2)
    game.write(change_counter(game.state, "s2", "groups", value=1))
    game.write(change_counter(game.state, "s2", "groups", value=0))
    assert game.g["out"] == {} and game.events[-1].type == "counter.changed"


def test_log_lines_are_bilingual_and_english_has_no_japanese():
    game = playing(3)
    game.act("start_turn", who="s1")
    game.act("attack", attack_payload(target={"name": "G", "owner": "s2", "power": 3, "resistance": 3,
                                              "alignments": "Weird"}), who="s1")
    game.act("roll_attack", who="s1", dice=[1, 1])
    for e in game.events:
        if e.type.startswith("illuminati."):
            visible = visible_event(e, game.state, Viewer("table"))
            assert visible is not None
            en = describe(visible, game.state, "en")
            assert en and not has_japanese(en.replace("アリス", "")), en
            assert describe(visible, game.state, "ja")


def test_docs_page_lists_every_action_reading_and_counter():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[2] / RULESET.docs).read_text(encoding="utf-8")
    for name in RULESET.actions:
        assert f"| `{name}` |" in text, name
    for reading in RULESET.readings:
        assert f"| `{reading.key}` | {reading.rule} |" in text, reading.key
        for choice in reading.choices:
            assert f"`{choice.value}`" in text
    for counter in RULESET.counters:
        assert f"| `{counter.key}` |" in text, counter.key


def test_i2_an_early_reveal_or_a_cancelled_round_asks_the_missing_players_again():
    game = Game(3)
    game.act("setup")
    game.act("opening_start")
    game.answer(game.g["prompt"], "s1", "UFOs")
    game.write(prompts.reveal(game.state, game.g["prompt"], "時間切れ", RULESET.all_resolvers(), FixedDice([])))
    game.act("opening_next")
    assert game.g["illuminati"] == {"s1": "UFOs"} and game.g["stage"] == "illuminati"
    assert game.state.prompts[game.g["prompt"]].seats == ["s2", "s3"]
    game.write(prompts.cancel(game.state, game.g["prompt"], "やり直し"))
    game.act("opening_next")  # the cancelled round opens again for the same players
    assert game.state.prompts[game.g["prompt"]].seats == ["s2", "s3"]
    game.answer(game.g["prompt"], "s2", "Network")
    game.answer(game.g["prompt"], "s3", "UFOs")
    game.act("opening_next")
    assert game.g["illuminati"] == {"s1": "UFOs", "s2": "Network", "s3": "UFOs"} and game.g["stage"] == "groups"
    game.answer(game.g["prompt"], "s1", "CIA")
    game.answer(game.g["prompt"], "s2", "KGB")
    game.write(prompts.reveal(game.state, game.g["prompt"], "", RULESET.all_resolvers(), FixedDice([])))
    game.act("opening_next")
    assert game.g["kept"] == {"s1": "CIA", "s2": "KGB"}
    assert game.state.prompts[game.g["prompt"]].seats == ["s3"]


def test_i2_revealed_before_placing_is_set_for_the_seat_the_gm_revealed_before_and_only_for_it():
    """I-2: the view's `revealed_before_placing` (the phone's 「GMがあなたの配置前に公開しました」) is true for a seat
    whose round the GM revealed before it placed, while its new placement is open, in both placement stages; false
    for the seats that placed, for the GM and the table, and once the seat has placed again."""
    def flags(game):
        return {who: game.view(who)["revealed_before_placing"] for who in ("gm", "s1", "s2", "s3", "s4")}

    game = Game(4)
    game.act("setup")
    game.act("opening_start")
    prompt = game.g["prompt"]
    for seat in ("s1", "s2", "s3"):
        game.answer(prompt, seat, f"Ill {seat}")
    assert not any(flags(game).values())  # not revealed yet
    game.write(prompts.reveal(game.state, prompt, "", RULESET.all_resolvers(), FixedDice([])))
    game.act("opening_next")  # s4 had not placed: it places again
    assert flags(game) == {"gm": False, "s1": False, "s2": False, "s3": False, "s4": True}
    assert build_view(game.state, Viewer("table"))["ruleset"]["revealed_before_placing"] is False
    game.answer(game.g["prompt"], "s4", "Ill s4")
    game.act("opening_next")  # the first group round
    assert not any(flags(game).values())
    prompt = game.g["prompt"]
    for seat, group in (("s1", "CIA"), ("s2", "CIA"), ("s3", "KGB")):
        game.answer(prompt, seat, group)
    game.write(prompts.reveal(game.state, prompt, "", RULESET.all_resolvers(), FixedDice([])))
    game.act("opening_next")  # CIA set aside: s1 and s2 choose again (a clash, not an early reveal); s4 had not placed
    assert flags(game) == {"gm": False, "s1": False, "s2": False, "s3": False, "s4": True}
    game.answer(game.g["prompt"], "s4", "IRS")
    assert not any(flags(game).values())
