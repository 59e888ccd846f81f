"""The game service: the use cases between the rules engine and Discord.

Every function takes a :class:`bot.db.Database` and runs in one unit of work: it either
does all it says or raises a :class:`~bot.service.errors.ServiceError` having written
nothing. No Discord code here; outgoing messages go through the outbox.
"""

from bot.service.advance import advance_phase
from bot.service.deadlines import advance_if_due, next_wakeup, remind_if_due, run_due, serve
from bot.service.dispatch import Dispatcher, MemorySender, Sender, Undeliverable
from bot.service.errors import ServiceError
from bot.service.export import export_game
from bot.service.games import (
    active_game_of,
    create_game,
    game_in_channel,
    get_game,
    join_game,
    leave_game,
    start_game,
)
from bot.service.moderation import (
    cancel_game,
    extend_deadline,
    pause_game,
    remove_player,
    replace_player,
    resume_game,
)
from bot.service.outbox import (
    OutgoingMessage,
    claim_due_messages,
    mark_delivered,
    mark_failed,
    mark_undeliverable,
    read_inbox,
)
from bot.service.submissions import submit, submit_grail, submit_payload, submit_vote
from bot.service.types import GameInfo, GameSettings, Receipt, StepResult, UserRef
from bot.service.verify import VerifyReport, verify_log
from bot.service.views import PlayerView, player_view

__all__ = [
    "Dispatcher",
    "GameInfo",
    "GameSettings",
    "MemorySender",
    "OutgoingMessage",
    "PlayerView",
    "Receipt",
    "Sender",
    "ServiceError",
    "StepResult",
    "Undeliverable",
    "UserRef",
    "VerifyReport",
    "active_game_of",
    "advance_if_due",
    "advance_phase",
    "cancel_game",
    "claim_due_messages",
    "create_game",
    "export_game",
    "extend_deadline",
    "game_in_channel",
    "get_game",
    "join_game",
    "leave_game",
    "mark_delivered",
    "mark_failed",
    "mark_undeliverable",
    "next_wakeup",
    "pause_game",
    "player_view",
    "read_inbox",
    "remind_if_due",
    "remove_player",
    "replace_player",
    "resume_game",
    "run_due",
    "serve",
    "start_game",
    "submit",
    "submit_grail",
    "submit_payload",
    "submit_vote",
    "verify_log",
]
