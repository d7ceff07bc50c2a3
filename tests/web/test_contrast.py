"""Text contrast on the dark theme (WCAG AA: 4.5:1 for body text), computed from the stylesheets as served: the
colours a rule declares (through the :root variables), against the background it sits on, with its opacity."""

from __future__ import annotations

import re

import pytest

CARD, BG, FIELD = "#1d1f27", "#121318", "#262936"  # a card, the page, a field or a button (gmtool.css)


def css(client, path: str) -> str:
    with client.get(f"/static/{path}") as response:
        assert response.status_code == 200
        return response.get_data(as_text=True)


def declared(text: str, selector: str, root: str = "") -> dict[str, str]:
    """The declarations of the rules whose selector list is exactly `selector` (a later rule wins), variables
    resolved from the :root of `root` (gmtool.css, which a ruleset's stylesheet follows) or of `text`."""
    variables = dict(re.findall(r"(--[\w-]+):\s*([^;]+);", (root or text).split("}", 1)[0]))
    out: dict[str, str] = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", text):
        if " ".join(selectors.split()) == selector:
            for prop, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", body):
                out[prop] = re.sub(r"var\((--[\w-]+)\)", lambda m: variables[m.group(1)], value).strip()
    assert out, f"no rule {selector!r}"
    return out


def rgb(colour: str) -> list[float]:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    return [int(colour[i:i + 2], 16) for i in (0, 2, 4)]


def over(top: str, bottom: str, opacity: float) -> list[float]:
    return [t * opacity + b * (1 - opacity) for t, b in zip(rgb(top), rgb(bottom))]


