"""A phone's load is light: gzip for text responses, versioned static files cached for good (issues 11, 12)."""

from __future__ import annotations

import gzip
import re

import pytest

GZ = {"Accept-Encoding": "gzip, deflate"}


def test_pages_and_fragments_go_out_gzipped_to_a_browser_that_accepts_it(screens):
    page = screens.seats["s1"].get(f"/s/{screens.sid}/phone", headers=GZ)
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page.headers["Vary"]
    html = gzip.decompress(page.get_data()).decode()
    assert "live-root" in html and len(page.get_data()) < len(html) / 2
    plain = screens.seats["s1"].get(f"/s/{screens.sid}/phone")  # no Accept-Encoding: plain, the same page
    assert "Content-Encoding" not in plain.headers and "live-root" in plain.get_data(as_text=True)


def test_static_files_are_versioned_gzipped_and_cached_for_good(client, screens):
    html = screens.seats["s1"].get(f"/s/{screens.sid}/phone").get_data(as_text=True)
    urls = re.findall(r'(?:src|href)="(/static/[^"]+\?v=[0-9a-f]+)"', html)
    assert {u.split("?")[0] for u in urls} >= {"/static/htmx.min.js", "/static/live.js", "/static/gmtool.css"}
    for url in urls:
        with client.get(url, headers=GZ) as response, client.get(url) as plain:
            assert response.status_code == 200
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert response.headers["Content-Encoding"] == "gzip"
            assert gzip.decompress(response.get_data()) == plain.get_data()
    htmx = [u for u in urls if "htmx" in u][0]
    with client.get(htmx, headers=GZ) as response:
        assert len(response.get_data()) < 16_000  # 37 KB of JavaScript, about 13 KB sent
    for unversioned in ("/static/live.js", "/static/live.js?v=0000"):  # no version, or an old one: the short default
        with client.get(unversioned) as response:
            assert "immutable" not in response.headers["Cache-Control"]


def test_a_stylesheet_goes_out_without_its_comments_plain_or_gzipped(client, screens):
    """The stylesheets' comments explain the rules to us, not to a phone: a quarter of its CSS on the wire, which
    counts against a phone's first load (30 KB). Every rule still goes out."""
    from pathlib import Path
    html = screens.seats["s1"].get(f"/s/{screens.sid}/phone").get_data(as_text=True)
    url = re.search(r'href="(/static/gmtool\.css\?v=[0-9a-f]+)"', html).group(1)
    source = (Path(client.application.static_folder) / "gmtool.css").read_text(encoding="utf-8")
    assert "/*" in source
    with client.get(url, headers=GZ) as zipped, client.get(url) as plain:
        css = plain.get_data(as_text=True)
        assert gzip.decompress(zipped.get_data()).decode() == css and "/*" not in css and "*/" not in css
        assert re.sub(r"/\*.*?\*/", "", source, flags=re.S) == css
        assert len(zipped.get_data()) < len(gzip.compress(source.encode(), 6)) * 0.85


def test_small_answers_and_the_live_stream_are_left_alone(screens):
    small = screens.table.get(f"/s/{screens.sid}/version?as=table", headers=GZ)
    assert small.status_code == 200 and "Content-Encoding" not in small.headers
    stream = screens.table.get(f"/s/{screens.sid}/events?as=table", headers=GZ, buffered=False)
    assert stream.mimetype == "text/event-stream" and "Content-Encoding" not in stream.headers  # notices only
    stream.close()


@pytest.mark.parametrize("script", ["live.js", "phone.js", "table.js", "gm.js", "export.js", "home.js"])
def test_gmtools_scripts_go_out_without_their_whole_line_comments(client, script):
    """A script's whole-line comments explain it to us, not to a phone: a quarter of live.js and phone.js on the wire,
    which counts against a phone's first load (30 KB). Every line of code still goes out, a comment after code on
    its line too (the browser tests run the scripts as served)."""
    from pathlib import Path
    source = (Path(client.application.static_folder) / script).read_text(encoding="utf-8")
    with client.get(f"/static/{script}") as plain, client.get(f"/static/{script}", headers=GZ) as zipped:
        served = plain.get_data(as_text=True)
        assert zipped.headers["Content-Encoding"] == "gzip" and gzip.decompress(zipped.get_data()).decode() == served
    code = [line for line in source.splitlines() if not line.lstrip().startswith("//")]
    assert served.splitlines() == code
    assert len(code) < len(source.splitlines())  # it had comments to take out
