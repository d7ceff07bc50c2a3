"""Each format parsed by a real parser: MediaWiki (mwparserfromhell), Markdown (markdown-it-py),
HTML (html.parser); @wiki / PukiWiki and plain text by their line rules.

User text in the scripted session carries wiki and HTML markup ([[...]], {{...}}, |, '', <b>,
[//...], ![](...), `...`, ~~~~, __NOTOC__): it must come out as text, never as links,
templates, tags, table separators or formatting, and every table must keep its columns.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import mwparserfromhell
import pytest
from export_session import GENERIC, NASTY_MODIFIER, NASTY_REASON, NASTY_SEAT, SCENE_TITLES, SEED, TITLE, Script
from markdown_it import MarkdownIt

from gmtool.core import commands, prompts
from gmtool.core.dice import seed_hash
from gmtool.export import Options, export
from gmtool.export.markup import _puki_escape
from gmtool.export.report import Report, build_report
from gmtool.rulesets.generic import PRESETS

SECTION_TITLES = ["開始", *SCENE_TITLES, "最終状況", "付録: 検証用データ"]
OPTIONS = Options(times=False)


def expected_tables(report: Report) -> list[tuple[list[str], list[list[str]]]]:
    """Every table of a (Japanese) report in document order: (head, rows): the standings, then the appendix's
    answers with their salts and commitments (the story itself is lines, one per decision)."""
    tables = [(report.standings_head, report.standings)]
    tables += [(["回答者", "回答", "ソルト", "コミットメント"], entry.rows) for entry in report.appendix]
    return [(head, [[str(c) for c in row] for row in rows]) for head, rows in tables]


def appendix_titles(events) -> list[str]:
    """The appendix's sub-headings: one per revealed prompt."""
    return [entry.title for entry in build_report(events, GENERIC, OPTIONS).appendix]


@pytest.fixture(scope="module")
def report(script) -> Report:
    return build_report(script.events, GENERIC, OPTIONS)


def _player_markup_script() -> Script:
    """A small session where players' revealed text answers and a GM's labels carry markup."""
    s = Script()
    seats = [commands.new_seat("s1", "A|B", "F[[x]]"), commands.new_seat("s2", "<i>C</i>", "")]
    s.write(commands.create_session("markup01", "T|{{x}}", "generic", seats, [PRESETS[2]], seed_hash(SEED)))
    s.do(commands.mark_scene, "[[Scene]] | ''one''")
    s.do(prompts.open_prompt, "p1", {"title": "[[title]]|''x''", "kind": "text", "seats": ["s1", "s2"],
                                     "resolver": "cancel_duplicates"}, s.resolvers)
    s.answer("p1", "s1", "[link](http://e.invalid/a) ![img](http://e.invalid/i.png) <script>x</script>", "x1")
    s.answer("p1", "s2", "{{Template|a=b}} [[File:X.png]] [http://e.invalid y] ~~~ | `code` **b**", "x2")
    return s


@pytest.fixture(scope="module", params=["scripted", "player-markup"])
def case(request, script):
    """(events, report) of the scripted session and of the player-markup session."""
    events = script.events if request.param == "scripted" else _player_markup_script().events
    return events, build_report(events, GENERIC, OPTIONS)


# -- MediaWiki ------------------------------------------------------------------

def _mw_text(node) -> str:
    return node.contents.strip_code(normalize=True, collapse=True).strip()


def _tag(node) -> str:
    return str(node.tag).strip()


def test_mediawiki_headings_per_scene(script):
    code = mwparserfromhell.parse(export(script.events, GENERIC, "mediawiki", OPTIONS))
    headings = [(h.level, h.title.strip_code(normalize=True).strip()) for h in code.filter_headings()]
    assert headings == [(2, TITLE)] + [(3, t) for t in SECTION_TITLES] + [(4, t) for t in appendix_titles(script.events)]


def test_mediawiki_tables_keep_their_cells_and_user_text_stays_text(case):
    events, report = case
    code = mwparserfromhell.parse(export(events, GENERIC, "mediawiki", OPTIONS))
    tables = code.filter_tags(matches=lambda n: _tag(n) == "table")
    expected = expected_tables(report)
    assert len(tables) == len(expected)
    for table, (head, rows) in zip(tables, expected):
        nodes = [n for n in table.contents.nodes if hasattr(n, "tag")]
        header = [_mw_text(n) for n in nodes if _tag(n) == "th"]
        body = [[_mw_text(c) for c in tr.contents.nodes if hasattr(c, "tag") and _tag(c) == "td"]
                for tr in nodes if _tag(tr) == "tr"]
        assert header == head
        assert body == rows
    # Nothing a user typed became a template, a wikilink, a bracketed link, a tag or a magic word.
    assert code.filter_templates() == []
    assert code.filter_wikilinks() == []
    assert code.filter_arguments() == []
    assert [str(link) for link in code.filter_external_links() if link.brackets] == []
    assert {_tag(t) for t in code.filter_tags()} <= {"li", "table", "tr", "th", "td"}
    text = str(code)
    assert "~~~" not in text and "__" not in text


