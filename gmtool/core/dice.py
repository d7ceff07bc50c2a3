"""Dice notation (BCDice style) and a verifiable, seeded dice source.

Notation (case-insensitive, NFKC-normalised so full-width input works, spaces ignored):
``2D6+1``, ``d20``, ``1d20+3-1d4``, ``2D6>=7`` (also ``<=``, ``>``, ``<``, ``=``;
``≥``/``≧``/``≤``/``≦`` are accepted too), ``4d6kh3``, ``4d6kl1``, ``2d20k1`` (k = kh),
``3d6!`` (exploding), ``D66`` (alone, optionally with a comparison), ``choice[a,b,c]``,
and an ``S`` prefix for a secret GM roll (``S2D6``, ``Schoice[a,b]``).
``D66`` is special only without a count; ``1D66`` is a single 66-sided die.

Verifiable contract (players can replay every roll of a session):

* Die number ``index`` (0, 1, 2, ... over the whole session) with ``sides`` faces is
  ``die_value(seed, index, sides)``: for attempt k = 0, 1, 2, ... take
  ``HMAC-SHA256(seed, msg)`` with ``msg = str(index)`` if k == 0 else ``f"{index}:{k}"``,
  read its first 8 bytes as a big-endian integer x, and return ``x % sides + 1`` as soon as
  ``x < 2**64 - (2**64 % sides)`` (rejection sampling: no modulo bias).
* The seed is published as ``seed_hash(seed)`` (hex SHA-256) before play, revealed after.
* A roll draws one die per ``randint`` call, in left-to-right order of the expression:
  dice terms in order, the dice of a term in order, and each explosion die immediately
  after the die that exploded (before the next regular die of that term). Keep (kh/kl)
  does not change what is drawn. ``D66`` draws two d6 (tens digit first). ``choice``
  draws one die with ``len(items)`` sides. Constants, comparisons and the ``S`` prefix
  draw nothing. An invalid expression is rejected before any die is drawn.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import operator
import re
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any, Iterable, Mapping, Protocol, Union

from gmtool.core.errors import GmError, shown

MAX_DICE_PER_TERM = 100
MAX_DICE_PER_EXPRESSION = 200  # all terms together (explosions add at most MAX_EXPLOSIONS_PER_TERM per term)
MAX_TERMS = 20
MAX_SIDES = 1000
MAX_EXPR_LENGTH = 200
MAX_EXPLOSIONS_PER_TERM = 20
MAX_NUMBER = 10**12  # magnitude of a roll's constants, comparison and largest possible total: what an import takes
# (export.jsonio.MAX_IMPORT_NUMBER), so that every session's export and backup can be loaded again

_TWO_64 = 2**64


class DiceError(GmError):
    """An invalid dice expression; ``ja``/``en`` hold the two halves of the message."""


_MESSAGES = {
    "unreadable": ("ダイス式を読めません", "Cannot read dice expression"),
    "long": (f"ダイス式が長すぎます（{MAX_EXPR_LENGTH}文字まで）", f"Expression too long (max {MAX_EXPR_LENGTH})"),
    "count": (f"ダイスの個数は1〜{MAX_DICE_PER_TERM}個です", f"Number of dice must be 1 to {MAX_DICE_PER_TERM}"),
    "sides": (f"ダイスの面数は1〜{MAX_SIDES}です", f"Number of sides must be 1 to {MAX_SIDES}"),
    "terms": (f"項は{MAX_TERMS}個までです", f"At most {MAX_TERMS} terms are allowed"),
    "total": (f"1回のロールのダイスは合計{MAX_DICE_PER_EXPRESSION}個までです",
              f"At most {MAX_DICE_PER_EXPRESSION} dice in one roll"),
    "keep": ("残すダイスの数は1〜ダイスの個数です", "Dice to keep must be 1 to the number of dice"),
    "explode": ("爆発ダイスは2面以上が必要です", "Exploding dice need at least 2 sides"),
    "d66": ("D66は単独でのみ使えます", "D66 can only be used alone"),
    "nodice": ("ダイスがありません", "No dice in expression"),
    "item": ("choiceに空の候補があります", "choice has an empty item"),
    "number": (f"数が大きすぎます（±{MAX_NUMBER:,}まで）", f"A number is too large (at most ±{MAX_NUMBER:,})"),
    "reach": (f"合計が±{MAX_NUMBER:,}を超えうります", f"The total could exceed ±{MAX_NUMBER:,}"),
}


def _error(key: str, expr: str) -> DiceError:
    ja, en = _MESSAGES[key]
    q = expr if len(expr) <= 60 else expr[:57] + "..."
    return DiceError(f"{ja}: 「{q}」", f"{en}: '{q}'")


class DiceSource(Protocol):
    """Anything with ``randint(sides) -> 1..sides``."""

    def randint(self, sides: int) -> int:
        """Return one die value in 1..sides."""


def _accept(x: int, sides: int) -> bool:
    """True if the 64-bit sample x lies below the unbiased rejection limit for sides."""
    return x < _TWO_64 - (_TWO_64 % sides)


def die_value(seed: bytes, index: int, sides: int) -> int:
    """The value (1..sides) of die number `index` of a session seeded with `seed`."""
    if not isinstance(seed, (bytes, bytearray)):
        raise TypeError("seed must be bytes")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise ValueError(f"index must be an int >= 0, got {index!r}")
    if isinstance(sides, bool) or not isinstance(sides, int) or not 1 <= sides <= _TWO_64:
        raise ValueError(f"sides must be an int in 1..2**64, got {sides!r}")
    key = bytes(seed)
    k = 0
    while True:
        msg = str(index) if k == 0 else f"{index}:{k}"
        h = hmac.new(key, msg.encode(), hashlib.sha256).digest()
        x = int.from_bytes(h[:8], "big")
        if _accept(x, sides):
            return x % sides + 1
        k += 1


def seed_hash(seed: bytes) -> str:
    """Hex SHA-256 of the seed (published before play as a commitment)."""
    return hashlib.sha256(bytes(seed)).hexdigest()


class SeededDice:
    """Dice source replayable from (seed, index); `next_index` is the next die number."""

    def __init__(self, seed: bytes, next_index: int = 0) -> None:
        self.seed = bytes(seed)
        self.next_index = next_index

    def randint(self, sides: int) -> int:
        """Return die number `next_index` and advance the index."""
        value = die_value(self.seed, self.next_index, sides)
        self.next_index += 1
        return value


class FixedDice:
    """Test dice source returning preset values in order; `next_index` counts draws."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.next_index = 0

    def randint(self, sides: int) -> int:
        """Return the next preset value, checking it fits 1..sides."""
        if self.next_index >= len(self.values):
            raise ValueError(f"FixedDice exhausted after {self.next_index} draws")
        value = self.values[self.next_index]
        if not 1 <= value <= sides:
            raise ValueError(f"FixedDice value {value} is outside 1..{sides}")
        self.next_index += 1
        return value


