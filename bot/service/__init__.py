"""The game service: the use cases between the rules engine and Discord.

Every function takes a :class:`bot.db.Database` and runs in one unit of work: it either
does all it says or raises a :class:`~bot.service.errors.ServiceError` having written
nothing. No Discord code here; outgoing messages go through the outbox.
"""

from bot.service.advance import advance_phase
from bot.service.ai_seats import seat_to_ai
from bot.service.ai_turns import plan_missing as plan_missing_ai_turns
from bot.service.commands import (
    ActSkill,
    AddAction,
    AddGuess,
    Command,
    SendGrail,
    Sending,
    SendSubmission,
    SendVote,
    ToggleSkill,
    Withdraw,
    handle,
)
from bot.service.dead_channels import dead_channel_of, game_channel_of_dead, record_dead_channel
from bot.service.deadlines import advance_if_due, next_wakeup, remind_if_due, run_due
from bot.service.dispatch import Dispatcher, MemorySender, Sender, Undeliverable
from bot.service.dm_channels import dm_channel_of, forget_dm_channel, remember_dm_channel
from bot.service.effects import (
    games_to_reconcile,
    mark_all_reconciled,
    mark_effects_due,
    mark_rechecks,
    mark_reconciled,
)
from bot.service.errors import ServiceError
from bot.service.export import export_finished, export_game, replay_for
from bot.service.games import (
    active_game_of,
    create_game,
    game_in_channel,
    games_moderated_by,
    get_game,
    join_game,
    kick_from_lobby,
    latest_game_in_channel,
    leave_game,
    live_games,
    removed_players,
    start_game,
)
from bot.service.inbox import mark_inbox_read, read_inbox
from bot.service.lineup_odds import store_odds
from bot.service.lineup_odds import stored_keys as stored_odds_keys
from bot.service.live_places import GamePlace, live_game_places, servers_to_ask
from bot.service.moderation import (
    cancel_game,
    end_game,
    extend_deadline,
    pause_game,
    remove_player,
    replace_player,
    resume_game,
    update_settings,
)
from bot.service.outbox import (
    OutgoingMessage,
    claim_due_messages,
    delivered_message_id,
    mark_delivered,
    mark_failed,
    mark_undeliverable,
    recorded_message_ids,
    release,
    retry_held_now,
)
from bot.service.recap import seat_recap
from bot.service.standbys import accept_offer, join_standby, leave_standby, offer_seat, offered_game
from bot.service.table import TableView, table_view
from bot.service.types import (
    GameInfo,
    GameSettings,
    PhaseStatus,
    Receipt,
    StepResult,
    UserRef,
)
from bot.service.users import locale_of, note_locale
from bot.service.verify import VerifyReport, verify_log
from bot.service.views import (
    PlayerView,
    phase_status,
    player_view,
    player_view_here,
    require_open_for,
)

__all__ = [
    "ActSkill",
    "AddAction",
    "AddGuess",
    "Command",
    "Dispatcher",
    "GameInfo",
    "GamePlace",
    "GameSettings",
    "MemorySender",
    "OutgoingMessage",
    "PhaseStatus",
    "PlayerView",
    "Receipt",
    "SendGrail",
    "SendSubmission",
    "SendVote",
    "Sender",
    "Sending",
    "ServiceError",
    "StepResult",
    "TableView",
    "ToggleSkill",
    "Undeliverable",
    "UserRef",
    "VerifyReport",
    "Withdraw",
    "accept_offer",
    "active_game_of",
    "advance_if_due",
    "advance_phase",
    "cancel_game",
    "claim_due_messages",
    "create_game",
    "dead_channel_of",
    "delivered_message_id",
    "dm_channel_of",
    "end_game",
    "export_finished",
    "export_game",
    "extend_deadline",
    "forget_dm_channel",
    "game_channel_of_dead",
    "game_in_channel",
    "games_moderated_by",
    "games_to_reconcile",
    "get_game",
    "handle",
    "join_game",
    "join_standby",
    "kick_from_lobby",
    "latest_game_in_channel",
    "leave_game",
    "leave_standby",
    "live_game_places",
    "live_games",
    "locale_of",
    "mark_all_reconciled",
    "mark_delivered",
    "mark_effects_due",
    "mark_failed",
    "mark_inbox_read",
    "mark_rechecks",
    "mark_reconciled",
    "mark_undeliverable",
    "next_wakeup",
    "note_locale",
    "offer_seat",
    "offered_game",
    "pause_game",
    "phase_status",
    "plan_missing_ai_turns",
    "player_view",
    "player_view_here",
    "read_inbox",
    "record_dead_channel",
    "recorded_message_ids",
    "release",
    "remember_dm_channel",
    "remind_if_due",
    "remove_player",
    "removed_players",
    "replace_player",
    "replay_for",
    "require_open_for",
    "resume_game",
    "retry_held_now",
    "run_due",
    "seat_recap",
    "seat_to_ai",
    "servers_to_ask",
    "start_game",
    "store_odds",
    "stored_odds_keys",
    "table_view",
    "update_settings",
    "verify_log",
]
