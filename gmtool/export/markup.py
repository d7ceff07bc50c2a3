"""Text renderings of a Report: Markdown, MediaWiki, @wiki / PukiWiki, plain text.

Each markup is a small table of how to write a heading, a list item, a table and an
escaped cell; `render_text` walks the report once for all of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .report import L, Report


def _md_escape(text: str) -> str:
    # Backslash-escape what Markdown reads as markup inside a line: emphasis, strikethrough, table pipes,
    # code spans, and brackets (a user's "[x](url)" or "![x](url)" would become a link or an external image).
    text = str(text).replace("\\", "\\\\")
    for char in "|*_`[]~":
        text = text.replace(char, "\\" + char)
    return text.replace("<", "&lt;").replace("\n", " ")


def _mw_escape(text: str) -> str:
    # Only what MediaWiki would read as markup: links, templates, tables, tags, bold/italic, signatures.
    text = str(text).replace("\n", " ").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for seq, entity in (("[[", "&#91;&#91;"), ("]]", "&#93;&#93;"), ("{{", "&#123;&#123;"),
                        ("}}", "&#125;&#125;"), ("|", "&#124;"), ("''", "&#39;&#39;")):
        text = text.replace(seq, entity)
    # No two tildes (signatures ~~~, ~~~~) or underscores (__NOTOC__) may stay side by side.
    text = re.sub(r"~(?=~)", "&#126;", text)
    text = re.sub(r"_(?=_)", "&#95;", text)
    # A bracket before a letter or "/" may open an external link of any protocol ([http, [//, [mailto:);
    # brackets before digits and signs (dice rolls like [3,5]) stay readable.
    return re.sub(r"\[(?=[A-Za-z/])", "&#91;", text)


def _puki_escape(text: str) -> str:
    # PukiWiki has no general escape: swap its markup characters for full-width look-alikes, and the "<" that
    # would open an HTML tag (a player's "<img src=x onerror=…>": @wiki's editor takes raw HTML); a "<" before
    # anything else ("1D100<=60", "<怪力>") stays.
    text = str(text).replace("\n", " ").replace("|", "｜").replace("[[", "［［").replace("]]", "］］") \
        .replace("&", "＆").replace("~", "～").replace("''", "’’")
    return re.sub(r"<(?=[A-Za-z/!?])", "＜", text)


def _plain(text: str) -> str:
    return str(text).replace("\n", " ")


@dataclass(frozen=True)
class Markup:
    """How one wiki dialect writes the parts of a report."""

    escape: Callable[[str], str]
    heading: Callable[[int, str], str]
    item: Callable[[str], str]
    table: Callable[[list[str], list[list[str]]], str]


def _md_table(head, rows):
    lines = ["| " + " | ".join(_md_escape(h) for h in head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(_md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _mw_table(head, rows):
    lines = ['{| class="wikitable"', "! " + " !! ".join(_mw_escape(h) for h in head)]
    for row in rows:
        lines += ["|-", "| " + " || ".join(_mw_escape(c) for c in row)]
    return "\n".join(lines + ["|}"])


def _puki_table(head, rows):
    lines = ["|" + "|".join(_puki_escape(h) for h in head) + "|h"]
    lines += ["|" + "|".join(_puki_escape(c) or " " for c in row) + "|" for row in rows]
    return "\n".join(lines)


def _text_table(head, rows):
    widths = [max(_width(str(c)) for c in col) for col in zip(head, *rows)]
    fmt = lambda row: "  ".join(str(c) + " " * (w - _width(str(c))) for c, w in zip(row, widths)).rstrip()
    return "\n".join([fmt(head), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows])


def _width(text: str) -> int:
    import unicodedata
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


MARKUPS = {
    "markdown": Markup(_md_escape, lambda n, t: "#" * n + " " + _md_escape(t), lambda t: "- " + t, _md_table),
    "mediawiki": Markup(_mw_escape, lambda n, t: "=" * n + " " + _mw_escape(t) + " " + "=" * n,
                        lambda t: "* " + t, _mw_table),
    "atwiki": Markup(_puki_escape, lambda n, t: "*" * n + _puki_escape(t), lambda t: "-" + t,
                     _puki_table),
    "text": Markup(_plain, lambda n, t: t + "\n" + ("=" if n <= 2 else "~") * max(_width(t), 4),
                   lambda t: "・" + t, _text_table),
}


def _standings(m: Markup, report: Report, level: int) -> list[str]:
    return [m.heading(level, L(report.lang, "最終状況", "Standings")), "",
            m.table(report.standings_head, report.standings), ""] \
        + [m.item(m.escape(line)) for line in report.standings_lines] + [""]


def _appendix(m: Markup, report: Report, level: int) -> list[str]:
    """Commitments, salts and the dice seed: what anyone needs to check the game (docs/verify.md)."""
    lang = report.lang
    out = [m.heading(level, L(lang, "付録: 検証用データ", "Appendix: verification data")), ""]
    out += [m.item(m.escape(f"{k}: {v}")) for k, v in report.verification] + [""]
    head = [L(lang, "回答者", "Who"), L(lang, "回答", "Answer"), L(lang, "ソルト", "Salt"),
            L(lang, "コミットメント", "Commitment")]
    for entry in report.appendix:
        out += [m.heading(level + 1, entry.title), "", m.table(head, entry.rows), ""]
    return out


def render_text(report: Report, fmt: str) -> str:
    """The report in one of the text formats."""
    m = MARKUPS[fmt]
    shift = 1 if fmt == "mediawiki" else 0  # MediaWiki pages keep level 1 for the page title
    out = [m.heading(1 + shift, report.title), ""]
    out += [m.item(m.escape(f"{k}: {v}")) for k, v in report.meta] + [""]
    if report.standings_first:
        out += _standings(m, report, 2 + shift)
    for section in report.sections:
        out += [m.heading(section.level + shift, section.title), ""]
        for item in section.items:
            when = f"{item.time} " if item.time else ""
            out.append(m.item(m.escape(when + item.text)))
        out.append("")
    if not report.standings_first:
        out += _standings(m, report, 2 + shift)
    out += _appendix(m, report, 2 + shift)
    text = "\n".join(out)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"
