"""Holy Grail War TRPG combat (RULES.md T-1..T-14, seed 002): pure rules with breakdowns.

Every computed number comes with `terms`: [{"label": {"ja", "en"}, "value": int, "rule"}].
Every Reading of RULES.md that applies comes back as a note {"ja", "en", "rule", "reading"},
and can be switched with a `readings` dict (keys, defaults and choices: READINGS).
Caps (CapTracker), win rate, battle roll, cleanup, escape, seals and pairings: winrate.py (the T-3 use
limits are counted per faction in the combat's state: flow.py).
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from gmtool.core.errors import GmError, shown
from gmtool.core.model import Label
from gmtool.core.ruleset import Choice, Reading

STATS = ("筋力", "耐久", "敏捷", "魔力", "幸運", "宝具")
STATS_EN = ("STR", "END", "AGI", "MAG", "LUK", "NP")
STAT_EN = dict(zip(STATS, STATS_EN))
CEILING = 100  # T-8: nothing but Command Seals takes a stat over 100 (nor a sheet: a stat is entered as 0..100)
STAT_LABELS = {s: Label(s, e) for s, e in zip(STATS, STATS_EN)}

HALF, MINUS10 = "half", "minus10"
# T-7: (I chose, opponent chose) -> what happens to the opponent's value
AFFINITY = {
    ("筋力", "耐久"): HALF, ("筋力", "幸運"): MINUS10,
    ("耐久", "敏捷"): HALF, ("耐久", "幸運"): MINUS10,
    ("敏捷", "筋力"): HALF, ("敏捷", "幸運"): MINUS10,
    ("魔力", "筋力"): MINUS10, ("魔力", "耐久"): MINUS10, ("魔力", "敏捷"): MINUS10,
    ("幸運", "魔力"): HALF,
    ("宝具", "幸運"): HALF,
}

# Readings: key -> rule, default, and {choice: (ja, en)}; the first choice is the default.
READINGS: dict[str, dict] = {
    "sub_part": {"rule": "T-4", "choices": {
        "tens_halved": ("サブの能力値は十の位以上を半減し一の位はそのまま（55→30, 40→20）",
                        "Sub stat: tens halved, ones digit kept (55→30, 40→20)"),
        "half_ceil": ("サブの能力値は全体を半減して切り上げ（55→28）",
                      "Sub stat: whole value halved, rounded up (55→28)")}},
    "third_may_repeat_first": {"rule": "T-5", "choices": {
        True: ("3rdセレクトでは1stと同じ戦力を選べる（禁止は直前のセレクトのみ）",
               "The 3rd select may repeat the 1st (only the previous select is barred)"),
        False: ("3rdセレクトでは1stの戦力も選べない", "The 3rd select may not repeat the 1st either")}},
    "affinity_order": {"rule": "T-7", "choices": {
        "own_first": ("自分の修正（スキル・魔力の持ち越し・令呪）を先に加え、相手の相性を最後に適用",
                      "Own modifiers (skills, MAG carry-over, seals) first, the opponent's affinity last"),
        "affinity_first": ("相性を戦力そのものに適用してから自分の修正を加える",
                           "Affinity applied to the bare force, own modifiers added after")}},
    "result_tie": {"rule": "T-6", "choices": {
        "none": ("同値ならどちらも優位・劣位を得ない", "Equal values: neither side gains an advantage"),
        "gm": ("同値の扱いは監督役が決める", "Equal values: the GM decides")}},
    "magic_carry_on": {"rule": "T-7", "choices": {
        "any_win": ("【魔力】で比較に勝てば（相手の戦力を問わず）次の提出に+10",
                    "Winning with MAG (whatever the opponent chose) gives +10 to the next submission"),
        "affinity_win": ("相手が筋力・耐久・敏捷のときに【魔力】で勝った場合のみ+10",
                         "+10 only when MAG wins against STR, END or AGI")}},
    "luck_bonus_on": {"rule": "T-7", "choices": {
        "any_win": ("【幸運】で比較に勝てば（相手の戦力を問わず）勝率+10",
                    "Winning with LUK (whatever the opponent chose) gives win rate +10"),
        "affinity_win": ("相手が【魔力】のときに【幸運】で勝った場合のみ勝率+10",
                         "Win rate +10 only when LUK wins against MAG")}},
    "luck_void_on": {"rule": "T-7", "choices": {
        "any_win": ("【宝具】で比較に勝てば（相手の戦力を問わず）相手の幸運ボーナス無効",
                    "Winning with NP (whatever the opponent chose) voids the opponent's LUK bonus"),
        "affinity_win": ("相手が【幸運】のときに【宝具】で勝った場合のみ無効",
                         "Void only when NP wins against LUK")}},
    "luck_void_scope": {"rule": "T-7", "choices": {
        "scene": ("幸運ボーナスの無効はこの戦闘シーンの全ボーナス（先に得たものも）に及ぶ",
                  "The void covers every LUK bonus of the scene, also those gained earlier"),
        "later": ("無効は宝具で勝った後に得る幸運ボーナスのみ", "The void covers only LUK bonuses gained later")}},
    "stat_ceiling": {"rule": "T-8", "choices": {
        "seal_on_top": ("100の上限は令呪以外の変化に適用し、令呪の分はその上に加える",
                        "The 100 ceiling bounds every change but seals; seal changes go on top"),
        "total": ("令呪で100を超えた能力値は令呪以外では上がらない",
                  "A stat over 100 by seals cannot be raised further by anything else")}},
    "force_diff": {"rule": "T-9", "choices": {
        "sum_halved_ceil": ("戦力の差＝3回の比較値の差（自分−相手）の合計÷2、切り上げ",
                            "Force difference = sum of (mine − theirs) over the 3 compared values, halved, rounded up"),
        "sum_halved_floor": ("戦力の差＝3回の比較値の差の合計÷2、切り捨て",
                             "Force difference = sum of the 3 compared differences, halved, rounded down"),
        "chosen_force": ("戦力の差＝選んだ3つの戦力（修正・相性前）の差の合計÷2、切り上げ",
                         "Force difference = sum of the 3 chosen forces' differences before modifiers "
                         "and affinity, halved, rounded up"),
        "total_force": ("戦力の差＝公開された6つの戦力の合計の差÷2、切り上げ",
                        "Force difference = difference of the sums of all 6 public forces, halved, rounded up")}},
    "force_diff_behind": {"rule": "T-9", "choices": {
        "negative": ("負けている側の戦力の差はマイナス", "The side behind gets a negative force difference"),
        "zero": ("戦力の差は勝っている側のみが得る（負けている側は0）",
                 "Only the side ahead gains the force difference (the side behind gets 0)")}},
    "battle_tie": {"rule": "T-10", "choices": {
        "reroll": ("勝敗判定が同値なら振り直す", "A tied battle roll is re-rolled"),
        "gm": ("勝敗判定が同値なら監督役が決める", "A tied battle roll is decided by the GM")}},
    "seal7_black_stars": {"rule": "T-13", "choices": {
        "before_this_loss": ("令呪7の消費は今回の敗北の黒星を含まない数+1",
                             "Seal 7 costs the black stars held before this loss's star, + 1"),
        "after_this_loss": ("令呪7の消費は今回の敗北の黒星を含めた数+1",
                            "Seal 7 costs the black stars including this loss's star, + 1")}},
    "seal7_alliance": {"rule": "T-13", "choices": {
        "max": ("同盟の令呪7は同盟内で最も多い黒星を参照（令呪6と同じ）",
                "In an alliance seal 7 uses the most black stars among the allies (as seal 6)"),
        "own": ("同盟でも令呪7は使う陣営自身の黒星を参照", "Seal 7 uses the user's own black stars even in an alliance")}},
    "pairing_opponents": {"rule": "T-14", "choices": {
        "any": ("次の陣営は残っている全陣営から相手を選べる（既に戦った陣営も）",
                "The next picker may choose any side still in, also one that already fought"),
        "unfought": ("次の陣営はまだ戦っていない陣営からのみ相手を選ぶ",
                     "The next picker chooses only among sides that have not fought yet")}},
}


def reading(readings: Mapping | None, key: str) -> Any:
    """T-1: the active choice of one Reading (the default unless `readings` switches it)."""
    spec = READINGS[key]
    value = (readings or {}).get(key, next(iter(spec["choices"])))
    if value not in spec["choices"]:  # only a log written outside core's readings route holds one (never echoed)
        label = READING_LABELS[key]
        raise GmError(f"解釈「{label.ja}」の設定が正しくありません。GMが「解釈（ハウスルール）」の欄で選び直してください",
                      f"The reading '{label.en}' holds a value gmtool does not know: the GM chooses it again under "
                      "'Readings (house rules)'")
    return value


def reading_note(readings: Mapping | None, key: str) -> dict:
    """T-1: the note {"ja", "en", "rule", "reading"} for the active choice of a Reading."""
    value = reading(readings, key)
    spec = READINGS[key]
    ja, en = spec["choices"].get(value, (f"{key}={value}", f"{key}={value}"))
    return {"ja": f"解釈: {ja}", "en": f"Reading: {en}", "rule": spec["rule"], "reading": key}


READING_LABELS = {
    "sub_part": Label("サブの能力値", "A sub's stats"),
    "third_may_repeat_first": Label("3rdセレクトと1stの戦力", "The 3rd select and the 1st"),
    "affinity_order": Label("相性と修正の順序", "Affinity and modifiers: order"),
    "result_tie": Label("リザルトの同値", "A tied result"),
    "magic_carry_on": Label("魔力の持ち越し（+10）", "MAG carry-over (+10)"),
    "luck_bonus_on": Label("幸運ボーナス（勝率+10）", "LUK bonus (win rate +10)"),
    "luck_void_on": Label("宝具による幸運ボーナス無効", "NP voiding the LUK bonus"),
    "luck_void_scope": Label("幸運ボーナス無効の範囲", "What the LUK void covers"),
    "stat_ceiling": Label("能力値100の上限", "The stat ceiling of 100"),
    "force_diff": Label("戦力の差の計算", "How the force difference is computed"),
    "force_diff_behind": Label("負けている側の戦力の差", "The force difference of the side behind"),
    "battle_tie": Label("勝敗判定の同値", "A tied battle roll"),
    "seal7_black_stars": Label("令呪7の消費（黒星）", "Seal 7's cost (black stars)"),
    "seal7_alliance": Label("同盟の令呪7", "Seal 7 in an alliance"),
    "pairing_opponents": Label("次の対戦相手の選び方", "Who the next picker may choose"),
}


def declared_readings() -> tuple[Reading, ...]:
    """T-1: every Reading as the ruleset declares it (core lists, switches and shows them)."""
    return tuple(Reading(key, spec["rule"], READING_LABELS[key],
                         tuple(Choice(value, Label(*text)) for value, text in spec["choices"].items()),
                         next(iter(spec["choices"])))
                 for key, spec in READINGS.items())


def term(label: Label | str, value: int, rule: str) -> dict:
    """T-1: one breakdown term {"label", "value", "rule"}."""
    return {"label": label.to_dict() if isinstance(label, Label) else label, "value": int(value), "rule": rule}


def note(ja: str, en: str, rule: str, key: str | None = None) -> dict:
    """T-1: one note {"ja", "en", "rule"} (with "reading" when it names a Reading)."""
    return {"ja": ja, "en": en, "rule": rule, **({"reading": key} if key else {})}


def norm_term(t: Any, rule: str) -> dict:
    """T-1: a modifier given as a term dict (or an int) checked and given a default rule."""
    if isinstance(t, bool) or not isinstance(t, (int, Mapping)):
        raise GmError(f"修正値を読めません（{shown(t)}）", f"Cannot read the modifier ({shown(t)})")
    if isinstance(t, int):
        return term(Label("修正", "Modifier"), t, rule)
    value = t.get("value")
    if isinstance(value, bool) or not isinstance(value, int):
        raise GmError(f"修正値は整数です（{shown(value)}）", f"A modifier value must be a whole number ({shown(value)})")
    label = t.get("label", Label("修正", "Modifier"))
    return term(Label(str(label.get("ja", "")), str(label.get("en", ""))) if isinstance(label, Mapping) else label, value, t.get("rule", rule))


def one_of(words: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """T-1/T-8: the values a refusal allows, in words, ending its sentence (「…のいずれかを指定してください」 / "give A or B")."""
    ja, en = [j for j, _ in words], [e for _, e in words]
    return f"{'・'.join(ja)}のいずれかを指定してください", \
        "give " + (f"{', '.join(en[:-1])} or {en[-1]}" if len(en) > 1 else en[0])


def check_stat(stat: Any) -> str:
    """T-1: the stat itself, or a GmError naming the value (as JSON writes it) and the six stats (STR [筋力] …)."""
    if not isinstance(stat, str) or stat not in STATS:
        ja, en = one_of([(s, f"{STAT_EN[s]} [{s}]") for s in STATS])
        raise GmError(f"戦力「{shown(stat)}」はありません。{ja}", f"There is no stat '{shown(stat)}': {en}")
    return stat


# -- characters (T-4) ----------------------------------------------------------

@dataclass
class Character:
    """A servant or other combatant: its id, names, six stats and faction (T-4)."""

    id: str
    name: str
    class_name: str = ""
    true_name: str = ""
    stats: dict[str, int] = field(default_factory=dict)
    faction: str = ""
    skills: list = field(default_factory=list)

    def to_dict(self) -> dict:
        """T-4: JSON form (skills numbered "<id>:<n>", sheets.py)."""
        from .sheets import number_skills
        return {"id": self.id, "name": self.name, "class_name": self.class_name,
                "true_name": self.true_name, "stats": dict(self.stats), "faction": self.faction,
                "skills": number_skills(self.id, [dict(k) for k in self.skills])}


CLASSES = ("セイバー", "アーチャー", "ランサー", "ライダー", "キャスター", "アサシン", "バーサーカー",
           "ルーラー", "アヴェンジャー", "シールダー", "ムーンキャンサー", "アルターエゴ", "フォーリナー",
           "プリテンダー", "セイヴァー", "ビースト")
_KEYS = {**{s: s for s in STATS}, **{s[0]: s for s in STATS}, **{e: s for s, e in zip(STATS, STATS_EN)}}
_SEP = r"[\s,、/|;]"
_STAT_RE = re.compile(r"(?:^|(?<=" + _SEP + r")|(?=【))"
                      r"【?(筋力|耐久|敏捷|魔力|幸運|宝具|STR|END|AGI|MAG|LUK|NP|[筋耐敏魔幸宝])】?"
                      r"\s*(?:[:=]\s*)?(\d+)(?!\d)", re.IGNORECASE)  # one way to split the spaces: linear
MAX_LINE = 200  # a character line; longer lines are refused before any regex (T-4)
MAX_TEXT = 8000


def _bad(line_no: int, ja: str, en: str, where: str = "行") -> GmError:
    pos = (f"{line_no}行目", f"line {line_no}") if where == "行" else (f"{line_no}番目", f"item {line_no}")
    return GmError(f"{pos[0]}: {ja}", f"{pos[1].capitalize()}: {en}")


def _read_stats(pairs, n: int, where: str) -> dict[str, int]:
    stats: dict[str, int] = {}
    for key, value in pairs:
        stat = _KEYS.get(key) or _KEYS.get(str(key).upper())
        if stat is None:
            raise _bad(n, f"能力値「{key}」はありません", f"unknown stat '{key}'", where)
        if stat in stats:
            raise _bad(n, f"{stat}が2回あります", f"{STAT_EN[stat]} given twice", where)
        if isinstance(value, str) and unicodedata.normalize("NFKC", value).strip().isdigit():
            value = int(unicodedata.normalize("NFKC", value))
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= CEILING:
            raise _bad(n, f"{stat}の値は0〜{CEILING}の整数です（{shown(value)}）[T-8]",
                       f"{STAT_EN[stat]} must be a whole number 0–{CEILING} ({shown(value)}) [T-8]", where)
        stats[stat] = value
    missing = [s for s in STATS if s not in stats]
    if missing:
        raise _bad(n, f"{'・'.join(missing)}がありません", f"missing {', '.join(STAT_EN[s] for s in missing)}", where)
    return {s: stats[s] for s in STATS}


def _head(head: str, n: int) -> tuple[str, str, str]:
    parts = [p.strip() for p in head.split("/")]
    m = re.fullmatch(r"(.+?)\s*\((.+?)\)", parts[0])
    name, cls = (m.group(1), m.group(2)) if m else (parts[0], "")
    rest = parts[1:]
    if not cls and len(rest) >= 2 or (not cls and len(rest) == 1 and rest[0] in CLASSES):
        cls, rest = rest[0], rest[1:]
    if len(rest) > 1 or not name or any(not p for p in parts):
        raise _bad(n, f"名前を読めません「{head}」（例: アルトリア(セイバー) または 名前/クラス/真名）",
                   f"cannot read the name '{head}' (e.g. Artoria(Saber) or name/class/true name)")
    if not cls and name in CLASSES:
        cls = name
    return name, cls, (rest[0] if rest else "")


def _unique_id(faction: str, name: str, taken: set[str]) -> str:
    base = f"{faction}/{name}" if faction else name
    cid, k = base, 2
    while cid in taken:
        cid, k = f"{base}#{k}", k + 1
    taken.add(cid)
    return cid


def _too_many_skills(line_no: int, name: str, where: str = "行") -> GmError:
    from .sheets import MAX_SKILLS
    return _bad(line_no, f"1体のスキル・宝具は{MAX_SKILLS}個までです（{name}）",
                f"at most {MAX_SKILLS} skills / NPs per character ({name})", where)


def parse_characters(text: str, faction: str = "") -> list[Character]:
    """T-4: characters from lines `アルトリア(セイバー) 筋力40 …` with skill lines `- 怪力 セレクト 筋力+10`, or JSON."""
    from .sheets import MAX_SKILLS, make_skill, parse_skill_line
    if not isinstance(text, str) or not text.strip():
        raise GmError("キャラクターが入力されていません", "No characters given")
    if len(text) > MAX_TEXT:
        raise GmError(f"キャラクターの入力は{MAX_TEXT}文字までです", f"The characters are at most {MAX_TEXT} characters")
    taken: set[str] = set()
    if text.lstrip().startswith("["):
        try:
            items = json.loads(text)
        except json.JSONDecodeError as e:
            raise GmError(f"JSONを読めません（{e.lineno}行目）", f"Cannot read JSON (line {e.lineno})") from None
        out = []
        for n, item in enumerate(items, 1):
            if not isinstance(item, dict):
                raise _bad(n, "name のあるオブジェクトが必要です", "an object with a name is required", "item")
            texts = {}
            for key in ("id", "name", "class_name", "class", "true_name", "faction"):  # never kept as Python's text
                v = item.get(key)
                if v is not None and (isinstance(v, bool) or not isinstance(v, (str, int))):
                    raise _bad(n, f"{key} は文字か数で指定します（「{shown(v)}」）",
                               f"{key} must be a text or a number (got '{shown(v)}')", "item")
                texts[key] = "" if v is None else str(v).strip()
            if not texts["name"]:
                raise _bad(n, "name のあるオブジェクトが必要です", "an object with a name is required", "item")
            raw = item.get("stats", {k: v for k, v in item.items() if _KEYS.get(k) or _KEYS.get(str(k).upper())})
            if not isinstance(raw, dict):
                raise _bad(n, "stats はオブジェクトです", "stats must be an object", "item")
            name = texts["name"]
            cid = texts["id"] if item.get("id") else _unique_id(faction, name, taken)
            skills = item.get("skills") or []
            if not isinstance(skills, list):
                raise _bad(n, "skills はリストです", "skills must be a list", "item")
            if len(skills) > MAX_SKILLS:
                raise _too_many_skills(n, texts["name"], "item")
            out.append(Character(cid, name, texts["class_name"] or texts["class"], texts["true_name"],
                                 _read_stats(raw.items(), n, "item"), texts["faction"] or faction,
                                 [make_skill(k, (f"{n}番目の{k_no}つ目のスキル", f"Item {n}, skill {k_no}"))
                                  for k_no, k in enumerate(skills, 1)]))
        return out
    out = []
    for n, raw_line in enumerate(text.splitlines(), 1):
        line = unicodedata.normalize("NFKC", raw_line).strip()
        if not line or line.startswith("#"):
            continue
        if line[0] in "-・*":
            if not out:
                raise _bad(n, "スキルの行の前にキャラクターの行が必要です", "a skill line needs a character line above it")
            if len(out[-1].skills) >= MAX_SKILLS:
                raise _too_many_skills(n, out[-1].name)
            out[-1].skills.append(parse_skill_line(line[1:].strip(), (f"{n}行目", f"Line {n}")))
            continue
        if len(line) > MAX_LINE:
            raise _bad(n, f"1行は{MAX_LINE}文字までです", f"a line is at most {MAX_LINE} characters")
        matches = list(_STAT_RE.finditer(line))
        if not matches:
            raise _bad(n, f"能力値がありません「{raw_line.strip()}」（例: セイバー 筋力40 耐久60 敏捷40 魔力55 幸運40 宝具60）",
                       f"no stats in '{raw_line.strip()}' (e.g. Saber STR40 END60 AGI40 MAG55 LUK40 NP60)")
        gaps = [line[a.end():b.start()] for a, b in zip(matches, matches[1:])] + [line[matches[-1].end():]]
        junk = [g.strip() for g in gaps if not re.fullmatch(_SEP + "*", g)]
        if junk:
            raise _bad(n, f"読めない部分があります「{junk[0]}」", f"cannot read '{junk[0]}'")
        name, cls, true_name = _head(line[:matches[0].start()].strip(), n)
        stats = _read_stats(((m.group(1), int(m.group(2))) for m in matches), n, "行")
        out.append(Character(_unique_id(faction, name, taken), name, cls, true_name, stats, faction))
    if not out:
        raise GmError("キャラクターが入力されていません", "No characters given")
    return out


# -- setup and force (T-4) -----------------------------------------------------

def sub_part(x: int, readings: Mapping | None = None) -> int:
    """T-4: a sub's contribution to 戦力 (Reading sub_part: (x - x%10)//2 + x%10)."""
    if reading(readings, "sub_part") == "half_ceil":
        return math.ceil(x / 2)
    return (x - x % 10) // 2 + x % 10


