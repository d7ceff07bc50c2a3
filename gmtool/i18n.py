"""The one catalog of UI strings: Japanese first, English on request."""

from __future__ import annotations

LANGS = ("ja", "en")

STRINGS: dict[str, tuple[str, str]] = {
    "app": ("gmtool", "gmtool"),
    "lang.switch": ("English", "日本語"),
    "offline": ("オフライン — 再接続中…", "Offline — reconnecting…"),
    "polling": ("低頻度更新モード", "Polling mode"),
    "home.title": ("セッション一覧", "Sessions"),
    "home.none": ("まだセッションがありません。下のフォームで新しいセッションを作りましょう。",
                  "No sessions yet. Create a new session below."),
    "home.new": ("新しいセッション", "New session"),
    "home.open": ("GM画面を開く", "Open GM console"),
    "home.need_key": ("GM用のキーが必要です。gmtool serve を起動した端末に表示されたURLを開いてください。",
                      "The GM key is required. Open the URL printed by `gmtool serve`."),
    "form.title": ("タイトル", "Title"),
    "form.ruleset": ("ルール", "Ruleset"),
    "form.seats": ("席（1行に1人：名前 / 陣営）", "Seats (one per line: name / faction)"),
    "form.counters": ("カウンター", "Counters"),
    "form.custom_counter": ("独自カウンター（名前,初期値,最小,最大[,フラグ>=値] ・1行に1つ）",
                            "Custom counters (name,start,min,max[,flag>=value] — one per line)"),
    "form.private": ("本人とGMのみ表示", "Only the player and the GM see it"),
    "form.create": ("作成", "Create"),
    "gm.console": ("GM画面", "GM console"),
    "gm.table_link": ("テーブル画面", "Table screen"),
    "gm.qr_sheet": ("QRシート印刷", "Print QR sheet"),
    "gm.seats": ("席とカウンター", "Seats and counters"),
    "gm.set": ("設定", "Set"),
    "gm.reason": ("理由（任意）", "Reason (optional)"),
    "gm.dice": ("ダイス", "Dice"),
    "gm.roll": ("振る", "Roll"),
    "gm.label": ("用途", "Label"),
    "gm.expr_hint": ("例: 2D6+1, 1D100<=50, 4D6KH3, D66, choice[a,b], S2D6（秘密）",
                     "e.g. 2D6+1, 1D100<=50, 4D6KH3, D66, choice[a,b], S2D6 (secret)"),
    "gm.undo": ("取り消し", "Undo"),
    "gm.log": ("ログ", "Log"),
    "gm.join": ("参加QR", "Join QR codes"),
    "gm.reissue": ("リンク再発行", "Reissue link"),
    "gm.reissue_confirm": ("この席の古いリンクは使えなくなります。再発行しますか？",
                           "The seat's old link will stop working. Reissue?"),
    "gm.add_seat": ("席を追加", "Add seat"),
    "gm.close": ("セッション終了（シード公開）", "Close session (publish seed)"),
    "gm.close_confirm": ("セッションを終了してダイスのシードを公開しますか？", "Close the session and publish the dice seed?"),
    "gm.reveal_roll": ("公開", "Reveal"),
    "gm.secret": ("秘密", "secret"),
    "gm.new_prompt": ("秘密の質問", "Secret prompt"),
    "gm.prompt_kind": ("種類", "Kind"),
    "gm.prompt_options": ("選択肢（1行に1つ）", "Options (one per line)"),
    "gm.prompt_seats": ("回答する席", "Seats that answer"),
    "gm.gm_submits": ("GMも回答する（PL対GM）", "The GM answers too (PL vs GM)"),
    "gm.resolver": ("解決方法", "Resolver"),
    "gm.none": ("なし", "none"),
    "gm.open_prompt": ("質問を出す", "Open prompt"),
    "gm.lock": ("締め切り", "Lock"),
    "gm.reveal": ("一斉公開", "Reveal"),
    "gm.cancel": ("取り消し", "Cancel"),
    "gm.extend": ("席を追加", "Add seats"),
    "gm.modifier": ("修正を加える", "Add modifier"),
    "gm.confirm": ("結果を確定", "Confirm result"),
    "gm.min": ("最小", "Min"),
    "gm.faction": ("陣営", "Faction"),
    "gm.amount": ("修正値", "Amount"),
    "gm.modifier_label": ("修正の名前", "Modifier label"),
    "gm.max": ("最大", "Max"),
    "kind.choice": ("一つ選ぶ", "One choice"),
    "kind.multi": ("複数選ぶ", "Several choices"),
    "kind.number": ("数値", "Number"),
    "kind.text": ("短い文", "Short text"),
    "kind.seat": ("席に投票", "Vote for a seat"),
    "gm.export": ("エクスポート", "Export"),
    "gm.scene": ("シーン区切り", "New scene"),
    "gm.scene_placeholder": ("第1ラウンド / 戦闘: セイバー vs ランサー", "Round 1 / Combat: Saber vs Lancer"),
    "export.title": ("ログのエクスポート", "Export the log"),
    "export.format": ("形式", "Format"),
    "export.fmt.markdown": ("Markdown", "Markdown"),
    "export.fmt.mediawiki": ("MediaWiki", "MediaWiki"),
    "export.fmt.atwiki": ("@wiki / Seesaa（PukiWiki記法）", "@wiki / Seesaa (PukiWiki markup)"),
    "export.fmt.text": ("テキスト", "Plain text"),
    "export.fmt.html": ("HTML（印刷用）", "HTML (printable)"),
    "export.fmt.json": ("JSON（再読み込み可）", "JSON (re-importable)"),
    "export.range": ("範囲", "Range"),
    "export.whole": ("セッション全体", "Whole session"),
    "export.opening": ("最初のシーン区切りまで", "Before the first scene"),
    "export.lang": ("言語", "Language"),
    "export.names": ("名前", "Names"),
    "export.names.player": ("席（プレイヤー）名", "Seat (player) names"),
    "export.names.faction": ("陣営名", "Faction names"),
    "export.times": ("時刻を入れる", "Include times"),
    "export.secret_rolls": ("GMの秘密ロールも入れる", "Include the GM's secret rolls"),
    "export.preview": ("プレビュー", "Preview"),
    "export.download": ("ダウンロード", "Download"),
    "export.backup": ("完全バックアップ（秘密を含む・GM専用）", "Full backup (contains secrets, GM only)"),
    "export.hint": ("公開されていない回答と秘密ロールは含まれません。プレビューをコピーしてWikiに貼り付けられます。",
                    "Unrevealed answers and secret rolls are never included. Copy the preview into your wiki."),
    "table.title": ("テーブル", "Table"),
    "table.seed_hash": ("ダイスシードのSHA-256", "SHA-256 of the dice seed"),
    "table.seed": ("ダイスシード（公開済み）", "Dice seed (published)"),
    "table.rolls": ("ロール", "Rolls"),
    "table.join_table": ("この画面のURL", "This screen's URL"),
    "prompt.waiting": ("回答待ち", "Waiting for answers"),
    "prompt.answered": ("回答済み", "Answered"),
    "prompt.commitment": ("コミットメント", "Commitment"),
    "prompt.salt": ("ソルト", "Salt"),
    "prompt.answer": ("回答", "Answer"),
    "prompt.submit": ("送信", "Submit"),
    "prompt.your_answer": ("あなたの回答", "Your answer"),
    "prompt.change": ("締め切りまで変更できます", "You can change it until the prompt is locked"),
    "prompt.not_for_you": ("他の席への質問が進行中です", "A prompt for other seats is open"),
    "prompt.revealed": ("公開", "Revealed"),
    "prompt.result": ("結果", "Result"),
    "prompt.verify": ("検証", "Verify"),
    "prompt.locked": ("締め切り済み", "Locked"),
    "prompt.cancelled": ("取り消し", "Cancelled"),
    "prompt.status.open": ("受付中", "Open"),
    "prompt.status.locked": ("締め切り", "Locked"),
    "prompt.status.revealed": ("公開済み", "Revealed"),
    "prompt.status.cancelled": ("取り消し", "Cancelled"),
    "prompt.breakdown": ("内訳", "Breakdown"),
    "prompt.total": ("合計", "Total"),
    "prompt.votes": ("票", "votes"),
    "prompt.set_aside": ("脇に置く", "set aside"),
    "prompt.kept": ("採用", "kept"),
    "phone.you": ("あなたの席", "Your seat"),
    "phone.others": ("他の席", "Other seats"),
    "phone.dice": ("ダイスを振る", "Roll dice"),
    "verify.title": ("コミットメントの検証", "Verify commitments"),
    "verify.ok": ("一致", "matches"),
    "verify.bad": ("不一致", "does NOT match"),
    "verify.how": ("sha256(ソルト + \":\" + 回答のJSON) を自分で計算して比べられます（docs/verify.md）。",
                   "Compute sha256(salt + \":\" + canonical JSON of the answer) yourself (docs/verify.md)."),
    "error.title": ("エラー", "Error"),
    "error.forbidden": ("このページを見る権限がありません。QRコードを読み直すか、GMに新しいリンクをもらってください。",
                        "You may not open this page. Scan the QR code again or ask the GM for a new link."),
    "error.csrf": ("ページが古くなっています。再読み込みしてください。", "This page is out of date. Please reload it."),
    "ok": ("OK", "OK"),
    "closed": ("このセッションは終了しました", "This session is closed"),
    "lan.warning": ("LANのアドレスが見つかりません。スマホから接続できない可能性があります。",
                    "No LAN address found; phones may not be able to connect."),
}


def add_strings(strings: dict[str, tuple[str, str]]) -> None:
    """Merge a ruleset's UI strings into the catalog (keys must be new or identical)."""
    for key, pair in strings.items():
        if STRINGS.get(key, pair) != pair:
            raise ValueError(f"UI string {key!r} is defined twice")
        STRINGS[key] = pair


def translate(key: str, lang: str) -> str:
    """The UI string `key` in `lang` (Japanese unless 'en'); the key itself if unknown."""
    pair = STRINGS.get(key)
    if pair is None:
        return key
    return pair[1] if lang == "en" else pair[0]


def pick(label: dict | str | None, lang: str) -> str:
    """A {"ja", "en"} label in `lang` (a plain text stays as it is)."""
    if not label:
        return ""
    if isinstance(label, str):
        return label
    return label.get("en" if lang == "en" else "ja") or label.get("ja", "")
