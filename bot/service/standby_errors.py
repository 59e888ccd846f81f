"""Refusals of the standby list and its seat offers, with their en-US/zh-CN texts (the
Discord layer shows ``text(locale)``; see ``bot.service.errors``)."""

from __future__ import annotations

from bot.service.errors import KEY_PARAMS, ServiceError
from engine.messages import render_from

MESSAGES: dict[str, dict[str, str]] = {
    "error.service": {"en-US": "That cannot be done now.", "zh-CN": "现在无法执行该操作。"},
    "error.standby_in_game": {
        "en-US": "You are in game #{game_id} already: the standby list is for those who are not.",
        "zh-CN": "你已经在第{game_id}局游戏中了：替补名单是给局外的人准备的。",
    },
    "error.standby_former_seat": {
        "en-US": "You held seat {seat} of game #{game_id}: you know its secrets, so you cannot stand by for it.",
        "zh-CN": "你曾占据第{game_id}局的{seat}号座位，知道它的秘密，不能做这局的替补。",
    },
    "error.already_standby": {
        "en-US": "You are already on game #{game_id}'s standby list.",
        "zh-CN": "你已经在第{game_id}局的替补名单上了。",
    },
    "error.not_standby": {
        "en-US": "You are not on game #{game_id}'s standby list.",
        "zh-CN": "你不在第{game_id}局的替补名单上。",
    },
    "error.no_standby": {
        "en-US": "Nobody on game #{game_id}'s standby list can take a seat now: name a newcomer instead.",
        "zh-CN": "第{game_id}局的替补名单上现在没有人能接手座位：请直接指定一位新玩家。",
    },
    "error.offer_already_open": {
        "en-US": "Seat {seat} is already offered to a standby; wait for their answer.",
        "zh-CN": "{seat}号座位已经在询问一位替补，请等待对方答复。",
    },
    "error.offer_not_found": {"en-US": "That offer does not exist.", "zh-CN": "找不到这份邀请。"},
    "error.offer_not_yours": {
        "en-US": "That offer was made to someone else.",
        "zh-CN": "这份邀请是发给别人的。",
    },
    "error.offer_closed": {
        "en-US": "The offer of seat {seat} in game #{game_id} has expired or was taken: nothing changed.",
        "zh-CN": "第{game_id}局{seat}号座位的邀请已经过期或已有人接手：什么都没有改变。",
    },
}


class StandbyError(ServiceError):
    """A refusal worded by this module's own texts."""

    def text(self, locale: str = "en-US") -> str:
        return render_from(MESSAGES, "error.service", KEY_PARAMS, self.key, locale, **self.params)


class StandbyInGameError(StandbyError):
    key = "error.standby_in_game"


class StandbyFormerSeatError(StandbyError):
    key = "error.standby_former_seat"


class AlreadyStandbyError(StandbyError):
    key = "error.already_standby"


class NotStandbyError(StandbyError):
    key = "error.not_standby"


class NoStandbyError(StandbyError):
    key = "error.no_standby"


class OfferNotFoundError(StandbyError):
    key = "error.offer_not_found"


class OfferNotYoursError(StandbyError):
    key = "error.offer_not_yours"


class OfferClosedError(StandbyError):
    key = "error.offer_closed"