def _stats_of(c: Character | Mapping) -> tuple[str, dict]:
    return (c.name, c.stats) if isinstance(c, Character) else ("", dict(c))


def force_label(role: str, name: str, stat: str, detail: str = "") -> Label:
    """T-4: a force term's label, role ("main"/"sub") and name apart: メイン アルトリアの筋力, サブ 士郎の筋力 20→10."""
    ja_role, en_role = {"main": ("メイン", "Main"), "sub": ("サブ", "Sub")}[role]
    ja = f"{ja_role} {name}の{stat}" if name else f"{ja_role}の{stat}"
    en = " ".join(x for x in (en_role, name, STAT_EN.get(stat, stat)) if x)
    return Label(f"{ja} {detail}", f"{en} {detail}") if detail else Label(ja, en)


def force(main: Character | Mapping, sub: Character | Mapping | None = None,
          readings: Mapping | None = None) -> dict[str, dict]:
    """T-4: 戦力 per stat = main + sub_part(sub), as {stat: {"value", "terms", "notes"}}."""
    m_name, m_stats = _stats_of(main)
    out = {}
    for s in STATS:
        terms = [term(force_label("main", m_name, s), m_stats[s], "T-4")]
        notes = []
        if sub is not None:
            s_name, s_stats = _stats_of(sub)
            part = sub_part(s_stats[s], readings)
            terms.append(term(force_label("sub", s_name, s, f"{s_stats[s]}→{part}"), part, "T-4"))
            notes.append(reading_note(readings, "sub_part"))
        out[s] = {"value": sum(t["value"] for t in terms), "terms": terms, "notes": notes}
    return out


