"""Refusals of the stats commands (worded by the ``[svc]`` keys of the ``stats`` topic
catalogues; these built-in texts are the fallback)."""

from __future__ import annotations

from bot.service.errors import KEY_PARAMS, MESSAGES, ServiceError
from engine.messages import render_from

TEXTS: dict[str, dict[str, str]] = MESSAGES | {
    "error.profile_hidden": {
        "en-US": "{name} keeps their stats private.",
        "zh-CN": "{name}没有公开自己的战绩。",
    },
    "error.no_records": {
        "en-US": "{name} has no finished games here yet.",
        "zh-CN": "{name}在这里还没有打完的对局。",
    },
    "error.forget_while_playing": {
        "en-US": "You are still in game #{game}: its log and its table name you until it ends. Ask to be forgotten once it is over.",
        "zh-CN": "你还在第{game}局中：对局结束前，它的记录和牌桌都会显示你的名字。请在对局结束后再申请被遗忘。",
    },
    "error.page_out_of_range": {
        "en-US": "There is no page {page}: the leaderboard has {pages}.",
        "zh-CN": "没有第{page}页：排行榜共{pages}页。",
    },
}


class StatsError(ServiceError):
    def text(self, locale: str = "en-US") -> str:
        return render_from(TEXTS, "error.service", KEY_PARAMS, self.key, locale, **self.params)


class ProfileHiddenError(StatsError):
    """Someone asked for the stats of a player who has hidden them."""

    key = "error.profile_hidden"


class NoRecordsError(StatsError):
    key = "error.no_records"


class PageOutOfRangeError(StatsError):
    key = "error.page_out_of_range"


class ForgetWhilePlayingError(StatsError):
    """``/stats forget`` from someone still in a game that has not ended (a lobby, a
    running or paused game, or on its standby list): a live game's log is still being
    written, so it is forgotten only once it is over."""

    key = "error.forget_while_playing"
