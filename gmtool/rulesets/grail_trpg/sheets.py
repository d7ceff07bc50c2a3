"""Character sheets' skills and 宝具 (RULES.md T-3, T-4, T-5, T-8, T-13): how they are entered
(text lines, JSON, the GM's form), how they read, and whether one may be used now.

A skill is a dict {"id", "name", "kind", "timing", "stat", "value", "target", "win_rate", "mp", "note"}:
`kind` skill / np (宝具); `timing` one of TIMINGS; `stat` a stat or None (= the stat chosen at that
select); `value` the change of that stat (None: no stat effect); `target` self / opponent (a debuff);
`win_rate` a 勝率 change (None: none); `mp` its MP cost; `note` free text. A skill with no number
is still listed: the GM applies it by hand. Its id is "<character id>:<n>" (n counts from 1).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Mapping

from gmtool.core.errors import GmError, shown
from gmtool.core.logtext import minus_sign
from gmtool.core.model import Label

from .rules import STAT_EN, STATS, one_of

TIMINGS = {"setup": Label("セットアップ", "Setup"), "select": Label("セレクト", "Select"),
           "result": Label("リザルト", "Result"), "battle": Label("バトル", "Battle"),
           "cleanup": Label("クリンナップ", "Cleanup"), "any": Label("常時", "Any time")}
KINDS = {"skill": Label("スキル", "Skill"), "np": Label("宝具", "NP")}
MOD_KINDS = {**KINDS, "outside": Label("上限外", "Outside the cap")}  # a GM modifier's too, as the console's select
_TIMING_WORDS = {**{k: k for k in TIMINGS}, **{v.ja: k for k, v in TIMINGS.items()},
                 **{v.en.lower(): k for k, v in TIMINGS.items()}, "anytime": "any", "いつでも": "any",
                 "常時": "any", "セットアップ時": "setup"}
_KIND_WORDS = {"skill": "skill", "np": "np", "スキル": "skill", "宝具": "np", "noble": "np"}
_STAT_WORDS = {**{s: s for s in STATS}, **{e: s for s, e in STAT_EN.items()}, "戦力": None, "選択": None,
               "選んだ能力値": None}
# One token each (the line is split on spaces first, and at most MAX_SKILL_LINE long): linear time.
_STAT_ALT = r"筋力|耐久|敏捷|魔力|幸運|宝具|STR|END|AGI|MAG|LUK|NP|戦力|選択|選んだ能力値"
_OPP_ALT = r"相手の?|敵の?|opp:"
_EFFECT_RE = re.compile(rf"({_OPP_ALT})?({_STAT_ALT}|勝率|WR)([+-]\d{{1,3}})", re.IGNORECASE)
_UNSIGNED_RE = re.compile(rf"(?:{_OPP_ALT})?({_STAT_ALT})(\d{{1,3}})", re.IGNORECASE)  # STR10: a value without its sign
_MP_RE = re.compile(r"MP[:=]?(\d{1,2})", re.IGNORECASE)
_SIGNED_RE = re.compile(r"[+-]\d{1,3}")
# The English effect as effect_text writes it, over several tokens: [opponent] STR -50, [opponent] chosen stat +10,
# win rate +10, MP 2 (and 相手の 筋力-10, 筋力 +10: the same with a space).
_OPP_WORDS = {"opponent", "opponent's", "opponents", "opp", "opp:", "enemy", "enemy's", "相手の", "相手", "敵の", "敵"}
_STAT_TOKENS = {w.lower() for w in _STAT_WORDS}
MAX_SKILLS = 8  # per character
MAX_SKILL_LINE = 160
MAX_NAME = 30
MAX_NOTE = 80
MAX_VALUE = 100


def _bad(where: tuple[str, str], ja: str, en: str) -> GmError:
    return GmError(f"{where[0]}: {ja}", f"{where[1]}: {en}")


def _int(value: Any, where: tuple[str, str], what: tuple[str, str], lo: int, hi: int) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,4}", value.strip()):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(where, f"{what[0]}は{lo}〜{hi}の整数です（{shown(value)}）",
                   f"{what[1]} must be a whole number {lo}..{hi} ({shown(value)})")
    return value


def make_skill(raw: Mapping, where: tuple[str, str]) -> dict:
    """T-3/T-8: one skill checked from a JSON object or form fields (id assigned later)."""
    if not isinstance(raw, Mapping):
        raise _bad(where, "スキルは {name, kind, timing, …} のオブジェクトです", "a skill is an object {name, kind, timing, …}")
    for k in FORM_FIELDS:  # a text or a number each: a list, an object or true is refused, not read as its Python text
        v = raw.get(k)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (str, int))):
            raise _bad(where, f"{k} は文字か数で指定します（「{shown(v)}」）", f"{k} must be a text or a number (got '{shown(v)}')")
    name = unicodedata.normalize("NFKC", str(raw.get("name") or "")).strip()
    if not name or len(name) > MAX_NAME:
        raise _bad(where, f"スキル名は1〜{MAX_NAME}文字です", f"a skill name is 1–{MAX_NAME} characters")
    kind = _KIND_WORDS.get(str(raw.get("kind") or "skill").strip().lower(), None)
    timing = _TIMING_WORDS.get(str(raw.get("timing") or "any").strip().lower(),
                               _TIMING_WORDS.get(str(raw.get("timing") or "").strip()))
    if kind is None:  # the words a sheet takes (スキル, 宝具, skill, NP), so no code beside them
        ja, en = one_of([(k.ja, k.en) for k in KINDS.values()])
        raise _bad(where, f"種類「{shown(raw.get('kind'))}」はありません。{ja}", f"there is no kind '{shown(raw.get('kind'))}': {en}")
    if timing is None:  # as the kind: the words a sheet takes (セットアップ, Setup, …), so no code beside them
        ja, en = one_of([(t.ja, t.en) for t in TIMINGS.values()])
        raise _bad(where, f"タイミング「{shown(raw.get('timing'))}」はありません。{ja}",
                   f"there is no timing '{shown(raw.get('timing'))}': {en}")
    stat = raw.get("stat") or None
    if stat is not None:
        if stat not in _STAT_WORDS:  # a sheet takes a stat's Japanese or English name
            ja, en = one_of([(s, STAT_EN[s]) for s in STATS])
            raise _bad(where, f"能力値「{shown(stat)}」はありません。{ja}", f"there is no stat '{shown(stat)}': {en}")
        stat = _STAT_WORDS[stat]
    target = str(raw.get("target") or "self")
    if target not in ("self", "opponent"):
        raise _bad(where, "target は self か opponent です", "target must be self or opponent")
    value = _int(raw.get("value"), where, ("効果の値", "The value"), -MAX_VALUE, MAX_VALUE)
    win = _int(raw.get("win_rate"), where, ("勝率の値", "The win rate"), -MAX_VALUE, MAX_VALUE)
    mp = _int(raw.get("mp"), where, ("MP", "MP"), 0, 99) or 0
    note = str(raw.get("note") or "").strip()
    if len(note) > MAX_NOTE:  # refused, never cut: the GM sees what is kept
        raise _bad(where, f"メモは{MAX_NOTE}文字までです（{len(note)}文字）", f"a note is at most {MAX_NOTE} characters ({len(note)})")
    if value is None and (stat is not None or target == "opponent"):
        stat, target = None, "self"
    return {"id": "", "name": name, "kind": kind, "timing": timing, "stat": stat, "value": value, "target": target,
            "win_rate": win, "mp": mp, "note": note}


def _bare(token: str) -> str:
    """A token without the comma or colon that may follow it (`Cleanup: STR -50, MP 2`, as effect_text writes a
    timing and lists effects)."""
    return token.rstrip(",、;:：") or token


def _effect_at(tokens: list[str], i: int, where: tuple[str, str]) -> tuple[str, int]:
    """The effect written over several tokens from tokens[i], as one token (`opponent STR -50` → `opp:STR-50`,
    `chosen stat +10` → `戦力+10`, `win rate +10` → `WR+10`, `MP 2` → `MP2`), and how many tokens it took; else
    tokens[i] alone. A stat with a value but no sign (`STR 10`, `STR10`) is refused rather than read as a note."""
    bare = [_bare(t) for t in tokens[i:i + 4]]  # an effect takes at most four tokens: a bounded look-ahead
    low = [t.lower() for t in bare]
    opp = low[0] in _OPP_WORDS
    k, stat = (1 if opp else 0), None
    if k + 1 < len(low) and low[k] == "chosen" and low[k + 1] == "stat":
        stat, k = "戦力", k + 2
    elif k < len(low) and low[k] in _STAT_TOKENS:
        stat, k = bare[k], k + 1
    if stat is not None and k < len(bare) and _SIGNED_RE.fullmatch(bare[k]):
        return ("opp:" if opp else "") + stat + bare[k], k + 1
    if stat is not None and k < len(bare) and bare[k].isdigit():
        raise _bad(where, f"「{stat} {bare[k]}」: 効果の値には符号を付けます（例: {stat} +{bare[k]}）",
                   f"'{stat} {bare[k]}': give the effect's value a sign (e.g. {stat} +{bare[k]})")
    if opp and len(bare) > 1 and (m := _EFFECT_RE.fullmatch(bare[1])) and not m.group(1):
        return "opp:" + bare[1], 2
    if opp and low[1:3] == ["win", "rate"] and len(bare) > 3 and _SIGNED_RE.fullmatch(bare[3]):
        return "opp:WR" + bare[3], 4  # refused by parse_skill_line: a win rate is one's own
    if low[:2] == ["win", "rate"] and len(bare) > 2 and _SIGNED_RE.fullmatch(bare[2]):
        return "WR" + bare[2], 3
    if low[0] in ("勝率", "wr") and len(bare) > 1 and _SIGNED_RE.fullmatch(bare[1]):
        return "WR" + bare[1], 2
    if low[0] == "mp" and len(bare) > 1 and re.fullmatch(r"\d{1,2}", bare[1]):
        return "MP" + bare[1], 2
    if m := _UNSIGNED_RE.fullmatch(bare[0]):
        raise _bad(where, f"「{bare[0]}」: 効果の値には符号を付けます（例: {m.group(1)}+{m.group(2)}）",
                   f"'{bare[0]}': give the effect's value a sign (e.g. {m.group(1)} +{m.group(2)})")
    return tokens[i], 1


def parse_skill_line(line: str, where: tuple[str, str]) -> dict:
    """T-3/T-8: one text line `- [スキル|宝具] 名前 [タイミング] [相手の]筋力+10 勝率+5 MP2`; in English also as
    effect_text words an effect: `- Skill Name select opponent STR -50, win rate +10, MP 2`."""
    if len(line) > MAX_SKILL_LINE:
        raise _bad(where, f"スキルの行は{MAX_SKILL_LINE}文字までです", f"a skill line is at most {MAX_SKILL_LINE} characters")
    tokens = line.replace("−", "-").split()  # a value as effect_text writes it, with its minus sign (−10)
    raw: dict[str, Any] = {}
    name_parts: list[str] = []
    i = 0
    while i < len(tokens):
        tok, took = _effect_at(tokens, i, where) if name_parts else (tokens[i], 1)
        i += took
        word = _bare(tok)
        low = word.lower()
        if not name_parts and low in _KIND_WORDS and "kind" not in raw:
            raw["kind"] = low
        elif name_parts and (low in _TIMING_WORDS or word in _TIMING_WORDS) and "timing" not in raw:
            raw["timing"] = low if low in _TIMING_WORDS else word
            if low == "any" and i < len(tokens) and _bare(tokens[i]).lower() == "time":
                i += 1  # "Any time", as the English effect text writes it
        elif name_parts and (m := _EFFECT_RE.fullmatch(word)):
            key = m.group(2).upper() if m.group(2).isascii() else m.group(2)
            if key in ("勝率", "WR") and m.group(1):
                raise _bad(where, "相手の勝率は書けません: 勝率の効果は自陣営の勝率です（例: 勝率-10）",
                           "an opponent's win rate cannot be given: a win-rate effect is your own side's (e.g. win rate -10)")
            if key in ("勝率", "WR"):
                raw["win_rate"] = int(m.group(3))
            else:
                if "value" in raw:
                    raise _bad(where, "能力値の効果は1つまでです", "one stat effect per skill")
                raw.update(stat=_STAT_WORDS[key] if key in _STAT_WORDS else None, value=int(m.group(3)),
                           target="opponent" if m.group(1) else "self")
        elif name_parts and (m := _MP_RE.fullmatch(word)):
            raw["mp"] = int(m.group(1))
        elif name_parts and _SIGNED_RE.fullmatch(word):  # a value whose stat was not read: never a note
            raise _bad(where, f"「{word}」が何の値か読めません（例: 筋力+10、相手の筋力-10、勝率+10）",
                       f"cannot tell what '{word}' is the value of (e.g. STR +10, opponent STR -10, win rate +10)")
        elif "timing" in raw or "value" in raw or "win_rate" in raw or "mp" in raw:
            raw["note"] = (raw.get("note", "") + " " + tok).strip()
        else:
            name_parts.append(tok)
    raw["name"] = " ".join(name_parts)
    return make_skill(raw, where)


def number_skills(cid: str, skills: list[dict]) -> list[dict]:
    """T-3: give each skill of a character its id "<character id>:<n>"."""
    if len(skills) > MAX_SKILLS:
        raise GmError(f"1体のスキル・宝具は{MAX_SKILLS}個までです", f"At most {MAX_SKILLS} skills / NPs per character")
    return [{**s, "id": f"{cid}:{n}"} for n, s in enumerate(skills, 1)]


FORM_WHERE = ("スキル", "Skill")
FORM_FIELDS = ("name", "kind", "timing", "stat", "value", "target", "win_rate", "mp", "note")


def skill_from_form(p: Mapping) -> dict:
    """T-3/T-8: one skill from the GM's field-by-field form (or the same fields as JSON), checked as
    make_skill checks it; a stat or "on the opponent" without a value is refused rather than dropped."""
    raw = {}
    for k in FORM_FIELDS:
        v = p.get(k)
        if v is not None and not isinstance(v, (str, int)):
            raise _bad(FORM_WHERE, f"{k} は値を1つだけ指定します", f"{k} takes a single value")
        if isinstance(v, str):
            v = unicodedata.normalize("NFKC", v).strip() or None
        raw[k] = v
    if raw["target"] in ("1", "on", "true", True):
        raw["target"] = "opponent"
    if raw["value"] is None and (raw["stat"] is not None or raw["target"] == "opponent"):
        raise _bad(FORM_WHERE, "能力値の効果には値を入れてください（例: +10）。効果がなければ能力値を空に",
                   "give the value of the stat effect (e.g. +10), or leave the stat empty")
    return make_skill(raw, FORM_WHERE)


def next_skill_id(cid: str, skills: list[Mapping], taken: set) -> str:
    """T-3: the id of a skill added later: the next number after every one the character has had in use."""
    nums = [int(i.rsplit(":", 1)[1]) for i in [k["id"] for k in skills] + [t for t in taken if t.startswith(cid + ":")]
            if i.rsplit(":", 1)[1].isdigit()]
    return f"{cid}:{max(nums, default=0) + 1}"


def skill_label(skill: Mapping) -> Label:
    """T-8: how a skill is named in a breakdown: スキル〈怪力〉 / 宝具〈…〉."""
    k = KINDS.get(skill.get("kind", "skill"), KINDS["skill"])
    return Label(f"{k.ja}〈{skill['name']}〉", f"{k.en} <{skill['name']}>")


def use_label(kind: str, name: str) -> Label:
    """T-8: how a declared use or a GM modifier is named in a breakdown and its log line: スキル〈怪力〉, 宝具〈…〉, or
    GM修正〈…〉（上限外） / GM <…> (outside the cap)."""
    if kind in KINDS:
        return skill_label({"kind": kind, "name": name})
    return Label(f"GM修正〈{name}〉（上限外）", f"GM <{name}> (outside the cap)")


def effect_text(skill: Mapping) -> Label:
    """T-8: a skill's effect in words the players know (筋力+10 / 相手の筋力−10 / 勝率+5 / MP2)."""
    ja, en = [], []
    if skill.get("value") is not None:
        stat = skill.get("stat")
        sj = stat or "選んだ能力値"
        se = STAT_EN.get(stat, "chosen stat") if stat else "chosen stat"
        opp = skill.get("target") == "opponent"
        ja.append(f"{'相手の' if opp else ''}{sj}{minus_sign(skill['value'], True)}")
        en.append(f"{'opponent ' if opp else ''}{se} {minus_sign(skill['value'], True)}")
    if skill.get("win_rate") is not None:
        ja.append(f"勝率{minus_sign(skill['win_rate'], True)}")
        en.append(f"win rate {minus_sign(skill['win_rate'], True)}")
    if not ja:
        ja.append("GMが適用")
        en.append("applied by the GM")
    if skill.get("mp"):
        ja.append(f"MP{skill['mp']}")
        en.append(f"MP {skill['mp']}")
    t = TIMINGS[skill.get("timing", "any")]
    return Label(f"{t.ja}・" + " ".join(ja), f"{t.en}: " + ", ".join(en))