def validate_setup(characters: Sequence[Character], main: Any, sub: Any = None, others: Any = ()) -> dict:
    """T-4: check main (exactly 1), sub (0–1), others (0–2) against the side's characters."""
    by_id = {c.id: c for c in characters}

    names = {"main": ("メイン", "main", 1, 1), "sub": ("サブ", "sub", 0, 1), "others": ("その他", "others", 0, 2)}

    def ids(role: str, v: Any) -> list[str]:
        listed = [] if v is None or v == "" else [v] if isinstance(v, str) else v
        if not isinstance(listed, (list, tuple)) or not all(isinstance(cid, str) for cid in listed):
            ja, en = names[role][:2]
            raise GmError(f"{ja}はキャラクターID（例: s1/アルトリア）で指定します",
                          f"Give the {en} as character ids (e.g. s1/アルトリア)")
        return list(listed)

    roles = {"main": ids("main", main), "sub": ids("sub", sub), "others": ids("others", others)}
    for role, (ja, en, lo, hi) in names.items():
        n = len(roles[role])
        if not lo <= n <= hi and lo == hi == 1:  # one number, said as one: 「メインは1体です」
            raise GmError(f"{ja}は1体です（{n}体）", f"The {en} is one character ({n} chosen)")
        if not lo <= n <= hi:
            raise GmError(f"{ja}は{lo}〜{hi}体です（{n}体）", f"The {en} must be {lo}–{hi} characters ({n})")
    seen: set[str] = set()
    for cid in roles["main"] + roles["sub"] + roles["others"]:
        if cid not in by_id:
            raise GmError("そのキャラクターはこの側にいません", "That character is not on this side")
        if cid in seen:
            raise GmError(f"「{by_id[cid].name}」が2か所に入っています", f"'{by_id[cid].name}' is placed twice")
        seen.add(cid)
    return {"main": roles["main"][0], "sub": (roles["sub"] or [None])[0], "others": roles["others"],
            "non_combat": [c.id for c in characters if c.id not in seen]}


