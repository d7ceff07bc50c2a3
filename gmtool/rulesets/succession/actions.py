"""Grail Succession: the actions (docs/rulesets/succession.md): setup, the starting row, play, take,
the GM's skip, score-only entries and the rematch. Each is pure: it checks the rules (rules.py)
and returns the event drafts; round ends and the game's end are written by the move that causes them.
"""

from __future__ import annotations

from gmtool.core.commands import CounterRun, clean_text, flag_field, require_open, seat_of, text_field
from gmtool.core.dice import is_entered
from gmtool.core.errors import Conflict, Forbidden, GmError, choices_text
from gmtool.core.model import State
from gmtool.core.ruleset import ActionContext, action, reading_value
from gmtool.core.turns import Turns, roll_order

from . import cards as C
from . import rules as R
from . import scoring as S
from .state import FIRST_READING, TIE_READING, in_play, sx
from .strings import STRINGS

HAND = "hand"


# -- helpers --------------------------------------------------------------------------------------

def game(state: State) -> dict:
    """The running game, or a 409 before setup."""
    require_open(state)
    s = sx(state)
    if s is None:
        ja, en = STRINGS["succession.start_game"]  # the console's button
        raise Conflict(f"まだ準備をしていません（GMが「{ja}」で始めます）", f"The game is not set up yet (the GM starts it "
                       f"with the '{en}' button)")
    return s


def running(state: State, mode: str = "turns") -> dict:
    """A game that is not over, in `mode`."""
    s = game(state)
    if s["finished"]:
        raise Conflict("ゲームは終了しています（新しいゲームは「再戦（先手交代）」）",
                       "The game is over (a new game: 'Rematch (first player flipped)')")
    if s["mode"] != mode:
        raise Conflict("得点のみのモードでは手番を記録しません" if mode == "turns" else "このゲームは手番を記録するモードです",
                       "This game is in score-only mode: turns are not tracked" if mode == "turns"
                       else "This game tracks turns: the score comes from the takes")
    return s


def _seat_words(state: State, seat) -> tuple[str, str]:
    """A seat as a player reads it (ja, en): its name, or "that seat" for one that is not there (never its id)."""
    seat = str(seat)
    return (state.seat_name(seat),) * 2 if seat in state.seats else ("その席", "that seat")


def own_seat(s: dict, payload: dict, ctx: ActionContext) -> str:
    """A phone's own seat, which must be a player's: naming another seat is refused (403), not ignored (it wrote the
    phone's own entry), as every game's phone is."""
    if payload.get("seat") not in (None, "", ctx.viewer.seat):
        raise Forbidden("他のプレイヤーの操作はできません", "You cannot act for another player")
    if ctx.viewer.seat not in s["players"]:
        raise Forbidden("このゲームのプレイヤーではありません", "You are not a player of this game")
    return ctx.viewer.seat


def mover(state: State, s: dict, payload: dict, ctx: ActionContext) -> str:
    """The player making this move: a seat moves for itself, on its turn; the GM moves for the current player."""
    turns = Turns.from_dict(s["turns"])
    if ctx.viewer.is_gm:
        seat = text_field(payload, "seat", turns.current or "", ja="席")
        if seat not in s["players"]:
            ja, en = _seat_words(state, seat)
            raise GmError(f"{ja}はこのゲームのプレイヤーではありません", f"Not a player of this game: {en}")
    else:
        seat = own_seat(s, payload, ctx)
    if seat != turns.current:
        raise Conflict(f"今は{state.seat_name(turns.current)}の手番です（G-1）",
                       f"It is {state.seat_name(turns.current)}'s turn (G-1)")
    if s["start_cards"] < R.START_ROW:
        raise Conflict(f"先に領地列の最初のカード{R.START_ROW}枚を入力してください", f"Enter the {R.START_ROW} starting row cards first")
    return seat


def tallies(s: dict, extra: dict[str, list] | None = None) -> dict[str, dict]:
    """Each player's captured cards counted (with `extra` cards added for a take being drafted)."""
    extra = extra or {}
    return {p: S.tally(s["captured"][p] + extra.get(p, [])) for p in s["players"]}


