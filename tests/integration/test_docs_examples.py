"""The documentation's shell walkthroughs, run as they are written: every ```sh block of docs/api.md and the
rulesets' pages, in document order, in one bash with real `curl` and `jq`, against a real `gmtool serve` on a
fresh data folder; what each command prints is compared with the output the page shows after it.

How a page shows output (the reader's conventions, which this test reads):

* `# ` lines right after a command inside the block: `# {"a": 1}`, `# → {"a": 1}`, or with the HTTP status,
  `# → 409 {"error": …}`. A value may go on over lines that start with `#` and two or more spaces, and may be
  followed by a remark in parentheses. Any other comment line (`# the parent's card …`) is prose.
* the fenced block right after the ```sh block (```json, ```markdown or a bare ```): the output of the block's
  last commands (after its last `# ` output).
* `…` leaves something out: a whole value (`"…"`), the rest of a string or token (`"9d60f8361e89…"`), more
  members of an object or items of a list (`, …`), or lines of a text (a line that is only `…`).

Values that differ on every run are matched by their form, and the same documented value must be the same
actual value wherever it appears (a token, session id, commitment, salt, seed or seed hash, a server's address);
times match any time. On a page that rolls the server's seeded dice (docs/api.md, which says so), the faces,
totals, success and texts of those rolls match any dice, and each such roll must be the one its session's seed
makes (the walk closes the session, which publishes the seed; docs/dice.md's replay). Rolls made from entered
`faces` must match exactly.

Every request's HTTP status is checked too: the `→ NNN` a page shows, an error the output shows must be the status
of its request, a request whose output the page does not show must succeed, and a success must have the status
docs/api.md's route summary gives for its route.

A page steers the run with HTML comments right before a ```sh block (invisible on the page):
`<!-- doc-test: skip: why -->` (not run: a template of variables, a command of another program, a stream that runs
until stopped), `<!-- doc-test: label NAME -->` / `<!-- doc-test: after NAME -->` (run this block right after
the block labelled NAME: an example shown where it is explained but made later in the walk), and
`<!-- doc-test: session NAME {create body} -->` (run the block on a separate session, made with that body the
first time NAME is named, in a subshell: the walk's variables stay).

Needs bash, curl and jq (CI and the README's test command install them); fails, saying how to install them,
without.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from gmtool.benchmark.harness import ServerProcess
from gmtool.core.dice import SeededDice, roll

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the walkthroughs are bash")

DOCS_DIR = Path(__file__).resolve().parents[2] / "docs"
DOCS = ["api.md", *sorted(f"rulesets/{page.name}" for page in (DOCS_DIR / "rulesets").glob("*.md"))]
# Pages whose walkthrough rolls the server's seeded dice: those rolls differ on every run.
SEEDED_DICE = {"api.md"}
ELLIPSIS = "…"


def need_tools() -> None:
    """Fail, saying how to install them, without bash, curl or jq."""
    missing = [tool for tool in ("bash", "curl", "jq") if not shutil.which(tool)]
    if missing:
        pytest.fail(f"not installed: {', '.join(missing)}. The docs' shell examples run with bash, curl and jq: "
                    f"`apt-get install -y {' '.join(missing)}` (macOS: `brew install {' '.join(missing)}`)")


# -- the pages' JSON, with … --------------------------------------------------------------------------------------

class More:
    """`…` as an item of a list or a member of an object: more of them, left out."""

    def __repr__(self) -> str:
        return ELLIPSIS


MORE = More()


class DocJSONError(ValueError):
    """The page's JSON cannot be read (`incomplete`: it may go on on the next line)."""

    def __init__(self, message: str, incomplete: bool = False):
        super().__init__(message)
        self.incomplete = incomplete


