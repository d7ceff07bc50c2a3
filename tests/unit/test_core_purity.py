"""DESIGN principle 1: core/, rulesets/ (every package in it) and export/ are pure (no Flask, SQLite,
randomness, clock, OS, I/O layers)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import gmtool

PACKAGE = Path(gmtool.__file__).resolve().parent
PURE_DIRS = ("core", "rulesets", "export")
FORBIDDEN = ("flask", "sqlite_utils", "sqlite3", "random", "time", "datetime", "secrets", "os",
             "gmtool.web", "gmtool.store", "gmtool.runtime")


def pure_files() -> list[Path]:
    """Every module of the pure layers."""
    return sorted(p for d in PURE_DIRS for p in (PACKAGE / d).rglob("*.py"))


def imported_modules(source: str, module: str) -> set[str]:
    """Every absolute module name a source imports (relative imports resolved against `module`)."""
    package = module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            found.add(prefix)
            found.update(f"{prefix}.{alias.name}" for alias in node.names)
    return found


def violations(source: str, module: str) -> list[str]:
    """The forbidden modules a source imports."""
    bad = []
    for name in sorted(imported_modules(source, module)):
        for forbidden in FORBIDDEN:
            if name == forbidden or name.startswith(forbidden + "."):
                bad.append(name)
    return bad


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    return ".".join(rel.parts)


def test_pure_layers_exist():
    names = {p.name for p in pure_files()}
    assert {"engine.py", "view.py", "prompts.py", "commitments.py", "dice.py", "generic.py", "report.py"} <= names
    assert any(p.parent.name == "grail_trpg" for p in pure_files())  # the walk enters the game packages


# export/ parses and formats the log's timestamps (datetime) in the time zone its caller passes
# (Options.utc_offset); it never reads the clock or the machine's zone (checked below).
ALLOWED = {"export": ("datetime",)}


@pytest.mark.parametrize("path", pure_files(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_pure_module_imports_no_io(path):
    """Principle 1: a pure module imports no flask/sqlite/random/clock/os or the I/O layers."""
    source = path.read_text(encoding="utf-8")
    allowed = ALLOWED.get(path.relative_to(PACKAGE).parts[0], ())
    assert [v for v in violations(source, module_name(path)) if v.split(".")[0] not in allowed] == []
    assert not re.search(r"\.now\(|\.today\(|astimezone\(\)|utcnow|localtime", source)


@pytest.mark.parametrize("source", [
    "import random",
    "import os.path",
    "from datetime import datetime",
    "from time import monotonic",
    "import secrets as s",
    "def f():\n    import sqlite3\n",
    "from flask import Flask",
    "from sqlite_utils import Database",
    "from ..web import create_app",
    "from .. import store",
    "from ..runtime import LiveSession",
    "from gmtool.web.common import csrf_for",
])
def test_purity_checker_catches_forbidden_imports(source):
    """The checker itself is not vacuous: each of these must be reported from gmtool.core.x."""
    assert violations(source, "gmtool.core.example")


@pytest.mark.parametrize("source", [
    "import hashlib, hmac, json",
    "from .model import State",
    "from . import dice",
    "from gmtool.core.errors import GmError",
    "import operator",
])
def test_purity_checker_allows_pure_imports(source):
    assert violations(source, "gmtool.core.example") == []


@pytest.mark.parametrize("event", ["cancelled", "confirmed"])
def test_rulesets_cancel_and_confirm_prompts_through_core(event):
    """One way to cancel a prompt, core's (prompts.cancel for the GM's, prompts.cancel_unconfirmed for a ruleset's step
    that ended): sugoroku's battle and grail_trpg's combat wrote their prompt.cancelled by hand, each with its own test
    of when a prompt may still be cancelled. One way to confirm one (prompts.confirm, or prompts.confirm_only for a step
    that applies the result itself): sugoroku's end_battle wrote its prompt.confirmed by hand. No ruleset module
    writes either event itself."""
    by_hand = [str(p.relative_to(PACKAGE)) for p in (PACKAGE / "rulesets").rglob("*.py")
               if re.search(rf"""["']prompt\.{event}["']""", p.read_text(encoding="utf-8"))]
    assert by_hand == []