def setup_order(declarer: str, defender: str) -> list[str]:
    """T-4: setup-timing skills resolve for the side declared upon first, then the declarer."""
    return [defender, declarer]


# -- selects (T-5) -------------------------------------------------------------

def allowed_stats(previous: str | None, np_used: bool, readings: Mapping | None = None,
                  before_previous: str | None = None) -> dict[str, dict | None]:
    """T-5: {stat: None if choosable else a reason {"ja", "en", "rule"}} for the next select."""
    out: dict[str, dict | None] = {s: None for s in STATS}
    if before_previous and not reading(readings, "third_may_repeat_first"):
        out[check_stat(before_previous)] = note(f"{before_previous}は1stで選んだため選べません（解釈）",
                                           f"{STAT_EN[before_previous]} was chosen in the 1st select (Reading)",
                                           "T-5", "third_may_repeat_first")
    if previous:
        out[check_stat(previous)] = note(f"{previous}は直前のセレクトで選んだため選べません",
                                    f"{STAT_EN[previous]} was chosen in the previous select", "T-5")
    if np_used:
        out["宝具"] = note("宝具はこの戦闘シーンで既に提出しています（1回まで）",
                         "NP was already submitted in this combat scene (once only)", "T-5")
    return out


def select_notes(select_no: int, readings: Mapping | None = None) -> list[dict]:
    """T-5: the Readings that apply to a select (3rd: may it repeat the 1st)."""
    return [reading_note(readings, "third_may_repeat_first")] if select_no == 3 else []


