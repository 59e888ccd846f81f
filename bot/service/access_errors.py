"""Refusals of the access policy (``bot.service.policy``), with their en-US/zh-CN texts
(the Discord layer shows ``text(locale)``; see ``bot.service.errors``)."""

from __future__ import annotations

from bot.service.errors import KEY_PARAMS, ServiceError
from engine.messages import render_from

MESSAGES: dict[str, dict[str, str]] = {
    "error.service": {"en-US": "That cannot be done now.", "zh-CN": "现在无法执行该操作。"},
    "error.not_server_member": {
        "en-US": "Game #{game_id} is played in a server you are not a member of: only its members can take part.",
        "zh-CN": "第{game_id}局在一个你不是成员的服务器里进行：只有该服务器的成员才能参与。",
    },
    "error.cannot_see_channel": {
        "en-US": "You cannot see game #{game_id}'s channel ({channel}): only those who can read it can take part.",
        "zh-CN": "你看不到第{game_id}局所在的频道（{channel}）：只有能阅读该频道的人才能参与。",
    },
    "error.newcomer_not_member": {
        "en-US": "{user} is not a member of game #{game_id}'s server: only its members can take a seat.",
        "zh-CN": "{user}不是第{game_id}局所在服务器的成员：只有该服务器的成员才能接手座位。",
    },
    "error.newcomer_cannot_see": {
        "en-US": "{user} cannot see game #{game_id}'s channel ({channel}): only those who can read it can take a seat.",
        "zh-CN": "{user}看不到第{game_id}局所在的频道（{channel}）：只有能阅读该频道的人才能接手座位。",
    },
    "error.not_your_game": {
        "en-US": "Game #{game_id}'s replay is for those who sat in it and those who can see its channel.",
        "zh-CN": "第{game_id}局的回放只给坐过这局的人和能看到其频道的人。",
    },
    "error.not_game_moderator": {
        "en-US": "Only a moderator of game #{game_id}'s server can do that.",
        "zh-CN": "只有第{game_id}局所在服务器的管理员才能这样做。",
    },
    "error.board_not_member": {
        "en-US": "That leaderboard belongs to a server you are not a member of.",
        "zh-CN": "那个排行榜属于一个你不是成员的服务器。",
    },
}


class AccessError(ServiceError):
    """A refusal worded by this module's own texts."""

    def text(self, locale: str = "en-US") -> str:
        return render_from(MESSAGES, "error.service", KEY_PARAMS, self.key, locale, **self.params)


class NotServerMemberError(AccessError):
    key = "error.not_server_member"


class CannotSeeChannelError(AccessError):
    key = "error.cannot_see_channel"


class NotYourGameError(AccessError):
    key = "error.not_your_game"


class NotModeratorError(AccessError):
    key = "error.not_game_moderator"
