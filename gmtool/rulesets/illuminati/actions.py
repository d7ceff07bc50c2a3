"""The illuminati actions: each a pure function (state, payload, ctx) -> drafts, refusing bad input in both languages.

Docs: docs/rulesets/illuminati.md lists every action with its payload, who may call it and its errors.
"""

from __future__ import annotations

from typing import Any

from gmtool.core import prompts
from gmtool.core.commands import clean_text, counter_drafts, flag_field, parse_int, require_open, seat_of
from gmtool.core.dice import FacesShort, is_entered
from gmtool.core.errors import Conflict, Forbidden, GmError, choices_text, shown
from gmtool.core.ruleset import action, reading_value
from gmtool.core.turns import Turns

from . import attack as atk
from . import opening, rules
from .alignments import parse_alignments
from .events import KINDS as VICTORY_KINDS, OUT as OUT_REASONS, PURPOSES as TOKEN_PURPOSES
from .readings import PARENT_BONUS, TIES
from .state import STAGES, active, current, peek
from .strings import STRINGS

PLACEMENT_KIND = "illuminati_card"


# -- helpers ----------------------------------------------------------------------------------------

def _actor_seat(state, payload: dict, ctx) -> str:
    """The seat an action is for: the caller's own seat, or the one the GM names."""
    if ctx.viewer.is_gm:
        return seat_of(state, payload.get("seat")).id
    seat = ctx.viewer.seat
    if payload.get("seat") not in (None, "", seat):
        raise Forbidden("他の席の操作はできません", "You can only act for your own seat")
    return seat


def _stage(state, *stages: str) -> dict:
    require_open(state)
    g = peek(state)
    if g["stage"] not in stages:
        ja, en = STAGES[g["stage"]]
        raise Conflict(f"今はこの操作はできません（段階：{ja}）", f"Not now (the game's stage: {en})")
    return g


def _player(g: dict, seat: str) -> None:
    if seat not in g["players"]:
        raise GmError("その席はこのゲームのプレイヤーではありません", "That seat is not a player of this game")
    if seat in g["out"]:
        raise Conflict("その席は脱落しています", "That player is out")


def _changes(state, changes: list[tuple[str, str, int, tuple[str, str]]], rule: str = "") -> list:
    """Counter drafts for several changes, each with its reason (Japanese, English); changes to the same
    counter are summed first (counter_drafts reads the state)."""
    total: dict[tuple[str, str], int] = {}
    reasons: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for seat, key, delta, reason in changes:
        total[(seat, key)] = total.get((seat, key), 0) + int(delta)
        reasons.setdefault((seat, key), []).append(reason)
    drafts: list = []
    for (seat, key), delta in total.items():
        if delta:
            new = state.counters[seat][key] + delta
            reason = {"ja": "・".join(r[0] for r in reasons[(seat, key)]),
                      "en": "; ".join(r[1] for r in reasons[(seat, key)])}
            drafts += counter_drafts(state, seat, key, new, reason, rule)
    return drafts


def _need(state, seat: str, key: str, amount: int) -> None:
    have = state.counters[seat][key]
    if have < amount:
        label = state.counter_def(key).label
        raise Conflict(f"{state.seat_name(seat)}の{label.ja}が足りません（{have}、必要{amount}）",
                       f"{state.seat_name(seat)} has too few {label.en} ({have}, needs {amount})")


def _int(value: Any, ja: str, en: str, lo: int = 0, hi: int = 99, default: int | None = None) -> int:
    """A whole number within lo..hi; an empty form field is `default` when one is given."""
    if value in (None, "") and default is not None:
        return default
    n = parse_int(value, ja, en)
    if not lo <= n <= hi:
        raise GmError(f"{ja}は{lo}〜{hi}です（{n}）", f"The {en} must be within {lo}..{hi} (got {n})")
    return n


def _choice(value: Any, allowed: dict[str, tuple[str, str]], ja: str, en: str, default: Any = None) -> str:
    """One of `allowed` ({code: (Japanese, English) words}); a refusal names the choices in words (the English with
    their codes, which docs/rulesets/illuminati.md gives)."""
    if value in (None, "") and default is not None:
        return default
    if not isinstance(value, str) or value not in allowed:  # quoted as JSON writes it (null, true, {"a": 1})
        words_ja, words_en = choices_text(allowed)
        raise GmError(f"{ja}は{words_ja}のどれかです（「{shown(value)[:20]}」）",
                      f"The {en} must be one of: {words_en} (got '{shown(value)[:20]}')")
    return value


def _words(keys: dict[str, str]) -> dict[str, tuple[str, str]]:
    """{code: the words the screens' forms show for it (strings.py)}."""
    return {code: STRINGS[key] for code, key in keys.items()}


AUTO_CONTROL = _words({"none": "illuminati.auto_none", "group": "illuminati.auto_group",
                       "resource": "illuminati.auto_resource"})
