"""Fate/Ace Royal event types: each folds into `state.extra["ace_royal"]`, reads as one log line in
Japanese and English, and declares who may see it (a servant's cards are their owner's until revealed).
"""

from __future__ import annotations

import copy

from gmtool.core.logtext import minus_sign
from gmtool.core.model import Event, State
from gmtool.core.ruleset import PUBLIC, EventType, custom
from gmtool.core.turns import order_rolls
from gmtool.core.view import fixed_line

from .rules import KIND_LABELS, SERVANT_STATES, SKILLS, STAT_LABELS, STEP_LABELS, VERSIONS
from .strings import STRINGS

NAME = "ace_royal"


def game(state: State) -> dict:
    """This ruleset's part of the state (empty before the setup)."""
    return state.extra.setdefault(NAME, {})


def player(state: State, seat: str) -> dict:
    """One player's record."""
    return game(state)["players"][seat]


def _t(lang: str, ja: str, en: str) -> str:
    return en if lang == "en" else ja


def _name(state: State, seat) -> str:
    return state.seat_name(seat) if seat else "-"


def _lbl(table: dict, key, lang: str) -> str:
    pair = table.get(key)
    return (pair[1] if lang == "en" else pair[0]) if pair else str(key)


def stats_text(stats) -> str:
    """Four stats as 9/8/4/8."""
    return "/".join(str(s) for s in stats)


def card_text(card: dict | None, lang: str) -> str:
    """A card as 「name 6/5/3/3 [skills]」."""
    if not card:
        return "?"
    skills = ("・" if lang != "en" else ", ").join(_lbl(SKILLS, s, lang) for s in card.get("skills", ()))
    return f"{card['name']} {stats_text(card['stats'])}" + (f" [{skills}]" if skills else "")


def _remember(state: State, e: Event, data: dict | None = None) -> None:
    """Keep a public event as the newest result the table screen shows first (`data`: the part of a filtered event
    that every viewer reads, what its line then says to everyone)."""
    g = game(state)
    record = {"seq": e.seq, "type": e.type, "actor": e.actor, "action": e.action,
              "data": copy.deepcopy(e.data if data is None else data)}
    before = g.get("last_action") or []
    g["last_action"] = (before if before and before[-1].get("action") == e.action else []) + [record]  # the action's public results
    g["last"] = record


# -- setup ---------------------------------------------------------------------------------------

def setup_fold(state: State, e: Event) -> None:
    """Fold ace_royal.setup into this game's state."""
    d = e.data
    state.extra[NAME] = {
        "version": d["version"], "order": list(d["order"]), "phase": "setup", "first_rolls": None,
        "first": None, "active": None, "turns": None, "step": None, "turn": {}, "combat": None,
        "exchange": None, "winner": None, "over": False, "last": None,
        "players": {s: {"hero": None, "class": None, "hero_revealed": False, "class_revealed": False,
                        "class_known": False, "state": "reverse", "reverse_placed": 0, "out": None,
                        "masterless": False, "turn_mods": []} for s in d["order"]},
    }
    _remember(state, e)


def setup_text(e, state, lang):
    """The log line of ace_royal.setup (Japanese, or English when lang is "en")."""
    d = e["data"]
    names = " → ".join(_name(state, s) for s in d["order"])
    return _t(lang, f"準備: {_lbl(VERSIONS, d['version'], 'ja')}版、座席（時計回り）{names}（A-2）",
              f"Setup: {_lbl(VERSIONS, d['version'], 'en')} version, seating (clockwise) {names} (A-2)")


def first_fold(state: State, e: Event) -> None:
    """Fold ace_royal.first_rolled into this game's state."""
    g = game(state)
    g["first_rolls"] = copy.deepcopy(e.data["rolls"])
    g["first"] = g["active"] = e.data["first"]
    _remember(state, e)


def first_text(e, state, lang):
    """The log line of ace_royal.first_rolled (Japanese, or English when lang is "en")."""
    d = e["data"]
    rolls = _t(lang, "、", ", ").join(f"{_name(state, s)} {'→'.join(map(str, r))}" for s, r in d["rolls"].items())
    real = _t(lang, "［実ダイス］", "[real dice] ") if d.get("entered") else ""
    top = max(r[0] for r in d["rolls"].values())
    tie = ""
    if sum(1 for r in d["rolls"].values() if r[0] == top) > 1:
        tie = (_t(lang, "、同点は座席順（解釈）", "; tie broken by the seating order (reading)") if d.get("ties") == "seat_order"
               else _t(lang, "、同点は振り直し（解釈）", "; the tied rolled again (reading)"))
    if d.get("reroll"):  # seal 2 re-rolled one player's die (A-3, quick)
        real += _t(lang, f"令呪2で {_name(state, d['reroll'])} が振り直し: ", f"{_name(state, d['reroll'])} re-rolled by Command Seal 2: ")
    return _t(lang, f"{real}最初のアクティブマスター決定（1d6）: {rolls} ⇒ {_name(state, d['first'])}{tie}（A-5）",
              f"{real}First active master (1d6): {rolls} ⇒ {_name(state, d['first'])}{tie} (A-5)")


def servant_fold(state: State, e: Event) -> None:
    """Fold ace_royal.servant_set into this game's state (a public export's holds no cards: the servant is set, its
    cards are not in this record, A-1)."""
    p = player(state, e.data["seat"])
    if "hero" not in e.data:
        p["unrecorded"] = True
        return
    p["hero"] = copy.deepcopy(e.data["hero"])
    p["class"] = copy.deepcopy(e.data["class"])


def sees_secret(viewer, seat) -> bool:
    """Whether `viewer` reads `seat`'s secrets (its servant's cards, A-1; its hand's mystic code, A-9): that seat's phone,
    and the GM unless the console hides them (「回答を公開まで隠す」: a game without a real GM, whose laptop the players
    see, is run by one of them)."""
    return (viewer.is_gm and not viewer.hide_answers) or (seat is not None and viewer.seat == seat)