def fits(skill: Mapping, phase: str) -> bool:
    """T-1: whether a skill's timing allows it in this phase (setup / select / result / battle / cleanup)."""
    return skill.get("timing", "any") in ("any", phase)


def unavailable(skill: Mapping, phase: str | None, uses_left: Mapping[str, int], used_ids: set, mp: int | None,
                chosen_mp: int = 0) -> dict | None:
    """T-1/T-3/T-5/T-13: why a skill cannot be used now ({"ja", "en", "rule"}), or None."""
    if phase is None or not fits(skill, phase):
        t = TIMINGS[skill.get("timing", "any")]
        return {"ja": f"タイミングが違います（{t.ja}）", "en": f"Not its timing ({t.en})", "rule": "T-1"}
    if skill["kind"] == "np" and skill["id"] in used_ids:
        return {"ja": "この宝具はこの戦闘で使用済み", "en": "This NP was already used in this combat", "rule": "T-5"}
    if uses_left.get(skill["kind"], 0) <= 0:
        what = KINDS[skill["kind"]]
        return {"ja": f"{what.ja}はこの戦闘で2回使用済み（陣営ごと）", "en": f"2 {'NPs' if skill['kind'] == 'np' else 'skills'} already used this combat (per faction)",
                "rule": "T-3"}
    if mp is not None and skill.get("mp", 0) + chosen_mp > mp:
        return {"ja": f"MPが足りません（必要{skill['mp']}、残り{mp - chosen_mp}）",
                "en": f"Not enough MP (needs {skill['mp']}, has {mp - chosen_mp})", "rule": "T-13"}
    return None