TOKEN_SOURCES = _words({"illuminati": "illuminati.tok_ill", "group": "illuminati.tok_grp"})
ATTACK_PURPOSES = _words({atk.CONTROL: "illuminati.control", atk.DESTROY: "illuminati.destroy"})
CARD_KINDS = _words({"illuminati": "illuminati.kind_illuminati", "group": "illuminati.kind_group"})
POWERS = _words({"normal": "illuminati.use_normal", "global": "illuminati.use_global"})
POSITIONS = _words({"child": "illuminati.child", "grandchild": "illuminati.grandchild", "further": "illuminati.further"})
PAYMENTS = _words({"token": "illuminati.pay_token", "plot": "illuminati.pay_plot"})
SUPPORT_SIDES = _words({"attack": "illuminati.support_attack", "defense": "illuminati.support_defense"})
SUPPORT_KINDS = _words({"aligned": "illuminati.sk_aligned", "global": "illuminati.sk_global", "agent": "illuminati.sk_agent",
                        "target": "illuminati.sk_target", "adjacent": "illuminati.sk_adjacent"})
MODIFIED_SIDES = _words({"attack": "illuminati.attack_total", "defense": "illuminati.defense_total"})
VICTORIES = {k: VICTORY_KINDS[k] for k in ("basic", "special", "goal_card")}


# -- I-1 regulation ---------------------------------------------------------------------------------

def setup(state, payload: dict, ctx) -> list:
    """I-1: the players and the basic goal (by player count, a two-player tournament, or agreed)."""
    g = _stage(state, "setup", "illuminati", "groups", "order")
    players = payload.get("players")
    if g["stage"] != "setup" and players not in (None, g["players"]):
        raise Conflict("プレイヤーは配置の開始前にだけ変えられます", "Players can only change before the opening starts")
    if players in (None, ""):  # every seat (a seat added since a setup plays too); once the opening began, its players
        players = list(state.seats) if g["stage"] == "setup" else g["players"]
    if isinstance(players, str):  # one checkbox ticked on the form
        players = [players]
    if not isinstance(players, list):
        raise GmError("プレイヤーは席のリストで指定してください", "'players' must be a list of seat ids")
    chosen = {seat_of(state, p).id for p in players}
    players = [s for s in state.seats if s in chosen]  # in seat order: the order dice are entered and ties kept (I-3)
    tournament = flag_field(payload, "tournament", ja="2人大会")
    if tournament and len(players) != rules.TOURNAMENT_PLAYERS:
        n = len(players)
        raise GmError(f"大会ルール（ゴール12）は2人対戦だけのルールです。プレイヤーが{n}人なので選べません"
                      f"（{n}人の基本ゴールは{rules.basic_goal(n)}組織）",
                      f"The tournament goal (12) is a two-player rule only: it cannot be chosen with {n} players "
                      f"(the basic goal for {n} is {rules.basic_goal(n)} groups)")
    goal = rules.basic_goal(len(players), tournament)
    basis = "tournament" if tournament else "players"
    if payload.get("goal") not in (None, ""):
        agreed = _int(payload.get("goal"), "ゴール", "goal", 1, 40)
        if agreed != goal:
            goal, basis = agreed, "agreed"
    return [("illuminati.regulation_set", {"players": players, "goal": goal, "basis": basis,
                                           "tournament": tournament, "rule": "I-1"})]


# -- I-2 simultaneous placement ---------------------------------------------------------------------

def _open_placement(state, stage: str, seats: list[str], round_no: int, ctx) -> list:
    prompt_id = f"ill{len(state.prompts) + 1}"
    if stage == "illuminati":
        title = {"ja": "イルミナティを裏向きに配置", "en": "Place your Illuminati"}
    else:
        title = {"ja": f"初期グループ 第{round_no}回", "en": f"Starting group, round {round_no}"}
    spec = {"title": title, "kind": PLACEMENT_KIND, "seats": seats, "meta": {"illuminati": stage, "round": round_no}}
    return ([("illuminati.placement_opened", {"stage": stage, "prompt": prompt_id, "round": round_no,
                                              "seats": seats, "rule": "I-2"})]
            + prompts.open_prompt(state, prompt_id, spec, ctx.resolvers, custom=True))


def opening_start(state, payload: dict, ctx) -> list:
    """I-2: every player places an Illuminati face down (a secret prompt on each phone)."""
    g = _stage(state, "setup")
    if g["goal"] is None:
        raise Conflict("先にレギュレーションを決めてください", "Set the regulation (setup) first")
    return _open_placement(state, "illuminati", list(g["players"]), 0, ctx)