def servant_seen(data: dict, event: Event, state: State, viewer) -> dict:
    """A-1: a servant's cards are its seat's and the GM's; everyone else reads only that it was set (what
    players[].servant_set already shows them), which is also what a public export keeps."""
    if sees_secret(viewer, data["seat"]):
        return data
    return {k: data[k] for k in ("seat", "rule") if k in data}


def servant_text(e, state, lang):
    """The log line of ace_royal.servant_set (Japanese, or English when lang is "en")."""
    d = e["data"]
    if "hero" not in d:
        return _t(lang, f"{_name(state, d['seat'])} がサーヴァントを登録", f"{_name(state, d['seat'])} set their servant")
    return _t(lang, f"{_name(state, d['seat'])} のサーヴァント登録（秘密）: 英霊 {card_text(d['hero'], lang)} + クラス {card_text(d['class'], lang)}（A-1）",
              f"{_name(state, d['seat'])} set their servant (secret): hero {card_text(d['hero'], lang)} + class {card_text(d['class'], lang)} (A-1)")


def leftover_fold(state: State, e: Event) -> None:
    """Fold ace_royal.leftover_classes into this game's state."""
    game(state)["exchange"] = {"pool": copy.deepcopy(e.data["classes"]), "queue": list(e.data["queue"])}
    _remember(state, e)


def leftover_text(e, state, lang):
    """The log line of ace_royal.leftover_classes (Japanese, or English when lang is "en")."""
    d = e["data"]
    pool = _t(lang, "、", ", ").join(card_text(c, lang) for c in d["classes"]) or "-"
    queue = " → ".join(_name(state, s) for s in d["queue"])
    return _t(lang, f"残ったクラスカードを公開: {pool}。交換の順（反時計回り）: {queue}",
              f"Leftover class cards revealed: {pool}. Exchange order (counter-clockwise): {queue}")


def exchange_fold(state: State, e: Event) -> None:
    """Fold ace_royal.class_exchanged into this game's state."""
    g, d = game(state), e.data
    ex = g["exchange"]
    ex["queue"] = [s for s in ex["queue"] if s != d["seat"]]
    if d.get("new") is not None:
        p = player(state, d["seat"])
        ex["pool"][d["pick"]] = copy.deepcopy(d["old"])
        p["class"] = copy.deepcopy(d["new"])
        p["class_known"] = True
    _remember(state, e)


def exchange_text(e, state, lang):
    """The log line of ace_royal.class_exchanged (Japanese, or English when lang is "en")."""
    d = e["data"]
    who = _name(state, d["seat"])
    if d.get("new") is None:
        return _t(lang, f"{who} はクラスを交換しない", f"{who} keeps their class")
    return _t(lang, f"{who} がクラスを交換: {card_text(d['old'], lang)} → {card_text(d['new'], lang)}（公開）",
              f"{who} exchanged their class: {card_text(d['old'], lang)} → {card_text(d['new'], lang)} (public)")


def started_fold(state: State, e: Event) -> None:
    """Fold ace_royal.started into this game's state."""
    g = game(state)
    g["phase"] = "play"
    _start_turn(g, e.data["turns"])
    g["exchange"] = None
    _remember(state, e)


def started_text(e, state, lang):
    """The log line of ace_royal.started (Japanese, or English when lang is "en")."""
    d = e["data"]
    return _t(lang, f"聖杯戦争開幕: 最初の手番は {_name(state, d['turns']['current'])}（アクティブマスター）",
              f"The Holy Grail War begins: {_name(state, d['turns']['current'])} (active master) plays first")


# -- turns -----------------------------------------------------------------------------------------

def _start_turn(g: dict, turns: dict) -> None:
    """A turn begins (A-5): whose it is, at the rise step, nothing placed or revealed yet; seal effect 2 lasted
    for the turn it was used in (A-3)."""
    g["turns"] = copy.deepcopy(turns)
    g["step"] = "rise"
    g["turn"] = {"placed": False, "revealed": False}
    for p in g["players"].values():
        p["turn_mods"] = []


def step_fold(state: State, e: Event) -> None:
    """Fold ace_royal.step into this game's state."""
    game(state)["step"] = e.data["to"]
    _remember(state, e)


def step_text(e, state, lang):
    """The log line of ace_royal.step (Japanese, or English when lang is "en")."""
    d = e["data"]
    return _t(lang, f"{_name(state, d['seat'])}: {_lbl(STEP_LABELS, d['to'], 'ja')}へ",
              f"{_name(state, d['seat'])}: {_lbl(STEP_LABELS, d['to'], 'en')}")


def state_fold(state: State, e: Event) -> None:
    """Fold ace_royal.state_changed into this game's state."""
    player(state, e.data["seat"])["state"] = e.data["to"]
    _remember(state, e)


REASONS = {
    "rise_step": ("ライズステップ", "rise step"), "danger_loss": ("デンジャー中に魔力を失った", "lost mana in Danger"),
    "damaged": ("戦闘でダメージ", "damaged in combat"), "seal5": ("令呪5", "seal effect 5"),
    "revealed": ("開示", "revealed"), "proxy": ("代理戦闘のダメージ", "damage to the proxy"),
    "manual": ("手動", "by hand"),
}


def state_text(e, state, lang):
    """The log line of ace_royal.state_changed (Japanese, or English when lang is "en")."""
    d = e["data"]
    reason = _lbl(REASONS, d.get("reason"), lang) if d.get("reason") in REASONS else d.get("reason", "")
    rule = f"（{d['rule']}）" if d.get("rule") and lang != "en" else (f" ({d['rule']})" if d.get("rule") else "")
    return _t(lang, f"{_name(state, d['seat'])} のサーヴァント: {_lbl(SERVANT_STATES, d['from'], 'ja')} → {_lbl(SERVANT_STATES, d['to'], 'ja')}（{reason}）{rule}",
              f"{_name(state, d['seat'])}'s servant: {_lbl(SERVANT_STATES, d['from'], 'en')} → {_lbl(SERVANT_STATES, d['to'], 'en')} ({reason}){rule}")


