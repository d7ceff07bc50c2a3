"""Sugoroku (S): the flow actions (setup, turns, phases, rounds, skills, seals, karma, true names).

Each action is a pure command ``(state, payload, ctx) -> drafts``; counter changes are core
``counter.changed`` drafts built by core's ``CounterRun`` (so thresholds raise / lower the 討伐令 flag, S-12),
and every automatic effect names its rule in the reason. Battles are in battle.py.
"""

from __future__ import annotations

import re
from typing import Any

from gmtool.core import dice as dicelib
from gmtool.core import prompts as P
from gmtool.core.commands import CounterRun, clean_text, flag_field, parse_int, reading_choice, require_open, text_field
from gmtool.core.commitments import commit
from gmtool.core.errors import Conflict, Forbidden, GmError, NotFound, shown
from gmtool.core.model import State

from . import rules as R
from .events import is_revealed, sg
from .strings import STRINGS

COUNTERS = ("position", "mana", "vp", "karma", "seals", "uses", "reveal_count")
FLOW_READINGS: dict[str, dict[str, Any]] = {
    "reveal_counts_np": {"default": True, "choices": (True, False), "rule": "S-13",
                         "label": ("真名判明の回数と宝具", "NP uses and the true-name count"),
                         "words": ((True, "宝具の使用も数える（スキル使用＋戦闘＋宝具）", "NP uses count (with skill uses and battles)"),
                                   (False, "スキル使用と戦闘のみ数える", "Only skill uses and battles count"))},
}


# -- helpers --------------------------------------------------------------------------------------

def started(state: State) -> dict:
    """The ruleset state, or a readable error before setup."""
    require_open(state)
    s = sg(state)
    if s is None:
        ja, en = STRINGS["sugoroku.set_up"]  # the console's button
        raise Conflict(f"まず準備をしてください（GMが「{ja}」で始めます）", f"Set the game up first (the GM's '{en}' button)")
    return s


def readings(state: State) -> dict:
    """The readings the GM switched for this session (core keeps them; the rule functions fill in defaults)."""
    return dict(state.readings)


def flow_reading(state: State, key: str) -> Any:
    """A Reading owned by the flow (not sugoroku_rules)."""
    return readings(state).get(key, FLOW_READINGS[key]["default"])


def acting_seat(state: State, payload: dict, ctx) -> str:
    """The seat an action is for: a phone acts for itself; the GM names the seat; no seat acts once the game is over,
    nor one that is out of the war."""
    seat = payload.get("seat")
    if not ctx.viewer.is_gm:
        if seat not in (None, "", ctx.viewer.seat):
            raise Forbidden("他の席の操作はできません", "You can only act for your own seat")
        seat = ctx.viewer.seat
    else:
        seat = text_field(payload, "seat", ja="席")  # a list or an object: `The seat must be text`
    if seat in (None, ""):
        raise GmError("席を選んでください", "Choose a seat")
    if str(seat) not in state.seats:
        raise NotFound("その席はありません", "There is no such seat")  # an id is not what a player reads
    require_game_on(sg(state) or {})
    if str(seat) in (sg(state) or {}).get("out", []):  # S-10
        name = state.seat_name(str(seat))
        raise Conflict(f"{name}は脱落しています [S-10]", f"{name} is out of the war (S-10)")
    return str(seat)


def require_game_on(s: dict) -> None:
    """S-1: every step is refused once the game is over (the climax ended, or one player alone is left in the war)."""
    if s.get("finished"):
        raise Conflict("ゲームは終了しています", "The game is over")


def active(state: State) -> list[str]:
    """Seats still in the war (not eliminated), in seat order."""
    out = (sg(state) or {}).get("out", [])
    return [seat for seat in state.seats if seat not in out]


def at_goal(state: State, seat: str) -> bool:
    """Whether the seat reached the goal this round."""
    return seat in (sg(state) or {}).get("goal", [])


def current_mover(state: State) -> str | None:
    """S-3: the next seat to roll in this action phase (None when everyone has moved)."""
    s = sg(state)
    if s is None:
        return None
    for seat in s["order"]:
        if seat not in s["out"] and seat not in s["goal"] and seat not in s["moved"]:
            return seat
    return None


