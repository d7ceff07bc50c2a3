"""Grail Succession (G): the actions folded in memory: turn rules (G-1), live scores (G-2), the end (G-3)."""

from __future__ import annotations

import pytest
from gmtool_testing import Pure

from gmtool.core import engine
from gmtool.core.commands import create_session, new_seat, set_reading
from gmtool.core.dice import EnteredDice, FixedDice, seed_hash
from gmtool.core.errors import GmError
from gmtool.core.logtext import describe
from gmtool.core.model import GM, TABLE, State, Viewer
from gmtool.core.ruleset import ActionContext
from gmtool.core.view import build_view, visible_event
from gmtool.rulesets.succession import RULESET
from gmtool.rulesets.succession.state import sx


class Game(Pure):
    """A succession session in memory; `act` runs a ruleset action as the GM or a seat."""

    def act(self, name: str, payload: dict | None = None, who: str = "gm", dice=()):
        viewer = GM if who == "gm" else Viewer("seat", who)
        source = dice if hasattr(dice, "randint") else FixedDice(list(dice))
        ctx = ActionContext(actor="gm" if who == "gm" else f"seat:{who}", viewer=viewer, dice=source,
                            salt=lambda: "salt", resolvers=self.resolvers)
        return self.do(RULESET.actions[name].fn, payload or {}, ctx, actor=ctx.actor)

    def refused(self, name: str, payload: dict | None = None, who: str = "gm", status: int | None = 409) -> GmError:
        before = len(self.events)
        with pytest.raises(GmError) as err:
            self.act(name, payload, who)
        assert err.value.status == status, err.value.en
        assert len(self.events) == before
        return err.value

    @property
    def s(self) -> dict:
        return sx(self.state)

    def hand(self, seat: str) -> int:
        return self.state.counters[seat]["hand"]

    def view(self, viewer=TABLE) -> dict:
        return build_view(self.state, viewer)["ruleset"]

    def log(self, viewer=TABLE, lang="ja") -> list[str]:
        return [describe(v, self.state, lang) for e in self.events if (v := visible_event(e, self.state, viewer))]


def new_game(setup: dict | None = None, dice=()) -> Game:
    game = Game(State(rules=RULESET))
    seats = [new_seat("a", "アルトリア"), new_seat("b", "ギルガメッシュ")]
    game.write(create_session("sc000001", "サクセション", "succession", seats, list(RULESET.counters), seed_hash(b"x" * 32)))
    if setup is not None:
        game.act("setup", {"first": "a", "row": ["5", "6"], **setup}, dice=dice)
    return game


def play_round(g: Game, script: list[str]) -> None:
    """Each entry is the current player's move: a card text to play, or 'take'."""
    for move in script:
        seat = g.s["turns"]["current"]
        if move == "take":
            g.act("take", who=seat)
        else:
            g.act("play", {"card": move}, who=seat)


# a round where each player plays 5 and takes once (12 turns, the first player's moves at even places);
# four of them with the starting row 5, 6 use the whole deck: 26 faction, 7 plus, 9 minus cards
ROUND = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "+2"]
LAST_ROUND = ["5", "6", "7", "8", "+1", "-1", "5", "6", "take", "take", "-2", "-3"]


def test_g1_setup_two_players_hands_of_5_and_the_starting_row():
    g = new_game({})
    assert g.s["players"] == ["a", "b"] and g.s["first"] == "a"
    assert [c["value"] for c in g.s["row"]] == [5, 6]
    assert g.hand("a") == g.hand("b") == 5
    v = g.view()
    assert v["current"] == "a" and v["round"] == 1 and v["turn"] == 1 and v["row"][-1]["end"]
    g.refused("setup", {"first": "a"})


def test_g1_setup_refuses_other_than_two_players_and_an_unknown_first():
    g = new_game()
    g.refused("setup", {"players": ["a"], "first": "a"}, status=400)
    g.refused("setup", {"first": "zz"}, status=400)
    g.refused("setup", {}, status=400)  # the GM picks by default (reading first_player=gm)
    g.refused("setup", {"first": "a", "mode": "x"}, status=400)
    g.refused("setup", {"first": "a", "row": ["5", "6", "7"]}, status=400)


def test_g1_a_die_decides_who_starts_ties_reroll_and_real_dice_are_marked():
    g = new_game({"first": "dice"}, dice=[3, 3, 2, 5])
    assert g.s["first"] == "b"
    data = next(e.data for e in g.events if e.type == "succession.setup")
    assert data["rolls"] == {"a": [3, 2], "b": [3, 5]} and data["dice_next"] == 4 and not data["entered"]
    g2 = new_game()
    g2.do(set_reading, "first_player", "dice")
    g2.act("setup", {"row": ["5", "6"]}, dice=EnteredDice([6, 1]))
    assert g2.s["first"] == "a"
    assert "実ダイス" in g2.log()[-2] and "real dice" in g2.log(lang="en")[-2]