def placed_fold(state: State, e: Event) -> None:
    """Fold ace_royal.code_placed into this game's state."""
    g = game(state)
    if e.data["reverse"]:
        player(state, e.data["seat"])["reverse_placed"] += 1
    g["turn"]["placed"] = True
    _remember(state, e)


def placed_text(e, state, lang):
    """The log line of ace_royal.code_placed (Japanese, or English when lang is "en")."""
    d = e["data"]
    who = _name(state, d["seat"])
    if d["reverse"]:
        return _t(lang, f"{who} がカードをリバースで配置（礼装の枠+1）", f"{who} placed a card face down (one more mystic code slot)")
    extra = _t(lang, "（場の礼装1枚と入れ替え）", " (replacing one on the field)") if d.get("replace") else ""
    return _t(lang, f"{who} が礼装カードを配置{extra}", f"{who} placed a mystic code{extra}")


def revealed_fold(state: State, e: Event) -> None:
    """Fold ace_royal.revealed into this game's state."""
    d = e.data
    p = player(state, d["seat"])
    for what, card in d["cards"].items():
        p[f"{what}_revealed"] = True
        p[what] = copy.deepcopy(card)
    if d.get("reason") == "ritual":
        game(state)["turn"]["revealed"] = True
    _remember(state, e)


def still_face_up(data: dict, event: Event, state: State, viewer) -> dict | None:
    """An undone ace_royal.revealed (EventType.undone_visibility) is seen while every card it names is face up
    without it: an undo of the reveal leaves them secret again (A-1, A-11), so its line may not name them; the seat's
    own phone reads them as its servant_set (sees_secret)."""
    if sees_secret(viewer, data.get("seat")):
        return data
    p = game(state).get("players", {}).get(data.get("seat"))
    if p is None or not all(p.get(f"{what}_revealed") for what in data.get("cards", {})):
        return None
    return data


def _named_seats(data: dict) -> list:
    return [data[k] for k in ("seat", "attacker", "interceptor") if data.get(k)]


def combatants_face_up(data: dict, event: Event, state: State, viewer) -> dict | None:
    """An undone combat step (a pick, the result, a proxy's cost: EventType.undone_visibility) names the stats of the
    servants it was fought with: it is seen while the servants of the seats it names are face up without it (the
    attack that revealed them may have been undone too, A-7)."""
    players = game(state).get("players", {})
    seats = _named_seats(data)
    if not seats or not all(players.get(s, {}).get("hero_revealed") and players.get(s, {}).get("class_revealed")
                            for s in seats):
        return None
    return data


def face_up_line(e: Event, state: State) -> tuple:
    """What an event seen by the cards' being face up once undone reads besides its data (core/view.py line_key):
    whether each seat it names has its cards face up."""
    players = game(state).get("players", {})
    return tuple((players.get(s, {}).get("hero_revealed"), players.get(s, {}).get("class_revealed"))
                 for s in _named_seats(e.data))


def revealed_text(e, state, lang):
    """The log line of ace_royal.revealed (Japanese, or English when lang is "en")."""
    d = e["data"]
    cards = _t(lang, "、", ", ").join(f"{_t(lang, '英霊' if w == 'hero' else 'クラス', 'hero' if w == 'hero' else 'class')} {card_text(c, lang)}"
                     for w, c in d["cards"].items())
    draw = _t(lang, f"、{d['draw']}枚引く（A-11）", f", draws {d['draw']} (A-11)") if d.get("draw") else ""
    why = _t(lang, "開示プロセス: ", "Disclosure: ") if d.get("reason") == "combat" else ""
    return _t(lang, f"{why}{_name(state, d['seat'])} のサーヴァントを開示: {cards}{draw}",
              f"{why}{_name(state, d['seat'])} revealed their servant: {cards}{draw}")


def encounter_fold(state: State, e: Event) -> None:
    """Fold ace_royal.encounter_rolled into this game's state: the turn's roll (seal 2 may re-roll it, A-3); a re-roll
    that is no longer a 1 cancels the encounter's combat (A-6)."""
    g, d = game(state), e.data
    before = g["turn"].get("encounter") or {}
    g["turn"]["encounter"] = {k: copy.deepcopy(d.get(k)) for k in ("seat", "face", "encounter", "numbers", "faces", "target")}
    if d.get("reroll") and d["encounter"] and not d.get("numbers"):  # a 1 again: the opponent die stays as it was rolled
        g["turn"]["encounter"].update(numbers=before.get("numbers"), faces=before.get("faces"))
    if d.get("reroll") and not d["encounter"]:
        g["combat"] = None
    _remember(state, e)