def check_choice(stat: str, previous: str | None, np_used: bool, readings: Mapping | None = None,
                 before_previous: str | None = None) -> None:
    """T-5: raise GmError if `stat` may not be chosen now."""
    reason = allowed_stats(previous, np_used, readings, before_previous)[check_stat(stat)]
    if reason:
        raise GmError(reason["ja"], reason["en"])


# -- results (T-6, T-7) --------------------------------------------------------

@dataclass(frozen=True)
class SideChoice:
    """One side's select (T-6): chosen stat, its 戦力 value, own modifiers as terms."""

    stat: str
    force: int
    modifiers: tuple = ()


@dataclass
class ResultBreakdown:
    """One comparison (T-6/T-7): both values with terms, winner and the T-7 flags."""

    select_no: int
    a: dict
    b: dict
    winner: str | None
    magic_carry: str | None = None
    luck_bonus: str | None = None
    luck_void: str | None = None
    needs_gm: bool = False
    notes: list = field(default_factory=list)

    def advantage(self, side: str) -> int:
        """T-6: +1 for the winner (優位), -1 for the loser (劣位), 0 on a tie."""
        return 0 if self.winner is None else (1 if self.winner == side else -1)

    def to_dict(self) -> dict:
        """T-6: JSON form."""
        return {"select_no": self.select_no, "a": self.a, "b": self.b, "winner": self.winner,
                "advantage": {"a": self.advantage("a"), "b": self.advantage("b")},
                "magic_carry": self.magic_carry, "luck_bonus": self.luck_bonus, "luck_void": self.luck_void,
                "needs_gm": self.needs_gm, "notes": self.notes}