def ratio(fg: list[float], bg: list[float]) -> float:
    def lum(c):
        c = [v / 255 for v in c]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    high, low = sorted((lum(fg), lum(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_a_fields_placeholder_reads_on_the_field(client):
    """The placeholders are the only visible label of many of the GM console's fields (理由（任意）, 用途, 陣営 …):
    the browser's own grey (#757575: 3.1:1 on a field) was too faint."""
    text = css(client, "gmtool.css")
    rule = declared(text, "::placeholder")
    assert rule.get("opacity") == "1"  # Firefox fades a placeholder by default
    assert ratio(rgb(rule["color"]), rgb(FIELD)) >= 4.5


@pytest.mark.parametrize("selector", [".offline-badge", ".polling-badge", ".revoked-badge", ".no-live-badge"])
def test_the_connection_badges_read(client, selector):
    """The header's オフライン / 低頻度更新 / link-revoked / not-updating badges: white 14 px text on them (on --ng it was
    3.7:1)."""
    text = css(client, "gmtool.css")
    rule = declared(text, ".offline-badge, .polling-badge, .revoked-badge, .no-live-badge")
    if selector == ".polling-badge":
        rule.update(declared(text, ".polling-badge"))
    assert ratio(rgb(rule["color"]), rgb(rule["background"])) >= 4.5


@pytest.mark.parametrize("kind", [".flash-ok", ".flash-error", ".flash-pending"])
def test_the_flash_reads(client, kind):
    text = css(client, "gmtool.css")
    body = declared(text, "body")
    assert ratio(rgb(body["color"]), rgb(declared(text, kind)["background"])) >= 4.5


@pytest.mark.parametrize("mark", [".g-adv", ".g-dis"])
def test_grails_advantage_marks_read(client, mark):
    """優位 / 劣位 beside the sides of a grail select: white on --ng was 3.7:1."""
    rule = declared(css(client, "rulesets/grail.css"), mark, root=css(client, "gmtool.css"))
    assert ratio(rgb(rule["color"]), rgb(rule["background"])) >= 4.5


def test_successions_dimmed_groups_and_points_still_read(client):
    """A kind of card a player holds none of (×0) and a majority's points a player does not win are dimmed, not
    faded out of reach: at opacity .35 a group's label read at 2.5–2.9:1, a lost majority's points at 3.1:1."""
    text = css(client, "rulesets/succession.css")
    zero = float(declared(text, ".sc-group.sc-zero")["opacity"])
    less = float(declared(text, ".sc-maj.sc-less")["opacity"])
    points = declared(text, ".sc-maj.sc-less .sc-maj-points, .sc-maj.sc-equal .sc-maj-points")["color"]
    grail = declared(text, ".sc-grail")
    for page in (CARD, BG):
        for colour in ("#e9e9ef", declared(text, ".sc-plus")["color"], declared(text, ".sc-minus")["color"]):
            assert ratio(over(colour, page, zero), rgb(page)) >= 4.5, (colour, page)
        assert ratio(over(grail["color"], page, zero), over(grail["background"], page, zero)) >= 4.5
        assert ratio(over(points, page, less), rgb(page)) >= 4.5
        assert ratio(over("#e9e9ef", page, less), rgb(page)) >= 4.5


def test_the_keyboard_focus_ring_shows_on_the_dark_theme(client):
    """WCAG 1.4.11 / 2.4.7: one :focus-visible ring in the accent colour for every control (buttons, links, fields,
    summaries), thick and at least 3:1 against the page, a card and a field; the browser's own thin blue ring read at
    about 3.2:1 on the page. :focus-visible, not :focus, so a mouse click on a button draws no ring."""
    text = css(client, "gmtool.css")
    outline = declared(text, ":focus-visible")["outline"].split()
    width, style, colour = outline
    assert style == "solid" and float(width.removesuffix("px")) >= 2
    for page in (BG, CARD, FIELD):
        assert ratio(rgb(colour), rgb(page)) >= 3, page
    # nothing takes the ring away again (a ruleset's stylesheet included)
    for sheet in ("gmtool.css", *(f"rulesets/{r}.css" for r in ("ace_royal", "grail", "illuminati", "succession", "sugoroku"))):
        assert not re.search(r"outline\s*:\s*(none|0)\b", css(client, sheet)), sheet
    # a grail skill chip hides its checkbox: the chip wears the ring instead
    chip = declared(css(client, "rulesets/grail.css"), ".g-chip:has(input:focus-visible)", root=text)
    assert chip["outline"].split() == outline


@pytest.mark.parametrize("sheet, selector, background", [
    ("ace_royal", ".ar-out", "#1b1d22"), ("illuminati", ".il-out", CARD), ("sugoroku", ".sg-out", CARD)])
def test_an_out_player_reads_as_out_at_aa_contrast(client, sheet, selector, background):
    """A player out of the game is muted and struck through, not faded: at opacity .45 its words read at about 3.8:1
    on a card and its muted labels at 2.3:1 (WCAG AA asks 4.5:1); a faded pill lost its contrast too."""
    root = css(client, "gmtool.css")
    text = css(client, f"rulesets/{sheet}.css")
    rule = declared(text, selector, root=root)
    assert float(rule.get("opacity", 1)) == 1
    assert ratio(rgb(rule["color"]), rgb(background)) >= 4.5
    assert re.search(re.escape(selector) + r" [^{]*\{[^}]*text-decoration: line-through", text)


def test_a_prompts_note_stands_apart_from_its_choices(client):
    """A prompt's line to whoever answers it (the view's `note`, _answer_form.html: a sugoroku tie-break's 「…最下位の
    あなたが決めます」) had no rule of its own and read as one more plain line between the title and the choices, on
    the phone's docked prompt and the GM console: it is set apart as the undo notice is (the accent's bar at its left,
    its own padding), and its text reads on its box."""
    text = css(client, "gmtool.css")
    rule = declared(text, ".undo-notice, .prompt-note")
    width, style, colour = rule["border-left"].split()
    assert style == "solid" and float(width.removesuffix("px")) >= 4 and colour == declared(text, ":root")["--accent"]
    assert rule["padding"] and ratio(rgb(declared(text, "body")["color"]), rgb(rule["background"])) >= 4.5
