"""Typed service errors. Each carries a message ``key`` and ``params`` for the Discord
layer's catalogues, plus built-in en-US/zh-CN texts so a message is never missing.

When one is raised nothing has been written: every use case runs in one unit of work
that rolls back on the error.
"""

from __future__ import annotations

from typing import Any

from engine import RuleViolation
from engine.messages import MESSAGES as ENGINE_MESSAGES
from engine.messages import render_from

# The parameters that carry a message key (see ServiceError.text).
KEY_PARAMS = frozenset({"phase", "expected"})

MESSAGES: dict[str, dict[str, str]] = {
    "error.service": {"en-US": "That cannot be done now.", "zh-CN": "现在无法执行该操作。"},
    "error.bad_argument": {
        "en-US": "Invalid {field}: {reason}.",
        "zh-CN": "{field}无效：{reason}。",
    },
    "error.setting_fixed": {
        "en-US": "{field} is fixed once the game has started.",
        "zh-CN": "游戏开始后就不能再修改{field}。",
    },
    "error.max_below_joined": {
        "en-US": "{joined} players have already joined: the player limit cannot be lower.",
        "zh-CN": "已有{joined}名玩家加入，人数上限不能低于这个数。",
    },
    "error.game_not_found": {"en-US": "No such game.", "zh-CN": "找不到这局游戏。"},
    "error.no_active_game": {
        "en-US": "You are not in any game right now.",
        "zh-CN": "你目前没有参加任何游戏。",
    },
    "error.channel_has_game": {
        "en-US": "This channel already has a game (#{game_id}).",
        "zh-CN": "这个频道已经有一局游戏（第{game_id}局）。",
    },
    "error.already_in_game": {
        "en-US": "You are already in game #{game_id}, in {channel}; one game at a time.",
        "zh-CN": "你已经在{channel}的第{game_id}局游戏中；同一时间只能参加一局。",
    },
    "error.already_joined": {"en-US": "You have already joined this game.", "zh-CN": "你已经加入了这局游戏。"},
    "error.kicked_from_lobby": {
        "en-US": "A moderator has taken you out of game #{game_id}'s lobby: you cannot join it again.",
        "zh-CN": "管理员已将你移出第{game_id}局的大厅：你不能再次加入。",
    },
    "error.newcomer_busy": {
        "en-US": "{name} is already in game #{game_id}, in {channel}; a player plays one game at a time.",
        "zh-CN": "{name}已经在{channel}的第{game_id}局游戏中；每人同一时间只能参加一局。",
    },
    "error.newcomer_was_seated": {
        "en-US": "{name} held seat {seat} of this game before and cannot take another seat: they know that seat's secrets.",
        "zh-CN": "{name}在本局中曾占据{seat}号座位，不能再接手其他座位：此人知道那个座位的秘密。",
    },
    "error.lobby_full": {"en-US": "The lobby is full ({max} players).", "zh-CN": "大厅已满（{max}人）。"},
    "error.lobby_closed": {
        "en-US": "The game has already started or ended.",
        "zh-CN": "游戏已经开始或结束。",
    },
    "error.not_enough_players": {
        "en-US": "At least {min} players are needed; {count} have joined.",
        "zh-CN": "至少需要{min}名玩家；目前有{count}人加入。",
    },
    "error.not_in_game": {"en-US": "You are not in this game.", "zh-CN": "你不在这局游戏中。"},
    "error.not_running": {"en-US": "The game is not running.", "zh-CN": "游戏没有在进行中。"},
    "error.not_started": {
        "en-US": "The game has not started yet: a moderator starts it with `/mod start`.",
        "zh-CN": "游戏尚未开始：由管理员用 `/管理 开始`（`/mod start`）开始。",
    },
    "error.game_paused": {"en-US": "The game is paused.", "zh-CN": "游戏已暂停。"},
    "error.paused_advance": {
        "en-US": "The game is paused: resume it (/phase resume) before advancing.",
        "zh-CN": "游戏已暂停：请先恢复游戏（/phase resume）再推进。",
    },
    "error.already_paused": {"en-US": "The game is already paused.", "zh-CN": "游戏已经暂停了。"},
    "error.not_paused": {"en-US": "The game is not paused.", "zh-CN": "游戏没有暂停。"},
    "error.extend_at_limit": {
        "en-US": "The phase already has as long left as a phase may run ({days} days): nothing was changed.",
        "zh-CN": "本阶段剩余时间已达上限（{days}天）：未作任何更改。",
    },
    "error.game_finished": {"en-US": "The game has ended.", "zh-CN": "游戏已经结束。"},
    "error.game_not_over": {
        "en-US": "Game #{game_id} is not over yet: its replay and full log come once it has ended.",
        "zh-CN": "第{game_id}局还没有结束：复盘和完整记录要等游戏结束后才能获取。",
    },
    "error.game_never_played": {
        "en-US": "Game #{game_id} was cancelled before it started: there is nothing to replay.",
        "zh-CN": "第{game_id}局在开始前就取消了：没有可以复盘的内容。",
    },
    "error.phase_closed": {
        "en-US": "Too late: {phase} of round {round} has closed; nothing was recorded.",
        "zh-CN": "太迟了：第{round}轮的{phase}已经结束，本次提交没有记录。",
    },
    "error.already_advanced": {
        "en-US": "That phase has already been resolved; it is now {phase} of round {round}.",
        "zh-CN": "该阶段已经结算；现在是第{round}轮的{phase}。",
    },
    "error.concurrent_change": {
        "en-US": "Someone changed the game at the same moment; please try again.",
        "zh-CN": "有人同时修改了这局游戏；请重试。",
    },
    "error.seat_not_found": {"en-US": "There is no seat {seat}.", "zh-CN": "没有{seat}号座位。"},
    "error.seat_gone": {
        "en-US": "Seat {seat} has left the game.",
        "zh-CN": "{seat}号已经出局。",
    },
    # The rule refusal and the phases' names read as the engine words them.
    **{k: v for k, v in ENGINE_MESSAGES.items() if k == "error.rule" or k.startswith("phase.")},
}