def affinity(chooser: str, opponent: str) -> str | None:
    """T-7: what my chosen stat does to the opponent's value: 'half', 'minus10' or None."""
    return AFFINITY.get((check_stat(chooser), check_stat(opponent)))


def _affinity_term(kind: str, chooser: str, target: str, value: int) -> dict:
    ce, te = STAT_EN[chooser], STAT_EN[target]
    if kind == HALF:
        return term(Label(f"相性: {chooser}が{target}を半減（{value}→{math.ceil(value / 2)}、切り上げ）",
                          f"Affinity: {ce} halves {te} ({value}→{math.ceil(value / 2)}, rounded up)"),
                    math.ceil(value / 2) - value, "T-7")
    return term(Label(f"相性: {chooser}により{target}が−10", f"Affinity: {ce} gives {te} −10"), -10, "T-7")


def _side(key: str, me: SideChoice, opp: SideChoice, carry: str | None, order: str) -> dict:
    check_stat(me.stat)
    if isinstance(me.force, bool) or not isinstance(me.force, int):
        raise GmError(f"戦力は整数です（{shown(me.force)}）", f"Force must be a whole number ({shown(me.force)})")
    base = term(Label(f"戦力（{me.stat}）", f"Force ({STAT_EN[me.stat]})"), me.force, "T-4")
    own = [term(Label("魔力の持ち越し", "MAG carry-over"), 10, "T-7")] if carry == key else []
    own += [norm_term(m, "T-8") for m in me.modifiers]
    kind = affinity(opp.stat, me.stat)
    terms = [base] + (own if order == "own_first" else [])
    if kind:
        terms.append(_affinity_term(kind, opp.stat, me.stat, sum(t["value"] for t in terms)))
    terms += own if order != "own_first" else []
    return {"stat": me.stat, "force": me.force, "value": sum(t["value"] for t in terms),
            "terms": terms, "affinity": kind}