def encounter_text(e, state, lang):
    """The log line of ace_royal.encounter_rolled (Japanese, or English when lang is "en")."""
    d = e["data"]
    real = _t(lang, "［実ダイス］", "[real dice] ") if d.get("entered") else ""
    who = _name(state, d["seat"])
    if d.get("reroll"):  # seal 2 re-rolled it (A-3, quick)
        real += _t(lang, "令呪2で振り直し: ", "re-rolled by Command Seal 2: ")
        if d.get("die") == "opponent":  # the die that picked the opponent
            nums = _t(lang, "、", ", ").join(f"{i + 1}={_name(state, s)}" for i, s in enumerate(d["numbers"]))
            faces, to = "→".join(map(str, d["faces"])), _name(state, d["target"])
            same = d["target"] == d.get("was_target")
            return _t(lang, f"{real}{who} の遭遇戦の相手の決定（{nums}）1d6 = {faces} ⇒ {to}{'（相手は変わらない）' if same else ''}（A-6）",
                      f"{real}{who}'s encounter opponent ({nums}) 1d6 = {faces} ⇒ {to}{' (the same opponent)' if same else ''} (A-6)")
        if d["encounter"] and not d.get("numbers"):
            return _t(lang, f"{real}{who} の遭遇戦判定 1d6 = 1: 遭遇戦はそのまま（A-6）",
                      f"{real}{who}'s encounter roll 1d6 = 1: the encounter stands (A-6)")
        if not d["encounter"]:
            return _t(lang, f"{real}{who} の遭遇戦判定 1d6 = {d['face']}: 遭遇戦は起こらない（A-6）",
                      f"{real}{who}'s encounter roll 1d6 = {d['face']}: no encounter (A-6)")
    if not d["encounter"]:
        return _t(lang, f"{real}{who} の遭遇戦判定 1d6 = {d['face']}: 何も起こらない（A-6）",
                  f"{real}{who}'s encounter roll 1d6 = {d['face']}: nothing happens (A-6)")
    nums = _t(lang, "、", ", ").join(f"{i + 1}={_name(state, s)}" for i, s in enumerate(d["numbers"]))
    faces = "→".join(map(str, d["faces"]))
    return _t(lang, f"{real}{who} の遭遇戦判定 1d6 = 1: 遭遇戦！ 相手の決定（{nums}）1d6 = {faces} ⇒ {_name(state, d['target'])}（A-6）",
              f"{real}{who}'s encounter roll 1d6 = 1: encounter! Opponent ({nums}) 1d6 = {faces} ⇒ {_name(state, d['target'])} (A-6)")


def combat_fold(state: State, e: Event) -> None:
    """Fold ace_royal.combat_started into this game's state."""
    d = e.data
    side = {"kind": None, "modifiers": [], "proxy": None, "faces": []}
    game(state)["combat"] = {"attacker": d["attacker"], "interceptor": d["interceptor"], "how": d["how"],
                             "flipped": d.get("flipped", False), "attacker_side": copy.deepcopy(side),
                             "interceptor_side": copy.deepcopy(side), "result": None}
    game(state)["step"] = "combat"
    _remember(state, e)


def combat_text(e, state, lang):
    """The log line of ace_royal.combat_started (Japanese, or English when lang is "en")."""
    d = e["data"]
    a, i = _name(state, d["attacker"]), _name(state, d["interceptor"])
    how = _t(lang, "襲撃" if d["how"] == "attack" else "遭遇戦", "attack" if d["how"] == "attack" else "encounter")
    flip = _t(lang, "（山門の守護: 攻守逆転）", " (Gatekeeper: roles flipped)") if d.get("flipped") else ""
    return _t(lang, f"戦闘（{how}）: 襲撃側 {a} → 迎撃側 {i}{flip}（A-7）",
              f"Combat ({how}): attacker {a} → interceptor {i}{flip} (A-7)")


def combat_set_fold(state: State, e: Event) -> None:
    """Fold ace_royal.combat_set into this game's state."""
    d = e.data
    side = game(state)["combat"][f"{d['side']}_side"]
    what = d["what"]
    if what == "kind":
        side["kind"] = d["kind"]
        side["stats"] = copy.deepcopy(d.get("stats"))  # A-7: the stats the pick was made on
        if d.get("strike"):  # the interceptor's pick ends the attack process (A-7)
            game(state)["combat"]["strike"] = copy.deepcopy(d["strike"])
    elif what == "modifier":
        side["modifiers"].append({"stat": d["stat"], "value": d["value"], "label": d["label"]})
    elif what == "proxy":
        side["proxy"] = copy.deepcopy(d.get("proxy"))
    elif what == "dice":
        side["faces"] = list(d["faces"])
    _remember(state, e)


def combat_set_face_up_line(e: Event, state: State) -> tuple:
    """combat_set's line_key: its side's seat (combat_set_line) and whether the seats it names are face up
    (face_up_line: an undone pick is seen while they are)."""
    return combat_set_line(e, state) + face_up_line(e, state)


def _side_name(state, side, lang, seat=None):
    """A combat side and its player, as a combat_set line begins (English: capitalised, "Interceptor ウェイバー")."""
    c = game(state).get("combat") or {}
    return f"{_t(lang, '襲撃側' if side == 'attacker' else '迎撃側', 'Attacker' if side == 'attacker' else 'Interceptor')} {_name(state, seat or c.get(side))}"


def combat_set_line(e: Event, state: State) -> tuple:
    """What combat_set's log line reads besides the event's data (core/view.py line_key): its side's seat, the
    event's or else the current combat's (`_side_name`)."""
    return (e.data.get("seat") or (game(state).get("combat") or {}).get(e.data.get("side")),)