_WS = re.compile(r"\s*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


def read_value(text: str, pos: int = 0, top: bool = True):
    """One JSON value of a page (… allowed in lists and objects) from `pos`: (value, end)."""
    pos = _WS.match(text, pos).end()
    if pos >= len(text):
        raise DocJSONError("the value is incomplete", incomplete=True)
    char = text[pos]
    if char == ELLIPSIS and not top:
        return MORE, pos + 1
    if char == '"':
        try:
            return json.decoder.scanstring(text, pos + 1)
        except json.JSONDecodeError as e:
            raise DocJSONError(str(e), incomplete="Unterminated" in str(e)) from None
    if char in "{[":
        close = "}" if char == "{" else "]"
        out: dict | list = {} if char == "{" else []
        pos += 1
        first = True
        while True:
            pos = _WS.match(text, pos).end()
            if pos >= len(text):
                raise DocJSONError("the value is incomplete", incomplete=True)
            if text[pos] == close:
                return out, pos + 1
            if not first:
                if text[pos] != ",":
                    raise DocJSONError(f"expected ',' or '{close}' at {text[pos:pos + 30]!r}")
                pos = _WS.match(text, pos + 1).end()
            first = False
            if isinstance(out, list):
                item, pos = read_value(text, pos, top=False)
                out.append(item)
            elif text.startswith(ELLIPSIS, pos):
                out[MORE] = MORE
                pos += 1
            else:
                key, pos = read_value(text, pos, top=False)
                if not isinstance(key, str):
                    raise DocJSONError(f"an object key must be a string: {key!r}")
                pos = _WS.match(text, pos).end()
                if pos >= len(text):
                    raise DocJSONError("the value is incomplete", incomplete=True)
                if text[pos] != ":":
                    raise DocJSONError(f"expected ':' at {text[pos:pos + 30]!r}")
                out[key], pos = read_value(text, pos + 1, top=False)
    for word, value in (("true", True), ("false", False), ("null", None)):
        if text.startswith(word, pos):
            return value, pos + len(word)
    match = _NUMBER.match(text, pos)
    if match:
        number = match.group()
        return (float(number) if any(c in number for c in ".eE") else int(number)), match.end()
    raise DocJSONError(f"not a JSON value: {text[pos:pos + 30]!r}")


def read_values(text: str) -> list:
    """Every JSON value of a page's output block, one after the other."""
    values, pos = [], 0
    while _WS.match(text, pos).end() < len(text):
        value, pos = read_value(text, pos)
        values.append(value)
    return values


def actual_values(text: str) -> list | None:
    """The JSON values a command printed (strict JSON), or None when it printed something else."""
    decoder, values, pos = json.JSONDecoder(), [], 0
    try:
        while True:
            pos = _WS.match(text, pos).end()
            if pos >= len(text):
                return values
            value, pos = decoder.raw_decode(text, pos)
            values.append(value)
    except json.JSONDecodeError:
        return None


# -- what the page shows: steps and their expected output ----------------------------------------------------------

@dataclass
class Expected:
    values: list | None = None  # JSON values, or None for text
    lines: list[str] | None = None  # text lines (… = any lines)
    status: int | None = None  # `→ NNN`


@dataclass
class Step:
    commands: str
    line: int  # the page's line of its first command
    expected: Expected | None = None


@dataclass
class Block:
    line: int
    steps: list[Step]
    skip: str | None = None
    label: str | None = None
    after: str | None = None
    session: tuple[str, dict | None] | None = None


_OUTPUT = re.compile(r"# (?:→ )?(?:(?P<status>[1-5]\d\d) (?=[{\[]))?(?P<value>[{\[\"\d-]|true\b|false\b|null\b)")
_CONTINUED = re.compile(r"#  +\S")
_DIRECTIVE = re.compile(r"<!--\s*doc-test:\s*(.*?)\s*-->", re.DOTALL)


def read_output_comments(lines: list[str], i: int) -> tuple[Expected, int]:
    """The `# ` output starting at lines[i] (and its continuation lines): what it shows, the next line's index."""
    match = _OUTPUT.match(lines[i])
    text = lines[i][match.start("value"):]
    status = int(match.group("status")) if match.group("status") else None
    j = i + 1
    while True:
        try:
            value, end = read_value(text)
        except DocJSONError as e:
            if e.incomplete and j < len(lines) and _CONTINUED.match(lines[j]):
                text += "\n" + lines[j][1:]
                j += 1
                continue
            raise DocJSONError(f"{e} in {text!r}") from None
        rest = text[end:].strip()
        if rest and not rest.startswith("("):
            raise DocJSONError(f"after the value: {rest!r}")
        return Expected(values=[value], status=status), j


def split_steps(body: list[str], first_line: int) -> list[Step]:
    """A ```sh block's commands, cut where the page shows an output or a remark."""
    steps: list[Step] = []
    current: list[str] = []
    start = first_line
    i = 0
    while i < len(body):
        line = body[i]
        if line.startswith("#"):
            if _OUTPUT.match(line):
                try:
                    expected, i = read_output_comments(body, i)
                except DocJSONError as e:
                    raise DocJSONError(f"line {first_line + i}: {e}") from None
                steps.append(Step("\n".join(current), start, expected))
                current = []
                start = first_line + i
                continue
            if current:  # a remark ends the commands before it
                steps.append(Step("\n".join(current), start))
                current = []
            start = first_line + i + 1
            i += 1
            continue
        if not current and not line.strip():
            start = first_line + i + 1
        else:
            current.append(line)
        i += 1
    if any(c.strip() for c in current):
        steps.append(Step("\n".join(current), start))
    return steps


def expected_block(lang: str, body: list[str]) -> Expected:
    """A fenced output block: JSON values, else lines of text."""
    text = "\n".join(body)
    if lang in ("json", ""):
        try:
            return Expected(values=read_values(text))
        except DocJSONError:
            if lang == "json":
                raise
    return Expected(lines=body)


def parse_page(text: str) -> list[Block]:
    """The page's ```sh blocks, each with its steps, its output block and the doc-test comments before it."""
    lines = text.split("\n")
    blocks: list[Block] = []
    directives: list[str] = []
    i = 0
    while i < len(lines):
        fence = re.match(r"```(\S*)\s*$", lines[i])
        if not fence:
            if lines[i].strip().startswith("<!--"):
                j = i
                while "-->" not in lines[j]:
                    j += 1
                comment = "\n".join(lines[i:j + 1])
                directives += [d.group(1) for d in _DIRECTIVE.finditer(comment)]
                i = j + 1
                continue
            if lines[i].strip() and not lines[i].lstrip().startswith("<"):
                directives = []  # a directive belongs to the block right after it
            i += 1
            continue
        lang = fence.group(1)
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == "```")
        body = lines[i + 1:end]
        if lang != "sh":
            i = end + 1
            continue
        block = Block(line=i + 1, steps=split_steps(body, i + 2))
        for directive in directives:
            word, _, rest = directive.partition(" ")
            if word.startswith("skip"):
                block.skip = directive.partition(":")[2].strip() or "skipped"
            elif word == "label":
                block.label = rest.strip()
            elif word == "after":
                block.after = rest.strip()
            elif word == "session":
                name, _, spec = rest.strip().partition(" ")
                block.session = (name, json.loads(spec) if spec.strip() else None)
            else:
                raise ValueError(f"line {i + 1}: unknown doc-test directive {directive!r}")
        directives = []
        # the output block: the next fenced block, with only blank lines between
        k = end + 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        out = re.match(r"```(json|markdown|text|)\s*$", lines[k]) if k < len(lines) else None
        if out:
            out_end = next(j for j in range(k + 1, len(lines)) if lines[j].strip() == "```")
            if not block.steps:
                raise ValueError(f"line {k + 1}: an output block after a block with no command")
            last = block.steps[-1]
            if last.expected is not None:
                raise ValueError(f"line {k + 1}: the block's last command already shows its output")
            last.expected = expected_block(out.group(1), lines[k + 1:out_end])
            end = out_end
        blocks.append(block)
        i = end + 1
    return blocks