def just_rolled(state: State, seat: str) -> bool:
    """S-11: whether the seat's own roll of this phase is the last move (a free-move seal may ignore it, once), in a
    round not yet ended (between rounds nobody moves)."""
    s, last = sg(state), (sg(state) or {}).get("last_move")
    return bool(last and not s["round_ended"] and last["seat"] == seat and last["turn"] and last["phase"] == s["phase"] and seat in s["moved"])


def vote_waiting(state: State) -> bool:
    """S-13: the round's true-name vote (or its tie-break) is not finished: open, locked, or revealed and not confirmed
    (the next round waits for it)."""
    return any(pid.startswith("sg-vote") and (p.status in ("open", "locked") or (p.status == "revealed" and not p.confirmed))
               for pid, p in state.prompts.items())


def note_text(note: dict | None) -> dict | None:
    """A rule note as a {"ja", "en", "rule"} label."""
    return dict(note) if note else None


def round_check(state: State, goals: int | None = None, phases_done: int | None = None) -> dict:
    """S-2: whether the round is over (after `phases_done` action phases, `goals` players at goal)."""
    s = sg(state)
    goals = len(s["goal"]) if goals is None else goals
    phases_done = s["phase"] - 1 if phases_done is None else phases_done
    return R.round_over(s["round"], phases_done, goals, len(active(state)), readings(state))


def require_no_battle(s: dict, pending: bool = True) -> None:
    """S-7: rolls, phases and rounds wait for the battle in progress and (unless `pending` is False) the listed ones."""
    if s["battle"]:
        raise Conflict("戦闘中です。先に戦闘を終えてください", "A battle is in progress; finish it first")
    if pending and s["pending"]:
        raise Conflict("先に戦闘を行ってください", "Fight the pending battles first")


def require_round_on(s: dict, ending_phase: bool = False) -> None:
    """S-2: refuse once the round is over or its end condition is met (but for ending the phase that met it)."""
    if s["round_ended"] or s["finished"]:
        raise Conflict("ラウンドは終了しています", "The round is over")
    if s["round_over"] and not (ending_phase and s["moved"]):
        raise Conflict("ラウンド終了の条件を満たしています（GMがラウンドを終了）", "The round's end condition is met (the GM ends it)")


def reveal(tx: CounterRun, seat: str, reason: dict) -> None:
    """S-13: reveal a faction's true name (its committed prompt, if the GM entered one), once: not again when
    it is public or an earlier draft of the same action reveals it."""
    state = tx.state
    if is_revealed(state, seat) or ("sugoroku.true_name_revealed", seat) in ((t, d.get("seat")) for t, d in tx.drafts):
        return
    tx.emit("sugoroku.true_name_revealed", {"seat": seat, "reason": reason})
    pid = sg(state)["true_name_prompts"].get(seat)
    if pid and pid in state.prompts:
        tx.emit("prompt.revealed", {"prompt": pid, "reason": {"ja": reason["ja"], "en": reason["en"]}, "auto": False})


def count_reveal(tx: CounterRun, seat: str, why: tuple[str, str]) -> None:
    """S-13: one more skill use or battle; at 5 the true name is revealed."""
    tx.add(seat, "reveal_count", 1, why, "S-13")
    if R.reveal_by_count(tx.value(seat, "reveal_count")):
        reveal(tx, seat, {"ja": "スキル使用＋戦闘が5回に到達", "en": "skill uses + battles reached 5", "rule": "S-13"})


# -- setup ----------------------------------------------------------------------------------------

def _players(payload: dict) -> dict:
    players = payload.get("players")
    if isinstance(players, dict):
        return players
    if players not in (None, ""):
        raise GmError("プレイヤーの設定は席ごとに指定します", "'players' must be an object of seats")
    found: dict = {}
    for key, value in payload.items():  # form fields "s1.master", "s1.mana" …
        m = re.fullmatch(r"(\w+)\.(\w+)", str(key))
        if m:
            found.setdefault(m.group(1), {})[m.group(2)] = value
    return found