def opening_next(state, payload: dict, ctx) -> list:
    """I-2: after a reveal, settle it: record the Illuminati, or keep unique groups and let the duplicates choose again."""
    g = _stage(state, "illuminati", "groups")
    prompt = state.prompts.get(g["prompt"] or "")
    if prompt is None:
        raise Conflict("配置の質問がありません", "There is no placement prompt")
    if prompt.status in ("open", "locked"):
        waiting = [s for s in prompt.seats if s not in prompt.answers]
        if waiting:
            names = "・".join(state.seat_name(s) for s in waiting)
            raise Conflict(f"まだ配置していない人がいます：{names}",
                           f"Still waiting for: {', '.join(state.seat_name(s) for s in waiting)}")
        raise Conflict("まだ公開されていません", "Not revealed yet")
    if prompt.status == "cancelled":  # the GM cancelled the round: the same players place again
        return _open_placement(state, g["stage"], list(prompt.seats), g["round"], ctx)
    choices = {s: prompt.answers[s].value for s in prompt.seats if s in prompt.answers}
    missing = [s for s in prompt.seats if s not in prompt.answers]  # the GM revealed before they placed
    if g["stage"] == "illuminati":
        drafts = [("illuminati.illuminati_revealed", {"choices": choices, "missing": missing, "rule": "I-2"})]
        if missing:
            return drafts + _open_placement(state, "illuminati", missing, 0, ctx)
        return drafts + _open_placement(state, "groups", list(g["players"]), 1, ctx)
    settled = opening.settle_groups(choices)
    settled["again"] += missing
    drafts = [("illuminati.groups_revealed", {"round": g["round"], "choices": choices, "rule": "I-2", **settled})]
    drafts += _changes(state, [(s, "groups", 1, ("初期グループ", "starting group")) for s in settled["kept"]], "I-2")
    if settled["again"]:
        drafts += _open_placement(state, "groups", settled["again"], g["round"] + 1, ctx)
    return drafts


def validate_placement(prompt, who: str, value: Any, state) -> str:
    """A placement answer: a card name; a group nobody kept and not set aside (I-2)."""
    name = clean_text(value, "カード名", "card name")  # at most 40, as every name (the longest card's is 34): 72 wrapped the standings
    if prompt.meta.get("illuminati") == "groups":
        g = peek(state)
        why = opening.unavailable(name, g["kept"], g["set_aside"])
        if why == "kept":
            raise GmError(f"「{name}」は既に場に出ています", f"'{name}' is already on the table")
        if why == "set_aside":
            raise GmError(f"「{name}」は重複のため脇に置かれています", f"'{name}' was set aside as a duplicate")
    return name


# -- I-3 play order ---------------------------------------------------------------------------------

def roll_order(state, payload: dict, ctx) -> list:
    """I-3: each player rolls 2d6; higher totals first; ties re-roll among the tied (reading I-3)."""
    g = _stage(state, "order")
    try:
        result = opening.play_order(list(g["players"]), ctx.dice, reroll_ties=reading_value(state, TIES) == "reroll")
    except FacesShort as short:  # real dice: say whose faces are missing, not only which die
        raise _faces_short(state, g, short) from None
    return [("illuminati.order_rolled", {**result, "entered": is_entered(ctx.dice), "rule": "I-3",
                                         "dice_next": ctx.dice.next_index}), _round_scene(1)]


def _faces_short(state, g: dict, short: FacesShort) -> GmError:
    """I-3 with real dice, too few faces: everyone's 2d6 first (seat order), then the re-rolls of a tie, in the players'
    names (core's message said only 「7個目のd6」 / "die 7, a d6")."""
    n = short.used
    if short.tie is None:
        need = 2 * len(g["players"])
        return GmError(f"実ダイスの出目が足りません：プレイ順は全員が2d6を振ります（{len(g['players'])}人で{need}個、入力{n}個）",
                       f"Not enough entered faces: everyone rolls 2d6 for the play order ({need} faces for "
                       f"{len(g['players'])} players, {n} entered)")
    seats, total, first = short.tie
    names = [state.seat_name(s) for s in seats]
    ja_names = "と".join(names) if len(names) == 2 else "・".join(names)
    en_names = ", ".join(names[:-1]) + f" and {names[-1]}"
    others = len(seats) < len(active(g))
    after = "the others' faces" if others else "the first roll's faces"
    return GmError(f"実ダイスの出目が足りません：{ja_names}が{total}で同点です。振り直しの出目（1人2個）を"
                   f"{'他の人の出目' if others else '最初の出目'}の後に続けて入力してください（{first + 1}個目から）",
                   f"Not enough entered faces: {en_names} tied at {total}. Enter their re-roll faces (2 each) "
                   f"after {after} (from face {first + 1})")


def _round_scene(n: int, ended: bool = False) -> tuple[str, dict]:
    """A round of turns is a scene (core's scene mark, as sugoroku's rounds): the write-up's heading, and the phones
    show the results revealed since it, so the opening's placements (I-2), set-up, leave them once play begins.
    `ended`: the action that marks it ended the round before (an end_turn, a player out on their turn): what it did
    before the mark, an attack's roll included, stays in that round on the screens (core's `from_mark`); the round's
    order rolled with its mark (roll_order) is of the new round."""
    return ("scene.marked", {"title": {"ja": f"{n}巡目", "en": f"Round {n}"}, **({"from_mark": True} if ended else {})})