MAX_ENTERED_FACES = 200


class FacesShort(GmError):
    """Too few faces of real dice entered for a roll. `used`: the faces the roll had drawn; `tie`: set by a caller that
    knows what the missing die was for (core.turns.roll_order: (the tied players, the total they tied at, the 0-based
    index of their re-roll's first face)), so a ruleset can say it in its players' names."""

    def __init__(self, ja: str, en: str, used: int):
        super().__init__(ja, en)
        self.used = used
        self.tie: tuple[list[str], int, int] | None = None


class EnteredDice:
    """Faces of real dice rolled at the table and typed in (実ダイス), used in order.

    They draw nothing from the seed: `next_index` stays where the seeded dice left it. A face
    outside 1..sides, too few faces or faces left over are refused with a readable error.
    """

    entered = True

    def __init__(self, faces: Iterable[Any], next_index: int = 0) -> None:
        self.faces = parse_faces(faces)
        self.used = 0
        self.next_index = next_index

    def randint(self, sides: int) -> int:
        """The next entered face, checked against the die's sides."""
        if self.used >= len(self.faces):
            raise FacesShort(f"実ダイスの出目が足りません（{self.used + 1}個目のd{sides}）",
                             f"Not enough entered faces (die {self.used + 1}, a d{sides})", self.used)
        value = self.faces[self.used]
        if not 1 <= value <= sides:
            raise GmError(f"出目{value}はd{sides}にありません（1〜{sides}）",
                          f"A d{sides} has no face {value} (1..{sides})")
        self.used += 1
        return value

    def check_all_used(self) -> None:
        """Refuse faces that no die of the roll used (a typo would otherwise pass unnoticed)."""
        if self.used < len(self.faces):
            raise GmError(f"出目が多すぎます（このロールは{self.used}個、入力は{len(self.faces)}個）",
                          f"Too many faces entered (the roll uses {self.used}, {len(self.faces)} were given)")


