"""A self-contained printable HTML report (no external assets)."""

from __future__ import annotations

from html import escape

from .report import L, Report

STYLE = """
body{font-family:system-ui,"Hiragino Sans","Noto Sans JP","Yu Gothic UI",Meiryo,sans-serif;max-width:60em;margin:2em auto;
color:#111;line-height:1.5;padding:0 1em}h1{border-bottom:2px solid #333}h2{border-bottom:1px solid #999;margin-top:1.6em}
table{border-collapse:collapse;margin:.5em 0 1em}th,td{border:1px solid #999;padding:.2em .5em;text-align:left}
th{background:#eee}ul{padding-left:1.2em}li{margin:.15em 0}.time{color:#666;font-variant-numeric:tabular-nums}
code{font-size:.8em;word-break:break-all}@media print{body{margin:0}}
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
    """The report as one HTML file."""
    lang = report.lang
    parts = [f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">',
             f"<title>{escape(report.title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{escape(report.title)}</h1><ul>"]
    parts += [f"<li>{escape(k)}: <code>{escape(v)}</code></li>" for k, v in report.meta]
    parts.append("</ul>")
    for section in report.sections:
        parts.append(f"<h2>{escape(section.title)}</h2><ul>")
        for item in section.items:
            time = f'<span class="time">{escape(item.time)}</span> ' if item.time else ""
            parts.append(f"<li>{time}{escape(item.text)}")
            if "answers" in item.data:
                parts.append(_table([L(lang, "回答者", "Who"), L(lang, "回答", "Answer"), L(lang, "ソルト", "Salt"),
                                     L(lang, "コミットメント", "Commitment")], item.data["answers"], (2, 3)))
            if "resolution" in item.data:
                r = item.data["resolution"]
                if r["counts"]:
                    parts.append(_table([L(lang, "選択肢", "Option"), L(lang, "票", "Votes")], r["counts"]))
                if r["rows"]:
                    parts.append(_table([L(lang, "回答者", "Who"), L(lang, "内訳", "Breakdown"),
                                         L(lang, "合計", "Total")], r["rows"]))
                parts += [f"<p>{escape(n)}</p>" for n in r["notes"]]
            parts.append("</li>")
        parts.append("</ul>")
    parts.append(f"<h2>{escape(L(lang, '最終状況', 'Standings'))}</h2>")
    parts.append(_table(report.standings_head, report.standings))
    parts.append("</body></html>")
    return "\n".join(parts)
