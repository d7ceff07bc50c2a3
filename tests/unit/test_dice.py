"""Tests for gmtool.core.dice: notation, rolling, and the verifiable dice source."""

from __future__ import annotations

import ast
import hashlib
import hmac
import json
from collections import Counter
from pathlib import Path

import pytest

from gmtool.core import dice as dice_mod
from gmtool.core.dice import (
    DiceError,
    Expression,
    FixedDice,
    Roll,
    SeededDice,
    _accept,
    die_value,
    parse,
    roll,
    seed_hash,
)

SEED = b"gmtool-test-seed"


def reference_die(seed: bytes, index: int, sides: int) -> tuple[int, int]:
    """Independent replay of the documented algorithm; returns (value, attempt)."""
    k = 0
    while True:
        msg = str(index) if k == 0 else f"{index}:{k}"
        x = int.from_bytes(hmac.new(seed, msg.encode(), hashlib.sha256).digest()[:8], "big")
        if x < 2**64 - (2**64 % sides):
            return x % sides + 1, k
        k += 1


# --- dice source ---------------------------------------------------------------


def test_known_answer_vector():
    # Pinned values: changing the algorithm breaks replays published to players.
    assert [die_value(SEED, i, 6) for i in range(10)] == [3, 6, 3, 3, 3, 3, 2, 2, 4, 4]
    assert [die_value(SEED, i, 100) for i in range(5)] == [71, 20, 31, 65, 87]


@pytest.mark.parametrize("sides", [1, 2, 6, 10, 20, 66, 100, 1000, 2**63 + 1])
def test_die_value_matches_reference(sides):
    for i in range(50):
        value = die_value(SEED, i, sides)
        assert value == reference_die(SEED, i, sides)[0]
        assert 1 <= value <= sides


def test_seeded_dice_index_contract():
    d = SeededDice(SEED)
    sides_seq = [6, 20, 100, 6, 1000, 2, 6, 66]
    values = [d.randint(s) for s in sides_seq]
    assert values == [die_value(SEED, i, s) for i, s in enumerate(sides_seq)]
    assert d.next_index == len(sides_seq)


def test_seeded_dice_resume_from_index():
    full = SeededDice(SEED)
    values = [full.randint(6) for _ in range(10)]
    resumed = SeededDice(SEED, next_index=4)
    assert [resumed.randint(6) for _ in range(6)] == values[4:]
    assert resumed.next_index == 10


def test_seeded_dice_determinism_and_seed_sensitivity():
    a, b, c = SeededDice(SEED), SeededDice(SEED), SeededDice(b"other seed")
    va = [a.randint(20) for _ in range(40)]
    assert va == [b.randint(20) for _ in range(40)]
    assert va != [c.randint(20) for _ in range(40)]


def test_roll_with_seeded_dice_is_replayable():
    r1 = roll("3d6!+1d20", SeededDice(SEED, 7))
    r2 = roll("3d6!+1d20", SeededDice(SEED, 7))
    assert r1 == r2
    d = SeededDice(SEED, 7)
    roll("3d6!+1d20", d)
    drawn = sum(len(t["rolls"]) for t in r1.terms)
    assert d.next_index == 7 + drawn
    flat = [v for t in r1.terms for v in t["rolls"]]
    assert flat[0] == die_value(SEED, 7, 6)
    assert flat[-1] == die_value(SEED, 7 + drawn - 1, 20)


def test_accept_boundary():
    for sides in (1, 6, 7, 1000, 2**63 + 1):
        limit = 2**64 - (2**64 % sides)
        assert _accept(limit - 1, sides)
        assert not _accept(limit, sides)
        assert not _accept(2**64 - 1, sides) or limit == 2**64
    assert _accept(2**64 - 1, 1) and _accept(2**64 - 1, 2) and _accept(2**64 - 1, 2**64)
    assert not _accept(2**64 - 1, 6)  # 2**64 % 6 == 4, so the top 4 values are rejected