def test_g1_moves_out_of_turn_are_refused():
    g = new_game({})
    err = g.refused("play", {"card": "5"}, who="b")
    assert "アルトリア" in err.ja
    g.refused("take", who="b")
    g.act("play", {"card": "5", "seat": "a"})  # the GM moves for the current player
    g.refused("play", {"card": "5", "seat": "a"})


def test_g1_take_once_per_round_then_the_turns_go_on_while_the_hand_lasts():
    g = new_game({})
    g.act("take", who="a")
    assert [c["value"] for c in g.s["captured"]["a"]] == [5, 6] and g.s["row"] == []
    g.act("play", {"card": "6"}, who="b")
    err = g.refused("take", who="a")
    assert "already took" in err.en
    g.act("play", {"card": "7"}, who="a")
    assert g.view(Viewer("seat", "a"))["players"][0]["took"] is True


def test_g1_no_take_from_an_empty_row():
    g = new_game({})
    g.act("take", who="a")
    err = g.refused("take", who="b")
    assert "empty" in err.en


def test_g1_no_play_with_an_empty_hand_and_the_player_is_told_to_take():
    g = new_game({})
    play_round(g, ["5", "6", "7", "8", "5", "6", "7", "8", "5", "6"])  # a has played 5
    assert g.hand("a") == 0
    v = g.view()
    assert v["current"] == "a" and v["players"][0]["moves"]["must_take"]
    g.refused("play", {"card": "5"}, who="a")
    g.act("take", who="a")


def test_g1_the_round_ends_after_6_turns_each_hands_refill_row_carries_first_flips():
    g = new_game({})
    play_round(g, ROUND)
    assert g.s["round"] == 2 and g.s["first"] == "b" and g.s["turns"]["current"] == "b"
    assert g.hand("a") == g.hand("b") == 5 and g.s["took"] == {"a": False, "b": False}
    assert len(g.s["row"]) == 2  # 2 start + 8 played - two takes of 5 + 2 played
    line = next(x for x in g.log() if x.startswith("第1ラウンド終了"))
    assert "次の先手はギルガメッシュ" in line
    play_round(g, ROUND)
    assert g.s["round"] == 3 and g.s["first"] == "a"


def test_g2_g3_after_the_4th_round_the_higher_total_wins_with_the_breakdown():
    g = new_game({})
    for script in (ROUND, ROUND, ROUND, LAST_ROUND):
        play_round(g, script)
    f = g.s["finished"]
    # a took 8,+1,-1,5,6 (rounds 1, 3) and -2,+2,5,6,7 (rounds 2, 4): 5×4 6×4 7×2 8×2, plus 1+2+1+2, minus the same;
    # b took 5,6,5,6,7 / 8,+1,-1,5,6 / -2,+2,5,6,7 / 8,+1,-1,5,6: 5×5 6×5 7×2 8×2, plus 1+2+1, minus the same
    assert f["reason"] == "score" and f["winner"] == "b" and f["round"] == 4 and g.view()["finished"]
    a, b = f["scores"]["a"], f["scores"]["b"]
    assert [(x["mine"], x["theirs"], x["points"]) for x in b["factions"]] == [(5, 4, 5), (5, 4, 6), (2, 2, 0), (2, 2, 0)]
    assert (a["sets"], a["plus"], a["minus"], a["total"]) == (2, 6, 6, 10)  # no majority, 2 sets
    assert (b["sets"], b["plus"], b["minus"], b["total"]) == (2, 4, 4, 21)  # 5 + 6, 2 sets
    scores = g.view()["players"]
    assert {p["seat"]: p["score"]["total"] for p in scores} == {p: f["scores"][p]["total"] for p in ("a", "b")}
    g.refused("play", {"card": "5"}, who="a")
    assert "G-2" in g.log()[-1] or "G-3" in g.log()[-1]