# -- matching a page's value with what came back ------------------------------------------------------------------

# Values that differ on every run, by their form on the page: (kind, page pattern, actual pattern, bound).
_VARYING = [
    ("address", r"https?://(?:\d{1,3}\.){3}\d{1,3}:\d+", r"https?://[\w.:\[\]-]+", False),
    ("hex64", r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])", r"[0-9a-f]{64}", True),
    ("trimmed", r"[A-Za-z0-9_-]{6,}…", r"[A-Za-z0-9_-]+…?", True),
    ("token", r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])", r"[A-Za-z0-9_-]{32}", True),
    ("session", r"(?<![A-Za-z0-9_-])(?:w\d+-)?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{8}(?![A-Za-z0-9_-])",
     r"(?:w\d+-)?[0-9a-f]{8}", True),
    ("time", r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", False),
    ("local time", r"\d{4}-\d\d-\d\d \d\d:\d\d", r"\d{4}-\d\d-\d\d \d\d:\d\d", False),
]
# A seeded roll's faces, total and verdict in a text (`2D6+1 → [4,6]+1 → 11`, `… → 3 ≥ 7 失敗`; `\[…\]` in Markdown).
_DICE = [
    ("faces", r"\\?\[\(?\d+!?\)?(?:,\(?\d+!?\)?)*\\?\]", r"\\?\[\(?\d+!?\)?(?:,\(?\d+!?\)?)*\\?\]"),
    ("total", r"(?<=→ )-?\d+", r"-?\d+"),
    ("verdict", r"成功|失敗|success|failure", r"成功|失敗|success|failure"),
]
_DICE_EXPR = re.compile(r"\d*D(?:\d+|66)|CHOICE\[")  # a roll's expression in a text (only such a text is loosened)
_REAL_DICE = ("実ダイス", "real dice")  # a roll made from entered faces: its text is exact