def _scores(result_scores: dict) -> dict:
    return {p: {k: v for k, v in sc.items()} for p, sc in result_scores.items()}


def _finish_turn(state: State, s: dict, tx: CounterRun, seat: str, extra: dict[str, list], row_after: int) -> None:
    """After a move: a grail succession (G-3), else the round's end (refill, flip) or the game's end (G-2/G-3)."""
    t = tallies(s, extra)
    tie = reading_value(state, TIE_READING)
    if S.grail_winner(t):
        res = S.result(t, tie)
        tx.emit("succession.game_ended", {"winner": res["winner"], "reason": "grail", "rematch": False,
                                          "round": s["round"], "scores": _scores(res["scores"])})
        return
    if s["moves"] + 1 < R.PLAYERS * R.TURNS_PER_ROUND:
        return
    if s["round"] >= R.ROUNDS:
        res = S.result(t, tie)
        tx.emit("succession.game_ended", {"winner": res["winner"], "reason": res["reason"], "rematch": res["rematch"],
                                          "round": s["round"], "scores": _scores(res["scores"])})
        return
    other = next(p for p in s["players"] if p != s["first"])
    tx.emit("succession.round_ended", {"round": s["round"], "next_first": other, "row": row_after,
                                       "scores": _scores(S.score(t))})
    tx.emit("scene.marked", {"title": round_title(s["game"], s["round"] + 1)})
    for p in s["players"]:
        tx.set(p, HAND, R.HAND_SIZE, {"ja": f"第{s['round'] + 1}ラウンド", "en": f"Round {s['round'] + 1}"}, "G-1")


# -- actions --------------------------------------------------------------------------------------

def round_title(number: int, round_no: int) -> dict:
    """The export's heading of one round (a core scene marker), in both languages (shown in the reader's)."""
    return {"ja": f"第{number}ゲーム 第{round_no}ラウンド", "en": f"Game {number}, round {round_no}"}


def _players(state: State, payload: dict) -> list[str]:
    players = payload.get("players")
    if players in (None, "", []):
        players = list(state.seats)
    if isinstance(players, str):
        players = [p for p in players.replace(",", " ").split() if p]
    if not isinstance(players, list) or len(players) != R.PLAYERS or len(set(map(str, players))) != R.PLAYERS:
        raise GmError("聖杯サクセションは2人用です（プレイヤーに席を2つ）", "Grail Succession is for exactly two players (two seats in players)")
    players = [str(p) for p in players]
    for p in players:
        if p not in state.seats:
            seat_of(state, p)
    return players


def _row(payload: dict) -> list[dict]:
    row = payload.get("row") or []
    if isinstance(row, (str, dict)):
        row = [row]
    if not isinstance(row, list) or len(row) > R.START_ROW:
        raise GmError(f"最初の領地列は{R.START_ROW}枚です", f"The row starts with {R.START_ROW} cards")
    cards = [C.parse_card(c) for c in row]
    if sum(c["kind"] == "grail" for c in cards) > C.SUPPLY["grail"]:
        raise GmError("聖杯カードは3枚です", "There are three grail cards")
    return cards


MODES = {"turns": STRINGS["succession.turns_mode"], "score": STRINGS["succession.score_only_mode"]}  # as the console


def _mode(payload: dict) -> str:
    mode = text_field(payload, "mode", "turns", ja="記録の仕方")
    if mode not in MODES:
        ja, en = choices_text(MODES)
        raise GmError(f"記録の仕方は{ja}のどちらかです", f"The mode must be one of: {en}")
    return mode


