"""Refusals of the stats commands (worded by the ``[svc]`` keys of the ``stats`` topic
catalogues; see ``bot.core.errors``)."""

from __future__ import annotations

from bot.core.errors import ServiceError


class ProfileHiddenError(ServiceError):
    """Someone asked for the stats of a player who has hidden them."""

    key = "error.profile_hidden"


class NoRecordsError(ServiceError):
    key = "error.no_records"


class PageOutOfRangeError(ServiceError):
    key = "error.page_out_of_range"


class ForgetNotYoursError(ServiceError):
    """The confirmation of ``/stats forget`` pressed by someone else than the one it
    names (a forged ``wh:forget:<user>``): only a user may have themselves forgotten."""

    key = "error.forget_not_yours"


class ForgetWhilePlayingError(ServiceError):
    """``/stats forget`` from someone still in a game that has not ended (a lobby, a
    running or paused game, or on its standby list): a live game's log is still being
    written, so it is forgotten only once it is over."""

    key = "error.forget_while_playing"