class ServiceError(Exception):
    """A use case refused. ``key``/``params`` are for the translated reply."""

    key = "error.service"

    def __init__(self, key: str | None = None, **params: Any) -> None:
        self.key = key or type(self).key
        self.params = params
        super().__init__(self.text("en-US"))

    def text(self, locale: str = "en-US") -> str:
        # A phase parameter holds a message key, shown in the same language; any other
        # value (a name, typed text) is shown as it is, even if it looks like a key.
        return render_from(MESSAGES, "error.service", KEY_PARAMS, self.key, locale, **self.params)


class BadArgumentError(ServiceError):
    key = "error.bad_argument"


class SettingFixedError(BadArgumentError):
    """A rule setting (``field``) changed after the start."""

    key = "error.setting_fixed"


class MaxBelowJoinedError(BadArgumentError):
    key = "error.max_below_joined"


class GameNotFoundError(ServiceError):
    key = "error.game_not_found"


class NoActiveGameError(ServiceError):
    key = "error.no_active_game"


class ChannelHasGameError(ServiceError):
    key = "error.channel_has_game"


class AlreadyInGameError(ServiceError):
    key = "error.already_in_game"


class AlreadyJoinedError(AlreadyInGameError):
    """Joining the game one has already joined."""

    key = "error.already_joined"


class KickedFromLobbyError(ServiceError):
    """Joining a lobby a moderator has taken one out of."""

    key = "error.kicked_from_lobby"


class NewcomerBusyError(ServiceError):
    """The newcomer of a replacement is already in a game (said to the moderator)."""

    key = "error.newcomer_busy"


class NewcomerWasSeatedError(ServiceError):
    """The newcomer of a replacement held another seat of this game (removed, replaced or
    dead): they know its secrets, so they may not play a second one."""

    key = "error.newcomer_was_seated"


class LobbyFullError(ServiceError):
    key = "error.lobby_full"


class LobbyClosedError(ServiceError):
    key = "error.lobby_closed"


class NotEnoughPlayersError(ServiceError):
    key = "error.not_enough_players"


class NotInGameError(ServiceError):
    key = "error.not_in_game"


class GameNotRunningError(ServiceError):
    key = "error.not_running"


class GameNotOverError(ServiceError):
    """The replay or the full log of a game still in play (it would tell its secrets)."""

    key = "error.game_not_over"


class GameNeverPlayedError(ServiceError):
    """The replay of a lobby cancelled before the start: no step to show."""

    key = "error.game_never_played"


class GameNotStartedError(GameNotRunningError):
    key = "error.not_started"


class GamePausedError(GameNotRunningError):
    key = "error.game_paused"


class NotPausedError(ServiceError):
    key = "error.not_paused"


class ExtendAtLimitError(ServiceError):
    key = "error.extend_at_limit"


class GameFinishedError(GameNotRunningError):
    key = "error.game_finished"


class PhaseClosedError(ServiceError):
    key = "error.phase_closed"


class AlreadyAdvancedError(ServiceError):
    key = "error.already_advanced"


class ConcurrentChangeError(ServiceError):
    key = "error.concurrent_change"


class SeatNotFoundError(ServiceError):
    key = "error.seat_not_found"


class SeatGoneError(ServiceError):
    key = "error.seat_gone"


class RuleRefusedError(ServiceError):
    """The engine refused a submission. Carries the engine's own key and parameters, and
    renders with the engine's catalogue."""

    key = "error.rule"

    def __init__(self, violation: RuleViolation) -> None:
        self.violation = violation
        super().__init__(violation.key, **violation.params)

    def text(self, locale: str = "en-US") -> str:
        return self.violation.text(locale)
