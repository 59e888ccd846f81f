"""Refusals of the access policy (``bot.service.policy``), worded by the ``[svc]`` keys
of the ``access`` topic catalogues (see ``bot.service.errors``)."""

from __future__ import annotations

from bot.service.errors import ServiceError


class NotServerMemberError(ServiceError):
    key = "error.not_server_member"


class CannotSeeChannelError(ServiceError):
    key = "error.cannot_see_channel"


class NotYourGameError(ServiceError):
    key = "error.not_your_game"


class NotModeratorError(ServiceError):
    key = "error.not_game_moderator"
