"""Commitments: sha256(salt + ":" + canonical JSON), checkable by anyone (docs/verify.md)."""

from __future__ import annotations

import hashlib

import pytest

from gmtool.core.commitments import canonical, commit, verify

VALUE = {"values": [40, 60, -5], "stat": "筋力", "宝具": True}
SALT = "c2FsdA"


def test_known_vector_computed_by_hand():
    by_hand = hashlib.sha256(('c2FsdA:{"stat":"筋力","values":[40,60,-5],"宝具":true}').encode("utf-8")).hexdigest()
    assert commit(SALT, VALUE) == by_hand
    # Pinned: changing the scheme breaks every commitment already shown at a table.
    assert by_hand == "225ad631d547b5440aed5ffe71a917f27990ed50238f59ab85a327789da4924e"


@pytest.mark.parametrize("value, text", [
    ("筋力", '"筋力"'),
    (["宝具", "幸運"], '["宝具","幸運"]'),
    (42, "42"),
    (-7, "-7"),
    ({"b": 1, "a": [2, 3]}, '{"a":[2,3],"b":1}'),
    ("改行\nと\"引用\"", '"改行\\nと\\"引用\\""'),
])
def test_canonical_json_is_compact_sorted_and_keeps_japanese(value, text):
    assert canonical(value) == text
    assert commit("s", value) == hashlib.sha256(f"s:{text}".encode("utf-8")).hexdigest()


@pytest.mark.parametrize("value", ["筋力", ["宝具", "幸運"], 42, 0, "セイバー陣営", {"k": "値"}])
def test_verify_accepts_the_commitment_of_the_same_value(value):
    commitment = commit("0123abcd", value)
    assert len(commitment) == 64
    assert verify("0123abcd", value, commitment)
    assert verify("0123abcd", value, " " + commitment.upper() + "\n")


@pytest.mark.parametrize("other", ["耐久", ["幸運", "宝具"], 43, "42", ["宝具"]])
def test_verify_rejects_another_value(other):
    for original in ("筋力", ["宝具", "幸運"], 42):
        if other != original:
            assert not verify("salt", other, commit("salt", original))


def test_verify_rejects_another_salt():
    assert not verify("salt2", "筋力", commit("salt1", "筋力"))


def test_number_and_text_commit_differently():
    assert commit("s", 10) != commit("s", "10")