def _traits(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [t for t in re.split(r"[,、，\s]+", str(value or "")) if t]


def starting_vp_terms(spec: dict, rd: dict, name: str = "") -> tuple[int, list, list]:
    """S-14: starting VP from unspent CP (given, or computed from spent CP and the servant's traits); `name` the seat
    whose entry it is, named by a refusal (the setup form has one row per seat)."""
    ja, en = (f"{name}の", f" of {name}") if name else ("", "")
    if spec.get("unspent_cp") not in (None, ""):
        unspent, terms = parse_int(spec["unspent_cp"], f"{ja}余りCP", f"unspent CP{en}"), []
    elif spec.get("cp_spent") not in (None, ""):
        servant = R.servant_cp(_traits(spec.get("traits")), rd)
        spent = parse_int(spec["cp_spent"], f"{ja}使用CP", f"spent CP{en}")
        terms = [{"label": {"ja": "マスターCP", "en": "master CP"}, "value": R.MASTER_CP, "rule": "S-14"},
                 *servant["terms"], {"label": {"ja": "使用CP", "en": "spent CP"}, "value": -spent, "rule": "S-14"}]
        unspent = sum(t["value"] for t in terms)
    else:
        return 0, [], []
    if unspent < 0:
        raise GmError(f"{ja}CPを使いすぎています（余り{unspent}）", f"Too much CP spent{en} (unspent {unspent})")
    result = R.starting_vp(unspent)
    return result["value"], terms, result["terms"]


def setup_readings(state: State, chosen: Any) -> dict:
    """The readings chosen with the setup, each checked and stored as its choice's value (as core's readings route)."""
    if chosen in (None, ""):
        return {}
    if not isinstance(chosen, dict):
        raise GmError("解釈は解釈ごとにその値で指定します", "'readings' must be an object of reading names and values")
    pairs = (reading_choice(state, key, value) for key, value in chosen.items())
    return {reading.key: value for reading, value in pairs}


def setup(state: State, payload: dict, ctx) -> list:
    """S-1/S-3/S-5/S-14: names, starting 魔力 and VP, board length, turn order, optional skip to the climax."""
    require_open(state)
    if sg(state) is not None:
        raise Conflict("準備は済んでいます（やり直すにはGMの取り消し）", "Already set up (undo it to start over)")
    seats = list(state.seats)
    if not 2 <= len(seats) <= 7:
        raise GmError("双六聖杯戦争は2〜7人です", "Sugoroku is for 2 to 7 players")
    length = parse_int(payload.get("board_length") or R.DEFAULT_BOARD_LENGTH, "盤面のマス数", "board length")
    if not R.MIN_BOARD <= length <= R.MAX_BOARD:
        raise GmError(f"盤面は{R.MIN_BOARD}〜{R.MAX_BOARD}マスです", f"The board has {R.MIN_BOARD} to {R.MAX_BOARD} squares")
    skip = flag_field(payload, "skip_to_climax", ja="クライマックスから")
    if skip and not R.skip_to_climax_allowed(len(seats))["ok"]:
        raise GmError("クライマックスから始められるのは4人以下です [S-1]", "Only 4 players or fewer may skip to the climax [S-1]")
    order_in = payload.get("order")
    rolls: dict = {}
    if order_in in (None, "", []):
        order = seats
    elif order_in in ("roll", "ダイス"):  # the console's hint says ダイス in Japanese, roll in English
        result = R.initial_order(seats, ctx.dice)
        order, rolls = result["order"], result["rolls"]
    elif not isinstance(order_in, (str, list)):  # 5, true, an object: no order (an object's keys were taken for one)
        raise GmError("手番は席の名前をカンマ区切りで、またはリストで指定してください",
                      "Give the order as the seats' names separated by commas, or as a list")
    else:
        order = [o.strip() for o in re.split(r"[,、，\n]", order_in) if o.strip()] if isinstance(order_in, str) \
            else [str(o) for o in order_in]
        by_name = {seat.name: seat.id for seat in state.seats.values()}  # the console's form names the seats
        order = [o if o in state.seats else by_name.get(o, o) for o in order]
        if sorted(order) != sorted(seats):
            names = "、".join(state.seat_name(s) for s in seats)
            raise GmError(f"手番はすべての席を1回ずつ、名前をカンマ区切りで並べてください（{names}）",
                          f"The order must list every seat once, names separated by commas ({', '.join(state.seat_name(s) for s in seats)})")
    rd = setup_readings(state, payload.get("readings"))
    players, specs = {}, _players(payload)
    unknown = set(specs) - set(seats)
    if unknown:
        raise GmError("その席はありません", "There is no such seat")
    tx = CounterRun(state)
    first_round = "climax" if skip else "round1"
    tx.emit("sugoroku.setup", {})  # filled in below (the event leads the action: undoable)
    prompt_ids = {}
    for seat in seats:
        spec = specs.get(seat) or {}
        if not isinstance(spec, dict):
            raise GmError("プレイヤーの設定は席ごとに、項目とその値で指定します", "Each entry of 'players' must be an object")
        name = state.seat_name(seat)  # a refusal names the seat whose entry it is (one form row per seat)
        master = clean_text(spec.get("master"), f"{name}のマスター名", f"master name of {name}", required=False)
        servant = clean_text(spec.get("servant"), f"{name}のサーヴァント名", f"servant name of {name}", required=False)
        secret = clean_text(spec.get("true_name"), f"{name}の真名", f"true name of {name}", required=False)
        vp, cp_terms, vp_terms = starting_vp_terms(spec, rd, name)
        players[seat] = {"master": master, "servant": servant, "has_true_name": bool(secret),
                         "cp_terms": cp_terms, "vp_terms": vp_terms if vp else []}
        if secret:
            pid = prompt_ids[seat] = f"sg-tn-{seat}"
            title = {"ja": f"{state.seat_name(seat)}の真名", "en": f"True name of {state.seat_name(seat)}"}
            tx.drafts += P.open_prompt(state, pid, {"title": title, "kind": "text", "seats": [], "gm_submits": True,
                                              "meta": {"background": True}},
                                       ctx.resolvers)
            salt = ctx.salt()
            tx.emit("prompt.answered", {"prompt": pid, "by": "gm", "value": secret, "salt": salt,
                                        "commitment": commit(salt, secret), "change": False})
            tx.emit("prompt.locked", {"prompt": pid, "reason": {"ja": "真名は公開まで秘密（S-13）",
                                                                "en": "the true name stays secret until revealed (S-13)"}})
    tx.drafts[0] = ("sugoroku.setup", {
        "round": first_round, "board_length": length, "order": order, "order_rolls": rolls,
        **({"entered": dicelib.is_entered(ctx.dice)} if rolls else {}),  # the order rolled at the table (real dice)
        "players": players, "true_name_prompts": prompt_ids, "skip_to_climax": skip, "readings": rd,
        "dice_next": ctx.dice.next_index})
    for seat in seats:
        spec = specs.get(seat) or {}
        name = state.seat_name(seat)
        mana = parse_int(spec.get("mana") if spec.get("mana") not in (None, "") else 0, f"{name}の初期魔力",
                         f"starting mana of {name}")
        if not R.MANA_MIN <= mana <= R.MANA_MAX:
            raise GmError(f"{name}の初期魔力は{R.MANA_MIN}〜{R.MANA_MAX}です（{mana}）",
                          f"The starting mana of {name} must be in {R.MANA_MIN}..{R.MANA_MAX} ({mana})")
        if mana:
            tx.set(seat, "mana", mana, ("初期魔力（キャラクターごと）", "starting mana (per character)"), "S-5")
        if skip:
            tx.add(seat, "mana", R.SKIP_TO_CLIMAX_MANA, ("クライマックスから開始：初期魔力+5", "starting at the climax: mana +5"), "S-1")
        vp = sum(t["value"] for t in players[seat]["vp_terms"])
        if vp:
            tx.set(seat, "vp", vp, ("初期戦果：余ったCP 2点につき1点", "starting VP: 1 per 2 unspent CP"), "S-14")
    tx.emit("scene.marked", {"title": R.ROUND_LABELS[first_round].to_dict()})
    return tx.drafts


def parse_terrain(value: Any) -> dict:
    """地の利 from {"力": 2, "魔": -1} or text like "力+2 魔-1" / "Power +2 Magic -1" / "p+2 m-1"."""
    if isinstance(value, dict):
        items = value.items()
    else:
        text, pattern = shown(value or ""), rf"({R.ATTRIBUTE_TYPED})\s*([+\-−]?\d+)"  # true: "true", not "True"
        if re.sub(r"[\s,、，]+", "", re.sub(pattern, "", text, flags=re.I)):
            raise GmError(f"地の利「{text[:40]}」を読めません（例：力+2 魔−1）", f"Cannot read the terrain '{text[:40]}' (e.g. Power +2 Magic −1)")
        items = [(R.typed_attribute(a), v) for a, v in re.findall(pattern, text, flags=re.I)]
    out = {}
    for attr, v in items:
        if attr not in R.ATTRIBUTES:
            raise GmError("地の利の属性は力・魔・技です", "Terrain attributes are 力, 魔 and 技")
        number = parse_int(v, "地の利", "terrain")
        if number:
            out[attr] = number
    return out


def square_vp(value: Any) -> int:
    """S-8: a square's battle VP (勝利時戦果) as given: a whole number, 0 or more."""
    vp = parse_int(value, "勝利時戦果", "battle VP")
    if vp < 0:
        raise GmError(f"勝利時戦果は0以上です（{vp}）", f"The battle VP must be 0 or more ({vp})")
    return vp


def set_square(state: State, payload: dict, ctx) -> list:
    """S-7/S-8: a square's terrain (地の利) and battle VP, as printed on the board."""
    s = started(state)
    require_game_on(s)
    square = parse_int(payload.get("square"), "マス", "square")
    if not 1 <= square <= s["board_length"]:
        raise GmError(f"マスは1〜{s['board_length']}です", f"Squares are 1..{s['board_length']}")
    vp = square_vp(payload.get("vp") if payload.get("vp") not in (None, "") else 0)
    return [("sugoroku.square_set", {"square": square, "terrain": parse_terrain(payload.get("terrain")), "vp": vp,
                                     "label": clean_text(payload.get("label"), "マスの名前", "square label", required=False)})]


# -- movement -------------------------------------------------------------------------------------

def move_to(tx: CounterRun, seat: str, frm: int, to: int, terms: list, move: int, turn: bool, rule: str,
            extra: dict | None = None) -> None:
    """Move a seat (clamped to the goal), with the S-9 goal processing when it arrives."""
    state, s = tx.state, sg(tx.state)
    to = max(0, min(to, s["board_length"]))
    tx.emit("sugoroku.moved", {"seat": seat, "from": frm, "to": to, "move": move, "terms": terms, "turn": turn,
                               "rule": rule, **(extra or {})})
    tx.set(seat, "position", to, (f"移動 マス{frm}→{to}", f"move: square {frm}→{to}"), rule)
    if to == s["board_length"] and not at_goal(state, seat):
        place = len(s["goal"]) + 1
        terms = list(R.goal_vp(place)["terms"])
        if s["round"] == "climax":
            terms += R.climax_seal_vp(tx.value(seat, "seals"))["terms"] if tx.value(seat, "seals") else []
        vp = sum(t["value"] for t in terms)
        over = round_check(state, goals=place)
        tx.emit("sugoroku.goal", {"seat": seat, "place": place, "phase": s["phase"], "vp": vp, "terms": terms,
                                  "round_over": note_text(over["reason"]) if over["over"] else None})
        tx.add(seat, "vp", vp, (f"ゴール{place}位" + ("＋令呪温存" if len(terms) > 1 else ""),
                                f"goal, place {place}" + (" + seals kept" if len(terms) > 1 else "")), "S-9")


def roll_move(state: State, payload: dict, ctx) -> list:
    """S-3/S-4/S-11: roll 1d6 on the server and move; `supply` halves it for 魔力+1; `seal`="extra_die" adds a die."""
    s = started(state)
    seat = acting_seat(state, payload, ctx)
    require_no_battle(s)
    require_round_on(s)
    mover = current_mover(state)
    if mover is None:
        raise Conflict("全員が移動済みです（GMが行動フェイズを終了）", "Everyone has moved (the GM ends the action phase)")
    if seat != mover:
        raise Conflict(f"今は{state.seat_name(mover)}の手番です", f"It is {state.seat_name(mover)}'s turn")
    seal = payload.get("seal") or None
    if seal not in (None, "extra_die"):
        ja, en = STRINGS["sugoroku.seal_extra_die"]
        raise GmError(f"振るときに使える令呪は「{ja}」だけです", f"Only the seal '{en}' [extra_die] is used when rolling")
    tx = CounterRun(state)
    expr = "2D6" if seal else "1D6"
    roll = dicelib.roll(expr, ctx.dice)
    name = state.seat_name(seat)  # the GM rolling for a player: the roll says whose move it is on every screen
    label = {"ja": f"{name}の移動（S-3）", "en": f"{name}'s move (S-3)"} if ctx.viewer.is_gm else {
        "ja": "移動（S-3）", "en": "Move (S-3)"}
    tx.emit("dice.rolled", {"label": label, "roll": roll.to_dict(),
                            "dice_next": ctx.dice.next_index})
    faces = [d for t in roll.terms for d in t.get("rolls", [])] or [roll.total]
    terms = [{"label": {"ja": "出目", "en": "roll"}, "value": faces[0], "rule": "S-3"}]
    if seal:
        left = tx.value(seat, "seals")
        R.use_seal("extra_die", left, roll=faces[0], dice=dicelib.FixedDice(faces[1:2]))
        terms.append({"label": {"ja": "令呪の追加ダイス", "en": "seal's extra die"}, "value": faces[1], "rule": "S-11"})
        tx.emit("sugoroku.seal_used", {"seat": seat, "effect": "extra_die", "label": R.SEAL_EFFECTS["extra_die"].to_dict(),
                                       "seals": left - 1})
        tx.add(seat, "seals", -1, ("令呪：サイコロを1つ追加", "seal: one more die"), "S-11")
    move = roll.total
    supply = flag_field(payload, "supply", ja="魔力供給")
    if supply:
        result = R.supply_move(move)
        terms.append(result["terms"][1])
        move = result["move"]
    frm = tx.value(seat, "position")
    move_to(tx, seat, frm, frm + move, terms, move, True, "S-4" if supply else "S-3", {"supply": supply, "base": frm})
    if supply:
        tx.add(seat, "mana", 1, ("魔力供給（出目半分）", "mana supply (half the roll)"), "S-4")
    return tx.drafts


def skip_turn(state: State, payload: dict, ctx) -> list:
    """S-3: the GM passes the current mover's turn (an effect, an absent player)."""
    s = started(state)
    require_no_battle(s)
    # nobody to skip once the round is over, as nobody rolls then (roll_move's require_round_on)
    mover = None if s["round_ended"] or s["round_over"] else current_mover(state)
    seat = text_field(payload, "seat", mover or "", ja="席")  # no seat: the current mover's (sugoroku.md §3)
    if seat and seat not in state.seats:
        raise NotFound("その席はありません", "There is no such seat")
    require_game_on(s)
    if mover is None or seat != mover:
        raise Conflict("飛ばせるのは今の手番の席だけです", "Only the current mover's turn can be skipped")
    return [("sugoroku.turn_skipped", {"seat": seat, "reason": clean_text(payload.get("reason"), "理由", "reason", 200, False)})]


def square_event(state: State, payload: dict, ctx) -> list:
    """The GM applies a square's event (S-3): 魔力 / 戦果 / カルマ / 令呪 changes and a move, with its label."""
    started(state)
    seat = acting_seat(state, payload, ctx)
    typed = clean_text(payload.get("label"), "イベント名", "event label", 60, False)
    label = typed or {"ja": "マスのイベント", "en": "square event"}
    tx = CounterRun(state)
    square = tx.value(seat, "position")
    reason = (f"{typed or label['ja']}（マス{square}）", f"{typed or label['en']} (square {square})")
    for key, rule in (("mana", "S-5"), ("vp", "S-3"), ("karma", "S-12"), ("seals", "S-11")):
        if payload.get(key) not in (None, "", 0, "0"):
            tx.add(seat, key, parse_int(payload[key], key, key), reason, rule)
    if payload.get("move") not in (None, "", 0, "0"):
        step = parse_int(payload["move"], "移動", "move")
        frm = tx.value(seat, "position")
        if max(0, min(frm + step, sg(state)["board_length"])) != frm:  # not back from the start, not on from the goal
            move_to(tx, seat, frm, frm + step, [{"label": label, "value": step, "rule": "S-3"}], step, False, "S-3")
    if not tx.drafts:
        raise GmError("変化がありません（各カウンターの範囲内）", "Nothing changes (every counter stays within its bounds)")
    return tx.drafts


def in_challenge(s: dict, seat: str) -> bool:
    """S-6: whether a faction challenges or is challenged in this action phase (one challenge each)."""
    return any(seat in (c["seat"], c["target"]) for c in s["challenges"])


def challenge_targets(state: State, seat: str) -> list[str]:
    """S-6 挑戦 (the battle preparation, after every turn): whom `seat` may challenge now; the reason
    why nobody (Conflict / GmError) otherwise."""
    s = started(state)
    if s["round_over"] or s["round_ended"] or current_mover(state) is not None:
        raise Conflict("挑戦は全員の移動が終わってから（戦闘準備）です [S-6]",
                       "A challenge is made once everyone has moved (S-6)")
    positions = {p: state.counters[p]["position"] for p in active(state)
                 if not at_goal(state, p) and state.counters[p]["position"] > 0}
    if seat not in positions:
        raise Conflict("スタートかゴールにいると挑戦できません", "You cannot challenge from the start or the goal")
    if in_challenge(s, seat):
        raise Conflict("この行動フェイズでは既に挑戦に関わっています [S-6]",
                       "You are in a challenge of this action phase already (S-6)")
    check = R.can_challenge(positions, seat, state.counters[seat]["mana"])
    if not check["ok"]:
        raise GmError(check["reason"]["ja"], check["reason"]["en"])
    return check["targets"]


def target_refusal(state: State, target: str) -> Conflict | None:
    """S-6: why a faction within reach cannot be challenged (its own square's battle, a challenge already), or None."""
    name, here = state.seat_name(target), state.counters[target]["position"]
    if any(p != target and state.counters[p]["position"] == here for p in active(state)):
        return Conflict(f"{name}は自分のマスで戦闘になります [S-6]", f"{name} fights on its own square already (S-6)")
    if in_challenge(sg(state), target):
        return Conflict(f"{name}は既に挑戦に関わっています [S-6]", f"{name} is in a challenge already (S-6)")
    return None


def challenge(state: State, payload: dict, ctx) -> list:
    """S-6 挑戦: nobody on my square, someone within ±1: pay 1 魔力; after the phase I fight them as the child."""
    started(state)
    seat = acting_seat(state, payload, ctx)
    target = text_field(payload, "target", ja="挑戦する相手")
    targets = challenge_targets(state, seat)
    if target not in targets:
        names = "・".join(state.seat_name(t) for t in targets)
        raise GmError(f"挑戦できる相手：{names}", f"You may challenge: {names}")
    refusal = target_refusal(state, target)
    if refusal:
        raise refusal
    name = state.seat_name(target)
    tx = CounterRun(state)
    cost = R.CHALLENGE_COST
    tx.emit("sugoroku.challenged", {"seat": seat, "target": target, "cost": cost})
    tx.add(seat, "mana", -cost, (f"{name}に挑戦", f"challenging {name}"), "S-6")
    return tx.drafts


def end_phase(state: State, payload: dict, ctx) -> list:
    """S-3/S-7: end the action phase: rotate the order, list the battles (same square, challenges), check S-2."""
    s = started(state)
    require_no_battle(s)
    require_round_on(s, ending_phase=True)
    waiting = current_mover(state)
    if waiting and not flag_field(payload, "force", ja="強制"):
        raise Conflict(f"{state.seat_name(waiting)}がまだ移動していません（それでも終えるなら「行動フェイズ終了 (強制)」）",
                       f"{state.seat_name(waiting)} has not moved yet (to end it anyway: 'End the action phase (force)')")
    squares: dict[int, list[str]] = {}
    for seat in active(state):
        pos = state.counters[seat]["position"]
        if 0 < pos < s["board_length"]:
            squares.setdefault(pos, []).append(seat)
    battles, fighting = [], set()
    for pos in sorted(squares):
        if len(squares[pos]) > 1:
            fighters = sorted(squares[pos], key=lambda p: s["arrived"].get(p, 0))
            battles.append({"square": pos, "fighters": fighters, "challenge": False})
            fighting.update(fighters)
    for c in s["challenges"]:
        if c["seat"] not in fighting and c["target"] not in fighting:
            battles.append({"square": state.counters[c["target"]]["position"], "fighters": [c["target"], c["seat"]],
                            "challenge": True})
            fighting.update((c["seat"], c["target"]))
    over = round_check(state, phases_done=s["phase"])
    return [("sugoroku.phase_ended", {"phase": s["phase"], "order": R.turn_order_after_phase(s["order"]),
                                      "battles": battles,
                                      "round_over": note_text(over["reason"]) if over["over"] else None})]
