"""Issue 3 at a real table: the GM opens a select, three phones answer in secret, the table reveals."""

from __future__ import annotations

import hashlib
import json
import re

from playwright.sync_api import expect


def test_three_phones_answer_in_secret_then_simultaneous_reveal(server, page, browser, phone_context):
    base, app = server
    live, tokens = app.extensions["gmtool"].create(
        "秘密選択卓", "generic", [{"name": "セイバー"}, {"name": "アーチャー"}, {"name": "ランサー"}])
    sid = live.state.session_id
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    table = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    table.goto(f"{base}/s/{sid}/table?k={tokens['table']}")
    phones = {}
    for seat_id, token in tokens["seats"].items():
        phone = phone_context().new_page()
        phone.goto(f"{base}/join/{sid}?k={token}")
        phones[seat_id] = phone

    # The GM opens a one-choice prompt for all three seats, resolved by "same answers cancel" (I-2).
    form = page.locator("#new-prompt")
    form.locator("input[name=title]").fill("1stセレクト")
    form.locator("textarea[name=options]").fill("筋力\n耐久\n敏捷")
    form.locator("select[name=resolver]").select_option("cancel_duplicates")
    form.locator("button.primary").click()

    # Every phone shows it at once, with big buttons.
    for phone in phones.values():
        expect(phone.locator(".prompt-card h2")).to_have_text("1stセレクト")

    choices = {"s1": "筋力", "s2": "筋力", "s3": "敏捷"}
    for seat_id in ("s1", "s2"):
        phones[seat_id].locator(".prompt-card").get_by_role("button", name=choices[seat_id]).click()
        expect(phones[seat_id].locator(".prompt-card .mine")).to_contain_text(choices[seat_id])

    # The table shows who answered and each commitment — never the answer.
    expect(table.locator("#prompt-p1 li.done")).to_have_count(2)
    expect(table.locator("#prompt-p1 code.commitment")).to_have_count(2)
    assert "筋力" not in table.locator("#prompt-p1 .respondents").inner_text()
    # The phone that has not answered sees no one's answer.
    phone3_text = phones["s3"].locator("#live").inner_text()
    assert "あなたの回答" not in phone3_text
    commitment_s1 = table.locator("#prompt-p1 li.done code.commitment").first.text_content()  # behind 「封印済み」

    # A change of mind before the lock is allowed and gives a new commitment.
    phones["s1"].locator(".prompt-card").get_by_role("button", name="耐久").click()
    expect(phones["s1"].locator(".prompt-card .mine")).to_contain_text("耐久")
    expect(table.locator("#prompt-p1 li.done code.commitment").first).not_to_have_text(commitment_s1)

    # The last answer reveals the prompt on every screen at once, with the resolution.
    phones["s3"].locator(".prompt-card").get_by_role("button", name="敏捷").click()
    expect(table.locator("#prompt-p1 .status")).to_have_text("公開済み")
    expect(table.locator("#prompt-p1 .answer-value")).to_have_count(3)
    # not yet confirmed by the GM: provisional on every screen (it read as final)
    expect(table.locator("#prompt-p1 .resolution .summary")).to_have_text("暫定 重複なし")
    expect(page.locator("#prompt-p1 .status")).to_have_text("公開済み")
    for phone in phones.values():
        expect(phone.locator(".prompt-card")).to_have_count(0)
        expect(phone.locator("#prompt-p1 .answer-value")).to_have_count(3)
        expect(phone.locator("#prompt-p1 .resolution .summary [data-provisional]")).to_have_text("暫定")
    # A phone reads each answer as sealed, in words; the commitment it can compare opens behind that word.
    seal = phones["s1"].locator("#prompt-p1 li.done details.seal").first
    expect(seal.locator("summary")).to_have_text("封印済み")
    expect(seal.locator("code.commitment")).to_be_hidden()
    seal.locator("summary").click()
    expect(seal.locator("code.commitment")).to_be_visible()
    assert re.fullmatch(r"[0-9a-f]{64}", seal.locator("code.commitment").inner_text())

    # A player checks their own commitment by hand, from what the verify page shows.
    table.goto(f"{base}/s/{sid}/verify")
    row = table.locator("[data-prompt=p1]").first
    expect(row).to_contain_text("一致")
    cells = row.locator("dd code").all_inner_texts()  # the value hashed (JSON), the salt, the commitment
    value, salt, commitment = json.loads(cells[0]), cells[1], cells[2]
    assert hashlib.sha256(f"{salt}:{json.dumps(value, ensure_ascii=False)}".encode()).hexdigest() == commitment
    assert re.fullmatch(r"[0-9a-f]{32,}", salt)


def test_the_gm_reveals_early_with_a_reason_that_the_log_keeps(server, page, browser, phone_context):
    base, app = server
    live, tokens = app.extensions["gmtool"].create("早期公開", "generic", [{"name": "A"}, {"name": "B"}])
    sid = live.state.session_id
    page.goto(f"{base}/s/{sid}/gm?k={tokens['gm']}")
    phone = phone_context().new_page()
    phone.goto(f"{base}/join/{sid}?k={tokens['seats']['s1']}")
    form = page.locator("#new-prompt")
    form.locator("input[name=title]").fill("投票")
    form.locator("select[name=kind]").select_option("seat")
    form.locator("button.primary").click()
    ops = page.locator(".prompt-ops").first
    reason = ops.locator("input[name=reason]")
    reason.click()
    page.keyboard.type("Bが")  # the GM is typing the reason when the answer arrives from the phone
    phone.locator(".prompt-card").get_by_role("button", name="B").click()
    expect(page.locator("#prompt-p1 li.done")).to_have_count(1)  # the live update redrew the prompt
    expect(reason).to_be_focused()  # it took neither the focus nor the typed text from the GM
    expect(reason).to_have_value("Bが")
    page.keyboard.type("離席中")
    ops.get_by_role("button", name="一斉公開").click()
    expect(phone.locator("#prompt-p1 .status")).to_have_text("公開済み")
    expect(page.locator(".log")).to_contain_text("Bが離席中")
    expect(phone.locator("#prompt-p1 .answer-value")).to_have_text("B")