def combat_set_text(e, state, lang):
    """The log line of ace_royal.combat_set (Japanese, or English when lang is "en")."""
    d = e["data"]
    who = _side_name(state, d["side"], lang, d.get("seat"))
    if d["what"] == "kind":
        # the attacker's pick is its attack, the interceptor's its counter-attack in the interception process (A-7); in
        # English a sentence, not "Attacker 凛: physical attack", which reads as the stat of a modifier's line
        ja, en = ("攻撃", "attack") if d["side"] == "attacker" else ("迎撃", "counter-attack")
        line = _t(lang, f"{who}: {_lbl(KIND_LABELS, d['kind'], 'ja')}で{ja}", f"{who} picks a {_lbl(KIND_LABELS, d['kind'], 'en')} {en}")
        k = d.get("strike")
        if k:  # the interceptor's pick ended the attack process: the attacker's damage judgement (A-7)
            line += _t(lang, f"（襲撃側ダメージ判定: {_lbl(KIND_LABELS, k['kind'], 'ja')} {k['atk']} 対 防御 {k['def']} ⇒ {k['damage']}ダメージ、A-7）",
                       f" (attacker's damage judgement: {_lbl(KIND_LABELS, k['kind'], 'en')} {k['atk']} vs defence {k['def']} ⇒ {k['damage']} damage, A-7)")
        return line
    if d["what"] == "modifier":
        stat = _t(lang, "全ステータス", "all stats") if d["stat"] == "all" else _lbl(STAT_LABELS, d["stat"], lang)
        return f"{who}: {stat} {minus_sign(d['value'], True)} <{d['label']}>"
    if d["what"] == "proxy":
        p = d.get("proxy")
        if not p:
            return _t(lang, f"{who}: 代理戦闘を取り消し", f"{who}: proxy withdrawn")
        legion = _t(lang, "・軍団", ", legion") if p.get("legion") else ""
        src = _t(lang, "礼装" if p["source"] == "code" else "英霊", "mystic code" if p["source"] == "code" else "hero card")
        return _t(lang, f"{who}: 代理戦闘 {p['name']} {stats_text(p['stats'])}（{src}{legion}）（A-9）",
                  f"{who}: proxy {p['name']} {stats_text(p['stats'])} ({src}{legion}) (A-9)")
    real = _t(lang, "［実ダイス］", "[real dice] ") if d.get("entered") else ""
    again = _t(lang, "振り直し ", "re-roll ") if d.get("reroll") else ""
    return _t(lang, f"{real}{who}: クイック戦闘ダイス {again}{'+'.join(map(str, d['faces']))} = {sum(d['faces'])}（A-8）",
              f"{real}{who}: quick combat die {again}{'+'.join(map(str, d['faces']))} = {sum(d['faces'])} (A-8)")


def hand_code_fold(state: State, e: Event) -> None:
    """Fold ace_royal.hand_code_answered into the combat: the side's answer (A-9), kept for combat_resolve. A public
    export's record holds that the side answered, not what (hand_code_seen_by): a session imported from it has no answer
    to keep, so none is kept and the side is asked again (combat.hand_code_answered false), which its newest line says."""
    side = e.data["side"]
    answers = game(state)["combat"].setdefault("hand_code", {})
    public = {k: e.data[k] for k in ("side", "seat", "rule") if k in e.data}
    if "hand_code" not in e.data:
        answers.pop(side, None)
        _remember(state, e, {**public, "unrecorded": True})
        return
    answers[side] = e.data["hand_code"]
    # the newest result, as everyone reads it (that the side answered, not what), so the table's stage and the phones
    # no longer say that the side is asked again once it has answered
    _remember(state, e, public)


def hand_code_cleared_fold(state: State, e: Event) -> None:
    """Fold ace_royal.hand_code_cleared: the side's kept answer (A-9) is dropped, its hand having changed since."""
    (game(state)["combat"].get("hand_code") or {}).pop(e.data["side"], None)
    _remember(state, e)  # public, as every other public result: the phones' and the console's newest line say why


def hand_code_cleared_text(e, state, lang):
    """The log line of ace_royal.hand_code_cleared (Japanese, or English when lang is "en")."""
    d = e["data"]
    who = _side_name(state, d["side"], lang, d.get("seat"))
    return _t(lang, f"{who}: 手札が変わったので、手札の礼装カードの有無を答え直します（A-9）",
              f"{who}: the hand has changed, so whether it holds a mystic code card is asked again (A-9)")


def hand_code_seen_by(data: dict, event: Event, state: State, viewer) -> dict:
    """A-9: whether a hand holds a mystic code is its player's (and the GM's) until the resolve discards it; everyone
    else reads only that the side answered (what the view's combat.hand_code_answered shows them)."""
    if sees_secret(viewer, data["seat"]):
        return data
    return {k: data[k] for k in ("side", "seat", "rule") if k in data}


def hand_code_text(e, state, lang):
    """The log line of ace_royal.hand_code_answered (Japanese, or English when lang is "en")."""
    d = e["data"]
    who = _side_name(state, d["side"], lang, d.get("seat"))
    if d.get("unrecorded"):  # the newest line of a session imported from a public export (hand_code_fold), never logged
        return _t(lang, f"{who}: 手札の礼装カードの有無の回答は公開エクスポートに含まれないため、答え直します（A-9）",
                  f"{who}: the answer to whether the hand holds a mystic code card is not in the public export, so it is "
                  "asked again (A-9)")
    if "hand_code" not in d:
        return _t(lang, f"{who}: 手札の礼装カードの有無を回答（A-9）", f"{who}: answered whether the hand holds a mystic code (A-9)")
    if d["hand_code"]:
        return _t(lang, f"{who}: 手札に捨てられる礼装カードがある（秘密、A-9）",
                  f"{who}: the hand holds a mystic code card to discard (secret, A-9)")
    return _t(lang, f"{who}: 手札に捨てられる礼装カードはない（秘密、A-9）",
              f"{who}: the hand holds no mystic code card to discard (secret, A-9)")


def resolved_fold(state: State, e: Event) -> None:
    """Fold ace_royal.combat_resolved into this game's state."""
    g = game(state)
    g["combat"].pop("hand_code", None)  # the answers are their seats' (A-9): the result's proxy_paid says what they cost
    g["combat"]["result"] = copy.deepcopy(e.data)
    if not g["combat"].get("strike"):  # 先制 skipped the interception process: the judgement is the result's (A-7)
        attack = e.data["result"]["attack"]
        g["combat"]["strike"] = {**attack, "skipped": e.data["result"]["first_strike"]["skipped"]}
    g["last_combat"] = copy.deepcopy(g["combat"])
    g["combat"] = None
    g["step"] = "end"
    _remember(state, e)