def test_g3_three_grails_win_at_once_and_the_game_stops():
    g = new_game({"row": ["grail", "5"]})
    play_round(g, ["grail", "take"])  # b takes grail, 5, grail: two grails
    assert g.s["finished"] is None and g.view()["players"][1]["grails"] == 2
    g2 = new_game({"row": ["grail", "grail"]})
    play_round(g2, ["grail", "take"])  # b takes all three grails in round 1
    assert g2.s["finished"]["reason"] == "grail" and g2.s["finished"]["winner"] == "b"
    assert g2.view()["finished"]["winner_name"] == "ギルガメッシュ"
    assert "聖杯3枚" in g2.log()[-1] and "all three grails" in g2.log(lang="en")[-1]
    g2.refused("play", {"card": "5"}, who="a")


def test_g3_grails_win_even_mid_round_and_a_fourth_grail_is_refused():
    g = new_game({"row": ["grail", "grail"]})
    g.act("play", {"card": "grail"}, who="a")
    err = g.refused("play", {"card": "grail"}, who="b")
    assert "grail" in err.en


def test_g3_equal_totals_rematch_flips_the_first_player_and_keeps_the_players():
    g = new_game({"mode": "score"})
    assert g.s["opener"] == "a"
    g.refused("rematch")
    g.act("enter_counts", {"f5": 2, "f6": 1, "plus": [3]}, who="a")
    g.act("enter_counts", {"f5": 2, "f6": 1, "minus": [1], "plus": "4"}, who="b")
    f = g.s["finished"]
    assert f["winner"] is None and f["reason"] == "tie" and f["rematch"] is True
    assert "再戦" in g.log()[-1] and "rematch" in g.log(lang="en")[-1]
    g.act("rematch", {"row": ["7", "8"], "mode": "turns"})
    assert g.s["game"] == 2 and g.s["first"] == "b" and g.s["finished"] is None and g.s["mode"] == "turns"
    assert g.hand("a") == g.hand("b") == 5 and g.s["captured"] == {"a": [], "b": []}
    g.act("play", {"card": "5"}, who="b")


def test_g1_starting_row_cards_can_be_entered_one_by_one_before_the_first_move():
    g = new_game({"row": []})
    g.refused("play", {"card": "5"}, who="a")
    g.act("start_card", {"kind": "faction", "value": "5"})
    g.act("start_card", {"card": "-3"})
    g.refused("start_card", {"card": "6"})
    assert [c["value"] for c in g.s["row"]] == [5, 3]
    g.act("play", {"card": "5"}, who="a")


def test_g1_the_gm_skips_only_a_stuck_turn_unless_forced():
    g = new_game({})
    g.refused("skip_turn")
    g.act("skip_turn", {"force": True, "reason": "卓の都合"})
    assert g.s["turns"]["current"] == "b"


def test_g2_score_only_mode_both_entries_give_the_breakdown():
    g = new_game({"mode": "score"})
    g.refused("play", {"card": "5"}, who="a")
    g.act("enter_counts", {"f5": 4, "f6": 2, "f7": 3, "f8": 2}, who="a")
    assert g.s["finished"] is None
    g.refused("enter_counts", {"f5": 1}, status=400)  # the GM names the seat
    g.act("enter_counts", {"seat": "b", "f6": 3, "f7": 3, "f8": 6, "plus": [2], "minus": "2"})
    f = g.s["finished"]
    assert f["scores"]["a"]["total"] == 15 and f["scores"]["b"]["total"] == 14 + 2 - 2 and f["winner"] == "a"
    g.act("enter_counts", {"grail": 2}, who="a")
    g.refused("enter_counts", {"seat": "b", "grail": 2}, status=400)  # only three grails in the game


def test_undo_takes_back_a_take_and_the_round_end_it_caused():
    g = new_game({})
    play_round(g, ROUND[:-1])
    g.act("play", {"card": "7"}, who="b")
    assert g.s["round"] == 2
    folded = engine.fold(g.events, RULESET, undone=[g.state.last_action])
    assert sx(folded)["round"] == 1 and folded.counters["b"]["hand"] == 1
    assert RULESET.is_undoable("succession.played") and RULESET.is_undoable("succession.taken")


def test_every_event_reads_in_both_languages_without_ids():
    g = new_game({})
    play_round(g, ROUND)
    for lang in ("ja", "en"):
        for line in g.log(lang=lang):
            assert "succession." not in line and "{" not in line
    assert any("took" in x for x in g.log(lang="en"))
    scenes = [e.data["title"] for e in g.events if e.type == "scene.marked"]
    assert scenes == [{"ja": "第1ゲーム 第1ラウンド", "en": "Game 1, round 1"},
                      {"ja": "第1ゲーム 第2ラウンド", "en": "Game 1, round 2"}]  # each reader's language, not both
    assert "■ 第1ゲーム 第2ラウンド" in g.log() and "■ Game 1, round 2" in g.log(lang="en")