# -- turns ------------------------------------------------------------------------------------------

def _turn_seat(state, payload, ctx) -> tuple[dict, str]:
    g = _stage(state, "play")
    seat = current(g)
    if not ctx.viewer.is_gm and ctx.viewer.seat != seat:
        raise Conflict("あなたの手番ではありません", "It is not your turn")
    return g, seat


def start_turn(state, payload: dict, ctx) -> list:
    """Start of a turn: optional draws, an automatic control, then action tokens (two-player tournament rule)."""
    g, seat = _turn_seat(state, payload, ctx)
    if g["turn"]["started"]:
        raise Conflict("このターンは既に開始しています", "This turn has already begun")
    auto = _choice(payload.get("auto_control"), AUTO_CONTROL, "自動支配", "automatic control", "none")
    draw_plot, draw_group = flag_field(payload, "draw_plot", ja="プロットを1枚引く"), flag_field(payload, "draw_group", ja="グループを1枚引く")
    c = state.counters[seat]
    group_hand = c["group_hand"] + (1 if draw_group else 0)
    if auto != "none" and group_hand < 1:
        raise Conflict("手札にグループ・リソースがありません", "No group or resource card in the hand")
    changes = []
    if draw_plot:
        changes.append((seat, "plot_hand", 1, ("ターン開始のドロー", "draw")))
    if draw_group:
        changes.append((seat, "group_hand", 1, ("ターン開始のドロー", "draw")))
    groups = c["groups"]
    if auto == "group":
        changes += [(seat, "group_hand", -1, ("自動支配", "automatic control")), (seat, "groups", 1, ("自動支配", "automatic control"))]
        groups += 1
    elif auto == "resource":
        changes += [(seat, "group_hand", -1, ("自動支配", "automatic control")), (seat, "resources", 1, ("自動支配", "automatic control"))]
    tokens = rules.turn_tokens(groups, c["tokens_illuminati"], c["tokens_groups"], auto != "none",
                               g["tournament"] and len(g["players"]) == 2)
    changes += [(seat, "tokens_illuminati", tokens[0] - c["tokens_illuminati"], ("トークン配置", "tokens placed")),
                (seat, "tokens_groups", tokens[1] - c["tokens_groups"], ("トークン配置", "tokens placed"))]
    return ([("illuminati.turn_started", {"seat": seat, "auto_control": auto, "draw_plot": draw_plot,
                                          "draw_group": draw_group, "tokens": list(tokens)})]
            + _changes(state, changes))


def spend(state, payload: dict, ctx) -> list:
    """Spend action tokens: move a group, draw a group card (once a turn), draw a plot card (1 Illuminati / 2 group tokens)."""
    g = _stage(state, "play")
    seat = _actor_seat(state, payload, ctx)
    _player(g, seat)
    purpose = _choice(payload.get("purpose"), TOKEN_PURPOSES, "用途", "purpose")
    source = _choice(payload.get("source"), TOKEN_SOURCES, "トークンの場所", "token source", "group")
    label = clean_text(payload.get("label"), "メモ", "note", limit=40, required=False)
    count, changes = 1, []
    if purpose in ("move", "draw_group") and seat != current(g):
        raise Conflict("自分のターンにだけできます", "Only in your own turn")
    if purpose == "move" and source != "group":
        raise GmError("移動はグループのトークンを使います", "Moving uses a group's token")
    if purpose == "draw_group":
        if g["turn"]["group_draw"]:
            raise Conflict("グループのドローは1ターンに1回です", "Drawing a group card is once per turn")
        changes.append((seat, "group_hand", 1, ("トークンでドロー", "drawn with a token")))
    if purpose == "draw_plot":
        count = rules.plot_draw_cost(source)
        changes.append((seat, "plot_hand", 1, ("トークンでドロー", "drawn with tokens")))
    key = "tokens_illuminati" if source == "illuminati" else "tokens_groups"
    _need(state, seat, key, count)
    changes.append((seat, key, -count, ("トークン消費（" + TOKEN_PURPOSES[purpose][0] + "）", f"token spent ({TOKEN_PURPOSES[purpose][1]})")))
    return ([("illuminati.token_spent", {"seat": seat, "purpose": purpose, "source": source, "count": count,
                                         "label": label})] + _changes(state, changes))