def parse_faces(value: Any) -> list[int]:
    """Entered faces from JSON (a list or one number) or a form ("3 5", "3,5", "３、５")."""
    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", value)
        items: list[Any] = [x for x in re.split(r"[\s,、]+", text.strip()) if x] if len(text) <= 2000 else [None] * 999
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        items = [value]
    if not items or len(items) > MAX_ENTERED_FACES:
        raise GmError(f"実ダイスの出目を1〜{MAX_ENTERED_FACES}個入力してください",
                      f"Enter 1 to {MAX_ENTERED_FACES} faces of the real dice")
    faces = []
    for x in items:
        if isinstance(x, str) and not x.strip():  # "" in a JSON list: there is nothing to quote
            raise GmError("出目が空です（出目は整数で入力してください）", "A face is empty (faces are whole numbers)")
        if isinstance(x, bool) or not (isinstance(x, int) or (isinstance(x, str) and x.isdigit() and len(x) <= 4)):
            raise GmError(f"出目は整数で入力してください（{shown(x)[:20]}）", f"Faces are whole numbers (got {shown(x)[:20]})")
        faces.append(int(x))
    return faces


def is_entered(dice: Any) -> bool:
    """Whether a dice source is real dice typed in."""
    return bool(getattr(dice, "entered", False))


def dice_for(mode: str, seeded: Any, payload: Any) -> Any:
    """The dice for one roll: entered faces when the request carries `faces`, the server's when it
    says `"dice": "server"`, else the session's dice reading (`mode`: "server" or "entered")."""
    payload = payload if isinstance(payload, dict) else {}
    if payload.get("dice") not in (None, "", "server"):
        raise GmError("ダイスの指定は「サーバーが振る」だけです", "'dice' can only be \"server\"")
    faces = payload.get("faces")
    if faces not in (None, "", []):
        return EnteredDice(faces, seeded.next_index)
    if mode == "entered" and payload.get("dice") != "server":
        return FacesRequired(seeded.next_index)
    return seeded


class FacesRequired:
    """The dice of a session that takes real dice when the request brought no faces: an action that
    draws no die goes through; the first die drawn asks for the faces."""

    entered = True

    def __init__(self, next_index: int = 0) -> None:
        self.next_index = next_index

    def randint(self, sides: int) -> int:
        """Refuse: the faces rolled at the table are needed."""
        raise GmError("卓で振った実ダイスの出目を入力してください", "Enter the faces of the real dice you rolled")

    def check_all_used(self) -> None:
        """No faces were entered, so none is left over."""


@dataclass(frozen=True)
class DiceTerm:
    """A signed ``NdM`` term with optional keep (``KH``/``KL`` + count) and explode."""

    sign: int
    count: int
    sides: int
    keep: str | None = None
    keep_count: int = 0
    explode: bool = False

    def notation(self) -> str:
        """Canonical unsigned form, e.g. ``4D6!KH3``."""
        keep = f"{self.keep}{self.keep_count}" if self.keep else ""
        return f"{self.count}D{self.sides}{'!' if self.explode else ''}{keep}"


@dataclass(frozen=True)
class ConstTerm:
    """A signed integer constant."""

    sign: int
    value: int

    def notation(self) -> str:
        """Canonical unsigned form."""
        return str(self.value)


Term = Union[DiceTerm, ConstTerm]


@dataclass(frozen=True)
class Expression:
    """A validated expression; kind is "sum", "d66" or "choice"."""

    normalized: str
    secret: bool
    kind: str = "sum"
    terms: tuple[Term, ...] = ()
    op: str | None = None
    target: int | None = None
    items: tuple[str, ...] = ()


_ALIASES = {"≧": ">=", "≥": ">=", "≦": "<=", "≤": "<="}
_CHOICE_RE = re.compile(r"(S?)\s*CHOICE\s*\[(.*)\]", re.IGNORECASE | re.DOTALL)
_COMPARE_RE = re.compile(r"([^<>=]*)(>=|<=|>|<|=)([+-]?[0-9]+)")
_TERM_RE = re.compile(r"([+-])(?:([0-9]*)D([0-9]+)((?:!|K[HL]?[0-9]+)*)|([0-9]+))")
_SUFFIX_RE = re.compile(r"!|K([HL]?)([0-9]+)")