def test_rejection_sampling_really_retries():
    # With sides = 2**63 + 1 about half of all first attempts are rejected.
    sides = 2**63 + 1
    index = next(i for i in range(200) if reference_die(SEED, i, sides)[1] > 0)
    first = int.from_bytes(hmac.new(SEED, str(index).encode(), hashlib.sha256).digest()[:8], "big")
    assert not _accept(first, sides)
    value, attempt = reference_die(SEED, index, sides)
    x = int.from_bytes(hmac.new(SEED, f"{index}:{attempt}".encode(), hashlib.sha256).digest()[:8], "big")
    assert die_value(SEED, index, sides) == value == x % sides + 1


def test_uniformity_d6():
    d = SeededDice(b"uniformity")
    counts = Counter(d.randint(6) for _ in range(10_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    for face in range(1, 7):
        assert 1500 <= counts[face] <= 1850, counts


def test_die_value_rejects_bad_arguments():
    with pytest.raises(ValueError):
        die_value(SEED, 0, 0)
    with pytest.raises(ValueError):
        die_value(SEED, -1, 6)
    with pytest.raises(TypeError):
        die_value("text", 0, 6)  # type: ignore[arg-type]


def test_seed_hash():
    assert seed_hash(SEED) == hashlib.sha256(SEED).hexdigest()
    assert len(seed_hash(b"")) == 64


def test_fixed_dice():
    d = FixedDice([1, 6])
    assert d.randint(6) == 1 and d.next_index == 1
    with pytest.raises(ValueError):
        d.randint(4)  # 6 does not fit a d4
    assert d.randint(6) == 6 and d.next_index == 2
    with pytest.raises(ValueError):
        d.randint(6)  # exhausted


def test_module_is_pure():
    tree = ast.parse(Path(dice_mod.__file__).read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    assert not imported & {"random", "time", "flask", "sqlite_utils", "os", "secrets"}


# --- parsing -------------------------------------------------------------------


@pytest.mark.parametrize(
    "expr, normalized, secret",
    [
        ("2D6", "2D6", False),
        ("2d6+1", "2D6+1", False),
        ("d20", "1D20", False),
        ("1d20+3-1d4", "1D20+3-1D4", False),
        ("-1d4+3", "-1D4+3", False),
        ("+2d6", "2D6", False),
        ("2D6>=7", "2D6>=7", False),
        ("1D100<=50", "1D100<=50", False),
        ("2d6>7", "2D6>7", False),
        ("2d6<7", "2D6<7", False),
        ("2d6=7", "2D6=7", False),
        ("2d6>=-1", "2D6>=-1", False),
        ("4d6kh3", "4D6KH3", False),
        ("4d6kl1", "4D6KL1", False),
        ("2d20k1", "2D20KH1", False),
        ("3d6!", "3D6!", False),
        ("4d6!kh3", "4D6!KH3", False),
        ("4d6kh3!", "4D6!KH3", False),
        ("d66", "D66", False),
        ("D66>=30", "D66>=30", False),
        ("1d66", "1D66", False),
        ("S2D6", "S2D6", True),
        ("s1d100<=50", "S1D100<=50", True),
        ("SD66", "SD66", True),
        (" 2 d 6 + 1 >= 7 ", "2D6+1>=7", False),
        ("２Ｄ６＞＝７", "2D6>=7", False),
        ("Ｓ１Ｄ１００＜＝５０", "S1D100<=50", True),
        ("２ｄ６！", "2D6!", False),
        ("2D6≧7", "2D6>=7", False),
        ("1D100≦50", "1D100<=50", False),
        ("002d06", "2D6", False),
        ("choice[a,b,c]", "CHOICE[a,b,c]", False),
        ("choice[a, b ,c]", "CHOICE[a,b,c]", False),
        ("Choice [ Fire , Ice ]", "CHOICE[Fire,Ice]", False),
        ("choice[剣,槍,弓]", "CHOICE[剣,槍,弓]", False),
        ("Schoice[a,b]", "SCHOICE[a,b]", True),
        ("ＳＣＨＯＩＣＥ［あ，い］", "SCHOICE[あ,い]", True),
        ("choice[only one]", "CHOICE[only one]", False),
    ],
)
def test_parse_normalized(expr, normalized, secret):
    e = parse(expr)
    assert isinstance(e, Expression)
    assert e.normalized == normalized
    assert e.secret is secret
    assert parse(e.normalized) == e  # the canonical form is a fixed point


def test_limits_at_the_edge_are_accepted():
    parse("100d6")
    parse("1d1000")
    parse("+".join(["1d6"] * 20))
    parse("1d6+" + "0" * 184 + "999999999994")  # exactly 200 characters; the largest total with one d6 (10^12)
    parse("1D1000!+999999979000")  # 21 dice of 1,000 at most with its explosions: 10^12
    parse("2D6>=1000000000000")  # a comparison's value at the limit
    parse("2D6<=-1000000000000")
    parse("4d6kh4")


@pytest.mark.parametrize(
    "expr, en_part",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("2D", "Cannot read"),
        ("abc", "Cannot read"),
        ("D", "Cannot read"),
        ("2D6+", "Cannot read"),
        ("2D6x", "Cannot read"),
        ("2D6 garbage", "Cannot read"),
        ("2d6++1", "Cannot read"),
        ("2d6>=", "Cannot read"),
        ("2d6>=1d6", "Cannot read"),
        ("2d6>=7>=8", "Cannot read"),
        ("2d6=>7", "Cannot read"),
        ("4d6kh", "Cannot read"),
        ("4d6khh3", "Cannot read"),
        ("4d6kh1kl1", "Cannot read"),
        ("3d6!!", "Cannot read"),
        ("2d6*2", "Cannot read"),
        ("S", "Cannot read"),
        ("choice", "Cannot read"),
        ("choice[a,b", "Cannot read"),
        ("choice[a,b]>=1", "Cannot read"),
        ("choice[a[b],c]", "Cannot read"),
        ("0d6", "Number of dice"),
        ("101d6", "Number of dice"),
        ("d0", "Number of sides"),
        ("1d1001", "Number of sides"),
        ("4d6kh5", "keep"),
        ("4d6kh0", "keep"),
        ("2d20k3", "keep"),
        ("1d1!", "Exploding"),
        ("D66+1", "D66"),
        ("2d6+D66", "D66"),
        ("SD66kh1", "D66"),
        ("5", "No dice"),
        ("1+2>=3", "No dice"),
        ("+".join(["1d6"] * 21), "terms"),
        ("1d6+" + "1" * 197, "too long"),
        ("choice[]", "empty item"),
        ("1d6+" + "1" * 196, "A number is too large (at most ±1,000,000,000,000)"),
        ("2d6>=-1000000000001", "A number is too large"),
        ("1d6+1000000000000", "The total could exceed ±1,000,000,000,000"),
        ("1D6-999999999999-999999999999", "The total could exceed"),
        ("100D1000KH1+999999999001", "The total could exceed"),  # keeps one die of 1,000
        ("choice[a,,b]", "empty item"),
        ("choice[a, ]", "empty item"),
    ],
)
def test_parse_errors_are_bilingual(expr, en_part):
    with pytest.raises(DiceError) as info:
        parse(expr)
    err = info.value
    assert isinstance(err, ValueError)
    assert en_part in err.en
    assert str(err) == f"{err.ja} / {err.en}"
    assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in err.ja)
    assert err.ja in str(err) and err.en in str(err)


def test_error_message_format():
    with pytest.raises(DiceError) as info:
        parse("2D")
    assert str(info.value) == "ダイス式を読めません: 「2D」 / Cannot read dice expression: '2D'"
    assert info.value.ja == "ダイス式を読めません: 「2D」"
    assert info.value.en == "Cannot read dice expression: '2D'"


def test_non_string_expression():
    with pytest.raises(DiceError):
        parse(None)  # type: ignore[arg-type]


def test_roll_rejects_invalid_before_drawing():
    d = FixedDice([3])
    with pytest.raises(DiceError):
        roll("2D", d)
    assert d.next_index == 0


# --- rolling -------------------------------------------------------------------


def test_sum_with_constant_and_success():
    r = roll("2D6+1>=7", FixedDice([3, 5]))
    assert r.expr == "2D6+1>=7"
    assert r.total == 9
    assert r.success is True
    assert r.target == {"op": ">=", "value": 7}
    assert r.choice is None and r.secret is False
    assert r.terms == (
        {"kind": "dice", "sign": 1, "count": 2, "sides": 6, "rolls": [3, 5], "kept": [3, 5], "subtotal": 8},
        {"kind": "const", "sign": 1, "value": 1},
    )
    assert r.text == "2D6+1>=7 → [3,5]+1 → 9 ≥ 7 成功"


def test_negative_terms_and_draw_order():
    d = FixedDice([15, 2])
    r = roll("1d20+3-1d4", d)
    assert r.total == 15 + 3 - 2
    assert [t["kind"] for t in r.terms] == ["dice", "const", "dice"]
    assert r.terms[0]["sides"] == 20 and r.terms[2]["sides"] == 4
    assert r.terms[2]["sign"] == -1 and r.terms[2]["subtotal"] == 2
    assert d.next_index == 2
    assert r.text == "1D20+3-1D4 → [15]+3-[2] → 16"
    assert roll("-1d4+3", FixedDice([4])).total == -1
    assert roll("d20", FixedDice([20])).total == 20


@pytest.mark.parametrize(
    "expr, values, success",
    [
        ("2D6>=7", [3, 4], True),  # equality is success for >=
        ("2D6>=7", [3, 3], False),
        ("2D6>7", [3, 4], False),
        ("2D6>7", [4, 4], True),
        ("1D100<=50", [50], True),
        ("1D100<=50", [51], False),
        ("1D100<50", [50], False),
        ("1D100<50", [49], True),
        ("2D6=7", [3, 4], True),
        ("2D6=7", [3, 5], False),
    ],
)
def test_success_boundaries(expr, values, success):
    r = roll(expr, FixedDice(values))
    assert r.success is success
    assert r.text.endswith("成功" if success else "失敗")


def test_no_comparison_means_no_success():
    r = roll("2D6", FixedDice([1, 2]))
    assert r.success is None and r.target is None
    assert r.text == "2D6 → [1,2] → 3"


def test_keep_highest_and_lowest():
    r = roll("4d6kh3", FixedDice([1, 6, 4, 3]))
    t = r.terms[0]
    assert t["rolls"] == [1, 6, 4, 3]
    assert t["kept"] == [6, 4, 3]
    assert t["subtotal"] == 13 and r.total == 13
    assert r.text == "4D6KH3 → [(1),6,4,3] → 13"
    r = roll("4d6kl1", FixedDice([5, 2, 6, 2]))
    assert r.terms[0]["kept"] == [2] and r.total == 2
    r = roll("2d20k1+5", FixedDice([7, 18]))
    assert r.terms[0]["kept"] == [18] and r.total == 23


def test_keep_ties_keep_earliest():
    r = roll("3d6kh2", FixedDice([5, 5, 5]))
    assert r.text == "3D6KH2 → [5,5,(5)] → 10"


def test_exploding_dice():
    d = FixedDice([6, 6, 2, 1, 3])
    r = roll("3d6!", d)
    t = r.terms[0]
    # the first die exploded twice; explosions are drawn right after it
    assert t["rolls"] == [6, 6, 2, 1, 3]
    assert t["kept"] == t["rolls"]
    assert r.total == 18
    assert d.next_index == 5
    assert r.text == "3D6! → [6!,6!,2,1,3] → 18"


def test_exploding_order_then_next_term():
    r = roll("2d6!+1d4", FixedDice([1, 6, 3, 4]))
    assert r.terms[0]["rolls"] == [1, 6, 3]
    assert r.terms[1]["rolls"] == [4]
    assert r.total == 14


def test_exploding_cap():
    d = FixedDice([2] * 30)
    r = roll("1d2!", d)
    assert len(r.terms[0]["rolls"]) == 1 + dice_mod.MAX_EXPLOSIONS_PER_TERM
    assert d.next_index == 21
    assert r.total == 42


def test_exploding_with_keep():
    r = roll("2d6!kh1", FixedDice([6, 5, 2]))
    assert r.terms[0]["rolls"] == [6, 5, 2]
    assert r.terms[0]["kept"] == [6]
    assert r.total == 6


def test_d66():
    d = FixedDice([5, 2])
    r = roll("D66", d)
    assert r.total == 52  # first die is the tens digit, no sorting
    assert r.terms == ({"kind": "d66", "rolls": [5, 2], "subtotal": 52},)
    assert d.next_index == 2
    assert r.text == "D66 → [5,2] → 52"
    r = roll("SD66>=30", FixedDice([3, 1]))
    assert r.secret is True and r.success is True and r.total == 31


def test_one_d66_is_a_66_sided_die():
    r = roll("1d66", FixedDice([66]))
    assert r.terms[0]["sides"] == 66 and r.total == 66


def test_choice():
    d = FixedDice([2])
    r = roll("choice[a, b ,c]", d)
    assert r.choice == "b"
    assert r.total is None and r.success is None and r.target is None
    assert r.terms == ({"kind": "choice", "items": ["a", "b", "c"], "roll": 2, "picked": "b"},)
    assert r.text == "CHOICE[a,b,c] → b"


def test_choice_draws_with_len_items_sides():
    class Recorder:
        def __init__(self):
            self.sides = []

        def randint(self, sides):
            self.sides.append(sides)
            return sides

    rec = Recorder()
    r = roll("choice[剣,槍,弓,杖]", rec)
    assert rec.sides == [4] and r.choice == "杖"
    rec = Recorder()
    roll("3d6kh2+1d20-2+1d8", rec)
    assert rec.sides == [6, 6, 6, 20, 8]


def test_secret_prefix():
    plain = roll("2D6+1", FixedDice([2, 3]))
    secret = roll("S2D6+1", FixedDice([2, 3]))
    assert secret.secret is True and plain.secret is False
    assert secret.total == plain.total == 6
    assert secret.expr == "S2D6+1"
    sc = roll("Schoice[a,b]", FixedDice([1]))
    assert sc.secret is True and sc.choice == "a"


def test_full_width_roll():
    r = roll("２Ｄ６＞＝７", FixedDice([6, 1]))
    assert r.expr == "2D6>=7" and r.success is True


def test_roll_accepts_parsed_expression():
    e = parse("2d6+1")
    assert roll(e, FixedDice([1, 1])) == roll("2D6+1", FixedDice([1, 1]))


def test_bad_dice_source_value():
    class Broken:
        def randint(self, sides):
            return sides + 1

    with pytest.raises(ValueError):
        roll("1d6", Broken())


@pytest.mark.parametrize(
    "expr, values",
    [
        ("S2D6+1>=7", [3, 5]),
        ("4d6!kh3-1", [6, 2, 3, 4, 5]),
        ("D66", [1, 6]),
        ("Schoice[あ,い]", [2]),
    ],
)
def test_to_dict_from_dict_roundtrip(expr, values):
    r = roll(expr, FixedDice(values))
    d = r.to_dict()
    assert set(d) == {"expr", "secret", "terms", "total", "target", "success", "choice", "text", "entered"}
    as_json = json.loads(json.dumps(d, ensure_ascii=False))
    assert as_json == d
    back = Roll.from_dict(as_json)
    assert back == r
    # to_dict returns a copy: mutating it does not touch the roll
    d["terms"][0]["kind"] = "changed"
    assert r.terms[0]["kind"] != "changed"