def place_agent(state, payload: dict, ctx) -> list:
    """An Illuminati agent from the plot hand: an opponent's Illuminati, not one's own, one per name (I-4 +3)."""
    g = _stage(state, "play")
    seat = _actor_seat(state, payload, ctx)
    _player(g, seat)
    name = clean_text(payload.get("illuminati"), "イルミナティ名", "Illuminati name")
    key = opening.card_key(name)
    others = {opening.card_key(v): v for s, v in g["illuminati"].items() if s != seat}
    if key == opening.card_key(g["illuminati"].get(seat, "")):
        raise GmError("自分と同じイルミナティはエージェントにできません", "Your own Illuminati cannot be your agent")
    if key not in others:
        raise GmError(f"「{name}」を使う相手はいません", f"No opponent uses '{name}'")
    if key in {opening.card_key(a) for a in g["agents"].get(seat, [])}:
        raise Conflict("そのエージェントは既に配置しています", "That agent is already placed")
    _need(state, seat, "plot_hand", 1)
    return ([("illuminati.agent_placed", {"seat": seat, "illuminati": others[key]})]
            + _changes(state, [(seat, "plot_hand", -1, ("エージェント配置", "agent placed"))]))


# -- I-4 / I-5 the attack ---------------------------------------------------------------------------

FLAT = {"attacker": ("kind", "name", "power", "global_power", "use", "alignments"),
        "target": ("name", "owner", "power", "resistance", "alignments", "position", "parent_alignments",
                   "subtree", "tokens")}


def _card(payload: dict, part: str, ja: str, en: str) -> dict:
    """The attacker or the target: a JSON object, or flat form fields named `<part>_<field>`."""
    value = payload.get(part)
    if value is None and any(f"{part}_{k}" in payload for k in FLAT[part]):
        value = {k: payload[f"{part}_{k}"] for k in FLAT[part] if f"{part}_{k}" in payload}
    if not isinstance(value, dict):
        raise GmError(f"{ja}の情報（オブジェクト）がありません", f"The {en} must be an object")
    return value


def declare_attack(state, payload: dict, ctx) -> list:
    """I-4: the attacker declares purpose, attacker and target and pays a token (or a plot card)."""
    g, seat = _turn_seat(state, payload, ctx)
    if g["attack"] is not None:
        raise Conflict("別の攻撃が進行中です", "Another attack is in progress")
    purpose = _choice(payload.get("purpose"), ATTACK_PURPOSES, "攻撃の目的", "purpose")
    a = _card(payload, "attacker", "攻撃要員", "attacker")
    t = _card(payload, "target", "攻撃対象", "target")
    kind = _choice(a.get("kind"), CARD_KINDS, "攻撃要員の種類", "attacker kind", "group")
    if kind == "illuminati":
        name = clean_text(a.get("name") or g["illuminati"].get(seat), "攻撃要員の名前", "attacker's name")
    else:
        name = clean_text(a.get("name"), "攻撃要員の名前", "attacker's name")
    power = _int(a.get("power"), "攻撃要員のパワー", "attacker's power")
    global_power = None if a.get("global_power") in (None, "") else _int(a.get("global_power"), "グローバルパワー", "global power")
    use = _choice(a.get("use"), POWERS, "使うパワー", "power used", "normal")
    if use == "global" and global_power is None:
        raise GmError("グローバルパワーがない攻撃要員です", "The attacker has no global power")
    owner = t.get("owner") or None
    if owner is not None:
        owner = seat_of(state, owner).id
        _player(g, owner)
    if owner is None and purpose != atk.CONTROL:
        raise GmError("手札のグループは支配目的でだけ攻撃対象にできます", "A group from the hand can only be a control target")
    if owner == seat and purpose != atk.DESTROY:
        raise GmError("自分のグループは破壊目的でだけ攻撃できます", "Your own group can only be attacked to destroy it")
    position = "hand" if owner is None else _choice(t.get("position"), POSITIONS,
                                                    "対象の位置", "target position", "further")
    target = {
        "name": clean_text(t.get("name"), "攻撃対象の名前", "target's name"), "owner": owner,
        "power": _int(t.get("power"), "対象のパワー", "target's power", default=0),
        "resistance": _int(t.get("resistance"), "対象の抵抗", "target's resistance", default=0),
        "alignments": parse_alignments(t.get("alignments"), "対象の属性", "target alignment"),
        "position": position,
        "parent_alignments": [] if owner is None else parse_alignments(t.get("parent_alignments"), "親の属性", "parent alignment"),
        "subtree": 0 if owner is None else _int(t.get("subtree"), "下流のグループ数", "groups below the target", default=0),
        "tokens": 0 if owner is None else _int(t.get("tokens"), "対象と下流のトークン", "tokens on the target and below", default=0),
    }
    if owner is not None:
        if 1 + target["subtree"] > state.counters[owner]["groups"]:
            raise GmError("対象と下流の数が持ち主のグループ数を超えています", "The target and its subtree exceed the owner's groups")
        if target["tokens"] > state.counters[owner]["tokens_groups"]:
            raise GmError("対象と下流のトークンが持ち主のトークン数を超えています",
                          "More tokens on the target than its owner has on groups")
    pay = _choice(payload.get("pay"), PAYMENTS, "攻撃の開始方法", "payment", "token")
    changes = []
    if pay == "plot":
        _need(state, seat, "plot_hand", 1)
        changes.append((seat, "plot_hand", -1, ("攻撃用プロット", "attack plot")))
    else:
        key = "tokens_illuminati" if kind == "illuminati" else "tokens_groups"
        _need(state, seat, key, 1)
        changes.append((seat, key, -1, ("攻撃のトークン", "attack token")))
    if owner is None:
        _need(state, seat, "group_hand", 1)
        changes.append((seat, "group_hand", -1, ("手札から攻撃対象", "target from the hand")))
    mine, theirs = g["illuminati"].get(seat, ""), g["illuminati"].get(owner, "") if owner else ""
    agents = {opening.card_key(x) for x in g["agents"].get(seat, [])}
    their_agents = {opening.card_key(x) for x in g["agents"].get(owner, [])} if owner else set()
    attack = {
        "id": g["next_attack"], "attacker_seat": seat, "purpose": purpose, "pay": pay,
        "attacker": {"kind": kind, "name": name, "power": power, "global_power": global_power, "use": use,
                     "alignments": parse_alignments(a.get("alignments"), "攻撃要員の属性", "attacker alignment")},
        "target": target,
        "same_illuminati": bool(owner and owner != seat and mine and opening.card_key(mine) == opening.card_key(theirs)),
        "attack_agent": bool(owner and owner != seat and theirs and opening.card_key(theirs) in agents),
        "defense_agent": bool(owner and owner != seat and mine and opening.card_key(mine) in their_agents),
    }
    return [("illuminati.attack_declared", {"attack": attack, "rule": "I-4"})] + _changes(state, changes, "I-4")


