"""The illuminati event types: folds (only the game's part of the state), log lines, visibilities.

Every event of the game is public: the secret placements (I-2) live in core prompts until their
reveal, and the events below are written only after it.
"""

from __future__ import annotations

import copy

from gmtool.core.logtext import minus_sign
from gmtool.core.ruleset import GM_ONLY, PUBLIC, EventType
from gmtool.core.turns import Turns, order_rolls
from gmtool.core.view import fixed_line

from .state import HISTORY, game, new_turn


def _t(lang: str, ja: str, en: str) -> str:
    return en if lang == "en" else ja


def _n(state, seat) -> str:
    return state.seat_name(seat) if seat else "-"


def _names(state, seats, lang) -> str:
    return (", " if lang == "en" else "・").join(_n(state, s) for s in seats) or "-"


# -- regulation and opening (I-1, I-2, I-3) -----------------------------------------------------

def regulation_set(state, e):
    """Fold: the players and the basic goal (I-1)."""
    g, d = game(state), e.data
    g.update(players=list(d["players"]), goal=d["goal"], goal_basis=d["basis"], tournament=d["tournament"])
    g["agents"] = {p: g["agents"].get(p, []) for p in d["players"]}


def describe_regulation(e, state, lang):
    """Log line: the players and the basic goal (I-1)."""
    d = e["data"]
    basis = {"players": ("人数による", "by player count"), "tournament": ("2人大会", "two-player tournament"),
             "agreed": ("協議で変更", "changed by agreement")}[d["basis"]]
    return _t(lang, f"レギュレーション：{len(d['players'])}人（{_names(state, d['players'], lang)}）、"
                    f"基本ゴール{d['goal']}組織（{basis[0]}）",
              f"Regulation: {len(d['players'])} players ({_names(state, d['players'], lang)}), "
              f"basic goal {d['goal']} groups ({basis[1]})")


def placement_opened(state, e):
    """Fold: a round of secret placements opened (I-2)."""
    g, d = game(state), e.data
    g["stage"] = d["stage"]
    g["prompt"] = d["prompt"]
    g["round"] = d.get("round", 0)


def describe_placement_opened(e, state, lang):
    """Log line: a round of secret placements opened (I-2)."""
    d = e["data"]
    if d["stage"] == "illuminati":
        return _t(lang, "イルミナティを裏向きに配置してください（全員同時に公開）",
                  "Place your Illuminati face down (all revealed at once)")
    return _t(lang, f"グループ配置 第{d['round']}回：{_names(state, d['seats'], lang)}が裏向きに配置",
              f"Group placement, round {d['round']}: {_names(state, d['seats'], lang)} place face down")


def illuminati_revealed(state, e):
    """Fold: every Illuminati revealed at once (I-2)."""
    g = game(state)
    g["illuminati"].update(e.data["choices"])
    g["prompt"] = None


def describe_illuminati_revealed(e, state, lang):
    """Log line: every Illuminati revealed at once (I-2)."""
    sep = ", " if lang == "en" else "、"
    parts = sep.join(f"{_n(state, s)}: {v}" for s, v in e["data"]["choices"].items())
    missing = e["data"].get("missing")
    if missing:
        return _t(lang, f"イルミナティ公開（I-2）：{parts}。未配置の{_names(state, missing, lang)}はもう一度配置",
                  f"Illuminati revealed (I-2): {parts}. {_names(state, missing, lang)} had not placed and place again")
    return _t(lang, f"イルミナティ公開（I-2）：{parts}", f"Illuminati revealed (I-2): {parts}")


def groups_revealed(state, e):
    """Fold: a round of starting groups revealed: kept, set aside, chosen again (I-2)."""
    g, d = game(state), e.data
    g["kept"].update(d["kept"])
    g["set_aside"] += d["set_aside"]
    g["rounds"].append({"round": d["round"], "choices": d["choices"], "kept": d["kept"],
                        "set_aside": d["set_aside"], "again": d["again"]})
    g["prompt"] = None
    if not d["again"]:
        g["stage"] = "order"


