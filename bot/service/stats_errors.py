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