def _attack(state) -> dict:
    g = _stage(state, "play")
    if g["attack"] is None:
        raise Conflict("進行中の攻撃はありません", "There is no attack in progress")
    return g


def support(state, payload: dict, ctx) -> list:
    """I-4: a player supports the attack or the defense, spending an action token (or a group agent from the hand)."""
    g = _attack(state)
    attack = g["attack"]
    seat = _actor_seat(state, payload, ctx)
    _player(g, seat)
    side = _choice(payload.get("side"), SUPPORT_SIDES, "支援する側", "side")
    kind = _choice(payload.get("kind"), SUPPORT_KINDS, "支援の種類", "support kind")
    source = _choice(payload.get("source"), CARD_KINDS, "支援するカード", "supporting card", "group")
    if source == "illuminati" and kind not in ("adjacent", "global"):
        raise GmError("イルミナティは親子の防御支援かグローバルパワーでだけ支援できます",
                      "The Illuminati supports only as a parent or with its global power")
    s = {"side": side, "kind": kind, "seat": seat, "source": source,
         "name": clean_text(payload.get("name"), "カード名", "card name", limit=40, required=kind in ("aligned", "global", "adjacent")),
         "alignments": parse_alignments(payload.get("alignments"), "支援カードの属性", "supporting alignment"),
         "value": 0 if kind in ("agent", "target") else _int(payload.get("value"), "支援のパワー", "support power"),
         "tokens": 0 if kind == "agent" else (_int(payload.get("tokens"), "トークン数", "tokens", 1, 20, default=1) if kind == "target" else 1)}
    atk.check_support(attack, s, attack["target"].get("owner"))
    if kind == "agent":
        if opening.card_key(s["name"] or attack["target"]["name"]) != opening.card_key(attack["target"]["name"]):
            raise GmError("グループのエージェントは攻撃対象と同じカードです", "A group agent is the same card as the target")
        s["name"] = attack["target"]["name"]
        _need(state, seat, "group_hand", 1)
        changes = [(seat, "group_hand", -1, ("エージェント", "agent"))]
    else:
        key = "tokens_illuminati" if source == "illuminati" else "tokens_groups"
        _need(state, seat, key, s["tokens"])
        changes = [(seat, key, -s["tokens"], ("支援のトークン", "support token"))]
    return ([("illuminati.attack_supported", {"support": s, "amount": atk.support_value(attack, s), "rule": "I-4"})]
            + _changes(state, changes, "I-4"))


def modify(state, payload: dict, ctx) -> list:
    """A labelled manual modifier from the GM (a card's text) on the attack or the defense."""
    _attack(state)
    side = _choice(payload.get("side"), MODIFIED_SIDES, "修正する側", "side")
    amount = _int(payload.get("amount"), "修正値", "modifier", -99, 99)
    if amount == 0:
        raise GmError("修正値が0です", "The modifier is 0")
    return [("illuminati.attack_modified", {"side": side, "amount": amount,
                                            "label": clean_text(payload.get("label"), "修正の名前", "modifier label")})]


def choose_power(state, payload: dict, ctx) -> list:
    """I-4: the attacker chooses normal or global power before the roll."""
    g = _attack(state)
    attack = g["attack"]
    if not ctx.viewer.is_gm and ctx.viewer.seat != attack["attacker_seat"]:
        raise Forbidden("攻撃側だけが選べます", "Only the attacker chooses")
    use = _choice(payload.get("use"), POWERS, "使うパワー", "power used")
    if use == "global" and attack["attacker"]["global_power"] is None:
        raise GmError("グローバルパワーがない攻撃要員です", "The attacker has no global power")
    if use == attack["attacker"]["use"]:
        raise Conflict("既にそのパワーを使っています", "That power is already chosen")
    return [("illuminati.attack_choice", {"use": use})]