def describe_groups_revealed(e, state, lang):
    """Log line: a round of starting groups revealed: kept, set aside, chosen again; a player the GM's early reveal
    found without a group (not in `choices`) places again, as with the Illuminati (I-2)."""
    d = e["data"]
    sep = ", " if lang == "en" else "、"
    shown = sep.join(f"{_n(state, s)}: {v}" for s, v in d["choices"].items()) or _t(lang, "配置なし", "none placed")
    if not d["again"]:
        return _t(lang, f"グループ公開 第{d['round']}回：{shown}（重複なし、全員の初期グループが決定）",
                  f"Groups revealed, round {d['round']}: {shown} (no duplicates; every starting group is set)")
    clashed = [s for s in d["again"] if s in d["choices"]]
    missing = [s for s in d["again"] if s not in d["choices"]]
    ja, en = [], []
    if clashed:
        aside = sep.join(d["set_aside"])
        ja.append(f"重複した{aside}は脇へ、{_names(state, clashed, lang)}が選び直し")
        en.append(f"Duplicates set aside ({aside}); {_names(state, clashed, lang)} choose again")
    if missing:
        ja.append(f"未配置の{_names(state, missing, lang)}はもう一度配置")
        en.append(f"{_names(state, missing, lang)} had not placed and place again")
    return _t(lang, f"グループ公開 第{d['round']}回：{shown}。{'、'.join(ja)}（I-2）",
              f"Groups revealed, round {d['round']}: {shown}. {'; '.join(en)} (I-2)")


def order_rolled(state, e):
    """Fold: the play order from everyone's 2d6 (I-3)."""
    g, d = game(state), e.data
    g["order"] = list(d["order"])
    g["order_rolls"] = d["rolls"]
    g["order_entered"] = d.get("entered", False)
    g["turns"] = Turns.start(d["order"]).to_dict()
    g["turn"] = new_turn()
    g["stage"] = "play"


def describe_order_rolled(e, state, lang):
    """Log line: the play order from everyone's 2d6 (I-3)."""
    d = e["data"]
    rolls = (", " if lang == "en" else "、").join(
        f"{_n(state, s)} {'→'.join(str(x) for x in r)}" for s, r in d["rolls"].items())
    real = _t(lang, "（実ダイス）", " (real dice)") if d.get("entered") else ""
    order = " → ".join(_n(state, s) for s in d["order"])
    return _t(lang, f"プレイ順（2d6{real}）：{rolls} ⇒ {order}", f"Play order (2d6{real}): {rolls} => {order}")


# -- turns ------------------------------------------------------------------------------------------

def turn_started(state, e):
    """Fold: the start of a turn: draws, automatic control, tokens."""
    g = game(state)
    g["turn"] = {"started": True, "group_draw": False, "auto_control": e.data.get("auto_control")}


def describe_turn_started(e, state, lang):
    """Log line: the start of a turn: draws, automatic control, tokens."""
    d = e["data"]
    parts = []
    if d.get("draw_plot"):
        parts.append(_t(lang, "プロット1枚", "drew a plot card"))
    if d.get("draw_group"):
        parts.append(_t(lang, "グループ1枚", "drew a group card"))
    if d.get("auto_control") == "group":
        parts.append(_t(lang, "自動支配（グループ）", "automatic control (group)"))
    elif d.get("auto_control") == "resource":
        parts.append(_t(lang, "自動支配（リソース）", "automatic control (resource)"))
    parts.append(_t(lang, f"トークン配置（イルミナティ{d['tokens'][0]}・グループ{d['tokens'][1]}）",
                    f"tokens placed (Illuminati {d['tokens'][0]}, groups {d['tokens'][1]})"))
    sep = ", " if lang == "en" else "、"
    return _t(lang, f"{_n(state, d['seat'])}のターン開始：", f"{_n(state, d['seat'])}'s turn begins: ") + sep.join(parts)


PURPOSES = {"move": ("グループの移動", "moving a group"), "draw_group": ("グループを1枚引く", "drawing a group card"),
            "draw_plot": ("プロットを1枚引く", "drawing a plot card"), "other": ("その他", "other")}


def token_spent(state, e):
    """Fold: action tokens spent on a move or a draw."""
    if e.data["purpose"] == "draw_group":
        game(state)["turn"]["group_draw"] = True


def describe_token_spent(e, state, lang):
    """Log line: action tokens spent on a move or a draw."""
    d = e["data"]
    src = _t(lang, "イルミナティ", "Illuminati") if d["source"] == "illuminati" else _t(lang, "グループ", "group")
    what = PURPOSES[d["purpose"]][1 if lang == "en" else 0]
    note = f"「{d['label']}」" if d.get("label") else ""
    return _t(lang, f"{_n(state, d['seat'])}：{src}のトークン{d['count']}個で{what}{note}",
              f"{_n(state, d['seat'])}: {d['count']} {src} token(s) spent on {what}"
              + (f" ({d['label']})" if d.get("label") else ""))