def test_mediawiki_shows_the_users_text_unchanged(script):
    code = mwparserfromhell.parse(export(script.events, GENERIC, "mediawiki", OPTIONS))
    shown = code.strip_code(normalize=True, collapse=True)
    assert NASTY_REASON in shown
    assert NASTY_SEAT in shown


# -- Markdown -------------------------------------------------------------------

MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _md_inline(token) -> str:
    return "".join(c.content for c in token.children or []).strip()


def _md_tables(tokens):
    tables, current, row = [], None, None
    for i, t in enumerate(tokens):
        if t.type == "table_open":
            current = ([], [])
        elif t.type == "tr_open":
            row = []
        elif t.type in ("th_open", "td_open"):
            row.append(_md_inline(tokens[i + 1]))
        elif t.type == "tr_close":
            if current[0] == [] and tokens[i - 1].type == "th_close":
                current[0].extend(row)
            else:
                current[1].append(row)
        elif t.type == "table_close":
            tables.append(current)
    return tables


def test_markdown_headings_per_scene(script):
    tokens = MD.parse(export(script.events, GENERIC, "markdown", OPTIONS))
    headings = [(t.tag, _md_inline(tokens[i + 1])) for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings == [("h1", TITLE)] + [("h2", t) for t in SECTION_TITLES] + [
        ("h3", t) for t in appendix_titles(script.events)]


def test_markdown_tables_keep_their_columns_and_user_text_stays_text(case):
    events, report = case
    text = export(events, GENERIC, "markdown", OPTIONS)
    tokens = MD.parse(text)
    tables = _md_tables(tokens)
    expected = expected_tables(report)
    assert len(tables) == len(expected)
    for (head, rows), (want_head, want_rows) in zip(tables, expected):
        assert head == want_head
        assert rows == want_rows  # an unescaped | would have shifted or dropped a cell
    inline = {c.type for t in tokens for c in (t.children or [])}
    assert inline <= {"text", "softbreak"}, inline  # no link, image, code, emphasis, strike, html
    assert {t.type for t in tokens} & {"html_block", "code_block", "fence", "hr", "blockquote_open"} == set()


def test_markdown_table_lines_have_one_pipe_per_column(script, report):
    """Counted on the source too: what a GitHub-flavoured wiki splits on."""
    text = export(script.events, GENERIC, "markdown", OPTIONS)
    widths = {len(head) for head, _ in expected_tables(report)}
    for line in text.splitlines():
        if line.startswith("|"):
            unescaped = len(line.replace("\\\\", "").replace("\\|", "")) - len(
                line.replace("\\\\", "").replace("\\|", "").replace("|", ""))
            assert unescaped - 1 in widths, line


# -- HTML -----------------------------------------------------------------------

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"}


class Checker(HTMLParser):
    """Balanced tags, attributes, headings and tables of an HTML document."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: set[str] = set()
        self.attrs: list[tuple[str, str | None]] = []
        self.headings: list[tuple[str, str]] = []
        self.tables: list[tuple[list[str], list[list[str]]]] = []
        self.text: list[str] = []
        self._cell: list[str] | None = None
        self._heading: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs += attrs
        if tag not in VOID:
            self.stack.append(tag)
        if tag in ("h1", "h2", "h3"):
            self._heading = []
        elif tag == "table":
            self.tables.append(([], []))
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()
        if tag in ("h1", "h2", "h3"):
            self.headings.append((tag, "".join(self._heading)))
            self._heading = None
        elif tag in ("td", "th"):
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr":
            head, rows = self.tables[-1]
            if "thead" in self.stack:
                assert not head, "one header row per table"
                head.extend(self._row)
            else:
                rows.append(self._row)

    def handle_data(self, data):
        self.text.append(data)
        for part in (self._cell, self._heading):
            if part is not None:
                part.append(data)


def _check_html(text: str) -> Checker:
    checker = Checker()
    checker.feed(text)
    checker.close()
    assert checker.errors == []
    assert checker.stack == []
    return checker


def test_html_is_balanced_self_contained_and_has_headings_per_scene(script):
    text = export(script.events, GENERIC, "html", OPTIONS)
    checker = _check_html(text)
    assert checker.headings == [("h1", TITLE)] + [("h2", t) for t in SECTION_TITLES] + [
        ("h3", t) for t in appendix_titles(script.events)]
    names = {name for name, _ in checker.attrs}
    assert "src" not in names and "href" not in names
    assert not checker.tags & {"script", "link", "img", "iframe", "object", "embed", "a", "base"}
    assert "url(" not in text and "@import" not in text and "http" not in "".join(
        v or "" for _, v in checker.attrs)
    assert NASTY_REASON in "".join(checker.text)  # shown as text, not as a <b> tag


def test_html_tables_keep_their_cells(case):
    events, report = case
    checker = _check_html(export(events, GENERIC, "html", OPTIONS))
    expected = expected_tables(report)
    assert len(checker.tables) == len(expected)
    for (head, rows), (want_head, want_rows) in zip(checker.tables, expected):
        assert head == want_head
        assert rows == want_rows
    assert checker.tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "ul", "li", "code",
                            "table", "thead", "tbody", "tr", "th", "td", "p", "span", "section"}


# -- @wiki / PukiWiki -------------------------------------------------------------

def _puki_tables(text: str):
    tables, current = [], None
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            if current is None:
                assert line.endswith("|h"), f"a table must start with its header row: {line}"
                current = (line[1:-2].split("|"), [])
            else:
                assert line.endswith("|") and not line.endswith("|h"), line
                current[1].append(line[1:-1].split("|"))
        elif current is not None:
            tables.append(current)
            current = None
    return tables


def test_atwiki_headings_start_with_a_star(script):
    text = export(script.events, GENERIC, "atwiki", OPTIONS)
    headings = [line for line in text.splitlines() if line.startswith("*")]
    # The page title is a top heading (*); scenes and the standings sit below it (**).
    assert headings == ["*" + _puki_escape(TITLE)] + ["**" + t for t in SECTION_TITLES] + [
        "***" + _puki_escape(t) for t in appendix_titles(script.events)]


def test_atwiki_tables_keep_their_columns(case):
    events, report = case
    text = export(events, GENERIC, "atwiki", OPTIONS)
    tables = _puki_tables(text)
    expected = expected_tables(report)
    assert len(tables) == len(expected)
    for (head, rows), (want_head, want_rows) in zip(tables, expected):
        assert head == [_puki_escape(h) for h in want_head]
        assert rows == [[_puki_escape(c) or " " for c in row] for row in want_rows]
    for line in text.splitlines():
        assert "[[" not in line and "]]" not in line and "''" not in line and "&" not in line, line
        assert not re.search(r"<[A-Za-z/!?]", line), line  # no HTML tag (a player's <script>, <b>)
        assert line[:1] in ("", "*", "-", "|"), line  # headings, list items, tables and blank lines only


def test_atwiki_user_pipes_become_full_width(script):
    text = export(script.events, GENERIC, "atwiki", OPTIONS)
    assert "怪力｜B" in text
    assert _puki_escape(NASTY_SEAT) == "ランサー［［槍］］{{t}}｜’’b’’"


# -- plain text -------------------------------------------------------------------

def test_text_has_no_markup(script):
    text = export(script.events, GENERIC, "text", OPTIONS)
    for line in text.splitlines():
        assert not line.startswith(("#", "*", "|", "{|", "!", "<", "- ")), line
    assert "&#" not in text and "&lt;" not in text and "\\" not in text and "｜" not in text


def test_text_layout(case):
    events, report = case
    text = export(events, GENERIC, "text", OPTIONS)
    lines = text.splitlines()
    # Headings are underlined, tables have a dashed rule under their header, items a middle dot.
    assert lines[1] == "=" * len(lines[1]) and len(lines[1]) >= 4
    rules = [line for line in lines if line and set(line) <= {"-", " "}]
    assert len(rules) == len(expected_tables(report))
    items = [line for line in lines if line.startswith("・")]
    assert len(items) == len(report.meta) + len(report.verification) + sum(len(s.items) for s in report.sections)


def test_text_shows_the_users_text_verbatim(script):
    text = export(script.events, GENERIC, "text", OPTIONS)
    assert NASTY_REASON in text and NASTY_SEAT in text and NASTY_MODIFIER in text
    answers = [e.data["value"] for e in _player_markup_script().events if e.type == "prompt.answered"]
    text = export(_player_markup_script().events, GENERIC, "text", OPTIONS)
    assert all(a in text for a in answers)