def roll_attack(state, payload: dict, ctx) -> list:
    """I-5: roll 2d6 (11-12 fail; else success when achieved >= roll) and apply the result to the counts (I-4, I-7)."""
    g = _attack(state)
    attack = g["attack"]
    if not ctx.viewer.is_gm and ctx.viewer.seat != attack["attacker_seat"]:
        raise Forbidden("攻撃側かGMが振ります", "The attacker or the GM rolls")
    names = {s: state.seat_name(s) for s in state.seats}
    b = atk.breakdown(attack, names, parent_per_alignment=reading_value(state, PARENT_BONUS) == "per_alignment")
    faces = [ctx.dice.randint(6), ctx.dice.randint(6)]
    roll = sum(faces)
    success = atk.succeeds(b["achieved"], roll)
    drafts = [("illuminati.attack_rolled", {"faces": faces, "roll": roll, "entered": is_entered(ctx.dice),
                                            "breakdown": b, "success": success, "fumble": roll >= atk.FUMBLE,
                                            "rule": "I-5", "dice_next": ctx.dice.next_index})]
    changes = [(s, k, d, (ja, en)) for s, k, d, ja, en in atk.outcome(attack, success)]
    after = {s: dict(state.counters[s]) for s in g["players"]}
    for s, k, d, _ in changes:
        after[s][k] += d
    for s in g["players"]:  # a group holds at most one token: tokens go with lost groups
        extra = after[s]["tokens_groups"] - max(after[s]["groups"], 0)
        if extra > 0:
            changes.append((s, "tokens_groups", -extra, ("グループと共にトークンも失う", "tokens go with the groups")))
    drafts += _changes(state, changes, "I-4")
    out = [s for s in active(g) if after[s]["groups"] <= 0 and state.counters[s]["groups"] > 0]
    drafts += _outs(g, out, "no_groups")
    return drafts


def _outs(g: dict, seats: list[str], reason: str) -> list:
    drafts = [("illuminati.player_out", {"seat": s, "reason": reason, "rule": "I-7"}) for s in seats]
    left = [p for p in active(g) if p not in seats]
    if seats and len(left) == 1 and g["winner"] is None:
        drafts.append(("illuminati.game_won", {"seat": left[0], "kind": "last", "label": "", "rule": "I-1"}))
    elif seats and g.get("turns") and g["winner"] is None:
        # the player whose turn it was is out and play came back to the round's opener: a new round begins here
        # (not through end_turn), and is a scene as every round is, so the phones' results start afresh there too
        now = after = Turns.from_dict(g["turns"])
        for s in seats:
            after = after.eliminate(s)
        if after.round > now.round:
            drafts.append(_round_scene(after.round, ended=True))
    return drafts


def cancel_attack(state, payload: dict, ctx) -> list:
    """GM: call off the attack in progress (counts stay; undo takes back the declaration itself)."""
    _attack(state)
    return [("illuminati.attack_cancelled", {"reason": clean_text(payload.get("reason"), "理由", "reason",
                                                                  limit=80, required=False)})]


# -- I-1 victory, I-7 elimination -------------------------------------------------------------------

def declare_victory(state, payload: dict, ctx) -> list:
    """I-1: a player meeting the goal declares victory (confirmed when the turn ends with it still met);
    a special goal or a goal card is declared by the GM with its label."""
    g = _stage(state, "play")
    seat = _actor_seat(state, payload, ctx)
    _player(g, seat)
    kind = _choice(payload.get("kind"), VICTORIES, "勝利条件", "victory kind", "basic")
    if kind != "basic" and not ctx.viewer.is_gm:  # (before its label: a phone is not asked for what it may not send)
        raise Forbidden("特殊ゴールとゴールカードはGMが宣言します", "The GM declares special goals and goal cards")
    label = clean_text(payload.get("label"), "勝利条件の名前", "victory label", limit=60, required=kind != "basic")
    if kind == "basic" and not rules.meets_goal(state.counters[seat]["groups"], g["goal"]):
        lack = rules.missing(state.counters[seat]["groups"], g["goal"])
        raise Conflict(f"ゴールまであと{lack}組織です", f"{lack} more group(s) needed for the goal")
    if any(d["seat"] == seat for d in g["declared"]):
        raise Conflict("既に勝利を宣言しています", "Victory is already declared")
    return [("illuminati.victory_declared", {"seat": seat, "kind": kind, "label": label, "rule": "I-1"})]