def resolved_text(e, state, lang):
    """The log line of ace_royal.combat_resolved (Japanese, or English when lang is "en")."""
    d = e["data"]
    att, dfn = _name(state, d["attacker"]), _name(state, d["interceptor"])
    r = d["result"]
    a = r["attack"]
    parts = [_t(lang, f"襲撃 {_lbl(KIND_LABELS, a['kind'], 'ja')} {a['atk']} 対 防御 {a['def']} ⇒ {dfn} に {a['damage']}ダメージ",
                f"attack {_lbl(KIND_LABELS, a['kind'], 'en')} {a['atk']} vs defence {a['def']} ⇒ {a['damage']} damage to {dfn}")]
    if r["intercept"] is None:
        parts.append(_t(lang, "先制により迎撃なし", "no interception (first strike)"))
    else:
        i = r["intercept"]
        parts.append(_t(lang, f"迎撃 {_lbl(KIND_LABELS, i['kind'], 'ja')} {i['atk']} 対 防御 {i['def']} ⇒ {att} に {i['damage']}ダメージ",
                        f"interception {_lbl(KIND_LABELS, i['kind'], 'en')} {i['atk']} vs defence {i['def']} ⇒ {i['damage']} damage to {att}"))
    return _t(lang, "戦闘結果: " + "、".join(parts) + "（A-7）", "Combat result: " + "; ".join(parts) + " (A-7)")


def proxy_paid_fold(state: State, e: Event) -> None:
    """Fold ace_royal.proxy_paid into this game's state (its counters and state follow as their own events)."""
    _remember(state, e)


def proxy_paid_text(e, state, lang):
    """The log line of ace_royal.proxy_paid (Japanese, or English when lang is "en"): what the damage to a proxy cost
    instead of 魔力, so that its player discards the right card at the table (A-9)."""
    d = e["data"]
    who = _name(state, d["seat"])
    if d.get("discard") == "field_code":
        cost = _t(lang, "代理戦闘を呼んだ場の礼装カードを捨て札にする", "the mystic code on the field that called it is discarded")
    elif d.get("discard") == "hand_code":
        cost = _t(lang, "手札から礼装カードを1枚捨て札にする", "discard a mystic code card from the hand")
    else:
        cost = _t(lang, "手札に捨てられる礼装カードがない", "no mystic code card in the hand to discard")
    if d.get("state") == "down":
        cost += _t(lang, "、ダメージが1を超えたのでダウン", "; Down for the damage beyond 1")
    elif d.get("state") == "danger":
        cost += _t(lang, "ため、デンジャー", ", so Danger")
    return _t(lang, f"{who} の代理戦闘 {d['proxy']} に{d['damage']}ダメージ: 魔力は失わず、{cost}（A-9）",
              f"{who}'s proxy {d['proxy']} takes {d['damage']} damage: no mana lost; {cost} (A-9)")


def stolen_fold(state: State, e: Event) -> None:
    """Fold ace_royal.stolen into this game's state."""
    _remember(state, e)


def stolen_text(e, state, lang):
    """The log line of ace_royal.stolen (Japanese, or English when lang is "en")."""
    d = e["data"]
    real = _t(lang, "［実ダイス］", "[real dice] ") if d.get("entered") else ""
    return _t(lang, f"{real}撤退プロセス: {_name(state, d['to'])} が {_name(state, d['from'])} の手札から左から{d['position']}枚目を奪う（1d{d['hand']}、A-7）",
              f"{real}Withdrawal: {_name(state, d['to'])} steals card {d['position']} from the left of {_name(state, d['from'])}'s hand (1d{d['hand']}, A-7)")


# -- the dice each event rolled, on the screens' roll lists (EventType.rolls) ----------------------------------------

FIRST = {"ja": "最初のアクティブマスター決定 [A-5]", "en": "First active master [A-5]"}
REROLLED = {"ja": "（令呪2で振り直し）", "en": " (re-rolled by Command Seal 2)"}


def _label(label: dict, more: dict | None = None) -> dict:
    """A roll's label, with `more` put in before its rule code."""
    if not more:
        return label
    return {k: v.replace(" [", more[k] + " [", 1) for k, v in label.items()}


def _faces(faces) -> str:
    return ",".join(str(f) for f in faces)


def first_rolls(d: dict, state: State) -> list[dict]:
    """A-5: everyone's 1d6 for the first active master (a tie rolled again); seal 2's re-roll: that player's new die."""
    if d.get("reroll"):
        faces = d["rolls"].get(d["reroll"]) or []
        return [{"by": d["reroll"], "label": _label(FIRST, REROLLED), "text": f"1D6 → [{faces[-1]}]", "total": faces[-1],
                 "entered": d.get("entered", False)}] if faces else []
    return order_rolls(d["rolls"], "1D6", FIRST, d.get("entered", False))


ENCOUNTER = {"ja": "遭遇戦判定 [A-6]", "en": "Encounter roll [A-6]"}
OPPONENT = {"ja": "遭遇戦の相手 [A-6]", "en": "Encounter opponent [A-6]"}


def encounter_rolls(d: dict, state: State) -> list[dict]:
    """A-6: the turn player's encounter die, and on a 1 the die that picks the opponent (numbers nobody holds rolled
    again); seal 2's re-roll: the die it rolled again."""
    entered, seat = d.get("entered", False), d["seat"]
    more = REROLLED if d.get("reroll") else None
    out = []
    if not (d.get("reroll") and d.get("die") == "opponent"):
        out.append({"by": seat, "label": _label(ENCOUNTER, more), "text": f"1D6 → [{d['face']}]", "total": d["face"],
                    "entered": entered})
    if d.get("faces") and (not d.get("reroll") or d.get("die") == "opponent"):
        out.append({"by": seat, "label": _label(OPPONENT, more), "text": "1D6 → " + " / ".join(f"[{f}]" for f in d["faces"]),
                    "total": d["faces"][-1], "entered": entered})
    return out