def agent_placed(state, e):
    """Fold: an Illuminati agent placed (I-4 +3)."""
    game(state)["agents"].setdefault(e.data["seat"], []).append(e.data["illuminati"])


def describe_agent_placed(e, state, lang):
    """Log line: an Illuminati agent placed (I-4 +3)."""
    d = e["data"]
    return _t(lang, f"{_n(state, d['seat'])}が{d['illuminati']}のエージェントを配置",
              f"{_n(state, d['seat'])} placed an agent of {d['illuminati']}")


def victory_declared(state, e):
    """Fold: a victory declared, to be confirmed at the end of the turn (I-1)."""
    game(state)["declared"].append(dict(e.data))


KINDS = {"basic": ("基本ゴール", "basic goal"), "special": ("特殊ゴール", "special goal"),
         "goal_card": ("ゴールカード", "goal card"), "last": ("他の全員が脱落", "everyone else is out")}


def victory_kind(d, lang):
    """How a victory is won (I-1): the goal's kind, with the special goal's or goal card's name."""
    label = KINDS[d["kind"]][1 if lang == "en" else 0]
    return label + (f"「{d['label']}」" if lang != "en" and d.get("label") else
                    f" '{d['label']}'" if d.get("label") else "")


def describe_victory_declared(e, state, lang):
    """Log line: a victory declared, to be confirmed at the end of the turn (I-1)."""
    d = e["data"]
    return _t(lang, f"{_n(state, d['seat'])}が勝利を宣言（{victory_kind(d, lang)}）",
              f"{_n(state, d['seat'])} declares victory ({victory_kind(d, lang)})")


def turn_ended(state, e):
    """Fold: the end of a turn and the next player."""
    g, d = game(state), e.data
    g["declared"] = []
    g["turns"] = d["turns"]
    g["turn"] = new_turn()


def describe_turn_ended(e, state, lang):
    """Log line: the end of a turn and the next player, or who won when the turn's end won the game (a won game has
    no next player)."""
    d = e["data"]
    lapsed = ""
    if d.get("lapsed"):
        lapsed = _t(lang, f"（{_names(state, d['lapsed'], lang)}の勝利宣言は条件未達で無効）",
                    f" ({_names(state, d['lapsed'], lang)}: declaration lapsed, goal no longer met)")
    if d.get("winner"):
        return _t(lang, f"{_n(state, d['seat'])}のターン終了{lapsed} — {_n(state, d['winner'])}の勝利！",
                  f"{_n(state, d['seat'])}'s turn ends{lapsed} — {_n(state, d['winner'])} wins!")
    nxt = d["turns"]["current"]
    return _t(lang, f"{_n(state, d['seat'])}のターン終了{lapsed}。次は{_n(state, nxt)}（第{d['turns']['round']}巡）",
              f"{_n(state, d['seat'])}'s turn ends{lapsed}. Next: {_n(state, nxt)} (round {d['turns']['round']})")


def player_out(state, e):
    """Fold: a player out of the game (I-7)."""
    g, d = game(state), e.data
    g["out"][d["seat"]] = d["reason"]
    if g.get("turns"):
        turns = Turns.from_dict(g["turns"])
        g["turns"] = turns.eliminate(d["seat"]).to_dict()
        if d["seat"] == turns.current:  # play passed on: the next player's turn has not begun
            g["turn"] = new_turn()


OUT = {"no_groups": ("支配するグループがなくなった", "controls no group"),
       "goal_cards": ("自ターン外にゴールカードを2枚持っていた", "held two goal cards outside their turn")}


def describe_player_out(e, state, lang):
    """Log line: a player out of the game (I-7)."""
    d = e["data"]
    why = OUT[d["reason"]][1 if lang == "en" else 0]
    return _t(lang, f"{_n(state, d['seat'])}が脱落（{why}）（I-7）", f"{_n(state, d['seat'])} is out ({why}) (I-7)")


def game_won(state, e):
    """Fold: the game won (I-1)."""
    g = game(state)
    g["winner"] = dict(e.data)
    g["stage"] = "over"


def describe_game_won(e, state, lang):
    """Log line: the game won (I-1)."""
    d = e["data"]
    return _t(lang, f"{_n(state, d['seat'])}の勝利！（{victory_kind(d, lang)}）（I-1）",
              f"{_n(state, d['seat'])} wins! ({victory_kind(d, lang)}) (I-1)")


# -- the attack (I-4, I-5) --------------------------------------------------------------------------

