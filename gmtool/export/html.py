"""A self-contained printable HTML report (no external assets)."""

from __future__ import annotations

from html import escape

from .report import L, Report

STYLE = """
body{font-family:system-ui,"Hiragino Sans","Noto Sans JP","Yu Gothic UI",Meiryo,sans-serif;max-width:60em;margin:2em auto;
color:#111;line-height:1.5;padding:0 1em}h1{border-bottom:2px solid #333}h2{border-bottom:1px solid #999;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0 1em}th,td{border:1px solid #999;padding:.2em .5em;text-align:left}
th{background:#eee}ul{padding-left:1.2em}li{margin:.15em 0}.time{color:#666;font-variant-numeric:tabular-nums}
code{font-size:.8em;word-break:break-all}.appendix{font-size:.9em;color:#333}@media print{body{margin:0}}
"""


def _table(head: list[str], rows: list[list[str]], code_cols: tuple[int, ...] = ()) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = ""
    for row in rows:
        body += "<tr>" + "".join(
            f"<td><code>{escape(str(c))}</code></td>" if i in code_cols else f"<td>{escape(str(c))}</td>"
            for i, c in enumerate(row)) + "</tr>"
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"


def render_html(report: Report) -> str:
    """The report as one HTML file (nothing loaded from outside)."""
    lang = report.lang
    parts = [f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">',
             f"<title>{escape(report.title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(report.title)}</h1><ul>"]
    parts += [f"<li>{escape(k)}: {escape(v)}</li>" for k, v in report.meta]
    parts.append("</ul>")
    standings = [f"<h2>{escape(L(lang, '最終状況', 'Standings'))}</h2>",
                 _table(report.standings_head, report.standings)]
    if report.standings_lines:
        standings.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in report.standings_lines) + "</ul>")
    if report.standings_first:
        parts += standings
    for section in report.sections:
        level = min(section.level, 6)
        parts.append(f"<h{level}>{escape(section.title)}</h{level}><ul>")
        for item in section.items:
            time = f'<span class="time">{escape(item.time)}</span> ' if item.time else ""
            parts.append(f"<li>{time}{escape(item.text)}</li>")
        parts.append("</ul>")
    if not report.standings_first:
        parts += standings
    parts.append(f'<section class="appendix"><h2>{escape(L(lang, "付録: 検証用データ", "Appendix: verification data"))}'
                 "</h2><ul>")
    parts += [f"<li>{escape(k)}: <code>{escape(v)}</code></li>" for k, v in report.verification]
    parts.append("</ul>")
    head = [L(lang, "回答者", "Who"), L(lang, "回答", "Answer"), L(lang, "ソルト", "Salt"),
            L(lang, "コミットメント", "Commitment")]
    for entry in report.appendix:
        parts.append(f"<h3>{escape(entry.title)}</h3>")
        parts.append(_table(head, entry.rows, (2, 3)))
    parts.append("</section></body></html>")
    return "\n".join(parts)
