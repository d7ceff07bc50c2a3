"""Core's own event types and readings, declared with the same contract as a ruleset's.

Every session holds these besides its ruleset's (`Ruleset.event_types`). Each type names its
fold (engine.py, prompts.py), its log line (logtext.py), its visibility (view.py) and whether
an action that starts with it can be undone by the GM.
"""

from __future__ import annotations

from . import campaign, engine, logtext, prompts, view
from .model import Label
from .ruleset import GM_ONLY, PUBLIC, Choice, EventType, Reading, custom

# The visibilities of core's filtered event types, the same once an undo took the event back (they judge the state
# after the undo: a private counter, a roll still secret, an answer its prompt no longer reveals; a prompt's
# disabled options are each respondent's own).
COUNTER = custom(view.counter_event)
ROLL = custom(view.roll_event)
ANSWER = custom(view.answer_event)
OPENED = custom(view.opened_event)

CORE_EVENTS: tuple[EventType, ...] = (
    EventType("session.created", engine.session_created, logtext.session_created, custom(view.created_event),
              line_key=view.fixed_line),
    EventType("seat.added", engine.seat_added, logtext.seat_added, PUBLIC,
              line_key=view.fixed_line),
    EventType("seat.token_reissued", engine.seat_token_reissued, logtext.seat_token_reissued, GM_ONLY,
              line_key=view.fixed_line),
    EventType("counter.changed", engine.counter_changed, logtext.counter_changed, COUNTER, undone_visibility=COUNTER,
              undoable=True, line_key=view.fixed_line),
    EventType("flag.raised", engine.flag_raised, logtext.flag_raised, COUNTER, undone_visibility=COUNTER,
              line_key=view.fixed_line),
    EventType("flag.lowered", engine.flag_lowered, logtext.flag_lowered, COUNTER, undone_visibility=COUNTER,
              line_key=view.fixed_line),
    EventType("dice.rolled", engine.dice_rolled, logtext.dice_rolled, ROLL, undone_visibility=ROLL, undoable=True,
              line_key=view.roll_line),
    EventType("dice.revealed", engine.dice_revealed, logtext.dice_revealed, PUBLIC, undone_visibility=PUBLIC, undoable=True,
              line_key=view.revealed_roll_line),
    EventType("scene.marked", engine.scene_marked, logtext.scene_marked, PUBLIC, undone_visibility=PUBLIC, undoable=True,
              line_key=view.fixed_line),
    EventType("reading.set", engine.reading_set, logtext.reading_set, PUBLIC, undone_visibility=PUBLIC, undoable=True,
              line_key=view.fixed_line),
    EventType("setting.set", engine.setting_set, logtext.setting_set, GM_ONLY,
              line_key=view.fixed_line),
    EventType("undo", engine.undone, logtext.undone, custom(view.undo_event),
              line_key=view.fixed_line),
    EventType("session.imported", engine.session_imported, logtext.session_imported, PUBLIC,
              line_key=view.fixed_line),
    EventType("campaign.continued", campaign.campaign_continued, logtext.campaign_continued, PUBLIC,
              line_key=view.fixed_line),
    EventType("campaign.next", campaign.campaign_next, logtext.campaign_next, PUBLIC,
              line_key=view.fixed_line),
    EventType("session.closed", engine.session_closed, logtext.session_closed, PUBLIC,
              line_key=view.fixed_line),
    EventType("prompt.opened", prompts.prompt_opened, logtext.prompt_opened, OPENED, undone_visibility=OPENED,
              line_key=view.prompt_line),
    EventType("prompt.answered", prompts.prompt_answered, logtext.prompt_answered, ANSWER, undone_visibility=ANSWER,
              line_key=view.answer_line),
    EventType("prompt.locked", prompts.prompt_locked, logtext.prompt_locked, PUBLIC, undone_visibility=PUBLIC,
              line_key=view.prompt_line),
    EventType("prompt.revealed", prompts.prompt_revealed, logtext.prompt_revealed, PUBLIC, undone_visibility=PUBLIC,
              line_key=view.prompt_line),
    EventType("prompt.resolved", prompts.prompt_resolved, logtext.prompt_resolved, custom(view.resolved_event),
              undone_visibility=custom(view.resolved_undone_event),  # its summary may name answers the undo hid again
              line_key=view.resolved_line),  # seen by all; its line reads the summary and the prompt's title only
    EventType("prompt.extended", prompts.prompt_extended, logtext.prompt_extended, PUBLIC, undone_visibility=PUBLIC,
              line_key=view.prompt_line),
    EventType("prompt.dropped", prompts.prompt_dropped, logtext.prompt_dropped, PUBLIC, undone_visibility=PUBLIC,
              line_key=view.prompt_line),  # names the seat and whether an answer was withdrawn; never the answer
    EventType("prompt.option_disabled", prompts.prompt_option_disabled, logtext.prompt_option_disabled, PUBLIC, undone_visibility=PUBLIC,
              line_key=view.prompt_line),  # names the option and why; changes no answer
    EventType("prompt.cancelled", prompts.prompt_cancelled, logtext.prompt_cancelled, PUBLIC, undone_visibility=PUBLIC,
              line_key=view.prompt_line),
    EventType("prompt.modified", prompts.prompt_modified, logtext.prompt_modified, PUBLIC, undone_visibility=PUBLIC, undoable=True,
              line_key=view.prompt_line),
    EventType("prompt.confirmed", prompts.prompt_confirmed, logtext.prompt_confirmed, PUBLIC, undone_visibility=PUBLIC, undoable=True,
              line_key=view.prompt_line),
)

# Events stored by older versions, in the shape this version folds (none yet for core's own).
CORE_UPCASTERS: dict = {}

DICE_READING = Reading(
    "dice", logtext.GENERAL, Label("ダイス", "Dice"),
    (Choice("server", Label("サーバーが振る（シードから、後で検証可能）", "The server rolls (from the seed, verifiable)")),
     Choice("entered", Label("卓で振った実ダイスの出目を入力する", "Faces of real dice rolled at the table are entered"))),
    "server")

CORE_READINGS: tuple[Reading, ...] = (DICE_READING,)