def attack_declared(state, e):
    """Fold: an attack declared (I-4)."""
    g = game(state)
    # a copy: later folds change the attack in the state (attack_choice its attacker's `use`), never the event
    g["attack"] = {**copy.deepcopy(e.data["attack"]), "supports": [], "modifiers": [], "status": "supports"}
    g["next_attack"] = e.data["attack"]["id"] + 1


def describe_attack_declared(e, state, lang):
    """Log line: an attack declared (I-4)."""
    a = e["data"]["attack"]
    purpose = _t(lang, "支配", "control") if a["purpose"] == "control" else _t(lang, "破壊", "destroy")
    owner = a["target"].get("owner")
    whose = (_t(lang, "手札から", "from the hand") if owner is None else
             _t(lang, f"{_n(state, owner)}の", f"{_n(state, owner)}'s"))
    return _t(lang, f"{_n(state, a['attacker_seat'])}の攻撃（{purpose}）：{a['attacker']['name']} → {whose}{a['target']['name']}",
              f"{_n(state, a['attacker_seat'])} attacks to {purpose}: {a['attacker']['name']} -> {whose} {a['target']['name']}")


def attack_supported(state, e):
    """Fold: a support for the attack or the defense (I-4)."""
    game(state)["attack"]["supports"].append(dict(e.data["support"]))


SUPPORT_WORDS = {"aligned": ("属性", "alignment"), "global": ("グローバルパワー", "global power"),
                 "agent": ("エージェント", "agent"), "target": ("対象自身のトークン", "the target's own tokens"),
                 "adjacent": ("親子", "parent or child")}


def describe_attack_supported(e, state, lang):
    """Log line: a support for the attack or the defense (I-4)."""
    s = e["data"]["support"]
    side = _t(lang, "攻撃支援", "supports the attack") if s["side"] == "attack" else _t(lang, "防御支援", "supports the defense")
    how = SUPPORT_WORDS[s["kind"]][1 if lang == "en" else 0]
    card = f" {s['name']}" if s.get("name") else ""
    return _t(lang, f"{_n(state, s['seat'])}が{side}：{how}{card} +{e['data']['amount']}",
              f"{_n(state, s['seat'])} {side}: {how}{card} +{e['data']['amount']}")


def attack_modified(state, e):
    """Fold: a labelled GM modifier on the attack."""
    game(state)["attack"]["modifiers"].append(dict(e.data))


def describe_attack_modified(e, state, lang):
    """Log line: a labelled GM modifier on the attack."""
    d = e["data"]
    side = _t(lang, "攻撃", "attack") if d["side"] == "attack" else _t(lang, "防御", "defense")
    return _t(lang, f"GM修正（{side}）：{minus_sign(d['amount'], True)}「{d['label']}」",
              f"GM modifier ({side}): {minus_sign(d['amount'], True)} '{d['label']}'")


def attack_choice(state, e):
    """Fold: the attacker's choice of normal or global power (I-4)."""
    game(state)["attack"]["attacker"]["use"] = e.data["use"]


def describe_attack_choice(e, state, lang):
    """Log line: the attacker's choice of normal or global power (I-4)."""
    use = e["data"]["use"]
    return _t(lang, "攻撃側は" + ("グローバルパワー" if use == "global" else "通常のパワー") + "を使う",
              "The attacker uses " + ("global power" if use == "global" else "normal power"))


def attack_rolled(state, e):
    """Fold: the 2d6 roll of an attack and its result (I-5)."""
    g, d = game(state), e.data
    attack = {**g["attack"], "status": "done", "result": {k: d[k] for k in
                                                         ("faces", "roll", "entered", "breakdown", "success", "fumble")}}
    g["attack"] = None
    g["attacks"] = ([attack] + g["attacks"])[:HISTORY]


def describe_attack_rolled(e, state, lang):
    """Log line: the 2d6 roll of an attack and its result (I-5)."""
    d = e["data"]
    b = d["breakdown"]
    real = _t(lang, "・実ダイス", ", real dice") if d.get("entered") else ""
    faces = "+".join(str(f) for f in d["faces"])
    if d["fumble"]:
        verdict = _t(lang, "11以上は必ず失敗", "11 or 12 always fails")
    else:
        verdict = _t(lang, f"達成値{minus_sign(b['achieved'])}{'≧' if d['success'] else '<'}出目{d['roll']}",
                     f"achieved {minus_sign(b['achieved'])} {'>=' if d['success'] else '<'} roll {d['roll']}")
    result = _t(lang, "成功", "success") if d["success"] else _t(lang, "失敗", "failure")
    atk, dfn = _terms(b["attack"], lang), _terms(b["defense"], lang)
    attack, defense, achieved = minus_sign(b["attack_total"]), minus_sign(b["defense_total"]), minus_sign(b["achieved"])
    return _t(lang, f"攻撃判定：攻撃{attack}（{atk}）− 防御{defense}（{dfn}）= {achieved}、"
                    f"2d6（{faces}{real}）= {d['roll']}：{verdict} ⇒ {result}",
              f"Attack roll: attack {attack} ({atk}) − defense {defense} ({dfn}) = "
              f"{achieved}, 2d6 ({faces}{real}) = {d['roll']}: {verdict} => {result}")


