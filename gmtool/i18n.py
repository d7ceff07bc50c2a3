"""The one catalog of UI strings: Japanese first, English on request."""

from __future__ import annotations

from functools import lru_cache

LANGS = ("ja", "en")


def language_named(value) -> str | None:
    """The language a `?lang=` (or the `lang` cookie) names, in any case (`EN`, `En`, ` en `), or None for any other
    value: the caller then keeps its default (Japanese; docs/api.md, Language of log texts)."""
    name = value.strip().lower() if isinstance(value, str) else ""
    return name if name in LANGS else None

STRINGS: dict[str, tuple[str, str]] = {
    "app": ("gmtool", "gmtool"),
    "lang.switch": ("English", "日本語"),
    "second_tap": ("令呪を使います: もう一度タップで確定", "Uses a Command Seal: tap again to confirm"),
    "queue.pending": ("送信待ち（接続が戻ったら送ります）", "Waiting to send (sent when the connection returns)"),
    "queue.sent": ("送信しました", "Sent"),
    "queue.refused": ("送信できませんでした", "Could not be sent"),
    "manifest.description": ("対面セッションのGM支援（スマホで秘密の選択・ダイス・カウンター）",
                             "A GM assistant for in-person sessions (secret choices, dice and counters on phones)"),
    "flash.close": ("閉じる", "Close"),
    "flash.done": ("完了しました", "Done"),  # an action's flash when it wrote nothing its viewer may see
    "flash.closed": ("セッションを終了しました", "The session is closed"),  # the close's flash: its seed is in the log
    "flash.more": ("{first} …ほか {more} 件", "{first} … and {more} more"),  # an action's flash: its first line
    "offline": ("オフライン — 再接続中…", "Offline — reconnecting…"),
    "polling": ("低頻度更新モード", "Polling mode"),
    "no_live": ("この画面は更新されません（スクリプトを読み込めませんでした）。再読み込みしてください",
                "This screen is not updating (its script did not load). Reload the page"),
    "noscript": ("この画面のボタンと入力欄には JavaScript が必要です。ブラウザの設定で JavaScript をオンにしてください。",
                 "This screen's buttons and forms need JavaScript: turn JavaScript on in the browser's settings."),
    "revoked": ("このリンクは使えなくなりました。GMに新しいQRコードをもらってください。",
                "This link no longer works. Ask the GM for the new QR code."),
    "home.title": ("セッション一覧", "Sessions"),
    "home.none": ("まだセッションがありません。下のフォームで新しいセッションを作りましょう。",
                  "No sessions yet. Create a new session below."),
    "home.new": ("新しいセッション", "New session"),
    # the seats a game is played with, after its name in the new-session form's list: 双六聖杯戦争 — 2〜7席
    "home.seats_open": (" — ", " — "),
    "home.seats_to": ("〜", "–"),
    "home.seats_close": ("席", " seats"),
    "home.seats_changed": ("ゲームを変えました：入力済みの席の行が、上の書き方（どちらが先か）に合っているか確かめてください",
                           "The game changed: check that the seat lines you typed follow the format above (which name "
                           "comes first)"),
    "home.open": ("GM画面を開く", "Open GM console"),
    "home.import": ("エクスポートから読み込む", "Import an export"),
    "home.import_hint": ("JSONエクスポートか完全バックアップ（256キロバイトまで）を新しいセッションとして開きます。新しいリンクはそのGM画面に表示されます。",
                         "Opens a JSON export or full backup (up to 256 KiB) as a new session; its new links are on its GM console."),
    "home.import_file": ("JSONファイル", "JSON file"),
    "home.import_restore_tokens": ("元のリンクを使い続ける（完全バックアップのみ）", "Keep its old links (full backups only)"),
    "home.import_button": ("読み込む", "Import"),
    "home.damaged": ("保存ファイルが壊れていて開けません（開くと、何が壊れているかと直し方を表示します）",
                     "Its saved file is damaged and cannot be opened (open it to see what is wrong and what to do)"),
    "home.salvage": ("読める部分をJSONで書き出す（完全バックアップとして読み込めます）",
                     "Export its readable part as JSON (imports as a full backup)"),
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
    "form.title_example": ("第4次聖杯戦争 卓", "4th Holy Grail War table"),
    "form.seats_example": ("例: 遠坂 / アーチャー陣営\n衛宮 / セイバー陣営", "e.g. Tohsaka / Archer's faction\nEmiya / Saber's faction"),
    "form.custom_counter_example": ("HP,10,0,20,瀕死<=3", "HP,10,0,20,Dying<=3"),
    "gm.console": ("GM画面", "GM console"),
    "gm.table_link": ("テーブル画面", "Table screen"),
    "gm.qr_sheet": ("QRシート印刷", "Print QR sheet"),
    "qr.print": ("印刷する", "Print"),
    "qr.wifi": ("GMのノートPCと同じWi-Fiにつないでから読み取ってください。",
                "Join the same Wi-Fi as the GM's laptop, then scan."),
    "qr.typed": ("読み取れないときは、このアドレスをブラウザに入力:", "If the code does not scan, type this address in the browser:"),
    "gm.seats": ("席とカウンター", "Seats and counters"),
    "gm.seats_compact": ("カウンターを小さく表示", "Compact counters"),
    "gm.set": ("設定", "Set"),
    "gm.private": ("非公開", "private"),
    "gm.reason": ("理由（任意）", "Why (optional)"),
    "gm.dice": ("ダイス", "Dice"),
    "gm.roll": ("振る", "Roll"),
    "gm.expr": ("ダイスの式", "Dice expression"),
    "gm.label": ("用途", "Label"),
    "gm.expr_hint": ("例: 2D6+1, 1D100<=50, 4D6KH3, D66, choice[a,b], S2D6（秘密）",
                     "e.g. 2D6+1, 1D100<=50, 4D6KH3, D66, choice[a,b], S2D6 (secret)"),
    "gm.undo": ("取り消し", "Undo"),
    "gm.undo_confirm": ("直前の操作を取り消しますか？（ログには取り消し線付きで残り、元に戻すボタンはありません）",
                        "Undo the latest action? (It stays in the log, struck through; there is no redo.)"),
    "dice.real_badge": ("実ダイス", "real dice"),
    "dice.real": ("実ダイスの出目を入力", "Enter the faces of real dice"),
    "dice.faces": ("実ダイスの出目", "Faces of the real dice"),
    "dice.faces_hint": ("例: 3 5（振った順に）", "e.g. 3 5 (as rolled)"),
    "gm.readings": ("解釈（ハウスルール）", "Readings (house rules)"),
    "gm.readings_hint": ("ルールのあいまいな箇所の読み方です。変更はログに残り、取り消せます。",
                         "How ambiguous rules are read. Each change is logged and can be undone."),
    "gm.modifier_placeholder": ("修正の名前", "Modifier name"),
    "gm.log": ("ログ", "Log"),
    "gm.skip": ("この画面の移動先", "Skip to"),
    "gm.skip.panel": ("ゲームの進行へ", "Skip to the game"),
    "gm.skip.seats": ("席とカウンターへ", "Skip to seats and counters"),
    "gm.skip.prompts": ("質問へ", "Skip to prompts"),
    "gm.skip.dice": ("ダイスへ", "Skip to dice"),
    "gm.skip.log": ("ログへ", "Skip to the log"),
    "gm.no_prompts": ("質問はまだありません", "No prompts yet"),
    "gm.hide_answers": ("回答を公開まで隠す", "Hide answers until the reveal"),
    "gm.hide_answers_on": ("オン", "On"),
    "gm.hide_answers_off": ("オフ", "Off"),
    "gm.hide_answers_hint": ("プレイヤーにこの画面が見えても選択が分からないよう、GM画面のログと質問には誰が回答したかだけを出します。",
                             "So that players who can see this screen learn nothing, the console's log and prompts show who answered, not what."),
    "gm.hide_answers_off_hint": ("今はGM画面のログと質問に回答が出ています。プレイヤーにこの画面が見えるならオンにしてください。",
                                 "The console's log and prompts show the answers now. If the players can see this screen, turn it on."),
    "gm.answers_hidden": ("回答は公開まで隠しています", "Answers are hidden until the reveal"),
    "gm.join": ("参加QR", "Join QR codes"),
    "gm.reissue": ("リンク再発行", "Reissue link"),
    "gm.reissue_confirm": ("{name}の古いリンクは使えなくなります: もう一度押すと再発行",
                           "{name}'s old link will stop working: click again to reissue"),
    "gm.add_seat": ("席を追加", "Add seat"),
    "gm.seats_full": ("席はこれ以上追加できません（このゲームは{n}席まで）", "No more seats can be added (this game has at most {n})"),
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
    # not 「取り消し」: that is the header's undo, and a prompt's cancel cannot be undone (its answers are never revealed)
    "gm.cancel": ("質問を中止", "Cancel prompt"),
    "gm.cancel_confirm": ("この質問を中止しますか？集まった回答は公開されず、「↶ 取り消し」でも戻せません",
                          "Cancel this prompt? The answers given are never revealed, and Undo cannot bring it back"),
    "gm.extend": ("席を追加", "Add seats"),
    "gm.modifier": ("修正を加える", "Add modifier"),
    "gm.confirm": ("結果を確定", "Confirm result"),
    "gm.min": ("最小", "Min"),
    "gm.faction": ("陣営", "Faction"),
    "gm.amount": ("修正値", "Amount"),
    "gm.modifier_who": ("修正の対象", "Modifier for"),
    "gm.modifier_label": ("修正の名前", "Modifier label"),
    "gm.max": ("最大", "Max"),
    "kind.choice": ("一つ選ぶ", "One choice"),
    "kind.multi": ("複数選ぶ", "Several choices"),
    "kind.number": ("数値", "Number"),
    "kind.text": ("短い文", "Short text"),
    "kind.seat": ("席に投票", "Vote for a seat"),
    "gm.export": ("エクスポート", "Export"),
    "gm.scene": ("シーン区切り", "New scene"),
    "gm.scene_placeholder": ("第1ラウンド / 決戦", "Round 1 / Final battle"),
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
    "export.hint": ("公開されていない回答と秘密ロールは含まれません。", "Unrevealed answers and secret rolls are never included."),
    "export.wiki_hint": ("プレビューをコピーしてWikiに貼り付けられます。", "Copy the preview into your wiki."),
    "export.scope": ("対象", "Covers"),
    "export.session": ("このセッション", "This session"),
    "export.campaign": ("キャンペーン全体", "The whole campaign"),
    "export.standings": ("最終状況の位置", "Standings"),
    "export.standings.last": ("最後に", "At the end"),
    "export.standings.first": ("最初に", "At the top"),
    "export.preview_label": ("プレビュー（印刷されるとおり）", "Preview (as it will print)"),
    "campaign.title": ("キャンペーン", "Campaign"),
    "campaign.hint": ("このキャンペーンのセッション（古い順）。次のセッションは、同じ席・名前・陣営と、"
                      "ルールが引き継ぐもの（キャラクター・看破した真名・戦果など、ゲームごとに決まっています。"
                      "何も引き継がないゲームもあります）で始まります。"
                      "参加用のQRコードは新しくなります（スマホで読み直してください）。",
                      "The sessions of this campaign, oldest first. The next session starts with the same seats, names "
                      "and factions and what the game's rules carry over (characters, true names seen through, "
                      "victory points …: each game declares its own; some carry nothing). "
                      "New join QR codes are issued (phones scan again)."),
    "campaign.number": ("回", "No."),
    "campaign.session": ("セッション", "Session"),
    "campaign.date": ("日付", "Date"),
    "campaign.outcome": ("結果", "Outcome"),
    "campaign.closed": ("終了", "closed"),
    "campaign.open": ("進行中", "in progress"),
    "campaign.here": ("（このセッション）", "(this session)"),
    "campaign.next_title": ("次のセッションのタイトル", "Title of the next session"),
    "campaign.continue": ("次のセッションを始める（引き継ぎ）", "Start the next session (carry over)"),
    "campaign.continue_confirm": ("同じ席で次のセッションを作り、引き継ぐものを持ち越しますか？参加用のリンクは新しくなります。",
                                  "Create the next session with the same seats and carry over what the rules carry? "
                                  "Join links will be new."),
    "campaign.continued": ("次のセッション", "Next session"),
    "campaign.export": ("キャンペーン全体をエクスポート", "Export the whole campaign"),
    "gm.campaign": ("キャンペーン", "Campaign"),
    "table.title": ("テーブル", "Table"),
    "table.seed_hash": ("ダイスシードのSHA-256", "SHA-256 of the dice seed"),
    "table.seed": ("ダイスシード（公開済み）", "Dice seed (published)"),
    "table.closed": ("セッション終了", "Session closed"),
    "table.rolls": ("ロール", "Rolls"),
    "table.no_rolls": ("まだダイスは振られていません", "No dice rolled yet"),
    "table.no_rolls_in_scene": ("「{scene}」ではまだダイスは振られていません", "No dice rolled yet in {scene}"),
    "table.rolls_before_scene": ("「{scene}」より前", "Before {scene}"),
    "table.secret_roll": ("GMがシークレットダイスを振りました", "The GM rolled secret dice"),
    "table.history": ("履歴", "History"),
    "table.log": ("ログ", "Log"),
    "table.rules": ("根拠", "Rule refs"),  # the toggle shows rule codes (not a link to the rules), breakdowns, commitments
    "table.rules_hint": ("ルール番号・内訳・回答のコミットメントを表示する", "Show rule codes, breakdowns and the answers' commitments"),
    "table.answer_waiting": ("回答待ち", "waiting"),
    "table.more_prompts": ("ほか {more} 件の質問", "… and {more} more"),  # one respondent of a prompt still open, in the summary's line
    "table.join_table": ("この画面のURL", "This screen's URL"),
    "prompt.waiting": ("回答待ち", "Waiting for answers"),
    "prompt.no_answer": ("回答なし", "No answer"),
    "prompt.answered": ("回答済み", "Answered"),
    "prompt.commitment": ("コミットメント", "Commitment"),
    "prompt.sealed": ("封印済み", "Sealed"),
    "prompt.salt": ("ソルト", "Salt"),
    "prompt.answer": ("回答", "Answer"),
    "prompt.submit": ("送信", "Submit"),
    "prompt.your_answer": ("あなたの回答", "Your answer"),
    "prompt.sent": ("送信しました", "Sent"),
    "prompt.own_answer": ("送った内容を見る（GMのみ）", "Show what you sent (GM only)"),
    "prompt.receipt": ("控え（コミットメント）", "Receipt (commitment)"),
    "prompt.receipt_hint": ("公開後、検証ページでこの値と照合できます", "After the reveal, check it against this value on the verify page"),
    "prompt.bounds.both": ("{min}〜{max} の数", "A number from {min} to {max}"),
    "prompt.bounds.min": ("{min} 以上の数", "A number of at least {min}"),
    "prompt.bounds.max": ("{max} 以下の数", "A number of at most {max}"),
    "prompt.bounds.none": ("数（上限・下限なし）", "A number (no limits)"),
    "prompt.change": ("締め切りまで変更できます", "You can change it until the prompt is locked"),
    "prompt.void_open": ("選び直し待ち", "Must choose again"),  # the GM's console: an answer for an option disabled since
    "prompt.void_locked": ("選べなくなった回答", "Answer no longer allowed"),
    "prompt.choose_again": ("選び直してください", "Choose again"),
    "prompt.answer_disabled": ("この回答は選べなくなりました", "This answer can no longer be chosen"),
    "prompt.answer_disabled_why": ("この回答は選べなくなりました：{why}", "This answer can no longer be chosen: {why}"),
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
    "prompt.status.closed": ("終了（非公開）", "Closed, not revealed"),  # open when the session was closed
    "prompt.provisional": ("暫定", "Provisional"),  # a revealed result until the GM confirms it (templates/_resolution.html)
    "prompt.breakdown": ("内訳", "Breakdown"),
    "prompt.total": ("合計", "Total"),
    "prompt.votes": ("票", "votes"),
    "prompt.vote": ("票", "vote"),
    "prompt.set_aside": ("脇に置く", "set aside"),
    "prompt.kept": ("採用", "kept"),
    "phone.you": ("あなたの席", "Your seat"),
    "phone.others": ("他の席", "Other seats"),
    "phone.dice": ("ダイスを振る", "Roll dice"),
    "phone.new_prompt": ("新しい質問", "New prompt"),
    "phone.undone": ("GMが取り消しました", "The GM took back"),  # what of this seat's the GM's undo took back
    "verify.title": ("コミットメントの検証", "Verify commitments"),
    "verify.ok": ("一致", "matches"),
    "verify.bad": ("不一致", "does NOT match"),
    "verify.how": ("秘密の回答は、届いたときにその指紋（コミットメント）だけが全員に公開されています。"
                   "公開された回答とソルトから同じ指紋が計算できれば、その回答は後から変えられていません。",
                   "When a secret answer arrived, only its fingerprint (the commitment) was shown to everyone. "
                   "If the revealed answer and its salt give the same fingerprint, the answer was not changed afterwards."),
    "verify.how_link": ("自分で計算して確かめる方法", "How to check it yourself"),
    "verify.none": ("まだ公開された回答はありません。", "No answer has been revealed yet."),
    "verify.json": ("計算に使う値（JSON）", "Value hashed (JSON)"),
    "verify.seat_of": ("（{name}の席）", "({name}'s seat)"),  # beside a seat vote's hashed seat id
    "verify.back": ("検証ページへ戻る", "Back to the verify page"),
    "verify.help_title": ("コミットメントを自分で確かめる", "Checking a commitment yourself"),
    "verify.help_formula": ("指紋は次の式で計算します。ソルトは回答ごとにgmtoolが選んだ32桁の乱数です。",
                            "The fingerprint is computed as below. The salt is a 32-digit random value gmtool chose for that answer."),
    "verify.help_json": ("回答のJSONは空白なしで、日本語はそのまま書きます。文字列は引用符つき（\"耐久\"）、数は数のまま（7）、複数選択はリスト（[\"a\",\"c\"]）です。",
                         "The answer's JSON has no spaces and keeps Japanese as it is: a text in quotes (\"DEX\"), a number as a number (7), several choices as a list ([\"a\",\"c\"])."),
    "verify.help_python": ("Python で（この卓で公開された回答のひとつの値です）:", "In Python (the values of one of this table's revealed answers):"),
    "verify.help_python_sample": ("Python で（例の値です）:", "In Python (example values):"),
    "verify.help_shell": ("ターミナルで（文字列の回答は引用符ごと）:", "In a terminal (a text answer with its quotes):"),
    "verify.help_compare": ("結果を、公開前に表示されていた指紋（回答したときの受付表示やテーブル画面）とも比べてください。",
                            "Compare the result also with the fingerprint shown before the reveal (on your phone when you answered, or on the table screen)."),
    "error.title": ("エラー", "Error"),
    "error.forbidden": ("このページを見る権限がありません。QRコードを読み直すか、GMに新しいリンクをもらってください。",
                        "You may not open this page. Scan the QR code again or ask the GM for a new link."),
    "ok": ("OK", "OK"),
    "closed": ("このセッションは終了しました", "This session is closed"),
    # A closed screen's way into the campaign's next session (web/common.to_next_session)
    "next.phone": ("次のセッション「{title}」の自分の席へ", "To your seat in the next session, “{title}”"),
    "next.table": ("次のセッション「{title}」の卓画面へ", "To the table screen of the next session, “{title}”"),
    "gm.closed_hint": ("もう何も変えられません。エクスポート、ログ、参加リンクの再発行、次のセッション、検証ページは使えます。",
                       "Nothing can change any more. Export, the log, reissuing a join link, the next session and the verify page still work."),
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


@lru_cache(maxsize=None)
def template_words(lang: str) -> dict:
    """What every template gets for its language: `t` (a UI string by key), `pick` (a stored {"ja", "en"}
    text) and `lang`; one set per language, made once."""
    return {"t": lambda key: translate(key, lang), "pick": lambda label: pick(label, lang), "lang": lang}