def _setup_drafts(state: State, tx: CounterRun, players: list[str], first: str, how: str, mode: str, row: list[dict],
                  number: int, rolls: dict | None = None, entered: bool = False, dice_next: int | None = None) -> None:
    data = {"players": players, "first": first, "how": how, "mode": mode, "row": row, "game": number}
    if rolls is not None:
        data.update({"rolls": rolls, "entered": entered, "dice_next": dice_next})
    tx.emit("succession.setup", data)
    tx.emit("scene.marked", {"title": round_title(number, 1) if mode == "turns"
                             else {"ja": f"第{number}ゲーム 得点計算", "en": f"Game {number}, scoring"}})
    for p in players:
        tx.set(p, HAND, R.HAND_SIZE if mode == "turns" else 0, {"ja": f"第{number}ゲーム", "en": f"Game {number}"}, "G-1")


def setup(state: State, payload: dict, ctx: ActionContext) -> list:
    """G-1: two players, who starts (the GM's pick, or a die each: higher starts, ties re-roll), the starting row."""
    require_open(state)
    if sx(state) is not None:
        raise Conflict("ゲームは準備済みです（新しいゲームは終了後の「再戦（先手交代）」）",
                       "The game is already set up (a new game: 'Rematch (first player flipped)' once it is over)")
    players = _players(state, payload)
    mode = _mode(payload)
    row = _row(payload)
    first = payload.get("first")
    tx = CounterRun(state)
    by_dice = first == "dice" or (first in (None, "") and reading_value(state, FIRST_READING) == "dice")
    if by_dice:
        rolled = roll_order(players, ctx.dice, 6)
        _setup_drafts(state, tx, players, rolled["order"][0], "dice", mode, row, 1, rolled["rolls"],
                      is_entered(ctx.dice), ctx.dice.next_index)
    else:
        if first in (None, ""):
            ja, en = STRINGS["succession.by_dice"]  # the console's choice
            raise GmError(f"最初の先手を選ぶか「{ja}」を選んでください",
                          f"Choose who starts, or '{en}' (first: a seat, or dice)")
        if str(first) not in players:  # the choices by name, as the console offers them (a player reads no seat id)
            names = [state.seat_name(p) for p in players]
            ja, en = STRINGS["succession.by_dice"]
            raise GmError(f"先手は「{names[0]}」「{names[1]}」「{ja}」のどれかです",
                          f"The first player must be {names[0]}, {names[1]} or '{en}' (first: one of the players, or dice)")
        _setup_drafts(state, tx, players, str(first), "gm", mode, row, 1)
    return tx.drafts


def start_card(state: State, payload: dict, ctx: ActionContext) -> list:
    """Seed 準備③: one of the two face-up cards that start the row (before the first move)."""
    s = running(state)
    if s["start_cards"] >= R.START_ROW or s["moves"]:
        raise Conflict(f"最初の領地列は{R.START_ROW}枚まで、最初の手番の前に入力します",
                       f"The {R.START_ROW} starting row cards are entered before the first move")
    card = C.parse_card(payload.get("card", payload.get("kind")), payload.get("value"))
    C.check_supply(in_play(s), card)
    return [("succession.start_card", {"card": card})]


def play(state: State, payload: dict, ctx: ActionContext) -> list:
    """G-1: the current player puts a card from their hand at the end of the row (not with an empty hand)."""
    s = running(state)
    seat = mover(state, s, payload, ctx)
    hand = state.counters[seat][HAND]
    R.check_play(hand, s["took"][seat], len(s["row"]))
    card = C.parse_card(payload.get("card", payload.get("kind")), payload.get("value"))
    C.check_supply(in_play(s), card)
    turns = Turns.from_dict(s["turns"])
    tx = CounterRun(state)
    tx.emit("succession.played", {"seat": seat, "card": card, "round": s["round"], "turn": turns.round,
                                  "row": len(s["row"]) + 1, "hand": hand - 1})
    tx.set(seat, HAND, hand - 1, "", "G-1")  # the play's own line says why
    _finish_turn(state, s, tx, seat, {}, len(s["row"]) + 1)
    return tx.drafts


