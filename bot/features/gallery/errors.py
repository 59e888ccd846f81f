"""Refusals of the gallery: ``/game watch`` and ``/game unwatch``, and the seats a
spectator may not take (worded by the ``[svc]`` keys of the catalogues; see
``bot.core.errors``)."""

from __future__ import annotations

from bot.core.errors import ServiceError


class GalleryPracticeError(ServiceError):
    """A practice game has no gallery: it has no server, nobody else to watch it."""

    key = "error.gallery_practice"


class WatchAliveError(ServiceError):
    """A living player asked to watch their own game."""

    key = "error.watch_alive"


class WatchLobbyError(ServiceError):
    """A lobby member asked to watch the game they joined."""

    key = "error.watch_lobby"


class WatchStandbyError(ServiceError):
    """One on the standby list may take a seat: they may not watch."""

    key = "error.watch_standby"


class WatchFormerSeatError(ServiceError):
    """One whose seat was handed to another (still playing it) may not watch."""

    key = "error.watch_former_seat"


class NotWatchingError(ServiceError):
    key = "error.not_watching"


class JoinWhileWatchingError(ServiceError):
    """A spectator asked to join the lobby they watch."""

    key = "error.join_watching"


class WatchedGameSeatError(ServiceError):
    """One who watched the gallery of a started game may take no seat of it."""

    key = "error.watched_no_seat"


class NewcomerWatchedError(ServiceError):
    """A moderator named, for a seat, one who watched the game's gallery."""

    key = "error.newcomer_watched"


class PredictLivingError(ServiceError):
    """A living player of the game asked to predict its winner."""

    key = "error.predict_living"


class PredictNotInGalleryError(ServiceError):
    """One who neither watches the game nor has departed from it asked to predict."""

    key = "error.predict_not_gallery"


class PredictionsClosedError(ServiceError):
    """The round's predictions closed with its Dusk (or the game has moved on)."""

    key = "error.predictions_closed"


class PredictFactionError(ServiceError):
    key = "error.predict_faction"