def combat_dice_rolls(d: dict, state: State) -> list[dict]:
    """A-8: a side's quick-version combat die (a 1 is added and rolled again), or seal 2's re-roll of it."""
    if d["what"] != "dice":
        return []
    label = _label({"ja": "戦闘ダイス [A-8]", "en": "Combat die [A-8]"}, REROLLED if d.get("reroll") else None)
    return [{"by": d["seat"], "label": label, "text": f"1D6 → [{_faces(d['faces'])}]", "total": sum(d["faces"]),
             "entered": d.get("entered", False)}]


def stolen_rolls(d: dict, state: State) -> list[dict]:
    """A-7: the die that picks which card of the hand is stolen."""
    return [{"by": d["to"], "label": {"ja": "奪うカード [A-7]", "en": "Card stolen [A-7]"},
             "text": f"1D{d['hand']} → [{d['position']}]", "total": d["position"], "entered": d.get("entered", False)}]


def seal_rolls(d: dict, state: State) -> list[dict]:
    """A-3 (quick): the die of seal effect 1's mana (seal 2's re-rolls are their dice's own events)."""
    return [{"by": d["seat"], "label": {"ja": "令呪1の魔力回復 [A-3]", "en": "Command Seal 1 mana [A-3]"},
             "text": f"1D6 → [{_faces(e['faces'])}]", "total": sum(e["faces"]), "entered": d.get("entered", False)}
            for e in d.get("effects", []) if e.get("effect") == 1 and e.get("faces")]


SEAL_EFFECTS = {
    1: ("魔力1回復", "recover 1 mana"), 2: ("ステータス強化", "raise a stat"), 3: ("特殊コイン1つを無効化", "cancel a special coin"),
    4: ("テキストをコストなしで使用", "use a text effect without its cost"), 5: ("ライズ状態に戻す", "back to Rise"),
}
QUICK_SEAL_EFFECTS = {1: ("出目の数だけ魔力回復", "recover mana equal to a die roll"), 2: ("自分のダイスを振り直す", "re-roll your die")}


def seal_fold(state: State, e: Event) -> None:
    """Fold ace_royal.seal_used into this game's state."""
    d = e.data
    p = player(state, d["seat"])
    for eff in d["effects"]:
        if eff["effect"] == 2 and eff.get("stat"):
            p["turn_mods"].append({"stat": eff["stat"], "value": eff["value"], "label": eff["label"]})
    _remember(state, e)


def seal_text(e, state, lang):
    """The log line of ace_royal.seal_used (Japanese, or English when lang is "en")."""
    d = e["data"]
    quick = d.get("version") == "quick"
    items = []
    for eff in d["effects"]:
        table = QUICK_SEAL_EFFECTS if quick and eff["effect"] in QUICK_SEAL_EFFECTS else SEAL_EFFECTS
        text = f"{eff['effect']}. {_lbl(table, eff['effect'], lang)}"
        if eff.get("stat"):
            text += f" {_lbl(STAT_LABELS, eff['stat'], lang)} {minus_sign(eff['value'], True)}"
        if eff.get("die"):  # quick effect 2: which die, the face it had and the new one (A-3)
            ja, en = STRINGS[f"ace_royal.die_{eff['die']}"]
            faces = "→".join(map(str, eff["faces"]))  # the opponent die: also the faces nobody held, rolled again (A-6)
            text += _t(lang, f"（{ja} {eff['was']}→{faces}）", f" ({en[0].lower() + en[1:]} {eff['was']}→{faces})")
        elif eff.get("faces"):
            text += f" 1d6={'+'.join(map(str, eff['faces']))}"
        if eff.get("coin"):
            text += " " + _t(lang, "暗殺" if eff["coin"] == "assassin" else "枯渇", eff["coin"])
        if eff.get("placement"):
            text += _t(lang, f"（{eff['placement']}枚の配置を無効化）", f" (placement of {eff['placement']} cancelled)")
        if eff.get("text"):
            text += f" <{eff['text']}>"
        items.append(text)
    real = _t(lang, "［実ダイス］", "[real dice] ") if d.get("entered") else ""
    return _t(lang, f"{real}{_name(state, d['seat'])} が令呪を{len(items)}画使用: " + "、".join(items) + "（A-3）",
              f"{real}{_name(state, d['seat'])} used {len(items)} Command Seal(s): " + "; ".join(items) + " (A-3)")


def turn_fold(state: State, e: Event) -> None:
    """Fold ace_royal.turn_ended into this game's state."""
    _start_turn(game(state), e.data["turns"])
    _remember(state, e)


def turn_text(e, state, lang):
    """The log line of ace_royal.turn_ended (Japanese, or English when lang is "en")."""
    d = e["data"]
    return _t(lang, f"{_name(state, d['seat'])} のターン終了 → {_name(state, d['turns']['current'])} のターン（第{d['turns']['round']}巡）",
              f"{_name(state, d['seat'])}'s turn ends → {_name(state, d['turns']['current'])}'s turn (round {d['turns']['round']})")


def passed_fold(state: State, e: Event) -> None:
    """Fold ace_royal.master_passed into this game's state."""
    game(state)["active"] = e.data["to"]
    _remember(state, e)


def passed_text(e, state, lang):
    """The log line of ace_royal.master_passed (Japanese, or English when lang is "en")."""
    d = e["data"]
    when = {"turn": ("解釈: 最初の一巡の後は毎ターン", "reading: every turn after the first round")}.get(
        d.get("reading"), ("解釈: 一巡ごと", "reading: every full round"))
    return _t(lang, f"フェイズ終了: アクティブマスターコインが {_name(state, d['from'])} → {_name(state, d['to'])}（受け取った側は魔力1を失う、{when[0]}、A-5）",
              f"Phase ends: the active-master coin passes {_name(state, d['from'])} → {_name(state, d['to'])} (the receiver loses 1 mana, {when[1]}, A-5)")