def compare(select_no: int, a: SideChoice, b: SideChoice, carry: str | None = None,
            readings: Mapping | None = None, names: Mapping[str, str] | None = None) -> ResultBreakdown:
    """T-6/T-7: compare two selects (own modifiers, then affinity); higher gains 優位; `names` names the sides."""
    def ja(side: str) -> str:
        return names[side] if names and side in names else f"{side}側"

    def en(side: str) -> str:
        return names[side] if names and side in names else f"Side {side}"
    if select_no not in (1, 2, 3):
        raise GmError(f"セレクトは1〜3です（{select_no}）", f"Select must be 1–3 ({select_no})")
    order = reading(readings, "affinity_order")
    sa, sb = _side("a", a, b, carry, order), _side("b", b, a, carry, order)
    notes = []
    if a.stat == b.stat:
        notes.append(note("同じ戦力同士なので相性なし（解釈）", "Same stat on both sides: no affinity (Reading)",
                          "T-7", "affinity_order"))
    if sa["affinity"] or sb["affinity"]:
        notes.append(reading_note(readings, "affinity_order"))
        notes.append(note("端数は切り上げ", "Fractions round up", "T-7"))
    if carry:
        notes.append(note(f"{ja(carry)}は前回【魔力】で勝ったため+10", f"{en(carry)} won with MAG last time: +10", "T-7"))
    winner = "a" if sa["value"] > sb["value"] else "b" if sb["value"] > sa["value"] else None
    res = ResultBreakdown(select_no, sa, sb, winner, notes=notes)
    if winner is None:
        res.needs_gm = reading(readings, "result_tie") == "gm"
        notes.append(reading_note(readings, "result_tie"))
        return res
    w, l_ = (a, b) if winner == "a" else (b, a)
    loser = "b" if winner == "a" else "a"
    notes.append(note(f"{ja(winner)}が優位、{ja(loser)}が劣位。優位側からリザルトのスキルを使う",
                      f"{en(winner)} gains the advantage, {en(loser)} the disadvantage; the winner uses "
                      "result skills first", "T-6"))
    if w.stat == "魔力" and (reading(readings, "magic_carry_on") == "any_win" or affinity("魔力", l_.stat)):
        notes.append(reading_note(readings, "magic_carry_on"))
        if select_no < 3:
            res.magic_carry = winner
        else:
            notes.append(note("3rdの後に提出はないので魔力の+10は使われない",
                              "No submission follows the 3rd select: the MAG +10 lapses", "T-7"))
    if w.stat == "幸運" and (reading(readings, "luck_bonus_on") == "any_win" or affinity("幸運", l_.stat)):
        res.luck_bonus = winner
        notes.append(reading_note(readings, "luck_bonus_on"))
    if w.stat == "宝具" and (reading(readings, "luck_void_on") == "any_win" or affinity("宝具", l_.stat)):
        res.luck_void = winner
        notes += [reading_note(readings, "luck_void_on"), reading_note(readings, "luck_void_scope")]
    return res
