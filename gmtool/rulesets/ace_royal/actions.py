"""Fate/Ace Royal actions: each step of the game as a pure command `(state, payload, ctx) -> drafts`,
by name (docs/rulesets/ace_royal.md lists them)."""

from __future__ import annotations

from gmtool.core.ruleset import action

from .coins import adjust, set_state, use_seal
from .combat import combat_choose, combat_hand_code, combat_modifier, combat_proxy, combat_resolve, combat_roll
from .setup import exchange_class, leftover_classes, roll_first, set_servant, setup, start_game
from .turn import declare_attack, encounter_roll, place_code, reveal, step

ACTIONS = dict([
    action("setup", "準備（版と座席順）", "Setup (version and seating)", setup),
    action("roll_first", "最初のアクティブマスター（1d6）", "First active master (1d6)", roll_first),
    action("set_servant", "サーヴァント登録", "Set the servant", set_servant, who="seat"),
    action("leftover_classes", "残ったクラスを公開", "Reveal the leftover classes", leftover_classes),
    action("exchange_class", "クラス交換", "Exchange the class", exchange_class, who="seat"),
    action("start_game", "開幕", "Start the game", start_game),
    action("step", "次のステップ", "Next step", step, who="seat"),
    action("place_code", "礼装カードの配置", "Place a mystic code", place_code, who="seat"),
    action("reveal", "サーヴァントの開示", "Reveal the servant", reveal, who="seat"),
    action("declare_attack", "襲撃を宣言", "Declare an attack", declare_attack, who="seat"),
    action("encounter_roll", "遭遇戦判定（1d6）", "Encounter roll (1d6)", encounter_roll, who="seat"),
    action("combat_choose", "物理／魔術を選ぶ", "Choose physical / magical", combat_choose, who="seat"),
    action("combat_modifier", "修正を加える", "Add a modifier", combat_modifier, who="seat"),
    action("combat_proxy", "代理戦闘", "Proxy combat", combat_proxy, who="seat"),
    action("combat_roll", "戦闘ダイス（クイック）", "Combat die (quick)", combat_roll, who="seat"),
    action("combat_hand_code", "手札の礼装カードを答える", "Say whether the hand holds a mystic code", combat_hand_code,
           who="seat"),
    action("combat_resolve", "戦闘を解決", "Resolve the combat", combat_resolve, who="seat"),
    action("use_seal", "令呪を使う", "Use Command Seals", use_seal, who="seat"),
    action("adjust", "コイン・枚数を変更", "Change a count", adjust, who="seat"),
    action("set_state", "状態を変更", "Change the servant's state", set_state, who="seat"),
])