OUT_REASONS = {
    "mana": ("魔力コインが0", "no mana coins left"), "seals": ("令呪をすべて使用", "every Command Seal used"),
    "assassin": ("暗殺コインが手札の枚数を超えた", "assassination coins exceed the hand"),
    "depletion": ("枯渇コインが手札の枚数を超えた", "depletion coins exceed the hand"),
}


def out_fold(state: State, e: Event) -> None:
    """Fold ace_royal.out into this game's state."""
    g = game(state)
    player(state, e.data["seat"])["out"] = e.data["reason"]
    if e.data.get("turns"):
        if e.data.get("new_turn"):
            _start_turn(g, e.data["turns"])
            g["combat"] = None
        else:
            g["turns"] = copy.deepcopy(e.data["turns"])
    if e.data.get("combat_ends") and not e.data.get("new_turn"):  # a side of the combat is out: the turn's end step
        g["combat"] = None
        g["step"] = "end"
    _remember(state, e)


def out_text(e, state, lang):
    """The log line of ace_royal.out (Japanese, or English when lang is "en")."""
    d = e["data"]
    ends = _t(lang, "、戦闘は終わる", "; the combat ends") if d.get("combat_ends") else ""
    return _t(lang, f"{_name(state, d['seat'])} が脱落: {_lbl(OUT_REASONS, d['reason'], 'ja')}{ends}（{d['rule']}）",
              f"{_name(state, d['seat'])} is out: {_lbl(OUT_REASONS, d['reason'], 'en')}{ends} ({d['rule']})")


def masterless_fold(state: State, e: Event) -> None:
    """Fold ace_royal.masterless into this game's state."""
    player(state, e.data["seat"])["masterless"] = True
    _remember(state, e)


def masterless_text(e, state, lang):
    """The log line of ace_royal.masterless (Japanese, or English when lang is "en")."""
    d = e["data"]
    return _t(lang, f"{_name(state, d['seat'])} のマスターが死亡（{_lbl(OUT_REASONS, d['reason'], 'ja')}）。単独行動によりサーヴァントはマスター不在で戦い続ける（令呪は使えない、A-10）",
              f"{_name(state, d['seat'])}'s master dies ({_lbl(OUT_REASONS, d['reason'], 'en')}). Independent action: the servant fights on without a master and without seals (A-10)")


def finished_fold(state: State, e: Event) -> None:
    """Fold ace_royal.finished into this game's state."""
    g = game(state)
    g["over"] = True
    g["phase"] = "over"
    g["winner"] = e.data.get("winner")
    g["ended_round"] = e.data.get("round")  # None in a log written before it was recorded
    _remember(state, e)


def finished_text(e, state, lang):
    """The log line of ace_royal.finished (Japanese, or English when lang is "en")."""
    d = e["data"]
    if d.get("winner"):
        return _t(lang, f"聖杯戦争終結: 勝者 {_name(state, d['winner'])}（A-7）", f"The Holy Grail War is over: {_name(state, d['winner'])} wins (A-7)")
    return _t(lang, "聖杯戦争終結: 相討ちにより勝者なし（A-7）", "The Holy Grail War is over: mutual knock-out, no winner (A-7)")



def _public(name, fold, text, rolls=None) -> EventType:
    """A step of the game everyone sees, and still sees once undone (nothing secret in it): its line depends on its
    data and the seats' names only."""
    return EventType(f"ace_royal.{name}", fold, text, PUBLIC, undone_visibility=PUBLIC, undoable=True,
                     line_key=fixed_line, rolls=rolls)


EVENTS: tuple[EventType, ...] = (
    _public("setup", setup_fold, setup_text),
    _public("first_rolled", first_fold, first_text, rolls=first_rolls),
    EventType("ace_royal.servant_set", servant_fold, servant_text, custom(servant_seen), undone_visibility=custom(servant_seen), undoable=True, line_key=fixed_line),
    EventType("ace_royal.leftover_classes", leftover_fold, leftover_text, PUBLIC, undoable=True, line_key=fixed_line),
    EventType("ace_royal.class_exchanged", exchange_fold, exchange_text, PUBLIC, undoable=True, line_key=fixed_line),
    _public("started", started_fold, started_text),
    _public("step", step_fold, step_text),
    _public("state_changed", state_fold, state_text),
    _public("code_placed", placed_fold, placed_text),
    EventType("ace_royal.revealed", revealed_fold, revealed_text, PUBLIC, undone_visibility=custom(still_face_up), undoable=True,
              line_key=face_up_line),
    _public("encounter_rolled", encounter_fold, encounter_text, rolls=encounter_rolls),
    _public("combat_started", combat_fold, combat_text),
    EventType("ace_royal.combat_set", combat_set_fold, combat_set_text, PUBLIC, undone_visibility=custom(combatants_face_up),
              undoable=True, line_key=combat_set_face_up_line,
              rolls=combat_dice_rolls),
    EventType("ace_royal.hand_code_answered", hand_code_fold, hand_code_text, custom(hand_code_seen_by), undone_visibility=custom(hand_code_seen_by), undoable=True,
              line_key=fixed_line),
    _public("hand_code_cleared", hand_code_cleared_fold, hand_code_cleared_text),
    EventType("ace_royal.combat_resolved", resolved_fold, resolved_text, PUBLIC, undone_visibility=custom(combatants_face_up),
              undoable=True, line_key=face_up_line),
    EventType("ace_royal.proxy_paid", proxy_paid_fold, proxy_paid_text, PUBLIC, undone_visibility=custom(combatants_face_up),
              undoable=True, line_key=face_up_line),
    _public("stolen", stolen_fold, stolen_text, rolls=stolen_rolls),
    _public("seal_used", seal_fold, seal_text, rolls=seal_rolls),
    _public("turn_ended", turn_fold, turn_text),
    _public("master_passed", passed_fold, passed_text),
    _public("out", out_fold, out_text),
    _public("masterless", masterless_fold, masterless_text),
    _public("finished", finished_fold, finished_text),
)