def parse(expr: str) -> Expression:
    """Validate a dice expression without rolling; raises DiceError."""
    if not isinstance(expr, str):
        raise DiceError("ダイス式は文字列です", "Dice expression must be a string")
    original = expr.strip()
    if not original:
        raise DiceError("ダイス式が空です", "Dice expression is empty")
    if len(original) > MAX_EXPR_LENGTH:
        raise _error("long", original)
    text = unicodedata.normalize("NFKC", original).strip()
    for alias, op in _ALIASES.items():
        text = text.replace(alias, op)
    m = _CHOICE_RE.fullmatch(text)
    if m:
        return _parse_choice(bool(m.group(1)), m.group(2), original)
    compact = "".join(text.split()).upper()
    secret = compact.startswith("S")
    body = compact[1:] if secret else compact
    op: str | None = None
    target: int | None = None
    if any(c in body for c in "<>="):
        cm = _COMPARE_RE.fullmatch(body)
        if not cm:
            raise _error("unreadable", original)
        body, op, target = cm.group(1), cm.group(2), int(cm.group(3))
        if abs(target) > MAX_NUMBER:
            raise _error("number", original)
    tail = f"{op}{target}" if op else ""
    prefix = "S" if secret else ""
    if body == "D66":
        return Expression(f"{prefix}D66{tail}", secret, "d66", op=op, target=target)
    terms = _parse_terms(body, original)
    parts = []
    for i, term in enumerate(terms):
        sign = "-" if term.sign < 0 else ("+" if i else "")
        parts.append(sign + term.notation())
    return Expression(prefix + "".join(parts) + tail, secret, "sum", tuple(terms), op, target)


def _parse_choice(secret: bool, inner: str, original: str) -> Expression:
    items = tuple(item.strip() for item in inner.split(","))
    if any(not item for item in items):
        raise _error("item", original)
    if any(c in item for item in items for c in "[]"):
        raise _error("unreadable", original)
    normalized = ("S" if secret else "") + "CHOICE[" + ",".join(items) + "]"
    return Expression(normalized, secret, "choice", items=items)


def _parse_terms(body: str, original: str) -> list[Term]:
    if not body:
        raise _error("unreadable", original)
    if body[0] not in "+-":
        body = "+" + body
    terms: list[Term] = []
    pos = 0
    while pos < len(body):
        m = _TERM_RE.match(body, pos)
        if not m:
            raise _error("unreadable", original)
        pos = m.end()
        sign = -1 if m.group(1) == "-" else 1
        if m.group(5) is not None:
            value = int(m.group(5))
            if value > MAX_NUMBER:
                raise _error("number", original)
            terms.append(ConstTerm(sign, value))
            continue
        count_text, sides_text, suffix = m.group(2), m.group(3), m.group(4)
        if not count_text and int(sides_text) == 66:
            raise _error("d66", original)
        explode, keep, keep_count = False, None, 0
        for s in _SUFFIX_RE.finditer(suffix):
            if s.group(0) == "!":
                if explode:
                    raise _error("unreadable", original)
                explode = True
            else:
                if keep:
                    raise _error("unreadable", original)
                keep, keep_count = ("KL" if s.group(1) == "L" else "KH"), int(s.group(2))
        count = int(count_text) if count_text else 1
        sides = int(sides_text)
        if not 1 <= count <= MAX_DICE_PER_TERM:
            raise _error("count", original)
        if not 1 <= sides <= MAX_SIDES:
            raise _error("sides", original)
        if explode and sides < 2:
            raise _error("explode", original)
        if keep and not 1 <= keep_count <= count:
            raise _error("keep", original)
        terms.append(DiceTerm(sign, count, sides, keep, keep_count, explode))
    if len(terms) > MAX_TERMS:
        raise _error("terms", original)
    if sum(t.count for t in terms if isinstance(t, DiceTerm)) > MAX_DICE_PER_EXPRESSION:
        raise _error("total", original)
    if not any(isinstance(t, DiceTerm) for t in terms):
        raise _error("nodice", original)
    if sum(_reach(t) for t in terms) > MAX_NUMBER:
        raise _error("reach", original)
    return terms


def _reach(term: Term) -> int:
    """The largest magnitude `term` can add to a total (explosions add at most MAX_EXPLOSIONS_PER_TERM dice)."""
    if isinstance(term, ConstTerm):
        return term.value
    dice = term.keep_count if term.keep else term.count + (MAX_EXPLOSIONS_PER_TERM if term.explode else 0)
    return dice * term.sides


_OPS = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "=": operator.eq}
_OP_TEXT = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "=": "="}