class Mismatch(AssertionError):
    pass


@dataclass
class Matcher:
    """Compares a page's values with actual ones; keeps which actual value each varying documented one stands for."""

    seeded_dice: bool = False
    bound: list[tuple[str, str, str]] = field(default_factory=list)  # (kind, page value, actual value)
    seeded: list[tuple[str, str]] = field(default_factory=list)  # (expr, text) of the seeded rolls taken as any dice

    def bind(self, kind: str, page: str, actual: str, where: str) -> None:
        """The same documented value stands for the same actual one, and different ones for different ones (a value
        trimmed with … stands for any value it begins)."""
        page, actual = page.rstrip(ELLIPSIS), actual.rstrip(ELLIPSIS)
        for _kind, p, a in self.bound:
            same_page = p.startswith(page) or page.startswith(p)
            same_actual = a.startswith(actual) or actual.startswith(a)
            if same_page and not same_actual:
                raise Mismatch(f"{where}: {page!r} stood for {a!r} before, here it is {actual!r}")
            if same_actual and not same_page:
                raise Mismatch(f"{where}: {actual!r} is shown as {p!r} before and as {page!r} here")
        self.bound.append((kind, page, actual))

    @staticmethod
    @functools.cache
    def pattern(text: str, dice: bool) -> tuple[re.Pattern, tuple[tuple[str, str, bool], ...]]:
        """A regular expression for a page's string: its varying parts (and … ) as groups."""
        kinds = [(k, p, a, b) for k, p, a, b in _VARYING]
        if dice:
            kinds += [(k, p, a, False) for k, p, a in _DICE]
        finder = re.compile("|".join(f"(?P<g{n}>{p})" for n, (_, p, _, _) in enumerate(kinds)) + "|(?P<more>…)")
        regex, groups, pos = "", [], 0
        for m in finder.finditer(text):
            regex += re.escape(text[pos:m.start()])
            pos = m.end()
            if m.lastgroup == "more":
                regex += "(.*?)"
                groups.append(("more", m.group(), False))
                continue
            kind, _, actual, bound = kinds[int(m.lastgroup[1:])]
            regex += f"({actual})"
            groups.append((kind, m.group(), bound))
        regex += re.escape(text[pos:])
        return re.compile(regex, re.DOTALL), tuple(groups)

    def fits(self, page: str, actual, dice: bool) -> list[tuple[str, str, str]] | None:
        """Whether a string has the page's form: the varying values to bind, or None."""
        if page == ELLIPSIS or page == actual:
            return []
        if not isinstance(actual, str):
            return None
        dice = dice and bool(_DICE_EXPR.search(page)) and not any(marker in page for marker in _REAL_DICE)
        regex, groups = self.pattern(page, dice)
        m = regex.fullmatch(actual)
        if not m:
            return None
        return [(kind, shown, got) for (kind, shown, bound), got in zip(groups, m.groups()) if bound]

    def string(self, page: str, actual, where: str, dice: bool) -> None:
        found = self.fits(page, actual, dice)
        if found is None:
            raise Mismatch(f"{where}: the page shows {page!r}, the answer has {actual!r}")
        for kind, shown, got in found:
            self.bind(kind, shown, got, where)

    def value(self, page, actual, where: str = "", dice: bool | None = None) -> None:
        """`actual` fits what the page shows; Mismatch otherwise."""
        if dice is None:
            dice = self.seeded_dice
        if isinstance(page, dict):
            if not isinstance(actual, dict):
                raise Mismatch(f"{where}: the page shows an object, the answer has {json.dumps(actual)[:200]}")
            if self.seeded_dice and "terms" in page and page.get("entered") is False:
                return self.seeded_roll(page, actual, where)
            keys = [k for k in page if k is not MORE]
            missing = [k for k in keys if k not in actual]
            extra = [k for k in actual if k not in page] if MORE not in page else []
            if missing or extra:
                raise Mismatch(f"{where}: fields the page shows but the answer lacks: {missing}; "
                               f"fields the answer has but the page does not show: {extra}")
            roll_dice = dice and actual.get("entered") is not True
            for k in keys:
                self.value(page[k], actual[k], f"{where}.{k}", roll_dice)
            return
        if isinstance(page, list):
            if not isinstance(actual, list):
                raise Mismatch(f"{where}: the page shows a list, the answer has {json.dumps(actual)[:200]}")
            head = page
            if page and page[-1] is MORE:
                head = page[:-1]
                if MORE in head:
                    raise Mismatch(f"{where}: … is read only as the last item of a list")
                if len(actual) < len(head):
                    raise Mismatch(f"{where}: the page shows at least {len(head)} items, the answer has {len(actual)}")
            elif len(actual) != len(page):
                raise Mismatch(f"{where}: the page shows {len(page)} items, the answer has {len(actual)}: "
                               f"{json.dumps(actual, ensure_ascii=False)[:300]}")
            for n, item in enumerate(head):
                self.value(item, actual[n], f"{where}[{n}]", dice)
            return
        if isinstance(page, str):
            return self.string(page, actual, where, dice)
        if type(page) is not type(actual) or page != actual:
            if not (isinstance(page, (int, float)) and not isinstance(page, bool)
                    and isinstance(actual, (int, float)) and not isinstance(actual, bool) and page == actual):
                raise Mismatch(f"{where}: the page shows {json.dumps(page)}, the answer has {json.dumps(actual)}")

    def seeded_roll(self, page: dict, actual: dict, where: str) -> None:
        """A roll from the seed: every field as shown but its dice, which are any dice of the same count and sides."""
        if set(page) != set(actual):
            raise Mismatch(f"{where}: the roll's fields differ: page {sorted(page)}, answer {sorted(actual)}")
        self.seeded.append((actual["expr"], actual["text"]))
        for key in page:
            if key == "terms":
                if len(page[key]) != len(actual[key]):
                    raise Mismatch(f"{where}.terms: {len(page[key])} terms on the page, {len(actual[key])} in the answer")
                for n, (p, a) in enumerate(zip(page[key], actual[key])):
                    if set(p) != set(a) or p.get("kind") != a.get("kind"):
                        raise Mismatch(f"{where}.terms[{n}]: the page shows {p}, the answer has {a}")
                    for k in p:
                        if k in ("rolls", "kept"):
                            if len(p[k]) != len(a[k]) or not all(isinstance(d, int) and 1 <= d <= a["sides"] for d in a[k]):
                                raise Mismatch(f"{where}.terms[{n}].{k}: {a[k]} are not {len(p[k])} d{a['sides']}")
                        elif k == "subtotal":
                            if not isinstance(a[k], int):
                                raise Mismatch(f"{where}.terms[{n}].subtotal: {a[k]!r}")
                        else:
                            self.value(p[k], a[k], f"{where}.terms[{n}].{k}", False)
            elif key == "total":
                if (page[key] is None) != (actual[key] is None) or not isinstance(actual[key], (int, type(None))):
                    raise Mismatch(f"{where}.total: the page shows {page[key]!r}, the answer has {actual[key]!r}")
            elif key == "success":
                if type(page[key]) is not type(actual[key]):
                    raise Mismatch(f"{where}.success: the page shows {page[key]!r}, the answer has {actual[key]!r}")
            else:
                self.value(page[key], actual[key], f"{where}.{key}", key == "text")

    def lines(self, page: list[str], actual: list[str], where: str) -> None:
        """Text: line by line; a line that is only … stands for any lines."""
        page, actual = page[:], actual[:]
        for text in (page, actual):
            while text and not text[-1].strip():
                text.pop()
        dice = self.seeded_dice

        @functools.cache
        def align(i: int, j: int) -> tuple | None:
            """How page[i:] fits actual[j:]: the (page line, actual line) pairs, or None."""
            if i == len(page):
                return () if j == len(actual) else None
            if page[i].strip() == ELLIPSIS:
                for k in range(j, len(actual) + 1):
                    rest = align(i + 1, k)
                    if rest is not None:
                        return rest
                return None
            if j == len(actual) or self.fits(page[i], actual[j], dice) is None:
                return None
            rest = align(i + 1, j + 1)
            return None if rest is None else ((i, j),) + rest

        pairs = align(0, 0)
        if pairs is None:
            raise Mismatch(f"{where}: the text differs from the page.\n--- page\n" + "\n".join(page)
                           + "\n--- answer\n" + "\n".join(actual))
        for i, j in pairs:
            self.string(page[i], actual[j], f"{where} line {i + 1}", dice)


