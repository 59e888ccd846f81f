"""Refusals of the standby list and its seat offers (worded by the ``[svc]`` keys of the
catalogues; see ``bot.core.errors``)."""

from __future__ import annotations

from bot.core.errors import ServiceError


class StandbyInGameError(ServiceError):
    key = "error.standby_in_game"


class StandbyFormerSeatError(ServiceError):
    key = "error.standby_former_seat"


class AlreadyStandbyError(ServiceError):
    key = "error.already_standby"


class NotStandbyError(ServiceError):
    key = "error.not_standby"


class NoStandbyError(ServiceError):
    key = "error.no_standby"


class OfferNotFoundError(ServiceError):
    key = "error.offer_not_found"


class OfferNotYoursError(ServiceError):
    key = "error.offer_not_yours"


class OfferClosedError(ServiceError):
    key = "error.offer_closed"