@dataclass(frozen=True)
class Roll:
    """The result of one roll: terms in draw order, total, success, and a text line."""

    expr: str
    secret: bool
    terms: tuple[dict[str, Any], ...]
    total: int | None
    target: dict[str, Any] | None
    success: bool | None
    choice: str | None
    text: str
    entered: bool = False  # faces of real dice typed in (実ダイス), not drawn from the seed

    def to_dict(self) -> dict[str, Any]:
        """JSON form (a deep copy; terms as a list)."""
        d = asdict(self)
        d["terms"] = list(d["terms"])
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Roll":
        """Inverse of to_dict."""
        target = d.get("target")
        return cls(
            expr=str(d["expr"]),
            secret=bool(d.get("secret", False)),
            terms=tuple(copy.deepcopy(dict(t)) for t in d["terms"]),
            total=d.get("total"),
            target=dict(target) if target is not None else None,
            success=d.get("success"),
            choice=d.get("choice"),
            text=str(d.get("text", "")),
            entered=bool(d.get("entered", False)),
        )


def localized_text(text: str, lang: str) -> str:
    """A roll's text in `lang`: the stored text says 成功 / 失敗, English says success / failure."""
    if lang != "en":
        return text
    return text.replace(" 成功", " success").replace(" 失敗", " failure")


def _draw(dice: DiceSource, sides: int) -> int:
    value = dice.randint(sides)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= sides:
        raise ValueError(f"dice source returned {value!r} for a d{sides}")
    return value


def _roll_dice_term(term: DiceTerm, dice: DiceSource) -> tuple[dict[str, Any], str]:
    rolls: list[int] = []
    exploded: list[bool] = []
    extra = 0
    for _ in range(term.count):
        value = _draw(dice, term.sides)
        rolls.append(value)
        exploded.append(False)
        while term.explode and value == term.sides and extra < MAX_EXPLOSIONS_PER_TERM:
            exploded[-1] = True
            value = _draw(dice, term.sides)
            rolls.append(value)
            exploded.append(False)
            extra += 1
    if term.keep:
        high = term.keep == "KH"
        order = sorted(range(len(rolls)), key=lambda i: (-rolls[i] if high else rolls[i], i))
        kept_idx = set(order[: term.keep_count])
    else:
        kept_idx = set(range(len(rolls)))
    kept = [v for i, v in enumerate(rolls) if i in kept_idx]
    shown = []
    for i, v in enumerate(rolls):
        s = f"{v}!" if exploded[i] else str(v)
        shown.append(s if i in kept_idx else f"({s})")
    d = {"kind": "dice", "sign": term.sign, "count": term.count, "sides": term.sides,
         "rolls": rolls, "kept": kept, "subtotal": sum(kept)}
    return d, "[" + ",".join(shown) + "]"


def roll(expr: str | Expression, dice: DiceSource) -> Roll:
    """Parse and roll `expr`, drawing dice from `dice` in the documented order."""
    e = expr if isinstance(expr, Expression) else parse(expr)
    if e.kind == "choice":
        index = _draw(dice, len(e.items))
        picked = e.items[index - 1]
        term = {"kind": "choice", "items": list(e.items), "roll": index, "picked": picked}
        return Roll(e.normalized, e.secret, (term,), None, None, None, picked, f"{e.normalized} → {picked}",
                    is_entered(dice))
    terms: list[dict[str, Any]] = []
    if e.kind == "d66":
        a, b = _draw(dice, 6), _draw(dice, 6)
        total = 10 * a + b
        terms.append({"kind": "d66", "rolls": [a, b], "subtotal": total})
        shown = f"[{a},{b}]"
    else:
        total = 0
        parts = []
        for i, t in enumerate(e.terms):
            sign = "-" if t.sign < 0 else ("+" if i else "")
            if isinstance(t, ConstTerm):
                terms.append({"kind": "const", "sign": t.sign, "value": t.value})
                total += t.sign * t.value
                parts.append(f"{sign}{t.value}")
            else:
                d, s = _roll_dice_term(t, dice)
                terms.append(d)
                total += t.sign * d["subtotal"]
                parts.append(sign + s)
        shown = "".join(parts)
    text = f"{e.normalized} → {shown} → {total}"
    target = success = None
    if e.op is not None and e.target is not None:
        target = {"op": e.op, "value": e.target}
        success = bool(_OPS[e.op](total, e.target))
        text += f" {_OP_TEXT[e.op]} {e.target} {'成功' if success else '失敗'}"
    return Roll(e.normalized, e.secret, tuple(terms), total, target, success, None, text, is_entered(dice))