def _terms(terms: list[dict], lang: str) -> str:
    """A breakdown's terms as one phrase: the base value, then each modifier with its sign."""
    parts = []
    for i, term in enumerate(terms):
        label = term["label"] if isinstance(term["label"], str) else term["label"][lang if lang == "en" else "ja"]
        parts.append(f"{label} {minus_sign(term['value'], signed=i > 0)}")
    return (", " if lang == "en" else "、").join(parts)


def attack_cancelled(state, e):
    """Fold: an attack called off."""
    g = game(state)
    attack = {**g["attack"], "status": "cancelled", "reason": e.data.get("reason", "")}
    g["attack"] = None
    g["attacks"] = ([attack] + g["attacks"])[:HISTORY]


def describe_attack_cancelled(e, state, lang):
    """Log line: an attack called off."""
    reason = e["data"].get("reason")
    return _t(lang, "攻撃を取りやめ" + (f"（{reason}）" if reason else ""),
              "Attack called off" + (f" ({reason})" if reason else ""))


def order_roll_list(d: dict, state) -> list[dict]:
    """I-3: everyone's 2d6 for the play order (a tie rolled again) on the screens' roll lists, with their faces."""
    return order_rolls(d["rolls"], "2D6", {"ja": "プレイ順 [I-3]", "en": "Play order [I-3]"}, d.get("entered", False),
                       d.get("faces"))


def attack_roll_list(d: dict, state) -> list[dict]:
    """I-5: an attack's 2d6 on the screens' roll lists (its success as the attack's)."""
    faces = ",".join(str(f) for f in d["faces"])
    return [{"label": {"ja": "攻撃判定 [I-5]", "en": "Attack roll [I-5]"}, "text": f"2D6 → [{faces}] → {d['roll']}",
             "total": d["roll"], "success": bool(d["success"]), "entered": d.get("entered", False)}]


# What a player reads of an undone event (EventType.undone_visibility): a step of the game as it was, except where
# the undo took back a reveal (a placement's or a victory's), whose contents are secret again: the GM's then.
SECRET_ONCE_UNDONE = frozenset({"illuminati_revealed", "groups_revealed", "victory_declared"})


def _et(name, fold, describe, rolls=None, ends_game=False):
    return EventType(f"illuminati.{name}", fold, describe, PUBLIC, undoable=True, line_key=fixed_line, rolls=rolls,
                     ends_game=ends_game, undone_visibility=GM_ONLY if name in SECRET_ONCE_UNDONE else PUBLIC)


EVENTS: tuple[EventType, ...] = (
    _et("regulation_set", regulation_set, describe_regulation),
    _et("placement_opened", placement_opened, describe_placement_opened),
    _et("illuminati_revealed", illuminati_revealed, describe_illuminati_revealed),
    _et("groups_revealed", groups_revealed, describe_groups_revealed),
    _et("order_rolled", order_rolled, describe_order_rolled, order_roll_list),
    _et("turn_started", turn_started, describe_turn_started),
    _et("token_spent", token_spent, describe_token_spent),
    _et("agent_placed", agent_placed, describe_agent_placed),
    _et("victory_declared", victory_declared, describe_victory_declared),
    _et("turn_ended", turn_ended, describe_turn_ended),
    _et("player_out", player_out, describe_player_out),
    _et("game_won", game_won, describe_game_won, ends_game=True),
    _et("attack_declared", attack_declared, describe_attack_declared),
    _et("attack_supported", attack_supported, describe_attack_supported),
    _et("attack_modified", attack_modified, describe_attack_modified),
    _et("attack_choice", attack_choice, describe_attack_choice),
    _et("attack_rolled", attack_rolled, describe_attack_rolled, attack_roll_list),
    _et("attack_cancelled", attack_cancelled, describe_attack_cancelled),
)