def take(state: State, payload: dict, ctx: ActionContext) -> list:
    """G-1: the current player takes the last 5 cards of the row (all when fewer), once per round, not from an empty row."""
    s = running(state)
    seat = mover(state, s, payload, ctx)
    R.check_take(s["took"][seat], len(s["row"]))
    left, cards = R.take_split(s["row"])
    turns = Turns.from_dict(s["turns"])
    score = S.score(tallies(s, {seat: cards}))[seat]["total"]
    tx = CounterRun(state)
    tx.emit("succession.taken", {"seat": seat, "cards": cards, "round": s["round"], "turn": turns.round,
                                 "row": len(left), "score": score})
    _finish_turn(state, s, tx, seat, {seat: cards}, len(left))
    return tx.drafts


def skip_turn(state: State, payload: dict, ctx: ActionContext) -> list:
    """The GM passes the current turn when it has no legal move (G-1 cannot be followed: a correction)."""
    s = running(state)
    seat = mover(state, s, payload, ctx)
    legal = R.moves(state.counters[seat][HAND], s["took"][seat], len(s["row"]))
    if not legal["stuck"] and not flag_field(payload, "force", ja="強制"):
        raise Conflict("この手番には出す・取るのどちらかができます（それでも飛ばすなら「手番を飛ばす」）",
                       "This turn has a legal move (play or take); to skip it anyway: 'Skip the turn'")
    reason = clean_text(payload.get("reason"), "理由", "reason", 100, False) or ""  # none: the log says the GM's ruling
    turns = Turns.from_dict(s["turns"])
    tx = CounterRun(state)
    tx.emit("succession.skipped", {"seat": seat, "reason": reason, "round": s["round"], "turn": turns.round})
    _finish_turn(state, s, tx, seat, {}, len(s["row"]))
    return tx.drafts


def enter_counts(state: State, payload: dict, ctx: ActionContext) -> list:
    """Score-only mode (G-2): a player enters their captured cards; when both have, the result (G-2/G-3)."""
    s = game(state)  # an entry may be corrected after the result, which is then written again
    if s["mode"] != "score":
        raise Conflict("このゲームは手番を記録するモードです", "This game tracks turns: the score comes from the takes")
    if ctx.viewer.is_gm:
        seat = text_field(payload, "seat", ja="席")
        if seat not in s["players"]:
            raise GmError("入力するプレイヤーの席を選んでください", "Choose the seat whose cards these are (seat)")
    else:
        seat = own_seat(s, payload, ctx)
    counts = S.parse_counts(payload)
    entries = {**s["entries"], seat: counts}
    S.check_entries(list(entries.values()))
    drafts = [("succession.counts_entered", {"seat": seat, "counts": counts})]
    if len(entries) == R.PLAYERS:
        res = S.result({p: entries[p] for p in s["players"]}, reading_value(state, TIE_READING))
        drafts.append(("succession.game_ended", {"winner": res["winner"], "reason": res["reason"],
                                                 "rematch": res["rematch"], "round": None,
                                                 "scores": _scores(res["scores"])}))
    return drafts


def rematch(state: State, payload: dict, ctx: ActionContext) -> list:
    """G-3: a new game with the same players, the first player flipped (one tap, after a game is over)."""
    s = game(state)
    if not s["finished"]:
        raise Conflict("ゲームはまだ終わっていません", "The game is not over yet")
    first = next(p for p in s["players"] if p != s["opener"])
    row = _row(payload)
    mode = _mode(payload) if payload.get("mode") else s["mode"]
    tx = CounterRun(state)
    _setup_drafts(state, tx, list(s["players"]), first, "rematch", mode, row, s["game"] + 1)
    return tx.drafts


ACTIONS = dict((
    action("setup", "準備", "Set up", setup),
    action("start_card", "最初の領地列のカード", "Starting row card", start_card),
    action("play", "カードを出す", "Play a card", play, "seat"),
    action("take", "カードを取る", "Take cards", take, "seat"),
    action("skip_turn", "手番を飛ばす", "Skip the turn", skip_turn),
    action("enter_counts", "獲得カードを入力", "Enter captured cards", enter_counts, "seat"),
    action("rematch", "再戦", "Rematch", rematch),
))


