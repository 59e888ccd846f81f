"""Refusals of the access policy (``bot.core.policy``), worded by the ``[svc]`` keys
of the ``access`` topic catalogues (see ``bot.core.errors``)."""

from __future__ import annotations

from bot.core.errors import ServiceError, WordedError


class NotServerMemberError(ServiceError):
    key = "error.not_server_member"


class CannotSeeChannelError(ServiceError):
    key = "error.cannot_see_channel"


class NotYourGameError(ServiceError):
    key = "error.not_your_game"


class NotModeratorError(WordedError):
    """Not a moderator of the game's server (nor its creator), or of the server a game
    is to be created in."""

    key = "reply.error.not_moderator"