# -- running a page -----------------------------------------------------------------------------------------------

@dataclass
class Request:
    status: int
    method: str
    url: str


_ROUTE_ROW = re.compile(r"^\| `(GET|POST) (/[^`]*)` \|.*\| (\d{3})\b[^|]*\|\s*$")


def documented_statuses() -> list[tuple[str, re.Pattern, int]]:
    """docs/api.md §16's route summary: (method, path pattern, the status of a success)."""
    routes = []
    for line in (DOCS_DIR / "api.md").read_text(encoding="utf-8").splitlines():
        m = _ROUTE_ROW.match(line)
        if m:
            path = re.sub(r"<[^>]+>", "[^/?]+", m.group(2).split("?")[0])
            routes.append((m.group(1), re.compile(path + r"(?:\?.*)?"), int(m.group(3))))
    return routes


def script_for(blocks: list[Block], base: str) -> tuple[str, list[tuple[Block, Step]]]:
    """One bash script running the page's blocks in order; a marker before each step cuts its output apart."""
    order: list[Block] = []
    later = [b for b in blocks if b.after]
    for block in blocks:
        if block.after or block.skip:
            continue
        order.append(block)
        order += [b for b in later if b.after == block.label]
    lost = [b.line for b in later if b not in order]
    if lost:
        raise ValueError(f"blocks at lines {lost} wait for a label no block has")
    parts = [f"BASE={base}", "ADMIN=$(cat ./data/.admin_key)", ""]
    steps: list[tuple[Block, Step]] = []
    for block in order:
        body = []
        for step in block.steps:
            body.append(f"printf '\\n@@step {len(steps)}\\n'; printf '@@step {len(steps)}\\n' >&2")
            # the walkthroughs name their own server's address; they run against this one
            body.append(re.sub(r"(?m)^BASE=\S+", f"BASE={base}", step.commands))
            steps.append((block, step))
        if block.session:
            name, spec = block.session
            made = f"session-{name}.env"
            if spec is not None:
                parts.append(make_session(made, spec))
            parts += ["(", f"source ./{made}", *body, ")"]
        else:
            parts += body
    parts.append("printf '\\n@@step end\\n'; printf '@@step end\\n' >&2")
    return "\n".join(parts) + "\n", steps