def end_turn(state, payload: dict, ctx) -> list:
    """End of the turn: the plot hand cut to 5, declarations confirmed if still met (I-1), the next player.

    I-1 wins with N groups "at the end of your turn": a player ending its turn at the basic goal without having
    declared declares it here (the same events as its own declaration before the end), so no table misses the win."""
    g, seat = _turn_seat(state, payload, ctx)
    if g["attack"] is not None:
        raise Conflict("攻撃が進行中です（振るか取りやめてください）", "An attack is in progress (roll it or call it off)")
    drafts, declared = [], list(g["declared"])
    if (rules.meets_goal(state.counters[seat]["groups"], g["goal"])
            and not any(d["seat"] == seat for d in declared)):
        declared.append({"seat": seat, "kind": "basic", "label": "", "rule": "I-1"})
        drafts.append(("illuminati.victory_declared", declared[-1]))
    plot = state.counters[seat]["plot_hand"]
    if plot > rules.PLOT_HAND_LIMIT:
        drafts += _changes(state, [(seat, "plot_hand", rules.hand_after_turn(plot) - plot,
                                    ("手札上限5枚（デッキの底へ）", "hand limit 5 (to the bottom of the deck)"))])
    winner, lapsed = None, []
    for d in declared:
        still = d["kind"] != "basic" or rules.meets_goal(state.counters[d["seat"]]["groups"], g["goal"])
        if d["seat"] in g["out"] or not still:
            lapsed.append(d["seat"])
        elif winner is None:
            winner = d
    now = Turns.from_dict(g["turns"])
    nxt = now.next_player()
    drafts.insert(len(declared) - len(g["declared"]), (  # after the declaration made here, if any
        "illuminati.turn_ended", {"seat": seat, "lapsed": lapsed, "turns": nxt.to_dict(),
                                  "winner": winner["seat"] if winner is not None else None}))
    if winner is not None:
        drafts.append(("illuminati.game_won", {"seat": winner["seat"], "kind": winner["kind"],
                                               "label": winner["label"], "rule": "I-1"}))
    elif nxt.round > now.round:  # the next round begins: its scene (the turn's own steps stay in the last one)
        drafts.append(_round_scene(nxt.round, ended=True))
    return drafts


def eliminate(state, payload: dict, ctx) -> list:
    """I-7 (GM): a player is out: two goal cards found outside their turn, or no groups left. An attack in progress
    by them or on their group is called off."""
    g = _stage(state, "play")
    seat = seat_of(state, payload.get("seat")).id
    _player(g, seat)
    reason = _choice(payload.get("reason"), OUT_REASONS, "脱落の理由", "reason", "goal_cards")
    return _put_out(g, [seat], reason)


def _put_out(g: dict, seats: list[str], reason: str) -> list:
    """I-7: players out outside an attack's roll; the attack in progress is moot with its attacker or its target's
    owner out, so it is called off first."""
    attack, drafts = g["attack"], []
    if attack is not None and {attack["attacker_seat"], attack["target"].get("owner")} & set(seats):
        drafts.append(("illuminati.attack_cancelled", {"reason": ""}))
    return drafts + _outs(g, seats, reason)


def counter_settle(state, drafts: list) -> list:
    """I-7 on core's counter panel: `groups` set to 0 during play puts the player out at once, in the same action, as an
    attack that leaves them none does (the last player left wins, I-1); the GM's undo takes both back."""
    g = peek(state)
    if g["stage"] != "play":
        return drafts
    left = set(active(g))
    out = [d["seat"] for t, d in drafts if t == "counter.changed" and d["key"] == "groups"
           and rules.is_out(d["to"]) and d["seat"] in left]
    return drafts + _put_out(g, out, "no_groups")


ACTIONS = dict((
    action("setup", "レギュレーション", "Regulation", setup),
    action("opening_start", "イルミナティの配置を開始", "Start placing the Illuminati", opening_start),
    action("opening_next", "公開結果を確定して次へ", "Settle the reveal and go on", opening_next),
    action("roll_order", "プレイ順を決める（2d6）", "Roll the play order (2d6)", roll_order),
    action("start_turn", "ターン開始", "Begin the turn", start_turn, who="seat"),
    action("spend", "トークンを使う", "Spend tokens", spend, who="seat"),
    action("place_agent", "エージェントを配置", "Place an agent", place_agent, who="seat"),
    action("attack", "攻撃を宣言", "Declare an attack", declare_attack, who="seat"),
    action("support", "支援する", "Support", support, who="seat"),
    action("modify", "GM修正", "GM modifier", modify),
    action("choose_power", "パワーを選ぶ", "Choose the power", choose_power, who="seat"),
    action("roll_attack", "攻撃判定（2d6）", "Roll the attack (2d6)", roll_attack, who="seat"),
    action("cancel_attack", "攻撃を取りやめ", "Call off the attack", cancel_attack),
    action("declare_victory", "勝利宣言", "Declare victory", declare_victory, who="seat"),
    action("end_turn", "ターン終了", "End the turn", end_turn, who="seat"),
    action("eliminate", "脱落させる", "Mark out", eliminate),
))

