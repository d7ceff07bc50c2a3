"""A plain non-editable install must carry the templates and static files it serves."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_contains_templates_static_and_vendored_htmx(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    wheel = next(tmp_path.glob("gmtool-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "gmtool/templates/base.html" in names
    assert "gmtool/templates/gm/console.html" in names
    assert "gmtool/static/htmx.min.js" in names
    assert "gmtool/static/live.js" in names
    assert "gmtool/static/gmtool.css" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "gmtool = gmtool.cli:main" in text
    assert "generic = gmtool.rulesets.generic:RULESET" in text


def test_no_page_loads_anything_from_the_internet():
    for path in list((ROOT / "templates").rglob("*.html")) + list((ROOT / "static").glob("*.js")):
        text = path.read_text(encoding="utf-8")
        for marker in ('src="http', "src='http", 'href="http', "href='http", "@import url(http"):
            assert marker not in text, f"{path} loads {marker}"