def make_session(env_file: str, spec: dict) -> str:
    """Bash that creates a separate session (not a step: no output, no check but its own) and keeps its variables."""
    body = json.dumps(spec, ensure_ascii=False).replace("'", "'\\''")
    seats = "".join(f"; echo SEAT{n + 1}=$(jq -r '.seats[{n}].token' <<<\"$made\")"
                    for n in range(len(spec.get("seats", []))))
    return (f"made=$(command curl -q -s -f -X POST \"$BASE/api/sessions\" -H \"Authorization: Bearer $ADMIN\" "
            f"-H 'Content-Type: application/json' -d '{body}') || {{ echo 'cannot create {env_file}' >&2; exit 3; }}\n"
            f"{{ echo SID=$(jq -r .session <<<\"$made\"); echo GM=$(jq -r .gm_token <<<\"$made\"); "
            f"echo TABLE=$(jq -r .table_token <<<\"$made\"){seats}; }} > ./{env_file}")


def cut(text: str) -> dict[str, str]:
    """A run's output cut at the step markers."""
    parts = re.split(r"(?m)^@@step (\S+)\n", text)
    return {parts[k]: parts[k + 1] for k in range(1, len(parts) - 1, 2)}


def requests_of(stderr: str) -> list[Request]:
    return [Request(int(m.group(1)), m.group(2), m.group(3))
            for m in re.finditer(r"(?m)^@@http (\d{3}) (\S+) (\S+)$", stderr)]


def is_error(value) -> int | None:
    """The status an output shows for a refusal: `{"error": {"status": …}}`, or the error object itself."""
    if isinstance(value, dict):
        inner = value.get("error", value)
        if isinstance(inner, dict) and isinstance(inner.get("status"), int) and "en" in inner:
            return inner["status"]
    return None


def check_step(matcher: Matcher, routes, page: str, step: Step, out: str, err: str) -> list[str]:
    """What is wrong with one step's run (empty when it is as the page shows)."""
    where = f"{page}:{step.line}"
    problems: list[str] = []
    requests = requests_of(err)
    other = "\n".join(line for line in err.splitlines() if not line.startswith("@@http ")).strip()
    if other:
        problems.append(f"{where}: the commands wrote to stderr: {other[:500]}")
    shown_statuses: set[int] = set()
    expected = step.expected
    if expected is not None:
        if expected.status:
            shown_statuses.add(expected.status)
            if not requests or requests[-1].status != expected.status:
                problems.append(f"{where}: the page shows HTTP {expected.status}, the request answered "
                                f"{requests[-1].status if requests else 'nothing'}")
        try:
            if expected.values is not None:
                got = actual_values(out)
                if got is None:
                    raise Mismatch(f"{where}: the page shows JSON, the commands printed: {out[:500]!r}")
                if len(got) != len(expected.values):
                    raise Mismatch(f"{where}: the page shows {len(expected.values)} values, the commands printed "
                                   f"{len(got)}: {out[:800]}")
                for n, (page_value, value) in enumerate(zip(expected.values, got)):
                    status = is_error(page_value)
                    if status:
                        shown_statuses.add(status)
                    matcher.value(page_value, value, where + (f" (output {n + 1})" if len(got) > 1 else ""))
            else:
                matcher.lines(expected.lines, out.split("\n"), where)
        except Mismatch as e:
            problems.append(str(e))
    for request in requests:
        if request.status >= 400 and request.status not in shown_statuses:
            problems.append(f"{where}: {request.method} {request.url} answered {request.status}, "
                            f"which the page does not show")
        if 200 <= request.status < 300:
            path = re.sub(r"^https?://[^/]+", "", request.url)
            for method, pattern, status in routes:
                if method == request.method and pattern.fullmatch(path) and request.status != status:
                    problems.append(f"{where}: {request.method} {path} answered {request.status}; "
                                    f"docs/api.md's route summary says {status}")
    return problems


def replayed_rolls(base: str, key: str) -> set[tuple[str, str]]:
    """(expr, text) of every seeded roll of the server's closed sessions, each checked against the published seed
    as docs/dice.md replays them: the rolls a page shows with any dice are the seed's dice."""
    def get(path: str):
        request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {key}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    replayed = set()
    for listed in get("/api/sessions")["sessions"]:
        session = get(f"/api/sessions/{listed['id']}/state")["session"]
        if not session["seed"]:
            continue
        seed = bytes.fromhex(session["seed"])
        for event in get(f"/api/sessions/{listed['id']}/log?limit=1000")["events"]:
            if event["type"] != "dice.rolled" or event["data"]["roll"]["entered"]:
                continue
            shown = event["data"]["roll"]
            drawn = sum(len(t["rolls"]) if t["kind"] == "dice" else 2 if t["kind"] == "d66" else 1
                        for t in shown["terms"] if t["kind"] != "const")
            again = roll(shown["expr"], SeededDice(seed, event["data"]["dice_next"] - drawn)).to_dict()
            assert again == shown, (listed["id"], event["seq"], again, shown)
            replayed.add((shown["expr"], shown["text"]))
    return replayed


def run_page(page: str, workdir: Path) -> list[str]:
    """Run a page's walkthrough against a fresh `gmtool serve`; every difference from the page."""
    blocks = parse_page((DOCS_DIR / page).read_text(encoding="utf-8"))
    (workdir / ".curlrc").write_text('write-out = "%{stderr}@@http %{http_code} %{method} %{url_effective}\\n"\n'
                                     'max-time = 20\n')
    server = ServerProcess(workdir / "data", threads=8, max_streams=8, connection_limit=50).start()
    try:
        script, steps = script_for(blocks, server.base)
        assert steps, f"docs/{page} has no shell example to run"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(workdir), "CURL_HOME": str(workdir),
               "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}
        (workdir / "walk.sh").write_text(script, encoding="utf-8")
        run = subprocess.run(["bash", "walk.sh"], check=False, cwd=workdir, env=env, capture_output=True, timeout=120)
        replayed = replayed_rolls(server.base, server.admin_key) if page in SEEDED_DICE else set()
    finally:
        server.stop()
    out, err = cut(run.stdout.decode("utf-8", "replace")), cut(run.stderr.decode("utf-8", "replace"))
    problems = []
    if run.returncode or "end" not in out:
        problems.append(f"{page}: the walk stopped (exit {run.returncode}): {run.stderr.decode()[-800:]}")
    (workdir / "outputs.txt").write_text("".join(  # to read when the page and gmtool differ
        f"--- {page}:{step.line}\n{step.commands}\n--- printed\n{out.get(str(n), '(not run)')}\n{err.get(str(n), '')}\n"
        for n, (_block, step) in enumerate(steps)), encoding="utf-8")
    matcher, routes = Matcher(seeded_dice=page in SEEDED_DICE), documented_statuses()
    for n, (_block, step) in enumerate(steps):
        if str(n) not in out:
            problems.append(f"{page}:{step.line}: not run")
            continue
        problems += check_step(matcher, routes, page, step, out[str(n)].strip("\n"), err.get(str(n), ""))
    problems += [f"{page}: the roll {expr} ({text}) is not one of the seed's rolls" for expr, text in matcher.seeded
                 if (expr, text) not in replayed]
    return problems


@pytest.mark.parametrize("page", DOCS)
def test_the_shell_examples_of_a_page_print_what_it_shows(page, tmp_path):
    need_tools()
    problems = run_page(page, tmp_path)
    assert not problems, (f"{len(problems)} differences between docs/{page} and gmtool (what each command printed: "
                          f"{tmp_path / 'outputs.txt'}):\n\n" + "\n\n".join(problems))
